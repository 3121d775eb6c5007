//! The rules, one test (or more) per rule id of `docs/rules/mille-bornes.md`, each named after
//! it. Situations are arranged with `Manche::arrange_*`, which keeps the box whole.

use crate::action::{Action, RuleError};
use crate::card::{Attack, Card, CardCounts, Safety};
use crate::event::Event;
use crate::manche::{Manche, Phase};
use crate::options::{BlockedHand, CoupFourreMode, FirstDealer, GameMode, SafetyOnAttack, Settings};
use crate::partie::Partie;
use crate::tableau::{Battle, Laid};
use Card::*;
use bolide_table::Seat;

const SEED: u64 = 0x1000_b0e5;

/// A hand for `players` dealt by the last seat, so seat 0 plays first; every hand emptied.
fn table_with(players: u8, settings: Settings) -> Manche {
    let mut events = Vec::new();
    let mut m = Manche::deal(settings, players, SEED, 0, Seat(players - 1), &mut events).unwrap();
    for s in 0..players {
        m.arrange_hand(Seat(s), &[]).unwrap();
    }
    m.arrange_turn(Seat(0)).unwrap();
    m
}

fn table(players: u8) -> Manche {
    table_with(players, Settings::default())
}

fn play(card: Card) -> Action {
    Action::Play { card, on: None }
}

fn attack(card: Card, side: u8) -> Action {
    Action::Play { card, on: Some(side) }
}

fn assert_whole(m: &Manche) {
    assert_eq!(m.census(), CardCounts::full_deck(), "M-1.2: the box is whole");
}

// M-2 and M-3

#[test]
fn m_2_3_partners_sit_opposite_and_play_every_third_or_fourth_turn() {
    let six = table(6);
    assert_eq!((0..6).map(|s| six.side_of(Seat(s))).collect::<Vec<_>>(), [0, 1, 2, 0, 1, 2]);
    let eight = table(8);
    assert_eq!(eight.seats_of(3).collect::<Vec<_>>(), [Seat(3), Seat(7)]);
}

#[test]
fn m_2_4_partners_keep_their_own_hands_on_one_tableau() {
    let mut m = table(6);
    m.arrange_hand(Seat(0), &[FeuVert]).unwrap();
    m.arrange_hand(Seat(3), &[D100]).unwrap();
    m.apply(Seat(0), play(FeuVert)).unwrap();
    // Seat 3 (seat 0's partner) lays distance on the same car on its own turn.
    m.arrange_turn(Seat(3)).unwrap();
    m.apply(Seat(3), play(D100)).unwrap();
    assert_eq!(m.tableau(0).unwrap().km, 100);
    assert_eq!(m.hand(Seat(0)).unwrap().get(D100), 0, "each partner holds his own cards");
    let mut p = Partie::new(Settings::default(), 6, SEED, &mut Vec::new()).unwrap();
    let _ = &mut p;
    let view = p.view(Some(Seat(0)));
    assert!(view.partner_hands.is_empty(), "M-2.4: partners' hands are hidden by default");
    let open = Partie::new(Settings { open_hands: true, ..Settings::default() }, 6, SEED, &mut Vec::new()).unwrap();
    assert_eq!(open.view(Some(Seat(0))).partner_hands.len(), 1);
    assert_eq!(open.view(Some(Seat(0))).partner_hands[0].0, Seat(3));
}

#[test]
fn m_2_4_a_player_never_attacks_his_own_side() {
    let mut m = table(6);
    m.arrange_hand(Seat(0), &[FeuRouge]).unwrap();
    m.arrange_tableau(0, &[FeuVert]).unwrap();
    assert_eq!(m.check(Seat(0), attack(FeuRouge, 0)), Err(RuleError::OwnSide));
}

#[test]
fn m_2_6_there_is_no_allonge_a_700_trip_ends_at_700() {
    let settings = Settings { target_km: 700, ..Settings::default() };
    let mut m = table_with(4, settings);
    m.arrange_tableau(0, &[FeuVert, D200, D200, D100, D100, D50]).unwrap();
    m.arrange_hand(Seat(0), &[D50, D100]).unwrap();
    assert!(matches!(m.check(Seat(0), play(D100)), Err(RuleError::Overshoot { target: 700, .. })));
    let events = m.apply(Seat(0), play(D50)).unwrap();
    assert!(matches!(events.last(), Some(Event::HandEnded { finished: true, .. })));
}

#[test]
fn m_3_1_the_dealer_s_left_plays_first_and_the_deal_passes_left() {
    let settings =
        Settings { first_dealer: FirstDealer::Seat(2), mode: GameMode::Hands { hands: 3 }, ..Settings::default() };
    let mut events = Vec::new();
    let mut p = Partie::new(settings, 4, SEED, &mut events).unwrap();
    assert_eq!(events[0], Event::Dealt { hand: 0, dealer: Seat(2), first: Seat(3) });
    assert_eq!(p.manche().phase(), Phase::Turn { seat: Seat(3) });
    // Play the hand out with the random bot; the next hand is dealt by seat 3.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut scratch = Vec::new();
    events.clear();
    while p.manche().number() == 0 {
        step(&mut p, &mut rng, &mut scratch, &mut events);
    }
    assert_eq!(p.manche().dealer(), Seat(3));
    assert!(events.contains(&Event::Dealt { hand: 1, dealer: Seat(3), first: Seat(0) }));
}

use rand::SeedableRng;

/// One step of a game with random bots (a window: the holder calls, else it closes).
fn step(p: &mut Partie, rng: &mut rand_chacha::ChaCha8Rng, scratch: &mut Vec<Action>, events: &mut Vec<Event>) {
    let m = p.manche();
    match m.phase() {
        Phase::Turn { seat } => {
            let a = crate::bots::decide(m, seat, bolide_table::BotLevel::Random, rng, scratch).unwrap();
            p.apply_into(seat, a, events).unwrap();
        }
        Phase::Window { side, .. } => {
            let caller = m.seats_of(side).find(|&s| m.check(s, Action::CoupFourre).is_ok());
            match caller {
                Some(s) => p.apply_into(s, Action::CoupFourre, events).unwrap(),
                None => p.close_window(events).unwrap(),
            }
        }
        Phase::Over => unreachable!("a partie deals the next hand itself"),
    }
}

#[test]
fn m_3_2_six_cards_dealt_one_at_a_time_from_the_dealer_s_left() {
    let mut events = Vec::new();
    let m = Manche::deal(Settings::default(), 3, SEED, 0, Seat(2), &mut events).unwrap();
    let deck = crate::deal::deck(SEED, 0);
    // The top of the pile is the deck's end: seat 0 (the dealer's left) gets the 1st, 4th, ...
    let top = |i: usize| deck[deck.len() - 1 - i];
    let mut expected = CardCounts::default();
    for round in 0..6 {
        expected.add(top(round * 3));
    }
    expected.add(top(18)); // seat 0's first draw (M-5.5)
    assert_eq!(m.hand(Seat(0)), Some(&expected));
    assert_eq!(m.hand(Seat(1)).unwrap().total(), 6);
    assert_whole(&m);
}

#[test]
fn m_3_3_the_rest_is_the_draw_pile_and_the_discard_starts_empty() {
    let mut events = Vec::new();
    let m = Manche::deal(Settings::default(), 4, SEED, 0, Seat(3), &mut events).unwrap();
    assert_eq!(usize::from(m.draw_count()), 106 - 24 - 1);
    assert_eq!(m.discard().0.total(), 0);
    assert_eq!(m.discard().1, None);
}

#[test]
fn m_3_4_a_view_shows_one_hand_and_counts_of_the_others() {
    let p = Partie::new(Settings::default(), 4, SEED, &mut Vec::new()).unwrap();
    let v = p.view(Some(Seat(1)));
    assert_eq!(v.hand.len(), 6 + usize::from(p.manche().phase() == Phase::Turn { seat: Seat(1) }));
    assert_eq!(v.hand_sizes.iter().map(|&n| usize::from(n)).sum::<usize>(), 25);
    assert!(v.partner_hands.is_empty());
    assert!(p.view(None).hand.is_empty(), "a spectator sees no hand");
}

