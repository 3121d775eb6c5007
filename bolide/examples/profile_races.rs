//! Plays bot races in a loop for a profiler: `cargo run --release --example profile_races`.
use bolide::bots::BotLevel;
use bolide::sim;
use rand::SeedableRng;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let t = std::time::Instant::now();
    let races: Vec<_> = (0..64).map(|s| sim::random_race(4, s)).collect();
    println!("64 race set-ups: {:?}", t.elapsed());
    let t = std::time::Instant::now();
    for i in 0..n {
        let mut race = races[(i % 64) as usize].clone();
        sim::play_race(
            &mut race,
            &[BotLevel::Strategic, BotLevel::Random, BotLevel::Strategic, BotLevel::Random],
            &mut rng,
        )
        .unwrap();
    }
    let e = t.elapsed();
    println!("{n} races in {e:?}: {:.0} races/s", n as f64 / e.as_secs_f64());
}
