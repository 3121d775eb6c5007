//! Bolide at the table: the adapter between `bolide_table::Game` and the championship. The
//! cup is a countdown (Klaxon calls until the lift, B-4.6), the grab a timed moment released
//! at a secret instant (B-4.2), the Échange window one released at once (B-4.7), the Klaxon
//! picks and the movement turns sequential decisions.

use super::{Championship, ChampionshipSetup, Phase};
use crate::bots::{Decide, SeatSight};
use crate::circuits::{CircuitChoice, CircuitLoadError};
use crate::event::{Contest, PhotoFinish};
use crate::options::{FirstPlayer, RaceSettings};
use crate::twin::Twin;
use crate::{Action, Circuit, Event, Pawn, PlayerView, RuleError, Seat, Timed};
use bolide_table::Asked;
use bolide_table::{BotLevel, Game, Release, Seats, Standing, Step, TIE_US};
use rand_chacha::ChaCha8Rng;
use std::borrow::Cow;

/// B-7.1: the races a championship may chain, from the wire or a flag.
const RACES: std::ops::RangeInclusive<u8> = 1..=50;

/// B-1.1: the pilots a table holds.
const PILOTS: std::ops::RangeInclusive<u8> = 3..=6;

impl Game for Championship {
    type Action = Action;
    type Event = Event;
    type View = PlayerView;
    type Settings = RaceSettings;
    type Refusal = RuleError;

    type Words = crate::Bolide;
    const PLAYERS: (u8, u8) = (*PILOTS.start(), *PILOTS.end());

    fn check_settings(settings: &RaceSettings, players: u8) -> Result<(), String> {
        if !PILOTS.contains(&players) {
            return Err(format!("B-1.1: Bolide plays 3 to 6 pilots, not {players}"));
        }
        // The lobby and the flags offer 1 to 20; the fairness lab's long runs take up to 50.
        if !RACES.contains(&settings.options.races) {
            return Err(format!("races: {} is not 1 to {}", settings.options.races, RACES.end()));
        }
        if let FirstPlayer::Seat(seat) = settings.options.first_player
            && seat.0 >= players
        {
            return Err(format!("first-player: seat {} is empty at a table of {players}", seat.0));
        }
        circuits_for_race(settings, 1).map(|_| ()).map_err(|e| format!("circuit: {e}"))
    }

    fn start(settings: &RaceSettings, players: u8, seed: u64, events: &mut Vec<Event>) -> Result<Championship, String> {
        Self::check_settings(settings, players)?;
        let circuits = circuits_for_race(settings, settings.options.races).map_err(|e| e.to_string())?;
        let setup =
            ChampionshipSetup { pilots: players, options: settings.options, circuits, seed, first_race_bonuses: None };
        let (champ, opening) = Championship::new(setup).map_err(|e| e.to_string())?;
        events.extend(opening);
        Ok(champ)
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        match (self.is_over(), action) {
            (true, _) => Err(RuleError::RaceOver),
            // The table lifts the cup when the countdown ends, never a seat (B-4.2).
            (false, Action::Lift) => Err(RuleError::HostLifts),
            (false, _) => self.race().check(seat, action),
        }
    }

    /// B-4.3: a pawn taken meanwhile may be a slower hand's — the arbiter decides.
    fn claimable(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        match Game::check(self, seat, action) {
            Err(RuleError::PawnTaken { .. }) => Ok(()),
            other => other,
        }
    }

    fn apply(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        if action == Action::Lift {
            return Err(RuleError::HostLifts);
        }
        events.extend(Championship::apply(self, seat, action)?);
        Ok(())
    }

    fn legal(&self, seat: Seat, out: &mut Vec<Action>) {
        if !self.is_over() {
            self.race().legal_actions_into(seat, out);
            // The table lifts the cup when the countdown ends, never a seat (B-4.2).
            out.retain(|a| *a != Action::Lift);
        }
    }

    fn view(&self, viewer: Option<Seat>) -> PlayerView {
        match viewer {
            Some(seat) if seat.0 < self.race().pilots() => self.view_for(seat),
            _ => self.spectator_view(),
        }
    }

    fn step(&self) -> Step {
        if self.is_over() {
            return Step::Over;
        }
        let race = self.race();
        let moment = |kind: Timed| kind.name(race.race_no(), race.round());
        match race.phase() {
            Phase::CupDown => {
                Step::Countdown { callers: race.seats().filter(|s| race.check(*s, Action::Klaxon).is_ok()).collect() }
            }
            Phase::KlaxonPicks => Step::Sequential { seats: race.klaxon_picker().map(Seats::one).unwrap_or_default() },
            Phase::Grab => Step::Timed {
                moment: moment(Timed::Grab),
                contenders: race.seats().filter(|s| race.car(*s).pawn.is_none()).collect(),
                release: Release::Secret,
                window_us: None,
            },
            Phase::Echange => Step::Timed {
                moment: moment(Timed::Echange),
                contenders: race.seats().filter(|s| race.check(*s, Action::KeepPawn).is_ok()).collect(),
                release: Release::Public,
                window_us: None,
            },
            Phase::Movement => Step::Sequential { seats: race.active_seat().map(Seats::one).unwrap_or_default() },
            Phase::Over => Step::Over,
        }
    }

