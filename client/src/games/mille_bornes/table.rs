//! A 1000 Bornes table over the wire: its lobby (seats, the first player's options of M-14)
//! and the game screen fed by the client core's mirror ([`NetTable`], the same screen as
//! Practice's). A Coup-Fourré goes out as a timed request: `shown` is the frame that first
//! drew the attack (the grab's own stamp, `race::stamp_shown`), `input` the key or the click.

pub use super::net_table::NetTable;
use crate::embed::HostAsk;
use crate::lang::Words;
use crate::live::{CommandOf, LiveOf};
use crate::replay::{Night, ReplayError};
use crate::state::MirrorOf;
use crate::ui::face::{Players, Replayed, Setup};
use crate::ui::lobby::{Frame, frame};
use crate::ui::look;
use bolide_table::wire::LobbyStateOf;
use bolide_table::{BotLevel, Seat};
use mille_bornes::manche::side_of;
use mille_bornes::options::{CoupFourreMode, GameMode, PLAYER_COUNTS, TeamMaking};
use mille_bornes::{MilleBornes, Phase};

/// The lobby of a 1000 Bornes table.
fn lobby(
    ui: &mut egui::Ui,
    live: &LiveOf<MilleBornes>,
    t: &MirrorOf<MilleBornes>,
    hosting: Option<&crate::ui::face::HostInfo>,
    games: &[(&'static str, &'static str)],
    w: &Words,
) {
    // M-3.2: the deck's order is bound to this seed before the first card is dealt.
    let says = Frame {
        who: w.players_heading,
        starts_when: w.mb_game_starts_when,
        sealed: w.mb_deal_sealed,
        sealed_hover: w.mb_deal_sealed_hover,
        first_shown: t.dice.commitment(),
        game: <MilleBornes as bolide_table::Words>::NAME,
        games,
    };
    frame(ui, live, t, hosting, says, w, |ui, lobby, first| settings(ui, live, lobby, first, w));
}

/// The first player's options (M-14), which everyone sees change; the host checks them (a
/// refused one comes back in words, with its rule).
fn settings(ui: &mut egui::Ui, live: &LiveOf<MilleBornes>, lobby: &LobbyStateOf<MilleBornes>, first: bool, w: &Words) {
    ui.heading(format!("1000 Bornes — {}", w.mb_settings_heading));
    if !first {
        ui.label(w.first_player_sets);
    }
    let mut s = lobby.settings.clone();
    let seated = lobby.seats.len();
    let players = seated + usize::from(s.bots);
    ui.label((w.mb_players_n)(players));
    let before = s.clone();
    teams(ui, &mut s, lobby, first, w);
    ui.add_enabled_ui(first, |ui| {
        look::settings(ui, "mb-settings", |rows| {
            let most = (usize::from(*PLAYER_COUNTS.last().unwrap_or(&8))).saturating_sub(seated) as u8;
            rows.row(w.bots_setting, |ui, name| ui.add(egui::Slider::new(&mut s.bots, 0..=most)).labelled_by(name));
            rows.row(w.bots_play_setting, |ui, _| {
                for (level, words) in [(BotLevel::Random, w.for_fun), (BotLevel::Strategic, w.to_win)] {
                    ui.selectable_value(&mut s.bot_level, level, words);
                }
            });
            rows.row(w.mb_trip, |ui, _| {
                for km in [1000, 700] {
                    ui.selectable_value(&mut s.game.target_km, km, format!("{km} km"));
                }
            });
            rows.row(w.mb_play_to, |ui, _| {
                ui.selectable_value(&mut s.game.mode, GameMode::Points { target: 5000 }, w.mb_to_5000);
                for hands in [1, 3, 5] {
                    ui.selectable_value(&mut s.game.mode, GameMode::Hands { hands }, (w.mb_hands_n)(hands));
                }
            });
            rows.row(w.mb_window_length, |ui, _| {
                for ms in [2000, 3000, 5000, 8000] {
                    ui.selectable_value(&mut s.game.window_ms, ms, format!("{} s", ms / 1000));
                }
            });
            rows.row(w.mb_turn_timer, |ui, _| {
                ui.selectable_value(&mut s.game.turn_timer_s, 0, w.off);
                for seconds in [30, 60] {
                    ui.selectable_value(&mut s.game.turn_timer_s, seconds, format!("{seconds} s"));
                }
            });
            rows.row(w.mb_coup_fourre_mode, |ui, _| {
                ui.selectable_value(&mut s.game.coup_fourre, CoupFourreMode::RealTime, w.mb_real_time);
                ui.selectable_value(&mut s.game.coup_fourre, CoupFourreMode::Automatic, w.mb_automatic);
            });
            rows.row("", |ui, _| ui.checkbox(&mut s.game.open_hands, w.mb_open_hands));
        });
    });
    if first && s != before {
        live.send(CommandOf::Configure(s));
    }
}

