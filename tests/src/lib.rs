//! Helpers for the whole-system tests: a host in this process on 127.0.0.1, or the real
//! `bolide-host` binary in a child process (for crash tests); and the fairness lab ([`lab`]).

pub mod lab;

use bolide_host::game::table::RoomConfig;
use bolide_host::net::{Identity, Journal, Server};
use bolide_protocol::TableOptions;
use bolide_protocol::options::Settings;
use std::path::PathBuf;

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bolide-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    let code = server.add_room::<bolide_host::game::Championship>(config, Journal::None, None).unwrap();
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
pub async fn until_closed(session: &mut bolide_client::net::Session) -> bolide_client::net::ClientError {
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
        let plan = bot::Plan::new(bolide_host::bots::BotLevel::Strategic, std::time::Duration::ZERO, 9);
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
