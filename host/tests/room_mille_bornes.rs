//! 1000 Bornes served by the same room as Bolide (sans-I/O, synthetic times): the table's
//! lobby, seats, stand-in bots, time limits, Coup-Fourré windows judged as timed moments,
//! journal and resume — none of it written for this game.

use bolide_host::room::{JournalEntryOf, OutputOf, RoomConfigOf, RoomOf};
use bolide_protocol::wire::{BeatSchedule, ClientMsgOf, DatagramOf, Hello, PROTOCOL_VERSION, ServerMsgOf};
use bolide_table::{BotLevel, Seat};
use mille_bornes::options::GameMode;
use mille_bornes::{Event, Lobby, MilleBornes, Partie, RuleError, Settings};

type Output = OutputOf<MilleBornes>;

fn config(seed: u64) -> RoomConfigOf<Lobby> {
    let game = Settings { mode: GameMode::Hands { hands: 1 }, window_ms: 2000, ..Settings::default() };
    let lobby = Lobby { game, bots: 3, bot_level: BotLevel::Strategic };
    let mut config = RoomConfigOf::new("GARE", lobby, seed);
    (config.bot_delay_ms, config.turn_timeout_ms, config.grab_timeout_ms) = (5, 20, 20);
    config
}

/// A room of one pilot (Anne, connection 1) and three bots, started.
fn started(seed: u64) -> (RoomOf<Partie>, Vec<Output>) {
    let mut room = RoomOf::<Partie>::new(config(seed), 1);
    let mut out = Vec::new();
    let hello =
        Hello { version: PROTOCOL_VERSION, code: "GARE".into(), name: "Anne".into(), seat_token: None, watch: false };
    room.hello(0, 1, hello, BeatSchedule::WhileActing, &mut out);
    room.message(0, 1, ClientMsgOf::Ready(true), &mut out);
    (room, out)
}

/// Runs the room's clock until the game is over (or `stop` says so), as the network layer
/// would: every deadline, in order. Returns the journal it wrote.
fn run(room: &mut RoomOf<Partie>, now: &mut u64, out: &mut Vec<Output>, stop: impl Fn(&[Output]) -> bool) {
    while !room.is_finished() && !stop(out) {
        let at = room.next_deadline().expect("a room that is not finished waits for something");
        assert!(at < *now + 60_000_000, "nothing happened for a minute at {now} µs");
        *now = (*now).max(at);
        room.tick(*now, out);
    }
}

fn journal(out: &[Output]) -> Vec<JournalEntryOf<MilleBornes>> {
    out.iter()
        .filter_map(|o| match o {
            OutputOf::Journal(entry) => Some(entry.clone()),
            _ => None,
        })
        .collect()
}

