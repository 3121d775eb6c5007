//! The scenario runner's 1000 Bornes side (`bolide-host scenario` with `"game":
//! "mille-bornes"`, format in `docs/scenario-format.md`): a hand dealt from a seed, then
//! arranged — hands, tableaux, the top of the draw pile, whose turn —, actions applied through
//! the engine's one entry point, and checks on the end state. Pure: the host reads the file.

use crate::action::Action;
use crate::card::Card;
use crate::event::Event;
use crate::manche::{ArrangeError, Phase};
use crate::options::{FirstDealer, Settings, SettingsError};
use crate::partie::{Partie, Standing};
use crate::score::HandScore;
use crate::tableau::Tableau;
use bolide_table::{Seat, scenario};
use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub description: String,
    /// Player names, one per seat (2, 3, 4, 6 or 8).
    pub seats: Vec<String>,
    #[serde(default)]
    pub seed: u64,
    /// The first hand's dealer (M-3.1); absent: drawn from the seed.
    #[serde(default)]
    pub dealer: Option<u8>,
    /// The table options (M-14), any field left out at its default.
    #[serde(default)]
    pub options: Settings,
    /// Each seat's exact hand after the deal (absent or `null`: as dealt).
    #[serde(default)]
    pub hands: Vec<Option<Vec<Card>>>,
    /// Cards laid on each side's tableau, in order, as plays would lay them (an attack stands).
    #[serde(default)]
    pub tableaux: Vec<Vec<Card>>,
    /// Cards on top of the draw pile, the first drawn first.
    #[serde(default)]
    pub draw: Vec<Card>,
    /// Cards left in the draw pile, `draw`'s on top of them; the others go to the discard,
    /// from the bottom.
    #[serde(default)]
    pub draw_count: Option<u8>,
    /// Running totals per side before this hand (M-12.9).
    #[serde(default)]
    pub totals: Vec<u32>,
    /// Hands won per side before this hand (M-13.3).
    #[serde(default)]
    pub hands_won: Vec<u8>,
    /// Whose turn it is (that seat has drawn already).
    #[serde(default)]
    pub turn: Option<u8>,
    pub actions: Vec<Step>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

/// A seat's action, or the table closing the Coup-Fourré window with no valid call.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default)]
    pub seat: Option<Seat>,
    #[serde(default)]
    pub action: Option<Action>,
    /// The window's time is up (M-15.7): no seat, no action.
    #[serde(default)]
    pub close_window: bool,
    /// The rule id this step must be refused with; the run goes on, state unchanged.
    #[serde(default)]
    pub refused: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Kilometres per side.
    #[serde(default)]
    pub km: Option<Vec<u16>>,
    /// Running totals per side.
    #[serde(default)]
    pub totals: Option<Vec<u32>>,
    /// Whose turn it is at the end.
    #[serde(default)]
    pub turn: Option<u8>,
    /// A Coup-Fourré window is open at the end.
    #[serde(default)]
    pub window: Option<bool>,
    /// Events that must appear in the log (in this order, not necessarily adjacent).
    #[serde(default)]
    pub events: Vec<Event>,
}

