//! A UDP socket under quinn that delays and drops packets, both ways: how the lab injects a
//! bot's one-way latency (each way its own), jitter (uniform, heavy-tailed, or Wi-Fi's beacon
//! bursts and retries), loss (independent, or in runs) and blackouts without netem. Delays are kept by one thread on the
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
    /// A laptop on Wi-Fi with power saving: what the access point sends it waits for the next
    /// beacon ([`BEACON_US`], at a phase of its own per laptop) and leaves in a burst; both
    /// ways, link-layer retries add a heavy tail ([`RETRY_SHARE`] of packets, Pareto from
    /// 0.3 ms, capped at `jitter`).
    Wifi,
}

/// A Wi-Fi beacon interval: 100 time units of 1.024 ms.
pub const BEACON_US: u64 = 102_400;
/// The share of Wi-Fi packets that needed link-layer retries.
pub const RETRY_SHARE: f64 = 0.2;
/// Mean length of a burst of loss (`--burst-loss`): all packets of that stretch are lost.
pub const BURST_US: f64 = 20_000.0;
/// Mean time between two blackouts of a laptop (`--blackout-ms`).
pub const BLACKOUT_EVERY_US: f64 = 15_000_000.0;

/// One direction's conditions.
#[derive(Debug, Clone, Copy)]
pub struct PathSpec {
    pub latency_us: u64,
    pub jitter_us: u64,
    pub dist: JitterDist,
    /// Probability that a packet is lost, each on its own.
    pub loss: f64,
    /// Long-run share of packets lost in runs (Gilbert–Elliott over time: stretches of
    /// [`BURST_US`] on average where every packet is lost); 0: none.
    pub burst_loss: f64,
}

/// Where a direction stands in its runs of loss.
#[derive(Debug, Clone, Copy, Default)]
struct Runs {
    bad: bool,
    /// When the current stretch (good or bad) ends, µs since the socket was bound.
    until_us: f64,
}

/// One direction's state: its conditions, its random draws, its runs of loss.
struct Direction {
    spec: PathSpec,
    rng: ChaCha8Rng,
    runs: Runs,
    /// The beacon phase of this laptop, µs (Wi-Fi).
    phase_us: u64,
    /// The direction the access point buffers for a dozing laptop (Wi-Fi).
    downlink: bool,
}

impl Direction {
    fn new(spec: PathSpec, seed: u64, phase_us: u64, downlink: bool) -> Direction {
        // Starts at the end of a bad stretch: the first packet opens a good one.
        let runs = Runs { bad: true, until_us: 0.0 };
        Direction { spec, rng: ChaCha8Rng::seed_from_u64(seed), runs, phase_us, downlink }
    }

    /// A packet `at_us` after the socket was bound: lost (`None`) or its delay.
    fn delay(&mut self, at_us: u64) -> Option<Duration> {
        let spec = self.spec;
        if spec.loss > 0.0 && self.rng.random_bool(spec.loss) {
            return None;
        }
        if spec.burst_loss > 0.0 && self.in_burst(at_us as f64) {
            return None;
        }
        let rng = &mut self.rng;
        let pareto = |rng: &mut ChaCha8Rng, median: f64, shape: f64| {
            let u: f64 = rng.random_range(1e-9..1.0);
            median / 2f64.powf(1.0 / shape) * u.powf(-1.0 / shape)
        };
        let jitter = match spec.dist {
            _ if spec.jitter_us == 0 && spec.dist != JitterDist::Wifi => 0,
            JitterDist::Uniform => rng.random_range(0..spec.jitter_us),
            JitterDist::Pareto => (pareto(rng, spec.jitter_us as f64 / 4.0, 1.5) as u64).min(10 * spec.jitter_us),
            JitterDist::Wifi => {
                let retry = if rng.random_bool(RETRY_SHARE) {
                    (pareto(rng, 600.0, 1.2) as u64).min(spec.jitter_us.max(300))
                } else {
                    0
                };
                let hold = if self.downlink {
                    // Buffered at the access point until the next beacon after it got there.
                    let at_ap = at_us + spec.latency_us;
                    let since = (at_ap + BEACON_US - self.phase_us % BEACON_US) % BEACON_US;
                    (BEACON_US - since) % BEACON_US
                } else {
                    0
                };
                hold + retry
            }
        };
        Some(Duration::from_micros(spec.latency_us + jitter))
    }

    /// Gilbert–Elliott over time: good and bad stretches, exponential lengths, the bad ones
    /// [`BURST_US`] long on average and as frequent as the long-run share asks.
    fn in_burst(&mut self, at_us: f64) -> bool {
        let share = self.spec.burst_loss.clamp(1e-6, 0.5);
        let good_us = BURST_US * (1.0 - share) / share;
        while at_us >= self.runs.until_us {
            self.runs.bad = !self.runs.bad;
            let mean = if self.runs.bad { BURST_US } else { good_us };
            let u: f64 = self.rng.random_range(1e-12..1.0);
            self.runs.until_us += -mean * u.ln();
        }
        self.runs.bad
    }
}

/// When a laptop hears nothing and sends nothing (Wi-Fi roaming, a background scan): windows
/// of `length_us`, [`BLACKOUT_EVERY_US`] apart on average, drawn once.
#[derive(Debug, Clone, Default)]
pub struct Blackouts {
    /// (start, end) µs since the socket was bound, sorted.
    windows: Vec<(u64, u64)>,
}

