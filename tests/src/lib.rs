//! Helpers for the whole-system tests: a host in this process on 127.0.0.1, or the real
//! `bolide-host` binary in a child process (for crash tests); and the fairness lab ([`lab`]).

pub mod lab;

use bolide::TableOptions;
use bolide::options::Settings;
use bolide_host::games::bolide::RoomConfig;
use bolide_host::net::{Identity, Journal, Server};
use std::path::{Path, PathBuf};

/// A fresh scratch directory for one test: removed when the test is done with it, kept when it
/// fails (its logs and journals are what a failure's message points to).
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("bolide-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// See [`scratch`]; a `Path` (`data.join(..)`, `&*data` where a `&Path` is asked for).
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A room config with quick bots, for tests.
pub fn quick_room(code: &str, bots: u8, races: u8) -> RoomConfig {
    let settings = Settings {
        options: TableOptions { races, ..TableOptions::default() },
        circuit: "random:3".into(),
        bots,
        bot_level: Default::default(),
    };
    let mut config = RoomConfig::new(code, settings, 11);
    config.countdown_ms = 30;
    config.bot_delay_ms = 5;
    config.turn_timeout_ms = 3_000;
    config.moment_timeout_ms = 1_000;
    config
}

/// A host in this process, listening on 127.0.0.1 with one room; returns it and the code.
pub fn host(name: &str, config: RoomConfig) -> (Server, String) {
    let identity = Identity::load_or_create(&scratch(name).join("identity")).unwrap();
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), &identity).unwrap();
    let code = server.add_room::<bolide::game::Championship>(config, Journal::None, None).unwrap();
    (server, code)
}

/// A binary of this workspace, built next to the test executables.
pub fn workspace_bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(|d| d.parent()).unwrap();
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is not built: run `cargo build -p bolide-host` (nextest --workspace builds it)",
        path.display()
    );
    path
}

/// Reads from `session` until the connection ends; returns why (fails after 60 s).
pub async fn until_closed(session: &mut bolide_client::games::bolide::Session) -> bolide_client::net::ClientError {
    tokio::time::timeout(std::time::Duration::from_secs(60), async {
        loop {
            if let Err(e) = session.next().await {
                return e;
            }
        }
    })
    .await
    .expect("the connection ended in time")
}

/// A bare QUIC connection to a host that passed its certificate check and sent nothing yet:
/// for tests that must misbehave before or instead of a hello.
pub async fn raw_connection(addr: std::net::SocketAddr, code: &str) -> quinn::Connection {
    let (_, fingerprint) = bolide_host::net::split_code(code).expect("a room code");
    let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    endpoint.set_default_client_config(bolide_host::net::tls::client_config(&fingerprint).unwrap());
    endpoint.connect(addr, "bolide.local").unwrap().await.unwrap()
}

/// How a raw try at the door ends once the host has answered with its message and proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The laptop goes away without a word (as one whose word was wrong would).
    Silent,
    /// A zero-length frame: no proof at all.
    EmptyFrame,
    /// A frame of bytes that decode to nothing.
    Garbage,
}

/// One try at the code word at the host `addr` (room 0), from the address `from`, as a
/// modified laptop would make it: the Knock, the host's answer read, then `ending`. Returns
/// whether the host's proof says `word` was right, or the door's refusal (its reason, and
/// whether it said to knock again later).
pub async fn guess(
    addr: std::net::SocketAddr,
    fingerprint: &str,
    word: &str,
    from: std::net::IpAddr,
    ending: Ending,
) -> Result<bool, (String, bool)> {
    use bolide_host::net::pake;
    use bolide_table::wire::{self, Door, FrameDecoder, Knock, PROTOCOL_VERSION};
    let mut endpoint = quinn::Endpoint::client((from, 0).into()).unwrap();
    endpoint.set_default_client_config(bolide_host::net::tls::client_config(fingerprint).unwrap());
    let Ok(Ok(connection)) =
        tokio::time::timeout(std::time::Duration::from_secs(10), endpoint.connect(addr, "bolide.local").unwrap()).await
    else {
        return Err(("no connection".into(), true));
    };
    let (mut send, mut recv) = connection.open_bi().await.unwrap();
    let (laptop, msg) = pake::Laptop::start(word);
    let knock = Knock {
        version: PROTOCOL_VERSION,
        room: 0,
        pake: msg,
        name: "Eve".into(),
        watch: false,
        pass: None,
        frame_lead_us: 0,
    };
    send.write_all(&wire::encode(&knock)).await.unwrap();
    let mut decoder = FrameDecoder::default();
    let mut buf = vec![0u8; 4096];
    let answer = loop {
        if let Some(body) = decoder.next_frame().unwrap() {
            break wire::decode::<Door>(&body).unwrap();
        }
        match recv.read(&mut buf).await {
            Ok(Some(n)) => decoder.push(&buf[..n]),
            _ => return Err(("closed before answering".into(), false)),
        }
    };
    let right = match answer {
        Door::Pake { msg, proof } => {
            let mut binding = [0; pake::BINDING_LEN];
            connection.export_keying_material(&mut binding, pake::EXPORTER_LABEL, b"").unwrap();
            laptop.finish(&msg, &proof, &binding).is_ok()
        }
        Door::Refused { reason, again } => return Err((reason, again)),
        Door::Welcome { .. } => panic!("welcomed before any proof"),
    };
    match ending {
        Ending::Silent => {}
        Ending::EmptyFrame => {
            let _ = send.write_all(&[0, 0, 0, 0]).await;
        }
        Ending::Garbage => {
            let _ = send.write_all(&[5, 0, 0, 0, 0xff, 0xfe, 0xfd, 0xfc, 0xfb]).await;
        }
    }
    // The ending leaves before the laptop goes (a silent laptop goes at once).
    if ending != Ending::Silent {
        let _ = tokio::time::timeout(std::time::Duration::from_millis(50), connection.closed()).await;
    }
    connection.close(0u32.into(), b"bye");
    endpoint.wait_idle().await;
    Ok(right)
}

