//! What the fuzzers drive (`fuzz/`, `cargo +nightly fuzz run frames|room`), and what the
//! stable test `host/tests/fuzz_corpus.rs` replays from the committed corpora: the same
//! entry points, so a crash found by a fuzzer stays found on every machine.
//!
//! Both treat their input as hostile bytes from the wire and check what must hold whatever a
//! peer sends: nothing panics or aborts, a message that decodes encodes back to itself, and no
//! frame the room sends can outgrow the limit.

use crate::room::{ConnId, Output, Room, RoomConfig};
use bolide_protocol::wire::{
    self, BeatSchedule, ClientMsg, FrameDecoder, Hello, MAX_FRAME, PROTOCOL_VERSION, ServerMsg, Settings,
};
use bolide_protocol::{Action, BotLevel, Seat, TableOptions};

/// The host's reading of one connection, and the client's: length-prefixed frames, the hello
/// first, then client messages; a server message's view goes through the client's check.
pub fn frames(data: &[u8]) {
    let mut decoder = FrameDecoder::default();
    // Fed in two pieces, as packets split a stream anywhere.
    let cut = data.first().map_or(0, |b| usize::from(*b)).min(data.len());
    decoder.push(&data[..cut]);
    let mut first = true;
    loop {
        let body = match decoder.next_frame() {
            Ok(Some(body)) => body,
            Ok(None) if cut < data.len() && first => {
                decoder.push(&data[cut..]);
                first = false;
                continue;
            }
            Ok(None) | Err(_) => break,
        };
        first = false;
        if let Ok(hello) = wire::decode::<Hello>(&body) {
            assert_eq!(wire::decode::<Hello>(&wire::encode(&hello)[4..]).ok(), Some(hello));
        }
        if let Ok(msg) = wire::decode::<ClientMsg>(&body) {
            assert_eq!(wire::decode::<ClientMsg>(&wire::encode(&msg)[4..]).ok(), Some(msg));
        }
        if let Ok(ServerMsg::Update { view, .. }) = wire::decode::<ServerMsg>(&body) {
            let _ = view.check();
        }
    }
    if let Ok(datagram) = wire::decode_datagram(data) {
        assert_eq!(wire::decode_datagram(&wire::encode_datagram(&datagram)).ok(), Some(datagram));
    }
}

/// A room fed a sequence of operations from up to four connections: hellos (good and bad),
/// departures, time passing, arbitrary decoded messages, and legal actions picked by index so
/// that whole games are reached. Each byte pair is an operation: `op` (its high nibble also
/// advances the clock by up to 150 ms) and a connection.
pub fn room(data: &[u8]) {
    let settings = Settings {
        options: TableOptions { races: 1, ..TableOptions::default() },
        circuit: "cannes".into(),
        bots: 1,
        bot_level: BotLevel::Random,
    };
    let mut config = RoomConfig::new("GARE", settings, 1);
    (config.lift_delay_ms, config.bot_delay_ms, config.turn_timeout_ms, config.grab_timeout_ms) = (50, 5, 300, 200);
    let mut room = Room::new(config, 1);
    let mut out = Vec::new();
    let (mut now, mut seq) = (0u64, 0u32);
    let mut ops = data;
    while let [op, conn, rest @ ..] = ops {
        ops = rest;
        let conn: ConnId = u64::from(conn % 4) + 1;
        now += u64::from(op >> 4) * 10_000;
        match op % 8 {
            0 => {
                let hello = Hello {
                    version: PROTOCOL_VERSION,
                    code: "gare".into(),
                    name: format!("P{conn}"),
                    seat_token: None,
                };
                // The bit no other use reads: either schedule the server may ask for.
                let beats = if op & 8 == 0 { BeatSchedule::Steady } else { BeatSchedule::WhileActing };
                room.hello(now, conn, hello, beats, &mut out);
            }
            1 => room.gone(now, conn, &mut out),
            2 => room.tick(now, &mut out),
            3 => {
                if let Some(at) = room.next_deadline() {
                    now = now.max(at);
                    room.tick(now, &mut out);
                }
            }
            4 => room.message(now, conn, ClientMsg::Ready(true), &mut out),
            5 => {
                // An arbitrary message: a length byte, then that many bytes to decode.
                let Some((&len, body)) = ops.split_first() else { break };
                let n = usize::from(len).min(body.len());
                if let Ok(msg) = wire::decode::<ClientMsg>(&body[..n]) {
                    room.message(now, conn, msg, &mut out);
                }
                ops = &body[n..];
            }
            _ => {
                // A legal action of seat `conn - 1`, picked by the next byte.
                let Some((&pick, rest)) = ops.split_first() else { break };
                ops = rest;
                let Some(race) = room.championship().map(|c| c.race()) else { continue };
                let seat = Seat(conn as u8 - 1);
                if seat.0 >= race.pilots() {
                    continue;
                }
                let legal = race.legal_actions(seat);
                let Some(&action) = legal.get(usize::from(pick) % legal.len().max(1)) else { continue };
                seq += 1;
                let msg = match action {
                    Action::TakePawn { pawn } if race.phase() == crate::game::Phase::Grab => {
                        ClientMsg::Grab { seq, pawn, shown_us: now.saturating_sub(200_000), input_us: now }
                    }
                    action => ClientMsg::Act { seq, action, at_us: Some(now) },
                };
                room.message(now, conn, msg, &mut out);
            }
        }
        for o in out.drain(..) {
            if let Output::Send { msg, .. } | Output::SendAt { msg, .. } = &o {
                let len = wire::encode(msg).len() - 4;
                assert!(len <= MAX_FRAME, "a {len}-byte frame: {msg:?}");
            }
        }
    }
}
