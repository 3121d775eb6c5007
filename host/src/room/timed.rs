//! The room's side of the timed moments (fairness.md): Klaxon calls under the cup, the grab
//! and the Échange window. The fairness state and its decisions are [`Fairness`]'s; this
//! file wires them to seats, connections and the engine — what opens a moment, who competes
//! in it, and applying what it decided.

use super::fairness::{Claim, Decision, ECHANGE_LEAD_US, MomentId, REVEAL_MARGIN_US};
use super::{ConnId, DueKind, Output, Room, us};
use crate::fair::Request;
use crate::game::Phase;
use bolide_protocol::model::MAX_PILOTS;
use bolide_protocol::wire::{Datagram, ServerMsg};
use bolide_protocol::{Action, Event, RuleError, Seat, Timed};

/// The moment a phase of the race is decided in, if it is timed.
pub(super) fn moment_of(phase: Phase) -> Option<Timed> {
    match phase {
        Phase::Grab => Some(Timed::Grab),
        Phase::Echange => Some(Timed::Echange),
        _ => None,
    }
}

impl Room {
    /// The seated pilots' connections and seats.
    fn pilot_conns(&self) -> impl Iterator<Item = (ConnId, Seat)> + '_ {
        self.members.iter().filter_map(|(c, seat)| seat.map(|s| (*c, s)))
    }

    /// The longest one-way path bound among the seated pilots.
    pub(super) fn slowest_pilot_path(&self) -> u64 {
        self.fair.slowest_path(self.pilot_conns().map(|(c, _)| c))
    }

    /// Whether the next lift waits for a pilot's clock model to warm up (`Fairness`).
    pub(super) fn needs_warm_up(&mut self) -> bool {
        let pilots: Vec<(ConnId, Seat)> = self.pilot_conns().collect();
        self.fair.needs_warm_up(pilots.into_iter())
    }

    pub(super) fn conn_of(&self, seat: Seat) -> Option<ConnId> {
        self.seats.get(seat.index()).and_then(|s| s.conn)
    }

    /// The seats the host plays now: on its clock, they never hold a decision up.
    fn hosted(&self) -> Vec<Seat> {
        (0..self.seats.len() as u8).map(Seat).filter(|s| self.seats[s.index()].bot_plays()).collect()
    }

    /// The seats still to act in `moment`: without a pawn in the grab, undecided in the
    /// Échange window.
    fn contenders(&self, moment: Timed) -> Vec<Seat> {
        let Some(race) = self.champ().map(|c| c.race()) else { return Vec::new() };
        race.seats()
            .filter(|s| match moment {
                Timed::Grab => race.car(*s).pawn.is_none(),
                Timed::Echange => race.check(*s, Action::KeepPawn).is_ok(),
            })
            .collect()
    }

    /// The timed moment `events` just opened: the one the race is in after them, if they
    /// opened it.
    pub(super) fn opened_moment(&self, events: &[Event]) -> Option<Timed> {
        Event::opened_by(events, self.champ().and_then(|c| moment_of(c.race().phase())))
    }

    /// A timed moment opens. The reveal is far enough ahead for every client to get the
    /// reservoirs just before it (they leave at the last moment, `moment_timing`); the Échange
    /// window far enough for a retransmission (it leaves at once, [`ECHANGE_LEAD_US`]).
    pub(super) fn open_moment(&mut self, now: u64, moment: Timed) {
        let Some(race) = self.champ().map(|c| c.race()) else { return };
        let id = MomentId { race: race.race_no(), round: race.round(), moment };
        let slowest = self.slowest_pilot_path();
        let lead = match moment {
            Timed::Grab => (slowest + REVEAL_MARGIN_US).clamp(10_000, 500_000),
            Timed::Echange => (2 * slowest + ECHANGE_LEAD_US).min(500_000),
        };
        let seed = self.config.seed ^ (u64::from(id.race) << 32) ^ u64::from(id.round) ^ (moment as u64) << 48;
        let pilots = race.pilots();
        let competitors = self.contenders(moment);
        self.fair.open(id, now + lead, pilots, &competitors, seed, slowest);
    }

    /// When the update that opens the current moment leaves for `conn`, and the instant to
    /// show it on that client's clock.
    pub(super) fn moment_timing(&mut self, conn: ConnId, now: u64) -> Option<(u64, Option<u64>)> {
        let (id, opens) = self.fair.open_moment()?;
        let send_at = match id.moment {
            Timed::Grab => opens.saturating_sub(self.fair.owd_max(conn) + REVEAL_MARGIN_US),
            Timed::Echange => now,
        };
        self.fair.sent(conn, send_at);
        Some((send_at, self.fair.to_client(conn, opens)))
    }

    /// The datagram twin of the update that opens a moment (fairness.md §2), with when to show
    /// it, so that a lost packet on the stream does not delay what the pilot sees: the reveal's
    /// values, or who holds each pawn when an Échange window opens (B-4.7; it also carries the
    /// values, as the last Klaxon pick can reveal and open the window in one update).
    pub(super) fn twin_datagram(&self, events: &[Event], show_at_us: Option<u64>) -> Option<Datagram> {
        let champ = self.champ()?;
        let race = champ.race();
        let (race_no, round) = (race.race_no(), race.round());
        if let Some(seats) = events.iter().rev().find_map(|e| match e {
            Event::EchangeWindow { seats } => Some(seats),
            _ => None,
        }) {
            let (mut holders, mut values) = ([None; MAX_PILOTS], [0; MAX_PILOTS]);
            for p in champ.spectator_view().pawns {
                if let (Some(holder), Some(value)) = (holders.get_mut(p.pawn.index()), values.get_mut(p.pawn.index())) {
                    *holder = p.owner;
                    *value = p.reservoir.unwrap_or(0);
                }
            }
            let deciding = seats.iter().fold(0u8, |bits, s| bits | 1u8.checked_shl(u32::from(s.0)).unwrap_or(0));
            return Some(Datagram::EchangeOpen { race: race_no, round, show_at_us, holders, values, deciding });
        }
        let values = events.iter().find_map(|e| match e {
            Event::ReservoirsRevealed { values } => Some(values),
            _ => None,
        })?;
        let mut by_pawn = [0; MAX_PILOTS];
        for (slot, v) in by_pawn.iter_mut().zip(values) {
            *slot = *v;
        }
        Some(Datagram::Reveal { race: race_no, round, show_at_us, values: by_pawn })
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
        let checked = match self.champ() {
            Some(champ) => champ.race().check(seat, Action::Klaxon),
            None => Err(RuleError::RaceOver),
        };
        if let Err(error) = checked.and_then(|()| self.fair.klaxon_call(Some((conn, seq, at_us)), seat, now)) {
            out.push(Output::Send { conn, msg: ServerMsg::ActRefused { seq, error } });
        }
        // Even a refused call (after the lift) says the laptop is past the lift: it may be the
        // last one the order waited for.
        self.settle(now, out);
    }

    /// A heartbeat from a seated pilot's connection.
    pub(super) fn heartbeat(
        &mut self,
        now: u64,
        conn: ConnId,
        seat: Seat,
        (now_us, shown, acts): (u64, Option<bolide_protocol::wire::Shown>, u32),
        out: &mut Vec<Output>,
    ) {
        self.fair.heartbeat(conn, seat, now_us, shown, acts, now);
        self.settle(now, out);
    }

    /// B-4.3 / B-4.7: a pilot's timed request — a grab, or an Échange declaration — with
    /// `(shown, input)` on its client's clock. Outside its moment it is an ordinary action.
    pub(super) fn timed_request(&mut self, now: u64, claim: Claim, out: &mut Vec<Output>) {
        let (conn, seq) = (claim.conn, claim.seq);
        let refuse = |error| Output::Send { conn, msg: ServerMsg::ActRefused { seq, error } };
        let Some(race) = self.champ().map(|c| c.race()) else { return out.push(refuse(RuleError::RaceOver)) };
        let moment = moment_of(race.phase());
        let asks = match claim.action {
            Action::TakePawn { .. } => Timed::Grab,
            _ => Timed::Echange,
        };
        if moment != Some(asks) {
            // A Klaxon pilot's pick (B-4.6) is sequential: applied as it comes.
            if let Err(error) = self.apply(now, claim.seat, claim.action, out) {
                out.push(refuse(error));
            }
            return;
        }
        match race.check(claim.seat, claim.action) {
            // A pawn taken meanwhile may be a slower hand's: the arbiter decides.
            Ok(()) | Err(RuleError::PawnTaken { .. }) => {}
            Err(e) => return out.push(refuse(e)),
        }
        if let Err(e) = self.fair.claim(claim, now, us(self.config.plausible_reaction_ms)) {
            return out.push(refuse(e));
        }
        self.settle(now, out);
    }

    /// A seat the host plays acts in the open moment, on the host clock.
    pub(super) fn hosted_request(&mut self, now: u64, seat: Seat, action: Action, out: &mut Vec<Output>) {
        self.fair.hosted_claim(seat, action, now);
        self.settle(now, out);
    }

    /// Ends the open moment once the race has left it (every pawn has its holder, every
    /// Échange is declared): the requests still pending are recorded as void (their seat was
    /// done otherwise), and its photo finish is returned — `None` while it goes on, or when
    /// nobody asked for anything. The moment's state ends here and nowhere else.
    pub(super) fn end_moment(&mut self, now: u64, out: &mut Vec<Output>) -> Option<Event> {
        let race = self.champ()?.race();
        let (id, _) = self.fair.open_moment()?;
        if moment_of(race.phase()) == Some(id.moment) && (race.race_no(), race.round()) == (id.race, id.round) {
            return None;
        }
        let pilots = usize::from(race.pilots());
        let holders: Vec<(Seat, Option<bolide_protocol::Pawn>)> = race.seats().map(|s| (s, race.car(s).pawn)).collect();
        let holder = |pawn| holders.iter().find(|h| h.1 == Some(pawn)).map(|h| h.0);
        let (void, photo) = self.fair.close(pilots, holder);
        self.record_void(void, now, out);
        self.fair.end();
        photo.map(Event::PhotoFinish)
    }

    /// Records requests that were never judged (their seat was done otherwise first).
    fn record_void(&self, void: Vec<Request>, now: u64, out: &mut Vec<Output>) {
        for request in void {
            let verdict = crate::fair::Verdict { request, committed: now, tie: false };
            let conn = self.conn_of(request.seat);
            out.push(Output::Fair(self.fair.record(verdict, false, false, conn, now)));
        }
    }

    /// Applies whatever can be decided now: the Klaxon order once the lift has passed, the
    /// open moment's verdicts as they become final.
    pub(super) fn settle(&mut self, now: u64, out: &mut Vec<Output>) {
        loop {
            let hosted = self.hosted();
            match self.fair.decide(now, &hosted) {
                None => return self.stand_in_for_stallers(now),
                Some(Decision::Klaxon(calls)) => {
                    for call in calls {
                        if let Err(e) = self.apply(now, call.seat, Action::Klaxon, out) {
                            tracing::info!(seat = %call.seat, %e, "a Klaxon call no longer applies");
                        }
                    }
                    if let Some(first) = self.champ().map(|c| c.race().first_player()) {
                        let _ = self.apply(now, first, Action::Lift, out);
                    }
                }
                Some(Decision::Verdict { verdict, seq }) => self.apply_verdict(now, verdict, seq, out),
            }
        }
    }

    /// A seat that held up a timed moment twice in the championship by beating without
    /// vouching (a modified laptop: `fair::arbiter`'s `Stalled`) is played by its stand-in for
    /// the rest of this moment, at once — as if it had let its time limit pass. It takes the
    /// seat back by acting, as after any time limit.
    fn stand_in_for_stallers(&mut self, now: u64) {
        for seat in self.fair.stalled_now() {
            let Some(slot) = self.seats.get_mut(seat.index()) else { continue };
            if self.fair.stalls(seat) < 2 || slot.bot_plays() {
                continue;
            }
            slot.zombie = true;
            tracing::warn!(%seat, "a seat stalled a second timed moment: its stand-in plays it for this one");
            self.due.retain(|d| d.kind != DueKind::Act(seat));
            self.due.push(super::Due { at: now, kind: DueKind::Act(seat) });
        }
    }

    /// A final verdict of the open moment goes to the engine, and into the fairness log.
    fn apply_verdict(&mut self, now: u64, verdict: crate::fair::Verdict, seq: u32, out: &mut Vec<Output>) {
        let Request { seat, action, .. } = verdict.request;
        let moment = self.fair.open_moment().map(|(id, _)| id);
        // The record is taken before the engine may end the moment.
        let mut record = self.fair.record(verdict, true, true, self.conn_of(seat), now);
        let mut applied = Vec::new();
        let result = self.apply(now, seat, action, &mut applied);
        record.granted = result.is_ok();
        out.push(Output::Fair(record));
        out.extend(applied);
        match result {
            Ok(()) => {
                // Everyone now done (the last pawn goes by itself) no longer competes — in this
                // moment, if it goes on (the last pawn may have opened the Échange window).
                if let Some(id) = moment.filter(|id| self.fair.open_moment().map(|m| m.0) == Some(*id)) {
                    let still = self.contenders(id.moment);
                    let done: Vec<Seat> = self
                        .champ()
                        .map(|c| c.race().seats().filter(|s| !still.contains(s)).collect())
                        .unwrap_or_default();
                    let void = self.fair.withdraw(done.into_iter());
                    self.record_void(void, now, out);
                }
            }
            Err(error) => {
                if let Some(conn) = self.conn_of(seat).filter(|_| !self.seats[seat.index()].bot_plays()) {
                    out.push(Output::Send { conn, msg: ServerMsg::ActRefused { seq, error } });
                    self.owes_a_decision(now, seat);
                } else {
                    // A bot whose pawn went to a faster hand picks again.
                    let at = now.saturating_add(us(self.config.bot_delay_ms) / 4);
                    self.due.push(super::Due { at, kind: DueKind::Act(seat) });
                }
            }
        }
    }
}
