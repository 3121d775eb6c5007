//! What happened, as the host tells everyone. Events carry no secret: a reservoir value
//! appears only once it is public (B-4.6), a bonus identity only once it is taken (B-1.5).

use crate::model::{Atout, BonusKind, Pawn, Seat};
use serde::{Deserialize, Serialize};

/// One event of the log. [`Event::rule`] names the rule that produced it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Event {
    RaceStarted {
        race: u8,
        first_player: Seat,
    },
    /// B-4.1, B-4.5: reservoirs rolled under the cup; pawns laid out in a new order.
    RoundStarted {
        round: u16,
        first_player: Seat,
        pawn_order: Vec<Pawn>,
    },
    /// B-4.8: Panne Sèche forces this pilot's reservoir to 1 this round.
    PanneSeche {
        seat: Seat,
    },
    /// B-4.6: a Klaxon call, in call order (`order` 0 chooses first).
    KlaxonCalled {
        seat: Seat,
        order: u8,
    },
    /// B-4.2: the cup is up.
    CupLifted,
    /// B-4.6: this Klaxon pilot now peeks at the reservoirs and chooses.
    KlaxonPeek {
        seat: Seat,
    },
    /// B-4.3 / B-4.6: `auto` when the last pawn went to the last pilot.
    PawnTaken {
        seat: Seat,
        pawn: Pawn,
        auto: bool,
    },
    /// B-4.4 / B-4.6: everyone sees the reservoirs, indexed by pawn.
    ReservoirsRevealed {
        values: Vec<u8>,
    },
    /// B-4.7: the Échange window opens for these seats.
    EchangeWindow {
        seats: Vec<Seat>,
    },
    /// B-4.7: `seat` swapped pawn and reservoir with `with`.
    Echanged {
        seat: Seat,
        with: Seat,
    },
    /// B-5: the pilot's turn begins.
    TurnStarted {
        seat: Seat,
    },
    /// B-5.1: the free move of the Lanterne Rouge.
    LanterneRougeMove {
        seat: Seat,
        from: u8,
        to: u8,
    },
    /// B-5.8
    AsDeLaRoute {
        seat: Seat,
    },
    /// B-5.12
    Aspiration {
        seat: Seat,
        from: u8,
        to: u8,
    },
    /// B-5.2: speed in km/h.
    Rolled {
        seat: Seat,
        accelerator: u8,
        speed: u8,
    },
    /// B-5.10: the new roll, which must be kept.
    SecondChance {
        seat: Seat,
        accelerator: u8,
        speed: u8,
    },
    /// B-5.3: `blocked_at` is the first tile the car could not enter, if a limit stopped it.
    Moved {
        seat: Seat,
        from: u8,
        to: u8,
        blocked_at: Option<u8>,
    },
    /// B-5.11
    Raccourci {
        seat: Seat,
        from: u8,
        to: u8,
    },
    /// B-5.9
    Nitro {
        seat: Seat,
        from: u8,
        to: u8,
    },
    /// B-5.6: `place` 1 is the winner of the race (B-6.3).
    Crossed {
        seat: Seat,
        place: u8,
    },
    /// B-5.13
    Assistance {
        seat: Seat,
        atout: Atout,
    },
    /// B-5.14
    Huile {
        seat: Seat,
        tile: u8,
    },
    /// B-5.5: taken face up.
    BonusTaken {
        seat: Seat,
        tile: u8,
        kind: BonusKind,
    },
    /// B-5.4
    SecondChanceTaken {
        seat: Seat,
    },
    TurnEnded {
        seat: Seat,
    },
    /// B-6.1: who holds the Lanterne Rouge for the next round, if anyone.
    LanterneRouge {
        seat: Option<Seat>,
    },
    /// B-6.2: the cup passes to `next_first_player`.
    RoundEnded {
        round: u16,
        next_first_player: Seat,
    },
    /// B-6.3: seats in finishing order with their rank (equal positions share one).
    RaceEnded {
        ranking: Vec<(Seat, u8)>,
    },
    /// B-7.2: points of this race, per seat.
    RacePoints {
        points: Vec<u32>,
    },
    /// B-7.3: final standings as (seat, points, race wins, rank).
    ChampionshipEnded {
        standings: Vec<(Seat, u32, u8, u8)>,
    },
    /// B-4.3 / B-4.7, after the grab or the Échange window: the photo finish. Published by the
    /// host once every verdict of it is final, so it reveals nothing that could still change one.
    PhotoFinish(PhotoFinish),
}

/// The two moments of a round decided by reaction (fairness.md §2, §6): each opens at one
/// instant shown everywhere, and what pilots do in it is ordered by how fast they did it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Timed {
    /// B-4.3: from the reveal to the last pawn.
    Grab,
    /// B-4.7: the Échange window, from its opening to the last declaration.
    Echange,
}

