//! The lobby: who sits where, in which colour, who has a hand flat on the table (ready); the
//! first pilot's settings, which everyone sees change live.

use super::look;
use crate::game::ClientGame;
use crate::games::bolide::Mirror;
use crate::lang::Words;
use crate::live::{Command, CommandOf, Live, LiveOf};
use crate::state::MirrorOf;
use bolide::LobbyState;
use bolide::circuits::PRESETS;
use bolide::model::MAX_PILOTS;
use bolide::options::Settings;
use bolide::{BotLevel, Circuit, Colour, FirstPlayer, Seat};
use bolide_table::Lobby as _;
use bolide_table::Words as _;
use bolide_table::wire::{LobbyStateOf, PathCheck};
use egui::{RichText, Vec2};

/// The lobby's own state between frames: the circuit being edited.
#[derive(Default)]
pub struct LobbyUi {
    /// The tiles being edited, as text; checked live against B-2.4/B-2.5.
    tiles: Option<String>,
    /// The tile picked first in a swap (the editor reorders by swapping two tiles).
    swap_from: Option<usize>,
    /// A circuit file on this laptop, as typed (`None`: not loading one).
    file: Option<String>,
    /// Why the last file could not be used.
    file_error: Option<String>,
    /// The language of this frame.
    w: Option<&'static Words>,
}

impl LobbyUi {
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        live: &Live,
        t: &Mirror,
        hosting: Option<&super::HostInfo>,
        games: &[(&'static str, &'static str)],
        w: &'static Words,
    ) {
        self.w = Some(w);
        // Provably fair dice: the host is bound to this seed before anything is drawn.
        let says = Frame {
            starts_when: w.race_starts_when,
            sealed: w.dice_sealed,
            sealed_hover: w.dice_sealed_hover,
            first_shown: t.dice.commitment(),
            game: bolide::Bolide::NAME,
            games,
        };
        frame(ui, live, t, hosting, says, w, |ui, lobby, first| self.settings(ui, live, lobby, first));
    }

    fn settings(&mut self, ui: &mut egui::Ui, live: &Live, lobby: &LobbyState, first: bool) {
        let w = self.words();
        ui.heading(format!("Bolide — {}", w.championship_heading));
        if !first {
            ui.label(w.first_pilot_sets);
        }
        let mut s = lobby.settings.clone();
        let seated = lobby.seats.len();
        let mut changed = false;
        ui.add_enabled_ui(first, |ui| {
            egui::Grid::new("settings").num_columns(2).show(ui, |ui| {
                let label = ui.label(w.races_setting);
                changed |= ui.add(egui::Slider::new(&mut s.options.races, 1..=20)).labelled_by(label.id).changed();
                ui.end_row();
                let label = ui.label(w.bots_setting);
                let most = (MAX_PILOTS - seated) as u8;
                changed |= ui.add(egui::Slider::new(&mut s.bots, 0..=most)).labelled_by(label.id).changed();
                ui.end_row();
                ui.label(w.bots_play_setting);
                ui.horizontal(|ui| {
                    for (level, words) in [(BotLevel::Random, w.for_fun), (BotLevel::Strategic, w.to_win)] {
                        changed |= ui.selectable_value(&mut s.bot_level, level, words).changed();
                    }
                });
                ui.end_row();
                let label = ui.label(w.first_player_setting);
                let current = match s.options.first_player {
                    FirstPlayer::Random => w.random.to_string(),
                    FirstPlayer::Seat(seat) => (w.seat_n)(seat.number()),
                };
                let combo = egui::ComboBox::from_id_salt("first-player").selected_text(current).show_ui(ui, |ui| {
                    changed |=
                        ui.selectable_value(&mut s.options.first_player, FirstPlayer::Random, w.random).changed();
                    for i in 0..(seated + s.bots as usize).min(MAX_PILOTS) {
                        let seat = FirstPlayer::Seat(Seat(i as u8));
                        changed |=
                            ui.selectable_value(&mut s.options.first_player, seat, (w.seat_n)(i as u16 + 1)).changed();
                    }
                });
                combo.response.labelled_by(label.id);
                ui.end_row();
                let label = ui.label(w.circuit_setting);
                changed |= self.circuit(ui, &mut s, label.id);
                ui.end_row();
            });
        });
        if let Some(tiles) = &mut self.tiles {
            changed |= tile_editor(ui, tiles, &mut self.swap_from, &mut s, first, w);
        }
        if changed && first {
            live.send(Command::Configure(s));
        }
    }

    /// Preset, seeded random layout (its seed shown), or the tiles themselves.
    fn circuit(&mut self, ui: &mut egui::Ui, s: &mut Settings, label: egui::Id) -> bool {
        let w = self.words();
        let mut changed = false;
        ui.vertical(|ui| {
            let combo =
                egui::ComboBox::from_id_salt("circuit").selected_text(circuit_label(&s.circuit, w)).show_ui(ui, |ui| {
                    for (name, _) in PRESETS {
                        if ui.selectable_label(s.circuit == name, name).clicked() {
                            s.circuit = name.to_string();
                            (self.tiles, self.file) = (None, None);
                            changed = true;
                        }
                    }
                    if ui.selectable_label(s.circuit.starts_with("random:"), w.random_layout).clicked() {
                        // Any seed will do: layouts are public, only variety matters here.
                        let seed = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .map_or(1, |d| d.subsec_nanos() % 100_000);
                        s.circuit = format!("random:{seed}");
                        (self.tiles, self.file) = (None, None);
                        changed = true;
                    }
                    if ui.selectable_label(self.file.is_some(), w.from_a_file).clicked() {
                        self.file = Some(String::new());
                        self.tiles = None;
                    }
                    if ui.selectable_label(self.tiles.is_some(), w.edit_tiles).clicked() {
                        self.file = None;
                        let start =
                            Circuit::parse(&s.circuit).ok().or_else(|| bolide::circuits::preset(PRESETS[0].0).ok());
                        self.tiles = start.map(|c| c.to_string());
                    }
                });
            combo.response.labelled_by(label);
            changed |= self.circuit_file(ui, s);
            if let Some(seed) = s.circuit.strip_prefix("random:") {
                let mut text = seed.to_string();
                ui.horizontal(|ui| {
                    let label = ui.label(w.seed);
                    if ui.text_edit_singleline(&mut text).labelled_by(label.id).changed() && text.parse::<u64>().is_ok()
                    {
                        s.circuit = format!("random:{text}");
                        changed = true;
                    }
                });
            }
        });
        changed
    }
}

