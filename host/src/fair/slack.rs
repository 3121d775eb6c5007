//! How much slack a laptop's claims need, learned from its own beats (fairness.md §5), sans-I/O.
//!
//! The host bounds a claimed input by `arrival − owd_max − allowance`, and the allowance must
//! let an honest laptop through its worst moments: a message that arrives later than the path
//! bound says (the jitter tail, the clock model's error, a stall between stamping an input and
//! sending it), and a stretch where every packet is lost (Wi-Fi), which the request's copies
//! must outlast. One allowance for every laptop has to cover the worst path at the table, and
//! a laptop that lies keeps all of it (about 80 ms on a near path when its beats stop).
//!
//! But a laptop's own beats show both: a seated laptop beats (from the lobby on, on a host
//! that asks for steady beats as a game night's does — every [`BEAT_US`] when something timed
//! is near, in bursts otherwise; else only while it acts in a moment), each beat a message
//! stamped on its clock, so how late it arrives against the path bound is a sample of the
//! first (a beat held behind an unsent input carries that input's time, so a stall shows too);
//! and several missing in a row after one that promised the next within [`BEAT_US`] are a
//! silence of the path. Each connection gets the allowance its own beats showed it needs over the last minute
//! ([`RECORD_US`]); a laptop that lies while its path looks clean keeps only that. A laptop
//! can fake a bad path (hold beats back, skip them): that buys it no more than [`Slack::cap`]
//! on an input (the caller's default, or once its beats show the path goes quiet a message's
//! last copy or its longest pause, at most [`MAX_US`]) and a moment's last copy on a `shown`
//! ([`Slack::shown_allowance`]), and the lab measures it. The same pauses make a decision
//! wait longer for that laptop before it stops waiting ([`Slack::quiet_wait`]): a laptop that
//! pauses as a habit is neither cut off nor clamped for a pause of its usual length.
//!
//! A laptop that beat in the moment it claims in is believed back to its last beat there
//! instead (`room::fairness`, `silent_since`), as far as [`Slack::cap`]: its beats then tell
//! exactly what this module can only guess from the past. This allowance holds a laptop with
//! no beat in the moment.

use bolide_table::wire::{BEAT_US, COPY_GAPS, LAST_COPY_US};
use std::collections::{BTreeMap, VecDeque};

/// The least input allowance: the first two copies of a request lost (each alone, as a
/// packet is now and then), the third one through.
pub const BASE_US: u64 = 5_000;
/// The longest silence a connection's beats can earn cover for — a request's allowance, and
/// how much longer a decision waits for its laptop ([`Slack::quiet_wait`]): the last copy of
/// a request leaves 160 ms after the first, and a longer pause is a laptop gone, not a habit.
pub const MAX_US: u64 = 200_000;
/// How far a path that goes quiet in stretches is believed at least (µs): as far as a
/// message's last copy, which leaves [`LAST_COPY_US`] after the first. On a near path a
/// retransmission's room (the caller's default, about 70 ms there) is shorter than the 80 ms
/// copy that a stretch of loss can leave as the first one through.
pub const QUIET_CAP_US: u64 = LAST_COPY_US + BASE_US;
/// How long what a connection's beats showed counts (host clock): a minute, some six thousand
/// beats — long enough to see a path that goes quiet every few seconds do so more than once.
pub const RECORD_US: u64 = 60_000_000;
/// Beats missing in a row that make a silence. Fewer come of packets lost one at a time (two
/// in a row at 1 % loss: once in 100 s of beats; three: once in three hours), and a request's
/// copies ride out so short a stretch anyway (one leaves 40 ms after the first).
const SILENCE_BEATS: u64 = 3;
/// Lateness is kept as the latest of each second of the record.
const LATE_SECOND_US: u64 = 1_000_000;
/// Beat times that wait for a straggler before their gap counts.
const REORDER: usize = 16;
/// Silences remembered at most.
const SILENCES_KEPT: usize = 64;
/// Own requests remembered, to tell a silence around one (a few moments' worth).
const REQUESTS_KEPT: usize = 8;
/// Silences seen in the record before they widen the allowance: one could be bad luck; a
/// path that goes quiet in stretches does so again.
const SILENCES_TRUSTED: usize = 2;

