//! The client of every game at the table: what a person (or a bot on another laptop) sees and
//! does. It never names the host: a window that hosts is handed an [`embed::Embed`] by the
//! native shell (`bolide-app`).
//! [`state`] is the client core, sans-I/O — what the client knows, its actions, its reveal and
//! its heartbeats — and [`net`] drives it over QUIC (connect, hello, certificate check) for
//! every face: the bots, the lab and the window; [`beat`] says when a client tells the host its
//! clock;
//! [`text`] renders a view in a terminal; [`live`] links the window to a table and [`ui`] is
//! the window itself (egui on eframe).

pub mod beat;
/// Every string a player reads, and a race narrated: the `bolide-words` crate, shared with the
/// host's `replay`.
pub use bolide_words::{lang, text};
pub mod bot;
pub mod embed;
pub mod fuzzing;
pub mod game;
pub mod games;
pub mod live;
pub mod net;
pub mod platform;
pub mod replay;
pub mod shelf;
pub mod state;
pub mod stats;
pub mod ui;

#[cfg(test)]
mod tests {
    use bolide::Seat;
    use bolide::sim;

    #[test]
    fn board_draws_the_strip_and_every_car() {
        let race = sim::random_race(3, 4);
        let names: Vec<String> = ["Anne", "Bob", "Chloé"].map(String::from).to_vec();
        let text = crate::text::board(&race.view_for(Seat(0)), &names, &crate::lang::EN);
        let strip = text.lines().next().unwrap();
        assert_eq!(strip.chars().filter(|c| "6789X".contains(*c)).count(), 16, "{text}");
        assert_eq!(text.lines().filter(|l| l.contains('>')).count(), 3);
        assert_eq!(text.lines().nth(1).unwrap().matches('*').count(), 6);
    }
}
