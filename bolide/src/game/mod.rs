//! The rules engine: pure, deterministic, sans-I/O. See ARCHITECTURE.md for where each rule
//! lives.

pub mod championship;
pub mod race;
pub mod setup;
pub mod table;

pub use championship::{Championship, ChampionshipSetup, Standing, standings_from};
pub use race::{Car, Phase, Race};
pub use setup::{CarStart, RaceSetup, SetupError, StartState};

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;
