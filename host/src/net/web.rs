//! The browser door: one TCP port that serves the browser client's page from memory and, on
//! [`web::PATH`], a WebSocket that carries a seat exactly as QUIC carries one — the same
//! door ([`Door::enter`], its locks counted with QUIC's), the same room, the same frames and
//! datagrams (`bolide_link::web`). No request path ever reaches the file system: the page is
//! a [`Bundle`] held in memory since the host started. Every connection is bounded in number
//! (the door's pending places, shared with QUIC), in the size of its request and in time.

use super::door::{Admission, Places};
use super::server::{
    ConnOut, Door, DoorLink, DoorParts, Hangup, KNOWN_RESERVE, Knocked, Landed, OUT_QUEUE, Outgoing, PendingSlot,
    ProbeDesk, RoomInput, Server, TransportRtt, bad_frame_reason, frame_allowance, within_rate,
};
use crate::room::ConnId;
use bolide_link::pake::{self, Side};
use bolide_link::sealed::{Channel, Opener, Sealer};
use bolide_link::web::{self, Kind, Unread};
use bolide_table::wire::{self, FrameDecoder, FrameError, close};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

/// The largest request head the door reads (a browser's is well under 2 KB).
pub const HEAD_LIMIT: usize = 8 * 1024;
/// The time a connection has to send its request head.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(5);
/// The time a file may take to leave (a slow reader holds a place no longer).
pub const SEND_DEADLINE: Duration = Duration::from_secs(30);
/// Headers a request may have.
const HEADERS: usize = 32;

/// The browser client's page: its files by path, in memory.
#[derive(Debug, Default, Clone)]
pub struct Bundle {
    files: HashMap<String, File>,
}

#[derive(Debug, Clone)]
struct File {
    /// Its bytes; the page built into the host keeps only its gzipped bytes and unpacks them
    /// the first time a browser that takes no gzip asks (`None`: they would not unpack).
    bytes: Arc<OnceLock<Option<Arc<[u8]>>>>,
    kind: &'static str,
    /// The same bytes gzipped, when the bundle has them (`NAME.gz` beside `NAME`).
    gzip: Option<Arc<[u8]>>,
    /// Its entity tag (quoted), from the bytes it was given: a browser that kept the file asks
    /// with it and is told it has it (sent weak, `W/`: the same for the gzipped and the plain
    /// bytes).
    tag: String,
}

/// What a browser's request for a file is answered.
#[derive(Debug, PartialEq)]
enum Reply<'a> {
    /// The browser kept this very file: 304, no body.
    Kept,
    /// The body, and whether it is gzipped.
    Body(&'a [u8], bool),
    /// The bytes built into the host do not unpack.
    Damaged,
}

impl File {
    fn plain(&self) -> Option<&Arc<[u8]>> {
        self.bytes.get_or_init(|| self.gzip.as_deref().and_then(gunzip)).as_ref()
    }

    /// What a browser is sent: nothing when it kept this very file (a guest who reloads the
    /// page, or comes back the next night to the same host, is not sent 2 MB again); else the
    /// gzipped bytes to one that takes them, without unpacking them (the module takes tens of
    /// milliseconds, on the thread that also runs rooms), or the plain bytes.
    fn reply(&self, request: &Request) -> Reply<'_> {
        let kept = request.if_none_match.as_deref().is_some_and(|tags| {
            tags.split(',').map(str::trim).any(|t| t == "*" || t.trim_start_matches("W/") == self.tag)
        });
        if kept {
            return Reply::Kept;
        }
        match &self.gzip {
            Some(gzip) if request.gzip => Reply::Body(gzip, true),
            _ => self.plain().map_or(Reply::Damaged, |plain| Reply::Body(plain, false)),
        }
    }
}

/// The largest file the page unpacks (its wasm is about 5.4 MB).
const UNPACKED_LIMIT: u64 = 64 << 20;

/// A weak entity tag for `bytes`: the same bytes, the same tag, in every run of this host.
fn tag(bytes: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    // SipHash with its fixed keys: not a secret, only a name for these bytes.
    let mut hasher = std::hash::DefaultHasher::new();
    bytes.hash(&mut hasher);
    format!("\"{:016x}-{:x}\"", hasher.finish(), bytes.len())
}

fn gunzip(gzip: &[u8]) -> Option<Arc<[u8]>> {
    use std::io::Read;
    let mut plain = Vec::new();
    let mut decoder = flate2::read::GzDecoder::new(gzip).take(UNPACKED_LIMIT + 1);
    match decoder.read_to_end(&mut plain) {
        Ok(n) if (n as u64) <= UNPACKED_LIMIT => Some(plain.into()),
        Ok(_) => None,
        Err(e) => {
            tracing::error!("the browser page built into this host does not unpack: {e}");
            None
        }
    }
}

