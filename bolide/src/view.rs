//! What one seat may know of a race (`view_for`): public facts plus that seat's own
//! secrets, and nothing else. Face-down bonuses, reservoirs under the cup, other pilots'
//! Klaxon peeks and the RNG never appear here.

use crate::circuit::Circuit;
use crate::model::{Atouts, Bonuses, FINISH, MAX_PILOTS, MIN_PILOTS, Pawn, Seat};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// The seat this view was made for; `None` for a spectator, who sees only what is public.
    pub viewer: Option<Seat>,
    pub race: u8,
    pub round: u16,
    pub first_player: Seat,
    pub phase: PhaseView,
    pub circuit: Circuit,
    pub oil: Option<u8>,
    pub lanterne_rouge: Option<Seat>,
    pub second_chance_supply: u8,
    /// The stars that still hold a face-down token; its identity is secret (B-1.5).
    pub stars: Vec<StarView>,
    pub cars: Vec<CarView>,
    /// Pawns in their on-screen order (B-4.5).
    pub pawns: Vec<PawnView>,
    /// Klaxon calls in call order (they are made out loud, B-4.6).
    pub klaxon_calls: Vec<Seat>,
    pub turn: Option<TurnView>,
    /// Seats that crossed, in crossing order.
    pub finish_order: Vec<Seat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PhaseView {
    /// B-4.1: reservoirs under the cup; Klaxon calls are open.
    CupDown,
    /// B-4.6: Klaxon pilots choose, one after another.
    KlaxonPicks { next: Seat },
    /// B-4.3: the grab is on.
    Grab,
    /// B-4.7: the Échange window.
    Echange,
    /// B-5: pilots move one after another.
    Movement,
    /// B-6.3: the race is over.
    Over,
}

impl PhaseView {
    /// The timed moment this phase is, if it is one.
    pub fn timed(self) -> Option<crate::Timed> {
        match self {
            PhaseView::Grab => Some(crate::Timed::Grab),
            PhaseView::Echange => Some(crate::Timed::Echange),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StarView {
    pub tile: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CarView {
    pub seat: Seat,
    pub position: u8,
    pub atouts: Atouts,
    pub bonuses: Bonuses,
    pub second_chance: bool,
    /// Panne Sèche taken: it forces the next round's reservoir to 1 (B-4.8).
    pub panne_seche_pending: bool,
    /// Panne Sèche in force this round.
    pub panne_seche: bool,
    pub token_used: bool,
    pub pawn: Option<Pawn>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PawnView {
    pub pawn: Pawn,
    pub owner: Option<Seat>,
    /// The reservoir of this pawn's colour, once this seat may see it.
    pub reservoir: Option<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnView {
    pub seat: Seat,
    pub step: TurnStep,
    /// The reservoir value in force for this move (1 under Panne Sèche).
    pub reservoir: u8,
    pub accelerator: Option<u8>,
    /// Speed in km/h; `None` before the roll and under As de la route.
    pub speed: Option<u8>,
    pub points_left: u8,
    pub start: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnStep {
    /// Before the roll: As de la route, Aspiration, Assistance, or roll.
    BeforeRoll,
    /// Rolled (or As de la route): Second Chance, Raccourci, Move.
    Moving,
    /// After the move: Nitro, Huile, Assistance, end of turn.
    AfterMove,
}

impl PlayerView {
    /// A spectator's stand-in seat for code that needs one (a spectator never acts).
    pub fn viewer_seat(&self) -> Seat {
        self.viewer.unwrap_or(Seat(0))
    }

    /// The car of `seat`; call only on a view that passed [`PlayerView::check`] (or that
    /// the engine made), where every seat named has a car.
    pub fn car(&self, seat: Seat) -> &CarView {
        &self.cars[seat.index()]
    }

    /// Whether every seat, pawn and tile this view names exists. A client runs this on each
    /// view from the wire before drawing it: a host with a bug (or a stranger posing as one)
    /// gets a clear error, not a window that panics on `cars[7]`.
    pub fn check(&self) -> Result<(), ViewError> {
        let cars = self.cars.len();
        if !(MIN_PILOTS..=MAX_PILOTS).contains(&cars) || self.pawns.len() != cars {
            return Err(ViewError::Size { cars, pawns: self.pawns.len() });
        }
        let seat = |s: Seat| if s.index() < cars { Ok(()) } else { Err(ViewError::Seat(s)) };
        let tile = |t: u8| if t <= FINISH { Ok(()) } else { Err(ViewError::Tile(t)) };
        let pawn = |p: Pawn| if p.index() < cars { Ok(()) } else { Err(ViewError::Pawn(p)) };
        for (i, car) in self.cars.iter().enumerate() {
            if car.seat.index() != i {
                return Err(ViewError::Seat(car.seat));
            }
            tile(car.position)?;
            car.pawn.map_or(Ok(()), pawn)?;
        }
        for p in &self.pawns {
            pawn(p.pawn)?;
            p.owner.map_or(Ok(()), seat)?;
        }
        let named = self.viewer.iter().chain([&self.first_player]).chain(&self.lanterne_rouge);
        named.chain(&self.klaxon_calls).chain(&self.finish_order).try_for_each(|s| seat(*s))?;
        self.turn.map_or(Ok(()), |t| seat(t.seat))?;
        if let PhaseView::KlaxonPicks { next } = self.phase {
            seat(next)?;
        }
        self.oil.map_or(Ok(()), tile)?;
        self.stars.iter().try_for_each(|s| tile(s.tile))
    }

    /// Whether `action`, offered by the host as legal, names only what this view has: a
    /// window draws a button per legal action and looks up what it names.
    pub fn check_action(&self, action: &crate::Action) -> Result<(), ViewError> {
        use crate::Action as A;
        let ok = match *action {
            A::TakePawn { pawn } => pawn.index() < self.pawns.len(),
            A::Echange { with } => with.index() < self.cars.len(),
            A::Huile { tile } => tile <= FINISH,
            A::Raccourci { tiles_before } => tiles_before <= FINISH,
            A::Move { tiles } => tiles <= FINISH,
            _ => true,
        };
        if ok { Ok(()) } else { Err(ViewError::Legal(*action)) }
    }
}

/// A view that names what does not exist (see [`PlayerView::check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("the view has {cars} cars and {pawns} pawns (3 to 6 of each, as many pawns as cars)")]
    Size { cars: usize, pawns: usize },
    #[error("the view names seat {} and has no such car", .0.number())]
    Seat(Seat),
    #[error("the view names pawn {} and has no such pawn", .0.number())]
    Pawn(Pawn),
    #[error("the view names tile {0}; the board ends at {FINISH}")]
    Tile(u8),
    #[error("the host offers {0:?}, which names what this table does not have")]
    Legal(crate::Action),
    #[error("the host gave this laptop seat {}, past the table's last", .0.number())]
    OwnSeat(Seat),
}
