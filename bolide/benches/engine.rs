//! Engine speed: movement resolution and whole bot races, on one core.
//! `cargo bench -p bolide-host --bench engine`; the README records the figures.

use bolide::bots::BotLevel;
use bolide::game::{Race, RaceSetup};
use bolide::movement::Road;
use bolide::{Action, FirstPlayer, Pawn, Seat};
use bolide::{circuits, sim};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use std::hint::black_box;

fn movement(c: &mut Criterion) {
    let circuit = circuits::preset("monaco").unwrap();
    let road = Road::new(&circuit, Some(20));
    let mut group = c.benchmark_group("movement");
    // 36 positions x 6 reservoirs x 6 speeds per iteration.
    group.throughput(Throughput::Elements(36 * 6 * 6));
    group.bench_function("reach", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for from in 0..36u8 {
                for points in 1..=6u8 {
                    for accel in 1..=6u8 {
                        total += u32::from(road.reach(black_box(from), points, Some((points + accel) * 10)));
                    }
                }
            }
            total
        })
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
    group.throughput(Throughput::Elements(1));
    group.bench_function("apply_move", |b| {
        b.iter(|| {
            let mut r = race.clone();
            events.clear();
            r.apply_into(Seat(0), Action::Move { tiles: max }, &mut events).unwrap();
            black_box(&r);
        })
    });
    group.bench_function("clone_race", |b| b.iter(|| black_box(race.clone())));
    group.finish();
}

fn races(c: &mut Criterion) {
    println!("size_of::<Race>() = {} bytes", std::mem::size_of::<Race>());
    let mut group = c.benchmark_group("race");
    group.throughput(Throughput::Elements(1));
    for (name, levels) in [
        ("random", [BotLevel::Random; 4]),
        ("strategic", [BotLevel::Strategic; 4]),
        ("mixed", [BotLevel::Strategic, BotLevel::Random, BotLevel::Strategic, BotLevel::Random]),
    ] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut seed = 0u64;
        group.bench_function(BenchmarkId::new("4_bots", name), |b| {
            b.iter(|| {
                seed += 1;
                let mut race = sim::random_race(4, seed % 64);
                sim::play_race(&mut race, &levels, &mut rng).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, movement, races);
criterion_main!(benches);
