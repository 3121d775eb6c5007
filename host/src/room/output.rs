//! What a room says to the network layer and the host's logs: messages to send (now or at an
//! instant), connections to close, journal entries, fairness records, a game switch — and the
//! seats a switch carries to the next game's lobby.

use super::*;

/// What the room asks the network layer to do, in order; `W`: the game's words.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputOf<W: Words> {
    Send {
        conn: ConnId,
        msg: ServerMsgOf<W>,
    },
    /// Send at host instant `at` (µs), so that it arrives just before the reveal.
    SendAt {
        conn: ConnId,
        at: u64,
        msg: ServerMsgOf<W>,
    },
    /// Send this datagram (and its copies) at host instant `at` (µs).
    DatagramAt {
        conn: ConnId,
        at: u64,
        datagram: DatagramOf<W>,
    },
    /// A verdict of a timed moment, for the fairness log and the lab.
    Fair(FairRecord<W::Action>),
    /// A line of a timed moment's log, for the host's eyes only (M-15.14).
    Moment(moment_log::MomentLine<W>),
    /// Close after sending what came before.
    Close {
        conn: ConnId,
        code: u32,
        reason: String,
    },
    /// Write-ahead: append and fsync before sending what follows.
    Journal(JournalEntryOf<W>),
    /// The first pilot asked, in the lobby, to play `game` at this table (`ClientMsg::ChooseGame`):
    /// the network layer opens a lobby of it with these seats ([`RoomOf::carried`]), if it
    /// serves that game, and answers `conn` otherwise.
    SwitchGame {
        conn: ConnId,
        game: String,
    },
    /// A laptop's field record, handed in after the championship (`serve --fairness-test`),
    /// with what the host measured of its path.
    FieldRecord(FieldRecord),
    /// A countdown's calls, in the order applied, for the fairness log.
    Calls(CallOrderRecord),
}

/// One laptop's truth for a fairness field run, and its path as the host measured it.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRecord {
    pub seat: Seat,
    pub name: String,
    pub lines: Vec<FieldLine>,
    pub calls: Vec<FieldCall>,
    pub path: Option<FieldPath>,
}

/// The order in which a countdown's calls were applied (Bolide's Klaxon), for a field run's
/// report: each call's seat and its `seq` (0 for a seat the host plays).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOrderRecord {
    pub order: Vec<(Seat, u32)>,
}

/// A person's lobby seat, carried to a lobby of another game at the same table: they come
/// back with the same token to the same seat, name and colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedSeat {
    pub name: String,
    pub colour: Colour,
    pub token: SeatToken,
}

/// How long a carried seat waits for its laptop to come back (µs): a laptop comes back within
/// a round of handshakes; one that does not frees the seat for others.
pub const CARRY_US: u64 = 15_000_000;
