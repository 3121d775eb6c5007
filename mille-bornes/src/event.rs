//! What happened, in the order it happened: the log every face reads. A draw names its card
//! only in the copies of those who may see the drawer's hand (`Partie::event_for`).

use crate::card::{Attack, Card, Safety};
use crate::score::HandScore;
use bolide_table::Seat;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// M-3.2: hand `hand` (from 0) dealt by `dealer`; `first` plays first (M-3.1).
    Dealt { hand: u16, dealer: Seat, first: Seat },
    /// M-5.1, M-5.5: a card drawn. `card` is `None` in every copy but the drawer's.
    Drew { seat: Seat, card: Option<Card> },
    /// M-5.1: `card` laid on `side`'s tableau (an attack: on the opponent's).
    Played { seat: Seat, card: Card, side: u8 },
    /// M-9.4: a safety sent these cards from its side's piles to the discard.
    Cleared { side: u8, card: Card },
    /// M-9.3: a safety's extra play.
    PlaysAgain { seat: Seat },
    /// M-5.3: a card discarded face up.
    Discarded { seat: Seat, card: Card },
    /// M-11.2: a player with no card left passes.
    Passed { seat: Seat },
    /// M-5.1: `seat`'s turn begins.
    Turn { seat: Seat },
    /// M-15.1: an attack opened the Coup-Fourré window for everyone, for `ms`.
    WindowOpened { attacker: Seat, side: u8, attack: Attack, ms: u16 },
    /// M-10.4, M-15.9: `seat` laid `safety` crosswise against `attack`; the attack is discarded.
    CoupFourre { seat: Seat, safety: Safety, attack: Attack },
    /// M-10.4 step 4: a seat between the attacker and the caller loses its turn.
    LostTurn { seat: Seat },
    /// M-15.10: the window closed with no valid call; the attack stands.
    AttackStands { side: u8, attack: Attack },
    /// M-11, M-12: the hand is over and scored (one line per side, sides past `sides` unused).
    HandEnded { hand: u16, finished: bool, score: HandScore },
    /// M-13: the game is over.
    GameOver,
    /// M-15.9: after a valid Coup-Fourré, its caller's reaction as the table judged it — from
    /// the frame that drew the attack on the caller's screen to the call, on the caller's own
    /// clock (µs).
    Reaction { seat: Seat, reaction_us: u32 },
}

impl Event {
    /// The rule the event applies, for the log.
    pub fn rule(&self) -> &'static str {
        match self {
            Event::Dealt { .. } => "M-3.2",
            Event::Drew { .. } => "M-5.5",
            Event::Played { .. } => "M-5.1",
            Event::Cleared { .. } => "M-9.4",
            Event::PlaysAgain { .. } => "M-9.3",
            Event::Discarded { .. } => "M-5.3",
            Event::Passed { .. } => "M-11.2",
            Event::Turn { .. } => "M-5.1",
            Event::WindowOpened { .. } => "M-15.1",
            Event::CoupFourre { .. } => "M-10.4",
            Event::LostTurn { .. } => "M-10.5",
            Event::AttackStands { .. } => "M-15.10",
            Event::HandEnded { .. } => "M-12",
            Event::GameOver => "M-13",
            Event::Reaction { .. } => "M-15.9",
        }
    }
}
