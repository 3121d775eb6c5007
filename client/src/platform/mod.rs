//! What differs between the laptop the window runs on and a browser's page, none of it drawn:
//! the display's instants of a frame and a press ([`display_time`]: the X server's, or the
//! DOM's, with the refresh grid a page's coarse clock hides, [`refresh_grid`], and how late
//! the browser hands the page its presses, [`delivery_lag`]), the tables
//! advertised on the network ([`discovery`], mDNS), the settings file ([`prefs`]), tasks and
//! time ([`rt`]). The window and the client core read them through these modules alone.

#[cfg(target_arch = "wasm32")]
pub mod console;
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) mod delivery_lag;
pub mod discovery;
pub(crate) mod display_time;
pub mod files;
pub mod prefs;
pub mod query;
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) mod refresh_grid;
pub mod rt;
