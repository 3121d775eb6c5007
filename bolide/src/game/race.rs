//! One race as a pure state machine: `apply(seat, action)` in, events out (B-1 … B-6).
//!
//! Every action goes through [`Race::check`] (pure, names the rule it enforces) and only then
//! through `perform` (mutation, cannot fail). So a refused action leaves the state exactly as
//! it was, and [`Race::legal_actions`] — the candidates that pass `check` — can never disagree
//! with [`Race::apply`].

use super::setup::{RaceSetup, SetupError, StartState};
use crate::dice::RaceDice;
use crate::model::{FINISH, MAX_PILOTS, MIN_PILOTS, START, speed};
use crate::movement::Road;
use crate::view::{CarView, PawnView, PhaseView, StarView, TurnStep, TurnView};
use crate::{
    Action, Atout, Atouts, BonusKind, Bonuses, Circuit, Event, FirstPlayer, Pawn, PlayerView, RuleError, Seat,
};
#[cfg(test)]
use rand::{RngExt, SeedableRng};
#[cfg(test)]
use rand_chacha::ChaCha8Rng;

/// Second Chance tokens in the supply at the start (B-1.4).
pub const SECOND_CHANCE_SUPPLY: u8 = 6;

/// Where the race stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// B-4.1: reservoirs rolled under the cup; Klaxon calls are open.
    CupDown,
    /// B-4.6: the cup is up; Klaxon pilots choose in call order.
    KlaxonPicks,
    /// B-4.2, B-4.3: everyone grabs.
    Grab,
    /// B-4.7: the Échange window.
    Echange,
    /// B-5: one pilot after another.
    Movement,
    /// B-6.3: the race is over.
    Over,
}

/// One pilot's car and the tokens in front of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Car {
    pub position: u8,
    /// Atouts still held (B-1.3); the ones missing are the used ones (B-5.13).
    pub atouts: Atouts,
    /// Bonus tokens held face up, ready for a later round (B-5.5).
    pub bonuses: Bonuses,
    pub second_chance: bool,
    /// Panne Sèche taken: forces next round's reservoir to 1 (B-4.8).
    pub panne_seche_pending: bool,
    /// Panne Sèche in force this round.
    pub panne_seche: bool,
    /// B-5.7: the one special token of this round is spent.
    pub token_used: bool,
    pub pawn: Option<Pawn>,
}

impl Car {
    fn fresh() -> Car {
        Car {
            position: START,
            atouts: Atouts::ALL,
            bonuses: Bonuses::NONE,
            second_chance: false,
            panne_seche_pending: false,
            panne_seche: false,
            token_used: false,
            pawn: None,
        }
    }
}

/// The pilot whose turn it is, and how far into it (B-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Turn {
    seat: Seat,
    step: TurnStep,
    /// Position when the turn began, before the Lanterne Rouge move (B-5.4).
    start: u8,
    /// The reservoir value in force (1 under Panne Sèche, B-4.8).
    reservoir: u8,
    accelerator: Option<u8>,
    /// As de la route: no limit checks this move (B-5.8).
    unchecked: bool,
    points_left: u8,
    raccourci_used: bool,
    /// Bit `p` set: the car entered position `p` this turn (B-5.14).
    entered: u64,
}

impl Turn {
    fn speed(&self) -> Option<u8> {
        if self.unchecked { None } else { self.accelerator.map(|a| speed(self.reservoir, a)) }
    }
    /// B-5.3 ruling: having moved, the pilot may stop; before that, at least one tile.
    fn has_moved(&self) -> bool {
        self.points_left < self.reservoir
    }
    /// B-5.9 ruling: the whole reservoir was moved, or the car reached the finish.
    fn full_move(&self, position: u8) -> bool {
        self.points_left == 0 || position == FINISH
    }
    fn enter(&mut self, from: u8, to: u8) {
        for p in from + 1..=to {
            self.entered |= 1 << p;
        }
    }
}

/// A star tile and the face-down bonus still on it, if any (B-1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Star {
    tile: u8,
    bonus: Option<BonusKind>,
}

/// The whole state of one race. `Copy`-sized data only (no heap), so a clone for bot
/// look-ahead is one `memcpy` (see `size_of::<Race>()` in the README).
#[derive(Debug, Clone, PartialEq)]
pub struct Race {
    circuit: Circuit,
    pilots: u8,
    race_no: u8,
    cars: [Car; MAX_PILOTS],
    stars: [Star; 6],
    oil: Option<u8>,
    lanterne_rouge: Option<Seat>,
    second_chance_supply: u8,
    first_player: Seat,
    round: u16,
    phase: Phase,
    /// Reservoir values by pawn (B-1.2), secret until revealed (B-4.6).
    reservoirs: [u8; MAX_PILOTS],
    /// On-screen order of the pawns (B-4.5).
    pawn_order: [Pawn; MAX_PILOTS],
    pawn_owner: [Option<Seat>; MAX_PILOTS],
    /// Klaxon callers in call order; `klaxon_next` of them have chosen (B-4.6).
    klaxon_calls: [Seat; MAX_PILOTS],
    klaxon_len: u8,
    klaxon_next: u8,
    /// Seats still to decide in the Échange window, as a bit set (B-4.7).
    echange_pending: u8,
    echange_drill: bool,
    /// Turns begun this round, counted from the first player (B-5).
    turns_begun: u8,
    turn: Turn,
    finish_order: [Seat; MAX_PILOTS],
    finished: u8,
    /// Every draw of this race comes from its seed, each at its own place (provably fair).
    dice: RaceDice,
    forced_accelerator: Option<u8>,
}

