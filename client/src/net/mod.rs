//! The client's tokio driver: connect, hello, certificate check, then [`Session`] runs the
//! sans-I/O [`ClientState`] over QUIC — frames and datagrams in, actions, copies and heartbeats
//! out, the host's clock probes answered. No egui here: the window, the bots and the lab all
//! build on it.

use crate::game::ClientGame;
use crate::platform::rt::Instant;
use crate::state::{BadView, ClientStateOf, SharedStateOf};
use bolide_link::code::parse_word;
#[cfg(not(target_arch = "wasm32"))]
use bolide_link::code::{RoomCode, parse_code};
use bolide_link::pake;
#[cfg(not(target_arch = "wasm32"))]
use bolide_link::tls;
use bolide_table::Seat;
use bolide_table::wire::{
    self, BeatSchedule, ClientMsgOf, ClockProbe, DatagramOf, Door, FrameDecoder, FrameError, Knock, PROTOCOL_VERSION,
    Proof, SeatToken, ServerMsgOf,
};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, MutexGuard};
use std::time::Duration;
use thiserror::Error;
use tokio::sync::mpsc;

mod web;

/// The client's monotonic clock, in µs. Reactions are measured on it (fairness.md §0); the
/// lab substitutes one with an offset and a drift.
pub trait Clock: Send + Sync + 'static {
    fn now_us(&self) -> u64;
}

/// The real monotonic clock, counted from its creation.
pub struct MonotonicClock(Instant);

impl MonotonicClock {
    pub fn new() -> MonotonicClock {
        MonotonicClock(Instant::now())
    }

    /// `at` on this clock (0 before it started).
    pub fn at_us(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.0).as_micros() as u64
    }
}

impl Default for MonotonicClock {
    fn default() -> Self {
        MonotonicClock::new()
    }
}

impl Clock for MonotonicClock {
    fn now_us(&self) -> u64 {
        self.0.elapsed().as_micros() as u64
    }
}

/// Inputs a face has stamped but the client core has not sent yet (fairness.md §7). A beat
/// says "nothing more was sent before my time": one that left between a click and its send
/// would prove the click later than it was, and the host bounds a claim by its own last beat.
/// So a beat never tells a time past the earliest input still waiting here. The window stamps
/// on its thread and the link's task sends: both hold this handle.
#[derive(Clone, Default)]
pub struct Unsent {
    stamped: Arc<std::sync::Mutex<Vec<u64>>>,
    /// Inputs the face has not even read yet (the window's presses the display server saw).
    unread: Option<Arc<dyn UnreadInput>>,
}

impl std::fmt::Debug for Unsent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Unsent").field("stamped", &self.stamped).field("unread", &self.unread.is_some()).finish()
    }
}

/// A face that learns of an input before it stamps it (the window stamps a press with the
/// instant the display server saw it, read in its next pass): how long ago the oldest such
/// input was made, so that no beat vouches past it meanwhile.
pub trait UnreadInput: Send + Sync {
    fn unread_age(&self) -> Option<std::time::Duration>;
}

impl Unsent {
    /// A pilot's input stamped `at_us`, to be sent.
    pub fn stamp(&self, at_us: u64) {
        let mut v = self.lock();
        // A handful at most wait at once; past that a face is stuck, and the earliest is what
        // bounds a beat.
        if v.len() >= UNSENT {
            v.sort_unstable();
            v.pop();
        }
        v.push(at_us);
    }

    /// The input stamped `at_us` has left.
    pub fn sent(&self, at_us: u64) {
        let mut v = self.lock();
        if let Some(i) = v.iter().position(|t| *t == at_us) {
            v.swap_remove(i);
        }
    }

    /// The time a beat may tell at `now_us`. A stamp older than [`UNSENT_STALE_US`] was never
    /// going to leave (its send failed with a lost link): it no longer holds the beats back, or
    /// one lost click would keep this seat from vouching for anything for the rest of the night.
    pub fn vouchable(&self, now_us: u64) -> u64 {
        let unread = self.unread.as_ref().and_then(|u| u.unread_age());
        let unread_us = unread.map_or(now_us, |age| now_us.saturating_sub(age.as_micros() as u64));
        let mut v = self.lock();
        v.retain(|t| now_us.saturating_sub(*t) < UNSENT_STALE_US);
        v.iter().copied().fold(now_us.min(unread_us), u64::min)
    }