/// The page built into the host: its HTML as written, its glue and module as
/// `scripts/build-web.sh --dist` leaves them in `web/dist/` (CI checks they were built from the
/// sources beside them, `web/dist/SOURCE`, and rebuilds them to compare).
const BUILT_IN: [(&str, &[u8]); 3] = [
    ("/index.html", include_bytes!("../../../web/index.html")),
    ("/bolide_web.js.gz", include_bytes!("../../../web/dist/bolide_web.js.gz")),
    ("/bolide_web_bg.wasm.gz", include_bytes!("../../../web/dist/bolide_web_bg.wasm.gz")),
];

impl Bundle {
    /// A bundle with no page: the door still seats browsers' links (a native client over
    /// WebSocket), and a request for a page is told there is none.
    pub fn empty() -> Bundle {
        Bundle::default()
    }

    /// The page built into this host (`web/dist/`): what it serves unless told otherwise.
    pub fn built_in() -> Bundle {
        let mut bundle = Bundle::empty();
        for (path, bytes) in BUILT_IN {
            match path.strip_suffix(".gz") {
                Some(plain) => bundle.insert_packed(plain, bytes.to_vec()),
                None => bundle.insert(path, bytes.to_vec()),
            }
        }
        bundle
    }

    /// Adds a file at `path` (`/index.html`, `/bolide_web_bg.wasm`).
    pub fn insert(&mut self, path: &str, bytes: Vec<u8>) {
        let kind = content_type(path);
        let tag = tag(&bytes);
        let plain = Arc::new(OnceLock::from(Some(Arc::from(bytes))));
        self.files.insert(path.to_string(), File { bytes: plain, kind, gzip: None, tag });
    }

    /// Adds a file at `path` by its gzipped bytes alone, unpacked if a browser takes no gzip.
    fn insert_packed(&mut self, path: &str, gzip: Vec<u8>) {
        let kind = content_type(path);
        let tag = tag(&gzip);
        self.files.insert(path.to_string(), File { bytes: Arc::default(), kind, gzip: Some(gzip.into()), tag });
    }

    /// Gives the file at `path` its gzipped bytes (sent to a browser that takes gzip).
    pub fn insert_gzip(&mut self, path: &str, gzip: Vec<u8>) {
        if let Some(file) = self.files.get_mut(path) {
            file.gzip = Some(gzip.into());
        }
    }

    /// Every file at the top of `dir`, read now, once: what the host serves all night.
    pub fn from_dir(dir: &std::path::Path) -> anyhow::Result<Bundle> {
        let mut bundle = Bundle::empty();
        let entries =
            std::fs::read_dir(dir).map_err(|e| anyhow::anyhow!("cannot read the page in {}: {e}", dir.display()))?;
        let mut gzipped = Vec::new();
        for entry in entries {
            let entry = entry?;
            if !entry.file_type()?.is_file() {
                continue;
            }
            let Some(name) = entry.file_name().to_str().map(str::to_string) else { continue };
            match name.strip_suffix(".gz") {
                Some(plain) => gzipped.push((format!("/{plain}"), std::fs::read(entry.path())?)),
                None => bundle.insert(&format!("/{name}"), std::fs::read(entry.path())?),
            }
        }
        for (path, gzip) in gzipped {
            bundle.insert_gzip(&path, gzip);
        }
        anyhow::ensure!(bundle.files.contains_key("/index.html"), "{} has no index.html", dir.display());
        Ok(bundle)
    }

    /// Whether there is a page to serve.
    pub fn has_page(&self) -> bool {
        self.files.contains_key("/index.html")
    }

