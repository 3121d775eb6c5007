//! The circuit as a winding road: the start grid, the 36 tiles in the order they were laid,
//! the finish line (B-2.1), snaking across the space it is given. Straights are asphalt,
//! curves are red-and-white kerbs with their limit sign; stars hold face-down bonuses; oil is
//! a black slick; cars sit in their colours, several to a tile. Tiles the pilot may pick
//! (a move's end, Huile) are outlined in gold and clickable.

use crate::ui::look;
use bolide::model::{FINISH, START};
use bolide::{Colour, PlayerView, Seat};
use egui::{Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

/// Positions on the board: the start grid, 36 tiles, the finish line.
const POSITIONS: usize = FINISH as usize + 1;

/// Where each position sits in `area`: rows that turn back at each end, like a road drawn
/// on a table. Returns the tile side and the centres.
pub fn layout(area: Rect) -> (f32, Vec<Pos2>) {
    // The number of rows that makes the tiles largest for this shape of area.
    let (mut best, mut best_side) = (1, 0.0f32);
    for rows in 2..=8usize {
        let cols = POSITIONS.div_ceil(rows);
        // Room for the bends between rows: a row of tiles plus a gap of half a tile.
        let side = (area.width() / cols as f32).min(area.height() / (rows as f32 * 1.5 - 0.5));
        if side > best_side {
            (best, best_side) = (rows, side);
        }
    }
    let rows = best;
    let cols = POSITIONS.div_ceil(rows);
    let side = best_side;
    let used = Vec2::new(side * cols as f32, side * (rows as f32 * 1.5 - 0.5));
    let origin = area.center() - used / 2.0;
    let centres = (0..POSITIONS)
        .map(|i| {
            let (row, mut col) = (i / cols, i % cols);
            if row % 2 == 1 {
                col = cols - 1 - col;
            }
            origin + Vec2::new((col as f32 + 0.5) * side, (row as f32 * 1.5 + 0.5) * side)
        })
        .collect();
    (side, centres)
}

/// What the board needs besides the view.
pub struct BoardInput<'a> {
    pub view: &'a PlayerView,
    /// Each seat's colour.
    pub colours: &'a [Colour],
    /// Where each car is drawn (moving tile by tile towards its real position).
    pub shown_at: &'a [f32],
    /// Positions the pilot may pick now.
    pub pickable: &'a [u8],
    pub w: &'static crate::lang::Words,
}

/// Draws the board in `rect`; returns the position the pilot clicked among `pickable`.
pub fn show(ui: &mut egui::Ui, rect: Rect, input: &BoardInput<'_>) -> Option<u8> {
    let (side, centres) = layout(rect.shrink(8.0));
    let painter = ui.painter_at(rect);
    let view = input.view;
    let tile = side * 0.86;
    let road = Stroke::new(side * 0.5, Color32::from_gray(70));
    for pair in centres.windows(2) {
        painter.line_segment([pair[0], pair[1]], road);
    }
    let stars = view.circuit.stars();
    let mut clicked = None;
    for (pos, centre) in centres.iter().enumerate() {
        let position = pos as u8;
        let r = Rect::from_center_size(*centre, Vec2::splat(tile));
        let limit = view.circuit.limit(position);
        let fill = match (position, limit) {
            (START, _) | (FINISH, _) => Color32::from_gray(235),
            (_, Some(_)) => Color32::from_rgb(150, 52, 52),
            _ => Color32::from_gray(92),
        };
        painter.rect_filled(r, CornerRadius::same((side * 0.12) as u8), fill);
        if position == START || position == FINISH {
            chequer(&painter, r);
            let label = if position == START { input.w.start_mark } else { input.w.finish_mark };
            painter.text(
                r.center_bottom() + Vec2::new(0.0, side * 0.12),
                Align2::CENTER_TOP,
                label,
                FontId::proportional(side * 0.2),
                ui.visuals().text_color(),
            );
        } else {
            painter.text(
                r.left_top() + Vec2::splat(side * 0.06),
                Align2::LEFT_TOP,
                position.to_string(),
                FontId::monospace(side * 0.16),
                Color32::from_gray(210),
            );
        }
        if let Some(limit) = limit {
            // The limit sign: a white disc with a red ring.
            let at = r.right_top() + Vec2::new(-side * 0.22, side * 0.22);
            painter.circle(at, side * 0.18, Color32::WHITE, Stroke::new(side * 0.04, Color32::from_rgb(200, 20, 20)));
            painter.text(
                at,
                Align2::CENTER_CENTER,
                limit.to_string(),
                FontId::proportional(side * 0.16),
                Color32::BLACK,
            );
        }
        let face_down = view.stars.iter().any(|s| s.tile == position);
        if stars.contains(&position) {
            // A gold star holds a face-down bonus; an empty outline once it was taken.
            let at = r.left_bottom() + Vec2::new(side * 0.2, -side * 0.2);
            let gold = Color32::from_rgb(250, 200, 40);
            let points = star(at, side * 0.15);
            if face_down {
                // A star is not convex: fill it as a fan of triangles around its centre.
                let mut mesh = egui::Mesh::default();
                mesh.colored_vertex(at, gold);
                for p in &points {
                    mesh.colored_vertex(*p, gold);
                }
                for i in 0..points.len() as u32 {
                    mesh.add_triangle(0, 1 + i, 1 + (i + 1) % points.len() as u32);
                }
                painter.add(mesh);
                painter.add(egui::Shape::closed_line(points, Stroke::new(side * 0.015, Color32::from_rgb(120, 80, 0))));
            } else {
                painter.add(egui::Shape::closed_line(points, Stroke::new(side * 0.02, Color32::from_gray(150))));
            }
        }
        if view.oil == Some(position) {
            painter.circle_filled(r.center() + Vec2::new(0.0, side * 0.1), side * 0.2, Color32::from_rgb(10, 10, 10));
            painter.text(
                r.center() + Vec2::new(0.0, side * 0.1),
                Align2::CENTER_CENTER,
                input.w.oil,
                FontId::proportional(side * 0.12),
                Color32::from_gray(200),
            );
        }
        let pickable = input.pickable.contains(&position);
        if pickable {
            painter.rect_stroke(
                r,
                CornerRadius::same((side * 0.12) as u8),
                Stroke::new(side * 0.07, Color32::from_rgb(255, 210, 0)),
                StrokeKind::Outside,
            );
        }
        let id = ui.scope_id().with(("tile", position));
        let response = ui.interact(r, id, if pickable { Sense::click() } else { Sense::hover() });
        let label = tile_label(view, position, face_down, input.w);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, pickable, &label));
        let response = response.on_hover_text(&label);
        if pickable && response.clicked() {
            clicked = Some(position);
        }
    }
    // The cars, in their colours, as many as share a tile (B-2.1), on a 3 × 2 grid.
    let mut on_tile = [0usize; POSITIONS];
    for car in &view.cars {
        let shown = input.shown_at.get(car.seat.index()).copied().unwrap_or(f32::from(car.position));
        let from = shown.floor().clamp(0.0, FINISH as f32) as usize;
        let to = (from + 1).min(POSITIONS - 1);
        let centre = centres[from].lerp(centres[to], shown - from as f32);
        let slot = on_tile[car.position as usize];
        on_tile[car.position as usize] += 1;
        let offset = Vec2::new((slot % 3) as f32 - 1.0, (slot / 3) as f32 - 0.5) * side * 0.26;
        let c = input.colours.get(car.seat.index()).copied().unwrap_or(Colour::Rouge);
        let at = centre + offset;
        painter.circle(at, side * 0.13, look::colour(c), Stroke::new(side * 0.025, Color32::from_gray(15)));
        // The seat's number, as the pilots' list shows it: colours alone do not tell everyone.
        painter.text(
            at,
            Align2::CENTER_CENTER,
            car.seat.number().to_string(),
            FontId::proportional(side * 0.15),
            look::ink(c),
        );
        if view.lanterne_rouge == Some(car.seat) {
            // The Lanterne Rouge marker hangs by its car.
            let lamp = Rect::from_center_size(at + Vec2::new(side * 0.13, -side * 0.13), Vec2::splat(side * 0.1));
            painter.rect_filled(lamp, CornerRadius::same(2), Color32::from_rgb(255, 40, 0));
        }
    }
    clicked
}

