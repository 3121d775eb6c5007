//! The bots every face plays: any legal action at random, or a plan — the next place on the
//! road the car can still make (a meeting in time, a check it owes), parts bought and fitted
//! on the way, repairs for the checks.

use crate::action::Action;
use crate::board::{Inspection, MEETING_MONTHS, Square, board};
use crate::part::{Colour, Part};
use crate::rallye::{Car, Phase, Rallye};
use bolide_table::{BotLevel, Seat};
use rand::{Rng, RngExt};

/// What `seat`'s bot does now, if it is its turn.
pub fn decide(
    game: &Rallye,
    seat: Seat,
    level: BotLevel,
    rng: &mut impl Rng,
    scratch: &mut Vec<Action>,
) -> Option<Action> {
    scratch.clear();
    game.legal_into(seat, scratch);
    if scratch.is_empty() {
        return None;
    }
    match level {
        BotLevel::Random => Some(scratch[rng.random_range(0..scratch.len())]),
        BotLevel::Strategic => {
            let car = game.car(seat)?;
            let colour = Colour::of_seat(seat.0);
            let target = target(game, car);
            scratch
                .iter()
                .copied()
                .map(|a| (value(game, car, colour, target, a), a))
                .max_by(|x, y| x.0.total_cmp(&y.0))
                .map(|(_, a)| a)
        }
    }
}

/// A part's worth on this car: its points, the colour's point, less what its faults cost.
fn worth(part: Part, colour: Colour) -> f32 {
    f32::from(part.points()) + if part.colour() == colour { 1.0 } else { 0.0 } - 0.5 * f32::from(part.faults() - 3)
}

/// The next place the car can still make: a meeting it is not late for, a check it owes.
fn target(game: &Rallye, car: &Car) -> Square {
    let b = board();
    let month = game.calendar().month();
    let owes = |c: Inspection| car.owes(c);
    let places = [
        (b.meetings[0], car.scores[0].is_none() && month <= MEETING_MONTHS[0]),
        (b.stations[0], car.owes(Inspection::Tuv)),
        (b.meetings[1], car.scores[1].is_none() && month <= MEETING_MONTHS[1]),
        (b.meetings[2], car.scores[2].is_none() && month <= MEETING_MONTHS[2]),
        (b.stations[1], car.owes(Inspection::Asu)),
    ];
    places
        .into_iter()
        .find(|(place, open)| *open && b.distance(car.at, *place, owes).is_some())
        .map_or(b.meetings[3], |(place, _)| place)
}

fn value(game: &Rallye, car: &Car, colour: Colour, target: Square, action: Action) -> f32 {
    let b = board();
    let owes = |c: Inspection| car.owes(c);
    let far = |s: Square| f32::from(b.distance(s, target, owes).unwrap_or(300));
    let needs_repair = car.owes(Inspection::Asu) && car.repair < car.faults() + 2;
    match action {
        Action::Roll => 0.0,
        Action::Drive { to, buy, repair, .. } => {
            let mut v = far(car.at) - far(to);
            if b.meeting(to).is_some_and(|m| car.scores[m].is_none()) {
                v += f32::from(car.points(colour)) - 2.0;
            }
            if let Some(check) = b.station(to).filter(|c| car.owes(*c)) {
                let faults = i16::from(car.faults());
                let _ = check;
                v += if i16::from(car.repair) + i16::from(repair) >= faults { 8.0 } else { -15.0 };
            }
            let sections_open = car.fitted.iter().filter(|p| p.is_none()).count() > car.hidden.len();
            if buy {
                v += if sections_open { 4.5 } else { 1.0 };
            }
            v + f32::from(repair) * if needs_repair { 1.2 } else { 0.1 }
        }
        Action::Fit { part } => worth(part, colour) - 1.0,
        Action::Steal { .. } => 3.0,
        Action::Exchange { give, .. } => 3.0 - worth(give, colour),
        Action::Keep { parts } => parts.iter().flatten().map(|p| worth(*p, colour)).sum(),
        Action::EndTurn => {
            debug_assert!(matches!(game.phase(), Phase::Special { .. }));
            0.0
        }
    }
}
