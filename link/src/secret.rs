//! Secrets — a game's seed and its commitment's nonce, the room's code word, seat tokens — drawn from the OS's
//! random source, each on its own: none can be derived from another or from the clock (a seed
//! derived from the Unix second was found by searching one day's seconds).

use bolide_table::wire::SeatToken;
use thiserror::Error;

#[derive(Debug, Error)]
#[error("the operating system's random source failed ({0}); the host cannot draw secrets")]
pub struct NoRandomness(String);

fn fill(bytes: &mut [u8]) -> Result<(), NoRandomness> {
    getrandom::fill(bytes).map_err(|e| NoRandomness(e.to_string()))
}

/// 64 random bits (a championship seed, a bot generator's seed).
pub fn u64() -> Result<u64, NoRandomness> {
    let mut b = [0u8; 8];
    fill(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

/// 256 random bits: the nonce that hides the seed in its commitment.
pub fn nonce() -> Result<[u8; 32], NoRandomness> {
    let mut b = [0u8; 32];
    fill(&mut b)?;
    Ok(b)
}

/// A seat token: 128 random bits.
pub fn seat_token() -> Result<SeatToken, NoRandomness> {
    let mut b = [0u8; 16];
    fill(&mut b)?;
    Ok(SeatToken(u128::from_le_bytes(b)))
}

/// Letters of a code word: no I, L, O or U, so a word read aloud is typed right.
pub const WORD_LETTERS: &[u8] = b"ABCDEFGHJKMNPQRSTVWXYZ";
/// Letters in a code word: 22^6 ≈ 1.1 × 10^8 words, so at the host's allowed rate of wrong
/// codes (`net::server::WRONG_CODES_PER_S` per address) a guess takes months, not an evening.
pub const WORD_LEN: usize = 6;

/// A new code word, uniformly drawn (rejection sampling: no letter is favoured).
pub fn code_word() -> Result<String, NoRandomness> {
    let mut word = String::with_capacity(WORD_LEN);
    let limit = 256 - 256 % WORD_LETTERS.len();
    while word.len() < WORD_LEN {
        let mut b = [0u8; 16];
        fill(&mut b)?;
        for x in b.into_iter().filter(|x| (*x as usize) < limit) {
            if word.len() < WORD_LEN {
                word.push(WORD_LETTERS[x as usize % WORD_LETTERS.len()] as char);
            }
        }
    }
    Ok(word)
}

/// Compares two secrets in time that depends only on their lengths, so a wrong guess learns
/// nothing from how long its refusal took.
pub fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_fresh_and_independent() {
        let seeds: std::collections::BTreeSet<u64> = (0..64).map(|_| u64().unwrap()).collect();
        assert_eq!(seeds.len(), 64);
        let words: std::collections::BTreeSet<String> = (0..64).map(|_| code_word().unwrap()).collect();
        assert!(words.len() >= 63);
        for w in &words {
            assert_eq!(w.len(), WORD_LEN);
            assert!(w.bytes().all(|c| WORD_LETTERS.contains(&c)), "{w}");
        }
        assert_ne!(seat_token().unwrap(), seat_token().unwrap());
    }

    #[test]
    fn same_compares_whole_secrets() {
        assert!(same(b"GARAGE", b"GARAGE"));
        assert!(!same(b"GARAGE", b"GARAGF"));
        assert!(!same(b"GARAGE", b"GARAG"));
    }
}
