//! The browser's link to a host: one WebSocket carries what QUIC carries in a stream and in
//! datagrams. Each WebSocket message is one [`Kind`] byte and its body. The host speaks first
//! with a fresh challenge (the link's binding, as TLS's exported keys are QUIC's); the
//! laptop's Knock and the host's answer go in clear (they reveal nothing of the word); from
//! the host's answer on, every message both ways is sealed ([`crate::sealed`]) under the
//! exchange's keys.

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

/// A message of `kind` carrying `body`.
pub fn pack(kind: Kind, body: &[u8]) -> Vec<u8> {
    let mut message = Vec::with_capacity(body.len() + 1);
    message.push(kind as u8);
    message.extend_from_slice(body);
    message
}

/// A message's kind and body; `None` for an unknown kind or an empty message.
pub fn unpack(message: &[u8]) -> Option<(Kind, &[u8])> {
    let (&kind, body) = message.split_first()?;
    let kind = match kind {
        0 => Kind::Frame,
        1 => Kind::Datagram,
        2 => Kind::Close,
        _ => return None,
    };
    Some((kind, body))
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
    fn a_message_reads_back_as_it_was_packed_and_nonsense_reads_as_none() {
        let m = pack(Kind::Datagram, b"beat");
        assert_eq!(unpack(&m), Some((Kind::Datagram, &b"beat"[..])));
        assert_eq!(unpack(&[]), None);
        assert_eq!(unpack(&[7, 1, 2]), None);
        let close = close_body(9, "mille-bornes");
        assert_eq!(read_close(&close), Some((9, "mille-bornes".into())));
        assert_eq!(read_close(&[1, 2]), None);
    }
}
