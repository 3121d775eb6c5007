//! The room's side of fair grabs (fairness.md): clock models fed by probes, the scheduled
//! reveal, timed Klaxon calls and the grab arbiter. The decisions themselves are in
//! `crate::fair`; this file wires them to seats, connections and the engine.

use super::us;
use super::{ConnId, DueKind, Output, Room};
use crate::fair::{Allowance, GrabArbiter, Request, Sample, Verdict, bound_claim};
use bolide_protocol::event::{Contest, PhotoFinish};
use bolide_protocol::model::MAX_PILOTS;
use bolide_protocol::wire::{Datagram, ServerMsg};
use bolide_protocol::{Action, Event, Pawn, RuleError, Seat};
use std::collections::BTreeMap;

/// Ties closer than this are decided by a seeded draw (µs): the residual of drift correction
/// over a reaction, with room to spare.
pub const TIE_US: u64 = 20;
/// How long before the reveal instant the reservoirs leave for a client, on top of its
/// one-way delay bound (µs): peeking early is worth at most this.
pub const REVEAL_MARGIN_US: u64 = 2_000;
/// A client that sends nothing for this long (plus its delay bound) no longer holds the grab.
pub const SILENCE_US: u64 = 250_000;
/// A clock model with fewer probes than this is cold: the next lift waits [`WARM_UP_US`]
/// longer (the host's first-second burst brings 20).
pub const WARM_SAMPLES: usize = 12;
pub const WARM_UP_US: u64 = 1_000_000;
/// Warm-up waits one seat may cause in a championship.
pub const WARM_UPS: u8 = 3;
/// Assumed path bound for a client the host has no probe from yet (µs).
pub const UNKNOWN_OWD_US: u64 = 20_000;

/// One grab, from the reveal to the last pawn.
pub(super) struct GrabState {
    /// Host instant the reservoirs are shown everywhere.
    pub reveal: u64,
    pub arbiter: GrabArbiter,
    /// The sequence number of each seat's pending request, for a refusal.
    seqs: BTreeMap<Seat, u32>,
    /// When each connection's reveal left the host.
    sent: BTreeMap<ConnId, u64>,
    /// Every request the arbiter was given, in arrival order: (seat, pawn, reaction µs).
    asked: Vec<(Seat, Pawn, u64)>,
}

impl GrabState {
    /// Hands a request to the arbiter and keeps it for the photo finish.
    fn request(&mut self, request: Request, now: u64) {
        self.asked.push((request.seat, request.pawn, request.reaction_us));
        self.arbiter.request(request, now);
    }

    /// The photo finish of this grab, given who holds which pawn once it is over (B-4.3):
    /// each seat's first reaction, and for every pawn that someone else also asked for, the
    /// margin between its holder's request and the fastest losing one. `None` when nobody
    /// asked for anything (every pawn went by Klaxon picks or by itself).
    fn photo_finish(&self, pilots: usize, holder: impl Fn(Pawn) -> Option<Seat>) -> Option<PhotoFinish> {
        if self.asked.is_empty() {
            return None;
        }
        let micros = |us: u64| u32::try_from(us).unwrap_or(u32::MAX);
        let mut reactions = vec![None; pilots];
        for &(seat, _, reaction) in &self.asked {
            if let Some(slot @ None) = reactions.get_mut(seat.index()) {
                *slot = Some(micros(reaction));
            }
        }
        let mut pawns: Vec<Pawn> = self.asked.iter().map(|a| a.1).collect();
        pawns.sort_unstable();
        pawns.dedup();
        let contested = pawns
            .into_iter()
            .filter_map(|pawn| {
                let winner = holder(pawn)?;
                let asked = |seat_is_winner: bool| {
                    self.asked
                        .iter()
                        .filter(move |a| a.1 == pawn && (a.0 == winner) == seat_is_winner)
                        .min_by_key(|a| a.2)
                        .copied()
                };
                let (_, _, won_at) = asked(true)?;
                let (runner_up, _, lost_at) = asked(false)?;
                let drawn = won_at.abs_diff(lost_at) <= TIE_US;
                Some(Contest { pawn, winner, runner_up, margin_us: micros(lost_at.saturating_sub(won_at)), drawn })
            })
            .collect();
        Some(PhotoFinish { reactions, contested })
    }
}

