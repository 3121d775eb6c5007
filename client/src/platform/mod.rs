//! What only the laptop the window runs on gives — none of it drawn, none of it a browser's:
//! the X server's instants of a frame and a press ([`display_time`]), the tables advertised on
//! the network ([`discovery`], mDNS) and the settings file ([`prefs`]); in a page, the display's
//! refresh grid its coarse clock hides ([`refresh_grid`]). The window and the
//! client core read them through these modules alone.

#[cfg(target_arch = "wasm32")]
pub mod console;
pub mod discovery;
pub(crate) mod display_time;
pub mod files;
pub mod prefs;
pub mod query;
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) mod refresh_grid;
pub mod rt;
