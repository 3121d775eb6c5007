//! The grab arbiter (B-4.3), sans-I/O: timestamped requests and heartbeats in, verdicts out,
//! the host's time passed in as a value. See `shared/design/fairness.md`. It orders requests
//! by reaction and never looks at what they ask for, so the Échange window (B-4.7, §6) is
//! judged by the same code: one declaration per Échange holder.
//!
//! Each competing client measures its reaction on its own monotonic clock (shown → input) and
//! sends it with its request; during the grab it also sends heartbeats — its elapsed time since
//! it was shown the reservoirs. The room passes a heartbeat's time on only once it holds
//! every request the client sent before it (heartbeats are datagrams and may overtake them;
//! `room::fairness`). So once seat `j` has shown an elapsed time `e`, nothing with a reaction
//! below `e` can still come from `j`. A
//! request with reaction `r` is committed once every other competing seat has either a request
//! of its own already (at `r` or more, since `r` is the least), or shown an elapsed time beyond
//! `r` plus the tie margin, or gone silent past the cut-off. This trusts no latency estimate:
//! it costs each seat its own latency plus one heartbeat. Reactions closer than the tie margin
//! are a tie, decided by a seeded draw that is logged.

use bolide_table::{Seat, Seats};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A request as the arbiter sees it: reaction already drift-corrected and bounded. `action`
/// is the game's (a pawn in Bolide's grab, a Coup-Fourré in 1000 Bornes): never looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request<A> {
    pub seat: Seat,
    /// The request's number on its connection (0 for a seat the host plays): a seat may have
    /// several requests in one moment, and each verdict names its own.
    pub seq: u32,
    pub action: A,
    pub reaction_us: u64,
    /// Host time it arrived.
    pub arrival: u64,
    /// Made by the host's stand-in for a pilot whose laptop is still at the table (the pilot
    /// let a time limit pass). Once that laptop has vouched for some of this moment — it shows
    /// it and beats — the stand-in's request says nothing of its hand, which may yet send a
    /// faster request: the moment waits for the laptop's beats as for anyone's. A laptop that
    /// said nothing of the moment (away, or not reading) is spoken for by its stand-in. Never a
    /// heartbeat of the seat.
    pub stand_in: bool,
}

/// A committed request, in the order the host must apply them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict<A> {
    pub request: Request<A>,
    /// Host time of the commit (`commit - arrival` is the commit delay).
    pub committed: u64,
    /// Won a seeded draw against a request within the tie margin.
    pub tie: bool,
}

/// What the arbiter decided that a person reviewing a round would want to see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogLine {
    /// Reactions within the tie margin: a seeded draw picked `winner`.
    Tie { seats: Vec<Seat>, spread_us: u64, winner: Seat, draw: u64 },
    /// A seat went silent; the grab no longer waits for it.
    CutOff { seat: Seat, silent_us: u64 },
    /// A seat kept beating without its beats ever vouching past the least request (a
    /// modified laptop, or one whose every beat named another moment): the moment waited for
    /// it as long as for a silent one, and no longer.
    Stalled { seat: Seat },
}

#[derive(Debug, Clone, Copy)]
struct SeatState {
    competing: bool,
    /// Greatest elapsed time (µs since shown) its heartbeats have vouched for.
    frontier: u64,
    /// Host time of the last frame heard from it.
    last_heard: u64,
    cut_off: bool,
    /// Beat on without vouching past the least request until the moment stopped waiting for
    /// it: not waited for again in this moment (a beat does not undo it; a request does).
    stalled: bool,
    /// How much longer than the moment's cut-off it is waited for once its beats have shown
    /// the moment ([`MomentArbiter::wait_longer`]).
    quiet_us: u64,
    /// A beat of its laptop named the moment, or its laptop asked in it: it showed it.
    showed: bool,
}

pub struct MomentArbiter<A> {
    seats: Vec<SeatState>,
    /// The reveal instant: the latest a commit waits for is counted from it.
    opened: u64,
    pending: Vec<Request<A>>,
    tie_us: u64,
    silence_us: u64,
    rng: ChaCha8Rng,
    pub log: Vec<LogLine>,
}

