//! The games this host serves — the host's one list of them, [`Registry::standard`].
//!
//! `serve` (its room, the games a lobby may switch to, a field run), `verify`, `replay`,
//! `scenario`, `simulate`, the lab and the load benchmark find a game here by its name. What a
//! game needs of the host beyond the table's [`Game`] is its [`Served`] file beside this one;
//! the rest of the host knows no game.

pub mod bolide;
pub mod entenrallye;
pub mod mille_bornes;

use crate::field::{FieldReport, HostLog};
use crate::flags::{Opening, ServeArgs};
use crate::net::server::FairLog;
use crate::net::{Games, Journal, Server};
use crate::room::{FairRecord, FieldRecord, JournalEntryOf, LobbyOf};
use bolide_table::seal::Commitment;
use bolide_table::{BotLevel, Game, Seat, Words};
use bolide_words::lang::Words as Lang;
use std::path::Path;

/// What a game needs of the host beyond the table's [`Game`]: its lobby from the command
/// line, its narration, its proof, its scenarios and its simulation.
pub trait Served: Game {
    /// Whether the game has timed moments: a field run and the lab judge only those.
    const TIMED: bool;

    /// The lobby the table opens with when it serves this game, from the flags.
    fn lobby(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>>;

    /// The lobby a switch to this game opens with while the table serves another: the game's
    /// own defaults and the table's bots, as many as the game seats.
    fn lobby_for_switch(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>>;

    /// Whether two timed requests of one moment compete (a field run scores their order), and
    /// what the moment is called in the report.
    fn contested(_a: &Self::Action, _b: &Self::Action) -> Option<&'static str> {
        None
    }

    /// A journal narrated in `w`'s words: every event, then the standings.
    fn narrate(text: &str, w: &Lang) -> anyhow::Result<String>;

    /// What a journal proves: it replays to its end from its seed, and the seed matches its
    /// commitment (and `expected`, a commitment a lobby showed). A game with more to check
    /// (Bolide's every die) says so.
    fn verify(text: &str, expected: Option<Commitment>) -> anyhow::Result<Verdict> {
        verify_replay::<Self>(text, expected)
    }

    /// `simulate`: bot games and their figures, as JSON.
    fn simulate(ask: &SimulateAsk) -> anyhow::Result<serde_json::Value>;

    /// `scenario`: a set-up of the game's rules run through its engine, `base` the folder a
    /// file it names is read from.
    fn scenario(_json: serde_json::Value, _base: Option<&Path>) -> anyhow::Result<ScenarioReport> {
        anyhow::bail!("{} has no scenario format yet", Self::name())
    }

    /// The game's name on the command line, in the advert and in journals.
    fn name() -> &'static str {
        <Self::Words as Words>::NAME
    }
}

/// What `verify` found: the lines it prints, and whether everything held.
#[derive(Debug, Clone, Default)]
pub struct Verdict {
    pub lines: Vec<String>,
    pub holds: bool,
}

/// `simulate`'s request: the flags every game reads its own from.
#[derive(Debug, Clone)]
pub struct SimulateAsk {
    pub players: u8,
    pub seed: u64,
    /// Bolide: races of bots whose levels rotate over the seats.
    pub races: u32,
    pub levels: Vec<BotLevel>,
    /// Whole games (1000 Bornes, Entenrallye).
    pub games: u32,
    /// 1000 Bornes: hands of random-legal bots instead, for the engine's speed.
    pub hands: Option<u32>,
}

/// A scenario's run: its output as JSON, and why it failed, if it did.
pub struct ScenarioReport {
    pub output: serde_json::Value,
    pub failure: Option<String>,
}

/// A field run scored from the host's log, the laptops' records and the seats expected.
type ScoreField = fn(&FairLog, &[FieldRecord], &[(Seat, String)]) -> FieldReport;

