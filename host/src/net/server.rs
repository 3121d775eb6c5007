//! The QUIC server: accepts connections, checks the hello, and moves frames between each
//! client and its room's task. All game logic is in [`crate::room::RoomOf`]; this file only
//! moves bytes, keeps time and writes the journal.

use super::door::{self, Bucket, Doors, Knocker};
use super::identity::Identity;
use super::tls;
use crate::fair::{OutstandingProbes, Sample};
use crate::room::moment_log::MomentLine;
use crate::room::{
    CallOrderRecord, CarriedSeat, ConnId, FairRecord, FieldRecord, JournalEntryOf, LobbyOf, OutputOf, RoomConfigOf,
    RoomOf,
};
use bolide_link::pake;
use bolide_table::wire::{
    self, BeatSchedule, ClientMsgOf, ClockProbe, DatagramOf, FrameDecoder, FrameError, Hello, Knock, PROTOCOL_VERSION,
    Proof, SeatToken, close,
};
use bolide_table::{Game, Words};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// What a room's task receives. Messages and datagrams come as bytes: the connection does not
/// know which game its room plays, and the room reads them in its game's words.
pub(super) enum RoomInput {
    Hello {
        conn: ConnId,
        hello: Hello,
        out: ConnOut,
        beats: BeatSchedule,
    },
    /// A frame's body from the game stream.
    Msg {
        conn: ConnId,
        body: Vec<u8>,
    },
    /// A datagram that is not a clock probe (a beat, a timed request's copy).
    Datagram {
        conn: ConnId,
        bytes: Vec<u8>,
    },
    Gone {
        conn: ConnId,
    },
    Probe {
        conn: ConnId,
        sample: Sample,
    },
}

/// Limits that keep a host whole whatever its peers do. A game night is a handful of
/// laptops: everything here is generous for that and small for a flood.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections at once (pilots, spectators, comebacks), past the hello.
    pub connections: usize,
    /// Connections still in their handshake or hello, at once; and from one address.
    pub pending: usize,
    pub pending_per_address: usize,
    /// Connections the host asks for steady beats ([`BeatSchedule::Steady`], 100 datagrams a
    /// second each: the record of each laptop's path that keeps an honest laptop on Wi-Fi from
    /// being clamped); past these, a connection beats only while it acts in a moment. A game
    /// night is a handful of laptops; a host serving thousands (the load benchmark) hears
    /// about a tenth as many packets from each of the others.
    pub steady_beats: usize,
    /// Tries at the code word the whole host holds at once — each spent when its Knock arrives
    /// and given back when the laptop's proof holds — before new joins wait
    /// ([`door::WRONG_CODE_HOST_BURST`], a game night's). A host that takes a hundred joins a
    /// second (the load benchmark) has more exchanges than that in flight.
    pub host_tries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 256,
            pending: 64,
            pending_per_address: 4,
            steady_beats: 64,
            host_tries: door::WRONG_CODE_HOST_BURST as usize,
        }
    }
}

/// Past `pending / RETRY_BELOW` handshakes at once, an unvalidated address is asked to retry
/// (QUIC address validation) before it may hold a slot.
pub const RETRY_BELOW: usize = 4;

/// The handshake and the hello frame together must be done within this.
pub const HELLO_DEADLINE: Duration = Duration::from_secs(10);
/// The exchange over the code word, from the Knock to the laptop's proof: one round trip and
/// a few milliseconds of arithmetic, with room for a lossy Wi-Fi's retransmissions.
pub const PROOF_DEADLINE: Duration = Duration::from_secs(4);
/// Frames and datagrams waiting for one connection's writer. A laptop that does not read
/// (its flow-control window closed) fills it within seconds of play and is dropped: the room
/// never waits for it and never holds more for it than this.
pub const OUT_QUEUE: usize = 512;
/// Inputs waiting for a room's task; readers wait when it is full (their peer's flow control
/// then slows it), datagrams are dropped as a loss would drop them.
pub const ROOM_QUEUE: usize = 4096;
/// Game messages a connection may send: a burst, then a steady rate (a person sends a few a
/// second; a grab is one frame). Past it the connection is closed.
const MSG_BURST: f64 = 100.0;
const MSGS_PER_S: f64 = 50.0;
/// Datagrams (heartbeats every 10 ms, grab copies, pings); past these they are dropped.
const DATAGRAM_BURST: f64 = 300.0;
const DATAGRAMS_PER_S: f64 = 300.0;
/// Datagrams dropped past the allowance that a connection may send before it is closed: a
/// burst, then a rate. A laptop never comes near (a Wi-Fi beacon releases a few held beats at
/// once); a flood does within milliseconds, and closing it is the only way to stop paying for
/// each of its packets (QUIC decrypts a packet before anyone can look at it).
const DATAGRAM_FLOOD_BURST: f64 = 1_000.0;
const DATAGRAM_FLOOD_PER_S: f64 = 100.0;
pub use super::door::{WRONG_CODE_BURST, WRONG_CODE_HOST_BURST, WRONG_CODES_HOST_PER_S, WRONG_CODES_PER_S};

/// Known addresses (they proved the word earlier this night) may hold this many handshakes
/// beyond [`Limits::pending`]: strangers holding every slot never keep a laptop from coming back.
pub const KNOWN_RESERVE: usize = 16;

/// A look at the host's door from its screen: whether new joins are locked out because of too
/// many wrong room codes overall ([`door::WRONG_CODE_HOST_BURST`]), since when.
#[derive(Clone)]
pub struct JoinGuard(Arc<Mutex<Doors>>);

impl std::fmt::Debug for JoinGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JoinGuard").field("locked", &self.lock()).finish()
    }
}

impl JoinGuard {
    pub fn locked(&self) -> bool {
        self.lock().is_some()
    }

    /// Since when new joins are locked, and after how many wrong tries; `None` while open.
    pub fn lock(&self) -> Option<door::Locked> {
        self.0.lock().ok().and_then(|mut d| d.locked(Instant::now()))
    }
}

/// A place in the pending count, given back when the exchange over the code word has ended.
pub(super) struct PendingSlot {
    pub(super) doors: Arc<Mutex<Doors>>,
    pub(super) ip: IpAddr,
}

impl Drop for PendingSlot {
    fn drop(&mut self) {
        if let Ok(mut d) = self.doors.lock() {
            d.release(self.ip);
        }
    }
}

/// A connection as its room's task sees it: the writer's bounded queue, and a way to drop a
/// laptop that does not read. Whatever carries it (QUIC, a browser's WebSocket) looks the
/// same from here.
pub(super) struct ConnOut {
    pub(super) tx: mpsc::Sender<Outgoing>,
    pub(super) hangup: Hangup,
}

/// Ends a connection at once with a code and a reason, whatever carries it.
#[derive(Clone)]
pub(super) struct Hangup(Arc<CloseFn>);

type CloseFn = dyn Fn(u32, &str) + Send + Sync;

impl Hangup {
    pub(super) fn new(close: impl Fn(u32, &str) + Send + Sync + 'static) -> Hangup {
        Hangup(Arc::new(close))
    }

    fn quic(connection: quinn::Connection) -> Hangup {
        Hangup::new(move |code, reason| connection.close(code.into(), reason.as_bytes()))
    }

    pub(super) fn close(&self, code: u32, reason: &str) {
        (self.0)(code, reason)
    }
}

/// What a connection's writer receives.
pub(super) enum Outgoing {
    Frame(Vec<u8>),
    Datagram(Vec<u8>),
    Close { code: u32, reason: String },
}

