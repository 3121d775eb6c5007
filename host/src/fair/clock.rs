//! Clock sync, NTP-style, sans-I/O: the host sends a probe at `t0` (host clock), the client
//! stamps it `t1` on arrival and `t2` on reply (client clock), the host receives the reply at
//! `t3`. Per probe: `offset = ((t1 - t0) + (t2 - t3)) / 2` (client minus host) and
//! `delay = (t3 - t0) - (t2 - t1)`. Queueing only ever adds delay, so the samples with the
//! least delay carry the least error (the NTP clock filter); a line through them gives the
//! drift, so the offset stays right between probes. All times in microseconds.

use std::collections::VecDeque;

/// One probe's result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Host time the reply arrived.
    pub at: u64,
    /// Client clock minus host clock, µs.
    pub offset: f64,
    /// Round-trip delay, µs.
    pub delay: u64,
    /// The least round trip the QUIC connection itself measured so far (µs), when the answer
    /// came: its own packets and their acknowledgements, which no clock answer can move.
    pub transport_min_rtt: Option<u64>,
}

impl Sample {
    pub fn from_probe(t0: u64, t1: u64, t2: u64, t3: u64) -> Sample {
        let offset = ((t1 as f64 - t0 as f64) + (t2 as f64 - t3 as f64)) / 2.0;
        let delay = (t3.saturating_sub(t0)).saturating_sub(t2.saturating_sub(t1));
        Sample { at: t3, offset, delay, transport_min_rtt: None }
    }

    /// This sample, with the least round trip its connection measured (`quinn`'s `min_rtt`).
    pub fn with_transport_min_rtt(self, min_rtt_us: u64) -> Sample {
        Sample { transport_min_rtt: Some(min_rtt_us), ..self }
    }
}

/// How far a probe's round trip may exceed what the transport measures before it is taken for
/// an answer held back (µs), beside [`TRANSPORT_RTTS`] of QUIC's smoothed RTT.
pub const TRANSPORT_MARGIN_US: u64 = 25_000;
/// Smoothed round trips of QUIC a probe's round trip may take.
pub const TRANSPORT_RTTS: u64 = 4;

impl Sample {
    /// Whether this probe's round trip is one the QUIC connection itself could have measured
    /// (`rtt_us`, its smoothed RTT: the transport times its own packets and their
    /// acknowledgements, which the laptop cannot stamp). A laptop that holds its clock answers
    /// back to look far away — and have its claims believed further — has those answers
    /// dropped: its jitter is widened only by what the transport measured, with room for the
    /// jitter a smoothed RTT lags behind. (The reveal never follows the jitter:
    /// [`ClockModel::reveal_floor`].)
    pub fn within_transport(&self, rtt_us: u64) -> bool {
        self.delay <= rtt_us.saturating_mul(TRANSPORT_RTTS).saturating_add(TRANSPORT_MARGIN_US)
    }
}

/// The probes the host sent and has not heard back from. A clock answer is taken once, and
/// only for a probe the host sent: a laptop cannot invent answers to skew its own path
/// estimate (and so widen the bounds on what it claims).
#[derive(Debug, Default)]
pub struct OutstandingProbes {
    sent: VecDeque<u64>,
}

impl OutstandingProbes {
    /// Probes that may still be answered; older ones count as lost.
    pub const KEEP: usize = 16;

    /// The host sent a probe stamped `t0`.
    pub fn sent(&mut self, t0: u64) {
        if self.sent.len() == Self::KEEP {
            self.sent.pop_front();
        }
        self.sent.push_back(t0);
    }

    /// An answer to the probe `t0`: true the first time for a probe the host sent.
    pub fn answered(&mut self, t0: u64) -> bool {
        match self.sent.iter().position(|t| *t == t0) {
            Some(i) => {
                self.sent.remove(i);
                true
            }
            None => false,
        }
    }
}

/// The longest one-way delay bound the host grants any laptop (µs): a path estimate past it
/// (a laptop that holds its answers back to look far away) is capped, so no seat can widen
/// the window its claims are trusted in beyond a bad Wi-Fi's.
pub const MAX_OWD_US: u64 = 250_000;

/// The most a secret reveal leads any laptop's path by (µs, before the room's margin): a LAN's
/// one-way floor is a few ms. A laptop farther than this (or
/// one that makes itself look farther, both to its clock probes and to QUIC) is sent the
/// reveal so that it arrives after the others see it — it shows it at once and its reaction
/// is timed from its own screen, so it loses the wait, never the race — and no path, true or
/// feigned, sees a reveal more than this (and the margin) before its instant.
pub const MAX_REVEAL_FLOOR_US: u64 = 10_000;

/// The largest drift the model believes, either way (µs per µs): a real quartz is within
/// ±100 ppm, a cheap one within a few hundred; past ±500 ppm the probes are lying.
pub const MAX_DRIFT: f64 = 500e-6;

