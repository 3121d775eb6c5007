//! Bolide's lobby: the championship's settings the first pilot sets — races, circuit (a
//! preset, a random layout, the tile editor, a file on this laptop), first player, bots —
//! inside the frame every game's lobby shares (`crate::ui::lobby`).

use crate::games::bolide::Mirror;
use crate::lang::Words;
use crate::live::{Command, Live};
use crate::ui::lobby::{Frame, frame};
use crate::ui::look;
use bolide::LobbyState;
use bolide::circuits::PRESETS;
use bolide::model::MAX_PILOTS;
use bolide::options::Settings;
use bolide::{BotLevel, Circuit, FirstPlayer, Seat};
use bolide_table::Words as _;

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
        hosting: Option<&crate::ui::face::HostInfo>,
        games: &[(&'static str, &'static str)],
        w: &'static Words,
    ) {
        self.w = Some(w);
        // Provably fair dice: the host is bound to this seed before anything is drawn.
        let says = Frame {
            who: w.pilots,
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
            look::settings(ui, "settings", |rows| {
                rows.row(w.races_setting, |ui, name| {
                    changed |= ui.add(egui::Slider::new(&mut s.options.races, 1..=20)).labelled_by(name).changed();
                });
                let most = (MAX_PILOTS - seated) as u8;
                rows.row(w.bots_setting, |ui, name| {
                    changed |= ui.add(egui::Slider::new(&mut s.bots, 0..=most)).labelled_by(name).changed();
                });
                rows.row(w.bots_play_setting, |ui, _| {
                    for (level, words) in [(BotLevel::Random, w.for_fun), (BotLevel::Strategic, w.to_win)] {
                        changed |= ui.selectable_value(&mut s.bot_level, level, words).changed();
                    }
                });
                let current = match s.options.first_player {
                    FirstPlayer::Random => w.random.to_string(),
                    FirstPlayer::Seat(seat) => (w.seat_n)(seat.number()),
                };
                rows.row(w.first_player_setting, |ui, name| {
                    let combo = egui::ComboBox::from_id_salt("first-player").selected_text(current).show_ui(ui, |ui| {
                        changed |=
                            ui.selectable_value(&mut s.options.first_player, FirstPlayer::Random, w.random).changed();
                        for i in 0..(seated + s.bots as usize).min(MAX_PILOTS) {
                            let seat = FirstPlayer::Seat(Seat(i as u8));
                            changed |= ui
                                .selectable_value(&mut s.options.first_player, seat, (w.seat_n)(i as u16 + 1))
                                .changed();
                        }
                    });
                    combo.response.labelled_by(name);
                });
                rows.row(w.circuit_setting, |ui, name| changed |= self.circuit(ui, &mut s, name));
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
                        let seed = crate::platform::rt::since_epoch().subsec_nanos() % 100_000;
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
                let read = crate::platform::files::read_small(&expanded, bolide::circuits::MAX_FILE);
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
