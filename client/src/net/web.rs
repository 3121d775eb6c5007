//! A laptop's link to a host's browser door (`bolide_link::web`): one WebSocket that carries
//! the game stream and the datagrams, sealed after the exchange over the code word. A native
//! client speaks it too (tests, the load benchmark's browser seats, `bolide-bot --web`): the
//! browser's page does the same over the DOM's WebSocket.

use super::{ClientError, LaptopDoor};
use bolide_link::pake::{self, Side};
use bolide_link::sealed::{Channel, Opener, Sealer};
use bolide_link::web::{self, Kind};
use bolide_table::wire::{FrameDecoder, close};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Messages from the link waiting for the session: a second of a busy table's frames.
const INCOMING: usize = 256;
/// Datagrams waiting (probes, echoes, twins): past these they are dropped, as QUIC drops them.
const DATAGRAMS: usize = 32;
/// What the session hands the writer, waiting.
const OUTGOING: usize = 256;

/// What the link's reader hands the session.
pub(super) enum Incoming {
    /// Bytes of the game stream.
    Bytes(Vec<u8>),
    /// The host closed the link with a code and a reason.
    Closed(u32, String),
    /// The link ended otherwise.
    Lost(String),
}

/// What the session hands the link's writer.
pub(super) enum Out {
    Frame(Vec<u8>),
    Datagram(Vec<u8>),
    Close(u32, String),
}

/// A link past the door: a reader and a writer task, and the session's ends of their queues.
pub(super) struct Link {
    pub(super) out: mpsc::Sender<Out>,
    pub(super) incoming: mpsc::Receiver<Incoming>,
    pub(super) datagrams: Option<mpsc::Receiver<Vec<u8>>>,
    reader: tokio::task::JoinHandle<()>,
    writer: tokio::task::JoinHandle<()>,
}

impl Drop for Link {
    fn drop(&mut self) {
        self.reader.abort();
        // The writer ends once its queue is dropped, after what was queued (a close) left.
    }
}

impl Link {
    /// Drops the link without a word.
    pub(super) fn abort(&self) {
        self.reader.abort();
        self.writer.abort();
    }

    /// Waits a moment for the writer to finish (a close to leave).
    pub(super) async fn idle(&mut self) {
        let _ = tokio::time::timeout(Duration::from_millis(500), &mut self.writer).await;
    }
}

type Ws = WebSocketStream<TcpStream>;

fn config() -> WebSocketConfig {
    WebSocketConfig::default().max_message_size(Some(web::MAX_MESSAGE)).max_frame_size(Some(web::MAX_MESSAGE))
}

/// The laptop's side of the browser door before the link is split: clear until the host has
/// answered the exchange, sealed after.
pub(super) struct WebDoor {
    ws: Ws,
    channel: Option<Channel>,
    pub(super) binding: [u8; web::CHALLENGE_LEN],
}

/// Opens the WebSocket to the host's browser door at `addr` and reads its challenge.
pub(super) async fn open(addr: SocketAddr) -> Result<WebDoor, ClientError> {
    let connect_err = |reason: String| ClientError::Connect { addr, reason };
    let opening = async {
        let tcp = TcpStream::connect(addr).await.map_err(|e| connect_err(e.to_string()))?;
        let _ = tcp.set_nodelay(true);
        let url = format!("ws://{addr}{}", web::PATH);
        let (mut ws, _) = tokio_tungstenite::client_async_with_config(url, tcp, Some(config()))
            .await
            .map_err(|e| connect_err(e.to_string()))?;
        let binding = loop {
            match ws.next().await {
                Some(Ok(Message::Binary(b))) => break b,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                _ => return Err(ClientError::Lost("the host's browser door said nothing".into())),
            }
        };
        let binding: [u8; web::CHALLENGE_LEN] = binding
            .as_ref()
            .try_into()
            .map_err(|_| ClientError::Lost("the host's challenge is not 32 bytes".into()))?;
        Ok(WebDoor { ws, channel: None, binding })
    };
    tokio::time::timeout(Duration::from_secs(10), opening)
        .await
        .map_err(|_| connect_err("no answer within 10 s (wrong address, or a firewall?)".into()))?
}

impl WebDoor {
    async fn message(&mut self, kind: Kind, body: &[u8]) -> Result<(), ClientError> {
        let packed = web::pack(kind, body);
        let bytes = match &mut self.channel {
            Some(channel) => channel.seal.seal(&packed).map_err(|e| ClientError::Lost(e.to_string()))?,
            None => packed,
        };
        self.ws.send(Message::Binary(bytes.into())).await.map_err(|e| ClientError::Lost(e.to_string()))
    }

