//! The table over real sockets on loopback: hosts, laptops, pages and strangers, each module one
//! concern. One test binary, not one per file: each file linked on its own cost a cold
//! `cargo test` the same dependencies' code generated again and again, and the tests here mostly
//! wait on timers, so run together they wait at the same time. The fairness measurements
//! (`field_run`, `lab`) keep binaries of their own: nothing else runs beside them.

mod abuse;
mod browser_door;
mod crash;
mod door;
mod entenrallye_wire;
mod fourth_game;
mod hostile_host;
mod join;
mod mille_bornes_wire;
mod system;
