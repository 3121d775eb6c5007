//! An Entenrallye table over the wire: its lobby (seats, the first player's options) and the
//! game screen (`ui::entenrallye`) fed by the client core's mirror — a live table's, or a
//! replay's step (`mirror_table`). Nothing is timed: an action goes out as a plain request.

use super::board::{self, Table};
use crate::lang::Words;
use crate::live::{CommandOf, LiveOf};
use crate::replay::{Night, ReplayError};
use crate::state::MirrorOf;
use crate::ui::face::Replayed;
use crate::ui::lobby::{Frame, frame};
use crate::ui::look;
use ::entenrallye::{Entenrallye, FirstPlayer, Ties};
use bolide_table::wire::LobbyStateOf;
use bolide_table::{BotLevel, Seat};

/// The screen's table from a mirror: the view, what may be done, the names, the log.
pub fn mirror_table(t: &MirrorOf<Entenrallye>) -> Option<Table<'_>> {
    let view = t.view.as_ref()?;
    Some(Table {
        view,
        legal: &t.legal,
        names: &[],
        events: &t.events,
        standings: t.finished.as_ref().map(|f| {
            let mut lines: Vec<(u8, Seat, u32)> = f.iter().map(|s| (s.rank, s.seat, s.points)).collect();
            lines.sort_by_key(|(rank, seat, _)| (*rank, *seat));
            lines
        }),
        refusal: t.refusal.as_deref(),
        rolls_checked: crate::ui::lobby::left_out(t.part_in, t.dice.verdict().cloned()),
    })
}

/// Every seat's name, by seat.
pub fn names(t: &MirrorOf<Entenrallye>) -> Vec<String> {
    let players = t.view.as_ref().map_or(0, |v| v.players);
    (0..players).map(|s| t.name(Seat(s))).collect()
}

/// The lobby of an Entenrallye table.
fn lobby(
    ui: &mut egui::Ui,
    live: &LiveOf<Entenrallye>,
    t: &MirrorOf<Entenrallye>,
    hosting: Option<&crate::ui::face::HostInfo>,
    games: &[(&'static str, &'static str)],
    w: &Words,
) {
    let says = Frame {
        who: w.players_heading,
        starts_when: w.ente_starts_when,
        sealed: w.dice_sealed,
        sealed_hover: w.dice_sealed_hover,
        first_shown: None,
        game: <Entenrallye as bolide_table::Words>::NAME,
        games,
    };
    frame(ui, live, t, hosting, says, w, |ui, lobby, first| settings(ui, live, lobby, first, w));
}

/// The first player's options, which everyone sees change; the host checks them.
fn settings(ui: &mut egui::Ui, live: &LiveOf<Entenrallye>, lobby: &LobbyStateOf<Entenrallye>, first: bool, w: &Words) {
    ui.heading(w.ente_settings);
    if !first {
        ui.label(w.first_player_sets);
    }
    let mut s = lobby.settings;
    let seated = lobby.seats.len();
    ui.label((w.mb_players_n)(seated + usize::from(s.bots)));
    ui.add_enabled_ui(first, |ui| {
        look::settings(ui, "ente-settings", |rows| {
            let most =
                usize::from(<::entenrallye::Rallye as bolide_table::Game>::PLAYERS.1).saturating_sub(seated) as u8;
            rows.row(w.bots_setting, |ui, name| ui.add(egui::Slider::new(&mut s.bots, 0..=most)).labelled_by(name));
            rows.row(w.bots_play_setting, |ui, _| {
                for (level, words) in [(BotLevel::Random, w.for_fun), (BotLevel::Strategic, w.to_win)] {
                    ui.selectable_value(&mut s.bot_level, level, words);
                }
            });
            rows.row(w.ente_first_player, |ui, _| {
                ui.selectable_value(&mut s.settings.first_player, FirstPlayer::FirstSeat, w.ente_first_seat);
                ui.selectable_value(&mut s.settings.first_player, FirstPlayer::Random, w.ente_first_random);
            });
            rows.row(w.ente_ties, |ui, _| {
                ui.selectable_value(&mut s.settings.ties, Ties::Shared, w.ente_ties_shared);
                ui.selectable_value(&mut s.settings.ties, Ties::MeetingsFirst, w.ente_ties_meetings);
            });
        });
    });
    if first && s != lobby.settings {
        live.send(CommandOf::Configure(s));
    }
}

/// An Entenrallye table over the wire, as the window shows it: the lobby until the year
/// starts, then the game screen (its standings at the end).
#[derive(Default)]
pub struct EnteTableUi;

impl crate::ui::face::Screen<Entenrallye> for EnteTableUi {
    type Game = ::entenrallye::Rallye;

