//! The fairness lab (fairness.md, "Measured, not assumed"): the real host and bot clients
//! over real QUIC on 127.0.0.1, with each bot's latency, jitter and loss injected under quinn
//! ([`socket::DelaySocket`]) and its clock offset and drift injected in the clock it reads
//! ([`LabClock`]). Every bot's true reaction is drawn per round and measured with this
//! process's own monotonic clock, so the truth is known; the lab compares the host's verdicts
//! (and the naive arrival order) with it.

pub mod mille_bornes;
pub mod socket;

use bolide::bots::{BotLevel, Decide};
use bolide::options::Settings;
use bolide::view::PhaseView;
use bolide::{Action, Atout, Event, Pawn, RuleError, Seat, TableOptions, Timed};
use bolide::{ClientMsg, ServerMsg};
use bolide_client::games::bolide::{ConnectOptions, Session};
use bolide_client::net::{ClientError, Clock, Conduct};
use bolide_host::fair::score::{self, Contender, Tally, judge};
pub use bolide_host::fair::score::{BUCKETS, Bucket, Percentiles, percentiles, wilson};
use bolide_host::games::bolide::RoomConfig;
use bolide_host::net::{Identity, Journal, Server};
use bolide_table::wire::Shown;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use socket::{Blackouts, DelaySocket, Delayer, JitterDist, Path, PathSpec};
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A fairness record of a Bolide room.
type GrabRecord = bolide_host::room::FairRecord<bolide::Action>;

/// The race, round and kind of the moment a record was judged in (Bolide's name for it).
fn moment_of(record: &GrabRecord) -> (u8, u16, Timed) {
    Timed::from_name(record.moment).unwrap_or((0, 0, Timed::Grab))
}

fn kind_of(record: &GrabRecord) -> Option<Timed> {
    Timed::from_name(record.moment).map(|m| m.2)
}

