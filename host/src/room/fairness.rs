//! The room's fairness state, with one owner (fairness.md): each connection's clock model,
//! what its beats vouched for (§7), the calls under a countdown (Bolide's Klaxon) (§6) and the timed moment
//! now open — the grab (§2–§5) or the Échange window (§6) — with its arbiter. It knows seats
//! and connections, never the engine: the room asks it for decisions ([`Fairness::decide`])
//! and applies them (`room::timed`). The arithmetic itself is in `crate::fair`.

use super::ConnId;
use super::moment_log::{ClosedBy, SeatLine};
use crate::fair::{
    Allowance, Asked, CallOrder, ClockModel, LogLine, MomentArbiter, Request, Sample, Slack, Verdict, Vouched,
    bound_claim,
};
use bolide_table::wire::{MAX_FRAME_LEAD_US, Shown};
use bolide_table::{MOMENT_REQUESTS, Release, Seat, Seats, TIE_US, TableRefusal};
use std::collections::BTreeMap;

/// How long before the reveal instant the reservoirs leave for a client, on top of its
/// one-way delay bound (µs): peeking early is worth at most this.
pub const REVEAL_MARGIN_US: u64 = 2_000;
/// The least time between sending the Échange window and its opening (µs): the update leaves
/// at once and is held by each client until the opening, so a packet lost on the way is
/// retransmitted in time (a QUIC probe timeout on a LAN is well under this). Seeing the
/// window early gains nothing: what it shows — who holds which pawn — was public already.
pub const PUBLIC_LEAD_US: u64 = 150_000;
/// A client that sends nothing for this long (plus the slowest pilot's delay bound, and its
/// own longest pause if it pauses as a habit: `Slack::quiet_wait`) no longer holds a moment.
pub const SILENCE_US: u64 = 250_000;
/// A clock model with fewer probes than this is cold: the next countdown waits [`WARM_UP_US`]
/// longer (the host's first-second burst brings 20).
pub const WARM_SAMPLES: usize = 12;
pub const WARM_UP_US: u64 = 1_000_000;
/// Warm-up waits one seat may cause in a championship.
pub const WARM_UPS: u8 = 3;
/// How long a moment that ends with its time stays open past its length at the latest
/// (1000 Bornes' M-15.7, its G): room for the last frame to be drawn and the LAN's delay, so a
/// laptop whose own time has not run out is never cut short by a silence.
pub const WINDOW_GRACE_US: u64 = 1_000_000;
/// Assumed path bound for a client the host has no probe from yet (µs).
pub const UNKNOWN_OWD_US: u64 = 20_000;
/// How far past what a laptop's clock can have read a claimed time may go before it is no
/// time at all but a made-up number, refused (µs): far beyond any clock model's error, so an
/// honest laptop never meets it, and small beside a reaction's 64-bit range.
pub const IMPLAUSIBLE_US: u64 = 1_000_000;

/// What the bounds added to a claim (µs), by the bound that added it.
/// A laptop's path as the host's models see it (a field run's report), µs.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FieldPath {
    /// The least one-way delay the clock probes saw, and how far delays spread above it.
    pub owd_floor_us: u64,
    pub jitter_us: u64,
    /// The bound a claim is held to: the floor plus the jitter.
    pub owd_max_us: u64,
    /// The laptop's clock rate against the host's, as the model fits it.
    pub drift_ppm: f64,
    pub clock_samples: usize,
    /// Silences its beats showed in the last minute, and the longest.
    pub silences: usize,
    pub longest_silence_us: u64,
}

/// A heartbeat as its laptop told it ([`bolide_table::wire::ClientMsgOf::Heartbeat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beat {
    /// Its clock when it left (or the latest it vouches for).
    pub now_us: u64,
    /// When it showed the moment it names.
    pub shown: Option<Shown>,
    /// The `seq` of the last action it sent.
    pub acts: u32,
    /// It promised the next within [`bolide_table::wire::BEAT_US`].
    pub dense: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clamp {
    /// The input was earlier than its arrival allows (fairness.md §5).
    pub input_us: u64,
    /// `shown` was later than the moment could have appeared (§5).
    pub shown_us: u64,
    /// The input was earlier than the laptop's own last beat that did not count it (§7).
    pub beat_us: u64,
}

impl Clamp {
    pub fn total_us(&self) -> u64 {
        self.input_us + self.shown_us + self.beat_us
    }
}

/// How far inside each bound a claim stayed (µs, host time base; 0 where it was clamped): how
/// close an honest laptop came to being bounded, which a field run's count of clamps alone
/// cannot tell until it happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Headroom {
    /// Its input after the earliest its arrival allows (§5).
    pub input_us: u64,
    /// Its `shown` before the latest the moment could have appeared (§5).
    pub shown_us: u64,
    // Not its own last beat's (§7): a laptop beats just before it sends a request, vouching
    // for everything up to the request's input — no room at all, and none needed.
}

