//! The Entenrallye screen: the road stretch by stretch with every car on it, the calendar,
//! each player's car card (its parts, faults and points), repair marker, checks and meetings,
//! your hidden parts, and what you may do now — from the view and the legal actions alone,
//! as every screen: it never re-derives a rule. It draws a [`Table`] (a live table's mirror,
//! or a replay's) and returns what the player chose.

use super::layout;
use crate::lang::Words;
use crate::ui::look;
use bolide_table::Seat;
use egui::{Color32, RichText, Vec2};
use entenrallye::board::MEETING_MONTHS;
use entenrallye::{Action, Check, Colour, Inspection, Kind, Part, Phase, View, board};
// The log's lines, written once for the window and `bolide-host replay`.
pub use bolide_words::entenrallye::{describe, part_name, square_words};

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
        // On a phone's page the status wraps rather than run off its edge.
        ui.horizontal_wrapped(|ui| {
            let c = view.calendar();
            let calendar = match c.month() {
                0 => w.ente_not_started.to_string(),
                m => (w.ente_calendar)(w.ente_months[usize::from(m - 1)], c.step(), view.players),
            };
            look::status_lead(ui, calendar);
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
    let narrow = look::narrow(ui);
    if !narrow {
        egui::Panel::right("ente-players").default_size(380.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| players(ui, t, w));
        });
    }
    // At most a third of the screen, whatever the hand holds: the road keeps the rest.
    let most = ui.available_height() / 3.0;
    let panel = egui::Panel::bottom("ente-hand");
    // On a phone exactly that third, scrolled: a hand that grew past it (a long list of drives,
    // what happened) pushed its top under the cars' panel, whose widgets then took the taps
    // meant for the first drives.
    let panel = if narrow { panel.exact_size(most) } else { panel.default_size(230.0_f32.min(most)).max_size(most) };
    panel.show(ui, |ui| {
        // A phone's page puts what happened under the hand, a laptop's beside it.
        if narrow {
            egui::ScrollArea::vertical().id_salt("ente-hand").show(ui, |ui| {
                chosen = hand(ui, t, you, w, &mut pointed);
                ui.separator();
                table_log(ui, t, w);
            });
        } else {
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    ui.set_width(ui.available_width() * 0.6);
                    chosen = hand(ui, t, you, w, &mut pointed);
                });
                ui.separator();
                ui.vertical(|ui| table_log(ui, t, w));
            });
        }
    });
    if narrow {
        look::under_the_board(ui, "ente-players", |ui| players(ui, t, w));
    }
    let clicked = egui::CentralPanel::default()
        .show(ui, |ui| {
            if narrow {
                // A phone's page is a third of the road's width: the road keeps squares a thumb
                // can tap and scrolls, brought to your car whenever it stands somewhere new.
                egui::ScrollArea::both().id_salt("ente-road").show(ui, |ui| road(ui, t, you, pointed, w)).inner
            } else {
                road(ui, t, you, pointed, w)
            }
        })
        .inner;
    chosen.or(clicked)
}

/// Your hidden parts and what you may do, or the year's end; a refusal under them.
fn hand(
    ui: &mut egui::Ui,
    t: &Table,
    you: Option<Seat>,
    w: &Words,
    pointed: &mut Option<entenrallye::Square>,
) -> Option<Action> {
    let mut chosen = None;
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
        chosen = actions(ui, t, you, w, pointed);
    }
    if let Some(refusal) = t.refusal {
        ui.colored_label(Color32::from_rgb(230, 120, 40), refusal);
    }
    chosen
}

/// What happened at the table, in the one look (`look::log`).
fn table_log(ui: &mut egui::Ui, t: &Table, w: &Words) {
    let lines = t.events.iter().filter_map(|e| Some((describe(e, t.view.players, t.names, w)?, (w.rule_n)(e.rule()))));
    look::log(ui, w.what_happened, lines);
}

