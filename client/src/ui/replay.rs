//! A night replayed in the window (`crate::replay`), as a spectator saw it, step by step.
//! Bolide: the race screen — a move, a round, a race —, each grab's photo finish and each
//! Échange in the log, then the podium with the dice checked and the night's statistics.
//! 1000 Bornes: the table — a move, a turn round the table, a hand —, each Coup-Fourré's
//! reaction, then the final places with the deal checked. The screens are the table's own,
//! reading the replay's mirror instead of a link's.

use super::{mille_bornes as mb, podium, race, rallye, table_ente, table_mb};
use crate::lang::Words;
use crate::live::{Live, LiveOf};
use crate::replay::{Night, ReplayError};
use crate::shelf::Kept;
use bolide::Bolide;
use bolide::game::Championship;
use bolide_table::Seat;
use bolide_table::wire::StandingLine;
use bolide_words::GameKind;
use egui::RichText;
use entenrallye::{Entenrallye, Rallye};
use mille_bornes::{MilleBornes, Partie};

/// How long a step stays on screen while the replay plays.
const PLAY_STEP_S: f64 = 0.5;

pub struct ReplayUi {
    pub kept: Kept,
    screen: Screen,
    /// Where each step is: the race and round (Bolide), the hand and turn round the table
    /// (1000 Bornes).
    marks: Vec<(u16, u16)>,
    step: usize,
    /// Playing: when the step last moved on (the window's time, s).
    playing: Option<f64>,
    stats: bool,
}

/// The game's night and its screen. Each screen's link is detached: its clock serves the
/// screen, and what it would send goes nowhere.
enum Screen {
    Bolide { night: Box<Night<Bolide>>, live: Live, race: race::RaceUi },
    MilleBornes { night: Box<Night<MilleBornes>>, live: LiveOf<MilleBornes>, table: mb::MilleBornesUi },
    Entenrallye { night: Box<Night<Entenrallye>> },
}

impl Screen {
    fn steps(&self) -> usize {
        match self {
            Screen::Bolide { night, .. } => night.steps(),
            Screen::MilleBornes { night, .. } => night.steps(),
            Screen::Entenrallye { night } => night.steps(),
        }
    }
}

/// Where a button or key moves the replay.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Go {
    RaceBack,
    RoundBack,
    MoveBack,
    Move,
    Round,
    Race,
    End,
}

impl ReplayUi {
    /// Opens a kept night (`text`, its journal): it replays whole before the first frame.
    pub fn open(kept: Kept, text: &str) -> Result<ReplayUi, ReplayError> {
        let (screen, marks) = if kept.game == GameKind::Entenrallye.name() {
            let night = Night::<Entenrallye>::open::<Rallye>(text)?;
            let marks = months_and_turns(&night);
            (Screen::Entenrallye { night: Box::new(night) }, marks)
        } else if kept.game == GameKind::MilleBornes.name() {
            let night = Night::<MilleBornes>::open::<Partie>(text)?;
            let marks = turns_round_the_table(&night);
            let (live, _) = LiveOf::detached("");
            (Screen::MilleBornes { night: Box::new(night), live, table: mb::MilleBornesUi::default() }, marks)
        } else {
            let night = Night::<Bolide>::open::<Championship>(text)?;
            let marks =
                (0..night.steps()).map(|k| night.view(k).map_or((0, 0), |v| (u16::from(v.race), v.round))).collect();
            let (live, _) = Live::detached("");
            (Screen::Bolide { night: Box::new(night), live, race: race::RaceUi::default() }, marks)
        };
        Ok(ReplayUi { kept, screen, marks, step: 0, playing: None, stats: false })
    }

    /// The step the replay shows.
    pub fn step(&self) -> usize {
        self.step
    }

