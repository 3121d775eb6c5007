//! One test (at least) per rule id of `rules/bolide.md`, named after it. The circuit is the
//! `cannes` preset unless a test says otherwise:
//!
//! ```text
//! pos:  1 2  3  4  5* 6  7  8 9 10* 11 12 13 14* 15 16 17 18* 19 20* 21 22 23 24  25 26 27 28 29 30 31 32 33* 34 35 36
//! tile: S S 70 80  S  60 60 S S 90 100  S  S 70  70 80  S  S   S 80  90  S  S 100 S  70 80  S  S 80 90  S  S   S  S  S
//! ```

use super::*;
use crate::circuits;
use crate::model::FINISH;
use crate::view::{PhaseView, TurnStep};
use crate::{Action, Atout, BonusKind, Event, FirstPlayer, Pawn, RuleError, Seat};

const S0: Seat = Seat(0);
const S1: Seat = Seat(1);
const S2: Seat = Seat(2);

/// Bonus kinds on the stars 5, 10, 14, 18, 20, 33 of `cannes`: Raccourci, Aspiration,
/// Assistance, Huile, Échange, Panne Sèche (the order of `BonusKind::ALL`).
const BONUSES: [BonusKind; 6] = BonusKind::ALL;

fn race(pilots: u8) -> Race {
    let setup = RaceSetup {
        pilots,
        circuit: circuits::preset("cannes").unwrap(),
        seed: 7,
        race: 1,
        first_player: FirstPlayer::Seat(S0),
        bonuses: Some(BONUSES),
        echange_drill: false,
    };
    Race::new(&setup).unwrap()
}

fn race_at(positions: &[u8]) -> Race {
    let mut r = race(positions.len() as u8);
    let cars = positions.iter().enumerate().map(|(i, &p)| car(i as u8, p)).collect();
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    r
}

fn car(seat: u8, position: u8) -> CarStart {
    CarStart { seat: Seat(seat), position, atouts: None, bonuses: None, second_chance: false }
}

/// Forces the reservoirs, lifts, and gives pawn `i` to seat `i`.
fn grab(r: &mut Race, reservoirs: &[u8]) -> Vec<Event> {
    r.force_reservoirs(reservoirs).unwrap();
    let mut events = r.apply(r.first_player(), Action::Lift).unwrap();
    while matches!(r.phase(), Phase::KlaxonPicks | Phase::Grab) {
        let s = r.klaxon_picker().unwrap_or_else(|| r.seats().find(|s| r.car(*s).pawn.is_none()).unwrap());
        events.extend(r.apply(s, Action::TakePawn { pawn: Pawn(s.0) }).unwrap());
    }
    events
}

/// Rolls `accelerator` for the active seat.
fn roll(r: &mut Race, accelerator: u8) -> Vec<Event> {
    let seat = r.active_seat().unwrap();
    r.force_accelerator(accelerator).unwrap();
    r.apply(seat, Action::Roll).unwrap()
}

/// Plays a plain turn: roll, move as far as allowed.
fn plain_turn(r: &mut Race, accelerator: u8) -> Vec<Event> {
    let seat = r.active_seat().unwrap();
    let mut events = roll(r, accelerator);
    let (_, max) = r.move_range(seat);
    events.extend(r.apply(seat, Action::Move { tiles: max }).unwrap());
    if r.active_seat() == Some(seat) && r.turn_state().unwrap().step == TurnStep::AfterMove {
        events.extend(r.apply(seat, Action::EndTurn).unwrap());
    }
    events
}

/// One whole round: forced reservoirs (pawn `i` to seat `i`), then plain turns with
/// `accelerator[seat]`.
fn play_round(r: &mut Race, reservoirs: &[u8], accelerator: &[u8]) -> Vec<Event> {
    let round = r.round();
    let mut events = grab(r, reservoirs);
    while r.round() == round && !r.is_over() {
        let seat = r.active_seat().unwrap();
        events.extend(plain_turn(r, accelerator[seat.index()]));
    }
    events
}

fn assert_refused(r: &mut Race, seat: Seat, action: Action, rule: &str) -> RuleError {
    let before = r.clone();
    let err = r.apply(seat, action).unwrap_err();
    assert_eq!(err.rule(), rule, "{err}");
    assert_eq!(*r, before, "a refused action changed the state");
    assert!(!r.legal_actions(seat).contains(&action));
    err
}

// ----- B-1 -----

#[test]
fn b_1_1_three_to_six_pilots() {
    for pilots in [2, 7] {
        let setup = RaceSetup::new(pilots, circuits::preset("cannes").unwrap(), 1);
        assert_eq!(Race::new(&setup).unwrap_err(), SetupError::Pilots { pilots });
    }
    for pilots in 3..=6 {
        assert_eq!(race(pilots).cars().len(), pilots as usize);
    }
}