#[test]
fn m_3_5_each_side_starts_with_empty_piles_at_0_km() {
    let p = Partie::new(Settings::default(), 3, SEED, &mut Vec::new()).unwrap();
    for t in p.manche().tableaux() {
        assert_eq!((t.battle, t.speed_top, t.km, t.safety_count()), (Battle::NotStarted, None, 0, 0));
    }
}

// M-4 to M-6

#[test]
fn m_4_1_a_side_waiting_for_its_feu_vert_is_shown_so_even_over_a_feu_vert() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, D100, Creve, RoueDeSecours]).unwrap();
    let t = m.tableau(0).unwrap();
    assert!(t.needs_feu_vert());
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    assert_eq!(m.check(Seat(0), play(D25)), Err(RuleError::NotRolling));
}

#[test]
fn m_4_2_battle_states_follow_the_top_card() {
    let mut m = table(2);
    let states = [
        (FeuVert, Battle::Go),
        (FeuRouge, Battle::Stopped),
        (FeuVert, Battle::Go),
        (Accident, Battle::Hazard(crate::card::Hazard::Accident)),
        (Reparations, Battle::Remedied(crate::card::Hazard::Accident)),
    ];
    for (card, state) in states {
        m.arrange_tableau(1, &[card]).unwrap();
        assert_eq!(m.tableau(1).unwrap().battle, state, "after {card:?}");
    }
}

#[test]
fn m_4_3_under_a_limite_only_25_and_50() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, LimiteDeVitesse]).unwrap();
    m.arrange_hand(Seat(0), &[D75, D50, D25, D100]).unwrap();
    assert_eq!(m.check(Seat(0), play(D75)), Err(RuleError::Limited));
    assert_eq!(m.check(Seat(0), play(D50)), Ok(()));
    assert_eq!(m.check(Seat(0), play(D25)), Ok(()));
}

#[test]
fn m_4_4_prioritaire_rolls_without_a_feu_vert_unless_attacked() {
    let mut m = table(2);
    m.arrange_tableau(0, &[VehiculePrioritaire]).unwrap();
    m.arrange_hand(Seat(0), &[D100, FeuVert]).unwrap();
    assert_eq!(m.check(Seat(0), play(D100)), Ok(()));
    assert_eq!(m.check(Seat(0), play(FeuVert)), Err(RuleError::FeuVertUseless), "M-8.4 ruling");
    m.arrange_tableau(0, &[PanneDEssence]).unwrap();
    assert_eq!(m.check(Seat(0), play(D100)), Err(RuleError::NotRolling));
}

#[test]
fn m_4_5_after_a_hazard_the_remedy_then_a_feu_vert() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, PanneDEssence]).unwrap();
    m.arrange_hand(Seat(0), &[FeuVert, Essence, D25]).unwrap();
    assert_eq!(m.check(Seat(0), play(FeuVert)), Err(RuleError::FeuVertNotNow));
    m.apply(Seat(0), play(Essence)).unwrap();
    m.arrange_turn(Seat(0)).unwrap();
    assert_eq!(m.check(Seat(0), play(D25)), Err(RuleError::NotRolling));
    m.apply(Seat(0), play(FeuVert)).unwrap();
    m.arrange_turn(Seat(0)).unwrap();
    assert_eq!(m.check(Seat(0), play(D25)), Ok(()));
}

#[test]
fn m_5_1_a_turn_is_a_draw_then_one_play_leaving_six() {
    let mut events = Vec::new();
    let mut m = Manche::deal(Settings::default(), 3, SEED, 0, Seat(2), &mut events).unwrap();
    assert_eq!(m.hand(Seat(0)).unwrap().total(), 7);
    let card = m.hand(Seat(0)).unwrap().cards().next().unwrap();
    assert_eq!(m.check(Seat(1), Action::Discard { card }), Err(RuleError::NotYourTurn { active: Seat(0) }));
    let events = m.apply(Seat(0), Action::Discard { card }).unwrap();
    assert_eq!(m.hand(Seat(0)).unwrap().total(), 6);
    assert_eq!(m.hand(Seat(1)).unwrap().total(), 7);
    assert!(events.contains(&Event::Turn { seat: Seat(1) }));
    let absent = (0..19).map(|i| Card::ALL[i]).find(|&c| m.hand(Seat(1)).unwrap().get(c) == 0).unwrap();
    assert_eq!(m.check(Seat(1), Action::Discard { card: absent }), Err(RuleError::NotHeld { card: absent }));
}

#[test]
fn m_5_2_from_the_first_turn_feu_vert_safety_limite_or_discard() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[FeuVert, Increvable, LimiteDeVitesse, FeuRouge, D100]).unwrap();
    let legal = m.legal_actions(Seat(0));
    for a in [play(FeuVert), play(Increvable), attack(LimiteDeVitesse, 1), Action::Discard { card: D100 }] {
        assert!(legal.contains(&a), "{a:?} on the first turn");
    }
    assert!(!legal.contains(&attack(FeuRouge, 1)), "M-7.3: the opponent does not roll yet");
    assert!(!legal.contains(&play(D100)));
}

#[test]
fn m_5_3_any_card_may_be_discarded_even_a_playable_one() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[D100, FeuVert, AsDuVolant]).unwrap();
    let legal = m.legal_actions(Seat(0));
    for card in [D100, FeuVert, AsDuVolant] {
        assert!(legal.contains(&Action::Discard { card }));
    }
    assert!(legal.contains(&play(D100)));
}

#[test]
fn m_5_4_discarded_cards_are_dead() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[D200]).unwrap();
    let before = m.draw_count();
    m.apply(Seat(0), Action::Discard { card: D200 }).unwrap();
    assert_eq!(m.discard().0.get(D200), 1);
    assert_eq!(m.discard().1, Some(D200));
    assert_eq!(m.draw_count(), before - 1, "only seat 1's draw; nothing goes back to the pile");
    assert_whole(&m);
}

#[test]
fn m_5_5_the_draw_happens_when_the_turn_starts() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    m.arrange_draw_top(&[Accident]).unwrap();
    let events = m.apply(Seat(0), Action::Discard { card: D25 }).unwrap();
    assert_eq!(&events[1..], [Event::Turn { seat: Seat(1) }, Event::Drew { seat: Seat(1), card: Some(Accident) }]);
    assert_eq!(m.hand(Seat(1)).unwrap().get(Accident), 1);
}

#[test]
fn m_5_6_an_attack_ends_the_turn_but_the_next_waits_for_the_window() {
    let mut m = table(3);
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[FeuRouge]).unwrap();
    let events = m.apply(Seat(0), attack(FeuRouge, 1)).unwrap();
    assert_eq!(m.phase(), Phase::Window { attacker: Seat(0), side: 1, attack: Attack::FeuRouge });
    assert!(!events.iter().any(|e| matches!(e, Event::Turn { .. })));
    let mut events = Vec::new();
    m.close_window(&mut events).unwrap();
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(1) });
}

#[test]
fn m_6_1_distance_only_while_rolling() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[D50]).unwrap();
    assert_eq!(m.check(Seat(0), play(D50)), Err(RuleError::NotRolling));
    m.arrange_tableau(0, &[FeuVert]).unwrap();
    m.apply(Seat(0), play(D50)).unwrap();
    assert_eq!(m.tableau(0).unwrap().km, 50);
}

#[test]
fn m_6_2_a_limited_side_lays_25_or_50_only() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, LimiteDeVitesse]).unwrap();
    m.arrange_hand(Seat(0), &[D200, D100]).unwrap();
    assert_eq!(m.check(Seat(0), play(D200)), Err(RuleError::Limited));
    assert_eq!(m.check(Seat(0), play(D100)), Err(RuleError::Limited));
}

#[test]
fn m_6_3_two_200s_per_side_partners_included() {
    let mut m = table(6);
    m.arrange_tableau(0, &[FeuVert, D200, D200]).unwrap();
    m.arrange_hand(Seat(3), &[D200]).unwrap();
    m.arrange_turn(Seat(3)).unwrap();
    assert_eq!(m.check(Seat(3), play(D200)), Err(RuleError::TooManyTwoHundreds));
}

