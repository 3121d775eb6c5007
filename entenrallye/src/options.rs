//! The table options (the rules' **Option**s) and the lobby's settings.

use bolide_table::BotLevel;
use serde::{Deserialize, Serialize};

/// E-1.4: who plays first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum FirstPlayer {
    /// The host picks: the first seat.
    #[default]
    FirstSeat,
    /// Drawn from the game's seed.
    Random,
}

/// E-13.2: equal totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Ties {
    /// Equal totals share the win.
    #[default]
    Shared,
    /// More meetings scored first, then shared.
    MeetingsFirst,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Settings {
    pub first_player: FirstPlayer,
    pub ties: Ties,
}

impl Settings {
    /// E-1.1: 2 to 6 players.
    pub fn check(&self, players: u8) -> Result<(), String> {
        if !(2..=6).contains(&players) {
            return Err(format!("E-1.1: Entenrallye seats 2 to 6 players, not {players}"));
        }
        Ok(())
    }
}

/// What the lobby sets for a game of Entenrallye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Lobby {
    pub settings: Settings,
    pub bots: u8,
    pub bot_level: BotLevel,
}

impl bolide_table::Lobby for Lobby {
    type Game = Settings;

    fn bots(&self) -> u8 {
        self.bots
    }

    fn bot_level(&self) -> BotLevel {
        self.bot_level
    }

    fn game(&self) -> Settings {
        self.settings
    }
}
