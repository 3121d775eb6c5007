//! The wire: every message between a client and the host, and how it is framed.
//!
//! Game traffic travels on one reliable, ordered QUIC stream per client, as frames: a 4-byte
//! little-endian length, then the message encoded with bincode 2 (serde, standard config).
//! A frame longer than [`MAX_FRAME`] or one that does not decode closes that connection with a
//! clear reason; nothing else is disturbed. What is about time travels as QUIC datagrams
//! ([`Datagram`]): clock probes and heartbeats only there, timed requests there as well as on
//! the stream — a lost packet on the stream holds everything behind it for a retransmission,
//! which would spoil a timing or hold up every verdict.
//!
//! The envelope is the table's and serves any game: a message carries the game's words
//! (`W: bolide_table::Words` — its actions, events, views, refusals, lobby settings, datagram
//! twins): `ServerMsgOf<W>`, `ClientMsgOf<W>`, `LobbyStateOf<W>`, `DatagramOf<W>`. A game names
//! its own (Bolide's `ServerMsg` is `ServerMsgOf<Bolide>`).

use crate::colour::Colour;
use crate::seal::{Commitment, Luck, Part, SeedReveal};
use crate::{Seat, Words};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Bumped whenever a message changes shape.
pub const PROTOCOL_VERSION: u32 = 18;
/// QUIC application protocol name.
pub const ALPN: &[u8] = b"bolide/1";
/// The largest frame either side accepts (a full view is about 2 KB).
pub const MAX_FRAME: usize = 64 * 1024;
/// The largest frame a host reads before the code word is proved: a Knock or a Proof (a name
/// is at most a few dozen bytes, a SPAKE2 message 33, a pass 32).
pub const DOOR_FRAME: usize = 1024;
/// The UDP port a host listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 47_117;
/// The mDNS service type a host advertises.
pub const MDNS_SERVICE: &str = "_bolide._udp.local.";

/// QUIC application close codes, so either side can tell why a connection ended.
pub mod close {
    pub const NORMAL: u32 = 0;
    pub const VERSION_MISMATCH: u32 = 1;
    pub const WRONG_CODE: u32 = 2;
    pub const BAD_FRAME: u32 = 3;
    pub const ROOM_FULL: u32 = 4;
    pub const SHUTDOWN: u32 = 5;
    pub const BAD_TOKEN: u32 = 6;
    /// A seat came back more often than a flaky Wi-Fi would make it: wait, then rejoin.
    pub const TOO_MANY_COMEBACKS: u32 = 7;
    /// Messages or datagrams far past what a laptop sends.
    pub const FLOOD: u32 = 8;
    /// The table now plays another game, named by the close's reason (`Words::NAME`): come
    /// back at once with the seat token, speaking that game (`ClientMsg::ChooseGame`).
    pub const GAME_CHANGED: u32 = 9;
}

/// The first frame a client sends: which room, and its half of the exchange over the code
/// word (`bolide_link::pake`) — never the word itself, nor a seat token, before the host has
/// proved it knows the word. `version` comes first, so any later version can still read it
/// and answer a mismatch with a clear message. The host answers [`ServerMsg::Pake`] (or
/// `Refused`), and the client [`Proof`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knock {
    pub version: u32,
    /// The room on that host, from the room code (0: the host's first room).
    pub room: u16,
    /// The client's SPAKE2 message.
    pub pake: Vec<u8>,
    pub name: String,
    /// Watch the table (a spectator), even while seats are free.
    pub watch: bool,
    /// A seated laptop's pass (`bolide_link::pake::seat_pass`: its seat token's HMAC over this
    /// connection, never the token): the door lets it through while strangers' guessing has
    /// locked it for new joins.
    pub pass: Option<Vec<u8>>,
    /// How long before its frame is up its screen draws it, µs ([`Hello::frame_lead_us`]).
    pub frame_lead_us: u32,
}

/// The client's second frame, once the host proved it knows the code word: its own proof,
/// and the token of a seat held before (a secret too: only for a host that knows the word).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    pub proof: Vec<u8>,
    pub seat_token: Option<SeatToken>,
}