/// Per-action timing, for the benchmark: from a message's arrival at the room to the moment
/// every resulting frame is handed to the writers.
#[derive(Debug, Default)]
pub struct Stats {
    pub handled: AtomicU64,
    /// Of those, heartbeats; and clock probes answered (not in `handled`).
    pub heartbeats: AtomicU64,
    pub probes: AtomicU64,
    /// Hellos that carried a seat token: a pilot coming back after losing its connection.
    pub comebacks: AtomicU64,
    samples: Mutex<Vec<u32>>,
}

impl Stats {
    fn record(&self, micros: u32) {
        self.handled.fetch_add(1, Ordering::Relaxed);
        let mut s = self.samples.lock().expect("stats");
        if s.len() < 2_000_000 {
            s.push(micros);
        }
    }

    /// Takes the samples gathered so far (µs).
    pub fn take_samples(&self) -> Vec<u32> {
        std::mem::take(&mut *self.samples.lock().expect("stats"))
    }
}

pub(super) struct RoomHandle {
    /// The room's code word, proved by each laptop (`bolide_link::pake`), never compared.
    word: String,
    /// The room's public number on this host: the room code's `-N` (0: none).
    number: u16,
    tx: mpsc::Sender<RoomInput>,
    /// The room's seat tokens now, as its task last published them: the door lets a laptop
    /// that shows a pass for one of them through a lock (`pake::seat_pass`).
    seated: Seated,
}

/// A room's seat tokens, published by its task after every step that changed them.
type Seated = Arc<Mutex<Vec<SeatToken>>>;

pub(super) type Rooms = Arc<Mutex<Vec<RoomHandle>>>;

/// Every verdict of every room's timed moments, and their logs' lines (M-15.14), kept by
/// type — each game's are its own: the fairness lab reads a game's records back as they were
/// written (`records::<Action>()`, `moment_lines::<Words>()`).
#[derive(Default)]
pub struct FairLog(Mutex<HashMap<TypeId, Box<dyn Any + Send>>>);

/// Verdicts a host keeps for the lab, per game: far more than any lab run makes.
const FAIR_LOG: usize = 1_000_000;
/// Moment log lines a host keeps in memory, per game (the tracing log has them all).
const MOMENT_LOG: usize = 200_000;
/// Field records a host keeps: one per seat of each room's championship.
const FIELD_RECORDS: usize = 1_024;

impl FairLog {
    fn push<T: Send + 'static>(&self, item: T, cap: usize) {
        let Ok(mut logs) = self.0.lock() else { return };
        let log = logs.entry(TypeId::of::<T>()).or_insert_with(|| Box::new(Vec::<T>::new()));
        if let Some(log) = log.downcast_mut::<Vec<T>>()
            && log.len() < cap
        {
            log.push(item);
        }
    }

    fn items<T: Clone + Send + 'static>(&self) -> Vec<T> {
        let Ok(logs) = self.0.lock() else { return Vec::new() };
        logs.get(&TypeId::of::<T>()).and_then(|log| log.downcast_ref::<Vec<T>>()).cloned().unwrap_or_default()
    }

    /// The records of the games whose action is `A`, in the order they were judged.
    pub fn records<A: Clone + Send + 'static>(&self) -> Vec<FairRecord<A>> {
        self.items()
    }

    /// The field records laptops handed in (`serve --fairness-test`), in arrival order.
    pub fn field_records(&self) -> Vec<FieldRecord> {
        self.items()
    }

    /// Every countdown's calls, in the order applied.
    pub fn call_orders(&self) -> Vec<CallOrderRecord> {
        self.items()
    }

    /// The timed moments' log lines of the games that speak `W`, in order.
    pub fn moment_lines<W: Words>(&self) -> Vec<MomentLine<W>> {
        self.items()
    }
}

/// A running host: one QUIC endpoint, any number of rooms (a game night has one).
pub struct Server {
    endpoint: quinn::Endpoint,
    rooms: Rooms,
    limits: Limits,
    doors: Arc<Mutex<Doors>>,
    /// Connections past their hello, now.
    open: Arc<AtomicU64>,
    code_suffix: String,
    /// The next room's public number.
    next_room: AtomicU64,
    started: Instant,
    next_conn: Arc<AtomicU64>,
    pub stats: Arc<Stats>,
    /// Every verdict of every room's timed moments (the fairness lab reads it).
    pub fair_log: Arc<FairLog>,
    /// Rooms report here when their championship is over.
    finished_tx: watch::Sender<usize>,
    pub finished: watch::Receiver<usize>,
    /// Receives a room's lobby changes (seats taken) for the mDNS advertisement.
    seats_tx: watch::Sender<TableNews>,
    pub seats: watch::Receiver<TableNews>,
    /// The games a room's lobby may switch to (`serve_games`).
    games: Arc<Games>,
    /// A room that stopped on an error (a panic, a failed journal write) says why here.
    failed_tx: watch::Sender<Option<String>>,
    pub failed: watch::Receiver<Option<String>>,
    /// Set once the host shuts down: the browser door's seats, which QUIC's endpoint does not
    /// close, hang up with the same reason.
    closing: watch::Sender<bool>,
}

/// How a room keeps its journal.
pub enum Journal {
    None,
    /// Append every entry to this file and fsync it (write-ahead).
    File(PathBuf),
}

impl Server {
    /// Binds the endpoint and starts accepting, with the default [`Limits`]. Must run inside a
    /// tokio runtime.
    pub fn bind(addr: SocketAddr, identity: &Identity) -> anyhow::Result<Server> {
        Server::bind_with(addr, identity, Limits::default())
    }

    pub fn bind_with(addr: SocketAddr, identity: &Identity, limits: Limits) -> anyhow::Result<Server> {
        let cannot = |e: std::io::Error| {
            anyhow::anyhow!("cannot listen on {addr}: {e} (is another host running? try --bind with another port)")
        };
        let runtime = quinn::default_runtime().ok_or_else(|| anyhow::anyhow!("the host needs a tokio runtime"))?;
        let endpoint = quinn::Endpoint::new(
            quinn::EndpointConfig::default(),
            Some(tls::server_config(identity)?),
            udp_socket(addr).map_err(cannot)?,
            runtime,
        )
        .map_err(cannot)?;
        let (finished_tx, finished) = watch::channel(0);
        let (seats_tx, seats) = watch::channel(TableNews { taken: 0, max: 0, game: "" });
        let (failed_tx, failed) = watch::channel(None);
        let server = Server {
            endpoint,
            rooms: Arc::default(),
            limits,
            doors: Arc::new(Mutex::new(Doors::new(Instant::now()).host_tries(limits.host_tries))),
            open: Arc::default(),
            code_suffix: identity.code_suffix(),
            next_room: AtomicU64::new(0),
            started: Instant::now(),
            next_conn: Arc::new(AtomicU64::new(1)),
            stats: Arc::default(),
            fair_log: Arc::default(),
            finished_tx,
            finished,
            seats_tx,
            seats,
            games: Arc::default(),
            failed_tx,
            failed,
            closing: watch::channel(false).0,
        };
        server.spawn_accept_loop();
        Ok(server)
    }

    /// The instant the host's clock counts from (its µs are `started.elapsed()`).
    pub fn started(&self) -> Instant {
        self.started
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.endpoint.local_addr().expect("bound")
    }

    /// What the host's screen shows of its door.
    pub fn join_guard(&self) -> JoinGuard {
        JoinGuard(self.doors.clone())
    }

    /// The full code of room `number` with this word (the first room's has no number).
    pub fn code(&self, word: &str, number: u16) -> String {
        bolide_link::code::format_code(word, &self.code_suffix, number)
    }

    /// The games the rooms opened from now on may switch to in their lobby (by default none:
    /// a room plays the game it was opened with).
    pub fn serve_games(&mut self, games: Games) {
        self.games = Arc::new(games);
    }

