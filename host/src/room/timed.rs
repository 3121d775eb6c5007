//! The room's side of what the game asks to be timed (fairness.md): calls under a countdown
//! (`Step::Countdown`: Bolide's Klaxon) and timed moments (`Step::Timed`: the grab, the Échange
//! window, the Coup-Fourré). The fairness state and its decisions are [`Fairness`]'s; this file
//! wires them to seats, connections and the game's seam — when a moment opens, who competes in
//! it, and applying what was decided. It matches on no game's phase or action.

use super::fairness::{Beat, Claim, Decision, PUBLIC_LEAD_US, REVEAL_MARGIN_US};
use super::moment_log::{ClosedBy, MomentLine};
use super::{ConnId, DueKind, Out, OutputOf, RoomOf, us};
use crate::fair::Request;
use bolide_table::wire::ServerMsgOf;
use bolide_table::{Game, Release, Seat, Seats, Step, TableRefusal};

/// The timed moment a game's step asks for: its name, who competes, when its news leave, and
/// the time it lasts when it ends with its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TimedStep {
    pub moment: u64,
    pub contenders: Seats,
    pub release: Release,
    pub window_us: Option<u64>,
}

impl TimedStep {
    pub fn of(step: Step) -> Option<TimedStep> {
        match step {
            Step::Timed { moment, contenders, release, window_us } => {
                Some(TimedStep { moment, contenders, release, window_us })
            }
            _ => None,
        }
    }
}

