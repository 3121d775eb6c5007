//! The network layer: QUIC (quinn + rustls/ring), the browser door (HTTP and a WebSocket,
//! [`web`]), the host's identity, mDNS. It moves bytes
//! and keeps time; the rules are in `crate::game`, the room logic in `crate::room`.

pub mod door;
pub mod identity;
pub mod mdns;
pub mod server;
pub mod tls;
pub mod web;

pub use bolide_link::pake;
pub use identity::{Identity, room_code, split_code};
pub use server::{Games, Journal, Server, TableNews};
