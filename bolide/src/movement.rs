//! The speed-limit check (B-5.3) as pure, allocation-free functions: the engine resolves
//! every move with them and a client previews a move with the very same code.

use crate::circuit::Circuit;
use crate::model::FINISH;

/// The limit the Huile token puts on its tile for the rest of the race (B-5.14 ruling).
pub const OIL_LIMIT: u8 = 50;

/// The circuit as a car sees it: printed limits plus the oil, if any.
#[derive(Debug, Clone, Copy)]
pub struct Road<'a> {
    pub circuit: &'a Circuit,
    pub oil: Option<u8>,
}

impl<'a> Road<'a> {
    pub fn new(circuit: &'a Circuit, oil: Option<u8>) -> Self {
        Road { circuit, oil }
    }

    /// The limit in force at `position` (B-2.2, B-5.14); `None` means no limit.
    pub fn limit(&self, position: u8) -> Option<u8> {
        if self.oil == Some(position) { Some(OIL_LIMIT) } else { self.circuit.limit(position) }
    }

    /// B-5.3: a car may enter a tile only if it has no limit or the speed is at most the
    /// limit. `speed: None` means no check at all (As de la route, B-5.8).
    pub fn may_enter(&self, position: u8, speed: Option<u8>) -> bool {
        match (speed, self.limit(position)) {
            (Some(speed), Some(limit)) => speed <= limit,
            _ => true,
        }
    }

    /// B-5.3, B-5.6: how many tiles a car at `from` with `points` movement points enters in a
    /// row at `speed`, stopping before the first tile it may not enter and at the finish line.
    pub fn reach(&self, from: u8, points: u8, speed: Option<u8>) -> u8 {
        let end = from.saturating_add(points).min(FINISH);
        let Some(speed) = speed else { return end.saturating_sub(from) };
        let mut p = from + 1;
        // The finish line (37) has no limit, so only tiles below it are checked.
        while p <= end && p < FINISH {
            let limit = if self.oil == Some(p) { OIL_LIMIT } else { self.circuit.raw_limit(p) };
            if limit != 0 && speed > limit {
                return p - 1 - from;
            }
            p += 1;
        }
        end.saturating_sub(from)
    }

    /// B-5.11: where a Raccourci from `from` lands — the straight just after the turn that
    /// starts on the next tile — or `None` when the car is not on a straight (or the start
    /// grid) right before a turn. The landing tile is checked normally by the caller.
    pub fn raccourci_landing(&self, from: u8) -> Option<u8> {
        let on_straight = self.circuit.tile(from).is_none_or(|t| t.is_straight());
        let next_is_curve = self.circuit.tile(from + 1).is_some_and(|t| t.is_curve());
        if from >= FINISH || !on_straight || !next_is_curve {
            return None;
        }
        let mut p = from + 1;
        while self.circuit.tile(p).is_some_and(|t| t.is_curve()) {
            p += 1;
        }
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circuit() -> Circuit {
        Circuit::parse(
            "S S 70 80 S* 60 60 S S 90* 100 S S 70* 70 80 S S* S 80* 90 S S 100 S 70 80 S S 80 90 S S* S S S",
        )
        .unwrap()
    }

    #[test]
    fn b_5_3_stops_before_a_slower_limit() {
        let c = circuit();
        let road = Road::new(&c, None);
        // Speed 90, reservoir 5 from 0: tiles 1, 2 fine, 3 is a 70: stops on 2.
        assert_eq!(road.reach(0, 5, Some(90)), 2);
        // Speed 70 goes through the 70 but not the 80? 70 <= 80, so it goes on.
        assert_eq!(road.reach(0, 5, Some(70)), 5);
        // Speed 100 from 9 facing a 90 at 10: stays put.
        assert_eq!(road.reach(9, 4, Some(100)), 0);
    }

    #[test]
    fn b_5_6_the_finish_line_stops_a_car() {
        let c = circuit();
        assert_eq!(Road::new(&c, None).reach(34, 6, Some(60)), 3);
        assert_eq!(Road::new(&c, None).reach(FINISH, 6, Some(60)), 0);
    }

    #[test]
    fn b_5_8_no_speed_means_no_check() {
        let c = circuit();
        assert_eq!(Road::new(&c, None).reach(9, 4, None), 4);
    }

    #[test]
    fn b_5_14_oil_limits_its_tile_to_50() {
        let c = circuit();
        let road = Road::new(&c, Some(1));
        assert_eq!(road.limit(1), Some(50));
        assert_eq!(road.reach(0, 3, Some(60)), 0);
        assert_eq!(road.reach(0, 3, Some(50)), 3);
    }

    #[test]
    fn b_5_11_raccourci_lands_after_the_next_turn() {
        let c = circuit();
        let road = Road::new(&c, None);
        assert_eq!(road.raccourci_landing(2), Some(5)); // turn 3-4
        assert_eq!(road.raccourci_landing(1), None); // next tile is a straight
        assert_eq!(road.raccourci_landing(3), None); // on a curve
        assert_eq!(road.raccourci_landing(14 - 1), Some(17)); // 14-16 then S at 17
    }
}
