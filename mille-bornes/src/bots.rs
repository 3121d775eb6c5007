//! The bots: `Random` plays any legal action; `Strategic` plays as a player who knows the box
//! — it finishes exactly when it can, gets its car rolling, attacks the leader, keeps the
//! remedies for attacks still in play, holds its safeties for a Coup-Fourré (M-15.11: it
//! always calls with the safety in hand) and counts its 200s. Both read only what their seat
//! may know: every tableau, the discard, and their own hand.

use crate::action::Action;
use crate::card::{Attack, Card, CardCounts, Family, Safety};
use crate::manche::{Manche, Phase};
use crate::options::Settings;
use crate::tableau::Tableau;
use crate::view::View;
use bolide_table::BotLevel;
use bolide_table::Seat;
use rand::{Rng, RngExt};

/// What a seat may know, whether the bot plays on the host (the engine's state: it reads
/// only this of it) or over the wire (its view): the bots read nothing else.
pub trait Sight {
    fn settings(&self) -> &Settings;
    fn players(&self) -> u8;
    fn draw_count(&self) -> u8;
    fn side_of(&self, seat: Seat) -> u8;
    fn tableaux(&self) -> &[Tableau];
    /// `seat`'s hand, when this sight may see it.
    fn hand(&self, seat: Seat) -> Option<CardCounts>;
    /// Every card discarded this hand (face up: every seat saw each one go).
    fn discarded(&self) -> CardCounts;

    fn tableau(&self, side: u8) -> Option<&Tableau> {
        self.tableaux().get(usize::from(side))
    }
}

impl Sight for Manche {
    fn settings(&self) -> &Settings {
        Manche::settings(self)
    }
    fn players(&self) -> u8 {
        Manche::players(self)
    }
    fn draw_count(&self) -> u8 {
        Manche::draw_count(self)
    }
    fn side_of(&self, seat: Seat) -> u8 {
        Manche::side_of(self, seat)
    }
    fn tableaux(&self) -> &[Tableau] {
        Manche::tableaux(self)
    }
    fn hand(&self, seat: Seat) -> Option<CardCounts> {
        Manche::hand(self, seat).copied()
    }
    fn discarded(&self) -> CardCounts {
        *self.discard().0
    }
}

impl Sight for View {
    fn settings(&self) -> &Settings {
        &self.settings
    }
    fn players(&self) -> u8 {
        self.players
    }
    fn draw_count(&self) -> u8 {
        self.draw_count
    }
    fn side_of(&self, seat: Seat) -> u8 {
        crate::manche::side_of(seat, self.sides)
    }
    fn tableaux(&self) -> &[Tableau] {
        &self.tableaux
    }
    fn hand(&self, seat: Seat) -> Option<CardCounts> {
        let cards = if self.viewer == Some(seat) {
            &self.hand
        } else {
            &self.partner_hands.iter().find(|(s, _)| *s == seat)?.1
        };
        Some(cards.iter().fold(CardCounts::default(), |mut counts, &card| {
            counts.add(card);
            counts
        }))
    }
    fn discarded(&self) -> CardCounts {
        self.discarded
    }
}

/// What `seat`'s bot does now, if it has anything to do. `scratch` is reused between calls.
pub fn decide(
    manche: &Manche,
    seat: Seat,
    level: BotLevel,
    rng: &mut impl Rng,
    scratch: &mut Vec<Action>,
) -> Option<Action> {
    scratch.clear();
    manche.legal_actions_into(seat, scratch);
    decide_among(manche, seat, level, scratch, rng)
}

/// What `seat`'s bot picks among `legal` (the host's list, over the wire), seeing `sight`.
pub fn decide_among(
    sight: &impl Sight,
    seat: Seat,
    level: BotLevel,
    legal: &[Action],
    rng: &mut impl Rng,
) -> Option<Action> {
    if legal.is_empty() {
        return None;
    }
    // M-15.11: a bot that holds the safety always calls (the table times the call).
    if legal.contains(&Action::CoupFourre) {
        return Some(Action::CoupFourre);
    }
    match level {
        BotLevel::Random => {
            let i = rng.random_range(0..legal.len());
            legal.get(i).copied()
        }
        BotLevel::Strategic => strategic(sight, seat, legal),
    }
}

