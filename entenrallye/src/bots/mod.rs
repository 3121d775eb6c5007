//! The bots every face plays, from what a seat may see (its `View`, its legal actions): any
//! legal action at random (the "for fun" bot), or the year planned against the calendar
//! (`year`). `road`, the strategic bot before it knew the calendar, is kept as the yardstick
//! `sim` measures against.

pub mod road;
pub mod year;

use crate::action::Action;
use crate::rallye::View;
use rand::{Rng, RngExt};

/// What the bot of the seat `view` is from does, among `legal`.
pub fn decide(view: &View, legal: &[Action], level: bolide_table::BotLevel, rng: &mut impl Rng) -> Option<Action> {
    if legal.is_empty() {
        return None;
    }
    match level {
        bolide_table::BotLevel::Random => legal.get(rng.random_range(0..legal.len())).copied(),
        bolide_table::BotLevel::Strategic => year::decide(view, legal),
    }
}