    fn get(&self, path: &str) -> Option<&File> {
        let path = if path == "/" { "/index.html" } else { path };
        self.files.get(path)
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

impl Server {
    /// Opens the browser door on `addr` (TCP): the page in `bundle`, and seats over a WebSocket
    /// through the same door and rooms as QUIC's, its places and locks counted with QUIC's.
    /// Returns the address it listens on.
    pub async fn serve_web(&self, addr: SocketAddr, bundle: Bundle) -> anyhow::Result<SocketAddr> {
        let listener = TcpListener::bind(addr).await.map_err(|e| {
            anyhow::anyhow!(
                "cannot serve browsers on {addr}: {e} (is another host running? try --web-bind with another port)"
            )
        })?;
        let local = listener.local_addr()?;
        spawn(listener, self.door_parts(), bundle);
        Ok(local)
    }
}

/// The door's places for a TCP connection: as QUIC's, with nothing to retry (TCP's handshake
/// has proved the address).
fn places(limits: &super::server::Limits) -> Places {
    Places {
        pending: limits.pending,
        per_address: limits.pending_per_address,
        retry_past: limits.pending,
        known_reserve: KNOWN_RESERVE,
    }
}

/// Accepts on `listener` until the host stops.
fn spawn(listener: TcpListener, shared: DoorParts, bundle: Bundle) {
    let (shared, bundle) = (Arc::new(shared), Arc::new(bundle));
    tokio::spawn(async move {
        loop {
            let Ok((stream, peer)) = listener.accept().await else {
                // Out of descriptors, say: wait rather than spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            let ip = peer.ip();
            // TCP's handshake has proved the address: it takes a place at the door, as a
            // validated QUIC handshake does, or is refused at once.
            let admitted = (shared.open.load(Ordering::Relaxed) as usize) < shared.limits.connections
                && shared.doors.lock().is_ok_and(|mut d| d.admit(ip, true, places(&shared.limits)) == Admission::Slot);
            if !admitted {
                drop(stream);
                continue;
            }
            let slot = PendingSlot { doors: shared.doors.clone(), ip };
            let (shared, bundle) = (shared.clone(), bundle.clone());
            tokio::spawn(async move {
                let id = shared.next_conn.fetch_add(1, Ordering::Relaxed);
                if let Err(e) = serve(stream, peer, slot, &shared, &bundle, id).await {
                    tracing::debug!(conn = id, %peer, "browser connection ended: {e}");
                }
            });
        }
    });
}

/// A request head, as far as the door reads it.
#[derive(Debug)]
struct Request {
    method: String,
    path: String,
    /// `Sec-WebSocket-Key`, when this asks to become a WebSocket.
    upgrade: Option<String>,
    host: Option<String>,
    origin: Option<String>,
    /// The browser takes a gzipped body.
    gzip: bool,
    /// The tags of the copies the browser kept (`If-None-Match`).
    if_none_match: Option<String>,
    /// Bytes read past the head.
    extra: usize,
}

#[derive(Debug, thiserror::Error)]
enum HeadError {
    #[error("the request head is over {HEAD_LIMIT} bytes")]
    TooLarge,
    #[error("not an HTTP request: {0}")]
    Malformed(String),
    #[error("the connection ended before its request")]
    Ended,
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The fuzzers' way in (`fuzzing::head`): `data` read as [`read_head`] reads a socket — its
/// first byte says how many bytes each read brings, the rest is what the peer sent — until a
/// head parses, fails, or passes [`HEAD_LIMIT`]. Whatever the bytes: no panic, and a parsed
/// head accounts for no byte it was not given and keeps no query or fragment in its path.
#[doc(hidden)]
pub fn fuzz_head(data: &[u8]) {
    let (step, sent) = data.split_first().map_or((1, data), |(&step, sent)| (usize::from(step).max(1), sent));
    let mut read = 0;
    while read < sent.len() && read < HEAD_LIMIT {
        read = (read + step).min(sent.len());
        match parse_head(&sent[..read]) {
            Ok(None) => continue,
            Ok(Some(request)) => {
                assert!(request.extra <= read, "{} bytes past a head of {read}", request.extra);
                assert!(!request.path.contains(['?', '#']), "{}", request.path);
                return;
            }
            Err(_) => return,
        }
    }
}

/// Reads and parses one request head, at most [`HEAD_LIMIT`] bytes.
async fn read_head(stream: &mut TcpStream) -> Result<Request, HeadError> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(HeadError::Ended);
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(request) = parse_head(&buf)? {
            return Ok(request);
        }
        if buf.len() >= HEAD_LIMIT {
            return Err(HeadError::TooLarge);
        }
    }
}

/// A whole head parsed (`None`: not all of it yet), by httparse — hyper's parser, fuzzed
/// upstream, which never reads past the buffer it is given.
fn parse_head(buf: &[u8]) -> Result<Option<Request>, HeadError> {
    let mut headers = [httparse::EMPTY_HEADER; HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let len = match req.parse(buf) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(HeadError::Malformed(e.to_string())),
    };
    let header = |name: &str| {
        req.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .and_then(|h| std::str::from_utf8(h.value).ok())
            .map(|v| v.trim().to_string())
    };
    let upgrades = header("upgrade").is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
        && header("connection").is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case("upgrade")))
        && header("sec-websocket-version").as_deref() == Some("13");
    let path = req.path.unwrap_or("/");
    // The query and fragment name nothing here (the word travels in a fragment, which no
    // browser sends).
    let path = path.split(['?', '#']).next().unwrap_or("/").to_string();
    Ok(Some(Request {
        method: req.method.unwrap_or("").to_string(),
        path,
        upgrade: if upgrades { header("sec-websocket-key") } else { None },
        host: header("host"),
        origin: header("origin"),
        gzip: header("accept-encoding").is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip"))),
        if_none_match: header("if-none-match"),
        extra: buf.len() - len,
    }))
}