/// The road as the box lays it (`layout`): the squares coloured by their kind and joined by
/// the road's edges — both branches of each junction, the spurs, the workshop roads —, each
/// place marked with its month, every car a small 2CV in its colour, the calendar's column of
/// months and steps with its two markers, and the squares a drive may end on outlined: a click
/// on one drives there when that is the only way to end there (else the buttons below choose
/// what the rest of the die buys or repairs). A square says what it is on hover, in the rules'
/// words.
fn road(
    ui: &mut egui::Ui,
    t: &Table,
    you: Option<Seat>,
    pointed: Option<entenrallye::Square>,
    w: &Words,
) -> Option<Action> {
    let (view, legal) = (t.view, t.legal);
    let mut chosen = None;
    let b = board();
    let (cols, rows) = (f32::from(layout::GRID.0), f32::from(layout::GRID.1));
    let avail = ui.available_size();
    let least = if look::narrow(ui) { PHONE_CELL } else { 8.0 };
    let cell = (avail.x / cols).min(avail.y / rows).clamp(least, 120.0);
    let (rect, _) = ui.allocate_exact_size(Vec2::new(avail.x.max(cell * cols), cell * rows), egui::Sense::hover());
    let origin = egui::pos2(rect.center().x - cell * cols / 2.0, rect.top());
    let at = |(c, r): (u8, u8)| origin + Vec2::new((f32::from(c) + 0.5) * cell, (f32::from(r) + 0.5) * cell);
    let centre = |s: entenrallye::Square| layout::cell(s).map(at);
    let painter = ui.painter_at(rect);
    let ink = ui.visuals().text_color();
    // The road itself under the squares: every edge, so both branches of a junction show.
    let asphalt = egui::Stroke::new(cell * 0.42, Color32::from_rgb(70, 70, 76));
    for s in b.squares() {
        for next in b.edges(s) {
            if let (Some(a), Some(c)) = (centre(s), centre(*next)) {
                painter.line_segment([a, c], asphalt);
            }
        }
    }
    let ends: Vec<entenrallye::Square> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Drive { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    let small = egui::FontId::proportional((cell * 0.42).clamp(7.0, 22.0));
    let month = |m: u8| w.ente_months.get(usize::from(m).saturating_sub(1)).copied().unwrap_or("?");
    for s in b.squares() {
        let Some(c) = centre(s) else { continue };
        let kind = b.kind(s);
        let place = matches!(kind, Kind::Meeting | Kind::Check | Kind::Workshop | Kind::Start);
        let side = if place { cell * 0.92 } else { cell * 0.74 };
        let square = egui::Rect::from_center_size(c, Vec2::splat(side));
        painter.rect_filled(square, cell * 0.12, square_fill(kind));
        // What a place is, where it is: a meeting's number and month, a station's check
        // and month, a workshop's check, a minus square's count.
        let label = |text: String, colour| painter.text(c, egui::Align2::CENTER_CENTER, text, small.clone(), colour);
        // A place's month goes on the free side `layout` gives it.
        let month_at = |text: &str| {
            if let Some((dx, dy)) = layout::label_side(s) {
                // Above or below, the text starts at the square's left edge and runs on
                // over the free cells to the right.
                let (anchor, edge) = match (dx, dy) {
                    (1, _) => (egui::Align2::LEFT_CENTER, Vec2::new(0.52, 0.0)),
                    (-1, _) => (egui::Align2::RIGHT_CENTER, Vec2::new(-0.52, 0.0)),
                    (_, -1) => (egui::Align2::LEFT_BOTTOM, Vec2::new(-0.45, -0.5)),
                    _ => (egui::Align2::LEFT_TOP, Vec2::new(-0.45, 0.5)),
                };
                let edge = c + edge * cell;
                painter.text(edge, anchor, text, small.clone(), ink);
            }
        };
        if let Some(m) = b.meeting(s) {
            label(format!("{}", m + 1), Color32::BLACK);
            month_at(month(MEETING_MONTHS[m]));
        } else if let Some(check) = b.station(s) {
            label(check.name().to_string(), Color32::BLACK);
            month_at(month(check.month()));
        } else if let Some(check) = Inspection::BOTH.into_iter().find(|x| b.workshops[x.index()] == s) {
            label(check.name().to_string(), Color32::WHITE);
        } else if let Some(k) = Inspection::BOTH.iter().find_map(|x| b.minus[x.index()].iter().position(|m| *m == s))
            && cell >= 18.0
        {
            label(format!("−{}", k + 1), Color32::from_rgb(255, 230, 230));
        } else if kind == Kind::Start {
            month_at(w.ente_sq_start);
        }
        let hover = ui.interact(square, ui.scope_id().with(("ente-hover", s.0)), egui::Sense::hover());
        hover.on_hover_ui(|ui| {
            ui.label(square_words(s, w));
        });
        if ends.contains(&s) {
            let stroke = if pointed == Some(s) { (3.0, Color32::from_rgb(255, 80, 0)) } else { (2.0, Color32::WHITE) };
            painter.rect_stroke(square.expand(1.0), cell * 0.12, stroke, egui::StrokeKind::Outside);
            let words = square_words(s, w);
            let response = ui.interact(square, ui.scope_id().with(("ente-square", s.0)), egui::Sense::click());
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &words));
            let here: Vec<Action> =
                legal.iter().copied().filter(|a| matches!(a, Action::Drive { to, .. } if *to == s)).collect();
            if response.clicked()
                && let [only] = here.as_slice()
            {
                chosen = Some(*only);
            }
        }
    }
    // Every car a small 2CV in its colour, several on a square side by side.
    for (seat, car) in view.cars.iter().enumerate() {
        let Some(c) = centre(car.at) else { continue };
        let k = view.cars[..seat].iter().filter(|o| o.at == car.at).count();
        let offset = Vec2::new((k % 3) as f32 - 1.0, (k / 3) as f32 - 0.5) * cell * 0.34;
        let body = cell * if view.cars.iter().filter(|o| o.at == car.at).count() > 1 { 0.5 } else { 0.7 };
        duck(&painter, c + offset, body, colour32(Colour::of_seat(seat as u8)));
    }
    calendar(&painter, view, cell, &at, ink, &small, w);
    // Where the page shows less than the road, your car is brought into view once each time
    // it stands somewhere new (scrolling every frame would fight the thumb).
    if let Some(car) = you.and_then(|s| view.cars.get(s.index()))
        && let Some(c) = centre(car.at)
        && !ui.clip_rect().contains_rect(rect)
    {
        let id = ui.scope_id().with("ente-road-shown-at");
        if ui.data(|d| d.get_temp::<u8>(id)) != Some(car.at.0) {
            ui.data_mut(|d| d.insert_temp(id, car.at.0));
            ui.scroll_to_rect(egui::Rect::from_center_size(c, Vec2::splat(cell * 6.0)), Some(egui::Align::Center));
        }
    }
    chosen
}

