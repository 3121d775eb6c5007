//! How a race is set up (B-1) and the starting-state overrides of a scenario.

use crate::{Atout, BonusKind, Circuit, FirstPlayer, Seat};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Everything a fresh race needs (B-1).
#[derive(Debug, Clone)]
pub struct RaceSetup {
    /// 3 to 6 (B-1.1).
    pub pilots: u8,
    pub circuit: Circuit,
    /// Seeds the race's own RNG: the same seed and actions replay the race exactly.
    pub seed: u64,
    /// Number of this race in its championship (1-based).
    pub race: u8,
    /// B-1.7 (Option).
    pub first_player: FirstPlayer,
    /// Bonus kinds on the stars in circuit order; `None` draws them (B-1.5).
    pub bonuses: Option<[BonusKind; 6]>,
    /// Every pilot starts each round holding an Échange (`TableOptions::echange_drill`).
    pub echange_drill: bool,
}

impl RaceSetup {
    pub fn new(pilots: u8, circuit: Circuit, seed: u64) -> RaceSetup {
        RaceSetup {
            pilots,
            circuit,
            seed,
            race: 1,
            first_player: FirstPlayer::Random,
            bonuses: None,
            echange_drill: false,
        }
    }
}

/// A scenario's starting state: what differs from a fresh set-up.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartState {
    #[serde(default)]
    pub cars: Vec<CarStart>,
    /// Star tiles whose token is already gone (taken and discarded earlier).
    #[serde(default)]
    pub empty_stars: Vec<u8>,
    /// A tile already oiled (B-5.14); the Huile token then leaves the board.
    #[serde(default)]
    pub oil: Option<u8>,
    /// Who holds the Lanterne Rouge for the first round (B-6.1).
    #[serde(default)]
    pub lanterne_rouge: Option<Seat>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarStart {
    pub seat: Seat,
    #[serde(default)]
    pub position: u8,
    /// Atouts still held; absent means all three (B-1.3).
    #[serde(default)]
    pub atouts: Option<Vec<Atout>>,
    /// Bonus tokens held face up; they leave their stars. A held Panne Sèche is in force in
    /// the first round (B-4.8).
    #[serde(default)]
    pub bonuses: Option<Vec<BonusKind>>,
    #[serde(default)]
    pub second_chance: bool,
}

/// Why a race cannot be set up as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("B-1.1: a race has 3 to 6 pilots, not {pilots}")]
    Pilots { pilots: u8 },
    #[error("B-1.1: there is no {seat} at this table")]
    NoSuchSeat { seat: Seat },
    #[error("B-1.5: the six stars hold exactly one bonus of each kind")]
    BonusSet,
    #[error("B-1.5: the {kind:?} bonus is held by two pilots, or was already taken")]
    BonusHeldTwice { kind: BonusKind },
    #[error("B-1.4: the supply holds only 6 Second Chance tokens")]
    SecondChanceSupply,
    #[error("B-2.1: {seat} cannot start at position {position} (0 to 36: 37 is the finish line)")]
    Position { seat: Seat, position: u8 },
    #[error("B-2.3: tile {tile} carries no star")]
    NotAStar { tile: u8 },
    #[error("B-5.14: oil goes on a tile 1 to 36, not {tile}")]
    OilTile { tile: u8 },
    #[error("B-1.2: forced dice need {expected} value(s) from 1 to 6")]
    Dice { expected: u8 },
    #[error("B-2.6: a championship needs at least one circuit")]
    NoCircuit,
    #[error("a starting state or forced reservoirs only apply before the cup is lifted")]
    TooLate,
}
