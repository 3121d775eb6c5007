//! Years between bots, and what they show of the board and of the bots (E-14.6's check): per
//! table size, the share of cars judged at each meeting, how the checks ended, why the year
//! ended, points per meeting and years per second; then the strategic bot against the one
//! before it (which did not know the calendar) and against the "for fun" random bot.
//!
//!     cargo run --release -p entenrallye --example simulate [GAMES]

use entenrallye::sim::{Driver, Figures, figures_of, head_to_head, strategic_win_rate};

fn row(f: &Figures, per_second: f64) {
    let pc = |x: f64| format!("{:.0}", x * 100.0);
    let [tuv, asu] = f.checks;
    println!(
        "{:>7}  {:<6} {:>5.1}  {:>3} {:>3} {:>3} {:>3} %  {:>4.1} {:>4.1} {:>4.1} {:>4.1}  {:>3}/{:>2}/{:>2} %  {:>3}/{:>2}/{:>2} %  {:>6} %  {:>5.1}  {:>6.0}",
        f.players,
        format!("{:?}", f.driver),
        f.turns_per_player,
        pc(f.in_time[0]),
        pc(f.in_time[1]),
        pc(f.in_time[2]),
        pc(f.in_time[3]),
        f.points[0],
        f.points[1],
        f.points[2],
        f.points[3],
        pc(tuv.passed),
        pc(tuv.failed),
        pc(tuv.rounded_up),
        pc(asu.passed),
        pc(asu.failed),
        pc(asu.rounded_up),
        pc(f.all_on_m4),
        f.total,
        per_second
    );
}

fn main() -> Result<(), String> {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    println!("{games} years per table size and bot, every seat the same bot (seeds 0..{games})");
    println!("in time: share of cars judged at M1 M2 M3 M4; points: mean at each meeting, of those judged;");
    println!("checks: passed at the station / failed there / rounded up; all on M4: years that ended so,");
    println!("the others ran out of calendar");
    println!(
        "players  bot    turns  in time M1-M4      points M1-M4         TÜV p/f/r    ASU p/f/r  all on M4  total  years/s"
    );
    for players in 2..=6u8 {
        for driver in [Driver::Year, Driver::Road] {
            // The engine reads no clock (ARCHITECTURE's invariants): the example times it.
            let started = std::time::Instant::now();
            let f = figures_of(driver, players, games, 0)?;
            row(&f, games as f64 / started.elapsed().as_secs_f64().max(1e-9));
        }
    }
    for players in [2u8, 4, 6] {
        let rate = head_to_head(Driver::Year, Driver::Road, players, games, 0)?;
        let back = head_to_head(Driver::Road, Driver::Year, players, games, 0)?;
        println!(
            "{players} players, seats alternating: the strategic bot won {:.1} % of {games} years against the one before it, which won {:.1} %",
            rate * 100.0,
            back * 100.0
        );
    }
    let rate = strategic_win_rate(4, games, 0)?;
    let random = head_to_head(Driver::Random, Driver::Year, 4, games, 0)?;
    println!(
        "strategic against three random bots: first (or shared first) in {:.0} % of {games} years; two random bots against two strategic ones won {:.1} %",
        rate * 100.0,
        random * 100.0
    );
    Ok(())
}
