//! What opening a night's replay costs: a 3-race championship (host bots and a stand-in) is
//! played on the host's room, kept on a shelf as the window keeps it, then opened as the
//! window opens it — read, replayed through the engine, fed to the client core to its podium.
//! Prints the time and the memory it took. `cargo run --release -p bolide-client --example
//! replay_cost [RACES]`.

use bolide::Bolide;
use bolide::game::Championship;
use bolide_client::replay::Night;
use bolide_client::shelf::Shelf;
use std::time::Instant;

/// This process's resident memory now and at its peak (kB), from /proc.
fn memory_kb() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let races: u8 = std::env::args().nth(1).map_or(Ok(3), |a| a.parse())?;
    let text = bolide_host::nights::night_of_bots(races);
    let commitment = bolide_table::journal::replay_game::<Championship>(&text)?.commitment;
    let dir = std::env::temp_dir().join(format!("bolide-replay-cost-{}", std::process::id()));
    let path = Shelf::new(dir.clone()).keep(&text, &commitment, 0)?;
    drop(text);
    let (before, _) = memory_kb();
    let started = Instant::now();
    let text = Shelf::read(&path)?;
    let mut night = Night::<Bolide>::open::<Championship>(&text)?;
    let opened = started.elapsed();
    let podium = night.at(night.steps() - 1)?.finished.is_some();
    let to_podium = started.elapsed();
    let (after, peak) = memory_kb();
    println!("night: {races} races, {} steps, journal {} KB", night.steps(), text.len() / 1024);
    println!("open (read, replay, check): {:.1} ms", opened.as_secs_f64() * 1e3);
    println!("open and show the podium:   {:.1} ms (podium: {podium})", to_podium.as_secs_f64() * 1e3);
    println!(
        "memory: {:.1} MB more resident after opening ({:.1} MB in all, peak {:.1} MB)",
        after.saturating_sub(before) as f64 / 1024.0,
        after as f64 / 1024.0,
        peak as f64 / 1024.0
    );
    std::fs::remove_dir_all(dir)?;
    Ok(())
}