/// The least side of a road's cell on a phone's page: its squares a thumb can tap.
const PHONE_CELL: f32 = 30.0;

/// A 2CV seen from the side, `width` long, in `colour`: the body, the rounded roof and two
/// wheels — what stands on the board for each car.
fn duck(painter: &egui::Painter, centre: egui::Pos2, width: f32, colour: Color32) {
    let outline = egui::Stroke::new((width / 18.0).max(1.0), Color32::from_rgb(30, 30, 30));
    let body = egui::Rect::from_center_size(centre + Vec2::new(0.0, width * 0.06), Vec2::new(width, width * 0.3));
    let roof = egui::Rect::from_min_size(
        egui::pos2(body.left() + width * 0.16, body.top() - width * 0.24),
        Vec2::new(width * 0.56, width * 0.3),
    );
    painter.rect(roof, width * 0.14, colour, outline, egui::StrokeKind::Middle);
    painter.rect(body, width * 0.1, colour, outline, egui::StrokeKind::Middle);
    for x in [0.24, 0.76] {
        let wheel = egui::pos2(body.left() + width * x, body.bottom());
        painter.circle(wheel, width * 0.11, Color32::from_rgb(35, 35, 35), egui::Stroke::NONE);
    }
}

/// The box's calendar (E-3): a column of the twelve months and one of the steps 1…N, the two
/// orange markers on the month and the step now (off the board before the year starts).
fn calendar(
    painter: &egui::Painter,
    view: &View,
    cell: f32,
    at: &dyn Fn((u8, u8)) -> egui::Pos2,
    ink: Color32,
    font: &egui::FontId,
    w: &Words,
) {
    let c = view.calendar();
    let marker = Color32::from_rgb(240, 140, 30);
    for m in 1..=12u8 {
        let centre = at((layout::MONTHS_COLUMN, m - 1));
        let rect = egui::Rect::from_center_size(centre, Vec2::new(cell * 0.95, cell * 0.86));
        let now = c.month() == m;
        painter.rect_filled(rect, cell * 0.1, if now { marker } else { Color32::from_rgb(60, 64, 72) });
        let short: String = w.ente_months[usize::from(m - 1)].chars().take(3).collect();
        painter.text(centre, egui::Align2::CENTER_CENTER, short, font.clone(), if now { Color32::BLACK } else { ink });
    }
    for step in 1..=view.players {
        let centre = at((layout::STEPS_COLUMN, step - 1));
        let now = c.month() > 0 && c.step() == step;
        painter.circle(
            centre,
            cell * 0.36,
            if now { marker } else { Color32::from_rgb(60, 64, 72) },
            egui::Stroke::NONE,
        );
        painter.text(
            centre,
            egui::Align2::CENTER_CENTER,
            step.to_string(),
            font.clone(),
            if now { Color32::BLACK } else { ink },
        );
    }
}

