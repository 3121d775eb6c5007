//! A long fuzzing run on stable, without coverage guidance: the kept corpus of a harness
//! mutated `RUNS` times (a million unless told), with the rate printed.
//!
//! `cargo run --release -p bolide-host --example fuzz_stable -- door|room|frames|head [RUNS] [SEED]`

use bolide_host::fuzzing::{self, Harness};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let target = args.next().unwrap_or_else(|| "door".into());
    let harness: Harness = match target.as_str() {
        "door" => fuzzing::door,
        "room" => fuzzing::room,
        "frames" => fuzzing::frames,
        "head" => fuzzing::head,
        other => anyhow::bail!("no harness `{other}`: door, room, frames or head"),
    };
    let mut number = |what: &str, default: u64| -> anyhow::Result<u64> {
        match args.next() {
            Some(n) => n.parse().map_err(|_| anyhow::anyhow!("{what}: `{n}` is not a whole number")),
            None => Ok(default),
        }
    };
    let runs = number("RUNS", 1_000_000)?;
    let seed = number("SEED", 10)?;
    let inputs = fuzzing::corpus(&target)?;
    let started = std::time::Instant::now();
    let runs_usize = usize::try_from(runs)?;
    if let Err(data) = fuzzing::mutate(&inputs, harness, runs_usize, seed) {
        anyhow::bail!("the {target} harness panics on {data:?}");
    }
    let took = started.elapsed();
    println!(
        "{target}: {runs} runs in {:.1} s ({:.0} runs/s) from {} kept inputs, seed {seed}: nothing broke",
        took.as_secs_f64(),
        runs as f64 / took.as_secs_f64(),
        inputs.len()
    );
    Ok(())
}
