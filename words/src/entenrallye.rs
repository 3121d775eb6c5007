//! A game of Entenrallye narrated: one line for each event a player sees, in either language
//! (`bolide-host replay`, and the window's log when it plays it).

use crate::lang::Words;
use bolide_table::Seat;
use entenrallye::board::MEETING_MONTHS;
use entenrallye::{Event, Inspection, Kind, Part, Square, board};

/// A part as a person reads it: "front red 5/3" (section, colour, points/faults, E-7.1).
pub fn part_name(part: Part, w: &Words) -> String {
    let section = w.ente_sections[part.section().index()];
    let colour = w.ente_colours[part.colour() as usize];
    format!("{section} {colour} {}/{}", part.points(), part.faults())
}

/// A square in the rules' words (E-2): its kind, and for the road how far the next place is
/// ("grey road, 4 before meeting 1", "−7 behind the TÜV workshop") — the board's ids are the
/// engine's, never the screen's.
pub fn square_words(s: Square, w: &Words) -> String {
    let b = board();
    let month = |m: u8| w.ente_months.get(usize::from(m).saturating_sub(1)).copied().unwrap_or("?");
    if let Some(m) = b.meeting(s) {
        return (w.ente_sq_meeting)(m as u8 + 1, month(MEETING_MONTHS[m]));
    }
    if let Some(c) = b.station(s) {
        return (w.ente_sq_station)(c.name(), month(c.month()));
    }
    if let Some(c) = Inspection::BOTH.into_iter().find(|c| b.workshops[c.index()] == s) {
        return (w.ente_sq_workshop)(c.name());
    }
    for c in Inspection::BOTH {
        if let Some(k) = b.minus[c.index()].iter().position(|m| *m == s) {
            return (w.ente_sq_minus)(k as u8 + 1, c.name());
        }
    }
    // The next place along the road, a spur's station included.
    let places = [
        (b.meetings[0], (w.ente_place_meeting)(1)),
        (b.stations[0], (w.ente_place_station)(Inspection::Tuv.name())),
        (b.meetings[1], (w.ente_place_meeting)(2)),
        (b.meetings[2], (w.ente_place_meeting)(3)),
        (b.stations[1], (w.ente_place_station)(Inspection::Asu.name())),
        (b.meetings[3], (w.ente_place_meeting)(4)),
    ];
    let next = places.into_iter().find_map(|(at, name)| b.distance(s, at, |_| true).map(|d| (d, name)));
    let what = match (b.kind(s), b.spur(s)) {
        (Kind::Start, _) => w.ente_sq_start.to_string(),
        (_, Some(c)) => (w.ente_sq_spur)(c.name()),
        (Kind::Grey, _) => w.ente_sq_grey.to_string(),
        // The three beige squares before a meeting lead to it; the others bypass it.
        (_, _) if b.meetings.iter().any(|m| b.distance(s, *m, |_| true).is_some_and(|d| d <= 3)) => {
            w.ente_sq_beige.to_string()
        }
        _ => w.ente_sq_shortcut.to_string(),
    };
    match next {
        Some((d, place)) if d > 0 => (w.ente_sq_before)(&what, d, &place),
        _ => what,
    }
}

