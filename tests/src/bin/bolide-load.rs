//! `bolide-load`: how many rooms of bots the host sustains on this machine.
//!
//! The host runs in a child process (so its memory is its own): `--rooms` rooms, no host bots.
//! This process connects `--bots-per-room` bot clients to every room over real QUIC on
//! loopback, each from an address of its own (127.1.x.y, as each guest's device has its
//! own); they play with `--think-ms` of thinking per decision (a lively human table)
//! for `--seconds`, then the host reports: messages handled, the host's added latency per
//! message (arrival at the room → every resulting frame handed to the connection writers),
//! and its peak and current RSS, and how many connections were lost and taken up again
//! (a bot that loses its connection comes back with its seat token, as `bolide-bot` does).
//! Bounded in time; everything stays on loopback.
//!
//! `cargo run --release -p bolide-tests --bin bolide-load -- --rooms 500 --bots-per-room 6`

use bolide::bots::BotLevel;
use bolide_client::bot;
use bolide_client::net::Via;
use bolide_host::net::server::Limits;
use bolide_host::net::web::Bundle;
use bolide_host::net::{Identity, Journal, Server};
use bolide_host::serve::ServeArgs;
use clap::Parser;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Parser, Clone)]
struct Args {
    #[arg(long, default_value_t = 100)]
    rooms: usize,
    #[arg(long, default_value_t = 6)]
    bots_per_room: usize,
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Each bot's thinking time per decision.
    #[arg(long, default_value_t = 250)]
    think_ms: u64,
    /// New connections per second while filling the rooms (a handshake costs the host a
    /// signature; at 300/s on this machine, with thousands of bots already playing, a few
    /// handshakes time out).
    #[arg(long, default_value_t = 100)]
    connect_rate: u64,
    /// The bot clients' nice value: on a game night the host's laptop does not also run
    /// thousands of clients, so the host gets the CPU first (0: both processes share the
    /// cores equally, and the host's socket drops packets when the clients crowd it out; 10:
    /// the clients starve and lose their own connections).
    #[arg(long, default_value_t = 4)]
    clients_nice: i32,
    /// Journal every room to a file with fsync (as `serve` does).
    #[arg(long)]
    journal: bool,
    /// Every other room plays 1000 Bornes (the bots join whichever game their room plays).
    #[arg(long)]
    mix: bool,
    /// Of each room's bots, one in this many comes by the browser door (a sealed WebSocket)
    /// instead of QUIC, as a browser's page would: 3 puts a third of the seats there (0: none).
    #[arg(long, default_value_t = 0)]
    web_every: usize,
    /// Internal: run as the host.
    #[arg(long, hide = true)]
    role_host: bool,
}

fn rss_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.role_host {
        return run_host(&args);
    }
    let mut child = Command::new(std::env::current_exe()?)
        .args(["--role-host", "--rooms", &args.rooms.to_string(), "--think-ms", &args.think_ms.to_string()])
        .args(if args.journal { vec!["--journal"] } else { vec![] })
        .args(if args.mix { vec!["--mix"] } else { vec![] })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
    let hello: serde_json::Value = serde_json::from_str(&lines.next().expect("host speaks")?)?;
    let addr: std::net::SocketAddr = hello["addr"].as_str().expect("addr").parse()?;
    let web: std::net::SocketAddr = hello["web"].as_str().expect("web").parse()?;
    let codes: Vec<String> =
        hello["codes"].as_array().expect("codes").iter().map(|c| c.as_str().unwrap().to_string()).collect();
    let base_rss_kb = hello["rss_kb"].as_u64().unwrap_or(0);
    eprintln!("host up at {addr}: {} rooms, {} KB before any client", codes.len(), base_rss_kb);
    // Before the runtime exists: its worker threads inherit this thread's nice value.
    // SAFETY: setpriority only reads its arguments; `0` means the calling thread on Linux.
    if unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, args.clients_nice) } != 0 {
        eprintln!("could not set the clients' nice value: {}", std::io::Error::last_os_error());
    }

    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let started = Instant::now();
    let finished = runtime.block_on(async {
        let mut tasks = Vec::new();
        let gap = Duration::from_micros(1_000_000 / args.connect_rate.max(1));
        for (r, code) in codes.iter().enumerate() {
            for b in 0..args.bots_per_room {
                let (code, think) = (code.clone(), Duration::from_millis(args.think_ms));
                let level = if b % 2 == 0 { BotLevel::Strategic } else { BotLevel::Random };
                let seed = (r as u64).wrapping_mul(10).wrapping_add(b as u64);
                let by_web = args.web_every > 0 && b % args.web_every == 0;
                let (addr, via) = if by_web { (web, Via::Web) } else { (addr, Via::Quic) };
                let plan = bot::Plan::new(level, think, seed).by(via).from_address(device(tasks.len()));
                tasks.push(tokio::spawn(async move {
                    bolide_client::games::Registry::standard()
                        .play(addr, &code, &format!("r{r}b{b}"), plan)
                        .await
                        .map_err(|e| (e.to_string(), started.elapsed().as_secs_f64()))
                }));
                tokio::time::sleep(gap).await;
            }
        }
        eprintln!("{} bots connected in {:.1} s", tasks.len(), started.elapsed().as_secs_f64());
        tokio::time::sleep(Duration::from_secs(args.seconds)).await;
        let (mut done, mut failed, mut first_error, mut failed_at) = (0, 0, None, Vec::new());
        for t in tasks {
            if t.is_finished() {
                match t.await {
                    Ok(Ok(_)) => done += 1,
                    Ok(Err((e, at))) => {
                        failed += 1;
                        first_error.get_or_insert(e);
                        failed_at.push((at * 10.0).round() / 10.0);
                    }
                    Err(_) => failed += 1,
                }
            } else {
                t.abort();
            }
        }
        failed_at.sort_by(f64::total_cmp);
        (done, failed, first_error, failed_at)
    });
    let (finished, failed, first_error, failed_at) = finished;
    let comebacks = bot::comebacks();
    let mut stdin = child.stdin.take().expect("piped");
    writeln!(stdin, "report")?;
    let report: serde_json::Value = serde_json::from_str(&lines.next().expect("report")?)?;
    child.wait()?;
    let peak = report["peak_rss_kb"].as_u64().unwrap_or(0);
    let per_room_kb = peak.saturating_sub(base_rss_kb) / args.rooms.max(1) as u64;
    let summary = serde_json::json!({
        "rooms": args.rooms,
        "bots_per_room": args.bots_per_room,
        "think_ms": args.think_ms,
        "journal": args.journal,
        "mix": args.mix,
        "clients_nice": args.clients_nice,
        "seconds_of_play": args.seconds,
        "bots_finished_their_championship": finished,
        "bots_failed": failed,
        "first_bot_error": first_error,
        "bots_failed_at_s": failed_at,
        "bot_comebacks": comebacks,
        "host": report,
        "host_rss_per_room_kb": per_room_kb,
    });
    println!("{summary}");
    eprintln!(
        "{} rooms x {} bots: {} messages, host added latency p50 {} µs, p99 {} µs, p99.9 {} µs; peak RSS {} MB ({} KB per room); \
         {} connections lost and joined again ({} with a seat token), {} bots failed",
        args.rooms,
        args.bots_per_room,
        report["handled"],
        report["p50_us"],
        report["p99_us"],
        report["p999_us"],
        peak / 1024,
        per_room_kb,
        comebacks,
        report["comebacks"],
        failed
    );
    Ok(())
}

