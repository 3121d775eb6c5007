//! What happened, as the engine tells it (each with the rule it applies).

use crate::board::{Inspection, Square};
use crate::part::Part;
use bolide_table::Seat;
use serde::{Deserialize, Serialize};

/// Why time moved (E-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Why {
    /// E-10.1: a 6.
    Six,
    /// E-10.2: an arrival at a meeting in time or early, or at a station owed.
    Arrival,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// E-1.3, E-1.4: every car on START; `first` plays first.
    Started {
        players: u8,
        first: Seat,
    },
    TurnStarted {
        seat: Seat,
    },
    /// E-4.2: the year's `roll`-th roll (from 0), checkable against the seed (`dice`).
    Rolled {
        seat: Seat,
        die: u8,
        roll: u32,
    },
    /// E-11.6, E-11.7: the car waits at a meeting or stands on M4: no drive.
    Stays {
        seat: Seat,
    },
    /// E-5.
    Drove {
        seat: Seat,
        to: Square,
        squares: u8,
    },
    /// E-7.3: the part is the buyer's secret (`None` for everyone else).
    Bought {
        seat: Seat,
        part: Option<Part>,
    },
    /// E-9.1.
    Repaired {
        seat: Seat,
        points: u8,
        marker: u8,
    },
    /// E-11.3: judged at meeting `meeting` (0 = M1); `early`: it waits there (E-11.6).
    Judged {
        seat: Seat,
        meeting: u8,
        points: u8,
        early: bool,
    },
    /// E-11.4: the fitted parts and all hidden ones but `kept` go back; the pile is shuffled.
    PartsReturned {
        seat: Seat,
        fitted: u8,
        hidden: u8,
        kept: u8,
    },
    /// E-12.3.
    Passed {
        seat: Seat,
        check: Inspection,
        faults: u8,
        marker: u8,
    },
    /// E-12.4: put on the minus square −`minus` behind the check's workshop.
    Failed {
        seat: Seat,
        check: Inspection,
        minus: u8,
    },
    /// E-12.6: settled where it stood: to the workshop (`minus` 0) or −`minus` behind it.
    RoundedUp {
        seat: Seat,
        check: Inspection,
        minus: u8,
        marker: u8,
    },
    /// E-8.1: the part is seen by the thief and the victim only.
    Stole {
        seat: Seat,
        from: Seat,
        part: Option<Part>,
    },
    /// E-8.2: `got` went from `with` to `seat`, `gave` the other way; seen by the two only.
    Exchanged {
        seat: Seat,
        with: Seat,
        got: Option<Part>,
        gave: Option<Part>,
    },
    /// E-7.5.
    Fitted {
        seat: Seat,
        part: Part,
    },
    /// E-10: the calendar's new time (E-3.4).
    Time {
        time: u16,
        why: Why,
    },
    TurnEnded {
        seat: Seat,
    },
    /// E-13.1: each seat's total (E-13.2).
    GameEnded {
        totals: Vec<u16>,
    },
}

impl Event {
    /// The rule an event applies, for logs and scenarios.
    pub fn rule(&self) -> &'static str {
        match self {
            Event::Started { .. } => "E-1.3",
            Event::TurnStarted { .. } | Event::TurnEnded { .. } => "E-4.1",
            Event::Rolled { .. } => "E-4.2",
            Event::Stays { .. } => "E-11.6",
            Event::Drove { .. } => "E-5.3",
            Event::Bought { .. } => "E-7.3",
            Event::Repaired { .. } => "E-9.1",
            Event::Judged { .. } => "E-11.3",
            Event::PartsReturned { .. } => "E-11.4",
            Event::Passed { .. } => "E-12.3",
            Event::Failed { .. } => "E-12.4",
            Event::RoundedUp { .. } => "E-12.6",
            Event::Stole { .. } => "E-8.1",
            Event::Exchanged { .. } => "E-8.2",
            Event::Fitted { .. } => "E-7.5",
            Event::Time { .. } => "E-10.4",
            Event::GameEnded { .. } => "E-13.1",
        }
    }
}
