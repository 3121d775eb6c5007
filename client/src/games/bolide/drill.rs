//! The warm-up (start screen): the cup, then six reservoirs as a grab shows them — press 1 to 6
//! or click one as soon as they show. Each reaction is timed as a race times it: `shown` when
//! the frame that drew the reservoirs reached the screen ([`stamp::on_screen`], the race's own
//! stamp), `input` in the pass that reads the key, on the link's clock ([`MonotonicClock`]).
//! Nothing leaves the laptop.
//!
//! It also lets `scripts/window-timing.sh` measure those two stamps from outside the window,
//! grab after grab: with `RUST_LOG=bolide::drill=debug` each trial is logged on that clock
//! (`zero_ns` says where its zero is on CLOCK_MONOTONIC), and the script compares them with
//! the instants it saw the reservoirs' pixels and sent the key through XTest.

use crate::lang::Words;
use crate::net::{Clock, MonotonicClock};
use crate::ui::look;
use crate::ui::stamp;
use bolide_table::colour::Colour;
use egui::{RichText, Vec2};
use rand::{RngExt, SeedableRng};
use std::sync::{Arc, Mutex};

/// How long the cup stays down: drawn afresh each time, so the reveal cannot be anticipated.
const CUP_MS: std::ops::Range<u64> = 1_000..2_500;
/// How long a reaction stays on screen before the cup comes down again.
const RESULT_MS: u64 = 1_200;
/// The reactions kept for the summary.
const KEPT: usize = 200;

enum Phase {
    Cup {
        reveal_at: u64,
    },
    /// The reservoirs: `drawn` once the frame that shows them was asked to stamp `shown`.
    Reservoirs {
        drawn: bool,
    },
    Result {
        reaction_us: Option<u64>,
        until: u64,
    },
}

pub struct DrillUi {
    clock: Arc<MonotonicClock>,
    rng: rand_chacha::ChaCha8Rng,
    phase: Phase,
    trial: u32,
    /// The instant the reservoirs reached the screen, from the paint callback.
    shown: Arc<Mutex<Option<u64>>>,
    /// The reservoirs' values this time (as a grab shows them; they do not matter here).
    values: [u8; 6],
    reactions: Vec<u64>,
}

impl Default for DrillUi {
    fn default() -> Self {
        DrillUi::new()
    }
}

impl DrillUi {
    /// A warm-up whose first cup comes down now.
    pub fn new() -> DrillUi {
        let clock = Arc::new(MonotonicClock::new());
        log_zero(&clock);
        let mut drill = DrillUi {
            clock,
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(getrandom::u64().unwrap_or_default()),
            phase: Phase::Result { reaction_us: None, until: 0 },
            trial: 0,
            shown: Arc::default(),
            values: [1, 2, 3, 4, 5, 6],
            reactions: Vec::new(),
        };
        drill.cup();
        drill
    }

    fn cup(&mut self) {
        self.trial += 1;
        let reveal_at = self.clock.now_us() + self.rng.random_range(CUP_MS) * 1_000;
        for v in &mut self.values {
            *v = self.rng.random_range(1..=6);
        }
        *self.shown.lock().unwrap_or_else(|e| e.into_inner()) = None;
        tracing::debug!(target: "bolide::drill", trial = self.trial, reveal_at_us = reveal_at, "cup");
        self.phase = Phase::Cup { reveal_at };
    }

