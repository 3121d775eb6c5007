//! The fuzzers' corpora (`fuzz/corpus/`), replayed through the same harnesses on stable: every
//! input a fuzzer kept (the ones that reached new code) still decodes, re-encodes and drives
//! the room without a panic, on every machine and in CI. Then a short fuzzing run on stable,
//! without coverage guidance: the kept inputs mutated as libFuzzer would (bytes flipped,
//! inserted, removed, spliced from another input), a bounded number of times from a fixed seed.

use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            (path, data)
        })
        .collect();
    inputs.sort();
    inputs
}

fn replay(target: &str, harness: fn(&[u8])) -> usize {
    let inputs = corpus(target);
    for (path, data) in &inputs {
        let caught = std::panic::catch_unwind(|| harness(data));
        assert!(caught.is_ok(), "{} panics the {target} harness", path.display());
    }
    inputs.len()
}

/// `runs` mutations of the corpus of `target` through `harness`; a panic names the input.
fn mutate(target: &str, harness: fn(&[u8]), runs: usize) {
    let inputs = corpus(target);
    assert!(!inputs.is_empty());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
    for _ in 0..runs {
        let mut data = inputs[rng.random_range(0..inputs.len())].1.clone();
        for _ in 0..rng.random_range(1..=4) {
            let at = rng.random_range(0..=data.len());
            match rng.random_range(0..4) {
                0 if at < data.len() => data[at] ^= 1 << rng.random_range(0..8),
                1 => data.insert(at, rng.random()),
                2 if at < data.len() => {
                    data.drain(at..(at + rng.random_range(1..=8)).min(data.len()));
                }
                _ => {
                    let other = &inputs[rng.random_range(0..inputs.len())].1;
                    let from = rng.random_range(0..=other.len());
                    let piece = &other[from..(from + rng.random_range(0..=32)).min(other.len())];
                    data.splice(at..at, piece.iter().copied());
                }
            }
        }
        let caught = std::panic::catch_unwind(|| harness(&data));
        assert!(caught.is_ok(), "the {target} harness panics on {data:?}");
    }
}

#[test]
fn a_short_fuzzing_run_of_frames_on_stable() {
    mutate("frames", bolide_host::fuzzing::frames, 100_000);
}

#[test]
fn a_short_fuzzing_run_of_the_room_on_stable() {
    mutate("room", bolide_host::fuzzing::room, 10_000);
}

#[test]
fn every_kept_frame_input_decodes_without_a_panic() {
    let inputs = replay("frames", bolide_host::fuzzing::frames);
    assert!(inputs >= 50, "only {inputs} frame inputs in the corpus");
}

#[test]
fn every_kept_room_input_plays_without_a_panic() {
    let inputs = replay("room", bolide_host::fuzzing::room);
    assert!(inputs >= 50, "only {inputs} room inputs in the corpus");
}

/// 1000 Bornes' room is driven by the same operations (the table's are shared): the Bolide
/// room's corpus seeds it, and its own (`fuzz/corpus/room-mille-bornes`, once the fuzzer kept
/// inputs) is replayed too.
#[test]
fn a_short_fuzzing_run_of_the_mille_bornes_room_on_stable() {
    mutate("room", bolide_host::fuzzing::room_mille_bornes, 10_000);
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/room-mille-bornes");
    if own.exists() {
        replay("room-mille-bornes", bolide_host::fuzzing::room_mille_bornes);
    }
}

/// Entenrallye's room, by the same operations: the Bolide room's corpus seeds it.
#[test]
fn a_short_fuzzing_run_of_the_entenrallye_room_on_stable() {
    mutate("room", bolide_host::fuzzing::room_entenrallye, 10_000);
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/room-entenrallye");
    if own.exists() {
        replay("room-entenrallye", bolide_host::fuzzing::room_entenrallye);
    }
}

#[test]
fn every_kept_door_input_holds_the_door_s_bounds() {
    let inputs = replay("door", bolide_host::fuzzing::door);
    assert!(inputs >= 5, "{inputs} door inputs");
}

#[test]
fn a_short_fuzzing_run_of_the_door_on_stable() {
    mutate("door", bolide_host::fuzzing::door, 50_000);
}

/// The door fuzzed on stable a million times (`cargo test --release -p bolide-host --test
/// fuzz_corpus -- --ignored --nocapture`): runs a second, printed.
#[test]
#[ignore]
fn a_million_door_runs_on_stable() {
    let started = std::time::Instant::now();
    mutate("door", bolide_host::fuzzing::door, 1_000_000);
    let took = started.elapsed();
    println!("door: 1 000 000 runs in {took:?} ({:.0} runs/s), no bound broken", 1e6 / took.as_secs_f64());
}

/// The room — its lobby's seed parts among what a laptop sends — fuzzed on stable
/// (`ROOM_RUNS`, a million unless told; `cargo test --release -p bolide-host --test fuzz_corpus
/// -- --ignored --nocapture`): runs a second, printed.
#[test]
#[ignore]
fn a_million_room_runs_on_stable() {
    let runs = std::env::var("ROOM_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(1_000_000);
    let started = std::time::Instant::now();
    mutate("room", bolide_host::fuzzing::room, runs);
    let took = started.elapsed();
    println!("room: {runs} runs in {took:?} ({:.0} runs/s), no panic", runs as f64 / took.as_secs_f64());
}