    /// Returns true when the pilot goes back to the start screen.
    pub fn show(&mut self, ui: &mut egui::Ui, w: &'static Words) -> bool {
        let mut back = false;
        let mut go = None;
        egui::Panel::top("replay-bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                back = ui.button(w.back).clicked();
                ui.label(RichText::new(format!("{} · {}", self.kept.date(), self.kept.names.join(", "))).strong());
            });
            ui.horizontal(|ui| {
                let moves = [Go::RaceBack, Go::RoundBack, Go::MoveBack, Go::Move, Go::Round, Go::Race];
                let bolide = matches!(self.screen, Screen::Bolide { .. });
                let (nav, place) = match self.screen {
                    Screen::Bolide { .. } => (&w.replay_nav, w.replay_where),
                    Screen::MilleBornes { .. } => (&w.mb_replay_nav, w.mb_replay_where),
                    Screen::Entenrallye { .. } => (&w.ente_replay_nav, w.ente_replay_where),
                };
                for (i, (label, to)) in nav.iter().zip(moves).enumerate() {
                    if i == 3 {
                        let play = if self.playing.is_some() { w.replay_pause } else { w.replay_play };
                        if ui.button(play).clicked() {
                            self.playing = self.playing.is_none().then(|| ui.input(|i| i.time));
                        }
                    }
                    if ui.button(*label).clicked() {
                        go = Some(to);
                    }
                }
                if ui.button(w.replay_podium).clicked() {
                    go = Some(Go::End);
                }
                if bolide {
                    ui.toggle_value(&mut self.stats, w.replay_stats);
                }
                let (big, round) = self.marks.get(self.step).copied().unwrap_or_default();
                let last = self.screen.steps().saturating_sub(1);
                ui.label(place(big, round, self.step, last));
            });
            ui.weak(w.replay_keys);
        });
        go = go.or_else(|| keys(ui));
        if go.is_none() && ui.input(|i| i.key_pressed(egui::Key::Space)) {
            self.playing = self.playing.is_none().then(|| ui.input(|i| i.time));
        }
        if let Some(since) = self.playing {
            let now = ui.input(|i| i.time);
            if now - since >= PLAY_STEP_S {
                go = go.or(Some(Go::Move));
                self.playing = (self.step + 1 < self.screen.steps()).then_some(now);
            }
            ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(PLAY_STEP_S));
        }
        if let Some(go) = go {
            self.step = self.target(go);
        }
        self.body(ui, w);
        back
    }

    fn body(&mut self, ui: &mut egui::Ui, w: &'static Words) {
        let cannot = |ui: &mut egui::Ui, e: ReplayError| {
            egui::CentralPanel::default().show(ui, |ui| ui.label((w.replay_cannot_open)(&e.to_string())));
        };
        let (night, live, race) = match &mut self.screen {
            Screen::Bolide { night, live, race } => (night, live, race),
            Screen::Entenrallye { night } => {
                let names = night.names.clone();
                match night.at(self.step) {
                    Ok(t) => {
                        if let Some(mut table) = table_ente::mirror_table(t) {
                            table.names = &names;
                            rallye::show(ui, &table, None, w);
                        }
                    }
                    Err(e) => cannot(ui, e),
                }
                return;
            }
            Screen::MilleBornes { night, live, table } => {
                match night.at(self.step) {
                    Ok(t) => {
                        let now = live.now_us();
                        table.show(ui, &mut table_mb::NetTable::replayed(live, t), now, w);
                    }
                    Err(e) => cannot(ui, e),
                }
                return;
            }
        };
        let names = night.names.clone();
        let t = match night.at(self.step) {
            Ok(t) => t,
            Err(e) => return cannot(ui, e),
        };
        if let Some(standings) = t.finished.clone() {
            egui::CentralPanel::default()
                .show(ui, |ui| egui::ScrollArea::vertical().show(ui, |ui| podium::show(ui, t, &standings, w)));
        } else if self.stats {
            // The night up to this step, pilot by pilot in seat order.
            let pilots: Vec<StandingLine> = names
                .iter()
                .enumerate()
                .map(|(i, name)| StandingLine { seat: Seat(i as u8), name: name.clone(), points: 0, wins: 0, rank: 0 })
                .collect();
            egui::CentralPanel::default()
                .show(ui, |ui| egui::ScrollArea::vertical().show(ui, |ui| podium::night(ui, t, &pilots, w)));
        } else {
            race.show(ui, live, t, w);
        }
    }

    /// The step a move of the replay lands on.
    fn target(&self, go: Go) -> usize {
        let (step, last) = (self.step, self.screen.steps().saturating_sub(1));
        let here = self.marks.get(step).copied().unwrap_or_default();
        let first = |pred: &dyn Fn((u16, u16)) -> bool| self.marks.iter().position(|m| pred(*m));
        // Back: to the start of this round (race), or of the one before when already there.
        let start_of = |same: &dyn Fn((u16, u16), (u16, u16)) -> bool| {
            let start = first(&|m| same(m, here)).unwrap_or(0);
            if start < step {
                return start;
            }
            let before = self.marks.get(start.saturating_sub(1)).copied().unwrap_or_default();
            first(&|m| same(m, before)).unwrap_or(0)
        };
        match go {
            Go::MoveBack => step.saturating_sub(1),
            Go::Move => (step + 1).min(last),
            Go::Round => first(&|m| m > here).unwrap_or(last),
            Go::Race => first(&|m| m.0 > here.0).unwrap_or(last),
            Go::RoundBack => start_of(&|a, b| a == b),
            Go::RaceBack => start_of(&|a, b| a.0 == b.0),
            Go::End => last,
        }
    }
}

/// The arrows: left and right a move, up and down a round.
fn keys(ui: &egui::Ui) -> Option<Go> {
    ui.input(|i| {
        [
            (egui::Key::ArrowLeft, Go::MoveBack),
            (egui::Key::ArrowRight, Go::Move),
            (egui::Key::ArrowUp, Go::RoundBack),
            (egui::Key::ArrowDown, Go::Round),
        ]
        .into_iter()
        .find_map(|(key, go)| i.key_pressed(key).then_some(go))
    })
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
