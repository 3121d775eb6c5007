//! The sealed channel of a link that has no TLS of its own — a browser's WebSocket to a page
//! served over plain HTTP. Once the exchange over the code word ([`crate::pake`]) is done,
//! every message is sealed with ChaCha20-Poly1305 under keys both sides derive from the
//! exchange's key (HKDF-SHA256, salted with the link's binding: the host's fresh challenge),
//! one key a direction, the nonce a count of the messages sent that way — as Magic Wormhole
//! does after its PAKE. A laptop on the Wi-Fi that does not know the word reads nothing and
//! changes nothing: a message altered, dropped, replayed or reordered fails to open, and the
//! link ends. (The link is ordered and reliable, so the receiver's count is the sender's.)

use crate::pake::{Confirmed, Side};
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use hkdf::Hkdf;
use sha2::Sha256;

/// Bytes a sealed message carries beyond its plain text (Poly1305's tag).
pub const OVERHEAD: usize = 16;

/// Why a sealed message did not open.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("a message on the link was altered, replayed or forged (the link is closed)")]
    Forged,
    #[error("the link has carried all the messages its key may seal")]
    Exhausted,
}

/// Both directions of one side's channel.
pub struct Channel {
    pub seal: Sealer,
    pub open: Opener,
}

/// Seals what this side sends.
pub struct Sealer {
    cipher: ChaCha20Poly1305,
    sent: u64,
}

/// Opens what the other side sent.
pub struct Opener {
    cipher: ChaCha20Poly1305,
    received: u64,
}

const HOST_TO_LAPTOP: &[u8] = b"bolide sealed host to laptop";
const LAPTOP_TO_HOST: &[u8] = b"bolide sealed laptop to host";

fn cipher(kdf: &Hkdf<Sha256>, info: &[u8]) -> ChaCha20Poly1305 {
    let mut key = [0u8; 32];
    // 32 bytes is far below HKDF-SHA256's 8 160-byte limit.
    kdf.expand(info, &mut key).unwrap_or_else(|_| unreachable!("32 bytes is a valid HKDF length"));
    ChaCha20Poly1305::new(&Key::from(key))
}

/// The nonce of the `n`th message one way: its count, big-endian, in the last eight bytes.
fn nonce(n: u64) -> Nonce {
    let mut bytes = [0u8; 12];
    bytes[4..].copy_from_slice(&n.to_be_bytes());
    Nonce::from(bytes)
}

impl Channel {
    /// `side`'s channel from the exchange `confirmed` on the link `binding` names.
    pub fn new(confirmed: &Confirmed, side: Side, binding: &[u8]) -> Channel {
        let kdf = Hkdf::<Sha256>::new(Some(binding), confirmed.key());
        let (to_laptop, to_host) = (cipher(&kdf, HOST_TO_LAPTOP), cipher(&kdf, LAPTOP_TO_HOST));
        let (mine, theirs) = match side {
            Side::Host => (to_laptop, to_host),
            Side::Laptop => (to_host, to_laptop),
        };
        Channel { seal: Sealer { cipher: mine, sent: 0 }, open: Opener { cipher: theirs, received: 0 } }
    }
}

impl Sealer {
    /// `plain`, sealed as the next message this way.
    pub fn seal(&mut self, plain: &[u8]) -> Result<Vec<u8>, SealError> {
        let n = self.sent;
        self.sent = n.checked_add(1).ok_or(SealError::Exhausted)?;
        self.cipher.encrypt(&nonce(n), plain).map_err(|_| SealError::Exhausted)
    }
}

impl Opener {
    /// The next message the other side sent, opened; an error ends the link (nothing after a
    /// forged message can be trusted).
    pub fn open(&mut self, sealed: &[u8]) -> Result<Vec<u8>, SealError> {
        let n = self.received;
        let plain = self.cipher.decrypt(&nonce(n), sealed).map_err(|_| SealError::Forged)?;
        self.received = n.checked_add(1).ok_or(SealError::Exhausted)?;
        Ok(plain)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::pake::{self, Laptop, Side};

    const CHALLENGE: &[u8] = &[9; 32];

    /// The host's and the laptop's channels after an exchange in which the laptop said
    /// `word_laptop` (the host's word: GARAGE).
    pub(crate) fn pair(word_laptop: &str) -> (super::Channel, super::Channel) {
        let (laptop, msg) = Laptop::start(word_laptop);
        let (host, host_msg, _) = pake::host_answer("GARAGE", &msg, CHALLENGE).unwrap();
        // The laptop's side finishes even where its check of the host's proof would fail.
        let laptop = laptop.finish_unchecked(&host_msg).unwrap();
        (super::Channel::new(&host, Side::Host, CHALLENGE), super::Channel::new(&laptop, Side::Laptop, CHALLENGE))
    }

    #[test]
    fn what_one_side_seals_the_other_opens_in_order_both_ways() {
        let (mut host, mut laptop) = pair("garage");
        for i in 0..3u8 {
            let sealed = laptop.seal.seal(&[i; 40]).unwrap();
            assert_eq!(sealed.len(), 40 + super::OVERHEAD);
            assert!(!sealed.windows(40).any(|w| w == [i; 40]), "the plain text shows");
            assert_eq!(host.open.open(&sealed).unwrap(), vec![i; 40]);
            let back = host.seal.seal(b"verdict").unwrap();
            assert_eq!(laptop.open.open(&back).unwrap(), b"verdict");
        }
    }

    #[test]
    fn an_altered_replayed_reflected_or_reordered_message_does_not_open() {
        let (mut host, mut laptop) = pair("GARAGE");
        let first = laptop.seal.seal(b"first").unwrap();
        let second = laptop.seal.seal(b"second").unwrap();
        let mut altered = first.clone();
        altered[0] ^= 1;
        assert_eq!(host.open.open(&altered), Err(super::SealError::Forged));
        assert_eq!(host.open.open(&second), Err(super::SealError::Forged), "out of order");
        // The laptop's own message sent back to it is not the host's.
        assert_eq!(laptop.open.open(&first), Err(super::SealError::Forged), "reflected");
        assert_eq!(host.open.open(&first).unwrap(), b"first");
        assert_eq!(host.open.open(&first), Err(super::SealError::Forged), "replayed");
        assert_eq!(host.open.open(&[]), Err(super::SealError::Forged));
    }

    #[test]
    fn a_laptop_with_the_wrong_word_reads_nothing_the_host_seals() {
        let (mut host, mut laptop) = pair("PISTE");
        let sealed = host.seal.seal(b"your hand").unwrap();
        assert_eq!(laptop.open.open(&sealed), Err(super::SealError::Forged));
    }
}
