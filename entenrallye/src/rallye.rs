//! A game of Entenrallye: the cars, the calendar, the draw pile and whose turn it is.
//! `check` (pure; the refusal names its rule) then `perform` (cannot fail), as every engine
//! of the table.

use crate::action::{Action, RuleError};
use crate::board::{Inspection, Kind, MEETING_MONTHS, Square, board};
use crate::calendar::{Calendar, Tick};
use crate::dice;
use crate::event::{Event, Why};
use crate::options::{Settings, Ties};
use crate::part::{self, Colour, Part};
use bolide_table::Seat;
use serde::{Deserialize, Serialize};

mod arrange;
pub use arrange::{ArrangeError, CarSetup};

/// E-9.1: the top of the repair track.
pub const REPAIR_MAX: u8 = 20;

/// E-12.1: where a car stands with a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Check {
    Owed,
    /// E-12.3.
    Passed,
    /// E-12.4.
    Failed,
    /// E-12.6.
    RoundedUp,
}

/// One player's car, car card and repair marker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Car {
    pub at: Square,
    /// E-12.2: driving back out of a check's spur.
    pub returning: bool,
    /// E-11.6: the meeting (0 = M1) it arrived early at and waits for.
    pub waiting: Option<u8>,
    /// E-9.1: the repair marker, 0–20.
    pub repair: u8,
    /// E-7.5: the parts on the car card, by section.
    pub fitted: [Option<Part>; 4],
    /// E-7.4: the parts beside the card, face down.
    pub hidden: Vec<Part>,
    pub checks: [Check; 2],
    /// E-11.3: the points written at each meeting it was judged at.
    pub scores: [Option<u8>; 4],
}

impl Car {
    fn new(at: Square) -> Car {
        Car {
            at,
            returning: false,
            waiting: None,
            repair: 0,
            fitted: [None; 4],
            hidden: Vec::new(),
            checks: [Check::Owed; 2],
            scores: [None; 4],
        }
    }

    /// E-7.6: 3 for a bare section, the part's faults otherwise: 12 to 20.
    pub fn faults(&self) -> u8 {
        part::faults(&self.fitted)
    }

    /// E-7.7: the fitted parts' points, and 1 for each in the car's colour.
    pub fn points(&self, colour: Colour) -> u8 {
        part::points(&self.fitted, colour)
    }

    pub fn owes(&self, check: Inspection) -> bool {
        self.checks[check.index()] == Check::Owed
    }

    /// E-13.2: the points written at the meetings.
    pub fn total(&self) -> u16 {
        self.scores.iter().flatten().map(|p| u16::from(*p)).sum()
    }
}

/// Where the turn stands (E-4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Roll,
    Drive {
        die: u8,
    },
    /// E-6: the drive ended on a grey square; `swapped`: the steal or exchange is done.
    Special {
        die: u8,
        swapped: bool,
    },
    /// E-11.4: judged; the player chooses the hidden parts to keep. `fitted`: how many
    /// fitted parts already went back (told with the kept ones, in one line).
    Keep {
        die: u8,
        fitted: u8,
    },
    Over,
}

/// A place a drive can end (E-5.3): `stop` when the car stops there whatever is left of the
/// die (a meeting it is judged at, a station it owes, M4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pub to: Square,
    pub squares: u8,
    pub returning: bool,
    pub stop: bool,
}

#[derive(Debug, Clone)]
pub struct Rallye {
    settings: Settings,
    players: u8,
    cars: Vec<Car>,
    /// E-7.3: the top is the last.
    pile: Vec<Part>,
    calendar: Calendar,
    turn: Seat,
    phase: Phase,
    /// E-10.2: this turn's car arrived at a meeting in time or early, or at a station owed.
    arrived: bool,
    /// Every random thing comes from it (`dice`), each draw numbered.
    seed: u64,
    rolls: u32,
    shuffles: u32,
    takes: u32,
}