/// Each player: name and colour, where the car is, its car card (`car_card`), repair track,
/// checks and meetings.
fn players(ui: &mut egui::Ui, t: &Table, w: &Words) {
    for (seat, car) in t.view.cars.iter().enumerate() {
        let colour = Colour::of_seat(seat as u8);
        look::panel(ui, false, |ui| {
            ui.set_width(ui.available_width());
            player(ui, t, seat, car, colour, w);
        });
    }
}

/// One player's panel: their name and where their car is, the car card, checks, repair track
/// and meetings.
fn player(ui: &mut egui::Ui, t: &Table, seat: usize, car: &entenrallye::CarView, colour: Colour, w: &Words) {
    ui.horizontal(|ui| {
        let (dot, _) = ui.allocate_exact_size(Vec2::splat(14.0), egui::Sense::hover());
        ui.painter().circle(dot.center(), 6.0, colour32(colour), (1.0, Color32::DARK_GRAY));
        let name = t.names.get(seat).map_or("?", String::as_str);
        look::player_title(ui, name, Seat(seat as u8) == t.view.turn);
        ui.weak(square_words(car.at, w));
        if car.waiting.is_some() {
            ui.weak(w.ente_waiting);
        }
    });
    car_card(ui, car, w);
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
    ui.label(format!(
        "{} · {} · {} · {}",
        (w.ente_faults)(car.faults()),
        (w.ente_points)(car.points(colour)),
        (w.ente_hidden_n)(car.hidden),
        checks.join(", ")
    ));
    repair_track(ui, car.repair, colour, w);
    meetings(ui, &car.scores, w);
}

