//! The strategic bot: picks a reservoir by reading the road ahead against the odds of each
//! accelerator roll, and spends its tokens where they pay.

use super::Sight;
use crate::model::FINISH;
use crate::movement::Road;
use crate::{Action, Atout, Pawn, Seat};
use rand::{Rng, RngExt};

/// The road ahead of one car, read once: `mins[k]` is the lowest limit among the next `k + 1`
/// tiles (no limit counts as 255). Every speed-limit question a bot asks about this position
/// (B-5.3) is then a few comparisons instead of a walk along the road.
struct Lookahead {
    mins: [u8; 6],
    /// Tiles before the finish line, at most 6.
    open: u8,
}

impl Lookahead {
    fn new(road: &Road<'_>, from: u8) -> Lookahead {
        let open = (FINISH - from.min(FINISH)).min(6);
        let mut mins = [255u8; 6];
        let mut low = 255u8;
        for k in 0..open {
            let p = from + k + 1;
            low = low.min(if p == FINISH { 255 } else { road.limit(p).unwrap_or(255) });
            mins[k as usize] = low;
        }
        Lookahead { mins, open }
    }

    /// Expected tiles with `reservoir`, over the six equally likely accelerator rolls (B-5.2).
    fn expected(&self, reservoir: u8) -> f32 {
        // The car gets past tile k exactly for the rolls a with (reservoir + a) * 10 <= mins[k],
        // so summing over tiles instead of rolls needs no walk at all.
        let n = reservoir.min(self.open) as usize;
        let total: u32 = self.mins[..n].iter().map(|&m| u32::from((m / 10).saturating_sub(reservoir).min(6))).sum();
        total as f32 / 6.0
    }
}

/// Expected tiles a car at `from` covers with reservoir `reservoir`, over the six equally
/// likely accelerator rolls (B-5.2, B-5.3).
pub fn expected_progress(road: &Road<'_>, from: u8, reservoir: u8) -> f32 {
    Lookahead::new(road, from).expected(reservoir)
}

/// What a reservoir value is worth to the viewer this round (Panne Sèche makes them all 1).
fn worth(ahead: &Lookahead, sight: &impl Sight, value: u8) -> f32 {
    let value = if sight.panne_seche(sight.viewer()) { 1 } else { value };
    ahead.expected(value)
}

/// The strategic bot's choice among `legal`. Over the wire the view and the list are a host's:
/// nothing here panics or overflows on any of them (an empty list is no choice; a turn the
/// view does not show is the list's first action).
pub fn decide(sight: &impl Sight, legal: &[Action], rng: &mut impl Rng) -> Option<Action> {
    let has = |a: Action| legal.contains(&a);
    let first = *legal.first()?;
    match first {
        Action::Klaxon | Action::Lift => klaxon(sight, rng).then_some(Action::Klaxon).filter(|a| has(*a)),
        Action::TakePawn { .. } => Some(best_pawn(sight, legal, first)),
        Action::Echange { .. } | Action::KeepPawn => Some(echange(sight, legal)),
        _ => Some(sight.turn().map_or(first, |turn| turn_action(sight, legal, turn))),
    }
}

/// B-4.6: call Klaxon when the pick matters — the road ahead rewards one reservoir value far
/// more than another — and sometimes anyway, so the token is not hoarded until the finish.
fn klaxon(sight: &impl Sight, rng: &mut impl Rng) -> bool {
    if sight.panne_seche(sight.viewer()) {
        return false;
    }
    let ahead = Lookahead::new(&sight.road(), sight.me());
    let (mut best, mut worst) = (f32::MIN, f32::MAX);
    for v in 1..=6 {
        let w = ahead.expected(v);
        best = best.max(w);
        worst = worst.min(w);
    }
    best - worst >= 3.5 || rng.random_bool(0.03)
}

fn best_pawn(sight: &impl Sight, legal: &[Action], first: Action) -> Action {
    let ahead = Lookahead::new(&sight.road(), sight.me());
    let value = |a: &Action| match a {
        Action::TakePawn { pawn } => sight.reservoir(*pawn).map(|v| worth(&ahead, sight, v) + f32::from(v) * 0.01),
        _ => None,
    };
    legal.iter().filter_map(|a| Some((*a, value(a)?))).max_by(|a, b| a.1.total_cmp(&b.1)).map_or(first, |(a, _)| a)
}