#[test]
fn m_6_4_the_finish_is_exact() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, D200, D200, D100, D100, D100, D100, D100, D50]).unwrap();
    assert_eq!(m.tableau(0).unwrap().km, 950);
    m.arrange_hand(Seat(0), &[D75, D100, D50, D25]).unwrap();
    for card in [D75, D100] {
        assert!(matches!(m.check(Seat(0), play(card)), Err(RuleError::Overshoot { target: 1000, .. })));
        assert!(m.legal_actions(Seat(0)).contains(&Action::Discard { card }), "it may be discarded");
    }
    assert_eq!(m.check(Seat(0), play(D50)), Ok(()));
}

#[test]
fn m_6_5_exactly_the_target_ends_the_hand_at_once() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, D200, D200, D100, D100, D100, D100, D100, D50]).unwrap();
    m.arrange_hand(Seat(0), &[D50]).unwrap();
    let events = m.apply(Seat(0), play(D50)).unwrap();
    assert_eq!(m.phase(), Phase::Over);
    let Some(Event::HandEnded { finished: true, score, .. }) = events.last() else { panic!("{events:?}") };
    assert_eq!(score.lines[0].won, 400);
}

// M-7 and M-8

#[test]
fn m_7_1_attacks_go_on_an_opponent_named_by_side() {
    let mut m = table(3);
    m.arrange_hand(Seat(0), &[LimiteDeVitesse]).unwrap();
    assert_eq!(m.check(Seat(0), play(LimiteDeVitesse)), Err(RuleError::NoTarget));
    assert_eq!(m.check(Seat(0), attack(LimiteDeVitesse, 0)), Err(RuleError::OwnSide));
    assert_eq!(m.check(Seat(0), attack(LimiteDeVitesse, 3)), Err(RuleError::NoSuchSide { side: 3 }));
    assert_eq!(m.check(Seat(0), attack(LimiteDeVitesse, 2)), Ok(()));
}

#[test]
fn m_7_2_limite_on_anyone_but_prioritaire_and_never_twice() {
    let mut m = table(3);
    m.arrange_hand(Seat(0), &[LimiteDeVitesse]).unwrap();
    m.arrange_tableau(1, &[FeuVert, Accident]).unwrap();
    assert_eq!(m.check(Seat(0), attack(LimiteDeVitesse, 1)), Ok(()), "it stacks with any other attack");
    m.arrange_tableau(1, &[LimiteDeVitesse]).unwrap();
    assert_eq!(m.check(Seat(0), attack(LimiteDeVitesse, 1)), Err(RuleError::AlreadyLimited));
    m.arrange_tableau(2, &[VehiculePrioritaire]).unwrap();
    assert!(matches!(m.check(Seat(0), attack(LimiteDeVitesse, 2)), Err(RuleError::TargetProtected { .. })));
}

#[test]
fn m_7_3_battle_attacks_only_on_a_car_that_rolls_without_the_safety() {
    let mut m = table(3);
    m.arrange_hand(Seat(0), &[Creve, FeuRouge]).unwrap();
    assert_eq!(m.check(Seat(0), attack(Creve, 1)), Err(RuleError::TargetNotRolling { attack: Attack::Creve }));
    m.arrange_tableau(1, &[FeuVert, Accident]).unwrap();
    assert_eq!(
        m.check(Seat(0), attack(Creve, 1)),
        Err(RuleError::TargetNotRolling { attack: Attack::Creve }),
        "never on an attack"
    );
    m.arrange_tableau(1, &[Reparations]).unwrap();
    assert_eq!(
        m.check(Seat(0), attack(Creve, 1)),
        Err(RuleError::TargetNotRolling { attack: Attack::Creve }),
        "nor on a remedy waiting for its Feu Vert"
    );
    m.arrange_tableau(2, &[VehiculePrioritaire, Increvable]).unwrap();
    assert!(matches!(m.check(Seat(0), attack(Creve, 2)), Err(RuleError::TargetProtected { .. })));
    assert!(matches!(m.check(Seat(0), attack(FeuRouge, 2)), Err(RuleError::TargetProtected { .. })));
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    assert_eq!(m.check(Seat(0), attack(Creve, 1)), Ok(()));
}

#[test]
fn m_7_3_on_a_prioritaire_side_an_attack_goes_on_its_last_remedy() {
    let mut m = table(2);
    m.arrange_tableau(1, &[VehiculePrioritaire, Accident, Reparations]).unwrap();
    m.arrange_hand(Seat(0), &[PanneDEssence]).unwrap();
    assert_eq!(m.check(Seat(0), attack(PanneDEssence, 1)), Ok(()));
    m.apply(Seat(0), attack(PanneDEssence, 1)).unwrap();
    m.close_window(&mut Vec::new()).unwrap();
    assert_eq!(m.tableau(1).unwrap().battle_top, Some(PanneDEssence));
}

#[test]
fn m_7_4_a_hazard_needs_its_remedy_then_a_feu_vert_a_feu_rouge_just_a_feu_vert() {
    let mut m = table(2);
    m.arrange_tableau(1, &[FeuVert, FeuRouge]).unwrap();
    m.arrange_hand(Seat(1), &[FeuVert]).unwrap();
    m.arrange_turn(Seat(1)).unwrap();
    m.apply(Seat(1), play(FeuVert)).unwrap();
    assert!(m.tableau(1).unwrap().rolls());
}

#[test]
fn m_7_5_every_attack_opens_the_window_whoever_holds_what() {
    for holds in [false, true] {
        let mut m = table(2);
        m.arrange_tableau(1, &[FeuVert]).unwrap();
        m.arrange_hand(Seat(0), &[Accident]).unwrap();
        m.arrange_hand(Seat(1), if holds { &[AsDuVolant] } else { &[D25] }).unwrap();
        let events = m.apply(Seat(0), attack(Accident, 1)).unwrap();
        assert_eq!(
            events.last(),
            Some(&Event::WindowOpened { attacker: Seat(0), side: 1, attack: Attack::Accident, ms: 3000 })
        );
    }
}

#[test]
fn m_8_1_remedies_go_on_one_s_own_side() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[FeuVert]).unwrap();
    let refused = m.check(Seat(0), Action::Play { card: FeuVert, on: Some(1) }).unwrap_err();
    assert_eq!(refused, RuleError::NotOwnSide { card: FeuVert });
    assert!(refused.to_string().starts_with("M-8.1: "), "{refused}");
    assert_eq!(
        m.check(Seat(0), Action::Play { card: FeuVert, on: Some(0) }),
        Err(RuleError::NotOwnSide { card: FeuVert })
    );
    assert_eq!(m.check(Seat(0), play(FeuVert)), Ok(()));
}

#[test]
fn m_9_1_a_safety_laid_on_an_opponent_is_refused_by_its_own_rule() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[CiterneDEssence, D100]).unwrap();
    let refused = m.check(Seat(0), Action::Play { card: CiterneDEssence, on: Some(1) }).unwrap_err();
    assert_eq!(refused, RuleError::NotOwnSide { card: CiterneDEssence });
    assert!(refused.to_string().starts_with("M-9.1: "), "{refused}");
    let distance = m.check(Seat(0), Action::Play { card: D100, on: Some(1) }).unwrap_err();
    assert!(distance.to_string().starts_with("M-6.1: "), "{distance}");
}

#[test]
fn m_8_2_fin_de_limite_frees_without_a_feu_vert() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[FinDeLimite]).unwrap();
    assert_eq!(m.check(Seat(0), play(FinDeLimite)), Err(RuleError::NotLimited));
    m.arrange_tableau(0, &[FeuVert, LimiteDeVitesse]).unwrap();
    m.apply(Seat(0), play(FinDeLimite)).unwrap();
    let t = m.tableau(0).unwrap();
    assert!(!t.limited() && t.rolls());
}