/// The strategic bot's turn, among `legal`; `None` only when nothing is legal.
fn strategic(m: &impl Sight, seat: Seat, legal: &[Action]) -> Option<Action> {
    let own = m.side_of(seat);
    let (Some(mine), Some(hand)) = (m.tableau(own), m.hand(seat)) else { return legal.first().copied() };
    let hand = &hand;
    let target = m.settings().target_km;
    let endgame = usize::from(m.draw_count()) <= usize::from(m.players());
    let plays =
        || legal.iter().filter_map(|a| if let Action::Play { card, on } = *a { Some((card, on)) } else { None });
    let can = |card: Card| plays().any(|(c, _)| c == card);

    // An exact finish ends the hand with 400 (M-11.1).
    if let Some((card, _)) = plays().find(|(c, _)| c.km().is_some_and(|km| mine.km + km == target)) {
        return Some(Action::Play { card, on: None });
    }
    // Get the car rolling: the remedy it waits for, its Feu Vert, a Fin de Limite.
    let remedies = plays().filter(|(c, _)| matches!(c.family(), Family::Remedy(_)));
    if let Some((card, _)) = remedies.clone().find(|(c, _)| *c != Card::FinDeLimite) {
        return Some(Action::Play { card, on: None });
    }
    // A safety that clears the attack on its own pile beats waiting for a remedy; near the
    // end of the hand a safety held for a Coup-Fourré may never score, so it is laid.
    for (card, _) in plays().filter(|(c, _)| matches!(c.family(), Family::Safety(_))) {
        let Family::Safety(safety) = card.family() else { continue };
        let answers_standing = match mine.battle {
            crate::tableau::Battle::Hazard(h) => safety.answers(h.attack()),
            crate::tableau::Battle::Stopped | crate::tableau::Battle::NotStarted => {
                safety == Safety::VehiculePrioritaire
            }
            _ => false,
        } || (safety == Safety::VehiculePrioritaire && mine.limited());
        if answers_standing || endgame {
            return Some(Action::Play { card, on: None });
        }
    }
    // Attack the leader (most km, then the hazards that cost two cards to answer).
    let attack =
        plays().filter_map(|(c, on)| Some((c, on?))).max_by_key(|&(card, side)| attack_value(m, card, side, endgame));
    // The longest distance it may lay; under a limit, lift the limit first if it holds long ones.
    let distance = plays().filter(|(c, _)| c.km().is_some()).max_by_key(|(c, _)| c.km());
    let long_in_hand = hand.cards().any(|c| c.km().is_some_and(|km| km > 50));
    if mine.limited() && long_in_hand && can(Card::FinDeLimite) {
        return Some(Action::Play { card: Card::FinDeLimite, on: None });
    }
    match (attack, distance) {
        (Some((card, side)), Some((d, _))) => {
            let leader_km = m.tableau(side).map_or(0, |t| t.km);
            // Attack a side ahead of it, or anyone near the finish; otherwise drive.
            if leader_km >= mine.km || leader_km + 300 >= target {
                return Some(Action::Play { card, on: Some(side) });
            }
            return Some(Action::Play { card: d, on: None });
        }
        (Some((card, side)), None) => return Some(Action::Play { card, on: Some(side) }),
        (None, Some((card, _))) => return Some(Action::Play { card, on: None }),
        (None, None) => {}
    }
    if can(Card::FinDeLimite) {
        return Some(Action::Play { card: Card::FinDeLimite, on: None });
    }
    // Nothing worth playing: discard the card worth least.
    let seen = seen_cards(m);
    let discard = hand.cards().min_by_key(|&c| keep_value(c, mine, hand, &seen, target));
    match discard {
        Some(card) => Some(Action::Discard { card }),
        None => legal.first().copied(),
    }
}

/// How good an attack on `side` is: the leader first, hazards before a Feu Rouge before a
/// Limite (which only bites a side that still has far to go).
fn attack_value(m: &impl Sight, card: Card, side: u8, endgame: bool) -> (u16, u8) {
    let km = m.tableau(side).map_or(0, |t| t.km);
    let kind = match card.family() {
        Family::Attack(Attack::LimiteDeVitesse) if km + 50 >= m.settings().target_km => 0,
        Family::Attack(Attack::LimiteDeVitesse) => 1,
        Family::Attack(Attack::FeuRouge) => 2,
        _ => 3,
    };
    (if endgame { km } else { km / 100 }, kind)
}

/// Every card whose place is public: the discard and the tableaux.
fn seen_cards(m: &impl Sight) -> CardCounts {
    m.tableaux().iter().fold(m.discarded(), |all, t| all.plus(&t.cards))
}

/// How much the bot wants to keep `card`: 0 for what can never be played.
fn keep_value(card: Card, mine: &Tableau, hand: &CardCounts, seen: &CardCounts, target: u16) -> u16 {
    let copies = hand.get(card);
    match card.family() {
        Family::Safety(_) => 1000,
        Family::Distance(km) => {
            let dead = mine.km + km > target || (km == 200 && mine.two_hundreds() >= 2);
            if dead { 0 } else { km / 2 }
        }
        Family::Remedy(attack) => {
            if mine.has(attack.safety()) {
                return 0;
            }
            // Attacks of this kind still unaccounted for could come at this car.
            let outstanding = attack.card().count().saturating_sub(seen.get(attack.card()));
            let base = if card == Card::FeuVert { 70 } else { 60 };
            match (outstanding, copies) {
                (0, _) if card != Card::FeuVert => 1,
                (_, 1) => base,
                _ => 12,
            }
        }
        Family::Attack(Attack::LimiteDeVitesse) => 30,
        Family::Attack(_) => 40,
    }
}

/// Whether a bot has anything to do in `manche` now (its seat's turn, or a window it can call).
pub fn acts_now(manche: &Manche, seat: Seat) -> bool {
    match manche.phase() {
        Phase::Turn { seat: active } => active == seat,
        Phase::Window { .. } => manche.check(seat, Action::CoupFourre).is_ok(),
        Phase::Over => false,
    }
}
