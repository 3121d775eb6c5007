//! Hosting a table on this laptop, as the window asks for it (Host a game, Practice): a typed
//! call that the native shell (`bolide-app`) answers with the host's own code — the same as
//! `bolide-host serve` — and that a face which cannot host (a browser) leaves unanswered. The
//! client's core and faces never name the host.

use crate::platform::rt::Instant;
use bolide_table::BotLevel;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::oneshot;

/// A table to host on this laptop.
#[derive(Debug, Clone, PartialEq)]
pub struct HostAsk {
    /// The game, by its name; with `resume`, the journal's own game instead.
    pub game: String,
    /// The table's name in the advert (never the code).
    pub table_name: String,
    /// Seats the host's bots fill, and how well they play.
    pub bots: u8,
    pub level: BotLevel,
    /// Bolide: races in the championship.
    pub races: Option<u8>,
    /// 1000 Bornes: a game of this many hands (M-13.3); none: to 5000 points.
    pub hands: Option<u8>,
    /// Continue the game journaled in `data_dir` (after a crash).
    pub resume: bool,
    /// Practice: on this laptop only — loopback, no advert.
    pub practice: bool,
    /// Where the host keeps its certificate and journal (`None`: the user's data dir).
    pub data_dir: Option<PathBuf>,
}

/// The host's door, locked after too many wrong room codes: since when, and the wrong tries
/// counted since the host started.
#[derive(Debug, Clone, Copy)]
pub struct DoorLocked {
    pub since: Instant,
    pub wrong: u64,
}

/// Reads the hosted door's lock now (the lobby shows it).
#[derive(Clone)]
pub struct Door(pub Arc<dyn Fn() -> Option<DoorLocked> + Send + Sync>);

impl std::fmt::Debug for Door {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Door").field(&(self.0)()).finish()
    }
}

/// A table hosted on this laptop, up and listening.
#[derive(Debug)]
pub struct Hosted {
    pub code: String,
    pub addresses: Vec<SocketAddr>,
    /// Its port on this laptop (the window joins it on the loopback).
    pub port: u16,
    /// Where browsers join (the host's browser door), when it is open.
    pub web: Vec<SocketAddr>,
    /// The game it serves, by its name (a resumed journal's).
    pub game: String,
    pub door: Door,
}

/// What hosts a table for the window.
pub trait Embed: Send + Sync {
    /// Starts hosting `ask` on `runtime`: the answer comes once the host is up, or says why it
    /// is not; the host runs until `stop` is sent or
    /// dropped.
    fn host(
        &self,
        ask: HostAsk,
        runtime: &crate::platform::rt::Runtime,
        stop: oneshot::Receiver<()>,
    ) -> oneshot::Receiver<Result<Hosted, String>>;
}
