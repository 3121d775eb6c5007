//! The Entenrallye screen: the road stretch by stretch with every car on it, the calendar,
//! each player's car card (its parts, faults and points), repair marker, checks and meetings,
//! your hidden parts, and what you may do now — from the view and the legal actions alone,
//! as every screen: it never re-derives a rule. It draws a [`Table`] (a live table's mirror,
//! or a replay's) and returns what the player chose.

use crate::lang::Words;
use bolide_table::Seat;
use egui::{Color32, RichText, Vec2};
use entenrallye::{Action, Check, Colour, Kind, Part, Phase, View, board};
// The log's lines, written once for the window and `bolide-host replay`.
pub use bolide_words::entenrallye::{describe, part_name};

/// What the screen draws: a view, what may be done, the names and the recent events.
pub struct Table<'a> {
    pub view: &'a View,
    pub legal: &'a [Action],
    pub names: &'a [String],
    pub events: &'a [entenrallye::Event],
    /// The final places, once the year is over: rank, seat, points.
    pub standings: Option<Vec<(u8, Seat, u32)>>,
    /// The host's last refusal, in words.
    pub refusal: Option<&'a str>,
    /// E-4.2: every roll seen, checked against the seed once revealed: how many, or what
    /// did not match.
    pub rolls_checked: Option<Result<usize, String>>,
}

/// The window's title at an Entenrallye table (the hook the window scripts follow).
pub fn title(view: Option<&View>, you: Option<Seat>) -> &'static str {
    match view {
        None => "Bolide — Entenrallye",
        Some(v) if v.phase == Phase::Over => "Bolide — Entenrallye — year over",
        Some(v) if Some(v.turn) == you => "Bolide — Entenrallye — your turn",
        Some(_) => "Bolide — Entenrallye",
    }
}

/// A car's colour on the screen (E-1.1).
pub fn colour32(colour: Colour) -> Color32 {
    match colour {
        Colour::Red => Color32::from_rgb(210, 50, 45),
        Colour::Yellow => Color32::from_rgb(235, 200, 40),
        Colour::Green => Color32::from_rgb(60, 160, 70),
        Colour::Blue => Color32::from_rgb(50, 100, 210),
        Colour::White => Color32::from_rgb(240, 240, 240),
        Colour::Black => Color32::from_rgb(25, 25, 25),
    }
}

fn square_fill(kind: Kind) -> Color32 {
    match kind {
        Kind::Start => Color32::from_rgb(90, 150, 90),
        Kind::Grey => Color32::from_rgb(150, 150, 155),
        Kind::Beige => Color32::from_rgb(215, 195, 155),
        Kind::Meeting => Color32::from_rgb(230, 175, 40),
        Kind::Check => Color32::from_rgb(90, 140, 200),
        Kind::Workshop => Color32::from_rgb(140, 95, 60),
        Kind::Minus => Color32::from_rgb(150, 70, 70),
    }
}

/// One frame of an Entenrallye table; the action the player chose, if any.
pub fn show(ui: &mut egui::Ui, t: &Table, you: Option<Seat>, w: &Words) -> Option<Action> {
    let view = t.view;
    let mut chosen = None;
    let mut pointed: Option<entenrallye::Square> = None;
    egui::Panel::top("ente-status").show(ui, |ui| {
        ui.horizontal(|ui| {
            let c = view.calendar();
            let calendar = match c.month() {
                0 => w.ente_not_started.to_string(),
                m => (w.ente_calendar)(w.ente_months[usize::from(m - 1)], c.step(), view.players),
            };
            ui.label(RichText::new(calendar).size(20.0).strong());
            ui.separator();
            let name = |s: Seat| t.names.get(s.index()).cloned().unwrap_or_default();
            let turn =
                if Some(view.turn) == you { w.ente_your_turn.to_string() } else { (w.ente_turn_of)(&name(view.turn)) };
            ui.label(RichText::new(turn).size(18.0));
            if let Phase::Drive { die } | Phase::Special { die, .. } | Phase::Keep { die, .. } = view.phase {
                ui.separator();
                ui.label(RichText::new((w.ente_die)(die)).size(18.0).strong());
            }
            ui.separator();
            ui.label((w.ente_pile)(view.pile));
        });
    });
    // A phone held upright: the cars go under the road, above the hand (`ui::look::narrow`).
    let narrow = crate::ui::look::narrow(ui);
    if !narrow {
        egui::Panel::right("ente-players").default_size(380.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| players(ui, t, w));
        });
    }
    egui::Panel::bottom("ente-hand").default_size(230.0).show(ui, |ui| {
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(ui.available_width() * 0.6);
                if let Some(standings) = &t.standings {
                    ui.heading(w.ente_game_over);
                    for (rank, seat, points) in standings {
                        let name = t.names.get(seat.index()).map_or("?", String::as_str);
                        ui.label(RichText::new((w.ente_standing)(*rank, name, *points)).size(18.0));
                    }
                    match &t.rolls_checked {
                        Some(Ok(n)) => {
                            ui.colored_label(Color32::LIGHT_GREEN, (w.ente_rolls_checked)(*n));
                        }
                        Some(Err(why)) => {
                            ui.colored_label(Color32::from_rgb(255, 90, 60), (w.ente_rolls_wrong)(why));
                        }
                        None => {}
                    }
                } else {
                    chosen = actions(ui, t, you, w, &mut pointed);
                }
                if let Some(refusal) = t.refusal {
                    ui.colored_label(Color32::from_rgb(230, 120, 40), refusal);
                }
            });
            ui.separator();
            ui.vertical(|ui| {
                for e in t.events.iter().rev().filter_map(|e| describe(e, view.players, t.names, w)).take(9) {
                    ui.label(e);
                }
            });
        });
    });
    if narrow {
        egui::Panel::bottom("ente-players").show(ui, |ui| {
            egui::ScrollArea::vertical().max_height(crate::ui::look::NARROW_SIDE).show(ui, |ui| players(ui, t, w));
        });
    }
    let clicked = egui::CentralPanel::default().show(ui, |ui| road(ui, view, t.legal, pointed)).inner;
    chosen.or(clicked)
}