/// What one connection's beats showed of its path over the last [`RECORD_US`].
#[derive(Debug, Default, Clone)]
pub struct Slack {
    /// Per second of the host clock, the latest a beat arrived past the path bound (µs):
    /// (second, lateness), oldest first.
    late: VecDeque<(u64, u64)>,
    /// The latest beat times (client clock), for the gaps between them, each with whether it
    /// promised the next within [`BEAT_US`] (only such a gap is a sample of the path).
    recent: BTreeMap<u64, bool>,
    /// The latest beat time whose gap to the next has been counted.
    counted: Option<u64>,
    /// Silences: (heard at, host clock µs; length µs).
    silences: VecDeque<(u64, u64)>,
    /// The laptop's own recent timed requests: input times on its clock.
    requests: VecDeque<u64>,
    /// When its latest beat was heard (host clock): the record reaches back from there.
    heard: u64,
}

impl Slack {
    /// A beat stamped `at_us` on the client's clock arrived at `now` (host clock), `late_us`
    /// past the path bound (0 when early or on time); `dense`: it promised the next within
    /// [`BEAT_US`]. A laptop that promises and skips fakes a quiet path, which buys it no more
    /// than [`Slack::cap`]; one that never promises earns only [`BASE_US`].
    pub fn beat(&mut self, late_us: u64, at_us: u64, dense: bool, now: u64) {
        self.heard = self.heard.max(now);
        let second = self.heard / LATE_SECOND_US;
        match self.late.back_mut() {
            Some((s, max)) if *s == second => *max = (*max).max(late_us),
            _ => self.late.push_back((second, late_us)),
        }
        while self.late.front().is_some_and(|(s, _)| s.saturating_add(RECORD_US / LATE_SECOND_US) <= second) {
            self.late.pop_front();
        }
        // A beat older than one already counted can only shorten a gap counted: ignored.
        if self.counted.is_some_and(|c| at_us <= c) {
            return;
        }
        let promised = self.recent.entry(at_us).or_insert(dense);
        *promised &= dense;
        if self.recent.len() > REORDER {
            self.count_oldest_gap();
        }
    }

    /// The laptop made a timed request at `input_us` (its clock). A silence around its own
    /// request is no sign of its path: a laptop that hushes until its (lying) request has left
    /// would earn itself the wider cap with it, where a path that really goes quiet does so at
    /// any time.
    pub fn request(&mut self, input_us: u64) {
        if self.requests.len() == REQUESTS_KEPT {
            self.requests.pop_front();
        }
        self.requests.push_back(input_us);
    }

    fn count_oldest_gap(&mut self) {
        let Some((first, dense)) = self.recent.pop_first() else { return };
        let Some((&next, _)) = self.recent.first_key_value() else { return };
        self.counted = Some(first);
        let gap = next - first;
        if !dense {
            return;
        }
        // (An input may be the beat's own time: a claim before it is raised to it, §7.)
        if self.requests.iter().any(|at| (first..=next).contains(at)) {
            return;
        }
        // Half a beat of slack for the client's timer.
        if gap >= SILENCE_BEATS * BEAT_US + BEAT_US / 2 {
            if self.silences.len() == SILENCES_KEPT {
                self.silences.pop_front();
            }
            self.silences.push_back((self.heard, gap));
        }
    }

    /// The silences of the last [`RECORD_US`]: how many, and the longest (µs).
    pub fn silences(&self) -> (usize, u64) {
        let from = self.heard.saturating_sub(RECORD_US);
        let recent = self.silences.iter().filter(|(at, _)| *at > from);
        recent.fold((0, 0), |(n, max), (_, len)| (n + 1, max.max(*len)))
    }

