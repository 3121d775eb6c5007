//! The rules, one test (at least) per id of `docs/rules/entenrallye.md`, named after it.

use crate::board::{Board, MINUS_SQUARES, board};
use crate::calendar::{Calendar, Tick};
use crate::part::{BARE_FAULTS, PARTS};
use crate::rallye::REPAIR_MAX;
use crate::*;
use bolide_table::{BotLevel, Game, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn sq(name: &str) -> Square {
    board().find(name).unwrap_or_else(|| panic!("no square {name}"))
}

fn game(players: u8) -> Rallye {
    Rallye::new(Settings::default(), players, 7, &mut Vec::new()).unwrap()
}

fn legal(g: &Rallye, seat: u8) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_into(Seat(seat), &mut out);
    out
}

fn drive(to: &str, squares: u8, buy: bool, repair: u8) -> Action {
    Action::Drive { to: sq(to), squares, buy, repair }
}

fn go(g: &mut Rallye, seat: u8, action: Action) -> Vec<Event> {
    let mut events = Vec::new();
    g.apply(Seat(seat), action, &mut events).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
    events
}

fn refused(g: &Rallye, seat: u8, action: Action) -> RuleError {
    g.check(Seat(seat), action).expect_err("refused")
}

fn place(g: &mut Rallye, seat: usize, at: &str) {
    let at = sq(at);
    g.arrange(|cars, _, _| cars[seat].at = at);
}

fn calendar(g: &mut Rallye, month: u8, step: u8) {
    let players = g.players();
    g.arrange(|_, cal, _| *cal = Calendar::at(players, month, step));
}

/// Moves `parts` from the pile into `seat`'s hidden parts.
fn hand(g: &mut Rallye, seat: usize, parts: &[u8]) {
    g.arrange(|cars, _, pile| {
        for p in parts {
            pile.retain(|x| x.0 != *p);
            cars[seat].hidden.push(Part(*p));
        }
    });
}

/// Moves `parts` from the pile onto `seat`'s car card.
fn fit(g: &mut Rallye, seat: usize, parts: &[u8]) {
    g.arrange(|cars, _, pile| {
        for p in parts {
            pile.retain(|x| x.0 != *p);
            cars[seat].fitted[Part(*p).section().index()] = Some(Part(*p));
        }
    });
}

fn repair(g: &mut Rallye, seat: usize, points: u8) {
    g.arrange(|cars, _, _| cars[seat].repair = points);
}

fn settle(g: &mut Rallye, seat: usize, check: Inspection, state: Check) {
    g.arrange(|cars, _, _| cars[seat].checks[check.index()] = state);
}

fn parts_counted(g: &Rallye) -> usize {
    g.pile().len() + g.cars().iter().map(|c| c.hidden.len() + c.fitted.iter().flatten().count()).sum::<usize>()
}

// E-1 -----------------------------------------------------------------------------------

#[test]
fn e_1_1_two_to_six_players_each_with_a_colour() {
    for (players, ok) in [(1, false), (2, true), (6, true), (7, false)] {
        assert_eq!(Rallye::new(Settings::default(), players, 1, &mut Vec::new()).is_ok(), ok, "{players} players");
    }
    let colours: Vec<&str> = (0..6).map(|s| Colour::of_seat(s).name()).collect();
    assert_eq!(colours, ["red", "yellow", "green", "blue", "white", "black"]);
}

#[test]
fn e_1_2_all_48_parts_are_used_whatever_the_number_of_players() {
    for players in 2..=6 {
        let g = game(players);
        assert_eq!(g.pile().len(), usize::from(PARTS));
        assert_eq!(g.cars().len(), usize::from(players));
    }
}

#[test]
fn e_1_3_every_car_on_start_bare_marker_zero_calendar_off() {
    let g = game(4);
    for car in g.cars() {
        assert_eq!(car.at, board().start);
        assert_eq!((car.repair, car.fitted, car.hidden.len()), (0, [None; 4], 0));
    }
    assert_eq!(g.calendar().time, 0);
    let mut sorted = g.pile().to_vec();
    sorted.sort();
    assert_eq!(sorted, Part::all().collect::<Vec<_>>());
    assert_ne!(g.pile(), sorted.as_slice(), "the pile is shuffled");
}

#[test]
fn e_1_4_the_first_player_is_picked_or_drawn_then_play_goes_clockwise() {
    assert_eq!(game(4).turn(), Seat(0));
    let random = Settings { first_player: FirstPlayer::Random, ..Settings::default() };
    let firsts: std::collections::BTreeSet<u8> =
        (0..40).map(|seed| Rallye::new(random, 4, seed, &mut Vec::new()).unwrap().turn().0).collect();
    assert_eq!(firsts.len(), 4, "every seat can be drawn first");
    let mut g = game(3);
    g.set_die(Seat(2), 3);
    go(&mut g, 2, drive("A03", 3, false, 0));
    while g.turn() == Seat(2) {
        go(&mut g, 2, Action::EndTurn);
    }
    assert_eq!(g.turn(), Seat(0), "after the last seat comes the first");
}

// E-2 -----------------------------------------------------------------------------------

#[test]
fn e_2_1_start_has_no_way_in() {
    let b = board();
    assert!(b.squares().all(|s| !b.edges(s).contains(&b.start)));
    assert_eq!(b.kind(b.start), Kind::Start);
}

#[test]
fn e_2_2_a_drive_that_ends_on_grey_opens_the_special_actions() {
    let mut g = game(2);
    hand(&mut g, 1, &[5]);
    g.set_die(Seat(0), 1);
    go(&mut g, 0, drive("A01", 1, false, 0));
    assert_eq!(g.phase(), Phase::Special { die: 1, swapped: false });
    assert!(legal(&g, 0).contains(&Action::Steal { from: Seat(1) }));
}

#[test]
fn e_2_3_a_drive_that_ends_on_beige_ends_the_turn() {
    let mut g = game(2);
    hand(&mut g, 1, &[5]);
    place(&mut g, 0, "A13");
    g.set_die(Seat(0), 2);
    let events = go(&mut g, 0, drive("K1_1", 2, false, 0));
    assert!(events.contains(&Event::TurnEnded { seat: Seat(0) }));
    assert_eq!(g.turn(), Seat(1));
}

#[test]
fn e_2_4_at_a_junction_the_player_chooses_the_branch() {
    let mut g = game(2);
    place(&mut g, 0, "A14");
    g.set_die(Seat(0), 1);
    let ends: Vec<Action> = legal(&g, 0);
    assert!(ends.contains(&drive("M1in1", 1, false, 0)) && ends.contains(&drive("K1_1", 1, false, 0)));
    let junctions: Vec<&str> =
        board().squares().filter(|s| board().edges(*s).len() == 2).map(|s| board().name(s)).collect();
    assert_eq!(junctions, ["A14", "B09", "C14", "D14", "E09"]);
}

#[test]
fn e_2_5_four_meetings_beige_m4_the_end_of_the_road() {
    let b = board();
    for m in b.meetings {
        assert_eq!(b.kind(m), Kind::Meeting);
    }
    assert!(b.edges(b.meetings[3]).is_empty());
    assert!(b.meetings[..3].iter().all(|m| b.edges(*m).len() == 1));
}

#[test]
fn e_2_6_each_station_ends_a_dead_end_spur() {
    let b = board();
    for (station, junction) in [("TUV", "B09"), ("ASU", "E09")] {
        assert!(b.edges(sq(station)).is_empty(), "{station} is a dead end");
        assert_eq!(b.kind(sq(station)), Kind::Check);
        assert_eq!(b.next(sq(station), true, |_| false).len(), 1, "a car drives back out of {station}");
        assert!(b.edges(sq(junction)).iter().any(|s| b.spur(*s).is_some()));
    }
}