/// One timed moment, from its opening to its last decision; `A` is the game's action.
struct Moment<A> {
    /// The game's name for it (`Step::Timed`'s `moment`).
    id: u64,
    /// Host instant it is shown everywhere (the reveal, or the Échange window's opening).
    opens: u64,
    /// When its news may leave the host.
    release: Release,
    arbiter: MomentArbiter<A>,
    /// When each connection's update left the host.
    sent: BTreeMap<ConnId, u64>,
    /// Every request the arbiter was given, in arrival order.
    asked: Vec<Asked<A>>,
    /// What the bounds added to each request (a seat's, by its `seq`: a seat that lost a
    /// pawn asks again in the same moment), how far inside them it stayed, and whether it
    /// carried its own timing.
    clamped: BTreeMap<(Seat, u32), (Clamp, Headroom, bool)>,
    /// The moment's length, when it ends with its time (M-15.3).
    window_us: Option<u64>,
    /// Seats whose "shown" and whose "done" are logged (M-15.14).
    shown: std::collections::BTreeSet<Seat>,
    done: std::collections::BTreeSet<Seat>,
    /// Why it closes, once the room has decided to close it by time.
    closing: Option<ClosedBy>,
}

/// A decision the room applies.
pub(super) enum Decision<A> {
    /// The countdown has ended and every call before its end is in: apply these calls in
    /// this order (Bolide's Klaxon, B-4.6), then tell the game its time is up.
    Calls(Vec<(Seat, A, u32)>),
    /// A request of the open moment, final: apply it. `seq` is the client's, for a refusal.
    Verdict { verdict: Verdict<A>, seq: u32 },
}

/// A timed request as the client sent it: `(shown, input)` on its own clock.
pub(super) struct Claim<A> {
    pub conn: ConnId,
    pub seat: Seat,
    pub seq: u32,
    pub action: A,
    pub shown_us: u64,
    pub input_us: u64,
}

/// One arbitrated request, for the fairness lab and the log; `A` is the game's action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FairRecord<A> {
    /// The game's name for the moment (Bolide's: `Timed::name`, its race, round and kind).
    pub moment: u64,
    /// The request's `seq` on its connection (0 for a seat the host plays).
    pub seq: u32,
    pub seat: Seat,
    /// What was asked (in Bolide: a `TakePawn` in the grab; an `Echange` or a `KeepPawn` in
    /// the Échange window).
    pub action: A,
    /// Reaction after drift correction and bounds (µs, host time base).
    pub reaction_us: u64,
    /// What the bounds added.
    pub clamp: Clamp,
    /// How far inside the bounds it stayed.
    pub headroom: Headroom,
    pub arrival_us: u64,
    pub committed_us: u64,
    pub tie: bool,
    /// Whether the engine took it (a grab: the pawn was still free).
    pub granted: bool,
    /// `false`: never judged — its seat was done otherwise first (the last pawn goes by
    /// itself, a stand-in declared), so the request was void; `committed_us` is when.
    pub judged: bool,
    /// Host instant the moment opened.
    pub reveal_us: u64,
    /// The host's estimate of this seat's clock offset (client − host, µs) at the commit;
    /// `None` for a seat the host plays.
    pub offset_est_us: Option<i64>,
    /// The request carried the client's own timing (`Grab`, `Echange`); `false`: a seat the
    /// host plays (a bot or a stand-in), timed on the host's clock. (An untimed request while
    /// a moment is open is refused: `TableRefusal::Untimed`.)
    pub timed: bool,
    /// Competing seats this verdict did not wait for (silent past the cut-off, or stalled:
    /// `MomentArbiter::not_waited_for`): a faster request from one of them came too late.
    pub unwaited: Seats,
}

pub(super) struct Fairness<A> {
    /// What the host knows of each connection: its clock, its path, what its beats vouched.
    conns: BTreeMap<ConnId, ConnPath>,
    /// The calls under the countdown now running (Bolide's Klaxon), and what each asked.
    calls: Option<CallOrder>,
    called: Vec<(Seat, A, u32)>,
    /// The countdown's end has passed; the calls' order is being settled.
    countdown_over: bool,
    moment: Option<Moment<A>>,
    /// Countdowns each seat made wait for its clock model to warm up.
    warm_ups: BTreeMap<Seat, u8>,
    /// Timed moments each seat held up by beating without vouching (`LogLine::Stalled`),
    /// in this championship.
    stalls: BTreeMap<Seat, u8>,
    /// Lines of the open moment's arbiter log already read (stalls counted, cut-offs told).
    log_read: usize,
    /// Lines of the open moment's log not yet taken by the room (`take_lines`).
    lines: Vec<(u64, SeatLine)>,
    /// The warnings requests raise, rate-limited.
    warnings: Throttle,
}

/// What the host knows of one connection, as quinn-proto keeps a `PathData` per path: one
/// owner for all of it, gone with the connection ([`Fairness::forget`]).
#[derive(Debug, Default)]
struct ConnPath {
    /// Its clock, from its probes (§1).
    clock: Option<ClockModel>,
    /// What its beats proved about its next action (§7).
    vouched: Option<Vouched>,
    /// What its beats showed of its path: the slack its claims need (§5).
    slack: Option<Slack>,
    /// The highest action `seq` held from it.
    acts_seen: u32,
    /// The countdown's end as it was told it under this countdown, on its own clock — once:
    /// its countdown ends there, and its calls are judged against it.
    told_end: Option<u64>,
    /// Its implausible times were logged (once).
    implausible: bool,
    /// How long before a frame is up its screen draws it, µs, as far as believed.
    frame_lead: u64,
}

/// Log lines a source may write: a burst, then one a second; the rest are counted and the
/// count said with the next line written.
#[derive(Debug, Default)]
struct Throttle {
    /// Lines written in the current second, and when it began (host µs).
    second: (u32, u64),
    unsaid: u64,
}

impl Throttle {
    const PER_SECOND: u32 = 5;

