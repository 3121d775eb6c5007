//! The race screen: the board in the middle; the phase's controls below (the cup, the grab,
//! Échange, the pilot's turn); pilots, tokens, the ranking and the event log at the side.
//! What may be done comes only from the host's `legal` list; the board's reachable tiles are
//! the `Move` actions in it.

use super::board;
use crate::games::bolide::Mirror;
use crate::lang::Words;
use crate::live::{Command, Live};
use crate::ui::look;
use bolide::view::{PhaseView, TurnStep};
use bolide::{Action, Atout, Colour, Event, Pawn, PlayerView, Seat, Timed};
use egui::{Color32, RichText, Vec2};

/// What the race screen remembers between frames.
#[derive(Default)]
pub struct RaceUi {
    /// Where each car is drawn: it moves towards its real position tile by tile.
    shown_at: Vec<f32>,
    last_frame: Option<f64>,
    /// The timed moment this window has drawn (reported once, as `Shown`).
    drawn: Option<(u8, u16, Timed)>,
    /// The pawn this pilot last asked for in the grab.
    asked: Option<(u8, u16, Pawn)>,
    /// The round whose Échange this pilot declared (one declaration; the verdict follows).
    declared: Option<(u8, u16)>,
    /// Picking a tile for the oil (Huile, B-5.14).
    picking_oil: bool,
}

/// Tiles a car moves per second when the board catches up with the host.
const TILES_PER_S: f64 = 8.0;

/// What every part of the race screen reads in one frame. Seats come from the host: a seat
/// this view does not know reads as "?", never as a panic.
struct Scene<'a> {
    live: &'a Live,
    t: &'a Mirror,
    view: &'a PlayerView,
    names: Vec<String>,
    colours: Vec<Colour>,
    now_us: u64,
    w: &'static Words,
}

impl<'a> Scene<'a> {
    fn new(live: &'a Live, t: &'a Mirror, view: &'a PlayerView, w: &'static Words) -> Self {
        let seats = (0..view.cars.len()).map(|i| Seat(i as u8));
        let names = seats.clone().map(|seat| t.name(seat)).collect();
        let colours = seats.map(|seat| t.colour(seat)).collect();
        Scene { live, t, view, names, colours, now_us: live.now_us(), w }
    }

    fn name(&self, seat: Seat) -> &str {
        self.names.get(seat.index()).map_or("?", String::as_str)
    }

    fn colour(&self, seat: Seat) -> Colour {
        self.colours.get(seat.index()).copied().unwrap_or(Colour::Rouge)
    }

    /// Sends a game action stamped with the moment of the input.
    fn act(&self, action: Action) {
        self.live.send(Command::Act { action, at_us: self.live.now_us() });
    }
}