#[test]
fn e_2_7_the_workshops_are_squares_of_their_own_on_separate_roads() {
    let b = board();
    assert_eq!(b.kind(sq("WT")), Kind::Workshop);
    assert_eq!(b.kind(sq("WA")), Kind::Workshop);
    assert_eq!(b.distance(sq("WT"), sq("C03"), |_| true), Some(19));
    assert_eq!(b.distance(sq("WA"), sq("F03"), |_| true), Some(19));
    assert_eq!(b.distance(sq("START"), sq("WT"), |_| true), None, "no road from the route into a workshop");
}

#[test]
fn e_2_8_minus_squares_count_back_from_the_workshop() {
    let b = board();
    for (c, workshop) in [(0, "WT"), (1, "WA")] {
        for k in 1..=MINUS_SQUARES {
            assert_eq!(b.kind(b.minus[c][k - 1]), Kind::Minus);
            assert_eq!(b.distance(b.minus[c][k - 1], sq(workshop), |_| true), Some(k as u16));
        }
    }
}

#[test]
fn e_2_9_a_shortcut_bypasses_each_of_the_first_three_meetings() {
    let b = board();
    for (j, shortcut, merge, meeting) in
        [("A14", "K1_1", "B01", "M1"), ("C14", "K2_1", "D01", "M2"), ("D14", "K3_1", "E01", "M3")]
    {
        assert!(b.edges(sq(j)).contains(&sq(shortcut)));
        assert_eq!(b.distance(sq(shortcut), sq(merge), |_| true), Some(3));
        assert_eq!(b.distance(sq(shortcut), sq(meeting), |_| true), None);
        assert_eq!(b.kind(sq(shortcut)), Kind::Beige);
    }
}

#[test]
fn e_2_10_cars_share_squares_and_never_block() {
    let mut g = game(2);
    place(&mut g, 0, "A05");
    place(&mut g, 1, "A06");
    g.set_die(Seat(0), 1);
    go(&mut g, 0, drive("A06", 1, false, 0));
    assert_eq!(g.cars()[0].at, g.cars()[1].at);
}

#[test]
fn e_2_11_each_player_has_a_repair_track_and_all_see_the_calendar() {
    let mut g = game(3);
    repair(&mut g, 2, 7);
    calendar(&mut g, 3, 2);
    let v = g.view(Some(Seat(0)));
    assert_eq!(v.cars[2].repair, 7);
    assert_eq!(Calendar { players: 3, time: v.time }.month(), 3);
    assert_eq!(REPAIR_MAX, 20);
}

// E-3 -----------------------------------------------------------------------------------

#[test]
fn e_3_1_a_month_lasts_as_many_steps_as_there_are_players() {
    for players in 2..=6u8 {
        let mut c = Calendar::new(players);
        c.tick();
        for _ in 0..players {
            assert_eq!(c.month(), 1);
            c.tick();
        }
        assert_eq!((c.month(), c.step()), (2, 1));
    }
}

#[test]
fn e_3_2_a_calendar_not_started_is_earlier_than_january() {
    let mut g = game(2);
    place(&mut g, 0, "M1in3");
    g.set_die(Seat(0), 1);
    let events = go(&mut g, 0, drive("M1", 1, false, 0));
    assert!(events.contains(&Event::Judged { seat: Seat(0), meeting: 0, points: 0, early: true }));
}

#[test]
fn e_3_3_one_time_step() {
    let mut c = Calendar::new(3);
    assert_eq!((c.month(), c.step()), (0, 0));
    assert_eq!(c.tick(), Tick::Moved);
    assert_eq!((c.month(), c.step()), (1, 1));
    let mut c = Calendar::at(3, 12, 3);
    assert_eq!(c.tick(), Tick::YearOver);
}

#[test]
fn e_3_4_time_as_one_integer() {
    for n in 2..=6u16 {
        for t in 1..=12 * n {
            let c = Calendar { players: n as u8, time: t };
            let month = t.div_ceil(n);
            assert_eq!(u16::from(c.month()), month);
            assert_eq!(u16::from(c.step()), t - (month - 1) * n);
        }
    }
}

#[test]
fn e_3_5_the_rulebooks_calendar_examples() {
    for (players, from, to) in [(6, (3, 3), (3, 4)), (6, (3, 6), (4, 1)), (3, (11, 3), (12, 1)), (6, (5, 6), (6, 1))] {
        let mut c = Calendar::at(players, from.0, from.1);
        c.tick();
        assert_eq!((c.month(), c.step()), to, "{players} players from {from:?}");
    }
}

#[test]
fn e_3_6_entering_may_and_november_round_up() {
    let mut c = Calendar::at(2, 4, 2);
    assert_eq!(c.tick(), Tick::Entered(5));
    let mut c = Calendar::at(2, 10, 2);
    assert_eq!(c.tick(), Tick::Entered(11));
    let mut c = Calendar::at(2, 5, 1);
    assert_eq!(c.tick(), Tick::Moved);
}

// E-4 -----------------------------------------------------------------------------------

#[test]
fn e_4_1_roll_then_drive_then_special_actions_then_time() {
    let mut g = game(2);
    assert_eq!(refused(&g, 0, drive("A01", 1, false, 0)), RuleError::RollFirst);
    let events = go(&mut g, 0, Action::Roll);
    let Some(Event::Rolled { die, .. }) = events.first() else { panic!("{events:?}") };
    assert_eq!(g.phase(), Phase::Drive { die: *die });
    assert_eq!(refused(&g, 0, Action::Roll), RuleError::AlreadyRolled);
    assert_eq!(refused(&g, 0, Action::EndTurn), RuleError::NotDriven);
    assert_eq!(g.calendar().time, 0, "time never moves before step 3");
}

#[test]
fn e_4_2_the_die_is_split_between_driving_buying_and_repairing() {
    let mut g = game(2);
    g.set_die(Seat(0), 5);
    assert_eq!(refused(&g, 0, drive("A02", 2, false, 2)), RuleError::WrongSum { die: 5 });
    for a in legal(&g, 0) {
        let Action::Drive { squares, buy, repair, .. } = a else { panic!() };
        assert_eq!(squares + 3 * u8::from(buy) + repair, 5);
    }
    go(&mut g, 0, drive("A02", 2, true, 0));
}

#[test]
fn e_4_3_a_waiting_car_or_one_on_m4_only_rolls() {
    for (at, waiting) in [("M2", Some(1)), ("M4", None)] {
        let mut g = game(2);
        place(&mut g, 0, at);
        calendar(&mut g, 5, 1);
        g.arrange(|cars, _, _| cars[0].waiting = waiting);
        let events = go(&mut g, 0, Action::Roll);
        assert!(events.contains(&Event::Stays { seat: Seat(0) }), "{at}");
        assert_eq!(g.cars()[0].at, sq(at));
        assert_eq!(g.turn(), Seat(1));
    }
}

// E-5 -----------------------------------------------------------------------------------

#[test]
fn e_5_1_at_least_one_square_at_most_the_die() {
    let mut g = game(2);
    g.set_die(Seat(0), 4);
    assert_eq!(refused(&g, 0, drive("START", 0, false, 4)), RuleError::Distance { die: 4 });
    assert_eq!(refused(&g, 0, drive("A05", 5, false, 0)), RuleError::Distance { die: 4 });
    assert!(legal(&g, 0).iter().all(|a| matches!(a, Action::Drive { squares: 1..=4, .. })));
}