    /// `Some(lines not written since the last)` when a line may be written at `now`.
    fn allow(&mut self, now: u64) -> Option<u64> {
        if now.saturating_sub(self.second.1) >= 1_000_000 {
            self.second = (0, now);
        }
        if self.second.0 < Self::PER_SECOND {
            self.second.0 += 1;
            Some(std::mem::take(&mut self.unsaid))
        } else {
            self.unsaid = self.unsaid.saturating_add(1);
            None
        }
    }
}

impl<A> Default for Fairness<A> {
    fn default() -> Fairness<A> {
        Fairness {
            conns: BTreeMap::new(),
            calls: None,
            called: Vec::new(),
            countdown_over: false,
            moment: None,
            warm_ups: BTreeMap::new(),
            stalls: BTreeMap::new(),
            log_read: 0,
            lines: Vec::new(),
            warnings: Throttle::default(),
        }
    }
}

impl<A: Copy> Fairness<A> {
    // ----- clocks and connections -----

    /// A timing probe came back from `conn` (§1).
    pub fn probe(&mut self, conn: ConnId, sample: Sample) {
        self.conns.entry(conn).or_default().clock.get_or_insert_with(ClockModel::default).add(sample);
    }

    /// The connection is gone: what was known of its clock goes with it.
    pub fn forget(&mut self, conn: ConnId) {
        self.conns.remove(&conn);
    }

    /// A model of `conn`'s clock, once it has a probe.
    fn clock(&self, conn: ConnId) -> Option<&ClockModel> {
        self.model(conn).filter(|c| c.samples() > 0)
    }

    /// `conn`'s clock model, probed or not.
    fn model(&self, conn: ConnId) -> Option<&ClockModel> {
        self.conns.get(&conn).and_then(|p| p.clock.as_ref())
    }

    /// What `conn`'s beats showed of its path.
    fn slack(&self, conn: ConnId) -> Option<&Slack> {
        self.conns.get(&conn).and_then(|p| p.slack.as_ref())
    }

    /// What `conn`'s beats vouched.
    fn vouched(&self, conn: ConnId) -> Option<&Vouched> {
        self.conns.get(&conn).and_then(|p| p.vouched.as_ref())
    }

    /// What the host measured of `conn`'s path, once it has a probe (the lobby's check).
    pub fn path(&self, conn: ConnId) -> Option<bolide_table::wire::PathCheck> {
        let clock = self.clock(conn)?;
        let ms = |us: u64| u16::try_from(us.div_ceil(1000)).unwrap_or(u16::MAX);
        let (silences, longest) = self.slack(conn).map_or((0, 0), Slack::silences);
        Some(bolide_table::wire::PathCheck {
            delay_ms: ms(clock.owd_max()),
            jitter_ms: ms(clock.jitter()),
            silences: u16::try_from(silences).unwrap_or(u16::MAX),
            longest_silence_ms: ms(longest),
        })
    }

    /// What the host measured of `conn`'s path, for a field run's report (µs): its models and
    /// their own spread — there is no true offset between two laptops' clocks to compare with.
    pub fn field_path(&self, conn: ConnId) -> Option<FieldPath> {
        let clock = self.clock(conn)?;
        let (silences, longest_silence_us) = self.slack(conn).map_or((0, 0), Slack::silences);
        Some(FieldPath {
            owd_floor_us: clock.owd_floor(),
            jitter_us: clock.jitter(),
            owd_max_us: clock.owd_max(),
            drift_ppm: clock.drift_ppm(),
            clock_samples: clock.samples(),
            silences,
            longest_silence_us,
        })
    }

    /// The host's one-way delay bound to `conn`, µs.
    pub fn owd_max(&self, conn: ConnId) -> u64 {
        self.clock(conn).map_or(UNKNOWN_OWD_US, |c| c.owd_max())
    }

    /// `conn`'s screen draws a frame `lead_us` before it is up, as its hello said
    /// ([`Hello::frame_lead_us`](bolide_table::wire::Hello)): believed up to
    /// [`MAX_FRAME_LEAD_US`], a refresh — what a laptop that lies about it gains (§2).
    pub fn frame_lead(&mut self, conn: ConnId, lead_us: u32) {
        self.conns.entry(conn).or_default().frame_lead = u64::from(lead_us.min(MAX_FRAME_LEAD_US));
    }

    /// How long ahead of its instant a secret reveal leaves for `conn`, past the margin: the
    /// one-way delay of its path's floor ([`ClockModel::reveal_floor`]) and its screen's frame
    /// lead, so that its frame is up at the instant — once the host has a model of its clock.
    pub fn reveal_lead(&self, conn: ConnId) -> Option<u64> {
        let frame = self.conns.get(&conn).map_or(0, |p| p.frame_lead);
        self.clock(conn).map(|c| c.reveal_floor().saturating_add(frame))
    }

    /// The longest one-way path bound among the seated pilots' connections `pilots`: what the
    /// silence cut-off waits for. Spectators never grab or call, so a
    /// slow (or lying) watcher cannot stretch every round.
    pub fn slowest_path(&self, pilots: impl Iterator<Item = ConnId>) -> u64 {
        pilots.map(|c| self.owd_max(c)).max().unwrap_or(0)
    }

    /// A host instant on `conn`'s clock, once the host has a model of it.
    pub fn to_client(&self, conn: ConnId, host_us: u64) -> Option<u64> {
        self.clock(conn).map(|c| c.to_client(host_us))
    }

