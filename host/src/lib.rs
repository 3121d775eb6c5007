//! The authoritative side of Bolide: the rules engine ([`game`]), circuits, bots and the
//! tools built on them (scenario runner, simulation). Everything here is sans-I/O except
//! the binary's edges.

pub mod bots;
pub mod fair;
pub mod field;
pub mod files;
pub mod fuzzing;
pub mod game;
pub mod net;
pub mod room;
pub mod scenario;
pub mod secret;
pub mod serve;
pub mod sim;
pub mod verify;

// The circuit presets live beside the circuits in `bolide_protocol` (the client lists them
// too); re-exported here under their old path.
pub use bolide_protocol::circuits;