impl RaceUi {
    pub fn show(&mut self, ui: &mut egui::Ui, live: &Live, t: &Mirror, w: &'static Words) {
        let Some(view) = t.view.as_ref() else {
            ui.label(w.waiting_first_view);
            return;
        };
        if let Some(seat) = t.seat.filter(|s| s.index() >= view.cars.len()) {
            // The client core keeps its seat within the view; a host that broke that is told.
            ui.colored_label(Color32::LIGHT_RED, (w.seat_past_table)(seat.number(), view.cars.len()));
            return;
        }
        let s = Scene::new(live, t, view, w);
        self.animate(ui, view);

        // A phone held upright has no room beside the board: the pilots and what happened go
        // between the board and the controls, which stay under the thumb.
        let narrow = look::narrow(ui);
        egui::Panel::top("race-status").show(ui, |ui| status_line(ui, &s));
        if !narrow {
            egui::Panel::right("race-side").min_size(280.0).show(ui, |ui| side_panel(ui, &s));
        }
        look::controls(ui, "race-controls", 150.0, |ui| {
            ui.add_space(6.0);
            self.controls(ui, &s);
            ui.add_space(6.0);
        });
        if narrow {
            look::under_the_board(ui, "race-side", |ui| side_panel(ui, &s));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            let rect = ui.available_rect_before_wrap();
            let pickable = self.pickable(t, view);
            let input =
                board::BoardInput { view, colours: &s.colours, shown_at: &self.shown_at, pickable: &pickable, w: s.w };
            if let Some(tile) = board::show(ui, rect, &input) {
                self.tile_clicked(&s, tile);
            }
        });
    }

    /// Cars glide to their positions one tile at a time; the screen repaints until they are
    /// there, and not after.
    fn animate(&mut self, ui: &egui::Ui, view: &PlayerView) {
        let time = ui.input(|i| i.time);
        let dt = self.last_frame.map_or(0.0, |last| (time - last).clamp(0.0, 0.2));
        self.last_frame = Some(time);
        self.shown_at.resize(view.cars.len(), 0.0);
        let mut moving = false;
        for (shown, car) in self.shown_at.iter_mut().zip(&view.cars) {
            let target = f32::from(car.position);
            // A new race (or a first view) jumps; a move glides.
            if target < *shown || *shown == 0.0 && target > 0.0 && dt == 0.0 {
                *shown = target;
            }
            if *shown < target {
                *shown = (*shown + (dt * TILES_PER_S) as f32).min(target);
                moving = true;
            }
        }
        if moving {
            ui.ctx().request_repaint();
        }
    }

    fn pickable(&self, t: &Mirror, view: &PlayerView) -> Vec<u8> {
        let Some(me) = t.seat else { return Vec::new() };
        let from = view.car(me).position;
        t.legal
            .iter()
            .filter_map(|a| match a {
                Action::Move { tiles } if !self.picking_oil => Some(from.saturating_add(*tiles)),
                Action::Huile { tile } if self.picking_oil => Some(*tile),
                _ => None,
            })
            .collect()
    }

    fn tile_clicked(&mut self, s: &Scene, tile: u8) {
        let Some(me) = s.t.seat else { return };
        let from = s.view.car(me).position;
        let action = if self.picking_oil {
            self.picking_oil = false;
            Action::Huile { tile }
        } else {
            Action::Move { tiles: tile.saturating_sub(from) }
        };
        if s.t.legal.contains(&action) {
            s.act(action);
        }
    }

    fn controls(&mut self, ui: &mut egui::Ui, s: &Scene) {
        let (t, view, w) = (s.t, s.view, s.w);
        if let Some(refusal) = &t.refusal {
            ui.colored_label(Color32::from_rgb(230, 120, 40), (w.refused)(refusal));
        }
        match view.phase {
            PhaseView::CupDown => cup_down(ui, s),
            PhaseView::KlaxonPicks { next } => {
                if Some(next) == t.seat {
                    ui.heading(w.klaxon_you_peek);
                    self.pawns(ui, s, false);
                } else {
                    ui.heading((w.peeks_and_chooses)(s.name(next)));
                }
            }
            PhaseView::Grab | PhaseView::Echange => {
                let moment = view.phase.timed().map(|m| m.name(view.race, view.round));
                let show_at = t.scheduled.filter(|m| Some(m.moment) == moment).map(|m| m.at_us);
                match show_at {
                    // Wakes for the frame that shows the moment.
                    Some(at) if !crate::ui::stamp::shows_now(ui, s.now_us, at) => {
                        ui.heading(if view.phase == PhaseView::Grab { w.hands_ready } else { w.echange_soon });
                    }
                    _ if view.phase == PhaseView::Grab => self.grab(ui, s),
                    _ => self.echange(ui, s),
                }
            }
            PhaseView::Movement => self.movement(ui, s),
            PhaseView::Over => {
                ui.heading(w.race_over_heading);
                race_points(ui, s);
            }
        }
    }

    fn grab(&mut self, ui: &mut egui::Ui, s: &Scene) {
        let (live, t, view, w) = (s.live, s.t, s.view, s.w);
        let me = t.seat;
        let mine = me.and_then(|s| view.car(s).pawn);
        match (mine, self.asked) {
            (Some(pawn), _) => {
                let value = view.pawns.iter().find(|p| p.pawn == pawn).and_then(|p| p.reservoir);
                ui.heading(
                    RichText::new((w.yours_pawn)(pawn.number(), value.unwrap_or(0)))
                        .color(Color32::from_rgb(60, 200, 90)),
                );
            }
            (None, Some((race, round, pawn))) if (race, round) == (view.race, view.round) => {
                if let Some(owner) = view.pawns.iter().find(|p| p.pawn == pawn).and_then(|p| p.owner) {
                    ui.heading(RichText::new((w.taken_by)(s.name(owner))).color(Color32::from_rgb(240, 130, 40)));
                } else {
                    ui.heading(w.asked_waiting);
                }
            }
            _ if me.is_some() => {
                ui.heading(w.grab_now);
            }
            _ => {
                ui.heading(w.grab_is_on);
            }
        }
        // No frame is drawn while the pilot's hand moves: a key or a click wakes the window at
        // once, where a frame in progress would hold it back until that frame is done.
        let still_grabbing = me.is_some() && mine.is_none();
        self.pawns(ui, s, still_grabbing);
        self.drawn(ui, live, view);
    }

    /// The pawns as big buttons in the round's order (B-4.5), with their reservoirs when this
    /// seat may see them; keys 1–6 pick them in that order.
    fn pawns(&mut self, ui: &mut egui::Ui, s: &Scene, timed: bool) {
        let (live, t, view) = (s.live, s.t, s.view);
        let keys =
            [egui::Key::Num1, egui::Key::Num2, egui::Key::Num3, egui::Key::Num4, egui::Key::Num5, egui::Key::Num6];
        // One hand, one pawn: after a request, wait for its verdict (or a refusal) before
        // another — as at the table, you grab again only once someone was faster.
        let waiting = t.refusal.is_none()
            && self.asked.is_some_and(|(race, round, asked)| {
                (race, round) == (view.race, view.round)
                    && view.pawns.iter().any(|p| p.pawn == asked && p.owner.is_none())
            });
        // Six in a row on a laptop's screen; on a phone's narrow page, rows of three (or two),
        // each pawn a target a thumb cannot miss.
        let (columns, size) = pawn_grid(ui.available_width(), ui.spacing().item_spacing.x);
        let pawns: Vec<(usize, &bolide::view::PawnView)> = view.pawns.iter().enumerate().collect();
        for row in pawns.chunks(columns) {
            ui.horizontal(|ui| {
                for &(i, p) in row {
                    let c = s.colour(Seat(p.pawn.0));
                    let value = p.reservoir.map_or("?".to_string(), |v| v.to_string());
                    let (label, fill) = match p.owner {
                        Some(owner) => (
                            format!("{}\n{}", (s.w.pawn_label)(p.pawn.number(), &value), s.name(owner)),
                            look::greyed(look::colour(t.colour(owner))),
                        ),
                        None => ((s.w.pawn_label)(p.pawn.number(), &value), look::colour(c)),
                    };
                    let take = Action::TakePawn { pawn: p.pawn };
                    let allowed = t.legal.contains(&take) && !waiting;
                    let text = RichText::new(label).size(20.0).color(look::ink(c)).strong();
                    let button = egui::Button::new(text).fill(fill).min_size(size);
                    let key = keys.get(i).copied().filter(|_| allowed);
                    if let Some(trigger) = crate::ui::stamp::press(&ui.add_enabled(allowed, button), key) {
                        let input_us = crate::ui::stamp::input_us(trigger, &live.clock, live.now_us());
                        self.asked = Some((view.race, view.round, p.pawn));
                        live.send(if timed {
                            Command::Timed { action: take, input_us }
                        } else {
                            Command::Act { action: take, at_us: input_us }
                        });
                    }
                }
            });
        }
    }

    fn movement(&mut self, ui: &mut egui::Ui, s: &Scene) {
        let (t, w) = (s.t, s.w);
        let Some(turn) = s.view.turn else { return };
        let mine = Some(turn.seat) == t.seat;
        let who = if mine { w.your_turn.to_string() } else { (w.someones_turn)(s.name(turn.seat)) };
        // Wrapped: on a phone a line that runs off the side widens the panel, and the buttons
        // under it with it.
        ui.horizontal_wrapped(|ui| {
            ui.heading(who);
            ui.label((w.reservoir_n)(turn.reservoir));
            if let Some(die) = turn.accelerator {
                ui.label(RichText::new((w.accelerator_die)(die)).size(18.0).strong());
            }
            if let Some(speed) = turn.speed {
                ui.label(RichText::new(format!("{speed} km/h")).size(18.0));
            }
            if turn.step == TurnStep::Moving {
                ui.label((w.movement_points)(turn.points_left));
            }
        });
        if !mine {
            return;
        }
        let act = |action: Action| s.act(action);
        ui.horizontal_wrapped(|ui| {
            for action in &t.legal {
                let label = match action {
                    Action::Roll => w.roll_button.to_string(),
                    Action::AsDeLaRoute => w.atout(Atout::AsDeLaRoute).into(),
                    Action::Aspiration => w.bonus(bolide::BonusKind::Aspiration).into(),
                    Action::SecondChance => w.second_chance.into(),
                    Action::Raccourci { tiles_before } => (w.raccourci_after)(*tiles_before),
                    Action::Nitro => w.atout(Atout::Nitro).into(),
                    Action::Assistance { atout } => (w.assistance_take_back)(w.atout(*atout)),
                    Action::EndTurn => w.end_turn_button.into(),
                    Action::Move { .. } | Action::Huile { .. } => continue,
                    other => format!("{other:?}"),
                };
                if ui.button(RichText::new(label).size(17.0)).clicked() {
                    act(*action);
                }
            }
            if t.legal.iter().any(|a| matches!(a, Action::Huile { .. })) {
                let label = if self.picking_oil { w.huile_pick } else { w.bonus(bolide::BonusKind::Huile) };
                if ui.button(RichText::new(label).size(17.0)).clicked() {
                    self.picking_oil = !self.picking_oil;
                }
            }
        });
        let moves: Vec<u8> =
            t.legal.iter().filter_map(|a| if let Action::Move { tiles } = a { Some(*tiles) } else { None }).collect();
        if !moves.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label(w.move_click_or);
                for tiles in &moves {
                    if ui.button((w.n_tiles)(*tiles)).clicked() {
                        act(Action::Move { tiles: *tiles });
                    }
                }
            });
        }
        // Keys: R rolls, E ends the turn, a digit moves that many tiles, Esc leaves oil picking.
        let keys = ui.input(|i| {
            (
                i.key_pressed(egui::Key::R),
                i.key_pressed(egui::Key::E),
                i.key_pressed(egui::Key::Escape),
                digit_pressed(i),
            )
        });
        if keys.0 && t.legal.contains(&Action::Roll) {
            act(Action::Roll);
        }
        if keys.1 && t.legal.contains(&Action::EndTurn) {
            act(Action::EndTurn);
        }
        if keys.2 {
            self.picking_oil = false;
        }
        if let Some(tiles) = keys.3
            && t.legal.contains(&Action::Move { tiles })
        {
            act(Action::Move { tiles });
        }
    }
}

