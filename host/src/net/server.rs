//! The QUIC server: accepts connections, checks the hello, and moves frames between each
//! client and its room's task. All game logic is in [`crate::room::Room`]; this file only
//! moves bytes, keeps time and writes the journal.

use super::identity::Identity;
use super::tls;
use crate::fair::Sample;
use crate::room::{ConnId, FairRecord, JournalEntry, Output, Room, RoomConfig};
use bolide_protocol::wire::{
    self, ClientMsg, Datagram, FrameDecoder, FrameError, Hello, PROTOCOL_VERSION, ServerMsg, close,
};
use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// What a room's task receives.
enum RoomInput {
    Hello { conn: ConnId, hello: Hello, tx: mpsc::UnboundedSender<Outgoing> },
    Msg { conn: ConnId, msg: ClientMsg },
    Gone { conn: ConnId },
    Probe { conn: ConnId, sample: Sample },
}

/// What a connection's writer receives.
enum Outgoing {
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

struct RoomHandle {
    tx: mpsc::UnboundedSender<RoomInput>,
}

/// A running host: one QUIC endpoint, any number of rooms (a game night has one).
pub struct Server {
    endpoint: quinn::Endpoint,
    rooms: Arc<Mutex<HashMap<String, RoomHandle>>>,
    code_suffix: String,
    started: Instant,
    next_conn: Arc<AtomicU64>,
    pub stats: Arc<Stats>,
    /// Every grab verdict of every room (the fairness lab reads it).
    pub fair_log: Arc<Mutex<Vec<FairRecord>>>,
    /// Rooms report here when their championship is over.
    finished_tx: watch::Sender<usize>,
    pub finished: watch::Receiver<usize>,
    /// Receives a room's lobby changes (seats taken) for the mDNS advertisement.
    seats_tx: watch::Sender<(usize, usize)>,
    pub seats: watch::Receiver<(usize, usize)>,
}

/// How a room keeps its journal.
pub enum Journal {
    None,
    /// Append every entry to this file and fsync it (write-ahead).
    File(PathBuf),
}

impl Server {
    /// Binds the endpoint and starts accepting. Must run inside a tokio runtime.
    pub fn bind(addr: SocketAddr, identity: &Identity) -> anyhow::Result<Server> {
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
        let (seats_tx, seats) = watch::channel((0, 0));
        let server = Server {
            endpoint,
            rooms: Arc::default(),
            code_suffix: identity.code_suffix(),
            started: Instant::now(),
            next_conn: Arc::new(AtomicU64::new(1)),
            stats: Arc::default(),
            fair_log: Arc::default(),
            finished_tx,
            finished,
            seats_tx,
            seats,
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

    /// The full code of a room with this word.
    pub fn code(&self, word: &str) -> String {
        format!("{}-{}", word.to_ascii_uppercase(), self.code_suffix)
    }

    /// Opens a room; returns its full code. A resumed room comes with its journal entries.
    pub fn add_room(
        &self,
        config: RoomConfig,
        journal: Journal,
        resume: Option<Vec<JournalEntry>>,
    ) -> anyhow::Result<String> {
        let word = config.code.to_ascii_uppercase();
        let entropy = seed_from_os();
        let now = self.started.elapsed().as_micros() as u64;
        let room = match resume {
            Some(entries) => Room::resume(config, entropy, &entries, now)?,
            None => Room::new(config, entropy),
        };
        let file = match journal {
            Journal::None => None,
            Journal::File(path) => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                Some(std::fs::OpenOptions::new().create(true).append(true).open(&path)?)
            }
        };
        let (tx, rx) = mpsc::unbounded_channel();
        self.rooms.lock().expect("rooms").insert(word.clone(), RoomHandle { tx });
        let driver = RoomDriver {
            room,
            rx,
            conns: HashMap::new(),
            journal: file,
            started: self.started,
            stats: self.stats.clone(),
            fair_log: self.fair_log.clone(),
            finished_tx: self.finished_tx.clone(),
            seats_tx: self.seats_tx.clone(),
        };
        tokio::spawn(driver.run());
        Ok(self.code(&word))
    }

    fn spawn_accept_loop(&self) {
        let endpoint = self.endpoint.clone();
        let rooms = self.rooms.clone();
        let next_conn = self.next_conn.clone();
        let started = self.started;
        tokio::spawn(async move {
            while let Some(incoming) = endpoint.accept().await {
                let rooms = rooms.clone();
                let id = next_conn.fetch_add(1, Ordering::Relaxed);
                tokio::spawn(async move {
                    if let Err(e) = serve_connection(incoming, rooms, id, started).await {
                        tracing::debug!(conn = id, "connection ended: {e}");
                    }
                });
            }
        });
    }

    /// Closes every connection with a clear reason (Ctrl-C) and waits briefly for the close
    /// frames to leave.
    pub async fn shutdown(&self) {
        self.endpoint.close(close::SHUTDOWN.into(), b"the host is shutting down");
        let _ = tokio::time::timeout(Duration::from_secs(1), self.endpoint.wait_idle()).await;
    }
}

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

fn seed_from_os() -> u64 {
    // The std hasher is keyed with fresh OS randomness per process.
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.finish()
}

/// One connection: the hello, then frames both ways until it ends.
async fn serve_connection(
    incoming: quinn::Incoming,
    rooms: Arc<Mutex<HashMap<String, RoomHandle>>>,
    conn_id: ConnId,
    started: Instant,
) -> anyhow::Result<()> {
    let connection = incoming.await?;
    let peer = connection.remote_address();
    let (mut send, mut recv) = tokio::time::timeout(Duration::from_secs(10), connection.accept_bi()).await??;
    let mut decoder = FrameDecoder::default();
    let mut buf = vec![0u8; 16 * 1024];
    // The hello.
    let body = loop {
        match decoder.next_frame() {
            Ok(Some(body)) => break body,
            Ok(None) => {}
            Err(e) => return refuse(&connection, close::BAD_FRAME, &format!("bad hello: {e}")).await,
        }
        match tokio::time::timeout(Duration::from_secs(10), recv.read(&mut buf)).await?? {
            Some(n) => decoder.push(&buf[..n]),
            None => return Ok(()),
        }
    };
    let version = match wire::hello_version(&body) {
        Ok(v) => v,
        Err(e) => return refuse(&connection, close::BAD_FRAME, &format!("bad hello: {e}")).await,
    };
    if version != PROTOCOL_VERSION {
        tracing::warn!(%peer, version, "refused a client that speaks protocol {version}; this host speaks {PROTOCOL_VERSION}");
        let reason = format!(
            "this host speaks protocol version {PROTOCOL_VERSION}, your client speaks {version}: \
             update both to the same release of Bolide LAN"
        );
        let _ = send.write_all(&wire::encode(&ServerMsg::Refused { reason: reason.clone() })).await;
        return refuse(&connection, close::VERSION_MISMATCH, &reason).await;
    }
    let hello: Hello = match wire::decode(&body) {
        Ok(h) => h,
        Err(e) => return refuse(&connection, close::BAD_FRAME, &format!("bad hello: {e}")).await,
    };
    let word = hello.code.split('-').next().unwrap_or("").to_ascii_uppercase();
    let room = rooms.lock().expect("rooms").get(&word).map(|r| r.tx.clone());
    let Some(room) = room else {
        tracing::info!(%peer, "refused a wrong room code");
        let reason = "wrong room code: ask the host for the code it printed".to_string();
        let _ = send.write_all(&wire::encode(&ServerMsg::Refused { reason: reason.clone() })).await;
        return refuse(&connection, close::WRONG_CODE, &reason).await;
    };
    let (tx, mut rx) = mpsc::unbounded_channel();
    room.send(RoomInput::Hello { conn: conn_id, hello, tx }).ok();
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
    // Reader: frames in, checked; a bad one closes this connection only.
    let result: anyhow::Result<()> = async {
        loop {
            match decoder.next_frame() {
                Ok(Some(body)) => match wire::decode::<ClientMsg>(&body) {
                    Ok(msg) => {
                        room.send(RoomInput::Msg { conn: conn_id, msg }).ok();
                        continue;
                    }
                    Err(e) => return Err(bad_frame(&connection, &e)),
                },
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
    room.send(RoomInput::Gone { conn: conn_id }).ok();
    writer.abort();
    probes.abort();
    result
}

fn bad_frame(connection: &quinn::Connection, e: &FrameError) -> anyhow::Error {
    let reason = format!("closed: {e}; the game goes on without this connection");
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

/// A connection's datagrams (fairness.md §1, §4): the host pings the client on its own
/// schedule ([`PROBE_BURST`] then [`PROBE_EVERY`]) and hands each answer to the room as a
/// clock sample; a client's own pings are echoed; heartbeats and grab copies go to the room
/// like their stream twins (an undecodable datagram is dropped, as a lost one would be).
async fn datagrams(
    connection: quinn::Connection,
    room: mpsc::UnboundedSender<RoomInput>,
    conn: ConnId,
    started: Instant,
) {
    let now = || started.elapsed().as_micros() as u64;
    let mut sent = 0u32;
    let mut next_ping = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(next_ping) => {
                let ping = wire::encode_datagram(&Datagram::HostPing { t0: now() });
                if connection.send_datagram(ping.into()).is_err() {
                    return;
                }
                sent += 1;
                next_ping += if sent < PROBE_BURST { PROBE_BURST_EVERY } else { PROBE_EVERY };
            }
            datagram = connection.read_datagram() => {
                let Ok(datagram) = datagram else { return };
                let t = now();
                match wire::decode_datagram(&datagram) {
                    Ok(Datagram::Ping { t0 }) => {
                        let pong = wire::encode_datagram(&Datagram::Pong { t0, t1: t, t2: now() });
                        let _ = connection.send_datagram(pong.into());
                    }
                    Ok(Datagram::ClientPong { t0, t1, t2 }) => {
                        room.send(RoomInput::Probe { conn, sample: Sample::from_probe(t0, t1, t2, t) }).ok();
                    }
                    Ok(Datagram::Beat { now_us, shown_us, acts }) => {
                        room.send(RoomInput::Msg { conn, msg: ClientMsg::Heartbeat { now_us, shown_us, acts } }).ok();
                    }
                    Ok(Datagram::Grab { seq, pawn, shown_us, input_us }) => {
                        room.send(RoomInput::Msg { conn, msg: ClientMsg::Grab { seq, pawn, shown_us, input_us } }).ok();
                    }
                    _ => {}
                }
            }
        }
    }
}

/// A room's task: the room, its clock, its connections' writers and its journal.
struct RoomDriver {
    room: Room,
    rx: mpsc::UnboundedReceiver<RoomInput>,
    conns: HashMap<ConnId, mpsc::UnboundedSender<Outgoing>>,
    journal: Option<std::fs::File>,
    started: Instant,
    stats: Arc<Stats>,
    fair_log: Arc<Mutex<Vec<FairRecord>>>,
    finished_tx: watch::Sender<usize>,
    seats_tx: watch::Sender<(usize, usize)>,
}

impl RoomDriver {
    /// The room's clock: µs since the server started.
    fn now(&self) -> u64 {
        self.started.elapsed().as_micros() as u64
    }

    async fn run(mut self) {
        let mut out = Vec::new();
        let mut reported = false;
        self.seats_tx.send_replace(self.room.seats_taken());
        loop {
            let deadline = self.room.next_deadline().map(|us| self.started + Duration::from_micros(us));
            let mut arrived = None;
            tokio::select! {
                input = self.rx.recv() => {
                    let Some(input) = input else { break };
                    // Probes are not game messages: the latency figures leave them out.
                    if !matches!(input, RoomInput::Probe { .. }) {
                        arrived = Some(Instant::now());
                    }
                    let now = self.now();
                    match input {
                        RoomInput::Hello { conn, hello, tx } => {
                            if hello.seat_token.is_some() {
                                self.stats.comebacks.fetch_add(1, Ordering::Relaxed);
                            }
                            self.conns.insert(conn, tx);
                            self.room.hello(now, conn, hello, &mut out);
                        }
                        RoomInput::Msg { conn, msg } => {
                            if matches!(msg, ClientMsg::Heartbeat { .. }) {
                                self.stats.heartbeats.fetch_add(1, Ordering::Relaxed);
                            }
                            self.room.message(now, conn, msg, &mut out)
                        }
                        RoomInput::Gone { conn } => {
                            self.conns.remove(&conn);
                            self.room.gone(now, conn, &mut out);
                        }
                        RoomInput::Probe { conn, sample } => {
                            self.stats.probes.fetch_add(1, Ordering::Relaxed);
                            self.room.probe(conn, sample)
                        }
                    }
                }
                _ = sleep_until(deadline) => {
                    let now = self.now();
                    self.room.tick(now, &mut out);
                }
            }
            if let Err(e) = self.flush(&mut out) {
                tracing::error!("journal write failed: {e}; stopping this room so nothing unjournaled is played");
                break;
            }
            if let Some(t) = arrived {
                self.stats.record(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
            }
            self.seats_tx.send_if_modified(|s| {
                let now = self.room.seats_taken();
                std::mem::replace(s, now) != now
            });
            if self.room.is_finished() && !reported {
                reported = true;
                self.finished_tx.send_modify(|n| *n += 1);
            }
        }
    }

    /// Hands `items` to `conn`'s writer at host instant `at` (µs), the later ones (copies)
    /// `wire::COPY_GAPS` apart.
    fn send_at(&self, conn: ConnId, at: u64, items: Vec<Outgoing>) {
        let Some(tx) = self.conns.get(&conn).cloned() else { return };
        let when = self.started + Duration::from_micros(at);
        tokio::spawn(async move {
            tokio::time::sleep_until(when.into()).await;
            let mut items = items.into_iter();
            if let Some(first) = items.next() {
                let _ = tx.send(first);
            }
            for (gap, item) in wire::COPY_GAPS.iter().zip(items) {
                tokio::time::sleep(*gap).await;
                let _ = tx.send(item);
            }
        });
    }

    /// Journal entries first (written and fsynced), then the frames that depend on them.
    fn flush(&mut self, out: &mut Vec<Output>) -> std::io::Result<()> {
        for output in out.drain(..) {
            match output {
                Output::Journal(entry) => {
                    if let Some(file) = &mut self.journal {
                        file.write_all(entry.to_line().as_bytes())?;
                        file.sync_data()?;
                    }
                }
                Output::Send { conn, msg } => {
                    if let Some(tx) = self.conns.get(&conn) {
                        let _ = tx.send(Outgoing::Frame(wire::encode(&msg)));
                    }
                }
                Output::SendAt { conn, at, msg } => {
                    self.send_at(conn, at, vec![Outgoing::Frame(wire::encode(&msg))]);
                }
                Output::DatagramAt { conn, at, datagram } => {
                    // The datagram, then its copies (`wire::COPY_GAPS` apart).
                    let bytes = wire::encode_datagram(&datagram);
                    let copies = (0..=wire::COPY_GAPS.len()).map(|_| Outgoing::Datagram(bytes.clone())).collect();
                    self.send_at(conn, at, copies);
                }
                Output::Fair(record) => {
                    if let Ok(mut log) = self.fair_log.lock()
                        && log.len() < 1_000_000
                    {
                        log.push(record);
                    }
                }
                Output::Close { conn, code, reason } => {
                    if let Some(tx) = self.conns.remove(&conn) {
                        let _ = tx.send(Outgoing::Close { code, reason });
                    }
                }
            }
        }
        Ok(())
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