/// What a laptop asks of a room once the code word is proved on both sides (the host's
/// network layer builds it from [`Knock`] and [`Proof`]; tests hand it to a room directly).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub version: u32,
    /// The room's code word (the part before the dash).
    pub code: String,
    pub name: String,
    /// The token of a seat held before, to come back to it after a drop.
    pub seat_token: Option<SeatToken>,
    /// Watch the table (a spectator), even while seats are free.
    pub watch: bool,
    /// How long before its frame is up the laptop's screen draws it, µs: none where a frame
    /// goes up as its pass ends (a window on the X server), a refresh in a browser's page,
    /// whose frame goes up at the refresh after its pass. A secret reveal leaves that much
    /// earlier for it, so its frame is up at the moment's instant; the room takes at most
    /// `MAX_FRAME_LEAD_US` of it (what it is worth to a liar: fairness.md §2).
    pub frame_lead_us: u32,
}

impl Hello {
    /// A laptop's hello to the room whose word is `code`, as `name`: this protocol's version,
    /// no seat held before, to sit, a screen with no frame lead — what the host's own nights
    /// and the tests hand a room (the door builds its own from a [`Knock`]).
    pub fn new(code: &str, name: &str) -> Hello {
        Hello {
            version: PROTOCOL_VERSION,
            code: code.into(),
            name: name.into(),
            seat_token: None,
            watch: false,
            frame_lead_us: 0,
        }
    }
}

/// The most of a laptop's frame lead a room believes: a 60 Hz refresh, rounded up.
pub const MAX_FRAME_LEAD_US: u32 = 17_000;

/// When a client showed a timed moment, on its own clock. The moment is named — by the game's
/// name for it ([`crate::Step::Timed`]'s `moment`; Bolide's `Timed::name`) —, so that a beat
/// from one moment that arrives once the next is open (Bolide's grab, then its Échange window)
/// is not read as the next one's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    pub moment: u64,
    pub at_us: u64,
}

/// Proof of a seat: given at join, presented again to reconnect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatToken(pub u128);

/// Client → host, after the hello.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum ClientMsgOf<W: Words> {
    /// Lobby: take a free colour.
    PickColour(Colour),
    /// Lobby: hand flat on the table (or not).
    Ready(bool),
    /// Lobby, first client only: the game's settings.
    Configure(W::Lobby),
    /// Lobby, first client only: play another game at this table (its `Words::NAME`). The host
    /// opens a lobby of it in the same seats and closes every connection with
    /// [`close::GAME_CHANGED`]; each laptop comes back with its seat token, in that game's words.
    ChooseGame(String),
    /// A game action; `seq` comes back in a refusal. `at_us` is when the player acted, on the
    /// client's own clock: a call under a countdown (Bolide's Klaxon, B-4.6) is ordered by how
    /// long before the countdown's end it came on that clock, counted from the
    /// `countdown_end_us` the host told it.
    Act { seq: u32, action: W::Action, at_us: Option<u64> },
    /// An action in a timed moment (Bolide's grab, 1000 Bornes' Coup-Fourré…), with the two
    /// readings of the client's monotonic clock that make its reaction: when the moment was
    /// shown and when the player acted. One request for every moment: the host judges any of
    /// them by reaction the same way (a copy travels as [`Datagram::Timed`]).
    Timed { seq: u32, action: W::Action, shown_us: u64, input_us: u64 },
    /// While a timed moment or a countdown's calls are open (usually as
    /// [`Datagram::Beat`]): the client's clock now, when it showed the moment now open (if it
    /// has), and the `seq` of the last action it sent. Once the host holds that action and
    /// this, nothing the client sends later can claim an earlier instant. `dense`: the next
    /// beat follows within [`BEAT_US`], so the gap to it is a sample of the path (a laptop
    /// beats sparsely while nothing timed is near, [`BeatSchedule::Steady`]).
    Heartbeat { now_us: u64, shown: Option<Shown>, acts: u32, dense: bool },
    /// Leaving for good (the seat goes to a bot).
    Leave,
    /// Lobby: this laptop's part of the table's luck (`dice::Part`, from its OS's random
    /// source), sent once it has seen the host's commitment; the host keeps a seat's first.
    Contribute(Part),
    /// A fairness field run (`bolide-host serve --fairness-test`), once the game is
    /// over: the timed requests and calls this laptop made, as it made them — the truth the
    /// host scores its verdicts against. Accepted once, only then, and at most
    /// [`MAX_FIELD_LINES`] of each.
    FieldRecord(FieldTruth),
}