    /// The same, also held back by inputs `unread` knows of before they are stamped.
    pub fn with_unread(unread: Arc<dyn UnreadInput>) -> Unsent {
        Unsent { unread: Some(unread), ..Unsent::default() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<u64>> {
        self.stamped.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Stamped inputs an [`Unsent`] keeps at most.
const UNSENT: usize = 16;
/// How long a stamped input may wait to be sent before it is taken as lost, µs.
pub const UNSENT_STALE_US: u64 = 2_000_000;

/// How to connect, beyond the address and the code.
#[derive(Clone)]
pub struct ConnectOptionsOf<W: ClientGame> {
    pub version: u32,
    pub clock: Arc<dyn Clock>,
    /// A UDP socket of one's own (the lab's delaying socket); `None` binds a real one.
    #[cfg(not(target_arch = "wasm32"))]
    pub socket: Option<Arc<dyn quinn::AsyncUdpSocket>>,
    /// Inputs stamped by a face and not yet sent: shared with the face, kept across comebacks.
    pub unsent: Unsent,
    /// The client core this connection drives: a face that reads it (the window) or keeps it
    /// across comebacks (what it knows of the table, the dice seen) passes its own.
    pub state: SharedStateOf<W>,
    /// Watch the table rather than take a seat.
    pub watch: bool,
    /// How this laptop answers the host's clock probes; `None`: at once, with its clock's
    /// readings, as every real laptop does.
    pub answers: Option<Arc<dyn ProbeAnswers>>,
    /// How this laptop beats otherwise than a real one; `None`: as the host asks.
    pub conduct: Option<Arc<Conduct>>,
    /// By QUIC or the host's browser door.
    pub via: Via,
    /// How long before its frame is up this laptop's screen draws it, µs
    /// ([`bolide_table::wire::Hello::frame_lead_us`]): the window tells its display's.
    pub frame_lead_us: u32,
    /// The address this laptop's packets leave from; `None`: the system's choice. The load
    /// benchmark gives each bot one of loopback's, as each guest's device has its own (the
    /// door's budgets are counted per address). A page's leave from where its browser sends.
    pub from: Option<IpAddr>,
}

/// A laptop that beats otherwise than the host asks: the fairness lab's liars, switched while
/// they play (fairness.md §7). Production code never sets one.
#[derive(Debug, Default)]
pub struct Conduct {
    /// No heartbeats while set (a silent liar).
    pub hushed: std::sync::atomic::AtomicBool,
    /// No beat leaves with a timed request (a liar keeps its stalls to itself).
    pub keeps_stalls: std::sync::atomic::AtomicBool,
}

/// A laptop that answers the host's clock probes otherwise than at once: the fairness lab's
/// liars, which hold answers back and shift their stamps to measure what that buys them
/// (fairness.md §5). Production code never sets one.
pub trait ProbeAnswers: Send + Sync {
    /// For a probe read at `t1` and answered at `t2` (this laptop's clock): how long to hold
    /// the answer back, and the `(t1, t2)` it carries.
    fn answer(&self, t1: u64, t2: u64) -> (Duration, u64, u64);
}

impl<W: ClientGame> Default for ConnectOptionsOf<W> {
    fn default() -> Self {
        ConnectOptionsOf {
            version: PROTOCOL_VERSION,
            clock: Arc::new(MonotonicClock::new()),
            #[cfg(not(target_arch = "wasm32"))]
            socket: None,
            unsent: Unsent::default(),
            state: SharedStateOf::default(),
            watch: false,
            answers: None,
            conduct: None,
            via: Via::Quic,
            frame_lead_us: 0,
            from: None,
        }
    }
}

impl<W: ClientGame> ConnectOptionsOf<W> {
    /// The same way to connect, to a table of another game (a fresh client core).
    pub fn for_game<V: ClientGame>(&self) -> ConnectOptionsOf<V> {
        ConnectOptionsOf {
            version: self.version,
            clock: self.clock.clone(),
            #[cfg(not(target_arch = "wasm32"))]
            socket: self.socket.clone(),
            unsent: self.unsent.clone(),
            state: SharedStateOf::default(),
            watch: self.watch,
            answers: self.answers.clone(),
            conduct: self.conduct.clone(),
            via: self.via,
            frame_lead_us: self.frame_lead_us,
            from: self.from,
        }
    }
}

#[derive(Debug, Error)]
pub enum ClientError {
    #[error(
        "a room code looks like GARAGE-7F3K-0Q9M-2XWB-HC4T (the word, then the host's 16 characters, as its screen shows them); got `{0}`"
    )]
    BadCode(String),
    #[error("cannot reach the host at {addr}: {reason}")]
    Connect { addr: SocketAddr, reason: String },
    #[error("the host refused: {0}")]
    Refused(String),
    /// The host's door is only busy (strangers' guessing locked it, a seat came back too
    /// often): a laptop that holds a seat token knocks again after a while.
    #[error("the host asks to wait: {0}")]
    Wait(String),
    #[error(
        "this host does not know that code word ({0}): check the word on the host's screen — or someone on this network is posing as the host"
    )]
    NotTheHost(String),
    #[error("the host closed the connection (code {code}): {reason}")]
    Closed { code: u64, reason: String },
    #[error("connection lost: {0}")]
    Lost(String),
    #[error("the host sent a bad frame: {0}")]
    Frame(#[from] FrameError),
    #[error("the host sent a table that cannot be drawn ({0}): rejoin, or run the same version on both laptops")]
    View(#[from] BadView),
    #[error("this table plays {host}, not {here}: join it from a client that plays {host}")]
    OtherGame { host: String, here: String },
    /// The lobby's first pilot switched the table to another game (`ClientMsg::ChooseGame`):
    /// knock again with the seat token (`token`, once the session knew it) and play `game`.
    #[error("the table now plays {game}: join it again with your seat token")]
    GameChanged { game: String, token: Option<SeatToken> },
}

/// A host's close, as QUIC or a browser's link carries it: a game switch names the game,
/// anything else is a reason shown (cleaned: a host's text is never trusted).
pub(crate) fn closed_with(code: u64, reason: &str) -> ClientError {
    if code == u64::from(bolide_table::wire::close::GAME_CHANGED) {
        // A name as the host's advert would give it, never a free text to show.
        return ClientError::GameChanged { game: bolide_table::wire::clean_name(reason), token: None };
    }
    ClientError::Closed { code, reason: bolide_table::wire::clean_reason(reason) }
}

#[cfg(not(target_arch = "wasm32"))]
impl From<quinn::ConnectionError> for ClientError {
    fn from(e: quinn::ConnectionError) -> Self {
        match e {
            quinn::ConnectionError::ApplicationClosed(close) => {
                closed_with(close.error_code.into_inner(), &String::from_utf8_lossy(&close.reason))
            }
            other => ClientError::Lost(other.to_string()),
        }
    }
}

/// By what a laptop reaches a host: QUIC (the window, the bots), or the host's browser door —
/// a WebSocket, sealed after the exchange over the code word — as a browser's page does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Via {
    #[default]
    Quic,
    Web,
}

/// What carries a session: QUIC's stream and datagrams, or a browser's link. The session, the
/// client core and every face above them are the same over both.
enum Carrier {
    #[cfg(not(target_arch = "wasm32"))]
    Quic {
        endpoint: quinn::Endpoint,
        connection: quinn::Connection,
        send: quinn::SendStream,
        recv: quinn::RecvStream,
    },
    Web(web::Link),
}

/// Where datagrams leave from, for a task of their own (a timed request's copies, the answers
/// to the host's probes).
#[derive(Clone)]
enum DatagramOut {
    #[cfg(not(target_arch = "wasm32"))]
    Quic(quinn::Connection),
    Web(mpsc::Sender<web::Out>),
}

impl DatagramOut {
    fn send(&self, bytes: Vec<u8>) -> Result<(), ClientError> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            DatagramOut::Quic(connection) => connection.send_datagram(bytes.into()).map_err(|e| match e {
                quinn::SendDatagramError::ConnectionLost(e) => ClientError::from(e),
                other => ClientError::Lost(other.to_string()),
            }),
            // A full queue drops it, as a lost datagram would be.
            DatagramOut::Web(out) => match out.try_send(web::Out::Datagram(bytes)) {
                Err(mpsc::error::TrySendError::Closed(_)) => Err(ClientError::Lost("the link is closed".into())),
                _ => Ok(()),
            },
        }
    }
}

