//! The browser door of the real `bolide-host serve`: the page from memory over HTTP, and seats
//! over a sealed WebSocket through the same door and room as QUIC's. A laptop's client core
//! speaks the browser's link here (`Via::Web`), so the door is tested without a browser.

use bolide::bots::BotLevel;
use bolide_client::bot;
use bolide_client::net::{ClientError, ConnectOptionsOf, SessionOf, Via, knock, knock_web};
use bolide_table::wire::PROTOCOL_VERSION;
use bolide_tests::{Reaped, scratch, spawn_host, workspace_bin};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(90);

/// A Bolide host with `bots` host bots and a one-race championship; `extra` are more flags.
/// Returns it, its QUIC address, its browser address and its room code.
fn start(name: &str, bots: u8, extra: &[&str]) -> (Reaped, SocketAddr, SocketAddr, String) {
    let data = scratch(name);
    let mut cmd = Command::new(workspace_bin("bolide-host"));
    cmd.args(["serve", "--bind", "127.0.0.1:0", "--data-dir"]).arg(&data);
    cmd.args(["--code", "GARAGE", "--json", "--no-mdns", "--bots", &bots.to_string(), "--races", "1"]);
    cmd.args(["--seed", "5", "--bot-delay-ms", "5", "--lift-delay-ms", "30", "--turn-timeout-s", "5"]);
    cmd.args(["--grab-timeout-s", "2"]);
    cmd.args(extra);
    let (host, info) = spawn_host(cmd, &data);
    let quic: SocketAddr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let web = info["web"][0].as_str().expect("a browser address").trim_start_matches("http://").parse().unwrap();
    (host, quic, web, info["code"].as_str().unwrap().to_string())
}

fn web_options() -> ConnectOptionsOf<bolide::Bolide> {
    ConnectOptionsOf { via: Via::Web, ..ConnectOptionsOf::default() }
}

/// A seat that came by the browser door and one that came by QUIC play the same championship
/// in the same room, to the same standings: the room does not know which door a seat used.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_seat_and_a_native_seat_race_the_same_championship_to_the_same_podium() {
    let (_host, quic, web, code) = start("browser-race", 1, &[]);
    let options = web_options();
    let anne = SessionOf::connect_with(web, "GARAGE", "Anne", None, options.clone())
        .await
        .expect("seated by the browser door");
    let token = anne.state().token;
    assert!(token.is_some(), "the browser seat has a seat token, as a native one");
    let plan = bot::Plan::new(BotLevel::Strategic, Duration::ZERO, 3);
    let bob = tokio::spawn(async move {
        bolide_client::games::Registry::standard()
            .play(quic, &code, "Bob", bot::Plan::new(BotLevel::Strategic, Duration::ZERO, 4))
            .await
    });
    let mut quiet = bot::quiet;
    let anne_saw = tokio::time::timeout(LIMIT, bot::play_session(anne, plan, &mut quiet))
        .await
        .expect("the championship within 90 s")
        .expect("Anne played to the podium");
    let bob_saw = tokio::time::timeout(LIMIT, bob).await.unwrap().unwrap().expect("Bob played to the podium");
    let bob_saw = bob_saw.of::<bolide::Bolide>().expect("a Bolide championship").standings.clone();
    assert_eq!(anne_saw.len(), 3, "Anne, Bob and the host's bot: {anne_saw:?}");
    let line = |s: &bot::Standings| s.iter().map(|l| (l.name.clone(), l.points, l.rank)).collect::<Vec<_>>();
    assert_eq!(line(&anne_saw), line(&bob_saw), "both doors were told the same standings");
    assert!(anne_saw.iter().any(|l| l.name == "Anne") && anne_saw.iter().any(|l| l.name == "Bob"));
    // Her link answered the host's clock probes: the fairness model has her path.
    let seen = options.state.lock();
    assert!(seen.mirror.dice.verdict().is_some(), "the seal was checked at the end, over the browser link too");
}

