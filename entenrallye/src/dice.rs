//! Provably fair luck, as Bolide's dice and 1000 Bornes' deal: every random thing of a year
//! comes from the game's seed on a ChaCha stream keyed by what it is for and its number — the
//! n-th roll of the die, the n-th shuffle of the pile, the n-th part taken —, so whoever learns
//! the seed at the end checks every roll they saw, and nobody's play shifts the next roll.

use crate::part::Part;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// What a stream is for: the top byte of its ChaCha stream number.
#[derive(Clone, Copy)]
enum Purpose {
    FirstPlayer = 1,
    Shuffle = 2,
    Die = 3,
    Take = 4,
}

fn stream(seed: u64, purpose: Purpose, index: u64) -> ChaCha8Rng {
    bolide_table::luck(seed, purpose as u8, index)
}

/// E-4.2: the year's `roll`-th roll of the die (from 0).
pub fn die(seed: u64, roll: u32) -> u8 {
    stream(seed, Purpose::Die, u64::from(roll)).random_range(1..=6)
}

/// E-1.4: the first player, when the table draws it.
pub fn first_player(seed: u64, players: u8) -> u8 {
    stream(seed, Purpose::FirstPlayer, 0).random_range(0..players.max(1))
}

/// E-1.3, E-11.4: the `n`-th shuffle of the pile (from 0: the set-up's).
pub fn shuffle(seed: u64, n: u32, parts: &mut [Part]) {
    let mut rng = stream(seed, Purpose::Shuffle, u64::from(n));
    for i in (1..parts.len()).rev() {
        parts.swap(i, rng.random_range(0..=i));
    }
}

/// E-8.3: which of `len` hidden parts the `n`-th steal or exchange takes (from 0).
pub fn take(seed: u64, n: u32, len: usize) -> usize {
    stream(seed, Purpose::Take, u64::from(n)).random_range(0..len.max(1))
}

/// What a roll check found wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("roll {roll} showed {seen}, and the seed gives {expected}")]
pub struct RollMismatch {
    pub roll: u32,
    pub seen: u8,
    pub expected: u8,
}

/// Every roll `(number, die)` a laptop saw, against the seed: how many matched.
pub fn check_rolls(seed: u64, rolls: &[(u32, u8)]) -> Result<usize, RollMismatch> {
    for &(roll, seen) in rolls {
        let expected = die(seed, roll);
        if seen != expected {
            return Err(RollMismatch { roll, seen, expected });
        }
    }
    Ok(rolls.len())
}
