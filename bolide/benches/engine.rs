//! Engine speed: movement resolution and whole bot races, on one core.
//! `cargo bench -p bolide --bench engine [FILTER]`; docs/developers.md records the figures.
//!
//! A small harness of its own rather than criterion: criterion and the regex it brings cost
//! about a minute of every cold `cargo test --workspace` (dev-dependencies are built for the
//! tests too), and these rows need only a median and a spread.

use bolide::bots::BotLevel;
use bolide::game::{Race, RaceSetup};
use bolide::movement::Road;
use bolide::{Action, FirstPlayer, Pawn, Seat};
use bolide::{circuits, sim};
use rand::SeedableRng;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs each named function for a warm-up, then times `SAMPLES` batches and prints the median
/// time per call and per element, with the fastest and slowest batch.
struct Bench {
    filter: Option<String>,
}

const SAMPLES: usize = 30;
const SAMPLE_TIME: Duration = Duration::from_millis(100);

impl Bench {
    fn from_args() -> Self {
        // `cargo bench` passes `--bench`; anything else not a flag names the rows to run.
        Bench { filter: std::env::args().skip(1).find(|a| !a.starts_with('-')) }
    }

    fn run<T>(&self, name: &str, elements: u64, mut f: impl FnMut() -> T) {
        if self.filter.as_ref().is_some_and(|want| !name.contains(want.as_str())) {
            return;
        }
        // Warm-up, and how many calls fill one sample.
        let mut calls = 1u64;
        let started = Instant::now();
        while started.elapsed() < SAMPLE_TIME * 3 {
            for _ in 0..calls {
                black_box(f());
            }
            calls = calls.saturating_mul(2);
        }
        // The loop ran 1 + 2 + … + calls/2 = calls - 1 calls.
        let per_call = started.elapsed().as_secs_f64() / (calls - 1) as f64;
        let batch = ((SAMPLE_TIME.as_secs_f64() / per_call) as u64).max(1);
        let mut ns: Vec<f64> = (0..SAMPLES)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..batch {
                    black_box(f());
                }
                t.elapsed().as_nanos() as f64 / batch as f64
            })
            .collect();
        ns.sort_by(f64::total_cmp);
        let rate = |ns: f64| elements as f64 * 1e9 / ns;
        println!(
            "{name:<28} {:>10.1} ns  {:>12} /s  (fastest {}, slowest {}; {SAMPLES} x {batch})",
            ns[SAMPLES / 2],
            si(rate(ns[SAMPLES / 2])),
            si(rate(ns[0])),
            si(rate(ns[SAMPLES - 1])),
        );
    }
}

fn si(x: f64) -> String {
    match x {
        x if x >= 1e6 => format!("{:.2} M", x / 1e6),
        x if x >= 1e3 => format!("{:.2} k", x / 1e3),
        x => format!("{x:.1}"),
    }
}

fn movement(bench: &Bench) {
    let circuit = circuits::preset("monaco").unwrap();
    let road = Road::new(&circuit, Some(20));
    // 36 positions x 6 reservoirs x 6 speeds per call.
    bench.run("movement/reach", 36 * 6 * 6, || {
        let mut total = 0u32;
        for from in 0..36u8 {
            for points in 1..=6u8 {
                for accel in 1..=6u8 {
                    total += u32::from(road.reach(black_box(from), points, Some((points + accel) * 10)));
                }
            }
        }
        total
    });

    // A whole Move action through the engine's entry point (check + perform + events), on a
    // fresh copy of the state each time.
    let setup = RaceSetup { first_player: FirstPlayer::Seat(Seat(0)), ..RaceSetup::new(4, circuit, 5) };
    let mut race = Race::new(&setup).unwrap();
    race.force_reservoirs(&[4, 2, 3, 1]).unwrap();
    race.apply(Seat(0), Action::Lift).unwrap();
    for s in 0..3 {
        race.apply(Seat(s), Action::TakePawn { pawn: Pawn(s) }).unwrap();
    }
    race.force_accelerator(2).unwrap();
    race.apply(Seat(0), Action::Roll).unwrap();
    let (_, max) = race.move_range(Seat(0));
    let mut events = Vec::with_capacity(16);
    bench.run("movement/apply_move", 1, || {
        let mut r = race.clone();
        events.clear();
        r.apply_into(Seat(0), Action::Move { tiles: max }, &mut events).unwrap();
        r
    });
    bench.run("movement/clone_race", 1, || race.clone());
}

fn races(bench: &Bench) {
    println!("size_of::<Race>() = {} bytes", std::mem::size_of::<Race>());
    for (name, levels) in [
        ("random", [BotLevel::Random; 4]),
        ("strategic", [BotLevel::Strategic; 4]),
        ("mixed", [BotLevel::Strategic, BotLevel::Random, BotLevel::Strategic, BotLevel::Random]),
    ] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut seed = 0u64;
        bench.run(&format!("race/4_bots/{name}"), 1, || {
            seed += 1;
            let mut race = sim::random_race(4, seed % 64);
            sim::play_race(&mut race, &levels, &mut rng).unwrap()
        });
    }
}

fn main() {
    let bench = Bench::from_args();
    movement(&bench);
    races(&bench);
}
