//! `bolide-abuse`: the host's resources and the game's pace while strangers on the same network
//! misbehave (#10's threat model, measured).
//!
//! Each scenario starts a fresh host in a child process (`bolide-host serve`'s own code, so its
//! memory is its own) with a live championship — Ana (a bot client over QUIC), Bo (a second
//! seated laptop) and two host bots — and runs one abuse beside it for `--seconds`. Bo leaves
//! after the start, stays without playing (`afk`), or is the flooder, closed over and over
//! (`flood`, compared with `afk`). Reported per scenario: the game's pace (journaled actions
//! a second, against the table it is compared with), the host's peak RSS,
//! and what the host did with the abuse. Everything stays on 127.0.0.1 and ends in time.
//!
//! `cargo run --release -p bolide-tests --bin bolide-abuse`

use bolide::Action;
use bolide::ClientMsg;
use bolide::bots::BotLevel;
use bolide_client::bot;
use bolide_client::games::bolide::Session;
use clap::Parser;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Parser)]
struct Args {
    /// Seconds each abuse runs against the championship (pace measured over them).
    #[arg(long, default_value_t = 15)]
    seconds: u64,
    /// Only these scenarios (default: all).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Internal: run as the host, with `serve`'s arguments after `--`.
    #[arg(long, hide = true)]
    role_host: bool,
    #[arg(last = true, hide = true)]
    serve: Vec<String>,
}

/// Each abuse and the table it is compared with: `baseline` (Bo left: a stand-in plays his
/// seat at bot speed) or `afk` (Bo stays and never plays: each of his decisions waits for his
/// time limit, as the flooder's do — a pilot who does not play slows any table that much).
const SCENARIOS: [(&str, &str); 9] = [
    ("baseline", "baseline"),
    ("slow-hellos", "baseline"),
    ("streams", "baseline"),
    ("spectators", "baseline"),
    ("datagrams", "baseline"),
    ("datagrams-max", "baseline"),
    ("browser-door", "baseline"),
    ("afk", "afk"),
    ("flood", "afk"),
];

/// Counters an abuse keeps of what happened to it.
#[derive(Default)]
struct Tally {
    tried: AtomicU64,
    accepted: AtomicU64,
    refused: AtomicU64,
    closed: AtomicU64,
    sent: AtomicU64,
}

