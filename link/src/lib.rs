//! The QUIC link both sides of the wire speak: TLS with rustls on ring, a transport sized to the
//! protocol ([`tls`]), the room code that names a host and its room ([`code`]), and the
//! exchange over the code word that authenticates both sides ([`pake`]). The client needs this,
//! not the host, to join a table.

pub mod code;
pub mod pake;
pub mod tls;
