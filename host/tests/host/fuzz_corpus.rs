//! The fuzzers' corpora (`fuzz/corpus/`), replayed through the same harnesses on stable: every
//! input a fuzzer kept (the ones that reached new code) still decodes, re-encodes and drives
//! the room without a panic, on every machine and in CI. Then a short fuzzing run on stable,
//! without coverage guidance: the kept inputs mutated as libFuzzer would (bytes flipped,
//! inserted, removed, spliced from another input), a bounded number of times from a fixed seed.
//! A net under the corpus, not a search (that is `cargo fuzz`'s, on nightly, or as many runs as
//! asked with `--example fuzz_stable`): a room run checks the size of every frame the room
//! sends, some 7 ms each in a test build, so each game's room gets 2 500 of them. The corpora
//! themselves are minimised (`cargo fuzz cmin`: every input that adds a coverage feature).

use bolide_host::fuzzing::{Harness, corpus};
use std::path::Path;

/// Mutated inputs played through each game's room.
const ROOM_RUNS: usize = 2_500;

fn replay(target: &str, harness: Harness) -> usize {
    let inputs = corpus(target).unwrap_or_else(|e| panic!("{e}"));
    for (path, data) in &inputs {
        let caught = std::panic::catch_unwind(|| harness(data));
        assert!(caught.is_ok(), "{} panics the {target} harness", path.display());
    }
    inputs.len()
}

/// `runs` mutations of the corpus of `target` through `harness`; a panic names the input.
fn mutate(target: &str, harness: Harness, runs: usize) {
    let inputs = corpus(target).unwrap_or_else(|e| panic!("{e}"));
    assert!(!inputs.is_empty());
    bolide_host::fuzzing::mutate(&inputs, harness, runs, 10)
        .unwrap_or_else(|data| panic!("the {target} harness panics on {data:?}"));
}

#[test]
fn a_short_fuzzing_run_of_frames_on_stable() {
    mutate("frames", bolide_host::fuzzing::frames, 100_000);
}

#[test]
fn a_short_fuzzing_run_of_the_room_on_stable() {
    mutate("room", bolide_host::fuzzing::room, ROOM_RUNS);
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
    mutate("room", bolide_host::fuzzing::room_mille_bornes, ROOM_RUNS);
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/room-mille-bornes");
    if own.exists() {
        replay("room-mille-bornes", bolide_host::fuzzing::room_mille_bornes);
    }
}

/// Entenrallye's room, by the same operations: the Bolide room's corpus seeds it.
#[test]
fn a_short_fuzzing_run_of_the_entenrallye_room_on_stable() {
    mutate("room", bolide_host::fuzzing::room_entenrallye, ROOM_RUNS);
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

#[test]
fn every_kept_request_head_parses_or_is_refused_without_a_panic() {
    let inputs = replay("head", bolide_host::fuzzing::head);
    assert!(inputs >= 4, "{inputs} request heads");
}

#[test]
fn a_short_fuzzing_run_of_the_browser_door_s_request_heads_on_stable() {
    mutate("head", bolide_host::fuzzing::head, 100_000);
}
