//! What a bot may look at: exactly what its seat may know. Implemented here for a
//! [`PlayerView`] (what a network bot receives) and by the host for a race seen from one seat
//! (`bolide::bots::SeatSight`, fast, for simulation), so one bot works in both places and
//! can never read a secret the view would not show.

use crate::game::Race;
use crate::model::FINISH;
use crate::movement::Road;
use crate::view::TurnView;
use crate::{Atouts, Bonuses, Pawn, PlayerView, Seat};

pub trait Sight {
    fn viewer(&self) -> Seat;
    fn pilots(&self) -> u8;
    fn road(&self) -> Road<'_>;
    fn position(&self, seat: Seat) -> u8;
    fn atouts(&self, seat: Seat) -> Atouts;
    fn bonuses(&self, seat: Seat) -> Bonuses;
    fn second_chance(&self, seat: Seat) -> bool;
    fn panne_seche(&self, seat: Seat) -> bool;
    fn pawn_of(&self, seat: Seat) -> Option<Pawn>;
    /// The reservoir under `pawn`, if the viewer may see it now.
    fn reservoir(&self, pawn: Pawn) -> Option<u8>;
    fn turn(&self) -> Option<TurnView>;
    /// Whether a face-down bonus lies on `tile` (its identity is never visible).
    fn face_down_star(&self, tile: u8) -> bool;

    fn seats(&self) -> std::ops::Range<u8> {
        0..self.pilots()
    }
    fn me(&self) -> u8 {
        self.position(self.viewer())
    }
    /// Cars strictly behind the viewer that still race.
    fn cars_behind(&self) -> usize {
        let me = self.me();
        self.seats().filter(|&s| self.position(Seat(s)) < me).count()
    }
    /// The nearest car strictly ahead, if any.
    fn nearest_ahead(&self) -> Option<u8> {
        let me = self.me();
        self.seats().map(|s| self.position(Seat(s))).filter(|&p| p > me && p <= FINISH).min()
    }
}

impl Sight for PlayerView {
    fn viewer(&self) -> Seat {
        self.viewer_seat()
    }
    fn pilots(&self) -> u8 {
        self.cars.len() as u8
    }
    fn road(&self) -> Road<'_> {
        Road::new(&self.circuit, self.oil)
    }
    fn position(&self, seat: Seat) -> u8 {
        self.car(seat).position
    }
    fn atouts(&self, seat: Seat) -> Atouts {
        self.car(seat).atouts
    }
    fn bonuses(&self, seat: Seat) -> Bonuses {
        self.car(seat).bonuses
    }
    fn second_chance(&self, seat: Seat) -> bool {
        self.car(seat).second_chance
    }
    fn panne_seche(&self, seat: Seat) -> bool {
        self.car(seat).panne_seche
    }
    fn pawn_of(&self, seat: Seat) -> Option<Pawn> {
        self.car(seat).pawn
    }
    fn reservoir(&self, pawn: Pawn) -> Option<u8> {
        self.pawns.iter().find(|p| p.pawn == pawn).and_then(|p| p.reservoir)
    }
    fn turn(&self) -> Option<TurnView> {
        self.turn
    }
    fn face_down_star(&self, tile: u8) -> bool {
        self.stars.iter().any(|s| s.tile == tile)
    }
}

/// A race seen from one seat.
pub struct SeatSight<'a> {
    pub race: &'a Race,
    pub seat: Seat,
}

impl Sight for SeatSight<'_> {
    fn viewer(&self) -> Seat {
        self.seat
    }
    fn pilots(&self) -> u8 {
        self.race.pilots()
    }
    fn road(&self) -> Road<'_> {
        self.race.road()
    }
    fn position(&self, seat: Seat) -> u8 {
        self.race.car(seat).position
    }
    fn atouts(&self, seat: Seat) -> Atouts {
        self.race.car(seat).atouts
    }
    fn bonuses(&self, seat: Seat) -> Bonuses {
        self.race.car(seat).bonuses
    }
    fn second_chance(&self, seat: Seat) -> bool {
        self.race.car(seat).second_chance
    }
    fn panne_seche(&self, seat: Seat) -> bool {
        self.race.car(seat).panne_seche
    }
    fn pawn_of(&self, seat: Seat) -> Option<Pawn> {
        self.race.car(seat).pawn
    }
    fn reservoir(&self, pawn: Pawn) -> Option<u8> {
        self.race.visible_reservoirs(self.seat).map(|r| r[pawn.index()])
    }
    fn turn(&self) -> Option<TurnView> {
        self.race.turn_state()
    }
    fn face_down_star(&self, tile: u8) -> bool {
        self.race.face_down_stars().any(|t| t == tile)
    }
}
