//! A game of Entenrallye narrated: one line for each event a player sees, in either language
//! (`bolide-host replay`, and the window's log when it plays it).

use crate::lang::Words;
use bolide_table::Seat;
use entenrallye::{Event, Part, board};

/// A part as a person reads it: "front red 5/3" (section, colour, points/faults, E-7.1).
pub fn part_name(part: Part, w: &Words) -> String {
    let section = w.ente_sections[part.section().index()];
    let colour = w.ente_colours[part.colour() as usize];
    format!("{section} {colour} {}/{}", part.points(), part.faults())
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
        Event::Drove { seat, to, squares } => (w.ente_drives)(&who(seat), *squares, board().name(*to)),
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
}
