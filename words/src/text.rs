//! A race as text: the circuit as a strip of tiles, one lane per car, and one line per event.

use crate::lang::Words;
use bolide::event::{Contest, PhotoFinish};
use bolide::model::FINISH;
use bolide::movement::Road;
use bolide::{Event, PlayerView, Seat, Timed};
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
pub fn board(view: &PlayerView, names: &[String], w: &Words) -> String {
    let road = Road::new(&view.circuit, view.oil);
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(6);
    let mut out = String::new();
    let strip: String = (0..=FINISH).map(|p| tile_char(&road, p)).collect();
    let _ = writeln!(out, "{:width$}  {strip}", w.circuit);
    let stars: String = (0..=FINISH).map(|p| if view.stars.iter().any(|s| s.tile == p) { '*' } else { ' ' }).collect();
    let _ = writeln!(out, "{:width$}  {}", w.bonus, stars.trim_end());
    for car in &view.cars {
        let mut lane: Vec<char> = vec![' '; FINISH as usize + 1];
        lane[car.position as usize] = '>';
        let lane: String = lane.into_iter().collect();
        let mut notes = Vec::new();
        if view.lanterne_rouge == Some(car.seat) {
            notes.push(w.lanterne_rouge.to_string());
        }
        if car.second_chance {
            notes.push(w.second_chance.to_string());
        }
        let atouts: Vec<&str> = car.atouts.iter().map(|a| w.atout(a)).collect();
        let bonuses: Vec<&str> = car.bonuses.iter().map(|b| w.bonus(b)).collect();
        notes.push(if atouts.is_empty() { w.no_atout_left.into() } else { (w.atouts_held)(&atouts.join(", ")) });
        if !bonuses.is_empty() {
            notes.push((w.bonuses_held)(&bonuses.join(", ")));
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
pub fn describe(event: &Event, names: &[String], w: &Words) -> Option<String> {
    let n = |s: &Seat| name(names, *s);
    Some(match event {
        Event::RaceStarted { race, first_player } => (w.race_started)(*race, &n(first_player)),
        Event::RoundStarted { round, first_player, .. } => (w.round_started)(*round, &n(first_player)),
        Event::PanneSeche { seat } => (w.panne_seche)(&n(seat)),
        Event::KlaxonCalled { seat, .. } => (w.klaxon_called)(&n(seat)),
        Event::CupLifted => w.cup_lifted.into(),
        Event::KlaxonPeek { seat } => (w.klaxon_peek)(&n(seat)),
        Event::ReservoirsRevealed { values } => {
            (w.reservoirs)(&values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "))
        }
        Event::PawnTaken { seat, pawn, auto: true } => (w.gets_last_pawn)(&n(seat), pawn.number()),
        Event::PawnTaken { seat, pawn, auto: false } => (w.grabs_pawn)(&n(seat), pawn.number()),
        Event::Echanged { seat, with } => (w.echanged)(&n(seat), &n(with)),
        Event::LanterneRougeMove { seat, to, .. } => (w.lanterne_rouge_move)(&n(seat), *to),
        Event::AsDeLaRoute { seat } => (w.as_de_la_route)(&n(seat)),
        Event::Aspiration { seat, to, .. } => (w.aspiration)(&n(seat), *to),
        Event::Rolled { seat, accelerator, speed } => (w.rolled)(&n(seat), *accelerator, *speed),
        Event::SecondChance { seat, accelerator, speed } => (w.second_chance_rolled)(&n(seat), *accelerator, *speed),
        Event::Moved { seat, from, to, blocked_at } => match blocked_at {
            Some(b) if from == to => (w.stuck)(&n(seat), *from, *b),
            Some(b) => (w.moved_blocked)(&n(seat), *from, *to, *b),
            None => (w.moved)(&n(seat), *from, *to),
        },
        Event::Raccourci { seat, from, to } => (w.raccourci)(&n(seat), *from, *to),
        Event::Nitro { seat, to, .. } => (w.nitro)(&n(seat), *to),
        Event::Crossed { seat, place } => (w.crossed)(&n(seat), *place),
        Event::Assistance { seat, atout } => (w.assistance)(&n(seat), w.atout(*atout)),
        Event::Huile { seat, tile } => (w.huile)(&n(seat), *tile),
        Event::BonusTaken { seat, tile, kind } => (w.bonus_taken)(&n(seat), w.bonus(*kind), *tile),
        Event::SecondChanceTaken { seat } => (w.second_chance_taken)(&n(seat)),
        Event::LanterneRouge { seat: Some(seat) } => (w.is_lanterne_rouge)(&n(seat)),
        Event::RaceEnded { ranking } => {
            let lines: Vec<String> = ranking.iter().map(|(s, r)| format!("{r}. {}", n(s))).collect();
            (w.race_over)(&lines.join(", "))
        }
        Event::RacePoints { points } => {
            let lines: Vec<String> =
                points.iter().enumerate().map(|(i, p)| format!("{} {p}", n(&Seat(i as u8)))).collect();
            (w.points)(&lines.join(", "))
        }
        Event::ChampionshipEnded { standings } => {
            let lines: Vec<String> =
                standings.iter().map(|(s, p, v, r)| (w.standing_line)(*r, &n(s), *p, *v)).collect();
            (w.championship)(&lines.join(", "))
        }
        Event::PhotoFinish(photo) => {
            let title = match photo.moment {
                Timed::Grab => w.photo_finish,
                Timed::Echange => w.echange_photo_finish,
            };
            let mut line = (w.titled)(title, &reaction_order(photo, names).join(", "));
            for c in &photo.contested {
                let _ = write!(line, " · {}", contest(c, names, w));
            }
            for m in echange_margins(photo, names, w) {
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
pub fn echange_margins(photo: &PhotoFinish, names: &[String], w: &Words) -> Vec<String> {
    if photo.moment != Timed::Echange {
        return Vec::new();
    }
    let order = photo.fastest_first();
    order
        .windows(2)
        .map(|pair| {
            let ((a, ra), (b, rb)) = (pair[0], pair[1]);
            (w.chose_before)(&name(names, a), &ms(rb.saturating_sub(ra)), &name(names, b))
        })
        .collect()
}

/// "pawn 3 to Anne, 4.2 ms ahead of Bob" (or "tied with Bob, drawn").
pub fn contest(c: &Contest, names: &[String], w: &Words) -> String {
    let (winner, runner_up) = (name(names, c.winner), name(names, c.runner_up));
    if c.drawn {
        (w.pawn_to_tied)(c.pawn.number(), &winner, &runner_up)
    } else {
        (w.pawn_to_ahead)(c.pawn.number(), &winner, &ms(c.margin_us), &runner_up)
    }
}

fn name(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide::Pawn;

    #[test]
    fn events_read_as_sentences() {
        let names: Vec<String> = ["El Gato"].map(String::from).to_vec();
        let e = Event::Moved { seat: Seat(0), from: 0, to: 2, blocked_at: Some(3) };
        assert_eq!(describe(&e, &names, &crate::lang::EN).unwrap(), "El Gato moves from 0 to 2, too fast for tile 3");
    }

    #[test]
    fn the_event_log_reads_naturally_in_french() {
        let names: Vec<String> = ["El Gato", "Anne"].map(String::from).to_vec();
        let fr = &crate::lang::FR;
        let e = Event::Moved { seat: Seat(0), from: 0, to: 2, blocked_at: Some(3) };
        assert_eq!(describe(&e, &names, fr).unwrap(), "El Gato avance de 0 à 2, trop rapide pour la case 3");
        let e = Event::BonusTaken { seat: Seat(1), tile: 33, kind: bolide::BonusKind::PanneSeche };
        assert_eq!(describe(&e, &names, fr).unwrap(), "Anne ramasse Panne Sèche en 33");
        let e = Event::BonusTaken { seat: Seat(1), tile: 33, kind: bolide::BonusKind::PanneSeche };
        assert_eq!(
            describe(&e, &names, &crate::lang::EN).unwrap(),
            "Anne picks up Panne Sèche on 33",
            "the box's name, not PanneSeche"
        );
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
            describe(&Event::PhotoFinish(photo), &names, &crate::lang::EN).unwrap(),
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
            describe(&Event::PhotoFinish(photo), &names, &crate::lang::EN).unwrap(),
            "Échange photo finish: Chloé 402 ms, Anne 410 ms · Chloé chose 7.5 ms before Anne"
        );
    }
}