/// The pawn a grab asked for.
fn pawn_of(record: &GrabRecord) -> Option<bolide::Pawn> {
    match record.action {
        bolide::Action::TakePawn { pawn } => Some(pawn),
        _ => None,
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct LabConfig {
    pub players: usize,
    /// One-way latency per bot, ms (cycled if shorter than `players`).
    pub latency_ms: Vec<f64>,
    pub jitter_ms: f64,
    #[serde(skip)]
    pub jitter_dist: JitterDist,
    pub jitter_dist_name: String,
    /// Bots' clock offsets are spread over ±this, seconds.
    pub offset_s: f64,
    /// Bots' clock drifts are spread over ±this, ppm.
    pub drift_ppm: f64,
    pub loss: f64,
    /// Reaction: `mean` ms, and the largest gap from it, ms (gaps log-uniform down to 10 µs).
    pub reaction_mean_ms: f64,
    pub reaction_spread_ms: f64,
    pub rounds: usize,
    pub seed: u64,
    /// Bot 0 claims every input this much earlier than it happened (0: an honest lab).
    pub liar_ms: f64,
    /// The liar (bot 0) also stops beating during each grab until its request has left.
    pub liar_silent: bool,
    /// The silent liar beats this long after it shows each grab before it goes silent (ms; 0:
    /// silent from the start), so the host has a beat of the moment to believe it back to.
    pub liar_hush_after_ms: f64,
    /// The liar fakes a bad path: in each Échange window it holds its beats back this long
    /// (ms; 0: never), so the host learns silences it must let the liar's claims outlast.
    pub liar_fake_silence_ms: f64,
    /// The liar (bot 0) claims it showed each moment this many ms later than it did (0: it
    /// tells the truth about `shown`): the other side of a reaction the host must bound.
    pub liar_shown_ms: f64,
    /// The liar peeks: it looks at each grab as its update arrives, not at the instant the
    /// update names, and still claims that instant as `shown` — what a modified client does to
    /// turn an early reveal into a head start.
    pub liar_peeks: bool,
    /// The liar says its screen draws a frame this many ms before it is up (a browser's page
    /// says a refresh), to be sent each reveal that much earlier: with `liar_peeks`, what a
    /// made-up frame lead is worth (the host believes at most `MAX_FRAME_LEAD_US`).
    pub liar_frame_lead_ms: f64,
    /// The liar holds this share of its clock answers back by `liar_hold_ms`, to widen the
    /// jitter the host sees on its path.
    pub liar_hold_share: f64,
    pub liar_hold_ms: f64,
    /// The liar holds every packet it sends this long, its QUIC acknowledgements too (QUIC's
    /// round trip grows by as much), and stamps its clock answers as many ms late so its probes
    /// still look near, ms (0: never).
    pub liar_ack_delay_ms: f64,
    /// Client → host one-way latency per bot, ms (cycled); empty: the same as `latency_ms`.
    pub up_latency_ms: Vec<f64>,
    /// Long-run loss that comes in runs (Gilbert–Elliott), each way; 0: none.
    pub burst_loss: f64,
    /// Each bot's clock jumps by ±this about once a race, ms.
    pub clock_step_ms: f64,
    /// Each bot's drift moves by up to ±this about once a race, ppm.
    pub slew_ppm: f64,
    /// A stall of 0 to this between stamping an input and sending it, ms.
    pub send_delay_ms: f64,
    /// `shown` happens on the next frame of a screen at this rate, Hz (0: at once).
    pub frame_hz: f64,
    /// Each bot hears and sends nothing for this long, every 15 s on average, ms (0: never).
    pub blackout_ms: f64,
    /// Every bot holds an Échange each round (`TableOptions::echange_drill`) and declares it
    /// after a drawn reaction: every round has an Échange contest (B-4.7).
    pub echange: bool,
}

impl LabConfig {
    /// Whether bot 0 lies in any way.
    pub fn has_liar(&self) -> bool {
        self.liar_ms > 0.0 || self.liar_shown_ms > 0.0 || self.liar_peeks
    }
}

impl Default for LabConfig {
    /// The lab's default conditions (`bolide-lab` with no flags).
    fn default() -> LabConfig {
        LabConfig {
            players: 6,
            latency_ms: vec![0.1, 2.0, 10.0, 40.0, 80.0, 150.0],
            jitter_ms: 20.0,
            jitter_dist: JitterDist::Uniform,
            jitter_dist_name: "uniform".into(),
            offset_s: 3600.0,
            drift_ppm: 200.0,
            loss: 0.0,
            reaction_mean_ms: 250.0,
            reaction_spread_ms: 100.0,
            rounds: 100,
            seed: 1,
            liar_ms: 0.0,
            liar_silent: false,
            liar_hush_after_ms: 0.0,
            liar_fake_silence_ms: 0.0,
            liar_shown_ms: 0.0,
            liar_peeks: false,
            liar_frame_lead_ms: 0.0,
            liar_hold_share: 0.0,
            liar_hold_ms: 0.0,
            liar_ack_delay_ms: 0.0,
            up_latency_ms: Vec::new(),
            burst_loss: 0.0,
            clock_step_ms: 0.0,
            slew_ppm: 0.0,
            send_delay_ms: 0.0,
            frame_hz: 0.0,
            blackout_ms: 0.0,
            echange: true,
        }
    }
}

/// What one bot really did in one round (real time of this process).
#[derive(Debug, Clone, Copy)]
struct TrueGrab {
    reaction_us: f64,
}

/// A Klaxon call as it truly happened.
struct TrueCall {
    seat: u8,
    /// The real instant of the call.
    at: Instant,
    /// How long before the lift it came on the bot's own countdown, µs.
    lead_us: f64,
}

#[derive(Default)]
struct Truth {
    /// (race, round, seat) → first grab.
    grabs: BTreeMap<(u8, u16, u8), TrueGrab>,
    /// (race, round) → the calls made.
    klaxon_calls: BTreeMap<(u8, u16), Vec<TrueCall>>,
    /// (race, round) → seats in the host's Klaxon order.
    klaxon_order: BTreeMap<(u8, u16), Vec<u8>>,
    rounds_seen: usize,
    /// Plain picks the host refused during the grab (`Untimed`).
    untimed_refused: usize,
    /// (race, round, pawn) → who got it, as bot 0 saw it (the last pawn's automatic one too).
    holders: BTreeMap<(u8, u16, Pawn), u8>,
    /// (race, round) → the reactions the host published in its photo finish, as bot 0 got it.
    photos: BTreeMap<(u8, u16), Vec<Option<u32>>>,
    /// (race, round, seat) → its Échange declaration's true reaction, µs.
    echanges: BTreeMap<(u8, u16, u8), f64>,
    /// (race, round) → the reactions of the Échange window's photo finish.
    echange_photos: BTreeMap<(u8, u16), Vec<Option<u32>>>,
    /// (seat, how long before the instant it names each grab's reveal reached that bot, µs on
    /// its own clock; negative: after).
    reveal_leads: Vec<(u8, f64)>,
}

/// A bot's clock: its own start, an offset and a drift — and, if the lab asks, the faults of
/// real laptop clocks: steps (`--clock-step-ms`) and a drift that changes as NTP slews it
/// (`--slew-ppm`). Precomputed as a piecewise-linear function of real time, so the truth of
/// any instant is known.
pub struct LabClock {
    start: Instant,
    /// (real µs since start, clock value there, rate) — sorted, the first at 0.
    segments: Vec<(f64, f64, f64)>,
}

/// Mean real time between two faults of a lab clock (a step, a new slew rate): about a race.
pub const CLOCK_FAULT_EVERY_US: f64 = 30_000_000.0;

impl LabClock {
    /// A clock reading `base_us` now, running at `1 + drift`; every [`CLOCK_FAULT_EVERY_US`]
    /// on average, it jumps by ±`step_us` and its rate moves to `1 + drift ± up to slew`.
    pub fn new(base_us: f64, drift: f64, step_us: f64, slew: f64, rng: &mut ChaCha8Rng) -> LabClock {
        let mut segments = vec![(0.0, base_us, 1.0 + drift)];
        if step_us > 0.0 || slew > 0.0 {
            let mut t = 0.0;
            // Four hours of faults: longer than any lab run.
            while t < 4.0 * 3600e6 {
                let u: f64 = rng.random_range(1e-12..1.0);
                let next = t - CLOCK_FAULT_EVERY_US * u.ln();
                let &(from, value, rate) = segments.last().expect("a first segment");
                let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                let value = value + (next - from) * rate + sign * step_us;
                let rate = if slew > 0.0 { 1.0 + drift + rng.random_range(-slew..=slew) } else { rate };
                segments.push((next, value, rate));
                t = next;
            }
        }
        LabClock { start: Instant::now(), segments }
    }

    fn segment(&self, t: Instant) -> (f64, (f64, f64, f64)) {
        let elapsed = t.saturating_duration_since(self.start).as_micros() as f64;
        let i = self.segments.partition_point(|s| s.0 <= elapsed).saturating_sub(1);
        (elapsed, self.segments[i])
    }

    /// The clock's reading at real instant `t`, µs.
    pub fn at(&self, t: Instant) -> f64 {
        let (elapsed, (from, value, rate)) = self.segment(t);
        value + (elapsed - from) * rate
    }

    /// How fast the clock runs at `t` (1 + its drift then).
    pub fn rate(&self, t: Instant) -> f64 {
        self.segment(t).1.2
    }
}

impl Clock for LabClock {
    fn now_us(&self) -> u64 {
        self.at(Instant::now()) as u64
    }
}

/// The Échange window (B-4.7), judged like the grab: every pair of declarations in a window,
/// the host's order (the order applied) against the true reactions, and arrival order beside.
#[derive(Debug, Clone, Serialize)]
pub struct EchangeReport {
    pub windows: usize,
    pub pairs: usize,
    pub accuracy: Option<f64>,
    pub ci95: Option<(f64, f64)>,
    pub arrival_accuracy: Option<f64>,
    /// By reaction gap, as the grab's table.
    pub buckets: Vec<Bucket>,
    /// |published − true| reaction in the Échange photo finish, ms.
    pub photo_finish_error_ms: Percentiles,
    pub photo_finish_reactions: usize,
    /// The first pairs of declarations 0.1 ms or more apart applied in the wrong order.
    pub wrong_examples: Vec<WrongPair>,
}

#[derive(Debug, Clone, Serialize)]
pub struct KlaxonReport {
    pub pairs: usize,
    /// Pairs of calls in the host's order as by their countdowns: the one called with more
    /// time left on its own laptop's countdown first (fairness.md §6).
    pub accuracy: Option<f64>,
    /// The same pairs by the real instants of the calls. Across laptops these can be known
    /// only to half the path asymmetry (no probe sees it), and a laptop whose clock steps
    /// moves its countdown with it: the lab reports the gap, the host does not aim for it.
    pub real_time_accuracy: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LiarReport {
    pub claimed_ms: f64,
    pub wrongful_wins: usize,
    pub contested: usize,
    /// Honest requests the bounds changed (must be 0).
    pub honest_clamped: usize,
    /// How much the bounds took back from the liar, ms (median).
    pub liar_clamped_ms_p50: f64,
    /// What the liar kept: its true reaction minus the reaction the host judged, ms, over its
    /// first grab of each round (fairness.md §7: about one beat at most).
    pub kept_ms: Percentiles,
    /// How long before the instant it names each grab's reveal reached the liar, and every
    /// honest bot, ms (negative: after): what a peeking laptop could see early. The liar's
    /// lead beyond the honest ones' is what its path estimate bought it (fairness.md §2).
    pub reveal_lead_ms: Percentiles,
    pub honest_reveal_lead_ms: Percentiles,
}

/// One side of a pair the host ordered wrong; times in ms after the reveal instant.
#[derive(Debug, Clone, Serialize)]
pub struct WrongSide {
    pub seat: u8,
    pub true_reaction_ms: f64,
    pub host_reaction_ms: f64,
    pub arrival_ms: f64,
    pub committed_ms: f64,
    pub clamped_ms: f64,
    pub tie: bool,
    /// `false`: a plain `TakePawn`, its reaction estimated from its arrival.
    pub timed: bool,
    /// `false`: void, never judged (its seat got the last pawn by itself).
    pub judged: bool,
}

impl WrongSide {
    fn new(r: &GrabRecord, true_reaction_us: f64) -> WrongSide {
        let after_reveal = |us: u64| us.saturating_sub(r.reveal_us) as f64 / 1000.0;
        WrongSide {
            seat: r.seat.0,
            true_reaction_ms: true_reaction_us / 1000.0,
            host_reaction_ms: r.reaction_us as f64 / 1000.0,
            arrival_ms: after_reveal(r.arrival_us),
            committed_ms: after_reveal(r.committed_us),
            clamped_ms: r.clamp.total_us() as f64 / 1000.0,
            tie: r.tie,
            timed: r.timed,
            judged: r.judged,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct WrongPair {
    pub race: u8,
    pub round: u16,
    pub a: WrongSide,
    pub b: WrongSide,
}

/// Wrong pairs kept as examples in a report.
const EXAMPLES: usize = 20;

#[derive(Debug, Clone, Serialize)]
pub struct ClampNote {
    pub race: u8,
    pub round: u16,
    /// The grab or the Échange window.
    pub moment: Timed,
    pub seat: u8,
    pub clamped_ms: f64,
    /// By bound: the input against its arrival, `shown` against the moment, the input
    /// against the laptop's own last beat.
    pub input_ms: f64,
    pub shown_ms: f64,
    pub beat_ms: f64,
    pub arrival_after_reveal_ms: f64,
    /// The reaction the host used, after the clamp.
    pub reaction_ms: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct LabReport {
    pub seed: u64,
    pub rounds: usize,
    pub pairs: usize,
    pub buckets: Vec<Bucket>,
    pub resolution_ms: Option<f64>,
    pub commit_delay_ms: Percentiles,
    pub owd_max_ms: f64,
    pub clock_error_ms: Percentiles,
    /// |reaction in the host's published photo finish − true reaction|, ms, over every honest
    /// bot's first grab of a round that a photo finish reported.
    pub photo_finish_error_ms: Percentiles,
    pub photo_finish_reactions: usize,
    pub klaxon: KlaxonReport,
    pub echange: EchangeReport,
    pub liar: LiarReport,
    pub ties: usize,
    /// Pairs the host ordered wrong, and of those, pairs where a request had been clamped.
    pub wrong_pairs: usize,
    pub wrong_pairs_clamped: usize,
    /// Verdicts on the host's clock (a stand-in played a seat that let its time pass): the
    /// lab's bots never should, so any here is a lead.
    pub untimed_requests: usize,
    /// Plain picks (no timings) a lab bot sent while the grab was on, refused by the host
    /// (`Untimed`): a stale decision somewhere in the bot. Any here is a lead.
    pub untimed_refused: usize,
    /// The first pairs with a gap of 0.1 ms or more that the host ordered wrong, to see why.
    pub wrong_examples: Vec<WrongPair>,
    pub honest_clamped: usize,
    /// The first honest requests the bounds changed, to see why.
    pub honest_clamps: Vec<ClampNote>,
    /// How late the lab's delaying sockets released packets past their drawn delay, µs: the
    /// precision of the injected conditions themselves.
    pub injection_lateness_us: Percentiles,
    pub conditions: LabConfig,
    pub elapsed_s: f64,
}

/// Lab laptop `i`'s path to the host (a socket that delays, jitters and loses as `config` says)
/// and its clock (offset, drift, steps and slews drawn from `rng`).
pub fn flawed_laptop(
    config: &LabConfig,
    i: usize,
    rng: &mut ChaCha8Rng,
) -> anyhow::Result<(Arc<DelaySocket>, Arc<LabClock>)> {
    let cycled = |v: &[f64]| v.get(i % v.len().max(1)).copied();
    let spec = |latency_ms: f64| PathSpec {
        latency_us: (latency_ms * 1000.0) as u64,
        jitter_us: (config.jitter_ms * 1000.0) as u64,
        dist: config.jitter_dist,
        loss: config.loss,
        burst_loss: config.burst_loss,
    };
    let down = cycled(&config.latency_ms).unwrap_or(0.0);
    let up = cycled(&config.up_latency_ms).unwrap_or(down) + if i == 0 { config.liar_ack_delay_ms } else { 0.0 };
    let horizon_us = (3_600 + config.rounds as u64 * 8) * 1_000_000;
    let blackouts = Blackouts::draw((config.blackout_ms * 1000.0) as u64, horizon_us, config.seed ^ (i as u64 + 7));
    let path = Path { up: spec(up), down: spec(down), blackouts };
    let spread = |rng: &mut ChaCha8Rng, x: f64| if x == 0.0 { 0.0 } else { rng.random_range(-x..=x) };
    let offset_us = spread(rng, config.offset_s) * 1e6;
    let drift = spread(rng, config.drift_ppm) * 1e-6;
    // Base far from zero so that a negative offset keeps the clock positive.
    let clock = Arc::new(LabClock::new(
        4.0 * 3600e6 + offset_us,
        drift,
        config.clock_step_ms * 1000.0,
        config.slew_ppm * 1e-6,
        rng,
    ));
    let socket = DelaySocket::bind(path, config.seed ^ (i as u64 + 1))?;
    Ok((socket, clock))
}

/// Runs the lab: a host in this process, `players` bot clients, until `rounds` rounds.
pub async fn run(config: LabConfig) -> anyhow::Result<LabReport> {
    let started = Instant::now();
    let dir = std::env::temp_dir().join(format!("bolide-lab-{}", std::process::id()));
    let identity = Identity::load_or_create(&dir.join("identity"))?;
    let server = Server::bind("127.0.0.1:0".parse()?, &identity)?;
    let settings = Settings {
        options: TableOptions { races: 50, echange_drill: config.echange, ..TableOptions::default() },
        circuit: "random:7".into(),
        bots: 0,
        bot_level: Default::default(),
    };
    let mut room = RoomConfig::new("LAB", settings, config.seed);
    room.countdown_ms = 600;
    room.turn_timeout_ms = 20_000;
    room.moment_timeout_ms = 5_000;
    let code = server.add_room::<bolide::game::Championship>(room, Journal::None, None)?;
    let addr = server.local_addr();
    let truth = Arc::new(Mutex::new(Truth::default()));
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut clocks = Vec::new();
    let mut sessions = Vec::new();
    let mut tasks = Vec::new();
    for i in 0..config.players {
        let (socket, clock) = flawed_laptop(&config, i, &mut rng)?;
        clocks.push(clock.clone());
        let answers = (i == 0).then(|| LiarAnswers::of(&config, clock.clone())).flatten();
        let conduct = Arc::new(Conduct::default());
        let options = ConnectOptions {
            clock: clock.clone(),
            socket: Some(socket),
            answers,
            conduct: Some(conduct.clone()),
            frame_lead_us: if i == 0 {
                (config.liar_frame_lead_ms * 1000.0).clamp(0.0, f64::from(u32::MAX)) as u32
            } else {
                0
            },
            ..ConnectOptions::default()
        };
        let session = Session::connect_with(addr, &code, &format!("lab{i}"), None, options).await?;
        // The truth is kept by seat: bot i must hold seat i.
        anyhow::ensure!(
            session.state().mirror.seat.map(|s| s.index()) == Some(i),
            "lab bot {i} got seat {:?}",
            session.state().mirror.seat
        );
        sessions.push((session, clock, conduct));
    }
    // Everyone is seated before anyone readies: the race starts with all the bots, the slow
    // paths included (a bot that readied early would start it with those already there).
    // And, like a table taking a moment to ready up, the host's first probe burst (1 s) has
    // passed: a first grab against a clock model seconds old gets clamped (seen in race 1,
    // round 1, before this wait; the host should hold the first cup itself — see the issue).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    for (i, (session, clock, conduct)) in sessions.into_iter().enumerate() {
        let (truth, config) = (truth.clone(), config.clone());
        let seed = rng.random();
        tasks.push(tokio::spawn(async move { lab_bot(i, (session, conduct), clock, truth, config, seed).await }));
    }
    // Play until enough rounds were seen.
    let limit = Instant::now() + Duration::from_secs(60 + config.rounds as u64 * 8);
    while truth.lock().expect("truth").rounds_seen <= config.rounds && Instant::now() < limit {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if tasks.iter().all(|t| t.is_finished()) {
            break;
        }
    }
    for t in &tasks {
        t.abort();
    }
    let log = server.fair_log.records::<bolide::Action>();
    let truth = std::mem::take(&mut *truth.lock().expect("truth"));
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(analyse(&config, &log, &truth, &clocks, server.started(), started.elapsed().as_secs_f64()))
}

fn analyse(
    config: &LabConfig,
    log: &[GrabRecord],
    truth: &Truth,
    clocks: &[Arc<LabClock>],
    host_start: Instant,
    elapsed: f64,
) -> LabReport {
    // The contested requests: each seat's first request of a round (all bots go for the same
    // best pawn first). Host order = commit order; naive order = arrival order.
    let mut rounds: BTreeMap<(u8, u16), Vec<(usize, &GrabRecord)>> = BTreeMap::new();
    for (i, r) in log.iter().enumerate().filter(|(_, r)| kind_of(r) == Some(Timed::Grab)) {
        let (race, round, _) = moment_of(r);
        let entry = rounds.entry((race, round)).or_default();
        if !entry.iter().any(|(_, e)| e.seat == r.seat) {
            entry.push((i, r));
        }
    }
    let mut tally = Tally::default();
    let mut pairs = 0;
    let (mut wrong, mut wrong_clamped, mut wrong_examples) = (0, 0, Vec::new());
    let liar = config.has_liar().then_some(0u8);
    let liar_seat = liar.unwrap_or(u8::MAX);
    let (mut contested, mut wrongful) = (0, 0);
    for (&(race, round), reqs) in &rounds {
        let with_truth: Vec<(usize, &GrabRecord, f64)> = reqs
            .iter()
            .filter_map(|(i, r)| truth.grabs.get(&(race, round, r.seat.0)).map(|t| (*i, *r, t.reaction_us)))
            .collect();
        for a in 0..with_truth.len() {
            for b in a + 1..with_truth.len() {
                let (ia, ra, ta) = with_truth[a];
                let (ib, rb, tb) = with_truth[b];
                // The liar's pairs are the liar's report, not the table's accuracy.
                if pawn_of(ra) != pawn_of(rb) || ta == tb || ra.seat.0 == liar_seat || rb.seat.0 == liar_seat {
                    continue;
                }
                let gap_ms = (ta - tb).abs() / 1000.0;
                let a_first = ta < tb;
                // Scored by what each request got: the commit order when both were judged;
                // when one was void (its seat got the last pawn by itself first), by who holds
                // the pawn — and not at all when a third seat does.
                let host_right = if ra.judged && rb.judged {
                    (ia < ib) == a_first
                } else {
                    let Some(pawn) = pawn_of(ra) else { continue };
                    match truth.holders.get(&(race, round, pawn)) {
                        Some(&s) if s == ra.seat.0 => a_first,
                        Some(&s) if s == rb.seat.0 => !a_first,
                        _ => continue,
                    }
                };
                let arrival_right = (ra.arrival_us < rb.arrival_us) == a_first;
                tally.add(gap_ms, host_right, arrival_right);
                if !host_right {
                    wrong += 1;
                    wrong_clamped += usize::from(ra.clamp.total_us() + rb.clamp.total_us() > 0);
                    if wrong_examples.len() < EXAMPLES && gap_ms >= 0.1 {
                        let (a, b) = (WrongSide::new(ra, ta), WrongSide::new(rb, tb));
                        wrong_examples.push(WrongPair { race, round, a, b });
                    }
                }
                pairs += 1;
            }
        }
        if let Some(l) = liar {
            let Some(&(_, lr, lt)) = with_truth.iter().find(|(_, r, _)| r.seat.0 == l) else { continue };
            let rivals: Vec<f64> =
                with_truth.iter().filter(|(_, r, _)| r.seat.0 != l && pawn_of(r) == pawn_of(lr)).map(|x| x.2).collect();
            if !rivals.is_empty() {
                contested += 1;
                if lr.granted && rivals.iter().any(|&t| t < lt) {
                    wrongful += 1;
                }
            }
        }
    }
    let buckets = tally.buckets();
    let resolution = score::resolution(&buckets);
    let commit = log
        .iter()
        .filter(|r| r.judged)
        .map(|r| (r.committed_us.saturating_sub(r.arrival_us)) as f64 / 1000.0)
        .collect();
    let clock_error = log
        .iter()
        .filter_map(|r| {
            let est = r.offset_est_us? as f64;
            let clock = clocks.get(r.seat.index())?;
            let host = r.committed_us as f64;
            let truth = clock.at(host_start + Duration::from_micros(r.committed_us)) - host;
            Some((est - truth).abs() / 1000.0)
        })
        .collect();
    // Klaxon: pairs of accepted calls, host order against the countdowns and the real instants.
    let (mut k_pairs, mut k_ok, mut k_real_ok) = (0, 0, 0);
    for (key, order) in &truth.klaxon_order {
        let Some(calls) = truth.klaxon_calls.get(key) else { continue };
        let call = |s: u8| calls.iter().find(|c| c.seat == s).map(|c| (c.at, c.lead_us));
        for a in 0..order.len() {
            for b in a + 1..order.len() {
                if let (Some((ta, lead_a)), Some((tb, lead_b))) = (call(order[a]), call(order[b])) {
                    k_pairs += 1;
                    k_ok += usize::from(lead_a >= lead_b);
                    k_real_ok += usize::from(ta <= tb);
                }
            }
        }
    }
    let share = |ok: usize| (k_pairs > 0).then(|| ok as f64 / k_pairs as f64);
    let ms = |us: u64| us as f64 / 1000.0;
    let honest_clamps = log
        .iter()
        .filter(|r| r.seat.0 != liar_seat && r.clamp.total_us() > 0)
        .take(EXAMPLES)
        .map(|r| ClampNote {
            race: moment_of(r).0,
            round: moment_of(r).1,
            moment: moment_of(r).2,
            seat: r.seat.0,
            clamped_ms: ms(r.clamp.total_us()),
            input_ms: ms(r.clamp.input_us),
            shown_ms: ms(r.clamp.shown_us),
            beat_ms: ms(r.clamp.beat_us),
            arrival_after_reveal_ms: r.arrival_us.saturating_sub(r.reveal_us) as f64 / 1000.0,
            reaction_ms: r.reaction_us as f64 / 1000.0,
        })
        .collect();
    let honest_clamped = log.iter().filter(|r| r.seat.0 != liar_seat && r.clamp.total_us() > 0).count();
    let grab_reactions = truth.grabs.iter().map(|(k, t)| (*k, t.reaction_us));
    let photo_error = photo_finish_error(grab_reactions, &truth.photos, liar_seat);
    let liar_clamps = log.iter().filter(|r| r.seat.0 == liar_seat).map(|r| ms(r.clamp.total_us())).collect();
    let kept = rounds
        .iter()
        .filter_map(|(&(race, round), reqs)| {
            let (_, first) = reqs.iter().find(|(_, r)| r.seat.0 == liar_seat)?;
            let truth = truth.grabs.get(&(race, round, liar_seat))?;
            Some((truth.reaction_us - first.reaction_us as f64) / 1000.0)
        })
        .collect();
    let leads = |liar: bool| -> Vec<f64> {
        truth.reveal_leads.iter().filter(|(seat, _)| (*seat == liar_seat) == liar).map(|(_, us)| us / 1000.0).collect()
    };
    LabReport {
        seed: config.seed,
        rounds: rounds.len(),
        pairs,
        buckets,
        resolution_ms: resolution,
        commit_delay_ms: percentiles(commit),
        owd_max_ms: config.latency_ms.iter().chain(&config.up_latency_ms).cloned().fold(0.0, f64::max)
            + config.jitter_ms
            + if config.jitter_dist.beacons() { socket::BEACON_US as f64 / 1000.0 } else { 0.0 },
        clock_error_ms: percentiles(clock_error),
        photo_finish_reactions: photo_error.len(),
        photo_finish_error_ms: percentiles(photo_error),
        klaxon: KlaxonReport { pairs: k_pairs, accuracy: share(k_ok), real_time_accuracy: share(k_real_ok) },
        echange: echange_report(log, truth, liar_seat),
        liar: LiarReport {
            reveal_lead_ms: percentiles(leads(true)),
            honest_reveal_lead_ms: percentiles(leads(false)),
            claimed_ms: config.liar_ms + config.liar_shown_ms,
            wrongful_wins: wrongful,
            contested,
            honest_clamped,
            liar_clamped_ms_p50: percentiles(liar_clamps).p50,
            kept_ms: percentiles(kept),
        },
        ties: log.iter().filter(|r| r.tie).count(),
        wrong_pairs: wrong,
        wrong_pairs_clamped: wrong_clamped,
        wrong_examples,
        untimed_requests: log.iter().filter(|r| !r.timed).count(),
        untimed_refused: truth.untimed_refused,
        honest_clamps,
        injection_lateness_us: percentiles(Delayer::get().lateness_us().into_iter().map(f64::from).collect()),
        honest_clamped,
        conditions: config.clone(),
        elapsed_s: elapsed,
    }
}

/// One lab bot: readies, calls Klaxon a drawn time before the lift on its countdown in the
/// first round of each race, shows the reservoirs at the scheduled instant, grabs the best pawn
/// after its drawn reaction, declares its Échange the same way, and plays the rest of the round
/// like a strategic bot, at once.
async fn lab_bot(
    me: usize,
    (mut session, conduct): (Session, Arc<Conduct>),
    clock: Arc<LabClock>,
    truth: Arc<Mutex<Truth>>,
    config: LabConfig,
    seed: u64,
) -> anyhow::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut shown: Option<(u64, Instant)> = None;
    let mut grab_at: Option<Instant> = None;
    // The Échange window: when this bot showed it, and when its hand declares.
    let mut echange_shown: Option<(u64, Instant)> = None;
    let mut echange_at: Option<Instant> = None;
    // The Klaxon call: when this bot's hand calls, and the lift on its countdown.
    let mut klaxon_at: Option<(Instant, u64)> = None;
    let mut answered = None;
    let mut grabbed_first = false;
    // The seq of this bot's latest grab request (a refusal of it means a faster hand).
    let mut grab_seq: Option<u32> = None;
    // The pawn this hand goes for, chosen when the reservoirs appear (a hand does not look
    // again while it moves).
    let mut target: Option<Pawn> = None;
    let far_future = Instant::now() + Duration::from_secs(86_400);
    let liar_us = if me == 0 { config.liar_ms * 1000.0 } else { 0.0 };
    let liar_shown_us = if me == 0 { config.liar_shown_ms * 1000.0 } else { 0.0 };
    // The beat a timed request takes along would tell the host when the liar's request
    // really left: a liar keeps that to itself.
    conduct.keeps_stalls.store(liar_us != 0.0 || liar_shown_us != 0.0, Ordering::Relaxed);
    // Inputs stamped and waiting for their send (`--send-delay-ms`): (when, what).
    let mut stalled: Vec<(Instant, Stalled)> = Vec::new();
    // This laptop's screen refreshes at `--frame-hz`, from a phase of its own.
    let frame = (config.frame_hz > 0.0).then(|| {
        let period = Duration::from_secs_f64(1.0 / config.frame_hz);
        (Instant::now() + period.mul_f64(rng.random_range(0.0..1.0)), period)
    });
    loop {
        let view = session.state().mirror.view.clone();
        let phase = view.as_ref().map(|v| v.phase);
        // A silent liar says nothing during the grab until its (lying) request has left: no
        // beat of its own can then contradict the claim.
        let unsent = !grabbed_first
            || stalled.iter().any(|s| matches!(s.1, Stalled::Timed { action: Action::TakePawn { .. }, .. }));
        // A liar faking a bad path: a silence early in each Échange window, beats on each side.
        let fake_silence =
            echange_shown.filter(|_| liar_us > 0.0 && config.liar_fake_silence_ms > 0.0).map(|(_, t)| {
                let from = t + Duration::from_millis(20);
                (from, from + Duration::from_secs_f64(config.liar_fake_silence_ms / 1000.0))
            });
        let faking = fake_silence.is_some_and(|(from, to)| (from..to).contains(&Instant::now()));
        let hush_from = shown.map(|(_, t)| t + Duration::from_secs_f64(config.liar_hush_after_ms / 1000.0));
        let hushing = hush_from.is_none_or(|from| Instant::now() >= from);
        let hushed =
            liar_us > 0.0 && (config.liar_silent && phase == Some(PhaseView::Grab) && unsent && hushing || faking);
        conduct.hushed.store(hushed, Ordering::Relaxed);
        let fake_edges = fake_silence
            .into_iter()
            .flat_map(|(from, to)| [from, to])
            .chain(hush_from.filter(|_| liar_us > 0.0 && config.liar_silent))
            .filter(|t| *t > Instant::now());
        let timers = grab_at.into_iter().chain(klaxon_at.map(|k| k.0)).chain(echange_at).chain(fake_edges);
        let wake = timers.chain(stalled.iter().map(|s| s.0)).min().unwrap_or(far_future);
        let msg = tokio::select! {
            msg = session.next() => Some(msg?),
            _ = tokio::time::sleep_until(wake.into()) => None,
        };
        // Timed actions: spin the last stretch so the instants are sharp.
        if let Some((at, end_us)) = klaxon_at.filter(|(at, _)| Instant::now() + Duration::from_millis(2) >= *at) {
            // One reading serves both the truth and the bot's stamp (a preemption between two
            // readings would be the lab's own error, not the host's).
            let call = spin_to(at);
            let now_us = clock.at(call) as u64;
            klaxon_at = None;
            if let Some(v) = &view {
                let lead_us = end_us as f64 - now_us as f64;
                let calls = &mut truth.lock().expect("truth").klaxon_calls;
                calls.entry((v.race, v.round)).or_default().push(TrueCall { seat: me as u8, at: call, lead_us });
            }
            session.unsent.stamp(now_us);
            stalled.push((call + stall(&config, &mut rng), Stalled::Klaxon { at_us: now_us }));
        }
        // The client core knows when its pilot's hand moved (a liar lies only on the wire).
        let liar = |action, shown_us, input_t: Instant| {
            let input_us = clock.at(input_t) as u64;
            let claimed_us = (input_us as f64 - liar_us * clock.rate(input_t)).max(shown_us as f64) as u64;
            // A later `shown`, never after the input it claims (the host refuses that).
            let shown_us = ((shown_us as f64 + liar_shown_us * clock.rate(input_t)) as u64).min(claimed_us);
            session.unsent.stamp(input_us);
            Stalled::Timed { action, shown_us, input_us, claimed_us }
        };
        if let (Some(at), Some((shown_us, shown_t)), Some(v)) = (grab_at, shown, &view)
            && Instant::now() + Duration::from_millis(2) >= at
        {
            let input_t = spin_to(at);
            grab_at = None;
            if let Some(pawn) = target.take().or_else(|| best_pawn(v, &session.state().mirror.legal)) {
                if !grabbed_first {
                    grabbed_first = true;
                    let reaction_us = input_t.duration_since(shown_t).as_micros() as f64;
                    truth.lock().expect("truth").grabs.insert((v.race, v.round, me as u8), TrueGrab { reaction_us });
                }
                let grab = liar(Action::TakePawn { pawn }, shown_us, input_t);
                stalled.push((input_t + stall(&config, &mut rng), grab));
            }
        }
        if let (Some(at), Some((shown_us, shown_t)), Some(v)) = (echange_at, echange_shown, &view)
            && Instant::now() + Duration::from_millis(2) >= at
        {
            let input_t = spin_to(at);
            echange_at = None;
            if let Some(action) = best_echange(v, &session.state().mirror.legal) {
                let reaction_us = input_t.duration_since(shown_t).as_micros() as f64;
                truth.lock().expect("truth").echanges.insert((v.race, v.round, me as u8), reaction_us);
                stalled.push((input_t + stall(&config, &mut rng), liar(action, shown_us, input_t)));
            }
        }
        // Stamped inputs whose stall is over leave, in order.
        while let Some(i) = stalled.iter().position(|(at, _)| *at <= Instant::now()) {
            match stalled.remove(i).1 {
                Stalled::Klaxon { at_us } => {
                    session.act_at(Action::Klaxon, at_us).await?;
                }
                Stalled::Timed { action, shown_us, input_us, claimed_us } => {
                    let seq = session.timed(action, shown_us, claimed_us).await?;
                    if matches!(action, Action::TakePawn { .. }) {
                        grab_seq = Some(seq);
                    }
                    session.unsent.sent(input_us);
                }
            }
        }
        let Some(msg) = msg else { continue };
        match &msg {
            // Ready once: every lobby update is not a reason to say it again (the host closes a
            // connection past 50 messages a second).
            ServerMsg::Lobby(l)
                if !l.started && l.seats.iter().any(|s| Some(s.seat) == session.state().mirror.seat && !s.ready) =>
            {
                session.send(&ClientMsg::Ready(true)).await?
            }
            ServerMsg::Finished { .. } => return Ok(()),
            ServerMsg::ActRefused { error: RuleError::Untimed, .. } => {
                truth.lock().expect("truth").untimed_refused += 1;
            }
            ServerMsg::ActRefused { seq, .. } if Some(*seq) == grab_seq => {
                // A faster hand took it: the next best, at once. (Only for our own grab: a
                // refused late Klaxon call arriving after the reveal is no reason to grab.)
                let next = {
                    let state = session.state();
                    let m = &state.mirror;
                    m.view.as_ref().filter(|v| v.phase == PhaseView::Grab).and_then(|v| best_pawn(v, &m.legal))
                };
                if let (Some(pawn), Some((shown_us, _))) = (next, shown) {
                    let input = clock.now_us();
                    grab_seq = Some(session.grab(pawn, shown_us, input).await?);
                }
            }
            ServerMsg::Update { events, show_at_us, view, countdown_end_us, .. } => {
                for e in events {
                    match e {
                        Event::RoundStarted { round, .. } => {
                            shown = None;
                            (echange_shown, echange_at) = (None, None);
                            grabbed_first = false;
                            if me == 0 {
                                truth.lock().expect("truth").rounds_seen += 1;
                            }
                            // Klaxon in each race's first round, a drawn time before the lift on
                            // this laptop's countdown (as a pilot watching it calls).
                            let holds_klaxon =
                                session.state().mirror.seat.is_some_and(|s| view.car(s).atouts.contains(Atout::Klaxon));
                            if let (1, true, Some(end_us)) = (*round, holds_klaxon, *countdown_end_us) {
                                let call_us = end_us.saturating_sub(rng.random_range(100_000..400_000));
                                let wait = call_us.saturating_sub(clock.now_us()) as f64 / clock.rate(Instant::now());
                                klaxon_at = Some((Instant::now() + Duration::from_micros(wait as u64), end_us));
                            }
                        }
                        Event::PhotoFinish(photo) if me == 0 => {
                            let key = (view.race, view.round);
                            let mut truth = truth.lock().expect("truth");
                            let photos = match photo.moment {
                                Timed::Grab => &mut truth.photos,
                                Timed::Echange => &mut truth.echange_photos,
                            };
                            photos.insert(key, photo.reactions.clone());
                        }
                        Event::PawnTaken { seat, pawn, .. } if me == 0 => {
                            truth.lock().expect("truth").holders.insert((view.race, view.round, *pawn), seat.0);
                        }
                        Event::KlaxonCalled { seat, .. } if me == 0 => {
                            truth
                                .lock()
                                .expect("truth")
                                .klaxon_order
                                .entry((view.race, view.round))
                                .or_default()
                                .push(seat.0);
                        }
                        Event::ReservoirsRevealed { .. } => {
                            if let Some(at) = *show_at_us {
                                let lead = at as f64 - clock.now_us() as f64;
                                truth.lock().expect("truth").reveal_leads.push((me as u8, lead));
                            }
                            let peeks = me == 0 && config.liar_peeks;
                            let (at_us, t) = if peeks {
                                peek(&mut session, &clock, (view, Timed::Grab), *show_at_us)
                            } else {
                                show(&mut session, &clock, (view, Timed::Grab), *show_at_us, frame).await?
                            };
                            shown = Some((at_us, t));
                            target = best_pawn(view, &session.state().mirror.legal);
                            grab_at = Some(t + Duration::from_micros(draw_reaction(&config, &mut rng)));
                        }
                        Event::EchangeWindow { seats } => {
                            let (at_us, t) =
                                show(&mut session, &clock, (view, Timed::Echange), *show_at_us, frame).await?;
                            echange_shown = Some((at_us, t));
                            if session.state().mirror.seat.is_some_and(|s| seats.contains(&s)) {
                                echange_at = Some(t + Duration::from_micros(draw_reaction(&config, &mut rng)));
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        // Everything but the grab and Klaxon: a strategic bot, at once.
        let decided = {
            let state = session.state();
            let (Some(v), legal) = (&state.mirror.view, &state.mirror.legal) else { continue };
            if legal.is_empty() || matches!(v.phase, PhaseView::CupDown | PhaseView::Grab | PhaseView::Echange) {
                continue;
            }
            let key = (v.race, v.round, format!("{:?}{:?}", v.phase, v.turn), legal.clone());
            if answered.as_ref() == Some(&key) {
                continue;
            }
            answered = Some(key);
            BotLevel::Strategic.decide(v, legal, &mut rng)
        };
        if let Some(action) = decided {
            session.act(action).await?;
        }
    }
}

/// |published − true| reaction, ms, for every honest `(race, round, seat)` a photo finish of
/// `photos` reported.
fn photo_finish_error(
    truths: impl Iterator<Item = ((u8, u16, u8), f64)>,
    photos: &BTreeMap<(u8, u16), Vec<Option<u32>>>,
    liar_seat: u8,
) -> Vec<f64> {
    truths
        .filter(|((_, _, seat), _)| *seat != liar_seat)
        .filter_map(|((race, round, seat), t)| {
            let published = photos.get(&(race, round))?.get(usize::from(seat)).copied().flatten()?;
            Some((f64::from(published) - t).abs() / 1000.0)
        })
        .collect()
}

/// The Échange windows: every pair of judged declarations in a window, host order (the order
/// the host applied them) and arrival order against the true reactions.
fn echange_report(log: &[GrabRecord], truth: &Truth, liar_seat: u8) -> EchangeReport {
    // (race, round) → each seat's first declaration: (index in the log, record, true reaction).
    type Declared<'a> = Vec<(usize, &'a GrabRecord, f64)>;
    let mut windows: BTreeMap<(u8, u16), Declared> = BTreeMap::new();
    for (i, r) in log.iter().enumerate().filter(|(_, r)| kind_of(r) == Some(Timed::Echange) && r.judged) {
        let (race, round, _) = moment_of(r);
        let Some(&t) = truth.echanges.get(&(race, round, r.seat.0)) else { continue };
        let window = windows.entry((race, round)).or_default();
        if r.seat.0 != liar_seat && !window.iter().any(|(_, e, _)| e.seat == r.seat) {
            window.push((i, r, t));
        }
    }
    let mut tally = Tally::default();
    let mut wrong_examples = Vec::new();
    let contender = |i: usize, r: &GrabRecord, t: f64| Contender { true_us: t, host_rank: i, arrival_us: r.arrival_us };
    for (&(race, round), declared) in &windows {
        for (a, &(ia, ra, ta)) in declared.iter().enumerate() {
            for &(ib, rb, tb) in &declared[a + 1..] {
                let Some((gap_ms, right, arrival_right)) = judge(&contender(ia, ra, ta), &contender(ib, rb, tb)) else {
                    continue;
                };
                if !right && gap_ms >= 0.1 && wrong_examples.len() < EXAMPLES {
                    wrong_examples.push(WrongPair {
                        race,
                        round,
                        a: WrongSide::new(ra, ta),
                        b: WrongSide::new(rb, tb),
                    });
                }
                tally.add(gap_ms, right, arrival_right);
            }
        }
    }
    let (n, ok, arr) = tally.totals();
    let truths = truth.echanges.iter().map(|(k, t)| (*k, *t));
    let photo_error = photo_finish_error(truths, &truth.echange_photos, liar_seat);
    EchangeReport {
        windows: windows.len(),
        pairs: n,
        accuracy: (n > 0).then(|| ok as f64 / n as f64),
        ci95: (n > 0).then(|| wilson(ok, n)),
        arrival_accuracy: (n > 0).then(|| arr as f64 / n as f64),
        buckets: tally.buckets(),
        photo_finish_reactions: photo_error.len(),
        photo_finish_error_ms: percentiles(photo_error),
        wrong_examples,
    }
}

/// An input stamped and not sent yet (`--send-delay-ms`).
enum Stalled {
    Klaxon {
        at_us: u64,
    },
    /// A grab or an Échange declaration (`claimed_us`: what the liar says instead of `input_us`).
    Timed {
        action: Action,
        shown_us: u64,
        input_us: u64,
        claimed_us: u64,
    },
}

/// Waits for a timed moment's scheduled instant (`show_at_us`, this bot's clock) and, on a
/// screen (`frame`: first frame, period), for the next frame, then tells the session it showed
/// `moment` of `view`'s round; returns the instant it showed, on the bot's clock and in real time.
async fn show(
    session: &mut Session,
    clock: &LabClock,
    (view, moment): (&bolide::PlayerView, Timed),
    show_at_us: Option<u64>,
    frame: Option<(Instant, Duration)>,
) -> Result<(u64, Instant), ClientError> {
    // Beating meanwhile, as a laptop's link does while its screen waits for the instant.
    if let Some(at) = show_at_us {
        session.wait_until_us(at).await?;
    }
    // On a screen, the moment appears with the next frame.
    if let Some((first, period)) = frame {
        let since = Instant::now().saturating_duration_since(first).as_secs_f64();
        let next = first + period.mul_f64((since / period.as_secs_f64()).ceil());
        let coarse = next.saturating_duration_since(Instant::now());
        tokio::time::sleep(coarse.saturating_sub(Duration::from_millis(2))).await;
        while Instant::now() < next {
            std::hint::spin_loop();
        }
    }
    let t = Instant::now();
    let at_us = clock.at(t) as u64;
    session.state().show(Shown { moment: moment.name(view.race, view.round), at_us });
    Ok((at_us, t))
}

/// What a peeking laptop does with a moment: it looks at once, and tells the host (and its own
/// beats) it showed it at the instant the update names, if that is later. The instant it
/// really looked is the truth its reaction is drawn from.
fn peek(
    session: &mut Session,
    clock: &LabClock,
    (view, moment): (&bolide::PlayerView, Timed),
    show_at_us: Option<u64>,
) -> (u64, Instant) {
    let t = Instant::now();
    let at_us = (clock.at(t) as u64).max(show_at_us.unwrap_or(0));
    session.state().show(Shown { moment: moment.name(view.race, view.round), at_us });
    (at_us, t)
}

/// The lab liar's clock answers (`--liar-hold-share`, `--liar-ack-delay-ms`): a share held
/// back, and every one stamped as late as its packets are held, so the probes do not show
/// what QUIC sees.
struct LiarAnswers {
    clock: Arc<LabClock>,
    share: f64,
    hold: Duration,
    late_us: u64,
    rng: Mutex<ChaCha8Rng>,
}

impl LiarAnswers {
    fn of(config: &LabConfig, clock: Arc<LabClock>) -> Option<Arc<dyn bolide_client::net::ProbeAnswers>> {
        (config.liar_hold_share > 0.0 || config.liar_ack_delay_ms > 0.0).then(|| {
            Arc::new(LiarAnswers {
                clock,
                share: config.liar_hold_share.clamp(0.0, 1.0),
                hold: Duration::from_secs_f64(config.liar_hold_ms.max(0.0) / 1000.0),
                late_us: (config.liar_ack_delay_ms.max(0.0) * 1000.0) as u64,
                rng: Mutex::new(ChaCha8Rng::seed_from_u64(config.seed ^ 0x11A2)),
            }) as Arc<dyn bolide_client::net::ProbeAnswers>
        })
    }
}

impl bolide_client::net::ProbeAnswers for LiarAnswers {
    fn answer(&self, t1: u64, t2: u64) -> (Duration, u64, u64) {
        let held = self.share > 0.0 && self.rng.lock().expect("rng").random_bool(self.share);
        let late = (self.late_us as f64 * self.clock.rate(Instant::now())) as u64;
        (if held { self.hold } else { Duration::ZERO }, t1, t2 + late)
    }
}

/// Spins the last stretch to `at`, so that a timed input is sharp; the instant it happened.
fn spin_to(at: Instant) -> Instant {
    while Instant::now() < at {
        std::hint::spin_loop();
    }
    Instant::now()
}

/// The stall between stamping an input and sending it: uniform in `0..--send-delay-ms`.
fn stall(config: &LabConfig, rng: &mut ChaCha8Rng) -> Duration {
    if config.send_delay_ms <= 0.0 {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(rng.random_range(0.0..config.send_delay_ms) / 1000.0)
}

/// In the Échange window every bot wants the largest reservoir held by someone else (ties:
/// the lowest seat), or keeps its own if it is the largest: the first to choose gets it.
fn best_echange(view: &bolide::PlayerView, legal: &[Action]) -> Option<Action> {
    let reservoir = |seat: Seat| view.car(seat).pawn.and_then(|p| view.pawns.iter().find(|v| v.pawn == p)?.reservoir);
    let best = legal
        .iter()
        .filter_map(|a| if let Action::Echange { with } = a { Some(*with) } else { None })
        .max_by_key(|s| (reservoir(*s), std::cmp::Reverse(s.0)));
    let mine = view.viewer.and_then(reservoir);
    match best {
        Some(with) if reservoir(with) > mine => Some(Action::Echange { with }),
        _ => legal.contains(&Action::KeepPawn).then_some(Action::KeepPawn),
    }
}

/// Every bot wants the largest reservoir still free (ties: the lowest pawn): contests.
/// (The liar's claim and the drawn reactions decide who gets it.)
fn best_pawn(view: &bolide::PlayerView, legal: &[Action]) -> Option<Pawn> {
    match <bolide::Bolide as bolide_client::bot::BotGame>::contend(view, legal)? {
        Action::TakePawn { pawn } => Some(pawn),
        _ => None,
    }
}

/// A reaction around the mean, its distance to the mean log-uniform from 10 µs to the spread:
/// every gap bucket gets pairs.
fn draw_reaction(config: &LabConfig, rng: &mut ChaCha8Rng) -> u64 {
    let spread = config.reaction_spread_ms.max(0.02) * 1000.0;
    let magnitude = 10f64.powf(rng.random_range(1.0f64..spread.log10()));
    let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
    (config.reaction_mean_ms * 1000.0 + sign * magnitude).max(1_000.0) as u64
}

/// The report as a table for a terminal.
/// Accuracy against gap for both orderings, as an SVG a person can look at.
pub fn svg(report: &LabReport) -> String {
    let title = format!("Grab order accuracy by reaction gap ({} pairs, {} rounds)", report.pairs, report.rounds);
    score::svg(&title, &report.buckets)
}

/// The report as a table for a terminal.
pub fn table(report: &LabReport) -> String {
    let mut out = String::new();
    let pct = |x: Option<f64>| x.map_or("   —   ".to_string(), |a| format!("{:6.2} %", a * 100.0));
    out.push_str(&format!("{} rounds, {} contested pairs, seed {}\n", report.rounds, report.pairs, report.seed));
    out.push_str(&score::bucket_rows(&report.buckets));
    out.push_str(&format!(
        "resolution {} ms; commit delay p50 {:.1} ms, p99 {:.1} ms, p99.9 {:.1} ms (owd_max {:.1} ms)\n\
         clock error p50 {:.2} ms, p99 {:.2} ms; photo finish error p50 {:.2} ms, p99 {:.2} ms ({} reactions)\n\
         Klaxon order {} over {} pairs (by real instants {}); ties {}; honest clamped {}\n",
        report.resolution_ms.map_or("—".into(), |r| r.to_string()),
        report.commit_delay_ms.p50,
        report.commit_delay_ms.p99,
        report.commit_delay_ms.p999,
        report.owd_max_ms,
        report.clock_error_ms.p50,
        report.clock_error_ms.p99,
        report.photo_finish_error_ms.p50,
        report.photo_finish_error_ms.p99,
        report.photo_finish_reactions,
        pct(report.klaxon.accuracy),
        report.klaxon.pairs,
        pct(report.klaxon.real_time_accuracy),
        report.ties,
        report.honest_clamped,
    ));
    let e = &report.echange;
    if e.windows > 0 {
        let ci = e.ci95.map_or("—".to_string(), |(lo, hi)| format!("{:.2}–{:.2} %", lo * 100.0, hi * 100.0));
        let close = e.buckets.iter().filter(|b| b.gap_ms.0 < 1.0).map(|b| b.pairs).sum::<usize>();
        out.push_str(&format!(
            "Échange: {} windows, {} pairs ({close} under 1 ms): fair host {} ({ci}), arrival {}; \
             photo finish error p50 {:.2} ms, p99 {:.2} ms\n",
            e.windows,
            e.pairs,
            pct(e.accuracy),
            pct(e.arrival_accuracy),
            e.photo_finish_error_ms.p50,
            e.photo_finish_error_ms.p99,
        ));
        let by_gap: Vec<String> = e
            .buckets
            .iter()
            .filter(|b| b.pairs > 0)
            .map(|b| format!("{} ms {} ({})", score::bucket_label(b), pct(b.accuracy).trim(), b.pairs))
            .collect();
        out.push_str(&format!("Échange by gap: {}\n", by_gap.join(" · ")));
    }
    out.push_str(&format!(
        "injected delays released late by p50 {:.0} µs, p99 {:.0} µs, p99.9 {:.0} µs\n",
        report.injection_lateness_us.p50, report.injection_lateness_us.p99, report.injection_lateness_us.p999
    ));
    if report.untimed_requests + report.untimed_refused > 0 {
        out.push_str(&format!(
            "leads: {} verdicts on the host's clock (stand-ins), {} plain picks refused during the grab\n",
            report.untimed_requests, report.untimed_refused
        ));
    }
    let (lead, honest) = (&report.liar.reveal_lead_ms, &report.liar.honest_reveal_lead_ms);
    out.push_str(&format!(
        "reveal reached the honest bots p50 {:.2} ms, p99 {:.2} ms before its instant",
        honest.p50, honest.p99
    ));
    if report.conditions.has_liar() {
        out.push_str(&format!("; the liar p50 {:.2} ms, p99 {:.2} ms", lead.p50, lead.p99));
    }
    out.push('\n');
    if report.conditions.has_liar() {
        out.push_str(&format!(
            "liar claims {} ms: {} wrongful wins in {} contests; bounds took back {:.1} ms at the median, \
             it kept p50 {:.1} ms, p99 {:.1} ms\n",
            report.liar.claimed_ms,
            report.liar.wrongful_wins,
            report.liar.contested,
            report.liar.liar_clamped_ms_p50,
            report.liar.kept_ms.p50,
            report.liar.kept_ms.p99,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_clock_steps_and_slews_but_stays_one_function_of_real_time() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let clock = LabClock::new(1e9, 1e-4, 5_000.0, 3e-4, &mut rng);
        assert!(clock.segments.len() > 100, "faults about every 30 s over four hours");
        for w in clock.segments.windows(2) {
            let ((from, value, rate), (next, after, _)) = (w[0], w[1]);
            let jump = after - (value + (next - from) * rate);
            assert!((jump.abs() - 5_000.0).abs() < 1e-3, "a step of ±5 ms: {jump}");
            assert!((rate - 1.0 - 1e-4).abs() <= 3e-4 + 1e-12, "a slew within ±300 ppm: {rate}");
        }
        let plain = LabClock::new(1e9, 1e-4, 0.0, 0.0, &mut rng);
        assert_eq!(plain.segments.len(), 1);
    }
}