/// Whether a browser's `Origin` is this very host: a page from elsewhere may not open links
/// to the table from a guest's browser (each would be a guess at the word from the guest's
/// address). A client that sends no Origin (not a browser) is let through.
fn same_origin(request: &Request) -> bool {
    match (&request.origin, &request.host) {
        (None, _) => true,
        (Some(origin), Some(host)) => origin.strip_prefix("http://").is_some_and(|o| o.eq_ignore_ascii_case(host)),
        (Some(_), None) => false,
    }
}

/// Headers every answer carries: the page is cross-origin isolated where the browser allows it
/// (its clock then runs at its finest: 5 µs) — only in a secure context, a page opened on the
/// host's own laptop by 127.0.0.1; a guest's, at a LAN's address over plain HTTP, is not, and
/// its clock is coarsened (Chromium's 100 µs, measured by `scripts/browser-timing.sh`) —, is
/// never sniffed as another type, and is asked for again at every load (a browser that kept a
/// file is told so by its tag; a new release's page has new tags).
const COMMON: &str = "Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n\
     Cross-Origin-Resource-Policy: same-origin\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n\
     Connection: close\r\n";

/// Sends `status`, the `headers` lines given, the common ones and `body` (none after a 304).
async fn answer(stream: &mut TcpStream, status: &str, headers: &str, body: Option<&[u8]>) -> std::io::Result<()> {
    let length = body.map(|b| format!("Content-Length: {}\r\n", b.len())).unwrap_or_default();
    let head = format!("HTTP/1.1 {status}\r\n{headers}{length}{COMMON}\r\n");
    let send = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.unwrap_or_default()).await?;
        stream.shutdown().await
    };
    tokio::time::timeout(SEND_DEADLINE, send).await.unwrap_or_else(|_| Err(std::io::ErrorKind::TimedOut.into()))
}

async fn plain(stream: &mut TcpStream, status: &str, text: &str) -> anyhow::Result<()> {
    answer(stream, status, "Content-Type: text/plain; charset=utf-8\r\n", Some(text.as_bytes())).await?;
    Ok(())
}

/// One TCP connection: a request for a file of the page, or the link of a seat.
async fn serve(
    mut stream: TcpStream,
    peer: SocketAddr,
    slot: PendingSlot,
    shared: &DoorParts,
    bundle: &Bundle,
    id: ConnId,
) -> anyhow::Result<()> {
    let request = match tokio::time::timeout(HEAD_DEADLINE, read_head(&mut stream)).await {
        Err(_) => return plain(&mut stream, "408 Request Timeout", "no request within 5 s\n").await,
        Ok(Err(HeadError::TooLarge)) => return plain(&mut stream, "431 Request Header Fields Too Large", "").await,
        Ok(Err(HeadError::Malformed(e))) => return plain(&mut stream, "400 Bad Request", &format!("{e}\n")).await,
        Ok(Err(e)) => anyhow::bail!(e),
        Ok(Ok(request)) => request,
    };
    if request.method != "GET" {
        return plain(&mut stream, "405 Method Not Allowed", "only GET\n").await;
    }
    if request.path == web::PATH {
        let Some(key) = request.upgrade.as_deref().filter(|_| request.extra == 0) else {
            return plain(&mut stream, "400 Bad Request", "this path is the table's WebSocket\n").await;
        };
        if !same_origin(&request) {
            return plain(&mut stream, "403 Forbidden", "a page from another origin may not join this table\n").await;
        }
        let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes());
        let head = format!(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await?;
        return seat(stream, peer, slot, shared, id).await;
    }
    // A file holds its place at the door until it has left (at most SEND_DEADLINE): slow
    // readers are bounded as handshakes are, per address and in all.
    let _slot = slot;
    match bundle.get(&request.path) {
        Some(file) => match file.reply(&request) {
            Reply::Kept => answer(&mut stream, "304 Not Modified", &format!("ETag: W/{}\r\n", file.tag), None).await?,
            Reply::Body(body, gzipped) => {
                let encoding = if gzipped { "Content-Encoding: gzip\r\n" } else { "" };
                let vary = if file.gzip.is_some() { "Vary: Accept-Encoding\r\n" } else { "" };
                let headers = format!("Content-Type: {}\r\nETag: W/{}\r\n{encoding}{vary}", file.kind, file.tag);
                answer(&mut stream, "200 OK", &headers, Some(body)).await?
            }
            Reply::Damaged => {
                let text =
                    "this host's page is damaged: ask a browser that takes gzip, or start the host with --web-page\n";
                plain(&mut stream, "500 Internal Server Error", text).await?
            }
        },
        None if !bundle.has_page() => {
            let text = "this host serves no browser page (it was started with --no-web-page): join from the Bolide LAN window\n";
            plain(&mut stream, "404 Not Found", text).await?
        }
        None => plain(&mut stream, "404 Not Found", "no such file\n").await?,
    }
    Ok(())
}