#[test]
fn b_1_2_one_reservoir_and_pawn_per_pilot() {
    let mut r = race(4);
    assert_eq!(r.pawn_order().len(), 4);
    r.apply(S0, Action::Lift).unwrap();
    let values = r.visible_reservoirs(S1).unwrap();
    assert_eq!(values.len(), 4);
    assert!(values.iter().all(|v| (1..=6).contains(v)));
    assert_refused(&mut r, S1, Action::TakePawn { pawn: Pawn(4) }, "B-1.2");
}

#[test]
fn b_1_3_three_atouts_each() {
    let r = race(3);
    for car in r.cars() {
        assert_eq!(car.atouts.iter().collect::<Vec<_>>(), Atout::ALL);
    }
}

#[test]
fn b_1_4_supply_of_six_and_never_two_second_chances() {
    let mut r = race_at(&[9, 0, 0]);
    assert_eq!(r.second_chance_supply(), 6);
    // Seat 0 stuck twice (speed 100 before the 90 at 10): takes one, then no second one.
    for _ in 0..2 {
        play_round(&mut r, &[4, 1, 1], &[6, 1, 1]);
        assert!(r.car(S0).second_chance);
        assert_eq!(r.car(S0).position, 9);
    }
    assert_eq!(r.second_chance_supply(), 5);
}

#[test]
fn b_1_5_six_bonuses_face_down_on_the_stars() {
    let r = Race::new(&RaceSetup::new(3, circuits::preset("cannes").unwrap(), 3)).unwrap();
    let mut kinds: Vec<BonusKind> = r.face_down_bonuses().map(|(_, k)| k).collect();
    let tiles: Vec<u8> = r.face_down_bonuses().map(|(t, _)| t).collect();
    kinds.sort_by_key(|k| *k as u8);
    assert_eq!(kinds, BonusKind::ALL);
    assert_eq!(tiles, r.circuit().stars());
    let view = r.view_for(S0);
    assert_eq!(view.stars.len(), 6);
    let other_seed = Race::new(&RaceSetup::new(3, circuits::preset("cannes").unwrap(), 4)).unwrap();
    assert_ne!(r.face_down_bonuses().collect::<Vec<_>>(), other_seed.face_down_bonuses().collect::<Vec<_>>());
}

#[test]
fn b_1_6_one_lanterne_rouge() {
    let mut r = race_at(&[5, 2, 8]);
    play_round(&mut r, &[1, 1, 1], &[1, 1, 1]);
    // 6, 3, 9: seat 1 alone last holds the one marker.
    assert_eq!(r.lanterne_rouge(), Some(S1));
}

#[test]
fn b_1_7_first_player_option() {
    let circuit = circuits::preset("cannes").unwrap();
    let mut setup = RaceSetup::new(5, circuit, 1);
    setup.first_player = FirstPlayer::Seat(Seat(3));
    assert_eq!(Race::new(&setup).unwrap().first_player(), Seat(3));
    setup.first_player = FirstPlayer::Random;
    let firsts: std::collections::HashSet<Seat> =
        (0..40).map(|seed| Race::new(&RaceSetup { seed, ..setup.clone() }).unwrap().first_player()).collect();
    assert!(firsts.len() > 1, "random first player never varies");
    setup.first_player = FirstPlayer::Seat(Seat(5));
    assert_eq!(Race::new(&setup).unwrap_err(), SetupError::NoSuchSeat { seat: Seat(5) });
}

// ----- B-2 (the circuit rules are tested in crate::circuit and crate::circuits) -----

#[test]
fn b_2_1_start_grid_and_finish_hold_any_number_of_cars() {
    let mut r = race_at(&[35, 35, 35]);
    play_round(&mut r, &[3, 3, 3], &[1, 1, 1]);
    assert!(r.cars().iter().all(|c| c.position == FINISH));
    assert_eq!(r.finish_order(), &[S0, S1, S2]);
}

#[test]
fn b_2_6_each_race_may_use_a_new_circuit() {
    let circuits = vec![circuits::preset("cannes").unwrap(), circuits::preset("monaco").unwrap()];
    let setup = ChampionshipSetup {
        pilots: 3,
        options: crate::TableOptions { races: 2, ..Default::default() },
        circuits: circuits.clone(),
        seed: 1,
        first_race_bonuses: None,
    };
    let (mut champ, _) = Championship::new(setup).unwrap();
    assert_eq!(*champ.race().circuit(), circuits[0]);
    finish_race(&mut champ);
    assert_eq!(*champ.race().circuit(), circuits[1]);
}

// ----- B-3, B-4 -----

#[test]
fn b_3_a_round_is_grab_then_movement_then_end() {
    let mut r = race(3);
    assert_eq!(r.phase(), Phase::CupDown);
    grab(&mut r, &[1, 1, 1]);
    assert_eq!(r.phase(), Phase::Movement);
    assert_eq!(r.active_seat(), Some(S0));
    plain_turn(&mut r, 1);
    assert_eq!(r.active_seat(), Some(S1));
    plain_turn(&mut r, 1);
    let events = plain_turn(&mut r, 1);
    assert!(events.contains(&Event::RoundEnded { round: 1, next_first_player: S1 }));
    assert_eq!((r.round(), r.phase(), r.first_player()), (2, Phase::CupDown, S1));
}

