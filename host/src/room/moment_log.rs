//! The log of a timed moment, for the host's eyes only (1000 Bornes' M-15.14; Bolide's grab
//! and Échange window get the same lines): when and how it opened, when each laptop showed it
//! and when each one's time ran out, what was refused to whom, and why and when it closed.
//! The verdicts themselves are [`super::FairRecord`]s; what everyone may know of a moment is in
//! the game's public events. A refusal here is never broadcast.

use bolide_table::{Seat, Seats, Words};

/// Why a timed moment closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClosedBy {
    /// The game left it: a valid call (a Coup-Fourré), every pawn taken, every Échange declared.
    Decided,
    /// Every connected contender's own time ran out without a request (M-15.7's "done" from
    /// everyone), and the host's bots' with them.
    EveryoneDone,
    /// The hard deadline: the moment's length and the grace after it (M-15.7's T0 + W + G).
    Deadline,
}

/// One line of a moment's log; host instants are µs on the host clock.
#[derive(Debug, Clone, PartialEq)]
pub enum MomentLine<W: Words> {
    /// The moment opened: the host decided it at `decided_us` (T0) and shows it everywhere at
    /// `opens_us`; `news` is what opened it, as its datagram twin tells it (1000 Bornes: the
    /// attack, its attacker and its target side).
    Opened {
        moment: u64,
        decided_us: u64,
        opens_us: u64,
        window_us: Option<u64>,
        contenders: Seats,
        news: Option<W::Twin>,
    },
    /// `seat`'s laptop showed it at `shown_us` on its own clock (its "shown", the first beat
    /// that named the moment), heard at `heard_us`.
    Shown {
        moment: u64,
        seat: Seat,
        shown_us: u64,
        heard_us: u64,
    },
    /// `seat`'s own time in the moment ran out without a request (its "done"): its beats
    /// vouched past the moment's length on its clock, heard at `heard_us`.
    Done {
        moment: u64,
        seat: Seat,
        heard_us: u64,
    },
    /// A request refused to `seat` alone (the safety not held, out of time…).
    Refused {
        moment: u64,
        seat: Seat,
        action: W::Action,
        error: W::Refusal,
        at_us: u64,
    },
    Closed {
        moment: u64,
        by: ClosedBy,
        at_us: u64,
    },
}

/// A seat's line as the fairness state sees it, before the room names the moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SeatLine {
    Shown { seat: Seat, shown_us: u64, heard_us: u64 },
    Done { seat: Seat, heard_us: u64 },
}

impl<W: Words> MomentLine<W> {
    pub(super) fn of_seat(moment: u64, line: SeatLine) -> MomentLine<W> {
        match line {
            SeatLine::Shown { seat, shown_us, heard_us } => MomentLine::Shown { moment, seat, shown_us, heard_us },
            SeatLine::Done { seat, heard_us } => MomentLine::Done { moment, seat, heard_us },
        }
    }

    /// The moment this line is about.
    pub fn moment(&self) -> u64 {
        match self {
            MomentLine::Opened { moment, .. }
            | MomentLine::Shown { moment, .. }
            | MomentLine::Done { moment, .. }
            | MomentLine::Refused { moment, .. }
            | MomentLine::Closed { moment, .. } => *moment,
        }
    }
}
