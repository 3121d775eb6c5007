//! Provably fair dice: every random thing in a championship comes from its seed, the host
//! commits to that seed before the first race and reveals it when the last one ends, and
//! anyone can then check every draw they saw.
//!
//! Each draw has its own ChaCha stream, keyed by what it is for — a race's first player, the
//! bonus tokens on its stars, a round's reservoirs and pawn order, one pilot's roll in one
//! round — so a draw depends on the seed and on where it happens, never on how many draws
//! came before. A client that missed events while reconnecting still checks every draw it
//! saw, and no pilot's choice (to roll or not) shifts anyone else's dice.
//!
//! The seed comes from the table's seal (`bolide_table::seal`): committed before the first
//! race, mixed with every laptop's part, revealed when the last race ends. [`DiceWatch`]
//! opens it and checks every draw a laptop saw against it.

use crate::Event;
use crate::ServerMsg;
use crate::model::{BonusKind, MAX_PILOTS, Pawn, Seat};
use crate::{FirstPlayer, PlayerView};
use bolide_table::seal::{Commitment, SealBroken, SeedReveal, SeedWatch};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::fmt;
use thiserror::Error;

/// The seed of race `race` (1-based) of a championship: one championship seed replays them all.
pub fn race_seed(championship: u64, race: u8) -> u64 {
    championship ^ u64::from(race).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The dice of one race.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaceDice {
    seed: u64,
}

/// What a stream is for: the top byte of its ChaCha stream number.
#[derive(Clone, Copy)]
enum Purpose {
    FirstPlayer = 1,
    Bonuses = 2,
    Round = 3,
    Accelerator = 4,
}

/// A round's draw (B-4.1, B-4.5): the reservoir under each pawn and the pawns' order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundDraw {
    pub reservoirs: Vec<u8>,
    pub pawn_order: Vec<Pawn>,
}

impl RaceDice {
    /// The dice of a race whose own seed is `race_seed` (see [`race_seed`]).
    pub fn new(race_seed: u64) -> RaceDice {
        RaceDice { seed: race_seed }
    }

    fn stream(&self, purpose: Purpose, index: u64) -> ChaCha8Rng {
        bolide_table::luck(self.seed, purpose as u8, index)
    }

    /// B-1.7: the first player when the table draws it.
    pub fn first_player(&self, pilots: u8) -> Seat {
        Seat(self.stream(Purpose::FirstPlayer, 0).random_range(0..pilots.max(1)))
    }

    /// B-1.5: the six bonus kinds face down on the six stars, in circuit order.
    pub fn bonuses(&self) -> [BonusKind; 6] {
        let mut kinds = BonusKind::ALL;
        shuffle(&mut kinds, &mut self.stream(Purpose::Bonuses, 0));
        kinds
    }

    /// B-4.1, B-4.5: the reservoirs of round `round` (indexed by pawn) and its pawn order.
    pub fn round(&self, round: u16, pilots: u8) -> RoundDraw {
        let n = usize::from(pilots).min(MAX_PILOTS);
        let mut rng = self.stream(Purpose::Round, u64::from(round));
        let reservoirs = (0..n).map(|_| rng.random_range(1..=6)).collect();
        let mut pawn_order: Vec<Pawn> = (0..n as u8).map(Pawn).collect();
        shuffle(&mut pawn_order, &mut rng);
        RoundDraw { reservoirs, pawn_order }
    }

    /// B-5.2, B-5.10: the accelerator die of `seat` in round `round`; `attempt` 0 is its
    /// roll, 1 its Second Chance.
    pub fn accelerator(&self, round: u16, seat: Seat, attempt: u8) -> u8 {
        let index = (u64::from(round) << 16) | (u64::from(seat.0) << 8) | u64::from(attempt);
        self.stream(Purpose::Accelerator, index).random_range(1..=6)
    }
}

/// Fisher–Yates on a stream of the race's dice.
fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// How many draws a check compared, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiceReport {
    pub first_players: u32,
    pub bonuses: u32,
    pub rounds: u32,
    pub accelerators: u32,
}

impl fmt::Display for DiceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = |n: u32, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        write!(
            f,
            "{} of reservoirs and pawn order, {}, {} and {}",
            count(self.rounds, "round"),
            count(self.accelerators, "accelerator roll"),
            count(self.bonuses, "bonus token"),
            count(self.first_players, "drawn first player"),
        )
    }
}

