//! Bolide's bots, for every face that plays one: the host's bots and stand-ins, `bolide-bot`
//! and the fairness lab. A bot sees only what its seat may know ([`Sight`]) and picks one of
//! the legal actions the host lists; it never re-derives the rules. The table's [`Hands`] give a
//! bot level the reaction times of a person.

mod sight;
mod strategic;

pub use bolide_table::hands::{self, Hands};
pub use sight::{SeatSight, Sight};

use crate::Action;
use rand::{Rng, RngExt};

pub use crate::options::BotLevel;

/// How a bot of each level picks its action.
pub trait Decide {
    /// Picks one of `legal` (never empty), or `None` to let an optional moment pass (a
    /// Klaxon call before the lift is the only such moment: doing nothing is also legal).
    fn decide(self, sight: &impl Sight, legal: &[Action], rng: &mut impl Rng) -> Option<Action>;
}

impl Decide for BotLevel {
    fn decide(self, sight: &impl Sight, legal: &[Action], rng: &mut impl Rng) -> Option<Action> {
        debug_assert!(!legal.is_empty());
        match self {
            BotLevel::Random => {
                let optional = legal.iter().all(|a| matches!(a, Action::Klaxon | Action::Lift));
                let choices = legal.len() + usize::from(optional);
                legal.get(rng.random_range(0..choices)).copied()
            }
            BotLevel::Strategic => strategic::decide(sight, legal, rng),
        }
    }
}
