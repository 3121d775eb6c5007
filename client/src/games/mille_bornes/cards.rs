//! 1000 Bornes cards drawn by the program: a colour and a symbol per family — attacks red with
//! a warning triangle, remedies green with a round sign, safeties gold with a star, distances
//! blue with their kilometres — and the name as the box prints it. No image files.

use crate::ui::look;
use egui::{Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Vec2};
use mille_bornes::{Card, Family};

pub fn fill(card: Card) -> Color32 {
    match card.family() {
        Family::Attack(_) => Color32::from_rgb(196, 48, 43),
        Family::Remedy(_) => Color32::from_rgb(46, 140, 70),
        Family::Safety(_) => Color32::from_rgb(214, 168, 34),
        Family::Distance(_) => Color32::from_rgb(38, 92, 196),
    }
}

/// Draws `card` in a `size` rect; `lit`: it can be played now; `selected`: the one picked.
/// Its accessible label is its name. A card can be dragged (onto a tableau, or the discard):
/// the response carries it as the drag's payload, and a copy follows the pointer.
pub fn card(ui: &mut egui::Ui, card: Card, size: Vec2, lit: bool, selected: bool) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    let stroke = if selected {
        Stroke::new(3.0, Color32::WHITE)
    } else if response.hovered() && lit {
        Stroke::new(2.0, Color32::from_gray(230))
    } else {
        look::card::EDGE
    };
    paint(&ui.painter_at(rect.expand(3.0)), rect, card, lit || selected, stroke);
    if lit {
        response.dnd_set_drag_payload(card);
        if response.dragged()
            && let Some(at) = ui.ctx().pointer_interact_pos()
        {
            let layer = egui::LayerId::new(egui::Order::Tooltip, egui::Id::unique("dragged-card"));
            let ghost = Rect::from_center_size(at, size * 0.8);
            paint(&ui.ctx().layer_painter(layer), ghost, card, true, Stroke::new(2.0, Color32::WHITE));
        }
    }
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, lit, card.name()));
    response.on_hover_text(card.name())
}

/// A card's face in `rect`: its family's colour (dimmed when not `lit`), symbol and name.
fn paint(painter: &egui::Painter, rect: Rect, card: Card, lit: bool, stroke: Stroke) {
    let size = rect.size();
    let base = fill(card);
    let colour = if lit { base } else { base.gamma_multiply(0.55) };
    look::card::face(painter, rect, colour, stroke);
    let symbol_centre = rect.center_top() + Vec2::new(0.0, size.y * 0.38);
    symbol(painter, card, symbol_centre, size.x.min(size.y) * 0.28);
    // The name fits the card's width: a long name on a small card gets a smaller font.
    let name = short_name(card);
    let fits = size.x * 0.9 / (name.chars().count() as f32 * 0.55);
    painter.text(
        rect.center_bottom() - Vec2::new(0.0, size.y * 0.08),
        egui::Align2::CENTER_BOTTOM,
        name,
        FontId::proportional((size.x.min(size.y * 1.4) * 0.13).min(fits).clamp(6.0, 22.0)),
        Color32::WHITE,
    );
}

/// The name on two lines at most, as it fits on a card.
fn short_name(card: Card) -> &'static str {
    match card {
        Card::FinDeLimite => "Fin de Limite",
        Card::LimiteDeVitesse => "Limite",
        Card::VehiculePrioritaire => "Prioritaire",
        Card::CiterneDEssence => "Citerne",
        Card::RoueDeSecours => "Roue de Secours",
        Card::PanneDEssence => "Panne d'Essence",
        other => other.name(),
    }
}

fn symbol(painter: &egui::Painter, card: Card, c: Pos2, r: f32) {
    let white = Color32::WHITE;
    match card.family() {
        Family::Distance(km) => {
            painter.text(c, egui::Align2::CENTER_CENTER, km.to_string(), FontId::proportional(r * 1.3), white);
        }
        Family::Attack(_) => {
            let points =
                vec![c + Vec2::new(0.0, -r), c + Vec2::new(r * 0.95, r * 0.7), c + Vec2::new(-r * 0.95, r * 0.7)];
            painter.add(Shape::closed_line(points, Stroke::new(r * 0.16, white)));
            painter.text(
                c + Vec2::new(0.0, r * 0.15),
                egui::Align2::CENTER_CENTER,
                "!",
                FontId::proportional(r),
                white,
            );
        }
        Family::Remedy(_) => {
            painter.circle_stroke(c, r * 0.85, Stroke::new(r * 0.16, white));
            painter.line_segment(
                [c + Vec2::new(-r * 0.4, 0.0), c + Vec2::new(r * 0.4, 0.0)],
                Stroke::new(r * 0.18, white),
            );
            painter.line_segment(
                [c + Vec2::new(0.0, -r * 0.4), c + Vec2::new(0.0, r * 0.4)],
                Stroke::new(r * 0.18, white),
            );
        }
        Family::Safety(_) => {
            let star: Vec<Pos2> = (0..10)
                .map(|i| {
                    let angle = std::f32::consts::PI * (i as f32) / 5.0 - std::f32::consts::FRAC_PI_2;
                    let radius = if i % 2 == 0 { r } else { r * 0.45 };
                    c + Vec2::new(angle.cos(), angle.sin()) * radius
                })
                .collect();
            painter.add(Shape::closed_line(star, Stroke::new(r * 0.14, white)));
        }
    }
}

/// A small card in `rect` for a tableau's pile (no interaction).
pub fn small(ui: &mut egui::Ui, card: Option<Card>, width: f32, empty: &str) {
    let size = Vec2::new(width, width * look::card::RATIO);
    match card {
        Some(c) => {
            card_static(ui, c, size);
        }
        None => {
            let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
            look::card::slot(ui.painter(), rect, empty);
        }
    }
}

fn card_static(ui: &mut egui::Ui, card: Card, size: Vec2) -> Rect {
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    paint(&ui.painter_at(rect.expand(3.0)), rect, card, true, look::card::EDGE);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, card.name()));
    response.on_hover_text(card.name());
    rect
}

/// A safety laid by a Coup-Fourré: crosswise on its tableau, as on the table (M-15.9).
pub fn crosswise(ui: &mut egui::Ui, card: Card, width: f32) {
    card_static(ui, card, Vec2::new(width * look::card::RATIO, width));
}
