//! The strategic bot: it plans the year against the calendar. From where its car stands it
//! lists the places still ahead that it can make in time (a meeting it would reach before its
//! month is over, a check it owes; a meeting it cannot make is skipped, and the road then
//! takes its shortcut), each with the die points the car can expect before that place's month
//! is over and what it must spend to get there (squares, and repair points for a check). A
//! drive is worth the points it brings to the next meeting — parts bought while there are die
//! points to spare and sections to fill — less what it costs in time: every die point a place
//! is left short of its margin, and the turns a car loses waiting at a meeting it reached
//! early (E-11.6). Repairs are bought when a check would otherwise be short, never before.

use crate::action::Action;
use crate::board::{Inspection, MEETING_MONTHS, Square, board};
use crate::part::{Colour, Part, Section};
use crate::rallye::{CarView, View};
use std::sync::LazyLock;

/// The places of the road in the order a car meets them (E-14.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Meeting(usize),
    Check(Inspection),
}

const ROAD: [Place; 6] = [
    Place::Meeting(0),
    Place::Check(Inspection::Tuv),
    Place::Meeting(1),
    Place::Meeting(2),
    Place::Check(Inspection::Asu),
    Place::Meeting(3),
];

impl Place {
    fn square(self) -> Square {
        match self {
            Place::Meeting(m) => board().meetings[m],
            Place::Check(c) => board().stations[c.index()],
        }
    }

    /// The month it is due in: after it, the meeting is missed or the check rounded up.
    fn month(self) -> u8 {
        match self {
            Place::Meeting(m) => MEETING_MONTHS[m],
            Place::Check(c) => c.month(),
        }
    }
}

/// The fewest squares from `at` to `place` for a car that owes what `owes` says (spurs are
/// entered only when owed, E-5.5): read from a table the first call works out, one breadth-
/// first search per square, place and pair of checks, so a decision costs no search.
fn far(at: Square, place: Place, owes: impl Fn(Inspection) -> bool) -> Option<u16> {
    static FAR: LazyLock<Vec<[[Option<u16>; 6]; 4]>> = LazyLock::new(|| {
        let b = board();
        b.squares()
            .map(|s| {
                std::array::from_fn(|mask| {
                    ROAD.map(|p| b.distance(s, p.square(), |c: Inspection| mask & (1 << c.index()) != 0))
                })
            })
            .collect()
    });
    let mask = Inspection::BOTH.iter().filter(|c| owes(**c)).map(|c| 1 << c.index()).sum::<usize>();
    let at_place = ROAD.iter().position(|p| *p == place)?;
    FAR.get(usize::from(at.0))?.get(mask)?.get(at_place).copied().flatten()
}

/// Whether `place` still counts for `car` in `month`: a meeting it was not judged at and is
/// not late for, a check it owes and is not yet rounded up for.
fn counts(car: &CarView, place: Place, month: u8) -> bool {
    match place {
        Place::Meeting(m) => car.scores[m].is_none() && month <= MEETING_MONTHS[m],
        Place::Check(c) => car.owes(c) && month <= c.month(),
    }
}

/// The calendar's pace at a table of bots, in time steps for each seat for each turn a seat
/// plays: a 6 one turn in six, and the arrivals elsewhere (those at the place planned for are
/// counted car by car, `turns_until_due`).
const STEPS_PER_TURN_PER_SEAT: f32 = 0.2;
/// How many of the calendar's chance deviations the plan for the first meeting keeps in hand.
/// These four weights were searched together over 10 000 years (`examples/simulate`; the
/// figures in docs/developers.md are of years the search never saw): each trades the first
/// meeting made in time against the points a car brings to the meetings.
const FIRST_CAUTION: f32 = 0.95;
/// A die's mean.
const DIE: f32 = 3.5;
/// What an arrival loses of its die on average (the rest of the die is lost, E-5.3).
const ARRIVAL_LOSS: f32 = 1.5;
/// The share of the other cars that can still make a place that do arrive there in time,
/// each moving the calendar a step (E-10.2).
const ARRIVING: f32 = 0.8;
/// A repair point's worth while the check wants it.
const REPAIR_NEXT: f32 = 1.0;
/// How much further a car that failed a check is from the next place than one that passed
/// (E-14.6: 34 squares from the workshop to the next meeting, 21 from the station).
const FAILED_DETOUR: f32 = 13.0;
/// A part's points on its section, on average (E-14.7: 3.5, and 1 more one time in six).
const PART_POINTS: f32 = 3.5 + 1.0 / 6.0;
/// A part the die points to spare could buy later, against one in hand now: the later one
/// wants a 4 or more on a grey square before the meeting.
const LATER_PART: f32 = 0.6;
/// What a die point a place is left short of its margin costs, in points.
const SHORT: f32 = 1.8;
/// The faults a car has at a check when a meeting comes before it: the meeting bared the card
/// (E-11.4), and a part or two is fitted again on the way.
const FAULTS_AFTER_MEETING: f32 = 13.0;