/// The car card (E-7.2): a 2CV from the side, its four sections — front, front doors, rear
/// doors, rear — each painted in the colour of the part fitted there, with that part's points
/// and faults (a bare section grey, 3 faults), and the car's hidden parts as face-down cards.
fn car_card(ui: &mut egui::Ui, car: &entenrallye::CarView, w: &Words) {
    let width = ui.available_width().min(280.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, width * 0.27), egui::Sense::hover());
    let p = ui.painter_at(rect.expand(2.0));
    let (x, y, h) = (rect.left(), rect.top(), rect.height());
    let bare = Color32::from_rgb(128, 128, 132);
    // A light outline, so a black part shows on the dark panel.
    let outline = egui::Stroke::new(1.5, Color32::from_rgb(175, 175, 180));
    // The car faces right: rear, rear doors, front doors, front, left to right; the doors under
    // the round roof, the bonnet lower in front.
    let spans = [(0.80, 1.0), (0.52, 0.80), (0.24, 0.52), (0.0, 0.24)];
    let tops = [0.42, 0.08, 0.08, 0.34];
    for (i, section) in entenrallye::Section::ALL.iter().enumerate() {
        let (from, to) = spans[i];
        let area = egui::Rect::from_min_max(
            egui::pos2(x + from * width * 0.78 + width * 0.02, y + tops[i] * h),
            egui::pos2(x + to * width * 0.78 + width * 0.02, y + 0.82 * h),
        );
        let part = car.fitted[section.index()];
        let fill = part.map_or(bare, |p| colour32(p.colour()));
        let rounding = egui::CornerRadius::same((h * if matches!(i, 1 | 2) { 0.16 } else { 0.08 }) as u8);
        p.rect(area, rounding, fill, outline, egui::StrokeKind::Middle);
        let text = part
            .map_or(format!("–/{}", entenrallye::part::BARE_FAULTS), |p| format!("{}/{}", p.points(), p.faults()));
        let ink =
            if fill.r() as u16 + fill.g() as u16 + fill.b() as u16 > 400 { Color32::BLACK } else { Color32::WHITE };
        p.text(area.center(), egui::Align2::CENTER_CENTER, text, egui::FontId::proportional((h * 0.2).max(10.0)), ink);
    }
    for wheel in [0.2, 0.66] {
        p.circle(
            egui::pos2(x + width * 0.78 * wheel + width * 0.02, y + 0.84 * h),
            h * 0.13,
            Color32::from_rgb(30, 30, 30),
            egui::Stroke::NONE,
        );
    }
    // Its hidden parts, face down beside it (E-7.4).
    for k in 0..usize::from(car.hidden).min(8) {
        let card = egui::Rect::from_min_size(
            egui::pos2(x + width * 0.83 + (k % 4) as f32 * width * 0.04, y + h * 0.12 + (k / 4) as f32 * h * 0.42),
            Vec2::new(width * 0.05, h * 0.34),
        );
        look::card::back(&p, card);
    }
    let parts: Vec<String> = entenrallye::Section::ALL
        .iter()
        .map(|s| {
            let fitted = car.fitted[s.index()].map_or(w.ente_bare.to_string(), |p| short(p, w));
            format!("{}: {fitted}", w.ente_sections[s.index()])
        })
        .collect();
    let card = format!("{} · {}", parts.join(" · "), (w.ente_hidden_n)(car.hidden));
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &card));
    response.on_hover_text(card);
}

/// The repair track (E-9.1): 0 to 20, the marker in the car's colour.
fn repair_track(ui: &mut egui::Ui, marker: u8, colour: Colour, w: &Words) {
    ui.horizontal(|ui| {
        ui.label((w.ente_repair_marker)(marker));
        let width = ui.available_width().min(260.0);
        let (rect, _) = ui.allocate_exact_size(Vec2::new(width, 12.0), egui::Sense::hover());
        let step = width / 21.0;
        for n in 0..=entenrallye::rallye::REPAIR_MAX {
            let cell = egui::Rect::from_min_size(
                egui::pos2(rect.left() + f32::from(n) * step, rect.top()),
                Vec2::new(step - 1.0, 12.0),
            );
            let stripe = if n % 2 == 0 { Color32::from_rgb(200, 60, 60) } else { Color32::from_rgb(235, 235, 235) };
            ui.painter().rect_filled(
                cell,
                1.0,
                if n == marker { colour32(colour) } else { stripe.gamma_multiply(0.55) },
            );
            if n == marker {
                ui.painter().rect_stroke(cell, 1.0, (1.5, Color32::from_rgb(240, 140, 30)), egui::StrokeKind::Outside);
            }
        }
    });
}

