//! `bolide-host verify JOURNAL`: the provably fair dice, checked from a host's journal. The
//! championship is replayed action by action from the seed the journal holds, every draw it
//! makes is recorded as a client records what it is shown ([`DiceLog`]), and the whole log
//! is checked against the seed and the commitment — the same check the window makes at the
//! end of a championship with what it saw.

use crate::game::{Championship, ChampionshipSetup, Phase, Standing};
use crate::room::{JournalEntry, ResumeError};
use bolide_protocol::RuleError;
use bolide_protocol::dice::{Commitment, DiceLog, DiceMismatch, DiceReport, SeedReveal};
use thiserror::Error;

/// What a journal proved.
#[derive(Debug, Clone)]
pub struct Verified {
    pub commitment: Commitment,
    pub seed: u64,
    pub races: u8,
    pub actions: usize,
    /// Whether the championship ended (only then have the pilots been shown the seed).
    pub over: bool,
    /// Where the journal leaves the championship: race, round and phase.
    pub at: (u8, u16, Phase),
    /// The standings the journal gives (B-7.3), best first.
    pub standings: Vec<Standing>,
    pub report: DiceReport,
}

#[derive(Debug, Error)]
pub enum VerifyError {
    #[error(transparent)]
    Journal(#[from] ResumeError),
    #[error("journal line 1: the championship cannot be set up again ({0})")]
    Setup(String),
    #[error("journal line {line}: the engine refuses this action on replay ({error}): the journal was changed")]
    Replay { line: usize, error: RuleError },
    #[error("journal line {line}: a second start; the journal is damaged")]
    SecondStart { line: usize },
    /// Says itself that the dice do not match, and where.
    #[error(transparent)]
    Dice(#[from] DiceMismatch),
}

/// Replays a journal and checks every draw against its seed and, when given, against the
/// commitment a lobby showed (`expected`).
pub fn journal(text: &str, expected: Option<Commitment>) -> Result<Verified, VerifyError> {
    let entries = JournalEntry::parse_all(text)?;
    let mut entries = entries.iter();
    let Some(JournalEntry::Started { settings, seed, nonce, circuits, seats, .. }) = entries.next() else {
        return Err(ResumeError::NotStarted.into());
    };
    let pilots = seats.len() as u8;
    let (mut champ, opening) = Championship::new(ChampionshipSetup {
        pilots,
        options: settings.options,
        circuits: circuits.clone(),
        seed: *seed,
        first_race_bonuses: None,
    })
    .map_err(|e| VerifyError::Setup(e.to_string()))?;
    let mut log = DiceLog::default();
    log.record(&opening);
    log.at(&champ.spectator_view());
    let mut actions = 0;
    for (i, entry) in entries.enumerate() {
        let line = i + 2;
        let JournalEntry::Applied { seat, action } = entry else { return Err(VerifyError::SecondStart { line }) };
        let events = champ.apply(*seat, *action).map_err(|error| VerifyError::Replay { line, error })?;
        log.record(&events);
        log.at(&champ.spectator_view());
        actions += 1;
    }
    let reveal = SeedReveal { seed: *seed, nonce: *nonce };
    let report = log.check(expected.unwrap_or(reveal.commitment()), reveal, pilots, settings.options.first_player)?;
    Ok(Verified {
        commitment: reveal.commitment(),
        seed: *seed,
        races: champ.race().race_no(),
        actions,
        over: champ.is_over(),
        at: (champ.race().race_no(), champ.race().round(), champ.race().phase()),
        standings: champ.standings(),
        report,
    })
}

/// Parses a commitment written as 64 hex digits.
pub fn parse_commitment(text: &str) -> Option<Commitment> {
    let text = text.trim();
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; 32];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(Commitment(bytes))
}
