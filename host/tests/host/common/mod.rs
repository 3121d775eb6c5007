//! What the sans-I/O room tests of every game share: a pilot seated and ready, the room's
//! clock run as the network layer would, and what it wrote and sent.

use bolide_host::room::{JournalEntryOf, LobbyOf, OutputOf, RoomConfigOf, RoomOf};
use bolide_table::Game;
use bolide_table::wire::{BeatSchedule, ClientMsgOf, Hello, ServerMsgOf};

/// A room of one pilot (Anne, connection 1) who is ready, and the seats its lobby gives bots.
pub fn started<G: Game>(config: RoomConfigOf<LobbyOf<G>>, code: &str) -> (RoomOf<G>, Vec<OutputOf<G::Words>>) {
    let mut room = RoomOf::<G>::new(config, 1);
    let mut out = Vec::new();
    let hello = Hello::new(code, "Anne");
    room.hello(0, 1, hello, BeatSchedule::WhileActing, &mut out);
    room.message(0, 1, ClientMsgOf::Ready(true), &mut out);
    (room, out)
}

/// Runs the room's clock until the game is over (or `stop` says so), as the network layer
/// would: every deadline, in order.
pub fn run<G: Game>(
    room: &mut RoomOf<G>,
    now: &mut u64,
    out: &mut Vec<OutputOf<G::Words>>,
    stop: impl Fn(&[OutputOf<G::Words>]) -> bool,
) {
    while !room.is_finished() && !stop(out) {
        let at = room.next_deadline().expect("a room that is not finished waits for something");
        assert!(at < *now + 60_000_000, "nothing happened for a minute at {now} µs");
        *now = (*now).max(at);
        room.tick(*now, out);
    }
}

/// The journal the room wrote.
pub fn journal<W: bolide_table::Words>(out: &[OutputOf<W>]) -> Vec<JournalEntryOf<W>> {
    out.iter()
        .filter_map(|o| match o {
            OutputOf::Journal(entry) => Some(entry.clone()),
            _ => None,
        })
        .collect()
}

/// Every event connection `conn` was sent, in order.
pub fn events_to<W: bolide_table::Words>(out: &[OutputOf<W>], conn: u64) -> Vec<W::Event> {
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
