//! Why the engine refused an action. Every message starts with the rule it enforces and says
//! what the pilot may do instead; a refused action never changes the state.

use crate::action::Action;
use crate::model::{Atout, BonusKind, Pawn, Seat};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RuleError {
    #[error("B-1.1: there is no {seat} at this table")]
    NoSuchSeat { seat: Seat },
    #[error("B-1.1: spectators watch; a seat is taken in the lobby")]
    Spectator,
    #[error("B-4.2: the host lifts the cup at the reveal instant, for everyone at once")]
    HostLifts,
    #[error("B-4.3: the input came before the reservoirs were shown; check the client's clock")]
    BeforeShown,
    #[error(
        "B-4.3: this request's times are not ones this laptop's clock can have read (shown before the moment left the host, or an input after the request arrived); check the laptop's clock, or update the game"
    )]
    ImplausibleTiming,
    #[error(
        "B-4.3: in the grab and the Échange window, send the request with its timestamps (a `Grab` or `Echange` message)"
    )]
    Untimed,
    #[error("B-6.3: the race is over")]
    RaceOver,
    #[error("B-3: {action:?} is not possible now ({phase}); ask for the legal actions")]
    WrongPhase { action: Action, phase: Cow<'static, str> },
    #[error("B-5: it is {active}'s turn, not yours")]
    NotYourTurn { active: Seat },
    #[error("B-1.3: you no longer hold the Atout {atout:?}")]
    AtoutSpent { atout: Atout },
    #[error("B-5.5: you hold no {kind:?} bonus")]
    NoBonus { kind: BonusKind },
    #[error("B-5.7: one special token per pilot per round, and you already used yours")]
    TokenAlreadyUsed,
    #[error("B-4.6: Klaxon must be called before the cup is lifted; your token is not spent")]
    KlaxonTooLate,
    #[error("B-4.6: you already called Klaxon this round")]
    KlaxonAlreadyCalled,
    #[error("B-4.2: only the first player ({first_player}) lifts the cup")]
    NotTheFirstPlayer { first_player: Seat },
    #[error("B-4.2: the cup is not lifted yet")]
    CupNotLifted,
    #[error("B-4.6: {next} called Klaxon and chooses first")]
    KlaxonChoosesFirst { next: Seat },
    #[error("B-1.2: there is no pawn {} at this table", pawn.0)]
    NoSuchPawn { pawn: Pawn },
    #[error("B-4.3: pawn {} is already taken; take one that remains", pawn.0)]
    PawnTaken { pawn: Pawn },
    #[error("B-4.3: you already hold a pawn this round")]
    AlreadyHoldsPawn,
    #[error("B-4.7: Échange swaps with an opponent; pick another seat than your own")]
    EchangeWithSelf,
    #[error("B-4.7: you already decided in this Échange window")]
    EchangeDecided,
    #[error("B-5.3: you may move {min} to {max} tiles now, not {tiles}")]
    MoveOutOfRange { tiles: u8, min: u8, max: u8 },
    #[error("B-5.8: As de la route is played instead of the roll, never after it")]
    AlreadyRolled,
    #[error("B-5.2: roll the accelerator first")]
    NotRolled,
    #[error("B-5.10: you hold no Second Chance token")]
    NoSecondChance,
    #[error("B-5.9: Nitro needs a full move (the whole reservoir, or the finish line)")]
    NitroNotEarned,
    #[error("B-5.12: no car is ahead of you to follow (the token is kept)")]
    NoCarAhead,
    #[error(
        "B-5.11: a Raccourci jumps from a straight right before a turn to the straight after it, and you may enter that straight; not possible from tile {from}"
    )]
    NoRaccourci { from: u8 },
    #[error("B-5.11: you already used your Raccourci this turn")]
    RaccourciUsed,
    #[error("B-5.13: {atout:?} is not a used Atout of yours")]
    AtoutNotUsed { atout: Atout },
    #[error("B-5.14: the oil goes on a tile you entered this turn; you did not enter tile {tile}")]
    HuileNotEntered { tile: u8 },
    #[error("B-5: movement is over for this turn")]
    AlreadyMoved,
    #[error("B-5.6: your car has crossed the finish line and no longer moves")]
    Finished,
    #[error("B-4.3: you already made as many requests in this moment as a hand can; wait for the verdict")]
    TooManyRequests,
}

/// The table's refusals, as Bolide's wire still carries them: each under the rule it guards.
impl From<bolide_table::TableRefusal> for RuleError {
    fn from(refusal: bolide_table::TableRefusal) -> RuleError {
        use bolide_table::TableRefusal as T;
        match refusal {
            T::Spectator => RuleError::Spectator,
            T::NoMoment => RuleError::CupNotLifted,
            T::BeforeShown => RuleError::BeforeShown,
            T::ImplausibleTiming => RuleError::ImplausibleTiming,
            T::Untimed => RuleError::Untimed,
            T::CallTooLate => RuleError::KlaxonTooLate,
            T::AlreadyCalled => RuleError::KlaxonAlreadyCalled,
            T::Over => RuleError::RaceOver,
            // Bolide has no moment that ends with its time (its `Step::Timed` never carries a
            // `window_us`): the table never refuses one of its requests so.
            T::OutOfTime => RuleError::RaceOver,
            T::TooManyRequests => RuleError::TooManyRequests,
        }
    }
}

impl RuleError {
    /// The rule id this error enforces (the text before the first colon of its message).
    pub fn rule(&self) -> String {
        let msg = self.to_string();
        msg.split(':').next().unwrap_or("").to_string()
    }
}
