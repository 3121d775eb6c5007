//! The browser's link to a host: one WebSocket carries what QUIC carries in a stream and in
//! datagrams. Each WebSocket message is one [`Kind`] byte and its body. The host speaks first
//! with a fresh challenge (the link's binding, as TLS's exported keys are QUIC's); the
//! laptop's Knock and the host's answer go in clear (they reveal nothing of the word); from
//! the host's answer on, every message both ways is sealed ([`crate::sealed`]) under the
//! exchange's keys.

use crate::sealed::{Opener, SealError, Sealer};

/// The path a browser opens its WebSocket on; every other path is a file of the page.
pub const PATH: &str = "/link";
/// Bytes of the host's challenge, its first message.
pub const CHALLENGE_LEN: usize = 32;
/// The largest WebSocket message either side takes: a frame at the game's limit, sealed.
pub const MAX_MESSAGE: usize = bolide_table::wire::MAX_FRAME + 4 + 1 + crate::sealed::OVERHEAD;

/// The address a guest opens: the host's browser door, the room's word in the fragment (a
/// browser never sends a fragment in a request), e.g. `http://192.168.1.20:47118/#GARAGE`.
pub fn page_url(door: std::net::SocketAddr, code: &str) -> Option<String> {
    let (word, room) = crate::code::parse_word(code)?;
    Some(match room {
        0 => format!("http://{door}/#{word}"),
        n => format!("http://{door}/#{word}-{n}"),
    })
}

/// What a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Bytes of the game stream (whole frames, each with its length).
    Frame = 0,
    /// A datagram: a beat, a probe, a timed request's copy. A WebSocket delivers it in order
    /// and never drops it: what a lost one would cost QUIC, a late one costs here.
    Datagram = 1,
    /// The connection ends: a close code (4 bytes, little-endian) and its reason (UTF-8).
    Close = 2,
}

/// Why a message off the link did not read; either way the link ends.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unread {
    /// Not sealed with this exchange's keys, or not next in line: someone on the network
    /// altered it, or the other side does not know the word.
    #[error(transparent)]
    Sealed(#[from] SealError),
    #[error("a message of no known kind on the link")]
    Unknown,
}

/// The message of `kind` carrying `body` as it goes on the link: sealed by `sealer` once the
/// exchange has keyed the link, in clear before (the challenge, the Knock, the host's answer).
pub fn outgoing(sealer: Option<&mut Sealer>, kind: Kind, body: &[u8]) -> Result<Vec<u8>, SealError> {
    let packed = pack(kind, body);
    match sealer {
        Some(sealer) => sealer.seal(&packed),
        None => Ok(packed),
    }
}

/// A message off the link, opened by `opener` once the exchange has keyed the link: its kind
/// and body.
pub fn incoming(opener: Option<&mut Opener>, bytes: &[u8]) -> Result<(Kind, Vec<u8>), Unread> {
    let mut plain = match opener {
        Some(opener) => opener.open(bytes)?,
        None => bytes.to_vec(),
    };
    let kind = match plain.first() {
        Some(0) => Kind::Frame,
        Some(1) => Kind::Datagram,
        Some(2) => Kind::Close,
        _ => return Err(Unread::Unknown),
    };
    plain.remove(0);
    Ok((kind, plain))
}

/// A message of `kind` carrying `body`.
fn pack(kind: Kind, body: &[u8]) -> Vec<u8> {
    let mut message = Vec::with_capacity(body.len() + 1);
    message.push(kind as u8);
    message.extend_from_slice(body);
    message
}

/// A [`Kind::Close`] body.
pub fn close_body(code: u32, reason: &str) -> Vec<u8> {
    [&code.to_le_bytes()[..], reason.as_bytes()].concat()
}

/// A [`Kind::Close`] body read back: its code and reason (lossy UTF-8: a reason is shown).
pub fn read_close(body: &[u8]) -> Option<(u32, String)> {
    let code = u32::from_le_bytes(body.get(..4)?.try_into().ok()?);
    Some((code, String::from_utf8_lossy(body.get(4..)?).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_address_carries_the_word_in_its_fragment_never_the_fingerprint() {
        let door: std::net::SocketAddr = "192.168.1.20:47118".parse().unwrap();
        let url = page_url(door, "garage-7f3k-0q9m-2xwb-hc4t").unwrap();
        assert_eq!(url, "http://192.168.1.20:47118/#GARAGE");
        assert_eq!(page_url(door, "GARAGE-7F3K-0Q9M-2XWB-HC4T-2").unwrap(), "http://192.168.1.20:47118/#GARAGE-2");
        assert_eq!(page_url(door, "not a code"), None);
    }

    #[test]
    fn a_message_reads_back_as_it_went_in_clear_or_sealed_and_nonsense_does_not_read() {
        let m = outgoing(None, Kind::Datagram, b"beat").unwrap();
        assert_eq!(incoming(None, &m), Ok((Kind::Datagram, b"beat".to_vec())));
        assert_eq!(incoming(None, &[]), Err(Unread::Unknown));
        assert_eq!(incoming(None, &[7, 1, 2]), Err(Unread::Unknown));
        let (mut host, mut laptop) = crate::sealed::tests::pair("GARAGE");
        let sealed = outgoing(Some(&mut laptop.seal), Kind::Frame, b"knock").unwrap();
        assert_ne!(sealed, m);
        assert!(!matches!(incoming(None, &sealed), Ok((_, body)) if body == b"knock"), "sealed, it reads as nonsense");
        assert_eq!(incoming(Some(&mut host.open), &sealed), Ok((Kind::Frame, b"knock".to_vec())));
        assert_eq!(incoming(Some(&mut host.open), &sealed), Err(Unread::Sealed(SealError::Forged)), "replayed");
        let close = close_body(9, "mille-bornes");
        assert_eq!(read_close(&close), Some((9, "mille-bornes".into())));
        assert_eq!(read_close(&[1, 2]), None);
    }
}