impl Timed {
    /// This moment's name in `race`'s `round`, as the table knows it (`Step::Timed`'s
    /// `moment`) and a beat names it (`wire::Shown`): one for each moment of a championship.
    pub fn name(self, race: u8, round: u16) -> u64 {
        let kind = match self {
            Timed::Grab => 1,
            Timed::Echange => 2,
        };
        (u64::from(race) << 32) | (u64::from(round) << 8) | kind
    }

    /// The race, round and moment a [`Timed::name`] names; `None` for no such name.
    pub fn from_name(name: u64) -> Option<(u8, u16, Timed)> {
        let moment = match name & 0xff {
            1 => Timed::Grab,
            2 => Timed::Echange,
            _ => return None,
        };
        let race = u8::try_from(name >> 32).ok()?;
        Some((race, ((name >> 8) & 0xffff) as u16, moment))
    }
}

/// Who was how fast in one grab or Échange window, as the host measured it: the argument every
/// table has about who was first, settled with the host's own figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoFinish {
    pub moment: Timed,
    /// Each seat's reaction in µs (to the reveal, or to the Échange window's opening: its first
    /// request, shown → input on its own clock, drift-corrected and bounded as the arbiter
    /// judged it); `None` for a seat that did not take part (a Klaxon pick, the last pawn
    /// given by itself, no Échange to play).
    pub reactions: Vec<Option<u32>>,
    /// Every pawn that more than one pilot asked for, with what it was won by (grabs only: in
    /// the Échange window the order itself is the verdict).
    pub contested: Vec<Contest>,
}

impl PhotoFinish {
    /// The seats that grabbed, fastest first (ties by seat), with their reactions in µs.
    pub fn fastest_first(&self) -> Vec<(Seat, u32)> {
        let mut timed: Vec<(Seat, u32)> =
            self.reactions.iter().enumerate().filter_map(|(i, r)| r.map(|r| (Seat(i as u8), r))).collect();
        timed.sort_by_key(|&(seat, r)| (r, seat.0));
        timed
    }
}

/// One pawn several pilots asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contest {
    pub pawn: Pawn,
    pub winner: Seat,
    /// The fastest of those who asked for it and lost.
    pub runner_up: Seat,
    /// Runner-up's reaction minus the winner's (µs); 0 for a tie decided by the seeded draw.
    pub margin_us: u32,
    /// Reactions within the tie margin: the seeded draw chose.
    pub drawn: bool,
}

impl Event {
    /// The timed moment this event opens: the reveal opens the grab (B-4.3), the Échange
    /// window its own (B-4.7).
    pub fn opens(&self) -> Option<Timed> {
        match self {
            Event::ReservoirsRevealed { .. } => Some(Timed::Grab),
            Event::EchangeWindow { .. } => Some(Timed::Echange),
            _ => None,
        }
    }

    /// The timed moment an update opens, given the one the race is in after it (`now_in`):
    /// the last moment its events open, if the race is still in it. One action can pass
    /// through a moment: the last Klaxon pick (B-4.6) can reveal the reservoirs, hand out the
    /// last pawn and open the Échange window in one update — the window is what opens — or
    /// hand out every pawn with no Échange to declare, and nothing opens.
    pub fn opened_by(events: &[Event], now_in: Option<Timed>) -> Option<Timed> {
        events.iter().rev().find_map(Event::opens).filter(|m| now_in == Some(*m))
    }

    /// The rule this event applies, for the log.
    pub fn rule(&self) -> &'static str {
        use Event::*;
        match self {
            RaceStarted { .. } => "B-7.1",
            RoundStarted { .. } => "B-4.1",
            PanneSeche { .. } => "B-4.8",
            KlaxonCalled { .. } | KlaxonPeek { .. } => "B-4.6",
            CupLifted => "B-4.2",
            PawnTaken { .. } => "B-4.3",
            ReservoirsRevealed { .. } => "B-4.4",
            EchangeWindow { .. } | Echanged { .. } => "B-4.7",
            TurnStarted { .. } | TurnEnded { .. } => "B-5",
            LanterneRougeMove { .. } => "B-5.1",
            AsDeLaRoute { .. } => "B-5.8",
            Aspiration { .. } => "B-5.12",
            Rolled { .. } => "B-5.2",
            SecondChance { .. } => "B-5.10",
            Moved { .. } => "B-5.3",
            Raccourci { .. } => "B-5.11",
            Nitro { .. } => "B-5.9",
            Crossed { .. } => "B-5.6",
            Assistance { .. } => "B-5.13",
            Huile { .. } => "B-5.14",
            BonusTaken { .. } => "B-5.5",
            SecondChanceTaken { .. } => "B-5.4",
            LanterneRouge { .. } => "B-6.1",
            RoundEnded { .. } => "B-6.2",
            RaceEnded { .. } => "B-6.3",
            RacePoints { .. } => "B-7.2",
            ChampionshipEnded { .. } => "B-7.3",
            PhotoFinish(_) => "B-4.3",
        }
    }
}