    fn show(&mut self, ui: &mut egui::Ui, live: &LiveOf<Entenrallye>, at: &mut crate::ui::face::AtTable) {
        let (hosting, games, w) = (at.host, at.games, at.w);
        if !crate::ui::lobby::until_started(ui, live, |ui, t| lobby(ui, live, t, hosting, games, w)) {
            return;
        }
        let state = live.state();
        let t = &state.mirror;
        let names = names(t);
        let Some(mut table) = mirror_table(t) else { return };
        table.names = &names;
        let you = t.seat;
        let chosen = board::show(ui, &table, you, w);
        drop(state);
        if let Some(action) = chosen {
            live.send(CommandOf::Act { action, at_us: live.now_us() });
        }
    }

    /// The window's title at this table.
    fn night(text: &str) -> Result<Box<dyn Replayed>, ReplayError> {
        Ok(Box::new(EnteNight(Night::<Entenrallye>::open::<entenrallye::Rallye>(text)?)))
    }

    fn howto(w: &Words) -> crate::ui::face::HowTo {
        (w.howto_entenrallye, None)
    }

    fn title(live: &LiveOf<Entenrallye>) -> &'static str {
        let state = live.state();
        let t = &state.mirror;
        if !t.lobby.as_ref().is_some_and(|l| l.started) {
            return "Bolide — Entenrallye — lobby";
        }
        board::title(t.view.as_ref(), t.seat)
    }
}

/// A detached link to an Entenrallye table of `names.len()` players in the middle of a year
/// (bots played it from `seed` to this laptop's drive in June or later), from seat 0, with
/// every event seat 0 was told: what the frame-time benchmark draws.
pub fn mid_year(names: &[&str], seed: u64) -> LiveOf<Entenrallye> {
    use ::entenrallye::{Phase, Rallye, Settings};
    use bolide_table::Game;
    use bolide_table::wire::BeatSchedule;
    use rand::SeedableRng;
    let (live, _commands) = LiveOf::<Entenrallye>::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    let players = u8::try_from(names.len()).unwrap_or(u8::MAX);
    let mut events = Vec::new();
    if let Ok(mut game) = Rallye::new(Settings::default(), players, seed, &mut events) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        let there =
            |g: &Rallye| g.calendar().month() >= 6 && g.turn() == Seat(0) && matches!(g.phase(), Phase::Drive { .. });
        for _ in 0..100_000 {
            let seat = game.turn();
            if game.is_over() || there(&game) {
                break;
            }
            let Some(action) = game.bot(seat, BotLevel::Strategic, &mut rng, &mut scratch) else { break };
            if game.apply(seat, action, &mut events).is_err() {
                break;
            }
        }
        let mut state = live.state();
        state.welcome(Some(Seat(0)), None, BeatSchedule::Steady);
        state.mirror.lobby = Some(crate::ui::lobby::everyone_ready(names, ::entenrallye::Lobby::default()));
        state.mirror.events = events.iter().map(|e| game.event_for(e, Some(Seat(0)))).collect();
        state.mirror.view = Some(game.view(Some(Seat(0))));
        game.legal_into(Seat(0), &mut state.mirror.legal);
    }
    live.set_link(crate::live::Link::Connected);
    live
}

/// A year of Entenrallye on the replay screen: the board at each step, then the standings.
struct EnteNight(Night<Entenrallye>);

impl Replayed for EnteNight {
    fn steps(&self) -> usize {
        self.0.steps()
    }

    fn marks(&self) -> Vec<(u16, u16)> {
        months_and_turns(&self.0)
    }

    fn nav(&self, w: &'static Words) -> crate::ui::face::Nav {
        (&w.ente_replay_nav, w.ente_replay_where)
    }

    fn show(&mut self, ui: &mut egui::Ui, step: usize, _stats: bool, w: &'static Words) -> Result<(), ReplayError> {
        let names = self.0.names.clone();
        let t = self.0.at(step)?;
        if let Some(mut table) = mirror_table(t) {
            table.names = &names;
            board::show(ui, &table, None, w);
        }
        Ok(())
    }
}

/// Each step's month (E-3) and turn (from 1: a turn begins each time another seat is to play).
fn months_and_turns(night: &Night<Entenrallye>) -> Vec<(u16, u16)> {
    let (mut marks, mut turn, mut was) = (Vec::new(), 0u16, None);
    for k in 0..night.steps() {
        let Some(view) = night.view(k) else {
            marks.push((0, turn));
            continue;
        };
        if was != Some(view.turn) {
            turn = turn.saturating_add(1);
            was = Some(view.turn);
        }
        marks.push((u16::from(view.calendar().month()), turn));
    }
    marks
}
