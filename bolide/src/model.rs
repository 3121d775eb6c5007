//! The nouns of the table: seats, colours, pawns, positions and tokens.

use serde::{Deserialize, Serialize};

/// Most pilots at one table (B-1.1).
pub const MAX_PILOTS: usize = 6;
/// Fewest pilots at one table (B-1.1).
pub const MIN_PILOTS: usize = 3;
/// Tiles between the start grid and the finish line (B-2.1).
pub const TILES: usize = 36;
/// The start grid (B-2.1).
pub const START: u8 = 0;
/// The finish line (B-2.1): a car here has crossed (B-5.6).
pub const FINISH: u8 = 37;

/// A place at the table: the table's (`bolide_table`), shared by every game.
pub use bolide_table::Seat;

/// A pawn and the reservoir die of the same colour (B-1.2). Pawn `i` has the colour of the
/// pilot in seat `i`, so there are exactly as many pawns as pilots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pawn(pub u8);

impl Pawn {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The number printed on the pawn (pawn 1 is `Pawn(0)`), for any pawn a peer may name.
    pub fn number(self) -> u16 {
        u16::from(self.0) + 1
    }
}

pub use bolide_table::colour::Colour;

/// The three single-use Atouts every pilot starts with (B-1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Atout {
    AsDeLaRoute,
    Nitro,
    Klaxon,
}

impl Atout {
    pub const ALL: [Atout; 3] = [Atout::AsDeLaRoute, Atout::Nitro, Atout::Klaxon];

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The six bonus tokens, one of each, face down on the stars (B-1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BonusKind {
    Raccourci,
    Aspiration,
    Assistance,
    Huile,
    Echange,
    PanneSeche,
}

impl BonusKind {
    pub const ALL: [BonusKind; 6] = [
        BonusKind::Raccourci,
        BonusKind::Aspiration,
        BonusKind::Assistance,
        BonusKind::Huile,
        BonusKind::Echange,
        BonusKind::PanneSeche,
    ];

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of Atouts as a bit set: a car state stays `Copy` and a few bytes wide, which keeps
/// whole races cheap to clone for bot look-ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Atouts(u8);

impl Atouts {
    pub const NONE: Atouts = Atouts(0);
    /// The three Atouts of a fresh start (B-1.3).
    pub const ALL: Atouts = Atouts(0b111);

    pub fn contains(self, atout: Atout) -> bool {
        self.0 & atout.bit() != 0
    }
    pub fn insert(&mut self, atout: Atout) {
        self.0 |= atout.bit();
    }
    pub fn remove(&mut self, atout: Atout) {
        self.0 &= !atout.bit();
    }
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Atout> {
        Atout::ALL.into_iter().filter(move |a| self.contains(*a))
    }
}

impl FromIterator<Atout> for Atouts {
    fn from_iter<I: IntoIterator<Item = Atout>>(iter: I) -> Self {
        let mut set = Atouts::NONE;
        iter.into_iter().for_each(|a| set.insert(a));
        set
    }
}

/// A set of bonus kinds held face up, as a bit set (see [`Atouts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bonuses(u8);

impl Bonuses {
    pub const NONE: Bonuses = Bonuses(0);

    pub fn contains(self, kind: BonusKind) -> bool {
        self.0 & kind.bit() != 0
    }
    pub fn insert(&mut self, kind: BonusKind) {
        self.0 |= kind.bit();
    }
    pub fn remove(&mut self, kind: BonusKind) {
        self.0 &= !kind.bit();
    }
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = BonusKind> {
        BonusKind::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}

impl FromIterator<BonusKind> for Bonuses {
    fn from_iter<I: IntoIterator<Item = BonusKind>>(iter: I) -> Self {
        let mut set = Bonuses::NONE;
        iter.into_iter().for_each(|k| set.insert(k));
        set
    }
}

// Sets travel as lists of names: readable in scenario files and the event log.
macro_rules! serde_as_list {
    ($set:ty, $item:ty) => {
        impl Serialize for $set {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                // With its length up front: bincode needs it.
                use serde::ser::SerializeSeq;
                let mut seq = s.serialize_seq(Some(self.len() as usize))?;
                for item in self.iter() {
                    seq.serialize_element(&item)?;
                }
                seq.end()
            }
        }
        impl<'de> Deserialize<'de> for $set {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                Ok(Vec::<$item>::deserialize(d)?.into_iter().collect())
            }
        }
    };
}
serde_as_list!(Atouts, Atout);
serde_as_list!(Bonuses, BonusKind);

/// Speed in km/h from a reservoir and an accelerator roll (B-5.2).
pub fn speed(reservoir: u8, accelerator: u8) -> u8 {
    (reservoir + accelerator) * 10
}
