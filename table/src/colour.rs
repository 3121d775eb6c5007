//! Seat colours: what a player picks in the lobby and is drawn in, at any table.

use serde::{Deserialize, Serialize};

/// The colours a seat may pick in the lobby, for every game: the six of Bolide's box, then two
/// more, so that a table of eight (1000 Bornes) repeats none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    Rouge,
    Bleu,
    Vert,
    Jaune,
    Noir,
    Blanc,
    Orange,
    Violet,
}

impl Colour {
    pub const ALL: [Colour; crate::MAX_SEATS] = [
        Colour::Rouge,
        Colour::Bleu,
        Colour::Vert,
        Colour::Jaune,
        Colour::Noir,
        Colour::Blanc,
        Colour::Orange,
        Colour::Violet,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_table_of_any_game_repeats_no_colour() {
        let distinct: std::collections::BTreeSet<String> = Colour::ALL.iter().map(|c| format!("{c:?}")).collect();
        assert_eq!(distinct.len(), crate::MAX_SEATS);
    }
}
