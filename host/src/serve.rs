//! `bolide-host serve`: a host for a game night, unattended if need be.

use crate::flags::Opening;
pub use crate::flags::ServeArgs;
use crate::games::{Entry, Registry};
use crate::net::{Identity, Server, mdns::Advert};
use anyhow::Context;
use bolide_table::Seat;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

pub use bolide_link::files::default_data_dir;

/// The addresses to tell people: the bound one, or every interface's when bound to all.
fn join_addresses(bound: SocketAddr) -> Vec<SocketAddr> {
    if !bound.ip().is_unspecified() {
        return vec![bound];
    }
    let mut addrs: Vec<SocketAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .filter(|i| !i.is_loopback() && matches!(i.ip(), IpAddr::V4(_)))
        .map(|i| SocketAddr::new(i.ip(), bound.port()))
        .collect();
    if addrs.is_empty() {
        addrs.push(SocketAddr::from(([127, 0, 0, 1], bound.port())));
    }
    addrs
}

/// A host that is up: the server with its room, the code to tell people, where to join, and
/// the mDNS advertisement. `serve` and the window's "Host a game" both start one.
pub struct Hosting {
    /// The game the table plays, by its name.
    pub game: &'static str,
    /// Its name on the box.
    pub title: &'static str,
    /// Its entry in the registry (a field run scores through it).
    entry: Entry,
    pub server: Server,
    pub code: String,
    pub addresses: Vec<SocketAddr>,
    /// Where browsers join (`http://…`), when the browser door is open.
    pub web: Option<SocketAddr>,
    pub data_dir: PathBuf,
    pub advert: Option<Advert>,
}

impl Hosting {
    /// Keeps the mDNS advertisement's seat count up to date until the championship ends, a
    /// room fails (its reason), or `stop` resolves.
    pub async fn watch(&self, stop: impl std::future::Future<Output = ()>) -> Option<String> {
        let mut seats = self.server.seats.clone();
        let mut finished = self.server.finished.clone();
        let mut failed = self.server.failed.clone();
        tokio::pin!(stop);
        loop {
            tokio::select! {
                changed = failed.changed() => {
                    if changed.is_err() { return None; }
                    if let Some(why) = failed.borrow().clone() {
                        return Some(why);
                    }
                }
                _ = &mut stop => return None,
                changed = seats.changed() => {
                    if changed.is_err() { return None; }
                    if let Some(a) = &self.advert {
                        let _ = a.update(*seats.borrow());
                    }
                }
                changed = finished.changed() => {
                    if changed.is_err() || *finished.borrow() > 0 {
                        tracing::info!("the championship is over");
                        // Let the final standings reach everyone.
                        tokio::time::sleep(Duration::from_secs(2)).await;
                        return None;
                    }
                }
            }
        }
    }

    /// Stops advertising and closes every connection with a reason.
    pub async fn stop(self) {
        if let Some(a) = self.advert {
            a.stop();
        }
        self.server.shutdown().await;
    }
}

pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    let json = args.json;
    let resumed = args.resume;
    let field = args.fairness_test.then(|| (args.report.clone(), args.plot.clone()));
    let hosting = start(args).await?;
    // Listened for before the host says it is up: an interrupt right after the announcement
    // must close every connection with a reason, not kill the process.
    let interrupt = interrupted()?;
    let addr = hosting.server.local_addr();
    if json {
        let line = serde_json::json!({
            "game": hosting.game,
            "code": hosting.code,
            "addresses": hosting.addresses.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            "web": hosting.web_addresses().iter().map(|a| format!("http://{a}")).collect::<Vec<_>>(),
            "port": addr.port(),
            "data_dir": hosting.data_dir.display().to_string(),
            "resumed": resumed,
        });
        println!("{line}");
    } else {
        println!("{} host — room code {}", hosting.title, hosting.code);
        for a in &hosting.addresses {
            println!("  join at {a}");
        }
        let pages: Vec<String> =
            hosting.web_addresses().iter().filter_map(|a| bolide_link::web::page_url(*a, &hosting.code)).collect();
        for page in &pages {
            println!("  or from a phone or any browser: {page}");
        }
        if let Some(qr) = pages.first().and_then(|page| terminal_qr(page)) {
            println!("{qr}");
        }
        println!("(the part after the dash proves to every laptop that it reached this host)");
    }
    let ctrl_c = async {
        interrupt.await;
        tracing::info!("Ctrl-C: closing every connection; the journal lets you --resume");
    };
    let failure = hosting.watch(ctrl_c).await;
    let over = *hosting.server.finished.borrow() > 0;
    let field = match field {
        Some((report, plot)) if failure.is_none() && over => Some(field_run(&hosting, report, plot).await),
        _ => None,
    };
    hosting.stop().await;
    if let Some(why) = failure {
        anyhow::bail!("{why}");
    }
    field.transpose().map(|_| ())
}

