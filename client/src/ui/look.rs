//! How the table looks: the cars' colours and their names on the box, sizes, and the one look
//! the three games share — their status line, side panels, players' panels, log and card stock
//! are drawn here, so a game's screen differs from another's only by what its box has.

use bolide_table::colour::Colour;
use egui::Color32;

/// A car's colour on screen.
pub fn colour(c: Colour) -> Color32 {
    match c {
        Colour::Rouge => Color32::from_rgb(214, 48, 49),
        Colour::Bleu => Color32::from_rgb(41, 98, 255),
        Colour::Vert => Color32::from_rgb(46, 160, 67),
        Colour::Jaune => Color32::from_rgb(242, 201, 36),
        Colour::Noir => Color32::from_rgb(30, 30, 34),
        Colour::Blanc => Color32::from_rgb(240, 240, 240),
        Colour::Orange => Color32::from_rgb(245, 124, 0),
        Colour::Violet => Color32::from_rgb(142, 68, 173),
    }
}

/// Text that reads on top of [`colour`].
pub fn ink(c: Colour) -> Color32 {
    match c {
        Colour::Jaune | Colour::Blanc => Color32::from_rgb(20, 20, 20),
        _ => Color32::WHITE,
    }
}

pub fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::Rouge => "Rouge",
        Colour::Bleu => "Bleu",
        Colour::Vert => "Vert",
        Colour::Jaune => "Jaune",
        Colour::Noir => "Noir",
        Colour::Blanc => "Blanc",
        Colour::Orange => "Orange",
        Colour::Violet => "Violet",
    }
}

/// A colour greyed out (a pawn already taken).
pub fn greyed(c: Color32) -> Color32 {
    c.gamma_multiply(0.35)
}

/// A colour to pick: a swatch with a thin frame (black shows on a dark theme), a thick white
/// one when it is the chosen colour; its accessible label and hover text are its name.
pub fn swatch(ui: &mut egui::Ui, c: Colour, chosen: bool, enabled: bool) -> egui::Response {
    let stroke =
        if chosen { egui::Stroke::new(3.0, Color32::WHITE) } else { egui::Stroke::new(1.0, Color32::from_gray(140)) };
    let button = egui::Button::new("").fill(colour(c)).stroke(stroke).min_size(egui::Vec2::splat(32.0));
    let response = ui.add_enabled(enabled, button);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, colour_name(c)));
    response.on_hover_text(colour_name(c))
}

/// The number keys, 1 to 9: a screen's keys for the n-th card or action it shows.
pub const NUMBER_KEYS: [egui::Key; 9] = [
    egui::Key::Num1,
    egui::Key::Num2,
    egui::Key::Num3,
    egui::Key::Num4,
    egui::Key::Num5,
    egui::Key::Num6,
    egui::Key::Num7,
    egui::Key::Num8,
    egui::Key::Num9,
];

/// Narrower than this (a phone held upright) a table's side panel goes under its board.
const NARROW: f32 = 700.0;
/// The height of a side panel under the board, scrolled.
pub(crate) const NARROW_SIDE: f32 = 170.0;

/// Whether this screen is a phone's held upright: no room beside the board.
pub(crate) fn narrow(ui: &egui::Ui) -> bool {
    ui.available_width() < NARROW
}

/// A lobby's settings, each a name and its choices. On a laptop a grid, the names in one
/// column; on a phone held upright each name above its choices, which wrap: a grid's row keeps
/// the height its last frame measured, and choices that wrapped in it ran over the next row.
pub(crate) struct Settings<'u> {
    ui: &'u mut egui::Ui,
    narrow: bool,
}

/// The settings `add` lays out (`id` the grid's on a laptop).
pub(crate) fn settings<R>(ui: &mut egui::Ui, id: &'static str, add: impl FnOnce(&mut Settings) -> R) -> R {
    if narrow(ui) {
        ui.vertical(|ui| add(&mut Settings { ui, narrow: true })).inner
    } else {
        egui::Grid::new(id).num_columns(2).show(ui, |ui| add(&mut Settings { ui, narrow: false })).inner
    }
}

impl Settings<'_> {
    /// One setting: its `name` (none for a check box that says it all), and what `choices`
    /// adds, handed the name's id for `labelled_by`.
    pub(crate) fn row<R>(&mut self, name: &str, choices: impl FnOnce(&mut egui::Ui, egui::Id) -> R) -> R {
        let named = (!name.is_empty() || !self.narrow).then(|| self.ui.label(name).id);
        let id = named.unwrap_or_else(|| self.ui.next_auto_id());
        let chosen = self.ui.horizontal_wrapped(|ui| choices(ui, id)).inner;
        if self.narrow {
            self.ui.add_space(4.0);
        } else {
            self.ui.end_row();
        }
        chosen
    }
}

/// What a seated player acts with, at the bottom of the screen (a hand, a turn's buttons),
/// at least `min` high. A bottom panel is as high as its content was the frame before: what
/// just grew there (a card picked and its plays, a roll and its moves) ran past the screen's
/// edge until something else drew a frame — on a phone, out of the thumb's reach. Then the
/// frame is laid out again at once, at the new height.
pub(crate) fn controls<R>(ui: &mut egui::Ui, id: &'static str, min: f32, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let edge = ui.max_rect().bottom();
    let (inner, bottom) = egui::Panel::bottom(id)
        .min_size(min)
        .show(ui, |ui| {
            let inner = add(ui);
            (inner, ui.min_rect().bottom())
        })
        .inner;
    if bottom > edge + 0.5 {
        ui.ctx().request_discard("the controls grew past the screen's edge");
    }
    inner
}

