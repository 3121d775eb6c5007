//! The scenario runner's Bolide side (`bolide-host scenario`, the format in
//! `docs/scenario-format.md`): seats, circuit, starting state, forced dice and actions,
//! applied through the engine's one entry point, and checks on the end state. Pure: the host
//! parses the file and reads a circuit file it names before it gets here.

use crate::circuits::{CircuitChoice, CircuitLoadError};
use crate::game::{Championship, ChampionshipSetup, Phase, Race, SetupError, Standing, StartState};
use crate::model::{MAX_PILOTS, MIN_PILOTS};
use crate::{Action, Atout, BonusKind, Event, FirstPlayer, Seat, TableOptions};
use bolide_table::scenario;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use thiserror::Error;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub description: String,
    /// Pilot names, one per seat (3 to 6).
    pub seats: Vec<String>,
    #[serde(default)]
    pub seed: u64,
    /// Seat of the first player (B-1.7); absent: drawn from the seed.
    #[serde(default)]
    pub first_player: Option<u8>,
    /// Races in the championship (B-7.1); default 1.
    #[serde(default = "one")]
    pub races: u8,
    pub circuit: CircuitChoice,
    /// Bonus kinds on the stars in circuit order (first race); absent: drawn from the seed.
    #[serde(default)]
    pub bonuses: Option<[BonusKind; 6]>,
    #[serde(default)]
    pub start: StartState,
    /// Reservoir values by pawn, one list per round, used in order.
    #[serde(default)]
    pub reservoirs: Vec<Vec<u8>>,
    /// Accelerator rolls, used in order by `Roll` and `SecondChance`.
    #[serde(default)]
    pub accelerator: Vec<u8>,
    pub actions: Vec<Step>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

fn one() -> u8 {
    1
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub seat: Seat,
    pub action: Action,
    /// The rule id this action must be refused with; the run then goes on, state unchanged.
    #[serde(default)]
    pub refused: Option<String>,
}

/// Checks on the final state; any mismatch makes the run fail.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default)]
    pub cars: Vec<ExpectCar>,
    /// Championship points per seat after the run.
    #[serde(default)]
    pub points: Option<Vec<u32>>,
    /// Events that must appear in the log (in this order, not necessarily adjacent).
    #[serde(default)]
    pub events: Vec<Event>,
    #[serde(default)]
    pub oil: Option<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectCar {
    pub seat: Seat,
    pub position: Option<u8>,
    pub second_chance: Option<bool>,
    pub atouts: Option<Vec<Atout>>,
    pub bonuses: Option<Vec<BonusKind>>,
}