#[test]
fn b_4_1_reservoirs_hidden_under_the_cup() {
    let r = race(3);
    for seat in r.seats() {
        assert!(r.visible_reservoirs(seat).is_none());
        assert!(r.view_for(seat).pawns.iter().all(|p| p.reservoir.is_none()));
    }
}

#[test]
fn b_4_2_only_the_first_player_lifts_and_nobody_grabs_before() {
    let mut r = race(3);
    assert_refused(&mut r, S1, Action::Lift, "B-4.2");
    assert_refused(&mut r, S1, Action::TakePawn { pawn: Pawn(0) }, "B-4.2");
    let events = r.apply(S0, Action::Lift).unwrap();
    assert_eq!(events[0], Event::CupLifted);
    assert_eq!(r.phase(), Phase::Grab);
}

#[test]
fn b_4_3_fastest_hand_wins_and_last_pawn_goes_to_last_pilot() {
    let mut r = race(4);
    r.apply(S0, Action::Lift).unwrap();
    r.apply(S2, Action::TakePawn { pawn: Pawn(1) }).unwrap();
    assert_refused(&mut r, S0, Action::TakePawn { pawn: Pawn(1) }, "B-4.3");
    assert_refused(&mut r, S2, Action::TakePawn { pawn: Pawn(0) }, "B-4.3");
    r.apply(S0, Action::TakePawn { pawn: Pawn(3) }).unwrap();
    let events = r.apply(Seat(3), Action::TakePawn { pawn: Pawn(0) }).unwrap();
    assert!(events.contains(&Event::PawnTaken { seat: S1, pawn: Pawn(2), auto: true }), "{events:?}");
    assert_eq!(r.phase(), Phase::Movement);
}

#[test]
fn b_4_4_reservoir_joins_its_pawn_unchanged() {
    let mut r = race(3);
    r.force_reservoirs(&[2, 5, 6]).unwrap();
    r.apply(S0, Action::Lift).unwrap();
    r.apply(S0, Action::TakePawn { pawn: Pawn(2) }).unwrap();
    r.apply(S1, Action::TakePawn { pawn: Pawn(0) }).unwrap();
    assert_eq!([r.reservoir_of(S0), r.reservoir_of(S1), r.reservoir_of(S2)], [Some(6), Some(2), Some(5)]);
}

#[test]
fn b_4_5_pawns_shuffled_every_round() {
    let mut r = race(6);
    let mut orders = std::collections::HashSet::new();
    for _ in 0..6 {
        orders.insert(r.pawn_order().to_vec());
        play_round(&mut r, &[1; 6], &[1; 6]);
    }
    assert!(orders.len() > 1, "the pawn order never changed");
}

#[test]
fn b_4_6_klaxon_pilots_peek_and_choose_first_in_call_order() {
    let mut r = race(4);
    r.force_reservoirs(&[1, 6, 3, 4]).unwrap();
    r.apply(S2, Action::Klaxon).unwrap();
    r.apply(S1, Action::Klaxon).unwrap();
    assert_refused(&mut r, S1, Action::Klaxon, "B-4.6");
    assert!(r.visible_reservoirs(S2).is_none(), "no peek before the lift");
    r.apply(S0, Action::Lift).unwrap();
    // S2 called first: it peeks; S1 does not see yet, nor does anyone else.
    assert_eq!(r.view_for(S2).phase, PhaseView::KlaxonPicks { next: S2 });
    assert!(r.view_for(S2).pawns.iter().all(|p| p.reservoir.is_some()));
    for seat in [S0, S1, Seat(3)] {
        assert!(r.view_for(seat).pawns.iter().all(|p| p.reservoir.is_none()), "{seat} sees a peek");
    }
    assert_refused(&mut r, S1, Action::TakePawn { pawn: Pawn(1) }, "B-4.6");
    assert_refused(&mut r, S0, Action::TakePawn { pawn: Pawn(1) }, "B-4.6");
    r.apply(S2, Action::TakePawn { pawn: Pawn(1) }).unwrap();
    assert!(r.view_for(S1).pawns.iter().all(|p| p.reservoir.is_some()));
    assert!(r.view_for(S0).pawns.iter().all(|p| p.reservoir.is_none()));
    let events = r.apply(S1, Action::TakePawn { pawn: Pawn(3) }).unwrap();
    assert!(matches!(events[0], Event::PawnTaken { .. }));
    assert!(events.contains(&Event::ReservoirsRevealed { values: vec![1, 6, 3, 4] }));
    assert!(!r.car(S2).atouts.contains(Atout::Klaxon) && r.car(S2).token_used);
}

