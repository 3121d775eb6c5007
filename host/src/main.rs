//! `bolide-host`: the command line around the engine.

use anyhow::Context;
use bolide::bots::BotLevel;
use bolide::sim;
use bolide_host::{scenario, verify};
use bolide_words::GameKind;
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
    /// Apply a JSON scenario through the engine (Bolide's, or 1000 Bornes' with `"game":
    /// "mille-bornes"`) and print the final state and event log.
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
        game: GameKind,
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

/// `simulate --game mille-bornes`: the good bot's win rate over whole games, or the engine's
/// speed over hands of random-legal bots (timed here, at the binary's edge: the engine reads
/// no clock).
fn simulate_mille_bornes(players: u8, seed: u64, games: u32, hands: Option<u32>) -> anyhow::Result<serde_json::Value> {
    use mille_bornes::{Manche, sim};
    mille_bornes::Settings::default().check(players)?;
    Ok(match hands {
        Some(hands) => {
            let start = std::time::Instant::now();
            let plays = sim::play_hands(players, hands, seed)?;
            let seconds = start.elapsed().as_secs_f64().max(1e-9);
            serde_json::json!({
                "game": "mille-bornes",
                "players": players,
                "hands": hands,
                "plays": plays,
                "seconds": seconds,
                "hands_per_second": (f64::from(hands) / seconds).round(),
                "plays_per_second": (plays as f64 / seconds).round(),
                "state_bytes": std::mem::size_of::<Manche>(),
            })
        }
        None => {
            let start = std::time::Instant::now();
            let rate = sim::good_bot_win_rate(players, games, seed)?;
            serde_json::json!({
                "game": "mille-bornes",
                "players": players,
                "games": games,
                "good_bot_win_rate": rate,
                "seconds": start.elapsed().as_secs_f64(),
            })
        }
    })
}

/// `verify` for a game whose journal proves its replay and its seed's commitment (1000 Bornes:
/// the deal's own check is still to come).
fn verify_table<G: bolide_table::Game>(
    text: &str,
    expected: Option<bolide_table::seal::Commitment>,
) -> Result<ExitCode, verify::VerifyError> {
    let replayed = bolide_table::journal::replay_game::<G>(text)?;
    println!("commitment {}", replayed.commitment);
    println!("seed       {}", replayed.seed);
    if expected.is_some_and(|c| c != replayed.commitment) {
        println!("seed       DOES NOT MATCH the commitment given");
        return Ok(ExitCode::FAILURE);
    }
    let over = if replayed.over { ", game over" } else { " (not over)" };
    println!("replayed   {} actions{over}", replayed.actions);
    let mut standings = replayed.standings.unwrap_or_default();
    standings.sort_by_key(|l| (l.rank, l.seat.0));
    for line in &standings {
        println!("standing   {}. seat {}: {} points, {} wins", line.rank, line.seat.0, line.points, line.wins);
    }
    Ok(ExitCode::SUCCESS)
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
            let narration = verify::narrate(&text, lang.words())
                .map_err(|e| anyhow::Error::new(e).context(journal.display().to_string()))?;
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
            let other = match bolide_host::room::game_of(&text).as_deref() {
                Some(name) if name == GameKind::MilleBornes.name() => {
                    Some(verify_table::<mille_bornes::Partie>(&text, expected))
                }
                Some(name) if name == GameKind::Entenrallye.name() => {
                    Some(verify_table::<entenrallye::Rallye>(&text, expected))
                }
                _ => None,
            };
            if let Some(verified) = other {
                return verified.map_err(|e| anyhow::Error::new(e).context(journal.display().to_string()));
            }
            let verified = match verify::journal(&text, expected) {
                Ok(verified) => verified,
                Err(verify::VerifyError::Dice(mismatch)) => {
                    println!("dice       DO NOT MATCH: {mismatch}");
                    return Ok(ExitCode::FAILURE);
                }
                Err(e) => return Err(anyhow::Error::new(e).context(journal.display().to_string())),
            };
            println!("commitment {}", verified.commitment);
            println!("seed       {}", verified.seed);
            println!(
                "replayed   {} actions, {} race{}{}",
                verified.actions,
                verified.races,
                if verified.races == 1 { "" } else { "s" },
                if verified.over {
                    ", championship over"
                } else {
                    " (not over: the pilots have not seen the seed yet)"
                }
            );
            for line in &verified.standings {
                println!(
                    "standing   {}. seat {}: {} points, {} race wins",
                    line.rank, line.seat.0, line.points, line.wins
                );
            }
            let against = if expected.is_some() { "the commitment given" } else { "its commitment" };
            println!("dice       all match the seed and {against}: {}", verified.report);
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate { game: GameKind::Bolide, races, players, seed, levels, .. } => {
            anyhow::ensure!((3..=6).contains(&players), "Bolide plays 3 to 6 pilots (B-1.1), not {players}");
            let start = std::time::Instant::now();
            let report = sim::simulate(races, players, seed, &levels)?;
            let elapsed = start.elapsed().as_secs_f64();
            let mut json = serde_json::to_value(&report)?;
            if let Some(fields) = json.as_object_mut() {
                fields.insert("races_per_second".into(), (f64::from(races) / elapsed.max(1e-9)).into());
                fields.insert("elapsed_s".into(), elapsed.into());
            }
            println!("{}", serde_json::to_string_pretty(&json)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate { game: GameKind::MilleBornes, players, seed, games, hands, .. } => {
            println!("{}", serde_json::to_string_pretty(&simulate_mille_bornes(players, seed, games, hands)?)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate { game: GameKind::Entenrallye, players, seed, games, .. } => {
            entenrallye::Settings::default().check(players).map_err(anyhow::Error::msg)?;
            let figures = entenrallye::sim::figures(players, u64::from(games), seed).map_err(anyhow::Error::msg)?;
            let rate =
                entenrallye::sim::strategic_win_rate(players, u64::from(games), seed).map_err(anyhow::Error::msg)?;
            let report = serde_json::json!({ "game": "entenrallye", "figures": figures, "good_bot_win_rate": rate });
            println!("{}", serde_json::to_string_pretty(&report)?);
            Ok(ExitCode::SUCCESS)
        }
    }
}
