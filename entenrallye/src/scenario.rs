//! The scenario runner's Entenrallye side (`bolide-host scenario` with `"game":
//! "entenrallye"`, format in `docs/scenario-format.md`): a year started from a seed, then
//! arranged — every car's square, parts, marker, checks and scores, the calendar, the top of
//! the draw pile, the die's next rolls, whose turn —, actions applied through the engine's one
//! entry point, and checks on the end state. Squares and parts go by the names the rules
//! print (`A14`, `TUV`, `P05`). Pure: the host reads the file.

use crate::action::{Action, RuleError};
use crate::board::board;
use crate::event::Event;
use crate::options::Settings;
use crate::part::Part;
use crate::rallye::{ArrangeError, CarSetup, Check, Phase, Rallye};
use bolide_table::{Game, Seat, scenario};
use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub description: String,
    /// Player names, one per seat (2 to 6).
    pub seats: Vec<String>,
    #[serde(default)]
    pub seed: u64,
    /// The table options, any field left out at its default.
    #[serde(default)]
    pub options: Settings,
    /// The calendar; absent: not started (E-3.2).
    #[serde(default)]
    pub calendar: Option<When>,
    /// The cars the situation places; the others stand on START, bare.
    #[serde(default)]
    pub cars: Vec<CarAt>,
    /// Parts on top of the draw pile, the first drawn first.
    #[serde(default)]
    pub draw: Vec<String>,
    /// The die's next rolls, in order; then the seed's.
    #[serde(default)]
    pub dice: Vec<u8>,
    /// Whose turn it is, before its roll; absent: the first player's.
    #[serde(default)]
    pub turn: Option<u8>,
    pub actions: Vec<Step>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

/// A calendar position (E-3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    pub month: u8,
    pub step: u8,
}

/// One car as the situation places it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarAt {
    pub seat: u8,
    /// The square, by its name in E-14.5 (`START`, `A14`, `M1`, `TUV`, `NT03`…).
    #[serde(default)]
    pub at: Option<String>,
    /// Driving back out of a check's spur (E-12.2).
    #[serde(default)]
    pub returning: bool,
    /// The meeting it waits at, 1 to 3 (E-11.6).
    #[serde(default)]
    pub waiting: Option<u8>,
    #[serde(default)]
    pub repair: u8,
    #[serde(default)]
    pub fitted: Vec<String>,
    #[serde(default)]
    pub hidden: Vec<String>,
    /// TÜV then ASU: `"Owed"`, `"Passed"`, `"Failed"`, `"RoundedUp"`.
    #[serde(default)]
    pub checks: Option<[Check; 2]>,
    /// The points written at M1 to M4 (`null`: not judged there).
    #[serde(default)]
    pub scores: Option<[Option<u8>; 4]>,
}

/// A seat's action, squares and parts by name.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub seat: u8,
    pub action: Act,
    /// The rule id this step must be refused with; the run goes on, state unchanged.
    #[serde(default)]
    pub refused: Option<String>,
}

/// `Action`, as a file writes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Act {
    Roll,
    Drive {
        to: String,
        squares: u8,
        #[serde(default)]
        buy: bool,
        #[serde(default)]
        repair: u8,
    },
    Fit {
        part: String,
    },
    Steal {
        from: u8,
    },
    Exchange {
        with: u8,
        give: String,
    },
    Keep {
        parts: Vec<String>,
    },
    EndTurn,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// What each car named must show at the end (fields left out are not checked).
    #[serde(default)]
    pub cars: Vec<ExpectCar>,
    #[serde(default)]
    pub calendar: Option<When>,
    /// Whose turn it is at the end.
    #[serde(default)]
    pub turn: Option<u8>,
    /// The year is over (E-13.1).
    #[serde(default)]
    pub over: Option<bool>,
    /// Events that must appear in the log (in this order, not necessarily adjacent), as the
    /// output's `events` show them: squares and parts by their printed names (`crate::printed`).
    #[serde(default)]
    pub events: Vec<Event>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectCar {
    pub seat: u8,
    #[serde(default)]
    pub at: Option<String>,
    #[serde(default)]
    pub repair: Option<u8>,
    #[serde(default)]
    pub checks: Option<[Check; 2]>,
    #[serde(default)]
    pub scores: Option<[Option<u8>; 4]>,
    #[serde(default)]
    pub hidden: Option<Vec<String>>,
}