/// The kernel's own measure of a TCP connection's round trips (Linux's `TCP_INFO`): timed on
/// the packets and their acknowledgements, which the browser's page cannot stamp — what QUIC's
/// RTT is to a probe over QUIC.
#[cfg(target_os = "linux")]
fn tcp_rtt(socket: &std::net::TcpStream) -> Option<TransportRtt> {
    use std::os::fd::AsRawFd;
    // SAFETY: tcp_info is plain data; all zeroes is a valid value of it.
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    // SAFETY: `info` is writable for `len` bytes, and the descriptor stays open while
    // `socket` is borrowed.
    let rc = unsafe {
        libc::getsockopt(
            socket.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut info as *mut libc::tcp_info).cast(),
            &mut len,
        )
    };
    (rc == 0 && info.tcpi_rtt > 0 && info.tcpi_min_rtt > 0)
        .then(|| TransportRtt { min_us: info.tcpi_min_rtt.into(), smoothed_us: info.tcpi_rtt.into() })
}

#[cfg(not(target_os = "linux"))]
fn tcp_rtt(_socket: &std::net::TcpStream) -> Option<TransportRtt> {
    None
}

fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(web::MAX_MESSAGE))
        .max_frame_size(Some(web::MAX_MESSAGE))
        // A seat's messages are small: 8 KiB read at a time (tungstenite's default, 128 KiB a
        // connection, was most of a browser seat's memory under the load benchmark).
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        // What QUIC's writer holds for a laptop that stops reading, roughly: past it a send
        // fails, and the room's own bounded queue fills and drops the laptop.
        .max_write_buffer_size(4 * web::MAX_MESSAGE)
}

/// The door's side of a browser's link: clear until the host has answered the exchange,
/// sealed after.
struct WebDoor {
    ws: WebSocketStream<TcpStream>,
    binding: [u8; web::CHALLENGE_LEN],
    channel: Option<Channel>,
}

impl WebDoor {
    async fn message(&mut self, kind: Kind, body: &[u8]) -> Result<(), ()> {
        let bytes = web::outgoing(self.channel.as_mut().map(|c| &mut c.seal), kind, body).map_err(|_| ())?;
        self.ws.send(Message::Binary(bytes.into())).await.map_err(|_| ())
    }
}

impl DoorLink for WebDoor {
    async fn send(&mut self, frame: &[u8]) -> Result<(), ()> {
        self.message(Kind::Frame, frame).await
    }

    async fn recv(&mut self, decoder: &mut FrameDecoder) -> Result<Option<Vec<u8>>, FrameError> {
        loop {
            if let Some(body) = decoder.next_frame()? {
                return Ok(Some(body));
            }
            let bytes = match self.ws.next().await {
                Some(Ok(Message::Binary(bytes))) => bytes,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                // Text, a close, an error, the end: the link is over.
                _ => return Ok(None),
            };
            match web::incoming(self.channel.as_mut().map(|c| &mut c.open), &bytes) {
                Ok((Kind::Frame, body)) => decoder.push(&body),
                // Datagrams before the proof are never read, as QUIC drains them.
                Ok((Kind::Datagram, _)) => {}
                // Not sealed with this exchange's key (the laptop does not know the word),
                // nonsense, or the laptop leaving.
                Ok((Kind::Close, _)) | Err(_) => return Ok(None),
            }
        }
    }

    fn keyed(&mut self, confirmed: &pake::Confirmed) {
        self.channel = Some(Channel::new(confirmed, Side::Host, &self.binding));
    }
}

