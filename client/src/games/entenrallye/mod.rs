//! Entenrallye's half of the client core: nothing is timed — every decision is one seat's,
//! in turn — so no moment, no twin and nothing to beat for; what is left is checking what
//! the host sends against the game's own ranges (`View::check`).

pub mod board;
pub mod layout;
pub mod table;

use crate::bot::BotGame;
use crate::game::ClientGame;
use bolide_table::BotLevel;
use bolide_table::Seat;
use bolide_table::seal::SeedWatch;
use bolide_table::wire::ServerMsgOf;
use entenrallye::{Entenrallye, Event, View};
use rand_chacha::ChaCha8Rng;

/// What a laptop checks of the host's die (E-4.2, `entenrallye::dice`): every roll it saw
/// (its number in the year, the die), against the seed the host committed to in its first
/// lobby and reveals when the year ends — the table's [`SeedWatch`]; its verdict, how many
/// rolls matched, or what did not.
pub type RollWatch = SeedWatch<Vec<(u32, u8)>, usize, String>;

/// Rolls a watch keeps (a year takes a few hundred; a runaway host cannot grow it).
const WATCHED_ROLLS: usize = 4096;

impl ClientGame for Entenrallye {
    type Watch = RollWatch;
    type Twins = ();
    const SEATS: usize = 6;

    fn check(msg: &mut ServerMsgOf<Entenrallye>) -> Result<(), String> {
        if let ServerMsgOf::Update { view, legal, .. } = msg {
            view.check()?;
            legal.iter().try_for_each(|a| view.check_action(a))?;
        }
        Ok(())
    }

    fn viewer(view: &View) -> Option<Seat> {
        view.viewer
    }

    fn seats(view: &View, seat: Seat) -> bool {
        seat.0 < view.players
    }

    fn watch(watch: &mut RollWatch, msg: &ServerMsgOf<Entenrallye>) {
        match msg {
            ServerMsgOf::Lobby(lobby) => {
                watch.lobby(lobby.dice, lobby.luck.as_ref(), lobby.reveal.as_ref(), true, |seed, rolls| {
                    entenrallye::dice::check_rolls(seed, rolls).map_err(|e| e.to_string())
                });
            }
            ServerMsgOf::Update { events, .. } => {
                for event in events {
                    if let Event::Rolled { die, roll, .. } = event
                        && watch.seen.len() < WATCHED_ROLLS
                    {
                        watch.seen.push((*roll, *die));
                    }
                }
            }
            _ => {}
        }
    }
}

impl BotGame for Entenrallye {
    /// Every action moves a car, the calendar, the die or a part: all of it is in the view.
    fn decision(view: &entenrallye::View, legal: &[entenrallye::Action]) -> String {
        format!("{} {:?} {:?} {:?} {:?} {legal:?}", view.time, view.turn, view.phase, view.cars, view.hand)
    }

    fn decide(
        view: &entenrallye::View,
        legal: &[entenrallye::Action],
        level: BotLevel,
        rng: &mut ChaCha8Rng,
    ) -> Option<entenrallye::Action> {
        entenrallye::bots::decide(view, legal, level, rng)
    }
}

#[cfg(test)]
mod tests {
    use crate::state::ClientStateOf;
    use bolide_table::wire::{BeatSchedule, ServerMsgOf};
    use bolide_table::{BotLevel, Game, Seat};
    use entenrallye::{Entenrallye, Event, Rallye, Settings, Square};
    use rand::SeedableRng;

