//! What a player reads: [`lang`], every string in French and English, and [`text`], a race
//! narrated line by line (the window's log, `bolide --text`, `bolide-host replay`).

pub mod lang;
pub mod text;
