//! The seam between the table and its games (`shared/design/architecture.md`, "The table and
//! its games"). The table — lobby, seats and tokens, stand-in bots, time limits, journal,
//! the fair arbiter and its beats, the wire envelope, the client core — drives any [`Game`]:
//! it asks what a seat may do, applies an action, shows each seat its view, asks what must be
//! timed now ([`Step`]) and what a bot would do, and reads the standings at the end.
//!
//! **Architecture Invariant:** this crate names no game. A game is a pure engine: it does no
//! I/O and reads no clock; the table owns every instant.
//!
//! Models: ripgrep's `grep-matcher` (the trait crate) implemented by `grep-regex` and
//! `grep-pcre2`; quinn-proto's `congestion::Controller` implemented by Cubic, NewReno, BBR.

pub mod colour;
pub mod drive;
pub mod hands;
pub mod journal;
pub mod seal;
pub mod wire;

/// A game's lobby settings.
pub type LobbyOf<G> = <<G as Game>::Words as Words>::Lobby;

/// The tie rule of every timed moment: two reactions closer than this (µs) are decided by a
/// seeded draw — the residual of drift correction over a reaction, with room to spare.
pub const TIE_US: u64 = 20;

/// A game's luck, provably fair: a ChaCha stream of the game's seed keyed by what it is for
/// (`purpose`, the stream number's top byte) and its number, so that whoever learns the seed
/// re-draws any one draw alone — nobody's play shifts the next one (Bolide's dice, 1000
/// Bornes' deal, Entenrallye's die).
pub fn luck(seed: u64, purpose: u8, index: u64) -> ChaCha8Rng {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream((u64::from(purpose) << 56) | (index & 0x00ff_ffff_ffff_ffff));
    rng
}

use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// A place at the table, `0..players`. Seats form a ring; the left neighbour of seat `s` is
/// `s + 1` modulo the number of players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The number a person reads (seat 1 is `Seat(0)`), for any seat a peer may name.
    pub fn number(self) -> u16 {
        u16::from(self.0) + 1
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Most seats at any table (1000 Bornes plays up to 8).
pub const MAX_SEATS: usize = 8;

/// A set of seats, as a bit mask: what a [`Step`] names without allocating.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seats(pub u16);

impl Seats {
    pub fn one(seat: Seat) -> Seats {
        Seats(1u16.checked_shl(u32::from(seat.0)).unwrap_or(0))
    }

    pub fn with(self, seat: Seat) -> Seats {
        Seats(self.0 | Seats::one(seat).0)
    }

    pub fn contains(self, seat: Seat) -> bool {
        self.0 & Seats::one(seat).0 != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..16u8).map(Seat).filter(move |s| self.contains(*s))
    }
}

impl FromIterator<Seat> for Seats {
    fn from_iter<I: IntoIterator<Item = Seat>>(seats: I) -> Seats {
        seats.into_iter().fold(Seats::default(), Seats::with)
    }
}

/// How well the host's bots play: the seats it fills and the stand-ins for absent players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Any legal action, uniformly at random: bots for fun.
    Random,
    /// Plays with purpose: bots to win (default).
    #[default]
    Strategic,
}

impl BotLevel {
    pub const ALL: [BotLevel; 2] = [BotLevel::Random, BotLevel::Strategic];

    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Strategic => "strategic",
        }
    }
}

impl std::fmt::Display for BotLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BotLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<BotLevel, String> {
        BotLevel::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("`{s}` is not a bot level: random or strategic"))
    }
}

/// One seat's place at the end of a game; partners share their side's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub seat: Seat,
    pub points: u32,
    /// Races or hands won: the game's first tie-break.
    pub wins: u8,
    /// 1 for the winner; shared on a tie.
    pub rank: u8,
}

/// What the table refuses, whatever the game: kept apart from a game's rule errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableRefusal {
    /// A spectator asked to act.
    Spectator,
    /// A timed request while no timed moment is open.
    NoMoment,
    /// A timed request whose input came before its moment was shown.
    BeforeShown,
    /// Times no clock of that laptop can have read.
    ImplausibleTiming,
    /// A plain request from a contender while a timed moment is open: it must carry its
    /// timings, or it would be judged by its arrival (the nearest laptop would win).
    Untimed,
    /// A call that came after its countdown ended.
    CallTooLate,
    /// A second call from the same seat under one countdown.
    AlreadyCalled,
    /// The game is over (or has not started).
    Over,
    /// A request in a moment that ends with its time, made after that time had run out on
    /// the laptop's own screen (its reaction past the moment's length: 1000 Bornes' M-15.6).
    OutOfTime,
    /// More timed requests from one seat in one moment than a hand can make
    /// ([`MOMENT_REQUESTS`]).
    TooManyRequests,
}

