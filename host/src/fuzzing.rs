//! What the fuzzers drive (`fuzz/`, `cargo +nightly fuzz run frames|room|door|head`), and what the
//! stable test `host/tests/fuzz_corpus.rs` replays from the committed corpora: the same
//! entry points, so a crash found by a fuzzer stays found on every machine.
//!
//! Both treat their input as hostile bytes from the wire and check what must hold whatever a
//! peer sends: nothing panics or aborts, a message that decodes encodes back to itself, and no
//! frame the room sends can outgrow the limit.

use crate::fair::Sample;
use crate::games::bolide::{Room, RoomConfig};
use crate::room::{ConnId, OutputOf, RoomConfigOf, RoomOf};
use bolide::options::Settings;
use bolide::{Action, BotLevel, Pawn, Seat, TableOptions};
use bolide::{ClientMsg, ServerMsg};
use bolide_table::Game;
use bolide_table::wire::{self, BeatSchedule, ClientMsgOf, FrameDecoder, Hello, MAX_FRAME};

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
    if let Ok(datagram) = wire::decode_datagram::<bolide::Bolide>(data) {
        assert_eq!(wire::decode_datagram(&wire::encode_datagram(&datagram)).ok(), Some(datagram));
    }
}

/// The door, fed a sequence of operations from sixteen addresses at hostile times: new
/// connections (validated or not) and their places given back, Knocks as strangers and as
/// seated laptops, exchanges that end proved or wrong — each byte pair an operation (its high
/// nibble also advances the clock by up to 1.5 s) and an address, as many as the first byte
/// says. Then the rest of the input read as Knocks and Proofs through the door's frame limit.
///
/// Whatever the order: no panic; never more places than the door has, in all and per address;
/// and never more guesses answered than the budgets allow — from one address, its burst and
/// rate since the start, and from all of them, the host's.
pub fn door(data: &[u8]) {
    use crate::net::door::{
        Admission, Doors, Knocker, Places, Ticket, WRONG_CODE_BURST, WRONG_CODE_HOST_BURST, WRONG_CODES_HOST_PER_S,
        WRONG_CODES_PER_S,
    };
    use std::net::IpAddr;
    use std::time::{Duration, Instant};
    let places = Places { pending: 8, per_address: 3, retry_past: 4, known_reserve: 2 };
    let t0 = Instant::now();
    let mut now = t0;
    let mut doors = Doors::new(t0);
    let ip = |b: u8| IpAddr::from([10, 0, 0, b & 15]);
    let mut held: Vec<IpAddr> = Vec::new();
    let mut tickets: Vec<(usize, Ticket)> = Vec::new();
    // Tries spent and not given back, from the host's budget and from each address's.
    let (mut host_out, mut address_out) = (0f64, [0f64; 16]);
    // The first byte: how many operations; the bytes after them are frames.
    let Some((&count, data)) = data.split_first() else { return };
    let ops = usize::from(count).min(data.len() / 2);
    for pair in data[..2 * ops].chunks_exact(2) {
        let (op, who) = (pair[0], pair[1]);
        now += Duration::from_millis(100 * u64::from(op >> 4));
        let (addr, i) = (ip(who), usize::from(who & 15));
        match op & 7 {
            0 | 1 => {
                if doors.admit(addr, op & 1 == 1, places) == Admission::Slot {
                    held.push(addr);
                }
            }
            2 => {
                if let Some(at) = held.iter().position(|h| *h == addr) {
                    held.swap_remove(at);
                    doors.release(addr);
                }
            }
            3 | 4 => {
                let knocker = if op & 7 == 3 { Knocker::Guest } else { Knocker::Seated };
                if let Ok(ticket) = doors.knock(addr, knocker, now) {
                    let (address, host) = ticket.spent();
                    assert!(knocker == Knocker::Guest || !(address || host), "a seated laptop spent a try");
                    address_out[i] += f64::from(u8::from(address));
                    host_out += f64::from(u8::from(host));
                    tickets.push((i, ticket));
                }
            }
            5 => {
                if let Some((i, ticket)) = tickets.pop() {
                    // A valid proof gives its tries back: they were no guesses.
                    let (address, host) = ticket.spent();
                    address_out[i] -= f64::from(u8::from(address));
                    host_out -= f64::from(u8::from(host));
                    doors.proved(ticket, now);
                }
            }
            6 => {
                if let Some((_, ticket)) = tickets.pop() {
                    doors.wrong(ticket, "fuzzed", now);
                }
            }
            _ => {
                let _ = doors.locked(now);
            }
        }
        let (pending, from) = doors.pending(addr);
        assert!(pending <= places.pending + places.known_reserve, "{pending} places held");
        assert!(from <= places.per_address, "{from} places held by one address");
        let secs = now.duration_since(t0).as_secs_f64();
        assert!(
            host_out <= WRONG_CODE_HOST_BURST + WRONG_CODES_HOST_PER_S * secs + 1e-6,
            "{host_out} guesses answered"
        );
        assert!(
            address_out[i] <= WRONG_CODE_BURST + WRONG_CODES_PER_S * secs + 1e-6,
            "{} from one address",
            address_out[i]
        );
    }
    // The rest: the door's frames.
    let rest = &data[2 * ops..];
    let mut decoder = FrameDecoder::with_limit(wire::DOOR_FRAME);
    decoder.push(rest);
    while let Ok(Some(body)) = decoder.next_frame() {
        if let Ok(knock) = wire::decode::<wire::Knock>(&body) {
            assert_eq!(wire::decode::<wire::Knock>(&wire::encode(&knock)[4..]).ok(), Some(knock));
        }
        if let Ok(proof) = wire::decode::<wire::Proof>(&body) {
            assert_eq!(wire::decode::<wire::Proof>(&wire::encode(&proof)[4..]).ok(), Some(proof));
        }
    }
    assert!(decoder.buffered() <= rest.len());
}

