//! What a stranger on the same Wi-Fi may try, each case bounded in time: the host closes the
//! offending connection with a reason and the game goes on for everyone else.

use bolide::{ClientMsg, ServerMsg};
use bolide_client::games::bolide::Session;
use bolide_client::net::ClientError;
use bolide_table::wire::{PROTOCOL_VERSION, close};
use bolide_tests::{closed_with, host, quick_room, raw_connection, spoof_initials};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// A session that has been welcomed: the host is alive and serving.
async fn host_still_serves(addr: std::net::SocketAddr, code: &str) {
    let session = Session::connect(addr, code, "Witness", None).await.expect("the host still lets people join");
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_length_of_two_to_the_forty_before_the_hello_closes_only_that_connection() {
    let (server, code) = host("abuse-length", quick_room("GARE", 2, 1));
    let addr = server.local_addr();
    let connection = raw_connection(addr, &code).await;
    let (mut send, _recv) = connection.open_bi().await.unwrap();
    // A hello (this version, as one varint byte) whose code string claims 2^40 bytes, in a
    // 14-byte frame.
    let version = u8::try_from(PROTOCOL_VERSION).expect("a one-byte varint");
    let mut body = vec![version, 253];
    body.extend_from_slice(&(1u64 << 40).to_le_bytes());
    body.extend_from_slice(b"ABCD");
    let mut frame = (body.len() as u32).to_le_bytes().to_vec();
    frame.extend_from_slice(&body);
    send.write_all(&frame).await.unwrap();
    let (code_, reason) = closed_with(&connection, LIMIT).await.expect("closed by the host");
    assert_eq!(code_, u64::from(close::BAD_FRAME));
    assert!(reason.contains("bad hello"), "{reason}");
    host_still_serves(addr, &code).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_that_never_comes_is_dropped_at_the_deadline() {
    let (server, code) = host("abuse-slow-hello", quick_room("GARE", 2, 1));
    let connection = raw_connection(server.local_addr(), &code).await;
    let (mut send, _recv) = connection.open_bi().await.unwrap();
    // Two bytes of a length prefix, then nothing.
    send.write_all(&[10, 0]).await.unwrap();
    let started = std::time::Instant::now();
    let limit = bolide_host::net::server::HELLO_DEADLINE + Duration::from_secs(8);
    tokio::time::timeout(limit, connection.closed()).await.expect("dropped after the hello deadline");
    assert!(started.elapsed() < limit);
    host_still_serves(server.local_addr(), &code).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_the_protocol_does_not_use_are_refused() {
    let (server, code) = host("abuse-streams", quick_room("GARE", 2, 1));
    let connection = raw_connection(server.local_addr(), &code).await;
    let _game = connection.open_bi().await.unwrap();
    // The host grants one bidirectional stream and no unidirectional one: opening more waits
    // for a credit that never comes, and nothing is buffered for them.
    let more_bi = tokio::time::timeout(Duration::from_millis(500), connection.open_bi()).await;
    assert!(more_bi.is_err(), "a second game stream was granted");
    let uni = tokio::time::timeout(Duration::from_millis(500), connection.open_uni()).await;
    assert!(uni.is_err(), "a unidirectional stream was granted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_codes_are_rate_limited_per_address() {
    let (server, code) = host("abuse-codes", quick_room("GARE", 2, 1));
    let addr = server.local_addr();
    let fingerprint = bolide_host::net::split_code(&code).unwrap().1;
    let mut refusals = Vec::new();
    for guess in 0..8 {
        match Session::connect(addr, &format!("GUESS{guess}-{fingerprint}"), "Eve", None).await {
            Err(e) => refusals.push(e.to_string()),
            Ok(_) => panic!("a wrong code was let in"),
        }
    }
    let limited = refusals.iter().filter(|r| r.contains("too many wrong room codes")).count();
    let burst = bolide_host::net::server::WRONG_CODE_BURST as usize;
    // A wrong word is found out by the laptop itself: the host's proof does not hold.
    assert!(refusals[..burst].iter().all(|r| r.contains("does not know that code word")), "{refusals:?}");
    assert!(limited >= 8 - burst - 1, "{refusals:?}");
    // Even the right code waits until the address has cooled down.
    let err = Session::connect(addr, &code, "Eve", None).await.err().expect("refused while limited");
    assert!(err.to_string().contains("too many wrong room codes"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pilot_who_never_reads_is_dropped_and_the_game_goes_on() {
    // A full table: each round sends everyone six pilots' moves, so the sleeper's queue fills
    // (its writer's 512 messages, then its stream's window) in fewer rounds, each paced by the
    // reveal's lead for a laptop whose path is unknown.
    let mut config = quick_room("GARE", 4, 20);
    config.bot_delay_ms = 1;
    config.countdown_ms = 1;
    // The watcher never acts: its turns and moments run to their limits, kept short (what is
    // tested is the sleeper's queue filling up, and the championship going on without it).
    (config.turn_timeout_ms, config.moment_timeout_ms) = (300, 200);
    let (server, code) = host("abuse-no-read", config);
    let addr = server.local_addr();
    let mut watcher = Session::connect(addr, &code, "Watcher", None).await.unwrap();
    let mut sleeper = Session::connect(addr, &code, "Sleeper", None).await.unwrap();
    sleeper.send(&ClientMsg::Ready(true)).await.unwrap();
    watcher.send(&ClientMsg::Ready(true)).await.unwrap();
    // The sleeper never reads again; the watcher plays on (its seat is played by the host's bot
    // once its time limits pass) and the championship must end.
    let finished = tokio::time::timeout(Duration::from_secs(120), async {
        loop {
            match watcher.next().await {
                Ok(ServerMsg::Finished { standings }) => return standings,
                Ok(_) => {}
                Err(e) => panic!("the watcher lost its connection: {e}"),
            }
        }
    })
    .await
    .expect("the championship ends although one laptop stopped reading");
    assert_eq!(finished.len(), 6);
    let err = bolide_tests::until_closed(&mut sleeper).await;
    assert!(err.to_string().contains("stopped reading"), "{err}");
}

/// The host closed the connection as a flood, saying what was too much.
fn closed_for_flooding(e: ClientError, says: &str) {
    match e {
        ClientError::Closed { code, reason } => {
            assert_eq!(code, u64::from(close::FLOOD), "{reason}");
            assert!(reason.contains(says), "{reason}");
        }
        other => panic!("expected a close, got {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_flood_closes_that_connection_and_says_why() {
    let (server, code) = host("abuse-msg-flood", quick_room("GARE", 2, 1));
    let addr = server.local_addr();
    let mut flooder = Session::connect(addr, &code, "Flooder", None).await.unwrap();
    for _ in 0..300 {
        if flooder.send(&ClientMsg::Ready(false)).await.is_err() {
            break;
        }
    }
    closed_for_flooding(bolide_tests::until_closed(&mut flooder).await, "messages a second");
    host_still_serves(addr, &code).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_datagram_flood_closes_that_connection_and_a_laptop_s_bursts_do_not() {
    let (server, code) = host("abuse-datagram-flood", quick_room("GARE", 2, 1));
    let addr = server.local_addr();
    // A laptop behind Wi-Fi power saving: its beats held, then released together — far more at
    // once than it ever sends, and still within what the host forgives.
    let mut laptop = Session::connect(addr, &code, "Laptop", None).await.unwrap();
    for _ in 0..3 {
        for _ in 0..250 {
            laptop.heartbeat().expect("a laptop's burst is not a flood");
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    // A flood: as fast as this laptop can send them.
    let mut flooder = Session::connect(addr, &code, "Flooder", None).await.unwrap();
    let started = std::time::Instant::now();
    let closed = 'flood: loop {
        assert!(started.elapsed() < LIMIT, "the flood was never closed");
        for _ in 0..64 {
            if let Err(e) = flooder.heartbeat() {
                break 'flood e;
            }
        }
        tokio::task::yield_now().await;
    };
    closed_for_flooding(closed, "datagrams a second");
    laptop.heartbeat().expect("the laptop is still at the table");
    host_still_serves(addr, &code).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spoofed_initials_from_random_addresses_lock_out_neither_joins_nor_comebacks() {
    let (server, code) = host("abuse-spoofed-initials", quick_room("GARE", 2, 1));
    let addr = server.local_addr();
    let fingerprint = bolide_host::net::split_code(&code).unwrap().1;
    // A pilot seated before the flood, to come back with its token during it (its first
    // connection is let go then, as when a laptop's Wi-Fi drops and it reconnects).
    let anne = Session::connect(addr, &code, "Anne", None).await.unwrap();
    let token = anne.state().token.expect("a seat token");
    let spoofer =
        tokio::spawn(async move { spoof_initials(addr, &fingerprint, 1_000, Duration::from_secs(6), None).await });
    tokio::time::sleep(Duration::from_secs(2)).await;
    let started = std::time::Instant::now();
    let bob = tokio::time::timeout(LIMIT, Session::connect(addr, &code, "Bob", None)).await.unwrap();
    let bob_took = started.elapsed();
    let back = tokio::time::timeout(LIMIT, Session::connect(addr, &code, "Anne", Some(token))).await.unwrap();
    let sent = spoofer.await.unwrap();
    println!("spoofed Initials sent: {sent}; a join during them took {bob_took:?}");
    assert!(sent >= 5_000, "the spoofer sent only {sent} Initials");
    drop(anne);
    bob.expect("a join goes through while Initials are spoofed").close().await;
    back.expect("a comeback goes through while Initials are spoofed").close().await;
}