/// A draw that did not come from the revealed seed, or a reveal that is not the committed one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiceMismatch {
    #[error(transparent)]
    Seal(#[from] SealBroken),
    #[error("race {race}: the first player was seat {seen}, the seed draws seat {drawn}")]
    FirstPlayer { race: u8, seen: u8, drawn: u8 },
    #[error("race {race}: the bonus on tile {tile} was {seen:?}, the seed put {drawn:?} there")]
    Bonus { race: u8, tile: u8, seen: BonusKind, drawn: Option<BonusKind> },
    #[error("race {race}, round {round}: the pawn order was {seen:?}, the seed draws {drawn:?}")]
    PawnOrder { race: u8, round: u16, seen: Vec<u8>, drawn: Vec<u8> },
    #[error("race {race}, round {round}: the reservoirs were {seen:?}, the seed draws {drawn:?}")]
    Reservoirs { race: u8, round: u16, seen: Vec<u8>, drawn: Vec<u8> },
    #[error("race {race}, round {round}: seat {seat} rolled {seen}, the seed rolls {drawn}")]
    Accelerator { race: u8, round: u16, seat: u8, seen: u8, drawn: u8 },
    #[error("the host told two different results for one draw ({0})")]
    Conflict(String),
    #[error("more draws than a championship can have: the host sent too much to check")]
    TooMany,
}

/// The most draws a log keeps: far more than 20 races of a long game make.
const MAX_DRAWS: usize = 50_000;

/// What a client saw drawn, each draw keyed by where it happened; fed with the host's events
/// and views as they arrive, checked against the seed once it is revealed.
#[derive(Debug, Clone, Default)]
pub struct DiceLog {
    /// Where the table is: (race, round), from the last view and the events since.
    at: Option<(u8, u16)>,
    /// Star tiles of each race's circuit, in circuit order.
    stars: BTreeMap<u8, [u8; 6]>,
    first_players: BTreeMap<u8, Seat>,
    pawn_orders: BTreeMap<(u8, u16), Vec<Pawn>>,
    reservoirs: BTreeMap<(u8, u16), Vec<u8>>,
    accelerators: BTreeMap<(u8, u16, Seat, u8), u8>,
    bonuses: BTreeMap<(u8, u8), BonusKind>,
    /// The first contradiction seen (one draw told two ways), or a log over [`MAX_DRAWS`].
    broken: Option<DiceMismatch>,
}

impl DiceLog {
    /// Where the table is now and the stars of its circuit: from each view the host sends.
    pub fn at(&mut self, view: &PlayerView) {
        self.at = Some((view.race, view.round));
        self.stars.entry(view.race).or_insert_with(|| view.circuit.stars());
    }

    /// Records the draws among `events`, in order (they move the table to new rounds and races).
    pub fn record(&mut self, events: &[Event]) {
        for event in events {
            match event {
                Event::RaceStarted { race, first_player } => {
                    self.at = Some((*race, 1));
                    self.keep_first(*race, *first_player);
                }
                Event::RoundStarted { round, pawn_order, .. } => {
                    if let Some((race, _)) = self.at {
                        self.at = Some((race, *round));
                        self.keep(|l| &mut l.pawn_orders, (race, *round), pawn_order.clone(), "pawn order");
                    }
                }
                Event::ReservoirsRevealed { values } => {
                    if let Some(key) = self.at {
                        self.keep(|l| &mut l.reservoirs, key, values.clone(), "reservoirs");
                    }
                }
                Event::Rolled { seat, accelerator, .. } | Event::SecondChance { seat, accelerator, .. } => {
                    let attempt = u8::from(matches!(event, Event::SecondChance { .. }));
                    if let Some((race, round)) = self.at {
                        self.keep(|l| &mut l.accelerators, (race, round, *seat, attempt), *accelerator, "accelerator");
                    }
                }
                Event::BonusTaken { tile, kind, .. } => {
                    if let Some((race, _)) = self.at {
                        self.keep(|l| &mut l.bonuses, (race, *tile), *kind, "bonus");
                    }
                }
                _ => {}
            }
        }
    }

    fn keep_first(&mut self, race: u8, seat: Seat) {
        self.keep(|l| &mut l.first_players, race, seat, "first player");
    }