impl Race {
    /// Sets a race up (B-1) and rolls the reservoirs of its first round (B-4.1).
    pub fn new(setup: &RaceSetup) -> Result<Race, SetupError> {
        let pilots = setup.pilots;
        if !(MIN_PILOTS..=MAX_PILOTS).contains(&(pilots as usize)) {
            return Err(SetupError::Pilots { pilots });
        }
        let dice = RaceDice::new(setup.seed);
        let first_player = match setup.first_player {
            FirstPlayer::Random => dice.first_player(pilots),
            FirstPlayer::Seat(seat) if seat.0 < pilots => seat,
            FirstPlayer::Seat(seat) => return Err(SetupError::NoSuchSeat { seat }),
        };
        // B-1.5: the six bonus kinds face down at random on the six stars.
        let kinds = match setup.bonuses {
            Some(kinds) => {
                for kind in BonusKind::ALL {
                    if !kinds.contains(&kind) {
                        return Err(SetupError::BonusSet);
                    }
                }
                kinds
            }
            None => dice.bonuses(),
        };
        let star_tiles = setup.circuit.stars();
        let stars = std::array::from_fn(|i| Star { tile: star_tiles[i], bonus: Some(kinds[i]) });
        let mut race = Race {
            circuit: setup.circuit,
            pilots,
            race_no: setup.race,
            cars: [Car::fresh(); MAX_PILOTS],
            stars,
            oil: None,
            lanterne_rouge: None,
            second_chance_supply: SECOND_CHANCE_SUPPLY,
            first_player,
            round: 0,
            phase: Phase::CupDown,
            reservoirs: [0; MAX_PILOTS],
            pawn_order: std::array::from_fn(|i| Pawn(i as u8)),
            pawn_owner: [None; MAX_PILOTS],
            klaxon_calls: [Seat(0); MAX_PILOTS],
            klaxon_len: 0,
            klaxon_next: 0,
            echange_pending: 0,
            echange_drill: setup.echange_drill,
            turns_begun: 0,
            turn: Turn {
                seat: first_player,
                step: TurnStep::BeforeRoll,
                start: START,
                reservoir: 0,
                accelerator: None,
                unchecked: false,
                points_left: 0,
                raccourci_used: false,
                entered: 0,
            },
            finish_order: [Seat(0); MAX_PILOTS],
            finished: 0,
            dice,
            forced_accelerator: None,
        };
        race.begin_round(&mut Vec::new());
        Ok(race)
    }

    /// The events that open the race, for the log of a race made with [`Race::new`].
    pub fn opening_events(&self) -> Vec<Event> {
        vec![Event::RaceStarted { race: self.race_no, first_player: self.first_player }, self.round_started_event()]
    }

    /// Applies a scenario's starting state (positions, tokens, oil, Lanterne Rouge). Only
    /// before anything happened in the first round.
    pub fn set_start(&mut self, start: &StartState) -> Result<(), SetupError> {
        if self.round != 1 || self.phase != Phase::CupDown || self.klaxon_len != 0 {
            return Err(SetupError::TooLate);
        }
        let mut next = self.clone();
        for car in &start.cars {
            if car.seat.0 >= next.pilots {
                return Err(SetupError::NoSuchSeat { seat: car.seat });
            }
            // A car on the finish line has finished: no race starts there.
            if car.position >= FINISH {
                return Err(SetupError::Position { seat: car.seat, position: car.position });
            }
            let c = &mut next.cars[car.seat.index()];
            c.position = car.position;
            if let Some(atouts) = &car.atouts {
                c.atouts = atouts.iter().copied().collect();
            }
            if let Some(bonuses) = &car.bonuses {
                for &kind in bonuses {
                    // A held bonus is no longer on its star (token conservation, B-1.5).
                    let star = next.stars.iter_mut().find(|s| s.bonus == Some(kind));
                    match star {
                        Some(star) => star.bonus = None,
                        None => return Err(SetupError::BonusHeldTwice { kind }),
                    }
                    if kind == BonusKind::PanneSeche {
                        // B-4.8: held Panne Sèche takes effect this (first) round.
                        let c = &mut next.cars[car.seat.index()];
                        c.panne_seche = true;
                        c.token_used = true;
                    } else {
                        next.cars[car.seat.index()].bonuses.insert(kind);
                    }
                }
            }
            if car.second_chance {
                if next.second_chance_supply == 0 {
                    return Err(SetupError::SecondChanceSupply);
                }
                next.second_chance_supply -= 1;
                next.cars[car.seat.index()].second_chance = true;
            }
        }
        for &tile in &start.empty_stars {
            match next.stars.iter_mut().find(|s| s.tile == tile) {
                Some(star) => star.bonus = None,
                None => return Err(SetupError::NotAStar { tile }),
            }
        }
        if let Some(tile) = start.oil {
            if !(1..FINISH).contains(&tile) {
                return Err(SetupError::OilTile { tile });
            }
            if next.stars.iter().any(|s| s.bonus == Some(BonusKind::Huile)) {
                // The Huile token is on the board still: it must be placed by a pilot.
                let star = next.stars.iter_mut().find(|s| s.bonus == Some(BonusKind::Huile));
                star.expect("checked").bonus = None;
            }
            next.oil = Some(tile);
        }
        if let Some(seat) = start.lanterne_rouge.filter(|s| s.0 >= next.pilots) {
            return Err(SetupError::NoSuchSeat { seat });
        }
        next.lanterne_rouge = start.lanterne_rouge;
        *self = next;
        Ok(())
    }

    /// Tests and scenarios: the reservoir values of this round, by pawn, instead of the roll.
    pub fn force_reservoirs(&mut self, values: &[u8]) -> Result<(), SetupError> {
        if self.phase != Phase::CupDown {
            return Err(SetupError::TooLate);
        }
        if values.len() != self.pilots as usize || values.iter().any(|v| !(1..=6).contains(v)) {
            return Err(SetupError::Dice { expected: self.pilots });
        }
        self.reservoirs[..values.len()].copy_from_slice(values);
        Ok(())
    }

    /// Tests and scenarios: the next accelerator roll (B-5.2, B-5.10) instead of the die.
    pub fn force_accelerator(&mut self, value: u8) -> Result<(), SetupError> {
        if !(1..=6).contains(&value) {
            return Err(SetupError::Dice { expected: 1 });
        }
        self.forced_accelerator = Some(value);
        Ok(())
    }

    // ----- read access -----