/// A room fed a sequence of operations from up to four connections: hellos (good and bad),
/// departures, time passing, arbitrary decoded messages, legal actions picked by index so
/// that whole games are reached — and what a modified laptop sends: clock answers with any
/// stamps and delays, beats with any `now`, `shown` and `acts`, timed requests and Klaxon
/// calls with extreme and wrapping times. Each byte pair is an operation: `op` (its high
/// nibble also advances the clock by up to 150 ms) and a connection; some take more bytes.
///
/// Besides no panic and no frame past the limit, the harness checks that nothing sent can
/// stall the table: at the end, with the laptops silent, the race leaves its current step
/// within [`STALL_BOUND_US`] of simulated time.
pub fn room(data: &[u8]) {
    let settings = Settings {
        options: TableOptions { races: 1, ..TableOptions::default() },
        circuit: "cannes".into(),
        bots: 1,
        bot_level: BotLevel::Random,
    };
    let mut config = RoomConfig::new("GARE", settings, 1);
    (config.countdown_ms, config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) = (50, 5, 300, 200);
    let mut room = Room::new(config, 1);
    let step = |room: &Room| {
        room.game().map(|c| format!("{} {} {:?}", c.race().race_no(), c.race().round(), c.race().phase()))
    };
    drive(&mut room, data, step, |room, op, conn, ops, now, seq| {
        match op {
            // A legal action of seat `conn - 1`, picked by the next byte.
            6 => {
                let [pick] = ops.take::<1>()?;
                let Some(race) = room.game().map(|c| c.race()) else { return Some(None) };
                let seat = Seat(conn as u8 - 1);
                if seat.0 >= race.pilots() {
                    return Some(None);
                }
                let legal = race.legal_actions(seat);
                let Some(&action) = legal.get(usize::from(pick) % legal.len().max(1)) else { return Some(None) };
                *seq += 1;
                let seq = *seq;
                Some(Some(match action {
                    Action::TakePawn { pawn } if race.phase() == bolide::game::Phase::Grab => ClientMsg::Timed {
                        seq,
                        action: Action::TakePawn { pawn },
                        shown_us: now.saturating_sub(200_000),
                        input_us: now,
                    },
                    action => ClientMsg::Act { seq, action, at_us: Some(now) },
                }))
            }
            // A timed request or a Klaxon call with chosen times, any pawn or seat.
            _ => {
                let (shown_us, input_us, [what, s]) = (ops.time(now)?, ops.time(now)?, ops.take::<2>()?);
                *seq = if s & 1 == 0 { seq.saturating_add(1) } else { u32::from(s) };
                let seq = *seq;
                Some(Some(match (op, what % 3) {
                    (9, 0) => ClientMsg::Timed {
                        seq,
                        action: Action::TakePawn { pawn: Pawn(what / 3 % 8) },
                        shown_us,
                        input_us,
                    },
                    (9, 1) => ClientMsg::Timed {
                        seq,
                        action: Action::Echange { with: Seat(what / 3 % 8) },
                        shown_us,
                        input_us,
                    },
                    (9, _) => ClientMsg::Timed { seq, action: Action::KeepPawn, shown_us, input_us },
                    _ => ClientMsg::Act { seq, action: Action::Klaxon, at_us: Some(input_us) },
                }))
            }
        }
    });
}

