//! Room codes: `WORD-FINGERPRINT`, or `WORD-FINGERPRINT-N` for a host's room after its first;
//! the fingerprint is shown in groups of four (`GARAGE-7F3K-0Q9M-2XWB-HC4T`).
//! The word is what authenticates both sides (`pake`: never sent, proved) — but everyone at
//! the table knows it, so it cannot tell the host from a guest posing as the host. The
//! fingerprint does: the first 80 bits of the host certificate's SHA-256, which the client
//! checks during the handshake. A laptop takes it from the host's own screen (typed, or from
//! its QR code), never from an advert; forging a certificate that matches it takes about 2⁸⁰
//! hashes. `N` names the room on that host (public, like the fingerprint).

use sha2::{Digest, Sha256};

/// Crockford's base32: no I, L, O or U, so a code read aloud is typed right.
const BASE32: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Characters of fingerprint in a room code: 16 of base32, 80 bits.
pub const FINGERPRINT_CHARS: usize = 16;

/// Characters of fingerprint shown between two dashes, for a person to read and type.
const GROUP: usize = 4;

/// The first [`FINGERPRINT_CHARS`] base32 characters of the certificate's SHA-256.
pub fn fingerprint_prefix(cert: &[u8]) -> String {
    let digest = Sha256::digest(cert);
    let mut bits: u128 = 0;
    for b in &digest[..FINGERPRINT_CHARS * 5 / 8] {
        bits = bits << 8 | u128::from(*b);
    }
    let top = FINGERPRINT_CHARS * 5 - 5;
    (0..FINGERPRINT_CHARS).map(|i| BASE32[((bits >> (top - 5 * i)) & 31) as usize] as char).collect()
}

/// A fingerprint as a person reads it: groups of four joined by dashes.
pub fn grouped(fingerprint: &str) -> String {
    let chars: Vec<char> = fingerprint.chars().collect();
    chars.chunks(GROUP).map(|g| g.iter().collect::<String>()).collect::<Vec<_>>().join("-")
}

/// A room code as the host shows it: `WORD-7F3K-0Q9M-2XWB-HC4T`, `-N` after a host's first room.
pub fn format_code(word: &str, fingerprint: &str, room: u16) -> String {
    match room {
        0 => format!("{}-{}", word.to_ascii_uppercase(), grouped(fingerprint)),
        n => format!("{}-{}-{n}", word.to_ascii_uppercase(), grouped(fingerprint)),
    }
}

/// A room code, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomCode {
    pub word: String,
    pub fingerprint: String,
    /// The room on that host (0: its first).
    pub room: u16,
}

/// Reads `WORD-FINGERPRINT[-N]`: case-insensitive, the fingerprint in groups or not (dashes and
/// spaces between its characters are ignored), forgiving O/0, I/L/1 in it.
pub fn parse_code(code: &str) -> Option<RoomCode> {
    let (word, rest) = code.trim().split_once('-')?;
    let parts: Vec<&str> = rest.split('-').collect();
    let joined = |parts: &[&str]| fingerprint_of(&parts.concat());
    // `-N` names a room only when the fingerprint is whole without it (a group of four digits
    // is fingerprint, not a room).
    let (fingerprint, room) = match joined(&parts) {
        Some(fp) => (fp, 0),
        None => {
            let (last, before) = parts.split_last()?;
            let room = last.trim().parse().ok().filter(|_| last.trim().len() <= 4)?;
            (joined(before)?, room)
        }
    };
    let word = word.trim();
    (!word.is_empty()).then(|| RoomCode { word: word.to_ascii_uppercase(), fingerprint, room })
}

/// Splits `WORD-FINGERPRINT` (no room number).
pub fn split_code(code: &str) -> Option<(String, String)> {
    parse_code(code).filter(|c| c.room == 0).map(|c| (c.word, c.fingerprint))
}

