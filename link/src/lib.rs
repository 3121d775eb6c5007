//! The QUIC link both sides of the wire speak: TLS with rustls on ring, a transport sized to the
//! protocol ([`tls`]), the room code that names a host and its room ([`code`]), and the
//! exchange over the code word that authenticates both sides ([`pake`]) and seals a link
//! that has no TLS of its own ([`sealed`], a browser's), the secrets drawn from
//! the OS's random source ([`secret`]) and the laptop's private files ([`files`]). The client
//! needs this, not the host, to join a table.

pub mod code;
#[cfg(not(target_arch = "wasm32"))]
pub mod files;
pub mod pake;
pub mod sealed;
pub mod secret;
#[cfg(not(target_arch = "wasm32"))]
pub mod tls;
pub mod web;