/// One game as the host serves it: what each tool calls, typed for that game once.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    /// Its name on the box.
    pub title: &'static str,
    /// The fewest and most seats.
    pub players: (u8, u8),
    pub timed: bool,
    open: fn(&Server, &ServeArgs, Opening) -> anyhow::Result<String>,
    add_room: fn(&Server, &ServeArgs, &str, Journal) -> anyhow::Result<String>,
    switch_to: fn(Games, &ServeArgs, bool) -> anyhow::Result<Games>,
    pub narrate: fn(&str, &Lang) -> anyhow::Result<String>,
    pub verify: fn(&str, Option<Commitment>) -> anyhow::Result<Verdict>,
    pub simulate: fn(&SimulateAsk) -> anyhow::Result<serde_json::Value>,
    pub scenario: fn(serde_json::Value, Option<&Path>) -> anyhow::Result<ScenarioReport>,
    check_players: fn(u8) -> Result<(), String>,
    field_seats: fn(&FairLog) -> Vec<Seat>,
    field_report: ScoreField,
}

impl Entry {
    /// The entry of `G`.
    pub fn of<G: Served>() -> Entry {
        Entry {
            name: G::name(),
            title: <G::Words as Words>::TITLE,
            players: G::PLAYERS,
            timed: G::TIMED,
            open: |server, args, opening| crate::flags::open_room::<G>(server, args, G::lobby(args)?, opening),
            add_room: |server, args, word, journal| {
                server.add_room::<G>(crate::flags::table_config(args, word, G::lobby(args)?)?, journal, None)
            },
            switch_to: |games, args, served| {
                let lobby = if served { G::lobby(args)? } else { G::lobby_for_switch(args)? };
                let args = args.clone();
                Ok(games.with::<G>(move |word| crate::flags::table_config(&args, word, lobby.clone())))
            },
            narrate: G::narrate,
            verify: G::verify,
            simulate: G::simulate,
            scenario: G::scenario,
            check_players: |players| G::check_settings(&Default::default(), players),
            field_seats: |log| timed_seats(&log.records::<G::Action>()),
            field_report: |log, handed, expected| {
                let (records, calls) = (log.records::<G::Action>(), log.call_orders());
                let host_log = HostLog { records: &records, calls: &calls };
                crate::field::report(G::name(), host_log, handed, expected, G::contested)
            },
        }
    }

    /// Opens this game's room on `server` from the table's flags; returns its code.
    pub fn open(&self, server: &Server, args: &ServeArgs, opening: Opening) -> anyhow::Result<String> {
        (self.open)(server, args, opening)
    }

    /// Whether a table of the game's default settings seats `players`; the rule that says how
    /// many it seats, if not.
    pub fn check_players(&self, players: u8) -> Result<(), String> {
        (self.check_players)(players)
    }

    /// Opens one more room of this game on `server`, its lobby and timers from the table's
    /// flags, with the code word `word` and `journal` (the load benchmark's many rooms; `serve`
    /// opens its one through [`Entry::open`], which also resumes and checks a word people type).
    pub fn add_room(&self, server: &Server, args: &ServeArgs, word: &str, journal: Journal) -> anyhow::Result<String> {
        (self.add_room)(server, args, word, journal)
    }

    /// The seats whose laptops made timed requests (a field run waits for their records).
    pub fn field_seats(&self, log: &FairLog) -> Vec<Seat> {
        (self.field_seats)(log)
    }

    /// A field run scored: the host's verdicts against what the laptops handed in.
    pub fn field_report(&self, log: &FairLog, handed: &[FieldRecord], expected: &[(Seat, String)]) -> FieldReport {
        (self.field_report)(log, handed, expected)
    }
}

/// The games a host serves, in the order a window lists them.
#[derive(Clone, Default)]
pub struct Registry(Vec<Entry>);

impl Registry {
    /// Every game of this house: the one list. A new game is one line here.
    pub fn standard() -> Registry {
        Registry::default()
            .with::<::bolide::game::Championship>()
            .with::<::mille_bornes::Partie>()
            .with::<::entenrallye::Rallye>()
    }

    /// Serves `G` too.
    pub fn with<G: Served>(mut self) -> Registry {
        self.0.retain(|e| e.name != G::name());
        self.0.push(Entry::of::<G>());
        self
    }