/// The largest likely error (two standard deviations) of a drift the model puts to use (µs per
/// µs): 50 ppm is 12.5 µs over a 250 ms reaction, under the 20 µs the arbiter calls a tie.
pub const MAX_DRIFT_ERROR: f64 = 50e-6;

/// The host's model of one client's clock and path.
#[derive(Debug, Clone)]
pub struct ClockModel {
    window: VecDeque<Sample>,
    capacity: usize,
    /// Offset at `origin` (µs) and drift (µs per µs) of the fitted line.
    intercept: f64,
    drift: f64,
    origin: u64,
    owd_floor: u64,
    jitter: u64,
    /// The least round trip QUIC measured on this connection (µs), once a sample said.
    transport_min_rtt: Option<u64>,
}

impl Default for ClockModel {
    /// 256 probes: at the host's pace of one every 500 ms, the last two minutes.
    fn default() -> Self {
        ClockModel::new(256)
    }
}

impl ClockModel {
    pub fn new(capacity: usize) -> ClockModel {
        ClockModel {
            window: VecDeque::new(),
            capacity,
            intercept: 0.0,
            drift: 0.0,
            origin: 0,
            owd_floor: 0,
            jitter: 0,
            transport_min_rtt: None,
        }
    }

    pub fn samples(&self) -> usize {
        self.window.len()
    }

    pub fn add(&mut self, sample: Sample) {
        if self.window.len() == self.capacity {
            self.window.pop_front();
        }
        self.window.push_back(sample);
        if let Some(rtt) = sample.transport_min_rtt {
            self.transport_min_rtt = Some(self.transport_min_rtt.map_or(rtt, |known| known.min(rtt)));
        }
        self.refit();
    }

    fn refit(&mut self) {
        let mut delays: Vec<u64> = self.window.iter().map(|s| s.delay).collect();
        delays.sort_unstable();
        let floor = delays[0];
        // The clock filter: split the window into time slices and keep each slice's least
        // delayed sample — its up and down legs were both nearly empty, so its offset is right.
        // Slices of 16 samples: the least of 16 round trips is close to the floor both ways,
        // and a second slice (the drift's time base) exists seconds after a client joins —
        // an unestimated drift of 200 ppm would be 4 ms off after 20 s.
        let slices = (self.window.len() / 16).clamp(1, 16);
        let per = self.window.len().div_ceil(slices);
        let best: Vec<Sample> = self
            .window
            .iter()
            .copied()
            .collect::<Vec<_>>()
            .chunks(per)
            .map(|c| *c.iter().min_by_key(|s| s.delay).expect("non-empty"))
            .collect();
        self.origin = best.last().map_or(0, |s| s.at);
        let n = best.len() as f64;
        let xs: Vec<f64> = best.iter().map(|s| s.at as f64 - self.origin as f64).collect();
        let ys: Vec<f64> = best.iter().map(|s| s.offset).collect();
        let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
        let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
        let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
        // A drift needs a time base: below 5 s of spread, keep the offset flat. And it scales
        // every reaction the host measures, so a fitted drift replaces the one in use only once
        // its error is small: a sample's offset is off by up to half its delay over the floor
        // (the excess went one way or the other; taken as uniform within that, a standard
        // deviation of e/√3), and the slope moves by (x − x̄)·e / Sxx for an error e at x — two
        // standard deviations of the slope must be under MAX_DRIFT_ERROR. Until then the last
        // trusted drift stays.
        let span = xs.iter().cloned().fold(f64::MIN, f64::max) - xs.iter().cloned().fold(f64::MAX, f64::min);
        if sxx > 0.0 && span >= 5_000_000.0 {
            let excess = best.iter().map(|s| (s.delay - floor) as f64 / 2.0);
            let variance = xs.iter().zip(excess).map(|(x, e)| (x - mx).powi(2) * e * e / 3.0).sum::<f64>();
            if 2.0 * variance.sqrt() / sxx <= MAX_DRIFT_ERROR {
                self.drift = (sxy / sxx).clamp(-MAX_DRIFT, MAX_DRIFT);
            }
        }
        self.intercept = my - self.drift * mx;
        self.owd_floor = floor / 2;
        // Jitter bound: how far one-way delays spread above the floor (99th percentile of the
        // window, halved as delays are round trips).
        let p99 = delays[((delays.len() - 1) as f64 * 0.99).round() as usize];
        self.jitter = (p99 - floor) / 2;
    }

    /// Client clock minus host clock at host time `host_t`.
    pub fn offset_at(&self, host_t: u64) -> f64 {
        self.intercept + self.drift * (host_t as f64 - self.origin as f64)
    }

    /// Estimated drift of the client's clock against the host's, in parts per million.
    pub fn drift_ppm(&self) -> f64 {
        self.drift * 1e6
    }

