//! Property tests over random legal (and illegal) play: the invariants of ARCHITECTURE.md.

use super::*;
use crate::circuits;
use crate::model::FINISH;
use crate::{Action, Atout, BonusKind, Event, FirstPlayer, Pawn, Seat};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every action the engine knows, for probing with illegal ones too.
fn universe(pilots: u8) -> Vec<Action> {
    let mut all = vec![
        Action::Klaxon,
        Action::Lift,
        Action::KeepPawn,
        Action::Roll,
        Action::AsDeLaRoute,
        Action::Aspiration,
        Action::SecondChance,
        Action::Nitro,
        Action::EndTurn,
    ];
    for i in 0..pilots + 1 {
        all.push(Action::TakePawn { pawn: Pawn(i) });
        all.push(Action::Echange { with: Seat(i) });
    }
    for n in 0..=7 {
        all.push(Action::Move { tiles: n });
        all.push(Action::Raccourci { tiles_before: n });
    }
    for atout in Atout::ALL {
        all.push(Action::Assistance { atout });
    }
    for tile in 0..=FINISH {
        all.push(Action::Huile { tile });
    }
    all
}

fn setup(pilots: u8, seed: u64) -> RaceSetup {
    RaceSetup { first_player: FirstPlayer::Random, ..RaceSetup::new(pilots, circuits::random(seed), seed) }
}

/// One random legal move among all seats' legal actions.
fn random_legal(race: &Race, rng: &mut ChaCha8Rng) -> Option<(Seat, Action)> {
    let all: Vec<(Seat, Action)> =
        race.seats().flat_map(|s| race.legal_actions(s).into_iter().map(move |a| (s, a))).collect();
    (!all.is_empty()).then(|| all[rng.random_range(0..all.len())])
}

fn is_token_event(e: &Event) -> Option<Seat> {
    match e {
        Event::KlaxonCalled { seat, .. }
        | Event::AsDeLaRoute { seat }
        | Event::Nitro { seat, .. }
        | Event::SecondChance { seat, .. }
        | Event::Raccourci { seat, .. }
        | Event::Aspiration { seat, .. }
        | Event::Assistance { seat, .. }
        | Event::Huile { seat, .. }
        | Event::Echanged { seat, .. }
        | Event::PanneSeche { seat } => Some(*seat),
        _ => None,
    }
}

fn discarded_bonus(e: &Event) -> Option<BonusKind> {
    Some(match e {
        Event::Raccourci { .. } => BonusKind::Raccourci,
        Event::Aspiration { .. } => BonusKind::Aspiration,
        Event::Assistance { .. } => BonusKind::Assistance,
        Event::Huile { .. } => BonusKind::Huile,
        Event::Echanged { .. } => BonusKind::Echange,
        // Panne Sèche is discarded at the end of the round it was forced in.
        Event::PanneSeche { .. } => BonusKind::PanneSeche,
        _ => return None,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_under_random_play(pilots in 3u8..=6, seed in any::<u64>(), probes in 0usize..4) {
        let mut race = Race::new(&setup(pilots, seed)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let universe = universe(pilots);
        let mut log: Vec<(Seat, Action)> = Vec::new();
        let mut all_events = race.opening_events();
        let mut tokens_this_round = vec![0u8; pilots as usize];
        let mut round = race.round();
        let mut discarded = 0usize;
        let mut steps = 0;
        while let Some((seat, action)) = random_legal(&race, &mut rng) {
            steps += 1;
            prop_assert!(steps < 5000, "a race that never ends");
            // Illegal probes: refused with a rule id and no change; legal ones are listed.
            for _ in 0..probes {
                let s = Seat(rng.random_range(0..pilots + 1));
                let a = universe[rng.random_range(0..universe.len())];
                let before = race.clone();
                match race.check(s, a) {
                    Ok(()) => prop_assert!(race.legal_actions(s).contains(&a), "{a:?} legal but not listed"),
                    Err(e) => {
                        prop_assert!(e.rule().starts_with("B-"), "{e}");
                        prop_assert!(race.apply(s, a).is_err());
                        prop_assert_eq!(&race, &before);
                    }
                }
            }
            let positions: Vec<u8> = race.cars().iter().map(|c| c.position).collect();
            let events = race.apply(seat, action).unwrap();
            log.push((seat, action));
            for (car, before) in race.cars().iter().zip(&positions) {
                prop_assert!(car.position >= *before, "a car moved backwards");
                prop_assert!(car.position <= FINISH);
            }
            for e in &events {
                if let Event::RoundStarted { round: r, .. } = e {
                    round = *r;
                    tokens_this_round.iter_mut().for_each(|t| *t = 0);
                }
                if let Some(s) = is_token_event(e) {
                    tokens_this_round[s.index()] += 1;
                    prop_assert!(tokens_this_round[s.index()] <= 1, "B-5.7: two tokens for {s} in round {round}");
                }
                if discarded_bonus(e).is_some() {
                    discarded += 1;
                }
            }
            // Conservation: Second Chance tokens and bonus tokens are never made or lost.
            let held_sc = race.cars().iter().filter(|c| c.second_chance).count() as u8;
            prop_assert_eq!(race.second_chance_supply() + held_sc, 6);
            let on_board = race.face_down_bonuses().count();
            let held: usize = race.cars().iter().map(|c| c.bonuses.len() as usize + usize::from(c.panne_seche_pending)).sum();
            // (A Panne Sèche in force counts as discarded from the moment it is forced.)
            prop_assert_eq!(on_board + held + discarded, 6);
            all_events.extend(events);
        }
        prop_assert!(race.is_over());
        // Replay: the seed and the action list give back the same race, bit for bit.
        let mut replay = Race::new(&setup(pilots, seed)).unwrap();
        let mut replay_events = replay.opening_events();
        for (seat, action) in &log {
            replay_events.extend(replay.apply(*seat, *action).unwrap());
        }
        prop_assert_eq!(&replay, &race);
        prop_assert_eq!(replay_events, all_events);
    }

    #[test]
    fn view_for_never_shows_another_seats_secret(pilots in 3u8..=6, seed in any::<u64>(), klaxons in 0u8..3) {
        let mut race = Race::new(&setup(pilots, seed)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut steps = 0;
        loop {
            // Klaxon calls now and then, so the private peek is exercised.
            if race.phase() == Phase::CupDown && klaxons > 0 {
                for s in 0..klaxons.min(pilots) {
                    let _ = race.apply(Seat(s), Action::Klaxon);
                }
            }
            for viewer in race.seats() {
                // Every view the engine makes holds together, as clients check on arrival.
                prop_assert_eq!(race.view_for(viewer).check(), Ok(()));
                let other = race.redraw_secrets(viewer, rng.random());
                prop_assert_eq!(race.view_for(viewer), other.view_for(viewer), "view of {} depends on a secret", viewer);
            }
            // A spectator sees what every pilot may see, and nothing more: secrets redrawn for
            // a seat that has not peeked must leave the spectator's view unchanged too.
            let before_anyone_peeks = race.redraw_secrets_for_spectator(rng.random());
            prop_assert_eq!(race.spectator_view(), before_anyone_peeks.spectator_view());
            prop_assert_eq!(race.spectator_view().check(), Ok(()));
            steps += 1;
            match random_legal(&race, &mut rng) {
                Some((seat, action)) if steps < 400 => { race.apply(seat, action).unwrap(); }
                _ => break,
            }
        }
    }
}