/// What a laptop did in a fairness field run, on its own clock.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldTruth {
    pub lines: Vec<FieldLine>,
    pub calls: Vec<FieldCall>,
}

impl FieldTruth {
    /// Keeps a timed request made; past [`MAX_FIELD_LINES`] nothing more, as the host would
    /// refuse a longer record.
    pub fn request(&mut self, line: FieldLine) {
        if self.lines.len() < MAX_FIELD_LINES {
            self.lines.push(line);
        }
    }

    /// Keeps a call made under a countdown, bounded as [`FieldTruth::request`].
    pub fn call(&mut self, call: FieldCall) {
        if self.calls.len() < MAX_FIELD_LINES {
            self.calls.push(call);
        }
    }
}

/// A call under a countdown (Bolide's Klaxon) in a field run, on the laptop's own clock: the
/// call's `seq`, the countdown's end it was told, and when it called. The host orders calls by
/// how long before that end each came (`end_us − at_us`), which one clock measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldCall {
    pub seq: u32,
    pub end_us: u64,
    pub at_us: u64,
}

/// One timed request of a fairness field run, on the laptop's own clock: the request, its
/// moment, when the laptop showed it and when its hand moved (µs). Its reaction is `input_us − shown_us`,
/// measured on one clock: no offset between laptops enters it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldLine {
    /// The request's `seq`, as sent.
    pub seq: u32,
    pub moment: u64,
    pub shown_us: u64,
    pub input_us: u64,
}

/// Lines, and calls, a field record may carry: a long game's timed requests and calls,
/// within a frame.
pub const MAX_FIELD_LINES: usize = 1_000;

/// Host → client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum ServerMsgOf<W: Words> {
    /// The hello was accepted. `seat` is `None` for a spectator; `beats`: how often this
    /// laptop beats; `game`: the game the table plays (`Words::NAME`), which says how every
    /// message after this one reads.
    Welcome {
        version: u32,
        seat: Option<Seat>,
        token: Option<SeatToken>,
        room: String,
        beats: BeatSchedule,
        game: String,
    },
    /// The host's half of the exchange over the code word and its proof, bound to this
    /// connection (`bolide_link::pake`).
    Pake { msg: Vec<u8>, proof: Vec<u8> },
    /// The hello was refused; the connection closes after this. `again`: the door is only
    /// busy (guessing locked it, a seat came back too often): a laptop that holds a seat
    /// token knocks again after a while.
    Refused { reason: String, again: bool },
    /// Boxed: a lobby carries the seal (commitment, reveal and parts), far larger than most
    /// messages.
    Lobby(Box<LobbyStateOf<W>>),
    /// What happened since the last update, then this seat's whole current view and what it
    /// may do now. `deadline_ms` is how long the host waits before a bot plays for it.
    Update {
        events: Vec<W::Event>,
        view: Box<W::View>,
        legal: Vec<W::Action>,
        deadline_ms: Option<u32>,
        /// The seat a person plays whose decision the table awaits, and how long (ms) before
        /// a bot makes it for them: every screen shows whose turn it is and the time left.
        awaited: Option<(Seat, u32)>,
        /// When this update opens a timed moment — it reveals the reservoirs (B-4.2) or opens
        /// the Échange window (B-4.7) —, the instant to show it, on the client's own clock. A
        /// reveal is sent so that it arrives just before; an Échange window early enough for a
        /// retransmission (its news were public already), and held until then.
        show_at_us: Option<u64>,
        /// Under a countdown: when it ends (and its calls with it), on the client's own clock
        /// — the same instant in every update under one countdown: the countdown the player
        /// sees, and the mark a call is judged against. The client sends one heartbeat just
        /// after, which lets the host settle the calls.
        countdown_end_us: Option<u64>,
    },
    /// An action was refused; nothing changed.
    ActRefused { seq: u32, error: W::Refusal },
    /// A lobby request was refused.
    LobbyRefused { reason: String },
    /// The game is over: the final standings, best first.
    Finished { standings: Vec<StandingLine> },
    /// The night, once the game is over: the host's journal as every player may keep
    /// it (no room code, no seat tokens; the photo finishes it published), in the lines
    /// `bolide-host verify` and `replay` read, in parts of at most [`NIGHT_PART_BYTES`] —
    /// every laptop keeps it for its replays.
    Night {
        /// 0, 1, 2… in order.
        part: u16,
        last: bool,
        lines: String,
    },
}