/// The same for a room of 1000 Bornes (four players, one of them the host's bot; or, when the
/// first byte's high bit is set, six in teams — drawn, or placed as the lobby's `places` say,
/// which an arbitrary `Configure` may set): its turns picked among the legal actions, and
/// Coup-Fourré calls — timed, untimed, from any seat, with any times — in and out of its windows.
pub fn room_mille_bornes(data: &[u8]) {
    use mille_bornes::options::TeamMaking;
    use mille_bornes::{Action, MilleBornes, Partie, Phase};
    let first = data.first().copied().unwrap_or(0);
    let teams = if first & 0x40 != 0 { TeamMaking::Random } else { TeamMaking::HostAssigns };
    let game = mille_bornes::Settings { window_ms: 2000, teams, ..mille_bornes::Settings::default() };
    let (bots, places) = if first & 0x80 != 0 { (3, vec![0, 3, 2, 1, 5, 4]) } else { (1, Vec::new()) };
    let lobby = mille_bornes::Lobby { game, bots, bot_level: BotLevel::Random, places };
    let mut config = RoomConfigOf::new("GARE", lobby, 1);
    (config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) = (5, 300, 200);
    let mut room = RoomOf::<Partie>::new(config, 1);
    let step = |room: &RoomOf<Partie>| {
        room.game().map(|p| format!("{} {} {:?}", p.manche().number(), p.manche().attacks(), p.manche().phase()))
    };
    drive(&mut room, data, step, |room, op, conn, ops, now, seq| {
        let Some(partie) = room.game() else { return Some(None) };
        let seat = Seat(conn as u8 - 1);
        *seq += 1;
        let seq = *seq;
        let window = matches!(partie.manche().phase(), Phase::Window { .. });
        match op {
            // A legal action of this seat, picked by the next byte; a call as a timed request.
            6 => {
                let [pick] = ops.take::<1>()?;
                let legal = partie.legal_actions(seat);
                let Some(&action) = legal.get(usize::from(pick) % legal.len().max(1)) else { return Some(None) };
                Some(Some(match action {
                    Action::CoupFourre => ClientMsgOf::<MilleBornes>::Timed {
                        seq,
                        action,
                        shown_us: now.saturating_sub(300_000),
                        input_us: now,
                    },
                    action => ClientMsgOf::Act { seq, action, at_us: Some(now) },
                }))
            }
            // A call with chosen times, timed or not, whoever holds the safety.
            _ => {
                let (shown_us, input_us, [what]) = (ops.time(now)?, ops.time(now)?, ops.take::<1>()?);
                let action = if what & 1 == 0 || !window {
                    Action::CoupFourre
                } else {
                    Action::Discard { card: mille_bornes::Card::D25 }
                };
                Some(Some(match op {
                    9 => ClientMsgOf::Timed { seq, action, shown_us, input_us },
                    _ => ClientMsgOf::Act { seq, action, at_us: Some(input_us) },
                }))
            }
        }
    });
}

