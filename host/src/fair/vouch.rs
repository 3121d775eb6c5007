//! What a client's own heartbeats prove (fairness.md §7), sans-I/O. A beat says "my clock
//! reads `now`, and I have sent `acts` actions": so action `acts + 1` was made after `now`.
//! Both times are on the same client clock, so the bound needs no clock model, no latency
//! estimate and no allowance: an honest client never violates it (its core never vouches,
//! in a beat, for a time past an input it has stamped but not yet sent — `client::net::Unsent`),
//! and a laptop that claims an earlier input than its own last beat that did not count it
//! gains at most the time between two beats. A seat that goes silent keeps its last beat as
//! its bound: it is never treated better than what it last vouched for.

use std::collections::BTreeMap;

/// Distinct action counts remembered per connection. Counts only grow on an honest client, and
/// a bound only ever needs the latest beat below one action; a few cover a request still in
/// flight behind newer beats.
const KEPT: usize = 4;

/// The beats of one connection, by the number of actions each said it had sent.
#[derive(Debug, Default, Clone)]
pub struct Vouched {
    /// acts → the latest client time a beat with that count carried.
    latest: BTreeMap<u32, u64>,
}

impl Vouched {
    /// A beat: at `now_us` (client clock) the client had sent `acts` actions.
    pub fn beat(&mut self, acts: u32, now_us: u64) {
        let t = self.latest.entry(acts).or_default();
        *t = (*t).max(now_us);
        if self.latest.len() > KEPT {
            self.latest.pop_first();
        }
    }

    /// The earliest client time action number `seq` can have been made at: the latest beat
    /// that did not count it. `None` when no such beat was heard.
    pub fn floor(&self, seq: u32) -> Option<u64> {
        self.latest.range(..seq).map(|(_, t)| *t).max()
    }

    /// `claimed_us` raised to [`floor`](Self::floor): the bounded time and how much was added.
    pub fn bound(&self, seq: u32, claimed_us: u64) -> (u64, u64) {
        let floor = self.floor(seq).unwrap_or(0);
        (claimed_us.max(floor), floor.saturating_sub(claimed_us))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fairness_7_an_input_is_no_earlier_than_the_last_beat_that_did_not_count_it() {
        let mut v = Vouched::default();
        v.beat(2, 1_000);
        v.beat(2, 11_000);
        v.beat(3, 21_000); // sent after action 3
        // Action 3 claims 5 000: the beat at 11 000 said only two were sent.
        assert_eq!(v.bound(3, 5_000), (11_000, 6_000));
        // An honest claim after its last beat is untouched.
        assert_eq!(v.bound(3, 15_000), (15_000, 0));
        // Action 4 is bounded by the beat that counted 3.
        assert_eq!(v.bound(4, 20_000), (21_000, 1_000));
        // Nothing vouched below action 1: no bound.
        assert_eq!(v.floor(1), None);
    }

    #[test]
    fn fairness_7_the_record_stays_small_whatever_the_counts() {
        let mut v = Vouched::default();
        for acts in 0..1_000 {
            v.beat(acts, u64::from(acts) * 10);
        }
        assert_eq!(v.latest.len(), KEPT);
        assert_eq!(v.floor(1_000), Some(9_990));
        // A hostile count far ahead only bounds that client's own later actions.
        v.beat(u32::MAX, u64::MAX);
        assert_eq!(v.bound(u32::MAX, 5), (9_990, 9_985));
    }
}
