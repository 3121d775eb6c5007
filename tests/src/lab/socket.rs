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
    /// A laptop on Wi-Fi whose radio dozes all the time (legacy power save, some phones'
    /// strictest mode): what the access point sends it waits for the next beacon
    /// ([`BEACON_US`], at a phase of its own per laptop) and leaves in a burst. Both ways,
    /// link-layer retries add a heavy tail ([`RETRY_SHARE`] of packets, Pareto from 0.3 ms,
    /// capped at `jitter`).
    Wifi,
    /// As [`JitterDist::Wifi`], but the radio dozes as laptops' drivers make it (dynamic power
    /// save): awake for [`DOZE_AFTER_US`] after it last sent or received, dozing after that.
    WifiDynamic,
}

impl JitterDist {
    /// Whether the access point may hold what it sends until a beacon.
    pub fn beacons(self) -> bool {
        matches!(self, JitterDist::Wifi | JitterDist::WifiDynamic)
    }
}

/// A Wi-Fi beacon interval: 100 time units of 1.024 ms.
pub const BEACON_US: u64 = 102_400;
/// How long a radio in dynamic power save stays awake after it last sent or received data:
/// Intel's iwlmvm driver sets 100 ms for both (`rx_data_timeout`, `tx_data_timeout`), as
/// mac80211's `dynamic_ps_timeout` does for the others.
pub const DOZE_AFTER_US: u64 = 100_000;
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

/// When the laptop's radio is awake (Wi-Fi's dynamic power save), µs since the socket was
/// bound: from when it last woke (a beacon, or its own send) until [`DOZE_AFTER_US`] after it
/// last sent or was handed a packet. It starts dozing.
#[derive(Debug, Default)]
struct Radio {
    awake_from_us: u64,
    awake_until_us: u64,
}

impl Radio {
    /// The laptop sends at `at_us`: awake now (a dozing radio wakes to send) and a while after.
    /// What the access point holds for a beacon already due still leaves with that beacon
    /// (the model keeps the host's packets in order).
    fn sends(&mut self, at_us: u64) {
        if at_us >= self.awake_until_us {
            self.awake_from_us = at_us;
        }
        self.awake_until_us = self.awake_until_us.max(at_us.saturating_add(DOZE_AFTER_US));
    }

    /// How long the access point holds a packet it has at `at_us`: nothing while the radio is
    /// awake; until the beacon that wakes it otherwise (`phase_us`: this laptop's beacons).
    fn hold(&mut self, at_us: u64, phase_us: u64) -> u64 {
        if (self.awake_from_us..self.awake_until_us).contains(&at_us) {
            return 0;
        }
        if at_us < self.awake_from_us {
            // The radio is to wake at a beacon already: the packet leaves with that burst.
            return self.awake_from_us - at_us;
        }
        let hold = until_beacon(at_us, phase_us);
        self.awake_from_us = at_us + hold;
        self.awake_until_us = self.awake_from_us;
        hold
    }

    /// The radio was handed a packet at `at_us`: awake a while longer.
    fn handed(&mut self, at_us: u64) {
        self.awake_until_us = self.awake_until_us.max(at_us.saturating_add(DOZE_AFTER_US));
    }
}