/// The `i`-th bot's address on loopback (127.1.0.1 onwards; all of 127/8 is this machine's):
/// each bot a device of its own, as each guest's phone or laptop is, so that the door's
/// budgets per address see what a game night's show them. A host taking a thousand bots
/// from one address would take each exchange still in flight for a guess from it.
fn device(i: usize) -> std::net::IpAddr {
    let (hi, lo) = (i / 254 % 256, i % 254 + 1);
    std::net::Ipv4Addr::new(127, 1, hi as u8, lo as u8).into()
}

fn run_host(args: &Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async {
        let dir = std::env::temp_dir().join(format!("bolide-load-{}", std::process::id()));
        let identity = Identity::load_or_create(&dir.join("identity"))?;
        // Thousands of clients, each from an address of its own (`device`): a game night's
        // caps on connections, handshakes and exchanges over the code word at once would
        // refuse them (on a slow machine a hundred joins a second hold more than 20 tries in
        // flight); those per address stay a game night's.
        let connections = args.rooms.saturating_mul(args.bots_per_room).saturating_add(64);
        let limits = Limits { connections, pending: connections, host_tries: connections, ..Limits::default() };
        let server = Server::bind_with("127.0.0.1:0".parse()?, &identity, limits)?;
        // The games come from the host's registry, each room opened from the table's flags as
        // `serve` opens one: Bolide's three races on a circuit of their own, a second-long
        // countdown; with --mix every other room 1000 Bornes to 5000.
        let games = bolide_host::games::Registry::standard();
        let (bolide, mille_bornes) = (games.get("bolide")?, games.get("mille-bornes")?);
        let mut codes = Vec::new();
        for r in 0..args.rooms {
            let journal =
                if args.journal { Journal::File(dir.join(format!("room{r}.journal"))) } else { Journal::None };
            let game = if args.mix && r % 2 == 1 { mille_bornes } else { bolide };
            let (circuit, seed) = (format!("random:{r}"), r.to_string());
            let flags = ["--races", "3", "--circuit", &circuit, "--lift-delay-ms", "1000", "--seed", &seed];
            let flags = ServeArgs::parse_words(flags.map(String::from))?;
            codes.push(game.add_room(&server, &flags, &format!("R{r}"), journal)?);
        }
        // The browser door beside QUIC's, no page: its bots come by the link alone.
        let web = server.serve_web("127.0.0.1:0".parse()?, Bundle::empty()).await?;
        let hello = serde_json::json!({
            "addr": server.local_addr().to_string(),
            "web": web.to_string(),
            "codes": codes,
            "rss_kb": rss_kb("VmRSS:"),
        });
        println!("{hello}");
        std::io::stdout().flush()?;
        // Wait for the parent's "report" (or its end).
        let _ = tokio::task::spawn_blocking(|| {
            let mut line = String::new();
            let _ = std::io::stdin().read_line(&mut line);
        })
        .await;
        let mut samples = server.stats.take_samples();
        samples.sort_unstable();
        let report = serde_json::json!({
            "handled": samples.len(),
            "heartbeats": server.stats.heartbeats.load(std::sync::atomic::Ordering::Relaxed),
            "probes": server.stats.probes.load(std::sync::atomic::Ordering::Relaxed),
            "comebacks": server.stats.comebacks.load(std::sync::atomic::Ordering::Relaxed),
            "p50_us": percentile(&samples, 0.50),
            "p99_us": percentile(&samples, 0.99),
            "p999_us": percentile(&samples, 0.999),
            "max_us": samples.last().copied().unwrap_or(0),
            "peak_rss_kb": rss_kb("VmHWM:"),
            "rss_kb": rss_kb("VmRSS:"),
        });
        println!("{report}");
        std::io::stdout().flush()?;
        let _ = std::fs::remove_dir_all(&dir);
        anyhow::Ok(())
    })
}