    /// A client time of `conn` on the host clock; without a model, the arrival minus the floor.
    fn to_host(&self, conn: ConnId, client_us: u64, now: u64) -> u64 {
        match self.clock(conn) {
            Some(c) => c.to_host(client_us),
            None => now.saturating_sub(UNKNOWN_OWD_US),
        }
    }

    /// A duration on `conn`'s clock, on the host's.
    fn to_host_duration(&self, conn: ConnId, client_us: u64) -> u64 {
        self.model(conn).map_or(client_us as f64, |c| c.to_host_duration(client_us)) as u64
    }

    /// Whether the next countdown must wait for a pilot's clock model to warm up: one of the seated
    /// `pilots` (connection, seat) has too few probes, and at most [`WARM_UPS`] such waits for
    /// one seat in a championship (a pilot who reconnects over and over must not slow every
    /// round).
    pub fn needs_warm_up(&mut self, pilots: impl Iterator<Item = (ConnId, Seat)>) -> bool {
        let cold: Vec<Seat> = pilots
            .filter(|(c, _)| self.model(*c).is_none_or(|m| m.samples() < WARM_SAMPLES))
            .map(|(_, seat)| seat)
            .filter(|seat| self.warm_ups.get(seat).copied().unwrap_or(0) < WARM_UPS)
            .collect();
        for seat in &cold {
            *self.warm_ups.entry(*seat).or_default() += 1;
        }
        !cold.is_empty()
    }

    /// Action `seq` of `conn` is here. `false`: a copy of one already here (timed requests
    /// come on the stream and as datagram copies: the first one counts).
    pub fn saw_act(&mut self, conn: ConnId, seq: u32) -> bool {
        let seen = &mut self.conns.entry(conn).or_default().acts_seen;
        let new = *seen < seq;
        *seen = (*seen).max(seq);
        new
    }

    /// The highest action `seq` held from `conn`.
    #[cfg(test)]
    pub fn acts_seen(&self, conn: ConnId) -> u32 {
        self.conns.get(&conn).map_or(0, |p| p.acts_seen)
    }

    /// §7: `claimed_us` (action `seq` of `conn`, client clock) raised to the last beat that
    /// did not count it; and how much that added.
    fn beat_bound(&self, conn: ConnId, seq: u32, claimed_us: u64) -> (u64, u64) {
        self.vouched(conn).map_or((claimed_us, 0), |v| v.bound(seq, claimed_us))
    }

    /// §7 read the other way round: a laptop that beat in the moment and then went silent
    /// until its request arrived is believed back to that beat — the last one that did not
    /// count the request — and no further: the input allowance that lets its request be that
    /// late (µs), or 0 when it did not beat in the moment. A burst of loss takes a laptop's
    /// beats and its request's first copies alike; its beats then say exactly how far back its
    /// input can be, where the silences of its past moments only guess (an honest laptop never
    /// vouches past an input it has not sent, so its input is at or after that beat). A liar
    /// that hushes after one beat gains the silence, as far as the caller's cap.
    fn silent_since(&self, conn: ConnId, seq: u32, shown_us: u64, now: u64, owd_max: u64) -> u64 {
        let Some(last) = self.vouched(conn).and_then(|v| v.floor(seq)).filter(|t| *t >= shown_us) else {
            return 0;
        };
        crate::fair::slack::BASE_US
            .saturating_add(now.saturating_sub(owd_max).saturating_sub(self.to_host(conn, last, now)))
    }

    // ----- calls under a countdown (Bolide's Klaxon, B-4.6; §6) -----

    /// How much longer than the table's cut-off ([`SILENCE_US`] past the slowest pilot's
    /// path bound) a decision waits for each of `pilots` before it stops waiting: a path its
    /// beats showed goes quiet in stretches is waited for that much longer
    /// ([`Slack::quiet_wait`]).
    fn waits(&self, pilots: &[(ConnId, Seat)]) -> Vec<(Seat, u64)> {
        pilots.iter().map(|&(conn, seat)| (seat, self.slack(conn).map_or(0, Slack::quiet_wait))).collect()
    }

    /// A countdown runs until `end` at a table of `seats`, `pilots` (connection, seat) seated
    /// at it: calls are open.
    pub fn open_countdown(&mut self, seats: u8, pilots: &[(ConnId, Seat)], end: u64) {
        let slowest = self.slowest_path(pilots.iter().map(|(c, _)| *c));
        let mut order = CallOrder::new(seats, end, SILENCE_US + slowest);
        for (seat, extra) in self.waits(pilots) {
            order.wait_longer(seat, extra);
        }
        self.calls = Some(order);
        self.called.clear();
        self.countdown_over = false;
        for conn in self.conns.values_mut() {
            conn.told_end = None;
        }
    }

    /// The end instant on `conn`'s clock, for its countdown: the same instant every time it
    /// is asked under one countdown, so that the host judges a call against the very countdown the
    /// pilot watched. `None` before the host has a model of `conn`'s clock.
    pub fn countdown_end_for(&mut self, conn: ConnId) -> Option<u64> {
        let end = self.countdown_end()?;
        if let Some(told) = self.conns.get(&conn).and_then(|p| p.told_end) {
            return Some(told);
        }
        let told = self.to_client(conn, end)?;
        self.conns.entry(conn).or_default().told_end = Some(told);
        Some(told)
    }

