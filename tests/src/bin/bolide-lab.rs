//! `bolide-lab`: run latency fairness tests. The real host and N bot clients over real QUIC
//! on 127.0.0.1, with latency, jitter, loss, clock offset and drift injected per bot; prints
//! how often the host orders contested grabs as the truth says, against arrival order.
//!
//! `cargo run --release -p bolide-tests --bin bolide-lab -- --players 6 --latency-ms 0.1,2,10,40,80,150 --jitter-ms 20 --offset-s 3600 --drift-ppm 200 --loss 0.01 --json lab.json --plot lab.svg`

use bolide_tests::lab::{self, LabConfig, socket::JitterDist};
use clap::Parser;
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "bolide-lab", about = "Run latency fairness tests against the real host")]
struct Args {
    /// The game: bolide (the grab, the Échange window, the Klaxon) or mille-bornes (the
    /// Coup-Fourré window).
    #[arg(long, default_value = "bolide")]
    game: String,
    #[arg(long, default_value_t = 6)]
    players: usize,
    /// One-way latency of each bot, ms (a comma list, cycled).
    #[arg(long, value_delimiter = ',', default_value = "0.1,2,10,40,80,150")]
    latency_ms: Vec<f64>,
    #[arg(long, default_value_t = 20.0)]
    jitter_ms: f64,
    #[arg(long, value_enum, default_value_t = JitterDist::Uniform)]
    jitter_dist: JitterDist,
    /// Clock offsets spread over ±this many seconds.
    #[arg(long, default_value_t = 3600.0)]
    offset_s: f64,
    /// Clock drifts spread over ±this many ppm.
    #[arg(long, default_value_t = 200.0)]
    drift_ppm: f64,
    /// Packet loss, each way (0.01 = 1 %).
    #[arg(long, default_value_t = 0.0)]
    loss: f64,
    /// Reaction: MEAN,SPREAD in ms (gaps to the mean log-uniform from 10 µs to SPREAD).
    #[arg(long, value_delimiter = ',', default_value = "250,100")]
    reaction_ms: Vec<f64>,
    #[arg(long, default_value_t = 100)]
    rounds: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bot 0 claims every input this many ms earlier than it happened.
    #[arg(long, default_value_t = 0.0)]
    liar_ms: f64,
    /// The liar also stops beating during each grab until its request has left.
    #[arg(long)]
    liar_silent: bool,
    /// The silent liar beats this long (ms) after it shows each grab before it goes silent,
    /// so the host has a beat of the moment to believe it back to (0: silent from the start).
    #[arg(long, default_value_t = 0.0)]
    liar_hush_after_ms: f64,
    /// The liar fakes a bad path: it holds its beats back this long (ms) in each Échange
    /// window, to earn a wider allowance for its claims.
    #[arg(long, default_value_t = 0.0)]
    liar_fake_silence_ms: f64,
    /// Bot 0 claims it showed each moment (the reveal, the Échange window) this many ms later
    /// than it did.
    #[arg(long, default_value_t = 0.0)]
    liar_shown_ms: f64,
    /// Bot 0 looks at each grab as its update arrives and claims the instant the update names
    /// as its `shown` (a modified client's head start from an early reveal).
    #[arg(long)]
    liar_peeks: bool,
    /// Bot 0 says its screen draws a frame this many ms before it is up (a page says a
    /// refresh), to be sent each reveal that much earlier.
    #[arg(long, default_value_t = 0.0)]
    liar_frame_lead_ms: f64,
    /// Bot 0 holds this share of its clock answers back (0.02 = 2 %) by --liar-hold-ms.
    #[arg(long, default_value_t = 0.0)]
    liar_hold_share: f64,
    #[arg(long, default_value_t = 0.0)]
    liar_hold_ms: f64,
    /// Bot 0 holds every packet it sends this many ms (its QUIC acknowledgements too) and
    /// stamps its clock answers as late, so only QUIC sees the longer path.
    #[arg(long, default_value_t = 0.0)]
    liar_ack_delay_ms: f64,
    /// Client → host one-way latency of each bot, ms (a comma list, cycled); default: the
    /// same as --latency-ms.
    #[arg(long, value_delimiter = ',')]
    up_latency_ms: Vec<f64>,
    /// Long-run loss that comes in runs (Gilbert–Elliott; bursts of 20 ms on average), each way.
    #[arg(long, default_value_t = 0.0)]
    burst_loss: f64,
    /// Each bot's clock jumps by ±this many ms about once a race (every 30 s on average).
    #[arg(long, default_value_t = 0.0)]
    clock_step_ms: f64,
    /// Each bot's drift moves by up to ±this many ppm about once a race (as NTP slews).
    #[arg(long, default_value_t = 0.0)]
    slew_ppm: f64,
    /// A stall of 0 to this many ms between stamping an input and sending it.
    #[arg(long, default_value_t = 0.0)]
    send_delay_ms: f64,
    /// Bots see the reservoirs on the next frame of a screen at this rate (0: at once).
    #[arg(long, default_value_t = 0.0)]
    frame_hz: f64,
    /// Each bot hears and sends nothing for this many ms, every 15 s on average (0: never).
    #[arg(long, default_value_t = 0.0)]
    blackout_ms: f64,
    /// No Échange windows (by default every bot holds an Échange each round and declares it
    /// after a drawn reaction, so every round has an Échange contest).
    #[arg(long)]
    no_echange: bool,
    #[arg(long)]
    json: Option<PathBuf>,
    #[arg(long)]
    plot: Option<PathBuf>,
}

