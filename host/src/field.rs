//! A fairness field run's report (`bolide-host serve --fairness-test`): the host's verdicts
//! on real laptops scored against the truth each laptop handed in after the championship
//! (`ClientMsg::FieldRecord`), with [`crate::fair::score`] — the lab's scoring, so the two
//! reports cannot drift apart. Names no game: which two requests contend is the caller's word.
//!
//! What a real network cannot tell is said, not guessed: there is no true offset between two
//! laptops' clocks, so the report gives the host's clock models with their own spread
//! ([`FieldPath`]), and the photo finish's error on each laptop's own clock (its reaction is
//! `input − shown` on one clock, which the laptop knows exactly).

use crate::fair::score::{Bucket, Contender, Percentiles, Summary, Tally, judge, percentiles, resolution, wilson};
use crate::room::{CallOrderRecord, FairRecord, FieldPath, FieldRecord};
use bolide_table::Seat;
use serde::Serialize;
use std::collections::BTreeMap;

/// One laptop of the field run: what it handed in, and what the host measured of its path.
#[derive(Debug, Clone, Serialize)]
pub struct FieldLaptop {
    pub seat: u8,
    /// Its name at the table (empty when its record never came).
    pub name: String,
    /// Timed requests in its record, and how many of them the host's log holds.
    pub lines: usize,
    pub matched: usize,
    /// Matched requests whose claim the host's bounds changed (an honest laptop's should not).
    pub clamped: usize,
    /// Its first requests of a moment that came after a verdict no longer waiting for it (it
    /// stalled or went silent: an honest laptop's that the network or its own load held up).
    pub unwaited: usize,
    /// How close its matched requests came to each bound: the least headroom, ms (0 for one
    /// clamped there). A run with no clamp says nothing of the next one; this says how much
    /// room an honest laptop's stamps had.
    pub closest_ms: Closest,
    /// |the reaction the host judged − the laptop's own|, ms, over its matched requests.
    pub photo_finish_error_ms: Percentiles,
    /// Contested pairs 1 ms or more apart with one of its requests and neither request
    /// clamped — where the host trusted this laptop's stamps —, and how many it ordered right.
    pub trusted_pairs: usize,
    pub trusted_right: usize,
    pub path: Option<FieldPath>,
    /// Why its record could not be used in full (missing, inconsistent); `None` when it was.
    pub problem: Option<String>,
}

/// The least headroom of a laptop's requests under each path bound
/// ([`crate::room::Headroom`]), ms; `None` without a request.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Closest {
    pub input: Option<f64>,
    pub shown: Option<f64>,
}

impl Closest {
    fn add(&mut self, h: crate::room::Headroom) {
        let least = |was: Option<f64>, us: u64| {
            let ms = us as f64 / 1000.0;
            Some(was.map_or(ms, |w| w.min(ms)))
        };
        self.input = least(self.input, h.input_us);
        self.shown = least(self.shown, h.shown_us);
    }
}

impl std::fmt::Display for Closest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.1} ms"));
        write!(f, "input {}, shown {}", ms(self.input), ms(self.shown))
    }
}

/// The field run's report, in the lab's shape (`buckets` with `gap_ms`, `pairs`, `accuracy`).
#[derive(Debug, Clone, Serialize)]
pub struct FieldReport {
    pub game: String,
    /// Timed moments with at least one scored request.
    pub moments: usize,
    /// Every contested pair: the host's order, and the order the requests arrived in (a
    /// naive host).
    #[serde(flatten)]
    pub summary: Summary,
    pub buckets: Vec<Bucket>,
    /// The smallest gap from which the host was right on ≥ 99 % of the pairs in every bucket.
    pub resolution_ms: Option<f64>,
    /// The same, each kind of moment apart (Bolide's grab, its Échange window).
    pub kinds: Vec<KindReport>,
    /// Calls under a countdown (Bolide's Klaxon): pairs of the laptops' calls in the order the
    /// host applied them, right when the one called longer before the end of its own
    /// countdown went first.
    pub calls: CallsReport,
    /// From a request's arrival to its verdict, ms.
    pub commit_delay_ms: Percentiles,
    /// |judged − true| reaction over every matched request, ms.
    pub photo_finish_error_ms: Percentiles,
    pub laptops: Vec<FieldLaptop>,
    /// Pairs the host ordered wrong; of those, pairs where a request had been clamped, and
    /// pairs whose faster request came after a verdict that no longer waited for its seat.
    pub wrong_pairs: usize,
    pub wrong_pairs_clamped: usize,
    pub wrong_pairs_unwaited: usize,
    /// Every pair the host ordered wrong, as the host saw it: an engineer reads why.
    pub wrong: Vec<WrongPair>,
    /// What this report cannot know on a real network.
    pub unknowable: Vec<&'static str>,
}

