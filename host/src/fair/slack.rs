//! How much slack a laptop's claims need, learned from its own beats (fairness.md §5), sans-I/O.
//!
//! The host bounds a claimed input by `arrival − owd_max − allowance`, and the allowance must
//! let an honest laptop through its worst moments: a message that arrives later than the path
//! bound says (the jitter tail, the clock model's error, a stall between stamping an input and
//! sending it), and a stretch where every packet is lost (Wi-Fi), which the request's copies
//! must outlast. One allowance for every laptop has to cover the worst path at the table, and
//! a laptop that lies keeps all of it (about 80 ms on a near path when its beats stop).
//!
//! But a laptop's own beats show both, in every timed moment: each beat is a message stamped on
//! its clock, so how late it arrives against the path bound is a sample of the first (a beat
//! held behind an unsent input carries that input's time, so a stall shows too); and beats
//! leave every [`GRAB_BEAT_US`], so two or more missing in a row are a silence of the path.
//! Each connection gets the allowance its own beats showed it needs; a laptop that lies while
//! its path looks clean keeps only that. A laptop can fake a bad path (hold beats back, skip
//! them): that buys it no more than [`Slack::cap`] (the caller's default, or a message's last
//! copy once its beats show the path goes quiet), and the lab measures it.
//!
//! A laptop that beat in the moment it claims in is believed back to its last beat there
//! instead (`room::fairness`, `silent_since`): its beats then tell exactly what this module
//! can only guess from the past. This allowance holds a laptop with no beat in the moment.

use bolide_protocol::wire::{COPY_GAPS, GRAB_BEAT_US, LAST_COPY_US};
use std::collections::{BTreeSet, VecDeque};

/// The least input allowance: the first two copies of a request lost (each alone, as a
/// packet is now and then), the third one through.
pub const BASE_US: u64 = 5_000;
/// The longest silence a connection's beats can earn cover for: the last copy of a request
/// leaves 160 ms after the first.
pub const MAX_US: u64 = 200_000;
/// How far a path that goes quiet in stretches is believed at least (µs): as far as a
/// message's last copy, which leaves [`LAST_COPY_US`] after the first. On a near path a
/// retransmission's room (the caller's default, about 70 ms there) is shorter than the 80 ms
/// copy that a stretch of loss can leave as the first one through.
pub const QUIET_CAP_US: u64 = LAST_COPY_US + BASE_US;
/// Recent beats whose lateness counts (a few grabs' worth).
const LATE_KEPT: usize = 256;
/// Beat times of the moment being heard that wait for a straggler before their gap counts.
const REORDER: usize = 16;
/// Timed moments whose silences count (about eight rounds).
const MOMENTS_KEPT: u32 = 16;
/// Silences remembered at most.
const SILENCES_KEPT: usize = 64;
/// Own requests remembered, to tell a silence around one (a few moments' worth).
const REQUESTS_KEPT: usize = 8;
/// Silences seen before they widen the allowance: one could be two single losses in a row,
/// which the copies ride out; a path that goes quiet in stretches does so again.
const SILENCES_TRUSTED: usize = 2;

/// What one connection's beats showed of its path.
#[derive(Debug, Default, Clone)]
pub struct Slack {
    /// How late recent beats arrived past the path bound (µs), newest last.
    late: VecDeque<u64>,
    /// The moment whose beats are being heard, and how many moments came before.
    moment: Option<u64>,
    moments: u32,
    /// The latest beat times of that moment (client clock), for the gaps between them.
    recent: BTreeSet<u64>,
    /// The latest beat time whose gap to the next has been counted.
    counted: Option<u64>,
    /// Silences of two beats or more: (moment number, length µs).
    silences: VecDeque<(u32, u64)>,
    /// The laptop's own recent timed requests: (moment, input time on its clock).
    requests: VecDeque<(u64, u64)>,
}

impl Slack {
    /// A beat arrived `late_us` past the path bound (0 when early or on time). `moment`: the
    /// timed moment it names and its time on the client's clock, when it names the open one.
    pub fn beat(&mut self, late_us: u64, moment: Option<(u64, u64)>) {
        if self.late.len() == LATE_KEPT {
            self.late.pop_front();
        }
        self.late.push_back(late_us);
        let Some((id, at_us)) = moment else { return };
        if self.moment != Some(id) {
            self.finish_moment();
            self.moment = Some(id);
            self.moments = self.moments.wrapping_add(1);
        }
        // A beat older than one already counted can only shorten a gap counted: ignored.
        if self.counted.is_some_and(|c| at_us <= c) {
            return;
        }
        self.recent.insert(at_us);
        if self.recent.len() > REORDER {
            self.count_oldest_gap();
        }
    }

    /// The moment's beats are all in: count the gaps still waiting.
    fn finish_moment(&mut self) {
        while self.recent.len() > 1 {
            self.count_oldest_gap();
        }
        self.recent.clear();
        self.counted = None;
    }

