//! Games between bots through the table's seam (`bolide_table::drive`), and what they show of
//! the board (E-14.6's check): what `bolide-host simulate --game entenrallye` and the
//! `simulate` example print.

use crate::event::Event;
use crate::options::Settings;
use crate::rallye::{Check, Rallye};
use bolide_table::{BotLevel, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// What `games` games of strategic bots at one table size showed.
#[derive(Debug, Clone, Serialize)]
pub struct Figures {
    pub players: u8,
    pub games: u64,
    pub turns_per_player: f64,
    /// Meetings a car was judged at, of 4.
    pub judged_per_car: f64,
    pub points_per_meeting: f64,
    /// Share of cars that passed each check at its station (not rounded up, not failed).
    pub tuv_passed: f64,
    pub asu_passed: f64,
}

/// Plays one game of `players` bots (`levels[seat]`) from `seed` to its end.
pub fn play(players: u8, seed: u64, levels: &[BotLevel]) -> Result<(Rallye, Vec<Event>), String> {
    let mut events = Vec::new();
    let mut game = Rallye::new(Settings::default(), players, seed, &mut events)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    bolide_table::drive::play(&mut game, levels, &mut rng, &mut events, 1_000_000)
        .map_err(|stuck| format!("seed {seed}: the bots did not reach the end: {stuck:?}"))?;
    Ok((game, events))
}

/// `games` games of strategic bots at a table of `players`, seeds `seed..seed + games`.
pub fn figures(players: u8, games: u64, seed: u64) -> Result<Figures, String> {
    let (mut turns, mut judged, mut points, mut tuv, mut asu) = (0usize, 0usize, 0usize, 0usize, 0usize);
    for seed in seed..seed + games {
        let (game, events) = play(players, seed, &[BotLevel::Strategic; 6])?;
        turns += events.iter().filter(|e| matches!(e, Event::TurnStarted { .. })).count();
        for car in game.cars() {
            judged += car.scores.iter().flatten().count();
            points += car.scores.iter().flatten().map(|p| usize::from(*p)).sum::<usize>();
            tuv += usize::from(car.checks[0] == Check::Passed);
            asu += usize::from(car.checks[1] == Check::Passed);
        }
    }
    let cars = (games * u64::from(players)).max(1) as f64;
    Ok(Figures {
        players,
        games,
        turns_per_player: turns as f64 / cars,
        judged_per_car: judged as f64 / cars,
        points_per_meeting: points as f64 / judged.max(1) as f64,
        tuv_passed: tuv as f64 / cars,
        asu_passed: asu as f64 / cars,
    })
}

/// Of `games` games with a strategic bot in seat 1 against random-legal bots, the share it
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