/// One arbitrated request, for the fairness lab and the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FairRecord {
    pub race: u8,
    pub round: u16,
    pub seat: Seat,
    pub pawn: Pawn,
    /// Reaction after drift correction and bounds (µs, host time base).
    pub reaction_us: u64,
    /// How much the bounds added (µs).
    pub clamped_us: u64,
    pub arrival_us: u64,
    pub committed_us: u64,
    pub tie: bool,
    /// Whether the pawn was still free (the request won it).
    pub granted: bool,
    /// `false`: never judged — its seat got a pawn otherwise first (the last pawn goes by
    /// itself), so the request was void; `committed_us` is when.
    pub judged: bool,
    pub reveal_us: u64,
    /// The host's estimate of this seat's clock offset (client − host, µs) at the commit;
    /// `None` for a seat the host plays.
    pub offset_est_us: Option<i64>,
    /// The request carried the client's own timing (`Grab`); `false`: a seat the host plays
    /// (a bot or a stand-in), timed on the host's clock. (A plain `TakePawn` during the grab
    /// is refused: `RuleError::UntimedGrab`.)
    pub timed: bool,
}

impl Room {
    /// A timing probe came back from `conn` (fairness.md §1).
    pub fn probe(&mut self, conn: ConnId, sample: Sample) {
        self.clocks.entry(conn).or_default().add(sample);
    }

    /// The host's one-way delay bound to `conn`, µs.
    pub(super) fn owd_max(&self, conn: ConnId) -> u64 {
        self.clocks.get(&conn).filter(|c| c.samples() > 0).map_or(UNKNOWN_OWD_US, |c| c.owd_max())
    }

    /// The longest one-way path bound among the seated pilots' connections: what the reveal's
    /// lead and the Klaxon silence wait for. Spectators never grab or call, so a slow (or
    /// lying) watcher cannot stretch every round.
    pub(super) fn slowest_pilot_path(&self) -> u64 {
        self.members.iter().filter(|(_, seat)| seat.is_some()).map(|(c, _)| self.owd_max(*c)).max().unwrap_or(0)
    }

    /// Whether the next lift must wait for a pilot's clock model to warm up: a seated pilot's
    /// connection with too few probes, and at most [`WARM_UPS`] such waits for one seat in a
    /// championship (a pilot who reconnects over and over must not slow every round).
    pub(super) fn needs_warm_up(&mut self) -> bool {
        let cold: Vec<Seat> = self
            .members
            .iter()
            .filter_map(|(c, seat)| seat.filter(|_| self.clocks.get(c).is_none_or(|m| m.samples() < WARM_SAMPLES)))
            .filter(|seat| self.warm_ups.get(seat).copied().unwrap_or(0) < WARM_UPS)
            .collect();
        for seat in &cold {
            *self.warm_ups.entry(*seat).or_default() += 1;
        }
        !cold.is_empty()
    }

    pub(super) fn conn_of(&self, seat: Seat) -> Option<ConnId> {
        self.seats[seat.index()].conn
    }

    /// fairness.md §7: `claimed_us` (action `seq` of `conn`, client clock) raised to the last
    /// beat that did not count it; and how much that added.
    fn beat_bound(&self, conn: ConnId, seq: u32, claimed_us: u64) -> (u64, u64) {
        self.vouched.get(&conn).map_or((claimed_us, 0), |v| v.bound(seq, claimed_us))
    }

    /// A client time of `conn` on the host clock; without a model, the arrival minus the floor.
    fn to_host(&self, conn: ConnId, client_us: u64, now: u64) -> u64 {
        match self.clocks.get(&conn).filter(|c| c.samples() > 0) {
            Some(c) => c.to_host(client_us),
            None => now.saturating_sub(UNKNOWN_OWD_US),
        }
    }

    /// The grab opens: the reveal instant is far enough ahead for every client to get the
    /// reservoirs just before it.
    pub(super) fn open_grab(&mut self, now: u64) {
        let Some(champ) = self.champ() else { return };
        let race = champ.race();
        let lead = self.slowest_pilot_path() + REVEAL_MARGIN_US;
        let reveal = now + lead.clamp(10_000, 500_000);
        let competitors: Vec<Seat> = race.seats().filter(|s| race.car(*s).pawn.is_none()).collect();
        let silence = SILENCE_US + self.slowest_pilot_path();
        let seed = self.config.seed ^ (u64::from(race.race_no()) << 32) ^ u64::from(race.round());
        let arbiter = GrabArbiter::new(race.pilots(), &competitors, reveal, seed, TIE_US, silence);
        self.grab =
            Some(GrabState { reveal, arbiter, seqs: BTreeMap::new(), sent: BTreeMap::new(), asked: Vec::new() });
    }