    fn keep<K: Ord + fmt::Debug, V: PartialEq + Clone>(
        &mut self,
        map: impl Fn(&mut DiceLog) -> &mut BTreeMap<K, V>,
        key: K,
        value: V,
        what: &str,
    ) {
        if self.broken.is_some() {
            return;
        }
        if self.len() >= MAX_DRAWS {
            self.broken = Some(DiceMismatch::TooMany);
            return;
        }
        let conflict = format!("{what} at {key:?}");
        match map(self).entry(key) {
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(value);
            }
            std::collections::btree_map::Entry::Occupied(seen) if *seen.get() == value => {}
            std::collections::btree_map::Entry::Occupied(_) => self.broken = Some(DiceMismatch::Conflict(conflict)),
        }
    }

    fn len(&self) -> usize {
        self.first_players.len()
            + self.pawn_orders.len()
            + self.reservoirs.len()
            + self.accelerators.len()
            + self.bonuses.len()
            + self.stars.len()
    }

    /// Checks every draw seen against the revealed seed, after checking the reveal against
    /// the commitment. `pilots` is the table's size; `first_player` its B-1.7 option.
    pub fn check(
        &self,
        committed: Commitment,
        reveal: &SeedReveal,
        pilots: u8,
        first_player: FirstPlayer,
    ) -> Result<DiceReport, DiceMismatch> {
        if reveal.commitment() != committed {
            return Err(SealBroken::Commitment { committed, revealed: reveal.commitment() }.into());
        }
        self.check_seed(reveal.game_seed(), pilots, first_player)
    }

    /// Checks every draw seen against the game's seed (a [`Seal`] opened it).
    pub fn check_seed(&self, seed: u64, pilots: u8, first_player: FirstPlayer) -> Result<DiceReport, DiceMismatch> {
        if let Some(broken) = &self.broken {
            return Err(broken.clone());
        }
        let dice = |race: u8| RaceDice::new(race_seed(seed, race));
        let mut report = DiceReport::default();
        // Only the first race's first player may be drawn; later ones pass to the left (B-7.1).
        if first_player == FirstPlayer::Random
            && let Some(&seen) = self.first_players.get(&1)
        {
            let drawn = dice(1).first_player(pilots);
            if seen != drawn {
                return Err(DiceMismatch::FirstPlayer { race: 1, seen: seen.0, drawn: drawn.0 });
            }
            report.first_players += 1;
        }
        let rounds: std::collections::BTreeSet<(u8, u16)> =
            self.pawn_orders.keys().chain(self.reservoirs.keys()).copied().collect();
        for (race, round) in rounds {
            let drawn = dice(race).round(round, pilots);
            if let Some(seen) = self.pawn_orders.get(&(race, round))
                && *seen != drawn.pawn_order
            {
                let ids = |p: &[Pawn]| p.iter().map(|p| p.0).collect();
                return Err(DiceMismatch::PawnOrder { race, round, seen: ids(seen), drawn: ids(&drawn.pawn_order) });
            }
            if let Some(seen) = self.reservoirs.get(&(race, round))
                && *seen != drawn.reservoirs
            {
                return Err(DiceMismatch::Reservoirs { race, round, seen: seen.clone(), drawn: drawn.reservoirs });
            }
            report.rounds += 1;
        }
        for (&(race, round, seat, attempt), &seen) in &self.accelerators {
            let drawn = dice(race).accelerator(round, seat, attempt);
            if seen != drawn {
                return Err(DiceMismatch::Accelerator { race, round, seat: seat.0, seen, drawn });
            }
            report.accelerators += 1;
        }
        for (&(race, tile), &seen) in &self.bonuses {
            let star = self.stars.get(&race).and_then(|stars| stars.iter().position(|&t| t == tile));
            let drawn = star.and_then(|i| dice(race).bonuses().get(i).copied());
            if drawn != Some(seen) {
                return Err(DiceMismatch::Bonus { race, tile, seen, drawn });
            }
            report.bonuses += 1;
        }
        Ok(report)
    }
}

/// A client's watch over the dice, fed every message from the host ([`observe`]): it keeps
/// the first commitment the lobby showed (a host that changes it later is not believed),
/// records every draw, and checks them all once the seed is revealed — the table's
/// [`SeedWatch`] over what a laptop saw of Bolide's dice. The window, `bolide-bot` and the lab
/// all read the same verdict.
pub type DiceWatch = SeedWatch<DiceSeen, DiceReport, DiceMismatch>;