    /// Opens a room that plays `G`; returns its full code. A resumed room comes with its
    /// journal entries.
    pub fn add_room<G: Game>(
        &self,
        config: RoomConfigOf<LobbyOf<G>>,
        journal: Journal,
        resume: Option<Vec<JournalEntryOf<G::Words>>>,
    ) -> anyhow::Result<String> {
        let word = config.code.to_ascii_uppercase();
        let entropy = crate::secret::u64()?;
        let now = self.started.elapsed().as_micros() as u64;
        let room = match resume {
            Some(entries) => RoomOf::<G>::resume(config, entropy, &entries, now)?,
            None => RoomOf::<G>::new(config, entropy),
        };
        let file = match journal {
            Journal::None => None,
            Journal::File(path) => {
                if let Some(dir) = path.parent() {
                    crate::files::private_dir(dir)?;
                }
                Some(crate::files::append_private(&path)?)
            }
        };
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        let mut rooms = self.rooms.lock().map_err(|_| anyhow::anyhow!("the room list is poisoned"))?;
        anyhow::ensure!(!rooms.iter().any(|r| r.word == word), "a room with the code word {word} is already open");
        let number = self.next_room.fetch_add(1, Ordering::Relaxed);
        let number = u16::try_from(number).map_err(|_| anyhow::anyhow!("this host has opened 65 536 rooms"))?;
        let seated = Seated::default();
        rooms.push(RoomHandle { word: word.clone(), number, tx, seated: seated.clone() });
        drop(rooms);
        let parts = RoomParts {
            word: word.clone(),
            seated,
            rooms: self.rooms.clone(),
            failed_tx: self.failed_tx.clone(),
            poisoned: None,
            rx,
            conns: HashMap::new(),
            journal: file,
            started: self.started,
            stats: self.stats.clone(),
            fair_log: self.fair_log.clone(),
            finished_tx: self.finished_tx.clone(),
            seats_tx: self.seats_tx.clone(),
            games: self.games.clone(),
        };
        tokio::spawn(RoomDriver { room, parts, switch: None }.run());
        Ok(self.code(&word, number))
    }

    fn spawn_accept_loop(&self) {
        let endpoint = self.endpoint.clone();
        let rooms = self.rooms.clone();
        let next_conn = self.next_conn.clone();
        let started = self.started;
        let (limits, doors, open) = (self.limits, self.doors.clone(), self.open.clone());
        tokio::spawn(async move {
            while let Some(incoming) = endpoint.accept().await {
                let ip = incoming.remote_address().ip();
                // Caps before any work: connections at once, handshakes at once, per address.
                let places = door::Places {
                    pending: limits.pending,
                    per_address: limits.pending_per_address,
                    retry_past: limits.pending / RETRY_BELOW,
                    known_reserve: KNOWN_RESERVE,
                };
                let admission = if open.load(Ordering::Relaxed) as usize >= limits.connections {
                    door::Admission::Refuse
                } else {
                    let Ok(mut d) = doors.lock() else { return };
                    d.admit(ip, incoming.remote_address_validated(), places)
                };
                let slot = match admission {
                    door::Admission::Slot => PendingSlot { doors: doors.clone(), ip },
                    door::Admission::Retry if incoming.may_retry() => {
                        let _ = incoming.retry();
                        continue;
                    }
                    door::Admission::Retry | door::Admission::Refuse => {
                        incoming.refuse();
                        continue;
                    }
                };
                let rooms = rooms.clone();
                let (doors, open) = (doors.clone(), open.clone());
                let id = next_conn.fetch_add(1, Ordering::Relaxed);
                tokio::spawn(async move {
                    let door = Door { rooms, steady_beats: limits.steady_beats, doors, open, slot: Some(slot) };
                    if let Err(e) = serve_connection(incoming, door, id, started).await {
                        tracing::debug!(conn = id, "connection ended: {e}");
                    }
                });
            }
        });
    }

    /// What another door (the browser's, `super::web`) shares with QUIC's: the rooms, the
    /// door keeper and its counts, the connection ids, the clock and the limits.
    pub(super) fn door_parts(&self) -> DoorParts {
        DoorParts {
            rooms: self.rooms.clone(),
            doors: self.doors.clone(),
            open: self.open.clone(),
            next_conn: self.next_conn.clone(),
            started: self.started,
            limits: self.limits,
            closing: self.closing.subscribe(),
        }
    }

    /// Closes every connection with a clear reason (Ctrl-C), the browser door's seats too, and
    /// waits briefly for the close frames to leave.
    pub async fn shutdown(&self) {
        self.closing.send_replace(true);
        self.endpoint.close(close::SHUTDOWN.into(), SHUTTING_DOWN.as_bytes());
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            self.endpoint.wait_idle().await;
            // A browser's seat counts as open until its goodbye has left (or timed out).
            while self.open.load(Ordering::Relaxed) > 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await;
    }
}

/// See [`Server::door_parts`].
pub(super) struct DoorParts {
    pub(super) rooms: Rooms,
    pub(super) doors: Arc<Mutex<Doors>>,
    pub(super) open: Arc<AtomicU64>,
    pub(super) next_conn: Arc<AtomicU64>,
    pub(super) started: Instant,
    pub(super) limits: Limits,
    /// True once the host shuts down ([`Server::shutdown`]).
    pub(super) closing: watch::Receiver<bool>,
}

/// What every laptop hears when the host shuts down.
pub(super) const SHUTTING_DOWN: &str = "the host is shutting down";

/// The host's UDP socket, with a larger receive buffer ([`RECV_BUFFER`]): every client's
/// packets land on this one socket, and a burst (a table's grab, a room filling up) that
/// overflows the default ~200 KB buffer is dropped by the kernel — a lost handshake packet
/// then waits a whole retransmission timeout.
fn udp_socket(addr: SocketAddr) -> std::io::Result<std::net::UdpSocket> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    // Best effort: the system caps it (net.core.rmem_max), and a smaller one still works.
    let _ = socket.set_recv_buffer_size(RECV_BUFFER);
    socket.bind(&addr.into())?;
    tracing::debug!(bytes = socket.recv_buffer_size().unwrap_or(0), "host receive buffer");
    Ok(socket.into())
}

/// What the host asks for: a few thousand packets, a burst's worth, not seconds of queue.
const RECV_BUFFER: usize = 2 << 20;

/// What a connection needs from the server: the rooms, the door keeper, the open count.
pub(super) struct Door {
    pub(super) rooms: Rooms,
    /// [`Limits::steady_beats`].
    pub(super) steady_beats: usize,
    pub(super) doors: Arc<Mutex<Doors>>,
    pub(super) open: Arc<AtomicU64>,
    pub(super) slot: Option<PendingSlot>,
}

/// A connection that got past its hello: counted open until it ends.
pub(super) struct OpenSlot(Arc<AtomicU64>);

impl Drop for OpenSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The door's side of a connection, whatever carries it (QUIC; a browser's WebSocket): frames
/// out and in, and the moment the exchange's key is known.
pub(super) trait DoorLink {
    /// Sends one frame; an error: the link is gone.
    async fn send(&mut self, frame: &[u8]) -> Result<(), ()>;
    /// Reads until `decoder` holds a whole frame; `Ok(None)`: the link ended first.
    async fn recv(&mut self, decoder: &mut FrameDecoder) -> Result<Option<Vec<u8>>, FrameError>;
    /// The exchange over the word is done and the host's answer has left: a link without TLS of
    /// its own seals everything from here on, both ways.
    fn keyed(&mut self, _confirmed: &pake::Confirmed) {}
}

