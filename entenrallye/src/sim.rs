//! Years between bots, and what they show of the board and of the bots (E-14.6's check): what
//! `bolide-host simulate --game entenrallye` and the `simulate` example print.

use crate::action::Action;
use crate::board::Inspection;
use crate::bots;
use crate::event::Event;
use crate::options::Settings;
use crate::rallye::{Check, Rallye};
use bolide_table::{BotLevel, Seat};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Who drives a seat in a simulated year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Driver {
    /// Any legal action (the "for fun" bot).
    Random,
    /// The strategic bot before it knew the calendar ([`bots::road`]): the yardstick.
    Road,
    /// The strategic bot every face plays ([`bots::year`]).
    Year,
}

impl Driver {
    fn decide(self, game: &Rallye, seat: Seat, legal: &[Action], rng: &mut ChaCha8Rng) -> Option<Action> {
        match self {
            Driver::Random => legal.get(rng.random_range(0..legal.len().max(1))).copied(),
            Driver::Road => bots::road::decide(&game.view(Some(seat)), legal),
            Driver::Year => bots::decide(&game.view(Some(seat)), legal, BotLevel::Strategic, rng),
        }
    }
}

/// E-11, E-12: how each check ended for the cars of a set of years, as shares of the cars.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Checks {
    /// E-12.3: passed at the station.
    pub passed: f64,
    /// E-12.4: reached the station short of repair points.
    pub failed: f64,
    /// E-12.6: settled by the round-up.
    pub rounded_up: f64,
}

/// What `games` years of one kind of bot at one table size showed.
#[derive(Debug, Clone, Serialize)]
pub struct Figures {
    pub players: u8,
    pub games: u64,
    pub driver: Driver,
    pub turns_per_player: f64,
    /// Share of cars judged at each meeting (early or in time, E-11.2), M1 to M4.
    pub in_time: [f64; 4],
    /// Mean points written at each meeting, over the cars judged there.
    pub points: [f64; 4],
    /// TÜV, then ASU.
    pub checks: [Checks; 2],
    /// Share of years that ended with every car on M4; the others ran out of calendar (E-13.1).
    pub all_on_m4: f64,
    /// Mean total of a car (E-13.2).
    pub total: f64,
}

/// Plays one year of `players` bots (`levels[seat]`) from `seed` to its end, through the
/// table's seam as the host plays it.
pub fn play(players: u8, seed: u64, levels: &[BotLevel]) -> Result<(Rallye, Vec<Event>), String> {
    let mut events = Vec::new();
    let mut game = Rallye::new(Settings::default(), players, seed, &mut events)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    bolide_table::drive::play(&mut game, levels, &mut rng, &mut events, 1_000_000)
        .map_err(|stuck| format!("seed {seed}: the bots did not reach the end: {stuck:?}"))?;
    Ok((game, events))
}

/// Plays one year with `drivers[seat]` at each seat.
pub fn play_drivers(players: u8, seed: u64, drivers: &[Driver]) -> Result<(Rallye, Vec<Event>), String> {
    let mut events = Vec::new();
    let mut game = Rallye::new(Settings::default(), players, seed, &mut events)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    for _ in 0..1_000_000 {
        if game.is_over() {
            return Ok((game, events));
        }
        let seat = game.turn();
        legal.clear();
        game.legal_into(seat, &mut legal);
        let driver = drivers.get(seat.index()).copied().unwrap_or(Driver::Random);
        let action = driver.decide(&game, seat, &legal, &mut rng).ok_or(format!("seed {seat}: nothing legal"))?;
        game.apply(seat, action, &mut events).map_err(|e| format!("seed {seed}: {driver:?} chose {action:?}: {e}"))?;
    }
    Err(format!("seed {seed}: the year did not end"))
}

/// `games` years of `driver` at every seat of a table of `players`, seeds `seed..seed + games`.
pub fn figures_of(driver: Driver, players: u8, games: u64, seed: u64) -> Result<Figures, String> {
    let (mut turns, mut all_on_m4, mut total) = (0usize, 0usize, 0u64);
    let (mut judged, mut points) = ([0usize; 4], [0usize; 4]);
    let mut checks = [[0usize; 3]; 2];
    for seed in seed..seed + games {
        let (game, events) = play_drivers(players, seed, &vec![driver; usize::from(players)])?;
        turns += events.iter().filter(|e| matches!(e, Event::TurnStarted { .. })).count();
        all_on_m4 += usize::from(game.cars().iter().all(|c| c.at == crate::board::board().meetings[3]));
        for car in game.cars() {
            for (m, score) in car.scores.iter().enumerate() {
                judged[m] += usize::from(score.is_some());
                points[m] += score.map_or(0, usize::from);
            }
            for check in Inspection::BOTH {
                let how = match car.checks[check.index()] {
                    Check::Passed => 0,
                    Check::Failed => 1,
                    Check::RoundedUp | Check::Owed => 2,
                };
                checks[check.index()][how] += 1;
            }
            total += u64::from(car.total());
        }
    }
    let cars = (games * u64::from(players)).max(1) as f64;
    let share = |n: usize| n as f64 / cars;
    let split = |c: [usize; 3]| Checks { passed: share(c[0]), failed: share(c[1]), rounded_up: share(c[2]) };
    Ok(Figures {
        players,
        games,
        driver,
        turns_per_player: turns as f64 / cars,
        in_time: judged.map(share),
        points: std::array::from_fn(|m| points[m] as f64 / judged[m].max(1) as f64),
        checks: checks.map(split),
        all_on_m4: all_on_m4 as f64 / games.max(1) as f64,
        total: total as f64 / cars,
    })
}

/// The strategic bot's figures (what `bolide-host simulate` prints).
pub fn figures(players: u8, games: u64, seed: u64) -> Result<Figures, String> {
    figures_of(Driver::Year, players, games, seed)
}

/// Of `games` years at a table of `players` where `a` and `b` share the seats (alternating,
/// and swapped every other year so neither keeps the first seat), the share `a` won: the best
/// total was one of `a`'s and none of `b`'s.
pub fn head_to_head(a: Driver, b: Driver, players: u8, games: u64, seed: u64) -> Result<f64, String> {
    let mut wins = 0u64;
    for (i, seed) in (seed..seed + games).enumerate() {
        let drivers: Vec<Driver> = (0..usize::from(players)).map(|s| if (s + i) % 2 == 0 { a } else { b }).collect();
        let (game, _) = play_drivers(players, seed, &drivers)?;
        let best = |d: Driver| {
            game.cars().iter().zip(&drivers).filter(|(_, x)| **x == d).map(|(c, _)| c.total()).max().unwrap_or(0)
        };
        wins += u64::from(best(a) > best(b));
    }
    Ok(wins as f64 / games.max(1) as f64)
}

/// Of `games` years with a strategic bot in seat 1 against random-legal bots, the share it
/// finished first in (alone or shared).
pub fn strategic_win_rate(players: u8, games: u64, seed: u64) -> Result<f64, String> {
    let mut levels = vec![BotLevel::Random; usize::from(players)];
    if let Some(first) = levels.first_mut() {
        *first = BotLevel::Strategic;
    }
    let mut wins = 0u64;
    for seed in seed..seed + games {
        let (game, _) = play(players, seed, &levels)?;
        wins += u64::from(game.standings().is_some_and(|s| s.iter().any(|l| l.seat == Seat(0) && l.rank == 1)));
    }
    Ok(wins as f64 / games.max(1) as f64)
}