/// The largest part of a night's journal ([`ServerMsgOf::Night`]): well within a frame.
pub const NIGHT_PART_BYTES: usize = 48 * 1024;
/// The most a laptop takes of one night's journal (a 7-race Bolide championship is ~0.5 MB).
pub const MAX_NIGHT_BYTES: usize = 4 * 1024 * 1024;

/// What the host says at its door, before a laptop knows which game the table plays: the
/// first three of [`ServerMsgOf`]'s messages, read the same whatever the game (their bytes are
/// `ServerMsgOf<W>`'s for every `W`, which a test holds). A laptop reads its first frames as
/// these, then every frame after the welcome in the words of the game it names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Door {
    Welcome {
        version: u32,
        seat: Option<Seat>,
        token: Option<SeatToken>,
        room: String,
        beats: BeatSchedule,
        game: String,
    },
    Pake {
        msg: Vec<u8>,
        proof: Vec<u8>,
    },
    Refused {
        reason: String,
        again: bool,
    },
}

/// One line of the final standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingLine {
    pub seat: Seat,
    pub name: String,
    pub points: u32,
    pub wins: u8,
    /// Shared when points and wins are equal.
    pub rank: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct LobbyStateOf<W: Words> {
    pub seats: Vec<LobbySeat>,
    /// The seat of the connection this lobby goes to (`None`: a spectator). Seats move up when
    /// a player leaves the lobby, so every lobby says it again: a laptop never keeps a stale one.
    pub you: Option<Seat>,
    pub settings: W::Lobby,
    pub spectators: u16,
    /// Whether the game has started (late joiners watch).
    pub started: bool,
    /// The host's commitment to the game's seed, shown from the first lobby on.
    pub dice: Commitment,
    /// The seed and its nonce, once the game is over: every die can then be checked.
    pub reveal: Option<SeedReveal>,
    /// The laptops' parts the game's seed was mixed from, from the start on (`None` in the
    /// lobby): every laptop sees whose part is in, and checks its own (`dice::Luck`).
    pub luck: Option<Luck>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySeat {
    pub seat: Seat,
    pub name: String,
    pub colour: Colour,
    pub bot: bool,
    pub ready: bool,
    pub connected: bool,
    /// What the host measured of this laptop's path so far (`None`: not yet, or a bot).
    pub path: Option<PathCheck>,
}

/// The lobby's network check: what the host measured of one laptop's path — from its clock
/// probes (delay, jitter) and its beats (silences) —, so that a bad Wi-Fi is found before the
/// first grab, not in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathCheck {
    /// The one-way delay the host trusts (its floor plus jitter), ms.
    pub delay_ms: u16,
    /// How far delays spread above the floor, ms.
    pub jitter_ms: u16,
    /// Silences (several beats missing in a row) in the last minute.
    pub silences: u16,
    /// The longest of them, ms.
    pub longest_silence_ms: u16,
}

/// What a [`PathCheck`] means for a game: the same words on every screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathVerdict {
    /// A few ms, steady: the grab is judged as on a cable.
    Good,
    /// Far or jittery: still fair (reactions are measured on the laptop), but the host waits
    /// longer for its verdicts.
    Slow,
    /// It goes quiet in stretches (Wi-Fi power saving, a microwave, a busy channel): still
    /// fair, but every verdict waits for it; sit closer to the router or use a cable.
    Drops,
}

impl PathCheck {
    /// Past this one-way delay (ms) a path is slow for a table in one room.
    pub const SLOW_MS: u16 = 30;