/// From `at_us` to the next beacon of a laptop whose beacons fall at `phase_us` (mod
/// [`BEACON_US`]); 0 on a beacon.
fn until_beacon(at_us: u64, phase_us: u64) -> u64 {
    let since = (at_us + BEACON_US - phase_us % BEACON_US) % BEACON_US;
    (BEACON_US - since) % BEACON_US
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

    /// A packet `at_us` after the socket was bound: lost (`None`) or its delay. `radio` is
    /// the laptop's, which both directions keep awake.
    fn delay(&mut self, at_us: u64, radio: &mut Radio) -> Option<Duration> {
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
            JitterDist::Wifi | JitterDist::WifiDynamic => {
                let retry = if rng.random_bool(RETRY_SHARE) {
                    (pareto(rng, 600.0, 1.2) as u64).min(spec.jitter_us.max(300))
                } else {
                    0
                };
                if !self.downlink {
                    radio.sends(at_us);
                    return Some(Duration::from_micros(spec.latency_us + retry));
                }
                // Buffered at the access point, when it got there, while the radio dozes.
                let at_ap = at_us + spec.latency_us;
                let hold = match spec.dist {
                    JitterDist::WifiDynamic => radio.hold(at_ap, self.phase_us),
                    _ => until_beacon(at_ap, self.phase_us),
                };
                radio.handed(at_ap + hold + retry);
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
    /// Locked after a direction, never before.
    radio: Mutex<Radio>,
    blackouts: Blackouts,
}

impl Shared {
    fn delay(&self, direction: &Mutex<Direction>, now: Instant) -> Option<Duration> {
        let at_us = now.saturating_duration_since(self.bound).as_micros() as u64;
        if self.blackouts.dark(at_us) {
            return None;
        }
        let mut direction = direction.lock().expect("direction");
        direction.delay(at_us, &mut self.radio.lock().expect("radio"))
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
            radio: Mutex::default(),
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

    /// Whether a packet handed over at `delivered` left with a burst at one of the beacons
    /// (30 ms + k·102.4 ms), give or take a retry.
    fn at_a_beacon(delivered: u64) -> bool {
        (delivered + BEACON_US - 30_000) % BEACON_US <= 20_000
    }

    #[test]
    fn a_dozing_radio_gets_what_the_access_point_sends_at_the_beacon() {
        let mut down = Direction::new(spec(JitterDist::Wifi, 0.0), 1, 30_000, true);
        let mut up = Direction::new(spec(JitterDist::Wifi, 0.0), 2, 30_000, false);
        let mut radio = Radio::default();
        let (mut held, mut n) = (0, 0);
        for at in (0..10_000_000).step_by(7_919) {
            // Sending every 8 ms does not wake it.
            assert!(up.delay(at, &mut radio).unwrap().as_micros() as u64 <= 21_000);
            let d = down.delay(at, &mut radio).unwrap().as_micros() as u64;
            held += u64::from(at_a_beacon(at + d));
            n += 1;
            assert!(d <= 1_000 + BEACON_US + 20_000, "{d}");
        }
        assert_eq!(held, n, "every downlink packet leaves at a beacon");
    }

    #[test]
    fn a_radio_in_dynamic_power_save_wakes_when_it_sends_and_dozes_when_quiet() {
        let mut down = Direction::new(spec(JitterDist::WifiDynamic, 0.0), 1, 30_000, true);
        let mut up = Direction::new(spec(JitterDist::WifiDynamic, 0.0), 2, 30_000, false);
        let mut radio = Radio::default();
        // A laptop that beats every 10 ms: what the host sends it is never held for a beacon.
        for at in (0..5_000_000).step_by(10_000) {
            up.delay(at, &mut radio).unwrap();
            let d = down.delay(at + 3_000, &mut radio).unwrap().as_micros() as u64;
            assert!(d <= 1_000 + 20_000, "held {d} µs while the radio sends every 10 ms");
        }
        // Quiet for a second: it dozes, the first packet waits for the beacon, and one sent
        // right after it finds the radio awake.
        let quiet = 6_000_000 + 7_000;
        let first = quiet + down.delay(quiet, &mut radio).unwrap().as_micros() as u64;
        assert!(at_a_beacon(first) && first > quiet + 21_000, "{first}");
        let next = first + 5_000;
        let d = down.delay(next, &mut radio).unwrap().as_micros() as u64;
        assert!(d <= 21_000, "held {d} µs right after a burst");
        // A packet that reaches the access point before that beacon leaves with its burst.
        let mut radio = Radio::default();
        let a = down.delay(quiet, &mut radio).unwrap().as_micros() as u64 + quiet;
        let b = down.delay(quiet + 10_000, &mut radio).unwrap().as_micros() as u64 + quiet + 10_000;
        assert!(at_a_beacon(a) && at_a_beacon(b), "{a} {b}");
    }

    #[test]
    fn burst_loss_keeps_its_long_run_rate_and_comes_in_runs() {
        let mut d = Direction::new(spec(JitterDist::Uniform, 0.05), 3, 0, false);
        let (mut lost, mut runs, mut was_lost) = (0, 0, false);
        let n = 2_000_000;
        for i in 0..n {
            let gone = d.delay(i * 1_000, &mut Radio::default()).is_none(); // a packet every ms for 2 000 s
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
