//! The championship journal: what a crashed host needs to continue with nothing completed
//! lost. One JSON line per entry: the start (settings, seed and nonce, seats and their tokens),
//! then every applied action and every end of a countdown. The game is deterministic from its
//! settings and seed (a circuit file was read into the settings' notation before the start), so
//! replaying the entries rebuilds the exact state. The network layer appends and fsyncs each entry before it sends
//! anything that depends on it (write-ahead).

use bolide_table::BotLevel;
use bolide_table::colour::Colour;
use bolide_table::seal::Luck;
use bolide_table::wire::SeatToken;
use bolide_table::{Seat, Words};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// An entry of the journal of a game whose words are `W`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum JournalEntryOf<W: Words> {
    Started {
        /// The game's name (`Words::NAME`); empty in journals from before a table served more
        /// than one game (they are Bolide's).
        #[serde(default)]
        game: String,
        code: String,
        settings: W::Lobby,
        seed: u64,
        /// The nonce of the seed's commitment (absent in journals from before it existed).
        #[serde(default)]
        nonce: [u8; 32],
        /// The laptops' parts the game's seed was mixed from (`dice::Luck`; absent in journals
        /// from before parts existed: the host's seed as it is).
        #[serde(default)]
        luck: Luck,
        seats: Vec<JournalSeat>,
    },
    Applied {
        seat: Seat,
        action: W::Action,
    },
    /// The countdown ended (Bolide's lift), or a timed moment that ends with its time: the
    /// table's clock told the game (`Game::time_is_up`).
    TimeUp,
    /// What the table published when a timed moment ended (the game's photo finish: each
    /// reaction the host judged). Not the engine's: a resume skips it; a replay shows it where
    /// the pilots saw it, after the entry before it.
    Published {
        event: W::Event,
    },
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
    #[error("the journal is a game of {journal}, not of {asked}: resume it as {journal}")]
    OtherGame { journal: String, asked: String },
    #[error("journal line {line}: replaying it was refused ({error}); the journal does not match this version")]
    Replay { line: usize, error: String },
    #[error(
        "journal line {line} is damaged (its checksum does not match): the file was changed or the disk failed; nothing was replayed"
    )]
    Damaged { line: usize },
    #[error("journal line {line}: {error}")]
    Parse { line: usize, error: String },
}

impl<W: Words> JournalEntryOf<W> {
    /// The entry as every player of the night may keep it: the room code (its word still opens
    /// the room) and the seat tokens (a seat's key) left out.
    pub fn public(&self) -> Self {
        match self {
            JournalEntryOf::Started { game, settings, seed, nonce, luck, seats, .. } => JournalEntryOf::Started {
                game: game.clone(),
                code: String::new(),
                settings: settings.clone(),
                seed: *seed,
                nonce: *nonce,
                luck: luck.clone(),
                seats: seats.iter().map(|s| JournalSeat { token: None, ..s.clone() }).collect(),
            },
            other => other.clone(),
        }
    }

    /// One line: the entry as JSON, a tab, and a checksum of the JSON (the first 64 bits of
    /// its SHA-256, in hex), so a damaged line is found, never replayed.
    pub fn to_line(&self) -> String {
        // Plain data: serialising it cannot fail (no maps with non-string keys, no floats).
        let json = serde_json::to_string(self).unwrap_or_default();
        format!("{json}\t{}\n", checksum(&json))
    }

    /// Parses a journal. A torn last line (the crash came mid-write, before its newline) is
    /// dropped: it was never acknowledged, so nothing that depended on it was sent. Any other
    /// damage — a checksum that does not match, a line that does not parse — is an error
    /// with its line number.
    pub fn parse_all(text: &str) -> Result<Vec<JournalEntryOf<W>>, ResumeError> {
        let complete = &text[..complete_len(text)];
        complete
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                let line = i + 1;
                let (json, sum) = l.rsplit_once('\t').ok_or(ResumeError::Damaged { line })?;
                if sum != checksum(json) {
                    return Err(ResumeError::Damaged { line });
                }
                serde_json::from_str(json).map_err(|e| ResumeError::Parse { line, error: e.to_string() })
            })
            .collect()
    }
}

/// The game a journal's first line names (`Started`'s `game`: empty in journals from before a
/// table served more than one game); `None` when it starts with no game at all.
pub fn game_of(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    enum First {
        Started {
            #[serde(default)]
            game: String,
        },
    }
    let line = text[..complete_len(text)].lines().find(|l| !l.trim().is_empty())?;
    let (json, _) = line.rsplit_once('\t')?;
    match serde_json::from_str::<First>(json).ok()? {
        First::Started { game } => Some(game),
    }
}

/// The length of a journal's complete lines: what is left once a torn last line is cut.
/// `--resume` truncates the file to it before appending, so a fragment is never followed by
/// a new line (which would make the file unreadable at the next resume).
pub fn complete_len(text: &str) -> usize {
    text.rfind('\n').map_or(0, |i| i + 1)
}

fn checksum(json: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(json.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide::{Action, Seat};

    type JournalEntry = JournalEntryOf<bolide::Bolide>;

    fn journal() -> String {
        (0..3).map(|i| JournalEntry::Applied { seat: Seat(i), action: Action::Roll }.to_line()).collect()
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_cut() {
        let mut text = journal();
        let whole = text.len();
        text.push_str(&JournalEntry::Applied { seat: Seat(1), action: Action::EndTurn }.to_line()[..20]);
        assert_eq!(JournalEntry::parse_all(&text).unwrap().len(), 3);
        assert_eq!(complete_len(&text), whole);
    }

    #[test]
    fn every_flipped_byte_is_reported_with_its_line() {
        let text = journal();
        let second = text.find('\n').unwrap() + 1;
        let third = second + text[second..].find('\n').unwrap() + 1;
        for at in second..third - 1 {
            let mut bytes = text.clone().into_bytes();
            bytes[at] ^= 0x04;
            let Ok(damaged) = String::from_utf8(bytes) else { continue };
            match JournalEntry::parse_all(&damaged) {
                Err(ResumeError::Damaged { line: 2 }) | Err(ResumeError::Parse { line: 2, .. }) => {}
                other => panic!("byte {at} flipped: {other:?}"),
            }
        }
    }
}
