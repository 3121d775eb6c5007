//! The room code authenticates both sides (SPAKE2, as Magic Wormhole does for its short
//! codes). The laptop and the host each prove they know the code word without sending it:
//! each side's SPAKE2 message reveals nothing of the word, and a side without it gets one guess
//! per connection — checked online, so the host's wrong-code limit bounds it. The key is
//! confirmed with an HMAC over the TLS session's exported keying material, so the proof is
//! bound to this very QUIC connection: a man in the middle with its own certificate holds two
//! TLS sessions with different exported keys, and relaying the SPAKE2 messages between them
//! fails both proofs. The host proves first; the laptop checks before it proves in turn (and
//! before it sends its seat token).

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use spake2::{Ed25519Group, Identity, Password, Spake2};

/// The TLS exporter label both sides derive their binding from.
pub const EXPORTER_LABEL: &[u8] = b"EXPORTER-bolide-room-code";
/// Bytes of exported keying material bound into each proof.
pub const BINDING_LEN: usize = 32;
/// A SPAKE2 message on Ed25519: a side byte and a point.
pub const MESSAGE_LEN: usize = 33;

const ID_LAPTOP: &[u8] = b"bolide laptop";
const ID_HOST: &[u8] = b"bolide host";

/// Why the exchange failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PakeError {
    #[error("the other side's room-code message is malformed")]
    Malformed,
    #[error("the other side does not know this room's code word")]
    WrongWord,
}

/// The code word as both sides feed it: trimmed, upper case (a code is read aloud and typed).
fn password(word: &str) -> Password {
    Password::new(word.trim().to_ascii_uppercase())
}

/// A laptop's side, between its message and the host's answer.
pub struct Laptop(Spake2<Ed25519Group>);

/// The key both sides agree on, once the exchange is done.
pub struct Confirmed {
    key: Vec<u8>,
}

type HmacSha256 = Hmac<Sha256>;

/// HMAC-SHA256 of the parts under `key` (any length is a valid key).
fn mac(key: &[u8], parts: &[&[u8]]) -> HmacSha256 {
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC takes any key"));
    for part in parts {
        mac.update(part);
    }
    mac
}

impl Laptop {
    /// Starts the exchange with the word the pilot typed: the message to send the host.
    pub fn start(word: &str) -> (Laptop, Vec<u8>) {
        let (state, msg) =
            Spake2::<Ed25519Group>::start_a(&password(word), &Identity::new(ID_LAPTOP), &Identity::new(ID_HOST));
        (Laptop(state), msg)
    }

    /// The host's message and proof: the keys if the host knows the word (on this connection,
    /// `binding` being its exported keying material).
    pub fn finish(self, host_msg: &[u8], host_proof: &[u8], binding: &[u8]) -> Result<Confirmed, PakeError> {
        let key = self.0.finish(host_msg).map_err(|_| PakeError::Malformed)?;
        let confirmed = Confirmed::new(&key);
        confirmed.check(Side::Host, binding, host_proof)?;
        Ok(confirmed)
    }

    /// The key without the host's proof checked (tests of what a wrong key cannot do).
    #[cfg(test)]
    pub(crate) fn finish_unchecked(self, host_msg: &[u8]) -> Result<Confirmed, PakeError> {
        Ok(Confirmed::new(&self.0.finish(host_msg).map_err(|_| PakeError::Malformed)?))
    }
}

/// The host's side: answers a laptop's message with its own and its proof.
pub fn host_answer(word: &str, laptop_msg: &[u8], binding: &[u8]) -> Result<(Confirmed, Vec<u8>, Vec<u8>), PakeError> {
    if laptop_msg.len() != MESSAGE_LEN {
        return Err(PakeError::Malformed);
    }
    let (state, msg) =
        Spake2::<Ed25519Group>::start_b(&password(word), &Identity::new(ID_LAPTOP), &Identity::new(ID_HOST));
    let key = state.finish(laptop_msg).map_err(|_| PakeError::Malformed)?;
    let confirmed = Confirmed::new(&key);
    let proof = confirmed.proof(Side::Host, binding);
    Ok((confirmed, msg, proof))
}

/// A seated laptop's pass through a locked door, sent in its Knock: an HMAC keyed by its seat
/// token over this connection's binding. The host, which knows every seat's token, recognises
/// it ([`pass_opens`]) before any exchange; a host that does not know the token learns nothing
/// of it from the pass, and a pass is worth nothing on another connection (a relay holds
/// another binding).
pub fn seat_pass(token: u128, binding: &[u8]) -> Vec<u8> {
    mac(&token.to_le_bytes(), &[PASS_TAG, binding]).finalize().into_bytes().to_vec()
}