impl LobbyUi {
    /// This frame's language (English before the first frame).
    fn words(&self) -> &'static Words {
        self.w.unwrap_or(&crate::lang::EN)
    }

    /// A circuit file read here, on this laptop (the host never opens a file the wire names):
    /// its tiles go to the host as the notation, checked like any other (B-2.4, B-2.5).
    fn circuit_file(&mut self, ui: &mut egui::Ui, s: &mut Settings) -> bool {
        let w = self.words();
        let Some(path) = &mut self.file else { return false };
        let mut changed = false;
        ui.horizontal(|ui| {
            let label = ui.label(w.file);
            ui.add(egui::TextEdit::singleline(path).hint_text("~/circuits/spa.txt").desired_width(220.0))
                .labelled_by(label.id);
            if ui.button(w.load).clicked() {
                let expanded = match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
                    (Some(rest), Some(home)) => std::path::PathBuf::from(home).join(rest),
                    _ => std::path::PathBuf::from(path.as_str()),
                };
                let read = bolide_link::files::read_small(&expanded, bolide::circuits::MAX_FILE);
                match read
                    .map_err(|e| e.to_string())
                    .and_then(|text| bolide::Circuit::parse(&text).map_err(|e| e.to_string()))
                {
                    Ok(circuit) => {
                        s.circuit = circuit.to_string();
                        self.file_error = None;
                        changed = true;
                    }
                    Err(e) => self.file_error = Some(e.to_string()),
                }
            }
        });
        if let Some(error) = &self.file_error {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 60), error);
        }
        changed
    }
}

/// A table's lobby, drawn until its game has started (the lobby says so and the first view
/// arrived); returns whether it has, for the game's screen to take over.
pub(super) fn until_started<W: ClientGame>(
    ui: &mut egui::Ui,
    live: &LiveOf<W>,
    lobby: impl FnOnce(&mut egui::Ui, &MirrorOf<W>),
) -> bool {
    let state = live.state();
    let t = &state.mirror;
    let started = t.lobby.as_ref().is_some_and(|l| l.started) && t.view.is_some();
    if !started {
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| lobby(ui, t));
        });
    }
    started
}

