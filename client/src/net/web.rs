//! A laptop's link to a host's browser door (`bolide_link::web`): one WebSocket that carries
//! the game stream and the datagrams, sealed after the exchange over the code word. A browser's
//! page speaks it over the DOM's WebSocket; a native client speaks it too over tokio's (tests,
//! the load benchmark's browser seats, `bolide-bot --web`). Below [`Socket`] the two differ;
//! the door, the sealing and the tasks above it are this file's, for both.

use super::{ClientError, LaptopDoor};
use crate::platform::rt::{self, Task};
use bolide_link::pake::{self, Side};
use bolide_link::sealed::{Channel, Opener, Sealer};
use bolide_link::web::{self, Kind, Unread};
use bolide_table::wire::{FrameDecoder, close};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Messages from the link waiting for the session: a second of a busy table's frames.
const INCOMING: usize = 256;
/// Datagrams waiting (probes, echoes, twins): past these they are dropped, as QUIC drops them.
const DATAGRAMS: usize = 32;
/// What the session hands the writer, waiting.
const OUTGOING: usize = 256;
/// Whole messages the socket holds for the link's reader. A browser cannot push back on its
/// WebSocket: a host that sends faster than this page reads past this many is dropped.
pub(crate) const SOCKET_QUEUE: usize = 4096;

/// What the socket under the link hands up.
pub(crate) enum Raw {
    Message(Vec<u8>),
    /// The socket ended, and why.
    End(String),
}

/// The socket under the link, as both platforms give it: whole binary messages out, in order,
/// and in, then its end. Dropping it closes it.
pub(crate) struct Socket {
    pub(crate) out: mpsc::Sender<Vec<u8>>,
    pub(crate) incoming: mpsc::Receiver<Raw>,
    /// Whatever keeps it running (pump tasks; the page's callbacks).
    pub(crate) _keep: Keep,
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Keep = Box<dyn std::any::Any + Send>;
#[cfg(target_arch = "wasm32")]
pub(crate) type Keep = Box<dyn std::any::Any>;

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
    reader: Task,
    writer: Task,
    /// Told once the writer has sent all it was given (a close included).
    written: Option<oneshot::Receiver<()>>,
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
        if let Some(written) = self.written.take() {
            let _ = rt::timeout(Duration::from_millis(500), written).await;
        }
    }
}

/// The laptop's side of the browser door before the link is split: clear until the host has
/// answered the exchange, sealed after.
pub(super) struct WebDoor {
    socket: Socket,
    channel: Option<Channel>,
    pub(super) binding: [u8; web::CHALLENGE_LEN],
}

/// Opens the WebSocket to the host's browser door at `addr` (from `from` where a socket can
/// be told) and reads its challenge.
pub(super) async fn open(addr: SocketAddr, from: Option<IpAddr>) -> Result<WebDoor, ClientError> {
    let connect_err = |reason: String| ClientError::Connect { addr, reason };
    let opening = async {
        let mut socket = socket::open(addr, from).await.map_err(connect_err)?;
        let binding = match socket.incoming.recv().await {
            Some(Raw::Message(b)) => b,
            _ => return Err(ClientError::Lost("the host's browser door said nothing".into())),
        };
        let binding: [u8; web::CHALLENGE_LEN] =
            binding.try_into().map_err(|_| ClientError::Lost("the host's challenge is not 32 bytes".into()))?;
        Ok(WebDoor { socket, channel: None, binding })
    };
    rt::timeout(Duration::from_secs(10), opening)
        .await
        .map_err(|_| connect_err("no answer within 10 s (wrong address, or a firewall?)".into()))?
}

impl WebDoor {
    async fn message(&mut self, kind: Kind, body: &[u8]) -> Result<(), ClientError> {
        let bytes = web::outgoing(self.channel.as_mut().map(|c| &mut c.seal), kind, body)
            .map_err(|e| ClientError::Lost(e.to_string()))?;
        self.socket.out.send(bytes).await.map_err(|_| ClientError::Lost("the host ended the link".into()))
    }

    /// The door is passed: the link splits into a reader and a writer task, sealed both ways.
    pub(super) fn into_link(self) -> Result<Link, ClientError> {
        let Some(Channel { seal, open }) = self.channel else {
            return Err(ClientError::Lost("the door opened without a sealed channel".into()));
        };
        let Socket { out: socket_out, incoming: socket_in, _keep: keep } = self.socket;
        let (out, out_rx) = mpsc::channel(OUTGOING);
        let (in_tx, incoming) = mpsc::channel(INCOMING);
        let (dg_tx, datagrams) = mpsc::channel(DATAGRAMS);
        let (written_tx, written) = oneshot::channel();
        let writer = rt::spawn(async move {
            write(socket_out, seal, out_rx).await;
            let _ = written_tx.send(());
        });
        let reader = rt::spawn(read(socket_in, keep, open, in_tx, dg_tx));
        Ok(Link { out, incoming, datagrams: Some(datagrams), reader, writer, written: Some(written) })
    }
}