/// A pair the host ordered wrong: the one it put first, and the one that was faster.
#[derive(Debug, Clone, Serialize)]
pub struct WrongPair {
    pub moment: u64,
    pub first: Judged,
    pub faster: Judged,
    /// Why, as far as the host's log tells: `clamped` (a claim bounded, fairness.md §5 and
    /// §7), `a tie (a seeded draw)` (closer than the tie margin), `arrived after a verdict
    /// that no longer waited for its seat` (the faster request came once the other was
    /// committed, its seat silent past the cut-off or beating without vouching past it:
    /// §4), or `unexplained` (a verdict that waited for a seat is never before its requests).
    pub why: &'static str,
}

/// [`WrongPair::why`] for a faster request its seat sent too late to be waited for (checks
/// that read the report's JSON compare with it).
pub const UNWAITED: &str = "arrived after a verdict that no longer waited for its seat";

/// One request of a wrong pair: the laptop's own reaction, the host's, what its bounds added,
/// and when it arrived and was committed (host clock, ms after the moment opened).
#[derive(Debug, Clone, Serialize)]
pub struct Judged {
    pub seat: u8,
    pub true_ms: f64,
    pub judged_ms: f64,
    pub clamped_input_ms: f64,
    pub clamped_shown_ms: f64,
    pub clamped_beat_ms: f64,
    pub arrival_ms: f64,
    pub committed_ms: f64,
}

impl Judged {
    fn of<A>(s: &Scored<'_, A>) -> Judged {
        let r = s.record;
        let ms = |us: u64| us as f64 / 1000.0;
        let since = |at: u64| (at as f64 - r.reveal_us as f64) / 1000.0;
        Judged {
            seat: r.seat.0,
            true_ms: s.true_us / 1000.0,
            judged_ms: ms(r.reaction_us),
            clamped_input_ms: ms(r.clamp.input_us),
            clamped_shown_ms: ms(r.clamp.shown_us),
            clamped_beat_ms: ms(r.clamp.beat_us),
            arrival_ms: since(r.arrival_us),
            committed_ms: since(r.committed_us),
        }
    }
}

/// One kind of moment's pairs.
#[derive(Debug, Clone, Serialize)]
pub struct KindReport {
    pub kind: &'static str,
    #[serde(flatten)]
    pub summary: Summary,
    pub buckets: Vec<Bucket>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CallsReport {
    pub countdowns: usize,
    pub pairs: usize,
    pub accuracy: Option<f64>,
    pub ci95: Option<(f64, f64)>,
}

const UNKNOWABLE: [&str; 2] = [
    "the true offset between two laptops' clocks: the paths' asymmetry hides half of it; `path` gives the host's \
     models (delay floor, jitter, drift) and the probes they rest on",
    "the instant a person's hand moved: a bot's stamps are its truth, a window's stamps are measured apart \
     (XTest timing)",
];

/// A request matched with its laptop's truth.
struct Scored<'a, A> {
    index: usize,
    record: &'a FairRecord<A>,
    true_us: f64,
}

/// What the host logged of a championship, for a field run's report.
pub struct HostLog<'a, A> {
    /// Its verdicts of the timed moments, in commit order.
    pub records: &'a [FairRecord<A>],
    /// Each countdown's calls, in the order applied.
    pub calls: &'a [CallOrderRecord],
}