/// Timed requests one seat may make in one moment: more than any hand needs (a Bolide grab
/// has six pawns), few enough that a flooding laptop costs the room and its log little.
pub const MOMENT_REQUESTS: usize = 8;

impl std::fmt::Display for TableRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TableRefusal::Spectator => "spectators watch; a seat is taken in the lobby",
            TableRefusal::NoMoment => "no timed moment is open: wait for it, then act",
            TableRefusal::BeforeShown => "the input came before the moment was shown; check the laptop's clock",
            TableRefusal::ImplausibleTiming => {
                "this request's times are not ones this laptop's clock can have read; check its clock, or update the game"
            }
            TableRefusal::Untimed => {
                "a timed moment is open: send the request with its timings (when it was shown, when you acted)"
            }
            TableRefusal::CallTooLate => "the countdown had ended when this call was made",
            TableRefusal::AlreadyCalled => "you already called under this countdown",
            TableRefusal::Over => "the game is over",
            TableRefusal::TooManyRequests => "you already made as many requests in this moment as a hand can: wait for the verdict",
            TableRefusal::OutOfTime => {
                "your time for this moment had run out on your screen when you acted; it lasts the same for everyone, from when it was shown to each"
            }
        })
    }
}

impl std::error::Error for TableRefusal {}

/// A request a timed moment was given, for its photo finish: who, what, and its reaction (µs,
/// host time base, as the table judged it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked<A> {
    pub seat: Seat,
    pub action: A,
    pub reaction_us: u64,
}

/// When the news that opens a timed moment may leave the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Release {
    /// At a secret instant, timed to arrive everywhere just before it (Bolide's reveal).
    Secret,
    /// At once: the news is public already (an attack laid, an Échange window).
    Public,
}

/// What the table must time now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// These seats must decide, each on its own time limit.
    Sequential { seats: Seats },
    /// A countdown to a public instant (Bolide's cup): `callers` may call before it ends, and
    /// the table orders their calls by when they were made; then it tells the game the time
    /// is up ([`Game::time_is_up`]).
    Countdown { callers: Seats },
    /// A timed moment: `contenders` race each other, judged on their own clocks by reaction
    /// (shown → input). `moment` is the game's name for it (a new one for each moment).
    /// `window_us`: a moment that ends with its time ([`Game::time_is_up`]) rather than when
    /// every contender has acted.
    Timed { moment: u64, contenders: Seats, release: Release, window_us: Option<u64> },
    /// The game is over.
    Over,
}

/// What a game's refusal must be: an error that travels, and that carries the table's own.
pub trait RefusalOf:
    std::error::Error + Clone + PartialEq + Send + Sync + Serialize + DeserializeOwned + From<TableRefusal>
{
}

impl<R> RefusalOf for R where
    R: std::error::Error + Clone + PartialEq + Send + Sync + Serialize + DeserializeOwned + From<TableRefusal>
{
}

/// The words a game's messages are made of: what the table's wire envelope carries for it
/// (`bolide_table::wire`). A marker type implements it beside the game's vocabulary, so a
/// laptop can speak a game without its engine.
pub trait Words: Clone + Copy + Debug + PartialEq + Send + Sync + 'static {
    type Action: Copy + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    type Event: Clone + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    type View: Clone + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    /// The game's rule errors, and the table's own refusals as the wire carries them.
    type Refusal: RefusalOf;
    /// What the lobby sets: the game's settings and the seats the host's bots fill.
    type Lobby: Lobby;
    /// The datagram twin of an update that opens a timed moment (fairness.md §2): what a
    /// laptop needs to show the moment if the stream's update is held behind a lost packet.
    type Twin: Clone + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    /// The name a command line, the lobby, the advert and a journal give the game.
    const NAME: &'static str;
    /// The name on the box, as people say it.
    const TITLE: &'static str;
    /// What the game calls the person at a seat: a seat nobody named is `PLAYER n`.
    const PLAYER: &'static str = "Player";
}

/// A lobby's settings: the game's own, and who fills the seats no person takes.
pub trait Lobby: Clone + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned {
    type Game;
    /// Seats the host's bots fill, on top of the people who join.
    fn bots(&self) -> u8;
    /// How well they (and the stand-ins for absent players) play.
    fn bot_level(&self) -> BotLevel;
    /// The game's settings.
    fn game(&self) -> Self::Game;

    /// How long a person may take over a turn before a bot plays it, when the game's own
    /// rules set it (1000 Bornes' turn timer, M-5.7); `None`: the table's own time limit.
    fn turn_limit_ms(&self) -> Option<u64> {
        None
    }