    /// The time a request needs to outlast the longest silence this path showed (trusted once
    /// seen [`SILENCES_TRUSTED`] times in the record): when the next copy after it leaves. 0
    /// for a path that did not go quiet.
    pub fn silence_cover(&self) -> u64 {
        let (count, longest) = self.silences();
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

    /// How much longer than a laptop gone silent a timed decision waits for this one
    /// (fairness.md §4): the longest silence its beats showed (trusted once seen
    /// [`SILENCES_TRUSTED`] times in the record), at most [`MAX_US`]; 0 for a path that did not
    /// go quiet. Its laptop pauses that long as a habit (a browser's page stalls on a busy
    /// machine, a Wi-Fi card dozes), so a pause of that order is not a laptop gone. Faking it
    /// (skipping beats) slows verdicts by as much, and buys on an input what [`Slack::cap`]
    /// believes after such a pause.
    pub fn quiet_wait(&self) -> u64 {
        match self.silences() {
            (count, longest) if count >= SILENCES_TRUSTED => longest.min(MAX_US),
            _ => 0,
        }
    }

    /// The most the input allowance of this path reaches, `default` the caller's (room for a
    /// retransmission, what every laptop got before its beats told anything): that, or on a
    /// path whose beats showed it goes quiet in stretches ([`Slack::silence_cover`]), as far as
    /// a message's last copy ([`QUIET_CAP_US`]) or its own longest pause
    /// ([`Slack::quiet_wait`], at most [`MAX_US`]), whichever is longer: a request that left
    /// after such a pause is waited for (`fair::arbiter`), and believed as far. Faking a bad
    /// path buys no more than this on an input (a `shown` has its own bound,
    /// [`Slack::shown_allowance`]).
    pub fn cap(&self, default: u64) -> u64 {
        if self.silence_cover() > 0 {
            default.max(QUIET_CAP_US).max(BASE_US.saturating_add(self.quiet_wait()))
        } else {
            default.max(BASE_US)
        }
    }

    /// The input allowance for a claim, `default` the caller's when it knows nothing better:
    /// the latest a beat arrived past the path bound, plus the cover of the path's silences,
    /// at least [`BASE_US`], at most [`Slack::cap`]. It is what holds a laptop that did not
    /// beat in the moment it claims in (fairness.md §7: an honest laptop beats from the instant
    /// it shows the moment, so it has a beat of that moment to be believed back to; a laptop
    /// without one is treated no better than what its beats showed before).
    pub fn input_allowance(&self, default: u64) -> u64 {
        let late = self.late.iter().map(|(_, l)| *l).max().unwrap_or(0);
        BASE_US.saturating_add(late).saturating_add(self.silence_cover()).min(self.cap(default))
    }

    /// The allowance for `shown`, `base` the caller's for the clock model and the jitter. The
    /// moment reaches the laptop as copies on the way *to* it, whose silences the host never
    /// hears: its record is of the laptop's beats, the other way, and a stretch of loss one
    /// way says nothing of its length the other way (a run of loss is as long as it is, not
    /// as long as the last one seen). So on a path whose beats showed it goes quiet in
    /// stretches the way in is believed to go quiet too, for as long as the moment's copies
    /// ride out: `base` plus its last copy ([`LAST_COPY_US`]). A path that never went quiet
    /// gets `base`; a laptop that fakes a quiet path gains no more than this.
    pub fn shown_allowance(&self, base: u64) -> u64 {
        if self.silence_cover() > 0 { base.saturating_add(LAST_COPY_US) } else { base }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000;
    const DEFAULT: u64 = 70 * MS;

    /// A laptop beating every [`BEAT_US`] (its clock and the host's alike, for the test).
    #[derive(Default)]
    struct Laptop {
        slack: Slack,
        at: u64,
    }

    impl Laptop {
        /// `n` more beats, skipping those whose index is in `lost`.
        fn beats(&mut self, n: u64, lost: &[u64]) -> &mut Laptop {
            for i in 0..n {
                if !lost.contains(&i) {
                    self.slack.beat(0, self.at, true, self.at);
                }
                self.at += BEAT_US;
            }
            self
        }

        /// Beats for `seconds` more, none lost.
        fn for_s(&mut self, seconds: u64) -> &mut Laptop {
            self.beats(seconds * 1_000_000 / BEAT_US, &[])
        }
    }

    #[test]
    fn fairness_5_a_clean_path_earns_the_base() {
        let mut l = Laptop::default();
        assert_eq!(l.slack.input_allowance(DEFAULT), BASE_US, "no beat yet: no benefit of the doubt");
        l.for_s(30);
        assert_eq!(l.slack.input_allowance(DEFAULT), BASE_US);
        assert_eq!(l.slack.cap(DEFAULT), DEFAULT, "a path that never went quiet: a retransmission's room");
        assert_eq!(l.slack.shown_allowance(20 * MS), 20 * MS, "the caller's base for the clock and the jitter");
    }

    #[test]
    fn fairness_5_a_beat_held_late_widens_the_allowance_by_that_much_for_a_minute() {
        let mut s = Slack::default();
        for i in 0..50 {
            s.beat(if i == 7 { 18 * MS } else { 0 }, i * BEAT_US, true, i * BEAT_US);
        }
        assert_eq!(s.input_allowance(DEFAULT), BASE_US + 18 * MS);
        let mut l = Laptop { slack: s, at: 500 * MS };
        l.beats(5_900, &[]);
        assert_eq!(l.slack.input_allowance(DEFAULT), BASE_US + 18 * MS, "still in the last minute");
        l.for_s(2);
        assert_eq!(l.slack.input_allowance(DEFAULT), BASE_US, "a minute on: forgotten");
    }

    #[test]
    fn fairness_5_losses_one_or_two_at_a_time_are_not_a_silence_runs_are_once_seen_twice() {
        let mut l = Laptop::default();
        // Packets lost one or two at a time: the copies ride it out.
        l.beats(2_000, &[5, 20, 21, 33, 400, 401, 1_500]);
        assert_eq!(l.slack.silence_cover(), 0);
        // A 50 ms silence once: could be luck.
        l.beats(100, &[10, 11, 12, 13]).for_s(10);
        assert_eq!(l.slack.silence_cover(), 0);
        assert_eq!(l.slack.shown_allowance(20 * MS), 20 * MS);
        // Twice: the path goes quiet in stretches; a request must outlast 50 ms (copy at 80).
        l.beats(100, &[30, 31, 32]).for_s(1);
        let s = &l.slack;
        assert_eq!(s.silence_cover(), 80 * MS);
        assert_eq!(s.input_allowance(200 * MS), BASE_US + 80 * MS);
        // A retransmission's room on a near path (40 ms) is shorter than that: the path is
        // believed as far as the last copy.
        assert_eq!(s.cap(40 * MS), QUIET_CAP_US);
        assert_eq!(s.input_allowance(40 * MS), BASE_US + 80 * MS);
        assert_eq!(s.shown_allowance(20 * MS), 20 * MS + LAST_COPY_US, "the way in: its last copy");
    }

    #[test]
    fn fairness_5_a_silence_around_the_laptops_own_request_is_no_sign_of_its_path() {
        // A laptop that hushes from 100 ms until its request (made at 110 ms) has left, twice.
        let mut l = Laptop::default();
        for _ in 0..2 {
            l.slack.request(l.at + 110 * MS);
            l.beats(100, &[10, 11, 12]).for_s(5);
        }
        assert_eq!(l.slack.silence_cover(), 0);
        assert_eq!(l.slack.cap(DEFAULT), DEFAULT);
        // A liar's claim before its last beat is raised to that beat: still its own silence.
        let mut liar = Laptop::default();
        for _ in 0..2 {
            liar.slack.request(liar.at + 90 * MS);
            liar.beats(100, &[10, 11, 12]).for_s(5);
        }
        assert_eq!(liar.slack.silence_cover(), 0);
        // The same silences away from its requests: its path goes quiet.
        for _ in 0..2 {
            l.slack.request(l.at + 300 * MS);
            l.beats(100, &[10, 11, 12]).for_s(5);
        }
        assert_eq!(l.slack.silence_cover(), 40 * MS);
        assert_eq!(l.slack.cap(DEFAULT), QUIET_CAP_US);
    }

    #[test]
    fn fairness_5_only_a_gap_promised_short_is_a_silence() {
        // A laptop between moments: a dense burst, then a beat every 250 ms, each saying so.
        let mut s = Slack::default();
        let mut at = 0;
        for _ in 0..6 {
            for _ in 0..50 {
                s.beat(0, at, true, at);
                at += BEAT_US;
            }
            for _ in 0..38 {
                s.beat(0, at, false, at);
                at += 250 * MS;
            }
        }
        assert_eq!(s.silences(), (0, 0), "sparse beats promised no short gap");
        // A promised beat that did not come is a silence, wherever it falls.
        let mut quiet = Slack::default();
        for burst in 0..3 {
            let start = burst * 10_000 * MS;
            for i in (0..50).filter(|i| !(20..24).contains(i)) {
                quiet.beat(0, start + i * BEAT_US, true, start + i * BEAT_US);
            }
            quiet.beat(0, start + 500 * MS, false, start + 500 * MS);
        }
        quiet.beat(0, 40_000 * MS, false, 40_000 * MS);
        for i in 0..REORDER as u64 {
            quiet.beat(0, 40_001 * MS + i, false, 40_001 * MS + i);
        }
        assert_eq!(quiet.silences(), (3, 50 * MS), "one in each burst");
    }

    #[test]
    fn fairness_5_silences_are_forgotten_after_a_minute() {
        let mut l = Laptop::default();
        l.beats(100, &[10, 11, 12]).for_s(1).beats(100, &[10, 11, 12]);
        assert_eq!(l.slack.silence_cover(), 40 * MS);
        l.for_s(57);
        assert_eq!(l.slack.silence_cover(), 40 * MS, "both heard in the last minute");
        l.for_s(2);
        assert_eq!(l.slack.silence_cover(), 0, "the first one is not: one silence is not trusted");
    }

    #[test]
    fn fairness_4_5_a_path_that_pauses_twice_is_waited_for_and_believed_as_far_as_its_longest_pause() {
        let mut l = Laptop::default();
        l.beats(100, &[10, 11, 12]).for_s(1);
        assert_eq!(l.slack.quiet_wait(), 0, "one pause could be luck");
        l.beats(100, &(40..53).collect::<Vec<_>>()).for_s(1);
        assert_eq!(l.slack.quiet_wait(), 140 * MS, "the longer of the two pauses");
        assert_eq!(l.slack.cap(DEFAULT), QUIET_CAP_US, "a request's last copy reaches further");
        l.beats(100, &(20..70).collect::<Vec<_>>()).for_s(1);
        assert_eq!(l.slack.quiet_wait(), MAX_US, "a 510 ms pause is waited for no more than the cap");
        assert_eq!(l.slack.cap(DEFAULT), BASE_US + MAX_US, "and a request after one believed as far back");
        l.for_s(60);
        assert_eq!(l.slack.quiet_wait(), 0, "forgotten after a minute");
    }

    #[test]
    fn fairness_5_reordered_beats_are_not_a_silence_and_a_faked_path_is_capped() {
        let mut s = Slack::default();
        for tens in 0..30 {
            // Beats arriving out of order by up to three places.
            for i in [0, 3, 1, 2, 6, 4, 5, 9, 7, 8] {
                let at = (tens * 10 + i) * BEAT_US;
                s.beat(0, at, true, at);
            }
        }
        assert_eq!(s.silence_cover(), 0);
        // A hostile laptop: beats a second apart, each claiming to be ten seconds late.
        let mut liar = Slack::default();
        for i in 0..100 {
            liar.beat(10_000_000, i * 1_000_000, true, i * 1_000_000);
        }
        assert_eq!(liar.input_allowance(DEFAULT), BASE_US + MAX_US, "no further than the longest pause it can earn");
        assert_eq!(liar.silence_cover(), MAX_US);
        // And beats with any times at all stay bounded in memory.
        for i in 0..10_000u64 {
            liar.beat(u64::MAX, u64::MAX - i, true, 200_000_000 + i % 3);
        }
        assert!(liar.recent.len() <= REORDER && liar.silences.len() <= SILENCES_KEPT);
        assert!(liar.late.len() <= (RECORD_US / LATE_SECOND_US + 1) as usize);
        assert!(liar.silence_cover() <= MAX_US && liar.input_allowance(DEFAULT) <= BASE_US + MAX_US);
    }
}