/// Scores the host's log against the field records handed in. `expected`: every seat a
/// person's laptop held (named when its record is missing); `contested`: whether two requests
/// of one moment compete, and as what kind (the same pawn in the grab, two declarations of one
/// Échange window).
pub fn report<A: Copy>(
    game: &str,
    log: HostLog<'_, A>,
    handed_in: &[FieldRecord],
    expected: &[(Seat, String)],
    contested: impl Fn(&A, &A) -> Option<&'static str>,
) -> FieldReport {
    let records = log.records;
    let mut laptops = Vec::new();
    // (seat, seq) → the laptop's own reaction for that request.
    let mut truths: BTreeMap<(Seat, u32), f64> = BTreeMap::new();
    for field in handed_in {
        let mut problem = None;
        let mut own: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        for line in &field.lines {
            match line.input_us.checked_sub(line.shown_us) {
                Some(reaction) => {
                    own.insert(line.seq, (line.moment, reaction));
                }
                None => {
                    problem = Some("a request acted before it showed its moment: the record is inconsistent".into())
                }
            }
        }
        let mut errors = Vec::new();
        let (mut matched, mut clamped, mut unclaimed, mut elsewhere) = (0, 0, 0, 0);
        let mut closest = Closest::default();
        for r in records.iter().filter(|r| r.seat == field.seat && r.timed) {
            match own.get(&r.seq) {
                Some(&(moment, true_us)) if moment == r.moment => {
                    matched += 1;
                    clamped += usize::from(r.clamp.total_us() > 0);
                    closest.add(r.headroom);
                    errors.push((r.reaction_us as f64 - true_us as f64).abs() / 1000.0);
                    truths.insert((r.seat, r.seq), true_us as f64);
                }
                Some(_) => elsewhere += 1,
                None => unclaimed += 1,
            }
        }
        if problem.is_none() && elsewhere > 0 {
            problem = Some(format!("{elsewhere} requests are in another moment than the host judged them in"));
        }
        if problem.is_none() && unclaimed > 0 {
            problem = Some(format!("{unclaimed} timed requests the host judged are not in its record"));
        }
        laptops.push(FieldLaptop {
            seat: field.seat.0,
            name: field.name.clone(),
            lines: field.lines.len(),
            matched,
            clamped,
            unwaited: 0,
            closest_ms: closest,
            photo_finish_error_ms: percentiles(errors),
            trusted_pairs: 0,
            trusted_right: 0,
            path: field.path,
            problem,
        });
    }
    for (seat, name) in expected {
        if !handed_in.iter().any(|f| f.seat == *seat) {
            laptops.push(FieldLaptop {
                seat: seat.0,
                name: name.clone(),
                lines: 0,
                matched: 0,
                clamped: 0,
                unwaited: 0,
                closest_ms: Closest::default(),
                photo_finish_error_ms: percentiles(Vec::new()),
                trusted_pairs: 0,
                trusted_right: 0,
                path: None,
                problem: Some("no record handed in: its laptop left, or runs a bot without --fairness-test".into()),
            });
        }
    }
    laptops.sort_by_key(|l| l.seat);
    // Each moment's first request of each scored seat, in commit order.
    let mut moments: BTreeMap<u64, Vec<Scored<A>>> = BTreeMap::new();
    for (index, record) in records.iter().enumerate() {
        let Some(&true_us) = truths.get(&(record.seat, record.seq)) else { continue };
        let scored = moments.entry(record.moment).or_default();
        if !scored.iter().any(|s| s.record.seat == record.seat) {
            scored.push(Scored { index, record, true_us });
        }
    }
    let mut tally = Tally::default();
    let mut kinds: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let (mut wrong, mut wrong_clamped, mut wrong_unwaited) = (0, 0, 0);
    let mut wrong_pairs = Vec::new();
    for scored in moments.values() {
        for (i, a) in scored.iter().enumerate() {
            for b in scored.iter().skip(i + 1) {
                let (ra, rb) = (a.record, b.record);
                let Some(kind) = contested(&ra.action, &rb.action).filter(|_| ra.judged && rb.judged) else {
                    continue;
                };
                let contender = |s: &Scored<A>| Contender {
                    true_us: s.true_us,
                    host_rank: s.index,
                    arrival_us: s.record.arrival_us,
                };
                let Some((gap_ms, host_right, arrival_right)) = judge(&contender(a), &contender(b)) else { continue };
                tally.add(gap_ms, host_right, arrival_right);
                kinds.entry(kind).or_default().add(gap_ms, host_right, arrival_right);
                if gap_ms >= 1.0 && ra.clamp.total_us() + rb.clamp.total_us() == 0 {
                    for l in laptops.iter_mut().filter(|l| l.seat == ra.seat.0 || l.seat == rb.seat.0) {
                        l.trusted_pairs += 1;
                        l.trusted_right += usize::from(host_right);
                    }
                }
                if !host_right {
                    let clamped = ra.clamp.total_us() + rb.clamp.total_us() > 0;
                    wrong += 1;
                    wrong_clamped += usize::from(clamped);
                    let (first, faster) = if a.index < b.index { (a, b) } else { (b, a) };
                    let why = if clamped {
                        "clamped"
                    } else if first.record.tie {
                        "a tie (a seeded draw)"
                    } else if faster.record.arrival_us > first.record.committed_us
                        && first.record.unwaited.contains(faster.record.seat)
                    {
                        UNWAITED
                    } else {
                        "unexplained"
                    };
                    wrong_unwaited += usize::from(why == UNWAITED);
                    wrong_pairs.push(WrongPair {
                        moment: ra.moment,
                        first: Judged::of(first),
                        faster: Judged::of(faster),
                        why,
                    });
                }
            }
        }
    }
    for scored in moments.values() {
        for late in scored {
            let (seat, arrival) = (late.record.seat, late.record.arrival_us);
            let moment = late.record.moment;
            let passed_over = |v: &&FairRecord<A>| v.moment == moment && v.judged && v.committed_us < arrival;
            if records.iter().filter(passed_over).any(|v| v.unwaited.contains(seat)) {
                for l in laptops.iter_mut().filter(|l| l.seat == seat.0) {
                    l.unwaited += 1;
                }
            }
        }
    }
    let buckets = tally.buckets();
    let scored: Vec<&Scored<A>> = moments.values().flatten().collect();
    FieldReport {
        game: game.to_string(),
        moments: moments.len(),
        summary: tally.summary(),
        resolution_ms: resolution(&buckets),
        kinds: kinds
            .into_iter()
            .map(|(kind, tally)| KindReport { kind, summary: tally.summary(), buckets: tally.buckets() })
            .collect(),
        calls: calls_report(log.calls, handed_in),
        commit_delay_ms: percentiles(
            scored
                .iter()
                .filter(|s| s.record.judged)
                .map(|s| s.record.committed_us.saturating_sub(s.record.arrival_us) as f64 / 1000.0)
                .collect(),
        ),
        photo_finish_error_ms: percentiles(
            scored.iter().map(|s| (s.record.reaction_us as f64 - s.true_us).abs() / 1000.0).collect(),
        ),
        buckets,
        laptops,
        wrong_pairs: wrong,
        wrong_pairs_clamped: wrong_clamped,
        wrong_pairs_unwaited: wrong_unwaited,
        wrong: wrong_pairs,
        unknowable: UNKNOWABLE.to_vec(),
    }
}