impl<A: Copy> MomentArbiter<A> {
    /// A new grab among `competitors` (seats without a pawn) at a table of `pilots`. `now` is
    /// the reveal instant; silence counts from there.
    pub fn new(
        pilots: u8,
        competitors: &[Seat],
        now: u64,
        seed: u64,
        tie_us: u64,
        silence_us: u64,
    ) -> MomentArbiter<A> {
        let seats = (0..pilots)
            .map(|s| SeatState {
                competing: competitors.contains(&Seat(s)),
                frontier: 0,
                last_heard: now,
                cut_off: false,
                stalled: false,
                quiet_us: 0,
                showed: false,
            })
            .collect();
        MomentArbiter {
            seats,
            opened: now,
            pending: Vec::new(),
            tie_us,
            silence_us,
            rng: ChaCha8Rng::seed_from_u64(seed),
            log: Vec::new(),
        }
    }

    /// `seat`'s laptop is known to pause as long as `extra_us` (its own beats showed it,
    /// `fair::slack`): once it has shown the moment (a beat of it vouched for some of it), the
    /// moment waits that much longer before it stops waiting for it — §4's timeout is for a
    /// laptop gone, not for one that pauses as it always does, with a press already stamped.
    /// Not before: a laptop that has not shown the moment yet is late on the way in (a
    /// blackout), and a `shown` that late is bounded whatever the wait. It changes no order —
    /// a request waited for is bounded as any other — and costs a verdict's wait only while
    /// that seat is silent, as far as the caller's cap.
    pub fn wait_longer(&mut self, seat: Seat, extra_us: u64) {
        if let Some(s) = self.seats.get_mut(seat.index()) {
            s.quiet_us = s.quiet_us.saturating_add(extra_us);
        }
    }

    /// How long seat `s` may be silent (or beat without vouching past the least request)
    /// before the moment stops waiting for it.
    fn silence_of(&self, s: &SeatState) -> u64 {
        self.silence_us.saturating_add(if s.showed { s.quiet_us } else { 0 })
    }

    /// A heartbeat: `seat`'s elapsed time since it was shown the reservoirs.
    pub fn heartbeat(&mut self, seat: Seat, elapsed_us: u64, now: u64) {
        let Some(s) = self.seats.get_mut(seat.index()) else { return };
        s.frontier = s.frontier.max(elapsed_us);
        s.last_heard = now;
        s.cut_off = false;
    }

    /// `seat`'s laptop showed the moment: a beat named it (its elapsed time may not count yet,
    /// should the beat count an action not here).
    pub fn showed(&mut self, seat: Seat) {
        if let Some(s) = self.seats.get_mut(seat.index()) {
            s.showed = true;
        }
    }

    /// A grab request (a laptop's is also a heartbeat at its own reaction; a stand-in's is not).
    pub fn request(&mut self, request: Request<A>, now: u64) {
        if !request.stand_in {
            self.showed(request.seat);
            self.heartbeat(request.seat, request.reaction_us, now);
        }
        if self.is_waiting_for(request.seat) {
            self.pending.push(request);
        }
    }

    /// `seat` holds a pawn now (its own verdict, the last pawn, a stand-in bot): it no longer
    /// competes, and its other requests are void; they are returned, never judged.
    pub fn withdraw(&mut self, seat: Seat) -> Vec<Request<A>> {
        if let Some(s) = self.seats.get_mut(seat.index()) {
            s.competing = false;
        }
        let (void, pending) = self.pending.iter().partition(|r| r.seat == seat);
        self.pending = pending;
        void
    }

    /// The grab is over: every request still pending is void (its seat got a pawn otherwise).
    pub fn close(&mut self) -> Vec<Request<A>> {
        std::mem::take(&mut self.pending)
    }

    /// How far `seat`'s beats have vouched, as time elapsed since it was shown the moment.
    pub fn frontier(&self, seat: Seat) -> u64 {
        self.seats.get(seat.index()).map_or(0, |s| s.frontier)
    }