    pub fn pilots(&self) -> u8 {
        self.pilots
    }
    pub fn seats(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.pilots).map(Seat)
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn round(&self) -> u16 {
        self.round
    }
    pub fn race_no(&self) -> u8 {
        self.race_no
    }
    pub fn circuit(&self) -> &Circuit {
        &self.circuit
    }
    pub fn road(&self) -> Road<'_> {
        Road::new(&self.circuit, self.oil)
    }
    pub fn car(&self, seat: Seat) -> &Car {
        &self.cars[seat.index()]
    }
    pub fn cars(&self) -> &[Car] {
        &self.cars[..self.pilots as usize]
    }
    pub fn first_player(&self) -> Seat {
        self.first_player
    }
    pub fn lanterne_rouge(&self) -> Option<Seat> {
        self.lanterne_rouge
    }
    pub fn oil(&self) -> Option<u8> {
        self.oil
    }
    pub fn second_chance_supply(&self) -> u8 {
        self.second_chance_supply
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    /// Bonus kinds still face down on the board, with their tiles. A secret: only the engine,
    /// omniscient tools (scenario output) and tests read it, never a view.
    pub fn face_down_bonuses(&self) -> impl Iterator<Item = (u8, BonusKind)> + '_ {
        self.stars.iter().filter_map(|s| s.bonus.map(|b| (s.tile, b)))
    }
    /// Stars still holding a face-down token (public: everyone sees the token, not its face).
    pub fn face_down_stars(&self) -> impl Iterator<Item = u8> + '_ {
        self.stars.iter().filter(|s| s.bonus.is_some()).map(|s| s.tile)
    }
    /// Seats that crossed, in crossing order (B-5.6).
    pub fn finish_order(&self) -> &[Seat] {
        &self.finish_order[..self.finished as usize]
    }
    /// The seat whose movement turn it is.
    pub fn active_seat(&self) -> Option<Seat> {
        (self.phase == Phase::Movement).then_some(self.turn.seat)
    }
    /// Klaxon callers in call order (public: called out loud).
    pub fn klaxon_calls(&self) -> &[Seat] {
        &self.klaxon_calls[..self.klaxon_len as usize]
    }
    /// The Klaxon pilot who chooses now, during [`Phase::KlaxonPicks`].
    pub fn klaxon_picker(&self) -> Option<Seat> {
        (self.phase == Phase::KlaxonPicks).then(|| self.klaxon_calls[self.klaxon_next as usize])
    }
    pub fn pawn_owner(&self, pawn: Pawn) -> Option<Seat> {
        self.pawn_owner[pawn.index()]
    }
    /// Pawns in their on-screen order (B-4.5).
    pub fn pawn_order(&self) -> &[Pawn] {
        &self.pawn_order[..self.pilots as usize]
    }
    /// The reservoir values `seat` may see now, by pawn: all of them once revealed, or to a
    /// Klaxon pilot from its peek on (B-4.6); `None` while they are under the cup for it.
    pub fn visible_reservoirs(&self, seat: Seat) -> Option<&[u8]> {
        self.reservoirs_seen_by(Some(seat))
    }

    /// As [`Race::visible_reservoirs`]; `None` as viewer is a spectator, who sees them only
    /// once they are public.
    fn reservoirs_seen_by(&self, viewer: Option<Seat>) -> Option<&[u8]> {
        let visible = match self.phase {
            Phase::CupDown => false,
            Phase::KlaxonPicks => viewer.is_some_and(|v| self.klaxon_calls[..=self.klaxon_next as usize].contains(&v)),
            _ => true,
        };
        visible.then(|| &self.reservoirs[..self.pilots as usize])
    }
    /// The reservoir value in force for `seat` this round, once it holds a pawn (B-4.4, B-4.8).
    pub fn reservoir_of(&self, seat: Seat) -> Option<u8> {
        let car = self.car(seat);
        car.pawn.map(|p| if car.panne_seche { 1 } else { self.reservoirs[p.index()] })
    }
    /// During a movement turn: the accelerator, speed and points left.
    pub fn turn_state(&self) -> Option<TurnView> {
        (self.phase == Phase::Movement).then(|| self.turn_view())
    }

    // ----- the entry point -----

    /// Applies `action` for `seat` and returns what happened; on error nothing changed.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`Race::apply`] into a caller's buffer, for hot loops that reuse it.
    pub fn apply_into(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check(seat, action)?;
        self.perform(seat, action, events);
        Ok(())
    }

    /// Everything `seat` may do now. The client renders this list instead of re-deriving the
    /// rules.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// [`Race::legal_actions`] into a caller's buffer (cleared first).
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if seat.0 >= self.pilots {
            return;
        }
        let consider = |out: &mut Vec<Action>, action: Action| {
            if self.check(seat, action).is_ok() {
                out.push(action);
            }
        };
        match self.phase {
            Phase::CupDown => {
                consider(out, Action::Klaxon);
                consider(out, Action::Lift);
            }
            Phase::KlaxonPicks | Phase::Grab => {
                let my_pick =
                    self.car(seat).pawn.is_none() && (self.phase == Phase::Grab || self.klaxon_picker() == Some(seat));
                if my_pick {
                    for &pawn in self.pawn_order() {
                        if self.pawn_owner[pawn.index()].is_none() {
                            debug_assert!(self.check(seat, Action::TakePawn { pawn }).is_ok());
                            out.push(Action::TakePawn { pawn });
                        }
                    }
                }
            }
            Phase::Echange => {
                for with in self.seats() {
                    consider(out, Action::Echange { with });
                }
                consider(out, Action::KeepPawn);
            }
            Phase::Movement if self.turn.seat == seat => {
                // Candidates that cannot pass are skipped before `check` (it would refuse them
                // anyway): this list is built for every bot decision, so it is kept lean.
                let car = self.car(seat);
                let free = !car.token_used;
                match self.turn.step {
                    TurnStep::BeforeRoll => {
                        debug_assert!(self.check(seat, Action::Roll).is_ok());
                        out.push(Action::Roll);
                        if free && car.atouts.contains(Atout::AsDeLaRoute) {
                            consider(out, Action::AsDeLaRoute);
                        }
                        if free && car.bonuses.contains(BonusKind::Aspiration) {
                            consider(out, Action::Aspiration);
                        }
                    }
                    TurnStep::Moving => {
                        if free && car.second_chance {
                            consider(out, Action::SecondChance);
                        }
                        if free && car.bonuses.contains(BonusKind::Raccourci) {
                            for tiles_before in 0..self.turn.points_left {
                                consider(out, Action::Raccourci { tiles_before });
                            }
                        }
                        let (min, max) = self.move_range(seat);
                        for tiles in min..=max {
                            debug_assert!(self.check(seat, Action::Move { tiles }).is_ok());
                            out.push(Action::Move { tiles });
                        }
                    }
                    TurnStep::AfterMove => {
                        if free && car.atouts.contains(Atout::Nitro) {
                            consider(out, Action::Nitro);
                        }
                        let mut entered =
                            if free && car.bonuses.contains(BonusKind::Huile) { self.turn.entered } else { 0 };
                        while entered != 0 {
                            let tile = entered.trailing_zeros() as u8;
                            consider(out, Action::Huile { tile });
                            entered &= entered - 1;
                        }
                        debug_assert!(self.check(seat, Action::EndTurn).is_ok());
                        out.push(Action::EndTurn);
                    }
                }
                if free && car.bonuses.contains(BonusKind::Assistance) {
                    for atout in Atout::ALL {
                        consider(out, Action::Assistance { atout });
                    }
                }
            }
            Phase::Movement | Phase::Over => {}
        }
    }

    /// Whether `seat` may play `action` now, and if not, which rule says no.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if seat.0 >= self.pilots {
            return Err(RuleError::NoSuchSeat { seat });
        }
        if self.phase == Phase::Over {
            return Err(RuleError::RaceOver);
        }
        let car = self.car(seat);
        let wrong_phase = || RuleError::WrongPhase { action, phase: self.phase_name().into() };
        match action {
            Action::Klaxon => {
                match self.phase {
                    Phase::CupDown => {}
                    Phase::KlaxonPicks | Phase::Grab => return Err(RuleError::KlaxonTooLate),
                    _ => return Err(wrong_phase()),
                }
                if self.klaxon_calls().contains(&seat) {
                    return Err(RuleError::KlaxonAlreadyCalled);
                }
                spend_atout_check(car, Atout::Klaxon)
            }
            Action::Lift => {
                if self.phase != Phase::CupDown {
                    return Err(wrong_phase());
                }
                if seat != self.first_player {
                    return Err(RuleError::NotTheFirstPlayer { first_player: self.first_player });
                }
                Ok(())
            }
            Action::TakePawn { pawn } => {
                match self.phase {
                    Phase::CupDown => return Err(RuleError::CupNotLifted),
                    Phase::KlaxonPicks => {
                        let next = self.klaxon_calls[self.klaxon_next as usize];
                        if next != seat {
                            return Err(RuleError::KlaxonChoosesFirst { next });
                        }
                    }
                    Phase::Grab => {}
                    _ => return Err(wrong_phase()),
                }
                if pawn.0 >= self.pilots {
                    return Err(RuleError::NoSuchPawn { pawn });
                }
                if car.pawn.is_some() {
                    return Err(RuleError::AlreadyHoldsPawn);
                }
                if self.pawn_owner[pawn.index()].is_some() {
                    return Err(RuleError::PawnTaken { pawn });
                }
                Ok(())
            }
            Action::Echange { with } => {
                self.check_echange_window(seat, action)?;
                if with == seat {
                    return Err(RuleError::EchangeWithSelf);
                }
                if with.0 >= self.pilots {
                    return Err(RuleError::NoSuchSeat { seat: with });
                }
                spend_bonus_check(car, BonusKind::Echange)
            }
            Action::KeepPawn => self.check_echange_window(seat, action),
            Action::Roll => self.check_step(seat, TurnStep::BeforeRoll, action),
            Action::AsDeLaRoute => {
                self.check_step(seat, TurnStep::BeforeRoll, action)
                    .map_err(|e| if self.turn.step == TurnStep::BeforeRoll { e } else { RuleError::AlreadyRolled })?;
                spend_atout_check(car, Atout::AsDeLaRoute)
            }
            Action::Aspiration => {
                self.check_step(seat, TurnStep::BeforeRoll, action)?;
                spend_bonus_check(car, BonusKind::Aspiration)?;
                self.aspiration_target(seat).map(|_| ())
            }
            Action::SecondChance => {
                self.check_step(seat, TurnStep::Moving, action)?;
                if self.turn.accelerator.is_none() || self.turn.unchecked || self.turn.has_moved() {
                    return Err(wrong_phase());
                }
                if !car.second_chance {
                    return Err(RuleError::NoSecondChance);
                }
                if car.token_used {
                    return Err(RuleError::TokenAlreadyUsed);
                }
                Ok(())
            }
            Action::Raccourci { tiles_before } => {
                self.check_step(seat, TurnStep::Moving, action)?;
                spend_bonus_check(car, BonusKind::Raccourci)?;
                self.raccourci_landing(seat, tiles_before).map(|_| ())
            }
            Action::Move { tiles } => {
                self.check_step(seat, TurnStep::Moving, action)?;
                let (min, max) = self.move_range(seat);
                if tiles < min || tiles > max {
                    return Err(RuleError::MoveOutOfRange { tiles, min, max });
                }
                Ok(())
            }
            Action::Nitro => {
                self.check_step(seat, TurnStep::AfterMove, action)?;
                spend_atout_check(car, Atout::Nitro)?;
                if !self.turn.full_move(car.position) || car.position == FINISH {
                    return Err(RuleError::NitroNotEarned);
                }
                Ok(())
            }
            Action::Assistance { atout } => {
                self.check_own_turn(seat, action)?;
                spend_bonus_check(car, BonusKind::Assistance)?;
                if car.atouts.contains(atout) {
                    return Err(RuleError::AtoutNotUsed { atout });
                }
                Ok(())
            }
            Action::Huile { tile } => {
                self.check_step(seat, TurnStep::AfterMove, action)?;
                spend_bonus_check(car, BonusKind::Huile)?;
                if tile >= FINISH || self.turn.entered & (1 << tile) == 0 {
                    return Err(RuleError::HuileNotEntered { tile });
                }
                Ok(())
            }
            Action::EndTurn => self.check_step(seat, TurnStep::AfterMove, action),
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::CupDown => "the cup is down",
            Phase::KlaxonPicks => "Klaxon pilots are choosing",
            Phase::Grab => "the grab",
            Phase::Echange => "the Échange window",
            Phase::Movement => match self.turn.step {
                TurnStep::BeforeRoll => "before the roll",
                TurnStep::Moving => "the move",
                TurnStep::AfterMove => "after the move",
            },
            Phase::Over => "the race is over",
        }
    }

    fn check_own_turn(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.phase != Phase::Movement {
            return Err(RuleError::WrongPhase { action, phase: self.phase_name().into() });
        }
        if self.turn.seat != seat {
            return Err(if self.car(seat).position == FINISH {
                RuleError::Finished
            } else {
                RuleError::NotYourTurn { active: self.turn.seat }
            });
        }
        Ok(())
    }

    fn check_step(&self, seat: Seat, step: TurnStep, action: Action) -> Result<(), RuleError> {
        self.check_own_turn(seat, action)?;
        if self.turn.step == step {
            return Ok(());
        }
        Err(match (self.turn.step, step) {
            (TurnStep::BeforeRoll, _) => RuleError::NotRolled,
            (TurnStep::AfterMove, TurnStep::Moving) => RuleError::AlreadyMoved,
            (TurnStep::Moving, TurnStep::BeforeRoll) => RuleError::AlreadyRolled,
            _ => RuleError::WrongPhase { action, phase: self.phase_name().into() },
        })
    }

    fn check_echange_window(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.phase != Phase::Echange {
            return Err(RuleError::WrongPhase { action, phase: self.phase_name().into() });
        }
        if self.echange_pending & (1 << seat.0) == 0 {
            return Err(RuleError::EchangeDecided);
        }
        Ok(())
    }

    /// B-5.3: the legal number of tiles for a `Move` now, `(min, max)`.
    pub fn move_range(&self, seat: Seat) -> (u8, u8) {
        let car = self.car(seat);
        let max = self.road().reach(car.position, self.turn.points_left, self.turn.speed());
        let min = if max >= 1 && !self.turn.has_moved() { 1 } else { 0 };
        (min, max)
    }

    /// B-5.12: the tile just behind the nearest car ahead.
    fn aspiration_target(&self, seat: Seat) -> Result<u8, RuleError> {
        let me = self.car(seat).position;
        let ahead = self.cars().iter().map(|c| c.position).filter(|&p| p > me).min();
        match ahead {
            Some(p) if p - 1 > me => Ok(p - 1),
            _ => Err(RuleError::NoCarAhead),
        }
    }

    /// B-5.11: where a Raccourci after `tiles_before` normal tiles lands.
    fn raccourci_landing(&self, seat: Seat, tiles_before: u8) -> Result<u8, RuleError> {
        if self.turn.raccourci_used {
            return Err(RuleError::RaccourciUsed);
        }
        let from = self.car(seat).position;
        let road = self.road();
        let speed = self.turn.speed();
        let reachable = road.reach(from, self.turn.points_left.saturating_sub(1), speed);
        let at = from + tiles_before;
        if tiles_before > reachable || tiles_before >= self.turn.points_left {
            return Err(RuleError::NoRaccourci { from: at.min(FINISH) });
        }
        match road.raccourci_landing(at) {
            Some(landing) if road.may_enter(landing, speed) => Ok(landing),
            _ => Err(RuleError::NoRaccourci { from: at }),
        }
    }

    // ----- mutation: only called once `check` said yes -----

    fn perform(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) {
        let s = seat.index();
        match action {
            Action::Klaxon => {
                self.spend_atout(seat, Atout::Klaxon);
                let order = self.klaxon_len;
                self.klaxon_calls[order as usize] = seat;
                self.klaxon_len += 1;
                events.push(Event::KlaxonCalled { seat, order });
            }
            Action::Lift => {
                events.push(Event::CupLifted);
                if self.klaxon_len > 0 {
                    self.phase = Phase::KlaxonPicks;
                    events.push(Event::KlaxonPeek { seat: self.klaxon_calls[0] });
                } else {
                    self.reveal(events);
                }
            }
            Action::TakePawn { pawn } => {
                self.give_pawn(seat, pawn, false, events);
                self.after_pawn_taken(events);
            }
            Action::Echange { with } => {
                self.spend_bonus(seat, BonusKind::Echange);
                let (mine, theirs) = (self.cars[s].pawn, self.cars[with.index()].pawn);
                self.cars[s].pawn = theirs;
                self.cars[with.index()].pawn = mine;
                if let Some(p) = theirs {
                    self.pawn_owner[p.index()] = Some(seat);
                }
                if let Some(p) = mine {
                    self.pawn_owner[p.index()] = Some(with);
                }
                events.push(Event::Echanged { seat, with });
                self.echange_decided(seat, events);
            }
            Action::KeepPawn => self.echange_decided(seat, events),
            Action::Roll => {
                let accelerator = self.roll_accelerator(seat, 0);
                self.turn.accelerator = Some(accelerator);
                self.turn.step = TurnStep::Moving;
                events.push(Event::Rolled { seat, accelerator, speed: speed(self.turn.reservoir, accelerator) });
            }
            Action::AsDeLaRoute => {
                self.spend_atout(seat, Atout::AsDeLaRoute);
                self.turn.unchecked = true;
                self.turn.step = TurnStep::Moving;
                events.push(Event::AsDeLaRoute { seat });
            }
            Action::Aspiration => {
                let to = self.aspiration_target(seat).expect("checked");
                self.spend_bonus(seat, BonusKind::Aspiration);
                let from = self.cars[s].position;
                self.turn.enter(from, to);
                self.cars[s].position = to;
                events.push(Event::Aspiration { seat, from, to });
            }
            Action::SecondChance => {
                self.cars[s].second_chance = false;
                self.cars[s].token_used = true;
                self.second_chance_supply += 1;
                let accelerator = self.roll_accelerator(seat, 1);
                self.turn.accelerator = Some(accelerator);
                events.push(Event::SecondChance { seat, accelerator, speed: speed(self.turn.reservoir, accelerator) });
            }
            Action::Raccourci { tiles_before } => {
                let landing = self.raccourci_landing(seat, tiles_before).expect("checked");
                self.spend_bonus(seat, BonusKind::Raccourci);
                let from = self.cars[s].position;
                let at = from + tiles_before;
                if tiles_before > 0 {
                    self.turn.enter(from, at);
                    events.push(Event::Moved { seat, from, to: at, blocked_at: None });
                }
                self.turn.entered |= 1 << landing;
                self.turn.points_left -= tiles_before + 1;
                self.turn.raccourci_used = true;
                self.cars[s].position = landing;
                events.push(Event::Raccourci { seat, from: at, to: landing });
                if self.turn.points_left == 0 {
                    self.turn.step = TurnStep::AfterMove;
                    self.maybe_end_turn(events);
                }
            }
            Action::Move { tiles } => {
                let (_, max) = self.move_range(seat);
                let from = self.cars[s].position;
                let to = from + tiles;
                let blocked = tiles == max && max < self.turn.points_left && to < FINISH;
                self.turn.enter(from, to);
                self.turn.points_left -= tiles;
                self.cars[s].position = to;
                self.turn.step = TurnStep::AfterMove;
                events.push(Event::Moved { seat, from, to, blocked_at: blocked.then_some(to + 1) });
                self.maybe_cross(seat, events);
                self.maybe_end_turn(events);
            }
            Action::Nitro => {
                self.spend_atout(seat, Atout::Nitro);
                let from = self.cars[s].position;
                self.turn.enter(from, from + 1);
                self.cars[s].position = from + 1;
                events.push(Event::Nitro { seat, from, to: from + 1 });
                self.maybe_cross(seat, events);
                self.maybe_end_turn(events);
            }
            Action::Assistance { atout } => {
                self.spend_bonus(seat, BonusKind::Assistance);
                self.cars[s].atouts.insert(atout);
                events.push(Event::Assistance { seat, atout });
                if self.turn.step == TurnStep::AfterMove {
                    self.maybe_end_turn(events);
                }
            }
            Action::Huile { tile } => {
                self.spend_bonus(seat, BonusKind::Huile);
                self.oil = Some(tile);
                events.push(Event::Huile { seat, tile });
                self.maybe_end_turn(events);
            }
            Action::EndTurn => self.end_turn(events),
        }
    }

    fn spend_atout(&mut self, seat: Seat, atout: Atout) {
        let car = &mut self.cars[seat.index()];
        car.atouts.remove(atout);
        car.token_used = true;
    }

    fn spend_bonus(&mut self, seat: Seat, kind: BonusKind) {
        let car = &mut self.cars[seat.index()];
        car.bonuses.remove(kind);
        car.token_used = true;
    }

    /// B-5.2 (`attempt` 0) and B-5.10 (`attempt` 1): the accelerator die of `seat` this round.
    fn roll_accelerator(&mut self, seat: Seat, attempt: u8) -> u8 {
        self.forced_accelerator.take().unwrap_or_else(|| self.dice.accelerator(self.round, seat, attempt))
    }

    // ----- B-4: the simultaneous phase -----

    /// B-4.1, B-4.5, B-4.8: a new round: reservoirs rolled, pawns laid out anew.
    fn begin_round(&mut self, events: &mut Vec<Event>) {
        self.round += 1;
        self.phase = Phase::CupDown;
        self.klaxon_len = 0;
        self.klaxon_next = 0;
        self.pawn_owner = [None; MAX_PILOTS];
        for car in &mut self.cars {
            car.pawn = None;
            car.token_used = false;
            if self.echange_drill {
                car.bonuses.insert(BonusKind::Echange);
            }
            car.panne_seche = false;
            if car.panne_seche_pending {
                // B-4.8, B-5.7: forced, and it is this round's special token.
                car.panne_seche_pending = false;
                car.panne_seche = true;
                car.token_used = true;
            }
        }
        let n = self.pilots as usize;
        let draw = self.dice.round(self.round, self.pilots);
        self.reservoirs[..n].copy_from_slice(&draw.reservoirs);
        self.pawn_order[..n].copy_from_slice(&draw.pawn_order);
        if self.round > 1 {
            events.push(self.round_started_event());
        }
        for seat in self.seats() {
            if self.cars[seat.index()].panne_seche && self.round > 1 {
                events.push(Event::PanneSeche { seat });
            }
        }
    }

    fn round_started_event(&self) -> Event {
        Event::RoundStarted {
            round: self.round,
            first_player: self.first_player,
            pawn_order: self.pawn_order().to_vec(),
        }
    }

    fn reveal(&mut self, events: &mut Vec<Event>) {
        self.phase = Phase::Grab;
        events.push(Event::ReservoirsRevealed { values: self.reservoirs[..self.pilots as usize].to_vec() });
    }

    fn give_pawn(&mut self, seat: Seat, pawn: Pawn, auto: bool, events: &mut Vec<Event>) {
        self.pawn_owner[pawn.index()] = Some(seat);
        self.cars[seat.index()].pawn = Some(pawn);
        events.push(Event::PawnTaken { seat, pawn, auto });
    }

    /// B-4.3, B-4.6: the next Klaxon pilot peeks, or everyone sees; the last pawn goes to the
    /// last pilot; once all are taken, the Échange window.
    fn after_pawn_taken(&mut self, events: &mut Vec<Event>) {
        if self.phase == Phase::KlaxonPicks {
            self.klaxon_next += 1;
            if self.klaxon_next < self.klaxon_len {
                events.push(Event::KlaxonPeek { seat: self.klaxon_calls[self.klaxon_next as usize] });
                if self.seats_without_pawn() > 1 {
                    return;
                }
            }
            self.reveal(events);
        }
        if self.seats_without_pawn() == 1 {
            let seat = self.seats().find(|s| self.cars[s.index()].pawn.is_none()).expect("one left");
            let pawn = self.pawn_order().iter().copied().find(|p| self.pawn_owner[p.index()].is_none());
            self.give_pawn(seat, pawn.expect("one left"), true, events);
        }
        if self.seats_without_pawn() == 0 {
            self.open_echange_window(events);
        }
    }

    fn seats_without_pawn(&self) -> usize {
        self.cars().iter().filter(|c| c.pawn.is_none()).count()
    }

    /// B-4.7: the window opens for pilots who hold Échange and may still use a token.
    fn open_echange_window(&mut self, events: &mut Vec<Event>) {
        let eligible: Vec<Seat> = self
            .seats()
            .filter(|s| {
                let c = self.car(*s);
                c.bonuses.contains(BonusKind::Echange) && !c.token_used
            })
            .collect();
        if eligible.is_empty() {
            self.begin_movement(events);
            return;
        }
        self.phase = Phase::Echange;
        self.echange_pending = eligible.iter().fold(0, |m, s| m | 1 << s.0);
        events.push(Event::EchangeWindow { seats: eligible });
    }

    fn echange_decided(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.echange_pending &= !(1 << seat.0);
        if self.echange_pending == 0 {
            self.begin_movement(events);
        }
    }

    // ----- B-5: movement -----

    fn begin_movement(&mut self, events: &mut Vec<Event>) {
        self.phase = Phase::Movement;
        self.turns_begun = 0;
        self.begin_next_turn(events);
    }

    /// B-5: the next pilot from the first player leftwards who has not crossed; B-5.1.
    fn begin_next_turn(&mut self, events: &mut Vec<Event>) {
        while self.turns_begun < self.pilots {
            let seat = Seat((self.first_player.0 + self.turns_begun) % self.pilots);
            self.turns_begun += 1;
            if self.cars[seat.index()].position == FINISH {
                continue;
            }
            let reservoir = self.reservoir_of(seat).expect("every pilot holds a pawn");
            let start = self.cars[seat.index()].position;
            self.turn = Turn {
                seat,
                step: TurnStep::BeforeRoll,
                start,
                reservoir,
                accelerator: None,
                unchecked: false,
                points_left: reservoir,
                raccourci_used: false,
                entered: 0,
            };
            events.push(Event::TurnStarted { seat });
            if self.lanterne_rouge == Some(seat) {
                let to = start + 1;
                self.turn.enter(start, to);
                self.cars[seat.index()].position = to;
                events.push(Event::LanterneRougeMove { seat, from: start, to });
                self.maybe_cross(seat, events);
                if to == FINISH {
                    self.end_turn(events);
                }
            }
            return;
        }
        self.end_round(events);
    }

    /// B-5.6: a car on the finish line has crossed.
    fn maybe_cross(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if self.cars[seat.index()].position == FINISH && !self.finish_order().contains(&seat) {
            self.finish_order[self.finished as usize] = seat;
            self.finished += 1;
            events.push(Event::Crossed { seat, place: self.finished });
        }
    }

    /// Ends the turn by itself when the pilot has nothing left to decide after the move.
    fn maybe_end_turn(&mut self, events: &mut Vec<Event>) {
        let seat = self.turn.seat;
        let car = self.car(seat);
        // Everything left after the move is a special token (B-5.7).
        let mut undecided = !car.token_used
            && (self.check(seat, Action::Nitro).is_ok()
                || (car.bonuses.contains(BonusKind::Assistance) && car.atouts.len() < 3)
                || (car.bonuses.contains(BonusKind::Huile) && self.turn.entered & !(1 << FINISH) != 0));
        if undecided && self.check(seat, Action::Nitro).is_err() {
            // Confirm through `check`, the one source of truth, before waiting on the pilot.
            let mut entered = self.turn.entered;
            undecided = Atout::ALL.iter().any(|&atout| self.check(seat, Action::Assistance { atout }).is_ok());
            while !undecided && entered != 0 {
                let tile = entered.trailing_zeros() as u8;
                undecided = self.check(seat, Action::Huile { tile }).is_ok();
                entered &= entered - 1;
            }
        }
        if !undecided {
            self.end_turn(events);
        }
    }

    /// B-5.5, B-5.4, then the next pilot.
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        let seat = self.turn.seat;
        let s = seat.index();
        let position = self.cars[s].position;
        if let Some(star) = self.stars.iter_mut().find(|st| st.tile == position && st.bonus.is_some()) {
            let kind = star.bonus.take().expect("checked");
            if kind == BonusKind::PanneSeche {
                self.cars[s].panne_seche_pending = true;
            } else {
                self.cars[s].bonuses.insert(kind);
            }
            events.push(Event::BonusTaken { seat, tile: position, kind });
        }
        if position == self.turn.start && !self.cars[s].second_chance && self.second_chance_supply > 0 {
            self.cars[s].second_chance = true;
            self.second_chance_supply -= 1;
            events.push(Event::SecondChanceTaken { seat });
        }
        events.push(Event::TurnEnded { seat });
        self.begin_next_turn(events);
    }

    // ----- B-6: end of a round -----

    fn end_round(&mut self, events: &mut Vec<Event>) {
        if self.finished > 0 {
            self.phase = Phase::Over;
            events.push(Event::RaceEnded { ranking: self.ranking() });
            return;
        }
        // B-6.1: alone in last position.
        let last = self.cars().iter().map(|c| c.position).min().expect("pilots");
        let mut at_last = self.seats().filter(|s| self.cars[s.index()].position == last);
        let alone = match (at_last.next(), at_last.next()) {
            (Some(seat), None) => Some(seat),
            _ => None,
        };
        self.lanterne_rouge = alone;
        events.push(Event::LanterneRouge { seat: alone });
        // B-6.2: the cup passes to the left.
        let round = self.round;
        self.first_player = Seat((self.first_player.0 + 1) % self.pilots);
        events.push(Event::RoundEnded { round, next_first_player: self.first_player });
        self.begin_round(events);
    }

    /// B-6.3: crossers in crossing order, then the others by position; equal positions share
    /// a rank. Returns (seat, rank) in ranking order.
    pub fn ranking(&self) -> Vec<(Seat, u8)> {
        let mut ranking: Vec<(Seat, u8)> =
            self.finish_order().iter().enumerate().map(|(i, s)| (*s, i as u8 + 1)).collect();
        let mut rest: Vec<Seat> = self.seats().filter(|s| !self.finish_order().contains(s)).collect();
        rest.sort_by_key(|s| std::cmp::Reverse(self.cars[s.index()].position));
        let crossed = ranking.len() as u8;
        for (i, seat) in rest.iter().enumerate() {
            let position = self.cars[seat.index()].position;
            let ahead = rest[..i].iter().filter(|o| self.cars[o.index()].position > position).count() as u8;
            ranking.push((*seat, crossed + ahead + 1));
        }
        ranking
    }

    /// B-7.2: points of this race, by seat.
    pub fn points(&self) -> Vec<u32> {
        let last = self.cars().iter().map(|c| c.position).min().unwrap_or(START);
        self.cars()
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let crossed = self.finish_order().contains(&Seat(i as u8));
                u32::from(c.position - last) + if crossed { 3 } else { 0 }
            })
            .collect()
    }

    // ----- views -----

    /// What `seat` may know, and nothing more.
    pub fn view_for(&self, seat: Seat) -> PlayerView {
        self.view(Some(seat))
    }

    /// What a spectator may know: only what is public.
    pub fn spectator_view(&self) -> PlayerView {
        self.view(None)
    }

    fn view(&self, viewer: Option<Seat>) -> PlayerView {
        let reservoirs = self.reservoirs_seen_by(viewer);
        PlayerView {
            viewer,
            race: self.race_no,
            round: self.round,
            first_player: self.first_player,
            phase: match self.phase {
                Phase::CupDown => PhaseView::CupDown,
                Phase::KlaxonPicks => PhaseView::KlaxonPicks { next: self.klaxon_picker().expect("picks") },
                Phase::Grab => PhaseView::Grab,
                Phase::Echange => PhaseView::Echange,
                Phase::Movement => PhaseView::Movement,
                Phase::Over => PhaseView::Over,
            },
            circuit: self.circuit,
            oil: self.oil,
            lanterne_rouge: self.lanterne_rouge,
            second_chance_supply: self.second_chance_supply,
            stars: self.face_down_stars().map(|tile| StarView { tile }).collect(),
            cars: self
                .seats()
                .map(|s| {
                    let c = self.car(s);
                    CarView {
                        seat: s,
                        position: c.position,
                        atouts: c.atouts,
                        bonuses: c.bonuses,
                        second_chance: c.second_chance,
                        panne_seche_pending: c.panne_seche_pending,
                        panne_seche: c.panne_seche,
                        token_used: c.token_used,
                        pawn: c.pawn,
                    }
                })
                .collect(),
            pawns: self
                .pawn_order()
                .iter()
                .map(|&pawn| PawnView {
                    pawn,
                    owner: self.pawn_owner[pawn.index()],
                    reservoir: reservoirs.map(|r| r[pawn.index()]),
                })
                .collect(),
            klaxon_calls: self.klaxon_calls().to_vec(),
            turn: self.turn_state(),
            finish_order: self.finish_order().to_vec(),
        }
    }

    fn turn_view(&self) -> TurnView {
        TurnView {
            seat: self.turn.seat,
            step: self.turn.step,
            reservoir: self.turn.reservoir,
            accelerator: self.turn.accelerator,
            speed: self.turn.speed(),
            points_left: self.turn.points_left,
            start: self.turn.start,
        }
    }
}