/// A table's side panel on a phone held upright: under the board, `NARROW_SIDE` high, scrolled.
pub(crate) fn under_the_board<R>(ui: &mut egui::Ui, id: &'static str, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    egui::Panel::bottom(id)
        .exact_size(NARROW_SIDE)
        .show(ui, |ui| egui::ScrollArea::vertical().id_salt(id).show(ui, add).inner)
        .inner
}

/// The seconds a countdown to a bot's move shows, `left_us` before it: whole seconds in the
/// last ten, tens of seconds before (never more than is left), so an idle screen wakes only
/// when the figure changes — a frame every ten seconds until the end is near.
pub(crate) fn seconds_shown(ui: &egui::Ui, left_us: u64) -> u64 {
    let step = if left_us >= 10_000_000 { 10_000_000 } else { 1_000_000 };
    // At 0 nothing more changes: the screen sleeps until the host tells what the bot did.
    if left_us > 0 {
        ui.ctx().request_repaint_after(std::time::Duration::from_micros(left_us % step + 1_000));
    }
    left_us / step * step / 1_000_000
}

/// The size of a status line's lead: the moment of the game ("Race 1/3 · Round 2", "Hand 1",
/// "April, step 3 of 4").
const LEAD: f32 = 18.0;
/// The size of a player's name over their panel.
const PLAYER: f32 = 18.0;
/// The size of a side panel's section titles ("Pilots", "Photo finish", "What happened").
const SECTION: f32 = 16.0;
/// The gold of whose turn it is and of where a card may go.
pub const TURN_GOLD: Color32 = Color32::from_rgb(250, 210, 80);

/// A status line's lead, the first thing on the bar under the table's banner.
pub fn status_lead(ui: &mut egui::Ui, text: impl Into<String>) -> egui::Response {
    ui.label(egui::RichText::new(text).size(LEAD).strong())
}

/// A side panel's section title.
pub fn section(ui: &mut egui::Ui, text: impl Into<String>) -> egui::Response {
    ui.label(egui::RichText::new(text).size(SECTION).strong())
}

/// A player's (or a team's) name over their panel: gold while it is their turn (a darker gold
/// on a light page, where the table's gold would not read).
pub fn player_title(ui: &mut egui::Ui, text: impl Into<String>, turn: bool) -> egui::Response {
    let text = egui::RichText::new(text).size(PLAYER).strong();
    let gold = if ui.visuals().dark_mode { TURN_GOLD } else { Color32::from_rgb(150, 100, 0) };
    ui.label(if turn { text.color(gold) } else { text })
}

/// The panel around one player's things on the table (a tableau, a car and its card): the same
/// frame in every game, outlined in gold where the card in hand may go.
pub fn panel<R>(ui: &mut egui::Ui, target: bool, add: impl FnOnce(&mut egui::Ui) -> R) -> egui::InnerResponse<R> {
    let frame = egui::Frame::group(ui.style()).inner_margin(8.0).corner_radius(6.0);
    let frame = if target { frame.stroke(egui::Stroke::new(3.0, TURN_GOLD)) } else { frame };
    frame.show(ui, add)
}

/// What happened: the table's log under its title, oldest first and the newest at the bottom
/// (kept in view), each line's rule on hover. The last 200 lines a game describes.
pub fn log(ui: &mut egui::Ui, title: &str, lines: impl DoubleEndedIterator<Item = (String, String)>) {
    section(ui, title);
    let mut last: Vec<(String, String)> = lines.rev().take(200).collect();
    last.reverse();
    egui::ScrollArea::vertical().id_salt("table-log").stick_to_bottom(true).show(ui, |ui| {
        for (line, rule) in last {
            ui.label(line).on_hover_text(rule);
        }
    });
}

/// Card stock: every card of every game — its corners, its edge and its shadow on the table.
pub mod card {
    use egui::{Color32, CornerRadius, Painter, Rect, Stroke, StrokeKind, Vec2};

    /// A card is 1.4 times as tall as it is wide.
    pub const RATIO: f32 = 1.4;
    /// Its edge where nothing marks it.
    pub const EDGE: Stroke = Stroke { width: 1.0, color: Color32::from_gray(30) };

    /// The corners of a card of this size.
    pub fn corners(rect: Rect) -> CornerRadius {
        CornerRadius::same((rect.width().min(rect.height()) * 0.08).clamp(2.0, 255.0) as u8)
    }

    /// A card's face: its shadow on the table, the face in `fill`, its edge in `edge`.
    pub fn face(painter: &Painter, rect: Rect, fill: Color32, edge: Stroke) {
        let r = corners(rect);
        let drop = (rect.width() * 0.03).clamp(1.0, 4.0);
        painter.rect_filled(rect.translate(Vec2::splat(drop)), r, Color32::from_black_alpha(90));
        painter.rect_filled(rect, r, fill);
        painter.rect_stroke(rect, r, edge, StrokeKind::Outside);
    }

    /// A card face down: the same back for every game's cards.
    pub fn back(painter: &Painter, rect: Rect) {
        face(painter, rect, Color32::from_rgb(150, 40, 40), Stroke::new(1.0, Color32::WHITE));
        let inner = rect.shrink(rect.width().min(rect.height()) * 0.15);
        painter.rect_stroke(
            inner,
            corners(inner),
            Stroke::new(1.0, Color32::from_rgb(235, 200, 190)),
            StrokeKind::Inside,
        );
    }

    /// An empty place for a card (a pile nothing is on yet), with its name.
    pub fn slot(painter: &Painter, rect: Rect, name: &str) {
        painter.rect_stroke(rect, corners(rect), Stroke::new(1.0, Color32::from_gray(90)), StrokeKind::Inside);
        let size = (rect.width() * 0.2).clamp(8.0, 14.0);
        painter.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            name,
            egui::FontId::proportional(size),
            Color32::from_gray(140),
        );
    }
}
