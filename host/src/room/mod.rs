//! One table's room, sans-I/O, for any game (`RoomOf<G: bolide_table::Game>`): the lobby, the
//! game loop around the engine's seam, the host's bots, the time limits, the seat tokens and
//! what the game asks to be timed — calls under a countdown (Bolide's Klaxon) and timed moments
//! (Bolide's grab and Échange window, 1000 Bornes' Coup-Fourré) — whose state
//! [`fairness::Fairness`] owns and `timed` wires to the game. Inputs (a hello, a message, a
//! probe, a dropped connection, the clock in µs) go in; messages to send (now or at an
//! instant), connections to close, journal entries and fairness records come out. The network
//! layer (`crate::net`) only moves them; tests drive a room with synthetic times and no
//! sockets. **Architecture Invariant:** nothing here names a game (`host/tests/invariants.rs`).

mod fairness;
pub mod moment_log;
mod timed;

pub use bolide_table::LobbyOf;
pub use bolide_table::TIE_US;
pub use bolide_table::journal::{JournalEntryOf, JournalSeat, ResumeError, complete_len, game_of};
pub use fairness::{
    Beat, Clamp, FairRecord, FieldPath, PUBLIC_LEAD_US, REVEAL_MARGIN_US, SILENCE_US, UNKNOWN_OWD_US, WARM_SAMPLES,
    WARM_UP_US, WARM_UPS, WINDOW_GRACE_US,
};

use crate::fair::Sample;
use bolide_table::BotLevel;
use bolide_table::colour::Colour;
use bolide_table::hands::Hands;
use bolide_table::seal::{Luck, Part, SeedReveal};
use bolide_table::wire::{
    BeatSchedule, ClientMsgOf, DatagramOf, FieldCall, FieldLine, FieldTruth, Hello, LobbySeat, LobbyStateOf,
    MAX_FIELD_LINES, PathCheck, SeatToken, ServerMsgOf, StandingLine, close,
};
use bolide_table::{Game, Lobby, Seat, Step, TableRefusal, Words};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use timed::TimedStep;

/// A connection, as the network layer numbers them.
pub type ConnId = u64;

/// How a room behaves; times in milliseconds. `L`: the game's lobby settings.
#[derive(Debug, Clone)]
pub struct RoomConfigOf<L> {
    /// The room's code word; a hello must carry it.
    pub code: String,
    pub settings: L,
    /// Seeds the championship (dice, bonuses) and the host's bots.
    pub seed: u64,
    /// Hides the seed in the commitment the lobby shows (provably fair dice); `serve` draws
    /// it from the OS's random source.
    pub nonce: [u8; 32],
    /// How long a countdown runs (`Step::Countdown`: from the start of Bolide's round to the
    /// end of the countdown, Bolide's Klaxon calls open meanwhile).
    pub countdown_ms: u64,
    /// A host bot's thinking time; its reaction in the grab is its level's human hands
    /// (`bots::hands`), scaled by this over [`DEFAULT_BOT_DELAY_MS`].
    pub bot_delay_ms: u64,
    /// How long a pilot may take over a decision before a bot plays it (B-4, B-5).
    pub turn_timeout_ms: u64,
    /// How long a timed moment waits for a person before their stand-in acts (Bolide's grab
    /// and Échange window; a moment that ends with its time waits for nobody).
    pub moment_timeout_ms: u64,
    /// Reactions faster than this are flagged in the log as anticipation (fairness.md §5):
    /// 100 ms for people; 0 for a table of bots.
    pub plausible_reaction_ms: u64,
    /// A fairness field run (`serve --fairness-test`): once the championship is over, each
    /// laptop may hand in the record of its timed requests (`ClientMsg::FieldRecord`).
    pub field_test: bool,
}

impl<L> RoomConfigOf<L> {
    pub fn new(code: &str, settings: L, seed: u64) -> RoomConfigOf<L> {
        RoomConfigOf {
            code: code.to_string(),
            settings,
            seed,
            nonce: [0; 32],
            countdown_ms: 1500,
            bot_delay_ms: DEFAULT_BOT_DELAY_MS,
            turn_timeout_ms: 30_000,
            moment_timeout_ms: 8_000,
            plausible_reaction_ms: 100,
            field_test: false,
        }
    }
}

/// What the room asks the network layer to do, in order; `W`: the game's words.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputOf<W: Words> {
    Send {
        conn: ConnId,
        msg: ServerMsgOf<W>,
    },
    /// Send at host instant `at` (µs), so that it arrives just before the reveal.
    SendAt {
        conn: ConnId,
        at: u64,
        msg: ServerMsgOf<W>,
    },
    /// Send this datagram (and its copies) at host instant `at` (µs).
    DatagramAt {
        conn: ConnId,
        at: u64,
        datagram: DatagramOf<W>,
    },
    /// A verdict of a timed moment, for the fairness log and the lab.
    Fair(FairRecord<W::Action>),
    /// A line of a timed moment's log, for the host's eyes only (M-15.14).
    Moment(moment_log::MomentLine<W>),
    /// Close after sending what came before.
    Close {
        conn: ConnId,
        code: u32,
        reason: String,
    },
    /// Write-ahead: append and fsync before sending what follows.
    Journal(JournalEntryOf<W>),
    /// The first pilot asked, in the lobby, to play `game` at this table (`ClientMsg::ChooseGame`):
    /// the network layer opens a lobby of it with these seats ([`RoomOf::carried`]), if it
    /// serves that game, and answers `conn` otherwise.
    SwitchGame {
        conn: ConnId,
        game: String,
    },
    /// A laptop's field record, handed in after the championship (`serve --fairness-test`),
    /// with what the host measured of its path.
    FieldRecord(FieldRecord),
    /// A countdown's calls, in the order applied, for the fairness log.
    Calls(CallOrderRecord),
}

/// One laptop's truth for a fairness field run, and its path as the host measured it.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRecord {
    pub seat: Seat,
    pub name: String,
    pub lines: Vec<FieldLine>,
    pub calls: Vec<FieldCall>,
    pub path: Option<FieldPath>,
}

/// The order in which a countdown's calls were applied (Bolide's Klaxon), for a field run's
/// report: each call's seat and its `seq` (0 for a seat the host plays).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOrderRecord {
    pub order: Vec<(Seat, u32)>,
}

/// A person's lobby seat, carried to a lobby of another game at the same table: they come
/// back with the same token to the same seat, name and colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedSeat {
    pub name: String,
    pub colour: Colour,
    pub token: SeatToken,
}

/// How long a carried seat waits for its laptop to come back (µs): a laptop comes back within
/// a round of handshakes; one that does not frees the seat for others.
pub const CARRY_US: u64 = 15_000_000;

#[derive(Debug, Clone)]
struct SeatSlot {
    name: String,
    colour: Colour,
    /// `None` for the host's own bots.
    token: Option<SeatToken>,
    /// Some for a seat the host's bot plays for good (a filler, or a pilot who left).
    bot: Option<BotLevel>,
    conn: Option<ConnId>,
    ready: bool,
    /// A pilot who missed a time limit: a bot plays for it until it acts again.
    zombie: bool,
    /// The laptop's part of the table's luck (`dice::Luck`), its first, sent in the lobby.
    part: Option<Part>,
}