#[test]
fn m_8_3_a_remedy_only_on_its_own_attack() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, Creve]).unwrap();
    m.arrange_hand(Seat(0), &[Essence, RoueDeSecours]).unwrap();
    assert!(matches!(m.check(Seat(0), play(Essence)), Err(RuleError::NothingToRemedy { .. })));
    assert_eq!(m.check(Seat(0), play(RoueDeSecours)), Ok(()));
}

#[test]
fn m_8_4_feu_vert_on_empty_stopped_or_remedied_only() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[FeuVert]).unwrap();
    assert_eq!(m.check(Seat(0), play(FeuVert)), Ok(()), "empty pile");
    m.arrange_tableau(0, &[FeuVert]).unwrap();
    assert_eq!(m.check(Seat(0), play(FeuVert)), Err(RuleError::FeuVertNotNow), "already Go");
    m.arrange_tableau(0, &[FeuRouge]).unwrap();
    assert_eq!(m.check(Seat(0), play(FeuVert)), Ok(()), "stopped");
}

#[test]
fn m_8_5_no_start_without_a_feu_vert_unless_prioritaire() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    assert_eq!(m.check(Seat(0), play(D25)), Err(RuleError::NotRolling));
    m.arrange_tableau(0, &[VehiculePrioritaire]).unwrap();
    assert_eq!(m.check(Seat(0), play(D25)), Ok(()));
}

// M-9 Safeties

#[test]
fn m_9_1_a_safety_may_be_the_very_first_card() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[CiterneDEssence]).unwrap();
    assert_eq!(m.check(Seat(0), play(CiterneDEssence)), Ok(()));
}

#[test]
fn m_9_2_each_safety_protects_for_the_rest_of_the_hand() {
    let cases = [
        (VehiculePrioritaire, FeuRouge),
        (VehiculePrioritaire, LimiteDeVitesse),
        (CiterneDEssence, PanneDEssence),
        (Increvable, Creve),
        (AsDuVolant, Accident),
    ];
    for (safety, attack_card) in cases {
        let mut m = table(2);
        m.arrange_tableau(1, &[safety]).unwrap();
        if safety != VehiculePrioritaire {
            m.arrange_tableau(1, &[FeuVert]).unwrap();
        }
        m.arrange_hand(Seat(0), &[attack_card]).unwrap();
        assert!(
            matches!(m.check(Seat(0), attack(attack_card, 1)), Err(RuleError::TargetProtected { .. })),
            "{safety:?}"
        );
    }
}

#[test]
fn m_9_3_a_safety_gives_an_extra_play_after_a_draw() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[Increvable, D25]).unwrap();
    m.arrange_draw_top(&[FeuVert]).unwrap();
    let events = m.apply(Seat(0), play(Increvable)).unwrap();
    assert_eq!(events[1..], [Event::PlaysAgain { seat: Seat(0) }, Event::Drew { seat: Seat(0), card: Some(FeuVert) }]);
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(0) });
    m.apply(Seat(0), play(FeuVert)).unwrap();
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(1) });
}

#[test]
fn m_9_4_a_safety_on_its_standing_hazard_needs_a_feu_vert_by_default() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, Creve]).unwrap();
    m.arrange_hand(Seat(0), &[Increvable, D25, FeuVert]).unwrap();
    let events = m.apply(Seat(0), play(Increvable)).unwrap();
    assert!(events.contains(&Event::Cleared { side: 0, card: Creve }));
    assert_eq!(m.tableau(0).unwrap().battle, Battle::Remedied(crate::card::Hazard::Creve));
    assert_eq!(m.check(Seat(0), play(D25)), Err(RuleError::NotRolling));
    assert_eq!(m.discard().0.get(Creve), 1);
    assert_whole(&m);
    // The option: the side rolls at once.
    let mut m = table_with(2, Settings { safety_on_attack: SafetyOnAttack::RollsAtOnce, ..Settings::default() });
    m.arrange_tableau(0, &[FeuVert, Creve]).unwrap();
    m.arrange_hand(Seat(0), &[Increvable, D25]).unwrap();
    m.apply(Seat(0), play(Increvable)).unwrap();
    assert_eq!(m.check(Seat(0), play(D25)), Ok(()));
}

#[test]
fn m_9_4_prioritaire_clears_a_feu_rouge_and_a_limite_and_rolls() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, FeuRouge, LimiteDeVitesse]).unwrap();
    m.arrange_hand(Seat(0), &[VehiculePrioritaire, D200]).unwrap();
    let events = m.apply(Seat(0), play(VehiculePrioritaire)).unwrap();
    assert!(events.contains(&Event::Cleared { side: 0, card: FeuRouge }));
    assert!(events.contains(&Event::Cleared { side: 0, card: LimiteDeVitesse }));
    assert_eq!(m.check(Seat(0), play(D200)), Ok(()));
    // A non-matching attack stays.
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, Accident]).unwrap();
    m.arrange_hand(Seat(0), &[Increvable]).unwrap();
    m.apply(Seat(0), play(Increvable)).unwrap();
    assert_eq!(m.tableau(0).unwrap().battle_top, Some(Accident));
}

#[test]
fn m_9_5_a_safety_may_be_discarded_and_scores_nothing_in_hand() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[AsDuVolant]).unwrap();
    assert!(m.legal_actions(Seat(0)).contains(&Action::Discard { card: AsDuVolant }));
    m.arrange_hand(Seat(1), &[Increvable]).unwrap();
    m.arrange_draw_count(0);
    m.apply(Seat(0), Action::Discard { card: AsDuVolant }).unwrap();
    // Seat 1 still holds Increvable; play the hand out: only laid safeties score.
    let events = m.apply(Seat(1), Action::Discard { card: Increvable }).unwrap();
    let Some(Event::HandEnded { score, .. }) = events.last() else { panic!("{events:?}") };
    assert!(score.lines().iter().all(|l| l.safeties == 0));
}

// M-10 The Coup-Fourré

/// Seat 0 attacks side 1 with `attack_card` (side 1 rolling); seat 1 holds `held`.
fn window(players: u8, attack_card: Card, held: &[Card]) -> Manche {
    let mut m = table(players);
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[attack_card]).unwrap();
    m.arrange_hand(Seat(1), held).unwrap();
    m.apply(Seat(0), attack(attack_card, 1)).unwrap();
    m
}

#[test]
fn m_10_1_the_holder_may_answer_at_once_prioritaire_answers_limite_too() {
    let mut m = window(2, LimiteDeVitesse, &[VehiculePrioritaire]);
    let events = m.apply(Seat(1), Action::CoupFourre).unwrap();
    assert_eq!(
        events[0],
        Event::CoupFourre { seat: Seat(1), safety: Safety::VehiculePrioritaire, attack: Attack::LimiteDeVitesse }
    );
    let t = m.tableau(1).unwrap();
    assert_eq!(t.safeties[Safety::VehiculePrioritaire.index()], Some(Laid::CoupFourre));
    assert!(!t.limited());
}

#[test]
fn m_10_2_either_partner_may_call_and_only_the_attacked_side() {
    let mut m = table(6);
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[Creve]).unwrap();
    m.arrange_hand(Seat(4), &[Increvable]).unwrap();
    m.arrange_hand(Seat(2), &[CiterneDEssence]).unwrap();
    m.apply(Seat(0), attack(Creve, 1)).unwrap();
    assert_eq!(m.check(Seat(2), Action::CoupFourre), Err(RuleError::NotAttacked));
    assert_eq!(m.check(Seat(1), Action::CoupFourre), Err(RuleError::SafetyNotHeld { safety: Safety::Increvable }));
    assert_eq!(m.check(Seat(4), Action::CoupFourre), Ok(()), "seat 4 is seat 1's partner");
}

#[test]
fn m_10_3_the_chance_is_gone_once_the_window_closes_the_safety_may_still_be_laid() {
    let mut m = window(2, Accident, &[AsDuVolant, D25]);
    m.close_window(&mut Vec::new()).unwrap();
    assert_eq!(m.check(Seat(1), Action::CoupFourre), Err(RuleError::NoWindow));
    m.apply(Seat(1), play(AsDuVolant)).unwrap();
    assert_eq!(m.tableau(1).unwrap().safeties[Safety::AsDuVolant.index()], Some(Laid::Normal));
}