#[cfg(test)]
impl Race {
    /// The same race with every secret that `viewer` may not know drawn anew: the RNG, a
    /// pending forced roll, hidden reservoirs, and which face-down bonus lies on which star.
    pub(super) fn redraw_secrets_for_spectator(&self, seed: u64) -> Race {
        let mut other = self.redraw_secrets(Seat(0), seed);
        if matches!(self.phase, Phase::CupDown | Phase::KlaxonPicks) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 1);
            for r in &mut other.reservoirs[..self.pilots as usize] {
                *r = rng.random_range(1..=6);
            }
        }
        other
    }

    pub(super) fn redraw_secrets(&self, viewer: Seat, seed: u64) -> Race {
        let mut other = self.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        other.dice = RaceDice::new(seed ^ 0xdead_beef);
        other.forced_accelerator = Some(rng.random_range(1..=6));
        // The spec, written out apart from `visible_reservoirs` so a leak there is caught:
        // reservoirs are secret under the cup, and during the Klaxon picks to all but the
        // Klaxon pilots who have reached their turn to peek (B-4.6).
        let may_see = match self.phase {
            Phase::CupDown => false,
            Phase::KlaxonPicks => self.klaxon_calls[..=self.klaxon_next as usize].contains(&viewer),
            _ => true,
        };
        if !may_see {
            for r in &mut other.reservoirs[..self.pilots as usize] {
                *r = rng.random_range(1..=6);
            }
        }
        let mut kinds: Vec<BonusKind> = other.stars.iter().filter_map(|s| s.bonus).collect();
        shuffle(&mut kinds, &mut rng);
        for star in other.stars.iter_mut().filter(|s| s.bonus.is_some()) {
            star.bonus = kinds.pop();
        }
        other
    }
}

fn spend_atout_check(car: &Car, atout: Atout) -> Result<(), RuleError> {
    if !car.atouts.contains(atout) {
        return Err(RuleError::AtoutSpent { atout });
    }
    if car.token_used {
        return Err(RuleError::TokenAlreadyUsed);
    }
    Ok(())
}

fn spend_bonus_check(car: &Car, kind: BonusKind) -> Result<(), RuleError> {
    if !car.bonuses.contains(kind) {
        return Err(RuleError::NoBonus { kind });
    }
    if car.token_used {
        return Err(RuleError::TokenAlreadyUsed);
    }
    Ok(())
}

#[cfg(test)]
fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}
