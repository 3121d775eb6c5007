//! The room's timers, as quinn-proto's connection keeps a `TimerTable`: what is due and when
//! (a countdown's end, a moment's length, a bot's move, a pilot's time limit), the step they
//! were set for, and the scheduling that sets them from what the game asks to be timed.

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DueKind {
    /// The countdown ends (Bolide's lift), or the timed moment that ends with its time, at
    /// its hard deadline (M-15.7).
    TimeUp,
    /// The length of a moment that ends with its time has passed on the host clock: it closes
    /// if everyone is done (M-15.7).
    LengthPassed,
    /// A bot-played seat may call before the countdown ends (Bolide's Klaxon).
    Call(Seat),
    /// A seat must decide: a bot's thinking time, or a pilot's time limit.
    Act(Seat),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Due {
    pub(super) at: u64,
    pub(super) kind: DueKind,
}

/// What the timers were set for: a change means new timers. Sequential decisions and
/// countdowns are named by the number of actions applied before them; a timed moment by the
/// game's name for it (its timers live as long as it does: each hand's reaction is drawn once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StepKey {
    Sequential(u32),
    Countdown(u32),
    Timed(u64),
    Over,
}

/// The room's timers: what is due, and the step they were set for.
#[derive(Debug, Default)]
pub(super) struct Timers {
    pub(super) due: Vec<Due>,
    pub(super) step: Option<StepKey>,
    /// When the current step's time limits started (µs): a comeback does not restart them.
    pub(super) step_start: u64,
    /// Actions applied so far (timers of sequential decisions restart with each).
    pub(super) applied: u32,
}

impl<G: Game> RoomOf<G> {
    /// When the room next needs [`Room::tick`], on the same clock as `now`.
    pub fn next_deadline(&self) -> Option<u64> {
        let lobby = |at: Option<u64>| at.filter(|_| matches!(self.stage, Stage::Lobby));
        let (path_check, held) = (lobby(self.lobby.path_check_at), lobby(self.lobby.held_until));
        self.timers.due.iter().map(|d| d.at).chain(self.fair.next_deadline()).chain(path_check).chain(held).min()
    }

    /// Fresh timers when the game reached a new step.
    pub(super) fn retime(&mut self, now: u64) {
        let Some(step) = self.playing().map(Game::step) else { return };
        let key = match step {
            Step::Sequential { .. } => StepKey::Sequential(self.timers.applied),
            Step::Countdown { .. } => StepKey::Countdown(self.timers.applied),
            Step::Timed { moment, .. } => StepKey::Timed(moment),
            Step::Over => StepKey::Over,
        };
        if self.timers.step != Some(key) {
            self.timers.step = Some(key);
            self.schedule(now, step);
        }
    }

    /// New timers for the step the game is in.
    pub(super) fn schedule(&mut self, now: u64, step: Step) {
        self.timers.due.clear();
        let warm_up =
            if matches!(step, Step::Countdown { .. }) && self.needs_warm_up() { fairness::WARM_UP_US } else { 0 };
        let mut due = Vec::new();
        match step {
            Step::Countdown { callers } => {
                // A laptop that joined a moment ago is known by a few probes only: its first
                // call and grab would be judged on a cold clock model (the lab saw far laptops
                // clamped by hundreds of ms). The countdown runs longer for the probe burst.
                let end = now.saturating_add(us(self.config.countdown_ms)).saturating_add(warm_up);
                due.push(Due { at: end, kind: DueKind::TimeUp });
                let pilots: Vec<(ConnId, Seat)> = self.pilot_conns().collect();
                self.fair.open_countdown(self.seats.len() as u8, &pilots, end);
                for seat in callers.iter() {
                    if self.seats.get(seat.index()).is_some_and(SeatSlot::bot_plays) {
                        // A slipping hand calls just after the end: refused (B-4.6: token kept).
                        let at = match self.hands(seat).calls_late(&mut self.rng) {
                            true => end.saturating_add(1),
                            false => now.saturating_add(self.rng.random_range(0..=us(self.config.countdown_ms) / 2)),
                        };
                        due.push(Due { at, kind: DueKind::Call(seat) });
                    }
                }
            }
            Step::Sequential { seats } | Step::Timed { contenders: seats, .. } => {
                due.extend(seats.iter().map(|s| Due { at: 0, kind: DueKind::Act(s) }))
            }
            Step::Over => {}
        }
        let timed = TimedStep::of(step);
        // A timed moment's clock starts when it is shown (the reveal instant, the Échange
        // window's opening), not when the host decided it.
        let start = match timed {
            Some(_) => self.fair.open_moment().map_or(now, |(_, opens)| opens),
            None => now,
        };
        self.timers.step_start = start;
        for d in &mut due {
            if let DueKind::Act(seat) = d.kind {
                d.at = start.saturating_add(self.wait_for(seat, timed.is_some()));
            }
        }
        // A moment that ends with its time (1000 Bornes' Coup-Fourré window, M-15.7): it may
        // close once its length has passed and every laptop is done, and closes at the
        // latest a grace after it.
        if let Some(window) = timed.and_then(|t| t.window_us) {
            let length = start.saturating_add(window);
            due.push(Due { at: length, kind: DueKind::LengthPassed });
            due.push(Due { at: length.saturating_add(fairness::WINDOW_GRACE_US), kind: DueKind::TimeUp });
        }
        self.timers.due = due;
    }

