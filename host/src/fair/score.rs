//! Scoring a table's verdicts against the truth (fairness.md, "Measured, not assumed"): two
//! contenders of one moment, each with its true reaction, where the host ordered it and when
//! it arrived, make a pair; pairs are tallied by the gap between their true reactions, with
//! the naive arrival order beside the host's. The fairness lab scores with this one module,
//! and so will a field run on real laptops, so their reports cannot drift apart. Names no game.

use serde::Serialize;

/// The gap buckets of fairness.md, in ms.
pub const BUCKETS: [(f64, f64); 8] =
    [(0.0, 0.1), (0.1, 1.0), (1.0, 2.0), (2.0, 5.0), (5.0, 10.0), (10.0, 20.0), (20.0, 50.0), (50.0, f64::INFINITY)];

/// One gap bucket of a report.
#[derive(Debug, Clone, Serialize)]
pub struct Bucket {
    /// `[lo, hi]` in ms; `hi` is `null` for the last, open bucket.
    pub gap_ms: (f64, Option<f64>),
    pub pairs: usize,
    pub accuracy: Option<f64>,
    /// The 95 % confidence interval of `accuracy` (Wilson score).
    pub ci95: Option<(f64, f64)>,
    pub arrival_accuracy: Option<f64>,
}

/// Pairs over every bucket: how many, the host's accuracy with its 95 % interval, and the
/// naive arrival order's.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Summary {
    pub pairs: usize,
    pub accuracy: Option<f64>,
    pub ci95: Option<(f64, f64)>,
    pub arrival_accuracy: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Percentiles {
    pub p50: f64,
    pub p99: f64,
    pub p999: f64,
}

