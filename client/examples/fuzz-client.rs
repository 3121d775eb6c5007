//! `cargo run --release -p bolide-client --example fuzz-client -- [RUNS] [SEED]`: mutations of
//! real host traffic into the client core (`bolide_client::fuzzing`); prints what it ran.

fn main() {
    let mut args = std::env::args().skip(1);
    let runs = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000u64);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(1u64);
    let started = std::time::Instant::now();
    let ran = bolide_client::fuzzing::mutate(&bolide_host::fuzzing::client_seeds(), runs, seed);
    let s = started.elapsed().as_secs_f64();
    println!("{ran} inputs from seed {seed} through the client core in {s:.1} s ({:.0}/s): no panic", ran as f64 / s);
}
