//! The display's refresh grid, fitted to the animation frames' times a page reads on a coarse
//! clock (fairness.md §2).
//!
//! A page served over plain HTTP is no secure context, and its browser coarsens
//! `performance.now()` and every time it hands out: Chromium to 100 µs, Firefox and Safari (so
//! every iPhone) to 1 ms. A press's `timeStamp` and the frame time its reveal is counted from
//! are then each off by up to a step, and a reaction, their difference, by up to two. But a
//! frame's time is no ordinary time: the display refreshes on a grid (an interval, a phase),
//! and the rounded times of many frames pin that grid down far finer than the clock's step. So
//! a frame is stamped from the grid fitted to the recent frames (least squares), which carries
//! the clock's average rounding — the press's own expected rounding, so a reaction stays
//! unbiased, and is off by the press's rounding alone: within about half a step on a clock
//! that cuts down (WebKit's), so two hands a step apart are ordered right. A page draws only
//! when something moves, so on a millisecond clock it reads every refresh's time for the last
//! [`LEAD_IN`] before a moment's frame (`ui::stamp::shows_now`), in animation frames that draw
//! nothing.
//!
//! Honesty rules:
//! - only on a coarse clock (every frame time a whole number of 100 µs): a fine clock's own
//!   readings are better than any fit;
//! - no fit from fewer than [`MIN_FRAMES`] frames, or spanning fewer than [`MIN_SPAN`]
//!   refreshes, and a gap between frames counted in refreshes only while the interval is
//!   known well enough to count it: a longer one starts a new grid;
//! - a fitted time never strays more than [`STRAY`] steps from the frame's own reading, which
//!   holds the true time within a step: a frame that would starts a new grid (the display
//!   changed, or the browser left its grid) and keeps its own reading.

use std::collections::VecDeque;
use std::time::Duration;

/// The clock's steps told apart (ms): Firefox's and Safari's, Chromium's.
const COARSE: [f64; 2] = [1.0, 0.1];
/// Frames kept at most: four seconds of a 60 Hz display drawing every refresh.
const KEPT: usize = 240;
/// Refreshes between the newest frame and the oldest kept, at most (ten seconds at 60 Hz).
const LONGEST_SPAN: u64 = 600;
/// Frames a fit needs.
const MIN_FRAMES: usize = 12;
/// Refreshes a fit's frames must span.
const MIN_SPAN: u64 = 24;
/// How far from its own reading a frame's fitted time may be, in clock steps: a reading is
/// within a step of the truth, and the fit within a quarter of one.
const STRAY: f64 = 1.25;
/// How far off the interval a guess is (ms): the least step between two frames, which a
/// millisecond clock reads up to a step short.
const GUESS_OFF: f64 = 1.0;
/// A gap between frames is counted in refreshes only while the interval's uncertainty,
/// times this, adds up to less than half a refresh over it.
const SAFETY: f64 = 4.0;
/// On a millisecond clock, how long before a moment's frame the page reads every refresh's
/// time: thirty frames at 60 Hz pin the grid down within a tenth of a millisecond.
pub(crate) const LEAD_IN: Duration = Duration::from_millis(500);

/// The grid, as fitted so far.
#[derive(Debug, Default)]
pub(crate) struct RefreshGrid {
    /// The frames since the grid last started: (refreshes since its first, time in ms).
    frames: VecDeque<(u64, f64)>,
    /// The coarsest step of [`COARSE`] every kept time is a multiple of; `None` for a finer
    /// clock.
    step: Option<f64>,
    fit: Option<Fit>,
}

#[derive(Debug, Clone, Copy)]
struct Fit {
    /// The refresh interval (ms), and how far off it may be (one standard error).
    interval: f64,
    uncertainty: f64,
    /// The grid's refresh `first` and its time (ms).
    first: u64,
    at_first: f64,
}

impl Fit {
    fn at(&self, refresh: u64) -> f64 {
        self.at_first + self.interval * refresh.saturating_sub(self.first) as f64
    }
}

