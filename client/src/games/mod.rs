//! Each game's half of the client core ([`crate::game::ClientGame`]), a module per game.

pub mod bolide;
pub mod entenrallye;
pub mod mille_bornes;