/// What a seat may see (E-7.3, E-7.4: hidden parts are the owner's alone; the others see
/// how many).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Option<Seat>,
    pub players: u8,
    pub turn: Seat,
    pub phase: Phase,
    /// E-3.4.
    pub time: u16,
    pub cars: Vec<CarView>,
    /// The viewer's hidden parts, in card order (E-8.3: an order that tells nothing).
    pub hand: Vec<Part>,
    pub pile: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CarView {
    pub at: Square,
    pub returning: bool,
    pub waiting: Option<u8>,
    pub repair: u8,
    pub fitted: [Option<Part>; 4],
    pub hidden: u8,
    pub checks: [Check; 2],
    pub scores: [Option<u8>; 4],
}

impl CarView {
    /// E-7.6.
    pub fn faults(&self) -> u8 {
        part::faults(&self.fitted)
    }

    /// E-7.7.
    pub fn points(&self, colour: Colour) -> u8 {
        part::points(&self.fitted, colour)
    }

    pub fn owes(&self, check: Inspection) -> bool {
        self.checks[check.index()] == Check::Owed
    }
}

impl View {
    /// The calendar as this view shows it.
    pub fn calendar(&self) -> Calendar {
        Calendar { players: self.players.max(1), time: self.time }
    }

    /// Whether this view names only what exists (a laptop checks a host's view before it
    /// shows or decides on it): 2 to 6 seats and a car each, squares of the road, parts of
    /// the deck on their own sections, markers and dice within their ranges.
    pub fn check(&self) -> Result<(), String> {
        let players = self.players;
        let seat_ok = |s: Seat| s.0 < players;
        let die_ok = |d: u8| (1..=6).contains(&d);
        let phase_ok = match self.phase {
            Phase::Drive { die } | Phase::Special { die, .. } => die_ok(die),
            Phase::Keep { die, fitted } => die_ok(die) && usize::from(fitted) <= part::Section::ALL.len(),
            Phase::Roll | Phase::Over => true,
        };
        let fitted_ok = |fitted: &[Option<Part>; 4]| {
            fitted.iter().enumerate().all(|(i, p)| p.is_none_or(|p| p.is_card() && p.section().index() == i))
        };
        let car_ok = |c: &CarView| {
            board().has(c.at)
                && c.repair <= REPAIR_MAX
                && c.waiting.is_none_or(|m| m < 3)
                && fitted_ok(&c.fitted)
                && c.hidden <= part::PARTS
                && c.scores.iter().flatten().all(|p| *p <= 4 * 6)
        };
        let ok = (2..=6).contains(&players)
            && self.viewer.is_none_or(seat_ok)
            && seat_ok(self.turn)
            && phase_ok
            && self.time <= 12 * u16::from(players)
            && self.cars.len() == usize::from(players)
            && self.cars.iter().all(car_ok)
            && self.hand.len() <= usize::from(part::PARTS)
            && self.hand.iter().all(|p| p.is_card())
            && self.pile <= part::PARTS;
        if ok {
            Ok(())
        } else {
            Err(format!("an Entenrallye view of {players} players that names what the game has not"))
        }
    }

    /// Whether `action` names only seats, squares and parts of this table.
    pub fn check_action(&self, action: &Action) -> Result<(), String> {
        let ok = match *action {
            Action::Drive { to, squares, repair, .. } => board().has(to) && (1..=6).contains(&squares) && repair <= 6,
            Action::Fit { part } => part.is_card(),
            Action::Steal { from } => from.0 < self.players,
            Action::Exchange { with, give } => with.0 < self.players && give.is_card(),
            Action::Keep { parts } => parts.iter().flatten().all(|p| p.is_card()),
            Action::Roll | Action::EndTurn => true,
        };
        if ok { Ok(()) } else { Err(format!("an action offered that names what the table has not: {action:?}")) }
    }
}

