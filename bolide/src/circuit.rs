//! The circuit: 36 tiles between the start grid and the finish line (B-2), its tile set
//! (B-2.4), its validity check (B-2.5) and its text notation.
//!
//! The notation is one token per tile, in the order the tiles are laid: `S` for a straight,
//! a number (`60` … `100`) for a curve with that speed limit, and a trailing `*` on a starred
//! tile. Tokens are separated by spaces, commas or new lines; `#` starts a comment. This is
//! also the format of a custom circuit file.

use crate::model::{FINISH, START, TILES};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// One tile: a straight (no limit) or a curve with a speed limit in km/h (B-2.2), maybe
/// starred (B-2.3). Two bytes, so a circuit is 72 bytes and a race state clones cheaply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tile {
    /// 0 for a straight, otherwise the speed limit in km/h.
    limit: u8,
    star: bool,
}

impl Tile {
    pub const fn straight(star: bool) -> Tile {
        Tile { limit: 0, star }
    }
    pub const fn curve(limit: u8, star: bool) -> Tile {
        Tile { limit, star }
    }
    /// The printed speed limit, `None` on a straight.
    pub fn limit(self) -> Option<u8> {
        (self.limit != 0).then_some(self.limit)
    }
    pub fn is_curve(self) -> bool {
        self.limit != 0
    }
    pub fn is_straight(self) -> bool {
        self.limit == 0
    }
    pub fn star(self) -> bool {
        self.star
    }
}

impl Tile {
    /// Appends this tile's token to `out`. Written by hand, not through `fmt`: a circuit goes in
    /// every view the host sends, so it is written for every update of every laptop.
    fn push_notation(self, out: &mut String) {
        match self.limit {
            0 => out.push('S'),
            l => {
                for digit in [l / 100, l / 10 % 10, l % 10].into_iter().skip_while(|d| *d == 0) {
                    out.push(char::from(b'0' + digit));
                }
            }
        }
        if self.star {
            out.push('*');
        }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut token = String::with_capacity(4);
        self.push_notation(&mut token);
        f.write_str(&token)
    }
}

/// The tile set of the box (B-2.4 ruling): 20 straights, 16 curves; stars on three
/// straights and on one 70, one 80 and one 90 curve.
pub const TILE_SET: [(Tile, usize); 10] = [
    (Tile::straight(false), 17),
    (Tile::straight(true), 3),
    (Tile::curve(60, false), 2),
    (Tile::curve(70, false), 3),
    (Tile::curve(70, true), 1),
    (Tile::curve(80, false), 4),
    (Tile::curve(80, true), 1),
    (Tile::curve(90, false), 2),
    (Tile::curve(90, true), 1),
    (Tile::curve(100, false), 2),
];

/// Longest turn a valid circuit may hold (B-2.5).
pub const MAX_TURN: usize = 4;

/// Why a circuit is not valid. Every message names the rule and, where there is one, the
/// position (1 = first tile after the start grid).
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum CircuitError {
    #[error(
        "B-2.4: position {position}: unknown tile `{token}` (use S for a straight, 60/70/80/90/100 for a curve, a trailing * for a star)"
    )]
    UnknownTile { position: usize, token: String },
    #[error("B-2.5: a circuit uses all {TILES} tiles once; this one has {found}")]
    TileCount { found: usize },
    #[error(
        "B-2.4: the tile set has {expected} tile(s) `{tile}`, this circuit has {found}{}",
        first_extra.map(|p| format!(" (one too many at position {p})")).unwrap_or_default()
    )]
    TileSet { tile: String, expected: usize, found: usize, first_extra: Option<usize> },
    #[error("B-2.5: a circuit starts with a straight; position 1 is a curve")]
    StartsWithCurve,
    #[error("B-2.5: a circuit ends with a straight; position 36 is a curve")]
    EndsWithCurve,
    #[error("B-2.5: no turn may be longer than {MAX_TURN} tiles; the turn at positions {start}..={end} has {len}")]
    TurnTooLong { start: usize, end: usize, len: usize },
}

impl CircuitError {
    /// The rule this error enforces.
    pub fn rule(&self) -> &'static str {
        match self {
            CircuitError::UnknownTile { .. } | CircuitError::TileSet { .. } => "B-2.4",
            _ => "B-2.5",
        }
    }
}

/// A valid circuit (B-2.5): constructing one always checks it, so holding a `Circuit` is
/// proof of validity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Circuit {
    tiles: [Tile; TILES],
}

