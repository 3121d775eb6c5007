//! When a client tells the host its clock (fairness.md §4 and §6), and what it tells: the
//! timed moment it showed and when. A seated client beats every [`BEAT_US`]:
//! - in a timed moment (the grab, the Échange window), while it still acts there, its elapsed
//!   time since it showed the moment: the host commits a faster hand's verdict once every
//!   competing seat has shown a time past it, so a verdict waits up to one interval for the
//!   slowest competitor;
//! - under the cup, once just after the lift instant the host announced (on this client's
//!   clock), so that the Klaxon order is settled as soon as it can be — then, until the host
//!   lifts, every [`BEAT_US`] or [`CUP_BEAT_US`] (as below);
//! - and, on a host that asks for it in its welcome ([`BeatSchedule::Steady`]: a game night's
//!   host does), all along from the lobby on: the host's record of this laptop's path. A path
//!   that goes quiet in stretches (Wi-Fi) shows it in the gaps between beats, and only a steady
//!   record shows it before the grab it matters in (`fair::slack` on the host). Otherwise
//!   ([`BeatSchedule::WhileActing`], a host serving many connections) nothing more.
//!
//! Times are µs on the client's clock.

use crate::game::{ClientGame, Stage};
use bolide_protocol::wire::{BeatSchedule, ServerMsgOf, Shown};

pub use bolide_protocol::wire::BEAT_US;
/// Under the cup past the lift instant (or without one), when the host asked for beats only
/// while acting.
pub const CUP_BEAT_US: u64 = 25_000;
/// How long after the announced lift instant the first beat goes, so that it shows a time past
/// the lift even through the host's clock-model error.
pub const LIFT_SLACK_US: u64 = 1_000;

/// A client's heartbeat schedule, and the timed moment it showed.
#[derive(Debug, Clone)]
pub struct Heartbeats {
    /// What the host asked for in its welcome.
    schedule: BeatSchedule,
    last_us: Option<u64>,
    lift_at_us: Option<u64>,
    /// The latest timed moment this client showed, and when (its own clock).
    shown: Option<Shown>,
}

impl Default for Heartbeats {
    fn default() -> Self {
        Heartbeats::new(BeatSchedule::WhileActing)
    }
}

/// The moment an update opens and the instant the host scheduled for showing it (this
/// client's clock; `now_us` when the host gave none): a face shows it then and calls
/// [`Heartbeats::show`] with the instant it really did.
pub fn opened<W: ClientGame>(msg: &ServerMsgOf<W>, now_us: u64) -> Option<Shown> {
    let ServerMsgOf::Update { events, view, show_at_us, .. } = msg else { return None };
    Some(Shown { moment: W::opened(events, view)?, at_us: show_at_us.unwrap_or(now_us) })
}

impl Heartbeats {
    /// A schedule as the host asked in its welcome.
    pub fn new(schedule: BeatSchedule) -> Heartbeats {
        Heartbeats { schedule, last_us: None, lift_at_us: None, shown: None }
    }

    /// Reads what the host announced: the lift instant of the cup now down.
    pub fn on_message<W: ClientGame>(&mut self, msg: &ServerMsgOf<W>) {
        if let ServerMsgOf::Update { view, lift_at_us, .. } = msg {
            self.on_update(W::stage(view), *lift_at_us);
        }
    }

    /// This client showed `moment` at `moment.at_us`; the first showing of a moment counts.
    pub fn show(&mut self, moment: Shown) {
        if self.shown.is_none_or(|s| s.moment != moment.moment) {
            self.shown = Some(moment);
        }
    }

    /// When this client showed `moment` (the timed moment now open). Back on a seat in the
    /// middle of one (a reconnect) without having shown it, it shows now (`now_us`).
    pub fn shown(&mut self, moment: u64, now_us: u64) -> Shown {
        match self.shown {
            Some(shown) if shown.moment == moment => shown,
            _ => *self.shown.insert(Shown { moment, at_us: now_us }),
        }
    }

    /// What a beat tells of `moment` (the timed moment now open): the showing, once it
    /// happened.
    pub fn beat_shown(&self, moment: Option<u64>, now_us: u64) -> Option<Shown> {
        let moment = moment?;
        self.shown.filter(|s| s.moment == moment && s.at_us <= now_us)
    }

    /// An update at `stage`, with the countdown's end it announced.
    pub fn on_update(&mut self, stage: Stage, lift_at_us: Option<u64>) {
        self.lift_at_us = if stage == Stage::Countdown { lift_at_us } else { None };
    }

    /// When the next beat of a seated client is due on this client's clock, or `None` when
    /// none is needed. `phase`: `None` in the lobby. `competing`: this seat still acts in the
    /// timed moment now open ([`competing`]).
    pub fn due(&self, stage: Option<Stage>, competing: bool) -> Option<u64> {
        let after = |every: u64| self.last_us.map_or(0, |last| last + every);
        let lift = match (stage, self.lift_at_us) {
            (Some(Stage::Countdown), Some(lift)) if self.last_us.is_none_or(|last| last < lift + LIFT_SLACK_US) => {
                Some(lift + LIFT_SLACK_US)
            }
            _ => None,
        };
        let regular = match (self.schedule, stage) {
            (BeatSchedule::Steady, _) => Some(after(BEAT_US)),
            (BeatSchedule::WhileActing, Some(Stage::Moment)) if competing => Some(after(BEAT_US)),
            // Past the announced lift, or none announced (no clock model of this laptop yet).
            (BeatSchedule::WhileActing, Some(Stage::Countdown)) if lift.is_none() => Some(after(CUP_BEAT_US)),
            (BeatSchedule::WhileActing, _) => None,
        };
        lift.into_iter().chain(regular).min()
    }