/// M-2.3 at 6 and 8 players: partners sit opposite (place n with place n + players / 2). The
/// teams are drawn when the game starts, or placed here by the first player: each place's
/// entrant (the people as they came, then the bots) is picked from a list.
fn teams(ui: &mut egui::Ui, s: &mut mille_bornes::Lobby, lobby: &LobbyStateOf<MilleBornes>, first: bool, w: &Words) {
    let seated = lobby.seats.len();
    let players = seated + usize::from(s.bots);
    let sides = usize::from(mille_bornes::options::sides_for(u8::try_from(players).unwrap_or(u8::MAX)));
    if sides == 0 || sides >= players {
        return;
    }
    ui.add_enabled_ui(first, |ui| {
        ui.horizontal(|ui| {
            ui.label(w.mb_teams);
            ui.selectable_value(&mut s.game.teams, TeamMaking::Random, w.mb_teams_drawn);
            ui.selectable_value(&mut s.game.teams, TeamMaking::HostAssigns, w.mb_teams_placed);
        });
    });
    let name = |entrant: usize| match lobby.seats.get(entrant) {
        Some(seat) => seat.name.clone(),
        None => (w.bot_n)(u8::try_from(entrant - seated + 1).unwrap_or(u8::MAX)),
    };
    if s.game.teams == TeamMaking::Random {
        return;
    }
    // A seating of this table, or everyone as they came.
    let places: Vec<u8> =
        if bolide_table::is_seating(&s.places, players) { s.places.clone() } else { (0..players as u8).collect() };
    for side in 0..sides {
        ui.horizontal(|ui| {
            ui.label((w.mb_team_n)(side + 1));
            let side_u8 = side as u8;
            for place in (0..players).filter(|&p| side_of(Seat(p as u8), sides as u8) == side_u8) {
                let Some(&here) = places.get(place) else { continue };
                let combo = egui::ComboBox::from_id_salt(("mb-place", place)).selected_text(name(usize::from(here)));
                let shown = ui.add_enabled_ui(first, |ui| {
                    combo.show_ui(ui, |ui| {
                        for entrant in 0..players as u8 {
                            if ui.selectable_label(entrant == here, name(usize::from(entrant))).clicked() {
                                // The one picked trades places with the one who sat here.
                                if let Some(there) = places.iter().position(|&e| e == entrant) {
                                    s.places = places.clone();
                                    s.places.swap(place, there);
                                }
                            }
                        }
                    })
                });
                let label = (w.mb_place_n)(place + 1);
                shown.inner.response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, first, &label));
            }
        });
    }
}

/// A 1000 Bornes table over the wire, as the window shows it: the lobby until the game
/// starts, then the game screen (its podium at the end).
#[derive(Default)]
pub struct MbTableUi {
    screen: super::screen::MilleBornesUi,
}

impl crate::ui::face::Screen<MilleBornes> for MbTableUi {
    type Game = ::mille_bornes::Partie;

    fn show(&mut self, ui: &mut egui::Ui, live: &LiveOf<MilleBornes>, at: &mut crate::ui::face::AtTable) {
        let (hosting, games, w) = (at.host, at.games, at.w);
        if crate::ui::lobby::until_started(ui, live, |ui, t| lobby(ui, live, t, hosting, games, w)) {
            let now = live.now_us();
            let mut table = NetTable::new(live);
            self.screen.show(ui, &mut table, now, w);
        }
    }

    /// The window's title at this table.
    fn night(text: &str) -> Result<Box<dyn Replayed>, ReplayError> {
        let night = Night::<MilleBornes>::open::<mille_bornes::Partie>(text)?;
        let (live, _) = LiveOf::detached("");
        Ok(Box::new(MbNight { night, live, table: super::screen::MilleBornesUi::default() }))
    }

    fn setup() -> Box<dyn Setup> {
        Box::new(MbSetup { host_hands: None, practice_players: 4, practice_hands: None })
    }

    fn howto(w: &Words) -> crate::ui::face::HowTo {
        (w.howto_mille_bornes, None)
    }

    fn title(live: &LiveOf<MilleBornes>) -> &'static str {
        let state = live.state();
        let t = &state.mirror;
        if !t.lobby.as_ref().is_some_and(|l| l.started) {
            return "Bolide — 1000 Bornes — lobby";
        }
        super::screen::title(t.view.as_ref(), t.seat)
    }
}

