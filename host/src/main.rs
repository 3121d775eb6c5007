//! `bolide-host`: the command line around the engine.

use anyhow::Context;
use bolide::bots::BotLevel;
use bolide_host::games::{Registry, SimulateAsk};
use bolide_host::{scenario, verify};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use tracing::Level;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::prelude::*;

#[derive(Parser)]
#[command(name = "bolide-host", version, about = "Bolide LAN: the host, the rules engine and its tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Host a game night: a QUIC server for one room (see the README).
    Serve(Box<bolide_host::serve::ServeArgs>),
    /// Apply a JSON scenario through a game's engine (Bolide's, or the one its `"game"` field
    /// names) and print the final state and event log.
    Scenario {
        /// The scenario file (see docs/scenario-format.md).
        file: PathBuf,
    },
    /// Check a championship's dice from the host's journal: replays it and checks every
    /// reservoir, pawn order, accelerator roll, bonus token and drawn first player against
    /// the seed, and the seed against its commitment.
    Verify {
        /// The journal: `championship.journal` in the host's data folder (`serve --data-dir`).
        journal: PathBuf,
        /// The commitment your lobby showed (64 hex digits), to check the journal against it.
        #[arg(long)]
        commitment: Option<String>,
    },
    /// Narrate a championship from the host's journal: every event in plain words, the board
    /// after each round, the standings.
    Replay {
        /// The journal: `championship.journal` in the host's data folder.
        journal: PathBuf,
        /// en or fr (default: the system's language).
        #[arg(long)]
        lang: Option<String>,
    },
    /// Play bot races (or 1000 Bornes games or hands) and print statistics as JSON.
    Simulate {
        /// The game: bolide, mille-bornes or entenrallye.
        #[arg(long, default_value = "bolide")]
        game: String,
        #[arg(long, default_value_t = 1000)]
        races: u32,
        /// Players: 3 to 6 for Bolide; 2, 3, 4, 6 or 8 for 1000 Bornes; 2 to 6 for Entenrallye.
        #[arg(long, default_value_t = 4)]
        players: u8,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Bot levels, rotated over the seats race after race (Bolide).
        #[arg(long, value_delimiter = ',', default_value = "strategic,random")]
        levels: Vec<BotLevel>,
        /// 1000 Bornes: whole games to 5000 of one strategic bot against random-legal ones
        /// (`good_bot_win_rate`); Entenrallye: whole years of strategic bots (the board's
        /// figures), then as many with one strategic bot against random-legal ones.
        #[arg(long, default_value_t = 1000)]
        games: u32,
        /// 1000 Bornes: instead, this many hands of random-legal bots on one core, for the
        /// engine's speed (`hands_per_second`).
        #[arg(long)]
        hands: Option<u32>,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Serve(args) => {
            // `RUST_LOG` as targets and levels (`info,quinn=debug`).
            let filter = std::env::var("RUST_LOG").ok().and_then(|s| s.parse::<Targets>().ok());
            let filter =
                filter.unwrap_or_else(|| Targets::new().with_default(Level::INFO).with_target("quinn", Level::WARN));
            tracing_subscriber::fmt().with_writer(std::io::stderr).finish().with(filter).init();
            let runtime = tokio::runtime::Runtime::new()?;
            runtime.block_on(bolide_host::serve::run(*args))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Scenario { file } => {
            let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let report =
                scenario::run_any_text(&text, file.parent()).with_context(|| format!("scenario {}", file.display()))?;
            println!("{}", serde_json::to_string_pretty(&report.output)?);
            if let Some(failure) = &report.failure {
                eprintln!("error: {failure}");
                return Ok(ExitCode::FAILURE);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay { journal, lang } => {
            let lang = match lang {
                Some(l) => l.parse().map_err(anyhow::Error::msg).context("--lang")?,
                None => bolide_words::lang::Lang::from_env(),
            };
            let text =
                std::fs::read_to_string(&journal).with_context(|| format!("cannot read {}", journal.display()))?;
            let narration =
                bolide_host::games::narrate(&text, lang.words()).with_context(|| journal.display().to_string())?;
            print!("{narration}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify { journal, commitment } => {
            let expected = match commitment.as_deref().map(verify::parse_commitment) {
                Some(None) => anyhow::bail!("--commitment: 64 hex digits, as the lobby shows it"),
                Some(Some(c)) => Some(c),
                None => None,
            };
            let text =
                std::fs::read_to_string(&journal).with_context(|| format!("cannot read {}", journal.display()))?;
            let verdict = Registry::standard()
                .of_journal(&text)
                .and_then(|game| (game.verify)(&text, expected))
                .with_context(|| journal.display().to_string())?;
            for line in &verdict.lines {
                println!("{line}");
            }
            Ok(if verdict.holds { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::Simulate { game, races, players, seed, levels, games, hands } => {
            let ask = SimulateAsk { players, seed, races, levels, games, hands };
            let report = (Registry::standard().get(&game).context("--game")?.simulate)(&ask)?;
            println!("{}", serde_json::to_string_pretty(&report)?);
            Ok(ExitCode::SUCCESS)
        }
    }
}
