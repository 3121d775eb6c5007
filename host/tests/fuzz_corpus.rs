//! The fuzzers' corpora (`fuzz/corpus/`), replayed through the same harnesses on stable: every
//! input a fuzzer kept (the ones that reached new code) still decodes, re-encodes and drives
//! the room without a panic, on every machine and in CI.

use std::path::Path;

fn replay(target: &str, harness: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target);
    let mut inputs = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let caught = std::panic::catch_unwind(|| harness(&data));
        assert!(caught.is_ok(), "{} panics the {target} harness", path.display());
        inputs += 1;
    }
    inputs
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
