//! What the client-side fuzzers drive: bytes from a host (a hostile one, or a stranger posing
//! as one) into the client core, as a laptop reads them — frames off the stream and
//! datagrams — with the clock moving. `client/tests/client/fuzz_client.rs` replays mutations of real
//! host traffic on stable in every `cargo test`; `cargo run --release -p bolide-client
//! --example fuzz-client -- RUNS` runs as many as asked and prints the count.
//!
//! What must hold whatever the host sends: nothing panics; the seat the core keeps is one the
//! view has; every legal action names what the view has; names and reasons are short and
//! clean; the text faces render every view and event; and each game's bots — `bolide-bot`'s,
//! at either level — decide on every view and legal list the core lets through. The same for
//! all three games ([`game_bytes`], [`mutate_game`]), Bolide's with its text faces.

use crate::bot::BotGame;
use crate::games::bolide::ClientState;
use crate::state::ClientStateOf;
use bolide::Seat;
use bolide::ServerMsg;
use bolide_table::wire::{self, BeatSchedule, FrameDecoder, MAX_NAME_CHARS, MAX_REASON_CHARS};

/// One input: a seat byte for the welcome, then records of `kind, len_lo, len_hi, bytes…`:
/// stream bytes (split anywhere) or one datagram; the kind byte's high nibble moves the clock.
pub fn host_bytes(data: &[u8]) {
    feed::<bolide::Bolide>(data, check);
}

/// Feeds `data`'s records to a laptop's client core of a `W` table; `then` sees each message
/// the core let through, with the core and the clock.
fn feed<W: BotGame>(data: &[u8], mut then: impl FnMut(&mut ClientStateOf<W>, &wire::ServerMsgOf<W>, u64)) {
    let Some((&seat, mut rest)) = data.split_first() else { return };
    let mut state = ClientStateOf::<W>::default();
    state.welcome((seat < 16).then_some(Seat(seat)), None, BeatSchedule::Steady);
    let mut decoder = FrameDecoder::default();
    let mut now = 1_000_000u64;
    while let [kind, lo, hi, tail @ ..] = rest {
        let n = usize::from(u16::from_le_bytes([*lo, *hi])).min(tail.len());
        let (bytes, after) = tail.split_at(n);
        rest = after;
        now += u64::from(kind >> 4) * 7_000;
        if kind & 1 == 0 {
            decoder.push(bytes);
            loop {
                match decoder.next_frame() {
                    Ok(Some(body)) => {
                        if let Ok(msg) = wire::decode::<wire::ServerMsgOf<W>>(&body)
                            && let Ok(shown) = state.on_message(msg, now)
                        {
                            then(&mut state, &shown, now);
                        }
                    }
                    Ok(None) => break,
                    // A host that breaks framing loses the link: start a new one.
                    Err(_) => {
                        decoder = FrameDecoder::default();
                        break;
                    }
                }
            }
        } else if let Ok(datagram) = wire::decode_datagram::<W>(bytes)
            && let Some(shown) = state.on_twin(datagram, now)
        {
            then(&mut state, &shown, now);
        }
    }
}

/// What a face does with a message, and what must hold after it.
fn check(state: &mut ClientState, msg: &ServerMsg, now: u64) {
    let m = &state.mirror;
    if let Some(view) = &m.view {
        if let Some(seat) = m.seat {
            assert!(seat.index() < view.cars.len(), "seat {seat:?} past {} cars", view.cars.len());
        }
        for action in &m.legal {
            assert!(view.check_action(action).is_ok(), "{action:?} offered");
        }
        let names: Vec<String> = (0..view.cars.len()).map(|i| m.name(Seat(i as u8))).collect();
        for lang in crate::lang::Lang::ALL {
            let _ = crate::text::board(view, &names, lang.words());
            for event in &m.events {
                let _ = crate::text::describe(event, &names, lang.words());
            }
        }
    }
    if let Some(lobby) = &m.lobby {
        assert!(lobby.seats.iter().all(|s| s.name.chars().count() <= MAX_NAME_CHARS));
    }
    if let Some(refusal) = &m.refusal {
        assert!(refusal.chars().count() <= MAX_REASON_CHARS + 1, "{} chars", refusal.chars().count());
        assert!(!refusal.chars().any(char::is_control));
    }
    if let ServerMsg::Refused { reason, .. } = msg {
        assert!(reason.chars().count() <= MAX_REASON_CHARS + 1 && !reason.chars().any(char::is_control));
    }
    faces(state, now);
}