/// A started table's lobby of `names`, everyone seated and ready, seen from seat 0: what the
/// benchmarks' and tests' detached tables show.
pub fn everyone_ready<W: bolide_table::Words>(names: &[&str], settings: W::Lobby) -> LobbyStateOf<W> {
    let seat = |(i, name): (usize, &&str)| bolide_table::wire::LobbySeat {
        seat: Seat(i as u8),
        name: name.to_string(),
        colour: Colour::ALL[i % Colour::ALL.len()],
        bot: false,
        ready: true,
        connected: true,
        path: None,
    };
    LobbyStateOf {
        seats: names.iter().enumerate().map(seat).collect(),
        you: Some(Seat(0)),
        settings,
        spectators: 0,
        started: true,
        dice: Default::default(),
        reveal: None,
        luck: None,
    }
}

/// What a lobby's frame says in its game's terms.
pub(super) struct Frame<'a> {
    /// When the game starts.
    pub starts_when: &'a str,
    /// The host's commitment to the seed, short.
    pub sealed: fn(&str) -> String,
    /// The same, on hover: all of it and what it binds.
    pub sealed_hover: fn(&str) -> String,
    /// The commitment this laptop was shown first (the lobby's own until then).
    pub first_shown: Option<bolide_table::seal::Commitment>,
    /// The game this lobby is for: the first pilot may switch the table to any other.
    pub game: &'static str,
    /// The games this window plays, by name and title.
    pub games: &'a [(&'static str, &'static str)],
}

/// What every game's lobby shows around its own settings: the room code on the hosting
/// laptop, who sits where, the first pilot's switch to the `other` game, the last refusal and
/// the host's commitment to the seed.
pub(super) fn frame<W: ClientGame>(
    ui: &mut egui::Ui,
    live: &LiveOf<W>,
    t: &MirrorOf<W>,
    hosting: Option<&super::HostInfo>,
    says: Frame,
    w: &Words,
    settings: impl FnOnce(&mut egui::Ui, &LobbyStateOf<W>, bool),
) {
    let Some(lobby) = t.lobby.as_ref() else {
        ui.label(w.waiting_lobby);
        return;
    };
    if let Some(host) = hosting {
        room_code(ui, host, w);
    }
    ui.columns(2, |cols| {
        seats(&mut cols[0], live, t, lobby, says.starts_when, w);
        let first = t.seat == Some(Seat(0));
        settings(&mut cols[1], lobby, first);
        if first {
            other_games(&mut cols[1], live, says.game, says.games, w);
        }
    });
    if let Some(refusal) = &t.refusal {
        ui.colored_label(egui::Color32::from_rgb(230, 120, 40), refusal);
    }
    ui.separator();
    let commitment = says.first_shown.unwrap_or(lobby.dice);
    ui.label((says.sealed)(&commitment.short())).on_hover_text((says.sealed_hover)(&commitment.to_string()));
}

/// The hosting laptop's lobby: the room code, large, and the addresses to join.
fn room_code(ui: &mut egui::Ui, host: &super::HostInfo, w: &Words) {
    ui.vertical_centered(|ui| {
        ui.label(w.room_code_tell);
        ui.label(RichText::new(&host.code).size(48.0).strong().monospace());
        let addresses: Vec<String> = host.addresses.iter().map(|a| a.to_string()).collect();
        ui.label((w.join_at)(&addresses.join(w.or_sep)));
        if let Some(lock) = host.door.as_ref().and_then(|door| (door.0)()) {
            ui.colored_label(egui::Color32::LIGHT_RED, (w.joins_locked)(lock.since.elapsed().as_secs(), lock.wrong));
            // The seconds count up while the door stays locked.
            ui.ctx().request_repaint_after(std::time::Duration::from_secs(1));
        }
    });
    ui.separator();
}

/// The first pilot's way to switch the table to another game: every laptop follows to its
/// lobby, each back in its own seat.
fn other_games<W: ClientGame>(
    ui: &mut egui::Ui,
    live: &LiveOf<W>,
    here: &str,
    games: &[(&'static str, &'static str)],
    w: &Words,
) {
    ui.add_space(8.0);
    for (name, title) in games.iter().filter(|(name, _)| *name != here) {
        if ui.button((w.play_instead)(title)).clicked() {
            live.send(CommandOf::ChooseGame(name.to_string()));
        }
    }
}

fn circuit_label(circuit: &str, w: &Words) -> String {
    if circuit.contains(' ') { w.custom_tiles.into() } else { circuit.to_string() }
}

