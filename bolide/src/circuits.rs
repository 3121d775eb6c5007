//! Where circuits come from (B-2.5): named presets, seeded random layouts and the notation (a
//! file is read by the host, `bolide_host::files::read_circuit`: this crate does no I/O).
//! Every one goes through [`Circuit::new`], the validity check.

use crate::circuit::TILE_SET;
use crate::{Circuit, CircuitError, Tile};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use thiserror::Error;

/// The named preset circuits, in the text notation of [`crate::circuit`].
pub const PRESETS: [(&str, &str); 3] = [
    // Balanced: short turns, three long straights.
    ("cannes", "S S 70 80 S* 60 60 S S 90* 100 S S 70* 70 80 S S* S 80* 90 S S 100 S 70 80 S S 80 90 S S* S S S"),
    // The coast road: two four-tile turns that punish a big reservoir.
    ("corniche", "S S 60 70 80 90* S S S* 100 90 80 70 S S 80* S S 70* 60 S S S 100 S 80 80 S S* S 90 70 S S* S S"),
    // City streets: a limit every other tile.
    ("monaco", "S S* 70 S 80 S 90* S 60 S 100 S 70 S 80* S 70* S 60 S S* 90 S 80 S 100 80 80 S 70 S 90 S S* S S"),
];

/// The largest circuit file a laptop reads: a circuit is a few hundred bytes.
pub const MAX_FILE: u64 = 16 * 1024;

/// How a table asks for a circuit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CircuitChoice {
    /// A named preset.
    Preset(String),
    /// A random valid layout from this seed.
    Seed(u64),
    /// An explicit layout in the text notation.
    Tiles(String),
    /// A custom layout file in the text notation.
    File(PathBuf),
}

#[derive(Debug, Error)]
pub enum CircuitLoadError {
    #[error("no preset circuit named `{0}`; say cannes, corniche, monaco, random:SEED, or the 36 tiles")]
    UnknownPreset(String),
    #[error("the circuit setting is too long: a preset, random:SEED or 36 tiles")]
    TooLong,
    #[error("`random:{0}`: the seed must be a whole number from 0 to 18446744073709551615")]
    BadSeed(String),
    #[error("circuit file {0}: read it first (the protocol reads no files)")]
    NotRead(PathBuf),
    #[error("cannot read circuit file {path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
    #[error("circuit file {path}: {error}")]
    InvalidFile { path: PathBuf, error: CircuitError },
    #[error(transparent)]
    Invalid(#[from] CircuitError),
}

impl CircuitChoice {
    /// The circuit, for every choice but a file: this crate does no I/O, and the host reads
    /// a file (`bolide_host::files::read_circuit`) before it gets here.
    pub fn load(&self) -> Result<Circuit, CircuitLoadError> {
        match self {
            CircuitChoice::Preset(name) => preset(name),
            CircuitChoice::Seed(seed) => Ok(random(*seed)),
            CircuitChoice::Tiles(text) => Ok(Circuit::parse(text)?),
            CircuitChoice::File(path) => Err(CircuitLoadError::NotRead(path.clone())),
        }
    }

    /// Parses a setting that came over the wire (or from the lobby): a preset name,
    /// `random:SEED`, or the tiles themselves. Never a file: the wire names no files.
    pub fn from_setting(text: &str) -> Result<CircuitChoice, CircuitLoadError> {
        let text = text.trim();
        if let Some(seed) = text.strip_prefix("random:") {
            return seed.parse().map(CircuitChoice::Seed).map_err(|_| CircuitLoadError::BadSeed(seed.to_string()));
        }
        if PRESETS.iter().any(|(name, _)| *name == text) {
            return Ok(CircuitChoice::Preset(text.to_string()));
        }
        if text.contains(char::is_whitespace) {
            return Ok(CircuitChoice::Tiles(text.to_string()));
        }
        Err(CircuitLoadError::UnknownPreset(text.chars().take(32).collect()))
    }

    /// Parses a command-line form: a preset name, `random:SEED`, or a file path.
    pub fn from_arg(arg: &str) -> CircuitChoice {
        if let Some(seed) = arg.strip_prefix("random:").and_then(|s| s.parse().ok()) {
            CircuitChoice::Seed(seed)
        } else if PRESETS.iter().any(|(name, _)| *name == arg) {
            CircuitChoice::Preset(arg.to_string())
        } else {
            CircuitChoice::File(arg.into())
        }
    }
}

pub fn preset(name: &str) -> Result<Circuit, CircuitLoadError> {
    let (_, text) =
        PRESETS.iter().find(|(n, _)| *n == name).ok_or_else(|| CircuitLoadError::UnknownPreset(name.to_string()))?;
    Ok(Circuit::parse(text)?)
}

/// A random valid layout: the whole tile set shuffled until it passes B-2.5. Rejection keeps
/// every valid layout equally likely; about one shuffle in seven passes, so this is quick.
pub fn random(seed: u64) -> Circuit {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tiles: Vec<Tile> = TILE_SET.iter().flat_map(|&(tile, n)| std::iter::repeat_n(tile, n)).collect();
    loop {
        for i in (1..tiles.len()).rev() {
            let j = rng.random_range(0..=i);
            tiles.swap(i, j);
        }
        if let Ok(circuit) = Circuit::new(&tiles) {
            return circuit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b_2_5_every_preset_is_valid() {
        for (name, _) in PRESETS {
            preset(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(matches!(preset("nurburgring"), Err(CircuitLoadError::UnknownPreset(_))));
    }

    #[test]
    fn b_2_5_random_layouts_are_valid_and_seeded() {
        for seed in 0..200 {
            assert_eq!(random(seed), random(seed));
        }
        assert_ne!(random(1), random(2));
    }

    #[test]
    fn choice_from_arg() {
        assert_eq!(CircuitChoice::from_arg("monaco"), CircuitChoice::Preset("monaco".into()));
        assert_eq!(CircuitChoice::from_arg("random:7"), CircuitChoice::Seed(7));
        assert_eq!(CircuitChoice::from_arg("my.txt"), CircuitChoice::File("my.txt".into()));
    }
}