/// The same for a room of Entenrallye (three players, one of them the host's bot): its turns
/// picked among the legal actions, and actions built from the fuzzer's bytes — any square,
/// distance, part or seat, timed or not, from any seat, in any phase.
pub fn room_entenrallye(data: &[u8]) {
    use entenrallye::{Action, Entenrallye, Part, Rallye, Square};
    let lobby = entenrallye::Lobby { bots: 1, bot_level: BotLevel::Random, ..Default::default() };
    let mut config = RoomConfigOf::new("GARE", lobby, 1);
    (config.bot_delay_ms, config.turn_timeout_ms) = (5, 300);
    let mut room = RoomOf::<Rallye>::new(config, 1);
    let step =
        |room: &RoomOf<Rallye>| room.game().map(|g| format!("{} {:?} {:?}", g.calendar().time, g.turn(), g.phase()));
    drive(&mut room, data, step, |room, op, conn, ops, now, seq| {
        let Some(game) = room.game() else { return Some(None) };
        let seat = Seat(conn as u8 - 1);
        *seq += 1;
        let seq = *seq;
        let action = match op {
            // A legal action of this seat, picked by the next byte.
            6 => {
                let [pick] = ops.take::<1>()?;
                let mut legal = Vec::new();
                game.legal_into(seat, &mut legal);
                let Some(&action) = legal.get(usize::from(pick) % legal.len().max(1)) else { return Some(None) };
                action
            }
            // Anything the wire can carry.
            _ => {
                let [kind, a, b, c] = ops.take::<4>()?;
                match kind % 7 {
                    0 => Action::Roll,
                    1 => Action::Drive { to: Square(a), squares: b, buy: c & 1 == 1, repair: c >> 1 },
                    2 => Action::Fit { part: Part(a) },
                    3 => Action::Steal { from: Seat(a) },
                    4 => Action::Exchange { with: Seat(a), give: Part(b) },
                    5 => Action::Keep { parts: [Some(Part(a)).filter(|_| b & 1 == 0), Some(Part(c))] },
                    _ => Action::EndTurn,
                }
            }
        };
        Some(Some(match op {
            9 => ClientMsgOf::<Entenrallye>::Timed { seq, action, shown_us: now.saturating_sub(1000), input_us: now },
            _ => ClientMsgOf::Act { seq, action, at_us: Some(now) },
        }))
    });
}

/// What a game's operation gives: `None` the input ran out, `Some(None)` nothing to send.
type Sent<G> = Option<Option<ClientMsgOf<<G as Game>::Words>>>;

/// Drives `room` by the fuzzer's bytes: the table's operations here (hellos, departures,
/// time, readiness, arbitrary messages, clock answers, beats), the game's own (6: a legal
/// action; 9, 10: timed requests and calls) from `game`; then checks that nothing stalls
/// (`step` names the step the game is in).
fn drive<G: Game>(
    room: &mut RoomOf<G>,
    data: &[u8],
    step: impl Fn(&RoomOf<G>) -> Option<String>,
    mut game: impl FnMut(&RoomOf<G>, u8, ConnId, &mut Bytes, u64, &mut u32) -> Sent<G>,
) {
    let mut out = Vec::new();
    let (mut now, mut seq) = (0u64, 0u32);
    let mut ops = Bytes(data);
    while let Some([op, conn_byte]) = ops.take::<2>() {
        let conn: ConnId = u64::from(conn_byte % 4) + 1;
        now += u64::from(op >> 4) * 10_000;
        match op % 11 {
            0 => {
                let hello = Hello {
                    // The connection byte's high bit: a laptop that only watches.
                    watch: conn_byte & 0x80 != 0,
                    // Its next bit: a laptop that claims a frame lead no screen has.
                    frame_lead_us: if conn_byte & 0x40 != 0 { u32::MAX } else { 0 },
                    ..Hello::new("gare", &format!("P{conn}"))
                };
                // The bit no other use reads: either schedule the server may ask for.
                let beats = if op & 8 == 0 { BeatSchedule::Steady } else { BeatSchedule::WhileActing };
                room.hello(now, conn, hello, beats, &mut out);
                // Its part of the luck, as every laptop's core sends it once it has seen the
                // lobby (a spectator's is ignored; a seat's first is kept).
                room.message(now, conn, ClientMsgOf::Contribute([conn_byte; 32]), &mut out);
            }
            1 => room.gone(now, conn, &mut out),
            2 => room.tick(now, &mut out),
            3 => {
                if let Some(at) = room.next_deadline() {
                    now = now.max(at);
                    room.tick(now, &mut out);
                }
            }
            4 => room.message(now, conn, ClientMsgOf::Ready(true), &mut out),
            5 => {
                // An arbitrary message: a length byte, then that many bytes to decode.
                let Some([len]) = ops.take::<1>() else { break };
                let body = ops.take_up_to(usize::from(len));
                if let Ok(msg) = wire::decode::<ClientMsgOf<G::Words>>(body) {
                    room.message(now, conn, msg, &mut out);
                }
            }
            7 => {
                // A clock answer: the probe left `delay` ago, stamped anything by the laptop.
                let (Some([d]), Some(t1), Some(t2)) = (ops.take::<1>(), ops.time(now), ops.time(now)) else { break };
                let t0 = now.saturating_sub(u64::from(d) * 1_000);
                room.probe(conn, Sample::from_probe(t0, t1, t2, now));
            }
            8 => {
                // A beat with any time, any count of actions, naming the open moment or not.
                let (Some(now_us), Some([acts, named])) = (ops.time(now), ops.take::<2>()) else { break };
                let acts = match acts {
                    0..=15 => u32::from(acts),
                    16..=127 => seq.saturating_add(u32::from(acts & 3)),
                    _ => u32::MAX - u32::from(acts & 1),
                };
                let shown = room.open_moment_shown().filter(|_| named & 1 == 0).map(|mut s| {
                    s.at_us = now_us.wrapping_sub(u64::from(named) * 1_000);
                    s
                });
                room.message(
                    now,
                    conn,
                    ClientMsgOf::Heartbeat { now_us, shown, acts, dense: named & 2 == 0 },
                    &mut out,
                );
            }
            op => match game(room, op, conn, &mut ops, now, &mut seq) {
                None => break,
                Some(None) => {}
                Some(Some(msg)) => room.message(now, conn, msg, &mut out),
            },
        }
        check_frames::<G>(&mut out);
    }
    assert_no_stall(room, now, &mut out, step);
}