/// Whether `pass` is [`seat_pass`] of `token` on the connection `binding` names (constant
/// time).
pub fn pass_opens(token: u128, binding: &[u8], pass: &[u8]) -> bool {
    mac(&token.to_le_bytes(), &[PASS_TAG, binding]).verify_slice(pass).is_ok()
}

/// Bytes of a seat pass (HMAC-SHA256).
pub const PASS_LEN: usize = 32;
const PASS_TAG: &[u8] = b"seat pass";

/// Who proves: each side's proof differs, so neither can be reflected back.
#[derive(Debug, Clone, Copy)]
pub enum Side {
    Host,
    Laptop,
}

impl Confirmed {
    fn new(key: &[u8]) -> Confirmed {
        Confirmed { key: key.to_vec() }
    }

    fn tag(side: Side) -> &'static [u8] {
        match side {
            Side::Host => b"host proves",
            Side::Laptop => b"laptop proves",
        }
    }

    /// `side`'s proof of the key on the connection `binding` names.
    pub fn proof(&self, side: Side, binding: &[u8]) -> Vec<u8> {
        mac(&self.key, &[Self::tag(side), binding]).finalize().into_bytes().to_vec()
    }

    /// Checks `side`'s proof, in constant time.
    pub fn check(&self, side: Side, binding: &[u8], proof: &[u8]) -> Result<(), PakeError> {
        mac(&self.key, &[Self::tag(side), binding]).verify_slice(proof).map_err(|_| PakeError::WrongWord)
    }

    /// The exchange's key itself, for what is derived from it ([`crate::sealed`]).
    pub(crate) fn key(&self) -> &[u8] {
        &self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TLS: &[u8] = &[7; BINDING_LEN];

    #[test]
    fn the_same_word_on_both_sides_confirms_both_ways() {
        let (laptop, msg) = Laptop::start(" garage ");
        let (host, host_msg, host_proof) = host_answer("GARAGE", &msg, TLS).unwrap();
        let confirmed = laptop.finish(&host_msg, &host_proof, TLS).unwrap();
        host.check(Side::Laptop, TLS, &confirmed.proof(Side::Laptop, TLS)).unwrap();
    }

    #[test]
    fn a_wrong_word_fails_on_both_sides_and_the_messages_do_not_carry_it() {
        let (laptop, msg) = Laptop::start("PISTE");
        assert!(!msg.windows(5).any(|w| w.eq_ignore_ascii_case(b"piste")));
        let (host, host_msg, host_proof) = host_answer("GARAGE", &msg, TLS).unwrap();
        assert_eq!(laptop.finish(&host_msg, &host_proof, TLS).err(), Some(PakeError::WrongWord));
        // A laptop that guessed cannot make a proof the host takes either.
        let (liar, msg) = Laptop::start("PISTE");
        let (_, liar_host_msg, _) = host_answer("GARAGE", &msg, TLS).unwrap();
        let forged = Confirmed::new(&[0; 32]).proof(Side::Laptop, TLS);
        assert!(host.check(Side::Laptop, TLS, &forged).is_err());
        assert!(liar.finish(&liar_host_msg, &[0; 32], TLS).is_err());
    }

    #[test]
    fn a_man_in_the_middle_relaying_the_exchange_fails_both_proofs() {
        // Two TLS sessions: laptop ↔ relay, relay ↔ host. The relay passes the SPAKE2 messages
        // and proofs on unchanged; each side binds its proof to its own session.
        let (to_laptop, to_host) = ([1; BINDING_LEN], [2; BINDING_LEN]);
        let (laptop, msg) = Laptop::start("GARAGE");
        let (_, host_msg, host_proof) = host_answer("GARAGE", &msg, &to_host).unwrap();
        assert_eq!(laptop.finish(&host_msg, &host_proof, &to_laptop).err(), Some(PakeError::WrongWord));
    }

    #[test]
    fn a_seat_pass_opens_only_for_its_token_on_its_connection() {
        let pass = seat_pass(0x5eed, TLS);
        assert_eq!(pass.len(), PASS_LEN);
        assert!(pass_opens(0x5eed, TLS, &pass));
        assert!(!pass_opens(0x5eee, TLS, &pass));
        assert!(!pass_opens(0x5eed, &[8; BINDING_LEN], &pass), "a relayed pass opened another connection");
        assert!(!pass_opens(0x5eed, TLS, &pass[..31]));
    }

    #[test]
    fn a_malformed_message_is_an_error_not_a_panic() {
        assert_eq!(host_answer("GARAGE", &[], TLS).err(), Some(PakeError::Malformed));
        assert_eq!(host_answer("GARAGE", &[0xff; MESSAGE_LEN], TLS).err(), Some(PakeError::Malformed));
        let (laptop, _) = Laptop::start("GARAGE");
        assert!(laptop.finish(&[1; 5], &[], TLS).is_err());
    }
}