impl Rallye {
    /// E-1.3: a new game; every random thing (the first player if drawn, the pile, the die,
    /// the part a steal takes) comes from `seed`.
    pub fn new(settings: Settings, players: u8, seed: u64, events: &mut Vec<Event>) -> Result<Rallye, String> {
        settings.check(players)?;
        let first = Seat(match settings.first_player {
            crate::options::FirstPlayer::FirstSeat => 0,
            crate::options::FirstPlayer::Random => dice::first_player(seed, players),
        });
        let mut pile: Vec<Part> = Part::all().collect();
        dice::shuffle(seed, 0, &mut pile);
        let game = Rallye {
            settings,
            players,
            cars: (0..players).map(|_| Car::new(board().start)).collect(),
            pile,
            calendar: Calendar::new(players),
            turn: first,
            phase: Phase::Roll,
            arrived: false,
            seed,
            rolls: 0,
            shuffles: 1,
            takes: 0,
        };
        events.push(Event::Started { players, first });
        events.push(Event::TurnStarted { seat: first });
        Ok(game)
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    pub fn turn(&self) -> Seat {
        self.turn
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn calendar(&self) -> Calendar {
        self.calendar
    }

    pub fn cars(&self) -> &[Car] {
        &self.cars
    }

    pub fn car(&self, seat: Seat) -> Option<&Car> {
        self.cars.get(seat.index())
    }

    pub fn pile(&self) -> &[Part] {
        &self.pile
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// E-5.3: whether `car` stops on arriving at `to` this turn, whatever is left of the die.
    fn stops_at(&self, car: &Car, to: Square) -> bool {
        let b = board();
        if to == b.meetings[3] {
            return true;
        }
        if let Some(m) = b.meeting(to) {
            return car.scores[m].is_none() && self.calendar.month() <= MEETING_MONTHS[m];
        }
        b.station(to).is_some_and(|c| car.owes(c))
    }

    /// E-5.2: every place `seat`'s car can reach in 1 to `die` squares, in no particular order.
    pub fn reaches(&self, seat: Seat, die: u8) -> Vec<Reach> {
        let Some(car) = self.car(seat) else { return Vec::new() };
        let b = board();
        let mut out: Vec<Reach> = Vec::new();
        let mut frontier = vec![(car.at, car.returning, 0u8)];
        while let Some((at, returning, k)) = frontier.pop() {
            for (to, returning) in b.next(at, returning, |c| car.owes(c)) {
                let reach = Reach { to, squares: k + 1, returning, stop: self.stops_at(car, to) };
                if !out.iter().any(|r| r.to == to && r.squares == reach.squares) {
                    out.push(reach);
                }
                if !reach.stop && reach.squares < die {
                    frontier.push((to, returning, reach.squares));
                }
            }
        }
        out
    }

    /// E-7.3, E-9: whether the rest of a die may buy (`buy`) and repair `repair` points.
    fn may_spend(&self, car: &Car, buy: bool, repair: u8) -> Result<(), RuleError> {
        if buy && self.pile.is_empty() {
            return Err(RuleError::PileEmpty);
        }
        if repair > 0 {
            if !car.owes(Inspection::Asu) {
                return Err(RuleError::RepairsOver);
            }
            if u16::from(car.repair) + u16::from(repair) > u16::from(REPAIR_MAX) {
                return Err(RuleError::RepairFull);
            }
        }
        Ok(())
    }

    /// E-5.3: the drive `(to, squares, buy, repair)` for a die of `die`, checked.
    fn check_drive(&self, seat: Seat, die: u8, a: (Square, u8, bool, u8)) -> Result<Reach, RuleError> {
        let (to, squares, buy, repair) = a;
        if squares == 0 || squares > die {
            return Err(RuleError::Distance { die });
        }
        let reach = self
            .reaches(seat, die)
            .into_iter()
            .find(|r| r.to == to && r.squares == squares)
            .ok_or(RuleError::NotOnRoad { squares })?;
        if reach.stop && squares < die {
            // The rest of the die is lost, none of it spent.
            return if buy || repair > 0 { Err(RuleError::StopsThere) } else { Ok(reach) };
        }
        if u16::from(squares) + 3 * u16::from(buy) + u16::from(repair) != u16::from(die) {
            return Err(RuleError::WrongSum { die });
        }
        if squares < die && board().kind(to) != Kind::Grey {
            return Err(RuleError::EarlyStop);
        }
        let car = self.car(seat).ok_or(RuleError::NotYourTurn { active: self.turn })?;
        self.may_spend(car, buy, repair)?;
        Ok(reach)
    }

    /// Whether `seat` may take `action` now. Pure.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::GameOver);
        }
        if seat != self.turn {
            return Err(RuleError::NotYourTurn { active: self.turn });
        }
        let car = self.car(seat).ok_or(RuleError::NotYourTurn { active: self.turn })?;
        match (self.phase, action) {
            (Phase::Roll, Action::Roll) => Ok(()),
            (Phase::Roll, _) => Err(RuleError::RollFirst),
            (Phase::Drive { die }, Action::Drive { to, squares, buy, repair }) => {
                self.check_drive(seat, die, (to, squares, buy, repair)).map(|_| ())
            }
            (Phase::Drive { .. }, Action::Roll) => Err(RuleError::AlreadyRolled),
            (Phase::Drive { .. }, _) => Err(RuleError::NotDriven),
            (Phase::Keep { .. }, Action::Keep { parts }) => {
                let kept: Vec<Part> = parts.iter().flatten().copied().collect();
                let distinct = kept.len() < 2 || kept[0] != kept[1];
                if distinct && kept.iter().all(|p| car.hidden.contains(p)) { Ok(()) } else { Err(RuleError::BadKeep) }
            }
            (Phase::Keep { .. }, _) => Err(RuleError::KeepFirst),
            (Phase::Special { .. }, Action::Fit { part }) => {
                if !car.hidden.contains(&part) {
                    Err(RuleError::NotHeld)
                } else if car.fitted[part.section().index()].is_some() {
                    Err(RuleError::SectionTaken)
                } else {
                    Ok(())
                }
            }
            (Phase::Special { die, swapped }, Action::Steal { from }) => {
                if die != 1 || swapped {
                    return Err(RuleError::NoSwap);
                }
                self.victim(seat, from).map(|_| ())
            }
            (Phase::Special { die, swapped }, Action::Exchange { with, give }) => {
                if die != 2 || swapped {
                    return Err(RuleError::NoSwap);
                }
                self.victim(seat, with)?;
                if car.hidden.contains(&give) { Ok(()) } else { Err(RuleError::NothingToGive) }
            }
            (Phase::Special { .. }, Action::EndTurn) => Ok(()),
            (Phase::Special { .. }, Action::Roll) => Err(RuleError::AlreadyRolled),
            (Phase::Special { .. }, _) => Err(RuleError::AlreadyDrove),
            (Phase::Over, _) => Err(RuleError::GameOver),
        }
    }

    /// E-8.1: another player who has a hidden part.
    fn victim(&self, seat: Seat, other: Seat) -> Result<&Car, RuleError> {
        match self.car(other) {
            Some(car) if other != seat && !car.hidden.is_empty() => Ok(car),
            _ => Err(RuleError::NothingToTake),
        }
    }

    /// `check` then `perform`: a refusal changes nothing.
    pub fn apply(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check(seat, action)?;
        self.perform(seat, action, events);
        Ok(())
    }

    fn perform(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) {
        let i = seat.index();
        match (self.phase, action) {
            (_, Action::Roll) => {
                let die = dice::die(self.seed, self.rolls);
                self.rolled(seat, die, events);
            }
            (Phase::Drive { die }, Action::Drive { to, squares, buy, repair }) => {
                let Ok(reach) = self.check_drive(seat, die, (to, squares, buy, repair)) else { return };
                self.drive(seat, die, reach, buy, repair, events);
            }
            (Phase::Keep { die, fitted }, Action::Keep { parts }) => {
                let car = &mut self.cars[i];
                let kept: Vec<Part> = parts.iter().flatten().copied().collect();
                let back: Vec<Part> = car.hidden.iter().copied().filter(|p| !kept.contains(p)).collect();
                car.hidden = kept;
                self.return_parts(seat, fitted, back, events);
                self.end_turn(die, events);
            }
            (Phase::Special { die, swapped }, Action::Fit { part }) => {
                let car = &mut self.cars[i];
                car.hidden.retain(|p| *p != part);
                car.fitted[part.section().index()] = Some(part);
                events.push(Event::Fitted { seat, part });
                self.after_special(seat, die, swapped, events);
            }
            (Phase::Special { die, .. }, Action::Steal { from }) => {
                let part = self.take_hidden(from);
                self.cars[i].hidden.push(part);
                events.push(Event::Stole { seat, from, part: Some(part) });
                self.after_special(seat, die, true, events);
            }
            (Phase::Special { die, .. }, Action::Exchange { with, give }) => {
                let got = self.take_hidden(with);
                let car = &mut self.cars[i];
                car.hidden.retain(|p| *p != give);
                car.hidden.push(got);
                self.cars[with.index()].hidden.push(give);
                events.push(Event::Exchanged { seat, with, got: Some(got), gave: Some(give) });
                self.after_special(seat, die, true, events);
            }
            (Phase::Special { die, .. }, Action::EndTurn) => self.end_turn(die, events),
            _ => {}
        }
    }

    /// E-4.3, E-11.6: `seat` rolled `die`.
    fn rolled(&mut self, seat: Seat, die: u8, events: &mut Vec<Event>) {
        events.push(Event::Rolled { seat, die, roll: self.rolls });
        self.rolls = self.rolls.saturating_add(1);
        let month = self.calendar.month();
        let car = &mut self.cars[seat.index()];
        // E-11.6: from the first turn in the meeting's month, it drives on.
        if car.waiting.is_some_and(|m| month >= MEETING_MONTHS[usize::from(m)]) {
            car.waiting = None;
        }
        if car.waiting.is_some() || car.at == board().meetings[3] {
            events.push(Event::Stays { seat });
            self.end_turn(die, events);
        } else {
            self.phase = Phase::Drive { die };
        }
    }

    /// E-8.3: a hidden part of `from`'s, drawn uniformly (checked to exist).
    fn take_hidden(&mut self, from: Seat) -> Part {
        let hidden = &mut self.cars[from.index()].hidden;
        let at = dice::take(self.seed, self.takes, hidden.len());
        self.takes = self.takes.saturating_add(1);
        hidden.swap_remove(at)
    }

    fn drive(&mut self, seat: Seat, die: u8, reach: Reach, buy: bool, repair: u8, events: &mut Vec<Event>) {
        let b = board();
        let i = seat.index();
        let month = self.calendar.month();
        let car = &mut self.cars[i];
        car.at = reach.to;
        car.returning = reach.returning;
        events.push(Event::Drove { seat, to: reach.to, squares: reach.squares });
        if buy && let Some(part) = self.pile.pop() {
            self.cars[i].hidden.push(part);
            events.push(Event::Bought { seat, part: Some(part) });
        }
        let car = &mut self.cars[i];
        if repair > 0 {
            car.repair += repair;
            events.push(Event::Repaired { seat, points: repair, marker: car.repair });
        }
        if let Some(m) = b.meeting(reach.to).filter(|m| car.scores[*m].is_none() && month <= MEETING_MONTHS[*m]) {
            // E-11.3, E-11.4.
            let points = car.points(Colour::of_seat(seat.0));
            let early = month < MEETING_MONTHS[m];
            car.scores[m] = Some(points);
            car.waiting = (early && m < 3).then_some(m as u8);
            self.arrived = true;
            events.push(Event::Judged { seat, meeting: m as u8, points, early });
            let fitted: Vec<Part> = car.fitted.iter_mut().filter_map(Option::take).collect();
            self.pile.extend(fitted.iter().copied());
            if self.cars[i].hidden.len() > 2 {
                // The line that says what went back waits for the choice (`return_parts`).
                self.phase = Phase::Keep { die, fitted: fitted.len() as u8 };
            } else {
                let kept = self.cars[i].hidden.len() as u8;
                events.push(Event::PartsReturned { seat, fitted: fitted.len() as u8, hidden: 0, kept });
                self.shuffle_pile();
                self.end_turn(die, events);
            }
        } else if let Some(check) = b.station(reach.to).filter(|c| car.owes(*c)) {
            // E-12.3, E-12.4.
            self.arrived = true;
            let faults = car.faults();
            if car.repair >= faults {
                car.repair -= faults;
                car.checks[check.index()] = Check::Passed;
                car.returning = true;
                events.push(Event::Passed { seat, check, faults, marker: car.repair });
            } else {
                let minus = faults - car.repair;
                car.at = b.minus[check.index()][usize::from(minus) - 1];
                car.repair = 0;
                car.returning = false;
                car.checks[check.index()] = Check::Failed;
                events.push(Event::Failed { seat, check, minus });
            }
            self.end_turn(die, events);
        } else if b.kind(reach.to) == Kind::Grey {
            self.after_special(seat, die, false, events);
        } else {
            self.end_turn(die, events);
        }
    }

    /// E-11.4: `back` goes into the pile (after the `fitted` parts), which is shuffled.
    fn return_parts(&mut self, seat: Seat, fitted: u8, back: Vec<Part>, events: &mut Vec<Event>) {
        let kept = self.cars[seat.index()].hidden.len() as u8;
        events.push(Event::PartsReturned { seat, fitted, hidden: back.len() as u8, kept });
        self.pile.extend(back);
        self.shuffle_pile();
    }

    /// E-11.4: the pile shuffled, on the seed's next shuffle stream.
    fn shuffle_pile(&mut self) {
        dice::shuffle(self.seed, self.shuffles, &mut self.pile);
        self.shuffles = self.shuffles.saturating_add(1);
    }

    /// The special actions go on while one is left, else the turn ends.
    fn after_special(&mut self, seat: Seat, die: u8, swapped: bool, events: &mut Vec<Event>) {
        self.phase = Phase::Special { die, swapped };
        let mut left = Vec::new();
        self.specials(seat, &mut left);
        if left.is_empty() {
            self.end_turn(die, events);
        }
    }

    /// E-6.2: the special actions open now, `EndTurn` apart.
    fn specials(&self, seat: Seat, out: &mut Vec<Action>) {
        let Phase::Special { die, swapped } = self.phase else { return };
        let Some(car) = self.car(seat) else { return };
        for part in &car.hidden {
            if car.fitted[part.section().index()].is_none() {
                out.push(Action::Fit { part: *part });
            }
        }
        if swapped {
            return;
        }
        for other in (0..self.players).map(Seat) {
            if self.victim(seat, other).is_err() {
                continue;
            }
            match die {
                1 => out.push(Action::Steal { from: other }),
                2 => out.extend(car.hidden.iter().map(|give| Action::Exchange { with: other, give: *give })),
                _ => {}
            }
        }
    }

    /// E-10: step 3, then the next player's turn (E-1.4) unless the game is over (E-13.1).
    fn end_turn(&mut self, die: u8, events: &mut Vec<Event>) {
        let steps = [(die == 6).then_some(Why::Six), std::mem::take(&mut self.arrived).then_some(Why::Arrival)];
        for why in steps.into_iter().flatten() {
            match self.calendar.tick() {
                Tick::YearOver => return self.finish(events),
                tick => {
                    events.push(Event::Time { time: self.calendar.time, why });
                    match tick {
                        Tick::Entered(5) => self.round_up(Inspection::Tuv, events),
                        Tick::Entered(11) => self.round_up(Inspection::Asu, events),
                        _ => {}
                    }
                }
            }
        }
        events.push(Event::TurnEnded { seat: self.turn });
        if self.cars.iter().all(|c| c.at == board().meetings[3]) {
            return self.finish(events);
        }
        self.turn = Seat((self.turn.0 + 1) % self.players);
        self.phase = Phase::Roll;
        events.push(Event::TurnStarted { seat: self.turn });
    }

    /// E-12.6: every car that still owes `check` is settled; a car on M4 stays there (E-11.7
    /// prevails: `docs/rules/entenrallye-rulings.md`), every other one goes to the workshop
    /// or behind it.
    fn round_up(&mut self, check: Inspection, events: &mut Vec<Event>) {
        let b = board();
        for (i, car) in self.cars.iter_mut().enumerate().filter(|(_, c)| c.owes(check)) {
            let faults = car.faults();
            let minus = faults.saturating_sub(car.repair);
            car.at = if car.at == b.meetings[3] {
                car.at
            } else if minus == 0 {
                b.workshops[check.index()]
            } else {
                b.minus[check.index()][usize::from(minus) - 1]
            };
            car.repair = car.repair.saturating_sub(faults);
            car.checks[check.index()] = Check::RoundedUp;
            car.waiting = None;
            car.returning = false;
            events.push(Event::RoundedUp { seat: Seat(i as u8), check, minus, marker: car.repair });
        }
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        events.push(Event::GameEnded { totals: self.cars.iter().map(Car::total).collect() });
    }

    /// Every action `seat` may take now.
    pub fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        if seat != self.turn || self.is_over() {
            return;
        }
        let Some(car) = self.car(seat) else { return };
        match self.phase {
            Phase::Roll => out.push(Action::Roll),
            Phase::Drive { die } => {
                for r in self.reaches(seat, die) {
                    let mut push = |buy, repair| out.push(Action::Drive { to: r.to, squares: r.squares, buy, repair });
                    if r.squares == die || r.stop {
                        push(false, 0);
                    } else if board().kind(r.to) == Kind::Grey {
                        let rest = die - r.squares;
                        if self.may_spend(car, false, rest).is_ok() {
                            push(false, rest);
                        }
                        if let Some(repair) = rest.checked_sub(3)
                            && self.may_spend(car, true, repair).is_ok()
                        {
                            push(true, repair);
                        }
                    }
                }
            }
            Phase::Special { .. } => {
                self.specials(seat, out);
                out.push(Action::EndTurn);
            }
            Phase::Keep { .. } => {
                let h = &car.hidden;
                out.push(Action::Keep { parts: [None, None] });
                for (a, pa) in h.iter().enumerate() {
                    out.push(Action::Keep { parts: [Some(*pa), None] });
                    for pb in &h[a + 1..] {
                        out.push(Action::Keep { parts: [Some(*pa), Some(*pb)] });
                    }
                }
            }
            Phase::Over => {}
        }
    }

