//! Both games through the table's seam (`bolide_table::Game`): they play to their end with
//! the table's driver, every legal action is accepted, every view is for its viewer, and a
//! timed step names its contenders.

use bolide::game::Championship;
use bolide::options::RaceSettings;
use bolide_table::{BotLevel, Game, Seat, Step, drive};
use mille_bornes::Partie;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Walks a whole game between bots, checking the seam's promises at every step.
fn walk<G: Game>(settings: G::Settings, players: u8, seed: u64) -> (u32, Vec<bolide_table::Standing>) {
    let mut events = Vec::new();
    let mut game = G::start(&settings, players, seed, &mut events).unwrap();
    let levels: Vec<BotLevel> = (0..players).map(|s| BotLevel::ALL[usize::from(s) % 2]).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut scratch, mut legal) = (Vec::new(), Vec::new());
    let (mut steps, mut timed) = (0u32, 0u32);
    loop {
        let step = game.step();
        if step == Step::Over {
            break;
        }
        if let Step::Timed { contenders, .. } = step {
            assert!(!contenders.is_empty(), "{}: a timed step with nobody in it", G::NAME);
            timed += 1;
        }
        for s in 0..players {
            legal.clear();
            game.legal(Seat(s), &mut legal);
            for &action in legal.iter().take(8) {
                let mut copy = game.clone();
                assert!(copy.apply(Seat(s), action, &mut Vec::new()).is_ok(), "{}: legal {action:?} refused", G::NAME);
            }
        }
        drive::step(&mut game, &levels, &mut rng, &mut events, &mut scratch).unwrap();
        steps += 1;
        assert!(steps < 100_000, "{} never ended", G::NAME);
    }
    assert!(timed > 0, "{}: no timed moment in a whole game", G::NAME);
    (steps, game.standings().expect("standings at the end"))
}

#[test]
fn bolide_plays_to_its_end_through_the_seam() {
    let settings =
        RaceSettings { options: bolide::TableOptions { races: 2, ..Default::default() }, ..Default::default() };
    let (steps, standings) = walk::<Championship>(settings, 4, 7);
    assert!(steps > 20);
    assert_eq!(standings.len(), 4);
    assert!(standings.iter().any(|s| s.rank == 1));
    assert_eq!(
        Championship::check_settings(&RaceSettings::default(), 2),
        Err("B-1.1: Bolide plays 3 to 6 pilots, not 2".into())
    );
    // What a modified first pilot may ask for over the wire stays bounded.
    let races =
        |races| RaceSettings { options: bolide::TableOptions { races, ..Default::default() }, ..Default::default() };
    assert_eq!(Championship::check_settings(&races(0), 4), Err("races: 0 is not 1 to 50".into()));
    assert_eq!(Championship::check_settings(&races(255), 4), Err("races: 255 is not 1 to 50".into()));
}

#[test]
fn mille_bornes_plays_to_its_end_through_the_seam() {
    for players in [2, 3, 4, 6, 8] {
        let settings =
            mille_bornes::Settings { mode: mille_bornes::options::GameMode::Hands { hands: 1 }, ..Default::default() };
        let (_, standings) = walk::<Partie>(settings, players, u64::from(players));
        assert_eq!(standings.len(), usize::from(players));
        if players >= 6 {
            // Partners share their side's place (M-2.2).
            let side = usize::from(players / 2);
            let by_seat = |s: usize| standings.iter().find(|l| l.seat == Seat(s as u8)).unwrap().rank;
            assert_eq!(by_seat(0), by_seat(side));
        }
    }
    assert!(Partie::check_settings(&mille_bornes::Settings::default(), 5).unwrap_err().starts_with("M-2.1"));
}

#[test]
fn a_game_s_name_is_its_advert_s() {
    // The host's registry names each game as its engine does: the advert, the journal and the
    // window's registry all say the same name.
    let names = bolide_host::games::Registry::standard().names();
    assert_eq!(names, [Championship::NAME, Partie::NAME, entenrallye::Rallye::NAME]);
    assert_eq!(names, ["bolide", "mille-bornes", "entenrallye"]);
}
