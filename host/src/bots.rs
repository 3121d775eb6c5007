//! Engine-level bots: the bots themselves are `bolide_bots` (shared with the client, which
//! plays them over the wire); here, what they see of a race the host holds.

pub use bolide_bots::*;

use crate::game::Race;
use bolide_protocol::movement::Road;
use bolide_protocol::view::TurnView;
use bolide_protocol::{Atouts, Bonuses, Pawn, Seat};

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