/// How long a field run waits after the championship for every laptop's record.
const FIELD_WAIT: Duration = Duration::from_secs(20);

/// A fairness field run's end: waits for the record of every seat whose laptop made a timed
/// request (or [`FIELD_WAIT`]), scores the verdicts, prints the table and writes the report.
async fn field_run(hosting: &Hosting, report: Option<PathBuf>, plot: Option<PathBuf>) -> anyhow::Result<()> {
    let log = &hosting.server.fair_log;
    let expected = hosting.entry.field_seats(log);
    let waited = tokio::time::Instant::now();
    while waited.elapsed() < FIELD_WAIT {
        let handed: Vec<Seat> = log.field_records().iter().map(|f| f.seat).collect();
        if expected.iter().all(|s| handed.contains(s)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let handed = log.field_records();
    let expected: Vec<(Seat, String)> = expected.into_iter().map(|s| (s, String::new())).collect();
    let scored = hosting.entry.field_report(log, &handed, &expected);
    println!("{}", crate::field::table(&scored));
    if let Some(path) = report {
        std::fs::write(&path, serde_json::to_string_pretty(&scored)? + "\n")
            .map_err(|e| anyhow::anyhow!("--report: cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = plot {
        let title = format!("Field run: order accuracy by reaction gap ({} pairs)", scored.summary.pairs);
        std::fs::write(&path, crate::fair::score::svg(&title, &scored.buckets))
            .map_err(|e| anyhow::anyhow!("--plot: cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Ctrl-C from now on. tokio's `ctrl_c` registers its listener only when first polled, and
/// until then an interrupt kills the process as by default (seen in CI: a SIGINT sent just
/// after the host announced itself closed no connection).
fn interrupted() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        Ok(async move {
            interrupt.recv().await;
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

/// Starts a host of this house's games from `serve`'s arguments (validated here, whoever
/// gives them).
pub async fn start(args: ServeArgs) -> anyhow::Result<Hosting> {
    start_in(&Registry::standard(), args).await
}

/// Starts a host of the games of `registry`.
pub async fn start_in(registry: &Registry, args: ServeArgs) -> anyhow::Result<Hosting> {
    let data_dir = match args.data_dir.clone() {
        Some(dir) => dir,
        None => default_data_dir()?,
    };
    crate::files::private_dir(&data_dir)
        .map_err(|e| anyhow::anyhow!("cannot keep the host's files in {}: {e}", data_dir.display()))?;
    let identity = Identity::load_or_create(&data_dir.join("identity"))?;
    let journal_path = data_dir.join("championship.journal");
    let resume = if args.resume {
        let text = std::fs::read_to_string(&journal_path).map_err(|e| {
            anyhow::anyhow!(
                "--resume: cannot read {}: {e} (nothing to resume: start without --resume)",
                journal_path.display()
            )
        })?;
        Some(text)
    } else {
        if journal_path.exists() {
            let old = data_dir.join(format!("championship.journal.{}", unix_time()));
            std::fs::rename(&journal_path, &old)?;
            tracing::info!("the previous championship's journal was kept as {}", old.display());
            prune_old_journals(&data_dir, KEPT_JOURNALS);
        }
        None
    };
    let asked = args.game.as_deref().map(|name| registry.get(name).context("--game")).transpose()?;
    let entry = *match (&resume, asked) {
        (None, game) => match game {
            Some(game) => game,
            None => registry.first()?,
        },
        (Some(text), asked) => {
            let journal = registry.of_journal(text).context("--resume")?;
            if let Some(asked) = asked.filter(|g| g.name != journal.name) {
                anyhow::bail!(
                    "--resume: the journal is a game of {}, not {}: drop --game, or pass --game {}",
                    journal.name,
                    asked.name,
                    journal.name
                );
            }
            journal
        }
    };
    anyhow::ensure!(
        !args.fairness_test || entry.timed,
        "--fairness-test: {} times nothing (every decision is one player's, in turn); drop the flag",
        entry.title
    );
    let mut server = Server::bind(args.bind, &identity)?;
    let web = open_web(&server, &args).await?;
    server.serve_games(registry.switchable(&args, entry.name)?);
    let code = entry.open(&server, &args, Opening { path: journal_path, resume: resume.as_deref() })?;
    let addr = server.local_addr();
    let addresses = join_addresses(addr);
    let advert = if args.no_mdns {
        None
    } else {
        match Advert::start(&args.table_name, &identity.code_suffix(), addr.port(), entry.name, args.mdns_loopback) {
            Ok(a) => Some(a),
            Err(e) => {
                tracing::warn!("mDNS advertisement unavailable ({e}); people join with the address above");
                None
            }
        }
    };
    Ok(Hosting { game: entry.name, title: entry.title, entry, server, code, addresses, web, data_dir, advert })
}

/// `text` as a QR code in a terminal, two rows of modules a line (dark on light, as a phone's
/// camera reads it whatever the terminal's colours).
fn terminal_qr(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .build(),
    )
}

/// The browser door, as the flags ask: on `--web-bind`, or beside the QUIC port. A door asked
/// for by address must open; the default one may be taken (another program on 47118), and the
/// table then goes on for the window alone, saying so.
async fn open_web(server: &Server, args: &ServeArgs) -> anyhow::Result<Option<SocketAddr>> {
    if args.no_web {
        return Ok(None);
    }
    let page = match &args.web_page {
        _ if args.no_web_page => crate::net::web::Bundle::empty(),
        Some(dir) => crate::net::web::Bundle::from_dir(dir).context("--web-page")?,
        None => crate::net::web::Bundle::built_in(),
    };
    let quic = server.local_addr();
    let addr = args.web_bind.unwrap_or_else(|| {
        let port = if quic.port() == 0 { 0 } else { quic.port().wrapping_add(1) };
        SocketAddr::new(args.bind.ip(), port)
    });
    match server.serve_web(addr, page).await {
        Ok(bound) => Ok(Some(bound)),
        Err(e) if args.web_bind.is_none() => {
            tracing::warn!("{e}; browsers cannot join this table");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

impl Hosting {
    /// The addresses to give browsers.
    pub fn web_addresses(&self) -> Vec<SocketAddr> {
        self.web.map(join_addresses).unwrap_or_default()
    }
}

fn unix_time() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// Finished championships' journals kept beside the current one (each new championship keeps
/// the last one's, so a table can still look at it; a practice folder would otherwise fill up
/// with one per practice race).
const KEPT_JOURNALS: usize = 8;

/// Removes all but the `keep` newest `championship.journal.<unix time>` files of `dir`. Best
/// effort: a journal that cannot be removed is left, and the host starts anyway.
fn prune_old_journals(dir: &std::path::Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut old: Vec<(u64, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let stamp = e.file_name().to_str()?.strip_prefix("championship.journal.")?.parse().ok()?;
            Some((stamp, e.path()))
        })
        .collect();
    old.sort_unstable();
    let extra = old.len().saturating_sub(keep);
    for (_, path) in old.into_iter().take(extra) {
        if let Err(e) = std::fs::remove_file(&path) {
            tracing::warn!("could not remove the old journal {}: {e}", path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_finished_journals_are_kept() {
        let dir = std::env::temp_dir().join(format!("bolide-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for stamp in [5, 100, 7, 42, 1_000] {
            std::fs::write(dir.join(format!("championship.journal.{stamp}")), "").unwrap();
        }
        // Not a finished journal: the current one, and a file someone put there.
        std::fs::write(dir.join("championship.journal"), "").unwrap();
        std::fs::write(dir.join("championship.journal.notes"), "").unwrap();
        prune_old_journals(&dir, 2);
        let mut left: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        assert_eq!(
            left,
            [
                "championship.journal",
                "championship.journal.100",
                "championship.journal.1000",
                "championship.journal.notes"
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