#[derive(Debug, Error)]
pub enum ScenarioError {
    #[error("`seats`/`options`: {0}")]
    Settings(String),
    #[error("`cars`, `calendar`, `draw` or `turn`: {0}")]
    Arrange(#[from] ArrangeError),
    #[error("`{field}`: `{name}` is no square of E-14.5 (START, A01…A14, M1, TUV, NT01…)")]
    Square { field: &'static str, name: String },
    #[error("`{field}`: `{name}` is no part (P01 to P48, E-14.7)")]
    Part { field: &'static str, name: String },
    #[error("`dice`: a die shows 1 to 6, not {0}")]
    Die(u8),
    #[error("`cars`: seat {0} is placed twice")]
    Twice(u8),
}

pub type Output = scenario::Output<FinalState, Event>;
pub type LoggedEvent = scenario::LoggedEvent<Event>;
pub type RunReport = scenario::RunReport<FinalState, Event>;

/// The whole end state, every hidden part included: a scenario is an omniscient tool.
#[derive(Debug, Clone, Serialize)]
pub struct FinalState {
    /// Not started, or the month and step (E-3.4).
    pub calendar: Option<When>,
    pub turn: u8,
    pub phase: Phase,
    pub cars: Vec<FinalCar>,
    /// The draw pile, the top first.
    pub pile: Vec<String>,
    pub over: bool,
    pub standings: Option<Vec<bolide_table::Standing>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FinalCar {
    pub seat: u8,
    pub at: String,
    pub returning: bool,
    /// The meeting it waits at, 1 to 3.
    pub waiting: Option<u8>,
    pub repair: u8,
    pub faults: u8,
    pub points: u8,
    pub fitted: Vec<String>,
    pub hidden: Vec<String>,
    pub checks: [Check; 2],
    pub scores: [Option<u8>; 4],
    pub total: u16,
}

fn square(field: &'static str, name: &str) -> Result<crate::board::Square, ScenarioError> {
    board().find(name).ok_or_else(|| ScenarioError::Square { field, name: name.to_string() })
}

fn part(field: &'static str, name: &str) -> Result<Part, ScenarioError> {
    Part::all().find(|p| p.id() == name).ok_or_else(|| ScenarioError::Part { field, name: name.to_string() })
}

fn parts(field: &'static str, names: &[String]) -> Result<Vec<Part>, ScenarioError> {
    names.iter().map(|n| part(field, n)).collect()
}

impl Act {
    fn action(&self) -> Result<Action, ScenarioError> {
        Ok(match self {
            Act::Roll => Action::Roll,
            Act::Drive { to, squares, buy, repair } => {
                Action::Drive { to: square("actions", to)?, squares: *squares, buy: *buy, repair: *repair }
            }
            Act::Fit { part: p } => Action::Fit { part: part("actions", p)? },
            Act::Steal { from } => Action::Steal { from: Seat(*from) },
            Act::Exchange { with, give } => Action::Exchange { with: Seat(*with), give: part("actions", give)? },
            Act::Keep { parts: kept } => {
                let kept = parts("actions", kept)?;
                Action::Keep { parts: [kept.first().copied(), kept.get(1).copied()] }
            }
            Act::EndTurn => Action::EndTurn,
        })
    }
}

pub fn run(scenario: &Scenario) -> Result<RunReport, ScenarioError> {
    let players = u8::try_from(scenario.seats.len()).unwrap_or(u8::MAX);
    let mut events = Vec::new();
    let mut game =
        Rallye::new(scenario.options, players, scenario.seed, &mut events).map_err(ScenarioError::Settings)?;
    if let Some(die) = scenario.dice.iter().copied().find(|d| !(1..=6).contains(d)) {
        return Err(ScenarioError::Die(die));
    }
    for (i, car) in scenario.cars.iter().enumerate() {
        if scenario.cars[..i].iter().any(|c| c.seat == car.seat) {
            return Err(ScenarioError::Twice(car.seat));
        }
        let setup = CarSetup {
            at: car.at.as_deref().map(|n| square("cars", n)).transpose()?,
            returning: car.returning,
            waiting: car.waiting.map(|m| m.wrapping_sub(1)),
            repair: car.repair,
            fitted: parts("cars", &car.fitted)?,
            hidden: parts("cars", &car.hidden)?,
            checks: car.checks,
            scores: car.scores,
        };
        game.arrange_car(Seat(car.seat), &setup)?;
    }
    if let Some(When { month, step }) = scenario.calendar {
        game.arrange_calendar(month, step)?;
    }
    game.arrange_draw_top(&parts("draw", &scenario.draw)?)?;
    if let Some(seat) = scenario.turn {
        game.arrange_turn(Seat(seat))?;
    }
    let mut dice = scenario.dice.iter().copied();
    let mut failure = None;
    for (i, step) in scenario.actions.iter().enumerate() {
        let action = step.action.action()?;
        let seat = Seat(step.seat);
        let what = format!("action #{} (seat {} {:?})", i + 1, seat.number(), step.action);
        let result = match action {
            // The die a file names is used up by a roll the engine takes, not a refused one.
            Action::Roll if game.check(seat, Action::Roll).is_ok() => match dice.next() {
                Some(die) => game.arrange_roll(seat, die, &mut events),
                None => game.apply(seat, action, &mut events),
            },
            _ => game.apply(seat, action, &mut events),
        };
        if let Err(e) = scenario::judge(result, RuleError::rule, step.refused.as_deref(), &what) {
            failure = Some(e);
            break;
        }
    }
    let output = Output {
        description: scenario.description.clone(),
        final_state: final_state(&game),
        events: events.iter().map(|e| LoggedEvent { rule: e.rule(), event: e.clone() }).collect(),
    };
    if failure.is_none()
        && let Some(expect) = &scenario.expect
    {
        failure = check(expect, &output).err();
    }
    Ok(RunReport { output, failure })
}

fn final_state(game: &Rallye) -> FinalState {
    let b = board();
    let calendar = game.calendar();
    let names = |ps: &mut dyn Iterator<Item = Part>| ps.map(Part::id).collect::<Vec<_>>();
    FinalState {
        calendar: (calendar.time > 0).then(|| When { month: calendar.month(), step: calendar.step() }),
        turn: game.turn().0,
        phase: game.phase(),
        cars: game
            .cars()
            .iter()
            .enumerate()
            .map(|(i, c)| FinalCar {
                seat: i as u8,
                at: b.name(c.at).to_string(),
                returning: c.returning,
                waiting: c.waiting.map(|m| m + 1),
                repair: c.repair,
                faults: c.faults(),
                points: c.points(crate::part::Colour::of_seat(i as u8)),
                fitted: names(&mut c.fitted.iter().flatten().copied()),
                hidden: names(&mut c.hidden.iter().copied()),
                checks: c.checks,
                scores: c.scores,
                total: c.total(),
            })
            .collect(),
        pile: names(&mut game.pile().iter().rev().copied()),
        over: game.is_over(),
        standings: Game::standings(game),
    }
}

fn check(expect: &Expect, out: &Output) -> Result<(), String> {
    let state = &out.final_state;
    for want in &expect.cars {
        let car = state.cars.get(usize::from(want.seat)).ok_or(format!("`expect.cars`: no seat {}", want.seat))?;
        let seat = u16::from(want.seat) + 1;
        if let Some(at) = want.at.as_ref().filter(|at| **at != car.at) {
            return Err(format!("expected seat {seat}'s car on {at}, found it on {}", car.at));
        }
        if let Some(repair) = want.repair.filter(|r| *r != car.repair) {
            return Err(format!("expected seat {seat}'s repair marker on {repair}, found {}", car.repair));
        }
        if let Some(checks) = want.checks.filter(|c| *c != car.checks) {
            return Err(format!("expected seat {seat}'s checks {checks:?}, found {:?}", car.checks));
        }
        if let Some(scores) = want.scores.filter(|s| *s != car.scores) {
            return Err(format!("expected seat {seat}'s scores {scores:?}, found {:?}", car.scores));
        }
        if let Some(hidden) = want.hidden.as_ref().filter(|h| **h != car.hidden) {
            return Err(format!("expected seat {seat}'s hidden parts {hidden:?}, found {:?}", car.hidden));
        }
    }
    if let Some(when) = expect.calendar.filter(|w| Some(*w) != state.calendar) {
        return Err(format!("expected the calendar at {when:?}, found {:?}", state.calendar));
    }
    if let Some(turn) = expect.turn.filter(|t| *t != state.turn) {
        return Err(format!(
            "expected seat {}'s turn, found seat {}'s",
            u16::from(turn) + 1,
            u16::from(state.turn) + 1
        ));
    }
    if let Some(over) = expect.over.filter(|o| *o != state.over) {
        return Err(format!("expected the year over: {over}, found {}", state.over));
    }
    scenario::in_order(out.events.iter().map(|e| &e.event), &expect.events)
}
