//! The client side of Bolide: what a person (or a bot on another laptop) sees and does.
//! [`net`] is the headless core — connect, hello, certificate check, state mirror, actions —
//! shared by the bots and the UI; [`beat`] says when a client tells the host its clock;
//! [`text`] renders a view in a terminal; [`live`] links the window to a table and [`ui`] is
//! the window itself (egui on eframe).

pub mod beat;
pub mod bot;
pub mod live;
pub mod net;
pub mod text;
pub mod ui;