    /// A beat left at `now_us`.
    pub fn beaten(&mut self, now_us: u64) {
        self.last_us = Some(now_us);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide_protocol::view::PhaseView;
    use bolide_protocol::wire::ServerMsg;
    use bolide_protocol::{Event, PlayerView, Seat};

    #[test]
    fn b_4_6_under_the_cup_one_beat_just_after_the_announced_lift() {
        let mut h = Heartbeats::default();
        h.on_update(Stage::Countdown, Some(1_000_000));
        assert_eq!(h.due(Some(Stage::Countdown), true), Some(1_001_000));
        h.beaten(1_001_200);
        // The host has not lifted yet (its model of this clock is a little off): keep telling.
        assert_eq!(h.due(Some(Stage::Countdown), true), Some(1_026_200));
        // On a host that asked for steady beats, the lift's beat comes between two of them.
        let mut steady = Heartbeats::new(BeatSchedule::Steady);
        steady.on_update(Stage::Countdown, Some(1_000_000));
        assert_eq!(steady.due(Some(Stage::Countdown), true), Some(0));
        steady.beaten(995_000);
        assert_eq!(steady.due(Some(Stage::Countdown), true), Some(1_001_000));
        steady.beaten(1_001_200);
        assert_eq!(steady.due(Some(Stage::Countdown), true), Some(1_011_200));
    }

    #[test]
    fn under_the_cup_without_an_instant_beats_steadily() {
        let mut h = Heartbeats::default();
        h.on_update(Stage::Countdown, None);
        assert_eq!(h.due(Some(Stage::Countdown), true), Some(0));
        h.beaten(500);
        assert_eq!(h.due(Some(Stage::Countdown), true), Some(25_500));
    }

    #[test]
    fn b_4_7_in_the_grab_and_the_echange_window_beats_until_this_seat_is_done() {
        let mut h = Heartbeats::default();
        h.on_update(Stage::Moment, None);
        h.beaten(10_000);
        assert_eq!(h.due(Some(Stage::Moment), true), Some(20_000));
        assert_eq!(h.due(Some(Stage::Moment), false), None, "holds a pawn, or has declared");
        assert_eq!(h.due(Some(Stage::Other), true), None);
    }

    #[test]
    fn fairness_5_on_a_host_that_asks_a_client_beats_steadily_in_every_phase_and_the_lobby() {
        let phases = [Stage::Countdown, Stage::Moment, Stage::Other];
        for phase in phases.map(Some).into_iter().chain([None]) {
            let mut h = Heartbeats::new(BeatSchedule::Steady);
            if let Some(phase) = phase {
                h.on_update(phase, None);
            }
            h.beaten(10_000);
            assert_eq!(h.due(phase, false), Some(10_000 + BEAT_US), "{phase:?} (None: the lobby)");
        }
    }

    #[test]
    fn a_beat_names_the_moment_it_showed_and_never_an_earlier_one() {
        let (grab_moment, echange) =
            (bolide_protocol::Timed::Grab.name(1, 2), bolide_protocol::Timed::Echange.name(1, 2));
        let mut h = Heartbeats::default();
        let grab = Shown { moment: grab_moment, at_us: 5_000 };
        h.show(grab);
        h.show(Shown { at_us: 9_000, ..grab });
        assert_eq!(h.beat_shown(Some(grab_moment), 6_000), Some(grab), "the first showing counts");
        assert_eq!(h.beat_shown(Some(grab_moment), 4_000), None, "not shown yet");
        // The Échange window is open and not shown yet: the grab's showing says nothing of it.
        assert_eq!(h.beat_shown(Some(echange), 20_000), None);
        let shown = h.shown(echange, 21_000);
        assert_eq!((shown.moment, shown.at_us), (echange, 21_000), "shown now, on a comeback");
    }

    #[test]
    fn b_4_6_a_klaxon_pick_that_reveals_and_opens_the_echange_window_shows_the_window() {
        // The last Klaxon pick reveals the reservoirs, hands out the last pawn and opens the
        // Échange window in one update: the race is in the window, so the window is shown.
        let view = bolide_host::sim::random_race(3, 1).view_for(Seat(0));
        let update = |phase| ServerMsg::Update {
            events: vec![
                Event::ReservoirsRevealed { values: vec![1, 3, 1] },
                Event::EchangeWindow { seats: vec![Seat(0)] },
            ],
            view: Box::new(PlayerView { phase, ..view.clone() }),
            legal: Vec::new(),
            deadline_ms: None,
            awaited: None,
            show_at_us: Some(7_000),
            lift_at_us: None,
        };
        let shown = opened(&update(PhaseView::Echange), 5_000).expect("the window opens");
        assert_eq!((shown.moment, shown.at_us), (bolide_protocol::Timed::Echange.name(view.race, view.round), 7_000));
        // Every pawn handed out and nothing to declare: no moment is open.
        assert_eq!(opened(&update(PhaseView::Movement), 5_000), None);
    }
}