#[test]
fn m_10_4_the_attack_is_discarded_the_caller_draws_and_plays_the_piles_as_before() {
    let mut m = window(3, Creve, &[Increvable, D25, D50, D75, D100, FeuVert]);
    m.arrange_draw_top(&[D200, FeuRouge]).unwrap();
    let events = m.apply(Seat(1), Action::CoupFourre).unwrap();
    assert_eq!(
        events,
        [
            Event::CoupFourre { seat: Seat(1), safety: Safety::Increvable, attack: Attack::Creve },
            Event::Drew { seat: Seat(1), card: Some(D200) },
            Event::Turn { seat: Seat(1) },
            Event::Drew { seat: Seat(1), card: Some(FeuRouge) },
        ]
    );
    let t = m.tableau(1).unwrap();
    assert_eq!((t.battle, t.battle_top), (Battle::Go, Some(FeuVert)), "the piles as before the attack");
    assert_eq!(m.discard().1, Some(Creve));
    assert_eq!(m.hand(Seat(1)).unwrap().total(), 7);
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(1) });
    assert_whole(&m);
}

#[test]
fn m_10_5_the_caller_s_turn_replaces_his_own_and_the_seats_between_lose_theirs() {
    // A B C D: A attacks C, C calls: B loses his turn, C plays, then D.
    let mut m = table(4);
    m.arrange_tableau(2, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[Accident]).unwrap();
    m.arrange_hand(Seat(2), &[AsDuVolant, D25]).unwrap();
    m.apply(Seat(0), attack(Accident, 2)).unwrap();
    let events = m.apply(Seat(2), Action::CoupFourre).unwrap();
    let lost: Vec<_> =
        events.iter().filter_map(|e| if let Event::LostTurn { seat } = e { Some(*seat) } else { None }).collect();
    assert_eq!(lost, [Seat(1)]);
    m.apply(Seat(2), Action::Discard { card: D25 }).unwrap();
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(3) });
    // At 2 players nobody is skipped.
    let mut two = window(2, Accident, &[AsDuVolant]);
    let events = two.apply(Seat(1), Action::CoupFourre).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::LostTurn { .. })));
}

#[test]
fn m_10_6_with_an_empty_pile_the_coup_fourre_draws_nothing() {
    let mut m = window(2, Accident, &[AsDuVolant, D25]);
    m.arrange_draw_count(0);
    let events = m.apply(Seat(1), Action::CoupFourre).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Drew { .. })));
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(1) });
}

// M-11 End of a hand

#[test]
fn m_11_1_exact_target_ends_the_hand_even_in_an_extra_play() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, D200, D200, D100, D100, D100, D100, D100, D75]).unwrap();
    m.arrange_hand(Seat(0), &[AsDuVolant, D25]).unwrap();
    m.apply(Seat(0), play(AsDuVolant)).unwrap();
    let events = m.apply(Seat(0), play(D25)).unwrap();
    assert!(matches!(events.last(), Some(Event::HandEnded { finished: true, .. })));
}

#[test]
fn m_11_2_an_empty_pile_no_draws_and_empty_hands_pass() {
    let mut m = table(3);
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    m.arrange_hand(Seat(2), &[D50]).unwrap();
    m.arrange_draw_count(0);
    let events = m.apply(Seat(0), Action::Discard { card: D25 }).unwrap();
    assert_eq!(
        events[1..],
        [Event::Turn { seat: Seat(1) }, Event::Passed { seat: Seat(1) }, Event::Turn { seat: Seat(2) }]
    );
}

#[test]
fn m_11_3_a_blocked_hand_is_played_out_or_ends_with_the_last_draw() {
    let mut m = table(2);
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    m.arrange_hand(Seat(1), &[D50]).unwrap();
    m.arrange_draw_count(0);
    m.apply(Seat(0), Action::Discard { card: D25 }).unwrap();
    let events = m.apply(Seat(1), Action::Discard { card: D50 }).unwrap();
    assert!(matches!(events.last(), Some(Event::HandEnded { finished: false, .. })));
    // The option: the turn that drew the last card ends the hand.
    let mut m = table_with(2, Settings { blocked_hand: BlockedHand::EndOnEmptyPile, ..Settings::default() });
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    m.arrange_draw_count(1);
    let events = m.apply(Seat(0), Action::Discard { card: D25 }).unwrap();
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(1) }, "seat 1 draws the last card and plays its turn");
    assert!(events.contains(&Event::Drew {
        seat: Seat(1),
        card: events.iter().find_map(|e| if let Event::Drew { card, .. } = e { *card } else { None })
    }));
    let card = m.hand(Seat(1)).unwrap().cards().next().unwrap();
    let events = m.apply(Seat(1), Action::Discard { card }).unwrap();
    assert!(matches!(events.last(), Some(Event::HandEnded { finished: false, .. })));
}

#[test]
fn m_11_3_a_coup_fourre_after_the_last_draw_stands_and_the_hand_ends_with_no_replay() {
    let settings = Settings { blocked_hand: BlockedHand::EndOnEmptyPile, ..Settings::default() };
    let mut m = table_with(2, settings);
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[Accident]).unwrap();
    m.arrange_hand(Seat(1), &[AsDuVolant, D25]).unwrap();
    m.arrange_draw_count(0);
    m.apply(Seat(0), attack(Accident, 1)).unwrap();
    let events = m.apply(Seat(1), Action::CoupFourre).unwrap();
    let Some(Event::HandEnded { score, .. }) = events.last() else { panic!("{events:?}") };
    assert_eq!((score.lines[1].safeties, score.lines[1].coup_fourres), (100, 300));
}

#[test]
fn m_11_4_the_most_km_wins_a_blocked_hand() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, D100]).unwrap();
    m.arrange_tableau(1, &[FeuVert, D50]).unwrap();
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    m.arrange_draw_count(0);
    let events = m.apply(Seat(0), Action::Discard { card: D25 }).unwrap();
    let Some(Event::HandEnded { score, .. }) = events.last() else { panic!("{events:?}") };
    assert_eq!((score.lines[0].won, score.lines[1].won), (400, 0));
}

#[test]
fn m_11_5_the_next_hand_reshuffles_all_106_cards() {
    let settings = Settings { mode: GameMode::Hands { hands: 3 }, ..Settings::default() };
    let mut events = Vec::new();
    let mut p = Partie::new(settings, 3, SEED, &mut events).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut scratch = Vec::new();
    while p.manche().number() == 0 {
        step(&mut p, &mut rng, &mut scratch, &mut events);
    }
    assert_eq!(p.manche().census(), CardCounts::full_deck());
    assert_eq!(p.manche().discard().0.total(), 0);
    assert!(p.manche().tableaux().iter().all(|t| t.km == 0));
}

#[test]
fn m_12_9_the_score_sheet_has_every_line_and_the_running_totals() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, D100, Increvable]).unwrap();
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    m.arrange_draw_count(0);
    let events = m.apply(Seat(0), Action::Discard { card: D25 }).unwrap();
    let Some(Event::HandEnded { score, .. }) = events.last() else { panic!() };
    let a = score.lines[0];
    assert_eq!(
        (a.distance, a.safeties, a.coup_fourres, a.won, a.without_200, a.shut_out),
        (100, 100, 0, 400, 200, 500)
    );
    assert_eq!(a.total(), 1300);
}

// M-13 The game

fn play_out(settings: Settings, players: u8, seed: u64) -> Partie {
    let mut events = Vec::new();
    let mut p = Partie::new(settings, players, seed, &mut events).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut scratch = Vec::new();
    for _ in 0..100_000 {
        if p.is_over() {
            return p;
        }
        events.clear();
        step(&mut p, &mut rng, &mut scratch, &mut events);
        assert_whole(p.manche());
    }
    panic!("the game never ended");
}