/// A place ahead on the year's plan.
#[derive(Debug, Clone, Copy)]
struct Leg {
    place: Place,
    /// Squares from the car, through the places before it.
    squares: f32,
    /// Die points the car can expect before the place's month is over.
    budget: f32,
    /// Repair points a check still wants.
    need: f32,
    /// Time steps before it is due.
    steps: f32,
}

impl Leg {
    /// Die points to spare at this place once `squares` and `need` are paid, less what the
    /// arrivals before it lose (`k` of them).
    fn slack(&self, k: usize) -> f32 {
        self.budget - self.squares - self.need - ARRIVAL_LOSS * k as f32
    }

    /// How much slack a place wants kept against the dice and the calendar's pace.
    fn margin(&self) -> f32 {
        // The first meeting is the one every car can make (E-14.6): there the bot keeps a
        // margin against the calendar's chance — its steps come by a 6 or an arrival, so over
        // k of them the turns they leave vary by about 1/√k of themselves, the die points with
        // them. Further on it plays the odds with 2 points: `examples/simulate` showed a wider
        // margin there loses more points than the meetings it saves.
        let chance = if self.place == Place::Meeting(0) {
            FIRST_CAUTION * self.budget / self.steps.max(1.0).sqrt()
        } else {
            0.0
        };
        2.0 + chance
    }
}

/// What the bot of the seat `view` is from does, among `legal`.
pub fn decide(view: &View, legal: &[Action]) -> Option<Action> {
    let seat = view.viewer?;
    let me = Me { view, car: view.cars.get(seat.index())?, colour: Colour::of_seat(seat.0) };
    let plan = me.plan();
    legal.iter().copied().map(|a| (me.value(&plan, a), a)).max_by(|x, y| x.0.total_cmp(&y.0)).map(|(_, a)| a)
}

/// The bot's own car and hand, as its view shows them.
struct Me<'v> {
    view: &'v View,
    car: &'v CarView,
    colour: Colour,
}

