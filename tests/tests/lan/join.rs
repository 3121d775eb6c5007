//! Joining authenticates both sides with the code word (`bolide_link::pake`) and the host with
//! the 80-bit fingerprint of its screen's code: what a laptop on the same Wi-Fi gets — as a
//! host it poses as, with or without the word, and as a man in the middle between a pilot and
//! the real host — and what an honest join costs.

use bolide_client::games::bolide::Session;
use bolide_client::net::ClientError;
use bolide_host::net::server::{Journal, Server};
use bolide_host::net::{Identity, tls};
use bolide_tests::{host, quick_room, scratch};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(30);

/// A relay with a certificate of its own, on 127.0.0.1: every connection to it is forwarded,
/// byte for byte both ways, to `target` (a man in the middle, as a laptop that advertises the
/// table's name with its own fingerprint could run). Returns its address, its room code for
/// `word` (its own fingerprint), and everything the pilots sent it.
async fn relay(
    target: std::net::SocketAddr,
    target_code: &str,
    word: &str,
) -> (std::net::SocketAddr, String, Arc<Mutex<Vec<u8>>>) {
    let identity = Identity::load_or_create(&scratch("join-relay").join("identity")).unwrap();
    let endpoint =
        quinn::Endpoint::server(tls::server_config(&identity).unwrap(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = endpoint.local_addr().unwrap();
    let code = format!("{word}-{}", identity.code_suffix());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (seen_by_relay, target_fp) = (seen.clone(), bolide_host::net::split_code(target_code).unwrap().1);
    tokio::spawn(async move {
        while let Some(incoming) = endpoint.accept().await {
            let (seen, target_fp) = (seen_by_relay.clone(), target_fp.clone());
            tokio::spawn(async move {
                let Ok(pilot) = incoming.await else { return };
                let Ok((mut to_pilot, mut from_pilot)) = pilot.accept_bi().await else { return };
                let mut out = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
                out.set_default_client_config(tls::client_config(&target_fp).unwrap());
                let Ok(connecting) = out.connect(target, "bolide.local") else { return };
                let Ok(real) = connecting.await else { return };
                let Ok((mut to_host, mut from_host)) = real.open_bi().await else { return };
                let up = async {
                    let mut buf = vec![0; 4096];
                    while let Ok(Some(n)) = from_pilot.read(&mut buf).await {
                        seen.lock().unwrap().extend_from_slice(&buf[..n]);
                        if to_host.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                    }
                };
                let down = async {
                    let mut buf = vec![0; 4096];
                    while let Ok(Some(n)) = from_host.read(&mut buf).await {
                        if to_pilot.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                    }
                };
                tokio::join!(up, down);
            });
        }
    });
    (addr, code, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_man_in_the_middle_with_its_own_certificate_fails_the_exchange_and_learns_no_secret() {
    let (server, code) = host("join-mitm", quick_room("GARAGE", 2, 1));
    let (relay_addr, relay_code, seen) = relay(server.local_addr(), &code, "GARAGE").await;
    // The pilot clicked the relay's advert (its fingerprint) and typed the real word.
    let joined = tokio::time::timeout(LIMIT, Session::connect(relay_addr, &relay_code, "Anne", None)).await.unwrap();
    match joined {
        Err(ClientError::NotTheHost(_)) => {}
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("a relayed join went through"),
    }
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty(), "the relay saw the pilot's first frame");
    assert!(!seen.windows(6).any(|w| w.eq_ignore_ascii_case(b"GARAGE")), "the code word crossed the relay");
    // The real host still takes the pilot directly.
    let session = Session::connect(server.local_addr(), &code, "Anne", None).await.expect("a direct join");
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_host_can_be_the_host_a_seated_player_posing_as_it_gets_nothing_from_a_list_join() {
    // Bob sits at the table, so he knows the word. His laptop runs a host of its own — its own
    // certificate, the table's word — relaying to the real one, and advertises the table's
    // name, mDNS instance and fingerprint from its own address. Anne, who dropped out, comes
    // back from the list: she picks that entry (its address) and types the code from the host's
    // screen, as the window asks (`client/tests/client/window.rs`, the list join).
    let (server, code) = host("join-posing", quick_room("GARAGE", 3, 1));
    let bob = Session::connect(server.local_addr(), &code, "Bob", None).await.expect("Bob sits at the table");
    let (relay_addr, _, seen) = relay(server.local_addr(), &code, "GARAGE").await;
    let token = bolide_table::wire::SeatToken(0x5eed_a22e_a22e);
    let joined = tokio::time::timeout(LIMIT, Session::connect(relay_addr, &code, "Anne", Some(token))).await.unwrap();
    let err = joined.err().expect("a look-alike host let Anne in");
    assert!(err.to_string().contains("not the host you were told about"), "{err}");
    // Refused in the TLS handshake, before a byte of the join: no knock, no name, no token.
    assert!(seen.lock().unwrap().is_empty(), "the look-alike read {} bytes of Anne's join", seen.lock().unwrap().len());
    // The real host takes her as ever.
    let anne = Session::connect(server.local_addr(), &code, "Anne", None).await.expect("a join at the real host");
    anne.close().await;
    bob.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_does_not_know_the_word_gets_neither_the_word_nor_a_seat_token() {
    // A look-alike host on the Wi-Fi: its own certificate and room, any word but the table's.
    let (rogue, rogue_code) = host("join-rogue", quick_room("PISTES", 2, 1));
    let fingerprint = bolide_host::net::split_code(&rogue_code).unwrap().1;
    let token = bolide_table::wire::SeatToken(0x5eed_7043_7043);
    let joined = Session::connect(rogue.local_addr(), &format!("GARAGE-{fingerprint}"), "Anne", Some(token)).await;
    assert!(matches!(joined, Err(ClientError::NotTheHost(_))), "{:?}", joined.err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_honest_join_proves_the_word_in_one_more_round_trip() {
    // Ten joins on loopback, each timed from connect to welcome: the exchange adds a round
    // trip and three scalar multiplications on each side (printed; the README quotes a run).
    let identity = Identity::load_or_create(&scratch("join-honest").join("identity")).unwrap();
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), &identity).unwrap();
    let code = server.add_room::<bolide::game::Championship>(quick_room("GARAGE", 2, 1), Journal::None, None).unwrap();
    let mut times = Vec::new();
    for i in 0..10 {
        let started = Instant::now();
        let session = Session::connect(server.local_addr(), &code, &format!("P{i}"), None).await.expect("a join");
        times.push(started.elapsed());
        session.close().await;
    }
    times.sort();
    let started = Instant::now();
    for _ in 0..100 {
        let (laptop, msg) = bolide_host::net::pake::Laptop::start("GARAGE");
        let (_, host_msg, proof) = bolide_host::net::pake::host_answer("GARAGE", &msg, &[0; 32]).unwrap();
        laptop.finish(&host_msg, &proof, &[0; 32]).unwrap();
    }
    let exchange = started.elapsed() / 100;
    println!(
        "join on loopback: median {:?}, max {:?}; the exchange's arithmetic {:?} a join",
        times[5], times[9], exchange
    );
    assert!(times[5] < Duration::from_millis(500), "{times:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_codes_from_many_addresses_lock_the_host_and_its_screen_says_so() {
    use bolide_client::games::bolide::ConnectOptions;
    use quinn::Runtime;
    let (server, code) = host("join-lockout", quick_room("GARAGE", 2, 1));
    let addr = server.local_addr();
    let fingerprint = bolide_host::net::split_code(&code).unwrap().1;
    let guard = server.join_guard();
    // Guesses from ten addresses, three each: under every address's own limit, past the host's.
    let mut refused = 0;
    for a in 0..10u8 {
        for guess in 0..3 {
            let from = std::net::UdpSocket::bind((std::net::Ipv4Addr::new(127, 0, 9, 10 + a), 0)).unwrap();
            let socket = quinn::TokioRuntime.wrap_udp_socket(from).unwrap();
            let options = ConnectOptions { socket: Some(socket), ..ConnectOptions::default() };
            let wrong = format!("GUESS{a}{guess}-{fingerprint}");
            refused += usize::from(Session::connect_with(addr, &wrong, "Eve", None, options).await.is_err());
        }
    }
    assert_eq!(refused, 30);
    assert!(guard.locked(), "the host's screen would not say it is locked");
    // While locked, even the right code from a fresh address waits, and is told why.
    let err = Session::connect(addr, &code, "Anne", None).await.err().expect("refused while locked");
    assert!(err.to_string().contains("too many wrong room codes"), "{err}");
}
