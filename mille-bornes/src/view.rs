//! What one seat (or a spectator) may know of a game of 1000 Bornes: the view the host sends
//! and a laptop checks before it shows or decides on it.

use crate::action::Action;
use crate::card::{Card, CardCounts};
use crate::manche::Phase;
use crate::options::Settings;
use crate::score::HandScore;
use crate::tableau::Tableau;
use bolide_table::Seat;
use serde::{Deserialize, Serialize};

/// What one seat (or a spectator) may know of the game (M-3.4): every tableau, the discard,
/// the counts; its own hand only (and its partner's, with open hands, M-2.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Option<Seat>,
    pub players: u8,
    pub sides: u8,
    pub settings: Settings,
    /// The hand being played, from 0.
    pub hand_number: u16,
    pub dealer: Seat,
    pub phase: Phase,
    /// The viewer's cards, in card order.
    pub hand: Vec<Card>,
    /// Partners' hands the viewer may see (open hands).
    pub partner_hands: Vec<(Seat, Vec<Card>)>,
    /// Cards in each seat's hand.
    pub hand_sizes: Vec<u8>,
    pub tableaux: Vec<Tableau>,
    pub draw_count: u8,
    pub discard_top: Option<Card>,
    pub discard_count: u8,
    /// Every card discarded this hand: face up, each seen by every seat as it went.
    pub discarded: CardCounts,
    pub totals: Vec<u32>,
    pub hands_won: Vec<u8>,
    /// Every hand scored so far, line by line.
    pub history: Vec<HandScore>,
    pub over: bool,
    /// Attacks played so far this hand: with the hand's number, the name of the Coup-Fourré
    /// window now open ([`window_moment`]).
    pub attacks: u16,
}

/// The name the table gives a Coup-Fourré window (M-15): every attack opens a new one, named
/// by the hand and the attack's number in it, on the host and on every laptop alike.
pub fn window_moment(hand_number: u16, attacks: u16) -> u64 {
    (u64::from(hand_number) << 16) | u64::from(attacks)
}

impl View {
    /// Whether this view names only what exists (a laptop checks a host's view before it
    /// shows or decides on it): seats within the table, sides within its cars.
    pub fn check(&self) -> Result<(), String> {
        let (players, sides) = (self.players, self.sides);
        let seat_ok = |s: Seat| s.0 < players;
        let side_ok = |side: u8| side < sides;
        let phase_ok = match self.phase {
            Phase::Turn { seat } => seat_ok(seat),
            Phase::Window { attacker, side, .. } => seat_ok(attacker) && side_ok(side),
            Phase::Over => true,
        };
        let ok = (2..=crate::deal::MAX_PLAYERS as u8).contains(&players)
            && (1..=players).contains(&sides)
            && self.viewer.is_none_or(seat_ok)
            && seat_ok(self.dealer)
            && phase_ok
            && self.hand_sizes.len() == usize::from(players)
            && self.tableaux.len() == usize::from(sides)
            && self.totals.len() == usize::from(sides)
            && self.hands_won.len() == usize::from(sides)
            && self.partner_hands.iter().all(|(s, _)| seat_ok(*s));
        if ok {
            Ok(())
        } else {
            Err(format!(
                "a 1000 Bornes view of {players} players and {sides} sides that names a seat or a side past them"
            ))
        }
    }

    /// Whether `action` names only sides of this table.
    pub fn check_action(&self, action: &Action) -> Result<(), String> {
        match action {
            Action::Play { on: Some(side), .. } if *side >= self.sides => {
                Err(format!("an attack on side {side} at a table of {} sides", self.sides))
            }
            _ => Ok(()),
        }
    }
}
