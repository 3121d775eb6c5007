//! Engine-level bots. A bot sees only what its seat may know ([`Sight`]) and picks one of the
//! legal actions the engine lists; it never re-derives the rules.

mod sight;
mod strategic;

pub use sight::{SeatSight, Sight};

use bolide_protocol::Action;
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

/// How well a bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Any legal action, uniformly at random.
    Random,
    /// Reads the road ahead and uses its tokens with purpose.
    Strategic,
}

impl BotLevel {
    pub const ALL: [BotLevel; 2] = [BotLevel::Random, BotLevel::Strategic];

    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Strategic => "strategic",
        }
    }

    /// Picks one of `legal` (never empty), or `None` to let an optional moment pass (a
    /// Klaxon call before the lift is the only such moment: doing nothing is also legal).
    pub fn decide(self, sight: &impl Sight, legal: &[Action], rng: &mut impl Rng) -> Option<Action> {
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
