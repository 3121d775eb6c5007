//! Entenrallye served by the same room as Bolide and 1000 Bornes (sans-I/O, synthetic
//! times), with no line of the table written for it: the lobby, seats, stand-in bots, time
//! limits, the journal and resume, and what each laptop is told of the others' hidden parts.

use bolide_host::room::{OutputOf, RoomConfigOf, RoomOf};
use bolide_table::{BotLevel, Seat};
use entenrallye::{Entenrallye, Event, Lobby, Rallye, Settings};

use crate::common::{self, events_to, journal, run};

/// A room of one pilot (Anne, connection 1) and three bots, started.
fn started(seed: u64) -> (RoomOf<Rallye>, Vec<Output>) {
    common::started::<Rallye>(config(seed), "ENTE")
}

type Output = OutputOf<Entenrallye>;

fn config(seed: u64) -> RoomConfigOf<Lobby> {
    let lobby = Lobby { settings: Settings::default(), bots: 3, bot_level: BotLevel::Strategic };
    let mut config = RoomConfigOf::new("ENTE", lobby, seed);
    (config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) = (5, 20, 20);
    config
}

/// A pilot who lets every time limit pass, and three bots: the stand-in plays Anne's turns,
/// and the year runs to its end with the standings the engine gives.
#[test]
fn e_13_1_a_whole_year_through_the_table_s_room() {
    let ((mut room, mut out), mut now) = (started(7), 0);
    assert!(room.game().is_some(), "one person ready and three bots: the game starts");
    run(&mut room, &mut now, &mut out, |_| false);
    let events = events_to(&out, 1);
    assert!(matches!(events.last(), Some(Event::GameEnded { .. })), "{:?}", events.last());
    assert!(events.iter().any(|e| matches!(e, Event::Judged { .. })), "nobody judged at a meeting all year?");
    // E-7.3: Anne's copy of another seat's purchase never names the part.
    let bought = |seat: Seat| events.iter().filter(move |e| matches!(e, Event::Bought { seat: s, .. } if *s == seat));
    assert!(bought(Seat(1)).chain(bought(Seat(2))).all(|e| matches!(e, Event::Bought { part: None, .. })));
    assert!(bought(Seat(0)).all(|e| matches!(e, Event::Bought { part: Some(_), .. })), "her own, she sees");
    let game = room.game().unwrap();
    assert!(game.standings().is_some());
}

/// `kill -9` in the middle of the year: the journal rebuilds the same game (the die and the
/// pile from the seed), and it goes on to its end.
#[test]
fn an_entenrallye_room_resumes_from_its_journal() {
    let ((mut room, mut out), mut now) = (started(11), 0);
    run(&mut room, &mut now, &mut out, |out| journal(out).len() > 80);
    let entries = journal(&out);
    let resumed = RoomOf::<Rallye>::resume(config(11), 2, &entries, now).expect("the journal replays");
    let (a, b) = (room.game().unwrap(), resumed.game().unwrap());
    assert_eq!(a.view(None), b.view(None), "the same table after the replay");
    assert_eq!(a.view(Some(Seat(2))), b.view(Some(Seat(2))), "the same hidden parts");
    let mut resumed = resumed;
    let mut out2 = Vec::new();
    run(&mut resumed, &mut now, &mut out2, |_| false);
    assert!(resumed.game().unwrap().standings().is_some(), "the resumed game reaches its end");
}
