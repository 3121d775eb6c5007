//! `bolide-host serve`: a host for a game night, unattended if need be.

use crate::games::{Entry, Registry};
use crate::net::{Identity, Journal, Server, mdns::Advert};
use crate::room::{JournalEntryOf, LobbyOf, RoomConfigOf, check_lobby, complete_len};
use crate::secret;
use anyhow::Context;
use bolide_table::wire::DEFAULT_PORT;
use bolide_table::{BotLevel, Game, Seat};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The game the table plays: bolide, mille-bornes or entenrallye (default: bolide; with
    /// --resume, the journal's).
    #[arg(long)]
    pub game: Option<String>,
    /// Address to listen on.
    #[arg(long, default_value_t = SocketAddr::from(([0, 0, 0, 0], DEFAULT_PORT)))]
    pub bind: SocketAddr,
    /// Where the certificate and the championship journal live (default: a per-user data folder).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// The room's code word, 4 to 12 letters (default: six random letters). The printed code
    /// adds the certificate fingerprint after a dash. A word a person chose is weaker than a
    /// drawn one (the host says by how much when it starts).
    #[arg(long)]
    pub code: Option<String>,
    /// Print the join information as one JSON line.
    #[arg(long)]
    pub json: bool,
    /// The table's name, shown to laptops that find this host on the network (never the code).
    #[arg(long = "name", default_value = "Bolide")]
    pub table_name: String,
    /// Do not advertise the room with mDNS.
    #[arg(long)]
    pub no_mdns: bool,
    /// Advertise on the loopback interface only (tests).
    #[arg(long, hide = true)]
    pub mdns_loopback: bool,
    /// Continue the championship journaled in the data dir (after a crash).
    #[arg(long)]
    pub resume: bool,
    /// Races in the championship (B-7.1), 1 to 20.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=20))]
    pub races: u8,
    /// Seats the host's bots fill, on top of the people who join (Bolide: 3 to 6 pilots in
    /// all; 1000 Bornes: 2 to 8 players).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=7))]
    pub bots: u8,
    /// 1000 Bornes: a table option of the rules (M-14) as NAME=VALUE, repeated; the names and
    /// values of the lobby's settings, e.g. `--option target_km=700`, `--option window_ms=3000`,
    /// `--option teams=Random`, `--option 'mode={"Hands":{"hands":3}}'`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Practice Échanges: every pilot starts each round holding an Échange bonus (B-4.7).
    #[arg(long)]
    pub echange_drill: bool,
    /// Circuit: cannes, corniche, monaco, random:SEED (a new layout each race), or a file.
    #[arg(long, default_value = "random:1")]
    pub circuit: String,
    /// First player of the first race (B-1.7): `random` or a seat number.
    #[arg(long, default_value = "random")]
    pub first_player: String,
    /// Seconds a pilot may take over a decision before a bot plays it.
    #[arg(long, default_value_t = 30.0)]
    pub turn_timeout_s: f64,
    /// Seconds the grab waits for a pilot before a bot picks for it.
    #[arg(long, default_value_t = 8.0)]
    pub grab_timeout_s: f64,
    /// Milliseconds from the start of a round to the lift of the cup (at most a minute).
    #[arg(long, default_value_t = 1500, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub lift_delay_ms: u64,
    /// A host bot's thinking time in milliseconds (at most a minute).
    #[arg(long, default_value_t = 700, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub bot_delay_ms: u64,
    /// How well the host's bots play: random or strategic.
    #[arg(long, default_value_t = BotLevel::Strategic)]
    pub bot_level: BotLevel,
    /// Grab reactions faster than this are flagged in the log as anticipation (0 for bots).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=1_000))]
    pub plausible_reaction_ms: u64,
    /// Championship seed (default: random).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A fairness field run: after the championship, every laptop running `bolide-bot
    /// --fairness-test` hands in what it did on its own clock, and the host scores its
    /// verdicts against it (a table printed, and --report, --plot).
    #[arg(long)]
    pub fairness_test: bool,
    /// With --fairness-test: write the report as JSON to FILE (the lab's shape).
    #[arg(long, value_name = "FILE", requires = "fairness_test")]
    pub report: Option<PathBuf>,
    /// With --fairness-test: draw accuracy against the reaction gap as SVG to FILE.
    #[arg(long, value_name = "FILE", requires = "fairness_test")]
    pub plot: Option<PathBuf>,
}

impl ServeArgs {
    /// `serve`'s arguments from words, as typed after `bolide-host serve` — how a host is
    /// embedded (the window's "Host a game" and "Practice", `bolide --text`), so every setting
    /// is checked by the same code as on the command line.
    pub fn parse_words<I: IntoIterator<Item = String>>(words: I) -> Result<ServeArgs, clap::Error> {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            serve: ServeArgs,
        }
        let words = std::iter::once("serve".to_string()).chain(words);
        Ok(<Cli as clap::Parser>::try_parse_from(words)?.serve)
    }
}

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
        entry.title()
    );
    let mut server = Server::bind(args.bind, &identity)?;
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
    Ok(Hosting { game: entry.name, title: entry.title(), entry, server, code, addresses, data_dir, advert })
}

/// Where a room's journal goes, and the text of the one it continues (`--resume`).
pub struct Opening<'a> {
    path: PathBuf,
    resume: Option<&'a str>,
}

