//! Games between bots, and what they show of the board (E-14.6's check): turns per player,
//! meetings judged, checks passed at the station, points per meeting, games per second, and
//! the strategic bot against random ones.
//!
//!     cargo run --release -p entenrallye --example simulate [GAMES]

fn main() -> Result<(), String> {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    println!("{games} games per table size, strategic bots (seeds 0..{games})");
    println!("players  turns/player  judged/4  TÜV passed  ASU passed  points/meeting  games/s");
    for players in 2..=6u8 {
        // The engine reads no clock (ARCHITECTURE's invariants): the example times it.
        let started = std::time::Instant::now();
        let f = entenrallye::sim::figures(players, games, 0)?;
        let per_second = games as f64 / started.elapsed().as_secs_f64().max(1e-9);
        println!(
            "{players:>7}  {:>12.1}  {:>8.2}  {:>9.0} %  {:>9.0} %  {:>14.1}  {:>7.0}",
            f.turns_per_player,
            f.judged_per_car,
            f.tuv_passed * 100.0,
            f.asu_passed * 100.0,
            f.points_per_meeting,
            per_second
        );
    }
    let rate = entenrallye::sim::strategic_win_rate(4, games, 0)?;
    println!("strategic against three random bots: first (or shared first) in {:.0} % of {games} games", rate * 100.0);
    Ok(())
}
