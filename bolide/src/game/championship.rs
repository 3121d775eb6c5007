//! A championship: N races, a circuit each, points (B-7.2), standings and tie-break (B-7.3).

use super::race::Race;
use super::setup::{RaceSetup, SetupError};
use crate::{Action, BonusKind, Circuit, Event, FirstPlayer, PlayerView, RuleError, Seat, TableOptions};
use serde::Serialize;

#[derive(Debug, Clone)]
pub struct ChampionshipSetup {
    pub pilots: u8,
    pub options: TableOptions,
    /// One circuit per race, or a single one used for every race (B-2.6, B-7.1).
    pub circuits: Vec<Circuit>,
    pub seed: u64,
    /// Bonus kinds on the stars of the first race, in circuit order; `None` draws them.
    pub first_race_bonuses: Option<[BonusKind; 6]>,
}

/// One line of the standings (B-7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Standing {
    pub seat: Seat,
    pub points: u32,
    pub wins: u8,
    /// Shared when points and wins are equal.
    pub rank: u8,
}

#[derive(Debug, Clone)]
pub struct Championship {
    setup: ChampionshipSetup,
    race: Race,
    points: Vec<u32>,
    wins: Vec<u8>,
    /// Points of each finished race, by seat.
    results: Vec<Vec<u32>>,
    /// First player of the current race's first round (B-7.1).
    race_first: Seat,
    over: bool,
}

impl Championship {
    pub fn new(setup: ChampionshipSetup) -> Result<(Championship, Vec<Event>), SetupError> {
        if setup.circuits.is_empty() {
            return Err(SetupError::NoCircuit);
        }
        let race = Race::new(&RaceSetup {
            bonuses: setup.first_race_bonuses,
            ..race_setup(&setup, 1, setup.options.first_player)
        })?;
        let events = race.opening_events();
        let n = setup.pilots as usize;
        let race_first = race.first_player();
        let champ = Championship {
            setup,
            race,
            points: vec![0; n],
            wins: vec![0; n],
            results: Vec::new(),
            race_first,
            over: false,
        };
        Ok((champ, events))
    }

    pub fn race(&self) -> &Race {
        &self.race
    }
    /// Scenarios and tests reach the race for forced dice and starting states.
    pub fn race_mut(&mut self) -> &mut Race {
        &mut self.race
    }
    pub fn races(&self) -> u8 {
        self.setup.options.races
    }
    pub fn is_over(&self) -> bool {
        self.over
    }
    pub fn points(&self) -> &[u32] {
        &self.points
    }
    pub fn results(&self) -> &[Vec<u32>] {
        &self.results
    }

    /// The one entry point: applies to the current race, scores it when it ends (B-7.2) and
    /// starts the next one (B-7.1), or closes the championship (B-7.3).
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        if self.over {
            return Err(RuleError::RaceOver);
        }
        let mut events = self.race.apply(seat, action)?;
        if self.race.is_over() {
            self.score_race(&mut events);
        }
        Ok(events)
    }

    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.over { Vec::new() } else { self.race.legal_actions(seat) }
    }

    pub fn view_for(&self, seat: Seat) -> PlayerView {
        self.race.view_for(seat)
    }

    pub fn spectator_view(&self) -> PlayerView {
        self.race.spectator_view()
    }

    fn score_race(&mut self, events: &mut Vec<Event>) {
        let points = self.race.points();
        for (total, p) in self.points.iter_mut().zip(&points) {
            *total += p;
        }
        // B-6.3: the first to cross wins the race.
        if let Some(winner) = self.race.finish_order().first() {
            self.wins[winner.index()] += 1;
        }
        self.results.push(points.clone());
        events.push(Event::RacePoints { points });
        let done = self.results.len() as u8;
        if done >= self.races() {
            self.over = true;
            let standings = self.standings().iter().map(|s| (s.seat, s.points, s.wins, s.rank)).collect();
            events.push(Event::ChampionshipEnded { standings });
            return;
        }
        // B-7.1 ruling: a fresh set-up; the first player is the left neighbour of the previous
        // race's first player.
        let next_first = Seat((self.race_first.0 + 1) % self.setup.pilots);
        let setup = race_setup(&self.setup, done + 1, FirstPlayer::Seat(next_first));
        self.race = Race::new(&setup).expect("same table as the first race");
        self.race_first = next_first;
        events.extend(self.race.opening_events());
    }

    /// B-7.3: most points first; ties broken by races won, then shared.
    pub fn standings(&self) -> Vec<Standing> {
        standings_from(&self.points, &self.wins)
    }
}

/// B-7.3 on raw totals, by seat.
pub fn standings_from(points: &[u32], wins: &[u8]) -> Vec<Standing> {
    let mut lines: Vec<Standing> = (0..points.len())
        .map(|s| Standing { seat: Seat(s as u8), points: points[s], wins: wins[s], rank: 0 })
        .collect();
    lines.sort_by(|a, b| (b.points, b.wins).cmp(&(a.points, a.wins)).then(a.seat.cmp(&b.seat)));
    let keys: Vec<(u32, u8)> = lines.iter().map(|l| (l.points, l.wins)).collect();
    for line in &mut lines {
        line.rank = keys.iter().filter(|k| **k > (line.points, line.wins)).count() as u8 + 1;
    }
    lines
}

fn race_setup(setup: &ChampionshipSetup, race: u8, first_player: FirstPlayer) -> RaceSetup {
    let circuit = setup.circuits[(race as usize - 1) % setup.circuits.len()];
    let seed = crate::dice::race_seed(setup.seed, race);
    RaceSetup {
        pilots: setup.pilots,
        circuit,
        seed,
        race,
        first_player,
        bonuses: None,
        echange_drill: setup.options.echange_drill,
    }
}
