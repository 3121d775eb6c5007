//! A short fairness lab over real QUIC: the host orders contested grabs by reaction, not by
//! arrival (fairness.md). The full figures come from `bolide-lab` (README).

use bolide_tests::lab::{self, LabConfig};

/// Close calls: every reaction within 2 ms of 250 ms, so most contested pairs are decided by
/// less than a millisecond — the headline "every pair ≥ 0.1 ms ordered right", guarded. Each
/// laptop holds its requests 0–20 ms between the click and the send (a busy laptop, a frame):
/// its beats must tell the host so, or the stall is clamped as if it were a lie.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn b_4_3_a_short_lab_orders_close_calls_by_reaction_and_beats_arrival_order() {
    let config = LabConfig {
        players: 3,
        latency_ms: vec![0.1, 8.0, 40.0],
        jitter_ms: 4.0,
        offset_s: 60.0,
        drift_ppm: 100.0,
        reaction_mean_ms: 250.0,
        reaction_spread_ms: 2.0,
        rounds: 20,
        seed: 3,
        send_delay_ms: 20.0,
        ..LabConfig::default()
    };
    let report = lab::run(config).await.unwrap();
    eprintln!("{}", lab::table(&report));
    assert!(report.pairs >= 30, "too few contested pairs: {}", report.pairs);
    let decided: usize = report.buckets.iter().filter(|b| b.gap_ms.0 >= 0.1).map(|b| b.pairs).sum();
    assert!(decided >= 20, "too few pairs at 0.1 ms or more: {decided}");
    assert!(report.wrong_examples.is_empty(), "pairs 0.1 ms apart or more ordered wrong: {:#?}", report.wrong_examples);
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
    // B-4.6: Klaxon calls in the order of the countdowns the pilots watched.
    let k = &report.klaxon;
    assert!(k.pairs == 0 || k.accuracy == Some(1.0), "Klaxon calls ordered wrong: {k:?}");
    // The photo finish every table sees reports the reactions the lab's truth knows.
    assert!(report.photo_finish_reactions >= 40, "photo finish reactions: {}", report.photo_finish_reactions);
    assert!(report.photo_finish_error_ms.p99 <= 1.0, "photo finish error {:?}", report.photo_finish_error_ms);
    // B-4.7: the Échange windows, judged the same way — every declaration pair 0.1 ms apart or
    // more applied in reaction order, and better than arrival order.
    let e = &report.echange;
    assert!(e.windows >= 10 && e.pairs >= 30, "too few Échange contests: {e:?}");
    for b in e.buckets.iter().filter(|b| b.gap_ms.0 >= 0.1 && b.pairs > 0) {
        assert_eq!(b.accuracy, Some(1.0), "Échange pairs {:?} ms apart ordered wrong: {e:?}", b.gap_ms);
    }
    assert!(e.accuracy >= Some(e.arrival_accuracy.unwrap_or(0.0) + 0.1), "Échange fair vs arrival: {e:?}");
    assert!(e.photo_finish_reactions >= 30 && e.photo_finish_error_ms.p99 <= 1.0, "Échange photo finish: {e:?}");
}

/// Fairness §2 and §5 against a liar that peeks: it looks at each reveal as it arrives and
/// claims the instant the update names. It delays every packet it sends by 60 ms (QUIC's round
/// trip grows by as much), stamps its clock answers so its probes still look near, and holds one
/// answer in twenty back by 200 ms (its jitter widens). None of it moves the reveal: it reaches
/// the liar no earlier than the margin every laptop gets (2 ms), and the clock model's error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairness_2_no_path_estimate_the_laptop_controls_buys_an_earlier_reveal() {
    let config = LabConfig {
        players: 3,
        latency_ms: vec![1.0, 3.0, 8.0],
        jitter_ms: 2.0,
        offset_s: 60.0,
        drift_ppm: 100.0,
        loss: 0.01,
        rounds: 12,
        seed: 5,
        liar_peeks: true,
        liar_ack_delay_ms: 60.0,
        liar_hold_share: 0.05,
        liar_hold_ms: 200.0,
        ..LabConfig::default()
    };
    let report = lab::run(config).await.unwrap();
    eprintln!("{}", lab::table(&report));
    let (liar, honest) = (&report.liar.reveal_lead_ms, &report.liar.honest_reveal_lead_ms);
    assert!(report.liar.contested >= 8, "the liar took part in too few grabs: {:?}", report.liar);
    assert!(
        liar.p99 <= 4.0,
        "the reveal reached the liar {:.1} ms early (honest bots: {:.1} ms)",
        liar.p99,
        honest.p99
    );
    assert!(report.liar.kept_ms.p99 <= 4.0, "the liar kept {:?}", report.liar.kept_ms);
    assert_eq!(report.honest_clamped, 0, "an honest bot was clamped");
}