/// Where datagrams arrive from.
enum DatagramIn {
    #[cfg(not(target_arch = "wasm32"))]
    Quic(quinn::Connection),
    Web(mpsc::Receiver<Vec<u8>>),
}

impl DatagramIn {
    async fn next(&mut self) -> Option<Vec<u8>> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            DatagramIn::Quic(connection) => connection.read_datagram().await.ok().map(|d| d.to_vec()),
            DatagramIn::Web(rx) => rx.recv().await,
        }
    }
}

impl Carrier {
    async fn write(&mut self, bytes: &[u8]) -> Result<(), ClientError> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Carrier::Quic { send, .. } => write(send, bytes).await,
            Carrier::Web(link) => link
                .out
                .send(web::Out::Frame(bytes.to_vec()))
                .await
                .map_err(|_| ClientError::Lost("the link is closed".into())),
        }
    }

    /// Reads more of the game stream into `decoder`; an error says how the connection ended.
    async fn read_into(&mut self, decoder: &mut FrameDecoder, buf: &mut [u8]) -> Result<(), ClientError> {
        #[cfg(target_arch = "wasm32")]
        let _ = buf;
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Carrier::Quic { connection, recv, .. } => match recv.read(buf).await {
                Ok(Some(n)) => {
                    decoder.push(buf.get(..n).unwrap_or_default());
                    Ok(())
                }
                Ok(None) => Err(closed_reason(connection).await),
                Err(quinn::ReadError::ConnectionLost(e)) => Err(e.into()),
                Err(e) => Err(ClientError::Lost(e.to_string())),
            },
            // The reader task has read the socket: `buf` is QUIC's.
            Carrier::Web(link) => match link.incoming.recv().await {
                Some(web::Incoming::Bytes(bytes)) => {
                    decoder.push(&bytes);
                    Ok(())
                }
                Some(web::Incoming::Closed(code, reason)) => Err(closed_with(u64::from(code), &reason)),
                Some(web::Incoming::Lost(why)) => Err(ClientError::Lost(why)),
                None => Err(ClientError::Lost("the link is closed".into())),
            },
        }
    }

    fn datagrams_out(&self) -> DatagramOut {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Carrier::Quic { connection, .. } => DatagramOut::Quic(connection.clone()),
            Carrier::Web(link) => DatagramOut::Web(link.out.clone()),
        }
    }

    /// The datagrams that arrive, for the task that answers probes (taken once).
    fn datagrams_in(&mut self) -> DatagramIn {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Carrier::Quic { connection, .. } => DatagramIn::Quic(connection.clone()),
            Carrier::Web(link) => DatagramIn::Web(link.datagrams.take().unwrap_or_else(|| mpsc::channel(1).1)),
        }
    }

    /// Closes with `reason` and waits a moment for the close to leave.
    async fn close(self, reason: &str) {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Carrier::Quic { endpoint, connection, .. } => {
                connection.close(0u32.into(), reason.as_bytes());
                let _ = crate::platform::rt::timeout(Duration::from_millis(500), endpoint.wait_idle()).await;
            }
            Carrier::Web(mut link) => {
                let _ = link.out.try_send(web::Out::Close(bolide_table::wire::close::NORMAL, reason.into()));
                link.idle().await;
            }
        }
    }

    /// Drops the connection without a word, as a laptop that loses its Wi-Fi would.
    fn drop_abruptly(self) {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Carrier::Quic { endpoint, .. } => endpoint.close(0u32.into(), b""),
            Carrier::Web(link) => link.abort(),
        }
    }
}

/// A connection past the host's door: the code word proved both ways and the host's welcome
/// read, which names the game the table plays. [`Admitted::session`] goes on in that game's
/// words.
pub struct Admitted {
    carrier: Carrier,
    decoder: FrameDecoder,
    /// The game the table plays (`Words::NAME`).
    pub game: String,
    seat: Option<Seat>,
    token: Option<SeatToken>,
    beats: BeatSchedule,
}

/// One connection to a host, after a successful hello.
pub struct SessionOf<W: ClientGame> {
    carrier: Carrier,
    decoder: FrameDecoder,
    buf: Vec<u8>,
    /// What the client knows and says, sans-I/O; this session drives it.
    state: SharedStateOf<W>,
    /// The lab's liars' switches (`ConnectOptions::conduct`); `None` on every real laptop.
    conduct: Option<Arc<Conduct>>,
    clock: Arc<dyn Clock>,
    /// Inputs stamped and not yet sent: no beat vouches past them.
    pub unsent: Unsent,
    pongs: mpsc::Receiver<u64>,
    /// The datagram twins of the updates that open a moment (the stream's may be held behind
    /// a lost packet).
    twins: mpsc::Receiver<DatagramOf<W>>,
    /// The host's clock probes this client has answered.
    answered: Arc<AtomicU64>,
    /// Heartbeats sent on this connection.
    beats_sent: u64,
    /// The hold-ups of this laptop's threads its beats found.
    away: crate::beat::Away,
    probes: crate::platform::rt::Task,
}

