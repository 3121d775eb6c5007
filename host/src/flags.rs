//! The table's flags — `serve`'s arguments, as typed after `bolide-host serve` or handed by an
//! embedding window — and a room opened from them: its code word, its journal, its timers
//! and its seed. `serve` starts a host with them; each game's host half reads its lobby from
//! them (`crate::games`).

use crate::net::{Journal, Server};
use crate::room::{JournalEntryOf, LobbyOf, RoomConfigOf, check_lobby, complete_len};
use crate::secret;
use bolide_table::wire::DEFAULT_PORT;
use bolide_table::{BotLevel, Game};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The game the table plays: bolide, mille-bornes or entenrallye (default: bolide; with
    /// --resume, the journal's).
    #[arg(long)]
    pub game: Option<String>,
    /// Address to listen on.
    #[arg(long, default_value_t = SocketAddr::from(([0, 0, 0, 0], DEFAULT_PORT)))]
    pub bind: SocketAddr,
    /// Where browsers join — the page and its link, over HTTP (default: --bind's address, the
    /// next port: 47118).
    #[arg(long)]
    pub web_bind: Option<SocketAddr>,
    /// Serve no browsers (laptops join with the window only).
    #[arg(long)]
    pub no_web: bool,
    /// The browser client's page: a folder of its built files (index.html, .js, .wasm), read
    /// into memory once when the host starts (default: the page built into this host).
    #[arg(long, value_name = "DIR")]
    pub web_page: Option<PathBuf>,
    /// Serve browsers no page: the door still seats a link (a page from elsewhere, a bot).
    #[arg(long, conflicts_with = "web_page")]
    pub no_web_page: bool,
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

/// Where a room's journal goes, and the text of the one it continues (`--resume`).
pub struct Opening<'a> {
    pub path: PathBuf,
    pub resume: Option<&'a str>,
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
}