/// Why a laptop is turned away at the door: by a close alone, or with the refusal's frame
/// first (`again`: it may knock again later).
#[derive(Debug)]
pub(super) enum Turned {
    Close { code: u32, reason: String },
    AtDoor { code: u32, reason: String, again: bool },
}

impl Turned {
    fn bad_hello(e: impl std::fmt::Display) -> Turned {
        Turned::Close { code: close::BAD_FRAME, reason: format!("bad hello: {e}") }
    }

    fn at_door(code: u32, reason: impl Into<String>, again: bool) -> Turned {
        Turned::AtDoor { code, reason: reason.into(), again }
    }

    /// The refusal's frame, when it has one.
    pub(super) fn frame(&self) -> Option<Vec<u8>> {
        match self {
            Turned::Close { .. } => None,
            Turned::AtDoor { reason, again, .. } => {
                Some(wire::encode(&wire::Door::Refused { reason: reason.clone(), again: *again }))
            }
        }
    }

    pub(super) fn code_and_reason(&self) -> (u32, &str) {
        match self {
            Turned::Close { code, reason } | Turned::AtDoor { code, reason, .. } => (*code, reason),
        }
    }
}

const POISONED: &str = "the host hit an internal error at its door: ask the host to restart it";

impl Door {
    /// The door, whatever carries the laptop: its hello (`body`), the room its Knock names, the
    /// locks, and the exchange over the code word bound to this link (`binding`). Returns the
    /// hello to hand the room, and the room.
    async fn enter<L: DoorLink>(
        &mut self,
        link: &mut L,
        decoder: &mut FrameDecoder,
        knocked: &Knocked<'_>,
    ) -> Result<(Hello, mpsc::Sender<RoomInput>), Turned> {
        let Knocked { body, binding, peer } = *knocked;
        let version = wire::hello_version(body).map_err(Turned::bad_hello)?;
        if version != PROTOCOL_VERSION {
            tracing::warn!(%peer, version, "refused a client that speaks protocol {version}; this host speaks {PROTOCOL_VERSION}");
            let reason = format!(
                "this host speaks protocol version {PROTOCOL_VERSION}, your client speaks {version}: \
                 update both to the same release of Bolide LAN"
            );
            return Err(Turned::at_door(close::VERSION_MISMATCH, reason, false));
        }
        let knock: Knock = wire::decode(body).map_err(Turned::bad_hello)?;
        let shut = || Turned::Close { code: close::SHUTDOWN, reason: POISONED.into() };
        // The room the code names (its number is public); its word is proved, never sent.
        let found = self
            .rooms
            .lock()
            .map_err(|_| shut())?
            .iter()
            .find(|r| r.number == knock.room)
            .map(|r| (r.word.clone(), r.tx.clone(), r.seated.lock().map(|s| s.clone()).unwrap_or_default()));
        let Some((word, room, seated)) = found else {
            let reason = format!("this host has no room {}: check the code on the host's screen", knock.room);
            return Err(Turned::at_door(close::WRONG_CODE, reason, false));
        };
        // A try is spent now, before the host answers: its answer tells the laptop whether its
        // word was right, whatever the laptop does next.
        let knocker = match &knock.pass {
            Some(pass) if seated.iter().any(|t| pake::pass_opens(t.0, binding, pass)) => Knocker::Seated,
            _ => Knocker::Guest,
        };
        let ticket = self.doors.lock().map_err(|_| shut())?.knock(peer.ip(), knocker, Instant::now());
        let ticket = ticket.map_err(|shut| Turned::at_door(close::WRONG_CODE, shut.reason(), true))?;
        let proved = tokio::time::timeout(PROOF_DEADLINE, prove_the_word(link, decoder, &word, &knock.pake, binding))
            .await
            .unwrap_or(Err(WordProof::Silent));
        let seat_token = match proved {
            Ok(token) => {
                if let Ok(mut doors) = self.doors.lock() {
                    doors.proved(ticket, Instant::now());
                }
                token
            }
            Err(failed) => {
                // A wrong proof, a laptop that stopped once it saw ours (its word is not this
                // room's), a frame that is no proof: one guess, spent.
                if let Ok(mut doors) = self.doors.lock() {
                    doors.wrong(ticket, &format!("{failed:?}"), Instant::now());
                }
                return Err(match failed {
                    WordProof::Malformed(e) => Turned::bad_hello(e),
                    WordProof::Wrong | WordProof::Silent => {
                        let reason = "wrong room code: ask the host for the code it printed";
                        Turned::at_door(close::WRONG_CODE, reason, false)
                    }
                });
            }
        };
        let frame_lead_us = knock.frame_lead_us;
        Ok((Hello { version, code: word, name: knock.name, seat_token, watch: knock.watch, frame_lead_us }, room))
    }

    /// The door ([`Door::enter`]), then the seat ([`Door::seat`]): the hello handed to its
    /// room, whose sender is returned with the connection's open place. A laptop turned away
    /// has been sent the refusal's frame, when it has one; its driver closes the link with the
    /// reason.
    pub(super) async fn pass<L: DoorLink>(
        &mut self,
        link: &mut L,
        decoder: &mut FrameDecoder,
        knocked: &Knocked<'_>,
        conn: ConnId,
        out: ConnOut,
    ) -> Result<(OpenSlot, mpsc::Sender<RoomInput>), Turned> {
        let seated = match self.enter(link, decoder, knocked).await {
            Ok((hello, room)) => self.seat(conn, hello, &room, out).await.map(|open| (open, room)),
            Err(turned) => Err(turned),
        };
        if let Err(turned) = &seated
            && let Some(frame) = turned.frame()
        {
            let _ = link.send(&frame).await;
        }
        seated
    }

    /// Past the door: this connection no longer holds a place there; it is counted open, and
    /// its room hears its hello.
    async fn seat(
        &mut self,
        conn: ConnId,
        hello: Hello,
        room: &mpsc::Sender<RoomInput>,
        out: ConnOut,
    ) -> Result<OpenSlot, Turned> {
        self.slot.take();
        let others = self.open.fetch_add(1, Ordering::Relaxed) as usize;
        let open = OpenSlot(self.open.clone());
        let beats = if others < self.steady_beats { BeatSchedule::Steady } else { BeatSchedule::WhileActing };
        if room.send(RoomInput::Hello { conn, hello, out, beats }).await.is_err() {
            let reason = "this room has stopped (see the host's log): ask the host to start it again";
            return Err(Turned::at_door(close::SHUTDOWN, reason, false));
        }
        Ok(open)
    }
}

/// A laptop's hello at the door: its first frame's body, the link's binding (what both
/// sides' proofs are bound to), and its address.
#[derive(Clone, Copy)]
pub(super) struct Knocked<'a> {
    pub(super) body: &'a [u8],
    pub(super) binding: &'a [u8],
    pub(super) peer: SocketAddr,
}

/// A connection's frames within their rate: `Err` is the reason a flood is closed with.
pub(super) fn within_rate(allowance: &mut Bucket) -> Result<(), String> {
    if allowance.take(MSG_BURST, MSGS_PER_S, Instant::now()) {
        Ok(())
    } else {
        Err(format!("closed: more than {MSGS_PER_S} messages a second; reconnect with your seat token"))
    }
}

/// A new allowance of frames.
pub(super) fn frame_allowance() -> Bucket {
    Bucket::full(MSG_BURST, Instant::now())
}

/// QUIC's side of the door: its game stream.
struct QuicDoor<'a> {
    send: &'a mut quinn::SendStream,
    recv: &'a mut quinn::RecvStream,
}

