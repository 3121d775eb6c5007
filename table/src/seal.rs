//! The seal on a table's luck, for every game: the host commits to its seed before the game
//! starts ([`Commitment`]), every seated laptop adds a part of its own ([`Luck`]), and the
//! host reveals the seed when the game is over ([`SeedReveal`]). [`Seal`] is what each
//! laptop keeps of it and how it opens the reveal; each game then checks its own draws
//! against the seed it opens.
//!
//! The commitment is SHA-256 over the seed and a 32-byte nonce from the OS's random source:
//! nothing a laptop sees before the end lets it compute a draw, and the host cannot change
//! the seed once the lobby has shown its commitment. The host cannot pick its seed after
//! seeing the parts (it is committed), a laptop cannot pick its part to suit a seed it does
//! not know; the parts the game started with go to every laptop at the start, each checks its
//! own is there, and the end's check derives the game's seed from the revealed seed and them.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use thiserror::Error;

/// SHA-256 of the seed and its nonce, shown in the lobby before the game starts.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Commitment(pub [u8; 32]);

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({self})")
    }
}

impl Commitment {
    /// The first 16 hex digits: enough for people to compare two screens aloud.
    pub fn short(&self) -> String {
        self.to_string()[..16].to_string()
    }
}

/// A laptop's part of the table's luck: 32 bytes from its OS's random source.
pub type Part = [u8; 32];

/// The parts the game started with, by seat: `None` for a seat the host plays (its bots are the
/// host's, its seed covers them) or a laptop that sent none in time (it counts as empty, and
/// every laptop sees that). A table with no part at all — bots only, or a journal from before
/// parts existed — plays the host's seed as it is.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Luck {
    pub parts: Vec<Option<Part>>,
}

impl Luck {
    /// The parts of the seats in order (at most [`crate::MAX_SEATS`]: no table seats
    /// more).
    pub fn from_parts(parts: impl IntoIterator<Item = Option<Part>>) -> Luck {
        Luck { parts: parts.into_iter().take(crate::MAX_SEATS).collect() }
    }

    /// The seed a game draws from: the host's committed seed mixed with every part.
    pub fn seed_with(&self, host: u64) -> u64 {
        if self.parts.iter().all(Option::is_none) {
            return host;
        }
        let mut hash = Sha256::new();
        hash.update(b"bolide luck v1\0");
        hash.update(host.to_le_bytes());
        for part in &self.parts {
            match part {
                Some(bytes) => {
                    hash.update([1]);
                    hash.update(bytes);
                }
                None => hash.update([0]),
            }
        }
        let digest: [u8; 32] = hash.finalize().into();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first)
    }

    /// Seats whose laptop's part is in.
    pub fn given(&self) -> usize {
        self.parts.iter().filter(|p| p.is_some()).count()
    }
}

/// What the host publishes once the game is over: the seed and the nonce it hid, and
/// the laptops' parts the game's seed was mixed from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedReveal {
    pub seed: u64,
    pub nonce: [u8; 32],
    pub luck: Luck,
}

impl SeedReveal {
    /// The seed the game drew from ([`Luck::seed_with`]).
    pub fn game_seed(&self) -> u64 {
        self.luck.seed_with(self.seed)
    }

    pub fn commitment(&self) -> Commitment {
        let mut hash = Sha256::new();
        hash.update(b"bolide dice v1\0");
        hash.update(self.seed.to_le_bytes());
        hash.update(self.nonce);
        Commitment(hash.finalize().into())
    }
}

/// Why a revealed seed is not believed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SealBroken {
    #[error(
        "the revealed seed is not the one committed at the start (committed {committed}, revealed {revealed}): the host changed its luck"
    )]
    Commitment { committed: Commitment, revealed: Commitment },
    #[error("the laptops' parts the host says the luck was mixed from are not those it showed at the start")]
    Parts,
}