    /// What the table checks of these settings beyond the game's own (their size: a lobby
    /// goes to every laptop), in words that say what to change.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }

    /// Where the `players` sit when the game starts: the entrant at each place, entrants
    /// being the people in the lobby's order and then the bots (1000 Bornes' teams, M-2.3:
    /// drawn, or as the first player placed them). `None`: as they came. The table uses only
    /// an order that names each entrant once.
    fn seating(&self, players: u8, rng: &mut ChaCha8Rng) -> Option<Vec<u8>> {
        let _ = (players, rng);
        None
    }
}

/// Whether `order` names each of `0..n` exactly once.
pub fn is_seating(order: &[u8], n: usize) -> bool {
    let mut seen = [false; 256];
    order.len() == n && order.iter().all(|&e| usize::from(e) < n && !std::mem::replace(&mut seen[usize::from(e)], true))
}

/// A game the table can serve: a pure engine, as seen by the table.
pub trait Game: Clone + Send + Sync + Sized + 'static {
    /// What its messages are made of on the wire: the same types as below.
    type Words: Words<
            Action = Self::Action,
            Event = Self::Event,
            View = Self::View,
            Refusal = Self::Refusal,
            Lobby: Lobby<Game = Self::Settings>,
        >;
    type Action: Copy + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    type Event: Clone + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    type View: Clone + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned;
    type Settings: Clone + PartialEq + Debug + Default + Send + Sync + Serialize + DeserializeOwned;
    type Refusal: RefusalOf;

    /// The name a command line, the lobby and the advert give it (`bolide`, `mille-bornes`).
    const NAME: &'static str = <Self::Words as Words>::NAME;

    /// The fewest and the most players a table of it seats (`check_settings` says which
    /// counts between them it plays): below the fewest, the lobby waits for more.
    const PLAYERS: (u8, u8);

    /// Whether `players` can play with `settings`: the one check for a flag and the wire.
    /// The refusal names the rule or the field and says what to pick instead.
    fn check_settings(settings: &Self::Settings, players: u8) -> Result<(), String>;

    /// A new game, its opening events into `events`. Every random thing comes from `seed`.
    fn start(settings: &Self::Settings, players: u8, seed: u64, events: &mut Vec<Self::Event>) -> Result<Self, String>;

    /// Whether `seat` may take `action` now: the refusal names its rule. Pure.
    fn check(&self, seat: Seat, action: Self::Action) -> Result<(), Self::Refusal>;

    /// Whether `action` may be claimed in the timed moment now open, whoever turns out to be
    /// faster: checked as if no other claim of this moment had been applied yet (a pawn another
    /// seat took meanwhile may still be this seat's, if its hand was faster). The table judges
    /// the claims in order of reaction and applies them then, with [`Game::apply`].
    fn claimable(&self, seat: Seat, action: Self::Action) -> Result<(), Self::Refusal> {
        self.check(seat, action)
    }

    /// `check` then `perform`: a refusal names its rule and changes nothing.
    fn apply(&mut self, seat: Seat, action: Self::Action, events: &mut Vec<Self::Event>) -> Result<(), Self::Refusal>;

    /// Every action `seat` may take now (what passes `apply`'s check), into `out`.
    fn legal(&self, seat: Seat, out: &mut Vec<Self::Action>);

    /// What `seat`'s laptop is offered now (its update's `legal`): by default what is legal.
    /// A timed moment whose offer would tell a hand's secret on the wire offers every
    /// contender the same, and refuses what does not pass `check` to that laptop alone.
    fn offered(&self, seat: Seat, out: &mut Vec<Self::Action>) {
        self.legal(seat, out);
    }

    /// What `viewer` (a seat, or `None` for a spectator) may see.
    fn view(&self, viewer: Option<Seat>) -> Self::View;

    /// `event` as `viewer` may see it (another player's draw loses its card).
    fn event_for(&self, event: &Self::Event, viewer: Option<Seat>) -> Self::Event {
        let _ = viewer;
        event.clone()
    }

    /// What the table must time now.
    fn step(&self) -> Step;

    /// The datagram twin of the update whose `events` opened a timed moment (fairness.md §2):
    /// what a laptop needs to show the moment if that update is held behind a lost packet.
    fn twin(&self, events: &[Self::Event]) -> Option<<Self::Words as Words>::Twin> {
        let _ = events;
        None
    }

    /// The photo finish of the timed moment the game named `moment`, just ended, from every
    /// request it was given, as an event for everyone: `None` when the game tells none.
    fn photo_finish(&self, moment: u64, asked: &[Asked<Self::Action>]) -> Option<Self::Event> {
        let _ = (moment, asked);
        None
    }

    /// The table's clock ended the countdown, or the timed moment that ends with its time.
    fn time_is_up(&mut self, events: &mut Vec<Self::Event>) -> Result<(), Self::Refusal>;

    /// What `seat`'s bot would do now (a call in a countdown or a moment, or a decision), if
    /// anything. `scratch` is reused between calls.
    fn bot(
        &self,
        seat: Seat,
        level: BotLevel,
        rng: &mut ChaCha8Rng,
        scratch: &mut Vec<Self::Action>,
    ) -> Option<Self::Action>;

    /// How long, µs from the moment's start, `seat`'s bot takes to act in the timed moment now
    /// open, when the game's rules say (1000 Bornes' M-15.11); `None`: a human hand's
    /// reaction to its choices (`hands`), as in Bolide's grab.
    fn bot_reaction_us(&self, seat: Seat, rng: &mut ChaCha8Rng) -> Option<u64> {
        let _ = (seat, rng);
        None
    }

    /// Each seat's place once the game is over.
    fn standings(&self) -> Option<Vec<Standing>>;
}

