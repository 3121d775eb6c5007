//! The provably fair deal (M-3.2): every hand's deck order comes from the game's seed, on a
//! ChaCha stream keyed by what it is for and which hand, as Bolide's dice are
//! (Bolide's `dice`). Whoever learns the seed at the end re-deals every hand and
//! checks every card they saw; nobody's play shifts the next hand's deck.

use crate::card::{Card, DECK_SIZE};
use crate::event::Event;
use bolide_table::Seat;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Most players at a table (M-2.1).
pub const MAX_PLAYERS: usize = 8;
/// M-3.2: cards dealt to each player.
pub const HAND_SIZE: u8 = 6;

/// What a stream is for: the top byte of its ChaCha stream number.
#[derive(Clone, Copy)]
enum Purpose {
    Deck = 1,
    FirstDealer = 2,
}

fn stream(seed: u64, purpose: Purpose, index: u64) -> ChaCha8Rng {
    bolide_table::luck(seed, purpose as u8, index)
}

/// M-3.2: hand `hand`'s (from 0) shuffled deck, the top of the draw pile *last* (dealing pops).
pub fn deck(seed: u64, hand: u16) -> [Card; DECK_SIZE] {
    let mut cards = [Card::D25; DECK_SIZE];
    let mut at = 0;
    for card in Card::ALL {
        for _ in 0..card.count() {
            cards[at] = card;
            at += 1;
        }
    }
    let mut rng = stream(seed, Purpose::Deck, u64::from(hand));
    for i in (1..DECK_SIZE).rev() {
        let j = rng.random_range(0..=i);
        cards.swap(i, j);
    }
    cards
}

/// M-3.1: the first hand's dealer when the table draws it.
pub fn first_dealer(seed: u64, players: u8) -> u8 {
    stream(seed, Purpose::FirstDealer, 0).random_range(0..players.max(1))
}

/// What a deal check found wrong: a card seen that the seed's deal cannot explain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealMismatch {
    #[error("hand {hand}: seat {} drew {}, but the deal from the seed puts {} there", seat + 1, seen.name(), dealt.name())]
    Drew { hand: u16, seat: u8, seen: Card, dealt: Card },
    #[error("hand {hand}: seat {} laid {}, which the deal from the seed never gave it", seat + 1, card.name())]
    NotDealt { hand: u16, seat: u8, card: Card },
    #[error("hand {hand}: more draws than the deck has cards")]
    PastTheDeck { hand: u16 },
}

/// Re-deals hand `hand` from `seed` and checks every card its log shows: each draw the
/// viewer saw is the card the deck has there, and every card anyone laid, discarded or
/// answered with was in that seat's hand as the seed dealt it. `log` is the hand's events as
/// one viewer got them (others' draws hidden), from its `Dealt` on.
pub fn check_hand(seed: u64, players: u8, log: &[Event]) -> Result<(), DealMismatch> {
    let Some(&Event::Dealt { hand, first, .. }) = log.first() else { return Ok(()) };
    let players = players.clamp(1, MAX_PLAYERS as u8);
    let deck = deck(seed, hand);
    let mut top = DECK_SIZE;
    let mut pop = || {
        top = top.checked_sub(1)?;
        deck.get(top).copied()
    };
    let mut hands = [crate::card::CardCounts::default(); MAX_PLAYERS];
    for _ in 0..HAND_SIZE {
        for i in 0..players {
            let seat = (first.0.wrapping_add(i)) % players;
            let card = pop().ok_or(DealMismatch::PastTheDeck { hand })?;
            hands[usize::from(seat)].add(card);
        }
    }
    let lay = |hands: &mut [crate::card::CardCounts], seat: Seat, card: Card| {
        let held = hands.get_mut(seat.index()).is_some_and(|h| h.take(card));
        if held { Ok(()) } else { Err(DealMismatch::NotDealt { hand, seat: seat.0, card }) }
    };
    for event in &log[1..] {
        match *event {
            Event::Drew { seat, card } => {
                let dealt = pop().ok_or(DealMismatch::PastTheDeck { hand })?;
                if let Some(seen) = card.filter(|c| *c != dealt) {
                    return Err(DealMismatch::Drew { hand, seat: seat.0, seen, dealt });
                }
                if let Some(h) = hands.get_mut(seat.index()) {
                    h.add(dealt);
                }
            }
            Event::Played { seat, card, .. } | Event::Discarded { seat, card } => lay(&mut hands, seat, card)?,
            Event::CoupFourre { seat, safety, .. } => lay(&mut hands, seat, safety.card())?,
            Event::Dealt { .. } => break,
            _ => {}
        }
    }
    Ok(())
}