impl<G: Game> RoomOf<G> {
    /// The seated pilots' connections and seats.
    pub(super) fn pilot_conns(&self) -> impl Iterator<Item = (ConnId, Seat)> + '_ {
        self.members.iter().filter_map(|(c, seat)| seat.map(|s| (*c, s)))
    }

    /// The longest one-way path bound among the seated pilots.
    pub(super) fn slowest_pilot_path(&self) -> u64 {
        self.fair.slowest_path(self.pilot_conns().map(|(c, _)| c))
    }

    /// Whether the next countdown waits for a pilot's clock model to warm up (`Fairness`).
    pub(super) fn needs_warm_up(&mut self) -> bool {
        let pilots: Vec<(ConnId, Seat)> = self.pilot_conns().collect();
        self.fair.needs_warm_up(pilots.into_iter())
    }

    pub(super) fn conn_of(&self, seat: Seat) -> Option<ConnId> {
        self.seats.get(seat.index()).and_then(|s| s.conn)
    }

    /// The seats on the host's clock, which never hold a decision up: a bot's, and a seat no
    /// laptop holds. A pilot whose stand-in plays for now (it let a time limit pass) still
    /// has a laptop that shows the moment and beats: its hand may take the seat back at any
    /// instant, so it is waited for as any laptop is — its silence and its stalls bounded
    /// the same way (`fair::arbiter`) — or a slower hand nearer the host would beat it.
    fn hosted(&self) -> Vec<Seat> {
        (0..self.seats.len() as u8)
            .map(Seat)
            .filter(|s| self.seats[s.index()].bot.is_some() || self.seats[s.index()].conn.is_none())
            .collect()
    }

    /// The timed moment the game is in now, if it is in one.
    pub(super) fn timed_step(&self) -> Option<TimedStep> {
        TimedStep::of(self.playing()?.step())
    }

    /// The timed moment the game is in, if the room has not opened it yet: the action just
    /// applied opened it. (One action can pass through a moment: Bolide's last Klaxon pick
    /// can reveal, hand out the last pawn and open the Échange window in one update — the
    /// window is what opens.)
    pub(super) fn unopened_moment(&self) -> Option<TimedStep> {
        let step = self.timed_step()?;
        let open = self.fair.open_moment().map(|(id, _)| id);
        (open != Some(step.moment)).then_some(step)
    }

    /// A timed moment opens. Released at a secret instant (a reveal), it is far enough ahead
    /// for every contender's laptop to get it just before over its path's floor and to draw
    /// it in time (it leaves at the last moment, `moment_timing`);
    /// released at once (public news), far enough for a retransmission ([`PUBLIC_LEAD_US`]).
    pub(super) fn open_moment(&mut self, now: u64, step: TimedStep) {
        let slowest = self.slowest_pilot_path();
        let farthest = self.pilot_conns().filter_map(|(c, _)| self.fair.reveal_lead(c)).max().unwrap_or(0);
        let lead = match step.release {
            Release::Secret => (farthest + REVEAL_MARGIN_US).max(10_000),
            Release::Public => (2 * slowest + PUBLIC_LEAD_US).min(500_000),
        };
        // Ties within the margin are drawn from the room's seed and the moment's name.
        let seed = self.config.seed ^ step.moment.rotate_left(23);
        let competitors: Vec<Seat> = step.contenders.iter().collect();
        let name = (step.moment, step.window_us);
        let pilots: Vec<(ConnId, Seat)> = self.pilot_conns().collect();
        let seats = self.seats.len() as u8;
        self.fair.open(name, now + lead, seats, &pilots, &competitors, seed, step.release);
    }

    /// When the update that opens the current moment leaves for `conn`, and the instant to
    /// show it on that client's clock. A secret one leaves a contender's laptop at the same
    /// lead over its path's floor as every other's (`ClockModel::reveal_floor`: the jitter,
    /// which a laptop can widen, never leads it), plus its screen's frame lead (a page's
    /// frame goes up a refresh after its pass, so it draws a refresh ahead; at most
    /// `MAX_FRAME_LEAD_US`, what a peeking liar gains). Everyone else's — spectators, seats
    /// not in the moment, a laptop the host has no clock model of yet — leaves when it opens:
    /// a watcher next to a pilot has nothing early to whisper.
    pub(super) fn moment_timing(&mut self, conn: ConnId, now: u64) -> Option<(u64, Option<u64>)> {
        let (_, opens) = self.fair.open_moment()?;
        let contends = self
            .members
            .get(&conn)
            .copied()
            .flatten()
            .is_some_and(|seat| self.timed_step().is_some_and(|step| step.contenders.contains(seat)));
        let send_at = match self.fair.open_release()? {
            Release::Secret => match self.fair.reveal_lead(conn).filter(|_| contends) {
                Some(lead) => opens.saturating_sub(lead + REVEAL_MARGIN_US),
                None => opens,
            },
            Release::Public => now,
        };
        self.fair.sent(conn, send_at);
        Some((send_at, self.fair.to_client(conn, opens)))
    }

    /// A call under the countdown (Bolide's Klaxon, B-4.6), ordered by when it was made on
    /// the host clock.
    pub(super) fn call(
        &mut self,
        now: u64,
        (conn, seat): (ConnId, Seat),
        act: super::PlainAct<G::Action>,
        out: &mut Vec<Out<G>>,
    ) {
        let (seq, action, at_us) = act;
        let checked = match self.playing() {
            Some(game) => game.check(seat, action),
            None => Err(TableRefusal::Over.into()),
        };
        let called = checked
            .and_then(|()| self.fair.call(Some((conn, seq, at_us)), seat, action, now).map_err(G::Refusal::from));
        if let Err(error) = called {
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::ActRefused { seq, error } });
        }
        // Even a refused call (after the end) says the laptop is past the end: it may be the
        // last one the order waited for.
        self.settle(now, out);
    }

    /// A heartbeat from a seated pilot's connection.
    pub(super) fn heartbeat(&mut self, now: u64, conn: ConnId, seat: Seat, beat: Beat, out: &mut Vec<Out<G>>) {
        self.fair.heartbeat(conn, seat, beat, now);
        self.settle(now, out);
    }

    /// A pilot's timed request (B-4.3, B-4.7, M-15) with `(shown, input)` on its client's
    /// clock. Outside a timed moment it is a plain request (Bolide's Klaxon pick, B-4.6; a call
    /// under a countdown goes to the call order, never applied on arrival).
    pub(super) fn timed_request(&mut self, now: u64, claim: Claim<G::Action>, out: &mut Vec<Out<G>>) {
        let (conn, seq, seat, action) = (claim.conn, claim.seq, claim.seat, claim.action);
        let refuse = |error| OutputOf::Send { conn, msg: ServerMsgOf::ActRefused { seq, error } };
        let Some(game) = self.playing() else { return out.push(refuse(TableRefusal::Over.into())) };
        let Some(step) = self.timed_step() else {
            return self.plain_act(now, (conn, seat), (seq, action, Some(claim.input_us)), out);
        };
        let checked = game.claimable(seat, action).and_then(|()| {
            self.fair.claim(claim, now, us(self.config.plausible_reaction_ms)).map_err(G::Refusal::from)
        });
        if let Err(error) = checked {
            // Told to that laptop alone, and kept in the host's log (M-15.5, M-15.14).
            let line = MomentLine::Refused { moment: step.moment, seat, action, error: error.clone(), at_us: now };
            out.push(OutputOf::Moment(line));
            return out.push(refuse(error));
        }
        self.settle(now, out);
    }

    /// A seat the host plays acts in the open moment, on the host clock.
    pub(super) fn hosted_request(&mut self, now: u64, seat: Seat, action: G::Action, out: &mut Vec<Out<G>>) {
        // A stand-in for a pilot whose laptop is still here: the laptop may yet be faster.
        let stand_in = self.seats.get(seat.index()).is_some_and(|s| s.bot.is_none() && s.conn.is_some());
        self.fair.hosted_claim(seat, action, now, stand_in);
        self.settle(now, out);
    }

    /// Ends the open moment once the game has left it (in Bolide: every pawn has its holder,
    /// every Échange is declared): the requests still pending are recorded as void (their seat
    /// was done otherwise), and the game's photo finish of it is returned — `None` while it
    /// goes on, or when nobody asked for anything. The moment's state ends here and nowhere
    /// else.
    pub(super) fn end_moment(&mut self, now: u64, out: &mut Vec<Out<G>>) -> Option<G::Event> {
        let (id, _) = self.fair.open_moment()?;
        if self.timed_step().map(|s| s.moment) == Some(id) {
            return None;
        }
        let (void, asked) = self.fair.close();
        self.record_void(void, now, out);
        out.push(OutputOf::Moment(MomentLine::Closed { moment: id, by: self.fair.closed_by(), at_us: now }));
        self.fair.end();
        self.playing()?.photo_finish(id, &asked)
    }

    /// Records requests that were never judged (their seat was done otherwise first).
    fn record_void(&self, void: Vec<Request<G::Action>>, now: u64, out: &mut Vec<Out<G>>) {
        for request in void {
            let verdict = crate::fair::Verdict { request, committed: now, tie: false };
            let conn = self.conn_of(request.seat);
            out.push(OutputOf::Fair(self.fair.record(verdict, false, false, conn, now)));
        }
    }

    /// Applies whatever can be decided now: the calls once the countdown has ended, the open
    /// moment's verdicts as they become final.
    pub(super) fn settle(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        loop {
            let hosted = self.hosted();
            match self.fair.decide(now, &hosted) {
                None => {
                    self.stand_in_for_stallers(now);
                    return self.close_if_everyone_is_done(now, out);
                }
                Some(Decision::Calls(calls)) => {
                    let order = calls.iter().map(|&(seat, _, seq)| (seat, seq)).collect();
                    out.push(OutputOf::Calls(super::CallOrderRecord { order }));
                    for (seat, action, _) in calls {
                        if let Err(e) = self.apply(now, seat, action, out) {
                            tracing::info!(%seat, %e, "a call no longer applies");
                        }
                    }
                    self.time_up(now, out);
                }
                Some(Decision::Verdict { verdict, seq }) => self.apply_verdict(now, verdict, seq, out),
            }
        }
    }

    /// M-15.7: a moment that ends with its time closes before its hard deadline once its
    /// length has passed on the host clock (the host's bots are done) and every connected
    /// person who contends in it is done on their own clock — whatever they hold, so closing
    /// early tells nothing. A seat nobody is connected to is not waited for (M-15.12).
    fn close_if_everyone_is_done(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        for (moment, line) in self.fair.take_lines() {
            out.push(OutputOf::Moment(MomentLine::of_seat(moment, line)));
        }
        let Some(step) = self.timed_step() else { return };
        let (Some(window), Some((id, opens))) = (step.window_us, self.fair.open_moment()) else { return };
        if id != step.moment || now < opens.saturating_add(window) {
            return;
        }
        let people = step
            .contenders
            .iter()
            .filter(|s| self.seats.get(s.index()).is_some_and(|slot| !slot.bot_plays() && slot.conn.is_some()));
        if self.fair.everyone_done(people) {
            self.fair.closing(ClosedBy::EveryoneDone);
            self.time_up(now, out);
        }
    }

    /// A seat that held up a timed moment twice in the game by beating without vouching (a
    /// modified laptop: `fair::arbiter`'s `Stalled`) is played by its stand-in for the rest of
    /// this moment, at once — as if it had let its time limit pass. It takes the seat back by
    /// acting, as after any time limit.
    fn stand_in_for_stallers(&mut self, now: u64) {
        for seat in self.fair.stalled_now() {
            let Some(slot) = self.seats.get_mut(seat.index()) else { continue };
            if self.fair.stalls(seat) < 2 || slot.bot_plays() {
                continue;
            }
            slot.zombie = true;
            tracing::warn!(%seat, "a seat stalled a second timed moment: its stand-in plays it for this one");
            self.timers.due.retain(|d| d.kind != DueKind::Act(seat));
            self.timers.due.push(super::Due { at: now, kind: DueKind::Act(seat) });
        }
    }

    /// A final verdict of the open moment goes to the game, and into the fairness log.
    fn apply_verdict(&mut self, now: u64, verdict: crate::fair::Verdict<G::Action>, seq: u32, out: &mut Vec<Out<G>>) {
        let Request { seat, action, .. } = verdict.request;
        let moment = self.fair.open_moment().map(|(id, _)| id);
        // The record is taken before the game may end the moment.
        let mut record = self.fair.record(verdict, true, true, self.conn_of(seat), now);
        let mut applied = Vec::new();
        let result = self.apply(now, seat, action, &mut applied);
        record.granted = result.is_ok();
        out.push(OutputOf::Fair(record));
        out.extend(applied);
        match result {
            Ok(()) => {
                // Everyone now done (in Bolide, the last pawn goes by itself) no longer competes
                // — in this moment, if it goes on (the last pawn may have opened the next).
                let still = self.timed_step().filter(|s| Some(s.moment) == moment);
                if let Some(still) = still {
                    let done: Vec<Seat> =
                        (0..self.seats.len() as u8).map(Seat).filter(|s| !still.contenders.contains(*s)).collect();
                    let void = self.fair.withdraw(done.into_iter());
                    self.record_void(void, now, out);
                }
            }
            Err(error) => {
                if let Some(moment) = moment {
                    let line = MomentLine::Refused { moment, seat, action, error: error.clone(), at_us: now };
                    out.push(OutputOf::Moment(line));
                }
                if let Some(conn) = self.conn_of(seat).filter(|_| !self.seats[seat.index()].bot_plays()) {
                    out.push(OutputOf::Send { conn, msg: ServerMsgOf::ActRefused { seq, error } });
                    self.owes_a_decision(now, seat);
                } else {
                    // A bot whose pawn went to a faster hand picks again.
                    let at = now.saturating_add(us(self.config.bot_delay_ms) / 4);
                    self.timers.due.push(super::Due { at, kind: DueKind::Act(seat) });
                }
            }
        }
    }
}
