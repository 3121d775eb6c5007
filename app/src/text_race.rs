//! `bolide --text`: watch a championship — or, with `--game mille-bornes`, a game of 1000
//! Bornes — in the terminal (where no window can open). It is a table like any other: a host
//! embedded in this process (the same code as `bolide-host serve`, on loopback only), its
//! bots in the other seats, and the first seat a bot over the wire whose client core this
//! terminal narrates — what it says is what a laptop is told.

use bolide::Event;
use bolide::ServerMsg;
use bolide::bots::BotLevel;
use bolide_client::bot;
use bolide_client::games::bolide::Mirror;
use bolide_client::lang::{Lang, Words};
use bolide_client::state::MirrorOf;
use bolide_client::text;
use bolide_host::serve::{self, ServeArgs};
use bolide_table::wire::ServerMsgOf;
use std::net::SocketAddr;
use std::time::Duration;

#[derive(Debug, Clone, clap::Args)]
pub struct TextArgs {
    /// The game: bolide, mille-bornes or entenrallye.
    #[arg(long, default_value = "bolide")]
    pub game: String,
    /// Players at the table (Bolide: 3 to 6; 1000 Bornes: 2, 3, 4, 6 or 8).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=8))]
    pub players: u8,
    /// Races in the championship (B-7.1), 1 to 20.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=20))]
    pub races: u8,
    /// Circuit: a preset (cannes, corniche, monaco), random:SEED, or a file.
    #[arg(long, default_value = "random:1")]
    pub circuit: String,
    /// Championship seed (default: random).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A bot's thinking time in milliseconds (0: as fast as it goes; at most a minute).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub pace_ms: u64,
    /// The narration's language, en or fr (default: the window's choice, else the system's).
    #[arg(long)]
    pub lang: Option<Lang>,
}

/// The pilot this terminal follows.
const WATCHED: &str = "El Gato";

pub fn run(args: TextArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(race(args))
}

async fn race(args: TextArgs) -> anyhow::Result<()> {
    // Each game narrated in a terminal in its own words; a game without a narration here is
    // played in the window.
    use bolide_table::Words;
    match args.game.as_str() {
        mille_bornes::MilleBornes::NAME => return mille_bornes_game(args).await,
        entenrallye::Entenrallye::NAME => return entenrallye_game(args).await,
        bolide::Bolide::NAME => {}
        other => anyhow::bail!(
            "--game {other}: the terminal narrates bolide, mille-bornes or entenrallye; play {other} in the window"
        ),
    }
    anyhow::ensure!((3..=6).contains(&args.players), "--players: Bolide races 3 to 6 pilots (B-1.1)");
    // A throw-away folder for the host's certificate and journal: a watched race is never
    // resumed, and each one would otherwise leave its journal behind.
    // (From `tempfile`: a fresh name of its own, created 0700, removed when the race ends.)
    let temp = tempfile::Builder::new().prefix("bolide-text-").tempdir()?;
    let data_dir = temp.path().to_path_buf();
    let mut serve_args: Vec<String> =
        ["--bind", "127.0.0.1:0", "--no-mdns", "--name", "Bolide --text"].map(String::from).into();
    serve_args.extend(["--bots".into(), (args.players - 1).to_string(), "--races".into(), args.races.to_string()]);
    serve_args.extend(["--circuit".into(), args.circuit.clone(), "--data-dir".into(), data_dir.display().to_string()]);
    serve_args.extend(["--bot-delay-ms".into(), args.pace_ms.to_string()]);
    serve_args.extend(["--lift-delay-ms".into(), (args.pace_ms * 3).to_string()]);
    if let Some(seed) = args.seed {
        serve_args.extend(["--seed".into(), seed.to_string()]);
    }
    let serve_args = ServeArgs::parse_words(serve_args)?;
    let hosting = serve::start(serve_args).await?;
    let addr = SocketAddr::from(([127, 0, 0, 1], hosting.server.local_addr().port()));
    let w = args.lang.unwrap_or_else(bolide_client::platform::prefs::Prefs::saved_lang).words();
    println!("{}", (w.text_title)(args.players, WATCHED, args.players - 1));
    let mut narrator = Narrator { started: false, w };
    let think = Duration::from_millis(args.pace_ms);
    let seed = args.seed.unwrap_or(0);
    let played =
        bot::play(addr, &hosting.code, WATCHED, BotLevel::Strategic, think, seed, &mut |m, s| narrator.told(m, s))
            .await;
    hosting.stop().await;
    let _ = std::fs::remove_dir_all(&data_dir);
    let played = played?;
    println!(
        "{}",
        played.dice.verdict().map_or(w.dice_not_revealed.into(), |v| match v {
            Ok(check) => (w.dice_checked)(&check.to_string()),
            Err(e) => (w.dice_do_not_match)(&e.to_string()),
        })
    );
    Ok(())
}

/// Tells what the watched laptop is told, in words.
struct Narrator {
    started: bool,
    w: &'static Words,
}

impl Narrator {
    fn told(&mut self, msg: &ServerMsg, mirror: &Mirror) {
        let seats = mirror.lobby.as_ref().map_or(&[][..], |l| &l.seats[..]);
        let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
        let w = self.w;
        match msg {
            ServerMsg::Lobby(lobby) if lobby.started && !self.started => {
                self.started = true;
                for s in seats {
                    println!("  {} ({})", s.name, if s.bot { w.host_bot } else { w.over_the_wire });
                }
            }
            ServerMsg::Update { events, view, .. } => {
                for line in events.iter().filter_map(|e| text::describe(e, &names, w)) {
                    println!("{line}");
                }
                if events.iter().any(|e| matches!(e, Event::RoundEnded { .. } | Event::RaceEnded { .. })) {
                    print!("{}", text::board(view, &names, w));
                }
            }
            ServerMsg::Finished { standings } => {
                println!("{}", w.championship_over);
                for l in standings {
                    println!("  {}", (w.standing_full)(l.rank, &l.name, l.points, l.wins));
                }
            }
            _ => {}
        }
    }
}