impl RefreshGrid {
    /// Takes the time (ms) of an animation frame, `guess` the refresh interval (ms) to count
    /// refreshes by until one is fitted; returns the time to stamp the frame with: its time on
    /// the fitted grid, or its own.
    pub(crate) fn frame(&mut self, time: f64, guess: f64) -> f64 {
        let step = COARSE.into_iter().find(|s| on_step(time, *s));
        let Some(&(last, last_time)) = self.frames.back() else {
            return self.restart(time, step);
        };
        // A frame read twice (by a pass and by the lead-in) is stamped the same; one older
        // than the newest, read late, keeps its own reading.
        if time <= last_time {
            return if time == last_time { self.on_grid(last, time).unwrap_or(time) } else { time };
        }
        let (interval, uncertainty) = self.fit.map_or((guess, GUESS_OFF), |f| (f.interval, f.uncertainty));
        let refreshes = ((time - last_time) / interval).round();
        // `!(..)`: a NaN (a zero or broken guess) starts over too; so does a gap too long to
        // be counted in refreshes with the interval known this well.
        if !(1.0..=LONGEST_SPAN as f64).contains(&refreshes) || refreshes * uncertainty * SAFETY > interval / 2.0 {
            return self.restart(time, step);
        }
        let refresh = last + refreshes as u64;
        self.frames.push_back((refresh, time));
        self.step = match (self.step, step) {
            (Some(a), Some(b)) => Some(a.min(b)),
            _ => None,
        };
        while self.frames.len() > KEPT || self.frames.front().is_some_and(|(r, _)| refresh - r > LONGEST_SPAN) {
            self.frames.pop_front();
        }
        let Some(step) = self.step else {
            self.fit = None;
            return time;
        };
        self.fit = fit(&self.frames, step);
        match self.on_grid(refresh, time) {
            Some(fitted) => fitted,
            None if self.fit.is_some() => self.restart(time, Some(step)),
            None => time,
        }
    }

    /// The time of `refresh`, read as `time`, on the fitted grid, unless it strays.
    fn on_grid(&self, refresh: u64, time: f64) -> Option<f64> {
        let (fit, step) = (self.fit?, self.step?);
        let fitted = fit.at(refresh);
        ((fitted - time).abs() <= STRAY * step).then_some(fitted)
    }

    /// The refresh interval (ms), once fitted.
    pub(crate) fn interval(&self) -> Option<f64> {
        self.fit.map(|f| f.interval)
    }

    /// Whether the clock is so coarse (a millisecond) that reading every refresh before a
    /// moment is worth it ([`LEAD_IN`]).
    pub(crate) fn wants_frames(&self) -> bool {
        self.step.is_some_and(|s| s >= COARSE[0])
    }

    fn restart(&mut self, time: f64, step: Option<f64>) -> f64 {
        self.frames.clear();
        self.frames.push_back((0, time));
        self.step = step;
        self.fit = None;
        time
    }
}

/// Whether `time` is a whole number of `step`s (both ms), as a clock cut to them reads.
fn on_step(time: f64, step: f64) -> bool {
    let steps = time / step;
    (steps - steps.round()).abs() < 1e-6
}

