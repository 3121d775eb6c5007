//! A UDP socket under quinn that delays and drops packets, both ways: how the lab injects a
//! bot's one-way latency, jitter and loss without netem. Delays use tokio's timer (1 ms
//! granularity); the lab's truth does not depend on them, only the conditions do.

use quinn::udp::{RecvMeta, Transmit};
use quinn::{AsyncUdpSocket, UdpPoller};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::io::{self, IoSliceMut};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc;

/// How jitter is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum JitterDist {
    /// Uniform in `0..jitter`.
    Uniform,
    /// Pareto with shape 1.5 scaled so that its median is `jitter / 4`: mostly small, with a
    /// heavy tail (capped at 10 × `jitter`).
    Pareto,
}

/// One direction's conditions.
#[derive(Debug, Clone, Copy)]
pub struct PathSpec {
    pub latency_us: u64,
    pub jitter_us: u64,
    pub dist: JitterDist,
    /// Probability that a packet is lost.
    pub loss: f64,
}

impl PathSpec {
    fn delay(&self, rng: &mut ChaCha8Rng) -> Option<Duration> {
        if self.loss > 0.0 && rng.random_bool(self.loss) {
            return None;
        }
        let jitter = match self.dist {
            _ if self.jitter_us == 0 => 0,
            JitterDist::Uniform => rng.random_range(0..self.jitter_us),
            JitterDist::Pareto => {
                let u: f64 = rng.random_range(1e-9..1.0);
                let scale = self.jitter_us as f64 / 4.0 / 2f64.powf(1.0 / 1.5);
                ((scale * u.powf(-1.0 / 1.5)) as u64).min(10 * self.jitter_us)
            }
        };
        Some(Duration::from_micros(self.latency_us + jitter))
    }
}

struct Shared {
    rng: Mutex<ChaCha8Rng>,
    path: PathSpec,
}

pub struct DelaySocket {
    socket: Arc<tokio::net::UdpSocket>,
    shared: Arc<Shared>,
    incoming: Mutex<mpsc::UnboundedReceiver<(Vec<u8>, SocketAddr)>>,
    local: SocketAddr,
}

impl fmt::Debug for DelaySocket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DelaySocket({})", self.local)
    }
}

impl DelaySocket {
    /// Binds 127.0.0.1:0 with `path` applied to every packet in and out. Needs a tokio runtime.
    pub fn bind(path: PathSpec, seed: u64) -> io::Result<Arc<DelaySocket>> {
        let std_socket = std::net::UdpSocket::bind("127.0.0.1:0")?;
        std_socket.set_nonblocking(true)?;
        let socket = Arc::new(tokio::net::UdpSocket::from_std(std_socket)?);
        let local = socket.local_addr()?;
        let shared = Arc::new(Shared { rng: Mutex::new(ChaCha8Rng::seed_from_u64(seed)), path });
        let (tx, rx) = mpsc::unbounded_channel();
        // Receiving: every packet is held for its delay (or dropped) before quinn sees it.
        let (recv_socket, recv_shared) = (socket.clone(), shared.clone());
        tokio::spawn(async move {
            let mut buf = vec![0u8; 65_536];
            while let Ok((n, from)) = recv_socket.recv_from(&mut buf).await {
                let delay = recv_shared.path.delay(&mut recv_shared.rng.lock().expect("rng"));
                let Some(delay) = delay else { continue };
                let (tx, packet) = (tx.clone(), buf[..n].to_vec());
                tokio::spawn(async move {
                    tokio::time::sleep(delay).await;
                    let _ = tx.send((packet, from));
                });
            }
        });
        Ok(Arc::new(DelaySocket { socket, shared, incoming: Mutex::new(rx), local }))
    }
}

#[derive(Debug)]
struct AlwaysWritable;

impl UdpPoller for AlwaysWritable {
    fn poll_writable(self: Pin<&mut Self>, _cx: &mut Context) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl AsyncUdpSocket for DelaySocket {
    fn create_io_poller(self: Arc<Self>) -> Pin<Box<dyn UdpPoller>> {
        Box::pin(AlwaysWritable)
    }

    fn try_send(&self, transmit: &Transmit) -> io::Result<()> {
        let delay = self.shared.path.delay(&mut self.shared.rng.lock().expect("rng"));
        let Some(delay) = delay else { return Ok(()) };
        let (socket, packet, to) = (self.socket.clone(), transmit.contents.to_vec(), transmit.destination);
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let _ = socket.send_to(&packet, to).await;
        });
        Ok(())
    }

    fn poll_recv(
        &self,
        cx: &mut Context,
        bufs: &mut [IoSliceMut<'_>],
        meta: &mut [RecvMeta],
    ) -> Poll<io::Result<usize>> {
        let mut incoming = self.incoming.lock().expect("incoming");
        match incoming.poll_recv(cx) {
            Poll::Ready(Some((packet, from))) => {
                let n = packet.len().min(bufs[0].len());
                bufs[0][..n].copy_from_slice(&packet[..n]);
                meta[0] = RecvMeta { addr: from, len: n, stride: n, ecn: None, dst_ip: None };
                Poll::Ready(Ok(1))
            }
            Poll::Ready(None) => Poll::Ready(Err(io::Error::other("the delaying socket closed"))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.local)
    }

    fn may_fragment(&self) -> bool {
        false
    }
}