impl DoorLink for QuicDoor<'_> {
    async fn send(&mut self, frame: &[u8]) -> Result<(), ()> {
        self.send.write_all(frame).await.map_err(|_| ())
    }

    async fn recv(&mut self, decoder: &mut FrameDecoder) -> Result<Option<Vec<u8>>, FrameError> {
        let mut buf = [0u8; 2048];
        loop {
            if let Some(body) = decoder.next_frame()? {
                return Ok(Some(body));
            }
            match self.recv.read(&mut buf).await {
                Ok(Some(n)) => decoder.push(&buf[..n]),
                _ => return Ok(None),
            }
        }
    }
}

/// The handshake and the Knock, within [`HELLO_DEADLINE`] in all. Until the word is proved the
/// connection's datagrams are dropped as they come (`drain`) and its frames are read with the
/// door's small limit.
async fn handshake_and_knock(
    incoming: quinn::Incoming,
    drain: &mut Option<tokio::task::JoinHandle<()>>,
) -> anyhow::Result<(quinn::Connection, quinn::SendStream, quinn::RecvStream, FrameDecoder, Vec<u8>)> {
    let connection = incoming.await?;
    let datagrams = connection.clone();
    *drain = Some(tokio::spawn(async move { while datagrams.read_datagram().await.is_ok() {} }));
    let (send, mut recv) = connection.accept_bi().await?;
    let mut decoder = FrameDecoder::with_limit(wire::DOOR_FRAME);
    let mut buf = vec![0u8; wire::DOOR_FRAME];
    loop {
        match decoder.next_frame() {
            Ok(Some(body)) => return Ok((connection, send, recv, decoder, body)),
            Ok(None) => {}
            Err(e) => {
                refuse(&connection, close::BAD_FRAME, &format!("bad hello: {e}")).await?;
                anyhow::bail!("bad hello: {e}");
            }
        }
        match recv.read(&mut buf).await? {
            Some(n) => decoder.push(&buf[..n]),
            None => anyhow::bail!("the stream ended before the hello"),
        }
    }
}

/// One QUIC connection: the door (handshake, Knock, the exchange over the code word), then
/// frames both ways until it ends.
async fn serve_connection(
    incoming: quinn::Incoming,
    mut door: Door,
    conn_id: ConnId,
    started: Instant,
) -> anyhow::Result<()> {
    let mut drain = None;
    let knocked = tokio::time::timeout(HELLO_DEADLINE, handshake_and_knock(incoming, &mut drain)).await;
    // Whatever happens next, datagrams sent before the proof are never read.
    let draining = AbortOnDrop(drain);
    let (connection, mut send, mut recv, mut decoder, body) =
        knocked.map_err(|_| anyhow::anyhow!("no hello within {HELLO_DEADLINE:?}"))??;
    let peer = connection.remote_address();
    let mut binding = [0; pake::BINDING_LEN];
    if connection.export_keying_material(&mut binding, pake::EXPORTER_LABEL, b"").is_err() {
        return refuse(&connection, close::BAD_FRAME, "bad hello: no keying material").await;
    }
    let mut link = QuicDoor { send: &mut send, recv: &mut recv };
    let (tx, mut rx) = mpsc::channel(OUT_QUEUE);
    let out = ConnOut { tx, hangup: Hangup::quic(connection.clone()) };
    let knocked = Knocked { body: &body, binding: &binding, peer };
    let (_open, room) = match door.pass(&mut link, &mut decoder, &knocked, conn_id, out).await {
        Ok(seated) => seated,
        Err(turned) => {
            let (code, reason) = turned.code_and_reason();
            return refuse(&connection, code, reason).await;
        }
    };
    // Past the door: the game's frame limit and window, datagrams read by the room.
    drop(draining);
    decoder.set_limit(wire::MAX_FRAME);
    connection.set_receive_window(bolide_link::tls::RECEIVE_WINDOW.into());
    let probes = tokio::spawn(datagrams(connection.clone(), room.clone(), conn_id, started));
    // Writer: frames out, in order; a close request ends the connection with its reason.
    let writer_conn = connection.clone();
    let writer = tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            match out {
                Outgoing::Frame(frame) => {
                    if send.write_all(&frame).await.is_err() {
                        break;
                    }
                }
                Outgoing::Datagram(bytes) => {
                    let _ = writer_conn.send_datagram(bytes.into());
                }
                Outgoing::Close { code, reason } => {
                    let _ = send.finish();
                    // Give the last frames a moment to arrive before the close overtakes them.
                    let _ = tokio::time::timeout(Duration::from_millis(300), writer_conn.closed()).await;
                    writer_conn.close(code.into(), reason.as_bytes());
                    break;
                }
            }
        }
    });
    // Reader: frames in, within the size limit and the rate; a bad one, or a flood, closes this
    // connection only. The room reads each body in its game's words (and closes a connection
    // whose frame does not decode).
    let mut buf = vec![0u8; 16 * 1024];
    let mut allowance = frame_allowance();
    let result: anyhow::Result<()> = async {
        loop {
            match decoder.next_frame() {
                Ok(Some(body)) => {
                    if let Err(reason) = within_rate(&mut allowance) {
                        connection.close(close::FLOOD.into(), reason.as_bytes());
                        anyhow::bail!(reason);
                    }
                    if room.send(RoomInput::Msg { conn: conn_id, body }).await.is_err() {
                        return Ok(());
                    }
                    continue;
                }
                Ok(None) => {}
                Err(e) => return Err(bad_frame(&connection, &e)),
            }
            match recv.read(&mut buf).await {
                Ok(Some(n)) => decoder.push(&buf[..n]),
                Ok(None) | Err(_) => return Ok(()),
            }
        }
    }
    .await;
    let _ = room.send(RoomInput::Gone { conn: conn_id }).await;
    writer.abort();
    probes.abort();
    result
}

/// How a laptop's proof of the code word failed.
#[derive(Debug)]
enum WordProof {
    /// Its proof did not hold: it does not know the word.
    Wrong,
    /// It went away (or stayed silent) after the host's proof: the word it has is not this
    /// room's, so it would not prove it.
    Silent,
    /// Its message or frame was no SPAKE2 message or proof at all.
    Malformed(String),
}

/// The host's side of the exchange over the code word (`bolide_link::pake`): its message and
/// proof, bound to this connection (`binding`), then the laptop's proof and seat token.
async fn prove_the_word<L: DoorLink>(
    link: &mut L,
    decoder: &mut FrameDecoder,
    word: &str,
    laptop_msg: &[u8],
    binding: &[u8],
) -> Result<Option<SeatToken>, WordProof> {
    let (confirmed, msg, proof) =
        pake::host_answer(word, laptop_msg, binding).map_err(|e| WordProof::Malformed(e.to_string()))?;
    link.send(&wire::encode(&wire::Door::Pake { msg, proof })).await.map_err(|_| WordProof::Silent)?;
    link.keyed(&confirmed);
    let body = match link.recv(decoder).await {
        Ok(Some(body)) => body,
        Ok(None) => return Err(WordProof::Silent),
        Err(e) => return Err(WordProof::Malformed(e.to_string())),
    };
    let Proof { proof, seat_token } = wire::decode(&body).map_err(|e| WordProof::Malformed(e.to_string()))?;
    confirmed.check(pake::Side::Laptop, binding, &proof).map_err(|_| WordProof::Wrong)?;
    Ok(seat_token)
}

/// A task aborted when this is dropped.
struct AbortOnDrop(Option<tokio::task::JoinHandle<()>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(task) = self.0.take() {
            task.abort();
        }
    }
}

/// Why a connection whose frame did not read is closed.
pub(super) fn bad_frame_reason(e: &FrameError) -> String {
    format!("closed: {e}; the game goes on without this connection")
}

