//! The host: the table's room (sans-I/O), its fairness layer and network driver, and the
//! tools every game is served, verified, replayed and simulated through. The games themselves
//! are their own crates (`bolide`, `mille_bornes`, `entenrallye`).

pub mod fair;
pub mod field;
pub mod files;
pub mod flags;
pub mod fuzzing;
pub mod games;
pub mod net;
pub mod nights;
pub mod room;
pub mod scenario;
pub mod serve;
pub mod verify;

/// Secrets from the OS's random source: the link's, shared with the client.
pub use bolide_link::secret;