    /// How long a decision of `seat` may take: a bot's thinking (or reaction) time, or the
    /// pilot's time limit (`timed`: in the grab or the Échange window).
    pub(super) fn wait_for(&mut self, seat: Seat, timed: bool) -> u64 {
        let base = us(self.config.bot_delay_ms);
        match (self.seats[seat.index()].bot_plays(), timed) {
            (true, true) => {
                // A human hand's reaction to the choices it has (`bots::hands`): the pawns
                // still free, or whom to swap with; on the scale of this room's bots (the
                // default 700 ms: as drawn).
                let choices = self.playing().map_or(1, |g| {
                    let mut legal = Vec::new();
                    g.legal(seat, &mut legal);
                    legal.len().max(1)
                });
                let ruled = playing(&self.stage).and_then(|g| g.bot_reaction_us(seat, &mut self.rng));
                let reaction = ruled.unwrap_or_else(|| self.hands(seat).reaction_us(choices, &mut self.rng));
                (reaction as f64 * base as f64 / us(DEFAULT_BOT_DELAY_MS) as f64) as u64
            }
            (true, false) => base,
            (false, true) => us(self.config.moment_timeout_ms),
            (false, false) => us(self.config.settings.turn_limit_ms().unwrap_or(self.config.turn_timeout_ms)),
        }
    }

    /// The hands of the bot that plays `seat` (its own level, or the table's for a stand-in).
    pub(super) fn hands(&self, seat: Seat) -> Hands {
        Hands::of(self.seats.get(seat.index()).and_then(|s| s.bot).unwrap_or(self.config.settings.bot_level()))
    }

    /// A seat changed hands (a drop, a return, a comeback): its pending decision gets the
    /// timer of whoever plays it now.
    pub(super) fn retime_seat(&mut self, now: u64, seat: Seat) {
        let timed = self.timed_step().is_some();
        if self.timers.due.iter().any(|d| d.kind == DueKind::Act(seat)) {
            let at = self.time_limit(now, seat, timed);
            for d in self.timers.due.iter_mut().filter(|d| d.kind == DueKind::Act(seat)) {
                d.at = at;
            }
        }
    }

    /// When `seat`'s time limit for the decision now open ends: from the start of the decision,
    /// not from a comeback (a pilot who reconnects over and over must not hold the table past
    /// one time limit), and never before `now`.
    pub(super) fn time_limit(&mut self, now: u64, seat: Seat, timed: bool) -> u64 {
        self.timers.step_start.saturating_add(self.wait_for(seat, timed)).max(now)
    }

    pub(super) fn fire(&mut self, now: u64, kind: DueKind, out: &mut Vec<Out<G>>) {
        let Some(step) = self.playing().map(Game::step) else { return };
        match kind {
            DueKind::TimeUp => match step {
                Step::Countdown { .. } => {
                    // Calls made before this instant may still be travelling: settle first.
                    self.fair.countdown_over();
                    self.settle(now, out);
                }
                Step::Timed { window_us: Some(_), .. } => {
                    // Requests still in judgement are decided first; then the time is up.
                    self.settle(now, out);
                    if self.timed_step().is_some_and(|t| t.window_us.is_some()) {
                        self.fair.closing(moment_log::ClosedBy::Deadline);
                        self.time_up(now, out);
                    }
                }
                _ => {}
            },
            DueKind::LengthPassed => self.settle(now, out),
            DueKind::Call(seat) => {
                let Some(slot) = self.seats.get(seat.index()).filter(|s| s.bot_plays()) else { return };
                let level = slot.bot.unwrap_or(self.config.settings.bot_level());
                let Some(game) = playing(&self.stage) else { return };
                let mut scratch = std::mem::take(&mut self.legal);
                let call = game.bot(seat, level, &mut self.rng, &mut scratch);
                self.legal = scratch;
                if let Some(action) = call {
                    // Refused only past the end: a slipping hand's late call (B-4.6).
                    let _ = self.fair.call(None, seat, action, now);
                }
            }
            DueKind::Act(seat) => {
                let mut legal = std::mem::take(&mut self.legal);
                if let Some(game) = self.playing() {
                    game.legal(seat, &mut legal);
                }
                // A moment that ends with its time asks nothing of anyone (1000 Bornes'
                // Coup-Fourré window, M-15.12): only the host's own bots act in it, never a
                // stand-in for a person, there or not — and the window waits for nobody.
                let asks_nothing = self.timed_step().is_some_and(|t| t.window_us.is_some());
                let Some(slot) =
                    self.seats.get_mut(seat.index()).filter(|s| !(legal.is_empty() || asks_nothing && s.bot.is_none()))
                else {
                    self.legal = legal;
                    return;
                };
                if slot.bot.is_none() {
                    // The pilot let the time limit pass (here or away): a bot plays for it
                    // until it acts again, whether it reconnects meanwhile or not.
                    slot.zombie = true;
                }
                let level = slot.bot.unwrap_or(self.config.settings.bot_level());
                let Some(game) = playing(&self.stage) else { return };
                let action = game.bot(seat, level, &mut self.rng, &mut legal);
                let timed = self.timed_step().is_some();
                // Now and then a hand in a timed moment slips to another choice (`bots::hands`).
                let action = match action {
                    Some(a) if timed && Hands::of(level).slips(&mut self.rng) => {
                        let others: Vec<G::Action> = legal.iter().copied().filter(|o| *o != a).collect();
                        Some(others.get(self.rng.random_range(0..others.len().max(1))).copied().unwrap_or(a))
                    }
                    other => other,
                };
                self.legal = legal;
                let Some(action) = action else { return };
                if timed {
                    return self.hosted_request(now, seat, action, out);
                }
                if let Err(e) = self.apply(now, seat, action, out) {
                    tracing::error!(%seat, ?action, %e, "a bot's legal action was refused");
                }
            }
        }
    }
}