fn bad_frame(connection: &quinn::Connection, e: &FrameError) -> anyhow::Error {
    let reason = bad_frame_reason(e);
    tracing::warn!(peer = %connection.remote_address(), "{reason}");
    connection.close(close::BAD_FRAME.into(), reason.as_bytes());
    anyhow::anyhow!(reason)
}

async fn refuse(connection: &quinn::Connection, code: u32, reason: &str) -> anyhow::Result<()> {
    let _ = tokio::time::timeout(Duration::from_millis(300), connection.closed()).await;
    connection.close(code.into(), reason.as_bytes());
    Ok(())
}

/// Probes right after a client joins: its first Klaxon call already meets a clock model.
const PROBE_BURST: u32 = 20;
const PROBE_BURST_EVERY: Duration = Duration::from_millis(50);
/// Then for the whole game. A probe costs three packets (ping, pong, ack); at this pace the
/// clock model's window covers two minutes and its least-delayed samples still fall within
/// a millisecond of the path floor (the lab measures the resulting clock error), while a
/// host with thousands of clients is not swamped by them (the load benchmark).
const PROBE_EVERY: Duration = Duration::from_millis(500);

/// A connection's datagrams on the host's side, whatever carries them (fairness.md §1, §4):
/// the host pings the client on its own schedule ([`PROBE_BURST`] then [`PROBE_EVERY`]) and
/// hands each answer to the room as a clock sample; a client's own pings are echoed; every
/// other datagram (heartbeats, timed requests' copies) goes to the room, which reads it in its
/// game's words (one that does not decode is dropped there, as a lost one would be).
pub(super) struct ProbeDesk {
    conn: ConnId,
    sent: u32,
    outstanding: OutstandingProbes,
    allowance: Bucket,
    overflow: Bucket,
    next_ping: Instant,
}

/// What became of a datagram that landed.
pub(super) enum Landed {
    /// Send this back (a pong).
    Answer(Vec<u8>),
    /// Hand this to the room.
    Room(RoomInput),
    /// Nothing to do (dropped past the allowance, or a probe not taken).
    Nothing,
    /// Far past the allowance: close the connection with this reason.
    Flood(String),
}

/// What the transport measured of its own round trips (µs): its least, and its smoothed one.
#[derive(Debug, Clone, Copy)]
pub(super) struct TransportRtt {
    pub(super) min_us: u64,
    pub(super) smoothed_us: u64,
}

impl ProbeDesk {
    pub(super) fn new(conn: ConnId) -> ProbeDesk {
        let now = Instant::now();
        ProbeDesk {
            conn,
            sent: 0,
            outstanding: OutstandingProbes::default(),
            allowance: Bucket::full(DATAGRAM_BURST, now),
            overflow: Bucket::full(DATAGRAM_FLOOD_BURST, now),
            next_ping: now,
        }
    }

    /// When the next probe is due.
    pub(super) fn next_ping(&self) -> Instant {
        self.next_ping
    }

    /// The probe to send now, stamped `t0` on the host's clock.
    pub(super) fn ping(&mut self, t0: u64) -> Vec<u8> {
        self.outstanding.sent(t0);
        self.sent += 1;
        self.next_ping += if self.sent < PROBE_BURST { PROBE_BURST_EVERY } else { PROBE_EVERY };
        wire::encode_probe(&ClockProbe::HostPing { t0 })
    }

    /// A datagram that landed at `t` (µs, the host's clock); `now` reads the clock again for a
    /// pong's send time, and `rtt` is what the transport measured of its own round trips.
    pub(super) fn landed(
        &mut self,
        datagram: &[u8],
        t: u64,
        now: impl Fn() -> u64,
        rtt: impl FnOnce() -> Option<TransportRtt>,
    ) -> Landed {
        // Past the allowance a datagram is dropped here, as a loss would drop it: nothing queues
        // for it. Far past it, the connection is closed.
        let arrived = Instant::now();
        if !self.allowance.take(DATAGRAM_BURST, DATAGRAMS_PER_S, arrived) {
            if !self.overflow.take(DATAGRAM_FLOOD_BURST, DATAGRAM_FLOOD_PER_S, arrived) {
                tracing::warn!(conn = self.conn, "a datagram flood: connection closed");
                return Landed::Flood(format!(
                    "closed: far more than {DATAGRAMS_PER_S} datagrams a second; reconnect with your seat token"
                ));
            }
            return Landed::Nothing;
        }
        match wire::decode_probe(datagram) {
            Some(ClockProbe::Ping { t0 }) => {
                Landed::Answer(wire::encode_probe(&ClockProbe::Pong { t0, t1: t, t2: now() }))
            }
            // Only an answer to a probe this host sent, once (fairness: a laptop may not invent
            // samples of its own path). And only one the transport could have measured: an
            // answer held back to look far away is dropped (`Sample::within_transport`).
            Some(ClockProbe::ClientPong { t0, t1, t2 }) => {
                if !self.outstanding.answered(t0) {
                    return Landed::Nothing;
                }
                let sample = Sample::from_probe(t0, t1, t2, t);
                let sample = match rtt() {
                    Some(rtt) => {
                        let sample = sample.with_transport_min_rtt(rtt.min_us);
                        if !sample.within_transport(rtt.smoothed_us) {
                            return Landed::Nothing;
                        }
                        sample
                    }
                    None => sample,
                };
                Landed::Room(RoomInput::Probe { conn: self.conn, sample })
            }
            Some(ClockProbe::Pong { .. } | ClockProbe::HostPing { .. }) => Landed::Nothing,
            None => Landed::Room(RoomInput::Datagram { conn: self.conn, bytes: datagram.to_vec() }),
        }
    }
}

/// A QUIC connection's datagrams, through its [`ProbeDesk`].
async fn datagrams(connection: quinn::Connection, room: mpsc::Sender<RoomInput>, conn: ConnId, started: Instant) {
    let now = || started.elapsed().as_micros() as u64;
    let mut desk = ProbeDesk::new(conn);
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(desk.next_ping().into()) => {
                if connection.send_datagram(desk.ping(now()).into()).is_err() {
                    return;
                }
            }
            datagram = connection.read_datagram() => {
                let Ok(datagram) = datagram else { return };
                let t = now();
                let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
                let rtt = || Some(TransportRtt { min_us: micros(connection.min_rtt()), smoothed_us: micros(connection.rtt()) });
                match desk.landed(&datagram, t, now, rtt) {
                    Landed::Answer(bytes) => {
                        let _ = connection.send_datagram(bytes.into());
                    }
                    Landed::Room(input) => {
                        if let Err(mpsc::error::TrySendError::Closed(_)) = room.try_send(input) {
                            return;
                        }
                    }
                    Landed::Nothing => {}
                    Landed::Flood(reason) => {
                        connection.close(close::FLOOD.into(), reason.as_bytes());
                        return;
                    }
                }
            }
        }
    }
}

/// A room's task: the room, and what it keeps whatever game the room plays.
struct RoomDriver<G: Game> {
    room: RoomOf<G>,
    parts: RoomParts,
    /// A lobby of another game the first pilot asked for, ready to take over.
    switch: Option<(String, StartRoom)>,
}

/// What a room's task keeps whatever game its room plays — its inputs, its connections'
/// writers, its journal, the host's logs and news — handed on when the lobby switches games.
pub struct RoomParts {
    word: String,
    /// The room's seat tokens for the door ([`RoomHandle::seated`]).
    seated: Seated,
    rooms: Rooms,
    failed_tx: watch::Sender<Option<String>>,
    rx: mpsc::Receiver<RoomInput>,
    conns: HashMap<ConnId, ConnOut>,
    /// A panic caught while flushing (the room answering a dropped laptop).
    poisoned: Option<String>,
    journal: Option<std::fs::File>,
    started: Instant,
    stats: Arc<Stats>,
    fair_log: Arc<FairLog>,
    finished_tx: watch::Sender<usize>,
    seats_tx: watch::Sender<TableNews>,
    games: Arc<Games>,
}