    /// The door is passed: the link splits into a reader and a writer task, sealed both ways.
    pub(super) fn into_link(self) -> Result<Link, ClientError> {
        let Some(Channel { seal, open }) = self.channel else {
            return Err(ClientError::Lost("the door opened without a sealed channel".into()));
        };
        let (sink, stream) = self.ws.split();
        let (out, out_rx) = mpsc::channel(OUTGOING);
        let (in_tx, incoming) = mpsc::channel(INCOMING);
        let (dg_tx, datagrams) = mpsc::channel(DATAGRAMS);
        let writer = tokio::spawn(write(sink, seal, out_rx));
        let reader = tokio::spawn(read(stream, open, in_tx, dg_tx));
        Ok(Link { out, incoming, datagrams: Some(datagrams), reader, writer })
    }
}

impl LaptopDoor for WebDoor {
    async fn send(&mut self, frame: &[u8]) -> Result<(), ClientError> {
        self.message(Kind::Frame, frame).await
    }

    async fn read_into(&mut self, decoder: &mut FrameDecoder) -> Result<(), ClientError> {
        loop {
            let bytes = match self.ws.next().await {
                Some(Ok(Message::Binary(bytes))) => bytes,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(other)) => return Err(ClientError::Lost(format!("the host's door sent {other:?}"))),
                Some(Err(e)) => return Err(ClientError::Lost(e.to_string())),
                None => return Err(ClientError::Lost("the host ended the link".into())),
            };
            let plain = match &mut self.channel {
                Some(channel) => channel.open.open(&bytes).map_err(|e| ClientError::NotTheHost(e.to_string()))?,
                None => bytes.to_vec(),
            };
            return match web::unpack(&plain) {
                Some((Kind::Frame, body)) => {
                    decoder.push(body);
                    Ok(())
                }
                Some((Kind::Datagram, _)) => continue,
                Some((Kind::Close, body)) => Err(closed(body)),
                None => Err(ClientError::Lost("the host sent a message of no known kind".into())),
            };
        }
    }

    fn keyed(&mut self, confirmed: &pake::Confirmed) {
        self.channel = Some(Channel::new(confirmed, Side::Laptop, &self.binding));
    }
}

/// A close message's code and reason, as QUIC's close would read (cleaned: shown, never
/// trusted).
fn closed(body: &[u8]) -> ClientError {
    match web::read_close(body) {
        Some((code, reason)) => super::closed_with(u64::from(code), &reason),
        None => ClientError::Lost("the host closed the link".into()),
    }
}

type Sink = futures_util::stream::SplitSink<Ws, Message>;
type Source = futures_util::stream::SplitStream<Ws>;

async fn write(mut sink: Sink, mut seal: Sealer, mut rx: mpsc::Receiver<Out>) {
    while let Some(out) = rx.recv().await {
        let (kind, body, last) = match out {
            Out::Frame(body) => (Kind::Frame, body, false),
            Out::Datagram(body) => (Kind::Datagram, body, false),
            Out::Close(code, reason) => (Kind::Close, web::close_body(code, &reason), true),
        };
        let Ok(bytes) = seal.seal(&web::pack(kind, &body)) else { return };
        if sink.send(Message::Binary(bytes.into())).await.is_err() {
            return;
        }
        if last {
            let _ = sink.close().await;
            return;
        }
    }
}

async fn read(
    mut stream: Source,
    mut open: Opener,
    incoming: mpsc::Sender<Incoming>,
    datagrams: mpsc::Sender<Vec<u8>>,
) {
    let end = loop {
        let bytes = match stream.next().await {
            Some(Ok(Message::Binary(bytes))) => bytes,
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
            Some(Ok(Message::Close(_))) | None => break Incoming::Lost("the host ended the link".into()),
            Some(Ok(Message::Text(_))) => break Incoming::Lost("the host sent text on the link".into()),
            Some(Err(e)) => break Incoming::Lost(e.to_string()),
        };
        let Ok(plain) = open.open(&bytes) else {
            break Incoming::Lost("a message on the link did not open: someone on the network altered it".into());
        };
        match web::unpack(&plain) {
            Some((Kind::Frame, body)) => {
                if incoming.send(Incoming::Bytes(body.to_vec())).await.is_err() {
                    return;
                }
            }
            // Full: dropped, as a datagram may be.
            Some((Kind::Datagram, body)) => {
                let _ = datagrams.try_send(body.to_vec());
            }
            Some((Kind::Close, body)) => match web::read_close(body) {
                Some((code, reason)) => break Incoming::Closed(code, reason),
                None => break Incoming::Closed(close::NORMAL, String::new()),
            },
            None => break Incoming::Lost("the host sent a message of no known kind".into()),
        }
    };
    let _ = incoming.send(end).await;
}