/// The laptop's side of the host's door, whatever carries it (QUIC; the browser door's
/// WebSocket): frames out and in, and the moment the exchange's key is known.
pub(crate) trait LaptopDoor {
    async fn send(&mut self, frame: &[u8]) -> Result<(), ClientError>;
    /// Reads more of the stream into `decoder`.
    async fn read_into(&mut self, decoder: &mut FrameDecoder) -> Result<(), ClientError>;
    /// The host has proved the word: a link without TLS of its own seals from here on.
    fn keyed(&mut self, _confirmed: &pake::Confirmed) {}
}

/// QUIC's side of the door: its game stream.
#[cfg(not(target_arch = "wasm32"))]
struct QuicDoor<'a> {
    connection: &'a quinn::Connection,
    send: &'a mut quinn::SendStream,
    recv: &'a mut quinn::RecvStream,
}

#[cfg(not(target_arch = "wasm32"))]
impl LaptopDoor for QuicDoor<'_> {
    async fn send(&mut self, frame: &[u8]) -> Result<(), ClientError> {
        write(self.send, frame).await
    }

    async fn read_into(&mut self, decoder: &mut FrameDecoder) -> Result<(), ClientError> {
        let mut buf = [0u8; 4096];
        match self.recv.read(&mut buf).await {
            Ok(Some(n)) => {
                decoder.push(buf.get(..n).unwrap_or_default());
                Ok(())
            }
            Ok(None) => Err(closed_reason(self.connection).await),
            Err(quinn::ReadError::ConnectionLost(e)) => Err(e.into()),
            Err(e) => Err(ClientError::Lost(e.to_string())),
        }
    }
}

/// The next frame at the door.
async fn door_frame<L: LaptopDoor>(link: &mut L, decoder: &mut FrameDecoder) -> Result<Door, ClientError> {
    loop {
        if let Some(body) = decoder.next_frame()? {
            return Ok(wire::decode(&body)?);
        }
        link.read_into(decoder).await?;
    }
}

/// What a knock asks for, whatever carries it.
struct Asking<'a> {
    word: String,
    room: u16,
    name: &'a str,
    token: Option<SeatToken>,
    version: u32,
    watch: bool,
    frame_lead_us: u32,
}

/// The laptop's side of the door, on the link `binding` names. The code word is proved, never
/// sent (`bolide_link::pake`): the host proves it first, bound to this link; only then does
/// this laptop prove it, and send its seat token. A seated laptop shows a pass for its seat —
/// an HMAC of its token over this very link, never the token — which lets it through a door
/// strangers' guessing locked. Returns the welcome's seat, token, beats and game.
async fn pass_the_door<L: LaptopDoor>(
    link: &mut L,
    decoder: &mut FrameDecoder,
    ask: Asking<'_>,
    binding: &[u8],
) -> Result<(Option<Seat>, Option<SeatToken>, BeatSchedule, String), ClientError> {
    let pass = ask.token.map(|t| pake::seat_pass(t.0, binding));
    let (laptop, msg) = pake::Laptop::start(&ask.word);
    let knock = Knock {
        version: ask.version,
        room: ask.room,
        pake: msg,
        name: ask.name.to_string(),
        watch: ask.watch,
        pass,
        frame_lead_us: ask.frame_lead_us,
    };
    link.send(&wire::encode(&knock)).await?;
    let (host_msg, host_proof) = match door_frame(link, decoder).await? {
        Door::Pake { msg, proof } => (msg, proof),
        Door::Refused { reason, again } => return Err(refused(&reason, again)),
        Door::Welcome { .. } => {
            return Err(ClientError::Lost("the host welcomed this laptop before proving the code word".into()));
        }
    };
    let confirmed =
        laptop.finish(&host_msg, &host_proof, binding).map_err(|e| ClientError::NotTheHost(e.to_string()))?;
    link.keyed(&confirmed);
    let proof = confirmed.proof(pake::Side::Laptop, binding);
    link.send(&wire::encode(&Proof { proof, seat_token: ask.token })).await?;
    match door_frame(link, decoder).await? {
        Door::Welcome { seat, token, beats, game, .. } => Ok((seat, token, beats, wire::clean_name(&game))),
        Door::Refused { reason, again } => Err(refused(&reason, again)),
        Door::Pake { .. } => Err(ClientError::Lost("the host proved the code word twice".into())),
    }
}

/// Knocks at the host at `addr` with the full room code `WORD-FINGERPRINT`: refuses a host
/// whose certificate does not match the fingerprint, proves the code word (never sending it),
/// and reads the welcome, which names the game. `watch`: ask to watch rather than take a seat.
#[cfg(not(target_arch = "wasm32"))]
pub async fn knock(
    addr: SocketAddr,
    code: &str,
    name: &str,
    token: Option<SeatToken>,
    version: u32,
    socket: Option<Arc<dyn quinn::AsyncUdpSocket>>,
    watch: bool,
) -> Result<Admitted, ClientError> {
    knock_with(addr, code, name, token, &Dial { via: Via::Quic, version, watch, socket, ..Dial::default() }).await
}

