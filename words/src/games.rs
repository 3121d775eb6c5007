//! The games a table serves, by the name on the command line and in the advert and the name
//! on the box: the one list both sides (the host's registry, the window's) pick a game from.

use serde::{Deserialize, Serialize};

/// The games a table serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    /// Antoine Bauza's real-time racing game.
    #[default]
    Bolide,
    /// The card game of the road, with its Coup-Fourré.
    MilleBornes,
    /// The 2CV race: a year of meetings, checks and spare parts.
    Entenrallye,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::Bolide, GameKind::MilleBornes, GameKind::Entenrallye];

    /// The name on the command line and in the advert.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Bolide => "bolide",
            GameKind::MilleBornes => "mille-bornes",
            GameKind::Entenrallye => "entenrallye",
        }
    }

    /// The name on the box.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Bolide => "Bolide",
            GameKind::MilleBornes => "1000 Bornes",
            GameKind::Entenrallye => "Entenrallye",
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
            .ok_or_else(|| format!("`{s}` is not a game here: bolide, mille-bornes or entenrallye"))
    }
}