    /// A whole year of bots as `viewer`'s laptop gets it: one update per action, its events
    /// as the viewer may see them, the view and what the viewer may do after it.
    fn year_seen_by(viewer: Seat, seed: u64) -> (Rallye, Vec<ServerMsgOf<Entenrallye>>) {
        use bolide_table::seal::SeedReveal;
        use bolide_table::wire::LobbyStateOf;
        let lobby = |reveal: Option<SeedReveal>| {
            ServerMsgOf::Lobby(Box::new(LobbyStateOf {
                seats: Vec::new(),
                you: Some(viewer),
                settings: entenrallye::Lobby::default(),
                spectators: 0,
                started: true,
                dice: SeedReveal { seed, nonce: [3; 32], luck: Default::default() }.commitment(),
                reveal,
                luck: None,
            }))
        };
        let mut events = Vec::new();
        let mut game = Rallye::new(Settings::default(), 4, seed, &mut events).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        let mut msgs = vec![lobby(None)];
        loop {
            let mut legal = Vec::new();
            game.legal(viewer, &mut legal);
            msgs.push(ServerMsgOf::Update {
                events: events.drain(..).map(|e| game.event_for(&e, Some(viewer))).collect(),
                view: Box::new(game.view(Some(viewer))),
                legal,
                deadline_ms: None,
                awaited: None,
                show_at_us: None,
                countdown_end_us: None,
            });
            let step =
                bolide_table::drive::step(&mut game, &[BotLevel::Strategic; 4], &mut rng, &mut events, &mut scratch);
            if step.unwrap().is_none() {
                msgs.push(lobby(Some(SeedReveal { seed, nonce: [3; 32], luck: Default::default() })));
                return (game, msgs);
            }
        }
    }

    #[test]
    fn e_4_2_a_laptop_catches_a_roll_the_seed_does_not_give() {
        let (_, mut msgs) = year_seen_by(Seat(1), 8);
        let forged = msgs.iter_mut().find_map(|m| match m {
            ServerMsgOf::Update { events, .. } => events.iter_mut().find_map(|e| match e {
                Event::Rolled { die, roll: 10, .. } => Some(die),
                _ => None,
            }),
            _ => None,
        });
        let die = forged.expect("a tenth roll");
        *die = *die % 6 + 1;
        let mut s = ClientStateOf::<Entenrallye>::default();
        s.welcome(Some(Seat(1)), None, BeatSchedule::Steady);
        for msg in &msgs {
            s.on_message(msg.clone(), 0).expect("a forged roll is still a well-formed update");
        }
        let verdict = s.mirror.dice.verdict().expect("revealed").clone();
        assert!(verdict.is_err_and(|e| e.contains("roll 10")), "a forged roll passes");
    }

    #[test]
    fn the_client_core_follows_a_year_of_entenrallye_and_refuses_a_forged_view() {
        let (game, msgs) = year_seen_by(Seat(1), 5);
        let mut s = ClientStateOf::<Entenrallye>::default();
        s.welcome(Some(Seat(1)), None, BeatSchedule::Steady);
        for msg in &msgs {
            s.on_message(msg.clone(), 0).expect("every update of a real game passes the checks");
        }
        assert_eq!(s.mirror.view.as_ref(), Some(&game.view(Some(Seat(1)))), "the mirror is the game as seat 2 sees it");
        let seen: Vec<&Event> = msgs
            .iter()
            .flat_map(|m| match m {
                ServerMsgOf::Update { events, .. } => events.iter().collect::<Vec<_>>(),
                _ => Vec::new(),
            })
            .collect();
        assert!(
            seen.iter().any(|e| matches!(e, Event::Bought { seat: Seat(0), part: None })),
            "others' purchases unseen"
        );
        // A host that puts a car off the road is refused, and the mirror keeps what it had.
        let last = msgs.iter().rev().find(|m| matches!(m, ServerMsgOf::Update { .. })).cloned();
        let Some(ServerMsgOf::Update { view, events, legal, .. }) = last else { panic!("no update") };
        let mut forged = view.clone();
        forged.cars[2].at = Square(240);
        let msg = ServerMsgOf::Update {
            events,
            view: forged,
            legal,
            deadline_ms: None,
            awaited: None,
            show_at_us: None,
            countdown_end_us: None,
        };
        assert!(s.on_message(msg, 0).is_err());
        assert_eq!(s.mirror.view.as_ref(), Some(&*view));
    }
}
