//! When a client tells the host its clock (fairness.md §4 and §6). The host commits a grab
//! verdict, or the Klaxon order, only once every competing seat has shown a time past it, so
//! a client speaks up exactly when that can matter:
//! - while this seat still grabs: every [`GRAB_BEAT_US`] (its elapsed time since it showed the
//!   reservoirs), since a faster hand's verdict waits for the slowest competitor's next beat;
//! - under the cup: once, just after the lift instant the host announced (on this client's
//!   clock), then every [`CUP_BEAT_US`] until the host lifts — or every [`CUP_BEAT_US`] when no
//!   instant was announced (the host has no clock model of this client yet).
//!
//! Nothing otherwise: a quiet client costs the host nothing. Times are µs on the client's clock.

use bolide_protocol::view::PhaseView;
use bolide_protocol::wire::ServerMsg;

/// While this seat still grabs: a verdict waits up to one interval for the slowest competitor.
pub const GRAB_BEAT_US: u64 = 10_000;
/// Under the cup, past the lift instant (or without one).
pub const CUP_BEAT_US: u64 = 25_000;
/// How long after the announced lift instant the first beat goes, so that it shows a time past
/// the lift even through the host's clock-model error.
pub const LIFT_SLACK_US: u64 = 1_000;

/// A client's heartbeat schedule.
#[derive(Debug, Default, Clone)]
pub struct Heartbeats {
    last_us: Option<u64>,
    lift_at_us: Option<u64>,
}

impl Heartbeats {
    /// Reads what the host announced: the lift instant of the cup now down.
    pub fn on_message(&mut self, msg: &ServerMsg) {
        if let ServerMsg::Update { view, lift_at_us, .. } = msg {
            self.on_update(view.phase, *lift_at_us);
        }
    }

    /// An update in `phase`, with the lift instant it announced.
    pub fn on_update(&mut self, phase: PhaseView, lift_at_us: Option<u64>) {
        self.lift_at_us = if phase == PhaseView::CupDown { lift_at_us } else { None };
    }

    /// When the next beat is due on this client's clock, or `None` when none is needed.
    /// `grabbing`: this seat is at the table and holds no pawn yet.
    pub fn due(&self, phase: Option<PhaseView>, grabbing: bool) -> Option<u64> {
        let after = |every: u64| self.last_us.map_or(0, |last| last + every);
        match phase? {
            PhaseView::Grab if grabbing => Some(after(GRAB_BEAT_US)),
            PhaseView::CupDown => match self.lift_at_us {
                Some(lift) if self.last_us.is_none_or(|last| last < lift + LIFT_SLACK_US) => Some(lift + LIFT_SLACK_US),
                _ => Some(after(CUP_BEAT_US)),
            },
            _ => None,
        }
    }

    /// A beat left at `now_us`.
    pub fn beaten(&mut self, now_us: u64) {
        self.last_us = Some(now_us);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn under_the_cup_one_beat_just_after_the_announced_lift() {
        let mut h = Heartbeats::default();
        h.on_update(PhaseView::CupDown, Some(1_000_000));
        assert_eq!(h.due(Some(PhaseView::CupDown), true), Some(1_001_000));
        h.beaten(1_001_200);
        // The host has not lifted yet (its model of this clock is a little off): keep telling.
        assert_eq!(h.due(Some(PhaseView::CupDown), true), Some(1_026_200));
    }

    #[test]
    fn under_the_cup_without_an_instant_beats_steadily() {
        let mut h = Heartbeats::default();
        h.on_update(PhaseView::CupDown, None);
        assert_eq!(h.due(Some(PhaseView::CupDown), true), Some(0));
        h.beaten(500);
        assert_eq!(h.due(Some(PhaseView::CupDown), true), Some(25_500));
    }

    #[test]
    fn in_the_grab_beats_until_this_seat_holds_a_pawn() {
        let mut h = Heartbeats::default();
        h.on_update(PhaseView::Grab, None);
        h.beaten(10_000);
        assert_eq!(h.due(Some(PhaseView::Grab), true), Some(20_000));
        assert_eq!(h.due(Some(PhaseView::Grab), false), None);
        assert_eq!(h.due(Some(PhaseView::Movement), true), None);
    }
}