/// Opens the room that plays `G` with `lobby` and the table's flags, continuing the journal
/// when resuming; returns its code.
pub(crate) fn open_room<G: Game>(
    server: &Server,
    args: &ServeArgs,
    lobby: LobbyOf<G>,
    journal: Opening,
) -> anyhow::Result<String> {
    // Bolide's refusals name their flag (`races: …`), 1000 Bornes' their rule (`M-13.3: …`).
    check_lobby::<G>(&lobby, 0).map_err(|e| match e.starts_with(char::is_lowercase) {
        true => anyhow::anyhow!("--{e}"),
        false => anyhow::anyhow!("--option: {e}"),
    })?;
    let resume = match journal.resume {
        Some(text) => {
            let entries = JournalEntryOf::<G::Words>::parse_all(text)?;
            // A torn last line is cut before anything is appended after it.
            let complete = complete_len(text) as u64;
            if complete < text.len() as u64 {
                tracing::warn!(
                    "the journal's last line was torn by the crash; it is cut ({} bytes)",
                    text.len() as u64 - complete
                );
                std::fs::OpenOptions::new().write(true).open(&journal.path)?.set_len(complete)?;
            }
            Some(entries)
        }
        None => None,
    };
    let journal_word = resume.as_ref().and_then(|entries| match entries.first() {
        Some(JournalEntryOf::Started { code, .. }) => Some(code.clone()),
        _ => None,
    });
    let word = match (&args.code, &resume) {
        (Some(code), Some(_)) => resumed_word(code, journal_word.as_deref())?,
        (Some(code), None) => {
            let word = check_code_word(code)?;
            tracing::warn!("{}", chosen_word_cost(&word));
            word
        }
        (None, Some(_)) => journal_word
            .ok_or_else(|| anyhow::anyhow!("the journal holds no started championship: start without --resume"))?,
        (None, None) => secret::code_word()?,
    };
    server.add_room::<G>(table_config(args, &word, lobby)?, Journal::File(journal.path), resume)
}

/// A room's configuration from the table's flags: its code word, its lobby, its timers and its
/// seed (`--seed`, or the OS's random source).
pub(crate) fn table_config<L>(args: &ServeArgs, word: &str, lobby: L) -> anyhow::Result<RoomConfigOf<L>> {
    let seed = match args.seed {
        Some(seed) => seed,
        None => secret::u64()?,
    };
    let mut config = RoomConfigOf::new(word, lobby, seed);
    config.nonce = secret::nonce()?;
    config.turn_timeout_ms = seconds_flag("--turn-timeout-s", args.turn_timeout_s)?;
    config.moment_timeout_ms = seconds_flag("--grab-timeout-s", args.grab_timeout_s)?;
    config.countdown_ms = args.lift_delay_ms;
    config.bot_delay_ms = args.bot_delay_ms;
    config.plausible_reaction_ms = args.plausible_reaction_ms;
    config.field_test = args.fairness_test;
    Ok(config)
}

/// A time limit in seconds from the command line, as milliseconds: 1 s to an hour.
fn seconds_flag(flag: &str, seconds: f64) -> anyhow::Result<u64> {
    anyhow::ensure!(
        seconds.is_finite() && (1.0..=3600.0).contains(&seconds),
        "{flag}: {seconds} is not a time limit; give 1 to 3600 seconds"
    );
    Ok((seconds * 1000.0) as u64)
}

/// `--code`: the word people type, 4 to 12 letters or digits.
fn check_code_word(code: &str) -> anyhow::Result<String> {
    let word = code.trim().to_ascii_uppercase();
    anyhow::ensure!(
        (4..=12).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_alphanumeric()),
        "--code: `{code}` is not a code word; give 4 to 12 letters or digits (no dash: the host adds its fingerprint)"
    );
    Ok(word)
}

/// What a word a person chose costs, said when the host starts: the most guesses a 6-hour
/// night allows, and the chance they find it even if it were random letters and digits — a
/// word from a dictionary or a name falls far sooner.
fn chosen_word_cost(word: &str) -> String {
    let guesses = crate::net::door::guesses_in(6.0);
    let words = 36f64.powi(word.len() as i32);
    format!(
        "--code {word}: a word you chose is only as strong as it is hard to guess. The door takes at most \
         {guesses:.0} wrong codes in a 6-hour night; even as random letters and digits a {}-character word \
         falls within one with a chance of {:.2} %, a word from a dictionary or a name within minutes. \
         Leave --code out for a drawn word (a chance under 1 in 10 000).",
        word.len(),
        (guesses / words * 100.0).min(100.0)
    )
}

fn unix_time() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// The code word of a resumed room given `--code`: the journal's seats were admitted with the
/// journal's word, so the room keeps it; another word is an error that says what to do.
fn resumed_word(code: &str, journal_word: Option<&str>) -> anyhow::Result<String> {
    let code = check_code_word(code)?;
    match journal_word {
        Some(word) if word.eq_ignore_ascii_case(&code) => Ok(word.to_string()),
        Some(word) => anyhow::bail!(
            "--resume continues the championship whose code word is {word}; drop --code, or pass --code {word}"
        ),
        None => anyhow::bail!("the journal holds no started championship: start without --resume"),
    }
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
    fn resume_with_another_code_word_says_why_instead_of_refusing_every_laptop() {
        assert_eq!(resumed_word("gare", Some("GARE")).unwrap(), "GARE");
        let e = resumed_word("PISTE", Some("GARE")).unwrap_err().to_string();
        assert!(e.contains("pass --code GARE"), "{e}");
        // A chosen word is told what it costs: a short one a lot.
        assert!(chosen_word_cost("GARE").contains("0.64 %"), "{}", chosen_word_cost("GARE"));
        assert!(chosen_word_cost("GARAGE99").contains("0.00 %"), "{}", chosen_word_cost("GARAGE99"));
        assert!(resumed_word("GARE", None).is_err());
    }

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
