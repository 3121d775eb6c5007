//! A race as text: the circuit as a strip of tiles, one lane per car, and one line per event.

use bolide_protocol::event::{Contest, PhotoFinish};
use bolide_protocol::model::FINISH;
use bolide_protocol::movement::Road;
use bolide_protocol::{Event, PlayerView, Seat, Timed};
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
            name(names, car.seat),
            lane.trim_end(),
            car.position,
            notes.join(", ")
        );
    }
    out
}

/// One line of commentary for an event, or `None` for the bookkeeping ones.
pub fn describe(event: &Event, names: &[String]) -> Option<String> {
    let n = |s: &Seat| name(names, *s);
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
            format!("{} {how} {}", n(seat), pawn.number())
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
        Event::PhotoFinish(photo) => {
            let title = match photo.moment {
                Timed::Grab => "Photo finish",
                Timed::Echange => "Échange photo finish",
            };
            let mut line = format!("{title}: {}", reaction_order(photo, names).join(", "));
            for c in &photo.contested {
                let _ = write!(line, " · {}", contest(c, names));
            }
            for m in echange_margins(photo, names) {
                let _ = write!(line, " · {m}");
            }
            line
        }
        Event::EchangeWindow { .. }
        | Event::TurnStarted { .. }
        | Event::TurnEnded { .. }
        | Event::LanterneRouge { seat: None }
        | Event::RoundEnded { .. } => return None,
    })
}

/// A duration the way a person reads it: 0.35 ms, 4.2 ms, 312 ms.
pub fn ms(us: u32) -> String {
    let ms = f64::from(us) / 1000.0;
    match us {
        0..1_000 => format!("{ms:.2} ms"),
        1_000..10_000 => format!("{ms:.1} ms"),
        _ => format!("{ms:.0} ms"),
    }
}

/// "Anne 312 ms" for every seat that grabbed, fastest first.
pub fn reaction_order(photo: &PhotoFinish, names: &[String]) -> Vec<String> {
    photo.fastest_first().into_iter().map(|(seat, r)| format!("{} {}", name(names, seat), ms(r))).collect()
}

/// In an Échange window the order is the verdict: "Anne chose 10 ms before Bob" for each
/// declaration and the next one (none for a grab).
pub fn echange_margins(photo: &PhotoFinish, names: &[String]) -> Vec<String> {
    if photo.moment != Timed::Echange {
        return Vec::new();
    }
    let order = photo.fastest_first();
    order
        .windows(2)
        .map(|w| {
            let ((a, ra), (b, rb)) = (w[0], w[1]);
            format!("{} chose {} before {}", name(names, a), ms(rb.saturating_sub(ra)), name(names, b))
        })
        .collect()
}

/// "pawn 3 to Anne, 4.2 ms ahead of Bob" (or "tied with Bob, drawn").
pub fn contest(c: &Contest, names: &[String]) -> String {
    let (winner, runner_up) = (name(names, c.winner), name(names, c.runner_up));
    if c.drawn {
        format!("pawn {} to {winner}, tied with {runner_up} (drawn)", c.pawn.number())
    } else {
        format!("pawn {} to {winner}, {} ahead of {runner_up}", c.pawn.number(), ms(c.margin_us))
    }
}

fn name(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide_host::sim;
    use bolide_protocol::Pawn;

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

    #[test]
    fn b_4_3_the_photo_finish_reads_fastest_first_with_each_margin() {
        let names: Vec<String> = ["Anne", "Bob", "Chloé"].map(String::from).to_vec();
        let photo = PhotoFinish {
            moment: Timed::Grab,
            reactions: vec![Some(318_400), Some(312_050), None],
            contested: vec![
                Contest { pawn: Pawn(2), winner: Seat(1), runner_up: Seat(0), margin_us: 6_350, drawn: false },
                Contest { pawn: Pawn(0), winner: Seat(0), runner_up: Seat(2), margin_us: 12, drawn: true },
            ],
        };
        assert_eq!(
            describe(&Event::PhotoFinish(photo), &names).unwrap(),
            "Photo finish: Bob 312 ms, Anne 318 ms · pawn 3 to Bob, 6.3 ms ahead of Anne · pawn 1 to Anne, tied with Chloé (drawn)"
        );
        assert_eq!(ms(350), "0.35 ms");
    }

    #[test]
    fn b_4_7_the_echange_photo_finish_reads_in_the_order_applied() {
        let names: Vec<String> = ["Anne", "Bob", "Chloé"].map(String::from).to_vec();
        let photo = PhotoFinish {
            moment: Timed::Echange,
            reactions: vec![Some(410_000), None, Some(402_500)],
            contested: vec![],
        };
        assert_eq!(
            describe(&Event::PhotoFinish(photo), &names).unwrap(),
            "Échange photo finish: Chloé 402 ms, Anne 410 ms · Chloé chose 7.5 ms before Anne"
        );
    }
}
