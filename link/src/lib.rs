//! The QUIC link both sides of the wire speak: TLS with rustls on ring, a transport sized to the
//! protocol ([`tls`]), and the room code that names a host and proves its certificate
//! ([`code`]). The client needs this, not the host, to join a table.

pub mod code;
pub mod tls;
