//! Movement resolution and a 1000 Bornes play allocate nothing, and a race state is small enough to clone for bot
//! look-ahead. A counting global allocator makes the first claim a test that can fail.

use bolide::game::{Phase, Race, RaceSetup};
use bolide::movement::Road;
use bolide::{Action, FirstPlayer, Pawn, Seat};
use bolide::{circuits, sim};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // Per thread: tests run in parallel, and only this test's own allocations count.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// A race of 4 at the first movement turn, reservoir 3 for the first player.
fn race_ready_to_move() -> Race {
    let setup = RaceSetup { first_player: FirstPlayer::Seat(Seat(0)), ..RaceSetup::new(4, circuits::random(9), 9) };
    let mut race = Race::new(&setup).unwrap();
    race.force_reservoirs(&[3, 2, 4, 1]).unwrap();
    race.apply(Seat(0), Action::Lift).unwrap();
    for s in 0..3 {
        race.apply(Seat(s), Action::TakePawn { pawn: Pawn(s) }).unwrap();
    }
    assert_eq!(race.phase(), Phase::Movement);
    race.force_accelerator(1).unwrap();
    race.apply(Seat(0), Action::Roll).unwrap();
    race
}

#[test]
fn movement_resolution_allocates_nothing() {
    let circuit = circuits::random(3);
    let road = Road::new(&circuit, Some(12));
    let mut total = 0u32;
    let n = allocations_during(|| {
        for from in 0..37u8 {
            for points in 1..=6 {
                for speed in (20..=120).step_by(10) {
                    total += u32::from(road.reach(from, points, Some(speed)));
                }
            }
        }
    });
    assert!(total > 0);
    assert_eq!(n, 0, "Road::reach allocated");

    let race = race_ready_to_move();
    let mut events = Vec::with_capacity(16);
    let (_, max) = race.move_range(Seat(0));
    let n = allocations_during(|| {
        for _ in 0..1000 {
            let mut r = race.clone();
            events.clear();
            r.apply_into(Seat(0), Action::Move { tiles: max }, &mut events).unwrap();
        }
    });
    assert_eq!(n, 0, "applying a Move allocated");
}

#[test]
fn a_race_state_is_at_most_4_kb_and_clones_cheaply() {
    let size = std::mem::size_of::<Race>();
    println!("size_of::<Race>() = {size} bytes");
    assert!(size <= 4096, "Race is {size} bytes");
    let mut race = sim::random_race(6, 1);
    let copy = race.clone();
    assert_eq!(allocations_during(|| drop(race.clone())), 0, "cloning a race allocates");
    race.apply(race.first_player(), Action::Lift).unwrap();
    assert_ne!(race, copy);
}

/// A 1000 Bornes play allocates nothing either (≥ 20 k hands/s on one core).
#[test]
fn a_whole_1000_bornes_hand_of_bot_plays_allocates_nothing() {
    use bolide::options::BotLevel;
    use mille_bornes::{Manche, Settings, sim};
    use rand::SeedableRng;
    for (players, level) in [(4, BotLevel::Random), (4, BotLevel::Strategic), (8, BotLevel::Strategic)] {
        let mut events = Vec::with_capacity(64);
        let mut scratch = Vec::with_capacity(64);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let levels = [level; 8];
        let mut plays = 0;
        let n = allocations_during(|| {
            let mut manche = Manche::deal(Settings::default(), players, 9, 0, Seat(0), &mut events).unwrap();
            loop {
                events.clear();
                if !sim::step(&mut manche, &levels, &mut rng, &mut scratch, &mut events) {
                    break;
                }
                plays += 1;
            }
        });
        assert!(plays > 20, "a real hand was played ({plays} plays)");
        assert_eq!(n, 0, "{players} players, {level:?}: {n} allocations over {plays} plays");
    }
}