/// A detached link to a 1000 Bornes table of `names.len()` players in the middle of a hand
/// dealt from `seed` (bots played it until this laptop's turn, 50 cards or fewer left to
/// draw), from seat 0, with the host's legal list: what the window's layout test and its
/// frame-time benchmark draw.
pub fn mid_hand(names: &[&str], seed: u64) -> LiveOf<MilleBornes> {
    use bolide_table::wire::BeatSchedule;
    let (live, _commands) = LiveOf::<MilleBornes>::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    let players = u8::try_from(names.len()).unwrap_or(u8::MAX);
    let mut events = Vec::new();
    if let Ok(mut partie) = mille_bornes::Partie::new(mille_bornes::Settings::default(), players, seed, &mut events) {
        mille_bornes::sim::play_until(&mut partie, BotLevel::Strategic, seed, |p| {
            p.manche().draw_count() <= 50 && p.manche().phase() == Phase::Turn { seat: Seat(0) }
        });
        let mut state = live.state();
        state.welcome(Some(Seat(0)), None, BeatSchedule::Steady);
        state.mirror.lobby = Some(crate::ui::lobby::everyone_ready(names, mille_bornes::Lobby::default()));
        state.mirror.view = Some(partie.view(Some(Seat(0))));
        state.mirror.legal = partie.legal_actions(Seat(0));
    }
    live.set_link(crate::live::Link::Connected);
    live
}

/// 1000 Bornes on the start screen: a game to 5000 points or of a number of hands (M-13),
/// and Practice's players (M-2.1).
struct MbSetup {
    host_hands: Option<u8>,
    practice_players: u8,
    practice_hands: Option<u8>,
}

impl Setup for MbSetup {
    fn host(&mut self, ui: &mut egui::Ui, w: &Words) {
        hands_picker(ui, &mut self.host_hands, w);
    }

    fn practice(&mut self, ui: &mut egui::Ui, w: &Words) {
        Players::picker(ui, &mut self.practice_players, PLAYER_COUNTS, w);
        hands_picker(ui, &mut self.practice_hands, w);
    }

    fn ask(&self, ask: &mut HostAsk, practice: bool) {
        ask.hands = if practice { self.practice_hands } else { self.host_hands };
        if practice {
            ask.bots = self.practice_players.saturating_sub(1);
        }
    }
}

/// M-13: to 5000 points, or a game of 1, 3 or 5 hands.
fn hands_picker(ui: &mut egui::Ui, hands: &mut Option<u8>, w: &Words) {
    ui.horizontal(|ui| {
        ui.selectable_value(hands, None, w.mb_to_5000);
        for n in [1, 3, 5] {
            ui.selectable_value(hands, Some(n), (w.mb_hands_n)(n));
        }
    });
}

/// A night of 1000 Bornes on the replay screen: the table at each step, each Coup-Fourré's
/// reaction, then the final places with the deal checked.
struct MbNight {
    night: Night<MilleBornes>,
    /// Detached: its clock serves the screen, and what it would send goes nowhere.
    live: LiveOf<MilleBornes>,
    table: super::screen::MilleBornesUi,
}

impl Replayed for MbNight {
    fn steps(&self) -> usize {
        self.night.steps()
    }

    fn marks(&self) -> Vec<(u16, u16)> {
        turns_round_the_table(&self.night)
    }

    fn nav(&self, w: &'static Words) -> crate::ui::face::Nav {
        (&w.mb_replay_nav, w.mb_replay_where)
    }

    fn show(&mut self, ui: &mut egui::Ui, step: usize, _stats: bool, w: &'static Words) -> Result<(), ReplayError> {
        let t = self.night.at(step)?;
        let now = self.live.now_us();
        self.table.show(ui, &mut NetTable::replayed(&self.live, t), now, w);
        Ok(())
    }
}

/// Each step's hand and turn round the table (from 1): a round begins each time the player on
/// the dealer's left (M-3.1) is to play after someone else was.
fn turns_round_the_table(night: &Night<MilleBornes>) -> Vec<(u16, u16)> {
    let (mut marks, mut hand, mut round, mut was) = (Vec::new(), u16::MAX, 0u16, None);
    for k in 0..night.steps() {
        let Some(view) = night.view(k) else {
            marks.push((hand.saturating_add(1), round));
            continue;
        };
        if view.hand_number != hand {
            (hand, round, was) = (view.hand_number, 0, None);
        }
        let first = Seat(((usize::from(view.dealer.0) + 1) % usize::from(view.players.max(1))) as u8);
        let to_play = match view.phase {
            mille_bornes::Phase::Turn { seat } => Some(seat),
            _ => None,
        };
        if to_play == Some(first) && was != Some(first) {
            round = round.saturating_add(1);
        }
        if to_play.is_some() {
            was = to_play;
        }
        marks.push((hand.saturating_add(1), round.max(1)));
    }
    marks
}