impl Tally {
    fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
    fn line(&self) -> String {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        format!(
            "tried {}, let in {}, refused {}, closed by the host {}, sent {}",
            get(&self.tried),
            get(&self.accepted),
            get(&self.refused),
            get(&self.closed),
            get(&self.sent)
        )
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.role_host {
        let serve = bolide_host::serve::ServeArgs::parse_words(args.serve)?;
        let runtime = tokio::runtime::Runtime::new()?;
        return runtime.block_on(bolide_host::serve::run(serve));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let window = Duration::from_secs(args.seconds);
    let mut paces = std::collections::BTreeMap::new();
    println!("| abuse | what the host did | pace (actions/s) | against | host peak RSS | host CPU |");
    println!("|---|---|---|---|---|---|");
    for (name, against) in SCENARIOS.iter().filter(|(s, _)| args.only.is_empty() || args.only.iter().any(|o| o == s)) {
        let run = runtime.block_on(scenario(name, window))?;
        paces.insert(*name, run.pace);
        let delta = match paces.get(against) {
            Some(base) if name != against && *base > 0.0 => {
                format!("{:+.1} % vs {against}", (run.pace / base - 1.0) * 100.0)
            }
            _ => "—".into(),
        };
        let rss = run.peak_rss_kb as f64 / 1024.0;
        println!("| {name} | {} | {:.1} | {delta} | {rss:.1} MB | {:.0} % |", run.tally, run.pace, run.cpu);
    }
    Ok(())
}

struct Run {
    pace: f64,
    peak_rss_kb: u64,
    /// The host's CPU over the window, in % of one core.
    cpu: f64,
    tally: String,
}

async fn scenario(name: &str, window: Duration) -> anyhow::Result<Run> {
    let data = std::env::temp_dir().join(format!("bolide-abuse-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data)?;
    let (mut host, addr, web, code) = start_host(&data)?;
    let pid = host.id();
    let tally = Arc::new(Tally::default());
    // Bo sits first: the championship starts once Ana is ready too.
    let mut bo = Session::connect(addr, &code, "Bo", None).await?;
    bo.send(&ClientMsg::Ready(true)).await?;
    let bo_token = bo.state().token;
    let ana = tokio::spawn({
        let code = code.clone();
        async move { bot::play(addr, &code, "Ana", BotLevel::Strategic, Duration::ZERO, 1, &mut bot::quiet).await }
    });
    let journal = data.join("championship.journal");
    let started = Instant::now();
    while actions(&journal) < 10 {
        anyhow::ensure!(started.elapsed() < Duration::from_secs(30), "the championship did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let abuse = match name {
        "flood" => tokio::spawn(flood(addr, code.clone(), bo, bo_token, tally.clone())),
        "afk" => tokio::spawn(async move { while bo.next().await.is_ok() {} }),
        _ => {
            bo.close().await;
            let tally = tally.clone();
            let code = code.clone();
            match name {
                "slow-hellos" => tokio::spawn(slow_hellos(addr, code, tally)),
                "streams" => tokio::spawn(streams(addr, code, tally)),
                "spectators" => tokio::spawn(spectators(addr, code, tally)),
                // About what one laptop pushes over Wi-Fi (20 000 small packets a second)…
                "datagrams" => tokio::spawn(datagrams(addr, code, tally, Some(5_000))),
                // …and as fast as loopback takes them, which no Wi-Fi carries.
                "datagrams-max" => tokio::spawn(datagrams(addr, code, tally, None)),
                "browser-door" => tokio::spawn(browser_door(web, tally)),
                _ => tokio::spawn(std::future::pending()),
            }
        }
    };
    // The abuse ramps up for two seconds, then the pace is measured beside it.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (from, t0, cpu0) = (actions(&journal), Instant::now(), cpu_ticks(pid));
    let mut peak = 0;
    while t0.elapsed() < window {
        peak = peak.max(rss_kb(pid, "VmRSS:"));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let pace = (actions(&journal) - from) as f64 / t0.elapsed().as_secs_f64();
    // SAFETY: sysconf only reads its argument.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let cpu = (cpu_ticks(pid) - cpu0) as f64 / hz / t0.elapsed().as_secs_f64() * 100.0;
    let peak = peak.max(rss_kb(pid, "VmHWM:"));
    abuse.abort();
    ana.abort();
    let alive = host.try_wait()?.is_none();
    host.kill()?;
    host.wait()?;
    let _ = std::fs::remove_dir_all(&data);
    anyhow::ensure!(alive, "the host died during {name}");
    let tally = if matches!(name, "baseline" | "afk") { "—".into() } else { tally.line() };
    Ok(Run { pace, peak_rss_kb: peak, cpu, tally })
}

fn start_host(data: &Path) -> anyhow::Result<(Child, SocketAddr, SocketAddr, String)> {
    let mut child = Command::new(std::env::current_exe()?)
        .args(["--role-host", "--", "--bind", "127.0.0.1:0", "--json", "--no-mdns", "--code", "GARE"])
        .args(["--bots", "2", "--races", "20", "--bot-delay-ms", "30", "--lift-delay-ms", "100"])
        .args(["--turn-timeout-s", "1", "--grab-timeout-s", "1", "--data-dir"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line)?;
    let info: serde_json::Value = serde_json::from_str(&line)?;
    let addr = info["addresses"][0].as_str().unwrap_or_default().parse()?;
    let code = info["code"].as_str().unwrap_or_default().to_string();
    let web = info["web"][0].as_str().unwrap_or_default().trim_start_matches("http://").parse()?;
    Ok((child, addr, web, code))
}

fn actions(journal: &PathBuf) -> usize {
    std::fs::read_to_string(journal).map_or(0, |j| j.lines().count())
}

/// The process's user + system CPU time so far, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may hold spaces) — utime and stime are 14 and 15.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |i: usize| fields.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    field(11) + field(12)
}

fn rss_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// A client endpoint that trusts the host's certificate, for connections that never say hello.
fn endpoint(code: &str) -> anyhow::Result<quinn::Endpoint> {
    let (_, fingerprint) = bolide_host::net::split_code(code).ok_or_else(|| anyhow::anyhow!("room code"))?;
    let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse()?)?;
    endpoint.set_default_client_config(bolide_host::net::tls::client_config(&fingerprint)?);
    Ok(endpoint)
}

/// 2 000 connections that start a hello and never finish it, 200 a second, each held open.
async fn slow_hellos(addr: SocketAddr, code: String, tally: Arc<Tally>) {
    let Ok(endpoint) = endpoint(&code) else { return };
    let mut held = Vec::new();
    for _ in 0..2000 {
        Tally::add(&tally.tried);
        let connecting = endpoint.connect(addr, "bolide.local");
        let tally = tally.clone();
        held.push(tokio::spawn(async move {
            let Ok(connecting) = connecting else { return Tally::add(&tally.refused) };
            let Ok(Ok(connection)) = tokio::time::timeout(Duration::from_secs(5), connecting).await else {
                return Tally::add(&tally.refused);
            };
            Tally::add(&tally.accepted);
            if let Ok((mut send, _recv)) = connection.open_bi().await {
                let _ = send.write_all(&[10, 0]).await;
                connection.closed().await;
                Tally::add(&tally.closed);
            }
        }));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    std::future::pending::<()>().await;
}

/// Strangers at the browser door, 400 connections a second in turns: heads sent a byte a
/// second (slow loris), the page asked for and never read, WebSocket links that knock with
/// garbage, and heads too long. Each is held until the host lets go of it.
async fn browser_door(web: SocketAddr, tally: Arc<Tally>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    for i in 0u64.. {
        Tally::add(&tally.tried);
        let tally = tally.clone();
        tokio::spawn(async move {
            let Ok(Ok(mut tcp)) =
                tokio::time::timeout(Duration::from_secs(2), tokio::net::TcpStream::connect(web)).await
            else {
                return Tally::add(&tally.refused);
            };
            let upgrade = "GET /link HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                           Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
            let sent = match i % 4 {
                0 => tcp.write_all(b"GET / HT").await,
                1 => tcp.write_all(b"GET /bolide_web_bg.wasm HTTP/1.1\r\nHost: x\r\n\r\n").await,
                2 => match tcp.write_all(upgrade.as_bytes()).await {
                    // A masked binary frame of garbage where the Knock goes.
                    Ok(()) => tcp.write_all(&[0x82, 0x84, 1, 2, 3, 4, 9, 9, 9, 9]).await,
                    Err(e) => Err(e),
                },
                _ => tcp.write_all(format!("GET / HTTP/1.1\r\nX: {}\r\n", "a".repeat(9_000)).as_bytes()).await,
            };
            if sent.is_err() {
                return Tally::add(&tally.refused);
            }
            Tally::add(&tally.accepted);
            Tally::add(&tally.sent);
            // Never read what comes, until the host ends the connection (or 40 s).
            let mut byte = [0u8; 1];
            let held = tokio::time::timeout(Duration::from_secs(40), async {
                loop {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    if i % 4 == 0 && tcp.write_all(b"T").await.is_err() {
                        return;
                    }
                    if i % 4 != 1 && matches!(tcp.read(&mut byte).await, Ok(0) | Err(_)) {
                        return;
                    }
                }
            });
            if held.await.is_ok() {
                Tally::add(&tally.closed);
            }
        });
        tokio::time::sleep(Duration::from_micros(2_500)).await;
    }
}

/// Six connections opening every stream they may, again and again.
async fn streams(addr: SocketAddr, code: String, tally: Arc<Tally>) {
    let Ok(endpoint) = endpoint(&code) else { return };
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let (endpoint, tally) = (endpoint.clone(), tally.clone());
        tasks.push(tokio::spawn(async move {
            loop {
                Tally::add(&tally.tried);
                let Ok(connecting) = endpoint.connect(addr, "bolide.local") else { return };
                let Ok(connection) = connecting.await else {
                    Tally::add(&tally.refused);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                Tally::add(&tally.accepted);
                let mut open = Vec::new();
                loop {
                    let opened = tokio::select! {
                        bi = connection.open_bi() => bi.map(|(s, _)| s).ok(),
                        uni = connection.open_uni() => uni.ok(),
                        _ = connection.closed() => None,
                    };
                    match opened {
                        Some(mut s) => {
                            let _ = s.write_all(&[0xff; 64]).await;
                            Tally::add(&tally.sent);
                            open.push(s);
                        }
                        None => break,
                    }
                }
                Tally::add(&tally.closed);
            }
        }));
    }
    std::future::pending::<()>().await;
}

/// Bo, seated, sends game messages as fast as the link takes them and never reads; closed,
/// Bo comes back with the seat token and does it again.
async fn flood(
    addr: SocketAddr,
    code: String,
    mut bo: Session,
    token: Option<bolide_table::wire::SeatToken>,
    tally: Arc<Tally>,
) {
    loop {
        let msg = ClientMsg::Act { seq: 0, action: Action::Klaxon, at_us: None };
        // Yielding now and then: Ana plays on the same runtime, and a loop that never yields
        // would slow her, not the host.
        let mut n = 0u32;
        while bo.send(&msg).await.is_ok() {
            Tally::add(&tally.sent);
            n = n.wrapping_add(1);
            if n.is_multiple_of(64) {
                tokio::task::yield_now().await;
            }
        }
        Tally::add(&tally.closed);
        loop {
            Tally::add(&tally.tried);
            match Session::connect(addr, &code, "Bo", token).await {
                Ok(again) => {
                    Tally::add(&tally.accepted);
                    bo = again;
                    break;
                }
                Err(_) => {
                    Tally::add(&tally.refused);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }
}

/// 1 000 spectators who join (100 a second) and never send a thing; they read what comes
/// (the host lets `MAX_SPECTATORS` in).
async fn spectators(addr: SocketAddr, code: String, tally: Arc<Tally>) {
    let mut tasks = Vec::new();
    for i in 0..1000 {
        let (code, tally) = (code.clone(), tally.clone());
        tasks.push(tokio::spawn(async move {
            Tally::add(&tally.tried);
            match Session::connect(addr, &code, &format!("Watcher {i}"), None).await {
                Ok(mut s) => {
                    Tally::add(&tally.accepted);
                    while s.next().await.is_ok() {}
                    Tally::add(&tally.closed);
                }
                Err(_) => Tally::add(&tally.refused),
            }
        }));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    std::future::pending::<()>().await;
}

/// Four joined spectators sending heartbeat datagrams, each `per_s` a second (or as fast as
/// they can). Past what a laptop sends the host closes them; they join again and go on, as an
/// attacker would.
async fn datagrams(addr: SocketAddr, code: String, tally: Arc<Tally>, per_s: Option<u64>) {
    let mut tasks = Vec::new();
    for i in 0..4 {
        let (code, tally) = (code.clone(), tally.clone());
        tasks.push(tokio::spawn(async move {
            loop {
                Tally::add(&tally.tried);
                let Ok(mut s) = Session::connect(addr, &code, &format!("Noisy {i}"), None).await else {
                    Tally::add(&tally.refused);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                Tally::add(&tally.accepted);
                let mut tick = tokio::time::interval(Duration::from_millis(10));
                'sending: loop {
                    for _ in 0..per_s.map_or(256, |r| r / 100) {
                        if s.heartbeat().is_err() {
                            Tally::add(&tally.closed);
                            break 'sending;
                        }
                        Tally::add(&tally.sent);
                    }
                    match per_s {
                        Some(_) => _ = tick.tick().await,
                        None => tokio::task::yield_now().await,
                    }
                }
            }
        }));
    }
    std::future::pending::<()>().await;
}
