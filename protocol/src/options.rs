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

/// How well the host's bots play: the seats it fills and the stand-ins for absent pilots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Any legal action, uniformly at random: bots for fun.
    Random,
    /// Reads the road ahead and uses its tokens with purpose: bots to win (default).
    #[default]
    Strategic,
}

impl BotLevel {
    pub const ALL: [BotLevel; 2] = [BotLevel::Random, BotLevel::Strategic];

    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Strategic => "strategic",
        }
    }
}

impl std::fmt::Display for BotLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BotLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<BotLevel, String> {
        BotLevel::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("`{s}` is not a bot level: random or strategic"))
    }
}

/// The games a table serves. The table names a game only here, to pick and advertise it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    /// Antoine Bauza's real-time racing game.
    #[default]
    Bolide,
    /// The card game of the road, with its Coup-Fourré.
    MilleBornes,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::Bolide, GameKind::MilleBornes];

    /// The name on the command line and in the advert.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Bolide => "bolide",
            GameKind::MilleBornes => "mille-bornes",
        }
    }

    /// The name on the box.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Bolide => "Bolide",
            GameKind::MilleBornes => "1000 Bornes",
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = String;

    fn from_str(s: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| format!("`{s}` is not a game here: bolide or mille-bornes"))
    }
}