    /// The game called `name`, or an error that names the games there are.
    pub fn get(&self, name: &str) -> anyhow::Result<&Entry> {
        self.0
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| anyhow::anyhow!("`{name}` is not a game here: {}", self.names().join(", ")))
    }

    /// The first game: what a table serves when nobody says which.
    pub fn first(&self) -> anyhow::Result<&Entry> {
        self.0.first().ok_or_else(|| anyhow::anyhow!("this host serves no game"))
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|e| e.name).collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.0.iter()
    }

    /// The game a journal is a game of (a journal from before a table served more than one
    /// game names none: it is the first game's).
    pub fn of_journal(&self, text: &str) -> anyhow::Result<&Entry> {
        match crate::room::game_of(text) {
            Some(name) if name.is_empty() => self.first(),
            Some(name) => self.get(&name),
            None => anyhow::bail!("the journal holds no started game"),
        }
    }

    /// Every game this table may switch to (`ChooseGame`): `served` with its lobby from the
    /// flags, the others with their own defaults and the table's bots.
    pub fn switchable(&self, args: &ServeArgs, served: &str) -> anyhow::Result<Games> {
        self.0.iter().try_fold(Games::default(), |games, e| (e.switch_to)(games, args, e.name == served))
    }
}

/// `bolide-host replay JOURNAL`: the game a journal holds, narrated by its game as the
/// window's log narrates it, then the standings — in `w`'s language.
pub fn narrate(text: &str, w: &Lang) -> anyhow::Result<String> {
    (Registry::standard().of_journal(text)?.narrate)(text, w)
}

/// Seats whose laptops made timed requests (a person's or a bot's on another laptop, never the
/// host's own bots).
fn timed_seats<A>(records: &[FairRecord<A>]) -> Vec<Seat> {
    let mut seats: Vec<Seat> = records.iter().filter(|r| r.timed).map(|r| r.seat).collect();
    seats.sort();
    seats.dedup();
    seats
}

/// `verify` for a game whose journal proves its replay and its seed's commitment.
pub fn verify_replay<G: Game>(text: &str, expected: Option<Commitment>) -> anyhow::Result<Verdict> {
    let replayed = bolide_table::journal::replay_game::<G>(text)?;
    let mut lines = vec![format!("commitment {}", replayed.commitment), format!("seed       {}", replayed.seed)];
    if expected.is_some_and(|c| c != replayed.commitment) {
        lines.push("seed       DOES NOT MATCH the commitment given".into());
        return Ok(Verdict { lines, holds: false });
    }
    let over = if replayed.over { ", game over" } else { " (not over)" };
    lines.push(format!("replayed   {} actions{over}", replayed.actions));
    let mut standings = replayed.standings.unwrap_or_default();
    standings.sort_by_key(|l| (l.rank, l.seat.0));
    for line in &standings {
        lines.push(format!(
            "standing   {}. seat {}: {} points, {} wins",
            line.rank, line.seat.0, line.points, line.wins
        ));
    }
    Ok(Verdict { lines, holds: true })
}

/// The names of the seats, as the journal's start wrote them.
pub fn seat_names<W: Words>(text: &str) -> anyhow::Result<Vec<String>> {
    Ok(JournalEntryOf::<W>::parse_all(text)?
        .first()
        .map(|e| match e {
            JournalEntryOf::Started { seats, .. } => seats.iter().map(|s| s.name.clone()).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default())
}

/// `settings` with each `NAME=VALUE` of `options` set: VALUE as JSON (a number, `true`, an
/// object), or else as a word (`Random`). An unknown name or a value of the wrong shape is an
/// error that names the settings there are.
pub fn with_options<T: serde::Serialize + serde::de::DeserializeOwned>(
    settings: T,
    options: &[String],
) -> anyhow::Result<T> {
    let mut value = serde_json::to_value(settings)?;
    let Some(fields) = value.as_object_mut() else { anyhow::bail!("these settings take no options") };
    let names = fields.keys().cloned().collect::<Vec<_>>().join(", ");
    for option in options {
        let Some((name, given)) = option.split_once('=') else {
            anyhow::bail!("--option {option}: give NAME=VALUE, NAME one of {names}")
        };
        let Some(field) = fields.get_mut(name.trim()) else {
            anyhow::bail!("--option {option}: no option `{name}`; the options are {names}")
        };
        *field = serde_json::from_str(given.trim()).unwrap_or_else(|_| serde_json::Value::String(given.trim().into()));
    }
    serde_json::from_value(value).map_err(|e| anyhow::anyhow!("--option: {e}"))
}
