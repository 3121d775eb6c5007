//! The host's side of TLS for QUIC (the shared part, and the client's, is `bolide_link::tls`):
//! its certificate, and a transport that asks clients for fewer acknowledgements.

use super::identity::Identity;
use bolide_link::tls::{provider, transport};
use bolide_table::wire::ALPN;
use quinn::crypto::rustls::QuicServerConfig;
use std::sync::Arc;
use std::time::Duration;

pub use bolide_link::tls::client_config;

/// The host's side also asks each client to acknowledge every tenth packet (or within 25 ms)
/// instead of every other one: with thousands of connections, fewer packets reach the host's
/// single receive path (`bolide-load` runs were too noisy to put a figure on it). Only
/// host → client data is acknowledged later (a lost update is resent up to 25 ms later;
/// reveals travel as datagram copies anyway); the host acknowledges the clients' grab requests
/// as before, so the fairness allowance for a retransmitted grab is unchanged.
fn host_transport() -> Arc<quinn::TransportConfig> {
    let mut t = transport();
    // The client's one game stream.
    t.max_concurrent_bidi_streams(1u32.into());
    // Until a laptop has proved the word it may send only what the door reads (a Knock and a
    // Proof): a stranger's connection holds a few KB, not the game's window. The server
    // opens the window once the word is proved (`server::GAME_RECEIVE_WINDOW`).
    t.receive_window(DOOR_RECEIVE_WINDOW.into());
    let mut acks = quinn::AckFrequencyConfig::default();
    acks.ack_eliciting_threshold(9u32.into()).max_ack_delay(Some(Duration::from_millis(25)));
    t.ack_frequency_config(Some(acks));
    Arc::new(t)
}

/// Stream bytes a connection may send the host before it has proved the word.
pub const DOOR_RECEIVE_WINDOW: u32 = 4 * bolide_table::wire::DOOR_FRAME as u32;

pub fn server_config(identity: &Identity) -> anyhow::Result<quinn::ServerConfig> {
    let mut tls = rustls::ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_no_client_auth()
        .with_single_cert(vec![identity.cert.clone()], identity.key.clone_key())?;
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(QuicServerConfig::try_from(tls)?));
    config.transport_config(host_transport());
    Ok(config)
}