/// A throw-away host of `game` on loopback for a narrated game: the watched seat and the
/// host's bots in the others (its folder is removed when the returned guard drops).
async fn host_for_text(game: &str, args: &TextArgs) -> anyhow::Result<(tempfile::TempDir, serve::Hosting, SocketAddr)> {
    let temp = tempfile::Builder::new().prefix("bolide-text-").tempdir()?;
    let data_dir = temp.path().display().to_string();
    let name = format!("{game} --text");
    let mut serve_args: Vec<String> =
        ["--game", game, "--bind", "127.0.0.1:0", "--no-mdns", "--name", &name].map(String::from).into();
    serve_args.extend(["--bots".into(), (args.players - 1).to_string(), "--data-dir".into(), data_dir]);
    serve_args.extend(["--bot-delay-ms".into(), args.pace_ms.to_string()]);
    if let Some(seed) = args.seed {
        serve_args.extend(["--seed".into(), seed.to_string()]);
    }
    let hosting = serve::start(ServeArgs::parse_words(serve_args)?).await?;
    let addr = SocketAddr::from(([127, 0, 0, 1], hosting.server.local_addr().port()));
    Ok((temp, hosting, addr))
}

/// A game of Entenrallye narrated: the watched seat's laptop, the host's bots in the others.
async fn entenrallye_game(args: TextArgs) -> anyhow::Result<()> {
    use entenrallye::Entenrallye;
    anyhow::ensure!((2..=6).contains(&args.players), "--players: Entenrallye seats 2 to 6 (E-1.1)");
    let (_temp, hosting, addr) = host_for_text("entenrallye", &args).await?;
    let w = args.lang.unwrap_or_else(bolide_client::platform::prefs::Prefs::saved_lang).words();
    println!("Entenrallye — {} players: {WATCHED} and {} host bots", args.players, args.players - 1);
    let mut tell = |msg: &ServerMsgOf<Entenrallye>, mirror: &MirrorOf<Entenrallye>| {
        let names: Vec<String> =
            mirror.lobby.as_ref().map_or_else(Vec::new, |l| l.seats.iter().map(|s| s.name.clone()).collect());
        match msg {
            ServerMsgOf::Update { events, view, .. } => {
                for e in events {
                    if let Some(line) = bolide_words::entenrallye::describe(e, view.players, &names, w) {
                        println!("{line}");
                    }
                }
            }
            ServerMsgOf::Finished { standings } => {
                for l in standings {
                    println!("  {}", (w.ente_standing)(l.rank, &l.name, l.points));
                }
            }
            _ => {}
        }
    };
    // A turn is several actions (roll, drive, fit, end): at least 25 ms between them keeps the
    // watched laptop under the host's 50 messages a second however fast the pace.
    let think = Duration::from_millis(args.pace_ms.max(25));
    let plan = bot::Plan::new(BotLevel::Strategic, think, args.seed.unwrap_or(0));
    let played = bot::play_as::<Entenrallye>(None, addr, &hosting.code, WATCHED, plan, &mut tell).await;
    hosting.stop().await;
    played?;
    Ok(())
}

/// A game of 1000 Bornes narrated: the watched seat's laptop, the host's bots in the others.
async fn mille_bornes_game(args: TextArgs) -> anyhow::Result<()> {
    use mille_bornes::MilleBornes;
    let (_temp, hosting, addr) = host_for_text("mille-bornes", &args).await?;
    let w = args.lang.unwrap_or_else(bolide_client::platform::prefs::Prefs::saved_lang).words();
    println!("1000 Bornes — {} players: {WATCHED} and {} host bots", args.players, args.players - 1);
    let think = Duration::from_millis(args.pace_ms);
    let mut tell = |msg: &ServerMsgOf<MilleBornes>, mirror: &MirrorOf<MilleBornes>| {
        let names: Vec<String> =
            mirror.lobby.as_ref().map_or_else(Vec::new, |l| l.seats.iter().map(|s| s.name.clone()).collect());
        match msg {
            ServerMsgOf::Update { events, view, .. } => {
                for line in events
                    .iter()
                    .filter_map(|e| bolide_client::games::mille_bornes::screen::describe(e, view, &names, w))
                {
                    println!("{line}");
                }
            }
            ServerMsgOf::Finished { standings } => {
                println!("{}", w.mb_game_over);
                for l in standings {
                    println!("  {}", (w.standing_full)(l.rank, &l.name, l.points, l.wins));
                }
            }
            _ => {}
        }
    };
    let seed = args.seed.unwrap_or(0);
    let played = bot::play_as::<MilleBornes>(
        None,
        addr,
        &hosting.code,
        WATCHED,
        bot::Plan::new(BotLevel::Strategic, think, seed),
        &mut tell,
    )
    .await;
    hosting.stop().await;
    let played = played?;
    match played.dice.verdict() {
        Some(Ok(r)) => println!("Deal checked against the seed: {} hands, every card seen matches", r.hands),
        Some(Err(e)) => println!("The deal does NOT match the seed: {e}"),
        None => println!("The seed was not revealed."),
    }
    Ok(())
}
