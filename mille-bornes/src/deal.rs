//! The provably fair deal (M-3.2): every hand's deck order comes from the game's seed, on a
//! ChaCha stream keyed by what it is for and which hand, as Bolide's dice are
//! (Bolide's `dice`). Whoever learns the seed at the end re-deals every hand and
//! checks every card they saw; nobody's play shifts the next hand's deck.

use crate::card::{Card, DECK_SIZE};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a stream is for: the top byte of its ChaCha stream number.
#[derive(Clone, Copy)]
enum Purpose {
    Deck = 1,
    FirstDealer = 2,
}

fn stream(seed: u64, purpose: Purpose, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(((purpose as u64) << 56) | (index & 0x00ff_ffff_ffff_ffff));
    rng
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
