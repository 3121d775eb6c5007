//! `bolide --text`: watch a championship of bots in the terminal (where no window can open).

use bolide_bots::BotLevel;
use bolide_client::text;
use bolide_host::game::{Championship, ChampionshipSetup};
use bolide_host::sim;
use bolide_protocol::circuits;
use bolide_protocol::{Event, TableOptions};
use rand::SeedableRng;
use std::time::Duration;

#[derive(Debug, Clone, clap::Args)]
pub struct TextArgs {
    /// Pilots at the table (3 to 6).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=6))]
    pub players: u8,
    /// Races in the championship (B-7.1).
    #[arg(long, default_value_t = 1)]
    pub races: u8,
    /// Circuit: a preset (cannes, corniche, monaco), random:SEED, or a file.
    #[arg(long, default_value = "random:0")]
    pub circuit: String,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Milliseconds between turns (0: as fast as it goes).
    #[arg(long, default_value_t = 300)]
    pub pace_ms: u64,
}

const NAMES: [&str; 6] =
    ["El Gato", "Claudia", "Sir Stephen", "Fritz & Birgitt", "Tony & Anne-Marie", "Oliver & Dorotha"];

pub fn run(args: TextArgs) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
    });
    let circuit = match circuits::CircuitChoice::from_arg(&args.circuit) {
        circuits::CircuitChoice::Seed(0) => circuits::random(seed),
        choice => choice.load()?,
    };
    let names: Vec<String> = NAMES[..args.players as usize].iter().map(|s| s.to_string()).collect();
    let levels: Vec<BotLevel> =
        (0..args.players).map(|i| if i % 2 == 0 { BotLevel::Strategic } else { BotLevel::Random }).collect();
    println!("Bolide — {} pilots, seed {seed}", args.players);
    for (name, level) in names.iter().zip(&levels) {
        println!("  {name} ({} bot)", level.name());
    }
    let setup = ChampionshipSetup {
        pilots: args.players,
        options: TableOptions { races: args.races, ..TableOptions::default() },
        circuits: vec![circuit],
        seed,
        first_race_bonuses: None,
    };
    let (mut champ, opening) = Championship::new(setup)?;
    narrate(&opening, &names);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut legal, mut batch) = (Vec::new(), Vec::new());
    while !champ.is_over() {
        sim::next_actions(champ.race(), &levels, &mut rng, &mut legal, &mut batch);
        for &(seat, action) in &batch {
            let events = champ.apply(seat, action)?;
            narrate(&events, &names);
            if events.iter().any(|e| matches!(e, Event::RoundEnded { .. } | Event::RaceEnded { .. })) {
                print!("{}", text::board(&champ.view_for(seat), &names));
            }
            if events.iter().any(|e| matches!(e, Event::TurnEnded { .. })) && args.pace_ms > 0 {
                std::thread::sleep(Duration::from_millis(args.pace_ms));
            }
        }
    }
    Ok(())
}

fn narrate(events: &[Event], names: &[String]) {
    for line in events.iter().filter_map(|e| text::describe(e, names)) {
        println!("{line}");
    }
}