fn digit_pressed(i: &egui::InputState) -> Option<u8> {
    use egui::Key::*;
    [Num0, Num1, Num2, Num3, Num4, Num5, Num6, Num7, Num8, Num9].iter().position(|k| i.key_pressed(*k)).map(|d| d as u8)
}

fn cup_down(ui: &mut egui::Ui, s: &Scene) {
    let (t, view, w) = (s.t, s.view, s.w);
    let left = t.deadline_at_us.map(|d| d.saturating_sub(s.now_us));
    ui.horizontal_wrapped(|ui| {
        ui.heading(w.cup_down);
        if let Some(left) = left {
            ui.label(RichText::new((w.lifts_in)(left as f64 / 1e6)).size(18.0));
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
    });
    if !view.klaxon_calls.is_empty() {
        let calls: Vec<&str> = view.klaxon_calls.iter().map(|seat| s.name(*seat)).collect();
        ui.label((w.klaxon_calls)(&calls.join(", ")));
    }
    if t.legal.contains(&Action::Klaxon) {
        let klaxon = egui::Button::new(RichText::new(w.klaxon_button).size(22.0)).min_size(Vec2::new(180.0, 50.0));
        if let Some(trigger) = crate::ui::stamp::press(&ui.add(klaxon), Some(egui::Key::K)) {
            let at_us = crate::ui::stamp::input_us(trigger, &s.live.clock, s.live.now_us());
            s.live.send(Command::Act { action: Action::Klaxon, at_us });
        }
    }
}

/// How many pawns a row holds across `width`, and each one's size: six of at least 90 px on a
/// laptop; on a narrower page three (or two) to a row, each as wide as the row allows and
/// taller, for a thumb.
fn pawn_grid(width: f32, gap: f32) -> (usize, Vec2) {
    if width >= 6.0 * 90.0 + 5.0 * gap {
        return (6, Vec2::new((width / 6.5).clamp(90.0, 260.0), 70.0));
    }
    let columns = if width >= 3.0 * 100.0 + 2.0 * gap { 3 } else { 2 };
    let n = columns as f32;
    (columns, Vec2::new(((width - (n - 1.0) * gap) / n).floor().max(60.0), 96.0))
}

impl RaceUi {
    /// The frame that first drew a timed moment: tell the link when it went out.
    fn drawn(&mut self, ui: &egui::Ui, live: &Live, view: &PlayerView) {
        let Some(moment) = view.phase.timed().map(|m| (view.race, view.round, m)) else { return };
        if self.drawn != Some(moment) {
            self.drawn = Some(moment);
            let (race, round, timed) = moment;
            // What the pilot is shown, keys 1–6 in order (a field run's browser seats read it).
            if tracing::enabled!(target: "bolide::field", tracing::Level::DEBUG) {
                let pawns: Vec<String> = view
                    .pawns
                    .iter()
                    .map(|p| format!("{}:{}", p.pawn.number(), p.reservoir.map_or(0, u32::from)))
                    .collect();
                let pawns = pawns.join(",");
                tracing::debug!(target: "bolide::field", moment = timed.name(race, round), %pawns, "drawn");
            }
            crate::ui::stamp::shown(ui, live, timed.name(race, round));
        }
    }

    /// B-4.7: the Échange window, timed like the grab — the first to choose is applied first.
    fn echange(&mut self, ui: &mut egui::Ui, s: &Scene) {
        let (live, t, view, w) = (s.live, s.t, s.view, s.w);
        self.drawn(ui, live, view);
        let offers: Vec<Seat> =
            t.legal.iter().filter_map(|a| if let Action::Echange { with } = a { Some(*with) } else { None }).collect();
        if offers.is_empty() {
            ui.heading(w.echange_holders_decide);
            return;
        }
        let round = (view.race, view.round);
        if self.declared == Some(round) && t.refusal.is_none() {
            ui.heading(w.declared_waiting);
            return;
        }
        ui.heading(w.echange_now);
        let mut declared = None;
        let mut declare = |action, trigger| {
            let input_us = crate::ui::stamp::input_us(trigger, &live.clock, live.now_us());
            live.send(Command::Timed { action, input_us });
            declared = Some(round);
        };
        ui.horizontal_wrapped(|ui| {
            for with in offers {
                let theirs =
                    view.car(with).pawn.and_then(|p| view.pawns.iter().find(|v| v.pawn == p)).and_then(|p| p.reservoir);
                let label = (w.echange_with)(s.name(with), theirs.unwrap_or(0));
                if crate::ui::stamp::pressed(&ui.button(RichText::new(label).size(17.0))) {
                    declare(Action::Echange { with }, crate::ui::stamp::Trigger::Primary);
                }
            }
            if t.legal.contains(&Action::KeepPawn) {
                let keep = ui.button(RichText::new(w.keep_my_pawn).size(17.0));
                if let Some(trigger) = crate::ui::stamp::press(&keep, Some(egui::Key::Escape)) {
                    declare(Action::KeepPawn, trigger);
                }
            }
        });
        self.declared = declared.or(self.declared);
        // While this pilot may still declare, every frame counts, as in the grab.
        ui.ctx().request_repaint();
    }
}

fn status_line(ui: &mut egui::Ui, s: &Scene) {
    let (t, view, w) = (s.t, s.view, s.w);
    // On a phone's page the status wraps rather than run off its edge.
    ui.horizontal_wrapped(|ui| {
        let races = t.lobby.as_ref().map_or(0, |l| l.settings.options.races);
        look::status_lead(ui, (w.race_round)(view.race, races, view.round));
        if let Some(turn) = view.turn.filter(|_| view.phase == PhaseView::Movement) {
            ui.label((w.drives)(s.name(turn.seat)));
        }
        if let Some(deadline) = t.deadline_at_us.filter(|_| view.phase != PhaseView::CupDown) {
            ui.label((w.before_bot)(crate::ui::look::seconds_shown(ui, deadline.saturating_sub(s.now_us))));
        }
        if let Some(me) = t.seat {
            ui.separator();
            ui.label(RichText::new((w.you_tokens)(&tokens(view, me, w))).strong());
        }
    });
}

/// A seat's public tokens in words.
pub fn tokens(view: &PlayerView, seat: Seat, w: &Words) -> String {
    let car = view.car(seat);
    let mut parts: Vec<&str> = Atout::ALL.iter().filter(|a| car.atouts.contains(**a)).map(|a| w.atout(*a)).collect();
    parts.extend(car.bonuses.iter().map(|b| w.bonus(b)));
    if car.second_chance {
        parts.push(w.second_chance);
    }
    if parts.is_empty() { w.no_token_left.into() } else { parts.join(", ") }
}

fn side_panel(ui: &mut egui::Ui, s: &Scene) {
    let (t, view, w) = (s.t, s.view, s.w);
    look::section(ui, w.pilots);
    // The ranking: crossed cars in crossing order, then by position.
    let mut order: Vec<Seat> = view.cars.iter().map(|c| c.seat).collect();
    order.sort_by_key(|s| {
        let crossed = view.finish_order.iter().position(|f| f == s);
        (crossed.is_none(), crossed.unwrap_or(0), std::cmp::Reverse(view.car(*s).position))
    });
    egui::Grid::new("pilots").striped(true).show(ui, |ui| {
        for (rank, seat) in order.iter().enumerate() {
            let c = s.colour(*seat);
            ui.label(RichText::new(format!("{}.", rank + 1)).strong());
            let name = format!(" {} {} ", seat.number(), s.name(*seat));
            ui.label(RichText::new(name).background_color(look::colour(c)).color(look::ink(c)));
            let mut notes = vec![(w.tile_n)(view.car(*seat).position)];
            if view.lanterne_rouge == Some(*seat) {
                notes.push(w.lanterne_rouge.into());
            }
            ui.label(notes.join(" · ")).on_hover_text(tokens(view, *seat, w));
            ui.end_row();
        }
    });
    ui.separator();
    photo_finish(ui, s);
    ui.separator();
    let lines = t.events.iter().filter_map(|e| Some((crate::text::describe(e, &s.names, w)?, (w.rule_n)(e.rule()))));
    look::log(ui, w.what_happened, lines);
}

/// The last photo finish (B-4.3, B-4.7), as the host measured it: reactions fastest first,
/// then what each contested pawn was won by — or, after an Échange window, by how much each
/// declaration went before the next.
fn photo_finish(ui: &mut egui::Ui, s: &Scene) {
    let last = s.t.events.iter().rev().find_map(|e| if let Event::PhotoFinish(p) = e { Some(p) } else { None });
    let w = s.w;
    let title = match last.map(|p| p.moment) {
        Some(Timed::Echange) => w.echange_photo_finish,
        _ => w.photo_finish,
    };
    look::section(ui, title);
    let Some(photo) = last else {
        ui.label(w.photo_finish_hint);
        return;
    };
    egui::Grid::new("photo-finish").show(ui, |ui| {
        for (seat, reaction) in photo.fastest_first() {
            let c = s.colour(seat);
            ui.label(
                RichText::new(format!(" {} ", s.name(seat))).background_color(look::colour(c)).color(look::ink(c)),
            );
            ui.label(crate::text::ms(reaction));
            ui.end_row();
        }
    });
    for contest in &photo.contested {
        ui.label(crate::text::contest(contest, &s.names, w));
    }
    for margin in crate::text::echange_margins(photo, &s.names, w) {
        ui.label(margin);
    }
}

/// Points of every race so far, from the host's `RacePoints` events (B-7.2).
pub fn points_by_race(t: &Mirror) -> Vec<Vec<u32>> {
    t.events
        .iter()
        .filter_map(|e| if let Event::RacePoints { points } = e { Some(points.clone()) } else { None })
        .collect()
}

fn race_points(ui: &mut egui::Ui, s: &Scene) {
    if let Some(points) = points_by_race(s.t).last() {
        ui.horizontal_wrapped(|ui| {
            for (i, p) in points.iter().enumerate() {
                ui.label((s.w.pts)(s.name(Seat(i as u8)), *p));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::pawn_grid;

    /// B-4.3's grab on every screen: six in a row on a laptop, rows of three on a phone held
    /// upright (390 px less the page's margins), two on narrower; every target at least as
    /// wide as a thumb and never wider than the row.
    #[test]
    fn the_grab_is_six_large_targets_on_a_laptop_and_on_a_phone() {
        let gap = 8.0;
        let (columns, size) = pawn_grid(1264.0, gap);
        assert_eq!(columns, 6);
        assert!(size.x >= 90.0 && size.y >= 70.0);
        for (width, want) in [(374.0, 3), (320.0, 3), (280.0, 2)] {
            let (columns, size) = pawn_grid(width, gap);
            assert_eq!(columns, want, "{width} px");
            assert!(size.x >= 100.0 || columns == 2, "{width} px: {size:?}");
            assert!(size.y >= 90.0, "a thumb's height");
            assert!(columns as f32 * size.x + (columns as f32 - 1.0) * gap <= width, "{width} px fits");
        }
    }
}