    pub fn verdict(&self) -> PathVerdict {
        if self.silences >= 2 {
            PathVerdict::Drops
        } else if self.delay_ms > Self::SLOW_MS || self.jitter_ms > Self::SLOW_MS / 2 {
            PathVerdict::Slow
        } else {
            PathVerdict::Good
        }
    }
}

/// What travels as QUIC datagrams (unreliable, unordered, never held behind a loss); times in µs.
/// - `Ping`/`Pong`: the client measures its round trip; the host echoes `t0` with its receive
///   and send times.
/// - `HostPing`/`ClientPong`: the host's clock sync (fairness.md §1): the host stamps `t0`,
///   the client answers with its receive and send times `t1`, `t2` on its own clock.
/// - `Beat`: a client's heartbeat (fairness.md §4): its clock now, when it showed the
///   reservoirs, and the `seq` of the last action or grab it sent (`acts`): a beat vouches
///   for its time only once the host holds that action, since a datagram may overtake it.
///   Losing one costs one interval; the next one says more.
/// - `Timed`: a copy of a timed request also sent on the stream (same `seq`); the host takes
///   whichever copy arrives first, so a loss on the stream does not delay the request.
/// - `Twin`: the news of the update that opens a timed moment (the game's twin: Bolide's
///   reveal, B-4.4, or Échange window, B-4.7), sent with the stream's update at the same
///   instant: the client shows on whichever arrives first, so a lost packet does not delay
///   what the player sees (and the host can bound the `shown` it is told tightly).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum DatagramOf<W: Words> {
    Ping { t0: u64 },
    Pong { t0: u64, t1: u64, t2: u64 },
    HostPing { t0: u64 },
    ClientPong { t0: u64, t1: u64, t2: u64 },
    Beat { now_us: u64, shown: Option<Shown>, acts: u32, dense: bool },
    Timed { seq: u32, action: W::Action, shown_us: u64, input_us: u64 },
    Twin { show_at_us: Option<u64>, twin: W::Twin },
}

/// The clock probes among the datagrams: the first four of [`DatagramOf`]'s, read the same
/// whatever the game (a test holds their bytes equal). The network layer answers them itself;
/// what else comes as a datagram is the room's to read, in its game's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockProbe {
    Ping { t0: u64 },
    Pong { t0: u64, t1: u64, t2: u64 },
    HostPing { t0: u64 },
    ClientPong { t0: u64, t1: u64, t2: u64 },
}

/// How often a client beats (µs) while it beats: in a timed moment a faster hand's verdict
/// waits up to one interval for the slowest competitor; and the beats are the host's record of
/// the laptop's path — gaps between them against this interval (several missing in a row: its
/// path went quiet), how late each comes (`fair::slack`).
pub const BEAT_US: u64 = 10_000;

/// When a client beats, as the host asks in its welcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BeatSchedule {
    /// From the lobby on: every [`BEAT_US`] under a countdown and in a timed moment, and
    /// elsewhere in short dense bursts between sparse beats (the client's `beat` module) — the
    /// record of the laptop's path that tells a path going quiet in stretches (Wi-Fi) before
    /// the moment it matters in, at a tenth of the packets of beating densely all evening: what
    /// a game night's host asks of each of its handful of laptops.
    Steady,
    /// Only while the seat acts in a timed moment, and once past a countdown's end (then
    /// every 25 ms until the host ends it): what a host serving many connections asks, to hear a
    /// tenth as many packets. Its record of each path is then thin.
    WhileActing,
}

/// A time-critical datagram leaves once, then again after each of these gaps (at 0, 2, 5,
/// 15, 40, 80 and 160 ms): a copy in another packet gets through when one packet is lost,
/// without a retransmission's wait — and, spread out, when Wi-Fi loses a whole stretch of
/// packets (the stream's own retransmission backs off through a burst). A request late
/// behind a burst is no longer clamped for it (the host believes a laptop silent since its
/// last beat back to that beat), so denser copies would only bring it sooner, for more packets
/// in every congestion window.
pub const COPY_GAPS: [std::time::Duration; 6] = [
    std::time::Duration::from_millis(2),
    std::time::Duration::from_millis(3),
    std::time::Duration::from_millis(10),
    std::time::Duration::from_millis(25),
    std::time::Duration::from_millis(40),
    std::time::Duration::from_millis(80),
];