fn main() -> anyhow::Result<()> {
    let a = Args::parse();
    let games = bolide_host::games::Registry::standard();
    let game = *games.get(&a.game).map_err(|e| anyhow::anyhow!("--game: {e}"))?;
    anyhow::ensure!(game.timed, "--game {}: {} times nothing; the lab has nothing to judge", game.name, game.title);
    let players = u8::try_from(a.players).unwrap_or(u8::MAX);
    game.check_players(players).map_err(|e| anyhow::anyhow!("--players: {e}"))?;
    for (flag, v, max) in [
        ("--loss", a.loss, 0.5),
        ("--burst-loss", a.burst_loss, 0.5),
        ("--jitter-ms", a.jitter_ms, 10_000.0),
        ("--clock-step-ms", a.clock_step_ms, 60_000.0),
        ("--slew-ppm", a.slew_ppm, 10_000.0),
        ("--send-delay-ms", a.send_delay_ms, 10_000.0),
        ("--frame-hz", a.frame_hz, 1_000.0),
        ("--blackout-ms", a.blackout_ms, 10_000.0),
        ("--liar-ms", a.liar_ms, 10_000.0),
        ("--liar-shown-ms", a.liar_shown_ms, 10_000.0),
        ("--liar-hold-share", a.liar_hold_share, 1.0),
        ("--liar-hold-ms", a.liar_hold_ms, 10_000.0),
        ("--liar-ack-delay-ms", a.liar_ack_delay_ms, 10_000.0),
    ] {
        anyhow::ensure!((0.0..=max).contains(&v), "{flag}: from 0 to {max}, got {v}");
    }
    for (flag, list) in [("--latency-ms", &a.latency_ms), ("--up-latency-ms", &a.up_latency_ms)] {
        anyhow::ensure!(list.iter().all(|l| (0.0..=10_000.0).contains(l)), "{flag}: each from 0 to 10000 ms");
    }
    anyhow::ensure!(!a.latency_ms.is_empty(), "--latency-ms: at least one latency");
    let config = LabConfig {
        players: a.players,
        latency_ms: a.latency_ms,
        jitter_ms: a.jitter_ms,
        jitter_dist: a.jitter_dist,
        jitter_dist_name: format!("{:?}", a.jitter_dist).to_lowercase(),
        offset_s: a.offset_s,
        drift_ppm: a.drift_ppm,
        loss: a.loss,
        reaction_mean_ms: a.reaction_ms.first().copied().unwrap_or(250.0),
        reaction_spread_ms: a.reaction_ms.get(1).copied().unwrap_or(100.0),
        rounds: a.rounds,
        seed: a.seed,
        liar_ms: a.liar_ms,
        liar_silent: a.liar_silent,
        liar_hush_after_ms: a.liar_hush_after_ms,
        liar_fake_silence_ms: a.liar_fake_silence_ms,
        liar_shown_ms: a.liar_shown_ms,
        liar_peeks: a.liar_peeks,
        liar_frame_lead_ms: a.liar_frame_lead_ms,
        liar_hold_share: a.liar_hold_share,
        liar_hold_ms: a.liar_hold_ms,
        liar_ack_delay_ms: a.liar_ack_delay_ms,
        up_latency_ms: a.up_latency_ms,
        burst_loss: a.burst_loss,
        clock_step_ms: a.clock_step_ms,
        slew_ppm: a.slew_ppm,
        send_delay_ms: a.send_delay_ms,
        frame_hz: a.frame_hz,
        blackout_ms: a.blackout_ms,
        echange: !a.no_echange,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    if game.name == <mille_bornes::MilleBornes as bolide_table::Words>::NAME {
        let report = runtime.block_on(lab::mille_bornes::run(config))?;
        print!("{}", lab::mille_bornes::table(&report));
        if let Some(path) = a.json {
            std::fs::write(&path, serde_json::to_string_pretty(&report)?)?;
        }
        return Ok(());
    }
    let report = runtime.block_on(lab::run(config))?;
    print!("{}", lab::table(&report));
    if let Some(path) = a.json {
        std::fs::write(&path, serde_json::to_string_pretty(&report)?)?;
    }
    if let Some(path) = a.plot {
        std::fs::write(&path, lab::svg(&report))?;
    }
    Ok(())
}