impl SeatSlot {
    fn bot_plays(&self) -> bool {
        self.bot.is_some() || self.conn.is_none() || self.zombie
    }
}

#[derive(Debug)]
enum Stage<G> {
    Lobby,
    Playing(Box<G>),
    Finished(Box<G>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DueKind {
    /// The countdown ends (Bolide's lift), or the timed moment that ends with its time, at
    /// its hard deadline (M-15.7).
    TimeUp,
    /// The length of a moment that ends with its time has passed on the host clock: it closes
    /// if everyone is done (M-15.7).
    LengthPassed,
    /// A bot-played seat may call before the countdown ends (Bolide's Klaxon).
    Call(Seat),
    /// A seat must decide: a bot's thinking time, or a pilot's time limit.
    Act(Seat),
}

#[derive(Debug, Clone, Copy)]
struct Due {
    at: u64,
    kind: DueKind,
}

/// Spectators a room lets in: a game night has a few watchers and maybe a projector; every
/// update goes to each of them, so a thousand silent ones would slow the table.
pub const MAX_SPECTATORS: usize = 32;

/// Comebacks a seat may make within [`COMEBACK_WINDOW_US`]: a flaky Wi-Fi makes a few a
/// minute; the window and `bolide-bot` wait a second or more between tries.
pub const COMEBACKS: usize = 5;
pub const COMEBACK_WINDOW_US: u64 = 10_000_000;

/// What the timers were set for: a change means new timers. Sequential decisions and
/// countdowns are named by the number of actions applied before them; a timed moment by the
/// game's name for it (its timers live as long as it does: each hand's reaction is drawn once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StepKey {
    Sequential(u32),
    Countdown(u32),
    Timed(u64),
    Over,
}

/// A plain request as it came: its `seq`, the action, and when it was made on its laptop's clock.
type PlainAct<A> = (u32, A, Option<u64>);

/// The host bots' thinking time between two sequential decisions (ms); their grab reactions
/// are human-sized at this setting and scale with it.
pub const DEFAULT_BOT_DELAY_MS: u64 = 700;

/// A room serving game `G`.
pub struct RoomOf<G: Game> {
    config: RoomConfigOf<LobbyOf<G>>,
    seats: Vec<SeatSlot>,
    /// Connected clients and their seat (`None`: spectator).
    members: BTreeMap<ConnId, Option<Seat>>,
    stage: Stage<G>,
    rng: ChaCha8Rng,
    due: Vec<Due>,
    step: Option<StepKey>,
    /// When the current step's time limits started (µs): a comeback does not restart them.
    step_start: u64,
    /// Actions applied so far (timers of sequential decisions restart with each).
    applied: u32,
    legal: Vec<G::Action>,
    /// Clocks, calls under a countdown and the timed moment now open: their one owner.
    fair: fairness::Fairness<G::Action>,
    /// When each seat came back with its token, within the last [`COMEBACK_WINDOW_US`].
    comebacks: BTreeMap<Seat, Vec<u64>>,
    /// The lobby's network check: when the paths are looked at next, and what the lobby last
    /// said of them (a new lobby goes out only when they changed).
    path_check_at: Option<u64>,
    paths_sent: Vec<Option<PathCheck>>,
    /// Seats carried from a lobby of another game wait for their laptops until then; a seat
    /// still empty is freed.
    held_until: Option<u64>,
    /// Seats whose field record came in (once each).
    fielded: Vec<Seat>,
    /// The journal as every player may keep it (`JournalEntryOf::public`): sent to every
    /// laptop once the championship is over, for its replays.
    night: Vec<JournalEntryOf<G::Words>>,
    /// The night in parts, built once when the first laptop is handed it (a night is ~26 KB
    /// for three races, each line with its checksum; a spectator arriving after the end must
    /// not cost the room that work again).
    night_parts: std::cell::OnceCell<Vec<String>>,
    /// The laptops' parts the game's seed was mixed from, fixed at the start.
    luck: Luck,
}

/// How often the lobby looks at the paths the host measures (µs): the first look comes after
/// the host's first-second probe burst.
pub const PATH_CHECK_US: u64 = 2_000_000;

/// What a room of `G` says and hears.
type ServerMsgFor<G> = ServerMsgOf<<G as Game>::Words>;
type ClientMsgFor<G> = ClientMsgOf<<G as Game>::Words>;
type Out<G> = OutputOf<<G as Game>::Words>;

impl<G: Game> RoomOf<G> {
    /// `entropy` seeds the seat tokens; pass real randomness outside tests.
    pub fn new(config: RoomConfigOf<LobbyOf<G>>, entropy: u64) -> RoomOf<G> {
        RoomOf {
            rng: ChaCha8Rng::seed_from_u64(entropy),
            config,
            seats: Vec::new(),
            members: BTreeMap::new(),
            stage: Stage::Lobby,
            due: Vec::new(),
            step: None,
            step_start: 0,
            applied: 0,
            legal: Vec::new(),
            fair: fairness::Fairness::default(),
            comebacks: BTreeMap::new(),
            path_check_at: None,
            paths_sent: Vec::new(),
            held_until: None,
            fielded: Vec::new(),
            night: Vec::new(),
            night_parts: std::cell::OnceCell::new(),
            luck: Luck::default(),
        }
    }

    /// A lobby with the seats of another game's lobby at this table: each waits
    /// [`CARRY_US`] for its laptop to come back with its token.
    pub fn with_seats(
        config: RoomConfigOf<LobbyOf<G>>,
        entropy: u64,
        carried: Vec<CarriedSeat>,
        now: u64,
    ) -> RoomOf<G> {
        let mut room = RoomOf::new(config, entropy);
        room.seats = carried
            .into_iter()
            .take(usize::from(G::PLAYERS.1))
            .map(|c| SeatSlot {
                name: c.name,
                colour: c.colour,
                token: Some(c.token),
                bot: None,
                conn: None,
                ready: false,
                zombie: false,
                part: None,
            })
            .collect();
        room.held_until = (!room.seats.is_empty()).then(|| now.saturating_add(CARRY_US));
        room
    }

    /// The people seated in the lobby, to carry to a lobby of another game.
    pub fn carried(&self) -> Vec<CarriedSeat> {
        if !matches!(self.stage, Stage::Lobby) {
            return Vec::new();
        }
        self.seats
            .iter()
            .filter_map(|s| Some(CarriedSeat { name: s.name.clone(), colour: s.colour, token: s.token? }))
            .collect()
    }

    pub fn code(&self) -> &str {
        &self.config.code
    }
    /// Seats taken (people and bots) and the most a table holds, for the mDNS advertisement.
    pub fn seats_taken(&self) -> (usize, usize) {
        let bots = if matches!(self.stage, Stage::Lobby) { self.config.settings.bots() as usize } else { 0 };
        (self.seats.len() + bots, usize::from(G::PLAYERS.1))
    }
    pub fn is_finished(&self) -> bool {
        matches!(self.stage, Stage::Finished(_))
    }
    /// The game, once started (and once over).
    pub fn game(&self) -> Option<&G> {
        match &self.stage {
            Stage::Playing(c) | Stage::Finished(c) => Some(c),
            Stage::Lobby => None,
        }
    }
    /// When the room next needs [`Room::tick`], on the same clock as `now`.
    pub fn next_deadline(&self) -> Option<u64> {
        let lobby = |at: Option<u64>| at.filter(|_| matches!(self.stage, Stage::Lobby));
        let (path_check, held) = (lobby(self.path_check_at), lobby(self.held_until));
        self.due.iter().map(|d| d.at).chain(self.fair.next_deadline()).chain(path_check).chain(held).min()
    }

