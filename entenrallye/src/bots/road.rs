//! The strategic bot before it knew the calendar, kept as the yardstick `sim::head_to_head`
//! measures today's against: it heads for the next place it can still make (a meeting it is
//! not late for, a check it owes) and values a repair point above a square from the first
//! turn.

use crate::action::Action;
use crate::board::{Inspection, MEETING_MONTHS, Square, board};
use crate::part::{Colour, Part};
use crate::rallye::{CarView, View};

/// What this bot of the seat `view` is from does, among `legal`.
pub fn decide(view: &View, legal: &[Action]) -> Option<Action> {
    let seat = view.viewer?;
    let car = view.cars.get(seat.index())?;
    let me = Me { car, hand: &view.hand, colour: Colour::of_seat(seat.0), month: view.calendar().month() };
    let target = me.target();
    legal.iter().copied().map(|a| (me.value(target, a), a)).max_by(|x, y| x.0.total_cmp(&y.0)).map(|(_, a)| a)
}

/// The bot's own car, as its view shows it.
struct Me<'v> {
    car: &'v CarView,
    hand: &'v [Part],
    colour: Colour,
    month: u8,
}

impl Me<'_> {
    /// A part's worth on this car: its points, the colour's point, less what its faults cost.
    fn worth(&self, part: Part) -> f32 {
        f32::from(part.points()) + if part.colour() == self.colour { 1.0 } else { 0.0 }
            - 0.5 * f32::from(part.faults() - 3)
    }

    /// The next place the car can still make: a meeting it is not late for, a check it owes.
    fn target(&self) -> Square {
        let (b, car) = (board(), self.car);
        let open = |m: usize| car.scores[m].is_none() && self.month <= MEETING_MONTHS[m];
        let places = [
            (b.meetings[0], open(0)),
            (b.stations[0], car.owes(Inspection::Tuv)),
            (b.meetings[1], open(1)),
            (b.meetings[2], open(2)),
            (b.stations[1], car.owes(Inspection::Asu)),
        ];
        places
            .into_iter()
            .find(|(place, open)| *open && b.distance(car.at, *place, |c| car.owes(c)).is_some())
            .map_or(b.meetings[3], |(place, _)| place)
    }

    fn value(&self, target: Square, action: Action) -> f32 {
        let (b, car) = (board(), self.car);
        let far = |s: Square| f32::from(b.distance(s, target, |c| car.owes(c)).unwrap_or(300));
        let needs_repair = car.owes(Inspection::Asu) && car.repair < car.faults() + 2;
        match action {
            Action::Roll | Action::EndTurn => 0.0,
            Action::Drive { to, buy, repair, .. } => {
                let mut v = far(car.at) - far(to);
                if b.meeting(to).is_some_and(|m| car.scores[m].is_none()) {
                    v += f32::from(car.points(self.colour)) - 2.0;
                }
                if b.station(to).is_some_and(|c| car.owes(c)) {
                    v += if u16::from(car.repair) + u16::from(repair) >= u16::from(car.faults()) { 8.0 } else { -15.0 };
                }
                if buy {
                    let sections_open = car.fitted.iter().filter(|p| p.is_none()).count() > self.hand.len();
                    v += if sections_open { 4.5 } else { 1.0 };
                }
                v + f32::from(repair) * if needs_repair { 1.2 } else { 0.1 }
            }
            Action::Fit { part } => self.worth(part) - 1.0,
            Action::Steal { .. } => 3.0,
            Action::Exchange { give, .. } => 3.0 - self.worth(give),
            Action::Keep { parts } => parts.iter().flatten().map(|p| self.worth(*p)).sum(),
        }
    }
}