/// The road, a stretch a row (the rules' own notation, E-14.5): each square coloured by its
/// kind, every car on its square, the squares a drive may end on outlined — a click on one
/// drives there when that is the only way to end there (else the buttons below choose what
/// the rest of the die buys or repairs).
fn road(ui: &mut egui::Ui, view: &View, legal: &[Action], pointed: Option<entenrallye::Square>) -> Option<Action> {
    let mut chosen = None;
    let b = board();
    let rows = b.rows();
    let longest = rows.iter().map(Vec::len).max().unwrap_or(1) as f32;
    let label_w = 56.0;
    let size = ((ui.available_width() - label_w) / longest).clamp(8.0, 30.0);
    let row_h = (ui.available_height() / rows.len() as f32).clamp(size, size + 14.0);
    let (rect, _) =
        ui.allocate_exact_size(Vec2::new(ui.available_width(), row_h * rows.len() as f32), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let ends: Vec<entenrallye::Square> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Drive { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    for (r, row) in rows.iter().enumerate() {
        let y = rect.top() + r as f32 * row_h;
        if let Some(first) = row.first() {
            painter.text(
                egui::pos2(rect.left(), y + size / 2.0),
                egui::Align2::LEFT_CENTER,
                b.name(*first),
                egui::FontId::proportional(11.0),
                ui.visuals().text_color(),
            );
        }
        for (i, square) in row.iter().enumerate() {
            let min = egui::pos2(rect.left() + label_w + i as f32 * size, y);
            let cell = egui::Rect::from_min_size(min, Vec2::splat(size - 2.0));
            painter.rect_filled(cell, 2.0, square_fill(b.kind(*square)));
            if matches!(b.kind(*square), Kind::Meeting | Kind::Check | Kind::Workshop) {
                painter.text(
                    cell.center(),
                    egui::Align2::CENTER_CENTER,
                    b.name(*square),
                    egui::FontId::proportional(9.0),
                    Color32::BLACK,
                );
            }
            if ends.contains(square) {
                let stroke =
                    if pointed == Some(*square) { (3.0, Color32::from_rgb(255, 80, 0)) } else { (2.0, Color32::WHITE) };
                painter.rect_stroke(cell, 2.0, stroke, egui::StrokeKind::Outside);
                let name = b.name(*square);
                let response = ui.interact(cell, ui.scope_id().with(("ente-square", square.0)), egui::Sense::click());
                response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, name));
                let here: Vec<Action> =
                    legal.iter().copied().filter(|a| matches!(a, Action::Drive { to, .. } if to == square)).collect();
                if response.clicked()
                    && let [only] = here.as_slice()
                {
                    chosen = Some(*only);
                }
                response.on_hover_text(name);
            }
            let here: Vec<usize> =
                view.cars.iter().enumerate().filter(|(_, c)| c.at == *square).map(|(s, _)| s).collect();
            for (k, seat) in here.iter().enumerate() {
                let offset =
                    Vec2::new((k % 3) as f32 * size / 4.0 - size / 4.0, (k / 3) as f32 * size / 4.0 - size / 8.0);
                let centre = cell.center() + offset;
                painter.circle(centre, size / 5.0, colour32(Colour::of_seat(*seat as u8)), (1.0, Color32::DARK_GRAY));
            }
        }
    }
    chosen
}

