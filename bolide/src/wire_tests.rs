//! The table's wire envelope read and written with Bolide's words.

use crate::model::MAX_PILOTS;
use crate::twin::Twin;
use crate::{Action, Pawn, RuleError};
use crate::{ClientMsg, Datagram, ServerMsg};
use bolide_table::Seat;
use bolide_table::colour::Colour;
use bolide_table::wire::*;

#[test]
fn the_door_and_the_clock_probes_read_the_same_for_any_game() {
    let token = SeatToken(7);
    let pairs: [(Door, ServerMsg); 3] = [
        (
            Door::Welcome {
                version: 3,
                seat: Some(Seat(2)),
                token: Some(token),
                room: "GARE".into(),
                beats: BeatSchedule::Steady,
                game: "bolide".into(),
            },
            ServerMsg::Welcome {
                version: 3,
                seat: Some(Seat(2)),
                token: Some(token),
                room: "GARE".into(),
                beats: BeatSchedule::Steady,
                game: "bolide".into(),
            },
        ),
        (Door::Pake { msg: vec![1, 2], proof: vec![3] }, ServerMsg::Pake { msg: vec![1, 2], proof: vec![3] }),
        (
            Door::Refused { reason: "full".into(), again: true },
            ServerMsg::Refused { reason: "full".into(), again: true },
        ),
    ];
    for (door, msg) in pairs {
        assert_eq!(encode(&door), encode(&msg));
        assert_eq!(decode::<Door>(&encode(&msg)[4..]).unwrap(), door);
    }
    let probes: [(ClockProbe, Datagram); 4] = [
        (ClockProbe::Ping { t0: 1 }, Datagram::Ping { t0: 1 }),
        (ClockProbe::Pong { t0: 1, t1: 2, t2: 3 }, Datagram::Pong { t0: 1, t1: 2, t2: 3 }),
        (ClockProbe::HostPing { t0: 9 }, Datagram::HostPing { t0: 9 }),
        (ClockProbe::ClientPong { t0: 1, t1: 2, t2: 3 }, Datagram::ClientPong { t0: 1, t1: 2, t2: 3 }),
    ];
    for (probe, datagram) in probes {
        assert_eq!(encode_probe(&probe), encode_datagram(&datagram));
        assert_eq!(decode_probe(&encode_datagram(&datagram)), Some(probe));
    }
    // What is not a probe is not taken for one.
    let beat = Datagram::Beat { now_us: 5, shown: None, acts: 0, dense: true };
    assert_eq!(decode_probe(&encode_datagram(&beat)), None);
}

#[test]
fn frames_round_trip_split_anywhere() {
    let msgs = vec![
        ClientMsg::Ready(true),
        ClientMsg::Act { seq: 7, action: Action::Move { tiles: 3 }, at_us: None },
        ClientMsg::Timed { seq: 8, action: Action::TakePawn { pawn: Pawn(2) }, shown_us: 1_000, input_us: 251_000 },
        ClientMsg::Timed { seq: 9, action: Action::KeepPawn, shown_us: 1_000, input_us: 401_000 },
        ClientMsg::PickColour(Colour::Vert),
    ];
    let bytes: Vec<u8> = msgs.iter().flat_map(encode).collect();
    for split in 0..bytes.len() {
        let mut dec = FrameDecoder::default();
        dec.push(&bytes[..split]);
        let mut got = Vec::new();
        while let Some(body) = dec.next_frame().unwrap() {
            got.push(decode::<ClientMsg>(&body).unwrap());
        }
        dec.push(&bytes[split..]);
        while let Some(body) = dec.next_frame().unwrap() {
            got.push(decode::<ClientMsg>(&body).unwrap());
        }
        assert_eq!(got, msgs);
    }
}

#[test]
fn a_path_is_judged_the_same_on_every_screen() {
    let p = |delay_ms, jitter_ms, silences| PathCheck { delay_ms, jitter_ms, silences, longest_silence_ms: 90 };
    assert_eq!(p(3, 1, 0).verdict(), PathVerdict::Good);
    assert_eq!(p(3, 1, 1).verdict(), PathVerdict::Good, "one silence in a minute is luck");
    assert_eq!(p(45, 2, 0).verdict(), PathVerdict::Slow);
    assert_eq!(p(8, 20, 0).verdict(), PathVerdict::Slow);
    assert_eq!(p(3, 1, 2).verdict(), PathVerdict::Drops, "twice is a Wi-Fi that goes quiet");
}

#[test]
fn oversized_frames_are_refused_from_their_prefix() {
    let mut dec = FrameDecoder::default();
    dec.push(&(MAX_FRAME as u32 + 1).to_le_bytes());
    assert_eq!(dec.next_frame(), Err(FrameError::TooLarge { len: MAX_FRAME + 1, limit: MAX_FRAME }));
}

#[test]
fn every_server_message_encodes_and_decodes() {
    use crate::{Atout, Atouts};
    let atouts: Atouts = [Atout::Nitro, Atout::Klaxon].into_iter().collect();
    let body = encode(&atouts);
    assert_eq!(decode::<Atouts>(&body[4..]).unwrap(), atouts);
    let msg = ServerMsg::ActRefused {
        seq: 3,
        error: RuleError::WrongPhase { action: Action::Roll, phase: "the grab".into() },
    };
    assert_eq!(decode::<ServerMsg>(&encode(&msg)[4..]).unwrap(), msg);
}