    /// A time on `conn`'s clock under a countdown, on the host's: by how long before (or after)
    /// the end it came on that clock, measured from the end instant the host told it
    /// (§0: a duration between two readings of one clock). The error of the clock model —
    /// half the path asymmetry, which no probe can see, or a clock step since — then moves
    /// the pilot's countdown and its call alike, and no longer the order of calls. A
    /// connection never told (no clock model then) is converted through the model.
    fn in_countdown(&self, conn: ConnId, client_us: u64, now: u64) -> u64 {
        match (self.countdown_end(), self.conns.get(&conn).and_then(|p| p.told_end.as_ref())) {
            (Some(end), Some(&told)) if client_us <= told => {
                end.saturating_sub(self.to_host_duration(conn, told - client_us))
            }
            (Some(end), Some(&told)) => end.saturating_add(self.to_host_duration(conn, client_us - told)),
            _ => self.to_host(conn, client_us, now),
        }
    }

    /// The end instant of the countdown now running.
    pub fn countdown_end(&self) -> Option<u64> {
        self.calls.as_ref().map(|k| k.end())
    }

    /// The countdown's end has passed: calls made before it may still be travelling.
    pub fn countdown_over(&mut self) {
        self.countdown_over = true;
    }

    /// A call (`action`) of `seat` made at `at_us` on `conn`'s clock (`None`: untimed, taken as
    /// sent one path ago), or by the host (`conn` `None`: a seat it plays, at `now`).
    pub fn call(
        &mut self,
        caller: Option<(ConnId, u32, Option<u64>)>,
        seat: Seat,
        action: A,
        now: u64,
    ) -> Result<(), TableRefusal> {
        let at = match caller {
            // §7: no earlier than this client's own last beat that did not count the call; and
            // §5: no earlier than its arrival allows, as a grab's input — a laptop that counts
            // its call in its beats ahead of time cannot claim the countdown's first instant, and a
            // call that arrives well after the countdown's end is a call after the countdown's end (B-4.6).
            Some((conn, seq, Some(t))) => {
                let owd_max = self.owd_max(conn);
                let allowance = self
                    .slack(conn)
                    .map_or(Self::default_allowance(owd_max), |s| s.input_allowance(Self::default_allowance(owd_max)));
                let earliest = now.saturating_sub(owd_max.saturating_add(allowance));
                self.in_countdown(conn, self.beat_bound(conn, seq, t).0, now).max(earliest)
            }
            Some((conn, _, None)) => now.saturating_sub(self.owd_max(conn)),
            None => now,
        };
        let Some(order) = &mut self.calls else { return Err(TableRefusal::CallTooLate) };
        if order.calls().iter().any(|c| c.seat == seat) {
            return Err(TableRefusal::AlreadyCalled);
        }
        // B-4.6 ruling: too late, and the token is not spent.
        if !order.call(seat, at) {
            return Err(TableRefusal::CallTooLate);
        }
        self.called.push((seat, action, caller.map_or(0, |c| c.1)));
        Ok(())
    }

    // ----- the timed moments: the grab (B-4.3) and the Échange window (B-4.7) -----

    /// A moment opens (`id`: the game's name for it), shown everywhere at `opens`, among
    /// `competitors` at a table of `seats`, `pilots` (connection, seat) seated at it; ties
    /// are drawn from `seed`. `window_us`: its length, when it ends with its time.
    #[allow(clippy::too_many_arguments)]
    pub fn open(
        &mut self,
        (id, window_us): (u64, Option<u64>),
        opens: u64,
        seats: u8,
        pilots: &[(ConnId, Seat)],
        competitors: &[Seat],
        seed: u64,
        release: Release,
    ) {
        let slowest = self.slowest_path(pilots.iter().map(|(c, _)| *c));
        let mut arbiter = MomentArbiter::new(seats, competitors, opens, seed, TIE_US, SILENCE_US + slowest);
        for (seat, extra) in self.waits(pilots) {
            arbiter.wait_longer(seat, extra);
        }
        self.moment = Some(Moment {
            id,
            opens,
            release,
            arbiter,
            sent: BTreeMap::new(),
            asked: Vec::new(),
            clamped: BTreeMap::new(),
            window_us,
            shown: Default::default(),
            done: Default::default(),
            closing: None,
        });
        self.log_read = 0;
    }

    /// Timed moments `seat` held up by beating without vouching, in this championship.
    pub fn stalls(&self, seat: Seat) -> u8 {
        self.stalls.get(&seat).copied().unwrap_or(0)
    }

    /// Seats that held up the open moment this way: each stays cut off in it.
    pub fn stalled_now(&self) -> Vec<Seat> {
        self.moment.as_ref().map(|m| m.arbiter.stalled().collect()).unwrap_or_default()
    }

    /// The moment now open, and when it opens.
    pub fn open_moment(&self) -> Option<(u64, u64)> {
        self.moment.as_ref().map(|m| (m.id, m.opens))
    }

    /// When the open moment's news may leave the host.
    pub fn open_release(&self) -> Option<Release> {
        self.moment.as_ref().map(|m| m.release)
    }

    /// The open moment's update leaves for `conn` at `at` (host clock): the latest instant
    /// `conn` can have shown it is bounded from there.
    pub fn sent(&mut self, conn: ConnId, at: u64) {
        if let Some(m) = &mut self.moment {
            m.sent.insert(conn, at);
        }
    }

