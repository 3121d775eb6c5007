//! Bolide's provably fair dice, checked from a host's journal ([`journal`]; `bolide-host
//! verify` reads any game's journal through its entry in `crate::games`). The championship is replayed action by action from the seed the journal
//! holds, every draw it makes is recorded as a client records what it is shown ([`DiceLog`]),
//! and the whole log is checked against the seed and the commitment — the same check the
//! window makes at the end of a championship with what it saw.

use bolide::dice::{DiceLog, DiceMismatch, DiceReport};
use bolide::game::{Championship, Phase, Standing};
use bolide_table::journal::{ReplayError, replay};
use bolide_table::seal::{Commitment, SeedReveal};
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
    Replay(#[from] ReplayError),
    #[error(transparent)]
    Journal(#[from] bolide_table::journal::ResumeError),
    /// Says itself that the dice do not match, and where.
    #[error(transparent)]
    Dice(#[from] DiceMismatch),
}

/// Replays a journal and checks every draw against its seed and, when given, against the
/// commitment a lobby showed (`expected`).
pub fn journal(text: &str, expected: Option<Commitment>) -> Result<Verified, VerifyError> {
    let mut log = DiceLog::default();
    let mut actions = 0;
    let (champ, start) = replay::<Championship>(text, |champ, events| {
        log.record(events);
        log.at(&champ.spectator_view());
        actions += 1;
    })?;
    actions -= 1; // the opening events are not an action
    let (seed, nonce, luck, pilots) = (start.seed, start.nonce, start.luck, start.names.len() as u8);
    let first_player = start.lobby.options.first_player;
    let reveal = SeedReveal { seed, nonce, luck };
    let report = log.check(expected.unwrap_or(reveal.commitment()), &reveal, pilots, first_player)?;
    Ok(Verified {
        commitment: reveal.commitment(),
        seed,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bolide::JournalEntry;
    use crate::room::JournalSeat;
    use bolide::options::Settings;
    use bolide::{Colour, Event, TableOptions};
    use bolide_table::seal::Luck;
    use bolide_table::{BotLevel, Game, Step};
    use rand::SeedableRng;

    /// A whole championship of bots, written as the host journals it.
    fn journal_of_a_championship(seed: u64) -> String {
        let options = TableOptions { races: 1, ..TableOptions::default() };
        let race = bolide::options::RaceSettings { options, circuit: "cannes".into() };
        let mut champ = Championship::start(&race, 3, seed, &mut Vec::new()).unwrap();
        let names = ["Anne", "Bob", "Chloé"];
        let seats = names
            .iter()
            .zip(Colour::ALL)
            .map(|(n, colour)| JournalSeat { name: n.to_string(), colour, token: None, bot: None })
            .collect();
        let settings = Settings { options, circuit: "cannes".into(), bots: 0, bot_level: Default::default() };
        let mut lines = vec![JournalEntry::Started {
            game: "bolide".into(),
            code: "GARE".into(),
            settings,
            seed,
            nonce: [0; 32],
            luck: Luck::default(),
            seats,
        }];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        for _ in 0..10_000 {
            let mut events = Vec::<Event>::new();
            match champ.step() {
                Step::Over => break,
                Step::Countdown { .. } => {
                    champ.time_is_up(&mut events).unwrap();
                    lines.push(JournalEntry::TimeUp);
                }
                Step::Sequential { seats } | Step::Timed { contenders: seats, .. } => {
                    let seat = seats.iter().next().unwrap();
                    let action = champ.bot(seat, BotLevel::Random, &mut rng, &mut scratch).unwrap();
                    Game::apply(&mut champ, seat, action, &mut events).unwrap();
                    lines.push(JournalEntry::Applied { seat, action });
                }
            }
        }
        assert!(champ.is_over());
        lines.iter().map(JournalEntry::to_line).collect()
    }

    #[test]
    fn a_journal_is_narrated_in_either_language_to_its_standings() {
        let text = journal_of_a_championship(4);
        let narrate = crate::games::narrate;
        let en = narrate(&text, &bolide_words::lang::EN).unwrap();
        assert!(en.contains("Race 1! ") && en.contains("The cup is lifted!"), "{en}");
        assert!(en.contains("Championship over:") && en.contains("1. "), "the standings close it");
        assert!(en.lines().any(|l| l.starts_with("circuit")), "the board after each round");
        let fr = narrate(&text, &bolide_words::lang::FR).unwrap();
        assert!(fr.contains("Course 1 ! ") && fr.contains("Le gobelet est levé !"));
        // The same journal still verifies: one replay serves both.
        assert!(journal(&text, None).unwrap().over);
        assert!(narrate("not a journal", &bolide_words::lang::EN).is_err());
    }
}