#[test]
fn b_4_6_a_late_klaxon_is_refused_and_not_spent() {
    let mut r = race(3);
    r.apply(S0, Action::Lift).unwrap();
    let err = assert_refused(&mut r, S1, Action::Klaxon, "B-4.6");
    assert_eq!(err, RuleError::KlaxonTooLate);
    assert!(r.car(S1).atouts.contains(Atout::Klaxon) && !r.car(S1).token_used);
}

#[test]
fn b_4_7_echange_window_in_declared_order() {
    let mut r = race(4);
    let cars = vec![
        CarStart { bonuses: Some(vec![BonusKind::Echange]), ..car(0, 0) },
        CarStart { bonuses: Some(vec![BonusKind::Raccourci]), ..car(3, 0) },
    ];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    let events = grab(&mut r, &[1, 2, 3, 4]);
    assert!(events.contains(&Event::EchangeWindow { seats: vec![S0] }));
    assert_eq!(r.phase(), Phase::Echange);
    assert_refused(&mut r, S1, Action::KeepPawn, "B-4.7");
    assert_refused(&mut r, S0, Action::Echange { with: S0 }, "B-4.7");
    assert_refused(&mut r, S0, Action::Roll, "B-3");
    r.apply(S0, Action::Echange { with: Seat(3) }).unwrap();
    assert_eq!((r.reservoir_of(S0), r.reservoir_of(Seat(3))), (Some(4), Some(1)));
    assert_eq!(r.pawn_owner(Pawn(3)), Some(S0));
    assert_eq!(r.phase(), Phase::Movement);
}

#[test]
fn b_4_7_the_echange_drill_opens_a_window_for_everyone_every_round() {
    let setup = RaceSetup { echange_drill: true, ..RaceSetup::new(3, circuits::preset("cannes").unwrap(), 7) };
    let mut r = Race::new(&setup).unwrap();
    let events = grab(&mut r, &[1, 2, 3]);
    assert!(events.contains(&Event::EchangeWindow { seats: vec![S0, S1, S2] }));
    r.apply(S2, Action::Echange { with: S0 }).unwrap();
    assert!(!r.car(S2).bonuses.contains(BonusKind::Echange), "spent (B-4.7)");
    r.apply(S0, Action::KeepPawn).unwrap();
    r.apply(S1, Action::KeepPawn).unwrap();
    assert_eq!(r.phase(), Phase::Movement);
}