    /// Whether a request waits for its verdict.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    pub fn is_waiting_for(&self, seat: Seat) -> bool {
        self.seats.get(seat.index()).is_some_and(|s| s.competing)
    }

    /// The latest instant a request with reaction `least` waits for seat `s` while its beats
    /// have not vouched past it, whatever those beats say: as long as that seat is waited for
    /// silent, counted from the moment the request's reaction ends. Reactions come bounded by
    /// what the path allows (`bound_claim`), but the sum saturates all the same.
    fn stall_deadline(&self, least: u64, s: &SeatState) -> u64 {
        self.opened.saturating_add(least).saturating_add(self.tie_us).saturating_add(self.silence_of(s))
    }

    /// The next request that can be committed at `now`, if any. Call until `None`.
    pub fn poll(&mut self, now: u64) -> Option<Verdict<A>> {
        let least = self.pending.iter().map(|r| r.reaction_us).min()?;
        let horizon = least.saturating_add(self.tie_us);
        // Everyone who could still send something faster than `horizon` must have spoken. Every
        // such seat is looked at — each one due is cut off now, not at a later call — so no
        // deadline `next_deadline` gives is ever already past after a poll.
        let mut waiting = false;
        for i in 0..self.seats.len() {
            if !self.blocks(i, horizon) {
                continue;
            }
            let seat = self.seats[i];
            let silent = now.saturating_sub(seat.last_heard);
            if silent > self.silence_of(&seat) {
                self.seats[i].cut_off = true;
                self.log.push(LogLine::CutOff { seat: Seat(i as u8), silent_us: silent });
            } else if now > self.stall_deadline(least, &seat) {
                self.seats[i].stalled = true;
                self.log.push(LogLine::Stalled { seat: Seat(i as u8) });
            } else {
                waiting = true;
            }
        }
        if waiting {
            return None;
        }
        // The tie group: requests from distinct seats within the margin of the least (never
        // empty: the least is in it).
        let mut group: Vec<usize> =
            (0..self.pending.len()).filter(|&i| self.pending[i].reaction_us <= horizon).collect();
        group.sort_by_key(|&i| (self.pending[i].reaction_us, self.pending[i].arrival));
        // Each seat once, however many requests it sent: the draw is between seats.
        let mut seats: Vec<Seat> = Vec::with_capacity(group.len());
        for &i in &group {
            if !seats.contains(&self.pending[i].seat) {
                seats.push(self.pending[i].seat);
            }
        }
        let (pick, tie) = if seats.len() > 1 {
            let draw = self.rng.random_range(0..seats.len() as u64);
            let winner = *seats.get(draw as usize)?;
            let spread = group.iter().map(|&i| self.pending[i].reaction_us).max().unwrap_or(least) - least;
            self.log.push(LogLine::Tie { seats: seats.clone(), spread_us: spread, winner, draw });
            (group.into_iter().find(|&i| self.pending[i].seat == winner)?, true)
        } else {
            (*group.first()?, false)
        };
        let request = self.pending.remove(pick);
        Some(Verdict { request, committed: now, tie })
    }

    /// Whether seat `i` could still send something faster than `horizon`, so a verdict waits
    /// for it (or for its cut-off): it competes, is not given up on, has no request of its own
    /// (at the least or more: its hand was no faster) — a stand-in's counts only while its
    /// laptop has vouched for nothing of the moment ([`Request::stand_in`]) — and its beats
    /// have not vouched past `horizon`.
    fn blocks(&self, i: usize, horizon: u64) -> bool {
        let Some(s) = self.seats.get(i) else { return false };
        let vouched = s.frontier > 0;
        let has_request = self.pending.iter().any(|r| r.seat.index() == i && !(r.stand_in && vouched));
        s.competing && !has_request && s.frontier <= horizon && !s.stalled && !s.cut_off
    }

    /// The next time `poll` could change its answer without new input: when a seat that
    /// blocks the least request would be cut off for silence, or the request stop waiting.
    pub fn next_deadline(&self) -> Option<u64> {
        let least = self.pending.iter().map(|r| r.reaction_us).min()?;
        let horizon = least.saturating_add(self.tie_us);
        (0..self.seats.len())
            .filter(|&i| self.blocks(i, horizon))
            .filter_map(|i| self.seats.get(i))
            .map(|s| {
                s.last_heard.saturating_add(self.silence_of(s)).min(self.stall_deadline(least, s)).saturating_add(1)
            })
            .min()
    }

    /// Competing seats a verdict committed now does not wait for: silent past the cut-off,
    /// or beating without vouching past the least request until it stopped waiting
    /// ([`LogLine::CutOff`], [`LogLine::Stalled`]). A faster request one of them sends later is
    /// judged after that verdict: the report says so rather than counting it unexplained.
    pub fn not_waited_for(&self) -> Seats {
        (0..self.seats.len())
            .filter(|&i| self.seats[i].competing && (self.seats[i].cut_off || self.seats[i].stalled))
            .map(|i| Seat(i as u8))
            .collect()
    }

    /// Seats the moment stopped waiting for while they kept beating ([`LogLine::Stalled`]).
    pub fn stalled(&self) -> impl Iterator<Item = Seat> + '_ {
        self.log.iter().filter_map(|l| match l {
            LogLine::Stalled { seat } => Some(*seat),
            _ => None,
        })
    }
}

