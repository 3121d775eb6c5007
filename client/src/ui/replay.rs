//! A night replayed in the window (`crate::replay`), as a spectator saw it, step by step: the
//! bar that moves it (a move, a round, a race — each game says what its steps are) and the
//! game's own screen for the step, reading the replay's mirror instead of a link's. Each game
//! opens its nights ([`super::face::Screen::night`], a [`Replayed`]): Bolide's race screen, each grab's photo
//! finish and its podium with the dice checked and the night's statistics; 1000 Bornes' table
//! and its Coup-Fourrés; Entenrallye's year.

pub use super::face::{Nav, Replayed};
use crate::games::Registry;
use crate::lang::Words;
use crate::replay::ReplayError;
use crate::shelf::Kept;
use egui::RichText;

/// How long a step stays on screen while the replay plays.
const PLAY_STEP_S: f64 = 0.5;

pub struct ReplayUi {
    pub kept: Kept,
    screen: Box<dyn Replayed>,
    /// Where each step is: the race and round (Bolide), the hand and turn round the table
    /// (1000 Bornes).
    marks: Vec<(u16, u16)>,
    step: usize,
    /// Playing: when the step last moved on (the window's time, s).
    playing: Option<f64>,
    stats: bool,
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
    /// Opens a kept night (`text`, its journal) of one of this house's games.
    pub fn open(kept: Kept, text: &str) -> Result<ReplayUi, ReplayError> {
        ReplayUi::open_in(&Registry::standard(), kept, text)
    }

    /// Opens a kept night of one of `games`: it replays whole before the first frame. A night
    /// kept before a table played more than one game names none: it is the first game's.
    pub fn open_in(games: &Registry, kept: Kept, text: &str) -> Result<ReplayUi, ReplayError> {
        let game = match kept.game.as_str() {
            "" => games.first(),
            name => games.get(name),
        };
        let game = game
            .ok_or_else(|| ReplayError::View(format!("a night of {}, a game this window does not know", kept.game)))?;
        let screen = (game.replay)(text)?;
        let marks = screen.marks();
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
                let (nav, place) = self.screen.nav(w);
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
                if self.screen.has_stats() {
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
        if let Err(e) = self.screen.show(ui, self.step, self.stats, w) {
            egui::CentralPanel::default().show(ui, |ui| ui.label((w.replay_cannot_open)(&e.to_string())));
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
