//! What a player may ask for, and why the engine refuses.

use crate::board::Square;
use crate::part::Part;
use bolide_table::Seat;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A player's action in a turn (E-4.1): roll, drive (with what the rest of the die buys,
/// E-5.3), then the special actions, then the end of the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// E-4.2: rolls the die.
    Roll,
    /// E-5: drives `squares` squares to `to`; the rest of the die buys a part (`buy`, 3
    /// points, E-7.3) and `repair` points (E-9). `d = squares + 3·buy + repair` (E-4.2).
    Drive { to: Square, squares: u8, buy: bool, repair: u8 },
    /// E-7.5: lays a hidden part face up on its free section.
    Fit { part: Part },
    /// E-8.1: takes a hidden part of `from`'s, drawn by the engine (E-8.3).
    Steal { from: Seat },
    /// E-8.2: takes a hidden part of `with`'s (drawn by the engine) and gives her `give`.
    Exchange { with: Seat, give: Part },
    /// E-11.4: after a meeting, keeps these hidden parts (at most two); the rest go back.
    Keep { parts: [Option<Part>; 2] },
    /// E-4.1: done with the special actions; time moves (E-10).
    EndTurn,
}

/// Why an action was refused. Every message starts with the rule it enforces and says what
/// the player may do instead; a refused action never changes the state.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RuleError {
    /// The table's own refusal, as the wire carries it beside the game's.
    #[error("{0}")]
    Table(bolide_table::TableRefusal),
    #[error("E-13.1: the game is over")]
    GameOver,
    #[error("E-1.4: it is seat {}'s turn, not yours", active.number())]
    NotYourTurn { active: Seat },
    #[error("E-4.1: roll the die first")]
    RollFirst,
    #[error("E-4.1: the die is rolled; drive now")]
    AlreadyRolled,
    #[error("E-4.1: the drive is over; fit parts, steal or exchange as the die allows, or end the turn")]
    AlreadyDrove,
    #[error("E-4.1: you have not driven yet")]
    NotDriven,
    #[error("E-4.2: squares driven + 3 × parts bought + repair points must make the die's {die}")]
    WrongSum { die: u8 },
    #[error("E-5.1: drive at least one square and at most the die's {die}")]
    Distance { die: u8 },
    #[error("E-5.2: that square is not {squares} squares ahead along the road")]
    NotOnRoad { squares: u8 },
    #[error("E-5.3: stop early only on a grey square, and spend the rest of the die on a purchase or repairs")]
    EarlyStop,
    #[error("E-5.3: the drive stops at a meeting, a station you owe or M4, and the rest of the die is lost")]
    StopsThere,
    #[error("E-6.1: special actions need a drive that ended on a grey square")]
    NotGrey,
    #[error("E-7.3: the draw pile is empty; no part can be bought")]
    PileEmpty,
    #[error("E-7.5: you hold no such hidden part")]
    NotHeld,
    #[error("E-7.5: that section of your car already has a part")]
    SectionTaken,
    #[error("E-8.1: steal on a die of 1, exchange on a 2, once in the turn")]
    NoSwap,
    #[error("E-8.1: choose another player who has a hidden part")]
    NothingToTake,
    #[error("E-8.2: an exchange gives one of your own hidden parts")]
    NothingToGive,
    #[error("E-9.1: the repair marker goes no higher than 20")]
    RepairFull,
    #[error("E-9.3: your ASU is settled; no more repairs")]
    RepairsOver,
    #[error("E-11.4: keep at most two of your own hidden parts, each once")]
    BadKeep,
    #[error("E-11.4: choose the hidden parts you keep first")]
    KeepFirst,
}

impl From<bolide_table::TableRefusal> for RuleError {
    fn from(refusal: bolide_table::TableRefusal) -> RuleError {
        RuleError::Table(refusal)
    }
}

impl RuleError {
    /// The rule id the refusal names (`E-5.3`), or `table`.
    pub fn rule(&self) -> String {
        let text = self.to_string();
        match text.split_once(':') {
            Some((id, _)) if id.starts_with("E-") => id.to_string(),
            _ => "table".to_string(),
        }
    }
}