    /// When the reveal leaves for `conn`, and the instant to show it on that client's clock.
    pub(super) fn reveal_timing(&mut self, conn: ConnId) -> Option<(u64, Option<u64>)> {
        let reveal = self.grab.as_ref()?.reveal;
        let send_at = reveal.saturating_sub(self.owd_max(conn) + REVEAL_MARGIN_US);
        let show_at = self.clocks.get(&conn).filter(|c| c.samples() > 0).map(|c| c.to_client(reveal));
        if let Some(g) = &mut self.grab {
            g.sent.insert(conn, send_at);
        }
        Some((send_at, show_at))
    }

    /// The datagram twin of a reveal update (fairness.md §2): the values and when to show
    /// them, so that a lost packet on the stream does not delay what the pilot sees.
    pub(super) fn reveal_datagram(&self, events: &[Event], show_at_us: Option<u64>) -> Option<Datagram> {
        let race = self.champ()?.race();
        let values = events.iter().find_map(|e| match e {
            Event::ReservoirsRevealed { values } => Some(values),
            _ => None,
        })?;
        let mut by_pawn = [0; MAX_PILOTS];
        for (slot, v) in by_pawn.iter_mut().zip(values) {
            *slot = *v;
        }
        Some(Datagram::Reveal { race: race.race_no(), round: race.round(), show_at_us, values: by_pawn })
    }

    /// B-4.6: a Klaxon call, ordered by when it was made on the host clock.
    pub(super) fn klaxon_call(
        &mut self,
        now: u64,
        conn: ConnId,
        seat: Seat,
        seq: u32,
        at_us: Option<u64>,
        out: &mut Vec<Output>,
    ) {
        let refuse = |error| Output::Send { conn, msg: ServerMsg::ActRefused { seq, error } };
        let Some(champ) = self.champ() else { return out.push(refuse(RuleError::RaceOver)) };
        if let Err(e) = champ.race().check(seat, Action::Klaxon) {
            return out.push(refuse(e));
        }
        let at = match at_us {
            // §7: no earlier than this client's own last beat that did not count the call.
            Some(t) => self.to_host(conn, self.beat_bound(conn, seq, t).0, now),
            None => now.saturating_sub(self.owd_max(conn)),
        };
        let Some(order) = &mut self.klaxon else { return out.push(refuse(RuleError::KlaxonTooLate)) };
        if order.calls().iter().any(|c| c.seat == seat) {
            return out.push(refuse(RuleError::KlaxonAlreadyCalled));
        }
        if !order.call(seat, at, now) {
            // B-4.6 ruling: too late, and the token is not spent.
            return out.push(refuse(RuleError::KlaxonTooLate));
        }
        self.settle(now, out);
    }

