//! Calls under a countdown (Bolide's Klaxon, B-4.6), sans-I/O: made before anything is
//! revealed, so no reaction exists; they are ordered by their time on the host clock, as the
//! room converts it — from the end of the countdown each laptop was told, so a clock
//! model's error moves a laptop's countdown and its call alike (`room::fairness`). A call made
//! after the end is refused. The order is final once every seat has vouched for a time past the
//! end, or has called — and at the latest one cut-off after it, whatever a seat's beats say: a
//! laptop that beats without ever vouching past the end cannot hold the countdown open.

use bolide_table::Seat;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    pub seat: Seat,
    /// Input time on the host clock.
    pub at: u64,
}

pub struct CallOrder {
    end: u64,
    calls: Vec<Call>,
    /// Per seat: latest host-converted time it has vouched for.
    frontier: Vec<u64>,
    /// Per seat: how long after the end it is waited for ([`CallOrder::wait_longer`]).
    silence_us: Vec<u64>,
}

impl CallOrder {
    pub fn new(pilots: u8, end: u64, silence_us: u64) -> CallOrder {
        let seats = pilots as usize;
        CallOrder { end, calls: Vec::new(), frontier: vec![0; seats], silence_us: vec![silence_us; seats] }
    }

    /// `seat`'s laptop is known to pause as long as `extra_us`: the order waits that much
    /// longer for it after the end, as a timed moment does
    /// ([`MomentArbiter::wait_longer`](super::MomentArbiter::wait_longer)) — here at once:
    /// every laptop has shown the countdown it calls under.
    pub fn wait_longer(&mut self, seat: Seat, extra_us: u64) {
        if let Some(s) = self.silence_us.get_mut(seat.index()) {
            *s = s.saturating_add(extra_us);
        }
    }

    pub fn end(&self) -> u64 {
        self.end
    }

    /// A heartbeat: `seat`'s clock (converted to the host's) has reached `at`.
    pub fn heartbeat(&mut self, seat: Seat, at: u64) {
        if let Some(f) = self.frontier.get_mut(seat.index()) {
            *f = (*f).max(at);
        }
    }

    /// A call made at host time `at`: `false` if it came after the countdown's end (refused, B-4.6).
    pub fn call(&mut self, seat: Seat, at: u64) -> bool {
        self.heartbeat(seat, at);
        if at > self.end || self.calls.iter().any(|c| c.seat == seat) {
            return false;
        }
        self.calls.push(Call { seat, at });
        true
    }

    /// The calls accepted so far, in arrival order.
    pub fn calls(&self) -> &[Call] {
        &self.calls
    }

    /// When the order settles without the seats still holding it up: one cut-off after the
    /// end. Clients only speak up once their clock passes the countdown's end, so a call made just before
    /// it is still in flight for one path delay; a seat heard since but not past the countdown's end gets
    /// no longer than a silent one.
    /// The order settles when the last of them stops being waited for.
    pub fn next_deadline(&self) -> Option<u64> {
        self.holding_up().map(|i| self.deadline(i)).max().map(|d| d.saturating_add(1))
    }

    /// Seats that have neither called nor vouched past the end.
    fn holding_up(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.frontier.len()).filter(|&i| {
            let called = self.calls.iter().any(|c| c.seat.index() == i);
            !called && self.frontier[i] <= self.end
        })
    }

    /// The latest the order waits for a call of seat `i` still on its way.
    fn deadline(&self, i: usize) -> u64 {
        self.end.saturating_add(self.silence_us.get(i).copied().unwrap_or(0))
    }

    /// The calls in call order once no earlier one can still arrive; `None` while waiting.
    pub fn settled(&self, now: u64) -> Option<Vec<Call>> {
        let waiting = self.holding_up().any(|i| now <= self.deadline(i));
        if waiting {
            return None;
        }
        let mut calls = self.calls.clone();
        calls.sort_by_key(|c| (c.at, c.seat));
        Some(calls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b_4_6_calls_are_ordered_by_call_time_not_arrival() {
        let mut k = CallOrder::new(3, 1_000_000, 200_000);
        // Seat 2 called first (at 0.90 s) but over a slow link: it arrives last.
        assert!(k.call(Seat(0), 950_000));
        k.heartbeat(Seat(1), 1_001_000);
        assert_eq!(k.settled(1_002_000), None, "seat 2 has not shown it is past the lift");
        assert!(k.call(Seat(2), 900_000));
        let calls = k.settled(1_040_000).unwrap();
        assert_eq!(calls.iter().map(|c| c.seat).collect::<Vec<_>>(), vec![Seat(2), Seat(0)]);
    }

    #[test]
    fn b_4_6_a_call_after_the_lift_is_refused() {
        let mut k = CallOrder::new(3, 1_000_000, 200_000);
        assert!(!k.call(Seat(1), 1_000_001));
        assert!(k.call(Seat(0), 999_000));
        assert!(!k.call(Seat(0), 998_000), "one call per seat");
        // Silent seats are not waited for past the cut-off, counted from the lift.
        assert_eq!(k.settled(1_150_000), None);
        assert!(k.settled(1_300_000).is_some());
    }

    #[test]
    fn b_4_6_a_seat_quiet_under_the_cup_is_waited_for_after_the_lift() {
        // Seat 1 said nothing for the whole cup (it only beats after the lift): its call made
        // just before the lift is still travelling, so the order waits for it.
        let mut k = CallOrder::new(2, 1_000_000, 200_000);
        k.heartbeat(Seat(0), 1_001_000);
        assert_eq!(k.next_deadline(), Some(1_200_001));
        assert_eq!(k.settled(1_100_000), None, "seat 1 last spoke a second ago, yet the lift just passed");
        assert!(k.call(Seat(1), 999_500));
        assert_eq!(k.settled(1_150_000).unwrap().len(), 1);
    }

    #[test]
    fn b_4_6_a_seat_that_pauses_as_a_habit_is_waited_for_longer_after_the_lift() {
        let mut k = CallOrder::new(3, 1_000_000, 200_000);
        k.wait_longer(Seat(1), 150_000);
        k.heartbeat(Seat(0), 1_001_000);
        assert_eq!(k.next_deadline(), Some(1_350_001), "the order settles when the last seat stops being waited for");
        assert_eq!(k.settled(1_250_000), None, "seat 2 is not waited for any more, seat 1 still is");
        assert!(k.call(Seat(1), 999_000));
        assert_eq!(k.settled(1_300_000).map(|c| c.len()), Some(1));
    }

    #[test]
    fn b_4_6_beats_that_never_pass_the_lift_do_not_hold_the_cup_down() {
        // Seat 1 beats every 10 ms for ever, each beat vouching a time before the lift.
        let mut k = CallOrder::new(2, 1_000_000, 200_000);
        k.heartbeat(Seat(0), 1_001_000);
        let mut now = 1_000_000;
        while k.settled(now).is_none() {
            k.heartbeat(Seat(1), 990_000);
            now += 10_000;
            assert!(now < 10_000_000, "the cup is still down 9 s after the lift");
        }
        assert_eq!(now, 1_210_000, "settled one cut-off after the lift");
        assert_eq!(k.next_deadline(), Some(1_200_001));
    }
}