#[cfg(not(target_arch = "wasm32"))]
async fn knock_quic(
    addr: SocketAddr,
    ask: Asking<'_>,
    fingerprint: &str,
    socket: Option<Arc<dyn quinn::AsyncUdpSocket>>,
    from: Option<IpAddr>,
) -> Result<Admitted, ClientError> {
    let connect_err = |reason: String| ClientError::Connect { addr, reason };
    let any = if addr.is_ipv4() { IpAddr::from([0u8; 4]) } else { IpAddr::from([0u16; 8]) };
    let local = SocketAddr::new(from.unwrap_or(any), 0);
    let mut endpoint = match socket {
        Some(socket) => quinn::Endpoint::new_with_abstract_socket(
            quinn::EndpointConfig::default(),
            None,
            socket,
            Arc::new(quinn::TokioRuntime),
        ),
        None => quinn::Endpoint::client(local),
    }
    .map_err(|e| connect_err(e.to_string()))?;
    endpoint.set_default_client_config(tls::client_config(fingerprint).map_err(|e| connect_err(e.to_string()))?);
    let connecting = endpoint.connect(addr, "bolide.local").map_err(|e| connect_err(e.to_string()))?;
    let connection = crate::platform::rt::timeout(Duration::from_secs(10), connecting)
        .await
        .map_err(|_| connect_err("no answer within 10 s (wrong address, or a firewall?)".into()))?
        .map_err(|e| connect_err(e.to_string()))?;
    let (mut send, mut recv) = connection.open_bi().await?;
    let mut decoder = FrameDecoder::default();
    let binding = binding(&connection)?;
    let mut link = QuicDoor { connection: &connection, send: &mut send, recv: &mut recv };
    let (seat, token, beats, game) = pass_the_door(&mut link, &mut decoder, ask, &binding).await?;
    let carrier = Carrier::Quic { endpoint, connection, send, recv };
    Ok(Admitted { carrier, decoder, game, seat, token, beats })
}

/// Knocks at the host's browser door at `addr` (its HTTP port), as a browser's page does: the
/// room by its word (`GARAGE`, `GARAGE-2`; a full room code reads too), proved over the
/// exchange, then everything sealed. No certificate here: the exchange alone proves the host
/// knows the word.
pub async fn knock_web(
    addr: SocketAddr,
    code: &str,
    name: &str,
    token: Option<SeatToken>,
    version: u32,
    watch: bool,
) -> Result<Admitted, ClientError> {
    knock_with(addr, code, name, token, &Dial { via: Via::Web, version, watch, ..Dial::default() }).await
}

async fn knock_at_web_door(addr: SocketAddr, ask: Asking<'_>, from: Option<IpAddr>) -> Result<Admitted, ClientError> {
    let mut door = web::open(addr, from).await?;
    let mut decoder = FrameDecoder::default();
    let binding = door.binding;
    let (seat, token, beats, game) = pass_the_door(&mut door, &mut decoder, ask, &binding).await?;
    let carrier = Carrier::Web(door.into_link()?);
    Ok(Admitted { carrier, decoder, game, seat, token, beats })
}

/// How a knock goes, whatever the game: by which door, speaking which version, to watch or
/// to sit, and (QUIC) over which socket.
#[derive(Clone, Default)]
pub struct Dial {
    pub via: Via,
    pub version: u32,
    pub watch: bool,
    #[cfg(not(target_arch = "wasm32"))]
    pub socket: Option<Arc<dyn quinn::AsyncUdpSocket>>,
    /// The laptop's screen's frame lead ([`ConnectOptionsOf::frame_lead_us`]).
    pub frame_lead_us: u32,
    /// The address its packets leave from ([`ConnectOptionsOf::from`]).
    pub from: Option<IpAddr>,
}

impl<W: ClientGame> ConnectOptionsOf<W> {
    /// How these options knock.
    pub fn dial(&self) -> Dial {
        Dial {
            via: self.via,
            version: self.version,
            watch: self.watch,
            #[cfg(not(target_arch = "wasm32"))]
            socket: self.socket.clone(),
            frame_lead_us: self.frame_lead_us,
            from: self.from,
        }
    }
}

/// Knocks as `dial` says: by QUIC (with its socket) or the browser door.
pub async fn knock_with(
    addr: SocketAddr,
    code: &str,
    name: &str,
    token: Option<SeatToken>,
    dial: &Dial,
) -> Result<Admitted, ClientError> {
    let (version, watch, frame_lead_us) = (dial.version, dial.watch, dial.frame_lead_us);
    let ask = |word, room| Asking { word, room, name, token, version, watch, frame_lead_us };
    let bad_code = || ClientError::BadCode(code.to_string());
    match dial.via {
        #[cfg(not(target_arch = "wasm32"))]
        Via::Quic => {
            let RoomCode { word, fingerprint, room } = parse_code(code).ok_or_else(bad_code)?;
            knock_quic(addr, ask(word, room), &fingerprint, dial.socket.clone(), dial.from).await
        }
        #[cfg(target_arch = "wasm32")]
        Via::Quic => {
            Err(ClientError::Connect { addr, reason: "a browser reaches a host by its browser door only".into() })
        }
        Via::Web => {
            let (word, room) = parse_word(code).ok_or_else(bad_code)?;
            knock_at_web_door(addr, ask(word, room), dial.from).await
        }
    }
}

/// A refusal at the door, its reason cleaned (a host's text is shown, never trusted).
fn refused(reason: &str, again: bool) -> ClientError {
    let reason = wire::clean_reason(reason);
    if again { ClientError::Wait(reason) } else { ClientError::Refused(reason) }
}

impl Admitted {
    /// The seat token the host gave with its welcome (a spectator has none).
    pub fn token(&self) -> Option<SeatToken> {
        self.token
    }