/// A viewer's watch over a whole game's deals: the events it got, hand by hand, checked once
/// the host reveals the seed at the end (M-3.2). A hand it joined in the middle of is not
/// checked (its first draws are unknown to it), and the watch says so.
#[derive(Debug, Clone, Default)]
pub struct DealWatch {
    hands: Vec<Vec<Event>>,
    /// Whether the viewer joined in the middle of a hand, which is then not checked.
    pub joined_mid_hand: bool,
}

/// Hands a watch keeps at most (a game to 5000 takes a handful; a runaway host cannot make
/// it grow without bound).
const WATCHED_HANDS: usize = 256;

impl DealWatch {
    /// Records an event as the viewer got it.
    pub fn saw(&mut self, event: Event) {
        match event {
            Event::Dealt { .. } if self.hands.len() < WATCHED_HANDS => self.hands.push(vec![event]),
            Event::Dealt { .. } => {}
            _ => match self.hands.last_mut() {
                Some(log) if log.len() < 4 * DECK_SIZE => log.push(event),
                Some(_) => {}
                None => self.joined_mid_hand = true,
            },
        }
    }

    /// Checks every hand seen against the revealed `seed`; `Ok(hands checked)`.
    pub fn check(&self, seed: u64, players: u8) -> Result<usize, DealMismatch> {
        for log in &self.hands {
            check_hand(seed, players, log)?;
        }
        Ok(self.hands.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardCounts;

    #[test]
    fn m_3_2_each_hand_is_shuffled_from_the_seed_alone() {
        let a = deck(7, 0);
        assert_eq!(a, deck(7, 0), "the same seed and hand deal the same deck");
        assert_ne!(a, deck(7, 1), "each hand has its own order");
        assert_ne!(a, deck(8, 0));
        let mut counts = CardCounts::default();
        a.iter().for_each(|&c| counts.add(c));
        assert_eq!(counts, CardCounts::full_deck());
        assert!((0..50).map(|s| first_dealer(s, 4)).all(|d| d < 4));
        assert!((0..50).map(|s| first_dealer(s, 4)).collect::<std::collections::BTreeSet<_>>().len() == 4);
    }
}

#[cfg(test)]
mod watch_tests {
    use super::*;
    use crate::options::Settings;
    use crate::partie::Partie;
    use bolide_table::BotLevel;
    use rand::SeedableRng;

    /// A whole game's events as `viewer` got them.
    fn seen_by(viewer: Seat, seed: u64) -> (Partie, Vec<Event>) {
        let mut events = Vec::new();
        let mut p = Partie::new(Settings::default(), 4, seed, &mut events).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        bolide_table::drive::play(&mut p, &[BotLevel::Strategic; 4], &mut rng, &mut events, 100_000).unwrap();
        let seen = events.iter().map(|e| p.event_for(*e, Some(viewer))).collect();
        (p, seen)
    }

    #[test]
    fn m_3_2_every_card_a_seat_saw_is_checked_against_the_revealed_seed() {
        let (p, seen) = seen_by(Seat(1), 21);
        let mut watch = DealWatch::default();
        seen.iter().for_each(|e| watch.saw(*e));
        assert_eq!(watch.check(21, 4), Ok(p.history().len()));
        assert!(p.history().len() >= 2);
        // Another seed does not explain what was seen.
        assert!(watch.check(22, 4).is_err());
        // A draw the host changed, or a card laid that the deal never gave, is caught.
        let mut forged = seen.clone();
        let i = forged.iter().position(|e| matches!(e, Event::Drew { seat: Seat(1), card: Some(_) })).unwrap();
        let Event::Drew { seat, card: Some(card) } = forged[i] else { unreachable!() };
        let other = crate::card::Card::ALL.into_iter().find(|c| *c != card).unwrap();
        forged[i] = Event::Drew { seat, card: Some(other) };
        let mut watch = DealWatch::default();
        forged.iter().for_each(|e| watch.saw(*e));
        assert!(matches!(watch.check(21, 4), Err(DealMismatch::Drew { .. })));
        let mut forged = seen;
        let i = forged.iter().position(|e| matches!(e, Event::Discarded { seat: Seat(2), .. })).unwrap();
        let Event::Discarded { seat, card } = forged[i] else { unreachable!() };
        let other = crate::card::Card::ALL.into_iter().find(|c| *c != card && c.count() == 1).unwrap();
        forged[i] = Event::Discarded { seat, card: other };
        let mut watch = DealWatch::default();
        forged.iter().for_each(|e| watch.saw(*e));
        assert!(watch.check(21, 4).is_err(), "another seat's card that no deal gave it");
    }
}