impl Circuit {
    /// Checks `tiles` against B-2.4 and B-2.5.
    pub fn new(tiles: &[Tile]) -> Result<Circuit, CircuitError> {
        if tiles.len() != TILES {
            return Err(CircuitError::TileCount { found: tiles.len() });
        }
        for &(tile, expected) in &TILE_SET {
            let found = tiles.iter().filter(|t| **t == tile).count();
            if found != expected {
                let first_extra = (found > expected).then(|| {
                    let i = tiles.iter().enumerate().filter(|(_, t)| **t == tile).nth(expected);
                    i.map(|(i, _)| i + 1).unwrap_or(0)
                });
                return Err(CircuitError::TileSet { tile: tile.to_string(), expected, found, first_extra });
            }
        }
        if tiles[0].is_curve() {
            return Err(CircuitError::StartsWithCurve);
        }
        if tiles[TILES - 1].is_curve() {
            return Err(CircuitError::EndsWithCurve);
        }
        let mut run = 0;
        for (i, tile) in tiles.iter().enumerate() {
            run = if tile.is_curve() { run + 1 } else { 0 };
            let turn_ends = tile.is_curve() && tiles.get(i + 1).is_none_or(|t| t.is_straight());
            if turn_ends && run > MAX_TURN {
                return Err(CircuitError::TurnTooLong { start: i + 2 - run, end: i + 1, len: run });
            }
        }
        Ok(Circuit { tiles: tiles.try_into().expect("length checked above") })
    }

    /// Parses the text notation (see the module documentation) and checks the result.
    pub fn parse(text: &str) -> Result<Circuit, CircuitError> {
        let tokens = text
            .lines()
            .map(|line| line.split('#').next().unwrap_or(""))
            .flat_map(|line| line.split([' ', ',', '\t', ';']))
            .filter(|t| !t.is_empty());
        let mut tiles = Vec::with_capacity(TILES);
        for (i, token) in tokens.enumerate() {
            let (body, star) = match token.strip_suffix('*') {
                Some(body) => (body, true),
                None => (token, false),
            };
            let tile = match body {
                "S" | "s" => Tile::straight(star),
                _ => match body.parse::<u8>() {
                    Ok(limit @ (60 | 70 | 80 | 90 | 100)) => Tile::curve(limit, star),
                    _ => {
                        return Err(CircuitError::UnknownTile { position: i + 1, token: token.to_string() });
                    }
                },
            };
            tiles.push(tile);
        }
        Circuit::new(&tiles)
    }

    /// The tile at `position` (1..=36); `None` on the start grid and the finish line, which
    /// have no limit (B-2.1).
    pub fn tile(&self, position: u8) -> Option<Tile> {
        match position {
            START | FINISH.. => None,
            p => Some(self.tiles[p as usize - 1]),
        }
    }

    /// The printed limit at a tile position 1..=36 as a raw number, 0 for a straight: the
    /// movement hot loop reads this instead of matching `Option`s.
    #[inline]
    pub(crate) fn raw_limit(&self, position: u8) -> u8 {
        self.tiles[position as usize - 1].limit
    }

    /// The printed limit at `position`, `None` for no limit.
    pub fn limit(&self, position: u8) -> Option<u8> {
        self.tile(position).and_then(Tile::limit)
    }

    pub fn tiles(&self) -> &[Tile; TILES] {
        &self.tiles
    }

    /// Positions of the six starred tiles (B-2.3), in circuit order.
    pub fn stars(&self) -> [u8; 6] {
        let mut stars = [0u8; 6];
        let positions = (1..=TILES as u8).filter(|p| self.tiles[*p as usize - 1].star);
        for (slot, p) in stars.iter_mut().zip(positions) {
            *slot = p;
        }
        stars
    }

    /// The turns as `(first, last)` positions (B-2.2: adjacent curves form one turn).
    pub fn turns(&self) -> Vec<(u8, u8)> {
        let mut turns = Vec::new();
        let mut p = 1u8;
        while p <= TILES as u8 {
            if self.tiles[p as usize - 1].is_curve() {
                let first = p;
                while p < TILES as u8 && self.tiles[p as usize].is_curve() {
                    p += 1;
                }
                turns.push((first, p));
            }
            p += 1;
        }
        turns
    }
}

impl Circuit {
    /// The circuit in its notation (what `Display` prints and the wire carries).
    pub fn notation(&self) -> String {
        let mut out = String::with_capacity(self.tiles.len() * 4);
        for (i, tile) in self.tiles.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            tile.push_notation(&mut out);
        }
        out
    }
}

impl fmt::Display for Circuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