impl Blackouts {
    /// Windows over the first `horizon_us` (none if `length_us` is 0).
    pub fn draw(length_us: u64, horizon_us: u64, seed: u64) -> Blackouts {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut windows = Vec::new();
        let mut t = 0.0;
        while length_us > 0 && (t as u64) < horizon_us {
            let u: f64 = rng.random_range(1e-12..1.0);
            t += -BLACKOUT_EVERY_US * u.ln();
            windows.push((t as u64, t as u64 + length_us));
            t += length_us as f64;
        }
        Blackouts { windows }
    }

    fn dark(&self, at_us: u64) -> bool {
        let i = self.windows.partition_point(|w| w.1 <= at_us);
        self.windows.get(i).is_some_and(|w| w.0 <= at_us)
    }
}

/// A laptop's path: each direction, and its blackouts (both ways at once).
pub struct Path {
    pub up: PathSpec,
    pub down: PathSpec,
    pub blackouts: Blackouts,
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
    bound: Instant,
    /// Client → host.
    up: Mutex<Direction>,
    /// Host → client.
    down: Mutex<Direction>,
    blackouts: Blackouts,
}

impl Shared {
    fn delay(&self, direction: &Mutex<Direction>, now: Instant) -> Option<Duration> {
        let at_us = now.saturating_duration_since(self.bound).as_micros() as u64;
        if self.blackouts.dark(at_us) {
            return None;
        }
        direction.lock().expect("direction").delay(at_us)
    }
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
    pub fn bind(path: Path, seed: u64) -> io::Result<Arc<DelaySocket>> {
        let std_socket = std::net::UdpSocket::bind("127.0.0.1:0")?;
        std_socket.set_nonblocking(true)?;
        let sender = Arc::new(std_socket.try_clone()?);
        let socket = Arc::new(tokio::net::UdpSocket::from_std(std_socket)?);
        let local = socket.local_addr()?;
        let phase = ChaCha8Rng::seed_from_u64(seed ^ 0xBEAC0).random_range(0..BEACON_US);
        let shared = Arc::new(Shared {
            bound: Instant::now(),
            up: Mutex::new(Direction::new(path.up, seed, phase, false)),
            down: Mutex::new(Direction::new(path.down, seed.rotate_left(17) ^ 0xD0, phase, true)),
            blackouts: path.blackouts,
        });
        let (tx, rx) = mpsc::unbounded_channel();
        // Receiving: every packet is held for its delay (or dropped) before quinn sees it.
        let (recv_socket, recv_shared) = (socket.clone(), shared.clone());
        tokio::spawn(async move {
            let mut buf = vec![0u8; 65_536];
            while let Ok((n, from)) = recv_socket.recv_from(&mut buf).await {
                let arrived = Instant::now();
                let Some(delay) = recv_shared.delay(&recv_shared.down, arrived) else { continue };
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
        let Some(delay) = self.shared.delay(&self.shared.up, now) else { return Ok(()) };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(dist: JitterDist, burst_loss: f64) -> PathSpec {
        PathSpec { latency_us: 1_000, jitter_us: 20_000, dist, loss: 0.0, burst_loss }
    }

    #[test]
    fn wifi_holds_what_the_access_point_sends_until_the_beacon() {
        let mut down = Direction::new(spec(JitterDist::Wifi, 0.0), 1, 30_000, true);
        let mut up = Direction::new(spec(JitterDist::Wifi, 0.0), 2, 30_000, false);
        let (mut held, mut n) = (0, 0);
        for at in (0..10_000_000).step_by(7_919) {
            let d = down.delay(at).unwrap().as_micros() as u64;
            // Delivered at a beacon (30 ms + k·102.4 ms), plus any retry.
            let delivered = at + d;
            let since_beacon = (delivered + BEACON_US - 30_000) % BEACON_US;
            held += u64::from(since_beacon <= 20_000);
            n += 1;
            assert!(d <= 1_000 + BEACON_US + 20_000, "{d}");
            assert!(up.delay(at).unwrap().as_micros() as u64 <= 21_000);
        }
        assert_eq!(held, n, "every downlink packet leaves at a beacon");
    }

    #[test]
    fn burst_loss_keeps_its_long_run_rate_and_comes_in_runs() {
        let mut d = Direction::new(spec(JitterDist::Uniform, 0.05), 3, 0, false);
        let (mut lost, mut runs, mut was_lost) = (0, 0, false);
        let n = 2_000_000;
        for i in 0..n {
            let gone = d.delay(i * 1_000).is_none(); // a packet every ms for 2 000 s
            lost += usize::from(gone);
            runs += usize::from(gone && !was_lost);
            was_lost = gone;
        }
        let rate = lost as f64 / n as f64;
        assert!((0.04..0.06).contains(&rate), "long-run loss {rate}");
        let mean_run = lost as f64 / runs as f64;
        assert!((15.0..25.0).contains(&mean_run), "mean run {mean_run} packets of 1 ms");
    }

    #[test]
    fn blackouts_silence_both_ways_for_their_length() {
        let b = Blackouts::draw(300_000, 600_000_000, 4);
        assert!(b.windows.len() > 20, "{} windows in 10 min", b.windows.len());
        let (start, end) = b.windows[3];
        assert_eq!(end - start, 300_000);
        assert!(b.dark(start) && b.dark(end - 1) && !b.dark(end) && !b.dark(start - 1));
    }
}