#[test]
fn m_13_1_and_m_13_2_points_to_5000_the_highest_total_wins() {
    let p = play_out(Settings::default(), 4, 11);
    assert!(p.totals().iter().any(|&t| t >= 5000));
    let standings = p.standings().unwrap();
    let best = standings.iter().map(|s| (s.points, s.hands_won)).max().unwrap();
    for s in &standings {
        assert_eq!(s.rank == 1, (s.points, s.hands_won) == best, "M-13.2: ties broken by hands won: {standings:?}");
    }
    // The game ended after the first hand that took a side past 5000.
    let mut running = [0u32; 4];
    for (i, hand) in p.history().iter().enumerate() {
        for (side, line) in hand.lines().iter().enumerate() {
            running[side] += line.total();
        }
        assert_eq!(running.iter().any(|&t| t >= 5000), i + 1 == p.history().len());
    }
}

#[test]
fn m_13_3_a_game_of_hands_is_won_on_hands() {
    let settings = Settings { mode: GameMode::Hands { hands: 3 }, ..Settings::default() };
    let p = play_out(settings, 3, 2);
    assert_eq!(p.history().len(), 3);
    let standings = p.standings().unwrap();
    let most = *p.hands_won().iter().max().unwrap();
    for s in standings {
        assert_eq!(s.rank == 1, s.hands_won == most);
    }
}

// M-15 The window

#[test]
fn m_15_1_the_window_opens_the_same_whatever_anyone_holds() {
    let a = window(3, Creve, &[Increvable]);
    let b = window(3, Creve, &[D25]);
    assert_eq!(a.phase(), b.phase());
    let (va, vb) = (a.view(), b.view());
    assert_eq!(va, vb, "spectators see the same window");
}

impl Manche {
    /// A spectator's view of a bare hand, for comparisons.
    fn view(&self) -> (Phase, Vec<crate::tableau::Tableau>, u8) {
        (self.phase(), self.tableaux().to_vec(), self.draw_count())
    }
}

#[test]
fn m_15_2_the_window_holds_the_table() {
    let mut m = window(3, Creve, &[D25]);
    m.arrange_hand(Seat(2), &[D25]).unwrap();
    for seat in 0..3 {
        assert_eq!(m.check(Seat(seat), Action::Discard { card: D25 }), Err(RuleError::WindowOpen));
    }
    assert!(m.legal_actions(Seat(1)).is_empty());
}

#[test]
fn m_15_3_the_window_length_is_the_option() {
    let mut m = table_with(2, Settings { window_ms: 5000, ..Settings::default() });
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[FeuRouge]).unwrap();
    let events = m.apply(Seat(0), attack(FeuRouge, 1)).unwrap();
    assert!(matches!(events.last(), Some(Event::WindowOpened { ms: 5000, .. })));
}

#[test]
fn m_15_5_a_call_without_the_safety_is_refused_and_the_window_goes_on() {
    let mut m = window(2, Creve, &[CiterneDEssence]);
    assert_eq!(m.apply(Seat(1), Action::CoupFourre), Err(RuleError::SafetyNotHeld { safety: Safety::Increvable }));
    assert!(matches!(m.phase(), Phase::Window { .. }));
}

#[test]
fn m_15_10_with_no_call_the_attack_stands_and_the_next_turn_starts() {
    let mut m = window(3, Creve, &[Increvable]);
    let mut events = Vec::new();
    m.close_window(&mut events).unwrap();
    assert_eq!(events[0], Event::AttackStands { side: 1, attack: Attack::Creve });
    assert_eq!(m.tableau(1).unwrap().battle, Battle::Hazard(crate::card::Hazard::Creve));
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(1) });
    assert_whole(&m);
}

#[test]
fn m_15_11_a_bot_holding_the_safety_calls_one_that_does_not_never_does() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let mut scratch = Vec::new();
    for level in [bolide_table::BotLevel::Random, bolide_table::BotLevel::Strategic] {
        let m = window(2, Creve, &[Increvable]);
        assert_eq!(crate::bots::decide(&m, Seat(1), level, &mut rng, &mut scratch), Some(Action::CoupFourre));
        let m = window(2, Creve, &[D25]);
        assert_eq!(crate::bots::decide(&m, Seat(1), level, &mut rng, &mut scratch), None);
    }
}

#[test]
fn m_15_13_automatic_mode_lays_the_safety_for_its_holder_at_once() {
    let settings = Settings { coup_fourre: CoupFourreMode::Automatic, ..Settings::default() };
    let mut m = table_with(2, settings);
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[Creve, Accident]).unwrap();
    m.arrange_hand(Seat(1), &[Increvable, D25]).unwrap();
    let events = m.apply(Seat(0), attack(Creve, 1)).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::WindowOpened { .. })));
    assert!(events.contains(&Event::CoupFourre { seat: Seat(1), safety: Safety::Increvable, attack: Attack::Creve }));
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(1) });
}

// Properties over whole games

mod props {
    use super::*;
    use crate::options::{BlockedTie, No200Bonus, ShutOut};
    use bolide_table::BotLevel;
    use proptest::prelude::*;