fn events_to(out: &[Output], conn: u64) -> Vec<Event> {
    out.iter()
        .filter_map(|o| match o {
            OutputOf::Send { conn: c, msg: ServerMsgOf::Update { events, .. } }
            | OutputOf::SendAt { conn: c, msg: ServerMsgOf::Update { events, .. }, .. }
                if *c == conn =>
            {
                Some(events.clone())
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// A pilot and three host bots: the pilot lets every time limit pass, its stand-in plays,
/// and the hand is played to the standings with Coup-Fourré windows opened and closed by
/// the table's timers.
#[test]
fn m_13_3_a_whole_game_of_one_hand_through_the_table_s_room() {
    let ((mut room, mut out), mut now) = (started(7), 0);
    assert!(room.game().is_some(), "one person ready and three bots: the game starts");
    run(&mut room, &mut now, &mut out, |_| false);
    let events = events_to(&out, 1);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::HandEnded { .. })).count(), 1, "one hand");
    assert!(events.contains(&Event::GameOver));
    assert!(events.iter().any(|e| matches!(e, Event::WindowOpened { .. })), "no attack in a whole hand?");
    // Anne's copy of another seat's draw never names the card (M-3.4).
    assert!(events.iter().all(|e| !matches!(e, Event::Drew { seat, card: Some(_) } if *seat != Seat(0))));
    // M-15.1: each window is a timed moment of the table: its news leave with their datagram
    // twin, and the table's clock closes it (journaled, so a resume closes it again).
    let twins = out
        .iter()
        .filter(|o| {
            let twin =
                |d: &DatagramOf<MilleBornes>| matches!(d, DatagramOf::Twin { twin: Event::WindowOpened { .. }, .. });
            matches!(o, OutputOf::DatagramAt { conn: 1, datagram, .. } if twin(datagram))
        })
        .count();
    let windows = events.iter().filter(|e| matches!(e, Event::WindowOpened { .. })).count();
    assert_eq!(twins, windows, "one twin per window");
    let closed = journal(&out).iter().filter(|e| matches!(e, JournalEntryOf::TimeUp)).count();
    let stood = events.iter().filter(|e| matches!(e, Event::AttackStands { .. })).count();
    assert_eq!(closed, stood, "every window nobody answered was closed by the table's clock");
    let finished = out.iter().any(|o| matches!(o, OutputOf::Send { conn: 1, msg: ServerMsgOf::Finished { .. } }));
    assert!(finished, "the standings reach the pilot");
}

/// `kill -9` in the middle of a hand: the journal rebuilds the same game, and it goes on to
/// the same end as the room that never stopped.
#[test]
fn a_1000_bornes_room_resumes_from_its_journal() {
    let ((mut room, mut out), mut now) = (started(11), 0);
    run(&mut room, &mut now, &mut out, |out| journal(out).len() > 60);
    let entries = journal(&out);
    assert!(entries.len() > 60, "{} entries", entries.len());
    let resumed = RoomOf::<Partie>::resume(config(11), 2, &entries, now).expect("the journal replays");
    let (a, b) = (room.game().unwrap(), resumed.game().unwrap());
    assert_eq!(a.view(None), b.view(None), "the same table after the replay");
    assert_eq!(a.view(Some(Seat(2))), b.view(Some(Seat(2))), "the same hands");
    let mut resumed = resumed;
    let mut out2 = Vec::new();
    run(&mut resumed, &mut now, &mut out2, |_| false);
    assert!(resumed.is_finished(), "the resumed game reaches its end");
    // A refusal from this game is its own rule error, and the table's are carried in it.
    let refused: RuleError = bolide_table::TableRefusal::Spectator.into();
    assert!(refused.to_string().starts_with("spectators watch"));
}

/// M-15.12: a seat that is not connected cannot call — no stand-in calls for it, though it
/// holds the safety — and the window closes on the table's clock as any other.
#[test]
fn m_15_12_an_absent_seat_cannot_call_and_no_stand_in_calls_for_it() {
    let mut met = 0;
    for seed in 1..40 {
        let ((mut room, mut out), mut now) = (started(seed), 0);
        room.gone(0, 1, &mut out);
        let mut holding = false;
        while !room.is_finished() {
            let Some(at) = room.next_deadline() else { break };
            now = now.max(at);
            room.tick(now, &mut out);
            let Some(partie) = room.game() else { continue };
            let m = partie.manche();
            if let mille_bornes::Phase::Window { side, attack, .. } = m.phase()
                && m.side_of(Seat(0)) == side
                && m.hand(Seat(0)).is_some_and(|h| h.get(attack.safety().card()) > 0)
            {
                holding = true;
            }
        }
        let called = journal(&out)
            .iter()
            .any(|e| matches!(e, JournalEntryOf::Applied { seat: Seat(0), action: mille_bornes::Action::CoupFourre }));
        assert!(!called, "seed {seed}: a Coup-Fourré was called for the absent seat");
        met += usize::from(holding);
        if met >= 3 {
            return;
        }
    }
    panic!("only {met} games where the absent seat held the safety when attacked: try more seeds");
}

/// M-5.7: the table's turn timer — off, the table's own time limit; 30 or 60 s, that long
/// before the seat's bot plays its turn.
#[test]
fn m_5_7_the_turn_timer_is_how_long_a_turn_waits_for_its_player() {
    let deadlines = |turn_timer_s: u16| {
        let mut config = config(5);
        config.settings.game.turn_timer_s = turn_timer_s;
        config.turn_timeout_ms = 7_000;
        let mut room = RoomOf::<Partie>::new(config, 1);
        let mut out = Vec::new();
        let hello = Hello {
            version: PROTOCOL_VERSION,
            code: "GARE".into(),
            name: "Anne".into(),
            seat_token: None,
            watch: false,
        };
        room.hello(0, 1, hello, BeatSchedule::WhileActing, &mut out);
        room.message(0, 1, ClientMsgOf::Ready(true), &mut out);
        let mut now = 0;
        run(&mut room, &mut now, &mut out, |out| {
            out.iter().any(|o| matches!(o, OutputOf::Send { conn: 1, msg: ServerMsgOf::Update { legal, .. } } if !legal.is_empty()))
        });
        out.iter()
            .find_map(|o| match o {
                OutputOf::Send { conn: 1, msg: ServerMsgOf::Update { legal, deadline_ms, .. } }
                    if !legal.is_empty() =>
                {
                    Some(*deadline_ms)
                }
                _ => None,
            })
            .flatten()
    };
    assert_eq!(deadlines(0), Some(7_000), "off: the table's own time limit");
    assert_eq!(deadlines(30), Some(30_000));
    assert_eq!(deadlines(60), Some(60_000));
}

/// M-15.5: a call from a seat of the attacked side that does not hold the safety is refused
/// to that laptop alone; nothing is broadcast and the window goes on to its end.
#[test]
fn m_15_5_a_call_without_the_safety_is_refused_to_that_laptop_alone() {
    for seed in 1..40 {
        let ((mut room, mut out), mut now) = (started(seed), 0);
        while !room.is_finished() {
            let Some(at) = room.next_deadline() else { break };
            now = now.max(at);
            room.tick(now, &mut out);
            let Some(partie) = room.game() else { continue };
            let m = partie.manche();
            let mille_bornes::Phase::Window { side, attack, .. } = m.phase() else { continue };
            if m.side_of(Seat(0)) != side || m.hand(Seat(0)).is_some_and(|h| h.get(attack.safety().card()) > 0) {
                continue;
            }
            let before = out.len();
            let call = ClientMsgOf::Timed {
                seq: 900,
                action: mille_bornes::Action::CoupFourre,
                shown_us: now.saturating_sub(50_000),
                input_us: now,
            };
            room.message(now, 1, call, &mut out);
            // Let the table judge it (its verdict may wait for the beats of the others).
            let until = now + 1_000_000;
            while room.next_deadline().is_some_and(|at| at <= until)
                && !out[before..]
                    .iter()
                    .any(|o| matches!(o, OutputOf::Send { msg: ServerMsgOf::ActRefused { .. }, .. }))
            {
                now = now.max(room.next_deadline().unwrap_or(until));
                room.tick(now, &mut out);
            }
            let refusals: Vec<_> = out[before..]
                .iter()
                .filter_map(|o| match o {
                    OutputOf::Send { conn, msg: ServerMsgOf::ActRefused { seq, error } } => {
                        Some((*conn, *seq, error.clone()))
                    }
                    _ => None,
                })
                .collect();
            assert!(
                matches!(refusals[..], [(1, 900, RuleError::SafetyNotHeld { .. })]),
                "seed {seed}: refused to that laptop alone: {refusals:?}"
            );
            let laid = journal(&out).iter().any(|e| {
                matches!(e, JournalEntryOf::Applied { seat: Seat(0), action: mille_bornes::Action::CoupFourre })
            });
            assert!(!laid, "nothing is laid for it");
            return;
        }
    }
    panic!("no window on the pilot's side without the safety in 39 games");
}