/// Sends real QUIC Initials (each a fresh connection attempt's, captured on the way) to
/// `target` that never answer — a spoofer — at `per_s` for `time`: from `from`, or from
/// random 127.x.y.z addresses. Returns how many it sent.
pub async fn spoof_initials(
    target: std::net::SocketAddr,
    fingerprint: &str,
    per_s: u32,
    time: std::time::Duration,
    from: Option<std::net::IpAddr>,
) -> usize {
    use rand::{RngExt, SeedableRng};
    use std::time::Duration;
    let capture = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let mut client = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    client.set_default_client_config(bolide_host::net::tls::client_config(fingerprint).unwrap());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
    let (started, mut sent, mut attempts) = (std::time::Instant::now(), 0usize, Vec::new());
    let mut buf = vec![0u8; 2048];
    while started.elapsed() < time {
        let due = (started.elapsed().as_secs_f64() * f64::from(per_s)) as usize;
        for _ in 0..due.saturating_sub(sent) {
            attempts.push(client.connect(capture.local_addr().unwrap(), "bolide.local").unwrap());
            let Ok(Ok(n)) = tokio::time::timeout(Duration::from_millis(50), capture.recv(&mut buf)).await else {
                continue;
            };
            let ip = from.unwrap_or_else(|| {
                std::net::IpAddr::from([127, rng.random_range(1..=254), rng.random(), rng.random_range(1..=254)])
            });
            if let Ok(socket) = std::net::UdpSocket::bind((ip, 0)) {
                sent += usize::from(socket.send_to(&buf[..n], target).is_ok());
            }
        }
        // Abandoned attempts are dropped by the batch (each would only retransmit its Initial).
        if attempts.len() > 512 {
            attempts.clear();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    sent
}

/// Waits until `connection` is closed; returns its application close code and reason, or
/// `None` if it ended another way. Fails after `limit`.
pub async fn closed_with(connection: &quinn::Connection, limit: std::time::Duration) -> Option<(u64, String)> {
    let why = tokio::time::timeout(limit, connection.closed()).await.expect("closed in time");
    match why {
        quinn::ConnectionError::ApplicationClosed(c) => {
            Some((c.error_code.into_inner(), String::from_utf8_lossy(&c.reason).into_owned()))
        }
        _ => None,
    }
}

/// Starts `bolide-host serve` as `cmd` says (with `--json`), its log appended to
/// `data/host.log` (kept across restarts for a failure to be read); returns the process and
/// the join line it printed.
pub fn spawn_host(mut cmd: std::process::Command, data: &std::path::Path) -> (Reaped, serde_json::Value) {
    use std::io::BufRead;
    let log = std::fs::OpenOptions::new().create(true).append(true).open(data.join("host.log")).unwrap();
    let mut child = cmd.stdout(std::process::Stdio::piped()).stderr(log).spawn().unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    (Reaped(child), serde_json::from_str(&line).unwrap_or_else(|e| panic!("`{line}`: {e}")))
}

/// A child process that is killed and reaped when dropped: a test that fails or times out
/// leaves no host running behind it.
pub struct Reaped(pub std::process::Child);

impl std::ops::Deref for Reaped {
    type Target = std::process::Child;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Reaped {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A laptop's bot, Anne, plays a table over QUIC to its end while the host is killed with
/// SIGKILL after each of `windows` and started again from its journal (`restart`); she comes
/// back to her seat with her token each time. Returns the standings she was told and the
/// number of kills; panics when the game is not over `longest` after the last kill.
pub async fn play_through_kills<W: bolide_client::bot::BotGame>(
    addr: std::net::SocketAddr,
    code: &str,
    connect: bolide_client::net::ConnectOptionsOf<W>,
    windows: &[std::time::Duration],
    longest: std::time::Duration,
    (mut host, restart): (Reaped, impl Fn() -> Reaped),
) -> (bolide_client::bot::Standings, usize) {
    use bolide_client::bot;
    let (mut token, mut kills) = (None, 0);
    let standings = loop {
        let session = bolide_client::net::SessionOf::connect_with(addr, code, "Anne", token, connect.clone())
            .await
            .expect("at the table");
        token = token.or(session.state().token);
        let mut quiet = bot::quiet;
        let plan = bot::Plan::new(bolide::bots::BotLevel::Strategic, std::time::Duration::ZERO, 9);
        let play = bot::play_session(session, plan, &mut quiet);
        let window = windows.get(kills).copied().unwrap_or(longest);
        match tokio::time::timeout(window, play).await {
            Ok(result) => break result.expect("played to the end"),
            Err(_) if kills == windows.len() => panic!("the game did not end within {longest:?} of the last kill"),
            Err(_) => {}
        }
        host.kill().expect("the host is killed");
        host.wait().expect("and reaped");
        kills += 1;
        host = restart();
    };
    let _ = host.wait();
    assert!(token.is_some(), "the laptop had a seat to come back to");
    (standings, kills)
}
