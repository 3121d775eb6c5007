//! What a player reads: [`lang`], every string in French and English, [`text`], a race
//! narrated line by line (the window's log, `bolide --text`, `bolide-host replay`), and
//! [`mille_bornes`], a game of 1000 Bornes narrated (the window's log, `bolide-host replay`).

pub mod entenrallye;
pub mod lang;
pub mod mille_bornes;
pub mod text;