/// What a laptop saw of the dice: every draw, and what the check needs of the table.
#[derive(Debug, Clone, Default)]
pub struct DiceSeen {
    pilots: u8,
    first_player: Option<FirstPlayer>,
    log: DiceLog,
}

/// Feeds `watch` a message from the host.
pub fn observe(watch: &mut DiceWatch, msg: &ServerMsg) {
    match msg {
        ServerMsg::Lobby(lobby) => {
            if lobby.started {
                watch.seen.pilots = lobby.seats.len() as u8;
                watch.seen.first_player = Some(lobby.settings.options.first_player);
            }
            let judged = watch.seen.first_player.is_some();
            watch.lobby(lobby.dice, lobby.luck.as_ref(), lobby.reveal.as_ref(), judged, |seed, seen| {
                seen.log.check_seed(seed, seen.pilots, seen.first_player.unwrap_or_default())
            });
        }
        ServerMsg::Update { events, view, .. } => {
            watch.seen.log.record(events);
            watch.seen.log.at(view);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide_table::seal::Luck;

    #[test]
    fn every_draw_has_its_own_stream() {
        let dice = RaceDice::new(race_seed(42, 1));
        assert_eq!(dice.round(3, 6), dice.round(3, 6));
        let rounds: std::collections::BTreeSet<Vec<u8>> = (1..40).map(|r| dice.round(r, 6).reservoirs).collect();
        assert!(rounds.len() > 30, "rounds draw alike: {rounds:?}");
        let rolls: Vec<u8> = (0..6).map(|s| dice.accelerator(1, Seat(s), 0)).collect();
        assert!(rolls.iter().all(|r| (1..=6).contains(r)));
        let mut order = dice.round(1, 6).pawn_order;
        order.sort();
        assert_eq!(order, (0..6).map(Pawn).collect::<Vec<_>>());
        assert_ne!(RaceDice::new(race_seed(42, 2)).bonuses().to_vec(), Vec::<BonusKind>::new());
    }

    fn seen(seed: u64) -> DiceLog {
        let dice = RaceDice::new(race_seed(seed, 1));
        let draw = dice.round(2, 4);
        let mut log = DiceLog::default();
        log.record(&[
            Event::RaceStarted { race: 1, first_player: dice.first_player(4) },
            Event::RoundStarted { round: 2, first_player: Seat(0), pawn_order: draw.pawn_order.clone() },
            Event::ReservoirsRevealed { values: draw.reservoirs.clone() },
            Event::Rolled { seat: Seat(2), accelerator: dice.accelerator(2, Seat(2), 0), speed: 0 },
            Event::SecondChance { seat: Seat(2), accelerator: dice.accelerator(2, Seat(2), 1), speed: 0 },
        ]);
        log
    }

    #[test]
    fn draws_from_the_seed_pass_and_any_other_fails() {
        let reveal = SeedReveal { seed: 99, nonce: [1; 32], luck: Luck::default() };
        let report = seen(99).check(reveal.commitment(), &reveal, 4, FirstPlayer::Random).unwrap();
        assert_eq!(report, DiceReport { first_players: 1, bonuses: 0, rounds: 1, accelerators: 2 });
        // The same log against another seed, honestly committed: some draw must differ.
        let other = SeedReveal { seed: 100, nonce: [1; 32], luck: Luck::default() };
        assert!(seen(99).check(other.commitment(), &other, 4, FirstPlayer::Random).is_err());
        // The right seed under another commitment: the host changed its dice.
        let err = seen(99).check(other.commitment(), &reveal, 4, FirstPlayer::Random).unwrap_err();
        assert!(matches!(err, DiceMismatch::Seal(SealBroken::Commitment { .. })));
    }

    #[test]
    fn one_draw_told_two_ways_is_a_mismatch() {
        let reveal = SeedReveal { seed: 99, nonce: [1; 32], luck: Luck::default() };
        let mut log = seen(99);
        log.record(&[Event::ReservoirsRevealed { values: vec![6, 6, 6, 6] }]);
        let err = log.check(reveal.commitment(), &reveal, 4, FirstPlayer::Random).unwrap_err();
        assert!(matches!(err, DiceMismatch::Conflict(_)), "{err}");
    }
}