#[test]
fn e_5_2_square_by_square_forwards_only() {
    let mut g = game(2);
    place(&mut g, 0, "A05");
    g.set_die(Seat(0), 2);
    assert_eq!(refused(&g, 0, drive("A03", 2, false, 0)), RuleError::NotOnRoad { squares: 2 });
    assert_eq!(refused(&g, 0, drive("A08", 2, false, 0)), RuleError::NotOnRoad { squares: 2 });
    go(&mut g, 0, drive("A07", 2, false, 0));
}

#[test]
fn e_5_3_stop_early_on_grey_spending_the_rest_or_stop_where_the_road_says() {
    let mut g = game(2);
    place(&mut g, 0, "A12");
    g.set_die(Seat(0), 4);
    // A beige square reached early with points left: refused; grey with the rest spent: fine.
    assert_eq!(refused(&g, 0, drive("K1_1", 3, false, 1)), RuleError::EarlyStop);
    assert!(legal(&g, 0).contains(&drive("A13", 1, true, 0)));
    assert!(legal(&g, 0).contains(&drive("A13", 1, false, 3)));
    // A meeting it is judged at stops the car, the rest lost.
    let mut g = game(2);
    place(&mut g, 0, "M1in2");
    g.set_die(Seat(0), 5);
    assert_eq!(legal(&g, 0), [drive("M1", 2, false, 0)], "M1in3 is beige: no early stop there");
    assert_eq!(refused(&g, 0, drive("M1", 2, false, 3)), RuleError::StopsThere);
    go(&mut g, 0, drive("M1", 2, false, 0));
    assert_eq!(g.cars()[0].at, sq("M1"));
}

#[test]
fn e_5_4_a_meeting_the_car_is_late_for_is_driven_over() {
    let mut g = game(2);
    place(&mut g, 0, "M1in2");
    calendar(&mut g, 3, 1);
    g.set_die(Seat(0), 3);
    let events = go(&mut g, 0, drive("M1out1", 3, false, 0));
    assert!(!events.iter().any(|e| matches!(e, Event::Judged { .. })));
}

#[test]
fn e_5_5_only_a_car_that_owes_the_check_enters_its_spur() {
    let mut g = game(2);
    place(&mut g, 0, "B08");
    g.set_die(Seat(0), 2);
    assert!(legal(&g, 0).contains(&drive("TU1", 2, false, 0)));
    settle(&mut g, 0, Inspection::Tuv, Check::Passed);
    assert!(!legal(&g, 0).contains(&drive("TU1", 2, false, 0)));
    assert_eq!(refused(&g, 0, drive("TU1", 2, false, 0)), RuleError::NotOnRoad { squares: 2 });
}

// E-6 -----------------------------------------------------------------------------------

#[test]
fn e_6_1_no_special_actions_without_a_drive_ending_on_grey() {
    let mut g = game(2);
    hand(&mut g, 0, &[0]);
    place(&mut g, 0, "A13");
    g.set_die(Seat(0), 2);
    go(&mut g, 0, drive("M1in1", 2, false, 0));
    assert_eq!(g.turn(), Seat(1), "beige: the turn ends, the part stays hidden");
    assert_eq!(g.cars()[0].hidden, [Part(0)]);
}

#[test]
fn e_6_2_each_special_action_needs_its_die() {
    let mut g = game(2);
    hand(&mut g, 0, &[0]);
    hand(&mut g, 1, &[13]);
    g.set_die(Seat(0), 3);
    go(&mut g, 0, drive("A03", 3, false, 0));
    assert_eq!(refused(&g, 0, Action::Steal { from: Seat(1) }), RuleError::NoSwap);
    assert_eq!(refused(&g, 0, Action::Exchange { with: Seat(1), give: Part(0) }), RuleError::NoSwap);
    assert!(legal(&g, 0).contains(&Action::Fit { part: Part(0) }), "fitting on any die");
}

#[test]
fn e_6_3_a_purchase_costs_three_so_one_part_a_turn_at_most() {
    let mut g = game(2);
    g.set_die(Seat(0), 6);
    let drives = legal(&g, 0);
    assert!(drives.contains(&drive("A02", 2, true, 1)) && drives.contains(&drive("A03", 3, true, 0)));
    assert!(drives.iter().all(|a| matches!(a, Action::Drive { squares: 1.., .. })));
    go(&mut g, 0, drive("A03", 3, true, 0));
    assert_eq!(g.cars()[0].hidden.len(), 1);
}

#[test]
fn e_6_4_a_part_just_bought_or_stolen_may_be_fitted_at_once() {
    let mut g = game(2);
    g.set_die(Seat(0), 4);
    go(&mut g, 0, drive("A01", 1, true, 0));
    let bought = g.cars()[0].hidden[0];
    go(&mut g, 0, Action::Fit { part: bought });
    assert_eq!(g.cars()[0].fitted[bought.section().index()], Some(bought));
    let mut g = game(2);
    hand(&mut g, 1, &[20]);
    g.set_die(Seat(0), 1);
    go(&mut g, 0, drive("A01", 1, false, 0));
    go(&mut g, 0, Action::Steal { from: Seat(1) });
    go(&mut g, 0, Action::Fit { part: Part(20) });
}

#[test]
fn e_6_5_the_rulebooks_die_examples() {
    let mut g = game(2);
    g.set_die(Seat(0), 5);
    assert!(legal(&g, 0).contains(&drive("A02", 2, true, 0)));
    g.set_die(Seat(0), 4);
    assert!(legal(&g, 0).contains(&drive("A01", 1, false, 3)));
    hand(&mut g, 0, &[0]);
    hand(&mut g, 1, &[13]);
    g.set_die(Seat(0), 2);
    go(&mut g, 0, drive("A02", 2, false, 0));
    assert!(legal(&g, 0).contains(&Action::Exchange { with: Seat(1), give: Part(0) }));
    let mut g = game(2);
    hand(&mut g, 1, &[13]);
    g.set_die(Seat(0), 1);
    go(&mut g, 0, drive("A01", 1, false, 0));
    assert!(legal(&g, 0).contains(&Action::Steal { from: Seat(1) }));
}

// E-7 -----------------------------------------------------------------------------------

#[test]
fn e_7_1_parts_have_a_section_colour_2_to_5_points_3_to_5_faults() {
    assert!(Part::all().all(|p| (2..=5).contains(&p.points()) && (3..=5).contains(&p.faults())));
    assert!(Part::all().any(|p| (p.points(), p.faults()) == (5, 3)));
    assert!(Part::all().any(|p| (p.points(), p.faults()) == (2, 5)));
    assert!(!Part(PARTS).is_card());
}

#[test]
fn e_7_2_a_bare_car_has_four_sections_of_three_faults() {
    let g = game(2);
    assert_eq!(g.cars()[0].faults(), 4 * BARE_FAULTS);
    assert_eq!(g.cars()[0].points(Colour::Red), 0);
}

#[test]
fn e_7_3_a_bought_part_is_the_buyers_secret_and_an_empty_pile_sells_nothing() {
    let mut g = game(2);
    let top = *g.pile().last().unwrap();
    g.set_die(Seat(0), 4);
    let events = go(&mut g, 0, drive("A01", 1, true, 0));
    let bought = events.iter().find(|e| matches!(e, Event::Bought { .. })).unwrap();
    assert_eq!(bought, &Event::Bought { seat: Seat(0), part: Some(top) });
    assert_eq!(g.event_for(bought, Some(Seat(1))), Event::Bought { seat: Seat(0), part: None });
    assert_eq!(g.event_for(bought, None), Event::Bought { seat: Seat(0), part: None });
    let mut g = game(2);
    g.arrange(|_, _, pile| pile.clear());
    g.set_die(Seat(0), 4);
    assert_eq!(refused(&g, 0, drive("A01", 1, true, 0)), RuleError::PileEmpty);
}