/// Places from `(seat, points, wins)`: most points first, then most wins; equal keys share.
pub fn rank(lines: impl IntoIterator<Item = (Seat, u32, u8)>) -> Vec<Standing> {
    let mut lines: Vec<Standing> =
        lines.into_iter().map(|(seat, points, wins)| Standing { seat, points, wins, rank: 0 }).collect();
    lines.sort_by(|a, b| (b.points, b.wins).cmp(&(a.points, a.wins)).then(a.seat.cmp(&b.seat)));
    let keys: Vec<(u32, u8)> = lines.iter().map(|l| (l.points, l.wins)).collect();
    for line in &mut lines {
        line.rank = keys.iter().filter(|k| **k > (line.points, line.wins)).count() as u8 + 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_as_a_mask() {
        let s: Seats = [Seat(0), Seat(3), Seat(7)].into_iter().collect();
        assert_eq!(s.iter().collect::<Vec<_>>(), [Seat(0), Seat(3), Seat(7)]);
        assert!(!s.contains(Seat(1)) && s.contains(Seat(7)));
        assert!(Seats::one(Seat(200)).is_empty(), "a seat past the mask is in no set");
    }

    #[test]
    fn equal_keys_share_a_place() {
        let r = rank([(Seat(0), 10, 1), (Seat(1), 12, 0), (Seat(2), 10, 1), (Seat(3), 10, 0)]);
        let by_seat = |s| r.iter().find(|l| l.seat == Seat(s)).unwrap().rank;
        assert_eq!([by_seat(0), by_seat(1), by_seat(2), by_seat(3)], [2, 1, 2, 4]);
    }
}

pub mod scenario {
    //! What every game's scenario runner shares: a step's outcome against what the file
    //! expected, and events expected in order in the log.

    use serde::Serialize;
    use std::fmt::{Debug, Display};

    /// What a run prints: the end state (`F`, the game's) and the log.
    #[derive(Debug, Clone, Serialize)]
    pub struct Output<F, E> {
        pub description: String,
        #[serde(rename = "final")]
        pub final_state: F,
        pub events: Vec<LoggedEvent<E>>,
    }

    /// What a run printed, and why it failed, if it did.
    pub struct RunReport<F, E> {
        pub output: Output<F, E>,
        pub failure: Option<String>,
    }

    /// An event in a scenario's output, with the rule it applies.
    #[derive(Debug, Clone, Serialize)]
    pub struct LoggedEvent<E> {
        pub rule: &'static str,
        pub event: E,
    }

    /// A step applied (`Ok`) or refused, against the rule the file said it must be refused
    /// with (`refused`); `Err` is the run's failure, naming the step (`what`).
    pub fn judge<E: Display>(
        result: Result<(), E>,
        rule_of: impl Fn(&E) -> String,
        refused: Option<&str>,
        what: &str,
    ) -> Result<(), String> {
        match (result, refused) {
            (Ok(()), None) => Ok(()),
            (Err(e), Some(rule)) if rule_of(&e) == rule => Ok(()),
            (Err(e), _) => Err(format!("{what} refused: {e}")),
            (Ok(()), Some(rule)) => Err(format!("{what} was expected to be refused by {rule}, but it was applied")),
        }
    }

    /// Whether `want` appears in `log` in this order (not necessarily adjacent).
    pub fn in_order<'a, E: PartialEq + Debug + 'a>(
        mut log: impl Iterator<Item = &'a E>,
        want: &[E],
    ) -> Result<(), String> {
        for w in want {
            if !log.any(|e| e == w) {
                return Err(format!("expected event {w:?} (in order) in the log"));
            }
        }
        Ok(())
    }
}
