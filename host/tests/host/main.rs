//! The host's tests beyond its modules' own: the rooms of every game driven sans-I/O, the rules'
//! coverage, the fuzzers' corpora replayed on stable, and the architecture's invariants. One
//! test binary (one link of the host's generic code, not seven).

mod common;
mod fuzz_corpus;
mod invariants;
mod room_entenrallye;
mod room_mille_bornes;
mod rule_coverage;
mod scenarios;
mod table;