    /// A heartbeat from `conn`: its clock now, and when it showed the reservoirs. Unless it
    /// `vouches` (the host holds every action sent before it), it only shows the seat is
    /// alive: its time cannot yet rule out an earlier call or grab still on its way.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn heartbeat(
        &mut self,
        now: u64,
        conn: ConnId,
        seat: Seat,
        now_us: u64,
        shown_us: Option<u64>,
        vouches: bool,
        out: &mut Vec<Output>,
    ) {
        let host_now = if vouches { self.to_host(conn, now_us, now) } else { 0 };
        if let Some(order) = &mut self.klaxon {
            order.heartbeat(seat, host_now, now);
        }
        if let Some(grab) = &mut self.grab {
            let elapsed = match shown_us.filter(|_| vouches) {
                Some(shown) => {
                    let elapsed = now_us.saturating_sub(shown);
                    self.clocks.get(&conn).map_or(elapsed as f64, |c| c.to_host_duration(elapsed)) as u64
                }
                None => 0,
            };
            grab.arbiter.heartbeat(seat, elapsed, now);
        }
        self.settle(now, out);
    }

    /// B-4.3: a grab request; `(shown, input)` are on the client's clock.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn grab_request(
        &mut self,
        now: u64,
        conn: ConnId,
        seat: Seat,
        seq: u32,
        pawn: Pawn,
        (shown, input): (u64, u64),
        out: &mut Vec<Output>,
    ) {
        let refuse = |error| Output::Send { conn, msg: ServerMsg::ActRefused { seq, error } };
        let Some(champ) = self.champ() else { return out.push(refuse(RuleError::RaceOver)) };
        match champ.race().check(seat, Action::TakePawn { pawn }) {
            Ok(()) | Err(RuleError::PawnTaken { .. }) => {}
            Err(e) => return out.push(refuse(e)),
        }
        let Some(reveal) = self.grab.as_ref().map(|g| g.reveal) else {
            return out.push(refuse(RuleError::CupNotLifted));
        };
        let owd_max = self.owd_max(conn);
        if input < shown {
            return out.push(refuse(RuleError::BeforeShown));
        }
        // §7 first: the client's own beats bound its input on its own clock, exactly. The
        // path bounds below then catch what the beats cannot (a client that stopped beating).
        let (input, beat_clamp) = self.beat_bound(conn, seq, input);
        let raw = input - shown;
        let clock = self.clocks.get(&conn);
        let reaction = clock.map_or(raw as f64, |c| c.to_host_duration(raw)) as u64;
        let sent = self.grab.as_ref().and_then(|g| g.sent.get(&conn).copied()).unwrap_or(reveal);
        let latest_show = reveal.max(sent + owd_max);
        // Input: slack for a QUIC retransmission when every copy of the request was lost (about
        // a round trip plus the peer's ack delay). Shown: the reveal came as copies too, so
        // only the clock model's error and the jitter tail.
        let jitter = clock.map_or(UNKNOWN_OWD_US, |c| c.jitter());
        let allowance = Allowance { input_us: 2 * owd_max + 30_000, shown_us: 2 * jitter + 15_000 };
        let b = bound_claim(
            reaction,
            self.to_host(conn, input, now),
            self.to_host(conn, shown, now),
            now,
            owd_max,
            latest_show,
            allowance,
            us(self.config.plausible_reaction_ms),
        );
        if b.flagged {
            tracing::warn!(%seat, reaction_us = b.reaction_us, "a reaction under the plausibility floor (anticipation?)");
        }
        if b.clamped_input_us + b.clamped_shown_us > 0 {
            tracing::warn!(%seat, clamped_input_us = b.clamped_input_us, clamped_shown_us = b.clamped_shown_us, "a grab claimed more than its path allows: clamped");
        }
        let beat_clamp = clock.map_or(beat_clamp as f64, |c| c.to_host_duration(beat_clamp)) as u64;
        if beat_clamp > 0 {
            tracing::warn!(%seat, beat_clamp_us = beat_clamp, "a grab claimed an input before its own last beat: bounded");
        }
        let (reaction, clamped) = (b.reaction_us, b.clamped_input_us + b.clamped_shown_us + beat_clamp);
        let Some(grab) = &mut self.grab else { return };
        grab.seqs.insert(seat, seq);
        grab.request(Request { seat, pawn, reaction_us: reaction, arrival: now }, now);
        self.clamped.insert(seat, clamped);
        self.timed.insert(seat, true);
        self.settle(now, out);
    }

    /// A host bot (or a stand-in) grabs: it lives on the host clock, so its reaction is exact.
    pub(super) fn bot_grab(&mut self, now: u64, seat: Seat, pawn: Pawn, out: &mut Vec<Output>) {
        let Some(grab) = &mut self.grab else { return };
        let reaction = now.saturating_sub(grab.reveal);
        grab.request(Request { seat, pawn, reaction_us: reaction, arrival: now }, now);
        self.clamped.insert(seat, 0);
        self.timed.insert(seat, false);
        self.settle(now, out);
    }

    /// Ends the grab once the race has left `Phase::Grab` (every pawn has its holder): the
    /// requests still pending are recorded as void (their seat was handed the last pawn), and
    /// its photo finish is returned — `None` while the grab goes on, or when nobody grabbed.
    /// The grab's state ends here and nowhere else.
    pub(super) fn end_grab(&mut self, now: u64, out: &mut Vec<Output>) -> Option<Event> {
        let race = self.champ()?.race();
        if race.phase() == crate::game::Phase::Grab {
            return None;
        }
        let holder = |pawn| race.seats().find(|s| race.car(*s).pawn == Some(pawn));
        let photo = self.grab.as_ref()?.photo_finish(usize::from(race.pilots()), holder).map(Event::PhotoFinish);
        let (race_no, round) = (race.race_no(), race.round());
        let mut grab = self.grab.take()?;
        self.record_void((race_no, round, grab.reveal), grab.arbiter.close(), now, out);
        photo
    }

    /// Records requests that were never judged (their seat got a pawn otherwise first).
    fn record_void(&self, grab: (u8, u16, u64), void: Vec<Request>, now: u64, out: &mut Vec<Output>) {
        for request in void {
            let verdict = Verdict { request, committed: now, tie: false };
            let record = FairRecord { judged: false, ..self.fair_record(grab, verdict, false, now) };
            out.push(Output::Fair(record));
        }
    }

    /// The record of one request of grab `(race, round, reveal)` for the lab and the log.
    fn fair_record(
        &self,
        (race, round, reveal): (u8, u16, u64),
        verdict: Verdict,
        granted: bool,
        now: u64,
    ) -> FairRecord {
        let seat = verdict.request.seat;
        FairRecord {
            race,
            round,
            seat,
            pawn: verdict.request.pawn,
            reaction_us: verdict.request.reaction_us,
            clamped_us: self.clamped.get(&seat).copied().unwrap_or(0),
            arrival_us: verdict.request.arrival,
            committed_us: verdict.committed,
            tie: verdict.tie,
            granted,
            judged: true,
            reveal_us: reveal,
            timed: self.timed.get(&seat).copied().unwrap_or(false),
            offset_est_us: self
                .conn_of(seat)
                .and_then(|c| self.clocks.get(&c))
                .filter(|c| c.samples() > 0)
                .map(|c| c.offset_at(now) as i64),
        }
    }

    /// Commits whatever can be committed now: the Klaxon order once the lift has passed, the
    /// grab's verdicts as they become final.
    pub(super) fn settle(&mut self, now: u64, out: &mut Vec<Output>) {
        // Seats the host plays are on the host clock: they never hold anything up.
        let hosted: Vec<Seat> =
            (0..self.seats.len() as u8).map(Seat).filter(|s| self.seats[s.index()].bot_plays()).collect();
        if self.lift_passed {
            let settled = self.klaxon.as_mut().and_then(|order| {
                for s in &hosted {
                    order.heartbeat(*s, now, now);
                }
                order.settled(now)
            });
            if let Some(calls) = settled {
                self.klaxon = None;
                self.lift_passed = false;
                for call in calls {
                    if let Err(e) = self.apply(now, call.seat, Action::Klaxon, out) {
                        tracing::info!(seat = %call.seat, %e, "a Klaxon call no longer applies");
                    }
                }
                if let Some(first) = self.champ().map(|c| c.race().first_player()) {
                    let _ = self.apply(now, first, Action::Lift, out);
                }
            }
        }
        loop {
            let Some(grab) = &mut self.grab else { return };
            if now < grab.reveal {
                return;
            }
            for s in &hosted {
                grab.arbiter.heartbeat(*s, now - grab.reveal, now);
            }
            let Some(verdict) = grab.arbiter.poll(now) else { return };
            let seq = grab.seqs.remove(&verdict.request.seat).unwrap_or(0);
            let reveal = grab.reveal;
            let (race, round) = match self.champ() {
                Some(c) => (c.race().race_no(), c.race().round()),
                None => return,
            };
            let Request { seat, pawn, .. } = verdict.request;
            if verdict.tie {
                // fairness.md §4: ties go to a seeded draw, and the draw is logged.
                if let Some(line) = self.grab.as_ref().and_then(|g| g.arbiter.log.last()) {
                    tracing::info!(?line, "grab tie decided by the seeded draw");
                }
            }
            let result = self.apply(now, seat, Action::TakePawn { pawn }, out);
            let record = self.fair_record((race, round, reveal), verdict, result.is_ok(), now);
            out.push(Output::Fair(record));
            match result {
                Ok(()) => {
                    // Everyone who now holds a pawn (the last one goes by itself) is done.
                    let holders: Vec<Seat> = self
                        .champ()
                        .map(|c| c.race().seats().filter(|s| c.race().car(*s).pawn.is_some()).collect())
                        .unwrap_or_default();
                    let mut void = Vec::new();
                    if let Some(grab) = &mut self.grab {
                        for s in holders {
                            void.extend(grab.arbiter.withdraw(s));
                        }
                    }
                    self.record_void((race, round, reveal), void, now, out);
                }
                Err(error) => {
                    if let Some(conn) = self.conn_of(seat).filter(|_| !self.seats[seat.index()].bot_plays()) {
                        out.push(Output::Send { conn, msg: ServerMsg::ActRefused { seq, error } });
                    } else {
                        // A bot whose pawn went to a faster hand picks again.
                        let at = now.saturating_add(us(self.config.bot_delay_ms) / 4);
                        self.due.push(super::Due { at, kind: DueKind::Act(seat) });
                    }
                }
            }
        }
    }
}