/// A browser's seat: the challenge, the Knock, the door, then the game both ways until the
/// link ends.
async fn seat(
    stream: TcpStream,
    peer: SocketAddr,
    slot: PendingSlot,
    shared: &DoorParts,
    id: ConnId,
) -> anyhow::Result<()> {
    // A second handle on the socket, only to read the kernel's round trips from.
    let std_stream = stream.into_std()?;
    let measured = std_stream.try_clone()?;
    let stream = TcpStream::from_std(std_stream)?;
    let ws = WebSocketStream::from_raw_socket(stream, Role::Server, Some(ws_config())).await;
    let binding: [u8; web::CHALLENGE_LEN] = crate::secret::nonce()?;
    let mut link = WebDoor { ws, binding, channel: None };
    let mut decoder = FrameDecoder::with_limit(wire::DOOR_FRAME);
    let mut door = Door {
        rooms: shared.rooms.clone(),
        steady_beats: shared.limits.steady_beats,
        doors: shared.doors.clone(),
        open: shared.open.clone(),
        slot: Some(slot),
    };
    let knock = async {
        link.ws.send(Message::Binary(binding.to_vec().into())).await.ok()?;
        link.recv(&mut decoder).await.ok().flatten()
    };
    let Ok(Some(body)) = tokio::time::timeout(super::server::HELLO_DEADLINE, knock).await else {
        anyhow::bail!("no hello within {:?}", super::server::HELLO_DEADLINE);
    };
    let (tx, rx) = mpsc::channel(OUT_QUEUE);
    let (hang_tx, hang) = watch::channel(None);
    let hangup = Hangup::new(move |code, reason| {
        hang_tx.send_replace(Some((code, reason.to_string())));
    });
    let out = ConnOut { tx: tx.clone(), hangup: hangup.clone() };
    let knocked = Knocked { body: &body, binding: &binding, peer };
    let (_open, room) = match door.pass(&mut link, &mut decoder, &knocked, id, out).await {
        Ok(seated) => seated,
        Err(turned) => {
            let (code, reason) = turned.code_and_reason();
            let _ = link.message(Kind::Close, &web::close_body(code, reason)).await;
            let _ = tokio::time::timeout(Duration::from_millis(300), link.ws.close(None)).await;
            return Ok(());
        }
    };
    let Some(Channel { seal, open }) = link.channel.take() else {
        anyhow::bail!("seated without a sealed channel");
    };
    // The host shutting down hangs this seat up as QUIC's endpoint closes a laptop's.
    let mut closing = shared.closing.clone();
    let shutdown = {
        let hangup = hangup.clone();
        tokio::spawn(async move {
            if closing.wait_for(|closing| *closing).await.is_ok() {
                hangup.close(close::SHUTDOWN, super::server::SHUTTING_DOWN);
            }
        })
    };
    decoder.set_limit(wire::MAX_FRAME);
    let (sink, stream) = link.ws.split();
    let writer = tokio::spawn(write(sink, seal, rx, hang.clone()));
    let started = shared.started;
    let result = read(stream, open, decoder, Reading { room: &room, tx, hangup, hang, id, started, measured }).await;
    let _ = room.send(RoomInput::Gone { conn: id }).await;
    // The writer ends on its own once the room has dropped this connection's queue; a close
    // already asked for has its moment to leave.
    let _ = tokio::time::timeout(Duration::from_millis(500), writer).await;
    shutdown.abort();
    result
}

type Sink = futures_util::stream::SplitSink<WebSocketStream<TcpStream>, Message>;
type Source = futures_util::stream::SplitStream<WebSocketStream<TcpStream>>;

/// The writer: frames and datagrams out, sealed, in order; a hangup sends its reason and ends.
async fn write(
    mut sink: Sink,
    mut seal: Sealer,
    mut rx: mpsc::Receiver<Outgoing>,
    mut hang: watch::Receiver<Option<(u32, String)>>,
) {
    let mut send = async |sink: &mut Sink, kind: Kind, body: &[u8]| -> bool {
        match web::outgoing(Some(&mut seal), kind, body) {
            Ok(bytes) => sink.send(Message::Binary(bytes.into())).await.is_ok(),
            Err(_) => false,
        }
    };
    let (code, reason) = loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(Outgoing::Frame(frame)) => if !send(&mut sink, Kind::Frame, &frame).await { return },
                Some(Outgoing::Datagram(bytes)) => if !send(&mut sink, Kind::Datagram, &bytes).await { return },
                Some(Outgoing::Close { code, reason }) => break (code, reason),
                None => return,
            },
            changed = hang.changed() => {
                let hung = if changed.is_ok() { hang.borrow().clone() } else { None };
                match hung {
                    Some(close) => break close,
                    None => return,
                }
            }
        }
    };
    let goodbye = async {
        send(&mut sink, Kind::Close, &web::close_body(code, &reason)).await;
        let _ = sink.close().await;
    };
    let _ = tokio::time::timeout(Duration::from_millis(300), goodbye).await;
}