    /// Goes on in `W`'s words, driving the client core `options` holds. A table that plays
    /// another game is an error that names it (the connection closes).
    pub fn session<W: ClientGame>(mut self, options: ConnectOptionsOf<W>) -> Result<SessionOf<W>, ClientError> {
        if self.game != W::NAME {
            let here = W::NAME.to_string();
            let host = self.game;
            match self.carrier {
                #[cfg(not(target_arch = "wasm32"))]
                Carrier::Quic { connection, .. } => connection.close(0u32.into(), b"another game"),
                Carrier::Web(link) => link.abort(),
            }
            return Err(ClientError::OtherGame { host, here });
        }
        // Bounded: what the host sends as datagrams is copies and echoes; past a few, more is
        // a flood, dropped here instead of growing this laptop's memory.
        let (pong_tx, pongs) = mpsc::channel(DATAGRAM_QUEUE);
        let (twin_tx, twins) = mpsc::channel(DATAGRAM_QUEUE);
        let answered = Arc::new(AtomicU64::new(0));
        let to_probes = Probes {
            clock: options.clock.clone(),
            pongs: pong_tx,
            twins: twin_tx,
            answered: answered.clone(),
            answers: options.answers.clone(),
        };
        let (incoming, outgoing) = (self.carrier.datagrams_in(), self.carrier.datagrams_out());
        let probes = crate::platform::rt::spawn(answer_probes(incoming, outgoing, to_probes));
        options.state.lock().welcome(self.seat, self.token, self.beats);
        Ok(SessionOf {
            carrier: self.carrier,
            decoder: self.decoder,
            buf: vec![0; 16 * 1024],
            state: options.state,
            conduct: options.conduct.clone(),
            clock: options.clock,
            unsent: options.unsent,
            pongs,
            twins,
            answered,
            beats_sent: 0,
            away: crate::beat::Away::default(),
            probes,
        })
    }

    /// Leaves politely (a table this laptop does not play).
    pub async fn close(self) {
        self.carrier.close("bye").await;
    }
}

#[cfg(not(target_arch = "wasm32"))]
async fn write(send: &mut quinn::SendStream, bytes: &[u8]) -> Result<(), ClientError> {
    send.write_all(bytes).await.map_err(|e| match e {
        quinn::WriteError::ConnectionLost(e) => ClientError::from(e),
        other => ClientError::Lost(other.to_string()),
    })
}

/// This connection's exported TLS keying material: what both sides' proofs of the code word
/// are bound to.
#[cfg(not(target_arch = "wasm32"))]
fn binding(connection: &quinn::Connection) -> Result<[u8; pake::BINDING_LEN], ClientError> {
    let mut binding = [0; pake::BINDING_LEN];
    connection
        .export_keying_material(&mut binding, pake::EXPORTER_LABEL, b"")
        .map_err(|_| ClientError::Lost("the TLS session exports no keying material".into()))?;
    Ok(binding)
}

#[cfg(not(target_arch = "wasm32"))]
async fn closed_reason(connection: &quinn::Connection) -> ClientError {
    match crate::platform::rt::timeout(Duration::from_secs(2), connection.closed()).await {
        Ok(e) => e.into(),
        Err(_) => ClientError::Lost("the host ended the stream".into()),
    }
}

impl<W: ClientGame> SessionOf<W> {
    /// Connects to the host at `addr` with the full room code `WORD-FINGERPRINT`; refuses a
    /// host whose certificate does not match the fingerprint.
    pub async fn connect(
        addr: SocketAddr,
        code: &str,
        name: &str,
        token: Option<SeatToken>,
    ) -> Result<SessionOf<W>, ClientError> {
        SessionOf::connect_with(addr, code, name, token, ConnectOptionsOf::default()).await
    }

    /// As [`SessionOf::connect`], claiming another protocol version (tests).
    pub async fn connect_speaking(
        addr: SocketAddr,
        code: &str,
        name: &str,
        token: Option<SeatToken>,
        version: u32,
    ) -> Result<SessionOf<W>, ClientError> {
        let options = ConnectOptionsOf { version, ..ConnectOptionsOf::default() };
        SessionOf::connect_with(addr, code, name, token, options).await
    }

    /// As [`SessionOf::connect`], with a clock and a socket of one's own (the lab).
    pub async fn connect_with(
        addr: SocketAddr,
        code: &str,
        name: &str,
        token: Option<SeatToken>,
        options: ConnectOptionsOf<W>,
    ) -> Result<SessionOf<W>, ClientError> {
        let admitted = knock_with(addr, code, name, token, &options.dial()).await?;
        admitted.session(options)
    }

    async fn write(&mut self, bytes: &[u8]) -> Result<(), ClientError> {
        self.carrier.write(bytes).await
    }

    pub async fn send(&mut self, msg: &ClientMsgOf<W>) -> Result<(), ClientError> {
        self.write(&wire::encode(msg)).await
    }

