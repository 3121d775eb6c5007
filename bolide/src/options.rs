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
    /// A practice table for B-4.7, not a ruling: every pilot starts each round holding an
    /// Échange bonus, so every round has an Échange window (the fairness lab measures it this
    /// way). Default: off.
    pub echange_drill: bool,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions { first_player: FirstPlayer::Random, races: 3, echange_drill: false }
    }
}

/// How well the host's bots play: the table's (`bolide_table`), for every game.
pub use bolide_table::BotLevel;

/// Bolide's lobby: the championship's settings (the lobby's, or the host's command line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub options: TableOptions,
    /// A preset name, `random:SEED`, or the circuit notation itself.
    pub circuit: String,
    /// Seats filled by the host's bots, on top of the people who join.
    pub bots: u8,
    /// How well they (and the stand-ins for absent pilots) play.
    #[serde(default)]
    pub bot_level: BotLevel,
}

/// Bolide's own settings, as the table hands them to its engine: the table options and the
/// circuits (the bots and their level are the table's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RaceSettings {
    pub options: TableOptions,
    /// A preset name, `random:SEED`, or the circuit notation itself.
    pub circuit: String,
}

impl Default for RaceSettings {
    fn default() -> RaceSettings {
        RaceSettings { options: TableOptions::default(), circuit: "random:1".into() }
    }
}

/// Bolide's lobby: the championship's settings, and the seats the host's bots fill.
impl bolide_table::Lobby for Settings {
    type Game = RaceSettings;

    fn bots(&self) -> u8 {
        self.bots
    }

    fn bot_level(&self) -> BotLevel {
        self.bot_level
    }

    fn game(&self) -> RaceSettings {
        RaceSettings { options: self.options, circuit: self.circuit.clone() }
    }
}