#[test]
fn e_7_4_hidden_parts_are_the_owners_the_others_see_how_many() {
    let mut g = game(3);
    hand(&mut g, 1, &[3, 9]);
    let theirs = g.view(Some(Seat(0)));
    assert!(theirs.hand.is_empty());
    assert_eq!(theirs.cars[1].hidden, 2);
    assert_eq!(g.view(Some(Seat(1))).hand, [Part(3), Part(9)]);
    assert!(g.view(None).hand.is_empty());
}

#[test]
fn e_7_5_a_part_goes_on_its_free_section_and_stays_there() {
    let mut g = game(2);
    hand(&mut g, 0, &[0, 1, 12]);
    g.set_die(Seat(0), 3);
    go(&mut g, 0, drive("A03", 3, false, 0));
    go(&mut g, 0, Action::Fit { part: Part(0) });
    assert_eq!(refused(&g, 0, Action::Fit { part: Part(1) }), RuleError::SectionTaken, "both are FRONT");
    assert_eq!(refused(&g, 0, Action::Fit { part: Part(30) }), RuleError::NotHeld);
    go(&mut g, 0, Action::Fit { part: Part(12) });
    assert_eq!(g.view(Some(Seat(1))).cars[0].fitted[0], Some(Part(0)), "a fitted part is public");
}

#[test]
fn e_7_6_faults_are_the_sum_over_the_sections() {
    let mut g = game(2);
    // Juliane's example: parts with 4 and 5 faults fitted → 3 + 3 + 4 + 5 = 15.
    fit(&mut g, 0, &[2, 14]);
    assert_eq!((Part(2).faults(), Part(14).faults()), (4, 5));
    assert_eq!(g.cars()[0].faults(), 15);
}

#[test]
fn e_7_7_points_are_the_parts_plus_one_for_the_cars_colour() {
    let mut g = game(2);
    fit(&mut g, 0, &[0, 15]); // red 5/3 on the red car (+1), yellow 2/3
    assert_eq!(g.cars()[0].points(Colour::Red), 5 + 1 + 2);
}

// E-8 -----------------------------------------------------------------------------------

#[test]
fn e_8_1_a_steal_takes_a_hidden_part_never_a_fitted_one() {
    let mut g = game(3);
    fit(&mut g, 1, &[0]);
    g.set_die(Seat(0), 1);
    go(&mut g, 0, drive("A01", 1, false, 0));
    assert_eq!(g.turn(), Seat(1), "nobody holds a hidden part: nothing to steal, the turn ends");
    let mut g = game(3);
    fit(&mut g, 1, &[0]);
    hand(&mut g, 2, &[7]);
    g.set_die(Seat(0), 1);
    go(&mut g, 0, drive("A01", 1, false, 0));
    assert_eq!(refused(&g, 0, Action::Steal { from: Seat(1) }), RuleError::NothingToTake);
    assert_eq!(refused(&g, 0, Action::Steal { from: Seat(0) }), RuleError::NothingToTake);
    assert_eq!(refused(&g, 0, Action::Steal { from: Seat(9) }), RuleError::NothingToTake);
    let events = go(&mut g, 0, Action::Steal { from: Seat(2) });
    assert!(events.contains(&Event::Stole { seat: Seat(0), from: Seat(2), part: Some(Part(7)) }));
    assert_eq!(g.cars()[1].fitted[0], Some(Part(0)));
    let stole = Event::Stole { seat: Seat(0), from: Seat(2), part: Some(Part(7)) };
    assert_eq!(g.event_for(&stole, Some(Seat(1))), Event::Stole { seat: Seat(0), from: Seat(2), part: None });
    assert_eq!(g.event_for(&stole, Some(Seat(2))), stole);
}

#[test]
fn e_8_2_an_exchange_takes_one_unseen_and_gives_one_chosen() {
    let mut g = game(2);
    hand(&mut g, 0, &[0, 1]);
    hand(&mut g, 1, &[30]);
    g.set_die(Seat(0), 2);
    go(&mut g, 0, drive("A02", 2, false, 0));
    assert_eq!(refused(&g, 0, Action::Exchange { with: Seat(1), give: Part(40) }), RuleError::NothingToGive);
    go(&mut g, 0, Action::Exchange { with: Seat(1), give: Part(1) });
    assert_eq!(g.cars()[1].hidden, [Part(1)]);
    assert!(g.cars()[0].hidden.contains(&Part(30)) && !g.cars()[0].hidden.contains(&Part(1)));
    assert_eq!(parts_counted(&g), 48);
}

#[test]
fn e_8_3_the_part_taken_is_drawn_uniformly() {
    let mut taken = [0u32; 3];
    for seed in 0..300 {
        let mut g = Rallye::new(Settings::default(), 2, seed, &mut Vec::new()).unwrap();
        hand(&mut g, 1, &[10, 20, 30]);
        g.set_die(Seat(0), 1);
        go(&mut g, 0, drive("A01", 1, false, 0));
        go(&mut g, 0, Action::Steal { from: Seat(1) });
        let got = g.cars()[0].hidden[0];
        taken[[10, 20, 30].iter().position(|p| *p == got.0).unwrap()] += 1;
    }
    assert!(taken.iter().all(|n| (70..=130).contains(n)), "{taken:?}");
}

// E-9 -----------------------------------------------------------------------------------

#[test]
fn e_9_1_the_repair_marker_stops_at_20() {
    let mut g = game(2);
    repair(&mut g, 0, 18);
    g.set_die(Seat(0), 4);
    assert_eq!(refused(&g, 0, drive("A01", 1, false, 3)), RuleError::RepairFull);
    assert!(legal(&g, 0).contains(&drive("A02", 2, false, 2)));
    go(&mut g, 0, drive("A02", 2, false, 2));
    assert_eq!(g.cars()[0].repair, 20);
}

#[test]
fn e_9_2_repairs_need_a_die_of_two_or_more() {
    let mut g = game(2);
    g.set_die(Seat(0), 1);
    assert!(legal(&g, 0).iter().all(|a| matches!(a, Action::Drive { repair: 0, .. })));
    g.set_die(Seat(0), 2);
    assert!(legal(&g, 0).contains(&drive("A01", 1, false, 1)));
}

#[test]
fn e_9_3_no_repairs_once_the_asu_is_settled() {
    let mut g = game(2);
    settle(&mut g, 0, Inspection::Asu, Check::Passed);
    g.set_die(Seat(0), 3);
    assert_eq!(refused(&g, 0, drive("A01", 1, false, 2)), RuleError::RepairsOver);
    settle(&mut g, 0, Inspection::Asu, Check::Owed);
    settle(&mut g, 0, Inspection::Tuv, Check::Passed);
    assert!(g.check(Seat(0), drive("A01", 1, false, 2)).is_ok(), "the TÜV settled, repairs go on for the ASU");
}

// E-10 ----------------------------------------------------------------------------------

/// Plays `seat`'s turn with a die of `die` to `to` (`squares` away), then ends it.
fn turn(g: &mut Rallye, seat: u8, die: u8, to: &str, squares: u8) -> Vec<Event> {
    g.set_die(Seat(seat), die);
    let mut events = go(g, seat, drive(to, squares, false, 0));
    while g.turn() == Seat(seat) && !g.is_over() {
        events.extend(go(g, seat, Action::EndTurn));
    }
    events
}

#[test]
fn e_10_1_a_six_moves_time_whatever_the_car_did() {
    let mut g = game(2);
    turn(&mut g, 0, 6, "A06", 6);
    assert_eq!(g.calendar().time, 1);
    turn(&mut g, 1, 5, "A05", 5);
    assert_eq!(g.calendar().time, 1);
}