/// A room of another game, set up and ready to run with the parts it is handed.
type StartRoom = Box<dyn FnOnce(RoomParts) + Send>;
/// How a host sets up a lobby of one game for a room (its code word), with the seats carried
/// from the lobby it replaces, at host instant `now`.
type OpenLobby = Arc<dyn Fn(&str, Vec<CarriedSeat>, u64) -> anyhow::Result<StartRoom> + Send + Sync>;

/// The games a host serves, by name (`Words::NAME`): the lobby's first pilot may switch the
/// table to any of them (`ClientMsg::ChooseGame`). Each comes with how its rooms are set up
/// (the host's flags for it).
#[derive(Default)]
pub struct Games(Vec<(&'static str, OpenLobby)>);

impl Games {
    /// Serves `G` too, its rooms set up by `config` from their code word.
    pub fn with<G: Game>(
        mut self,
        config: impl Fn(&str) -> anyhow::Result<RoomConfigOf<LobbyOf<G>>> + Send + Sync + 'static,
    ) -> Games {
        let name = <G::Words as Words>::NAME;
        let open: OpenLobby = Arc::new(move |word: &str, carried: Vec<CarriedSeat>, now: u64| {
            let most = usize::from(G::PLAYERS.1);
            anyhow::ensure!(carried.len() <= most, "{name} seats {most} at most: {} are seated", carried.len());
            let room = RoomOf::<G>::with_seats(config(word)?, crate::secret::u64()?, carried, now);
            let start: StartRoom = Box::new(move |parts: RoomParts| {
                tokio::spawn(RoomDriver { room, parts, switch: None }.run());
            });
            Ok(start)
        });
        self.0.push((name, open));
        self
    }

    /// The names of the games served, for a refusal that says which there are.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|(name, _)| *name).collect()
    }

    fn get(&self, name: &str) -> Option<&OpenLobby> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, open)| open)
    }
}

/// What the host's advert says of a room: seats taken, the most its game seats, and the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableNews {
    pub taken: usize,
    pub max: usize,
    pub game: &'static str,
}

type Output<G> = OutputOf<<G as Game>::Words>;

impl<G: Game> RoomDriver<G> {
    /// The room's clock: µs since the server started.
    fn now(&self) -> u64 {
        self.parts.started.elapsed().as_micros() as u64
    }

    /// The room's seat tokens, for the door, when they changed.
    fn publish_seated(&self) {
        let tokens = self.room.seat_tokens();
        if let Ok(mut seated) = self.parts.seated.lock()
            && *seated != tokens
        {
            *seated = tokens;
        }
    }

    /// What the advert says of this room now.
    fn news(&self) -> TableNews {
        let (taken, max) = self.room.seats_taken();
        TableNews { taken, max, game: <G::Words as Words>::NAME }
    }