/// When a time-critical datagram's last copy leaves, after the first (160 ms): a laptop whose
/// path went silent through every earlier copy is heard by then, or by the stream's own
/// retransmission.
pub const LAST_COPY_US: u64 = {
    let (mut at, mut i) = (0, 0);
    while i < COPY_GAPS.len() {
        at += COPY_GAPS[i].as_micros() as u64;
        i += 1;
    }
    at
};

#[derive(Debug, Error, PartialEq, Eq)]
pub enum FrameError {
    #[error("frame of {len} bytes is over the {limit}-byte limit")]
    TooLarge { len: usize, limit: usize },
    #[error("undecodable message: {0}")]
    Decode(String),
}

/// Bincode's standard configuration with a byte limit in the decoder itself: a length field a
/// peer wrote (a string "of 2^40 bytes") is checked against it before anything is allocated.
fn config() -> bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<MAX_FRAME>,
> {
    bincode::config::standard().with_limit::<MAX_FRAME>()
}

/// The longest player name, in characters: a seat in the lobby, not a paragraph. Six such
/// names keep every frame far below [`MAX_FRAME`].
pub const MAX_NAME_CHARS: usize = 24;
/// The longest circuit setting: a preset, `random:SEED`, or 36 tiles in the notation.
pub const MAX_CIRCUIT_CHARS: usize = 256;

/// A name as a player chose it, made safe to show and to send to everyone: control and
/// bidirectional-override characters dropped (they could reorder what others read), runs of
/// white space folded, at most [`MAX_NAME_CHARS`] characters.
pub fn clean_name(name: &str) -> String {
    clean_text(name).chars().take(MAX_NAME_CHARS).collect()
}

/// The most of a host's reason a client shows, in characters.
pub const MAX_REASON_CHARS: usize = 300;

/// A reason or refusal from a peer, as a window may show it: control and bidi characters out,
/// white space folded, at most [`MAX_REASON_CHARS`] characters.
pub fn clean_reason(reason: &str) -> String {
    let mut cleaned = clean_text(reason);
    if let Some((cut, _)) = cleaned.char_indices().nth(MAX_REASON_CHARS) {
        cleaned.truncate(cut);
        cleaned.push('…');
    }
    cleaned
}

/// Control, bidi and invisible format characters out (two "Anne"s, one with a zero-width
/// space, would look alike), at most [`MAX_MARKS`] combining marks on a letter (a flood of
/// them draws over the lines around), white space folded.
fn clean_text(text: &str) -> String {
    let is_bidi =
        |c: char| matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}');
    let mut marks = 0;
    // Looked at once at most this far: a 64 KiB reason costs no more than a short one.
    let kept: String = text
        .chars()
        .take(4 * MAX_REASON_CHARS)
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| !c.is_control() && !is_bidi(*c) && !is_format(*c))
        .filter(|c| {
            marks = if is_combining(*c) { marks + 1 } else { 0 };
            marks <= MAX_MARKS
        })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Combining marks a letter may carry in a cleaned text (enough for any language's accents).
pub const MAX_MARKS: usize = 2;

/// Invisible format characters (Unicode's Cf that draw nothing): zero-width spaces and joiners,
/// the word joiner and invisible operators, the soft hyphen, byte-order marks, tags.
fn is_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{180E}' | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}'
        | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}' | '\u{E0000}'..='\u{E007F}'
        | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}')
}