/// The fingerprint a person typed: spaces dropped, look-alikes forgiven; `None` unless it is
/// [`FINGERPRINT_CHARS`] characters of the alphabet.
/// A room as a browser's address names it after its `#`: the word, then the room's number
/// after a dash (`GARAGE`, `garage-2`). A full room code reads too: its fingerprint names a
/// TLS certificate, which a browser's link has none of, so it is left aside.
pub fn parse_word(code: &str) -> Option<(String, u16)> {
    if let Some(full) = parse_code(code) {
        return Some((full.word, full.room));
    }
    let code = code.trim();
    let (word, room) = match code.split_once('-') {
        Some((word, room)) => (word, room.trim().parse().ok().filter(|_| room.trim().len() <= 4)?),
        None => (code, 0),
    };
    let word = word.trim();
    (!word.is_empty() && word.chars().all(|c| c.is_ascii_alphabetic())).then(|| (word.to_ascii_uppercase(), room))
}

fn fingerprint_of(typed: &str) -> Option<String> {
    let fp: String = typed
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    (fp.len() == FINGERPRINT_CHARS && fp.bytes().all(|b| BASE32.contains(&b))).then_some(fp)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FP: &str = "7F3K0Q9M2XWBHC4T";

    #[test]
    fn codes_split_and_forgive_look_alikes() {
        assert_eq!(split_code("gare-7f3k-0q9m-2xwb-hc4t"), Some(("GARE".into(), FP.into())));
        assert_eq!(split_code("GARE-7F3KOQ9M2XWBHC4T"), Some(("GARE".into(), FP.into())), "groups are optional");
        assert_eq!(split_code("GARE-7F3K 0Q9M 2XWB HC4T"), Some(("GARE".into(), FP.into())));
        assert_eq!(split_code("GARE"), None);
        assert_eq!(split_code("GARE-7F3K0Q"), None, "30 bits are not a fingerprint any more");
        assert_eq!(split_code("GARE-7F3K-0Q9M-2XWB-HC4U"), None, "U is not in the alphabet");
        let second = parse_code("gare-7f3k-0q9m-2xwb-hc4t-2").unwrap();
        assert_eq!((second.word.as_str(), second.fingerprint.as_str(), second.room), ("GARE", FP, 2));
        assert_eq!(parse_code("GARE-7F3K-0Q9M-2XWB-HC4T").unwrap().room, 0);
        assert_eq!(parse_code("GARE-7F3K-0Q9M-2XWB-HC4T-x"), None);
        assert_eq!(parse_word(" garage "), Some(("GARAGE".into(), 0)));
        assert_eq!(parse_word("garage-2"), Some(("GARAGE".into(), 2)));
        assert_eq!(parse_word("gare-7f3k-0q9m-2xwb-hc4t-2"), Some(("GARE".into(), 2)));
        assert_eq!(parse_word("GARAGE-x"), None);
        assert_eq!(parse_word("GAR4GE"), None);
        assert_eq!(parse_word(""), None);
        let digits = "12345678901234567890"[..FINGERPRINT_CHARS].to_string();
        let code = format_code("gare", &digits, 0);
        assert_eq!(parse_code(&code).map(|c| (c.fingerprint, c.room)), Some((digits.clone(), 0)));
        assert_eq!(parse_code(&format_code("gare", &digits, 3)).map(|c| c.room), Some(3));
    }

    #[test]
    fn a_fingerprint_carries_80_bits_and_reads_in_groups_of_four() {
        let fp = fingerprint_prefix(b"abc");
        assert_eq!(fp.len() * 5, 80);
        assert_ne!(fp, fingerprint_prefix(b"abd"));
        // SHA-256("abc") starts ba7816bf8f01cfea41: its first 80 bits in base32.
        assert_eq!(fp, "Q9W1DFWF077YMGA1");
        assert_eq!(format_code("garage", FP, 0), "GARAGE-7F3K-0Q9M-2XWB-HC4T");
        assert_eq!(format_code("garage", FP, 2), "GARAGE-7F3K-0Q9M-2XWB-HC4T-2");
    }
}