// A circuit travels as its notation; decoding checks it, so no invalid circuit ever crosses
// the wire or loads from a file.
impl Serialize for Circuit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.notation())
    }
}

impl<'de> Deserialize<'de> for Circuit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Circuit::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid layout used across tests: every turn at most 4 tiles.
    pub const SAMPLE: &str =
        "S S 70 80 S* 60 60 S S 90* 100 S S 70* 70 80 S S* S 80* 90 S S 100 S 70 80 S S 80 90 S S* S S S";

    #[test]
    fn b_2_4_sample_uses_the_tile_set() {
        let c = Circuit::parse(SAMPLE).unwrap();
        assert_eq!(c.tiles().iter().filter(|t| t.is_straight()).count(), 20);
        assert_eq!(c.tiles().iter().filter(|t| t.is_curve()).count(), 16);
        assert_eq!(c.tiles().iter().filter(|t| t.star()).count(), 6);
        assert_eq!(c.to_string(), SAMPLE);
    }

    #[test]
    fn b_2_4_unknown_tile_names_its_position() {
        let err = Circuit::parse("S S 75").unwrap_err();
        assert_eq!(err, CircuitError::UnknownTile { position: 3, token: "75".into() });
        assert!(err.to_string().starts_with("B-2.4: position 3"));
    }

    #[test]
    fn b_2_4_extra_tile_is_reported_where_it_is() {
        // Swap the last 70* for a second 70*: one 70* too many, one 90* missing order-wise.
        let text = SAMPLE.replacen("90*", "70*", 1);
        let err = Circuit::parse(&text).unwrap_err();
        assert!(
            matches!(err, CircuitError::TileSet { ref tile, expected: 1, found: 2, first_extra: Some(14) } if tile == "70*"),
            "{err}"
        );
    }

    #[test]
    fn b_2_5_whole_tile_set_once() {
        let err = Circuit::parse("S S S").unwrap_err();
        assert_eq!(err, CircuitError::TileCount { found: 3 });
        assert_eq!(err.rule(), "B-2.5");
    }

    #[test]
    fn b_2_5_starts_and_ends_with_a_straight() {
        let mut tokens: Vec<&str> = SAMPLE.split(' ').collect();
        tokens.swap(0, 2); // a 70 first
        assert_eq!(Circuit::parse(&tokens.join(" ")), Err(CircuitError::StartsWithCurve));
        let mut tokens: Vec<&str> = SAMPLE.split(' ').collect();
        tokens.swap(35, 2);
        assert_eq!(Circuit::parse(&tokens.join(" ")), Err(CircuitError::EndsWithCurve));
    }

    #[test]
    fn b_2_5_no_turn_longer_than_four() {
        // Swap the S* at 5 with the 90* at 10: the turns 3-4 and 6-7 merge into 3..=7.
        let mut tokens: Vec<&str> = SAMPLE.split(' ').collect();
        tokens.swap(4, 9);
        let err = Circuit::parse(&tokens.join(" ")).unwrap_err();
        assert_eq!(err, CircuitError::TurnTooLong { start: 3, end: 7, len: 5 });
        assert!(err.to_string().contains("positions 3..=7"), "{err}");
        // A turn of exactly four is fine.
        tokens.swap(4, 9);
        let star = tokens.remove(4);
        tokens.insert(8, star);
        assert!(Circuit::parse(&tokens.join(" ")).is_ok());
    }

    #[test]
    fn b_2_1_start_and_finish_have_no_limit() {
        let c = Circuit::parse(SAMPLE).unwrap();
        assert_eq!(c.limit(START), None);
        assert_eq!(c.limit(FINISH), None);
        assert_eq!(c.limit(3), Some(70));
        assert_eq!(c.stars(), [5, 10, 14, 18, 20, 33]);
    }

    #[test]
    fn b_2_3_six_stars_on_three_straights_and_a_70_80_90() {
        let c = Circuit::parse(SAMPLE).unwrap();
        let starred: Vec<String> = c.stars().iter().map(|p| c.tile(*p).unwrap().to_string()).collect();
        assert_eq!(starred.iter().filter(|t| *t == "S*").count(), 3);
        for curve in ["70*", "80*", "90*"] {
            assert_eq!(starred.iter().filter(|t| *t == curve).count(), 1, "{starred:?}");
        }
    }

    #[test]
    fn b_2_2_adjacent_curves_form_one_turn() {
        let c = Circuit::parse(SAMPLE).unwrap();
        assert_eq!(&c.turns()[..3], &[(3, 4), (6, 7), (10, 11)]);
    }
}