/// A wrong word at the browser door is refused and says so; the door's guesses are counted
/// with QUIC's: past the per-address burst by WebSocket, a QUIC knock from the same address
/// is told to wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_word_at_the_browser_door_is_refused_and_counted_with_quics_guesses() {
    let (_host, quic, web, code) = start("browser-guess", 2, &[]);
    let err = knock_web(web, "PISTE", "Eve", None, PROTOCOL_VERSION, false).await.err().expect("refused");
    assert!(matches!(err, ClientError::NotTheHost(_)), "{err}");
    assert!(err.to_string().contains("check the word"), "says what to do: {err}");
    let mut waited = None;
    for _ in 0..(bolide_host::net::server::WRONG_CODE_BURST as usize + 2) {
        if let Err(ClientError::Wait(reason)) = knock_web(web, "PISTE", "Eve", None, PROTOCOL_VERSION, false).await {
            waited = Some(reason);
            break;
        }
    }
    let reason = waited.expect("the browser door locks this address after its burst of wrong words");
    assert!(reason.contains("wrong room codes"), "{reason}");
    let wrong_quic = format!("PISTE-{}", code.split_once('-').unwrap().1);
    match knock(quic, &wrong_quic, "Eve", None, PROTOCOL_VERSION, None, false).await {
        Err(ClientError::Wait(reason)) => assert!(reason.contains("wrong room codes"), "{reason}"),
        other => panic!("QUIC's door did not count the browser door's guesses: {:?}", other.err()),
    }
}

/// One HTTP request on a fresh connection: the status line, the headers and the body.
fn get(addr: SocketAddr, request: &str) -> (String, String, Vec<u8>) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a whole head");
    let head = String::from_utf8_lossy(&answer[..split]).to_string();
    let (status, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
    (status.to_string(), headers.to_string(), answer[split + 4..].to_vec())
}