    /// A client's timed request in the open moment, bounded (§3, §7) and handed to the arbiter.
    /// `plausible_us`: reactions under it are logged as anticipation (§5).
    pub fn claim(&mut self, claim: Claim<A>, now: u64, plausible_us: u64) -> Result<(), TableRefusal> {
        let Claim { conn, seat, seq, action, shown_us: shown, input_us: input } = claim;
        let Some((_, opens)) = self.open_moment() else { return Err(TableRefusal::NoMoment) };
        // A few per seat and moment: a flooding laptop is refused before any work on its claim.
        if self.moment.as_ref().is_some_and(|m| m.asked.iter().filter(|a| a.seat == seat).count() >= MOMENT_REQUESTS) {
            return Err(TableRefusal::TooManyRequests);
        }
        if input < shown {
            return Err(TableRefusal::BeforeShown);
        }
        let owd_max = self.owd_max(conn);
        // §7 first: the client's own beats bound its input on its own clock, exactly. The
        // path bounds below then catch what the beats cannot (a client that stopped beating).
        let (input, beat_clamp) = self.beat_bound(conn, seq, input);
        let sent = self.moment.as_ref().and_then(|m| m.sent.get(&conn).copied()).unwrap_or(opens);
        // Shown: the moment came in time (the reveal as copies, the Échange window early), so
        // the clock model's error and the jitter tail — and on a path that goes quiet, the
        // moment's last copy, since the host cannot hear the silences on the way in.
        let jitter = self.model(conn).map_or(UNKNOWN_OWD_US, |c| c.jitter());
        let (default, shown_base) = (Self::default_allowance(owd_max), 2 * jitter + 15_000);
        let never_beat = Slack::default();
        let slack = self.slack(conn).unwrap_or(&never_beat);
        let shown_allowance = slack.shown_allowance(shown_base);
        // Times no clock can have read are refused before any arithmetic on them.
        if !self.plausible(conn, (shown, input), (sent, now), (owd_max, shown_allowance)) {
            if !std::mem::replace(&mut self.conns.entry(conn).or_default().implausible, true) {
                tracing::warn!(%seat, shown, input, "a timed request with times its laptop's clock cannot have read: refused (logged once per connection)");
            }
            return Err(TableRefusal::ImplausibleTiming);
        }
        let reaction = self.to_host_duration(conn, input - shown);
        let latest_show = opens.max(sent + owd_max);
        // Input: back to the laptop's last beat in this moment if it went silent since
        // (`silent_since`); otherwise what its beats showed its path needs (`fair::slack`). As
        // far as room for a QUIC retransmission should every copy be lost (about a round trip
        // plus the peer's ack delay), what every laptop got before its beats told anything —
        // or, on a path its beats showed goes quiet in stretches, as far as the last copy or
        // its own longest pause, whichever is longer (`Slack::cap`).
        let (silent_since, cap) = (self.silent_since(conn, seq, shown, now, owd_max), slack.cap(default));
        let allowance = Allowance {
            input_us: slack.input_allowance(default).max(silent_since.min(cap)),
            shown_us: shown_allowance,
        };
        let b = bound_claim(
            reaction,
            self.to_host(conn, input, now),
            self.to_host(conn, shown, now),
            now,
            owd_max,
            latest_show,
            allowance,
            plausible_us,
        );
        self.conns.entry(conn).or_default().slack.get_or_insert_with(Slack::default).request(input);
        // M-15.6: in a moment that ends with its time, a request is valid only within that
        // time on the laptop's own screen — as far as the bounds let the host believe it.
        if self.moment.as_ref().and_then(|m| m.window_us).is_some_and(|w| b.reaction_us > w) {
            return Err(TableRefusal::OutOfTime);
        }
        // Warned of, at most a few a second with the count of the rest: a griefer's requests
        // cannot fill the log.
        if b.flagged
            && let Some(unsaid) = self.warnings.allow(now)
        {
            tracing::warn!(%seat, reaction_us = b.reaction_us, unsaid, "a reaction under the plausibility floor (anticipation?)");
        }
        if b.clamped_input_us + b.clamped_shown_us > 0
            && let Some(unsaid) = self.warnings.allow(now)
        {
            // What the bound was made of (host clock, from the moment's opening): an engineer
            // reading a field run's log tells a late frame from a clock model that strayed.
            let shown_after_open = self.to_host(conn, shown, now).saturating_sub(opens);
            let latest_after_open = latest_show.saturating_sub(opens);
            tracing::warn!(%seat, clamped_input_us = b.clamped_input_us, clamped_shown_us = b.clamped_shown_us, shown_after_open, latest_after_open, shown_allowance, jitter, input_allowance = allowance.input_us, silent_since, cap, unsaid, "a request claimed more than its path allows: clamped");
        }
        let beat_clamp = self.to_host_duration(conn, beat_clamp);
        if beat_clamp > 0
            && let Some(unsaid) = self.warnings.allow(now)
        {
            tracing::warn!(%seat, beat_clamp_us = beat_clamp, unsaid, "a request claimed an input before its own last beat: bounded");
        }
        let clamp = Clamp { input_us: b.clamped_input_us, shown_us: b.clamped_shown_us, beat_us: beat_clamp };
        let headroom = Headroom { input_us: b.input_headroom_us, shown_us: b.shown_headroom_us };
        let request = Request { seat, seq, action, reaction_us: b.reaction_us, arrival: now, stand_in: false };
        self.request(request, (clamp, headroom, true), now);
        Ok(())
    }