/// The score sheet's row (E-11.3): the four meetings with their months and the points written
/// at each, then the total.
fn meetings(ui: &mut egui::Ui, scores: &[Option<u8>; 4], w: &Words) {
    ui.horizontal(|ui| {
        for (m, score) in scores.iter().enumerate() {
            let month: String = w.ente_months[usize::from(MEETING_MONTHS[m] - 1)].chars().take(3).collect();
            let text = match score {
                Some(points) => RichText::new(format!("{} {month}: {points}", m + 1)).strong(),
                None => RichText::new(format!("{} {month}: –", m + 1)).weak(),
            };
            egui::Frame::group(ui.style()).inner_margin(3.0).show(ui, |ui| ui.label(text));
        }
        let total: u16 = scores.iter().flatten().map(|p| u16::from(*p)).sum();
        ui.label(RichText::new(format!("= {total}")).size(16.0).strong());
    });
}

/// A part card face up (E-14.7): its colour, its section, its points over its faults, as
/// 1000 Bornes' cards are drawn by the program; its full name on hover and for a screen reader.
fn part_card(ui: &mut egui::Ui, part: Part, w: &Words) {
    let (rect, response) = ui.allocate_exact_size(Vec2::new(58.0, 58.0 * look::card::RATIO), egui::Sense::hover());
    let p = ui.painter_at(rect.expand(4.0));
    let fill = colour32(part.colour());
    look::card::face(&p, rect, Color32::from_rgb(245, 240, 228), look::card::EDGE);
    let band = egui::Rect::from_min_size(rect.min + Vec2::new(4.0, 4.0), Vec2::new(rect.width() - 8.0, 22.0));
    p.rect(band, 3.0, fill, (1.0, Color32::from_rgb(40, 40, 40)), egui::StrokeKind::Inside);
    let ink = Color32::from_rgb(25, 25, 25);
    let section = w.ente_sections[part.section().index()];
    // The section's name wraps on the card ("portières arrière").
    let galley = p.layout(section.to_string(), egui::FontId::proportional(10.0), ink, rect.width() - 6.0);
    p.galley(egui::pos2(rect.center().x - galley.size().x / 2.0, rect.top() + 28.0), galley, ink);
    let numbers = format!("{}/{}", part.points(), part.faults());
    p.text(
        rect.center_bottom() - Vec2::new(0.0, 6.0),
        egui::Align2::CENTER_BOTTOM,
        numbers,
        egui::FontId::proportional(20.0),
        ink,
    );
    let name = part_name(part, w);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &name));
    response.on_hover_text(part_name(part, w));
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
        ui.horizontal(|ui| {
            ui.label(format!("{}:", w.ente_your_parts));
            if t.view.hand.is_empty() {
                ui.weak(w.ente_no_parts);
            }
            // A long hand scrolls sideways rather than pushing the road off the screen.
            egui::ScrollArea::horizontal().id_salt("ente-hand-cards").show(ui, |ui| {
                ui.horizontal(|ui| {
                    for part in &t.view.hand {
                        part_card(ui, *part, w);
                    }
                });
            });
        });
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
                        let mut s = (w.ente_drive_to)(squares, &square_words(to, w));
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
            look::NUMBER_KEYS.iter().position(|k| i.key_pressed(*k)),
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