    async fn run(mut self) {
        let mut out = Vec::new();
        let mut reported = false;
        self.parts.seats_tx.send_replace(self.news());
        self.publish_seated();
        let failure = loop {
            let deadline = self.room.next_deadline().map(|us| self.parts.started + Duration::from_micros(us));
            let mut arrived = None;
            let step = tokio::select! {
                input = self.parts.rx.recv() => {
                    let Some(input) = input else { break None };
                    // Probes are not game messages: the latency figures leave them out.
                    if !matches!(input, RoomInput::Probe { .. }) {
                        arrived = Some(Instant::now());
                    }
                    self.input(input, &mut out)
                }
                _ = sleep_until(deadline) => {
                    let now = self.now();
                    guarded(|| self.room.tick(now, &mut out))
                }
            };
            if let Err(panic) = step {
                break Some(format!("the host hit an internal error ({panic})"));
            }
            if let Err(e) = self.flush(&mut out) {
                break Some(format!("the journal could not be written ({e})"));
            }
            if let Some(panic) = self.parts.poisoned.take() {
                break Some(format!("the host hit an internal error ({panic})"));
            }
            if let Some((game, start)) = self.switch.take() {
                // Everyone comes back with their seat token to the lobby of `game`, which
                // takes this room's place (its inputs, its code, its journal file).
                tracing::info!(room = %self.parts.word, game, "the first pilot switched the table's game");
                for (_, c) in self.parts.conns.drain() {
                    if c.tx.try_send(Outgoing::Close { code: close::GAME_CHANGED, reason: game.clone() }).is_err() {
                        c.hangup.close(close::GAME_CHANGED, &game);
                    }
                }
                return start(self.parts);
            }
            if let Some(t) = arrived {
                self.parts.stats.record(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
            }
            let news = self.news();
            self.parts.seats_tx.send_if_modified(|s| std::mem::replace(s, news) != news);
            self.publish_seated();
            if self.room.is_finished() && !reported {
                reported = true;
                self.parts.finished_tx.send_modify(|n| *n += 1);
            }
        };
        if let Ok(mut rooms) = self.parts.rooms.lock() {
            rooms.retain(|r| r.word != self.parts.word);
        }
        if let Some(why) = failure {
            // Never a silently dead room: everyone hears why, the log says it, and `serve`
            // exits with an error. Nothing unjournaled was sent, so `--resume` continues.
            let reason = format!("{why}: the room has stopped; the host can restart it with --resume");
            tracing::error!(room = %self.parts.word, "{reason}");
            for (_, c) in self.parts.conns.drain() {
                c.hangup.close(close::SHUTDOWN, &reason);
            }
            self.parts.failed_tx.send_replace(Some(reason));
        }
    }

    /// One input through the room, a panic caught and returned.
    fn input(&mut self, input: RoomInput, out: &mut Vec<Output<G>>) -> Result<(), String> {
        let now = self.now();
        match input {
            RoomInput::Hello { conn, hello, out: conn_out, beats } => {
                if hello.seat_token.is_some() {
                    self.parts.stats.comebacks.fetch_add(1, Ordering::Relaxed);
                }
                self.parts.conns.insert(conn, conn_out);
                guarded(|| self.room.hello(now, conn, hello, beats, out))
            }
            RoomInput::Msg { conn, body } => match wire::decode::<ClientMsgOf<G::Words>>(&body) {
                Ok(msg) => guarded(|| self.room.message(now, conn, msg, out)),
                Err(e) => {
                    // The reader sees the close and tells the room the connection is gone.
                    if let Some(c) = self.parts.conns.get(&conn) {
                        let reason = bad_frame_reason(&e);
                        tracing::warn!(conn, "{reason}");
                        c.hangup.close(close::BAD_FRAME, &reason);
                    }
                    Ok(())
                }
            },
            RoomInput::Datagram { conn, bytes } => {
                // Only what a datagram may carry; anything else is dropped, as a loss would.
                let msg = match wire::decode_datagram::<G::Words>(&bytes) {
                    Ok(DatagramOf::Beat { now_us, shown, acts, dense }) => {
                        self.parts.stats.heartbeats.fetch_add(1, Ordering::Relaxed);
                        ClientMsgOf::Heartbeat { now_us, shown, acts, dense }
                    }
                    Ok(DatagramOf::Timed { seq, action, shown_us, input_us }) => {
                        ClientMsgOf::Timed { seq, action, shown_us, input_us }
                    }
                    _ => return Ok(()),
                };
                guarded(|| self.room.message(now, conn, msg, out))
            }
            RoomInput::Gone { conn } => {
                self.parts.conns.remove(&conn);
                guarded(|| self.room.gone(now, conn, out))
            }
            RoomInput::Probe { conn, sample } => {
                self.parts.stats.probes.fetch_add(1, Ordering::Relaxed);
                guarded(|| self.room.probe(conn, sample))
            }
        }
    }

    /// Queues `item` for `conn`'s writer. A laptop whose queue is full is not reading: it is
    /// dropped (it may come back with its seat token) and its seat goes to a bot.
    fn deliver(&mut self, conn: ConnId, item: Outgoing, out: &mut Vec<Output<G>>) {
        let Some(c) = self.parts.conns.get(&conn) else { return };
        if let Err(mpsc::error::TrySendError::Full(_)) = c.tx.try_send(item) {
            let reason = "closed: your laptop stopped reading the game; reconnect to take your seat back";
            tracing::warn!(conn, "{reason}");
            c.hangup.close(close::BAD_FRAME, reason);
            self.parts.conns.remove(&conn);
            let now = self.now();
            // What the room says in answer waits for the next flush.
            if let Err(panic) = guarded(|| self.room.gone(now, conn, out)) {
                self.parts.poisoned.get_or_insert(panic);
            }
        }
    }

    /// Hands `items` to `conn`'s writer at host instant `at` (µs), the later ones (copies)
    /// `wire::COPY_GAPS` apart. A timed message is never dropped silently: a laptop whose
    /// queue is full then is not reading the game, and it is closed with a reason, as
    /// [`deliver`](Self::deliver) closes one (its reader then tells the room it is gone).
    fn send_at(&self, conn: ConnId, at: u64, items: Vec<Outgoing>) {
        let Some((tx, hangup)) = self.parts.conns.get(&conn).map(|c| (c.tx.clone(), c.hangup.clone())) else {
            return;
        };
        let when = self.parts.started + Duration::from_micros(at);
        tokio::spawn(async move {
            tokio::time::sleep_until(when.into()).await;
            if let Err(TimedDropped) = hand_over_timed(&tx, items).await {
                tracing::warn!(conn, "{TIMED_DROPPED}");
                hangup.close(close::BAD_FRAME, TIMED_DROPPED);
            }
        });
    }

    /// Journal entries first (written and fsynced), then the frames that depend on them.
    fn flush(&mut self, out: &mut Vec<Output<G>>) -> std::io::Result<()> {
        let mut more = Vec::new();
        while !out.is_empty() {
            for output in std::mem::take(out) {
                self.flush_one(output, &mut more)?;
            }
            // A laptop dropped for not reading makes the room answer (lobby, stand-in bot).
            std::mem::swap(out, &mut more);
        }
        Ok(())
    }

    fn flush_one(&mut self, output: Output<G>, more: &mut Vec<Output<G>>) -> std::io::Result<()> {
        {
            match output {
                OutputOf::Journal(entry) => {
                    if let Some(file) = &mut self.parts.journal {
                        file.write_all(entry.to_line().as_bytes())?;
                        file.sync_data()?;
                    }
                }
                OutputOf::Send { conn, msg } => self.deliver(conn, Outgoing::Frame(wire::encode(&msg)), more),
                OutputOf::SendAt { conn, at, msg } => {
                    self.send_at(conn, at, vec![Outgoing::Frame(wire::encode(&msg))]);
                }
                OutputOf::DatagramAt { conn, at, datagram } => {
                    // The datagram, then its copies (`wire::COPY_GAPS` apart).
                    let bytes = wire::encode_datagram(&datagram);
                    let copies = (0..=wire::COPY_GAPS.len()).map(|_| Outgoing::Datagram(bytes.clone())).collect();
                    self.send_at(conn, at, copies);
                }
                OutputOf::Fair(record) => self.parts.fair_log.push(record, FAIR_LOG),
                OutputOf::FieldRecord(record) => self.parts.fair_log.push(record, FIELD_RECORDS),
                OutputOf::Calls(order) => self.parts.fair_log.push(order, FAIR_LOG),
                OutputOf::SwitchGame { conn, game } => {
                    let now = self.now();
                    let opened = match self.parts.games.get(&game) {
                        Some(open) => open(&self.parts.word, self.room.carried(), now),
                        None => Err(anyhow::anyhow!(
                            "this host does not serve `{game}`; it serves {}",
                            self.parts.games.names().join(", ")
                        )),
                    };
                    match opened {
                        Ok(start) => self.switch = Some((game, start)),
                        Err(e) => {
                            let msg = wire::ServerMsgOf::<G::Words>::LobbyRefused { reason: e.to_string() };
                            self.deliver(conn, Outgoing::Frame(wire::encode(&msg)), more);
                        }
                    }
                }
                OutputOf::Moment(line) => {
                    // The host's private log: refusals included, never broadcast (M-15.14).
                    tracing::debug!(room = %self.parts.word, ?line, "timed moment");
                    self.parts.fair_log.push(line, MOMENT_LOG);
                }
                OutputOf::Close { conn, code, reason } => {
                    if let Some(c) = self.parts.conns.remove(&conn)
                        && c.tx.try_send(Outgoing::Close { code, reason: reason.clone() }).is_err()
                    {
                        c.hangup.close(code, &reason);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Why a laptop is closed when a timed message found its writer's queue full.
const TIMED_DROPPED: &str =
    "closed: your laptop stopped reading the game at a timed moment; reconnect to take your seat back";

/// A timed message (a reveal, an Échange window) that a connection's queue could not take.
#[derive(Debug, PartialEq)]
struct TimedDropped;

/// Hands a timed message and its copies to a writer's queue, `wire::COPY_GAPS` apart. It never
/// waits for room in the queue (a late reveal is worse than none) and never drops one quietly:
/// a full queue is an error, and the caller closes that connection with [`TIMED_DROPPED`].
async fn hand_over_timed(tx: &mpsc::Sender<Outgoing>, items: Vec<Outgoing>) -> Result<(), TimedDropped> {
    let gaps = std::iter::once(Duration::ZERO).chain(wire::COPY_GAPS.iter().copied());
    for (gap, item) in gaps.zip(items) {
        tokio::time::sleep(gap).await;
        match tx.try_send(item) {
            Ok(()) | Err(mpsc::error::TrySendError::Closed(_)) => {}
            Err(mpsc::error::TrySendError::Full(_)) => return Err(TimedDropped),
        }
    }
    Ok(())
}

/// Runs one step of the room, catching a panic: the room is then in an unknown state, so the
/// caller stops it and tells everyone why instead of leaving a silently dead room.
fn guarded(step: impl FnOnce()) -> Result<(), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(step)).map_err(|panic| {
        panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into())
    })
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_timed_message_a_full_queue_cannot_take_is_an_error_not_a_silent_drop() {
        let (tx, mut rx) = mpsc::channel(2);
        assert!(tx.try_send(Outgoing::Frame(vec![1])).is_ok(), "room for one message");
        // Room for the reveal, not for its first copy.
        let items = vec![Outgoing::Datagram(vec![2]), Outgoing::Datagram(vec![3]), Outgoing::Datagram(vec![4])];
        assert_eq!(hand_over_timed(&tx, items).await, Err(TimedDropped));
        // A queue that drains in time takes the message and every copy.
        while rx.try_recv().is_ok() {}
        let (tx, mut rx) = mpsc::channel(OUT_QUEUE);
        let copies = (0..=wire::COPY_GAPS.len()).map(|i| Outgoing::Datagram(vec![i as u8])).collect();
        assert_eq!(hand_over_timed(&tx, copies).await, Ok(()));
        let mut got = 0;
        while rx.try_recv().is_ok() {
            got += 1;
        }
        assert_eq!(got, wire::COPY_GAPS.len() + 1);
    }
}