/// The page is the folder's bytes exactly, from memory, with the headers that isolate it; no
/// path reaches a file outside it, and what is not a GET of a short head is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_door_serves_only_its_page_from_memory_with_cross_origin_isolation() {
    let page = scratch("browser-page");
    let wasm: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(page.join("index.html"), "<!doctype html><title>Bolide</title>").unwrap();
    std::fs::write(page.join("bolide_web_bg.wasm"), &wasm).unwrap();
    // Its gzip, as `scripts/build-web.sh` leaves it beside the file.
    std::fs::write(page.join("bolide_web_bg.wasm.gz"), b"as if gzipped").unwrap();
    let (_host, _, web, _) = start("browser-http", 2, &["--web-page", page.to_str().unwrap()]);
    // Changed after the host started: what it serves is what it read then.
    std::fs::write(page.join("index.html"), "changed").unwrap();
    std::fs::write(page.join("late.js"), "late").unwrap();
    let (status, headers, body) = get(web, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(status.contains("200"), "{status}");
    assert_eq!(body, b"<!doctype html><title>Bolide</title>");
    for header in ["Cross-Origin-Opener-Policy: same-origin", "Cross-Origin-Embedder-Policy: require-corp", "text/html"]
    {
        assert!(headers.contains(header), "{header} missing: {headers}");
    }
    let (status, headers, body) = get(web, "GET /bolide_web_bg.wasm HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(status.contains("200") && headers.contains("application/wasm"), "{status} {headers}");
    assert!(body == wasm, "the page's bytes are exactly the bundle's");
    assert!(!headers.contains("Content-Encoding"), "{headers}");
    let (status, headers, body) =
        get(web, "GET /bolide_web_bg.wasm HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n");
    assert!(status.contains("200") && headers.contains("Content-Encoding: gzip"), "{status} {headers}");
    assert_eq!(body, b"as if gzipped", "a browser that takes gzip is sent the bundle's gzip");
    // A browser that kept the module asks with its tag and is told it has it: no body.
    let tag = headers.lines().find_map(|l| l.strip_prefix("ETag: ")).expect("the module's tag").to_string();
    let (status, headers, body) =
        get(web, &format!("GET /bolide_web_bg.wasm HTTP/1.1\r\nHost: x\r\nIf-None-Match: {tag}\r\n\r\n"));
    assert!(status.contains("304") && headers.contains(&tag) && body.is_empty(), "{status} {headers}");
    let (status, _, body) =
        get(web, "GET /bolide_web_bg.wasm HTTP/1.1\r\nHost: x\r\nIf-None-Match: W/\"another\"\r\n\r\n");
    assert!(status.contains("200") && body == wasm, "{status}: another tag is sent the module");
    let (status, _, _) = get(web, "GET /bolide_web_bg.wasm.gz HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(status.contains("404"), "the gzip is no file of its own: {status}");
    for path in ["/late.js", "/../Cargo.toml", "/%2e%2e/Cargo.toml", "//etc/passwd"] {
        let (status, _, _) = get(web, &format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n"));
        assert!(status.contains("404"), "{path}: {status}");
    }
    let (status, _, _) = get(web, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
    assert!(status.contains("405"), "{status}");
    let long = format!("GET / HTTP/1.1\r\nHost: x\r\nX-Fill: {}\r\n\r\n", "a".repeat(10_000));
    let (status, _, _) = get(web, &long);
    assert!(status.contains("431"), "{status}");
    let (status, _, _) = get(web, "\x16\x03\x01 not http\r\n\r\n");
    assert!(status.contains("400"), "{status}");
    // A page from another origin may not open the table's link from a guest's browser.
    let cross = "GET /link HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
                 Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://evil.example\r\n\r\n";
    let (status, _, _) = get(web, cross);
    assert!(status.contains("403"), "{status}");
}

/// A host started with no page of its own serves the one built into it (`web/dist/`): the
/// committed bytes to a browser that takes gzip, unpacked for one that does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_serves_the_page_built_into_it() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/dist");
    let (_host, _, web, _) = start("browser-built-in", 2, &[]);
    let (status, headers, body) = get(web, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(status.contains("200") && headers.contains("text/html"), "{status} {headers}");
    assert_eq!(body, std::fs::read(dist.join("../index.html")).unwrap());
    for file in ["bolide_web_bg.wasm", "bolide_web.js"] {
        let packed = std::fs::read(dist.join(format!("{file}.gz"))).unwrap();
        let ask = format!("GET /{file} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
        let (status, headers, body) = get(web, &ask);
        assert!(status.contains("200") && headers.contains("Content-Encoding: gzip"), "{status} {headers}");
        assert!(body == packed, "{file}: the committed gzip, byte for byte");
        let (status, headers, body) = get(web, &format!("GET /{file} HTTP/1.1\r\nHost: x\r\n\r\n"));
        assert!(status.contains("200") && !headers.contains("Content-Encoding"), "{status} {headers}");
        // A gzip ends with its unpacked length (mod 2³²).
        let length = u32::from_le_bytes(packed[packed.len() - 4..].try_into().unwrap());
        assert_eq!(body.len() as u32, length, "{file}: unpacked whole");
    }
    let (_, _, wasm) = get(web, "GET /bolide_web_bg.wasm HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(&wasm[..4], b"\0asm", "the page's module");
}

/// A host told to serve no page says so to a browser, and still seats a link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_without_a_page_says_so_and_still_seats_a_link() {
    let (_host, _, web, _) = start("browser-nopage", 2, &["--no-web-page"]);
    let (status, _, body) = get(web, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(status.contains("404"), "{status}");
    assert!(String::from_utf8_lossy(&body).contains("join from the Bolide LAN window"));
    let admitted = knock_web(web, "garage", "Anne", None, PROTOCOL_VERSION, false).await.expect("seated");
    assert_eq!(admitted.game, "bolide");
    assert!(admitted.token().is_some());
    admitted.close().await;
}
