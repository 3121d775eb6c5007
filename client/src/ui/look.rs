//! How the table looks: the cars' colours and their names on the box, sizes.

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
