//! A game of 1000 Bornes narrated: one line for each event a player sees, in either language
//! (the window's log, `bolide-host replay`).

use crate::lang::Words;
use bolide_table::Seat;
use mille_bornes::manche::side_of;
use mille_bornes::{Event, Family, View};

/// The names of the seats that drive `side` ("Anne & Bot 3" for partners).
pub fn side_name(view: &View, names: &[String], side: u8) -> String {
    let seats: Vec<&str> = (0..view.players)
        .filter(|s| side_of(Seat(*s), view.sides) == side)
        .map(|s| names.get(usize::from(s)).map_or("?", String::as_str))
        .collect();
    seats.join(" & ")
}

/// One line of the log for a 1000 Bornes event, or `None` for the bookkeeping ones.
pub fn describe(event: &Event, view: &View, names: &[String], w: &Words) -> Option<String> {
    let who = |s: &Seat| names.get(s.index()).cloned().unwrap_or_else(|| "?".into());
    Some(match event {
        Event::Dealt { hand, dealer, .. } => (w.mb_dealt)(hand + 1, &who(dealer)),
        Event::Drew { card: Some(card), .. } => (w.mb_you_draw)(card.name()),
        Event::Played { seat, card, side } => match card.family() {
            Family::Attack(_) => (w.mb_attacks)(&who(seat), card.name(), &side_name(view, names, *side)),
            _ => (w.mb_plays)(&who(seat), card.name()),
        },
        Event::Discarded { seat, card } => (w.mb_discards)(&who(seat), card.name()),
        Event::Cleared { card, .. } => (w.mb_cleared)(card.name()),
        Event::PlaysAgain { seat } => (w.mb_plays_again)(&who(seat)),
        Event::Passed { seat } => (w.mb_passes)(&who(seat)),
        Event::WindowOpened { side, .. } => (w.mb_window_for)(&side_name(view, names, *side)),
        Event::CoupFourre { seat, safety, .. } => (w.mb_coup_fourre)(&who(seat), safety.card().name()),
        Event::LostTurn { seat } => (w.mb_lost_turn)(&who(seat)),
        Event::AttackStands { side, attack } => {
            (w.mb_attack_stands)(attack.card().name(), &side_name(view, names, *side))
        }
        Event::HandEnded { hand, .. } => (w.mb_hand_over)(hand + 1),
        Event::GameOver => w.mb_game_over.into(),
        Event::Reaction { seat, reaction_us } => (w.mb_reaction)(&who(seat), &crate::text::ms(*reaction_us)),
        Event::Drew { card: None, .. } | Event::Turn { .. } => return None,
    })
}
