//! Seat colours: what a player picks in the lobby and is drawn in, at any table.

use serde::{Deserialize, Serialize};

/// The colours a seat may pick in the lobby: the six of Bolide's box, for every game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    Rouge,
    Bleu,
    Vert,
    Jaune,
    Noir,
    Blanc,
}

impl Colour {
    pub const ALL: [Colour; 6] =
        [Colour::Rouge, Colour::Bleu, Colour::Vert, Colour::Jaune, Colour::Noir, Colour::Blanc];
}