    /// The timed moment now open as a beat names it, shown at its opening instant (host
    /// clock): what a laptop's beats say once it shows the moment.
    pub fn open_moment_shown(&self) -> Option<bolide_table::wire::Shown> {
        let (id, opens) = self.fair.open_moment()?;
        Some(bolide_table::wire::Shown { moment: id, at_us: opens })
    }

    /// A timing probe came back from `conn` (fairness.md §1).
    pub fn probe(&mut self, conn: ConnId, sample: Sample) {
        self.fair.probe(conn, sample);
    }

    // ----- inputs -----

    /// `name`, or `name 2`, `name 3`… when a seat already has it (case aside): two pilots never
    /// look alike in the lobby. Still at most `MAX_NAME_CHARS`.
    fn unique_name(&self, name: String) -> String {
        let taken = |n: &str| self.seats.iter().any(|s| s.name.to_lowercase() == n.to_lowercase());
        if !taken(&name) {
            return name;
        }
        (2..=self.seats.len() + 1)
            .map(|i| {
                let suffix = format!(" {i}");
                let room = bolide_table::wire::MAX_NAME_CHARS.saturating_sub(suffix.chars().count());
                format!("{}{suffix}", name.chars().take(room).collect::<String>())
            })
            .find(|n| !taken(n))
            .unwrap_or(name)
    }

    /// Every seat's token (the host's own bots have none): what a laptop coming back proves it
    /// holds at the door (`bolide_link::pake::seat_pass`).
    pub fn seat_tokens(&self) -> Vec<SeatToken> {
        self.seats.iter().filter_map(|s| s.token).collect()
    }