#[derive(Debug, Error)]
pub enum ScenarioError {
    #[error("`circuit`")]
    Circuit(#[from] CircuitLoadError),
    #[error("set-up")]
    Setup(#[from] SetupError),
    #[error("`first_player`: there is no seat {0}")]
    FirstPlayer(u8),
    #[error("`seats`: B-1.1: a race has 3 to 6 pilots, not {0}")]
    Seats(usize),
    #[error("`races`: a championship has 1 to 20 races, not {0}")]
    Races(u8),
}

pub type Output = scenario::Output<FinalState, Event>;
pub type LoggedEvent = scenario::LoggedEvent<Event>;
pub type RunReport = scenario::RunReport<FinalState, Event>;

/// The whole final state, secrets included: a scenario is an omniscient tool.
#[derive(Debug, Clone, Serialize)]
pub struct FinalState {
    pub race: u8,
    pub round: u16,
    pub phase: String,
    pub first_player: Seat,
    pub circuit: crate::Circuit,
    pub cars: Vec<FinalCar>,
    pub face_down_bonuses: Vec<(u8, BonusKind)>,
    pub oil: Option<u8>,
    pub lanterne_rouge: Option<Seat>,
    pub second_chance_supply: u8,
    pub finish_order: Vec<Seat>,
    pub points: Vec<u32>,
    pub standings: Vec<Standing>,
    pub championship_over: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct FinalCar {
    pub seat: Seat,
    pub name: String,
    pub position: u8,
    pub atouts: crate::Atouts,
    pub bonuses: crate::Bonuses,
    pub second_chance: bool,
    pub panne_seche: bool,
    pub reservoir: Option<u8>,
}

/// Runs a scenario whose circuit is not a file (the host reads a file into its tiles first).
pub fn run(scenario: &Scenario) -> Result<RunReport, ScenarioError> {
    let pilots = u8::try_from(scenario.seats.len())
        .ok()
        .filter(|n| (MIN_PILOTS..=MAX_PILOTS).contains(&usize::from(*n)))
        .ok_or(ScenarioError::Seats(scenario.seats.len()))?;
    if !(1..=20).contains(&scenario.races) {
        return Err(ScenarioError::Races(scenario.races));
    }
    let first_player = match scenario.first_player {
        Some(s) if s < pilots => FirstPlayer::Seat(Seat(s)),
        Some(s) => return Err(ScenarioError::FirstPlayer(s)),
        None => FirstPlayer::Random,
    };
    let setup = ChampionshipSetup {
        pilots,
        options: TableOptions { first_player, races: scenario.races, ..TableOptions::default() },
        circuits: vec![scenario.circuit.load()?],
        seed: scenario.seed,
        first_race_bonuses: scenario.bonuses,
    };
    let (mut champ, opening) = Championship::new(setup)?;
    champ.race_mut().set_start(&scenario.start)?;
    let mut events = opening;
    let mut reservoirs: VecDeque<&Vec<u8>> = scenario.reservoirs.iter().collect();
    let mut accelerator: VecDeque<u8> = scenario.accelerator.iter().copied().collect();
    let mut forced_round = None;
    let mut failure = None;
    for (i, step) in scenario.actions.iter().enumerate() {
        let race = champ.race_mut();
        let round = (race.race_no(), race.round());
        if race.phase() == Phase::CupDown && forced_round != Some(round) {
            forced_round = Some(round);
            if let Some(values) = reservoirs.pop_front() {
                race.force_reservoirs(values)?;
            }
        }
        if matches!(step.action, Action::Roll | Action::SecondChance)
            && step.refused.is_none()
            && let Some(value) = accelerator.pop_front()
        {
            race.force_accelerator(value)?;
        }
        let result = champ.apply(step.seat, step.action);
        let what = format!("action #{} ({} {:?})", i + 1, step.seat, step.action);
        let result = result.map(|new| events.extend(new));
        if let Err(e) = scenario::judge(result, |e| e.rule().to_string(), step.refused.as_deref(), &what) {
            failure = Some(e);
            break;
        }
    }
    let output = Output {
        description: scenario.description.clone(),
        final_state: final_state(&champ, &scenario.seats),
        events: events.iter().map(|e| LoggedEvent { rule: e.rule(), event: e.clone() }).collect(),
    };
    if failure.is_none()
        && let Some(expect) = &scenario.expect
    {
        failure = check(expect, &output).err();
    }
    Ok(RunReport { output, failure })
}

fn final_state(champ: &Championship, names: &[String]) -> FinalState {
    let race: &Race = champ.race();
    FinalState {
        race: race.race_no(),
        round: race.round(),
        phase: format!("{:?}", race.phase()),
        first_player: race.first_player(),
        circuit: *race.circuit(),
        cars: race
            .seats()
            .map(|seat| {
                let car = race.car(seat);
                FinalCar {
                    seat,
                    name: names.get(seat.index()).cloned().unwrap_or_default(),
                    position: car.position,
                    atouts: car.atouts,
                    bonuses: car.bonuses,
                    second_chance: car.second_chance,
                    panne_seche: car.panne_seche || car.panne_seche_pending,
                    reservoir: race.reservoir_of(seat),
                }
            })
            .collect(),
        face_down_bonuses: race.face_down_bonuses().collect(),
        oil: race.oil(),
        lanterne_rouge: race.lanterne_rouge(),
        second_chance_supply: race.second_chance_supply(),
        finish_order: race.finish_order().to_vec(),
        points: champ.points().to_vec(),
        standings: champ.standings(),
        championship_over: champ.is_over(),
    }
}

fn check(expect: &Expect, out: &Output) -> Result<(), String> {
    let state = &out.final_state;
    for want in &expect.cars {
        let car = state.cars.get(want.seat.index()).ok_or(format!("expect: no {}", want.seat))?;
        let name = &car.name;
        if let Some(p) = want.position.filter(|p| *p != car.position) {
            return Err(format!("expected {name} on position {p}, found {}", car.position));
        }
        if let Some(sc) = want.second_chance.filter(|sc| *sc != car.second_chance) {
            return Err(format!("expected {name} second_chance = {sc}, found {}", car.second_chance));
        }
        if let Some(atouts) = &want.atouts
            && atouts.iter().copied().collect::<crate::Atouts>() != car.atouts
        {
            return Err(format!("expected {name} to hold Atouts {atouts:?}, found {:?}", car.atouts));
        }
        if let Some(bonuses) = &want.bonuses
            && bonuses.iter().copied().collect::<crate::Bonuses>() != car.bonuses
        {
            return Err(format!("expected {name} to hold bonuses {bonuses:?}, found {:?}", car.bonuses));
        }
    }
    if let Some(points) = expect.points.as_ref().filter(|p| **p != state.points) {
        return Err(format!("expected points {points:?}, found {:?}", state.points));
    }
    if let Some(oil) = expect.oil.filter(|o| Some(*o) != state.oil) {
        return Err(format!("expected oil on {oil}, found {:?}", state.oil));
    }
    scenario::in_order(out.events.iter().map(|e| &e.event), &expect.events)
}