#[test]
fn e_10_2_an_arrival_in_time_moves_time() {
    let mut g = game(2);
    place(&mut g, 0, "M1in3");
    calendar(&mut g, 2, 1);
    let events = turn(&mut g, 0, 1, "M1", 1);
    assert!(events.contains(&Event::Time { time: 4, why: Why::Arrival }));
}

#[test]
fn e_10_3_a_six_and_an_arrival_move_time_twice_a_late_arrival_not_at_all() {
    let mut g = game(2);
    place(&mut g, 0, "M1in1");
    calendar(&mut g, 1, 1);
    turn(&mut g, 0, 6, "M1", 3);
    assert_eq!(g.calendar().time, 3);
    let mut g = game(2);
    place(&mut g, 0, "M1in2");
    calendar(&mut g, 3, 1);
    turn(&mut g, 0, 3, "M1out1", 3);
    assert_eq!(g.calendar().time, 5, "late: driven over, no time");
}

#[test]
fn e_10_4_time_steps_one_after_the_other_each_with_its_consequences() {
    // From April/2 a 6 that reaches the TÜV: the six enters May (the round-up of the car that
    // still owes it), then the arrival moves time once more.
    let mut g = game(2);
    place(&mut g, 0, "B09");
    repair(&mut g, 0, 12);
    calendar(&mut g, 4, 2);
    let events = turn(&mut g, 0, 6, "TUV", 3);
    let told: Vec<&Event> =
        events.iter().filter(|e| matches!(e, Event::Time { .. } | Event::RoundedUp { .. })).collect();
    assert_eq!(
        told,
        [
            &Event::Time { time: 9, why: Why::Six },
            &Event::RoundedUp { seat: Seat(1), check: Inspection::Tuv, minus: 12, marker: 0 },
            &Event::Time { time: 10, why: Why::Arrival },
        ]
    );
    assert_eq!(g.cars()[0].checks[0], Check::Passed, "reached in April, before the round-up");
}

// E-11 ----------------------------------------------------------------------------------

#[test]
fn e_11_1_only_meetings_give_points() {
    let mut g = game(2);
    fit(&mut g, 0, &[0]);
    place(&mut g, 0, "M1in3");
    turn(&mut g, 0, 1, "M1", 1);
    assert_eq!(g.cars()[0].scores, [Some(6), None, None, None]);
    assert_eq!(g.cars()[0].total(), 6);
    assert_eq!(crate::board::MEETING_MONTHS, [2, 6, 8, 12]);
}

#[test]
fn e_11_2_the_month_that_counts_is_the_one_the_turn_began_in() {
    // February/N, a 6 onto M1: in time; then two steps, to March/2.
    let mut g = game(3);
    place(&mut g, 0, "M1in1");
    calendar(&mut g, 2, 3);
    let events = turn(&mut g, 0, 6, "M1", 3);
    assert!(events.contains(&Event::Judged { seat: Seat(0), meeting: 0, points: 0, early: false }));
    assert_eq!((g.calendar().month(), g.calendar().step()), (3, 2));
}

#[test]
fn e_11_3_judged_at_once_zero_when_nothing_is_fitted() {
    let mut g = game(2);
    place(&mut g, 0, "M1in3");
    calendar(&mut g, 2, 1);
    let events = turn(&mut g, 0, 4, "M1", 1);
    assert!(events.contains(&Event::Judged { seat: Seat(0), meeting: 0, points: 0, early: false }));
    assert_eq!(g.cars()[0].at, sq("M1"));
}

#[test]
fn e_11_4_after_judging_the_card_is_bare_and_two_hidden_parts_are_kept() {
    let mut g = game(2);
    fit(&mut g, 0, &[0, 12]);
    hand(&mut g, 0, &[24, 36, 40]);
    place(&mut g, 0, "M1in3");
    calendar(&mut g, 2, 1);
    g.set_die(Seat(0), 1);
    let events = go(&mut g, 0, drive("M1", 1, false, 0));
    assert_eq!(g.phase(), Phase::Keep { die: 1, fitted: 2 });
    // Nothing is said to have gone back before the choice: one line tells it all.
    assert!(!events.iter().any(|e| matches!(e, Event::PartsReturned { .. })));
    assert_eq!(refused(&g, 0, Action::EndTurn), RuleError::KeepFirst);
    assert_eq!(refused(&g, 0, Action::Keep { parts: [Some(Part(24)), Some(Part(24))] }), RuleError::BadKeep);
    assert_eq!(refused(&g, 0, Action::Keep { parts: [Some(Part(1)), None] }), RuleError::BadKeep);
    let before = g.pile().len();
    let events = go(&mut g, 0, Action::Keep { parts: [Some(Part(24)), Some(Part(40))] });
    let returned: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::PartsReturned { .. })).collect();
    assert_eq!(returned, [&Event::PartsReturned { seat: Seat(0), fitted: 2, hidden: 1, kept: 2 }]);
    assert_eq!(g.cars()[0].fitted, [None; 4]);
    assert_eq!(g.cars()[0].hidden, [Part(24), Part(40)]);
    assert_eq!(g.pile().len(), before + 1);
    assert_eq!(parts_counted(&g), 48);
}

#[test]
fn e_11_5_a_late_car_keeps_its_parts_for_a_later_meeting() {
    let mut g = game(2);
    fit(&mut g, 0, &[0]);
    place(&mut g, 0, "M1in3");
    calendar(&mut g, 3, 1);
    turn(&mut g, 0, 2, "M1out1", 2);
    assert_eq!(g.cars()[0].fitted[0], Some(Part(0)));
    assert_eq!(g.cars()[0].scores[0], None);
}

#[test]
fn e_11_6_an_early_car_waits_for_its_meetings_month() {
    // A car on M2 in May, calendar May/6, rolls a 6: no move; June/1; next turn it drives.
    let mut g = game(6);
    place(&mut g, 0, "M2in3");
    calendar(&mut g, 5, 5);
    let events = turn(&mut g, 0, 1, "M2", 1);
    assert!(events.contains(&Event::Judged { seat: Seat(0), meeting: 1, points: 0, early: true }));
    assert_eq!((g.calendar().month(), g.calendar().step()), (5, 6));
    let mut events = Vec::new();
    g.roll_as(Seat(0), 6, &mut events);
    assert!(events.contains(&Event::Stays { seat: Seat(0) }));
    assert_eq!(g.cars()[0].at, sq("M2"));
    assert_eq!((g.calendar().month(), g.calendar().step()), (6, 1));
    g.roll_as(Seat(0), 3, &mut events);
    assert_eq!(g.phase(), Phase::Drive { die: 3 });
    assert!(legal(&g, 0).contains(&drive("M2out3", 3, false, 0)));
}

#[test]
fn e_11_7_m4_is_the_end_of_the_road_and_its_car_keeps_rolling() {
    let mut g = game(2);
    place(&mut g, 0, "M4in2");
    calendar(&mut g, 11, 1);
    turn(&mut g, 0, 5, "M4", 2);
    assert_eq!(g.cars()[0].scores[3], Some(0));
    assert_eq!(g.turn(), Seat(1));
    turn(&mut g, 1, 3, "A03", 3);
    let events = go(&mut g, 0, Action::Roll);
    assert!(events.contains(&Event::Stays { seat: Seat(0) }));
}