    fn settings() -> impl Strategy<Value = (u8, Settings)> {
        let players = prop::sample::select(vec![2u8, 3, 4, 6, 8]);
        (players, any::<[bool; 7]>()).prop_map(|(players, flags)| {
            let settings = Settings {
                open_hands: flags[0],
                target_km: if flags[1] && matches!(players, 4 | 8) { 700 } else { 1000 },
                safety_on_attack: if flags[2] { SafetyOnAttack::RollsAtOnce } else { SafetyOnAttack::NeedsFeuVert },
                blocked_hand: if flags[3] { BlockedHand::EndOnEmptyPile } else { BlockedHand::PlayOut },
                blocked_tie: if flags[4] { BlockedTie::NobodyWins } else { BlockedTie::EachWins },
                no_200_bonus: if flags[5] { No200Bonus::OnlyFinisher } else { No200Bonus::AnyWinner },
                shut_out: if flags[6] { ShutOut::OnlySidesWithDistance } else { ShutOut::Literal },
                mode: GameMode::Hands { hands: 1 },
                coup_fourre: if flags[0] && flags[6] { CoupFourreMode::Automatic } else { CoupFourreMode::RealTime },
                ..Settings::default()
            };
            (players, settings)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// M-1.2: all 106 cards are somewhere at every step; every legal action passes
        /// `check`, and every action that passes `check` is in the legal list.
        #[test]
        fn m_1_2_every_card_accounted_for_at_every_step((players, settings) in settings(), seed in any::<u64>(), strategic in any::<bool>()) {
            let mut events = Vec::new();
            let mut p = Partie::new(settings, players, seed, &mut events).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut scratch = Vec::new();
            let level = if strategic { BotLevel::Strategic } else { BotLevel::Random };
            let mut steps = 0;
            while !p.is_over() {
                prop_assert_eq!(p.manche().census(), CardCounts::full_deck());
                let m = p.manche();
                for s in 0..players {
                    let legal = m.legal_actions(Seat(s));
                    for a in &legal {
                        prop_assert!(m.check(Seat(s), *a).is_ok(), "{:?} is legal but refused", a);
                    }
                    for card in Card::ALL {
                        for a in [Action::Discard { card }, play(card), attack(card, 0), attack(card, 1), Action::CoupFourre] {
                            if m.check(Seat(s), a).is_ok() {
                                prop_assert!(legal.contains(&a), "{:?} passes check but is not listed", a);
                            }
                        }
                    }
                }
                match m.phase() {
                    Phase::Turn { seat } => {
                        let a = crate::bots::decide(m, seat, level, &mut rng, &mut scratch).unwrap();
                        p.apply_into(seat, a, &mut events).unwrap();
                    }
                    Phase::Window { side, .. } => {
                        let caller = m.seats_of(side).find(|&s| m.check(s, Action::CoupFourre).is_ok());
                        match caller {
                            Some(s) if rng.random_bool(0.5) => p.apply_into(s, Action::CoupFourre, &mut events).unwrap(),
                            _ => p.close_window(&mut events).unwrap(),
                        }
                    }
                    Phase::Over => unreachable!(),
                }
                steps += 1;
                prop_assert!(steps < 2000, "a hand ends");
            }
        }

        /// M-3.4: a view never depends on the cards its viewer cannot see: deal the draw pile
        /// and the other hands again, and every view and event copy stays byte-identical.
        #[test]
        fn m_3_4_views_never_show_the_draw_pile_or_another_hand((players, settings) in settings(), seed in any::<u64>(), moves in 0usize..120, viewer in 0u8..9) {
            let mut events = Vec::new();
            let mut p = Partie::new(settings, players, seed, &mut events).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut scratch = Vec::new();
            for _ in 0..moves {
                if p.manche().phase() == Phase::Over || p.is_over() { break; }
                step(&mut p, &mut rng, &mut scratch, &mut events);
            }
            let viewer = (viewer < players).then_some(Seat(viewer));
            let config = bincode::config::standard();
            let before = bincode::serde::encode_to_vec(p.view(viewer), config).unwrap();
            let mut other = p.clone();
            other.manche_mut().redeal_secrets(viewer, &mut rng);
            let after = bincode::serde::encode_to_vec(other.view(viewer), config).unwrap();
            prop_assert_eq!(before, after);
            for e in &events {
                if let Event::Drew { seat, card: Some(_) } = e && !p.manche().sees_hand(viewer, *seat) {
                    prop_assert_eq!(p.event_for(*e, viewer), Event::Drew { seat: *seat, card: None });
                }
            }
        }
    }

    use rand::RngExt;
}

#[test]
fn m_3_4_redealing_the_secrets_changes_what_the_viewer_cannot_see_only() {
    let mut p = Partie::new(Settings::default(), 4, SEED, &mut Vec::new()).unwrap();
    let before = p.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    p.manche_mut().redeal_secrets(Some(Seat(0)), &mut rng);
    assert_eq!(p.manche().hand(Seat(0)), before.manche().hand(Seat(0)));
    assert_ne!(p.manche().hand(Seat(1)), before.manche().hand(Seat(1)), "the property test must compare real re-deals");
    assert_ne!(p.view(Some(Seat(1))), before.view(Some(Seat(1))));
    assert_eq!(p.manche().census(), CardCounts::full_deck());
}

// Rules whose test is a count, a whole hand or a comparison of views.

#[test]
fn m_1_4_the_counts_make_106_without_the_stray_two() {
    let by_family = |f: fn(crate::card::Family) -> bool| -> u32 {
        Card::ALL.iter().filter(|c| f(c.family())).map(|c| u32::from(c.count())).sum()
    };
    use crate::card::Family;
    let (distance, attack, remedy, safety) = (
        by_family(|f| matches!(f, Family::Distance(_))),
        by_family(|f| matches!(f, Family::Attack(_))),
        by_family(|f| matches!(f, Family::Remedy(_))),
        by_family(|f| matches!(f, Family::Safety(_))),
    );
    assert_eq!((distance, attack, remedy, safety), (46, 18, 38, 4));
    assert_eq!(distance + attack + remedy + safety + 4, 110, "with the 4 mémo cards, the box's 110; no ×2 card");
}

#[test]
fn m_1_5_every_player_count_plays_all_106_cards() {
    for players in [2, 3, 4, 6, 8] {
        let m = Manche::deal(Settings::default(), players, SEED, 0, Seat(0), &mut Vec::new()).unwrap();
        assert_eq!(m.census(), CardCounts::full_deck(), "{players} players");
        let in_play =
            usize::from(m.draw_count()) + (0..players).map(|s| m.hand(Seat(s)).unwrap().total()).sum::<usize>();
        assert_eq!(in_play, 106, "{players} players: nothing removed");
    }
}

#[test]
fn m_11_6_no_allonge_700_is_not_a_finish_in_a_1000_km_trip() {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert, D200, D200, D100, D100, D50]).unwrap();
    m.arrange_hand(Seat(0), &[D50]).unwrap();
    m.apply(Seat(0), play(D50)).unwrap();
    assert_eq!(m.tableau(0).unwrap().km, 700);
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(1) }, "the hand goes on: nobody may stop at 700");
}

/// Side 0 at `km` with `laid` safeties (one of them by Coup-Fourré when `cf`), scored alone
/// against a side at 25 km in a blocked hand.
fn score_of(km: &[Card], laid: &[Card], cf: bool) -> crate::score::SideScore {
    let mut m = table(2);
    m.arrange_tableau(0, &[FeuVert]).unwrap();
    m.arrange_tableau(0, km).unwrap();
    m.arrange_tableau(0, laid).unwrap();
    m.arrange_tableau(1, &[FeuVert, D25]).unwrap();
    if cf {
        m.arrange_hand(Seat(1), &[Accident]).unwrap();
        m.arrange_hand(Seat(0), &[AsDuVolant]).unwrap();
        m.arrange_turn(Seat(1)).unwrap();
        m.apply(Seat(1), attack(Accident, 0)).unwrap();
        m.apply(Seat(0), Action::CoupFourre).unwrap();
    }
    for s in 0..2 {
        m.arrange_hand(Seat(s), &[]).unwrap();
    }
    m.arrange_hand(Seat(0), &[D25]).unwrap();
    m.arrange_draw_count(0);
    m.arrange_turn(Seat(0)).unwrap();
    let events = m.apply(Seat(0), Action::Discard { card: D25 }).unwrap();
    let Some(Event::HandEnded { score, .. }) = events.last() else { panic!("{events:?}") };
    score.lines[0]
}

#[test]
fn m_12_2_one_hundred_per_safety_on_the_tableau() {
    assert_eq!(score_of(&[D100], &[Increvable, CiterneDEssence], false).safeties, 200);
}

#[test]
fn m_12_3_three_hundred_more_per_coup_fourre() {
    let s = score_of(&[D100], &[], true);
    assert_eq!((s.safeties, s.coup_fourres), (100, 300));
}

#[test]
fn m_12_4_the_winner_of_a_blocked_hand_scores_400() {
    let s = score_of(&[D100], &[], false);
    assert_eq!((s.won, s.without_200), (400, 200), "a blocked hand's leader is its winner");
}

#[test]
fn m_12_7_nothing_else_scores_not_even_all_four_safeties() {
    let s = score_of(&[D100], &[VehiculePrioritaire, CiterneDEssence, Increvable, AsDuVolant], false);
    assert_eq!(s.total(), 100 + 400 + 400 + 200, "km, four safeties, the win, no 200: no extra bonus");
}

#[test]
fn m_13_2_a_tie_on_points_is_broken_by_hands_won_then_shared() {
    let mut p = Partie::new(Settings::default(), 3, SEED, &mut Vec::new()).unwrap();
    p.force_totals(&[5200, 5200, 4000], &[2, 1, 0]);
    let s = p.standings().unwrap();
    assert_eq!(s.iter().map(|l| l.rank).collect::<Vec<_>>(), [1, 2, 3]);
    p.force_totals(&[5200, 5200, 4000], &[1, 1, 0]);
    let s = p.standings().unwrap();
    assert_eq!(s.iter().map(|l| l.rank).collect::<Vec<_>>(), [1, 1, 3], "still tied: the win is shared");
}

#[test]
fn m_15_4_every_viewer_sees_the_same_pending_attack() {
    let mut p = Partie::new(Settings::default(), 3, SEED, &mut Vec::new()).unwrap();
    let m = p.manche_mut();
    for s in 0..3 {
        m.arrange_hand(Seat(s), &[]).unwrap();
    }
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[Creve]).unwrap();
    m.arrange_turn(Seat(0)).unwrap();
    p.apply(Seat(0), attack(Creve, 1)).unwrap();
    let public = |v: crate::partie::View| (v.phase, v.tableaux, v.draw_count, v.discard_top, v.hand_sizes);
    let spectator = public(p.view(None));
    assert!(matches!(spectator.0, Phase::Window { side: 1, attack: Attack::Creve, .. }));
    for s in 0..3 {
        assert_eq!(public(p.view(Some(Seat(s)))), spectator, "seat {s} sees what a spectator sees");
    }
}

