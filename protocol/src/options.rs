//! Table options: the rulings a table may want the other way (the **Option**s of the rules),
//! each with its documented default.

use crate::model::Seat;
use serde::{Deserialize, Serialize};

/// Who starts the first round (B-1.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum FirstPlayer {
    /// Drawn by the host's seeded RNG (default).
    #[default]
    Random,
    /// The seat the host picks.
    Seat(Seat),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TableOptions {
    /// B-1.7: first player of the first round. Default: random.
    pub first_player: FirstPlayer,
    /// B-7.1: races in a championship. Default: 3.
    pub races: u8,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions { first_player: FirstPlayer::Random, races: 3 }
    }
}