/// The ten corners of a five-pointed star around `c`.
fn star(c: Pos2, radius: f32) -> Vec<Pos2> {
    (0..10)
        .map(|i| {
            let r = if i % 2 == 0 { radius } else { radius * 0.45 };
            let a = std::f32::consts::PI * (i as f32 / 5.0 - 0.5);
            c + Vec2::new(a.cos(), a.sin()) * r
        })
        .collect()
}

fn chequer(painter: &egui::Painter, r: Rect) {
    let n = 4;
    let cell = r.width() / n as f32;
    for i in 0..n {
        for j in 0..n {
            if (i + j) % 2 == 0 {
                let min = r.min + Vec2::new(i as f32 * cell, j as f32 * cell);
                painter.rect_filled(
                    Rect::from_min_size(min, Vec2::splat(cell)),
                    CornerRadius::ZERO,
                    Color32::from_gray(30),
                );
            }
        }
    }
}

/// A tile in words (its hover text and its accessible label).
pub fn tile_label(view: &PlayerView, position: u8, face_down: bool, w: &crate::lang::Words) -> String {
    let mut text = match position {
        START => w.start_grid.to_string(),
        FINISH => w.finish_line.to_string(),
        p => match view.circuit.limit(p) {
            Some(limit) => (w.tile_curve)(p, limit),
            None => (w.tile_straight)(p),
        },
    };
    if face_down {
        text.push_str(w.face_down_bonus);
    }
    if view.oil == Some(position) {
        text.push_str(w.oil_here);
    }
    let here: Vec<String> = view.cars.iter().filter(|c| c.position == position).map(|c| seat_word(c.seat)).collect();
    if !here.is_empty() {
        text.push_str(&(w.cars_here)(&here.join(", ")));
    }
    text
}

fn seat_word(seat: Seat) -> String {
    format!("#{}", seat.number())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_road_fits_and_no_two_tiles_overlap_from_720p_to_4k() {
        for size in
            [Vec2::new(1280.0, 720.0), Vec2::new(900.0, 500.0), Vec2::new(3840.0, 2160.0), Vec2::new(600.0, 900.0)]
        {
            let area = Rect::from_min_size(Pos2::ZERO, size);
            let (side, centres) = layout(area);
            assert_eq!(centres.len(), POSITIONS);
            assert!(side > size.min_elem() / 12.0, "{size:?}: tiles of {side}");
            for (i, a) in centres.iter().enumerate() {
                assert!(area.expand(0.5).contains_rect(Rect::from_center_size(*a, Vec2::splat(side))), "{size:?} {i}");
                for b in &centres[i + 1..] {
                    assert!((*a - *b).length() >= side - 0.01, "{size:?}: tiles overlap");
                }
            }
            // Consecutive positions touch: the road never jumps.
            for pair in centres.windows(2) {
                assert!((pair[0] - pair[1]).length() <= side * 1.5 + 0.01);
            }
        }
    }
}
