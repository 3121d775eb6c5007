//! What a player may ask for, and why the engine refuses.

use crate::card::{Attack, Card, Safety};
use bolide_table::Seat;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A player's action. Cards are named by kind: a hand is a set of cards, its order is the
/// screen's business.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// M-6 to M-9: plays `card`; an attack names the side it goes on (`on`), anything else
    /// goes on one's own side (`on: None`).
    Play { card: Card, on: Option<u8> },
    /// M-5.3: discards any card, face up.
    Discard { card: Card },
    /// M-10: lays the safety that answers the attack in the open window, as a Coup-Fourré.
    CoupFourre,
}

/// The rule that puts `card` on its player's own side: distance M-6.1, a remedy M-8.1, a
/// safety M-9.1 (an attack never does: M-7.1).
fn own_side_rule(card: Card) -> &'static str {
    match card.family() {
        crate::card::Family::Distance(_) => "M-6.1",
        crate::card::Family::Safety(_) => "M-9.1",
        crate::card::Family::Remedy(_) | crate::card::Family::Attack(_) => "M-8.1",
    }
}

/// Why an action was refused. Every message starts with the rule it enforces and says what
/// the player may do instead; a refused action never changes the state.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RuleError {
    /// The table's own refusal (a spectator, a request without its timings…), as the wire
    /// carries it beside the game's.
    #[error("{0}")]
    Table(bolide_table::TableRefusal),
    #[error("M-2.1: there is no {seat} at this table")]
    NoSuchSeat { seat: Seat },
    #[error("M-2.2: there is no side {side} at this table")]
    NoSuchSide { side: u8 },
    #[error("M-11.1: this hand is over")]
    HandOver,
    #[error("M-13: the game is over")]
    GameOver,
    #[error("M-5.1: it is seat {}'s turn, not yours", active.number())]
    NotYourTurn { active: Seat },
    #[error("M-15.2: a Coup-Fourré window is open; play waits until it closes")]
    WindowOpen,
    #[error("M-5.1: you do not hold {}", card.name())]
    NotHeld { card: Card },
    #[error("M-6.1: your car does not roll; lay a Feu Vert (or the remedy it waits for) first")]
    NotRolling,
    #[error("M-6.2: under a Limite de Vitesse only 25 and 50 km may be laid; lay a Fin de Limite first")]
    Limited,
    #[error("M-6.3: two 200 km cards per side per hand, and yours are laid")]
    TooManyTwoHundreds,
    #[error("M-6.4: the trip ends at exactly {target} km; {card_km} would take you to {would}")]
    Overshoot { target: u16, card_km: u16, would: u16 },
    #[error("M-7.1: an attack goes on an opponent's side, name which one")]
    NoTarget,
    #[error("M-7.1: you cannot attack your own side")]
    OwnSide,
    /// Distance (M-6.1), a remedy (M-8.1) or a safety (M-9.1) named a side.
    #[error("{}: {} goes on your own side; play it without naming a side", own_side_rule(*card), card.name())]
    NotOwnSide { card: Card },
    #[error("M-7.3: {} goes only on a car that rolls", attack.card().name())]
    TargetNotRolling { attack: Attack },
    #[error("M-9.2: that side has {}, which protects it from {}", safety.card().name(), attack.card().name())]
    TargetProtected { attack: Attack, safety: Safety },
    #[error("M-7.2: that side is already under a Limite de Vitesse")]
    AlreadyLimited,
    #[error("M-8.2: a Fin de Limite covers a Limite de Vitesse, and your speed pile shows none")]
    NotLimited,
    #[error("M-8.3: {} answers {}, which your battle pile does not show", remedy.name(), attack.card().name())]
    NothingToRemedy { remedy: Card, attack: Attack },
    #[error("M-8.4: a Feu Vert goes on an empty pile, a Feu Rouge or a remedy, not on what yours shows")]
    FeuVertNotNow,
    #[error("M-8.4: with Véhicule Prioritaire your car needs no Feu Vert; discard it")]
    FeuVertUseless,
    #[error("M-10.3: no attack is waiting for a Coup-Fourré now")]
    NoWindow,
    #[error("M-10.2: only the attacked side may call Coup-Fourré")]
    NotAttacked,
    #[error("M-15.5: you do not hold {}", safety.card().name())]
    SafetyNotHeld { safety: Safety },
    #[error("M-15.7: you already called Coup-Fourré in this window")]
    AlreadyCalled,
}

impl From<bolide_table::TableRefusal> for RuleError {
    fn from(refusal: bolide_table::TableRefusal) -> RuleError {
        RuleError::Table(refusal)
    }
}
