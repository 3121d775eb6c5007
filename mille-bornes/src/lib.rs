//! *1000 Bornes* as a pure engine: the rules of `docs/rules/mille-bornes.md` (ids `M-…`) and
//! nothing else — no I/O, no clock. The table drives it: `Partie::apply` for a seat's action,
//! `Partie::close_window` when the Coup-Fourré window ends with no valid call, `view` for
//! what each seat may see, `standings` at the end.
//!
//! Read `manche` first (one hand: `check` then `perform`), then `tableau` (what a car may do)
//! and `score`.

pub mod action;
pub mod bots;
pub mod card;
pub mod deal;
pub mod event;
pub mod manche;
pub mod options;
pub mod partie;
pub mod scenario;
pub mod score;
pub mod sim;
pub mod tableau;
pub mod view;

pub use action::{Action, RuleError};
pub use card::{Attack, Card, CardCounts, Family, Hazard, Safety};
pub use event::Event;
pub use manche::{Manche, Phase};
pub use options::{Lobby, Settings};

/// 1000 Bornes' words on the table's wire (`bolide_table::Words`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MilleBornes;

impl bolide_table::Words for MilleBornes {
    type Action = Action;
    type Event = Event;
    type View = View;
    type Refusal = RuleError;
    type Lobby = Lobby;
    /// The attack that opened a Coup-Fourré window (M-15): what a laptop needs to show it.
    type Twin = Event;
    const NAME: &'static str = "mille-bornes";
    const TITLE: &'static str = "1000 Bornes";
}
pub use partie::{Partie, Standing, View};
pub use score::{HandScore, SideScore};
pub use tableau::{Battle, Laid, Tableau};

#[cfg(test)]
mod tests;
