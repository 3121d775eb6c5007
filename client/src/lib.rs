//! The client side of Bolide: what a person (or a bot on another laptop) sees and does.
//! [`state`] is the client core, sans-I/O — what the client knows, its actions, its reveal and
//! its heartbeats — and [`net`] drives it over QUIC (connect, hello, certificate check) for
//! every face: the bots, the lab and the window; [`beat`] says when a client tells the host its
//! clock;
//! [`text`] renders a view in a terminal; [`live`] links the window to a table and [`ui`] is
//! the window itself (egui on eframe).

pub mod beat;
pub mod bot;
pub mod fuzzing;
pub mod lang;
pub mod live;
pub mod net;
pub mod practice_mb;
pub mod state;
pub mod stats;
pub mod text;
pub mod ui;
