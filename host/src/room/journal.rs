//! The championship journal: what a crashed host needs to continue with nothing completed
//! lost. One JSON line per entry: the start (settings, seed, circuits, seats and their
//! tokens), then every applied action. The engine is deterministic, so replaying the actions
//! rebuilds the exact state. The network layer appends and fsyncs each entry before it sends
//! anything that depends on it (write-ahead).

use crate::bots::BotLevel;
use bolide_protocol::wire::{SeatToken, Settings};
use bolide_protocol::{Action, Circuit, Colour, RuleError, Seat};
use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum JournalEntry {
    Started { code: String, settings: Settings, seed: u64, circuits: Vec<Circuit>, seats: Vec<JournalSeat> },
    Applied { seat: Seat, action: Action },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalSeat {
    pub name: String,
    pub colour: Colour,
    pub token: Option<SeatToken>,
    pub bot: Option<BotLevel>,
}

#[derive(Debug, Error)]
pub enum ResumeError {
    #[error("the journal holds no started championship: nothing to resume (start without --resume)")]
    NotStarted,
    #[error("journal line {0}: a second start; the journal is damaged")]
    Entry(usize),
    #[error("journal: {0}")]
    Setup(String),
    #[error("journal line {line}: replaying it was refused ({error}); the journal does not match this version")]
    Replay { line: usize, error: RuleError },
    #[error("journal line {line}: {error}")]
    Parse { line: usize, error: String },
}

impl JournalEntry {
    pub fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("journal entries serialise");
        line.push('\n');
        line
    }

    /// Parses a journal. A torn last line (the crash came mid-write) is dropped: it was never
    /// acknowledged, so nothing that depended on it was sent.
    pub fn parse_all(text: &str) -> Result<Vec<JournalEntry>, ResumeError> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let complete = if text.ends_with('\n') { lines.len() } else { lines.len().saturating_sub(1) };
        lines[..complete]
            .iter()
            .enumerate()
            .map(|(i, l)| serde_json::from_str(l).map_err(|e| ResumeError::Parse { line: i + 1, error: e.to_string() }))
            .collect()
    }
}