#[test]
fn m_15_8_one_valid_call_per_window_the_holder_s() {
    let mut m = table(6);
    m.arrange_tableau(1, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[Creve]).unwrap();
    m.arrange_hand(Seat(4), &[Increvable]).unwrap();
    m.apply(Seat(0), attack(Creve, 1)).unwrap();
    assert_eq!(m.check(Seat(1), Action::CoupFourre), Err(RuleError::SafetyNotHeld { safety: Safety::Increvable }));
    m.apply(Seat(4), Action::CoupFourre).unwrap();
    assert_eq!(m.check(Seat(1), Action::CoupFourre), Err(RuleError::NoWindow), "the window closed with the call");
}

#[test]
fn m_15_9_after_a_valid_call_the_caller_plays_and_the_skipped_are_named() {
    let mut m = table(4);
    m.arrange_tableau(3, &[FeuVert]).unwrap();
    m.arrange_hand(Seat(0), &[FeuRouge]).unwrap();
    m.arrange_hand(Seat(3), &[VehiculePrioritaire]).unwrap();
    m.apply(Seat(0), attack(FeuRouge, 3)).unwrap();
    let events = m.apply(Seat(3), Action::CoupFourre).unwrap();
    let lost: Vec<Seat> =
        events.iter().filter_map(|e| if let Event::LostTurn { seat } = e { Some(*seat) } else { None }).collect();
    assert_eq!(lost, [Seat(1), Seat(2)]);
    assert_eq!(m.phase(), Phase::Turn { seat: Seat(3) });
    assert_eq!(m.discard().1, Some(FeuRouge));
}

/// The first game of four (seeds 1 to 99) played by bots to a window whose attacked side
/// holds the safety, and the seat that holds it.
fn a_window_with_a_holder() -> (Partie, Seat) {
    let mut events = Vec::new();
    let holder = |p: &Partie| (0..4).map(Seat).find(|s| p.check(*s, Action::CoupFourre).is_ok());
    (1..100)
        .find_map(|seed| {
            let mut p = Partie::new(Settings::default(), 4, seed, &mut events).unwrap();
            crate::sim::play_until(&mut p, bolide_table::BotLevel::Strategic, seed, |p| holder(p).is_some())
                .then_some(p)
        })
        .and_then(|p| Some((holder(&p)?, p)))
        .map(|(s, p)| (p, s))
        .expect("a window with a holder")
}

/// M-15.9, M-15.10: the table's photo finish names the caller of this window's applied
/// Coup-Fourré with the reaction it judged; a holder's request left void (the window closed
/// first) tells nothing, so no hand shows.
#[test]
fn m_15_9_only_the_applied_call_s_reaction_is_published() {
    use bolide_table::{Asked, Game};
    let mut events = Vec::new();
    let (mut partie, seat) = a_window_with_a_holder();
    let moment = crate::partie::window_moment(partie.manche().number(), partie.manche().attacks());
    let asked = [Asked { seat, action: Action::CoupFourre, reaction_us: 412_000 }];
    assert_eq!(partie.photo_finish(moment, &asked), None, "not applied: nothing told");
    partie.apply_into(seat, Action::CoupFourre, &mut events).unwrap();
    assert_eq!(partie.photo_finish(moment, &asked), Some(Event::Reaction { seat, reaction_us: 412_000 }));
    assert_eq!(partie.photo_finish(moment + 1, &asked), None, "another window's name tells nothing");
}

/// M-15.11: a bot that holds the safety calls after a delay drawn uniformly from 0.6 to 1.5 s
/// (the host waits that long before its bot calls); outside a window the game names no delay
/// (a turn is the room's thinking time).
#[test]
fn m_15_11_a_bot_calls_0_6_to_1_5_s_after_the_window_opens() {
    use bolide_table::Game;
    let mut events = Vec::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let turn = Partie::new(Settings::default(), 4, 1, &mut events).unwrap();
    assert_eq!(turn.bot_reaction_us(Seat(0), &mut rng), None);
    let (partie, seat) = a_window_with_a_holder();
    let delays: Vec<u64> = (0..2000).map(|_| partie.bot_reaction_us(seat, &mut rng).unwrap()).collect();
    assert!(delays.iter().all(|d| (600_000..=1_500_000).contains(d)), "within 0.6–1.5 s");
    // Uniform: each tenth of the range holds about a tenth of the draws.
    for tenth in 0..10u64 {
        let (lo, hi) = (600_000 + tenth * 90_000, 600_000 + (tenth + 1) * 90_000);
        let n = delays.iter().filter(|d| (lo..hi).contains(*d)).count();
        assert!((140..=260).contains(&n), "{n} of 2000 draws in [{lo}, {hi}) µs");
    }
}

// The scenario runner ---------------------------------------------------------------------

fn scenario(json: &str) -> crate::scenario::Scenario {
    serde_json::from_str(json).unwrap()
}

#[test]
fn a_scenario_gives_any_card_to_any_seat_whatever_the_deal() {
    // The four safeties exist once each: whichever seat the seed dealt them to, seat 1 gets
    // them, the others keep seven cards and the box stays whole.
    for seed in 0..60 {
        let s = scenario(&format!(
            r#"{{"seats":["a","b","c","d"],"seed":{seed},"hands":[null,["VehiculePrioritaire","CiterneDEssence","Increvable","AsDuVolant"]],"actions":[]}}"#
        ));
        let report = crate::scenario::run(&s).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let hands = &report.output.final_state.hands;
        assert_eq!(hands[1], [VehiculePrioritaire, CiterneDEssence, Increvable, AsDuVolant], "seed {seed}");
        assert!(hands.iter().enumerate().all(|(i, h)| i == 1 || h.len() == 6 || h.len() == 7), "seed {seed}");
        let cards: usize =
            hands.iter().map(Vec::len).sum::<usize>() + usize::from(report.output.final_state.draw_count);
        assert_eq!(cards, 106, "seed {seed}: every card is in a hand or the draw pile");
    }
}

#[test]
fn a_scenario_s_draw_count_keeps_the_cards_it_put_on_top() {
    let s = scenario(
        r#"{"seats":["a","b"],"seed":4,"hands":[["D25"],["D25"]],"turn":0,"draw":["D200","AsDuVolant"],"draw_count":3,
            "actions":[{"seat":0,"action":{"Discard":{"card":"D25"}}}]}"#,
    );
    let report = crate::scenario::run(&s).unwrap();
    assert_eq!(report.failure, None);
    let state = &report.output.final_state;
    // Seat 2 drew the top card for its turn: the first of `draw`.
    assert_eq!(state.hands[1], [D25, D200]);
    assert_eq!(state.draw_count, 2);
    let fewer = scenario(r#"{"seats":["a","b"],"draw":["D200","AsDuVolant"],"draw_count":1,"actions":[]}"#);
    let refused = crate::scenario::run(&fewer).err().unwrap().to_string();
    assert!(refused.contains("`draw_count`") && refused.contains("at least 2"), "{refused}");
}

#[test]
fn m_13_2_a_scenario_starts_from_running_totals_and_prints_the_standings() {
    // Alice at 4 400 finishes the trip: 1 000 km + 400 + 500 for the shut-out takes her past
    // 5 000 (M-13.1) and the game ends; the standings say who won.
    let s = scenario(
        r#"{"seats":["Alice","Bob"],"seed":3,"dealer":1,"totals":[4400,4700],"hands_won":[3,4],
            "hands":[["D50"],["D25"]],"tableaux":[["FeuVert","D200","D200","D100","D100","D100","D100","D100","D50"],[]],
            "turn":0,"actions":[{"seat":0,"action":{"Play":{"card":"D50","on":null}}}],"expect":{"km":[1000,0]}}"#,
    );
    let report = crate::scenario::run(&s).unwrap();
    assert_eq!(report.failure, None);
    let state = &report.output.final_state;
    assert!(state.over, "{:?}", state.totals);
    assert!(state.totals[0] > 5000 && state.totals[1] == 4700, "{:?}", state.totals);
    let first = state.standings.iter().find(|l| l.rank == 1).unwrap();
    assert_eq!((first.seat, first.hands_won), (Seat(0), 4));
}
