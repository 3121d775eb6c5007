//! The host's door under attack (docs/threat-model.md): every try at the code word is counted
//! whatever follows the host's answer, strangers' guessing never keeps a seated laptop from
//! its seat, a connection flood holds bounded memory, and Initials spoofed with a seated
//! laptop's address do not stop its comeback. Each case bounded in time.

use bolide_client::games::bolide::{ConnectOptions, Session};
use bolide_client::net::{ClientError, ConnectOptionsOf, SessionOf};
use bolide_host::net::server::{WRONG_CODE_BURST, WRONG_CODE_HOST_BURST};
use bolide_table::wire::{ClientMsgOf, PROTOCOL_VERSION, ServerMsgOf};
use bolide_tests::{Ending, guess, host, quick_room, scratch, spawn_host, spoof_initials, workspace_bin};
use quinn::Runtime;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(60);

fn ip(a: u8, b: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, a, b))
}

/// Options that send from `from` (a loopback address of the test's choosing).
fn from(from: IpAddr) -> ConnectOptions {
    let socket = std::net::UdpSocket::bind((from, 0)).unwrap();
    ConnectOptions { socket: Some(quinn::TokioRuntime.wrap_udp_socket(socket).unwrap()), ..ConnectOptions::default() }
}

fn fingerprint(code: &str) -> String {
    bolide_host::net::split_code(code).unwrap().1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guess_is_a_guess_whatever_frame_ends_it() {
    // One address tries wrong words, each ending its exchange once it has read the host's
    // proof (which already told it the word was wrong) with a frame that is no proof, or with
    // silence: every one is spent, so no more are answered than the address's budget.
    let (server, code) = host("door-guess", quick_room("GARAGE", 2, 1));
    let (addr, fp) = (server.local_addr(), fingerprint(&code));
    for (a, endings) in [(1, [Ending::EmptyFrame; 8]), (2, [Ending::Garbage; 8]), (3, [Ending::Silent; 8])] {
        let started = Instant::now();
        let (mut answered, mut refused) = (0usize, Vec::new());
        for (i, ending) in endings.into_iter().enumerate() {
            match guess(addr, &fp, &format!("WRONG{i}"), ip(3, a), ending).await {
                Ok(right) => {
                    assert!(!right, "a wrong word proved right");
                    answered += 1;
                }
                Err(refusal) => refused.push(refusal),
            }
        }
        let allowed = WRONG_CODE_BURST + started.elapsed().as_secs_f64() * bolide_host::net::server::WRONG_CODES_PER_S;
        println!("{:?}: {answered} of 8 answered in {:?}", endings[0], started.elapsed());
        assert!(answered as f64 <= allowed.floor(), "{:?}: {answered} answered, {allowed} allowed", endings[0]);
        // The tries past the budget are refused before the host answers, and told to wait.
        assert!(!refused.is_empty(), "{:?}: nothing refused", endings[0]);
        for (reason, again) in refused {
            assert!(reason.contains("too many wrong room codes") && again, "{reason}");
        }
    }
    // A valid proof costs nothing: many joins in a row from one address never run out.
    for i in 0..(2 * WRONG_CODE_BURST as usize) {
        let session =
            Session::connect_with(addr, &code, &format!("P{i}"), None, from(ip(3, 9))).await.expect("an honest join");
        session.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guesses_in_flight_cannot_share_one_try() {
    // Twelve tries at once from one address: each is spent as its Knock arrives, so no more
    // than the address's burst is ever answered.
    let (server, code) = host("door-in-flight", quick_room("GARAGE", 2, 1));
    let (addr, fp) = (server.local_addr(), fingerprint(&code));
    let tries: Vec<_> = (0..12)
        .map(|i| {
            let fp = fp.clone();
            tokio::spawn(async move { guess(addr, &fp, &format!("WRONG{i}"), ip(3, 2), Ending::Silent).await })
        })
        .collect();
    let mut answered = 0;
    for t in tries {
        answered += usize::from(t.await.unwrap().is_ok());
    }
    assert!(answered <= WRONG_CODE_BURST as usize, "{answered} tries answered at once");
}

/// Wrong guesses from fresh addresses until the host's door is locked for new joins; returns
/// how many were answered.
async fn lock_the_door(addr: SocketAddr, fp: &str) -> usize {
    let tries: Vec<_> = (0..((WRONG_CODE_HOST_BURST as u8) + 8))
        .map(|a| {
            let fp = fp.to_string();
            tokio::spawn(async move { guess(addr, &fp, "WRONGS", ip(9, 10 + a), Ending::EmptyFrame).await.is_ok() })
        })
        .collect();
    let mut answered = 0;
    for t in tries {
        answered += usize::from(t.await.unwrap());
    }
    answered
}

/// A stranger hammering the door from ever new addresses, one wrong word every 50 ms, until
/// `stop` is set: the door stays locked while it runs, but for the moments between the host's
/// bucket refilling a try (one every 2 s) and the stranger's next guess spending it.
fn hammer(
    addr: SocketAddr,
    fp: String,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> tokio::task::JoinHandle<usize> {
    tokio::spawn(async move {
        let mut tries = 0usize;
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            let _ = guess(addr, &fp, "HAMMER", ip(10, (tries % 250) as u8 + 1), Ending::EmptyFrame).await;
            tries += 1;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tries
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_locking_the_door_keeps_no_seated_laptop_from_its_seat_even_across_a_game_switch() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let data = scratch("door-switch");
    let mut cmd = std::process::Command::new(workspace_bin("bolide-host"));
    cmd.args(["serve", "--bind", "127.0.0.1:0", "--data-dir"]).arg(&data);
    cmd.args(["--code", "GARAGE", "--json", "--no-mdns", "--bots", "2", "--seed", "5", "--bot-delay-ms", "5"]);
    let (_host, info) = spawn_host(cmd, &data);
    let addr: SocketAddr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let code = info["code"].as_str().unwrap().to_string();
    let fp = fingerprint(&code);

    // Anne and Bob are seated in the lobby before the stranger comes.
    let anne = Session::connect_with(addr, &code, "Anne", None, from(ip(5, 1))).await.expect("Anne seated");
    let anne_token = anne.state().token.expect("a token");
    let mut bob = Session::connect_with(addr, &code, "Bob", None, from(ip(5, 2))).await.expect("Bob seated");
    let bob_token = bob.state().token.expect("a token");

    // The stranger locks the door and keeps it locked.
    let answered = lock_the_door(addr, &fp).await;
    assert!(answered <= WRONG_CODE_HOST_BURST as usize, "{answered} guesses answered");
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let stranger = hammer(addr, fp.clone(), stop.clone());
    let fresh = Session::connect_with(addr, &code, "Carl", None, from(ip(5, 3))).await.err().expect("locked");
    assert!(matches!(&fresh, ClientError::Wait(r) if r.contains("too many wrong room codes")), "{fresh}");

    // Anne's Wi-Fi drops; she comes back with her token from a new port, through the lock
    // (the host lets her old connection go then).
    let started = Instant::now();
    let mut anne =
        tokio::time::timeout(LIMIT, Session::connect_with(addr, &code, "Anne", Some(anne_token), from(ip(5, 1))))
            .await
            .unwrap()
            .expect("Anne back through a locked door");
    println!("a comeback through the locked door took {:?}", started.elapsed());
    assert_eq!(anne.state().mirror.seat, Some(bolide_table::Seat(0)));

    // She switches the table to 1000 Bornes: everyone knocks again, through the lock.
    anne.send(&ClientMsgOf::ChooseGame("mille-bornes".into())).await.unwrap();
    for (who, session) in [("Anne", &mut anne), ("Bob", &mut bob)] {
        let closed = bolide_tests::until_closed(session).await;
        assert!(matches!(closed, ClientError::GameChanged { .. }), "{who}: {closed}");
    }
    for (seat, name, token, a) in [(0u8, "Anne", anne_token, 1u8), (1, "Bob", bob_token, 2)] {
        let socket = quinn::TokioRuntime.wrap_udp_socket(std::net::UdpSocket::bind((ip(5, a), 0)).unwrap()).unwrap();
        let admitted = bolide_client::net::knock(addr, &code, name, Some(token), PROTOCOL_VERSION, Some(socket), false)
            .await
            .unwrap_or_else(|e| panic!("{name} kept out of the new game's lobby: {e}"));
        assert_eq!(admitted.game, "mille-bornes");
        let session: SessionOf<mille_bornes::MilleBornes> =
            admitted.session(ConnectOptionsOf::default()).expect("in 1000 Bornes' words");
        assert_eq!(session.state().mirror.seat, Some(bolide_table::Seat(seat)), "{name}'s seat");
        // The lobby still seats both of them.
        let mut session = session;
        let lobby = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let Ok(ServerMsgOf::Lobby(lobby)) = session.next().await {
                    break lobby;
                }
            }
        })
        .await
        .expect("a lobby");
        assert!(lobby.seats.len() >= 2, "{:?}", lobby.seats);
    }
    // The door was locked all along: a fresh laptop is still told to wait. A knock may land
    // on a try the bucket refilled before the stranger's next guess spent it (it then proves
    // the word, gives the try back, and is told this table plays another game); five fresh
    // laptops 400 ms apart cannot all, unless the stranger stopped spending the refills.
    let mut answers = Vec::new();
    for a in 3..8 {
        let fresh = Session::connect_with(addr, &code, "Carl", None, from(ip(5, a))).await.err().expect("no seat");
        if matches!(&fresh, ClientError::Wait(_)) {
            answers.clear();
            break;
        }
        answers.push(fresh.to_string());
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    assert!(answers.is_empty(), "the door was open to five fresh laptops over 2 s: {answers:?}");
    stop.store(true, Ordering::Relaxed);
    let tries = stranger.await.unwrap();
    println!("the stranger tried {tries} more wrong words meanwhile");
}

/// Resident memory of process `pid` (kB).
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Host memory a connection flood may take, over the host's memory before it (MB).
const FLOOD_MEMORY_MB: u64 = 48;
/// How long an honest join may take during a flood.
const FLOOD_JOIN: Duration = Duration::from_secs(3);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_opening_connections_as_fast_as_it_can_holds_bounded_memory_and_lets_honest_joins_in() {
    let data = scratch("door-flood");
    let mut cmd = std::process::Command::new(workspace_bin("bolide-host"));
    cmd.args(["serve", "--bind", "127.0.0.1:0", "--data-dir"]).arg(&data);
    cmd.args(["--code", "GARAGE", "--json", "--no-mdns", "--bots", "2", "--seed", "5"]);
    let (host, info) = spawn_host(cmd, &data);
    let pid = host.id();
    let addr: SocketAddr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let code = info["code"].as_str().unwrap().to_string();
    let fp = fingerprint(&code);
    let before = Session::connect_with(addr, &code, "Warm", None, from(ip(6, 9))).await.expect("a first join");
    before.close().await;
    let base = rss_kb(pid);

    // The flood: 32 loops from one address, each opening a connection, sending a Knock's first
    // bytes and holding it as long as the host lets it, then again at once.
    let flood_for = Duration::from_secs(30);
    let started = Instant::now();
    let opened = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut endpoint = quinn::Endpoint::client((ip(6, 1), 0).into()).unwrap();
    endpoint.set_default_client_config(bolide_host::net::tls::client_config(&fp).unwrap());
    let loops: Vec<_> = (0..32)
        .map(|_| {
            let (endpoint, opened) = (endpoint.clone(), opened.clone());
            tokio::spawn(async move {
                while started.elapsed() < flood_for {
                    let Ok(connecting) = endpoint.connect(addr, "bolide.local") else { continue };
                    opened.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if let Ok(Ok(c)) = tokio::time::timeout(Duration::from_secs(2), connecting).await {
                        if let Ok((mut send, _recv)) = c.open_bi().await {
                            let _ = send.write_all(&[200, 0, 0, 0, 1, 2, 3]).await;
                        }
                        let left = flood_for.saturating_sub(started.elapsed());
                        let _ = tokio::time::timeout(left, c.closed()).await;
                    }
                }
            })
        })
        .collect();
    let (mut peak, mut joins) = (base, Vec::new());
    let mut n = 0;
    while started.elapsed() < flood_for {
        tokio::time::sleep(Duration::from_secs(2)).await;
        peak = peak.max(rss_kb(pid));
        let t = Instant::now();
        let joined = tokio::time::timeout(
            Duration::from_secs(15),
            Session::connect_with(addr, &code, &format!("H{n}"), None, from(ip(6, 20 + n))),
        )
        .await;
        joins.push(t.elapsed());
        n += 1;
        joined.expect("an honest join within 15 s").expect("an honest join during the flood").close().await;
        peak = peak.max(rss_kb(pid));
    }
    for l in loops {
        let _ = l.await;
    }
    joins.sort();
    let attempts = opened.load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "flood: {attempts} connections tried in {flood_for:?}; host RSS {} MB before, peak {} MB; \
         {} honest joins meanwhile: median {:?}, max {:?}",
        base / 1024,
        peak / 1024,
        joins.len(),
        joins[joins.len() / 2],
        joins[joins.len() - 1]
    );
    assert!(peak.saturating_sub(base) < FLOOD_MEMORY_MB * 1024, "the flood took {} MB", (peak - base) / 1024);
    assert!(joins[joins.len() - 1] < FLOOD_JOIN, "{joins:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initials_spoofed_with_a_seated_laptop_s_address_do_not_stop_its_comeback() {
    let (server, code) = host("door-spoofed-victim", quick_room("GARAGE", 2, 1));
    let (addr, fp) = (server.local_addr(), fingerprint(&code));
    let victim = ip(7, 7);
    let anne = Session::connect_with(addr, &code, "Anne", None, from(victim)).await.expect("Anne seated");
    let token = anne.state().token.expect("a token");
    // Initials with Anne's address, never answered, 200 a second for 8 s.
    let spoofer =
        tokio::spawn(async move { spoof_initials(addr, &fp, 200, Duration::from_secs(8), Some(victim)).await });
    tokio::time::sleep(Duration::from_secs(2)).await;
    // Her Wi-Fi drops, she comes back (the host lets the old connection go then), three times.
    let (mut back, mut sessions) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let t = Instant::now();
        let session =
            tokio::time::timeout(LIMIT, Session::connect_with(addr, &code, "Anne", Some(token), from(victim)))
                .await
                .unwrap()
                .expect("Anne comes back while her address is spoofed");
        back.push(t.elapsed());
        tokio::time::sleep(Duration::from_millis(500)).await;
        sessions.push(session);
    }
    drop((anne, sessions));
    let sent = spoofer.await.unwrap();
    println!("{sent} Initials spoofed with the seated laptop's address; its comebacks took {back:?}");
    assert!(sent >= 1_000, "the spoofer sent only {sent}");
}
