//! A UDP socket under quinn that delays and drops packets, both ways: how the lab injects a
//! bot's one-way latency, jitter and loss without netem. Delays are kept by one thread on the
//! kernel's high-resolution timers ([`Delayer`]), not by tokio's 1 ms timer wheel, so that a
//! 0.1 ms path is 0.1 ms; the thread measures how late it fires and the lab reports it.

use quinn::udp::{RecvMeta, Transmit};
use quinn::{AsyncUdpSocket, UdpPoller};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::io::{self, IoSliceMut};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
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

/// What to do with a packet once its delay is over.
enum Deed {
    /// Put it on the wire (the outgoing direction).
    Send { socket: Arc<std::net::UdpSocket>, packet: Vec<u8>, to: SocketAddr },
    /// Hand it to quinn (the incoming direction).
    Deliver { tx: mpsc::UnboundedSender<(Vec<u8>, SocketAddr)>, packet: Vec<u8>, from: SocketAddr },
}

struct Due {
    at: Instant,
    seq: u64,
    deed: Deed,
}

impl PartialEq for Due {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for Due {}
impl PartialOrd for Due {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Due {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(other.at, other.seq))
    }
}

#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Reverse<Due>>,
    seq: u64,
    /// How late each packet left its delay, µs (the first million).
    lateness_us: Vec<u32>,
}

/// One thread for the whole lab that releases delayed packets at their instant. It sleeps on
/// a condition variable with a timeout (a futex on an hrtimer, with the thread's timer slack
/// set to 1 µs), so it fires within tens of microseconds, where tokio's timer would round up
/// to the next millisecond.
pub struct Delayer {
    queue: Mutex<Queue>,
    wake: Condvar,
}

impl Delayer {
    /// The lab's delayer (started on first use).
    pub fn get() -> &'static Delayer {
        static DELAYER: OnceLock<&'static Delayer> = OnceLock::new();
        DELAYER.get_or_init(|| {
            let d: &'static Delayer = Box::leak(Box::new(Delayer { queue: Mutex::default(), wake: Condvar::new() }));
            std::thread::Builder::new().name("lab-delayer".into()).spawn(move || d.run()).expect("a thread");
            d
        })
    }

    fn schedule(&self, at: Instant, deed: Deed) {
        let mut q = self.queue.lock().expect("delayer");
        q.seq += 1;
        let seq = q.seq;
        let earliest = q.heap.peek().is_none_or(|Reverse(d)| at < d.at);
        q.heap.push(Reverse(Due { at, seq, deed }));
        drop(q);
        if earliest {
            self.wake.notify_one();
        }
    }

    /// How late packets left their delay so far, µs, sorted.
    pub fn lateness_us(&self) -> Vec<u32> {
        let mut v = self.queue.lock().expect("delayer").lateness_us.clone();
        v.sort_unstable();
        v
    }

    fn run(&self) {
        // SAFETY: prctl(PR_SET_TIMERSLACK) only changes this thread's timer slack.
        unsafe {
            libc::prctl(libc::PR_SET_TIMERSLACK, 1_000 as libc::c_ulong);
        }
        let mut q = self.queue.lock().expect("delayer");
        loop {
            let now = Instant::now();
            let next = q.heap.peek().map(|Reverse(d)| d.at);
            match next {
                None => q = self.wake.wait(q).expect("delayer"),
                Some(at) if at > now => q = self.wake.wait_timeout(q, at - now).expect("delayer").0,
                Some(_) => {
                    let mut ready = Vec::new();
                    while let Some(Reverse(d)) = q.heap.peek()
                        && d.at <= now
                    {
                        let Reverse(d) = q.heap.pop().expect("peeked");
                        if q.lateness_us.len() < 1_000_000 {
                            let late = now.duration_since(d.at).as_micros().min(u32::MAX as u128) as u32;
                            q.lateness_us.push(late);
                        }
                        ready.push(d.deed);
                    }
                    drop(q);
                    for deed in ready {
                        match deed {
                            // Loopback never blocks for long; a full buffer is a loss like any other.
                            Deed::Send { socket, packet, to } => drop(socket.send_to(&packet, to)),
                            Deed::Deliver { tx, packet, from } => drop(tx.send((packet, from))),
                        }
                    }
                    q = self.queue.lock().expect("delayer");
                }
            }
        }
    }
}

struct Shared {
    rng: Mutex<ChaCha8Rng>,
    path: PathSpec,
}

pub struct DelaySocket {
    /// The socket, for the delayer thread to send on (a task receives on a clone).
    sender: Arc<std::net::UdpSocket>,
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
        let sender = Arc::new(std_socket.try_clone()?);
        let socket = Arc::new(tokio::net::UdpSocket::from_std(std_socket)?);
        let local = socket.local_addr()?;
        let shared = Arc::new(Shared { rng: Mutex::new(ChaCha8Rng::seed_from_u64(seed)), path });
        let (tx, rx) = mpsc::unbounded_channel();
        // Receiving: every packet is held for its delay (or dropped) before quinn sees it.
        let (recv_socket, recv_shared) = (socket.clone(), shared.clone());
        tokio::spawn(async move {
            let mut buf = vec![0u8; 65_536];
            while let Ok((n, from)) = recv_socket.recv_from(&mut buf).await {
                let arrived = Instant::now();
                let delay = recv_shared.path.delay(&mut recv_shared.rng.lock().expect("rng"));
                let Some(delay) = delay else { continue };
                let deed = Deed::Deliver { tx: tx.clone(), packet: buf[..n].to_vec(), from };
                Delayer::get().schedule(arrived + delay, deed);
            }
        });
        Ok(Arc::new(DelaySocket { sender, shared, incoming: Mutex::new(rx), local }))
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
        let now = Instant::now();
        let delay = self.shared.path.delay(&mut self.shared.rng.lock().expect("rng"));
        let Some(delay) = delay else { return Ok(()) };
        let deed =
            Deed::Send { socket: self.sender.clone(), packet: transmit.contents.to_vec(), to: transmit.destination };
        Delayer::get().schedule(now + delay, deed);
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