/// The tile editor: 36 tiles in order; click two to swap them; the validity of the layout
/// (B-2.4 tile set, B-2.5 rules) is checked as you go and the broken rule is named.
fn tile_editor(
    ui: &mut egui::Ui,
    tiles: &mut String,
    swap_from: &mut Option<usize>,
    s: &mut Settings,
    first: bool,
    w: &Words,
) -> bool {
    ui.separator();
    let label = ui.label(w.tiles_in_order);
    let mut changed = false;
    let mut parts: Vec<String> = tiles.split_whitespace().map(str::to_string).collect();
    ui.horizontal_wrapped(|ui| {
        for (i, part) in parts.clone().iter().enumerate() {
            let selected = *swap_from == Some(i);
            if ui.selectable_label(selected, part).clicked() {
                match swap_from.take() {
                    Some(j) if j != i => {
                        parts.swap(i, j);
                        *tiles = parts.join(" ");
                    }
                    Some(_) => {}
                    None => *swap_from = Some(i),
                }
            }
        }
    });
    ui.add(egui::TextEdit::multiline(tiles).desired_rows(2).desired_width(f32::INFINITY)).labelled_by(label.id);
    match Circuit::parse(tiles) {
        Ok(circuit) => {
            ui.colored_label(egui::Color32::from_rgb(60, 190, 90), w.valid_circuit);
            if first && ui.button(w.use_circuit).clicked() {
                s.circuit = circuit.to_string();
                changed = true;
            }
        }
        Err(e) => {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 60), (w.not_valid_circuit)(&e.to_string()));
        }
    }
    changed
}

/// The lobby's network check of one laptop, as the host measured its path: a bad Wi-Fi is
/// found here, before the first grab.
fn path_check(ui: &mut egui::Ui, path: Option<PathCheck>, w: &Words) {
    use bolide_table::wire::PathVerdict;
    let Some(p) = path else {
        ui.weak(w.path_measuring);
        return;
    };
    let (text, colour) = match p.verdict() {
        PathVerdict::Good => ((w.path_good)(p.delay_ms), egui::Color32::from_rgb(90, 170, 90)),
        PathVerdict::Slow => ((w.path_slow)(p.delay_ms), egui::Color32::from_rgb(220, 160, 40)),
        PathVerdict::Drops => ((w.path_drops)(p.silences, p.longest_silence_ms), egui::Color32::from_rgb(230, 90, 60)),
    };
    ui.colored_label(colour, text);
}

/// Who sits where (for any game): names, colours, ready, each laptop's network; this laptop's
/// colour and its hand flat on the table.
fn seats<W: ClientGame>(
    ui: &mut egui::Ui,
    live: &LiveOf<W>,
    t: &MirrorOf<W>,
    lobby: &LobbyStateOf<W>,
    starts_when: &str,
    w: &Words,
) {
    ui.heading(w.pilots);
    egui::Grid::new("seats").striped(true).min_col_width(60.0).show(ui, |ui| {
        for seat in &lobby.seats {
            let c = seat.colour;
            let you = if t.seat == Some(seat.seat) { w.you_mark } else { "" };
            ui.label(
                RichText::new(format!(" {}{you} ", seat.name))
                    .size(18.0)
                    .background_color(look::colour(c))
                    .color(look::ink(c)),
            );
            ui.label(look::colour_name(c));
            let state = match (seat.bot, seat.connected, seat.ready) {
                (true, _, _) => w.bot,
                (false, false, _) => w.disconnected,
                (false, true, true) => w.ready,
                (false, true, false) => w.not_ready,
            };
            ui.label(state);
            if !seat.bot && seat.connected {
                path_check(ui, seat.path, w);
            }
            ui.end_row();
        }
        for n in 1..=lobby.settings.bots() {
            ui.label((w.bot_n)(n));
            ui.label("—");
            ui.label(w.bot);
            ui.end_row();
        }
    });
    let Some(me) = t.seat else {
        ui.label((w.you_watch)(lobby.spectators));
        return;
    };
    let Some(mine) = lobby.seats.iter().find(|s| s.seat == me) else { return };
    ui.add_space(8.0);
    ui.label(w.your_colour);
    ui.horizontal(|ui| {
        for c in Colour::ALL {
            let taken = lobby.seats.iter().any(|s| s.colour == c && s.seat != me);
            if look::swatch(ui, c, c == mine.colour, !taken).clicked() {
                live.send(CommandOf::PickColour(c));
            }
        }
    });
    ui.add_space(8.0);
    let (label, ready) = if mine.ready { (w.hand_flat, false) } else { (w.put_hand_flat, true) };
    if ui.add(egui::Button::new(RichText::new(label).size(20.0)).min_size(Vec2::new(300.0, 48.0))).clicked() {
        live.send(CommandOf::Ready(ready));
    }
    ui.label(starts_when);
}
