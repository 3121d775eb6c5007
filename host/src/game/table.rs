//! Bolide at the table: the adapter between `bolide_table::Game` and the championship. The
//! cup is a countdown (Klaxon calls until the lift, B-4.6), the grab a timed moment released
//! at a secret instant (B-4.2), the Échange window one released at once (B-4.7), the Klaxon
//! picks and the movement turns sequential decisions.

use super::{Championship, ChampionshipSetup, Phase};
use crate::bots::{Decide, SeatSight};
use bolide_protocol::options::{FirstPlayer, RaceSettings};
use bolide_protocol::{Action, Event, PlayerView, RuleError, Seat};
use bolide_table::{BotLevel, Game, Release, Seats, Standing, Step};
use rand_chacha::ChaCha8Rng;
use std::borrow::Cow;

/// B-1.1: the pilots a table holds.
const PILOTS: std::ops::RangeInclusive<u8> = 3..=6;

impl Game for Championship {
    type Action = Action;
    type Event = Event;
    type View = PlayerView;
    type Settings = RaceSettings;
    type Refusal = RuleError;

    const NAME: &'static str = "bolide";

    fn check_settings(settings: &RaceSettings, players: u8) -> Result<(), String> {
        if !PILOTS.contains(&players) {
            return Err(format!("B-1.1: Bolide plays 3 to 6 pilots, not {players}"));
        }
        if !(1..=20).contains(&settings.options.races) {
            return Err(format!("races: {} is not 1 to 20", settings.options.races));
        }
        if let FirstPlayer::Seat(seat) = settings.options.first_player
            && seat.0 >= players
        {
            return Err(format!("first-player: seat {} is empty at a table of {players}", seat.0));
        }
        crate::room::circuits_for_race(settings, 1).map(|_| ()).map_err(|e| format!("circuit: {e}"))
    }

    fn start(settings: &RaceSettings, players: u8, seed: u64, events: &mut Vec<Event>) -> Result<Championship, String> {
        Self::check_settings(settings, players)?;
        let circuits = crate::room::circuits_for_race(settings, settings.options.races).map_err(|e| e.to_string())?;
        let setup =
            ChampionshipSetup { pilots: players, options: settings.options, circuits, seed, first_race_bonuses: None };
        let (champ, opening) = Championship::new(setup).map_err(|e| e.to_string())?;
        events.extend(opening);
        Ok(champ)
    }

    fn apply(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
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
        let moment = |kind: u64| (u64::from(race.race_no()) << 32) | (u64::from(race.round()) << 8) | kind;
        match race.phase() {
            Phase::CupDown => {
                Step::Countdown { callers: race.seats().filter(|s| race.check(*s, Action::Klaxon).is_ok()).collect() }
            }
            Phase::KlaxonPicks => Step::Sequential { seats: race.klaxon_picker().map(Seats::one).unwrap_or_default() },
            Phase::Grab => Step::Timed {
                moment: moment(1),
                contenders: race.seats().filter(|s| race.car(*s).pawn.is_none()).collect(),
                release: Release::Secret,
                window_us: None,
            },
            Phase::Echange => Step::Timed {
                moment: moment(2),
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
        Game::apply(self, first, Action::Lift, events)
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
}