    /// What `viewer` may see.
    pub fn view(&self, viewer: Option<Seat>) -> View {
        let mut hand = viewer.and_then(|s| self.car(s)).map(|c| c.hidden.clone()).unwrap_or_default();
        hand.sort();
        View {
            viewer,
            players: self.players,
            turn: self.turn,
            phase: self.phase,
            time: self.calendar.time,
            cars: self
                .cars
                .iter()
                .map(|c| CarView {
                    at: c.at,
                    returning: c.returning,
                    waiting: c.waiting,
                    repair: c.repair,
                    fitted: c.fitted,
                    hidden: c.hidden.len() as u8,
                    checks: c.checks,
                    scores: c.scores,
                })
                .collect(),
            hand,
            pile: self.pile.len() as u8,
        }
    }

    /// `event` as `viewer` may see it: a bought, stolen or exchanged part only by those who
    /// held it.
    pub fn event_for(&self, event: &Event, viewer: Option<Seat>) -> Event {
        let sees = |a: Seat, b: Seat| viewer == Some(a) || viewer == Some(b);
        match *event {
            Event::Bought { seat, part } => Event::Bought { seat, part: part.filter(|_| viewer == Some(seat)) },
            Event::Stole { seat, from, part } => Event::Stole { seat, from, part: part.filter(|_| sees(seat, from)) },
            Event::Exchanged { seat, with, got, gave } => {
                let open = sees(seat, with);
                Event::Exchanged { seat, with, got: got.filter(|_| open), gave: gave.filter(|_| open) }
            }
            ref other => other.clone(),
        }
    }

    /// E-13.2: places once the game is over.
    pub fn standings(&self) -> Option<Vec<bolide_table::Standing>> {
        if !self.is_over() {
            return None;
        }
        Some(bolide_table::rank(self.cars.iter().enumerate().map(|(i, c)| {
            let meetings = c.scores.iter().flatten().count() as u8;
            (Seat(i as u8), u32::from(c.total()), if self.settings.ties == Ties::MeetingsFirst { meetings } else { 0 })
        })))
    }
}

#[cfg(test)]
impl Rallye {
    /// The state a rule test starts from.
    pub(crate) fn arrange(&mut self, f: impl FnOnce(&mut Vec<Car>, &mut Calendar, &mut Vec<Part>)) {
        f(&mut self.cars, &mut self.calendar, &mut self.pile);
    }

    /// This turn's die, as if rolled.
    pub(crate) fn set_die(&mut self, seat: Seat, die: u8) {
        self.turn = seat;
        self.phase = Phase::Drive { die };
    }

    /// `seat` rolls `die`, as if the die had shown it.
    pub(crate) fn roll_as(&mut self, seat: Seat, die: u8, events: &mut Vec<Event>) {
        self.turn = seat;
        self.rolled(seat, die, events);
    }
}