impl LaptopDoor for WebDoor {
    async fn send(&mut self, frame: &[u8]) -> Result<(), ClientError> {
        self.message(Kind::Frame, frame).await
    }

    async fn read_into(&mut self, decoder: &mut FrameDecoder) -> Result<(), ClientError> {
        loop {
            let bytes = match self.socket.incoming.recv().await {
                Some(Raw::Message(bytes)) => bytes,
                Some(Raw::End(why)) => return Err(ClientError::Lost(why)),
                None => return Err(ClientError::Lost("the host ended the link".into())),
            };
            return match web::incoming(self.channel.as_mut().map(|c| &mut c.open), &bytes) {
                Ok((Kind::Frame, body)) => {
                    decoder.push(&body);
                    Ok(())
                }
                Ok((Kind::Datagram, _)) => continue,
                Ok((Kind::Close, body)) => Err(closed(&body)),
                Err(Unread::Sealed(e)) => Err(ClientError::NotTheHost(e.to_string())),
                Err(Unread::Unknown) => Err(ClientError::Lost("the host sent a message of no known kind".into())),
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

async fn write(socket: mpsc::Sender<Vec<u8>>, mut seal: Sealer, mut rx: mpsc::Receiver<Out>) {
    while let Some(out) = rx.recv().await {
        let (kind, body, last) = match out {
            Out::Frame(body) => (Kind::Frame, body, false),
            Out::Datagram(body) => (Kind::Datagram, body, false),
            Out::Close(code, reason) => (Kind::Close, web::close_body(code, &reason), true),
        };
        let Ok(bytes) = web::outgoing(Some(&mut seal), kind, &body) else { return };
        if socket.send(bytes).await.is_err() || last {
            return;
        }
    }
}

async fn read(
    mut socket: mpsc::Receiver<Raw>,
    _keep: Keep,
    mut open: Opener,
    incoming: mpsc::Sender<Incoming>,
    datagrams: mpsc::Sender<Vec<u8>>,
) {
    let end = loop {
        let bytes = match socket.recv().await {
            Some(Raw::Message(bytes)) => bytes,
            Some(Raw::End(why)) => break Incoming::Lost(why),
            None => break Incoming::Lost("the host ended the link".into()),
        };
        match web::incoming(Some(&mut open), &bytes) {
            Ok((Kind::Frame, body)) => {
                if incoming.send(Incoming::Bytes(body)).await.is_err() {
                    return;
                }
            }
            // Full: dropped, as a datagram may be.
            Ok((Kind::Datagram, body)) => {
                let _ = datagrams.try_send(body);
            }
            Ok((Kind::Close, body)) => match web::read_close(&body) {
                Some((code, reason)) => break Incoming::Closed(code, reason),
                None => break Incoming::Closed(close::NORMAL, String::new()),
            },
            Err(Unread::Sealed(_)) => {
                break Incoming::Lost("a message on the link did not open: someone on the network altered it".into());
            }
            Err(Unread::Unknown) => break Incoming::Lost("the host sent a message of no known kind".into()),
        }
    };
    let _ = incoming.send(end).await;
}

/// tokio's WebSocket, on a laptop.
#[cfg(not(target_arch = "wasm32"))]
mod socket {
    use super::{Raw, SOCKET_QUEUE, Socket};
    use crate::platform::rt;
    use bolide_link::web;
    use futures_util::{SinkExt, StreamExt};
    use std::net::{IpAddr, SocketAddr};
    use tokio::net::{TcpSocket, TcpStream};
    use tokio::sync::mpsc;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

    /// Aborts its pumps when the socket is dropped.
    struct Pumps(rt::Task, rt::Task);

    impl Drop for Pumps {
        fn drop(&mut self) {
            self.0.abort();
            self.1.abort();
        }
    }

    pub(crate) async fn open(addr: SocketAddr, from: Option<IpAddr>) -> Result<Socket, String> {
        let tcp = match from {
            None => TcpStream::connect(addr).await,
            Some(ip) => {
                let socket = if ip.is_ipv4() { TcpSocket::new_v4() } else { TcpSocket::new_v6() };
                let socket = socket.map_err(|e| e.to_string())?;
                socket.bind(SocketAddr::new(ip, 0)).map_err(|e| format!("cannot send from {ip}: {e}"))?;
                socket.connect(addr).await
            }
        }
        .map_err(|e| e.to_string())?;
        let _ = tcp.set_nodelay(true);
        let url = format!("ws://{addr}{}", web::PATH);
        let config = WebSocketConfig::default()
            .max_message_size(Some(web::MAX_MESSAGE))
            .max_frame_size(Some(web::MAX_MESSAGE))
            .read_buffer_size(8 * 1024)
            .write_buffer_size(0);
        let (ws, _) =
            tokio_tungstenite::client_async_with_config(url, tcp, Some(config)).await.map_err(|e| e.to_string())?;
        let (mut sink, mut stream) = ws.split();
        let (out, mut out_rx) = mpsc::channel::<Vec<u8>>(16);
        let (in_tx, incoming) = mpsc::channel(SOCKET_QUEUE);
        let writer = rt::spawn(async move {
            while let Some(bytes) = out_rx.recv().await {
                if sink.send(Message::Binary(bytes.into())).await.is_err() {
                    return;
                }
            }
            let _ = sink.close().await;
        });
        let reader = rt::spawn(async move {
            let end = loop {
                match stream.next().await {
                    Some(Ok(Message::Binary(bytes))) => {
                        if in_tx.send(Raw::Message(bytes.to_vec())).await.is_err() {
                            return;
                        }
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => {}
                    Some(Ok(Message::Text(_))) => break "the host sent text on the link".to_string(),
                    Some(Ok(Message::Close(_))) | None => break "the host ended the link".to_string(),
                    Some(Err(e)) => break e.to_string(),
                }
            };
            let _ = in_tx.send(Raw::End(end)).await;
        });
        Ok(Socket { out, incoming, _keep: Box::new(Pumps(writer, reader)) })
    }
}

/// The DOM's WebSocket, in a browser's page.
#[cfg(target_arch = "wasm32")]
mod socket {
    use super::{Raw, SOCKET_QUEUE, Socket};
    use crate::platform::rt;
    use bolide_link::web;
    use std::net::{IpAddr, SocketAddr};
    use tokio::sync::{mpsc, oneshot};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    use web_sys::{BinaryType, MessageEvent, WebSocket};

    /// The socket and its callbacks, alive as long as the link; closed when dropped — and its
    /// callbacks taken off the socket first, whenever that is (the link's end, a refusal before
    /// it opened, an opening given up): the browser would otherwise call a freed callback.
    struct Page {
        ws: WebSocket,
        _on_message: Closure<dyn FnMut(MessageEvent)>,
        _on_end: Closure<dyn FnMut(web_sys::Event)>,
        _on_open: Closure<dyn FnMut(web_sys::Event)>,
        pump: Option<rt::Task>,
    }

    impl Drop for Page {
        fn drop(&mut self) {
            if let Some(pump) = &self.pump {
                pump.abort();
            }
            self.ws.set_onmessage(None);
            self.ws.set_onopen(None);
            self.ws.set_onclose(None);
            self.ws.set_onerror(None);
            let _ = self.ws.close();
        }
    }

    /// A page's socket leaves from wherever its browser sends it: `_from` is not its to choose.
    pub(crate) async fn open(addr: SocketAddr, _from: Option<IpAddr>) -> Result<Socket, String> {
        let ws = WebSocket::new(&format!("ws://{addr}{}", web::PATH)).map_err(|e| format!("{e:?}"))?;
        ws.set_binary_type(BinaryType::Arraybuffer);
        let (in_tx, incoming) = mpsc::channel(SOCKET_QUEUE);
        let on_message = {
            let (in_tx, ws) = (in_tx.clone(), ws.clone());
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let Ok(buffer) = event.data().dyn_into::<js_sys::ArrayBuffer>() else { return };
                let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                if bytes.len() > web::MAX_MESSAGE || in_tx.try_send(Raw::Message(bytes)).is_err() {
                    let _ = in_tx.try_send(Raw::End("the host sent more than this page can read".into()));
                    let _ = ws.close();
                }
            })
        };
        let (opened_tx, opened) = oneshot::channel::<Result<(), String>>();
        let opened_tx = std::cell::RefCell::new(Some(opened_tx));
        let on_end = {
            let in_tx = in_tx.clone();
            Closure::<dyn FnMut(web_sys::Event)>::new(move |_event: web_sys::Event| {
                let _ = in_tx.try_send(Raw::End("the host ended the link".into()));
            })
        };
        let on_open = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            if let Some(tx) = opened_tx.borrow_mut().take() {
                let _ = tx.send(if event.type_() == "open" { Ok(()) } else { Err("the host refused the link".into()) });
            }
        });
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onerror(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_end.as_ref().unchecked_ref()));
        // From here the page owns the callbacks: whatever ends this function, they leave the
        // socket with them.
        let mut page = Page { ws, _on_message: on_message, _on_end: on_end, _on_open: on_open, pump: None };
        opened.await.map_err(|_| "the link never opened".to_string())??;
        page.ws.set_onerror(Some(page._on_end.as_ref().unchecked_ref()));
        let (out, mut out_rx) = mpsc::channel::<Vec<u8>>(16);
        let sender = page.ws.clone();
        page.pump = Some(rt::spawn(async move {
            while let Some(bytes) = out_rx.recv().await {
                if sender.send_with_u8_array(&bytes).is_err() {
                    return;
                }
            }
            let _ = sender.close();
        }));
        Ok(Socket { out, incoming, _keep: Box::new(page) })
    }
}