/// Each player: name and colour, the car card's four sections, faults, points, repair
/// marker, hidden parts, checks and meetings.
fn players(ui: &mut egui::Ui, t: &Table, w: &Words) {
    for (seat, car) in t.view.cars.iter().enumerate() {
        let colour = Colour::of_seat(seat as u8);
        ui.horizontal(|ui| {
            let (dot, _) = ui.allocate_exact_size(Vec2::splat(14.0), egui::Sense::hover());
            ui.painter().circle(dot.center(), 6.0, colour32(colour), (1.0, Color32::DARK_GRAY));
            let name = t.names.get(seat).map_or("?", String::as_str);
            let text = RichText::new(name).size(17.0);
            ui.label(if Seat(seat as u8) == t.view.turn { text.strong().underline() } else { text });
            ui.label(board().name(car.at));
            if car.waiting.is_some() {
                ui.weak(w.ente_waiting);
            }
        });
        ui.horizontal_wrapped(|ui| {
            for (i, part) in car.fitted.iter().enumerate() {
                let section = w.ente_sections[i];
                match part {
                    Some(p) => {
                        ui.label(RichText::new(format!("{section}: {}", short(*p, w))).color(Color32::LIGHT_GREEN))
                    }
                    None => ui.weak(format!("{section}: {}", w.ente_bare)),
                };
            }
        });
        let checks: Vec<String> = entenrallye::Inspection::BOTH
            .iter()
            .map(|c| {
                let state = match car.checks[c.index()] {
                    Check::Owed => 0,
                    Check::Passed => 1,
                    Check::Failed => 2,
                    Check::RoundedUp => 3,
                };
                format!("{} {}", c.name(), w.ente_check_states[state])
            })
            .collect();
        let scores: Vec<String> = car.scores.iter().map(|s| s.map_or("–".into(), |p| p.to_string())).collect();
        let total: u16 = car.scores.iter().flatten().map(|p| u16::from(*p)).sum();
        ui.label(format!(
            "{} · {} · {} · {} · {}",
            (w.ente_faults)(car.faults()),
            (w.ente_points)(car.points(colour)),
            (w.ente_repair_marker)(car.repair),
            (w.ente_hidden_n)(car.hidden),
            checks.join(", ")
        ));
        ui.label((w.ente_meetings)(&scores.join(" "), total));
        ui.separator();
    }
}

/// A part as a chip reads it: "5/3 red".
fn short(part: Part, w: &Words) -> String {
    format!("{}/{} {}", part.points(), part.faults(), w.ente_colours[part.colour() as usize])
}

/// Your hidden parts and what you may do now; the action picked.
fn actions(
    ui: &mut egui::Ui,
    t: &Table,
    you: Option<Seat>,
    w: &Words,
    pointed: &mut Option<entenrallye::Square>,
) -> Option<Action> {
    let mut chosen = None;
    if you.is_some() {
        let hand: Vec<String> = t.view.hand.iter().map(|p| part_name(*p, w)).collect();
        let hand = if hand.is_empty() { w.ente_no_parts.to_string() } else { hand.join(" · ") };
        ui.label(format!("{}: {hand}", w.ente_your_parts));
    }
    if t.legal.is_empty() {
        return None;
    }
    let name = |s: &Seat| t.names.get(s.index()).cloned().unwrap_or_else(|| "?".into());
    if matches!(t.view.phase, Phase::Keep { .. }) {
        ui.label(w.ente_keep_hint);
    }
    egui::ScrollArea::vertical().max_height(150.0).show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            for action in t.legal {
                let text = match *action {
                    Action::Roll => w.ente_roll.to_string(),
                    Action::Drive { to, squares, buy, repair } => {
                        let mut s = (w.ente_drive_to)(squares, board().name(to));
                        if buy {
                            s.push_str(w.ente_and_buy);
                        }
                        if repair > 0 {
                            s.push_str(&(w.ente_and_repair)(repair));
                        }
                        s
                    }
                    Action::Fit { part } => (w.ente_fit)(&part_name(part, w)),
                    Action::Steal { from } => (w.ente_steal_from)(&name(&from)),
                    Action::Exchange { with, give } => (w.ente_exchange_with)(&part_name(give, w), &name(&with)),
                    Action::Keep { parts } => {
                        let kept: Vec<String> = parts.iter().flatten().map(|p| part_name(*p, w)).collect();
                        if kept.is_empty() { w.ente_keep_none.to_string() } else { (w.ente_keep)(&kept.join(" + ")) }
                    }
                    Action::EndTurn => w.ente_end_turn.to_string(),
                };
                let button = ui.button(RichText::new(text).size(16.0));
                if let Action::Drive { to, .. } = action
                    && button.hovered()
                {
                    *pointed = Some(*to);
                }
                if button.clicked() {
                    chosen = Some(*action);
                }
            }
        });
    });
    ui.weak(w.ente_keys);
    // The keys: 1 to 9 the actions in the order shown, R rolls, Enter ends the turn.
    let (number, roll, end) = ui.input(|i| {
        (
            crate::ui::look::NUMBER_KEYS.iter().position(|k| i.key_pressed(*k)),
            i.key_pressed(egui::Key::R),
            i.key_pressed(egui::Key::Enter),
        )
    });
    if let Some(action) = number.and_then(|n| t.legal.get(n)) {
        chosen = Some(*action);
    }
    if roll && t.legal.contains(&Action::Roll) {
        chosen = Some(Action::Roll);
    }
    if end && t.legal.contains(&Action::EndTurn) {
        chosen = Some(Action::EndTurn);
    }
    chosen
}
