//! The journal of a night at the table, for every game: what a crashed host needs to continue with nothing completed
//! lost. One JSON line per entry: the start (settings, seed and nonce, seats and their tokens),
//! then every applied action and every end of a countdown. The game is deterministic from its
//! settings and seed (a circuit file was read into the settings' notation before the start), so
//! replaying the entries rebuilds the exact state. The network layer appends and fsyncs each entry before it sends
//! anything that depends on it (write-ahead).

use crate::colour::Colour;
use crate::seal::{Commitment, Luck, SeedReveal};
use crate::wire::SeatToken;
use crate::{BotLevel, Game, Lobby, LobbyOf, Seat, Standing, Words};
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

/// Why a journal does not replay.
#[derive(Debug, Error)]
pub enum ReplayError {
    #[error(transparent)]
    Journal(#[from] ResumeError),
    #[error("journal line 1: the game cannot be set up again ({0})")]
    Setup(String),
    #[error("journal line {line}: the engine refuses this action on replay ({error}): the journal was changed")]
    Replay { line: usize, error: String },
    #[error("journal line {line}: a second start; the journal is damaged")]
    SecondStart { line: usize },
}

/// What a journal's first line set up.
pub struct JournalStart<L> {
    /// The host's committed seed, and the laptops' parts the game's was mixed from.
    pub seed: u64,
    pub nonce: [u8; 32],
    pub luck: Luck,
    /// The players' names and colours, by seat.
    pub names: Vec<String>,
    pub colours: Vec<Colour>,
    /// The lobby's settings.
    pub lobby: L,
}

/// Replays a journal of a game of `G` through its engine: `step` sees the game and each step's
/// events (the opening first, then one call per journaled action). Returns the game as the
/// journal leaves it. The one replay the host's `verify` and `replay` and the window's replays share, for every game.
pub fn replay<G: Game>(
    text: &str,
    mut step: impl FnMut(&G, &[G::Event]),
) -> Result<(G, JournalStart<LobbyOf<G>>), ReplayError> {
    let asked = <G::Words as Words>::NAME;
    // Named first: another game's settings would not even parse.
    if let Some(game) = game_of(text).filter(|g| !g.is_empty() && g != asked) {
        return Err(ResumeError::OtherGame { journal: game, asked: asked.into() }.into());
    }
    let entries = JournalEntryOf::<G::Words>::parse_all(text)?;
    let mut entries = entries.iter();
    let Some(JournalEntryOf::Started { game, settings, seed, nonce, luck, seats, .. }) = entries.next() else {
        return Err(ResumeError::NotStarted.into());
    };
    if !game.is_empty() && game != asked {
        return Err(ResumeError::OtherGame { journal: game.clone(), asked: asked.into() }.into());
    }
    let players = u8::try_from(seats.len()).map_err(|_| ReplayError::Setup("too many seats".into()))?;
    let mut opening = Vec::new();
    let mut state =
        G::start(&settings.game(), players, luck.seed_with(*seed), &mut opening).map_err(ReplayError::Setup)?;
    step(&state, &opening);
    let mut entries = entries.enumerate().peekable();
    while let Some((i, entry)) = entries.next() {
        let line = i + 2;
        let mut events = Vec::new();
        let replayed = match entry {
            JournalEntryOf::Applied { seat, action } => state.apply(*seat, *action, &mut events),
            JournalEntryOf::TimeUp => state.time_is_up(&mut events),
            // Published with nothing before it to follow: shown on its own.
            JournalEntryOf::Published { event } => {
                events.push(event.clone());
                Ok(())
            }
            JournalEntryOf::Started { .. } => return Err(ReplayError::SecondStart { line }),
        };
        replayed.map_err(|error| ReplayError::Replay { line, error: error.to_string() })?;
        // What the table published of the moment this entry ended joins its events, as it
        // joined the pilots' update.
        while let Some((_, JournalEntryOf::Published { event })) = entries.peek() {
            events.push(event.clone());
            entries.next();
        }
        step(&state, &events);
    }
    let start = JournalStart {
        seed: *seed,
        nonce: *nonce,
        luck: luck.clone(),
        names: seats.iter().map(|s| s.name.clone()).collect(),
        colours: seats.iter().map(|s| s.colour).collect(),
        lobby: settings.clone(),
    };
    Ok((state, start))
}

/// What a journal of any game proves without its game's own checks: it replays, to these
/// standings, from the seed its commitment binds.
#[derive(Debug, Clone)]
pub struct Replayed {
    pub commitment: Commitment,
    pub seed: u64,
    pub actions: usize,
    pub over: bool,
    /// The standings the journal gives, best first (`None`: not over).
    pub standings: Option<Vec<Standing>>,
}

/// Replays a journal of a game of `G` ([`replay`]) and reads its standings.
pub fn replay_game<G: Game>(text: &str) -> Result<Replayed, ReplayError> {
    let mut actions = 0usize;
    let (state, start) = replay::<G>(text, |_, _| actions += 1)?;
    let standings = state.standings();
    Ok(Replayed {
        commitment: SeedReveal { seed: start.seed, nonce: start.nonce, luck: start.luck }.commitment(),
        seed: start.seed,
        actions: actions.saturating_sub(1),
        over: standings.is_some(),
        standings,
    })
}