/// Combining diacritical marks (the blocks a flood of accents is drawn from).
fn is_combining(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// Encodes `msg` as one frame (length prefix included).
pub fn encode<T: Serialize>(msg: &T) -> Vec<u8> {
    let body = bincode::serde::encode_to_vec(msg, config()).expect("messages always encode");
    let mut frame = Vec::with_capacity(body.len() + 4);
    frame.extend_from_slice(&(body.len() as u32).to_le_bytes());
    frame.extend_from_slice(&body);
    frame
}

/// Decodes one message body (without its length prefix); the whole body must be used.
pub fn decode<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, FrameError> {
    let (msg, used) =
        bincode::serde::decode_from_slice(body, config()).map_err(|e| FrameError::Decode(e.to_string()))?;
    if used != body.len() {
        return Err(FrameError::Decode(format!("{} trailing bytes", body.len() - used)));
    }
    Ok(msg)
}

/// Reads the protocol version at the front of a [`Hello`] body without decoding the rest, so
/// a hello from any version can be answered.
pub fn hello_version(body: &[u8]) -> Result<u32, FrameError> {
    let (version, _): (u32, usize) =
        bincode::serde::decode_from_slice(body, config()).map_err(|e| FrameError::Decode(e.to_string()))?;
    Ok(version)
}

/// Encodes a datagram (no length prefix: a datagram is its own frame).
pub fn encode_datagram<W: Words>(datagram: &DatagramOf<W>) -> Vec<u8> {
    bincode::serde::encode_to_vec(datagram, config()).expect("datagrams always encode")
}

/// Encodes a clock probe (the same bytes as its [`DatagramOf`] for any game).
pub fn encode_probe(probe: &ClockProbe) -> Vec<u8> {
    bincode::serde::encode_to_vec(probe, config()).expect("probes always encode")
}

/// A datagram read as a clock probe; `None` for any other datagram (the room's to read).
pub fn decode_probe(bytes: &[u8]) -> Option<ClockProbe> {
    decode(bytes).ok()
}

/// Decodes a datagram.
pub fn decode_datagram<W: Words>(bytes: &[u8]) -> Result<DatagramOf<W>, FrameError> {
    decode(bytes)
}

/// A sans-I/O frame splitter: push bytes as they arrive, pop whole frame bodies of at most
/// its limit ([`MAX_FRAME`], or [`DOOR_FRAME`] at a host's door).
#[derive(Debug)]
pub struct FrameDecoder {
    buf: Vec<u8>,
    limit: usize,
}

impl Default for FrameDecoder {
    fn default() -> Self {
        FrameDecoder::with_limit(MAX_FRAME)
    }
}

impl FrameDecoder {
    /// A decoder that refuses frames longer than `limit` (and never more than [`MAX_FRAME`]).
    pub fn with_limit(limit: usize) -> FrameDecoder {
        FrameDecoder { buf: Vec::new(), limit: limit.min(MAX_FRAME) }
    }

    /// Past the door: frames up to `limit` from now on (never more than [`MAX_FRAME`]).
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit.min(MAX_FRAME);
    }

    /// Bytes pushed and not yet popped as frames.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete frame body, `Ok(None)` when more bytes are needed, or an error for a
    /// frame over the limit (checked on the length prefix, before buffering the body).
    pub fn next_frame(&mut self) -> Result<Option<Vec<u8>>, FrameError> {
        if self.buf.len() < 4 {
            return Ok(None);
        }
        let len = u32::from_le_bytes(self.buf[..4].try_into().expect("4 bytes")) as usize;
        if len > self.limit {
            return Err(FrameError::TooLarge { len, limit: self.limit });
        }
        if self.buf.len() < 4 + len {
            return Ok(None);
        }
        let body = self.buf[4..4 + len].to_vec();
        self.buf.drain(..4 + len);
        Ok(Some(body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A laptop's field record stops growing where the host would refuse it: a long game's
    /// record is still taken, with its first requests and calls.
    #[test]
    fn a_field_record_keeps_no_more_than_the_host_takes() {
        let mut record = FieldTruth::default();
        for seq in 0..=u32::try_from(MAX_FIELD_LINES).unwrap() {
            record.request(FieldLine { seq, moment: 1, shown_us: 10, input_us: 20 });
            record.call(FieldCall { seq, end_us: 30, at_us: 25 });
        }
        assert_eq!((record.lines.len(), record.calls.len()), (MAX_FIELD_LINES, MAX_FIELD_LINES));
        assert_eq!(record.lines.last().map(|l| l.seq), Some(u32::try_from(MAX_FIELD_LINES).unwrap() - 1));
    }
}
