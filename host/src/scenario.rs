//! `bolide-host scenario FILE`: a set-up of a game's rules run through its engine — the game
//! the file's `"game"` field names, the registry's first (Bolide) when it names none. The
//! format is documented in `docs/scenario-format.md`; each game's runner is in its crate
//! (`bolide::scenario`, `mille_bornes::scenario`, `entenrallye::scenario`), which reads no
//! file: a circuit file a Bolide scenario names is read here.

use crate::games::{Registry, ScenarioReport};
use anyhow::Context;
use bolide::circuits::CircuitChoice;
pub use bolide::scenario::{RunReport, Scenario};
use std::path::Path;
use thiserror::Error;

/// Runs the scenario `text` of the game it names; `base` resolves a relative file it names.
pub fn run_any_text(text: &str, base: Option<&Path>) -> anyhow::Result<ScenarioReport> {
    let mut json: serde_json::Value = serde_json::from_str(text).context("invalid scenario")?;
    let registry = Registry::standard();
    let game = match json.as_object_mut().and_then(|o| o.remove("game")) {
        None => registry.first()?,
        Some(serde_json::Value::String(name)) => registry.get(&name).context("`game`")?,
        Some(other) => anyhow::bail!("`game`: a game's name, not {other}"),
    };
    (game.scenario)(json, base)
}

#[derive(Debug, Error)]
pub enum ScenarioError {
    #[error("invalid scenario")]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Bolide(#[from] bolide::scenario::ScenarioError),
}

/// A Bolide scenario from its text; `base` resolves a relative circuit file.
pub fn run_text(text: &str, base: Option<&Path>) -> Result<RunReport, ScenarioError> {
    run_bolide(serde_json::from_str(text)?, base)
}

/// Runs a Bolide scenario, a circuit file it names read first and handed on as its tiles.
pub(crate) fn run_bolide(mut scenario: Scenario, base: Option<&Path>) -> Result<RunReport, ScenarioError> {
    if let CircuitChoice::File(path) = &scenario.circuit {
        let path = match base {
            Some(base) if path.is_relative() => base.join(path),
            _ => path.clone(),
        };
        let circuit = crate::files::read_circuit(&path).map_err(bolide::scenario::ScenarioError::from)?;
        scenario.circuit = CircuitChoice::Tiles(circuit.to_string());
    }
    Ok(bolide::scenario::run(&scenario)?)
}
