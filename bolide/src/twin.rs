//! Bolide's datagram twins (fairness.md §2): the news of an update that opens a timed moment,
//! small enough for one datagram, so that a lost packet on the stream does not delay what a
//! pilot sees. The client core turns one into the update it stands for (`client::state`).

use crate::model::Seat;
use serde::{Deserialize, Serialize};

/// One value per pawn of the table (three to six, B-1.2): a laptop reads them with `get`, as
/// anything from the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Twin {
    /// The reveal (B-4.4): `values[p]` is pawn `p`'s reservoir.
    Reveal { race: u8, round: u16, values: Vec<u8> },
    /// An Échange window opens (B-4.7): who holds each pawn (`holders[p]`) and its reservoir
    /// (`values[p]`, public since the reveal), and the seats that decide (bit `s` of
    /// `deciding`). It carries the values too, as the last Klaxon pick can reveal and open the
    /// window in one update.
    EchangeOpen { race: u8, round: u16, holders: Vec<Option<Seat>>, values: Vec<u8>, deciding: u8 },
}