/// B-4.7: take the opponent's reservoir when it is clearly better for us.
fn echange(sight: &impl Sight, legal: &[Action]) -> Action {
    let ahead = Lookahead::new(&sight.road(), sight.me());
    let reservoir_of = |seat: Seat| sight.pawn_of(seat).and_then(|p: Pawn| sight.reservoir(p));
    let mine = reservoir_of(sight.viewer()).map(|v| worth(&ahead, sight, v)).unwrap_or(0.0);
    let best = legal
        .iter()
        .filter_map(|a| match a {
            Action::Echange { with } => reservoir_of(*with).map(|v| (*a, worth(&ahead, sight, v))),
            _ => None,
        })
        .max_by(|a, b| a.1.total_cmp(&b.1));
    match best {
        Some((action, gain)) if gain - mine >= 1.0 && !sight.panne_seche(sight.viewer()) => action,
        _ => Action::KeepPawn,
    }
}

fn turn_action(sight: &impl Sight, legal: &[Action], turn: crate::view::TurnView) -> Action {
    let has = |a: Action| legal.contains(&a);
    let road = sight.road();
    let me = sight.me();
    if has(Action::Roll) {
        // B-5.8: As de la route before a slow turn, when the roll would cost tiles.
        let free = turn.reservoir.min(FINISH.saturating_sub(me));
        if has(Action::AsDeLaRoute) && f32::from(free) - expected_progress(&road, me, turn.reservoir) >= 2.0 {
            return Action::AsDeLaRoute;
        }
        // B-5.12: Aspiration when the car ahead is far.
        if has(Action::Aspiration) && sight.nearest_ahead().is_some_and(|p| p >= me.saturating_add(4)) {
            return Action::Aspiration;
        }
        return Action::Roll;
    }
    if let Some(max) =
        legal.iter().filter_map(|a| if let Action::Move { tiles } = a { Some(*tiles) } else { None }).max()
    {
        // B-5.10: Second Chance on a bad roll.
        if has(Action::SecondChance) && expected_progress(&road, me, turn.reservoir) - f32::from(max) >= 1.0 {
            return Action::SecondChance;
        }
        // B-5.11: Raccourci before a long turn, when it ends further than the plain move.
        let speed = turn.speed;
        let raccourci = legal
            .iter()
            .filter_map(|a| match *a {
                Action::Raccourci { tiles_before } => {
                    let landing = road.raccourci_landing(me.checked_add(tiles_before)?)?;
                    let rest = turn.points_left.checked_sub(tiles_before)?.checked_sub(1)?;
                    Some((*a, landing.saturating_add(road.reach(landing, rest, speed))))
                }
                _ => None,
            })
            .max_by_key(|(_, end)| *end);
        if let Some((action, end)) = raccourci
            && end >= me.saturating_add(max).saturating_add(2)
        {
            return action;
        }
        return Action::Move { tiles: max };
    }
    // After the move. B-5.9: Nitro is a free tile.
    if has(Action::Nitro) {
        return Action::Nitro;
    }
    // B-5.14: oil where the cars behind will have to slow most.
    if sight.cars_behind() > 0 {
        let harm = |tile: u8| road.limit(tile).map_or(100, |l| l.saturating_sub(50));
        let huile = legal.iter().filter(|a| matches!(a, Action::Huile { .. })).max_by_key(|a| match a {
            Action::Huile { tile } => harm(*tile),
            _ => 0,
        });
        if let Some(action) = huile {
            return *action;
        }
    }
    // B-5.13: the round's token is still free: bring back the best used Atout.
    for atout in [Atout::AsDeLaRoute, Atout::Nitro, Atout::Klaxon] {
        if has(Action::Assistance { atout }) {
            return Action::Assistance { atout };
        }
    }
    Action::EndTurn
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_progress_prefers_small_reservoirs_before_slow_turns() {
        let c = crate::circuits::preset("cannes").unwrap();
        let road = Road::new(&c, None);
        // From 2, facing the 70 at 3: reservoir 6 is stopped unless the roll is 1.
        assert_eq!(expected_progress(&road, 2, 1), 1.0);
        assert_eq!(expected_progress(&road, 2, 6), 0.5);
        // From 16 three straights lie ahead: 3 beats 1.
        assert_eq!(expected_progress(&road, 16, 3), 3.0);
    }

    #[test]
    fn lookahead_agrees_with_the_engine_reach() {
        use crate::model::speed;
        for seed in 0..20 {
            let c = crate::circuits::random(seed);
            for oil in [None, Some(7), Some(30)] {
                let road = Road::new(&c, oil);
                for from in 0..=FINISH {
                    let ahead = Lookahead::new(&road, from);
                    for r in 1..=6 {
                        let by_walk: u32 = (1..=6).map(|a| u32::from(road.reach(from, r, Some(speed(r, a))))).sum();
                        assert_eq!(ahead.expected(r), by_walk as f32 / 6.0);
                    }
                }
            }
        }
    }
}