    /// The laptop made a timed request in moment `moment` at `input_us` (its clock). A
    /// silence around its own request is no sign of its path: a laptop that hushes until its
    /// (lying) request has left would earn itself the wider cap with it, where a path that
    /// really goes quiet does so at any time.
    pub fn request(&mut self, moment: u64, input_us: u64) {
        if self.requests.len() == REQUESTS_KEPT {
            self.requests.pop_front();
        }
        self.requests.push_back((moment, input_us));
    }

    fn count_oldest_gap(&mut self) {
        let Some(first) = self.recent.pop_first() else { return };
        let Some(&next) = self.recent.first() else { return };
        self.counted = Some(first);
        let gap = next - first;
        let moment = self.moment;
        // (`at` may be the beat's own time: a claim before it is raised to it, §7.)
        if self.requests.iter().any(|&(m, at)| Some(m) == moment && (first..=next).contains(&at)) {
            return;
        }
        // One beat missing is one lost packet (the copies ride it out); two or more in a row
        // are a silence as long as the gap (half a beat of slack for the client's timer).
        if gap >= 2 * GRAB_BEAT_US + GRAB_BEAT_US / 2 {
            if self.silences.len() == SILENCES_KEPT {
                self.silences.pop_front();
            }
            self.silences.push_back((self.moments, gap));
        }
    }

    /// The time a request needs to outlast the longest silence this path showed (trusted once
    /// seen [`SILENCES_TRUSTED`] times in the last [`MOMENTS_KEPT`] moments): when the next
    /// copy after it leaves. 0 for a path that never went quiet.
    pub fn silence_cover(&self) -> u64 {
        let recent = self.silences.iter().filter(|(m, _)| self.moments.wrapping_sub(*m) < MOMENTS_KEPT);
        let (count, longest) = recent.fold((0, 0), |(n, max), (_, len)| (n + 1, max.max(*len)));
        if count < SILENCES_TRUSTED {
            return 0;
        }
        let mut at = std::time::Duration::ZERO;
        for gap in COPY_GAPS {
            at += gap;
            let at_us = at.as_micros() as u64;
            if at_us >= longest {
                return at_us;
            }
        }
        longest.min(MAX_US)
    }

    /// The most any allowance of this path reaches, `default` the caller's (room for a
    /// retransmission, what every laptop got before its beats told anything): that, or on a
    /// path whose beats showed it goes quiet in stretches ([`Slack::silence_cover`]), as far as
    /// a message's last copy ([`QUIET_CAP_US`]). Faking a bad path buys no more than this.
    pub fn cap(&self, default: u64) -> u64 {
        if self.silence_cover() > 0 { default.max(QUIET_CAP_US) } else { default.max(BASE_US) }
    }

    /// The input allowance for a claim, `default` the caller's when it knows nothing better:
    /// the latest a beat arrived past the path bound, plus the cover of the path's silences,
    /// at least [`BASE_US`], at most [`Slack::cap`]. It is what holds a laptop that did not
    /// beat in the moment it claims in (fairness.md §7: an honest laptop beats from the instant
    /// it shows the moment, so it has a beat of that moment to be believed back to; a laptop
    /// without one is treated no better than what its beats showed before).
    pub fn input_allowance(&self, default: u64) -> u64 {
        let late = self.late.iter().copied().max().unwrap_or(0);
        BASE_US.saturating_add(late).saturating_add(self.silence_cover()).min(self.cap(default))
    }

