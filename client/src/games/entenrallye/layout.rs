//! Where each square of E-14.5's road lies on the screen's board: a grid of cells, the road
//! laid out as the box lays it — a one-way road snaking from START to M4 through the year,
//! each meeting on an arch beside its shortcut, the check stations at the end of their spurs,
//! the workshop roads with their minus tracks running back to the route — and the calendar's
//! column beside it. Placed by hand once, as walks along the notation's own statements (a
//! start cell, then a step for each next square), so the data and the rules cannot drift: a
//! square the walks miss or place twice fails the test below.

use entenrallye::{Square, board};
use std::sync::LazyLock;

/// The road's grid, in cells: columns, rows.
pub const ROAD_CELLS: (u8, u8) = (29, 15);
/// The calendar's columns (months, then steps), right of the road after a gap.
pub const MONTHS_COLUMN: u8 = 30;
pub const STEPS_COLUMN: u8 = 31;
/// Every cell the board draws: the road and the calendar.
pub const GRID: (u8, u8) = (32, 15);

/// Each statement of E-14.5 (named by its first square): its first square's cell, then a
/// step (Right, Left, Up, Down) to each next square.
const WALKS: &[(&str, (u8, u8), &str)] = &[
    ("START", (0, 3), "RRRRRRRRRRRRRR"),
    ("M1in1", (14, 2), "URRRRD"),
    ("K1_1", (15, 3), "RR"),
    ("B01", (18, 3), "RRRRRRRR"),
    ("TU1", (26, 2), "UU"),
    ("C01", (27, 3), "DDLLLLLLLLLLL"),
    ("NT20", (28, 9), "LLLLLLLLLLLLLLLLLLLURRRRRRRRRRRRRRRRRR"),
    ("M2in1", (16, 6), "DLLLLU"),
    ("K2_1", (15, 5), "LL"),
    ("D01", (12, 5), "LLLLLLLLLLLLD"),
    ("M3in1", (1, 6), "RDDDDL"),
    ("K3_1", (0, 7), "DD"),
    ("E01", (0, 10), "DRRRRRRR"),
    ("AS1", (7, 12), "DD"),
    ("F01", (8, 11), "RRRRRRRRRRRRR"),
    ("NA20", (9, 14), "RRRRRRRRRRRRRRRRRRRULLLLLLLLLLLLLLLLLL"),
    ("M4in1", (22, 11), "RRR"),
];

/// Where a place's label (its month, START's name) goes: the free side of its square.
const LABELS: &[(&str, (i8, i8))] = &[
    ("START", (0, -1)),
    ("M1", (0, -1)),
    ("TUV", (1, 0)),
    ("M2", (0, -1)),
    ("M3", (1, 0)),
    ("ASU", (-1, 0)),
    ("M4", (0, 1)),
];

/// The side of `square` its label goes on (right, left, up, down as (1, 0), (−1, 0), (0, −1),
/// (0, 1)), for the places that have one.
pub fn label_side(square: Square) -> Option<(i8, i8)> {
    let name = board().name(square);
    LABELS.iter().find(|(id, _)| *id == name).map(|(_, side)| *side)
}

/// The cell of every square, by its place in the board (`None` only if a walk missed it).
fn cells() -> &'static [Option<(u8, u8)>] {
    static CELLS: LazyLock<Vec<Option<(u8, u8)>>> = LazyLock::new(|| {
        let b = board();
        let mut cells = vec![None; b.len()];
        for row in b.rows() {
            let Some(first) = row.first() else { continue };
            let Some((_, start, steps)) = WALKS.iter().find(|(id, _, _)| *id == b.name(*first)) else { continue };
            let mut at = *start;
            for (i, square) in row.iter().enumerate() {
                if i > 0 {
                    let step = steps.as_bytes().get(i - 1).copied().unwrap_or(b'R');
                    at = match step {
                        b'L' => (at.0.saturating_sub(1), at.1),
                        b'U' => (at.0, at.1.saturating_sub(1)),
                        b'D' => (at.0, at.1 + 1),
                        _ => (at.0 + 1, at.1),
                    };
                }
                if let Some(cell) = cells.get_mut(usize::from(square.0)) {
                    *cell = Some(at);
                }
            }
        }
        cells
    });
    &CELLS
}

/// The cell `square` is drawn in.
pub fn cell(square: Square) -> Option<(u8, u8)> {
    cells().get(usize::from(square.0)).copied().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e_14_5_every_square_has_a_cell_of_its_own_inside_the_road_s_grid() {
        let b = board();
        let mut seen = std::collections::HashMap::new();
        for s in b.squares() {
            let at = cell(s).unwrap_or_else(|| panic!("{} has no cell", b.name(s)));
            assert!(at.0 < ROAD_CELLS.0 && at.1 < ROAD_CELLS.1, "{} at {at:?}", b.name(s));
            if let Some(other) = seen.insert(at, s) {
                panic!("{} and {} share {at:?}", b.name(other), b.name(s));
            }
        }
    }

    #[test]
    fn a_place_s_label_goes_on_a_side_no_square_takes() {
        let b = board();
        for (id, (dx, dy)) in LABELS {
            let at = cell(b.find(id).unwrap()).unwrap();
            let side = (at.0 as i8 + dx, at.1 as i8 + dy);
            let taken = b.squares().any(|s| cell(s).map(|c| (c.0 as i8, c.1 as i8)) == Some(side));
            assert!(!taken, "{id}'s label at {side:?} is on a square");
        }
    }

    #[test]
    fn e_14_5_the_road_runs_from_cell_to_neighbouring_cell_but_where_a_workshop_road_joins() {
        // Each edge joins neighbouring cells, so the road reads as a road; the two workshop
        // roads reach the route across one empty cell or two, drawn as a straight stretch.
        let b = board();
        for s in b.squares() {
            for next in b.edges(s) {
                let (a, c) = (cell(s).unwrap(), cell(*next).unwrap());
                let (dx, dy) = (a.0.abs_diff(c.0), a.1.abs_diff(c.1));
                let joins = matches!(b.name(s), "U18" | "V18");
                assert!(dx + dy == 1 || (joins && dx == 0), "{} {a:?} to {} {c:?}", b.name(s), b.name(*next));
            }
        }
    }
}