    /// A connection's hello; `beats`: when the host asks it to beat (the server's choice: it
    /// knows how many connections it hears).
    pub fn hello(&mut self, now: u64, conn: ConnId, hello: Hello, beats: BeatSchedule, out: &mut Vec<Out<G>>) {
        // The lobby's network check starts with the first laptop, past its probe burst.
        self.path_check_at.get_or_insert(now.saturating_add(PATH_CHECK_US));
        let word = hello.code.split('-').next().unwrap_or("").trim().to_ascii_uppercase();
        if !crate::secret::same(word.as_bytes(), self.config.code.to_ascii_uppercase().as_bytes()) {
            let reason = "wrong room code: ask the host for the code it printed".to_string();
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: false } });
            out.push(OutputOf::Close { conn, code: close::WRONG_CODE, reason });
            return;
        }
        if let Some(token) = hello.seat_token {
            let Some(i) = self.seats.iter().position(|s| s.token == Some(token)) else {
                let reason = "this seat token belongs to no seat here: join again without it".to_string();
                out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: false } });
                out.push(OutputOf::Close { conn, code: close::BAD_TOKEN, reason });
                return;
            };
            // A seat that comes back over and over (a flooder closed and back every few ms)
            // costs every other laptop a lobby and the room its work: a few per window only.
            let recent = self.comebacks.entry(Seat(i as u8)).or_default();
            recent.retain(|at| now.saturating_sub(*at) < COMEBACK_WINDOW_US);
            if recent.len() >= COMEBACKS {
                let reason = format!(
                    "this seat came back {COMEBACKS} times in {} s: wait a few seconds and join again",
                    COMEBACK_WINDOW_US / 1_000_000
                );
                out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: true } });
                return out.push(OutputOf::Close { conn, code: close::TOO_MANY_COMEBACKS, reason });
            }
            recent.push(now);
            // Back to the seat (a previous connection of it, if still open, is let go).
            if let Some(old) = self.seats[i].conn.replace(conn) {
                self.members.remove(&old);
                out.push(OutputOf::Close {
                    conn: old,
                    code: close::NORMAL,
                    reason: "replaced by a new connection".into(),
                });
            }
            let seat = Seat(i as u8);
            // Back in person: the pilot's own time limits again (a stand-in that played
            // meanwhile stops). The comeback limit above keeps this from holding the table.
            self.seats[i].zombie = false;
            self.members.insert(conn, Some(seat));
            out.push(OutputOf::Send { conn, msg: self.welcome(Some(seat), Some(token), beats) });
            self.send_lobby(out);
            self.send_update_to(conn, &[], now, out);
            self.send_night(conn, out);
            self.retime_seat(now, seat);
            return;
        }
        let humans_max = usize::from(G::PLAYERS.1).saturating_sub(self.config.settings.bots() as usize);
        // A laptop that asked to watch takes no seat, even a free one.
        if matches!(self.stage, Stage::Lobby) && self.seats.len() < humans_max && !hello.watch {
            let (Ok(token), Some(colour)) = (crate::secret::seat_token(), self.free_colour()) else {
                let reason = "the host could not draw a seat token: try again".to_string();
                out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: true } });
                return out.push(OutputOf::Close { conn, code: close::ROOM_FULL, reason });
            };
            let name = bolide_table::wire::clean_name(&hello.name);
            let name = if name.is_empty() { format!("Pilot {}", self.seats.len() + 1) } else { name };
            let name = self.unique_name(name);
            self.seats.push(SeatSlot {
                name,
                colour,
                token: Some(token),
                bot: None,
                conn: Some(conn),
                ready: false,
                zombie: false,
                part: None,
            });
            let seat = Seat(self.seats.len() as u8 - 1);
            self.members.insert(conn, Some(seat));
            out.push(OutputOf::Send { conn, msg: self.welcome(Some(seat), Some(token), beats) });
            self.send_lobby(out);
        } else if self.members.values().filter(|s| s.is_none()).count() >= MAX_SPECTATORS {
            let reason = format!("this table already has {MAX_SPECTATORS} spectators: try again later");
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: false } });
            out.push(OutputOf::Close { conn, code: close::ROOM_FULL, reason });
        } else {
            self.members.insert(conn, None);
            out.push(OutputOf::Send { conn, msg: self.welcome(None, None, beats) });
            self.send_lobby(out);
            self.send_update_to(conn, &[], now, out);
            self.send_night(conn, out);
        }
    }

    pub fn message(&mut self, now: u64, conn: ConnId, msg: ClientMsgFor<G>, out: &mut Vec<Out<G>>) {
        let Some(&seat) = self.members.get(&conn) else { return };
        match msg {
            ClientMsgOf::PickColour(colour) => {
                let taken =
                    self.seats.iter().enumerate().any(|(i, s)| s.colour == colour && Some(Seat(i as u8)) != seat);
                match seat {
                    Some(seat) if matches!(self.stage, Stage::Lobby) && !taken => {
                        self.seats[seat.index()].colour = colour;
                        self.send_lobby(out);
                    }
                    _ => self.lobby_refused(conn, "that colour is taken (or the lobby is closed)", out),
                }
            }
            ClientMsgOf::Ready(ready) => match seat {
                Some(seat) if matches!(self.stage, Stage::Lobby) => {
                    self.seats[seat.index()].ready = ready;
                    self.send_lobby(out);
                    self.try_start(now, out);
                }
                _ => self.lobby_refused(conn, "the lobby is closed", out),
            },
            ClientMsgOf::Configure(settings) => {
                if seat != Some(Seat(0)) || !matches!(self.stage, Stage::Lobby) {
                    return self.lobby_refused(conn, "only the first pilot sets the championship, in the lobby", out);
                }
                if let Err(reason) = check_lobby::<G>(&settings, self.seats.len()) {
                    return self.lobby_refused(conn, &reason, out);
                }
                self.config.settings = settings;
                self.send_lobby(out);
                self.try_start(now, out);
            }
            ClientMsgOf::ChooseGame(game) => {
                if seat != Some(Seat(0)) || !matches!(self.stage, Stage::Lobby) {
                    return self.lobby_refused(conn, "only the first pilot picks the game, in the lobby", out);
                }
                if game != <G::Words as Words>::NAME {
                    out.push(OutputOf::SwitchGame { conn, game });
                }
            }
            ClientMsgOf::Act { seq, action, at_us } => {
                self.fair.saw_act(conn, seq);
                let Some(seat) = seat else {
                    let msg = ServerMsgOf::ActRefused { seq, error: TableRefusal::Spectator.into() };
                    return out.push(OutputOf::Send { conn, msg });
                };
                self.plain_act(now, (conn, seat), (seq, action, at_us), out);
            }
            ClientMsgOf::Timed { seq, action, shown_us, input_us } => {
                self.timed_msg(now, conn, seat, (seq, action, shown_us, input_us), out);
            }
            ClientMsgOf::Heartbeat { now_us, shown, acts, dense } => {
                if let Some(seat) = seat {
                    self.heartbeat(now, conn, seat, Beat { now_us, shown, acts, dense }, out);
                }
            }
            ClientMsgOf::Contribute(part) => {
                // A seat's first part, in the lobby only: the game's seed is mixed at the start.
                if let (Some(seat), Stage::Lobby) = (seat, &self.stage)
                    && let Some(slot) = self.seats.get_mut(seat.index())
                {
                    slot.part.get_or_insert(part);
                }
            }
            ClientMsgOf::FieldRecord(truth) => self.field_record(conn, seat, truth, out),
            ClientMsgOf::Leave => {
                if let Some(seat) = seat {
                    self.seats[seat.index()].bot = Some(self.config.settings.bot_level());
                }
                self.gone(now, conn, out);
            }
        }
    }

    /// A plain request of `seat`: a call under a countdown, refused from a contender of an open
    /// moment (it must carry its timings), or else applied.
    fn plain_act(&mut self, now: u64, (conn, seat): (ConnId, Seat), act: PlainAct<G::Action>, out: &mut Vec<Out<G>>) {
        let (seq, action, _) = act;
        // A pilot who acts takes the seat back from a stand-in; a plain request refused in a
        // timed moment is not acting (and must not cancel its time limit).
        match self.playing().map(Game::step) {
            Some(Step::Countdown { .. }) => {
                self.comes_back(now, seat);
                self.call(now, (conn, seat), act, out)
            }
            // Every client of this protocol acts in a timed moment with its timings: a plain
            // request there can only be a stale decision, and judging it by its arrival would
            // hand the moment to the nearest laptop.
            Some(Step::Timed { contenders, .. }) if contenders.contains(seat) => {
                let msg = ServerMsgOf::ActRefused { seq, error: TableRefusal::Untimed.into() };
                out.push(OutputOf::Send { conn, msg })
            }
            _ => {
                self.comes_back(now, seat);
                if let Err(error) = self.apply(now, seat, action, out) {
                    out.push(OutputOf::Send { conn, msg: ServerMsgOf::ActRefused { seq, error } });
                }
            }
        }
    }

    /// A timed request: it comes on the stream and as datagram copies, and the first one
    /// counts.
    fn timed_msg(
        &mut self,
        now: u64,
        conn: ConnId,
        seat: Option<Seat>,
        (seq, action, shown_us, input_us): (u32, G::Action, u64, u64),
        out: &mut Vec<Out<G>>,
    ) {
        if !self.fair.saw_act(conn, seq) {
            return;
        }
        let Some(seat) = seat else {
            let msg = ServerMsgOf::ActRefused { seq, error: TableRefusal::Spectator.into() };
            return out.push(OutputOf::Send { conn, msg });
        };
        self.comes_back(now, seat);
        self.timed_request(now, fairness::Claim { conn, seat, seq, action, shown_us, input_us }, out);
    }

    /// A pilot acted: if a bot was standing in, the pilot takes the seat back.
    fn comes_back(&mut self, now: u64, seat: Seat) {
        if self.seats[seat.index()].zombie {
            self.seats[seat.index()].zombie = false;
            self.retime_seat(now, seat);
        }
    }

    /// The connection is gone (dropped or closed).
    pub fn gone(&mut self, now: u64, conn: ConnId, out: &mut Vec<Out<G>>) {
        self.fair.forget(conn);
        let Some(seat) = self.members.remove(&conn) else { return };
        let Some(seat) = seat else { return self.send_lobby(out) };
        if self.seats[seat.index()].conn != Some(conn) {
            return;
        }
        self.seats[seat.index()].conn = None;
        if matches!(self.stage, Stage::Lobby) {
            // A lobby seat is only a name yet: free it.
            self.free_empty_lobby_seats(out);
        } else {
            // A bot plays for the dropped pilot until it comes back with its token.
            self.retime_seat(now, seat);
            self.send_lobby(out);
        }
    }

    /// Frees the lobby's seats nobody is connected to (but those carried from another game's
    /// lobby while they wait): the seats after each move up.
    fn free_empty_lobby_seats(&mut self, out: &mut Vec<Out<G>>) {
        let held = self.held_until.is_some();
        let mut kept = 0u8;
        let mut moved = BTreeMap::new();
        for (i, slot) in std::mem::take(&mut self.seats).into_iter().enumerate() {
            if slot.conn.is_none() && !held {
                continue;
            }
            moved.insert(i as u8, kept);
            self.seats.push(slot);
            kept += 1;
        }
        for s in self.members.values_mut().flatten() {
            s.0 = moved.get(&s.0).copied().unwrap_or(s.0);
        }
        self.send_lobby(out);
    }

    /// Seats the entrant `order[place]` at each place, seat tokens and connections with them;
    /// an order that does not name each seat once changes nothing.
    fn reseat(&mut self, order: &[u8]) {
        if !bolide_table::is_seating(order, self.seats.len()) {
            return tracing::warn!(?order, "a seating that is not one: everyone sits as they came");
        }
        let mut old: Vec<Option<SeatSlot>> = std::mem::take(&mut self.seats).into_iter().map(Some).collect();
        let mut moved = BTreeMap::new();
        for (place, &entrant) in order.iter().enumerate() {
            if let Some(slot) = old.get_mut(usize::from(entrant)).and_then(Option::take) {
                moved.insert(entrant, place as u8);
                self.seats.push(slot);
            }
        }
        for s in self.members.values_mut().flatten() {
            s.0 = moved.get(&s.0).copied().unwrap_or(s.0);
        }
    }

    /// Fires every timer due at `now`.
    pub fn tick(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        if matches!(self.stage, Stage::Lobby) && self.held_until.is_some_and(|at| at <= now) {
            self.held_until = None;
            self.free_empty_lobby_seats(out);
        }
        if matches!(self.stage, Stage::Lobby) && self.path_check_at.is_some_and(|at| at <= now) {
            self.path_check_at = Some(now.saturating_add(PATH_CHECK_US));
            if self.paths() != self.paths_sent {
                self.send_lobby(out);
            }
        }
        while let Some(i) = self.due.iter().position(|d| d.at <= now) {
            let due = self.due.swap_remove(i);
            self.fire(now, due.kind, out);
        }
        self.settle(now, out);
    }

    // ----- the lobby -----

    fn welcome(&self, seat: Option<Seat>, token: Option<SeatToken>, beats: BeatSchedule) -> ServerMsgFor<G> {
        ServerMsgOf::Welcome {
            version: bolide_table::wire::PROTOCOL_VERSION,
            seat,
            token,
            room: self.config.code.clone(),
            beats,
            game: <G::Words as Words>::NAME.to_string(),
        }
    }

    /// A colour no seat has (there are as many as seats at the largest table), else the least used.
    fn free_colour(&self) -> Option<Colour> {
        let used = |c: &Colour| self.seats.iter().filter(|s| s.colour == *c).count();
        Colour::ALL.into_iter().min_by_key(used)
    }

    /// A laptop hands in its field record (`serve --fairness-test`): only after the
    /// championship, from a seat, once, and no longer than [`MAX_FIELD_LINES`] — nothing of it
    /// can reach a verdict, which are all given by then.
    fn field_record(&mut self, conn: ConnId, seat: Option<Seat>, truth: FieldTruth, out: &mut Vec<Out<G>>) {
        let refused = if !self.config.field_test {
            Some("this host is not running a fairness test: start it with `bolide-host serve --fairness-test`")
        } else if !matches!(self.stage, Stage::Finished(_)) {
            Some("a field record is handed in after the championship, not before")
        } else if truth.lines.len() > MAX_FIELD_LINES || truth.calls.len() > MAX_FIELD_LINES {
            Some("a field record is too long: keep the first 1000 timed requests and calls")
        } else {
            None
        };
        let Some(seat) = seat else { return self.lobby_refused(conn, "a spectator has no field record", out) };
        if let Some(reason) = refused {
            return self.lobby_refused(conn, reason, out);
        }
        if self.fielded.contains(&seat) {
            return self.lobby_refused(conn, "this seat's field record is in already", out);
        }
        self.fielded.push(seat);
        let name = self.seats.get(seat.index()).map(|s| s.name.clone()).unwrap_or_default();
        let path = self.fair.field_path(conn);
        let FieldTruth { lines, calls } = truth;
        out.push(OutputOf::FieldRecord(FieldRecord { seat, name, lines, calls, path }));
    }

    fn lobby_refused(&self, conn: ConnId, reason: &str, out: &mut Vec<Out<G>>) {
        out.push(OutputOf::Send { conn, msg: ServerMsgOf::LobbyRefused { reason: reason.to_string() } });
    }

    /// What the host measured of each seat's path, by seat (the lobby's network check).
    fn paths(&self) -> Vec<Option<PathCheck>> {
        self.seats.iter().map(|s| s.conn.and_then(|c| self.fair.path(c))).collect()
    }

    fn lobby_state(&self) -> LobbyStateOf<G::Words> {
        LobbyStateOf {
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| LobbySeat {
                    seat: Seat(i as u8),
                    name: s.name.clone(),
                    colour: s.colour,
                    bot: s.bot.is_some(),
                    ready: s.ready || s.bot.is_some(),
                    connected: s.conn.is_some(),
                    path: s.conn.and_then(|c| self.fair.path(c)),
                })
                .collect(),
            you: None,
            settings: self.config.settings.clone(),
            spectators: self.members.values().filter(|s| s.is_none()).count() as u16,
            started: !matches!(self.stage, Stage::Lobby),
            dice: self.seed_reveal().commitment(),
            // The seed goes out only once the championship is over (nothing left to draw).
            reveal: matches!(self.stage, Stage::Finished(_)).then(|| self.seed_reveal()),
            luck: (!matches!(self.stage, Stage::Lobby)).then(|| self.luck.clone()),
        }
    }

    fn seed_reveal(&self) -> SeedReveal {
        SeedReveal { seed: self.config.seed, nonce: self.config.nonce, luck: self.luck.clone() }
    }

    fn send_lobby(&mut self, out: &mut Vec<Out<G>>) {
        self.paths_sent = self.paths();
        let lobby = self.lobby_state();
        for (&conn, &you) in &self.members {
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::Lobby(Box::new(LobbyStateOf { you, ..lobby.clone() })) });
        }
    }

    /// The game's settings (the table keeps the bots apart).
    fn game_settings(&self) -> G::Settings {
        self.config.settings.game()
    }

    /// The championship starts when every seated pilot is ready and at least one client is
    /// here; the game checks the count (bots included) and its settings.
    fn try_start(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        let humans = self.seats.len();
        if humans == 0 || !self.seats.iter().all(|s| s.ready) {
            return;
        }
        let refuse_start = |room: &RoomOf<G>, reason: String, out: &mut Vec<Out<G>>| {
            for &conn in room.members.keys() {
                room.lobby_refused(conn, &format!("cannot start: {reason}"), out);
            }
        };
        let players = humans + self.config.settings.bots() as usize;
        let Ok(players) = u8::try_from(players) else {
            return refuse_start(self, format!("{players} seats do not fit at one table"), out);
        };
        if players < G::PLAYERS.0 {
            return; // More may still join.
        }
        let settings = self.game_settings();
        if let Err(reason) = G::check_settings(&settings, players) {
            return refuse_start(self, reason, out);
        }
        for n in 1..=self.config.settings.bots() {
            let Some(colour) = self.free_colour() else { break };
            let level = self.config.settings.bot_level();
            self.seats.push(SeatSlot {
                name: format!("Bot {n}"),
                colour,
                token: None,
                bot: Some(level),
                conn: None,
                ready: true,
                zombie: false,
                part: None,
            });
        }
        // Where everyone sits (a game's teams, drawn or placed), before the game sees a seat.
        if let Some(order) = self.config.settings.seating(players, &mut self.rng) {
            self.reseat(&order);
        }
        // The luck: the host's committed seed mixed with every laptop's part (bots have none).
        let luck = Luck::from_parts(self.seats.iter().map(|s| s.part));
        let mut opening = Vec::new();
        let game = match G::start(&settings, players, luck.seed_with(self.config.seed), &mut opening) {
            Ok(game) => game,
            Err(e) => {
                self.seats.truncate(humans);
                return refuse_start(self, e, out);
            }
        };
        self.luck = luck;
        let entry = JournalEntryOf::Started {
            game: <G::Words as Words>::NAME.to_string(),
            code: self.config.code.clone(),
            settings: self.config.settings.clone(),
            seed: self.config.seed,
            nonce: self.config.nonce,
            luck: self.luck.clone(),
            seats: self
                .seats
                .iter()
                .map(|s| JournalSeat { name: s.name.clone(), colour: s.colour, token: s.token, bot: s.bot })
                .collect(),
        };
        self.journal(entry, out);
        self.stage = Stage::Playing(Box::new(game));
        self.send_lobby(out);
        self.retime(now);
        self.broadcast(&opening, false, now, out);
        self.after_change(now, out);
    }

    // ----- the game loop -----

    fn playing(&self) -> Option<&G> {
        playing(&self.stage)
    }

    /// Journals an entry (the driver writes it before anything that depends on it) and keeps
    /// its public form for the night.
    fn journal(&mut self, entry: JournalEntryOf<G::Words>, out: &mut Vec<Out<G>>) {
        self.night.push(entry.public());
        self.night_parts.take();
        out.push(OutputOf::Journal(entry));
    }

    /// The night's journal to one laptop, in parts ([`NIGHT_PART_BYTES`](bolide_table::wire::NIGHT_PART_BYTES)), once the
    /// championship is over.
    fn send_night(&self, conn: ConnId, out: &mut Vec<Out<G>>) {
        if !matches!(self.stage, Stage::Finished(_)) {
            return;
        }
        let parts = self.night_parts.get_or_init(|| night_parts(&self.night));
        let count = parts.len();
        for (part, lines) in parts.iter().cloned().enumerate() {
            let part = u16::try_from(part).unwrap_or(u16::MAX);
            out.push(OutputOf::Send {
                conn,
                msg: ServerMsgOf::Night { part, last: part as usize + 1 == count, lines },
            });
        }
    }

    /// Applies an action through the game: journal first, then everyone's update.
    fn apply(&mut self, now: u64, seat: Seat, action: G::Action, out: &mut Vec<Out<G>>) -> Result<(), G::Refusal> {
        let Stage::Playing(game) = &mut self.stage else { return Err(TableRefusal::Over.into()) };
        let mut events = Vec::new();
        Game::apply(&mut **game, seat, action, &mut events)?;
        self.journal(JournalEntryOf::Applied { seat, action }, out);
        self.changed(now, events, out);
        Ok(())
    }

    /// The countdown ended, or the timed moment that ends with its time: the game is told,
    /// and the journal says so (a resume tells it again at the same point).
    fn time_up(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        let Stage::Playing(game) = &mut self.stage else { return };
        let mut events = Vec::new();
        if let Err(e) = game.time_is_up(&mut events) {
            return tracing::error!(%e, "the game refused the end of its own countdown");
        }
        self.journal(JournalEntryOf::TimeUp, out);
        self.changed(now, events, out);
    }

    /// After the game changed: the moment it left ends, the one it entered opens, the timers
    /// follow, and everyone gets `events` with a fresh view.
    fn changed(&mut self, now: u64, mut events: Vec<G::Event>, out: &mut Vec<Out<G>>) {
        self.applied += 1;
        // A timed moment just ended: every verdict is final, so its figures may be public.
        if let Some(photo) = self.end_moment(now, out) {
            self.journal(JournalEntryOf::Published { event: photo.clone() }, out);
            events.push(photo);
        }
        let opened = self.unopened_moment();
        if let Some(step) = opened {
            self.open_moment(now, step);
            let news = self.playing().and_then(|g| g.twin(&events));
            let opens = self.fair.open_moment().map_or(now, |(_, opens)| opens);
            out.push(OutputOf::Moment(moment_log::MomentLine::Opened {
                moment: step.moment,
                decided_us: now,
                opens_us: opens,
                window_us: step.window_us,
                contenders: step.contenders,
                news,
            }));
        }
        // Timers first: the update says how long each wait is and when the countdown ends.
        self.retime(now);
        self.broadcast(&events, opened.is_some(), now, out);
        self.after_change(now, out);
    }

    /// Everyone's update after `events`; `opened`: they opened a timed moment.
    fn broadcast(&mut self, events: &[G::Event], opened: bool, now: u64, out: &mut Vec<Out<G>>) {
        let conns: Vec<ConnId> = self.members.keys().copied().collect();
        for conn in conns {
            let Some((at, show_at)) = opened.then(|| self.moment_timing(conn, now)).flatten() else {
                self.send_update_to(conn, events, now, out);
                continue;
            };
            // B-4.2, B-4.7, fairness.md §2, §6: the update says when to show the moment on
            // that laptop's clock. A secret one (and its datagram twin) leaves so that it
            // arrives just before; a public one (and its twin) at once.
            let mut msgs = Vec::new();
            self.send_update_to(conn, events, now, &mut msgs);
            if let Some(twin) = self.playing().and_then(|g| g.twin(events)) {
                let datagram = DatagramOf::Twin { show_at_us: show_at, twin };
                out.push(OutputOf::DatagramAt { conn, at, datagram });
            }
            for m in msgs {
                if let OutputOf::Send {
                    conn,
                    msg: ServerMsgOf::Update { events, view, legal, deadline_ms, awaited, .. },
                } = m
                {
                    let msg = ServerMsgOf::Update {
                        events,
                        view,
                        legal,
                        deadline_ms,
                        awaited,
                        show_at_us: show_at,
                        countdown_end_us: None,
                    };
                    out.push(OutputOf::SendAt { conn, at, msg });
                }
            }
        }
    }

    fn send_update_to(&mut self, conn: ConnId, events: &[G::Event], now: u64, out: &mut Vec<Out<G>>) {
        // Under a countdown: when it ends, on this client's clock — its countdown, and the mark
        // its call is judged against (fairness.md §6). It tells its clock once just after,
        // instead of beating the whole time.
        let counting = matches!(self.playing().map(Game::step), Some(Step::Countdown { .. }));
        let countdown_end_us = if counting { self.fair.countdown_end_for(conn) } else { None };
        let Some(game) = self.playing() else { return };
        let seat = self.members.get(&conn).copied().flatten();
        let view = game.view(seat);
        let mut legal = Vec::new();
        if let Some(seat) = seat {
            game.offered(seat, &mut legal);
        }
        // Under a countdown, the time left is the time to its end; in a moment that ends with
        // its time, to its length (its grace is the table's, not a player's).
        let deadline_ms = seat.and_then(|s| {
            self.due
                .iter()
                .find(|d| {
                    matches!(d.kind, DueKind::Act(a) if a == s)
                        || matches!(d.kind, DueKind::LengthPassed | DueKind::TimeUp)
                })
                .map(|d| (d.at.saturating_sub(now) / 1000) as u32)
        });
        // Whose decision a person's time limit now runs for, on every screen.
        let awaited = self
            .due
            .iter()
            .filter_map(|d| match d.kind {
                DueKind::Act(a) if self.seats.get(a.index()).is_some_and(|slot| !slot.bot_plays()) => Some((a, d.at)),
                _ => None,
            })
            .min_by_key(|(_, at)| *at)
            .map(|(a, at)| (a, (at.saturating_sub(now) / 1000) as u32));
        out.push(OutputOf::Send {
            conn,
            msg: ServerMsgOf::Update {
                events: events.iter().map(|e| game.event_for(e, seat)).collect(),
                view: Box::new(view),
                legal,
                deadline_ms,
                awaited,
                show_at_us: None,
                countdown_end_us,
            },
        });
    }

    fn after_change(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        let Some(standings) = self.playing().and_then(Game::standings) else { return self.retime(now) };
        let standings: Vec<StandingLine> = standings
            .iter()
            .map(|s| StandingLine {
                seat: s.seat,
                name: self.seats.get(s.seat.index()).map(|slot| slot.name.clone()).unwrap_or_default(),
                points: s.points,
                wins: s.wins,
                rank: s.rank,
            })
            .collect();
        let Stage::Playing(game) = std::mem::replace(&mut self.stage, Stage::Lobby) else { return };
        self.stage = Stage::Finished(game);
        self.due.clear();
        // The lobby now carries the seed, so every client has checked its dice by the time it
        // reads the standings.
        self.send_lobby(out);
        for &conn in self.members.keys() {
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::Finished { standings: standings.clone() } });
            self.send_night(conn, out);
        }
    }

    /// Fresh timers when the game reached a new step.
    fn retime(&mut self, now: u64) {
        let Some(step) = self.playing().map(Game::step) else { return };
        let key = match step {
            Step::Sequential { .. } => StepKey::Sequential(self.applied),
            Step::Countdown { .. } => StepKey::Countdown(self.applied),
            Step::Timed { moment, .. } => StepKey::Timed(moment),
            Step::Over => StepKey::Over,
        };
        if self.step != Some(key) {
            self.step = Some(key);
            self.schedule(now, step);
        }
    }

    /// New timers for the step the game is in.
    fn schedule(&mut self, now: u64, step: Step) {
        self.due.clear();
        let warm_up =
            if matches!(step, Step::Countdown { .. }) && self.needs_warm_up() { fairness::WARM_UP_US } else { 0 };
        let mut due = Vec::new();
        match step {
            Step::Countdown { callers } => {
                // A laptop that joined a moment ago is known by a few probes only: its first
                // call and grab would be judged on a cold clock model (the lab saw far laptops
                // clamped by hundreds of ms). The countdown runs longer for the probe burst.
                let end = now.saturating_add(us(self.config.countdown_ms)).saturating_add(warm_up);
                due.push(Due { at: end, kind: DueKind::TimeUp });
                let owd = self.slowest_pilot_path();
                self.fair.open_countdown(self.seats.len() as u8, end, owd);
                for seat in callers.iter() {
                    if self.seats.get(seat.index()).is_some_and(SeatSlot::bot_plays) {
                        // A slipping hand calls just after the end: refused (B-4.6: token kept).
                        let at = match self.hands(seat).calls_late(&mut self.rng) {
                            true => end.saturating_add(1),
                            false => now.saturating_add(self.rng.random_range(0..=us(self.config.countdown_ms) / 2)),
                        };
                        due.push(Due { at, kind: DueKind::Call(seat) });
                    }
                }
            }
            Step::Sequential { seats } | Step::Timed { contenders: seats, .. } => {
                due.extend(seats.iter().map(|s| Due { at: 0, kind: DueKind::Act(s) }))
            }
            Step::Over => {}
        }
        let timed = TimedStep::of(step);
        // A timed moment's clock starts when it is shown (the reveal instant, the Échange
        // window's opening), not when the host decided it.
        let start = match timed {
            Some(_) => self.fair.open_moment().map_or(now, |(_, opens)| opens),
            None => now,
        };
        self.step_start = start;
        for d in &mut due {
            if let DueKind::Act(seat) = d.kind {
                d.at = start.saturating_add(self.wait_for(seat, timed.is_some()));
            }
        }
        // A moment that ends with its time (1000 Bornes' Coup-Fourré window, M-15.7): it may
        // close once its length has passed and every laptop is done, and closes at the
        // latest a grace after it.
        if let Some(window) = timed.and_then(|t| t.window_us) {
            let length = start.saturating_add(window);
            due.push(Due { at: length, kind: DueKind::LengthPassed });
            due.push(Due { at: length.saturating_add(fairness::WINDOW_GRACE_US), kind: DueKind::TimeUp });
        }
        self.due = due;
    }

    /// How long a decision of `seat` may take: a bot's thinking (or reaction) time, or the
    /// pilot's time limit (`timed`: in the grab or the Échange window).
    fn wait_for(&mut self, seat: Seat, timed: bool) -> u64 {
        let base = us(self.config.bot_delay_ms);
        match (self.seats[seat.index()].bot_plays(), timed) {
            (true, true) => {
                // A human hand's reaction to the choices it has (`bots::hands`): the pawns
                // still free, or whom to swap with; on the scale of this room's bots (the
                // default 700 ms: as drawn).
                let choices = self.playing().map_or(1, |g| {
                    let mut legal = Vec::new();
                    g.legal(seat, &mut legal);
                    legal.len().max(1)
                });
                let reaction = self.hands(seat).reaction_us(choices, &mut self.rng);
                (reaction as f64 * base as f64 / us(DEFAULT_BOT_DELAY_MS) as f64) as u64
            }
            (true, false) => base,
            (false, true) => us(self.config.moment_timeout_ms),
            (false, false) => us(self.config.settings.turn_limit_ms().unwrap_or(self.config.turn_timeout_ms)),
        }
    }

    /// The hands of the bot that plays `seat` (its own level, or the table's for a stand-in).
    fn hands(&self, seat: Seat) -> Hands {
        Hands::of(self.seats.get(seat.index()).and_then(|s| s.bot).unwrap_or(self.config.settings.bot_level()))
    }

    /// A seat changed hands (a drop, a return, a comeback): its pending decision gets the
    /// timer of whoever plays it now.
    fn retime_seat(&mut self, now: u64, seat: Seat) {
        let timed = self.timed_step().is_some();
        if self.due.iter().any(|d| d.kind == DueKind::Act(seat)) {
            let at = self.time_limit(now, seat, timed);
            for d in self.due.iter_mut().filter(|d| d.kind == DueKind::Act(seat)) {
                d.at = at;
            }
        }
    }

    /// A pilot's request in a timed moment was refused (a faster hand took the pawn) and it
    /// must decide again. Its time limit may already have fired — a stand-in acted, then the
    /// pilot came back in person —; then it runs again, so a laptop that beats without
    /// deciding cannot hold the moment open.
    pub(super) fn owes_a_decision(&mut self, now: u64, seat: Seat) {
        if !self.due.iter().any(|d| d.kind == DueKind::Act(seat)) {
            let at = self.time_limit(now, seat, true);
            self.due.push(Due { at, kind: DueKind::Act(seat) });
        }
    }

    /// When `seat`'s time limit for the decision now open ends: from the start of the decision,
    /// not from a comeback (a pilot who reconnects over and over must not hold the table past
    /// one time limit), and never before `now`.
    fn time_limit(&mut self, now: u64, seat: Seat, timed: bool) -> u64 {
        self.step_start.saturating_add(self.wait_for(seat, timed)).max(now)
    }

    fn fire(&mut self, now: u64, kind: DueKind, out: &mut Vec<Out<G>>) {
        let Some(step) = self.playing().map(Game::step) else { return };
        match kind {
            DueKind::TimeUp => match step {
                Step::Countdown { .. } => {
                    // Calls made before this instant may still be travelling: settle first.
                    self.fair.countdown_over();
                    self.settle(now, out);
                }
                Step::Timed { window_us: Some(_), .. } => {
                    // Requests still in judgement are decided first; then the time is up.
                    self.settle(now, out);
                    if self.timed_step().is_some_and(|t| t.window_us.is_some()) {
                        self.fair.closing(moment_log::ClosedBy::Deadline);
                        self.time_up(now, out);
                    }
                }
                _ => {}
            },
            DueKind::LengthPassed => self.settle(now, out),
            DueKind::Call(seat) => {
                let Some(slot) = self.seats.get(seat.index()).filter(|s| s.bot_plays()) else { return };
                let level = slot.bot.unwrap_or(self.config.settings.bot_level());
                let Some(game) = playing(&self.stage) else { return };
                let mut scratch = std::mem::take(&mut self.legal);
                let call = game.bot(seat, level, &mut self.rng, &mut scratch);
                self.legal = scratch;
                if let Some(action) = call {
                    // Refused only past the end: a slipping hand's late call (B-4.6).
                    let _ = self.fair.call(None, seat, action, now);
                }
            }
            DueKind::Act(seat) => {
                let mut legal = std::mem::take(&mut self.legal);
                if let Some(game) = self.playing() {
                    game.legal(seat, &mut legal);
                }
                // A moment that ends with its time asks nothing of anyone (1000 Bornes'
                // Coup-Fourré window, M-15.12): only the host's own bots act in it, never a
                // stand-in for a person, there or not — and the window waits for nobody.
                let asks_nothing = self.timed_step().is_some_and(|t| t.window_us.is_some());
                let Some(slot) =
                    self.seats.get_mut(seat.index()).filter(|s| !(legal.is_empty() || asks_nothing && s.bot.is_none()))
                else {
                    self.legal = legal;
                    return;
                };
                if slot.bot.is_none() {
                    // The pilot let the time limit pass (here or away): a bot plays for it
                    // until it acts again, whether it reconnects meanwhile or not.
                    slot.zombie = true;
                }
                let level = slot.bot.unwrap_or(self.config.settings.bot_level());
                let Some(game) = playing(&self.stage) else { return };
                let action = game.bot(seat, level, &mut self.rng, &mut legal);
                let timed = self.timed_step().is_some();
                // Now and then a hand in a timed moment slips to another choice (`bots::hands`).
                let action = match action {
                    Some(a) if timed && Hands::of(level).slips(&mut self.rng) => {
                        let others: Vec<G::Action> = legal.iter().copied().filter(|o| *o != a).collect();
                        Some(others.get(self.rng.random_range(0..others.len().max(1))).copied().unwrap_or(a))
                    }
                    other => other,
                };
                self.legal = legal;
                let Some(action) = action else { return };
                if timed {
                    return self.hosted_request(now, seat, action, out);
                }
                if let Err(e) = self.apply(now, seat, action, out) {
                    tracing::error!(%seat, ?action, %e, "a bot's legal action was refused");
                }
            }
        }
    }

    /// Rebuilds a room from its journal after a crash: the same seats and tokens, and the
    /// championship replayed action by action. Pilots come back with their seat tokens; until
    /// they do, their time limits run as usual.
    pub fn resume(
        config: RoomConfigOf<LobbyOf<G>>,
        entropy: u64,
        entries: &[JournalEntryOf<G::Words>],
        now: u64,
    ) -> Result<RoomOf<G>, ResumeError> {
        let mut room = RoomOf::new(config, entropy);
        room.night = entries.iter().map(JournalEntryOf::public).collect();
        let mut entries = entries.iter();
        let Some(JournalEntryOf::Started { game, code, settings, seed, nonce, luck, seats }) = entries.next() else {
            return Err(ResumeError::NotStarted);
        };
        let asked = <G::Words as Words>::NAME;
        if !game.is_empty() && game != asked {
            return Err(ResumeError::OtherGame { journal: game.clone(), asked: asked.into() });
        }
        room.config.code = code.clone();
        room.config.settings = settings.clone();
        room.config.seed = *seed;
        room.config.nonce = *nonce;
        room.luck = luck.clone();
        room.seats = seats
            .iter()
            .map(|s| SeatSlot {
                name: s.name.clone(),
                colour: s.colour,
                token: s.token,
                bot: s.bot,
                conn: None,
                ready: true,
                zombie: false,
                part: None,
            })
            .collect();
        let players = u8::try_from(room.seats.len()).map_err(|_| ResumeError::Setup("too many seats".into()))?;
        let mut game = G::start(&room.game_settings(), players, luck.seed_with(*seed), &mut Vec::new())
            .map_err(ResumeError::Setup)?;
        for (i, entry) in entries.enumerate() {
            let line = i + 2;
            let replayed = match entry {
                JournalEntryOf::Applied { seat, action } => Game::apply(&mut game, *seat, *action, &mut Vec::new()),
                JournalEntryOf::TimeUp => game.time_is_up(&mut Vec::new()),
                // Not the engine's: it was published, and stays in the night.
                JournalEntryOf::Published { .. } => Ok(()),
                JournalEntryOf::Started { .. } => return Err(ResumeError::Entry(line)),
            };
            replayed.map_err(|error| ResumeError::Replay { line, error: error.to_string() })?;
            room.applied += 1;
        }
        room.stage = Stage::Playing(Box::new(game));
        // Killed in a timed moment: it opens again from now (its timings died with the
        // process), so that the pawns left are grabbed, the Échanges declared, and the
        // stand-ins can act.
        if let Some(step) = room.unopened_moment() {
            room.open_moment(now, step);
        }
        // Timers restart from now; a finished championship moves to its final stage.
        room.after_change(now, &mut Vec::new());
        Ok(room)
    }
}

