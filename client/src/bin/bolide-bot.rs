//! `bolide-bot`: N bots join a host, play whichever game it runs until it ends, then print the
//! final standings as JSON (`standings`: `seat`, `name`, `points`, `wins`, `rank`); at a Bolide
//! table also the photo finish of every grab (reactions and margins in µs) and each bot's check
//! of the dice; at a 1000 Bornes table each bot's check of the deal (M-3.2). Fills seats from another laptop on a game night; used by the tests.

use bolide::bots::BotLevel;
use bolide_client::bot::{self, FieldTest};
use clap::Parser;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(name = "bolide-bot", version, about = "Bots that join a host (Bolide or 1000 Bornes) and play")]
struct Args {
    /// The host's address, as it printed it (e.g. 192.168.1.20:47117).
    #[arg(long)]
    connect: SocketAddr,
    /// The room code, as the host printed it (e.g. GARAGE-7F3K-0Q9M-2XWB-HC4T).
    #[arg(long)]
    code: String,
    #[arg(long, default_value_t = 1)]
    count: u8,
    /// How well the bots play: random or strategic.
    #[arg(long, default_value_t = BotLevel::Strategic)]
    level: BotLevel,
    /// Milliseconds each bot waits before acting.
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    #[arg(long, default_value = "Robot")]
    name: String,
    /// The game to play: a bot seated first in the lobby switches the table to it (bolide,
    /// mille-bornes or entenrallye); by default, whatever the table plays.
    #[arg(long)]
    game: Option<String>,
    /// A fairness field run (with `bolide-host serve --fairness-test`): in each timed moment
    /// act a drawn reaction after showing it, and hand the host the record of what was done,
    /// on this laptop's clock, once the championship is over.
    #[arg(long)]
    fairness_test: bool,
    /// With --fairness-test: reactions are drawn around MEAN ms, at most SPREAD ms away (close
    /// calls by default, so the host has pairs to order).
    #[arg(long, value_name = "MEAN,SPREAD", default_value = "250,2", value_parser = parse_reaction)]
    reaction_ms: FieldTest,
}

fn parse_reaction(s: &str) -> Result<FieldTest, String> {
    let bad = || format!("`{s}`: give the mean and the spread in ms, e.g. 250,2");
    let (mean, spread) = s.split_once(',').ok_or_else(bad)?;
    let (reaction_ms, spread_ms) = (mean.trim().parse::<f64>(), spread.trim().parse::<f64>());
    match (reaction_ms, spread_ms) {
        (Ok(m), Ok(s)) if (100.0..=5_000.0).contains(&m) && (0.0..=1_000.0).contains(&s) && s < m => {
            Ok(FieldTest { reaction_ms: m, spread_ms: s })
        }
        _ => Err(bad() + " (a mean of 100 to 5000 ms, a spread of 0 to 1000 ms below it)"),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_max_level(tracing::Level::WARN).init();
    let args = Args::parse();
    let games = bolide_client::games::Registry::standard();
    let choose = match args.game.as_deref().map(|g| games.get(g).ok_or(g)) {
        None => None,
        Some(Ok(game)) => Some(game.name),
        Some(Err(g)) => {
            eprintln!("error: --game {g}: not a game here; the games are {}", games.names());
            return ExitCode::FAILURE;
        }
    };
    let mut tasks = Vec::new();
    for i in 0..args.count {
        let (code, name) = (args.code.clone(), format!("{} {}", args.name, i + 1));
        let think = Duration::from_millis(args.think_ms);
        let field = args.fairness_test.then_some(args.reaction_ms);
        tasks.push(tokio::spawn(async move {
            let plan = bot::Plan { choose, field, ..bot::Plan::new(args.level, think, u64::from(i)) };
            bolide_client::games::Registry::standard().play(args.connect, &code, &name, plan).await
        }));
    }
    let mut played = Vec::new();
    for task in tasks {
        match task.await {
            Ok(Ok(p)) => played.push(p),
            Ok(Err(e)) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let Some(first) = played.first() else {
        println!("{}", serde_json::json!({ "standings": [] }));
        return ExitCode::SUCCESS;
    };
    let lines: Vec<serde_json::Value> = first
        .standings()
        .iter()
        .map(|l| serde_json::json!({"seat": l.seat.0, "name": l.name, "points": l.points, "wins": l.wins, "rank": l.rank}))
        .collect();
    let mut report = serde_json::json!({ "standings": lines });
    report["game"] = first.game.into();
    if let Some(first) = first.of::<bolide::Bolide>() {
        // Provably fair dice: every bot checked what it saw against the seed revealed at the end.
        let mut dice = Vec::new();
        for (i, p) in played.iter().enumerate() {
            let Some(p) = p.of::<bolide::Bolide>() else { continue };
            let commitment = p.dice.commitment().map(|c| c.to_string());
            match p.dice.verdict() {
                Some(Ok(report)) => dice.push(serde_json::json!({
                    "bot": i, "commitment": commitment, "match": true, "rounds": report.rounds,
                    "accelerators": report.accelerators, "bonuses": report.bonuses, "first_players": report.first_players,
                })),
                Some(Err(e)) => {
                    let w = bolide_client::platform::prefs::Prefs::saved_lang().words();
                    eprintln!("error: bot {i}: {}", (w.dice_do_not_match)(&e.to_string()));
                    return ExitCode::FAILURE;
                }
                None => dice.push(serde_json::json!({ "bot": i, "commitment": commitment, "match": null })),
            }
        }
        report["photo_finishes"] = serde_json::json!(first.photo_finishes());
        report["dice"] = dice.into();
    } else if first.of::<mille_bornes::MilleBornes>().is_some() {
        // Provably fair deal (M-3.2): every bot checked every card it saw against the seed.
        let mut deals = Vec::new();
        for (i, p) in played.iter().enumerate() {
            let Some(p) = p.of::<mille_bornes::MilleBornes>() else { continue };
            let commitment = p.dice.commitment().map(|c| c.to_string());
            match p.dice.verdict() {
                Some(Ok(r)) => deals.push(serde_json::json!({
                    "bot": i, "commitment": commitment, "match": true, "hands": r.hands, "partial_hands": r.partial,
                })),
                Some(Err(e)) => {
                    eprintln!("error: bot {i}: the deal does not match the seed: {e}");
                    return ExitCode::FAILURE;
                }
                None => deals.push(serde_json::json!({ "bot": i, "commitment": commitment, "match": null })),
            }
        }
        report["deal"] = deals.into();
    }
    println!("{report}");
    ExitCode::SUCCESS
}