#[test]
fn b_4_7_no_window_for_a_pilot_whose_token_is_spent() {
    let mut r = race(3);
    let cars = vec![CarStart { bonuses: Some(vec![BonusKind::Echange]), ..car(1, 0) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    r.apply(S1, Action::Klaxon).unwrap();
    let events = grab(&mut r, &[1, 2, 3]);
    assert!(!events.iter().any(|e| matches!(e, Event::EchangeWindow { .. })));
    assert_eq!(r.phase(), Phase::Movement);
}

#[test]
fn b_4_8_panne_seche_counts_as_one_in_the_next_round() {
    // Seat 0 ends its move on the star at 33 holding Panne Sèche.
    let mut r = race_at(&[30, 0, 0]);
    grab(&mut r, &[3, 1, 1]);
    let events = plain_turn(&mut r, 1);
    assert!(events.contains(&Event::BonusTaken { seat: S0, tile: 33, kind: BonusKind::PanneSeche }));
    plain_turn(&mut r, 1);
    let events = plain_turn(&mut r, 1);
    assert!(events.contains(&Event::PanneSeche { seat: S0 }), "{events:?}");
    assert!(r.car(S0).token_used, "B-5.7: the forced Panne Sèche is the round's token");
    assert_refused(&mut r, S0, Action::Klaxon, "B-5.7");
    grab(&mut r, &[6, 6, 6]);
    assert_eq!(r.reservoir_of(S0), Some(1));
    // Round 2: seat 1 plays first; then seat 2, then seat 0 moves at most 1.
    plain_turn(&mut r, 1);
    plain_turn(&mut r, 1);
    let events = plain_turn(&mut r, 1);
    assert!(events.contains(&Event::Moved { seat: S0, from: 33, to: 34, blocked_at: None }), "{events:?}");
    assert!(!r.car(S0).panne_seche && !r.car(S0).panne_seche_pending);
}

// ----- B-5 -----

#[test]
fn b_5_1_lanterne_rouge_moves_one_tile_free() {
    let mut r = race(3);
    let cars = vec![car(0, 9), car(1, 20), car(2, 20)];
    r.set_start(&StartState { cars, lanterne_rouge: Some(S0), ..Default::default() }).unwrap();
    grab(&mut r, &[6, 1, 1]);
    // Free move onto the 90* at 10 whatever the speed; then speed 120 stops it.
    assert_eq!(r.car(S0).position, 10);
    let events = roll(&mut r, 6);
    assert_eq!(r.move_range(S0), (0, 0), "{events:?}");
    r.apply(S0, Action::Move { tiles: 0 }).unwrap();
    assert!(!r.car(S0).second_chance, "B-5.4: the free move is a move");
}

#[test]
fn b_5_2_speed_is_reservoir_plus_accelerator_times_ten() {
    let mut r = race(3);
    grab(&mut r, &[5, 1, 1]);
    let events = roll(&mut r, 4);
    assert_eq!(events, vec![Event::Rolled { seat: S0, accelerator: 4, speed: 90 }]);
}

#[test]
fn b_5_3_el_gato_stops_before_the_70() {
    // Rulebook: El Gato, speed 90, reservoir 5; the third tile is a 70: he stops on the second.
    let mut r = race_at(&[0, 0, 0]);
    grab(&mut r, &[5, 1, 1]);
    roll(&mut r, 4);
    assert_eq!(r.move_range(S0), (1, 2));
    assert_refused(&mut r, S0, Action::Move { tiles: 5 }, "B-5.3");
    let events = r.apply(S0, Action::Move { tiles: 2 }).unwrap();
    assert_eq!(events[0], Event::Moved { seat: S0, from: 0, to: 2, blocked_at: Some(3) });
}

#[test]
fn b_5_3_claudia_stays_put_and_may_stop_early() {
    // Claudia, speed 100, reservoir 4, the next tile is a 90: she stays put.
    let mut r = race_at(&[9, 0, 0]);
    grab(&mut r, &[4, 5, 1]);
    roll(&mut r, 6);
    assert_eq!(r.move_range(S0), (0, 0));
    assert_refused(&mut r, S0, Action::Move { tiles: 1 }, "B-5.3");
    let events = r.apply(S0, Action::Move { tiles: 0 }).unwrap();
    assert!(events.contains(&Event::SecondChanceTaken { seat: S0 }), "B-5.4: {events:?}");
    // Ruling: a pilot may stop early, after at least one tile.
    roll(&mut r, 1);
    assert_eq!(r.move_range(S1), (1, 5));
    assert_refused(&mut r, S1, Action::Move { tiles: 0 }, "B-5.3");
    r.apply(S1, Action::Move { tiles: 2 }).unwrap();
    assert_eq!(r.car(S1).position, 2);
}

#[test]
fn b_5_4_no_move_no_second_chance_if_already_held() {
    let mut r = race(3);
    let cars = vec![CarStart { second_chance: true, ..car(0, 9) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[4, 1, 1]);
    let events = plain_turn(&mut r, 6);
    assert!(!events.iter().any(|e| matches!(e, Event::SecondChanceTaken { .. })));
    assert_eq!(r.second_chance_supply(), 5);
}

#[test]
fn b_5_5_sir_stephen_takes_the_bonus_and_uses_it_later() {
    // Sir Stephen at 70 km/h, reservoir 6: nothing limits him; he ends on a star.
    let mut r = race_at(&[12, 0, 0]);
    grab(&mut r, &[6, 1, 1]);
    roll(&mut r, 1);
    assert_eq!(r.move_range(S0), (1, 6));
    r.apply(S0, Action::Move { tiles: 6 }).unwrap();
    let events = r.apply(S0, Action::EndTurn).unwrap();
    assert!(events.contains(&Event::BonusTaken { seat: S0, tile: 18, kind: BonusKind::Huile }), "{events:?}");
    assert!(r.car(S0).bonuses.contains(BonusKind::Huile));
    assert!(!r.view_for(S1).stars.iter().any(|s| s.tile == 18));
}

#[test]
fn b_5_6_crossing_the_finish_line() {
    let mut r = race_at(&[34, 0, 0]);
    grab(&mut r, &[6, 1, 1]);
    roll(&mut r, 1);
    assert_eq!(r.move_range(S0), (1, 3));
    let events = r.apply(S0, Action::Move { tiles: 3 }).unwrap();
    assert!(events.contains(&Event::Crossed { seat: S0, place: 1 }));
    assert_eq!(r.car(S0).position, FINISH);
}

#[test]
fn b_5_7_one_special_token_per_round() {
    let mut r = race(3);
    let cars = vec![CarStart { second_chance: true, ..car(0, 0) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    r.apply(S0, Action::Klaxon).unwrap();
    r.apply(S0, Action::Lift).unwrap();
    r.apply(S0, Action::TakePawn { pawn: Pawn(0) }).unwrap();
    r.apply(S1, Action::TakePawn { pawn: Pawn(1) }).unwrap();
    assert_refused(&mut r, S0, Action::AsDeLaRoute, "B-5.7");
    roll(&mut r, 1);
    assert_refused(&mut r, S0, Action::SecondChance, "B-5.7");
}

#[test]
fn b_5_8_as_de_la_route_ignores_limits_and_never_after_the_roll() {
    let mut r = race_at(&[9, 9, 0]);
    grab(&mut r, &[4, 4, 1]);
    let events = r.apply(S0, Action::AsDeLaRoute).unwrap();
    assert_eq!(events, vec![Event::AsDeLaRoute { seat: S0 }]);
    assert_eq!(r.move_range(S0), (1, 4));
    r.apply(S0, Action::Move { tiles: 4 }).unwrap();
    assert_eq!(r.car(S0).position, 13);
    roll(&mut r, 6);
    assert_refused(&mut r, S1, Action::AsDeLaRoute, "B-5.8");
}

#[test]
fn b_5_9_nitro_after_a_full_move_only() {
    let mut r = race(3);
    // Seat 1 holds Huile, so its turn waits after the move and Nitro can be asked for.
    let cars = vec![car(0, 12), CarStart { bonuses: Some(vec![BonusKind::Huile]), ..car(1, 12) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[1, 2, 1]);
    roll(&mut r, 6); // 70 km/h, reservoir 1: 13 is a straight
    r.apply(S0, Action::Move { tiles: 1 }).unwrap();
    let events = r.apply(S0, Action::Nitro).unwrap();
    assert_eq!(events[0], Event::Nitro { seat: S0, from: 13, to: 14 }, "ignores the 70 at 14");
    // Seat 1, reservoir 2, stops after 1 by choice: no Nitro.
    roll(&mut r, 1);
    r.apply(S1, Action::Move { tiles: 1 }).unwrap();
    assert_refused(&mut r, S1, Action::Nitro, "B-5.9");
}

#[test]
fn b_5_10_second_chance_rerolls_and_must_keep() {
    let mut r = race(3);
    let cars = vec![CarStart { second_chance: true, ..car(0, 0) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[5, 1, 1]);
    assert_refused(&mut r, S0, Action::SecondChance, "B-5.2");
    roll(&mut r, 6);
    r.force_accelerator(1).unwrap();
    let events = r.apply(S0, Action::SecondChance).unwrap();
    assert_eq!(events, vec![Event::SecondChance { seat: S0, accelerator: 1, speed: 60 }]);
    assert_eq!(r.second_chance_supply(), 6);
    assert!(!r.car(S0).second_chance);
    assert_refused(&mut r, S0, Action::SecondChance, "B-5.10");
}

#[test]
fn b_5_11_fritz_and_birgitt_take_the_raccourci() {
    // Rulebook: speed 90; one tile normally, then the Raccourci over the 70 and 80 curves.
    // Here: 12 S, 13 S, then the turn 14 70*, 15 70, 16 80, and 17 S.
    let mut r = race(3);
    let cars = vec![CarStart { bonuses: Some(vec![BonusKind::Raccourci]), ..car(0, 12) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[4, 1, 1]);
    roll(&mut r, 5); // 90 km/h
    assert_eq!(r.move_range(S0), (1, 1));
    assert_refused(&mut r, S0, Action::Raccourci { tiles_before: 0 }, "B-5.11");
    let events = r.apply(S0, Action::Raccourci { tiles_before: 1 }).unwrap();
    assert_eq!(events[1], Event::Raccourci { seat: S0, from: 13, to: 17 });
    // Two points left from 17: 18, 19 are straights.
    assert_eq!(r.move_range(S0), (0, 2));
    r.apply(S0, Action::Move { tiles: 2 }).unwrap();
    assert_eq!(r.car(S0).position, 19);
}

#[test]
fn b_5_12_aspiration_slips_behind_the_car_ahead() {
    let mut r = race(3);
    let cars = vec![CarStart { bonuses: Some(vec![BonusKind::Aspiration]), ..car(0, 2) }, car(1, 14), car(2, 30)];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[1, 1, 1]);
    let events = r.apply(S0, Action::Aspiration).unwrap();
    assert_eq!(events, vec![Event::Aspiration { seat: S0, from: 2, to: 13 }]);
    assert_eq!(r.legal_actions(S0), vec![Action::Roll]);
    // The leader: no effect, token kept.
    let mut r = race(3);
    let cars = vec![CarStart { bonuses: Some(vec![BonusKind::Aspiration]), ..car(0, 20) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[1, 1, 1]);
    assert_refused(&mut r, S0, Action::Aspiration, "B-5.12");
}

#[test]
fn b_5_13_assistance_brings_back_a_used_atout() {
    let mut r = race(3);
    let cars =
        vec![CarStart { atouts: Some(vec![Atout::Klaxon]), bonuses: Some(vec![BonusKind::Assistance]), ..car(0, 0) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[1, 1, 1]);
    assert_refused(&mut r, S0, Action::Assistance { atout: Atout::Klaxon }, "B-5.13");
    r.apply(S0, Action::Assistance { atout: Atout::Nitro }).unwrap();
    assert!(r.car(S0).atouts.contains(Atout::Nitro));
    assert!(!r.car(S0).bonuses.contains(BonusKind::Assistance));
    // It was this round's token: no Nitro after this full move, so the turn ends by itself.
    roll(&mut r, 1);
    r.apply(S0, Action::Move { tiles: 1 }).unwrap();
    assert_eq!(r.active_seat(), Some(S1));
    assert!(r.car(S0).atouts.contains(Atout::Nitro));
}

#[test]
fn b_5_14_huile_on_an_entered_tile_limits_it_to_50() {
    let mut r = race(3);
    let cars = vec![CarStart { bonuses: Some(vec![BonusKind::Huile]), ..car(0, 0) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[2, 1, 1]);
    roll(&mut r, 1);
    r.apply(S0, Action::Move { tiles: 2 }).unwrap();
    assert_refused(&mut r, S0, Action::Huile { tile: 3 }, "B-5.14");
    assert_eq!(
        r.legal_actions(S0),
        vec![Action::Nitro, Action::Huile { tile: 1 }, Action::Huile { tile: 2 }, Action::EndTurn]
    );
    r.apply(S0, Action::Huile { tile: 1 }).unwrap();
    assert_eq!(r.oil(), Some(1));
    assert_eq!(r.road().limit(1), Some(50));
    // Seat 1 at speed 60 cannot enter tile 1 any more.
    roll(&mut r, 5);
    assert_eq!(r.move_range(S1), (0, 0));
}

#[test]
fn b_5_15_used_tokens_are_discarded() {
    let mut r = race(3);
    let cars = vec![CarStart { bonuses: Some(vec![BonusKind::Huile]), ..car(0, 0) }];
    r.set_start(&StartState { cars, ..Default::default() }).unwrap();
    grab(&mut r, &[2, 1, 1]);
    r.apply(S0, Action::AsDeLaRoute).unwrap();
    r.apply(S0, Action::Move { tiles: 2 }).unwrap();
    assert!(!r.car(S0).atouts.contains(Atout::AsDeLaRoute));
    // Nothing brings it back but Assistance; the face-down count is unchanged.
    assert_eq!(r.face_down_stars().count(), 5);
}

// ----- B-6 -----

#[test]
fn b_6_1_lanterne_rouge_only_when_alone_last() {
    let mut r = race_at(&[5, 2, 2]);
    let events = play_round(&mut r, &[1, 1, 1], &[1, 1, 1]);
    assert!(events.contains(&Event::LanterneRouge { seat: None }), "two cars share the last tile");
}

#[test]
fn b_6_2_cup_passes_left() {
    let mut r = race(3);
    for expected in [S0, S1, S2, S0] {
        assert_eq!(r.first_player(), expected);
        let events = play_round(&mut r, &[1, 1, 1], &[1, 1, 1]);
        assert_eq!(
            events.iter().find(|e| matches!(e, Event::TurnStarted { .. })),
            Some(&Event::TurnStarted { seat: expected })
        );
    }
}

#[test]
fn b_6_3_race_ends_with_the_round_and_ranks_crossers_first() {
    let mut r = race_at(&[30, 35, 30, 20]);
    grab(&mut r, &[6, 3, 2, 1]);
    plain_turn(&mut r, 1); // seat 0: 30 -> 36
    let events = plain_turn(&mut r, 1); // seat 1 crosses
    assert!(events.contains(&Event::Crossed { seat: S1, place: 1 }));
    assert!(!r.is_over(), "the round goes on");
    plain_turn(&mut r, 1); // seat 2: 30 -> 32
    let events = plain_turn(&mut r, 1); // seat 3: 20 -> 21
    assert!(r.is_over());
    let ranking = vec![(S1, 1), (S0, 2), (S2, 3), (Seat(3), 4)];
    assert!(events.contains(&Event::RaceEnded { ranking }), "{events:?}");
    assert_refused(&mut r, S0, Action::Lift, "B-6.3");
}

#[test]
fn b_6_3_equal_positions_share_a_rank() {
    let mut r = race_at(&[35, 30, 30]);
    play_round(&mut r, &[3, 1, 1], &[1, 1, 1]);
    assert_eq!(r.ranking(), vec![(S0, 1), (S1, 2), (S2, 2)]);
}

// ----- B-7 -----

/// Plays the current race of `champ` to its end with plain turns.
fn finish_race(champ: &mut Championship) -> Vec<Event> {
    let race_no = champ.race().race_no();
    let mut events = Vec::new();
    while champ.race().race_no() == race_no && !champ.is_over() {
        let r = champ.race();
        let (seat, action) = match r.phase() {
            Phase::CupDown => (r.first_player(), Action::Lift),
            Phase::Echange => {
                let seat = r.seats().find(|s| r.legal_actions(*s).contains(&Action::KeepPawn)).unwrap();
                (seat, Action::KeepPawn)
            }
            Phase::Grab => {
                let seat = r.seats().find(|s| r.car(*s).pawn.is_none()).unwrap();
                (seat, r.legal_actions(seat)[0])
            }
            Phase::Movement => {
                let seat = r.active_seat().unwrap();
                let legal = r.legal_actions(seat);
                let action = *legal
                    .iter()
                    .rev()
                    .find(|a| matches!(a, Action::Move { .. } | Action::Roll | Action::EndTurn))
                    .unwrap();
                (seat, action)
            }
            other => panic!("unexpected phase {other:?}"),
        };
        events.extend(champ.apply(seat, action).unwrap());
    }
    events
}

#[test]
fn b_7_1_races_chain_with_a_fresh_setup_and_the_next_first_player() {
    let setup = ChampionshipSetup {
        pilots: 4,
        options: crate::TableOptions { races: 3, first_player: FirstPlayer::Seat(S2), echange_drill: false },
        circuits: vec![circuits::preset("cannes").unwrap()],
        seed: 11,
        first_race_bonuses: None,
    };
    let (mut champ, _) = Championship::new(setup).unwrap();
    assert_eq!(champ.race().first_player(), S2);
    finish_race(&mut champ);
    let r = champ.race();
    assert_eq!((r.race_no(), r.round(), r.first_player()), (2, 1, Seat(3)));
    assert!(r.cars().iter().all(|c| c.position == 0 && c.atouts == crate::Atouts::ALL));
    assert_eq!((r.face_down_stars().count(), r.oil(), r.lanterne_rouge()), (6, None, None));
    finish_race(&mut champ);
    let events = finish_race(&mut champ);
    assert!(champ.is_over());
    assert!(matches!(events.last(), Some(Event::ChampionshipEnded { .. })));
    assert_eq!(champ.results().len(), 3);
    assert!(champ.apply(S0, Action::Lift).is_err());
}

#[test]
fn b_7_2_points_follow_the_rulebook_figure() {
    // Tony & Anne-Marie end last on 31: 0; Sir Stephen on 35: 4; Oliver & Dorotha cross: 6 + 3.
    let mut r = race_at(&[29, 33, 35]);
    play_round(&mut r, &[2, 2, 2], &[1, 1, 1]);
    assert!(r.is_over());
    assert_eq!(r.cars().iter().map(|c| c.position).collect::<Vec<_>>(), vec![31, 35, FINISH]);
    assert_eq!(r.points(), vec![0, 4, 9]);
}

#[test]
fn b_7_3_ties_broken_by_wins_then_shared() {
    let lines = standings_from(&[10, 12, 12, 10, 3], &[1, 0, 1, 1, 0]);
    let by_seat = |s: u8| lines.iter().find(|l| l.seat == Seat(s)).unwrap().rank;
    assert_eq!([by_seat(2), by_seat(1), by_seat(0), by_seat(3), by_seat(4)], [1, 2, 3, 3, 5]);
    assert_eq!(lines[0].seat, S2);
}

#[test]
fn b_7_3_championship_reports_standings_at_the_end() {
    let setup = ChampionshipSetup {
        pilots: 3,
        options: crate::TableOptions { races: 1, first_player: FirstPlayer::Seat(S0), echange_drill: false },
        circuits: vec![circuits::preset("cannes").unwrap()],
        seed: 5,
        first_race_bonuses: None,
    };
    let (mut champ, _) = Championship::new(setup).unwrap();
    let cars = vec![car(0, 35), car(1, 32), car(2, 32)];
    champ.race_mut().set_start(&StartState { cars, ..Default::default() }).unwrap();
    champ.race_mut().force_reservoirs(&[2, 1, 1]).unwrap();
    champ.apply(S0, Action::Lift).unwrap();
    champ.apply(S0, Action::TakePawn { pawn: Pawn(0) }).unwrap();
    champ.apply(S1, Action::TakePawn { pawn: Pawn(1) }).unwrap();
    let events = finish_race(&mut champ);
    let standings = champ.standings();
    assert_eq!((standings[0].seat, standings[0].wins, standings[0].points), (S0, 1, 4 + 3));
    assert_eq!((standings[1].rank, standings[2].rank), (2, 2));
    let expected: Vec<_> = standings.iter().map(|s| (s.seat, s.points, s.wins, s.rank)).collect();
    assert_eq!(events.last(), Some(&Event::ChampionshipEnded { standings: expected }));
}

/// A client checks each view from the wire before drawing it: a view naming a seat, pawn or
/// tile that does not exist is refused with what it named.
#[test]
fn a_view_naming_what_does_not_exist_is_refused() {
    use crate::view::ViewError;
    let good = race(3).view_for(S0);
    assert_eq!(good.check(), Ok(()));
    let mut v = good.clone();
    v.cars[1].position = FINISH + 1;
    assert_eq!(v.check(), Err(ViewError::Tile(FINISH + 1)));
    let mut v = good.clone();
    v.klaxon_calls.push(Seat(3));
    assert_eq!(v.check(), Err(ViewError::Seat(Seat(3))));
    let mut v = good.clone();
    v.pawns[0].pawn = Pawn(5);
    assert_eq!(v.check(), Err(ViewError::Pawn(Pawn(5))));
    let mut v = good.clone();
    v.cars.pop();
    assert_eq!(v.check(), Err(ViewError::Size { cars: 2, pawns: 3 }));
    let mut v = good;
    v.phase = PhaseView::KlaxonPicks { next: Seat(200) };
    assert_eq!(v.check(), Err(ViewError::Seat(Seat(200))));
}