/// What every face of any game does with a message the core let through: the bots decide on
/// the view and legal list (at both levels), then the face shows the moment, beats and takes a
/// legal action, timed or not.
fn faces<W: BotGame>(state: &mut ClientStateOf<W>, now: u64) {
    use rand::SeedableRng;
    let m = &state.mirror;
    if let Some(view) = &m.view
        && !m.legal.is_empty()
    {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(now);
        for level in [bolide_table::BotLevel::Random, bolide_table::BotLevel::Strategic] {
            // Whatever it picks, the host checks; what must hold here is that it picks at all.
            let _ = W::decide(view, &m.legal, level, &mut rng);
        }
        let _ = W::decision(view, &m.legal);
    }
    let m = &state.mirror;
    if let Some(moment) = m.scheduled {
        state.show(moment);
    }
    let _ = state.shown(now);
    let _ = state.competing();
    if state.beat_due().is_some() {
        let _ = state.beat(now, now);
    }
    if let Some(&action) = state.mirror.legal.first() {
        let timed = state.mirror.scheduled.is_some();
        if timed {
            let shown = state.shown_for(now);
            let _ = state.timed(action, shown, now);
        } else {
            let _ = state.act(action, now);
        }
    }
}

/// `runs` mutations of `seeds` — real host traffic as [`host_bytes`] records it, which the
/// host makes (`bolide_host::fuzzing::client_seeds`: a room drives a short championship) —
/// through [`host_bytes`], from `seed`: bytes flipped, inserted, removed, and records spliced in
/// from elsewhere in the championship.
pub fn mutate(seeds: &[Vec<u8>], runs: u64, seed: u64) -> u64 {
    mutate_with(seeds, host_bytes, runs, seed)
}

/// [`host_bytes`] for a table of any game: the same records, read in `W`'s words, through the
/// client core and what every face and bot does with each message.
pub fn game_bytes<W: BotGame>(data: &[u8]) {
    feed::<W>(data, |state, _, now| faces(state, now));
}

/// Real traffic of a whole game of `G` between strategic bots as seat 0's laptop gets it — one
/// update per action, its events as seat 0 may see them, its view and legal list — as
/// [`game_bytes`] records, a few updates an input.
pub fn game_seeds<G: bolide_table::Game>(players: u8, seed: u64) -> Vec<Vec<u8>> {
    use rand::SeedableRng;
    let viewer = Seat(0);
    let mut events = Vec::new();
    let Ok(mut game) = G::start(&G::Settings::default(), players, seed, &mut events) else { return Vec::new() };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut scratch, mut records) = (Vec::new(), Vec::new());
    let levels = vec![bolide_table::BotLevel::Strategic; usize::from(players)];
    for _ in 0..5_000 {
        let mut legal = Vec::new();
        game.offered(viewer, &mut legal);
        let msg = wire::ServerMsgOf::<G::Words>::Update {
            events: events.drain(..).map(|e| game.event_for(&e, Some(viewer))).collect(),
            view: Box::new(game.view(Some(viewer))),
            legal,
            deadline_ms: None,
            awaited: None,
            show_at_us: None,
            countdown_end_us: None,
        };
        let bytes = wire::encode(&msg);
        if let Ok(len) = u16::try_from(bytes.len()) {
            records.push([&[0x10u8][..], &len.to_le_bytes(), &bytes].concat());
        }
        match bolide_table::drive::step(&mut game, &levels, &mut rng, &mut events, &mut scratch) {
            Ok(Some(_)) => {}
            _ => break,
        }
    }
    records.chunks(4).map(|c| [&[0u8][..], &c.concat()].concat()).collect()
}

/// `runs` mutations of `inputs` through `harness`, from `seed`, as [`mutate`] makes them.
pub fn mutate_with(inputs: &[Vec<u8>], harness: fn(&[u8]), runs: u64, seed: u64) -> u64 {
    use rand::{RngExt, SeedableRng};
    if inputs.is_empty() {
        return 0;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..runs {
        let mut data = inputs[rng.random_range(0..inputs.len())].clone();
        for _ in 0..rng.random_range(1..=6) {
            let at = rng.random_range(0..=data.len());
            match rng.random_range(0..5) {
                0 if at < data.len() => data[at] ^= 1 << rng.random_range(0..8),
                1 => data.insert(at, rng.random()),
                2 if at < data.len() => {
                    data.drain(at..(at + rng.random_range(1..=8)).min(data.len()));
                }
                3 if at < data.len() => data[at] = [0, 1, 5, 6, 7, 0x7f, 0x80, 0xff][rng.random_range(0..8)],
                _ => {
                    let other = &inputs[rng.random_range(0..inputs.len())];
                    let from = rng.random_range(0..=other.len());
                    let to = (from + rng.random_range(0..64)).min(other.len());
                    data.splice(at..at, other[from..to].iter().copied());
                }
            }
        }
        harness(&data);
    }
    runs
}

/// `runs` mutations of a whole game of `G`'s traffic (four players) through [`game_bytes`].
pub fn mutate_game<G: bolide_table::Game>(runs: u64, seed: u64) -> u64
where
    G::Words: BotGame,
{
    mutate_with(&game_seeds::<G>(4, seed), game_bytes::<G::Words>, runs, seed)
}