    /// Room for a QUIC retransmission, should every copy of a request be lost (about a round
    /// trip plus the peer's ack delay): what a laptop's input is allowed before its beats
    /// told anything of its path (µs).
    fn default_allowance(owd_max: u64) -> u64 {
        owd_max.saturating_mul(2).saturating_add(30_000)
    }

    /// Whether `(shown, input)` on `conn`'s clock are times it can have read: the moment shown
    /// no earlier than its update could have reached the laptop — it left the host at `sent` —
    /// within `shown_allowance` for the clock model's error (a claimed `shown` that early
    /// would let the laptop's earlier beats count in the moment, `silent_since`), and the
    /// input no later than the request arrived (`now`), so the reaction no longer than the time
    /// between, each within a generous [`IMPLAUSIBLE_US`]. Anything past that is no clock but
    /// a made-up number: it is refused, never clamped into a verdict.
    fn plausible(
        &self,
        conn: ConnId,
        (shown, input): (u64, u64),
        (sent, now): (u64, u64),
        (owd_max, shown_allowance): (u64, u64),
    ) -> bool {
        let slack = IMPLAUSIBLE_US.saturating_add(Self::default_allowance(owd_max));
        // On the client's own clock, with no model at all: its drift is at most 500 ppm.
        let longest = now.saturating_sub(sent).saturating_add(slack);
        if input.saturating_sub(shown) > longest.saturating_add(longest / 1_000) {
            return false;
        }
        let Some(c) = self.clock(conn) else { return true };
        c.to_host(shown).saturating_add(shown_allowance) >= sent && c.to_host(input) <= now.saturating_add(slack)
    }

    /// A seat the host plays (a bot or a stand-in) acts at `now`: it lives on the host clock,
    /// so its reaction is exact. `stand_in`: for a pilot whose laptop is still at the table
    /// ([`Request::stand_in`]).
    pub fn hosted_claim(&mut self, seat: Seat, action: A, now: u64, stand_in: bool) {
        let Some(opens) = self.moment.as_ref().map(|m| m.opens) else { return };
        let reaction_us = now.saturating_sub(opens);
        let request = Request { seat, seq: 0, action, reaction_us, arrival: now, stand_in };
        self.request(request, (Clamp::default(), Headroom::default(), false), now);
    }

    fn request(&mut self, request: Request<A>, bounds: (Clamp, Headroom, bool), now: u64) {
        let Some(m) = &mut self.moment else { return };
        m.asked.push(Asked { seat: request.seat, action: request.action, reaction_us: request.reaction_us });
        m.arbiter.request(request, now);
        m.clamped.insert((request.seat, request.seq), bounds);
    }

    /// A heartbeat from `conn` (seat `seat`): its clock now, when it showed the moment it
    /// names, and the last action it sent. Unless the host holds that action, it only shows
    /// the seat is alive: its time cannot yet rule out an earlier call or request still on
    /// its way.
    pub fn heartbeat(&mut self, conn: ConnId, seat: Seat, beat: Beat, now: u64) {
        let Beat { now_us, shown, acts, dense } = beat;
        let path = self.conns.entry(conn).or_default();
        let vouches = path.acts_seen >= acts;
        path.vouched.get_or_insert_with(Vouched::default).beat(acts, now_us);
        // Only a beat that names the open moment counts in it: one from the grab that arrives
        // once the Échange window is open says nothing about the window.
        let id = self.moment.as_ref().map(|m| m.id);
        let named = shown.filter(|s| id == Some(s.moment));
        // How late this stamped message came past the path bound, and the gap since the one
        // before: what the connection's claims will be allowed (§5).
        let late = self.clock(conn).map_or(0, |c| now.saturating_sub(c.to_host(now_us).saturating_add(c.owd_max())));
        self.conns.entry(conn).or_default().slack.get_or_insert_with(Slack::default).beat(late, now_us, dense, now);
        let host_now = if vouches && self.calls.is_some() { self.in_countdown(conn, now_us, now) } else { 0 };
        if let Some(order) = &mut self.calls {
            order.heartbeat(seat, host_now);
        }
        // Its elapsed time counts once the host holds every action the beat counted.
        let elapsed = match named.filter(|_| vouches) {
            Some(s) => self.to_host_duration(conn, now_us.saturating_sub(s.at_us)),
            None => 0,
        };
        if let Some(m) = &mut self.moment {
            if named.is_some() {
                m.arbiter.showed(seat);
            }
            m.arbiter.heartbeat(seat, elapsed, now);
            // M-15.14: the first beat that names the moment is this laptop's "shown"; the
            // first that vouches past the moment's length, its "done" (M-15.7).
            if let Some(s) = named
                && m.shown.insert(seat)
            {
                self.lines.push((m.id, SeatLine::Shown { seat, shown_us: s.at_us, heard_us: now }));
            }
            if m.window_us.is_some_and(|w| m.arbiter.frontier(seat) >= w) && m.done.insert(seat) {
                self.lines.push((m.id, SeatLine::Done { seat, heard_us: now }));
            }
        }
    }

    /// Whether every one of `seats` is done with the open moment that ends with its time —
    /// its own time ran out without a request, vouched by its beats — and no request waits
    /// for its verdict (M-15.7).
    pub fn everyone_done(&self, mut seats: impl Iterator<Item = Seat>) -> bool {
        let Some(m) = &self.moment else { return false };
        m.window_us.is_some() && !m.arbiter.has_pending() && seats.all(|s| m.done.contains(&s))
    }