#[test]
fn fairness_33_the_longest_field_record_fits_one_frame() {
    let line = FieldLine { seq: u32::MAX, moment: u64::MAX, shown_us: u64::MAX, input_us: u64::MAX };
    let call = FieldCall { seq: u32::MAX, end_us: u64::MAX, at_us: u64::MAX };
    let msg =
        ClientMsg::FieldRecord(FieldTruth { lines: vec![line; MAX_FIELD_LINES], calls: vec![call; MAX_FIELD_LINES] });
    let frame = encode(&msg);
    assert!(frame.len() <= MAX_FRAME + 4, "{} bytes", frame.len());
    let mut dec = FrameDecoder::default();
    dec.push(&frame);
    let body = dec.next_frame().expect("a whole frame").expect("one frame");
    assert_eq!(decode::<ClientMsg>(&body).expect("decodes"), msg);
}

#[test]
fn datagrams_round_trip_and_fit_one_small_packet() {
    let all = [
        Datagram::Ping { t0: 1 },
        Datagram::Pong { t0: 1, t1: 2, t2: 3 },
        Datagram::HostPing { t0: u64::MAX },
        Datagram::ClientPong { t0: 1, t1: u64::MAX, t2: u64::MAX },
        Datagram::Beat {
            now_us: u64::MAX,
            shown: Some(Shown { moment: u64::MAX, at_us: u64::MAX }),
            acts: u32::MAX,
            dense: true,
        },
        Datagram::Timed {
            seq: u32::MAX,
            action: Action::TakePawn { pawn: Pawn(5) },
            shown_us: u64::MAX,
            input_us: u64::MAX,
        },
        Datagram::Timed {
            seq: u32::MAX,
            action: Action::Echange { with: Seat(5) },
            shown_us: u64::MAX,
            input_us: u64::MAX,
        },
        Datagram::Twin {
            show_at_us: Some(u64::MAX),
            twin: Twin::Reveal { race: 9, round: u16::MAX, values: vec![6; MAX_PILOTS] },
        },
        Datagram::Twin {
            show_at_us: Some(u64::MAX),
            twin: Twin::EchangeOpen {
                race: 9,
                round: u16::MAX,
                holders: vec![Some(Seat(5)); MAX_PILOTS],
                values: vec![6; MAX_PILOTS],
                deciding: u8::MAX,
            },
        },
    ];
    for d in all {
        let bytes = encode_datagram(&d);
        assert!(bytes.len() <= 64, "{d:?} takes {} bytes", bytes.len());
        assert_eq!(decode_datagram(&bytes), Ok(d));
    }
    assert!(decode_datagram::<crate::Bolide>(&[0xff, 0x00]).is_err());
}

#[test]
fn a_length_field_past_the_limit_is_refused_before_allocating() {
    // A `Hello` whose code string claims 2^40 bytes: 14 bytes on the wire.
    let mut body = vec![2u8]; // version 2
    body.push(253); // varint: a u64 follows
    body.extend_from_slice(&(1u64 << 40).to_le_bytes());
    body.extend_from_slice(b"ABCD");
    assert_eq!(body.len(), 14);
    assert!(matches!(decode::<Hello>(&body), Err(FrameError::Decode(_))));
    // A vector of a billion events in an update.
    let mut body = vec![3u8, 253];
    body.extend_from_slice(&1_000_000_000u64.to_le_bytes());
    assert!(decode::<ServerMsg>(&body).is_err());
}

#[test]
fn names_lose_control_and_bidi_characters_and_their_excess() {
    assert_eq!(clean_name("  Anne \n\t Marie "), "Anne Marie");
    assert_eq!(clean_name("Bob\u{202E}evil\u{0007}"), "Bobevil");
    assert_eq!(clean_name(&"x".repeat(40_000)).chars().count(), MAX_NAME_CHARS);
    assert_eq!(clean_name("\u{0000}\u{200F}"), "");
    // Invisible characters out: two names that look alike are the same name.
    assert_eq!(clean_name("An\u{200B}ne\u{2060}\u{FEFF}\u{00AD}"), "Anne");
    assert_eq!(clean_name("\u{3164}\u{200D}"), "");
    // Accents kept, a flood of combining marks cut to two on each letter.
    assert_eq!(clean_name("Zoe\u{0301}"), "Zoe\u{0301}");
    let zalgo = format!("Z{}o", "\u{0336}\u{0337}".repeat(50));
    assert_eq!(clean_name(&zalgo), "Z\u{0336}\u{0337}o");
}

#[test]
fn garbage_does_not_decode() {
    assert!(decode::<ClientMsg>(&[0xff, 0xff, 0xff, 0xff, 0x13]).is_err());
    assert!(decode::<Hello>(&[]).is_err());
}

#[test]
fn any_hello_reveals_its_version() {
    let hello = Hello { version: 0, ..Hello::new("ABCD", "x") };
    let frame = encode(&hello);
    assert_eq!(hello_version(&frame[4..]), Ok(0));
}
