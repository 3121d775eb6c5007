//! How late a browser hands its page the presses (fairness.md §7).
//!
//! A press's `timeStamp` is the instant the system took it in; the page's listener runs when
//! the browser has carried it from its own process to the page's thread: within a millisecond
//! for Chromium on a laptop (measured), up to tens of milliseconds on a phone (the touch crosses
//! the system, the browser's process and the renderer's; not measured here), more on a busy
//! device. A beat vouches that nothing was pressed before its time, and the host bounds a claim
//! by the seat's own last beat: a beat sent while a press is still on its way proves that press
//! later than it was — by up to the whole delay, on every grab of a phone that is always that
//! late. So a page holds its beats back by the longest delay it has seen lately, learnt from
//! every key and pointer going down or up: the taps that seat a guest and play its turns come
//! before its grabs.
//!
//! Rules:
//! - never less than [`FLOOR`], the hop before any delay is seen (Chromium's, measured);
//! - the longest delay of the last [`KEPT`] presses within [`MEMORY`], with room for one a
//!   little longer ([`MARGIN`]): a stall is forgotten a minute later;
//! - never more than [`CEILING`], well inside the time the host waits for a seat's beats before
//!   it stops waiting (`SILENCE_US`): a longer delay is a press the host may judge without.
//!
//! The cost is the verdicts': a moment's verdict waits for every competing seat's beats past
//! the winner's reaction, so a table with a late phone hears its verdicts that much later.

use std::collections::VecDeque;
use std::time::Duration;

/// Presses remembered.
const KEPT: usize = 64;
/// How long a delay is remembered (ms).
const MEMORY: f64 = 60_000.0;
/// The hold before any delay is seen, and the least (ms): the hop from the browser's process to
/// the page's thread, with room for a busy page (`scripts/browser/field.mjs` saw a press 185 µs
/// behind a beat without it).
const FLOOR: f64 = 4.0;
/// A press may be a little later than the latest seen: the longest times this, plus [`SLACK`].
const MARGIN: f64 = 1.25;
/// Plus this (ms): two readings of a coarse clock are each off by up to a millisecond.
const SLACK: f64 = 1.0;
/// The longest hold (ms).
const CEILING: f64 = 150.0;

/// The delays of the recent presses.
#[derive(Debug, Default)]
pub(crate) struct DeliveryLag {
    /// (when the page learnt of it, how long after its `timeStamp`), ms on the page's clock.
    seen: VecDeque<(f64, f64)>,
}

impl DeliveryLag {
    pub(crate) const fn new() -> DeliveryLag {
        DeliveryLag { seen: VecDeque::new() }
    }

    /// A press stamped `time_stamp` reached the page's listener at `learnt` (ms).
    pub(crate) fn observe(&mut self, learnt: f64, time_stamp: f64) {
        let lag = learnt - time_stamp;
        // A stamp from another clock (NaN, or far off) says nothing of the hop.
        if !lag.is_finite() || !learnt.is_finite() {
            return;
        }
        if self.seen.len() == KEPT {
            self.seen.pop_front();
        }
        self.seen.push_back((learnt, lag.clamp(0.0, CEILING)));
    }

    /// How far behind `now` (ms) a beat must stay.
    pub(crate) fn hold(&self, now: f64) -> Duration {
        let longest = self.seen.iter().filter(|(at, _)| now - at < MEMORY).map(|(_, lag)| *lag).fold(0.0, f64::max);
        let ms = if longest > 0.0 { longest * MARGIN + SLACK } else { 0.0 };
        Duration::from_secs_f64(ms.clamp(FLOOR, CEILING) / 1_000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hold, in ms, within a nanosecond's rounding of `want`.
    fn holds(lag: &DeliveryLag, now: f64, want: f64) -> bool {
        (lag.hold(now).as_secs_f64() * 1_000.0 - want).abs() < 1e-6
    }

    #[test]
    fn fairness_7_a_prompt_browser_holds_its_beats_back_by_the_floor() {
        let mut lag = DeliveryLag::new();
        assert!(holds(&lag, 0.0, FLOOR), "before any press");
        // Chromium on a laptop: a fraction of a millisecond.
        for i in 0..20 {
            let at = 1_000.0 * f64::from(i);
            lag.observe(at + 0.3, at);
        }
        assert!(holds(&lag, 20_000.0, FLOOR));
    }

    #[test]
    fn fairness_7_a_late_phone_holds_its_beats_back_past_its_longest_recent_delay() {
        let mut lag = DeliveryLag::new();
        // A phone whose touches reach the page 12 to 30 ms after they were made.
        for (i, delay) in [12.0, 30.0, 18.0, 14.0].into_iter().enumerate() {
            let at = 2_000.0 * i as f64;
            lag.observe(at + delay, at);
        }
        assert!(lag.hold(9_000.0) > Duration::from_millis(30), "a press as late as the latest is still on its way");
        assert!(holds(&lag, 9_000.0, 30.0 * MARGIN + SLACK), "{:?}", lag.hold(9_000.0));
    }

    #[test]
    fn fairness_7_a_stall_is_held_for_a_minute_and_never_past_the_ceiling() {
        let mut lag = DeliveryLag::new();
        lag.observe(1_147.0, 1_000.0);
        lag.observe(2_004.0, 2_000.0);
        assert!(holds(&lag, 30_000.0, CEILING), "147 ms, with its margin, is past the ceiling");
        assert!(holds(&lag, 61_500.0, 4.0 * MARGIN + SLACK), "the stall forgotten; the 4 ms press kept");
        assert!(holds(&lag, 62_500.0, FLOOR), "all forgotten");
    }

    #[test]
    fn fairness_7_only_the_last_presses_count() {
        let mut lag = DeliveryLag::new();
        lag.observe(40.0, 0.0);
        for i in 0..KEPT {
            let at = 100.0 + i as f64;
            lag.observe(at + 2.0, at);
        }
        assert!(holds(&lag, 500.0, FLOOR), "the 40 ms press is no longer among the kept");
    }

    #[test]
    fn fairness_7_stamps_from_another_clock_move_nothing_past_the_bounds() {
        let mut lag = DeliveryLag::new();
        lag.observe(f64::NAN, 0.0);
        lag.observe(10.0, f64::NAN);
        lag.observe(10.0, f64::NEG_INFINITY);
        assert!(holds(&lag, 10.0, FLOOR), "ignored");
        // A stamp later than its listener (an epoch time, or a clock ahead) is no delay at all.
        lag.observe(10.0, 1.7e12);
        assert!(holds(&lag, 10.0, FLOOR));
        // One from far in the past is the longest a hold can be.
        lag.observe(1.7e12, 10.0);
        assert!(holds(&lag, 1.7e12, CEILING));
    }
}