    /// The countdown's end is the lift (B-4.2): the first player's cup, lifted by the table.
    fn time_is_up(&mut self, events: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.race().phase() != Phase::CupDown {
            return Err(RuleError::WrongPhase {
                action: Action::Lift,
                phase: Cow::Borrowed("no countdown is running"),
            });
        }
        let first = self.race().first_player();
        events.extend(Championship::apply(self, first, Action::Lift)?);
        Ok(())
    }

    fn bot(&self, seat: Seat, level: BotLevel, rng: &mut ChaCha8Rng, scratch: &mut Vec<Action>) -> Option<Action> {
        scratch.clear();
        Game::legal(self, seat, scratch);
        if scratch.is_empty() {
            return None;
        }
        level.decide(&SeatSight { race: self.race(), seat }, scratch, rng)
    }

    fn standings(&self) -> Option<Vec<Standing>> {
        self.is_over().then(|| {
            Championship::standings(self)
                .iter()
                .map(|s| Standing { seat: s.seat, points: s.points, wins: s.wins, rank: s.rank })
                .collect()
        })
    }

    /// The datagram twin of the update that opens a moment (fairness.md §2), with when to show
    /// it, so that a lost packet on the stream does not delay what the pilot sees: the reveal's
    /// values, or who holds each pawn when an Échange window opens (B-4.7; it also carries the
    /// values, as the last Klaxon pick can reveal and open the window in one update).
    fn twin(&self, events: &[Event]) -> Option<Twin> {
        let race = self.race();
        let (race_no, round) = (race.race_no(), race.round());
        if let Some(seats) = events.iter().rev().find_map(|e| match e {
            Event::EchangeWindow { seats } => Some(seats),
            _ => None,
        }) {
            let pawns = self.spectator_view().pawns;
            let (mut holders, mut values) = (vec![None; pawns.len()], vec![0; pawns.len()]);
            for p in pawns {
                if let (Some(holder), Some(value)) = (holders.get_mut(p.pawn.index()), values.get_mut(p.pawn.index())) {
                    *holder = p.owner;
                    *value = p.reservoir.unwrap_or(0);
                }
            }
            let deciding = seats.iter().fold(0u8, |bits, s| bits | 1u8.checked_shl(u32::from(s.0)).unwrap_or(0));
            return Some(Twin::EchangeOpen { race: race_no, round, holders, values, deciding });
        }
        let values = events.iter().find_map(|e| match e {
            Event::ReservoirsRevealed { values } => Some(values),
            _ => None,
        })?;
        Some(Twin::Reveal { race: race_no, round, values: values.clone() })
    }

    /// The photo finish of a moment: each seat's first reaction, and in a grab, for every pawn
    /// that someone else also asked for, the margin between its holder's request and the
    /// fastest losing one (B-4.3). `None` when nobody asked for anything (every pawn went by
    /// Klaxon picks or by itself).
    fn photo_finish(&self, moment: u64, asked: &[Asked<Action>]) -> Option<Event> {
        let (_, _, moment) = Timed::from_name(moment)?;
        if asked.is_empty() {
            return None;
        }
        let race = self.race();
        let micros = |us: u64| u32::try_from(us).unwrap_or(u32::MAX);
        let mut reactions = vec![None; usize::from(race.pilots())];
        for a in asked {
            if let Some(slot @ None) = reactions.get_mut(a.seat.index()) {
                *slot = Some(micros(a.reaction_us));
            }
        }
        let pawn_of = |action: Action| match action {
            Action::TakePawn { pawn } => Some(pawn),
            _ => None,
        };
        let holder = |pawn| race.seats().find(|s| race.car(*s).pawn == Some(pawn));
        let mut pawns: Vec<Pawn> = asked.iter().filter_map(|a| pawn_of(a.action)).collect();
        pawns.sort_unstable();
        pawns.dedup();
        let contested = pawns
            .into_iter()
            .filter_map(|pawn| {
                let winner = holder(pawn)?;
                let fastest = |seat_is_winner: bool| {
                    asked
                        .iter()
                        .filter(|a| pawn_of(a.action) == Some(pawn) && (a.seat == winner) == seat_is_winner)
                        .min_by_key(|a| a.reaction_us)
                };
                let won = fastest(true)?;
                let lost = fastest(false)?;
                let drawn = won.reaction_us.abs_diff(lost.reaction_us) <= TIE_US;
                let margin_us = micros(lost.reaction_us.saturating_sub(won.reaction_us));
                Some(Contest { pawn, winner, runner_up: lost.seat, margin_us, drawn })
            })
            .collect();
        Some(Event::PhotoFinish(PhotoFinish { moment, reactions, contested }))
    }
}

/// The circuits of a championship from its settings: a preset for every race, the notation
/// itself, or `random:SEED` — a new random layout for each race (B-2.6). The same check for a
/// flag and for the wire; a file named on the host's command line was read into the notation
/// before it got here, and nothing here opens a file.
pub fn circuits_for_race(settings: &crate::options::RaceSettings, races: u8) -> Result<Vec<Circuit>, CircuitLoadError> {
    if settings.circuit.chars().count() > bolide_table::wire::MAX_CIRCUIT_CHARS {
        return Err(CircuitLoadError::TooLong);
    }
    match CircuitChoice::from_setting(&settings.circuit)? {
        CircuitChoice::Seed(seed) => {
            Ok((0..races.max(1) as u64).map(|i| crate::circuits::random(seed.wrapping_add(i))).collect())
        }
        choice => Ok(vec![choice.load()?]),
    }
}