#[test]
fn e_11_8_a_car_is_judged_once_at_each_meeting() {
    let mut g = game(2);
    place(&mut g, 0, "M1in3");
    calendar(&mut g, 1, 1);
    g.arrange(|cars, _, _| cars[0].scores[0] = Some(4));
    let events = turn(&mut g, 0, 3, "M1out2", 3);
    assert!(!events.iter().any(|e| matches!(e, Event::Judged { .. })));
    assert_eq!(g.cars()[0].scores[0], Some(4));
}

#[test]
fn e_11_9_stopping_at_a_meeting_one_can_be_judged_at_is_compulsory() {
    let mut g = game(2);
    place(&mut g, 0, "A14");
    g.set_die(Seat(0), 6);
    let ends: Vec<&str> = legal(&g, 0)
        .iter()
        .filter_map(|a| match a {
            Action::Drive { to, .. } => Some(board().name(*to)),
            _ => None,
        })
        .collect();
    assert!(ends.contains(&"M1") && !ends.iter().any(|e| e.starts_with("M1out")), "{ends:?}");
    assert!(ends.contains(&"B02"), "the shortcut skips the meeting");
}

// E-12 ----------------------------------------------------------------------------------

#[test]
fn e_12_1_every_car_owes_both_checks_until_settled() {
    let g = game(3);
    assert!(g.cars().iter().all(|c| c.checks == [Check::Owed; 2]));
}

#[test]
fn e_12_2_a_station_is_reached_without_an_exact_count_and_left_backwards() {
    let mut g = game(2);
    place(&mut g, 0, "B09");
    repair(&mut g, 0, 12);
    calendar(&mut g, 3, 1); // March: the six and the arrival leave the round-up to come
    turn(&mut g, 0, 6, "TUV", 3);
    assert_eq!(g.cars()[0].checks[0], Check::Passed);
    assert!(g.cars()[0].returning);
    turn(&mut g, 1, 3, "A03", 3);
    g.set_die(Seat(0), 4);
    let mut ends: Vec<(&str, u8)> = legal(&g, 0)
        .iter()
        .filter_map(|a| match a {
            Action::Drive { to, squares, .. } => Some((board().name(*to), *squares)),
            _ => None,
        })
        .collect();
    ends.dedup();
    assert_eq!(ends, [("B09", 3), ("C01", 4)], "TU2, TU1, B09, then on");
}

#[test]
fn e_12_3_passed_the_marker_goes_down_by_the_faults() {
    let mut g = game(2);
    place(&mut g, 0, "TU2");
    repair(&mut g, 0, 15);
    calendar(&mut g, 4, 1);
    let events = turn(&mut g, 0, 1, "TUV", 1);
    assert!(events.contains(&Event::Passed { seat: Seat(0), check: Inspection::Tuv, faults: 12, marker: 3 }));
}

#[test]
fn e_12_4_failed_to_the_minus_squares_with_the_marker_at_zero() {
    // Juliane: the ASU in time with 14 faults and 12 repair points → −2 behind the ASU workshop.
    let mut g = game(2);
    fit(&mut g, 0, &[1]); // 2/5: 5 + 3 + 3 + 3
    assert_eq!(g.cars()[0].faults(), 14);
    place(&mut g, 0, "AS2");
    repair(&mut g, 0, 12);
    calendar(&mut g, 10, 1);
    let events = turn(&mut g, 0, 4, "ASU", 1);
    assert!(events.contains(&Event::Failed { seat: Seat(0), check: Inspection::Asu, minus: 2 }));
    assert_eq!(g.cars()[0].at, sq("NA02"));
    assert_eq!(g.cars()[0].repair, 0);
    assert!(events.iter().any(|e| matches!(e, Event::Time { why: Why::Arrival, .. })), "in time: time moves");
}

#[test]
fn e_12_5_a_station_is_never_reached_late() {
    let mut g = game(2);
    place(&mut g, 0, "B08");
    calendar(&mut g, 4, 2);
    turn(&mut g, 0, 6, "C05", 6);
    // The 6 entered May: rounded up where it stood, it owes the TÜV no more; the spur is closed.
    assert_eq!(g.cars()[0].checks[0], Check::RoundedUp);
    assert_eq!(g.cars()[0].at, sq("NT12"));
    place(&mut g, 0, "B08");
    g.set_die(Seat(0), 3);
    assert!(!legal(&g, 0).contains(&drive("TU2", 3, false, 0)));
}

#[test]
fn e_12_6_the_round_up_settles_every_car_that_still_owes_wherever_it_is() {
    let mut g = game(3);
    repair(&mut g, 0, 14); // passes: to the workshop, marker 2
    repair(&mut g, 1, 5); // 7 short: −7
    place(&mut g, 2, "M2");
    repair(&mut g, 2, 12);
    g.arrange(|cars, _, _| cars[1].waiting = Some(0));
    g.arrange(|cars, _, _| cars[2].waiting = Some(1));
    calendar(&mut g, 4, 3);
    let events = turn(&mut g, 0, 6, "A06", 6);
    assert!(events.contains(&Event::RoundedUp { seat: Seat(0), check: Inspection::Tuv, minus: 0, marker: 2 }));
    assert!(events.contains(&Event::RoundedUp { seat: Seat(1), check: Inspection::Tuv, minus: 7, marker: 0 }));
    assert_eq!(g.cars()[0].at, sq("WT"));
    assert_eq!(g.cars()[1].at, sq("NT07"));
    assert_eq!(g.cars()[1].waiting, None);
    assert_eq!((g.cars()[2].at, g.cars()[2].waiting), (sq("WT"), None), "even from a meeting it waits at");
}

#[test]
fn e_12_6_against_e_11_7_a_car_on_m4_is_settled_where_it_stands() {
    // The ruling (docs/rules/entenrallye-rulings.md): E-11.7's "stays there until the end"
    // prevails; the round-up still settles the check and its repair marker.
    let mut g = game(3);
    place(&mut g, 1, "M4");
    repair(&mut g, 1, 5); // 7 short
    place(&mut g, 2, "M4");
    repair(&mut g, 2, 14); // enough: marker 2
    calendar(&mut g, 10, 3);
    let events = turn(&mut g, 0, 6, "A06", 6);
    assert!(events.contains(&Event::RoundedUp { seat: Seat(1), check: Inspection::Asu, minus: 7, marker: 0 }));
    assert!(events.contains(&Event::RoundedUp { seat: Seat(2), check: Inspection::Asu, minus: 0, marker: 2 }));
    assert_eq!((g.cars()[1].at, g.cars()[2].at), (sq("M4"), sq("M4")));
    assert_eq!(g.cars()[1].checks[1], Check::RoundedUp);
    // So a table whose every car is on M4 still ends there (E-13.1).
    place(&mut g, 0, "M4in3");
    g.arrange(|cars, _, _| cars[0].scores[3] = Some(0));
    turn(&mut g, 0, 1, "M4", 1);
    assert!(g.is_over());
}

#[test]
fn e_12_7_points_scored_are_kept_after_a_round_up() {
    let mut g = game(2);
    g.arrange(|cars, _, _| cars[0].scores[0] = Some(9));
    calendar(&mut g, 4, 2);
    turn(&mut g, 0, 6, "A06", 6);
    assert_eq!(g.cars()[0].checks[0], Check::RoundedUp);
    assert_eq!(g.cars()[0].total(), 9);
}

#[test]
fn e_12_8_from_a_minus_square_the_workshop_road_rejoins_the_route() {
    let mut g = game(2);
    place(&mut g, 0, "NT02");
    settle(&mut g, 0, Inspection::Tuv, Check::Failed);
    turn(&mut g, 0, 4, "U02", 4);
    assert_eq!(board().distance(sq("U02"), sq("M2"), |_| false), Some(34 - 2), "WT → M2 is 34 squares");
    assert_eq!(board().distance(sq("U18"), sq("C03"), |_| false), Some(1));
}