/// How long, in simulated time, a game may stay in one step once the laptops are silent: the
/// harness's time limits are 50–300 ms, a cut-off 250 ms plus the slowest path (at most
/// `MAX_OWD_US`), a moment opens at most 500 ms after it is decided, and a Coup-Fourré window
/// lasts 2 s.
pub const STALL_BOUND_US: u64 = 5_000_000;

/// The room, left to its timers, leaves the step it is in within [`STALL_BOUND_US`].
fn assert_no_stall<G: Game>(
    room: &mut RoomOf<G>,
    mut now: u64,
    out: &mut Vec<OutputOf<G::Words>>,
    step: impl Fn(&RoomOf<G>) -> Option<String>,
) {
    let Some(start) = step(room) else { return };
    if room.is_finished() {
        return;
    }
    let until = now.saturating_add(STALL_BOUND_US);
    while step(room).as_ref() == Some(&start) {
        let Some(at) = room.next_deadline() else { panic!("a stalled room: no timer left in {start}") };
        now = now.max(at);
        assert!(now <= until, "a stalled room: still in {start} after {} s", STALL_BOUND_US / 1_000_000);
        room.tick(now, out);
        check_frames::<G>(out);
    }
}

/// No frame the room sends may outgrow the limit.
fn check_frames<G: Game>(out: &mut Vec<OutputOf<G::Words>>) {
    for o in out.drain(..) {
        if let OutputOf::Send { msg, .. } | OutputOf::SendAt { msg, .. } = &o {
            let len = wire::encode(msg).len() - 4;
            assert!(len <= MAX_FRAME, "a {len}-byte frame: {msg:?}");
        }
    }
}

/// The fuzzer's bytes, read from the front.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }

    fn take_up_to(&mut self, n: usize) -> &[u8] {
        let (head, rest) = self.0.split_at(n.min(self.0.len()));
        self.0 = rest;
        head
    }

    /// A time a modified laptop might claim: near `now` (either side), an extreme, or any.
    fn time(&mut self, now: u64) -> Option<u64> {
        let [kind, a, b] = self.take::<3>()?;
        let near = u64::from(u16::from_le_bytes([a, b])) * 100;
        Some(match kind % 6 {
            0 => now.saturating_sub(near),
            1 => now.saturating_add(near),
            2 => 0,
            3 => u64::MAX - near,
            4 => 1 << (near % 64),
            _ => u64::from_le_bytes(self.take::<8>()?),
        })
    }
}

/// A fuzz harness: hostile bytes in, a panic for what must not happen.
pub type Harness = fn(&[u8]);