/// The least-squares line through the frames read on a clock of `step` (ms), when they are
/// enough to pin it down.
fn fit(frames: &VecDeque<(u64, f64)>, step: f64) -> Option<Fit> {
    let (&(first, at_first), &(last, _)) = (frames.front()?, frames.back()?);
    if frames.len() < MIN_FRAMES || last - first < MIN_SPAN {
        return None;
    }
    // Counted from the first frame, so that the sums stay small and exact.
    let n = frames.len() as f64;
    let points = || frames.iter().map(|&(r, t)| ((r - first) as f64, t - at_first));
    let (mean_r, mean_t) = points().fold((0.0, 0.0), |(a, b), (r, t)| (a + r / n, b + t / n));
    let (srr, srt) =
        points().fold((0.0, 0.0), |(a, b), (r, t)| (a + (r - mean_r) * (r - mean_r), b + (r - mean_r) * (t - mean_t)));
    let interval = srt / srr;
    let intercept = mean_t - interval * mean_r;
    // The readings' scatter about the line, never taken as less than a clock's rounding.
    let scatter = points().map(|(r, t)| (t - intercept - interval * r).powi(2)).sum::<f64>() / (n - 2.0);
    let uncertainty = scatter.sqrt().max(step / 12f64.sqrt()) / srr.sqrt();
    // Between a 240 Hz display's refresh and a second's.
    (4.0..=1_000.0).contains(&interval).then_some(Fit { interval, uncertainty, first, at_first: at_first + intercept })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (the tests need spread, not secrecy).
    struct Draws(u64);
    impl Draws {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// WebKit's clock: cut down to its millisecond.
    fn floor_ms(t: f64) -> f64 {
        t.floor()
    }

    /// Firefox's and Chromium's: down or up at a threshold drawn once per step.
    fn jitter_ms(t: f64) -> f64 {
        let bucket = t.floor();
        let h = (bucket * 12.9898 + 78.233).sin() * 43_758.545_3;
        if t - bucket < h - h.floor() { bucket } else { bucket + 1.0 }
    }

    /// Plays a page on a clock as a race draws it: frames on a grid (`interval`, `phase`), a
    /// few now and then while nothing moves, then every refresh of the lead-in, the moment's
    /// frame and the next (whose time is the moment's `shown`), a press a human reaction after
    /// it, then 1–3 s of a still screen; returns the worst error (ms) of the reactions counted
    /// from the frame's stamp and from its own reading, past the first moment.
    fn play(clock: fn(f64) -> f64, interval: f64, phase: f64, seed: u64) -> (f64, f64) {
        let mut draws = Draws(seed);
        let mut grid = RefreshGrid::default();
        let (mut worst_fitted, mut worst_raw) = (0.0f64, 0.0f64);
        let mut refresh = 1_000u64;
        let lead_in = (LEAD_IN.as_secs_f64() * 1_000.0 / interval) as u64;
        let mut draw = |refresh: u64| {
            let truth = phase + interval * refresh as f64;
            (truth, clock(truth), grid.frame(clock(truth), interval.floor()))
        };
        for moment in 0..100 {
            for _ in 0..3 {
                refresh += 6 + (30.0 * draws.next()) as u64;
                draw(refresh);
            }
            for _ in 0..=lead_in + 1 {
                refresh += 1;
                draw(refresh);
            }
            let (truth, read, stamped) = draw(refresh + 1);
            refresh += 60 + (120.0 * draws.next()) as u64;
            let press = truth + 150.0 + 200.0 * draws.next();
            let true_reaction = press - truth;
            if moment > 0 {
                worst_fitted = worst_fitted.max((clock(press) - stamped - true_reaction).abs());
                worst_raw = worst_raw.max((clock(press) - read - true_reaction).abs());
            }
        }
        (worst_fitted, worst_raw)
    }

    #[test]
    fn fairness_2_on_a_millisecond_clock_that_cuts_down_a_reaction_is_off_by_at_most_half_a_step_and_a_little() {
        for (interval, phase, seed) in [(1000.0 / 60.0, 0.37, 1), (1000.0 / 59.94, 0.81, 2), (1000.0 / 120.0, 0.05, 3)]
        {
            let (fitted, raw) = play(floor_ms, interval, phase, seed);
            assert!(fitted < 0.75, "{interval} ms: off by {fitted} ms on the grid");
            assert!(raw > 0.75, "{interval} ms: its own readings are off by {raw} ms: the test has no teeth");
        }
    }

    #[test]
    fn fairness_2_on_a_jittered_millisecond_clock_the_frame_s_half_of_the_error_is_gone() {
        let (fitted, raw) = play(jitter_ms, 1000.0 / 60.0, 0.52, 4);
        // What is left is the press's own rounding, within a step.
        assert!(fitted < 1.0 + 0.1, "off by {fitted} ms on the grid");
        assert!(raw > fitted, "{raw} ms from its own readings");
    }

    #[test]
    fn fairness_2_a_fine_clock_s_frames_keep_their_own_times() {
        let mut grid = RefreshGrid::default();
        for k in 0..100 {
            let t = 1000.0 + 16.668_333 * f64::from(k) + 0.003 * f64::from(k % 3);
            assert_eq!(grid.frame(t, 16.0), t);
        }
        assert_eq!(grid.interval(), None);
        assert!(!grid.wants_frames(), "a fine clock needs no lead-in");
    }

    #[test]
    fn fairness_2_a_frame_off_the_fitted_grid_keeps_its_reading_and_starts_a_new_grid() {
        let mut grid = RefreshGrid::default();
        let interval = 1000.0 / 60.0;
        let mut k = 0.0;
        for _ in 0..60 {
            grid.frame(floor_ms(3.3 + interval * k), 16.0);
            k += 1.0;
        }
        assert!((grid.interval().unwrap_or(0.0) - interval).abs() < 0.01);
        // The display moved its grid by 6.2 ms.
        let moved = floor_ms(3.3 + 6.2 + interval * k);
        assert_eq!(grid.frame(moved, 16.0), moved);
        assert_eq!(grid.interval(), None, "a new grid is not fitted yet");
        for _ in 0..40 {
            k += 1.0;
            let truth = 3.3 + 6.2 + interval * k;
            let stamped = grid.frame(floor_ms(truth), 16.0);
            assert!((stamped - truth).abs() <= 1.0, "{stamped} for {truth}");
        }
        assert!(grid.interval().is_some(), "the new grid is fitted");
    }

    #[test]
    fn fairness_2_a_gap_too_long_to_count_in_refreshes_starts_a_new_grid() {
        let mut grid = RefreshGrid::default();
        let interval = 1000.0 / 60.0;
        // Unfitted, the least step is a guess up to a step off: ten refreshes cannot be
        // counted by it.
        grid.frame(floor_ms(0.4), 16.0);
        grid.frame(floor_ms(0.4 + interval), 16.0);
        grid.frame(floor_ms(0.4 + 11.0 * interval), 16.0);
        assert_eq!(grid.frames.len(), 1);
        assert!(grid.wants_frames(), "a millisecond clock draws its lead-in");
        // Fitted on thirty frames in a row, three seconds can be.
        for k in 12..42 {
            grid.frame(floor_ms(0.4 + interval * f64::from(k)), 16.0);
        }
        let truth = 0.4 + interval * 222.0;
        let stamped = grid.frame(floor_ms(truth), 16.0);
        assert_eq!(grid.frame(floor_ms(truth), 16.0), stamped, "a frame read twice is stamped the same");
        assert_eq!(grid.frames.len(), 32);
        assert!((stamped - truth).abs() < 1.0, "{stamped} for {truth}");
        // Past ten seconds, the grid is another's.
        grid.frame(floor_ms(truth + interval * 601.0), 16.0);
        assert_eq!(grid.frames.len(), 1);
    }

    #[test]
    fn fairness_2_an_older_frame_keeps_its_reading_and_a_broken_guess_starts_over() {
        let mut grid = RefreshGrid::default();
        assert_eq!(grid.frame(100.0, 16.0), 100.0);
        assert_eq!(grid.frame(101.0, 0.0), 101.0);
        assert_eq!(grid.frame(102.0, f64::NAN), 102.0);
        assert_eq!(grid.frames.len(), 1);
        assert_eq!(grid.frame(50.0, 16.0), 50.0);
        assert_eq!(grid.frames.back(), Some(&(0, 102.0)), "the grid goes on from its newest frame");
    }
}