    /// The screen; true when the player goes back to the start screen.
    pub fn show(&mut self, ui: &mut egui::Ui, w: &Words) -> bool {
        let mut back = false;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                back = ui.button(w.back).clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape));
                ui.heading(w.drill);
            });
            ui.label(w.drill_blurb);
            ui.add_space(60.0);
            ui.vertical_centered(|ui| {
                self.trial_ui(ui, w);
                ui.add_space(24.0);
                let mut sorted = self.reactions.clone();
                sorted.sort_unstable();
                if let (Some(median), Some(best)) = (sorted.get(sorted.len() / 2), sorted.first()) {
                    ui.label(RichText::new((w.drill_summary)(sorted.len(), ms(*median), ms(*best))).size(18.0));
                }
            });
        });
        back
    }

    fn trial_ui(&mut self, ui: &mut egui::Ui, w: &Words) {
        let now = self.clock.now_us();
        let key = ui.input(|i| KEYS.iter().copied().find(|k| i.key_pressed(*k)));
        let pressed = key.is_some();
        if let Phase::Cup { reveal_at } = self.phase {
            // The reservoirs are drawn by the pass a race's would draw them in.
            if !stamp::shows_now(ui, now, reveal_at) {
                ui.heading(RichText::new(w.drill_cup).size(22.0));
                ui.add_space(12.0);
                cup(ui);
                if pressed {
                    self.phase = Phase::Result { reaction_us: None, until: now + RESULT_MS * 1_000 };
                }
                return;
            }
            self.phase = Phase::Reservoirs { drawn: false };
        }
        match self.phase {
            Phase::Reservoirs { drawn } => {
                ui.heading(RichText::new(w.drill_now).size(22.0));
                ui.add_space(12.0);
                let clicked = self.reservoirs(ui, w);
                if !drawn && (pressed || clicked) {
                    self.phase = Phase::Result { reaction_us: None, until: now + RESULT_MS * 1_000 };
                } else if !drawn {
                    self.phase = Phase::Reservoirs { drawn: true };
                    let (shown, trial) = (self.shown.clone(), self.trial);
                    stamp::on_screen(ui, &self.clock, move |at_us| {
                        tracing::debug!(target: "bolide::drill", trial, shown_us = at_us, "shown");
                        *shown.lock().unwrap_or_else(|e| e.into_inner()) = Some(at_us);
                    });
                } else if pressed || clicked {
                    // The same instant the race stamps a grab with: when the display server
                    // saw the key or the click, else this pass, which read it.
                    let trigger = key.filter(|_| !clicked).map_or(stamp::Trigger::Primary, stamp::Trigger::Key);
                    let input_us = stamp::input_us(trigger, &self.clock, now);
                    let shown = *self.shown.lock().unwrap_or_else(|e| e.into_inner());
                    // A key read before the frame that drew the reservoirs was done is early.
                    let reaction_us = shown.filter(|s| *s <= input_us).map(|s| input_us - s);
                    tracing::debug!(target: "bolide::drill", trial = self.trial, input_us, "input");
                    if let Some(r) = reaction_us {
                        if self.reactions.len() == KEPT {
                            self.reactions.remove(0);
                        }
                        self.reactions.push(r);
                    }
                    self.phase = Phase::Result { reaction_us, until: now + RESULT_MS * 1_000 };
                }
            }
            Phase::Result { reaction_us, until } => {
                match reaction_us {
                    Some(r) => ui.heading(RichText::new((w.drill_reaction)(ms(r))).size(40.0).strong()),
                    None => ui.heading(RichText::new(w.drill_early).size(22.0)),
                };
                if now >= until {
                    self.cup();
                    ui.ctx().request_repaint();
                } else {
                    ui.ctx().request_repaint_after(std::time::Duration::from_micros(until - now));
                }
            }
            Phase::Cup { .. } => {}
        }
    }

    /// The six reservoirs as a grab shows them; true when one was clicked.
    fn reservoirs(&self, ui: &mut egui::Ui, w: &Words) -> bool {
        let mut clicked = false;
        ui.horizontal(|ui| {
            ui.add_space(((ui.available_width() - ROW.x) / 2.0).max(0.0));
            for (i, (value, colour)) in self.values.iter().zip(Colour::ALL).enumerate() {
                let label = (w.pawn_label)(i as u16 + 1, &value.to_string());
                let text = RichText::new(label).size(20.0).color(look::ink(colour)).strong();
                let button = egui::Button::new(text).fill(look::colour(colour)).min_size(RESERVOIR);
                clicked |= stamp::pressed(&ui.add(button));
            }
        });
        clicked
    }
}

const KEYS: [egui::Key; 6] =
    [egui::Key::Num1, egui::Key::Num2, egui::Key::Num3, egui::Key::Num4, egui::Key::Num5, egui::Key::Num6];

/// A reservoir's button, and the row of six (egui's default spacing between them).
const RESERVOIR: Vec2 = Vec2::new(150.0, 90.0);
const ROW: Vec2 = Vec2::new(6.0 * 150.0 + 5.0 * 8.0, 90.0);

/// The cup, upside down over where the reservoirs will show.
fn cup(ui: &mut egui::Ui) {
    let (rect, _) = ui.allocate_exact_size(ROW, egui::Sense::hover());
    ui.painter().rect_filled(rect, 12.0, egui::Color32::from_gray(70));
}

fn ms(us: u64) -> f64 {
    us as f64 / 1e3
}

/// Where the drill's clock starts on CLOCK_MONOTONIC (which Rust's `Instant` reads on Linux),
/// for a script that stamps on that clock.
fn log_zero(clock: &MonotonicClock) {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes one timespec we own.
        if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) } == 0 {
            let monotonic_ns = ts.tv_sec as i128 * 1_000_000_000 + ts.tv_nsec as i128;
            let zero_ns = monotonic_ns - i128::from(clock.now_us()) * 1_000;
            tracing::debug!(target: "bolide::drill", zero_ns = zero_ns as i64, "clock");
        }
    }
    // A page's clock is `performance.now()`'s: its zero on that clock, in µs.
    #[cfg(target_arch = "wasm32")]
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let zero_page_us = (performance.now() * 1_000.0) as i64 - clock.now_us() as i64;
        tracing::debug!(target: "bolide::drill", zero_page_us, "clock");
    }
    #[cfg(not(any(target_os = "linux", target_arch = "wasm32")))]
    let _ = clock;
}