impl Me<'_> {
    fn seats(&self) -> f32 {
        f32::from(self.view.players.max(1))
    }

    /// E-3.4: own turns before the calendar reaches `time`.
    fn turns_until(&self, time: f32) -> f32 {
        ((time - f32::from(self.view.time)) / (STEPS_PER_TURN_PER_SEAT * self.seats())).max(0.0)
    }

    /// Own turns before `month` is over.
    fn turns_until_over(&self, month: u8) -> f32 {
        self.turns_until(f32::from(month) * self.seats() + 1.0)
    }

    /// Own turns before `place` is due (its month over: the meeting missed, the check rounded
    /// up). Every car that arrives there moves the calendar on (E-10.2): the other cars that
    /// can still make it (`others`: how far each of them is from each place it still counts)
    /// bring its end nearer.
    fn turns_until_due(&self, place: Place, others: &[[Option<u16>; 6]]) -> f32 {
        let at = ROAD.iter().position(|p| *p == place).unwrap_or(0);
        let reach = self.turns_until_over(place.month()) * DIE;
        let coming = others.iter().filter(|far| far[at].is_some_and(|d| f32::from(d) <= reach)).count();
        let over = f32::from(place.month()) * self.seats() + 1.0;
        self.turns_until(over - ARRIVING * coming as f32)
    }

    /// How far each other car is from each place of the road it still counts (its meetings
    /// not judged nor missed, its checks owed).
    fn others(&self) -> Vec<[Option<u16>; 6]> {
        let month = self.view.calendar().month();
        (self.view.cars.iter())
            .filter(|c| !std::ptr::eq(*c, self.car))
            .map(|c| ROAD.map(|p| if counts(c, p, month) { far(c.at, p, |x| c.owes(x)) } else { None }))
            .collect()
    }

    /// Own turns before `month` begins.
    fn turns_until_start(&self, month: u8) -> f32 {
        self.turns_until(f32::from(month.saturating_sub(1)) * self.seats() + 1.0)
    }

    /// Whether `place` still counts for this car: a meeting not judged nor late for, a check
    /// it owes.
    fn open(&self, place: Place) -> bool {
        counts(self.car, place, self.view.calendar().month())
    }

    /// Squares from `from` (driving back out of a spur if `returning`) to `place`.
    fn road(&self, from: Square, returning: bool, place: Place) -> Option<f32> {
        let b = board();
        let owes = |c: Inspection| self.car.owes(c);
        let (mut at, mut back, mut out) = (from, returning, 0u16);
        while back && out < 8 {
            let Some(&(next, still)) = b.next(at, true, owes).first() else { break };
            (at, back, out) = (next, still, out + 1);
        }
        far(at, place, owes).map(|d| f32::from(d + out))
    }

    /// The places ahead this car can still make, in road order.
    fn plan(&self) -> Vec<Leg> {
        let mut legs: Vec<Leg> = Vec::new();
        let (mut from, mut returning, mut squares) = (self.car.at, self.car.returning, 0.0);
        let mut repair = f32::from(self.car.repair);
        let others = self.others();
        for place in ROAD.into_iter().filter(|p| self.open(*p)) {
            let Some(d) = self.road(from, returning, place) else { continue };
            let turns = self.turns_until_due(place, &others);
            let steps = turns * STEPS_PER_TURN_PER_SEAT * self.seats();
            let leg = Leg { place, squares: squares + d, budget: turns * DIE, need: 0.0, steps };
            // A meeting the car cannot reach before its month is over, even driving every
            // point, is skipped (E-11.9: the shortcut is the shorter road to the next place).
            let last_chance = self.turns_until_over(place.month()) * DIE;
            let unreachable = Leg { budget: last_chance, ..leg }.slack(legs.len()) < 0.0;
            if matches!(place, Place::Meeting(m) if m < 3) && unreachable {
                continue;
            }
            let leg = match place {
                Place::Check(_) => {
                    let met = legs.iter().any(|l| matches!(l.place, Place::Meeting(_)));
                    let faults = if met { FAULTS_AFTER_MEETING } else { f32::from(self.car.faults()) };
                    let need = (faults - repair).max(0.0);
                    repair = (repair - faults).max(0.0);
                    Leg { need, ..leg }
                }
                Place::Meeting(_) => leg,
            };
            legs.push(leg);
            (from, returning, squares) = (place.square(), matches!(place, Place::Check(_)), leg.squares);
        }
        legs
    }

    /// Sections neither fitted nor covered by a hidden part.
    fn open_sections(&self) -> usize {
        Section::ALL
            .iter()
            .filter(|s| self.car.fitted[s.index()].is_none() && !self.view.hand.iter().any(|p| p.section() == **s))
            .count()
    }

    /// The points the hidden parts would add on the sections still free (the best part for
    /// each).
    fn hand_points(&self) -> f32 {
        Section::ALL
            .iter()
            .filter(|s| self.car.fitted[s.index()].is_none())
            .map(|s| self.view.hand.iter().filter(|p| p.section() == *s).map(|p| self.points(*p)).fold(0.0, f32::max))
            .sum()
    }

    /// A part's worth on this car at a meeting: its points and the colour's.
    fn points(&self, part: Part) -> f32 {
        f32::from(part.points()) + if part.colour() == self.colour { 1.0 } else { 0.0 }
    }

    fn value(&self, plan: &[Leg], action: Action) -> f32 {
        match action {
            Action::Roll | Action::EndTurn => 0.0,
            Action::Drive { to, squares, buy, repair } => self.drive(plan, to, squares, buy, repair),
            Action::Fit { part } => self.fit(plan, part),
            Action::Steal { .. } => 3.0,
            Action::Exchange { give, .. } => PART_POINTS - self.points(give) + 0.5,
            Action::Keep { parts } => parts.iter().flatten().map(|p| self.points(*p)).sum(),
        }
    }

    /// A hidden part laid now: its points at the next meeting, less its faults where a check
    /// comes first and is short of time.
    fn fit(&self, plan: &[Leg], part: Part) -> f32 {
        let extra = f32::from(part.faults().saturating_sub(3));
        let check_first = plan.iter().position(|l| matches!(l.place, Place::Check(_)));
        let meeting_first = plan.iter().position(|l| matches!(l.place, Place::Meeting(_)));
        match (check_first, meeting_first) {
            (Some(c), m) if m.is_none_or(|m| c < m) => {
                let leg = plan[c];
                let tight = leg.slack(c) - extra < leg.margin() + 3.0;
                self.points(part) - extra * if tight { SHORT } else { 0.3 } - 1.0
            }
            _ => self.points(part),
        }
    }

    /// A drive to `to` of `squares`, buying (`buy`) and repairing `repair` with the rest.
    fn drive(&self, plan: &[Leg], to: Square, squares: u8, buy: bool, repair: u8) -> f32 {
        let b = board();
        let month = self.view.calendar().month();
        // Back out of a spur, or just arrived at its station (and passed: it drives back).
        let returning = b.spur(to).is_some() && (self.car.returning || b.station(to).is_some());
        let Some(first) = plan.first() else {
            // Nothing ahead but the road's end.
            return f32::from(squares);
        };
        let before = self.road(self.car.at, self.car.returning, first.place).unwrap_or(0.0);
        let Some(after) = self.road(to, returning, first.place) else {
            // A drive that leaves the next meeting behind (its shortcut) gives it up: only once
            // the car is more than a turn short of it (the other cars' arrivals counted;
            // `examples/simulate` showed giving up sooner loses more than it saves), and what
            // it would have scored there is lost.
            let lost = f32::from(self.car.points(self.colour)) + self.hand_points();
            // A check is never given up: its round-up puts the car behind the workshop wherever
            // it stands (E-12.6).
            let meeting = matches!(first.place, Place::Meeting(_));
            return match plan.get(1..).filter(|rest| !rest.is_empty()) {
                Some(rest) if meeting && first.slack(0) < -DIE => self.drive(rest, to, squares, buy, repair) - lost,
                _ => -100.0,
            };
        };
        let progress = before - after;
        let mut value = 0.0;
        // Reaching a meeting judges the car now; early, it waits there for the month.
        let mut waits_from = None;
        if let Some(m) = b.meeting(to).filter(|m| self.open(Place::Meeting(*m)))
            && m < 3
            && month < MEETING_MONTHS[m]
        {
            let k = plan.iter().position(|l| l.place == Place::Meeting(m)).unwrap_or(0);
            waits_from = Some((k, self.turns_until_start(MEETING_MONTHS[m]) * DIE));
        }
        let mut repaired = f32::from(repair);
        let mut spare = f32::INFINITY;
        let mut next_meeting = None;
        // A car that reaches a station short of repair points fails (E-12.4): it drives on from
        // behind the workshop, FAILED_DETOUR squares and its deficit further from what follows.
        let mut detour = 0.0;
        for (k, leg) in plan.iter().enumerate() {
            let margin = leg.margin();
            let mut leg = Leg { squares: leg.squares - progress + detour, budget: leg.budget - DIE, ..*leg };
            if matches!(leg.place, Place::Check(_)) {
                let used = repaired.min(leg.need);
                leg.need -= used;
                repaired -= used;
                if leg.place.square() == to && leg.need > 0.0 {
                    detour += FAILED_DETOUR + leg.need;
                    continue;
                }
            }
            if let Some((w, lost)) = waits_from
                && k > w
            {
                leg.budget -= lost;
            }
            let slack = leg.slack(k);
            value -= SHORT * (margin - slack).max(0.0);
            if next_meeting.is_none() {
                spare = spare.min(slack - margin);
                if matches!(leg.place, Place::Meeting(_)) {
                    next_meeting = Some(leg.place);
                }
            }
        }
        // The next meeting's points still to come, lost by arriving now: the parts in hand
        // for free sections, and parts bought with the die points to spare, as far as
        // sections are open.
        let arrived = next_meeting.is_some_and(|p| p.square() == to);
        if !arrived && next_meeting.is_some() {
            value += self.hand_points();
            let open = self.open_sections() as f32;
            let open = if buy { open * 0.75 } else { open };
            value += open.min(spare.max(0.0) / 3.0) * PART_POINTS * LATER_PART;
            if buy && self.open_sections() > 0 {
                value += (self.open_sections() as f32 / 4.0) * PART_POINTS + 0.3;
            }
        }
        value + 0.05 * progress + self.repairs_worth(plan, repair)
    }

    /// Repair points bought now for the first check that still wants some: they must be on
    /// the marker before the car reaches the station, and only a grey square buys them
    /// (E-9.2). Once the check is the next place they are worth what they save; before the
    /// place ahead of it, only the points the stretch between the two could not pay in time.
    fn repairs_worth(&self, plan: &[Leg], repair: u8) -> f32 {
        let Some(k) = plan.iter().position(|l| matches!(l.place, Place::Check(_)) && l.need > 0.0) else {
            return 0.0;
        };
        let check = plan[k];
        let wanted = match k.checked_sub(1).and_then(|p| plan.get(p)) {
            None => check.need,
            Some(before) => {
                let between =
                    Leg { budget: check.budget - before.budget, squares: check.squares - before.squares, ..check };
                (between.margin() - between.slack(1)).clamp(0.0, check.need)
            }
        };
        f32::from(repair).min(wanted) * REPAIR_NEXT
    }
}