#[derive(Debug, Error)]
pub enum ScenarioError {
    #[error("`seats`/`options`: {0}")]
    Settings(#[from] SettingsError),
    #[error("`dealer`: there is no seat {0}")]
    Dealer(u8),
    #[error("`hands`, `tableaux`, `draw`, `totals` or `hands_won`: {0}")]
    Arrange(#[from] ArrangeError),
    #[error("`actions` #{0}: a step is a seat and an action, or `\"close_window\": true`")]
    Step(usize),
    #[error("`draw_count`: {keep} cards cannot hold the {top} `draw` puts on top; leave at least {top}")]
    DrawCount { keep: u8, top: usize },
}

pub type Output = scenario::Output<FinalState, Event>;
pub type LoggedEvent = scenario::LoggedEvent<Event>;
pub type RunReport = scenario::RunReport<FinalState, Event>;

/// The whole end state, every hand included: a scenario is an omniscient tool.
#[derive(Debug, Clone, Serialize)]
pub struct FinalState {
    pub hand: u16,
    pub phase: Phase,
    pub hands: Vec<Vec<Card>>,
    pub tableaux: Vec<Tableau>,
    pub draw_count: u8,
    pub discard_top: Option<Card>,
    pub totals: Vec<u32>,
    pub history: Vec<HandScore>,
    pub over: bool,
    /// Each seat's place by the running totals: the final standings once `over`.
    pub standings: Vec<Standing>,
}

pub fn run(scenario: &Scenario) -> Result<RunReport, ScenarioError> {
    let players = u8::try_from(scenario.seats.len()).unwrap_or(u8::MAX);
    let mut settings = scenario.options;
    settings.check(players)?;
    if let Some(dealer) = scenario.dealer {
        if dealer >= players {
            return Err(ScenarioError::Dealer(dealer));
        }
        settings.first_dealer = FirstDealer::Seat(dealer);
    }
    let mut events = Vec::new();
    let mut partie = Partie::new(settings, players, scenario.seed, &mut events)?;
    let m = partie.manche_mut();
    for (seat, hand) in scenario.hands.iter().enumerate() {
        if let Some(cards) = hand {
            m.arrange_hand(Seat(u8::try_from(seat).unwrap_or(u8::MAX)), cards)?;
        }
    }
    for (side, cards) in scenario.tableaux.iter().enumerate() {
        m.arrange_tableau(u8::try_from(side).unwrap_or(u8::MAX), cards)?;
    }
    m.arrange_draw_top(&scenario.draw)?;
    if let Some(keep) = scenario.draw_count {
        if usize::from(keep) < scenario.draw.len() {
            return Err(ScenarioError::DrawCount { keep, top: scenario.draw.len() });
        }
        m.arrange_draw_count(keep);
    }
    if let Some(seat) = scenario.turn {
        m.arrange_turn(Seat(seat))?;
    }
    partie.arrange_score(&scenario.totals, &scenario.hands_won)?;
    let mut failure = None;
    for (i, step) in scenario.actions.iter().enumerate() {
        let result = match (step.seat, step.action, step.close_window) {
            (Some(seat), Some(action), false) => partie.apply_into(seat, action, &mut events),
            (None, None, true) => partie.close_window(&mut events),
            _ => return Err(ScenarioError::Step(i + 1)),
        };
        let what = match (step.seat, step.action) {
            (Some(seat), Some(action)) => format!("action #{} (seat {} {action:?})", i + 1, seat.number()),
            _ => format!("action #{} (close the window)", i + 1),
        };
        let rule_of = |e: &crate::action::RuleError| e.to_string().split(':').next().unwrap_or("").to_string();
        if let Err(e) = scenario::judge(result, rule_of, step.refused.as_deref(), &what) {
            failure = Some(e);
            break;
        }
    }
    let output = Output {
        description: scenario.description.clone(),
        final_state: final_state(&partie),
        events: events.iter().map(|e| LoggedEvent { rule: e.rule(), event: *e }).collect(),
    };
    if failure.is_none()
        && let Some(expect) = &scenario.expect
    {
        failure = check(expect, &output).err();
    }
    Ok(RunReport { output, failure })
}

fn final_state(partie: &Partie) -> FinalState {
    let m = partie.manche();
    FinalState {
        hand: m.number(),
        phase: m.phase(),
        hands: (0..m.players()).map(|s| m.hand(Seat(s)).map(|h| h.cards().collect()).unwrap_or_default()).collect(),
        tableaux: m.tableaux().to_vec(),
        draw_count: m.draw_count(),
        discard_top: m.discard().1,
        totals: partie.totals().to_vec(),
        history: partie.history().to_vec(),
        over: partie.is_over(),
        standings: partie.places(),
    }
}

fn check(expect: &Expect, out: &Output) -> Result<(), String> {
    let state = &out.final_state;
    if let Some(km) = &expect.km {
        let found: Vec<u16> = state.tableaux.iter().map(|t| t.km).collect();
        if *km != found {
            return Err(format!("expected km {km:?}, found {found:?}"));
        }
    }
    if let Some(totals) = expect.totals.as_ref().filter(|t| **t != state.totals) {
        return Err(format!("expected totals {totals:?}, found {:?}", state.totals));
    }
    if let Some(turn) = expect.turn
        && state.phase != (Phase::Turn { seat: Seat(turn) })
    {
        return Err(format!("expected seat {}'s turn, found {:?}", u16::from(turn) + 1, state.phase));
    }
    if let Some(window) = expect.window
        && window != matches!(state.phase, Phase::Window { .. })
    {
        return Err(format!("expected a window open: {window}, found {:?}", state.phase));
    }
    scenario::in_order(out.events.iter().map(|e| &e.event), &expect.events)
}