/// What the reader needs besides the link's incoming half.
struct Reading<'a> {
    room: &'a mpsc::Sender<RoomInput>,
    tx: mpsc::Sender<Outgoing>,
    hangup: Hangup,
    hang: watch::Receiver<Option<(u32, String)>>,
    id: ConnId,
    started: Instant,
    measured: std::net::TcpStream,
}

/// Reads, and drops, what the laptop still sends until it answers a close (or its link ends).
async fn close_answered(stream: &mut Source) {
    while let Some(Ok(message)) = stream.next().await {
        if message.is_close() {
            return;
        }
    }
}

/// The reader: frames to the room within their rate, datagrams through the [`ProbeDesk`]
/// (whose probes leave by the writer), until the link ends or is hung up.
async fn read(mut stream: Source, mut open: Opener, mut decoder: FrameDecoder, r: Reading<'_>) -> anyhow::Result<()> {
    let Reading { room, tx, hangup, mut hang, id, started, measured } = r;
    let now = || started.elapsed().as_micros() as u64;
    let mut desk = ProbeDesk::new(id);
    let mut allowance = frame_allowance();
    loop {
        let bytes = tokio::select! {
            _ = tokio::time::sleep_until(desk.next_ping().into()) => {
                // A full queue: the laptop is not reading, and the room drops it.
                let _ = tx.try_send(Outgoing::Datagram(desk.ping(now())));
                continue;
            }
            _ = hang.changed() => {
                // The writer says why and closes; this side reads on until the laptop answers
                // the close (bounded): a socket dropped with bytes unread is reset, and a reset
                // can take the goodbye with it.
                let _ = tokio::time::timeout(Duration::from_millis(500), close_answered(&mut stream)).await;
                return Ok(());
            }
            message = stream.next() => match message {
                Some(Ok(Message::Binary(bytes))) => bytes,
                Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                Some(Ok(Message::Text(_))) => {
                    hangup.close(close::BAD_FRAME, "closed: text on the table's link; the game goes on without this connection");
                    anyhow::bail!("text on the link");
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return Ok(()),
            },
        };
        let t = now();
        match web::incoming(Some(&mut open), &bytes) {
            Ok((Kind::Frame, body)) => {
                decoder.push(&body);
                loop {
                    match decoder.next_frame() {
                        Ok(Some(body)) => {
                            if let Err(reason) = within_rate(&mut allowance) {
                                hangup.close(close::FLOOD, &reason);
                                anyhow::bail!(reason);
                            }
                            if room.send(RoomInput::Msg { conn: id, body }).await.is_err() {
                                return Ok(());
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            let reason = bad_frame_reason(&e);
                            hangup.close(close::BAD_FRAME, &reason);
                            anyhow::bail!(reason);
                        }
                    }
                }
            }
            Ok((Kind::Datagram, datagram)) => match desk.landed(&datagram, t, now, || tcp_rtt(&measured)) {
                Landed::Answer(bytes) => {
                    let _ = tx.try_send(Outgoing::Datagram(bytes));
                }
                Landed::Room(input) => {
                    if let Err(mpsc::error::TrySendError::Closed(_)) = room.try_send(input) {
                        return Ok(());
                    }
                }
                Landed::Nothing => {}
                Landed::Flood(reason) => {
                    hangup.close(close::FLOOD, &reason);
                    anyhow::bail!(reason);
                }
            },
            Ok((Kind::Close, _)) => return Ok(()),
            Err(unread) => {
                let reason = match unread {
                    Unread::Sealed(_) => {
                        "closed: a message on the link did not open; the game goes on without this connection"
                    }
                    Unread::Unknown => "closed: a message of no known kind; the game goes on without this connection",
                };
                hangup.close(close::BAD_FRAME, reason);
                anyhow::bail!("{unread}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_parses_in_pieces_and_names_its_websocket_key() {
        let head = b"GET /link?x=1 HTTP/1.1\r\nHost: 10.0.0.2:47118\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n\
Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://10.0.0.2:47118\r\n\r\n";
        assert!(parse_head(&head[..40]).unwrap().is_none());
        let r = parse_head(head).unwrap().unwrap();
        assert_eq!((r.method.as_str(), r.path.as_str(), r.extra), ("GET", "/link", 0));
        assert_eq!(r.upgrade.as_deref(), Some("dGhlIHNhbXBsZSBub25jZQ=="));
        assert!(same_origin(&r));
    }

    #[test]
    fn a_page_from_another_origin_may_not_open_the_link() {
        let head = b"GET /link HTTP/1.1\r\nHost: 10.0.0.2:47118\r\nOrigin: http://evil.example\r\n\r\n";
        let r = parse_head(head).unwrap().unwrap();
        assert!(r.upgrade.is_none(), "no upgrade headers");
        assert!(!same_origin(&r));
    }

    #[test]
    fn garbage_is_a_malformed_head_not_a_panic() {
        assert!(matches!(parse_head(b"\x00\x01\x02 nonsense\r\n\r\n"), Err(HeadError::Malformed(_))));
        assert!(parse_head(b"").unwrap().is_none());
    }

    #[test]
    fn the_page_is_served_from_memory_by_exact_path() {
        let mut bundle = Bundle::empty();
        assert!(!bundle.has_page());
        bundle.insert("/index.html", b"<html>".to_vec());
        bundle.insert("/bolide_web_bg.wasm", vec![0, 97, 115, 109]);
        assert_eq!(bundle.get("/").unwrap().plain().map(|b| &b[..]), Some(&b"<html>"[..]));
        assert_eq!(bundle.get("/bolide_web_bg.wasm").unwrap().kind, "application/wasm");
        assert!(bundle.get("/../Cargo.toml").is_none());
        assert!(bundle.get("/etc/passwd").is_none());
    }

    /// A browser's request for `path`, with the head lines given, as the door parses it.
    fn request(path: &str, lines: &str) -> Request {
        parse_head(format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:47118\r\n{lines}\r\n").as_bytes()).unwrap().unwrap()
    }

    #[test]
    fn the_page_built_in_unpacks_its_module_for_a_browser_without_gzip() {
        let bundle = Bundle::built_in();
        assert!(bundle.has_page());
        let wasm = bundle.get("/bolide_web_bg.wasm").unwrap();
        assert_eq!(wasm.kind, "application/wasm");
        // A browser that takes gzip is sent the bytes as built, and nothing is unpacked for it.
        let Reply::Body(sent, true) = wasm.reply(&request("/bolide_web_bg.wasm", "Accept-Encoding: gzip, br\r\n"))
        else {
            panic!("no gzipped module")
        };
        assert!(sent.starts_with(&[0x1f, 0x8b]));
        assert!(wasm.bytes.get().is_none(), "unpacked for a browser that takes gzip");
        let Reply::Body(sent, false) = wasm.reply(&request("/bolide_web_bg.wasm", "")) else { panic!("no module") };
        assert!(sent.starts_with(b"\0asm"));
        // Damaged bytes answer nothing rather than a panic.
        let mut damaged = Bundle::empty();
        damaged.insert_packed("/x.js", b"not gzip".to_vec());
        let x = damaged.get("/x.js").unwrap();
        assert_eq!(x.reply(&request("/x.js", "")), Reply::Damaged);
        assert_eq!(x.reply(&request("/x.js", "Accept-Encoding: gzip\r\n")), Reply::Body(b"not gzip", true));
    }

    #[test]
    fn a_browser_that_kept_a_file_is_told_so_by_its_tag_and_sent_it_when_it_changed() {
        let mut bundle = Bundle::empty();
        bundle.insert("/index.html", b"<html>".to_vec());
        let page = bundle.get("/").unwrap();
        let tag = page.tag.clone();
        let gzip = "Accept-Encoding: gzip\r\n";
        for kept in [format!("W/{tag}"), tag.clone(), format!("\"other\", W/{tag}"), "*".to_string()] {
            assert_eq!(page.reply(&request("/", &format!("{gzip}If-None-Match: {kept}\r\n"))), Reply::Kept, "{kept}");
        }
        // Another release's page (or a tag made up) is sent whole.
        assert_eq!(page.reply(&request("/", "If-None-Match: W/\"0-6\"\r\n")), Reply::Body(b"<html>", false));
        let mut next = Bundle::empty();
        next.insert("/index.html", b"<html lang=fr>".to_vec());
        assert_ne!(next.get("/").unwrap().tag, tag);
        assert_eq!(
            Bundle::built_in().get("/bolide_web_bg.wasm").unwrap().tag,
            Bundle::built_in().get("/bolide_web_bg.wasm").unwrap().tag
        );
    }
}