    /// The allowance for `shown`, `base` the caller's for the clock model and the jitter:
    /// widened by the cover of the path's silences (the moment's copies on the way in must
    /// outlast them too), at most [`Slack::cap`] of `default`.
    pub fn shown_allowance(&self, base: u64, default: u64) -> u64 {
        base.saturating_add(self.silence_cover()).min(self.cap(default).max(base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000;

    /// `n` beats of moment `id`, every 10 ms from `from`, skipping those in `lost`.
    fn moment(s: &mut Slack, id: u64, from: u64, n: u64, lost: &[u64]) {
        for i in (0..n).filter(|i| !lost.contains(i)) {
            s.beat(0, Some((id, from + i * GRAB_BEAT_US)));
        }
    }

    const DEFAULT: u64 = 70 * MS;

    #[test]
    fn fairness_5_a_clean_path_earns_the_base() {
        let mut s = Slack::default();
        assert_eq!(s.input_allowance(DEFAULT), BASE_US, "no beat yet: no benefit of the doubt");
        moment(&mut s, 1, 0, 40, &[]);
        assert_eq!(s.input_allowance(DEFAULT), BASE_US);
        assert_eq!(s.cap(DEFAULT), DEFAULT, "a path that never went quiet: a retransmission's room");
    }

    #[test]
    fn fairness_5_a_beat_held_late_widens_the_allowance_by_that_much() {
        let mut s = Slack::default();
        for i in 0..50 {
            s.beat(if i == 7 { 18 * MS } else { 0 }, Some((1, i * GRAB_BEAT_US)));
        }
        assert_eq!(s.input_allowance(DEFAULT), BASE_US + 18 * MS);
    }

    #[test]
    fn fairness_5_single_losses_are_not_a_silence_runs_are_once_seen_twice() {
        let mut s = Slack::default();
        // 1 % loss, one beat at a time: the copies ride it out.
        for id in 0..6 {
            moment(&mut s, id, 0, 50, &[5, 20, 33]);
        }
        assert_eq!(s.silence_cover(), 0);
        // A 45 ms silence once: could be luck.
        moment(&mut s, 6, 0, 50, &[10, 11, 12, 13]);
        assert_eq!(s.silence_cover(), 0);
        // Twice: the path goes quiet in stretches; a request must outlast 50 ms (copy at 80).
        moment(&mut s, 7, 0, 50, &[30, 31, 32]);
        assert_eq!(s.silence_cover(), 80 * MS);
        assert_eq!(s.input_allowance(200 * MS), BASE_US + 80 * MS);
        // A retransmission's room on a near path (40 ms) is shorter than that: the path is
        // believed as far as the last copy.
        assert_eq!(s.cap(40 * MS), QUIET_CAP_US);
        assert_eq!(s.input_allowance(40 * MS), BASE_US + 80 * MS);
        assert_eq!(s.shown_allowance(20 * MS, 40 * MS), 100 * MS);
    }

    #[test]
    fn fairness_5_a_silence_around_the_laptops_own_request_is_no_sign_of_its_path() {
        // A laptop that hushes from 90 ms until its request (made at 100 ms) has left, twice.
        let mut s = Slack::default();
        for id in 0..2 {
            s.request(id, 100 * MS);
            moment(&mut s, id, 0, 50, &[10, 11, 12]);
        }
        assert_eq!(s.silence_cover(), 0);
        assert_eq!(s.cap(DEFAULT), DEFAULT);
        // A liar's claim before its last beat is raised to that beat: still its own silence.
        let mut liar = Slack::default();
        for id in 0..2 {
            liar.request(id, 90 * MS);
            moment(&mut liar, id, 0, 50, &[10, 11, 12]);
        }
        assert_eq!(liar.silence_cover(), 0);
        // The same silences away from its requests: its path goes quiet.
        for id in 2..4 {
            s.request(id, 300 * MS);
            moment(&mut s, id, 0, 50, &[10, 11, 12]);
        }
        assert_eq!(s.silence_cover(), 40 * MS);
        assert_eq!(s.cap(DEFAULT), QUIET_CAP_US);
    }

    #[test]
    fn fairness_5_silences_are_forgotten_after_sixteen_moments() {
        let mut s = Slack::default();
        moment(&mut s, 0, 0, 50, &[10, 11, 12]);
        moment(&mut s, 1, 0, 50, &[10, 11, 12]);
        moment(&mut s, 2, 0, 50, &[]);
        assert_eq!(s.silence_cover(), 40 * MS);
        for id in 3..16 {
            moment(&mut s, id, 0, 50, &[]);
        }
        assert_eq!(s.silence_cover(), 40 * MS, "both are among the last sixteen moments");
        moment(&mut s, 16, 0, 50, &[]);
        assert_eq!(s.silence_cover(), 0, "the first one is not: one silence is not trusted");
    }

    #[test]
    fn fairness_5_reordered_beats_are_not_a_silence_and_a_faked_path_is_capped() {
        let mut s = Slack::default();
        for id in 0..3 {
            // Beats arriving out of order by up to three places.
            for i in [0, 3, 1, 2, 6, 4, 5, 9, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] {
                s.beat(0, Some((id, i * GRAB_BEAT_US)));
            }
        }
        assert_eq!(s.silence_cover(), 0);
        // A hostile laptop: beats a second apart, each claiming to be ten seconds late.
        let mut liar = Slack::default();
        for i in 0..100 {
            liar.beat(10_000_000, Some((i / 10, i * 1_000_000)));
        }
        assert_eq!(liar.input_allowance(DEFAULT), QUIET_CAP_US, "no further than the last copy");
        assert_eq!(liar.silence_cover(), MAX_US);
        // And beats with any times at all stay bounded in memory.
        for i in 0..10_000u64 {
            liar.beat(u64::MAX, Some((i % 3, u64::MAX - i)));
        }
        assert!(liar.recent.len() <= REORDER && liar.silences.len() <= SILENCES_KEPT && liar.late.len() <= LATE_KEPT);
        assert_eq!(liar.input_allowance(DEFAULT), DEFAULT, "its silences are thousands of moments old: forgotten");
    }
}