    /// The client core, locked: what it knows, for a face to read or to tell it what it showed.
    /// Never held across an await.
    pub fn state(&self) -> MutexGuard<'_, ClientStateOf<W>> {
        self.state.lock()
    }

    /// This client's clock, µs.
    pub fn now_us(&self) -> u64 {
        self.clock.now_us()
    }

    /// Sends a game action, stamped with the moment it is sent; returns its sequence number
    /// (echoed in a refusal).
    pub async fn act(&mut self, action: W::Action) -> Result<u32, ClientError> {
        let at = self.clock.now_us();
        self.act_at(action, at).await
    }

    /// Sends a game action that the pilot took at `at_us` on this client's clock.
    pub async fn act_at(&mut self, action: W::Action, at_us: u64) -> Result<u32, ClientError> {
        let (seq, msg) = self.state().act(action, at_us);
        self.send(&msg).await?;
        self.unsent.sent(at_us);
        Ok(seq)
    }

    /// An action of a timed moment (`ClientGame::timed`: in Bolide a grab or an Échange
    /// declaration, in 1000 Bornes a Coup-Fourré) with when the moment was shown and when the
    /// player acted, both on this client's clock; any other action goes as
    /// [`SessionOf::act_at`]. The request goes on the
    /// stream (it always arrives) and as datagram copies a few milliseconds apart, in other
    /// packets (one of them arrives without waiting for a retransmission when a packet is lost).
    pub async fn timed(&mut self, action: W::Action, shown_us: u64, input_us: u64) -> Result<u32, ClientError> {
        // A beat as the request leaves, vouching for nothing past its input: a request held
        // between its click and its send (a frame, a busy laptop) makes this beat exactly as
        // late, so the host learns this laptop's stalls whole (`fair::slack`), not only the
        // part of one that a regular beat happened to fall in.
        let keeps_stalls = self.conduct.as_ref().is_some_and(|c| c.keeps_stalls.load(Ordering::Relaxed));
        if !keeps_stalls && self.beat_due().is_some() {
            self.beat_vouching(input_us, None)?;
        }
        let (seq, msg, copy) = self.state().timed(action, shown_us, input_us);
        let copy = copy.map(|d| wire::encode_datagram(&d));
        let datagrams = self.carrier.datagrams_out();
        if let Some(copy) = &copy {
            let _ = datagrams.send(copy.clone());
        }
        self.send(&msg).await?;
        self.unsent.sent(input_us);
        if let Some(copy) = copy {
            crate::platform::rt::spawn(async move {
                for gap in wire::COPY_GAPS {
                    crate::platform::rt::sleep(gap).await;
                    let _ = datagrams.send(copy.clone());
                }
            });
        }
        Ok(seq)
    }

    /// A heartbeat now (a datagram: a lost one is simply superseded by the next). The session
    /// sends them itself while [`Session::next`] waits, when [`ClientState::beat_due`] says.
    pub fn heartbeat(&mut self) -> Result<(), ClientError> {
        self.beat_vouching(u64::MAX, None)
    }

    /// The heartbeat that was due at `due` (on this client's clock; `None`: never): a late
    /// one finds this laptop's threads were held up ([`crate::beat::Away`]).
    fn heartbeat_due(&mut self, due: Option<u64>) -> Result<(), ClientError> {
        self.beat_vouching(u64::MAX, due)
    }

    /// A heartbeat that vouches for no time past `until_us` either; `due`, when it was due.
    fn beat_vouching(&mut self, until_us: u64, due: Option<u64>) -> Result<(), ClientError> {
        let mut state = self.state.lock();
        // Read after the lock: the window may have held it for a frame. And how late the beat
        // is, from this same reading: a hold-up between waking and here counts too.
        let now_us = self.clock.now_us();
        if let Some(due) = due {
            self.away.due(due, now_us);
        }
        let vouchable = self.away.vouch(now_us, self.unsent.vouchable(now_us).min(until_us));
        tracing::debug!(target: "vouch", due, now_us, vouchable, "beat");
        let beat = state.beat(now_us, vouchable);
        drop(state);
        self.beats_sent += 1;
        self.carrier.datagrams_out().send(wire::encode_datagram(&beat))
    }

    /// When this session's next beat is due, on its clock: what the state asks for, unless a
    /// hushing lab liar holds its beats back.
    fn beat_due(&self) -> Option<u64> {
        let hushed = self.conduct.as_ref().is_some_and(|c| c.hushed.load(Ordering::Relaxed));
        self.state().beat_due().filter(|_| !hushed)
    }

    /// Raw bytes on the game stream (tests of the host's defences).
    pub async fn send_raw(&mut self, bytes: &[u8]) -> Result<(), ClientError> {
        self.write(bytes).await
    }

    /// The next message from the host, applied to the state. A round's reveal comes once, from
    /// whichever path brought it first: the stream's update, or the reveal datagram (then as a
    /// provisional update; the stream's update follows without the reveal event). Heartbeats
    /// leave meanwhile, when they are due.
    pub async fn next(&mut self) -> Result<ServerMsgOf<W>, ClientError> {
        loop {
            if let Some(body) = self.decoder.next_frame()? {
                let msg: ServerMsgOf<W> = wire::decode(&body)?;
                let (msg, part) = {
                    let mut state = self.state.lock();
                    let msg = state.on_message(msg, self.clock.now_us())?;
                    (msg, state.take_part())
                };
                // This laptop's part of the luck, once it has seen the host's commitment.
                if let Some(part) = part {
                    self.send(&ClientMsgOf::Contribute(part)).await?;
                }
                return Ok(msg);
            }
            let due = self.beat_due();
            let beat_at =
                due.map(|due| Instant::now() + Duration::from_micros(due.saturating_sub(self.clock.now_us())));
            tokio::select! {
                read = self.carrier.read_into(&mut self.decoder, &mut self.buf) => read?,
                Some(datagram) = self.twins.recv() => {
                    let revealed = self.state.lock().on_twin(datagram, self.clock.now_us());
                    if let Some(msg) = revealed {
                        return Ok(msg);
                    }
                }
                _ = sleep_until(beat_at) => self.heartbeat_due(due)?,
            }
        }
    }

    /// Waits until `until_us` on this client's clock without reading the host, beating when
    /// due: a face that holds a moment back until its scheduled instant (fairness.md §2) must
    /// not fall silent meanwhile. The host reads a seated laptop's silences as its path going
    /// quiet in stretches (`fair::slack` on the host), and believes every claim of such a
    /// path — a liar's too — further back.
    pub async fn wait_until_us(&mut self, until_us: u64) -> Result<(), ClientError> {
        loop {
            let now = self.clock.now_us();
            if now >= until_us {
                return Ok(());
            }
            let due = self.beat_due();
            if due.is_some_and(|due| due <= now) {
                self.heartbeat_due(due)?;
                continue;
            }
            let next = due.map_or(until_us, |due| due.min(until_us));
            crate::platform::rt::sleep(Duration::from_micros(next - now)).await;
        }
    }

    /// One timing probe over a QUIC datagram: the round trip to the host.
    pub async fn ping(&mut self) -> Result<Duration, ClientError> {
        let t0 = self.clock.now_us();
        self.carrier.datagrams_out().send(wire::encode_probe(&ClockProbe::Ping { t0 }))?;
        loop {
            match self.pongs.recv().await {
                Some(echoed) if echoed == t0 => return Ok(Duration::from_micros(self.clock.now_us() - t0)),
                Some(_) => continue,
                None => return Err(ClientError::Lost("the connection closed".into())),
            }
        }
    }

    /// How many heartbeats this connection has sent (the lab compares them between moments).
    pub fn beats_sent(&self) -> u64 {
        self.beats_sent
    }

    /// How many of the host's clock probes (datagrams) this client has answered.
    pub fn probes_answered(&self) -> u64 {
        self.answered.load(Ordering::Relaxed)
    }

    /// Drops the connection without a word, as a laptop that loses its Wi-Fi would.
    pub fn drop_abruptly(self) {
        self.probes.abort();
        self.carrier.drop_abruptly();
    }

    /// Leaves politely.
    pub async fn close(self) {
        self.probes.abort();
        self.carrier.close("bye").await;
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => crate::platform::rt::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Datagrams from the host waiting for the session (echoes of our pings, reveal copies).
const DATAGRAM_QUEUE: usize = 32;

/// Where the datagram task sends what it reads.
struct Probes<W: ClientGame> {
    clock: Arc<dyn Clock>,
    pongs: mpsc::Sender<u64>,
    twins: mpsc::Sender<DatagramOf<W>>,
    answered: Arc<AtomicU64>,
    answers: Option<Arc<dyn ProbeAnswers>>,
}

/// Answers the host's clock probes with this client's clock (fairness.md §1), passes the
/// echoes of our own pings to [`Session::ping`] and the twins of opening updates to
/// [`Session::next`].
async fn answer_probes<W: ClientGame>(mut incoming: DatagramIn, outgoing: DatagramOut, to: Probes<W>) {
    while let Some(datagram) = incoming.next().await {
        let t1 = to.clock.now_us();
        match wire::decode_probe(&datagram) {
            Some(ClockProbe::HostPing { t0 }) => {
                let t2 = to.clock.now_us();
                let (hold, t1, t2) = to.answers.as_ref().map_or((Duration::ZERO, t1, t2), |a| a.answer(t1, t2));
                let pong = wire::encode_probe(&ClockProbe::ClientPong { t0, t1, t2 });
                let (outgoing, answered) = (outgoing.clone(), to.answered.clone());
                let send = async move {
                    if outgoing.send(pong).is_ok() {
                        answered.fetch_add(1, Ordering::Relaxed);
                    }
                };
                // Held only by the lab's liars: a real laptop answers at once, in this task.
                if hold.is_zero() {
                    send.await;
                } else {
                    crate::platform::rt::spawn(async move {
                        crate::platform::rt::sleep(hold).await;
                        send.await;
                    });
                }
            }
            Some(ClockProbe::Pong { t0, .. }) => {
                let _ = to.pongs.try_send(t0);
            }
            Some(ClockProbe::Ping { .. } | ClockProbe::ClientPong { .. }) => {}
            None => {
                if let Ok(twin @ DatagramOf::Twin { .. }) = wire::decode_datagram::<W>(&datagram) {
                    let _ = to.twins.try_send(twin);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fairness_7_a_beat_never_vouches_past_an_input_waiting_to_be_sent() {
        let unsent = Unsent::default();
        assert_eq!(unsent.vouchable(1_000), 1_000);
        // The window stamps a click at 900; the link's task beats at 1 000 before sending it.
        unsent.stamp(900);
        unsent.stamp(950);
        assert_eq!(unsent.vouchable(1_000), 900);
        unsent.sent(900);
        assert_eq!(unsent.vouchable(1_000), 950);
        unsent.sent(950);
        assert_eq!(unsent.vouchable(1_000), 1_000);
        // A stuck face cannot grow it: the earliest stamps are kept.
        for t in 0..100 {
            unsent.stamp(2_000 + t);
        }
        assert_eq!(unsent.lock().len(), UNSENT);
        assert_eq!(unsent.vouchable(5_000), 2_000);
        // Never sent (the link was lost): after a while it no longer holds the beats back.
        assert_eq!(unsent.vouchable(2_000 + UNSENT_STALE_US + 100), 2_000 + UNSENT_STALE_US + 100);
        assert!(unsent.lock().is_empty());
    }

    #[test]
    fn fairness_7_a_beat_never_vouches_past_an_input_the_face_has_not_read_yet() {
        struct Pressed(std::sync::Mutex<Option<std::time::Duration>>);
        impl UnreadInput for Pressed {
            fn unread_age(&self) -> Option<std::time::Duration> {
                *self.0.lock().unwrap()
            }
        }
        let pressed = Arc::new(Pressed(std::sync::Mutex::new(None)));
        let unsent = Unsent::with_unread(pressed.clone());
        assert_eq!(unsent.vouchable(10_000), 10_000);
        // A key went down 3 ms ago; the window has not read it: a beat tells 7 000 at most.
        *pressed.0.lock().unwrap() = Some(std::time::Duration::from_millis(3));
        assert_eq!(unsent.vouchable(10_000), 7_000);
        // The window stamped it (7 000) and reads no other: the stamp holds them, as before.
        *pressed.0.lock().unwrap() = None;
        unsent.stamp(7_000);
        assert_eq!(unsent.vouchable(10_000), 7_000);
        unsent.sent(7_000);
        assert_eq!(unsent.vouchable(10_000), 10_000);
    }
}
