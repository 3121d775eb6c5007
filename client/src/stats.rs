//! The night's statistics, for the podium: each pilot's reactions, contested pawns, Klaxon
//! calls, tokens and tiles per round — computed only from the events every laptop was sent
//! (the published photo finishes and the race's own events), nothing a pilot was not allowed
//! to see. Pure: the window draws it, the tests check it.

use bolide::{Event, Timed};

/// One pilot's evening.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PilotStats {
    /// Every grab reaction the host published, µs, in order.
    pub reactions: Vec<u32>,
    /// Contested pawns won, and by how much each (µs; a drawn tie counts 0).
    pub contests_won: Vec<u32>,
    /// Contested pawns lost to a faster hand, and by how much each.
    pub contests_lost: Vec<u32>,
    pub klaxon_calls: u32,
    /// Calls that chose first.
    pub klaxon_first: u32,
    /// Atouts, bonuses and Seconde Chance rerolls played.
    pub tokens: u32,
    /// Tiles moved, and the rounds the pilot played.
    pub tiles: u32,
    pub rounds: u32,
}

impl PilotStats {
    pub fn median_us(&self) -> Option<u32> {
        let mut sorted = self.reactions.clone();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied().filter(|_| !sorted.is_empty())
    }

    pub fn fastest_us(&self) -> Option<u32> {
        self.reactions.iter().min().copied()
    }

    /// The median margin of the contested pawns won, µs.
    pub fn median_win_margin_us(&self) -> Option<u32> {
        let mut sorted = self.contests_won.clone();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied().filter(|_| !sorted.is_empty())
    }

    pub fn tiles_per_round(&self) -> Option<f64> {
        (self.rounds > 0).then(|| f64::from(self.tiles) / f64::from(self.rounds))
    }
}

/// Every pilot's statistics from the events of the whole evening, `pilots` seats.
pub fn night(events: &[Event], pilots: usize) -> Vec<PilotStats> {
    let mut stats = vec![PilotStats::default(); pilots];
    let mut rounds = 0u32;
    for event in events {
        match event {
            Event::RoundStarted { .. } => rounds += 1,
            Event::PhotoFinish(photo) if photo.moment == Timed::Grab => {
                for (seat, reaction) in photo.fastest_first() {
                    if let Some(s) = stats.get_mut(seat.index()) {
                        s.reactions.push(reaction);
                    }
                }
                for c in &photo.contested {
                    let margin = if c.drawn { 0 } else { c.margin_us };
                    if let Some(s) = stats.get_mut(c.winner.index()) {
                        s.contests_won.push(margin);
                    }
                    if let Some(s) = stats.get_mut(c.runner_up.index()) {
                        s.contests_lost.push(margin);
                    }
                }
            }
            Event::KlaxonCalled { seat, order } => {
                if let Some(s) = stats.get_mut(seat.index()) {
                    s.klaxon_calls += 1;
                    s.klaxon_first += u32::from(*order == 1);
                }
            }
            Event::AsDeLaRoute { seat }
            | Event::Aspiration { seat, .. }
            | Event::SecondChance { seat, .. }
            | Event::Raccourci { seat, .. }
            | Event::Nitro { seat, .. }
            | Event::Assistance { seat, .. }
            | Event::Huile { seat, .. }
            | Event::Echanged { seat, .. } => {
                if let Some(s) = stats.get_mut(seat.index()) {
                    s.tokens += 1;
                }
            }
            _ => {}
        }
        // Tiles: every way a car moves forward.
        let moved = match event {
            Event::Moved { seat, from, to, .. }
            | Event::Raccourci { seat, from, to }
            | Event::Nitro { seat, from, to }
            | Event::Aspiration { seat, from, to }
            | Event::LanterneRougeMove { seat, from, to } => Some((*seat, to.saturating_sub(*from))),
            _ => None,
        };
        if let Some((seat, tiles)) = moved
            && let Some(s) = stats.get_mut(seat.index())
        {
            s.tiles += u32::from(tiles);
        }
    }
    for s in &mut stats {
        s.rounds = rounds;
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide::event::{Contest, PhotoFinish};
    use bolide::{Pawn, Seat};

    #[test]
    fn b_4_3_reactions_and_contests_come_from_the_published_photo_finishes() {
        let grab = |reactions: Vec<Option<u32>>, contested| {
            Event::PhotoFinish(PhotoFinish { moment: Timed::Grab, reactions, contested })
        };
        let events = vec![
            Event::RoundStarted { round: 1, first_player: Seat(0), pawn_order: vec![] },
            grab(
                vec![Some(300_000), Some(250_000), None],
                vec![Contest { pawn: Pawn(1), winner: Seat(1), runner_up: Seat(0), margin_us: 50_000, drawn: false }],
            ),
            Event::KlaxonCalled { seat: Seat(2), order: 1 },
            Event::Moved { seat: Seat(0), from: 0, to: 4, blocked_at: None },
            Event::Nitro { seat: Seat(0), from: 4, to: 5 },
            Event::RoundStarted { round: 2, first_player: Seat(1), pawn_order: vec![] },
            grab(vec![Some(280_000), Some(400_000), Some(350_000)], vec![]),
            // An Échange window's photo finish is not a grab.
            Event::PhotoFinish(PhotoFinish {
                moment: Timed::Echange,
                reactions: vec![Some(1), None, None],
                contested: vec![],
            }),
        ];
        let s = night(&events, 3);
        assert_eq!(s[0].reactions, [300_000, 280_000]);
        assert_eq!((s[0].median_us(), s[0].fastest_us()), (Some(300_000), Some(280_000)));
        assert_eq!((s[1].contests_won.clone(), s[0].contests_lost.clone()), (vec![50_000], vec![50_000]));
        assert_eq!((s[2].klaxon_calls, s[2].klaxon_first), (1, 1));
        assert_eq!((s[0].tiles, s[0].tokens, s[0].tiles_per_round()), (5, 1, Some(2.5)));
        assert_eq!(s[2].median_us(), Some(350_000));
        assert_eq!(night(&events, 0), vec![], "no seat past the table is indexed");
    }
}
