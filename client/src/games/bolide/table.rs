//! A Bolide table over the wire, as the window shows it: Practice's first-round guide, the
//! lobby until the championship starts, the races, then the podium.

use super::lobby;
use super::podium;
use super::race;
use crate::embed::HostAsk;
use crate::lang::Words;
use crate::live::{Command, Live};
use crate::replay::{Night, ReplayError};
use crate::ui::face::Replayed;
use crate::ui::face::{AtTable, Screen, Setup};
use bolide::view::PhaseView;
use bolide_table::Seat;
use bolide_table::wire::StandingLine;

#[derive(Default)]
pub struct BolideTableUi {
    lobby: lobby::LobbyUi,
    race: race::RaceUi,
}

impl Screen<bolide::Bolide> for BolideTableUi {
    type Game = bolide::game::Championship;
    // Practice's first race waits for the newcomer to read what is about to happen (the cup
    // lifts about two seconds after Ready, and the bots grab in under one).
    const GUIDE: bool = true;

    fn show(&mut self, ui: &mut egui::Ui, live: &Live, at: &mut AtTable) {
        let w = at.w;
        // The link's task waits for this lock at most one frame; the window reads a consistent
        // table for the whole frame.
        let state = live.state();
        let t = &state.mirror;
        let started = t.lobby.as_ref().is_some_and(|l| l.started);
        if at.guide {
            egui::CentralPanel::default().show(ui, |ui| {
                if first_round_guide(ui, w) {
                    at.guide_done = true;
                    live.send(Command::Ready(true));
                }
            });
        } else if let Some(standings) = t.finished.clone() {
            let night = at.night;
            egui::CentralPanel::default().show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    match night {
                        Some(Ok(())) => ui.weak(w.night_kept),
                        Some(Err(why)) => ui.weak((w.night_not_kept)(why)),
                        None => ui.weak(""),
                    };
                    podium::show(ui, t, &standings, w)
                })
            });
        } else if started && t.view.is_some() {
            self.race.show(ui, live, t, w);
        } else {
            let (host, games) = (at.host, at.games);
            egui::CentralPanel::default().show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.lobby.show(ui, live, t, host, games, w));
            });
        }
    }

    fn night(text: &str) -> Result<Box<dyn Replayed>, ReplayError> {
        let night = Night::<bolide::Bolide>::open::<bolide::game::Championship>(text)?;
        let (live, _) = Live::detached("");
        Ok(Box::new(BolideNight { night, live, race: race::RaceUi::default() }))
    }

    fn setup() -> Box<dyn Setup> {
        Box::new(BolideSetup { host_races: 3, practice_bots: 3, practice_races: 1 })
    }

    fn howto(w: &Words) -> crate::ui::face::HowTo {
        (w.howto_bolide, Some(w.no_sound_note))
    }

    fn title(live: &Live) -> &'static str {
        let state = live.state();
        let t = &state.mirror;
        if t.finished.is_some() {
            return "Bolide — podium";
        }
        let Some(view) = t.view.as_ref().filter(|_| t.lobby.as_ref().is_some_and(|l| l.started)) else {
            return "Bolide — lobby";
        };
        match view.phase {
            PhaseView::CupDown => "Bolide — the cup is down",
            PhaseView::KlaxonPicks { .. } => "Bolide — Klaxon",
            PhaseView::Grab => "Bolide — grab!",
            PhaseView::Echange => "Bolide — Échange",
            PhaseView::Movement if view.turn.is_some_and(|turn| Some(turn.seat) == t.seat) => "Bolide — your turn",
            PhaseView::Movement => "Bolide — movement",
            PhaseView::Over => "Bolide — race over",
        }
    }
}

/// Bolide on the start screen: a hosted championship's races; Practice's bots and races.
struct BolideSetup {
    host_races: u8,
    practice_bots: u8,
    practice_races: u8,
}

impl Setup for BolideSetup {
    fn host(&mut self, ui: &mut egui::Ui, w: &Words) {
        ui.add(egui::Slider::new(&mut self.host_races, 1..=20).text(w.races));
    }

    fn practice(&mut self, ui: &mut egui::Ui, w: &Words) {
        ui.add(egui::Slider::new(&mut self.practice_bots, 2..=5).text(w.bots));
        ui.add(egui::Slider::new(&mut self.practice_races, 1..=20).text(w.races));
    }

    fn ask(&self, ask: &mut HostAsk, practice: bool) {
        ask.races = Some(if practice { self.practice_races } else { self.host_races });
        if practice {
            ask.bots = self.practice_bots;
        }
    }
}

/// A Bolide night on the replay screen: the race screen at each step, the podium with the
/// dice checked, and the night's statistics.
struct BolideNight {
    night: Night<bolide::Bolide>,
    /// Detached: its clock serves the screen, and what it would send goes nowhere.
    live: Live,
    race: race::RaceUi,
}

impl Replayed for BolideNight {
    fn steps(&self) -> usize {
        self.night.steps()
    }

    fn marks(&self) -> Vec<(u16, u16)> {
        (0..self.night.steps()).map(|k| self.night.view(k).map_or((0, 0), |v| (u16::from(v.race), v.round))).collect()
    }

    fn nav(&self, w: &'static Words) -> crate::ui::face::Nav {
        (&w.replay_nav, w.replay_where)
    }

    fn has_stats(&self) -> bool {
        true
    }

    fn show(&mut self, ui: &mut egui::Ui, step: usize, stats: bool, w: &'static Words) -> Result<(), ReplayError> {
        let names = self.night.names.clone();
        let t = self.night.at(step)?;
        if let Some(standings) = t.finished.clone() {
            egui::CentralPanel::default()
                .show(ui, |ui| egui::ScrollArea::vertical().show(ui, |ui| podium::show(ui, t, &standings, w)));
        } else if stats {
            // The night up to this step, pilot by pilot in seat order.
            let pilots: Vec<StandingLine> = names
                .iter()
                .enumerate()
                .map(|(i, name)| StandingLine { seat: Seat(i as u8), name: name.clone(), points: 0, wins: 0, rank: 0 })
                .collect();
            egui::CentralPanel::default()
                .show(ui, |ui| egui::ScrollArea::vertical().show(ui, |ui| podium::night(ui, t, &pilots, w)));
        } else {
            self.race.show(ui, &self.live, t, w);
        }
        Ok(())
    }
}

/// Practice's first-round guide: the cup, Klaxon, the grab and a turn, with their keys;
/// returns true once the pilot starts the race.
fn first_round_guide(ui: &mut egui::Ui, w: &crate::lang::Words) -> bool {
    ui.vertical_centered(|ui| {
        ui.add_space(20.0);
        ui.heading(egui::RichText::new(w.guide_title).size(28.0));
        ui.add_space(12.0);
    });
    for step in w.guide_steps {
        ui.label(egui::RichText::new(step).size(19.0));
        ui.add_space(6.0);
    }
    ui.add_space(12.0);
    ui.vertical_centered(|ui| {
        let start =
            egui::Button::new(egui::RichText::new(w.guide_start).size(22.0)).min_size(egui::Vec2::new(320.0, 52.0));
        ui.add(start).clicked() || ui.input(|i| i.key_pressed(egui::Key::Enter))
    })
    .inner
}