/// Why a claim was refused outright.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimError {
    /// The input came before the reservoirs were shown.
    BeforeShown,
}

/// What the bounds did to a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bounded {
    pub reaction_us: u64,
    /// Microseconds added because the claimed input was earlier than its arrival allows.
    pub clamped_input_us: u64,
    /// Microseconds added because the claimed `shown` was later than the reveal allows.
    pub clamped_shown_us: u64,
    /// How far inside each bound the claim stayed (0 where it was clamped).
    pub input_headroom_us: u64,
    pub shown_headroom_us: u64,
    /// Under the plausibility floor (logged, not changed).
    pub flagged: bool,
}

/// How far past the path's bounds a claim may go before it is clamped, µs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    pub input_us: u64,
    pub shown_us: u64,
}

impl Allowance {
    pub const fn same(us: u64) -> Allowance {
        Allowance { input_us: us, shown_us: us }
    }
}

/// Bounds, not trust (fairness.md §5). All times on the host clock except `reaction_client`.
/// - `input_host`, `shown_host`: the client's claims converted to the host clock;
/// - `arrival`: when the request arrived; `owd_max`: the path's floor plus jitter bound;
/// - `latest_show`: the latest the reservoirs could have appeared on that screen (the
///   scheduled instant, or the reveal's send time plus `owd_max` if that is later);
/// - `allowance`: slack for what the estimates cannot see, per claim: `input` (a request
///   whose every copy was lost waits for a QUIC retransmission) and `shown` (the clock
///   model's error and the jitter tail; the reveal travels as copies, so no retransmission).
#[allow(clippy::too_many_arguments)]
pub fn bound_claim(
    reaction_us: u64,
    input_host: u64,
    shown_host: u64,
    arrival: u64,
    owd_max: u64,
    latest_show: u64,
    allowance: Allowance,
    plausible_us: u64,
) -> Bounded {
    let earliest_input = arrival.saturating_sub(owd_max.saturating_add(allowance.input_us));
    let latest_shown = latest_show.saturating_add(allowance.shown_us);
    let clamped_input_us = earliest_input.saturating_sub(input_host);
    let clamped_shown_us = shown_host.saturating_sub(latest_shown);
    let reaction_us = reaction_us.saturating_add(clamped_input_us).saturating_add(clamped_shown_us);
    Bounded {
        reaction_us,
        clamped_input_us,
        clamped_shown_us,
        input_headroom_us: input_host.saturating_sub(earliest_input),
        shown_headroom_us: latest_shown.saturating_sub(shown_host),
        flagged: reaction_us < plausible_us,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIE: u64 = 50;
    const SILENCE: u64 = 1_000_000;

    /// A request for pawn `pawn` (the arbiter never looks at what is asked).
    fn req(seat: u8, pawn: u8, reaction_us: u64, arrival: u64) -> Request<u8> {
        Request { seat: Seat(seat), seq: 0, action: pawn, reaction_us, arrival, stand_in: false }
    }

    #[test]
    fn b_4_3_the_fastest_hand_wins_not_the_closest_laptop() {
        // Seat 0 is next to the host (1 ms), seat 1 far (80 ms) but 30 ms quicker to react.
        let mut a = MomentArbiter::new(3, &[Seat(0), Seat(1), Seat(2)], 0, 1, TIE, SILENCE);
        a.request(req(0, 4, 250_000, 251_000), 251_000);
        assert_eq!(a.poll(251_000), None, "seat 1 and 2 have not shown they are past 250 ms");
        a.heartbeat(Seat(2), 300_000, 301_000);
        assert_eq!(a.poll(301_000), None, "seat 1 still might be faster");
        a.request(req(1, 4, 220_000, 300_000), 300_000);
        let first = a.poll(300_000).unwrap();
        assert_eq!(first.request.seat, Seat(1));
        a.withdraw(Seat(1)); // the host gave it its pawn
        let second = a.poll(300_000).unwrap();
        assert_eq!(second.request.seat, Seat(0));
        assert!(a.poll(300_000).is_none());
    }

    #[test]
    fn b_4_3_ties_within_the_margin_go_to_a_logged_seeded_draw() {
        let mut winners = std::collections::HashSet::new();
        for seed in 0..20 {
            let mut a = MomentArbiter::new(2, &[Seat(0), Seat(1)], 0, seed, TIE, SILENCE);
            a.request(req(0, 1, 250_000, 251_000), 251_000);
            a.request(req(1, 1, 250_030, 290_000), 290_000);
            let v = a.poll(290_000).unwrap();
            assert!(v.tie);
            assert!(matches!(&a.log[0], LogLine::Tie { spread_us: 30, winner, .. } if *winner == v.request.seat));
            winners.insert(v.request.seat);
        }
        assert_eq!(winners.len(), 2, "the draw goes both ways");
        // Outside the margin it is no tie.
        let mut a = MomentArbiter::new(2, &[Seat(0), Seat(1)], 0, 1, TIE, SILENCE);
        a.request(req(0, 1, 250_000, 251_000), 251_000);
        a.request(req(1, 1, 250_051, 290_000), 290_000);
        assert_eq!(a.poll(290_000).map(|v| (v.request.seat, v.tie)), Some((Seat(0), false)));
    }

    #[test]
    fn b_4_3_a_tie_is_drawn_between_seats_not_requests() {
        // Seat 0 sends two requests around seat 1's, all within the margin: each seat still
        // has one chance in two.
        let draws = 400;
        let mut seat_0 = 0;
        for seed in 0..draws {
            let mut a = MomentArbiter::new(2, &[Seat(0), Seat(1)], 0, seed, TIE, SILENCE);
            a.request(req(0, 1, 250_000, 251_000), 251_000);
            a.request(req(1, 2, 250_010, 260_000), 260_000);
            a.request(req(0, 3, 250_020, 270_000), 270_000);
            let v = a.poll(290_000).unwrap();
            assert!(matches!(&a.log[0], LogLine::Tie { seats, .. } if seats.len() == 2));
            seat_0 += usize::from(v.request.seat == Seat(0));
        }
        // 400 fair draws: within 4.5 standard deviations (±45) of 200.
        assert!((155..=245).contains(&seat_0), "seat 0 won {seat_0} of {draws}");
    }

    #[test]
    fn b_4_3_a_stand_in_s_request_leaves_the_moment_waiting_for_its_laptop() {
        // Seat 1's stand-in grabs at 300 ms while its pilot's laptop is still there and beats
        // (it vouched to 120 ms); seat 0 asked at 250 ms. Only the laptop's own beats (or its
        // own request) can say its hand was no faster than 250 ms.
        let mut a = MomentArbiter::new(2, &[Seat(0), Seat(1)], 0, 1, TIE, SILENCE);
        a.heartbeat(Seat(1), 120_000, 130_000);
        a.request(req(0, 4, 250_000, 251_000), 251_000);
        a.request(Request { stand_in: true, ..req(1, 5, 300_000, 300_000) }, 300_000);
        assert_eq!(a.frontier(Seat(1)), 120_000, "a stand-in's request is no heartbeat of the laptop");
        assert_eq!(a.poll(300_000), None, "seat 1's laptop has not spoken");
        a.request(req(1, 4, 240_000, 310_000), 310_000);
        assert_eq!(a.poll(310_000).map(|v| v.request.seat), Some(Seat(1)), "the laptop's faster hand");
    }

    #[test]
    fn b_4_3_a_stand_in_speaks_for_a_laptop_that_said_nothing_of_the_moment() {
        // Seat 1's pilot is away: the laptop is connected but has not beaten in this moment.
        // Its stand-in's request at 300 ms lets seat 0's at 250 ms be judged at once.
        let mut a = MomentArbiter::new(2, &[Seat(0), Seat(1)], 0, 1, TIE, SILENCE);
        a.request(req(0, 4, 250_000, 251_000), 251_000);
        a.request(Request { stand_in: true, ..req(1, 5, 300_000, 300_000) }, 300_000);
        assert_eq!(a.poll(300_000).map(|v| v.request.seat), Some(Seat(0)));
    }

    #[test]
    fn the_next_deadline_is_a_blocking_seat_s_never_one_that_has_spoken() {
        // Seat 1 asked at once (it holds up nothing); seat 0's stand-in asked faster, and seat
        // 0's laptop beat once at 50 ms without vouching past it. The next deadline is when
        // the request stops waiting for seat 0's laptop — not seat 1's cut-off, sooner, where a
        // tick would change nothing (a room ticking at its deadlines would spin there).
        let mut a = MomentArbiter::new(2, &[Seat(0), Seat(1)], 10_000, 1, TIE, SILENCE);
        a.request(req(1, 4, 200_000, 12_000), 12_000);
        a.heartbeat(Seat(0), 1_000, 50_000);
        a.request(Request { stand_in: true, ..req(0, 5, 5_000, 60_000) }, 60_000);
        let deadline = a.next_deadline();
        assert_eq!(deadline, Some(10_000 + 5_000 + TIE + SILENCE + 1));
        assert_eq!(a.poll(deadline.unwrap()).map(|v| v.request.seat), Some(Seat(0)));
        assert_eq!(a.not_waited_for(), [Seat(0)].into_iter().collect(), "its laptop no longer waited for");
    }

    #[test]
    fn a_silent_seat_is_cut_off_not_waited_for_forever() {
        let mut a = MomentArbiter::new(2, &[Seat(0), Seat(1)], 0, 1, TIE, SILENCE);
        a.request(req(0, 1, 250_000, 251_000), 251_000);
        assert_eq!(a.poll(SILENCE), None, "seat 1 may still be on its way");
        assert_eq!(a.next_deadline(), Some(SILENCE + 1));
        let v = a.poll(SILENCE + 1).unwrap();
        assert_eq!(v.request.seat, Seat(0));
        assert!(matches!(a.log[0], LogLine::CutOff { seat: Seat(1), .. }));
    }

    #[test]
    fn fairness_4_a_seat_that_pauses_as_a_habit_is_waited_for_longer_once_it_showed_the_moment() {
        const QUIET: u64 = 200_000;
        // Seats 1 and 3 pause as a habit (their beats showed it), seat 2 does not. Seats 1 and
        // 2 showed the moment and beat once at once, then went silent; seat 3 never showed it.
        let mut a = MomentArbiter::new(4, &[Seat(0), Seat(1), Seat(2), Seat(3)], 0, 1, TIE, SILENCE);
        a.wait_longer(Seat(1), QUIET);
        a.wait_longer(Seat(3), QUIET);
        for seat in [Seat(1), Seat(2)] {
            a.showed(seat);
            a.heartbeat(seat, 0, 0);
        }
        a.request(req(0, 1, 250_000, 251_000), 251_000);
        assert_eq!(a.next_deadline(), Some(SILENCE + 1), "seats 2 and 3 are cut off first");
        assert_eq!(a.poll(SILENCE + 1), None, "seat 1 is still waited for");
        assert_eq!(a.not_waited_for(), [Seat(2), Seat(3)].into_iter().collect(), "seat 3's reveal is late on its way");
        assert_eq!(a.next_deadline(), Some(SILENCE + QUIET + 1));
        a.request(req(1, 1, 240_000, SILENCE + QUIET), SILENCE + QUIET);
        assert_eq!(a.poll(SILENCE + QUIET).map(|v| v.request.seat), Some(Seat(1)), "its faster hand, late");
        // Beating without vouching past the request: held as long as silent, for it too.
        let mut a = MomentArbiter::new(2, &[Seat(0), Seat(1)], 0, 1, TIE, SILENCE);
        a.wait_longer(Seat(1), QUIET);
        a.showed(Seat(1));
        a.request(req(0, 1, 250_000, 251_000), 251_000);
        let stall = 250_000 + TIE + SILENCE + QUIET;
        for now in (300_000..stall).step_by(100_000) {
            a.heartbeat(Seat(1), 10_000, now);
            assert_eq!(a.poll(now), None);
        }
        assert_eq!(a.next_deadline(), Some(stall + 1));
        assert_eq!(a.poll(stall + 1).map(|v| v.request.seat), Some(Seat(0)));
        assert!(matches!(a.log[..], [LogLine::Stalled { seat: Seat(1) }]));
    }

    #[test]
    fn fairness_4_a_verdict_names_the_seats_it_no_longer_waited_for() {
        // Seat 1 silent, seat 2 beating without ever vouching past the request, seat 3 past it.
        let mut a = MomentArbiter::new(4, &[Seat(0), Seat(1), Seat(2), Seat(3)], 0, 1, TIE, SILENCE);
        a.request(req(0, 1, 250_000, 251_000), 251_000);
        a.heartbeat(Seat(3), 400_000, 260_000);
        for now in (300_000..=SILENCE).step_by(100_000) {
            a.heartbeat(Seat(2), 10_000, now);
        }
        assert!(a.not_waited_for().is_empty(), "every seat still waited for");
        let v = a.poll(250_000 + TIE + SILENCE + 1).unwrap();
        assert_eq!(v.request.seat, Seat(0));
        assert_eq!(a.not_waited_for(), [Seat(1), Seat(2)].into_iter().collect());
    }

    #[test]
    fn a_seat_that_got_its_pawn_no_longer_blocks() {
        let mut a = MomentArbiter::new(3, &[Seat(0), Seat(1), Seat(2)], 0, 1, TIE, SILENCE);
        a.request(req(0, 1, 250_000, 251_000), 251_000);
        a.heartbeat(Seat(1), 400_000, 260_000);
        assert_eq!(a.poll(260_000), None);
        a.withdraw(Seat(2));
        assert!(a.poll(260_000).is_some());
    }

    #[test]
    fn claims_are_bounded_by_what_the_path_allows() {
        // Honest: input at 1_000_000, path 40 ms + 20 ms jitter, arrival 1_050_000.
        let b = bound_claim(300_000, 1_000_000, 700_000, 1_050_000, 60_000, 700_000, Allowance::same(5_000), 0);
        // Untouched, and how close it came: its input 15 ms after the earliest its arrival
        // allows (1 050 − 60 − 5 ms), its `shown` 5 ms before the latest (700 + 5 ms).
        let headroom = Bounded { input_headroom_us: 15_000, shown_headroom_us: 5_000, ..Bounded::default() };
        assert_eq!(b, Bounded { reaction_us: 300_000, ..headroom });
        // A liar claims its input 100 ms earlier: pushed back to arrival - owd_max - allowance.
        let b = bound_claim(200_000, 900_000, 700_000, 1_050_000, 60_000, 700_000, Allowance::same(5_000), 0);
        assert_eq!((b.clamped_input_us, b.input_headroom_us), (85_000, 0));
        assert_eq!(b.reaction_us, 285_000, "the liar keeps 15 ms: owd_max + allowance - true owd");
        // Claiming to have been shown later than the reveal could arrive.
        let b = bound_claim(100_000, 1_000_000, 900_000, 1_050_000, 60_000, 700_000, Allowance::same(5_000), 150_000);
        assert_eq!(b.clamped_shown_us, 195_000);
        assert!(!b.flagged);
        let b = bound_claim(80_000, 1_000_000, 920_000, 1_030_000, 60_000, 920_000, Allowance::same(5_000), 100_000);
        assert!(b.flagged, "under the plausibility floor");
    }
}
