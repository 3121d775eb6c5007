//! A short fairness lab over real QUIC: the host orders contested grabs by reaction, not by
//! arrival (fairness.md). The full figures come from `bolide-lab` (README).

use bolide_tests::lab::{self, LabConfig, socket::JitterDist};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn b_4_3_a_short_lab_orders_by_reaction_and_beats_arrival_order() {
    let config = LabConfig {
        players: 3,
        latency_ms: vec![0.1, 8.0, 40.0],
        jitter_ms: 4.0,
        jitter_dist: JitterDist::Uniform,
        jitter_dist_name: "uniform".into(),
        offset_s: 60.0,
        drift_ppm: 100.0,
        loss: 0.0,
        reaction_mean_ms: 250.0,
        reaction_spread_ms: 60.0,
        rounds: 20,
        seed: 3,
        liar_ms: 0.0,
    };
    let report = lab::run(config).await.unwrap();
    eprintln!("{}", lab::table(&report));
    assert!(report.pairs >= 30, "too few contested pairs: {}", report.pairs);
    let mut n = 0;
    for b in report.buckets.iter().filter(|b| b.gap_ms.0 >= 5.0 && b.pairs > 0) {
        assert!(b.accuracy.unwrap() >= 0.99, "gap {:?}: {:?}", b.gap_ms, b.accuracy);
        n += b.pairs;
    }
    assert!(n > 0);
    let all = |f: fn(&lab::Bucket) -> Option<f64>| {
        let n: usize = report.buckets.iter().map(|b| b.pairs).sum();
        report.buckets.iter().map(|b| f(b).unwrap_or(0.0) * b.pairs as f64).sum::<f64>() / n as f64
    };
    assert!(
        all(|b| b.accuracy) >= all(|b| b.arrival_accuracy) + 0.1,
        "fair {:.3} vs arrival {:.3}",
        all(|b| b.accuracy),
        all(|b| b.arrival_accuracy)
    );
    assert_eq!(report.honest_clamped, 0, "an honest bot was clamped");
    // The photo finish every table sees reports the reactions the lab's truth knows.
    assert!(report.photo_finish_reactions >= 40, "photo finish reactions: {}", report.photo_finish_reactions);
    assert!(report.photo_finish_error_ms.p99 <= 1.0, "photo finish error {:?}", report.photo_finish_error_ms);
}