// E-13 ----------------------------------------------------------------------------------

#[test]
fn e_13_1_the_game_ends_after_december_or_when_every_car_is_on_m4() {
    let mut g = game(2);
    calendar(&mut g, 12, 2);
    let events = turn(&mut g, 0, 6, "A06", 6);
    assert!(g.is_over() && matches!(events.last(), Some(Event::GameEnded { .. })));
    assert_eq!(refused(&g, 1, Action::Roll), RuleError::GameOver);
    let mut g = game(2);
    place(&mut g, 1, "M4");
    place(&mut g, 0, "M4in3");
    calendar(&mut g, 11, 1);
    turn(&mut g, 0, 3, "M4", 1);
    assert!(g.is_over());
}

#[test]
fn e_13_2_the_highest_total_wins_and_equal_totals_share_by_default() {
    let mut g = game(3);
    g.arrange(|cars, _, _| {
        cars[0].scores = [Some(10), None, None, None];
        cars[1].scores = [Some(4), Some(6), None, None];
        cars[2].scores = [Some(3), None, None, None];
    });
    calendar(&mut g, 12, 3);
    turn(&mut g, 0, 6, "A06", 6);
    let ranks: Vec<(u8, u8)> = g.standings().unwrap().iter().map(|s| (s.seat.0, s.rank)).collect();
    assert_eq!(ranks, [(0, 1), (1, 1), (2, 3)]);
    let mut g =
        Rallye::new(Settings { ties: Ties::MeetingsFirst, ..Settings::default() }, 3, 7, &mut Vec::new()).unwrap();
    g.arrange(|cars, _, _| {
        cars[0].scores = [Some(10), None, None, None];
        cars[1].scores = [Some(4), Some(6), None, None];
    });
    calendar(&mut g, 12, 3);
    turn(&mut g, 0, 6, "A06", 6);
    assert_eq!(g.standings().unwrap()[0].seat, Seat(1), "more meetings first");
}

#[test]
fn e_13_3_every_table_size_plays_to_the_end() {
    for players in 2..=6u8 {
        for seed in 0..5 {
            let mut g = Rallye::new(Settings::default(), players, seed, &mut Vec::new()).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let levels = vec![BotLevel::Strategic; usize::from(players)];
            let mut events = Vec::new();
            bolide_table::drive::play(&mut g, &levels, &mut rng, &mut events, 100_000).unwrap();
            assert!(g.is_over());
            let turns = events.iter().filter(|e| matches!(e, Event::TurnStarted { .. })).count();
            assert!(turns / usize::from(players) > 20, "{players} players: {turns} turns");
        }
    }
}

// E-14, E-15 ----------------------------------------------------------------------------

/// Where a car that leaves `station` is once it is back on its junction, and how far that is.
fn out_of_spur(station: Square) -> (Square, u16) {
    let b = board();
    let (mut at, mut returning, mut squares) = (station, true, 0);
    while returning || b.spur(at).is_some() {
        (at, returning) = b.next(at, returning, |_| false)[0];
        squares += 1;
    }
    (at, squares)
}

#[test]
fn e_14_the_board_holds_its_invariants() {
    let b = board();
    assert_eq!(b.len(), 193);
    let count = |k| b.squares().filter(|s| b.kind(*s) == k).count();
    assert_eq!(
        [Kind::Start, Kind::Grey, Kind::Beige, Kind::Meeting, Kind::Check, Kind::Workshop, Kind::Minus].map(count),
        [1, 119, 25, 4, 2, 2, 40]
    );
    let m4 = b.meetings[3];
    for s in b.squares().filter(|s| *s != m4) {
        let (on, _) = if b.spur(s).is_some() { out_of_spur(s) } else { (s, 0) };
        assert!(b.distance(on, m4, |_| false).is_some(), "{} reaches M4", b.name(s));
        assert!(b.edges(s).len() <= 2);
    }
    let legs = [
        ("START", "M1", 18),
        ("M1", "TUV", 15),
        ("TUV", "M2", 21),
        ("M2", "M3", 21),
        ("M3", "ASU", 15),
        ("ASU", "M4", 21),
        ("WT", "M2", 34),
        ("WA", "M4", 34),
    ];
    for (from, to, squares) in legs {
        let d = if b.station(sq(from)).is_some() {
            let (junction, back) = out_of_spur(sq(from));
            back + b.distance(junction, sq(to), |_| false).unwrap()
        } else {
            b.distance(sq(from), sq(to), |_| true).unwrap()
        };
        assert_eq!(d, squares, "{from} → {to}");
    }
    for (check, junction) in [(0, "B09"), (1, "E09")] {
        assert_eq!(b.edges(b.minus[check][0]), [b.workshops[check]], "−1 leads into the workshop");
        let joins = b.distance(sq(junction), b.workshops[check], |_| true);
        assert_eq!(joins, None, "the workshop road joins after the junction");
    }
    assert!(Board::parse("chain - | A01..B03:G | -").is_err());
    assert!(Board::parse("chain - | A01:X | -").is_err());
}

#[test]
fn e_15_1_a_steal_may_take_from_any_other_player_not_only_a_neighbour() {
    let mut g = game(4);
    hand(&mut g, 2, &[5]);
    g.set_die(Seat(0), 1);
    go(&mut g, 0, drive("A01", 1, false, 0));
    go(&mut g, 0, Action::Steal { from: Seat(2) });
    assert_eq!(g.cars()[0].hidden, [Part(5)]);
}

#[test]
fn e_15_2_the_die_values_of_the_special_actions() {
    // steal 1, exchange 2, buy 4–6, repair 2–6, fit any.
    for die in 1..=6u8 {
        let mut g = game(2);
        hand(&mut g, 0, &[0]);
        hand(&mut g, 1, &[13]);
        g.set_die(Seat(0), die);
        let drives = legal(&g, 0);
        assert_eq!(drives.iter().any(|a| matches!(a, Action::Drive { buy: true, .. })), die >= 4, "buy, die {die}");
        assert_eq!(
            drives.iter().any(|a| matches!(a, Action::Drive { repair: 1.., .. })),
            die >= 2,
            "repair, die {die}"
        );
        let to = board().find(&format!("A{die:02}")).unwrap();
        go(&mut g, 0, Action::Drive { to, squares: die, buy: false, repair: 0 });
        let specials = legal(&g, 0);
        assert_eq!(specials.iter().any(|a| matches!(a, Action::Steal { .. })), die == 1, "steal, die {die}");
        assert_eq!(specials.iter().any(|a| matches!(a, Action::Exchange { .. })), die == 2, "exchange, die {die}");
        assert!(specials.contains(&Action::Fit { part: Part(0) }), "fit, die {die}");
    }
}

// The whole game ---------------------------------------------------------------------