    /// The room closes the open moment by time, for this reason (M-15.14).
    pub fn closing(&mut self, by: ClosedBy) {
        if let Some(m) = &mut self.moment {
            m.closing = Some(by);
        }
    }

    /// Why the open moment closed: by time as the room said, or by the game.
    pub fn closed_by(&self) -> ClosedBy {
        self.moment.as_ref().and_then(|m| m.closing).unwrap_or(ClosedBy::Decided)
    }

    /// The moment log's lines since the last call, with the moment each is about.
    pub fn take_lines(&mut self) -> Vec<(u64, SeatLine)> {
        std::mem::take(&mut self.lines)
    }

    /// The next decision that can be taken at `now`, if any; call until `None`. `hosted`:
    /// the seats the host plays, on its own clock — they never hold anything up.
    pub fn decide(&mut self, now: u64, hosted: &[Seat]) -> Option<Decision<A>> {
        if self.countdown_over
            && let Some(order) = &mut self.calls
        {
            for s in hosted {
                order.heartbeat(*s, now);
            }
            if let Some(calls) = order.settled(now) {
                self.calls = None;
                self.countdown_over = false;
                let called = std::mem::take(&mut self.called);
                let call_of = |seat| called.iter().find(|c| c.0 == seat).copied();
                return Some(Decision::Calls(calls.iter().filter_map(|c| call_of(c.seat)).collect()));
            }
        }
        let m = self.moment.as_mut()?;
        if now < m.opens {
            return None;
        }
        for s in hosted {
            m.arbiter.heartbeat(*s, now - m.opens, now);
        }
        let verdict = m.arbiter.poll(now);
        for line in m.arbiter.log.iter().skip(self.log_read) {
            self.log_read += 1;
            match *line {
                LogLine::Stalled { seat } => {
                    let n = self.stalls.entry(seat).or_default();
                    *n = n.saturating_add(1);
                    tracing::warn!(%seat, stalls = *n, "a seat beat without vouching past the least request: the moment no longer waits for it");
                }
                // A verdict that did not wait for a seat: a request it sends later is judged
                // after it, however fast (fairness.md §4).
                LogLine::CutOff { seat, silent_us } => {
                    tracing::info!(%seat, silent_us, moment = m.id, "a seat went silent in a timed moment: the verdicts no longer wait for it")
                }
                LogLine::Tie { .. } => {}
            }
        }
        let m = self.moment.as_mut()?;
        let verdict = verdict?;
        if verdict.tie {
            // fairness.md §4: ties go to a seeded draw, and the draw is logged.
            if let Some(line) = m.arbiter.log.last() {
                tracing::info!(?line, moment = m.id, "a tie decided by the seeded draw");
            }
        }
        Some(Decision::Verdict { verdict, seq: verdict.request.seq })
    }

    /// `seats` are done with the open moment (they hold a pawn, or have declared): they no
    /// longer compete, and their other requests are void.
    pub fn withdraw(&mut self, seats: impl Iterator<Item = Seat>) -> Vec<Request<A>> {
        let Some(m) = &mut self.moment else { return Vec::new() };
        seats.flat_map(|s| m.arbiter.withdraw(s)).collect()
    }

    /// The open moment is over: its requests still pending are void. Returns them, and every
    /// request the moment was given, in arrival order (its photo finish is the game's).
    pub fn close(&mut self) -> (Vec<Request<A>>, Vec<Asked<A>>) {
        let Some(m) = &mut self.moment else { return (Vec::new(), Vec::new()) };
        (m.arbiter.close(), std::mem::take(&mut m.asked))
    }

    /// Forgets the moment closed by [`Fairness::close`] (after its void requests are recorded).
    pub fn end(&mut self) {
        self.moment = None;
    }

    /// The record of a request of the open moment, for the lab and the log. `conn`: the
    /// seat's connection, for the clock offset the host estimated.
    pub fn record(
        &self,
        verdict: Verdict<A>,
        granted: bool,
        judged: bool,
        conn: Option<ConnId>,
        now: u64,
    ) -> FairRecord<A> {
        let seat = verdict.request.seat;
        let m = self.moment.as_ref();
        let (clamp, headroom, timed) =
            m.and_then(|m| m.clamped.get(&(seat, verdict.request.seq)).copied()).unwrap_or_default();
        FairRecord {
            moment: m.map_or(0, |m| m.id),
            seq: verdict.request.seq,
            seat,
            action: verdict.request.action,
            reaction_us: verdict.request.reaction_us,
            clamp,
            headroom,
            arrival_us: verdict.request.arrival,
            committed_us: verdict.committed,
            tie: verdict.tie,
            granted,
            judged,
            reveal_us: m.map_or(0, |m| m.opens),
            timed,
            offset_est_us: conn.and_then(|c| self.clock(c)).map(|c| c.offset_at(now) as i64),
            unwaited: m.map_or_else(Seats::default, |m| m.arbiter.not_waited_for()),
        }
    }

    /// When the room next needs a tick for a decision: a silence cut-off in the open moment,
    /// or in the calls once the countdown has ended.
    pub fn next_deadline(&self) -> Option<u64> {
        let moment = self.moment.as_ref().and_then(|m| m.arbiter.next_deadline().map(|t| t.max(m.opens)));
        let calls = self.calls.as_ref().filter(|_| self.countdown_over).and_then(|k| k.next_deadline());
        moment.into_iter().chain(calls).min()
    }
}