    /// Converts a client time to the host clock.
    pub fn to_host(&self, client_t: u64) -> u64 {
        // The offset drifts slowly with time itself: two fixed-point steps are plenty.
        let mut host = client_t as f64 - self.intercept;
        for _ in 0..2 {
            host = client_t as f64 - self.offset_at(host.max(0.0) as u64);
        }
        host.max(0.0) as u64
    }

    /// Converts a host time to the client clock.
    pub fn to_client(&self, host_t: u64) -> u64 {
        (host_t as f64 + self.offset_at(host_t)).max(0.0) as u64
    }

    /// A client duration (elapsed on its clock) in host microseconds, drift corrected.
    pub fn to_host_duration(&self, client_us: u64) -> f64 {
        client_us as f64 / (1.0 + self.drift)
    }

    /// Least one-way delay seen (half the least round trip), µs.
    pub fn owd_floor(&self) -> u64 {
        self.owd_floor
    }

    /// How far one-way delays spread above the floor, µs.
    pub fn jitter(&self) -> u64 {
        self.jitter
    }

    /// The one-way delay a secret reveal is sent ahead by (µs): the probes' floor — never the
    /// jitter, which a laptop widens by holding a few answers back — no more than half the
    /// least round trip QUIC measured (a laptop that holds every answer back raises the
    /// probes' floor, not the transport's), and no more than [`MAX_REVEAL_FLOOR_US`].
    pub fn reveal_floor(&self) -> u64 {
        let transport = self.transport_min_rtt.map_or(u64::MAX, |rtt| rtt / 2);
        self.owd_floor.min(transport).min(MAX_REVEAL_FLOOR_US)
    }

    /// The bound the host trusts: floor plus jitter, µs.
    pub fn owd_max(&self) -> u64 {
        self.owd_floor.saturating_add(self.jitter).min(MAX_OWD_US)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A synthetic client: `offset` µs ahead of the host, `ppm` drift, one-way delay `owd`
    /// each way plus exponential-ish jitter.
    fn probe(rng: &mut ChaCha8Rng, host_t0: u64, offset: f64, ppm: f64, owd: u64, jitter: u64) -> Sample {
        let client = |host: u64| (host as f64 + offset + host as f64 * ppm * 1e-6) as u64;
        let up = owd + if jitter > 0 { rng.random_range(0..jitter) } else { 0 };
        let down = owd + if jitter > 0 { rng.random_range(0..jitter) } else { 0 };
        let t1 = client(host_t0 + up);
        let t2 = t1 + 20;
        let host_reply = host_t0 + up + 20;
        Sample::from_probe(host_t0, t1, t2, host_reply + down)
    }

    #[test]
    fn recovers_an_hour_of_offset_and_200_ppm_of_drift_through_jitter() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut model = ClockModel::default();
        let offset = 3_600e6; // an hour
        for i in 0..256u64 {
            let t0 = 1_000_000 + i * 200_000;
            model.add(probe(&mut rng, t0, offset, 200.0, 40_000, 20_000));
        }
        let now = 1_000_000 + 256 * 200_000;
        let truth = offset + now as f64 * 200e-6;
        let err = (model.offset_at(now) - truth).abs();
        assert!(err < 1_500.0, "offset error {err} µs");
        assert!((model.drift_ppm() - 200.0).abs() < 30.0, "drift {} ppm", model.drift_ppm());
        assert!(model.owd_floor() >= 40_000 && model.owd_floor() < 42_000, "{}", model.owd_floor());
        assert!(model.jitter() > 5_000 && model.jitter() <= 20_000, "{}", model.jitter());
        let back = model.to_host(model.to_client(now));
        assert!(back.abs_diff(now) < 5, "{back} vs {now}");
    }

    #[test]
    fn a_clock_answer_counts_once_and_only_for_a_probe_the_host_sent() {
        let mut probes = OutstandingProbes::default();
        probes.sent(1_000);
        probes.sent(2_000);
        assert!(!probes.answered(1_500), "an invented probe");
        assert!(probes.answered(1_000));
        assert!(!probes.answered(1_000), "the same answer twice");
        for t in 0..OutstandingProbes::KEEP as u64 {
            probes.sent(10_000 + t);
        }
        assert!(!probes.answered(2_000), "too old: counted as lost");
        assert!(probes.answered(10_000 + OutstandingProbes::KEEP as u64 - 1));
    }

    #[test]
    fn a_path_estimate_is_capped() {
        let mut model = ClockModel::default();
        for i in 0..32u64 {
            // A laptop that holds every answer back by 2 s.
            let t0 = i * 500_000;
            model.add(Sample::from_probe(t0, t0 + 1_000, t0 + 1_000, t0 + 4_000_000));
        }
        assert_eq!(model.owd_max(), MAX_OWD_US);
    }