/// The game being played, borrowed from the stage alone (so the room's other parts stay free).
fn playing<G>(stage: &Stage<G>) -> Option<&G> {
    match stage {
        Stage::Playing(game) => Some(game),
        _ => None,
    }
}

/// A night's journal as lines (`JournalEntryOf::to_line`) in parts of at most
/// [`NIGHT_PART_BYTES`](bolide_table::wire::NIGHT_PART_BYTES), cut between lines (a line longer than that goes alone).
fn night_parts<W: Words>(night: &[JournalEntryOf<W>]) -> Vec<String> {
    let mut parts = vec![String::new()];
    for line in night.iter().map(JournalEntryOf::to_line) {
        if parts.last().is_some_and(|p| !p.is_empty() && p.len() + line.len() > bolide_table::wire::NIGHT_PART_BYTES) {
            parts.push(String::new());
        }
        if let Some(part) = parts.last_mut() {
            part.push_str(&line);
        }
    }
    parts
}

/// Milliseconds from a setting as µs, saturating: a huge delay waits forever, never wraps.
fn us(ms: u64) -> u64 {
    ms.saturating_mul(1000)
}

/// Checks a lobby's settings with `seated` players already in it: the same check for the
/// host's flags and for the lobby's `Configure`. The table checks the seats (the bots fit, and
/// one seat stays for a person); the game its own settings, as at its fullest table (the count
/// itself is checked at the start). A refusal starts with the field.
pub fn check_lobby<G: Game>(lobby: &LobbyOf<G>, seated: usize) -> Result<(), String> {
    let (most, bots) = (usize::from(G::PLAYERS.1), usize::from(lobby.bots()));
    if seated + bots > most || bots >= most {
        return Err(format!(
            "bots: {bots} bots and {seated} players do not fit at a table of {most} (at least one seat stays for a person)"
        ));
    }
    lobby.check()?;
    G::check_settings(&lobby.game(), G::PLAYERS.1)
}

#[cfg(test)]
mod tests;