/// What every game's watch keeps of the table's seal: the commitment the lobby showed first
/// and the parts the game started with as first shown (a host that changes either later is
/// not believed); once the seed is revealed, the game's seed — or why the reveal does not
/// open what was shown.
#[derive(Debug, Clone, Default)]
pub struct Seal {
    committed: Option<Commitment>,
    luck: Option<Luck>,
}

impl Seal {
    /// Reads a lobby's seal: its commitment, the parts once the game started, and the reveal
    /// once it is over — then the seed every draw of the game came from.
    pub fn lobby(
        &mut self,
        dice: Commitment,
        luck: Option<&Luck>,
        reveal: Option<&SeedReveal>,
    ) -> Option<Result<u64, SealBroken>> {
        let committed = *self.committed.get_or_insert(dice);
        if let (None, Some(luck)) = (&self.luck, luck) {
            self.luck = Some(luck.clone());
        }
        let reveal = reveal?;
        Some(if reveal.commitment() != committed {
            Err(SealBroken::Commitment { committed, revealed: reveal.commitment() })
        } else if self.luck.as_ref().is_some_and(|shown| *shown != reveal.luck) {
            Err(SealBroken::Parts)
        } else {
            Ok(reveal.game_seed())
        })
    }

    /// The commitment this laptop was shown first.
    pub fn commitment(&self) -> Option<Commitment> {
        self.committed
    }

    /// The parts the game started with, as this laptop was first shown them.
    pub fn luck(&self) -> Option<&Luck> {
        self.luck.as_ref()
    }
}

/// What a laptop keeps all night to check a game's luck, whatever the game: the seal (the
/// commitment it was shown first, the parts the seed was mixed from), what it saw drawn
/// (`seen`, the game's own record), and — once the lobby that ends the game reveals the seed —
/// the game's verdict on what was seen, given once: a later lobby changes nothing.
#[derive(Debug, Clone)]
pub struct SeedWatch<S, V, E> {
    seal: Seal,
    /// What this laptop saw drawn, as the game records it.
    pub seen: S,
    verdict: Option<Result<V, E>>,
}

/// A broken seal in words, for a game whose check says what failed in words.
impl From<SealBroken> for String {
    fn from(broken: SealBroken) -> String {
        broken.to_string()
    }
}

impl<S: Default, V, E> Default for SeedWatch<S, V, E> {
    fn default() -> Self {
        SeedWatch { seal: Seal::default(), seen: S::default(), verdict: None }
    }
}

impl<S, V, E: From<SealBroken>> SeedWatch<S, V, E> {
    /// Reads a lobby's seal. When it reveals the seed and what was seen can be judged
    /// (`judged`: the game knows enough of the table), `check` judges it against the seed; a
    /// broken seal is the verdict itself.
    pub fn lobby(
        &mut self,
        dice: Commitment,
        luck: Option<&Luck>,
        reveal: Option<&SeedReveal>,
        judged: bool,
        check: impl FnOnce(u64, &S) -> Result<V, E>,
    ) {
        let opened = self.seal.lobby(dice, luck, reveal);
        if let (Some(opened), None, true) = (opened, &self.verdict, judged) {
            self.verdict = Some(opened.map_err(E::from).and_then(|seed| check(seed, &self.seen)));
        }
    }

    /// The commitment this laptop was shown first.
    pub fn commitment(&self) -> Option<Commitment> {
        self.seal.commitment()
    }

    /// `None` until the host revealed its seed (the game is over).
    pub fn verdict(&self) -> Option<&Result<V, E>> {
        self.verdict.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reveal_opens_only_its_own_commitment() {
        let reveal = SeedReveal { seed: 7, nonce: [3; 32], luck: Luck::default() };
        assert_eq!(reveal.commitment(), reveal.commitment());
        assert_ne!(reveal.commitment(), SeedReveal { seed: 8, ..reveal.clone() }.commitment());
        assert_ne!(reveal.commitment(), SeedReveal { nonce: [4; 32], ..reveal.clone() }.commitment());
        assert_eq!(reveal.commitment().short().len(), 16);
    }
}