    #[test]
    fn fairness_1_a_drift_past_what_a_quartz_can_do_is_not_believed() {
        // A laptop whose answers say its clock runs 1.5× the host's (or stands still).
        for rate in [1.5, 0.0, -1.0] {
            let mut model = ClockModel::default();
            for i in 0..64u64 {
                let t0 = i * 500_000;
                let t1 = (t0 as f64 * rate).max(0.0) as u64;
                model.add(Sample::from_probe(t0, t1, t1, t0 + 2_000));
            }
            assert!(model.drift_ppm().abs() <= MAX_DRIFT * 1e6 + 1e-9, "rate {rate}: {} ppm", model.drift_ppm());
            assert!(model.to_host_duration(250_000).is_finite());
        }
    }

    #[test]
    fn fairness_1_a_clock_answer_held_back_past_the_transports_rtt_is_dropped() {
        // QUIC measures 2 ms; an answer held 250 ms is no path, an honest 8 ms spike is one.
        let held = Sample::from_probe(0, 1_000, 1_000, 252_000);
        let spike = Sample::from_probe(0, 1_000, 1_000, 8_000);
        assert!(!held.within_transport(2_000));
        assert!(spike.within_transport(2_000));
        assert!(held.within_transport(200_000), "a path QUIC itself measures at 200 ms");
    }

    #[test]
    fn a_symmetric_path_without_jitter_is_exact() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut model = ClockModel::default();
        for i in 0..10 {
            model.add(probe(&mut rng, 10_000_000 + i * 10_000, -5_000.0, 0.0, 300, 0));
        }
        assert!((model.offset_at(10_100_000) + 5_000.0).abs() < 2.0, "{}", model.offset_at(10_100_000));
        assert_eq!(model.owd_floor(), 300);
        assert_eq!(model.jitter(), 0);
    }

    #[test]
    fn fairness_1_a_drift_is_applied_only_once_the_probes_can_tell_it() {
        // Wi-Fi power saving holds what the host sends until the next beacon (0–102 ms), so
        // even a slice's least-delayed probe can be a few ms off. Over a short time base that
        // is a wild drift — and a drift scales every reaction the host measures (250 ms × 1 000
        // ppm = 0.25 ms). The model keeps a drift only once its worst-case error is small, so
        // it never does worse than not correcting the true drift at all.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut model = ClockModel::default();
        let (true_ppm, mut t0, mut worst) = (200.0, 1_000_000u64, 0.0f64);
        for i in 0..400u64 {
            t0 += if i < 20 { 50_000 } else { 500_000 };
            let client = |host: u64| (host as f64 + 7e6 + host as f64 * true_ppm * 1e-6) as u64;
            let up = 2_000 + rng.random_range(0..2_000);
            let down = 2_000 + rng.random_range(0..102_400);
            let t1 = client(t0 + up);
            model.add(Sample::from_probe(t0, t1, t1 + 20, t0 + up + 20 + down));
            worst = worst.max((model.drift_ppm() - true_ppm).abs());
        }
        assert!(worst <= true_ppm, "a drift {worst} ppm off was applied: worse than none");
        let err = (model.drift_ppm() - true_ppm).abs();
        assert!(err < 60.0, "after {} s the drift is {} ppm off", t0 / 1_000_000, err);
    }

    #[test]
    fn fairness_2_a_reveal_leads_by_the_floor_quic_confirms_and_never_more_than_a_lan_s() {
        let mut model = ClockModel::default();
        // Every answer held back 30 ms and stamped 15 ms late: the probes' floor says 16 ms.
        for i in 0..32u64 {
            let t = i * 100_000;
            model.add(Sample::from_probe(t, t + 16_000, t + 16_000, t + 32_000));
        }
        assert_eq!(model.reveal_floor(), 16_000.min(MAX_REVEAL_FLOOR_US), "no transport figure yet");
        model.add(Sample::from_probe(4_000_000, 4_016_000, 4_016_000, 4_032_000).with_transport_min_rtt(2_000));
        assert_eq!(model.reveal_floor(), 1_000, "QUIC timed its own packets at 2 ms");
        model.add(Sample::from_probe(4_100_000, 4_116_000, 4_116_000, 4_132_000).with_transport_min_rtt(90_000));
        assert_eq!(model.reveal_floor(), 1_000, "the least round trip QUIC ever measured stays");
        let mut far = ClockModel::default();
        for i in 0..32u64 {
            let t = i * 100_000;
            far.add(Sample::from_probe(t, t + 60_000, t + 60_000, t + 120_000).with_transport_min_rtt(120_000));
        }
        assert_eq!(far.reveal_floor(), MAX_REVEAL_FLOOR_US, "a path past a LAN's leads by a LAN's floor at most");
    }
}
