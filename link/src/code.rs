//! Room codes: `WORD-FINGERPRINT`, or `WORD-FINGERPRINT-N` for a host's room after its first.
//! The word is what authenticates both sides (`pake`: never sent, proved); the fingerprint is
//! the start of the host certificate's SHA-256, which the client checks during the handshake —
//! a quick "this is not the host you were told about", not a protection: 30 bits are forged
//! with about a billion hashes, and a forged certificate still cannot prove the word. `N` names
//! the room on that host (public, like the fingerprint).

use sha2::{Digest, Sha256};

/// Crockford's base32: no I, L, O or U, so a code read aloud is typed right.
const BASE32: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Characters of fingerprint in a room code (30 bits: a name for the host, not a proof).
pub const FINGERPRINT_CHARS: usize = 6;

/// The first [`FINGERPRINT_CHARS`] base32 characters of the certificate's SHA-256.
pub fn fingerprint_prefix(cert: &[u8]) -> String {
    let digest = Sha256::digest(cert);
    let mut bits: u64 = 0;
    for b in &digest[..5] {
        bits = bits << 8 | u64::from(*b);
    }
    (0..FINGERPRINT_CHARS).map(|i| BASE32[((bits >> (35 - 5 * i)) & 31) as usize] as char).collect()
}

/// A room code, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomCode {
    pub word: String,
    pub fingerprint: String,
    /// The room on that host (0: its first).
    pub room: u16,
}

/// Reads `WORD-FINGERPRINT[-N]`; case-insensitive, forgiving O/0, I/L/1 in the fingerprint.
pub fn parse_code(code: &str) -> Option<RoomCode> {
    let code = code.trim();
    let (code, room) = match code.split('-').count() {
        3 => {
            let (rest, n) = code.rsplit_once('-')?;
            (rest, n.parse().ok()?)
        }
        _ => (code, 0),
    };
    let (word, fingerprint) = split_code(code)?;
    Some(RoomCode { word, fingerprint, room })
}

/// Splits `WORD-FINGERPRINT`; the check is case-insensitive and forgives O/0, I/L/1.
pub fn split_code(code: &str) -> Option<(String, String)> {
    let (word, fp) = code.trim().rsplit_once('-')?;
    let fp: String = fp
        .to_ascii_uppercase()
        .chars()
        .map(|c| match c {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    (!word.is_empty() && fp.len() == FINGERPRINT_CHARS).then(|| (word.to_ascii_uppercase(), fp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_split_and_forgive_look_alikes() {
        assert_eq!(split_code("gare-7f3k0q"), Some(("GARE".into(), "7F3K0Q".into())));
        assert_eq!(split_code("GARE-7F3KOQ"), Some(("GARE".into(), "7F3K0Q".into())));
        assert_eq!(split_code("GARE"), None);
        assert_eq!(split_code("GARE-7F3"), None);
        let second = parse_code("gare-7f3k0q-2").unwrap();
        assert_eq!((second.word.as_str(), second.fingerprint.as_str(), second.room), ("GARE", "7F3K0Q", 2));
        assert_eq!(parse_code("GARE-7F3K0Q").unwrap().room, 0);
        assert_eq!(parse_code("GARE-7F3K0Q-x"), None);
        assert_eq!(fingerprint_prefix(b"abc").len(), FINGERPRINT_CHARS);
        assert_ne!(fingerprint_prefix(b"abc"), fingerprint_prefix(b"abd"));
    }
}
