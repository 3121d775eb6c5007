//! Games between bots through the table's seam (`bolide_table::drive`), and what they show
//! of the board (E-14.6's check): turns per player, meetings judged, checks passed at the
//! station, points per meeting, the strategic bot against random ones, games per second.
//!
//!     cargo run --release -p entenrallye --example simulate [GAMES]

use bolide_table::{BotLevel, Seat};
use entenrallye::{Check, Event, Rallye, Settings};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    println!("{games} games per table size, strategic bots (seeds 0..{games})");
    println!("players  turns/player  judged/4  TÜV passed  ASU passed  points/meeting  games/s");
    for players in 2..=6u8 {
        let (mut turns, mut judged, mut points, mut tuv, mut asu) = (0usize, 0usize, 0usize, 0usize, 0usize);
        let started = std::time::Instant::now();
        for seed in 0..games {
            let (g, events) = play(players, seed, &[BotLevel::Strategic; 6]);
            turns += events.iter().filter(|e| matches!(e, Event::TurnStarted { .. })).count();
            for car in g.cars() {
                judged += car.scores.iter().flatten().count();
                points += car.scores.iter().flatten().map(|p| usize::from(*p)).sum::<usize>();
                tuv += usize::from(car.checks[0] == Check::Passed);
                asu += usize::from(car.checks[1] == Check::Passed);
            }
        }
        let per_s = games as f64 / started.elapsed().as_secs_f64();
        let cars = (games * u64::from(players)) as f64;
        println!(
            "{players:>7}  {:>12.1}  {:>8.2}  {:>9.0} %  {:>9.0} %  {:>14.1}  {per_s:>7.0}",
            turns as f64 / cars,
            judged as f64 / cars,
            tuv as f64 / cars * 100.0,
            asu as f64 / cars * 100.0,
            points as f64 / judged.max(1) as f64,
        );
    }
    let mut wins = 0;
    for seed in 0..games {
        let levels = [BotLevel::Strategic, BotLevel::Random, BotLevel::Random, BotLevel::Random];
        let (g, _) = play(4, seed, &levels);
        wins += u64::from(g.standings().is_some_and(|s| s.iter().any(|l| l.seat == Seat(0) && l.rank == 1)));
    }
    println!("strategic against three random bots: first (or shared first) in {wins} of {games} games");
}

fn play(players: u8, seed: u64, levels: &[BotLevel]) -> (Rallye, Vec<Event>) {
    let mut events = Vec::new();
    let mut g = Rallye::new(Settings::default(), players, seed, &mut events).expect("2 to 6 players");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    bolide_table::drive::play(&mut g, levels, &mut rng, &mut events, 1_000_000).expect("bots play to the end");
    (g, events)
}