/// Calls under a countdown, in the order the host applied them, against how long before the
/// end of its own countdown each laptop called (one clock each: no offset enters it).
fn calls_report(orders: &[CallOrderRecord], handed_in: &[FieldRecord]) -> CallsReport {
    let lead = |seat: Seat, seq: u32| {
        let field = handed_in.iter().find(|f| f.seat == seat)?;
        let call = field.calls.iter().find(|c| c.seq == seq && seq > 0)?;
        Some(i128::from(call.end_us) - i128::from(call.at_us))
    };
    let (mut countdowns, mut pairs, mut right) = (0, 0, 0);
    for record in orders {
        let leads: Vec<i128> = record.order.iter().filter_map(|&(seat, seq)| lead(seat, seq)).collect();
        countdowns += usize::from(leads.len() >= 2);
        for (i, a) in leads.iter().enumerate() {
            for b in leads.iter().skip(i + 1).filter(|b| *b != a) {
                pairs += 1;
                right += usize::from(a > b);
            }
        }
    }
    CallsReport {
        countdowns,
        pairs,
        accuracy: (pairs > 0).then(|| right as f64 / pairs as f64),
        ci95: (pairs > 0).then(|| wilson(right, pairs)),
    }
}

/// The report as a table for the host's terminal.
pub fn table(report: &FieldReport) -> String {
    let pct = |x: Option<f64>| x.map_or("—".to_string(), |a| format!("{:.2} %", a * 100.0));
    let mut out = format!(
        "Fairness field run ({}): {} moments, {} contested pairs; host {} (95 %: {}), arrival order {}\n",
        report.game,
        report.moments,
        report.summary.pairs,
        pct(report.summary.accuracy),
        report.summary.ci95.map_or("—".into(), |(lo, hi)| format!("{:.2}–{:.2} %", lo * 100.0, hi * 100.0)),
        pct(report.summary.arrival_accuracy),
    );
    out.push_str(&crate::fair::score::bucket_rows(&report.buckets));
    for k in &report.kinds {
        out.push_str(&format!(
            "{}: {} pairs, host {}, arrival order {}\n",
            k.kind,
            k.summary.pairs,
            pct(k.summary.accuracy),
            pct(k.summary.arrival_accuracy)
        ));
    }
    out.push_str(&format!(
        "calls under a countdown: {} pairs over {} countdowns, host {}\n",
        report.calls.pairs,
        report.calls.countdowns,
        pct(report.calls.accuracy)
    ));
    out.push_str(&format!(
        "resolution {} ms; commit delay p50 {:.1} ms, p99 {:.1} ms; photo finish error p50 {:.3} ms, p99 {:.3} ms; \
         wrong pairs {} ({} clamped)\n",
        report.resolution_ms.map_or("—".into(), |r| r.to_string()),
        report.commit_delay_ms.p50,
        report.commit_delay_ms.p99,
        report.photo_finish_error_ms.p50,
        report.photo_finish_error_ms.p99,
        report.wrong_pairs,
        report.wrong_pairs_clamped,
    ));
    for l in &report.laptops {
        let path = l.path.map_or("no path measured".into(), |p| {
            format!(
                "delay {:.1} ms (floor {:.1}, jitter {:.1}), drift {:+.1} ppm over {} probes, {} silences (longest {} ms)",
                p.owd_max_us as f64 / 1000.0,
                p.owd_floor_us as f64 / 1000.0,
                p.jitter_us as f64 / 1000.0,
                p.drift_ppm,
                p.clock_samples,
                p.silences,
                p.longest_silence_us / 1000,
            )
        });
        out.push_str(&format!(
            "  seat {}{}: {} requests, {} matched, {} clamped, {} not waited for (closest to a bound: {}), photo finish error p99 {:.3} ms; {path}{}\n",
            l.seat,
            if l.name.is_empty() { String::new() } else { format!(" ({})", l.name) },
            l.lines,
            l.matched,
            l.clamped,
            l.unwaited,
            l.closest_ms,
            l.photo_finish_error_ms.p99,
            l.problem.as_ref().map_or(String::new(), |p| format!(" — {p}")),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::{Clamp, Headroom};
    use bolide_table::Seats;
    use bolide_table::wire::{FieldCall, FieldLine};

    fn record(moment: u64, seat: u8, seq: u32, reaction_us: u64, arrival_us: u64) -> FairRecord<u8> {
        FairRecord {
            moment,
            seq,
            seat: Seat(seat),
            action: 7,
            reaction_us,
            clamp: Clamp::default(),
            headroom: Headroom { input_us: 20_000 + reaction_us % 7_000, shown_us: 9_000 },
            arrival_us,
            committed_us: arrival_us + 3_000,
            tie: false,
            granted: true,
            judged: true,
            reveal_us: 0,
            offset_est_us: Some(0),
            timed: true,
            unwaited: Seats::default(),
        }
    }

    fn handed(seat: u8, lines: &[(u64, u64, u64)], calls: &[(u32, u64, u64)]) -> FieldRecord {
        FieldRecord {
            calls: calls.iter().map(|&(seq, end_us, at_us)| FieldCall { seq, end_us, at_us }).collect(),
            seat: Seat(seat),
            name: format!("Robot {seat}"),
            lines: lines
                .iter()
                .enumerate()
                .map(|(i, &(moment, shown_us, input_us))| FieldLine { seq: i as u32 + 1, moment, shown_us, input_us })
                .collect(),
            path: None,
        }
    }

    #[test]
    fn fairness_33_verdicts_are_scored_against_each_laptops_own_clock_and_a_missing_record_is_named() {
        // Moment 1: Anne (seat 0) 1.5 ms quicker than Bob on their own clocks, her request
        // arrived later; the host committed hers first. Moment 2: Bob alone.
        let records = [
            record(1, 0, 1, 250_010, 9_000),
            record(1, 1, 1, 251_500, 8_000),
            record(2, 1, 2, 300_000, 20_000),
            record(2, 3, 0, 280_000, 19_000), // seat 3 is the host's bot
        ];
        let mut records = records.to_vec();
        records[3].timed = false;
        // Clocks a second apart: only each laptop's own difference counts.
        // Calls: Bob called 900 µs before his countdown's end and Anne 500 µs before hers, and
        // the host applied Bob's first (right); then Anne's 100 µs before Bob's 300 µs (wrong).
        let anne = handed(0, &[(1, 1_000_000, 1_250_000)], &[(4, 2_000_500, 2_000_000), (6, 3_000_100, 3_000_000)]);
        let bob =
            handed(1, &[(1, 5_000, 256_500), (2, 90_000, 390_000), (9, 50, 10)], &[(5, 900, 0), (7, 8_300, 8_000)]);
        let calls = [
            CallOrderRecord { order: vec![(Seat(1), 5), (Seat(3), 0), (Seat(0), 4)] },
            CallOrderRecord { order: vec![(Seat(0), 6), (Seat(1), 7)] },
        ];
        let expected = [(Seat(0), String::new()), (Seat(1), String::new()), (Seat(2), String::new())];
        let log = HostLog { records: &records, calls: &calls };
        let r = report("test", log, &[anne, bob], &expected, |a, b| (a == b).then_some("grab"));
        assert_eq!((r.calls.countdowns, r.calls.pairs, r.calls.accuracy), (2, 2, Some(0.5)));
        assert_eq!((r.kinds.len(), r.kinds[0].kind, r.kinds[0].summary.pairs), (1, "grab", 1));
        assert_eq!((r.summary.pairs, r.moments), (1, 2));
        assert_eq!((r.summary.accuracy, r.summary.arrival_accuracy), (Some(1.0), Some(0.0)));
        let bucket = r.buckets.iter().find(|b| b.pairs == 1).expect("one bucket");
        assert_eq!(bucket.gap_ms, (1.0, Some(2.0)));
        // Judged 250.010 against a true 250.000: the photo finish's error, 0.01 ms.
        assert!((r.laptops[0].photo_finish_error_ms.p99 - 0.01).abs() < 1e-9);
        assert_eq!((r.laptops[0].lines, r.laptops[0].matched, &r.laptops[0].problem), (1, 1, &None));
        assert_eq!((r.laptops[1].lines, r.laptops[1].matched), (3, 2));
        assert!(r.laptops[1].problem.as_deref().is_some_and(|p| p.contains("inconsistent")));
        // How close each came to its bounds: the least headroom of its matched requests.
        let closest = r.laptops[1].closest_ms;
        assert_eq!((closest.input, closest.shown), (Some(26.0), Some(9.0)));
        assert_eq!(r.laptops[2].seat, 2);
        assert_eq!((r.laptops[2].closest_ms.input, r.laptops[2].closest_ms.shown), (None, None));
        assert!(r.laptops[2].problem.as_deref().is_some_and(|p| p.contains("no record")));
        assert_eq!(r.commit_delay_ms.p50, 3.0);
        let json = serde_json::to_value(&r).expect("json");
        assert!(json["buckets"][2]["gap_ms"].is_array() && json["buckets"][2]["accuracy"].is_number());
        assert!(json["pairs"] == 1 && json["accuracy"] == 1.0 && json["kinds"][0]["arrival_accuracy"] == 0.0, "{json}");
        let table = table(&r);
        assert!(
            table.contains("seat 0 (Robot 0): 1 requests, 1 matched, 0 clamped, 0 not waited for (closest to a bound: input 25.0 ms, shown 9.0 ms)")
                && table.contains("seat 2: 0 requests")
        );
    }

    #[test]
    fn fairness_4_a_faster_request_after_a_verdict_that_no_longer_waited_for_its_seat_is_said_so() {
        // Two grabs alike: Anne (seat 0) 2 ms quicker than Bob on her own clock, her request
        // arriving long after the verdict on Bob's. In the first the verdict no longer waited
        // for Anne (her laptop stalled); in the second it did, and nothing explains it.
        let mut records = vec![
            record(1, 1, 1, 250_000, 8_000),
            record(1, 0, 1, 248_000, 300_000),
            record(2, 1, 2, 250_000, 8_000),
            record(2, 0, 2, 248_000, 300_000),
        ];
        records[0].unwaited = Seats::one(Seat(0));
        let anne = handed(0, &[(1, 0, 248_000), (2, 0, 248_000)], &[]);
        let bob = handed(1, &[(1, 0, 250_000), (2, 0, 250_000)], &[]);
        let expected = [(Seat(0), String::new()), (Seat(1), String::new())];
        let log = HostLog { records: &records, calls: &[] };
        let r = report("test", log, &[anne, bob], &expected, |a, b| (a == b).then_some("grab"));
        let why: Vec<_> = r.wrong.iter().map(|w| (w.moment, w.faster.seat, w.why)).collect();
        assert_eq!(why, [(1, 0, UNWAITED), (2, 0, "unexplained")]);
        assert_eq!((r.wrong_pairs, r.wrong_pairs_clamped, r.wrong_pairs_unwaited), (2, 0, 1));
        assert_eq!((r.laptops[0].unwaited, r.laptops[1].unwaited), (1, 0));
        assert!(table(&r).contains("seat 0 (Robot 0): 2 requests, 2 matched, 0 clamped, 1 not waited for"));
    }
}
