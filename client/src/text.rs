//! A race as text: the circuit as a strip of tiles, one lane per car, and one line per event.

use bolide_protocol::model::FINISH;
use bolide_protocol::movement::Road;
use bolide_protocol::{Event, PlayerView, Seat};
use std::fmt::Write;

/// One character per tile: `·` straight, `6` `7` `8` `9` `X` for a 60 … 100 limit, `o` oil.
fn tile_char(road: &Road<'_>, position: u8) -> char {
    if position == 0 {
        return '|';
    }
    if position == FINISH {
        return '#';
    }
    if road.oil == Some(position) {
        return 'o';
    }
    match road.circuit.limit(position) {
        None => '·',
        Some(100) => 'X',
        Some(l) => char::from(b'0' + l / 10),
    }
}

/// The board as seen by `view.viewer`: the strip, the stars still face down, a lane per car.
pub fn board(view: &PlayerView, names: &[String]) -> String {
    let road = Road::new(&view.circuit, view.oil);
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(6);
    let mut out = String::new();
    let strip: String = (0..=FINISH).map(|p| tile_char(&road, p)).collect();
    let _ = writeln!(out, "{:width$}  {strip}", "circuit");
    let stars: String = (0..=FINISH).map(|p| if view.stars.iter().any(|s| s.tile == p) { '*' } else { ' ' }).collect();
    let _ = writeln!(out, "{:width$}  {}", "bonus", stars.trim_end());
    for car in &view.cars {
        let mut lane: Vec<char> = vec![' '; FINISH as usize + 1];
        lane[car.position as usize] = '>';
        let lane: String = lane.into_iter().collect();
        let mut notes = Vec::new();
        if view.lanterne_rouge == Some(car.seat) {
            notes.push("Lanterne Rouge".to_string());
        }
        if car.second_chance {
            notes.push("Second Chance".to_string());
        }
        let atouts: Vec<String> = car.atouts.iter().map(|a| format!("{a:?}")).collect();
        let bonuses: Vec<String> = car.bonuses.iter().map(|b| format!("{b:?}")).collect();
        notes.push(if atouts.is_empty() { "no Atout left".into() } else { format!("atouts {}", atouts.join(" ")) });
        if !bonuses.is_empty() {
            notes.push(format!("bonus {}", bonuses.join(" ")));
        }
        let _ = writeln!(
            out,
            "{:width$}  {}  {:>2}  {}",
            names[car.seat.index()],
            lane.trim_end(),
            car.position,
            notes.join(", ")
        );
    }
    out
}

/// One line of commentary for an event, or `None` for the bookkeeping ones.
pub fn describe(event: &Event, names: &[String]) -> Option<String> {
    let n = |s: &Seat| names.get(s.index()).cloned().unwrap_or_else(|| s.to_string());
    Some(match event {
        Event::RaceStarted { race, first_player } => format!("Race {race}! {} starts.", n(first_player)),
        Event::RoundStarted { round, first_player, .. } => {
            format!("— Round {round}: {} holds the cup —", n(first_player))
        }
        Event::PanneSeche { seat } => format!("{}: Panne Sèche! Reservoir counts as 1 this round.", n(seat)),
        Event::KlaxonCalled { seat, .. } => format!("{}: Tuut-tuut! (Klaxon)", n(seat)),
        Event::CupLifted => "The cup is lifted!".into(),
        Event::KlaxonPeek { seat } => format!("{} peeks under the cup…", n(seat)),
        Event::ReservoirsRevealed { values } => {
            format!("Reservoirs: {}", values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "))
        }
        Event::PawnTaken { seat, pawn, auto } => {
            let how = if *auto { "gets the last pawn," } else { "grabs pawn" };
            format!("{} {how} {}", n(seat), pawn.0 + 1)
        }
        Event::Echanged { seat, with } => format!("{} plays Échange with {}", n(seat), n(with)),
        Event::LanterneRougeMove { seat, to, .. } => format!("{}: Lanterne Rouge, free tile to {to}", n(seat)),
        Event::AsDeLaRoute { seat } => format!("{}: As de la route, no limits!", n(seat)),
        Event::Aspiration { seat, to, .. } => format!("{}: Aspiration up to {to}", n(seat)),
        Event::Rolled { seat, accelerator, speed } => format!("{} rolls {accelerator}: {speed} km/h", n(seat)),
        Event::SecondChance { seat, accelerator, speed } => {
            format!("{}: Second Chance, rolls {accelerator}: {speed} km/h", n(seat))
        }
        Event::Moved { seat, from, to, blocked_at } => match blocked_at {
            Some(b) if from == to => format!("{} is stuck on {from} (too fast for tile {b})", n(seat)),
            Some(b) => format!("{} moves from {from} to {to}, too fast for tile {b}", n(seat)),
            None => format!("{} moves from {from} to {to}", n(seat)),
        },
        Event::Raccourci { seat, from, to } => format!("{}: Raccourci! from {from} to {to}", n(seat)),
        Event::Nitro { seat, to, .. } => format!("{}: Nitro! one more tile to {to}", n(seat)),
        Event::Crossed { seat, place } => format!("{} crosses the line (#{place})", n(seat)),
        Event::Assistance { seat, atout } => format!("{}: Assistance brings back {atout:?}", n(seat)),
        Event::Huile { seat, tile } => format!("{} pours oil on tile {tile}", n(seat)),
        Event::BonusTaken { seat, tile, kind } => format!("{} picks up {kind:?} on {tile}", n(seat)),
        Event::SecondChanceTaken { seat } => format!("{} takes a Second Chance token", n(seat)),
        Event::LanterneRouge { seat: Some(seat) } => format!("{} is the Lanterne Rouge", n(seat)),
        Event::RaceEnded { ranking } => {
            let lines: Vec<String> = ranking.iter().map(|(s, r)| format!("{r}. {}", n(s))).collect();
            format!("Race over: {}", lines.join(", "))
        }
        Event::RacePoints { points } => {
            let lines: Vec<String> =
                points.iter().enumerate().map(|(i, p)| format!("{} {p}", n(&Seat(i as u8)))).collect();
            format!("Points: {}", lines.join(", "))
        }
        Event::ChampionshipEnded { standings } => {
            let lines: Vec<String> =
                standings.iter().map(|(s, p, w, r)| format!("{r}. {} {p} pts ({w} wins)", n(s))).collect();
            format!("Championship: {}", lines.join(", "))
        }
        Event::EchangeWindow { .. }
        | Event::TurnStarted { .. }
        | Event::TurnEnded { .. }
        | Event::LanterneRouge { seat: None }
        | Event::RoundEnded { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide_host::sim;

    #[test]
    fn board_draws_the_strip_and_every_car() {
        let race = sim::random_race(3, 4);
        let names: Vec<String> = ["Anne", "Bob", "Chloé"].map(String::from).to_vec();
        let text = board(&race.view_for(Seat(0)), &names);
        let strip = text.lines().next().unwrap();
        assert_eq!(strip.chars().filter(|c| "6789X".contains(*c)).count(), 16, "{text}");
        assert_eq!(text.lines().filter(|l| l.contains('>')).count(), 3);
        assert_eq!(text.lines().nth(1).unwrap().matches('*').count(), 6);
    }

    #[test]
    fn events_read_as_sentences() {
        let names: Vec<String> = ["El Gato"].map(String::from).to_vec();
        let e = Event::Moved { seat: Seat(0), from: 0, to: 2, blocked_at: Some(3) };
        assert_eq!(describe(&e, &names).unwrap(), "El Gato moves from 0 to 2, too fast for tile 3");
    }
}