/// The Wilson score interval at 95 % for `ok` successes in `n` trials: honest at 100 % too
/// (0 wrong in 300 pairs is "≥ 98.7 %", not "100 %").
pub fn wilson(ok: usize, n: usize) -> (f64, f64) {
    let (n, p, z) = (n as f64, ok as f64 / n as f64, 1.96f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// p50, p99 and p99.9 of `v` (zeros when it is empty).
pub fn percentiles(mut v: Vec<f64>) -> Percentiles {
    if v.is_empty() {
        return Percentiles { p50: 0.0, p99: 0.0, p999: 0.0 };
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |p: f64| v.get(((v.len() - 1) as f64 * p).round() as usize).copied().unwrap_or(0.0);
    Percentiles { p50: at(0.5), p99: at(0.99), p999: at(0.999) }
}

/// One contender of a moment, as a scorer knows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contender {
    /// Its true reaction, µs (what the laptop really did, on its own clock).
    pub true_us: f64,
    /// Where the host put it: earlier is smaller (the commit order).
    pub host_rank: usize,
    /// When its request reached the host (the naive order).
    pub arrival_us: u64,
}

/// A pair of contenders, scored: the gap between their true reactions (ms), whether the host
/// ordered them as the truth does, and whether their arrival did. `None` for equal truths.
pub fn judge(a: &Contender, b: &Contender) -> Option<(f64, bool, bool)> {
    if a.true_us == b.true_us {
        return None;
    }
    let a_first = a.true_us < b.true_us;
    let gap_ms = (a.true_us - b.true_us).abs() / 1000.0;
    Some((gap_ms, (a.host_rank < b.host_rank) == a_first, (a.arrival_us < b.arrival_us) == a_first))
}

/// Pairs tallied by gap bucket: how many, how many the host ordered right, how many arrival
/// did.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    hits: [(usize, usize, usize); BUCKETS.len()],
}

impl Tally {
    /// One pair `gap_ms` apart (≥ 0).
    pub fn add(&mut self, gap_ms: f64, host_right: bool, arrival_right: bool) {
        let k = BUCKETS.iter().position(|(lo, hi)| gap_ms >= *lo && gap_ms < *hi).unwrap_or(BUCKETS.len() - 1);
        if let Some(h) = self.hits.get_mut(k) {
            h.0 += 1;
            h.1 += usize::from(host_right);
            h.2 += usize::from(arrival_right);
        }
    }

    /// Pairs, host right, arrival right: over every bucket.
    pub fn totals(&self) -> (usize, usize, usize) {
        self.hits.iter().fold((0, 0, 0), |s, h| (s.0 + h.0, s.1 + h.1, s.2 + h.2))
    }

    /// Every bucket together: how many pairs, the host's accuracy with its interval, arrival's.
    pub fn summary(&self) -> Summary {
        let (pairs, right, arrival_right) = self.totals();
        Summary {
            pairs,
            accuracy: (pairs > 0).then(|| right as f64 / pairs as f64),
            ci95: (pairs > 0).then(|| wilson(right, pairs)),
            arrival_accuracy: (pairs > 0).then(|| arrival_right as f64 / pairs as f64),
        }
    }

    /// The report's buckets, each with its accuracy and Wilson interval.
    pub fn buckets(&self) -> Vec<Bucket> {
        BUCKETS
            .iter()
            .zip(self.hits)
            .map(|(&(lo, hi), (n, ok, arr))| Bucket {
                gap_ms: (lo, hi.is_finite().then_some(hi)),
                pairs: n,
                accuracy: (n > 0).then(|| ok as f64 / n as f64),
                ci95: (n > 0).then(|| wilson(ok, n)),
                arrival_accuracy: (n > 0).then(|| arr as f64 / n as f64),
            })
            .collect()
    }
}

/// The smallest bucket from which accuracy stays ≥ 99 % (buckets with pairs).
pub fn resolution(buckets: &[Bucket]) -> Option<f64> {
    let mut resolution = None;
    for b in buckets.iter().rev() {
        match b.accuracy {
            Some(a) if a >= 0.99 => resolution = Some(b.gap_ms.0),
            Some(_) => break,
            None => {}
        }
    }
    resolution
}

/// A bucket's gap range as a table or a chart names it (ms).
pub fn bucket_label(b: &Bucket) -> String {
    match b.gap_ms {
        (lo, None) => format!("{lo}+"),
        (lo, Some(hi)) => format!("{lo}–{hi}"),
    }
}

/// The buckets as a terminal table: pairs, the host's accuracy with its interval, arrival's.
pub fn bucket_rows(buckets: &[Bucket]) -> String {
    let pct = |x: Option<f64>| x.map_or("   —   ".to_string(), |a| format!("{:6.2} %", a * 100.0));
    let mut out =
        format!("{:>14}  {:>6}  {:>9}  {:>17}  {:>9}\n", "gap (ms)", "pairs", "fair host", "95 % interval", "arrival");
    for b in buckets {
        let range = bucket_label(b);
        let ci = b.ci95.map_or("—".to_string(), |(lo, hi)| format!("{:.2}–{:.2} %", lo * 100.0, hi * 100.0));
        out.push_str(&format!(
            "{range:>14}  {:>6}  {:>9}  {ci:>17}  {:>9}\n",
            b.pairs,
            pct(b.accuracy),
            pct(b.arrival_accuracy)
        ));
    }
    out
}

/// Accuracy against gap for both orderings, as an SVG a person can look at.
pub fn svg(title: &str, buckets: &[Bucket]) -> String {
    let (w, h, left, bottom, top) = (720.0, 400.0, 70.0, 60.0, 40.0);
    let plot_w = w - left - 30.0;
    let plot_h = h - bottom - top;
    let n = buckets.len() as f64;
    let x = |i: usize| left + plot_w * (i as f64 + 0.5) / n;
    let y = |a: f64| top + plot_h * (1.0 - a);
    let mut s = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' font-family='sans-serif' font-size='12'>\
         <rect width='100%' height='100%' fill='white'/>\
         <text x='{}' y='22' text-anchor='middle' font-size='15'>{title}</text>",
        w / 2.0,
    );
    for k in 0..=4 {
        let a = k as f64 / 4.0;
        s.push_str(&format!(
            "<line x1='{left}' x2='{}' y1='{y}' y2='{y}' stroke='#ddd'/><text x='{}' y='{}' text-anchor='end'>{}%</text>",
            left + plot_w,
            left - 6.0,
            y(a) + 4.0,
            (a * 100.0) as u32,
            y = y(a)
        ));
    }
    for (i, b) in buckets.iter().enumerate() {
        let label = bucket_label(b);
        s.push_str(&format!("<text x='{}' y='{}' text-anchor='middle'>{label}</text>", x(i), top + plot_h + 18.0));
    }
    s.push_str(&format!(
        "<text x='{}' y='{}' text-anchor='middle'>gap between true reactions (ms)</text>",
        left + plot_w / 2.0,
        h - 12.0
    ));
    for (pick, colour, name, dy) in
        [(0, "#1f77b4", "fair host (by reaction)", 0.0), (1, "#d62728", "naive host (by arrival)", 16.0)]
    {
        let points: Vec<String> = buckets
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let a = if pick == 0 { b.accuracy } else { b.arrival_accuracy }?;
                Some(format!("{:.1},{:.1}", x(i), y(a)))
            })
            .collect();
        s.push_str(&format!(
            "<polyline fill='none' stroke='{colour}' stroke-width='2.5' points='{}'/>",
            points.join(" ")
        ));
        for p in &points {
            let Some((px, py)) = p.split_once(',') else { continue };
            s.push_str(&format!("<circle cx='{px}' cy='{py}' r='4' fill='{colour}'/>"));
        }
        s.push_str(&format!(
            "<rect x='{}' y='{}' width='14' height='4' fill='{colour}'/><text x='{}' y='{}'>{name}</text>",
            left + 10.0,
            top + 10.0 + dy,
            left + 30.0,
            top + 15.0 + dy
        ));
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_the_textbook() {
        // 0 wrong of 300: the interval still admits about 1.3 % of errors.
        let (lo, hi) = wilson(300, 300);
        assert!((lo - 0.9874).abs() < 1e-3 && hi > 0.9999, "{lo} {hi}");
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
    }

    #[test]
    fn pairs_are_judged_by_truth_and_tallied_by_their_gap() {
        let c = |true_us, host_rank, arrival_us| Contender { true_us, host_rank, arrival_us };
        // A 0.5 ms apart, the host right, arrival wrong.
        assert_eq!(judge(&c(200_000.0, 0, 9), &c(200_500.0, 1, 3)), Some((0.5, true, false)));
        assert_eq!(judge(&c(200_000.0, 1, 3), &c(200_000.0, 0, 9)), None, "a tie in truth is no pair");
        let mut tally = Tally::default();
        tally.add(0.5, true, false);
        tally.add(0.05, false, true);
        tally.add(120.0, true, true);
        assert_eq!(tally.totals(), (3, 2, 2));
        let b = tally.buckets();
        assert_eq!((b[0].pairs, b[0].accuracy), (1, Some(0.0)));
        assert_eq!((b[1].pairs, b[1].accuracy, b[1].arrival_accuracy), (1, Some(1.0), Some(0.0)));
        assert_eq!((b[7].gap_ms, b[7].pairs), ((50.0, None), 1));
        assert!(b[2..7].iter().all(|b| b.pairs == 0 && b.accuracy.is_none()));
    }

    #[test]
    fn percentiles_of_nothing_are_zero_and_of_a_list_its_ranks() {
        assert_eq!(percentiles(Vec::new()).p99, 0.0);
        let p = percentiles((1..=1000).map(f64::from).rev().collect());
        assert_eq!((p.p50, p.p99, p.p999), (501.0, 990.0, 999.0));
    }
}