#[test]
fn every_part_is_somewhere_at_every_step_of_random_games() {
    for seed in 0..20 {
        let mut g = Rallye::new(Settings::default(), 4, seed, &mut Vec::new()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        let mut events = Vec::new();
        for _ in 0..20_000 {
            if g.is_over() {
                break;
            }
            let seat = g.turn();
            let action = g.bot(seat, BotLevel::Random, &mut rng, &mut scratch).expect("a legal action");
            g.apply(seat, action, &mut events).unwrap();
            assert_eq!(parts_counted(&g), 48);
            assert!(g.cars().iter().all(|c| c.repair <= REPAIR_MAX && (12..=20).contains(&c.faults())));
        }
        assert!(g.is_over(), "seed {seed}");
    }
}

#[test]
fn the_strategic_bot_beats_random_bots_in_most_games() {
    let rate = crate::sim::strategic_win_rate(4, 40, 0).unwrap();
    assert!(rate >= 0.6, "the strategic bot was first in {:.0} % of 40 games", rate * 100.0);
}

#[test]
fn views_and_events_travel_on_the_wire() {
    let mut events = Vec::new();
    let g = Rallye::new(Settings::default(), 3, 1, &mut events).unwrap();
    let config = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec(g.view(Some(Seat(1))), config).unwrap();
    let (back, _): (View, usize) = bincode::serde::decode_from_slice(&bytes, config).unwrap();
    assert_eq!(back, g.view(Some(Seat(1))));
    assert!(bytes.len() < 400, "a view is {} bytes", bytes.len());
}

#[test]
fn a_laptop_refuses_a_view_that_names_what_the_game_has_not() {
    let mut g = game(3);
    hand(&mut g, 0, &[0, 20]);
    let view = g.view(Some(Seat(0)));
    assert_eq!(view.check(), Ok(()));
    let bad: [fn(&mut View); 6] = [
        |v| v.players = 7,
        |v| v.cars[1].at = Square(250),
        |v| v.cars[2].fitted[1] = Some(Part(0)), // a FRONT part on the front doors
        |v| v.hand.push(Part(48)),
        |v| v.phase = Phase::Drive { die: 9 },
        |v| v.turn = Seat(3),
    ];
    for spoil in bad {
        let mut v = view.clone();
        spoil(&mut v);
        assert!(v.check().is_err(), "{v:?}");
    }
    assert!(view.check_action(&Action::Steal { from: Seat(3) }).is_err());
    assert!(view.check_action(&Action::Drive { to: Square(200), squares: 1, buy: false, repair: 0 }).is_err());
    let mut legal = Vec::new();
    g.legal_into(Seat(0), &mut legal);
    assert!(legal.iter().all(|a| view.check_action(a).is_ok()));
}

#[test]
fn anything_a_peer_sends_is_refused_or_applied_and_a_refusal_changes_nothing() {
    use rand::RngExt;
    for seed in 0..30 {
        let mut g = Rallye::new(Settings::default(), 3, seed, &mut Vec::new()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        for _ in 0..3000 {
            if g.is_over() {
                break;
            }
            // Bytes from a modified client: any seat, square, distance, part.
            let seat = Seat(rng.random_range(0..8));
            let [kind, a, b, c]: [u8; 4] = rng.random();
            let sent = match kind % 7 {
                0 => Action::Roll,
                1 => Action::Drive { to: Square(a), squares: b % 9, buy: c & 1 == 1, repair: c >> 5 },
                2 => Action::Fit { part: Part(a % 60) },
                3 => Action::Steal { from: Seat(a % 8) },
                4 => Action::Exchange { with: Seat(a % 8), give: Part(b % 60) },
                5 => Action::Keep { parts: [Some(Part(a % 60)), Some(Part(b % 60)).filter(|_| c & 1 == 0)] },
                _ => Action::EndTurn,
            };
            let before: Vec<View> = (0..3).map(|s| g.view(Some(Seat(s)))).collect();
            let pile = g.pile().to_vec();
            let mut events = Vec::new();
            if g.apply(seat, sent, &mut events).is_err() {
                assert!(events.is_empty(), "{sent:?} refused, yet told {events:?}");
                assert_eq!((0..3).map(|s| g.view(Some(Seat(s)))).collect::<Vec<_>>(), before, "{sent:?}");
                assert_eq!(g.pile(), pile.as_slice());
            }
            assert_eq!(parts_counted(&g), 48);
            let turn = g.turn();
            if let Some(action) = g.bot(turn, BotLevel::Random, &mut rng, &mut scratch) {
                g.apply(turn, action, &mut events).unwrap();
            }
        }
    }
}

#[test]
fn e_4_2_each_roll_comes_from_the_seed_and_its_number_alone() {
    let mut counts = [0u32; 6];
    for roll in 0..6000 {
        counts[usize::from(crate::dice::die(11, roll) - 1)] += 1;
    }
    assert!(counts.iter().all(|n| (850..=1150).contains(n)), "{counts:?}");
    // The rolls of a year are the seed's, whatever was played between them.
    let mut events = Vec::new();
    let mut g = Rallye::new(Settings::default(), 3, 11, &mut events).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    bolide_table::drive::play(&mut g, &[BotLevel::Random; 3], &mut rng, &mut events, 100_000).unwrap();
    let rolls: Vec<(u32, u8)> = events
        .iter()
        .filter_map(|e| if let Event::Rolled { die, roll, .. } = e { Some((*roll, *die)) } else { None })
        .collect();
    assert!(rolls.len() > 100);
    assert_eq!(crate::dice::check_rolls(11, &rolls), Ok(rolls.len()));
    assert!(crate::dice::check_rolls(12, &rolls).is_err(), "another seed");
}

// The strategic bot knows the year ------------------------------------------------------

/// What the strategic bot of `seat` does now.
fn bot_does(g: &Rallye, seat: u8) -> Action {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    crate::bots::decide(&g.view(Some(Seat(seat))), &legal(g, seat), BotLevel::Strategic, &mut rng).unwrap()
}

#[test]
fn the_bot_buys_no_repair_before_the_first_meeting_while_it_has_squares_to_drive() {
    // January, the TÜV three months away: the die goes on the road to M1 (or a part), never
    // on repairs yet.
    let mut g = game(4);
    for die in 1..=6 {
        g.set_die(Seat(0), die);
        let Action::Drive { repair, .. } = bot_does(&g, 0) else { panic!("a drive") };
        assert_eq!(repair, 0, "a {die} spent on repairs in January");
    }
}

#[test]
fn e_9_2_the_bot_repairs_for_the_check_that_comes_next() {
    // After M1, the TÜV next with a bare car (12 faults) and an empty marker: a 4 drives one
    // square and repairs three, while April is far.
    let mut g = game(4);
    place(&mut g, 0, "B01");
    g.arrange(|cars, _, _| cars[0].scores[0] = Some(6));
    calendar(&mut g, 2, 4);
    g.set_die(Seat(0), 4);
    assert_eq!(bot_does(&g, 0), drive("B02", 1, false, 3));
}

#[test]
fn e_11_9_the_bot_takes_the_shortcut_past_a_meeting_it_cannot_make() {
    // On the junction at February's last step, four squares from M1 with a 3, and the three
    // other cars one square from it: each arrival moves the calendar on (E-10.2), so it would
    // arrive in March at best, and takes the shortcut.
    let mut g = game(4);
    place(&mut g, 0, "A14");
    for other in 1..4 {
        place(&mut g, other, "M1in3");
    }
    calendar(&mut g, 2, 3);
    g.set_die(Seat(0), 3);
    assert_eq!(bot_does(&g, 0), drive("K1_3", 3, false, 0));
    // In January the same die heads for the meeting.
    calendar(&mut g, 1, 1);
    assert_eq!(bot_does(&g, 0), drive("M1in3", 3, false, 0));
}

#[test]
fn the_bot_that_knows_the_year_makes_the_first_meeting_and_beats_the_one_before_it() {
    // `examples/simulate` prints these over 1 000 years; 200 keep the test quick.
    let f = crate::sim::figures(4, 200, 0).unwrap();
    assert!(f.in_time[0] >= 0.9, "M1 in time: {:.1} %", f.in_time[0] * 100.0);
    let rate = crate::sim::head_to_head(crate::sim::Driver::Year, crate::sim::Driver::Road, 4, 200, 0).unwrap();
    assert!(rate >= 0.65, "won {:.1} % of 200 years against the bot before it", rate * 100.0);
}