/// One line of the log for an Entenrallye event, or `None` for the bookkeeping ones. `players`
/// sets the calendar's steps per month (E-3.1).
pub fn describe(event: &Event, players: u8, names: &[String], w: &Words) -> Option<String> {
    let who = |s: &Seat| names.get(s.index()).cloned().unwrap_or_else(|| "?".into());
    let month = |m: u8| w.ente_months.get(usize::from(m).saturating_sub(1)).copied().unwrap_or("?");
    Some(match event {
        Event::Started { first, .. } => (w.ente_first)(&who(first)),
        Event::Rolled { seat, die, .. } => (w.ente_rolls)(&who(seat), *die),
        Event::Stays { seat } => (w.ente_stays)(&who(seat)),
        Event::Drove { seat, to, squares } => (w.ente_drives)(&who(seat), *squares, &square_words(*to, w)),
        Event::Bought { part: Some(part), .. } => (w.ente_you_buy)(&part_name(*part, w)),
        Event::Bought { seat, part: None } => (w.ente_buys)(&who(seat)),
        Event::Repaired { seat, points, marker } => (w.ente_repairs)(&who(seat), *points, *marker),
        Event::Judged { seat, meeting, points, early } => {
            let judged = (w.ente_judged)(&who(seat), meeting + 1, *points);
            match entenrallye::board::MEETING_MONTHS.get(usize::from(*meeting)) {
                Some(m) if *early && *meeting < 3 => format!("{judged}. {}", (w.ente_waits)(&who(seat), month(*m))),
                _ => judged,
            }
        }
        Event::PartsReturned { seat, kept, .. } => (w.ente_parts_back)(&who(seat), *kept),
        Event::Passed { seat, check, marker, .. } => (w.ente_passed)(&who(seat), check.name(), *marker),
        Event::Failed { seat, check, minus } => (w.ente_failed)(&who(seat), check.name(), *minus),
        Event::RoundedUp { seat, check, minus, .. } => (w.ente_rounded_up)(&who(seat), check.name(), *minus),
        Event::Stole { seat, from, part } => {
            let line = (w.ente_steals)(&who(seat), &who(from));
            part.map_or(line.clone(), |p| format!("{line}. {}", (w.ente_you_got)(&part_name(p, w))))
        }
        Event::Exchanged { seat, with, .. } => (w.ente_exchanges)(&who(seat), &who(with)),
        Event::Fitted { seat, part } => (w.ente_fits)(&who(seat), &part_name(*part, w)),
        Event::Time { time, .. } => {
            let c = entenrallye::Calendar { players: players.max(1), time: *time };
            (w.ente_time)(month(c.month()), c.step())
        }
        Event::GameEnded { .. } => w.ente_year_over.into(),
        Event::TurnStarted { .. } | Event::TurnEnded { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{EN, FR};

    #[test]
    fn a_year_reads_in_both_languages() {
        let names = vec!["Anne".to_string(), "Bot 2".to_string()];
        let judged = Event::Judged { seat: Seat(0), meeting: 1, points: 12, early: true };
        assert_eq!(
            describe(&judged, 2, &names, &EN).unwrap(),
            "Anne is judged at meeting 2: 12 points. Anne is early and waits there for June"
        );
        assert_eq!(
            describe(&judged, 2, &names, &FR).unwrap(),
            "Anne est jugé·e à la rencontre 2 : 12 points. Anne est en avance et attend juin sur place"
        );
        let time = Event::Time { time: 5, why: entenrallye::Why::Six };
        assert_eq!(describe(&time, 2, &names, &EN).unwrap(), "Calendar: March, step 1");
        assert_eq!(part_name(Part(0), &FR), "avant rouge 5/3");
        assert_eq!(describe(&Event::TurnEnded { seat: Seat(1) }, 2, &names, &EN), None);
    }

    #[test]
    fn e_2_a_square_is_named_in_the_rules_words_never_by_its_id() {
        let b = board();
        let at = |id: &str| square_words(b.find(id).unwrap(), &EN);
        assert_eq!(at("START"), "START, 18 before meeting 1");
        assert_eq!(at("A14"), "grey road, 4 before meeting 1");
        assert_eq!(at("M1in2"), "beige road, 2 before meeting 1");
        assert_eq!(at("K1_1"), "shortcut, 14 before the TÜV");
        assert_eq!(at("M1"), "meeting 1 (February)");
        assert_eq!(at("TU1"), "road to the TÜV, 2 before the TÜV");
        assert_eq!(at("TUV"), "TÜV station (April)");
        assert_eq!(at("WA"), "ASU workshop");
        assert_eq!(at("NT07"), "−7 behind the TÜV workshop");
        assert_eq!(square_words(b.find("M4").unwrap(), &FR), "rencontre 4 (décembre)");
        // Every square of the board reads without an id (START and ASU are the rules' words).
        for s in b.squares().filter(|s| !matches!(b.name(*s), "START" | "ASU")) {
            let words = square_words(s, &EN);
            assert!(!words.contains(b.name(s)), "{}: {words}", b.name(s));
        }
    }
}