/// The browser door's request heads: any bytes, cut into reads of any size
/// (`net::web::fuzz_head`, parsed by httparse).
pub fn head(data: &[u8]) {
    crate::net::web::fuzz_head(data);
}

/// The inputs a fuzzer kept for `target` (`fuzz/corpus/TARGET` of this repository, never a
/// path from elsewhere), sorted by name.
pub fn corpus(target: &str) -> std::io::Result<Vec<(std::path::PathBuf, Vec<u8>)>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target);
    let mut inputs = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(|e| std::io::Error::other(format!("{}: {e}", dir.display())))? {
        let path = entry?.path();
        let data = std::fs::read(&path)?;
        inputs.push((path, data));
    }
    inputs.sort();
    Ok(inputs)
}

/// `runs` mutations of `inputs` through `harness` from `seed`, as libFuzzer mutates (bytes
/// flipped, inserted, removed, spliced from another input) but without coverage guidance: the
/// stable fuzzing run of every `cargo test` and of the `fuzz_stable` example. The input that
/// panicked, if one did.
pub fn mutate(
    inputs: &[(std::path::PathBuf, Vec<u8>)],
    harness: Harness,
    runs: usize,
    seed: u64,
) -> Result<(), Vec<u8>> {
    use rand::{RngExt, SeedableRng};
    if inputs.is_empty() {
        return Ok(());
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..runs {
        let mut data = inputs[rng.random_range(0..inputs.len())].1.clone();
        for _ in 0..rng.random_range(1..=4) {
            let at = rng.random_range(0..=data.len());
            match rng.random_range(0..4) {
                0 if at < data.len() => data[at] ^= 1 << rng.random_range(0..8),
                1 => data.insert(at, rng.random()),
                2 if at < data.len() => {
                    data.drain(at..(at + rng.random_range(1..=8)).min(data.len()));
                }
                _ => {
                    let other = &inputs[rng.random_range(0..inputs.len())].1;
                    let from = rng.random_range(0..=other.len());
                    let piece = &other[from..(from + rng.random_range(0..=32)).min(other.len())];
                    data.splice(at..at, piece.iter().copied());
                }
            }
        }
        if std::panic::catch_unwind(|| harness(&data)).is_err() {
            return Err(data);
        }
    }
    Ok(())
}

/// Real host traffic to mutate: what a room sent the first of three laptops through a short
/// championship against a bot — welcome, lobbies, every update, the moments' datagram twins —
/// as `bolide_client::fuzzing::host_bytes` reads them.
pub fn client_seeds() -> Vec<Vec<u8>> {
    use crate::games::bolide::Output;
    let settings = Settings {
        options: TableOptions { races: 1, ..TableOptions::default() },
        circuit: "cannes".into(),
        bots: 1,
        bot_level: Default::default(),
    };
    let mut config = RoomConfig::new("GARE", settings, 3);
    (config.countdown_ms, config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) = (50, 5, 100, 100);
    let mut room = Room::new(config, 3);
    let mut out = Vec::new();
    for conn in 1..=2 {
        let hello = Hello::new("gare", &format!("P{conn}"));
        room.hello(0, conn, hello, BeatSchedule::Steady, &mut out);
        room.message(0, conn, ClientMsg::Ready(true), &mut out);
    }
    let mut now = 0;
    let mut records = Vec::new();
    let mut ticks = 0;
    while !room.is_finished() && ticks < 100_000 {
        ticks += 1;
        let Some(at) = room.next_deadline() else { break };
        now = now.max(at);
        room.tick(now, &mut out);
        for o in out.drain(..) {
            let (kind, bytes) = match o {
                Output::Send { conn: 1, msg } | Output::SendAt { conn: 1, msg, .. } => (0x10, wire::encode(&msg)),
                Output::DatagramAt { conn: 1, datagram, .. } => (0x11, wire::encode_datagram(&datagram)),
                _ => continue,
            };
            let Ok(len) = u16::try_from(bytes.len()) else { continue };
            records.push([&[kind][..], &len.to_le_bytes(), &bytes].concat());
        }
    }
    // Inputs of a few records each, along the championship.
    records.chunks(6).map(|c| [&[0u8][..], &c.concat()].concat()).collect()
}
