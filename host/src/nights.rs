//! Whole nights of bots played on the room, as the room hands them to a laptop at the end
//! (`ServerMsg::Night`): for the tests and benchmarks of every face that reads a night.

use bolide_table::Game;
use bolide_table::wire::ServerMsgOf;

/// A championship of `races` races on the host's room, where Anne never acts (a stand-in plays
/// her) beside two host bots, to the end: the night's journal the room hands Anne's laptop.
/// For the tests and the replay's cost (`bolide-client`'s `examples/replay_cost.rs`).
pub fn night_of_bots(races: u8) -> String {
    use crate::games::bolide::{Room, RoomConfig};
    use bolide::TableOptions;
    use bolide::options::Settings;

    let options = TableOptions { races, ..TableOptions::default() };
    let settings = Settings { options, circuit: "cannes".into(), bots: 2, bot_level: Default::default() };
    let mut config = RoomConfig::new("GARE", settings, 42);
    (config.countdown_ms, config.bot_delay_ms, config.turn_timeout_ms) = (100, 20, 1_000);
    config.moment_timeout_ms = 500;
    night_of_the_room(Room::new(config, 7))
}

/// A game of 1000 Bornes of `hands` hands, Anne (who never acts) and three host bots, to the
/// end: the night the room hands Anne's laptop. For the tests.
pub fn mille_bornes_night_of_bots(hands: u8, seed: u64) -> String {
    use crate::room::{RoomConfigOf, RoomOf};
    use mille_bornes::options::GameMode;

    let game = mille_bornes::Settings { mode: GameMode::Hands { hands }, ..mille_bornes::Settings::default() };
    let lobby = mille_bornes::Lobby { game, bots: 3, bot_level: Default::default(), places: Vec::new() };
    let mut config = RoomConfigOf::new("GARE", lobby, seed);
    (config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) = (5, 20, 20);
    night_of_the_room(RoomOf::<mille_bornes::Partie>::new(config, 7))
}

/// A year of Entenrallye, Anne (who never acts: her stand-in plays) and three host bots, to
/// the end: the night the room hands Anne's laptop. For the tests.
pub fn entenrallye_night_of_bots(seed: u64) -> String {
    use crate::room::{RoomConfigOf, RoomOf};
    let lobby = entenrallye::Lobby { bots: 3, ..Default::default() };
    let mut config = RoomConfigOf::new("GARE", lobby, seed);
    (config.bot_delay_ms, config.turn_timeout_ms) = (5, 20);
    night_of_the_room(RoomOf::<entenrallye::Rallye>::new(config, 7))
}

/// Anne joins `room` and is ready; the room runs on its own timers to its end.
fn night_of_the_room<G: Game>(mut room: crate::room::RoomOf<G>) -> String {
    use crate::room::OutputOf;
    use bolide_table::wire::{BeatSchedule, ClientMsgOf, Hello};

    let mut out = Vec::new();
    let hello = Hello::new("gare", "Anne");
    room.hello(0, 1, hello, BeatSchedule::Steady, &mut out);
    room.message(0, 1, ClientMsgOf::Ready(true), &mut out);
    let mut now = 0;
    // Bounded: a room that stopped with no timer left hands over what it has (nothing).
    for _ in 0..1_000_000 {
        let Some(at) = room.next_deadline().filter(|_| !room.is_finished()) else { break };
        now = now.max(at);
        room.tick(now, &mut out);
    }
    out.iter()
        .filter_map(|o| match o {
            OutputOf::Send { conn: 1, msg: ServerMsgOf::Night { lines, .. } } => Some(lines.as_str()),
            _ => None,
        })
        .collect()
}
