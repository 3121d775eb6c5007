//! Arranging a situation, for the scenario runner: a car anywhere on the road with its parts,
//! marker, checks and scores, the calendar, the top of the draw pile, whose turn, the die's
//! next roll. Every part placed is taken from the pile, so the 48 stay whole; nothing a seat
//! sends reaches these.

use super::{Car, Check, Phase, REPAIR_MAX, Rallye};
use crate::board::board;
use crate::calendar::Calendar;
use crate::event::Event;
use crate::part::Part;
use bolide_table::Seat;
use thiserror::Error;

/// Why a situation cannot be arranged: each names the rule it would break.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ArrangeError {
    #[error("E-1.1: there is no seat {} at this table", seat.number())]
    NoSuchSeat { seat: Seat },
    #[error("E-14.7: {} is not in the draw pile to place (each part exists once)", part.id())]
    NotInPile { part: Part },
    #[error("E-7.5: {} goes on its own section, one part a section", part.id())]
    Section { part: Part },
    #[error("E-9.1: the repair marker goes from 0 to 20, not {repair}")]
    Repair { repair: u8 },
    #[error("E-11.6: a car waits only on the meeting M1, M2 or M3 it waits for")]
    Waiting,
    #[error("E-12.2: only a car on a check's spur drives back out of it")]
    Returning,
    #[error("E-7.7: a meeting scores at most 24 points")]
    Score,
    #[error("E-3.1: the calendar runs January to December, steps 1 to {players}")]
    Calendar { players: u8 },
}

/// One car as a situation places it.
#[derive(Debug, Clone, Default)]
pub struct CarSetup {
    pub at: Option<crate::board::Square>,
    pub returning: bool,
    /// The meeting it waits at (0 = M1).
    pub waiting: Option<u8>,
    pub repair: u8,
    pub fitted: Vec<Part>,
    pub hidden: Vec<Part>,
    pub checks: Option<[Check; 2]>,
    pub scores: Option<[Option<u8>; 4]>,
}

impl Rallye {
    fn take_from_pile(&mut self, part: Part) -> Result<Part, ArrangeError> {
        let at = self.pile.iter().position(|p| *p == part).ok_or(ArrangeError::NotInPile { part })?;
        Ok(self.pile.remove(at))
    }

    /// Places `seat`'s car as `setup` says (its old parts back in the pile first); a set-up
    /// that breaks a rule of the car itself changes nothing.
    pub fn arrange_car(&mut self, seat: Seat, setup: &CarSetup) -> Result<(), ArrangeError> {
        let b = board();
        if self.cars.get(seat.index()).is_none() {
            return Err(ArrangeError::NoSuchSeat { seat });
        }
        let mut car = Car::new(setup.at.filter(|s| b.has(*s)).unwrap_or(b.start));
        if setup.repair > REPAIR_MAX {
            return Err(ArrangeError::Repair { repair: setup.repair });
        }
        car.repair = setup.repair;
        if let Some(m) = setup.waiting
            && (m >= 3 || b.meetings.get(usize::from(m)) != Some(&car.at))
        {
            return Err(ArrangeError::Waiting);
        }
        car.waiting = setup.waiting;
        if setup.returning && b.spur(car.at).is_none() {
            return Err(ArrangeError::Returning);
        }
        car.returning = setup.returning;
        car.checks = setup.checks.unwrap_or([Check::Owed; 2]);
        if let Some(scores) = setup.scores {
            if scores.iter().flatten().any(|p| *p > 24) {
                return Err(ArrangeError::Score);
            }
            car.scores = scores;
        }
        // The set-up reads right: the old car's parts go back, then the new ones are taken.
        let old = self.cars.get_mut(seat.index()).ok_or(ArrangeError::NoSuchSeat { seat })?;
        let mut back: Vec<Part> = old.fitted.iter_mut().filter_map(Option::take).collect();
        back.append(&mut old.hidden);
        self.pile.extend(back);
        for &part in &setup.fitted {
            let section = part.section().index();
            if !part.is_card() || car.fitted[section].is_some() {
                return Err(ArrangeError::Section { part });
            }
            car.fitted[section] = Some(self.take_from_pile(part)?);
        }
        for &part in &setup.hidden {
            car.hidden.push(self.take_from_pile(part)?);
        }
        if let Some(slot) = self.cars.get_mut(seat.index()) {
            *slot = car;
        }
        Ok(())
    }

    /// Sets the calendar at `month`/`step` (E-3.4).
    pub fn arrange_calendar(&mut self, month: u8, step: u8) -> Result<(), ArrangeError> {
        if !(1..=12).contains(&month) || !(1..=self.players).contains(&step) {
            return Err(ArrangeError::Calendar { players: self.players });
        }
        self.calendar = Calendar::at(self.players, month, step);
        Ok(())
    }

    /// Puts `parts` on top of the draw pile, the first drawn first.
    pub fn arrange_draw_top(&mut self, parts: &[Part]) -> Result<(), ArrangeError> {
        let mut top = Vec::with_capacity(parts.len());
        for &part in parts {
            top.push(self.take_from_pile(part)?);
        }
        self.pile.extend(top.into_iter().rev());
        Ok(())
    }

    /// Makes it `seat`'s turn, before its roll.
    pub fn arrange_turn(&mut self, seat: Seat) -> Result<(), ArrangeError> {
        if seat.0 >= self.players {
            return Err(ArrangeError::NoSuchSeat { seat });
        }
        self.turn = seat;
        self.phase = Phase::Roll;
        Ok(())
    }

    /// `seat` rolls, and the die shows `die` instead of the seed's (held to 1–6): the die's
    /// next roll a scenario names. The roll is refused as `Action::Roll` would be.
    pub fn arrange_roll(&mut self, seat: Seat, die: u8, events: &mut Vec<Event>) -> Result<(), crate::RuleError> {
        self.check(seat, crate::action::Action::Roll)?;
        self.rolled(seat, die.clamp(1, 6), events);
        Ok(())
    }
}
