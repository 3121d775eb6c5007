//! The 48 part cards (E-7.1, E-14.7) and the car colours (E-1.1).

use serde::{Deserialize, Serialize};

/// E-1.1: the six car colours, in seat order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    Red,
    Yellow,
    Green,
    Blue,
    White,
    Black,
}

impl Colour {
    pub const ALL: [Colour; 6] =
        [Colour::Red, Colour::Yellow, Colour::Green, Colour::Blue, Colour::White, Colour::Black];

    /// The colour of seat `seat`'s car.
    pub fn of_seat(seat: u8) -> Colour {
        Colour::ALL[usize::from(seat) % 6]
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Blue => "blue",
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

/// E-14.7: the four sections of the duck, side by side on the car card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Section {
    /// Bonnet and front wings.
    Front,
    FrontDoors,
    RearDoors,
    /// Boot and rear wings.
    Rear,
}

impl Section {
    pub const ALL: [Section; 4] = [Section::Front, Section::FrontDoors, Section::RearDoors, Section::Rear];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Section::Front => "front",
            Section::FrontDoors => "front doors",
            Section::RearDoors => "rear doors",
            Section::Rear => "rear",
        }
    }
}

/// E-7.2: a bare section's faults.
pub const BARE_FAULTS: u8 = 3;

/// Cards in the game (E-1.2).
pub const PARTS: u8 = 48;

/// One of the 48 part cards, `P01`…`P48` as `Part(0)`…`Part(47)` (how it reads in JSON:
/// `crate::printed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Part(pub u8);

impl Serialize for Part {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::printed::serialize(s, self.0, &self.id())
    }
}

impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::printed::deserialize(d, "part card (P01 to P48, E-14.7)", |id| {
            Part::all().find(|p| p.id() == id).map(|p| p.0)
        })
        .map(Part)
    }
}

/// E-14.7: the complementary pairs (points/faults), numbered 0–5.
const PAIRS: [[(u8, u8); 2]; 6] =
    [[(5, 3), (2, 5)], [(5, 4), (2, 4)], [(5, 5), (2, 3)], [(4, 3), (3, 5)], [(4, 4), (3, 4)], [(4, 5), (3, 3)]];

impl Part {
    pub fn all() -> impl Iterator<Item = Part> {
        (0..PARTS).map(Part)
    }

    /// Whether this names one of the 48 cards (a peer may name any byte).
    pub fn is_card(self) -> bool {
        self.0 < PARTS
    }

    pub fn section(self) -> Section {
        Section::ALL[usize::from(self.0 / 12) % 4]
    }

    pub fn colour(self) -> Colour {
        Colour::ALL[usize::from(self.0 % 12 / 2)]
    }

    fn pair(self) -> (u8, u8) {
        let pair = (self.colour() as usize + self.section().index()) % 6;
        PAIRS[pair][usize::from(self.0 % 2)]
    }

    /// E-7.1: 2 to 5.
    pub fn points(self) -> u8 {
        self.pair().0
    }

    /// E-7.1: 3 to 5.
    pub fn faults(self) -> u8 {
        self.pair().1
    }

    /// Its printed id, `P01`…`P48`.
    pub fn id(self) -> String {
        format!("P{:02}", u16::from(self.0) + 1)
    }
}

/// E-7.6: the faults of a car card with these parts fitted: 3 for a bare section, the part's
/// faults otherwise (12 to 20).
pub fn faults(fitted: &[Option<Part>; 4]) -> u8 {
    fitted.iter().map(|p| p.map_or(BARE_FAULTS, Part::faults)).sum()
}

/// E-7.7: the points of a car card of `colour` with these parts fitted: each part's points,
/// and 1 for each in the car's colour.
pub fn points(fitted: &[Option<Part>; 4], colour: Colour) -> u8 {
    fitted.iter().flatten().map(|p| p.points() + u8::from(p.colour() == colour)).sum()
}
