//! TLS for QUIC with rustls and the ring provider (aws-lc-rs doubles the build and panics
//! without an explicit provider). The client trusts no certificate authority: it checks that
//! the host's self-signed certificate matches the fingerprint in the room code it was given.

use crate::code::fingerprint_prefix;
use bolide_table::wire::ALPN;
use quinn::crypto::rustls::QuicClientConfig;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use std::sync::Arc;
use std::time::Duration;

/// The one crypto provider both sides use.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Bytes a connection may have in flight (`GameWindow`).
const GAME_WINDOW: u64 = 128 * 1024;

/// Stream bytes a peer may have unread on a connection: a few frames of `MAX_FRAME`.
pub const RECEIVE_WINDOW: u32 = 6 * bolide_table::wire::MAX_FRAME as u32;

/// Datagrams for timing probes; keep-alives so a quiet client is not dropped; a short idle
/// timeout so a vanished laptop is noticed within seconds and a bot takes its seat.
pub fn transport() -> quinn::TransportConfig {
    let mut t = quinn::TransportConfig::default();
    // A game's traffic is small and every packet of it is late if it waits: no slow start
    // (the Internet's careful 12 KB held the first round's updates on a 150 ms path — the
    // reveal, datagram copies included — back by 70 ms to a second) and no backing off after
    // a burst of Wi-Fi loss (`GameWindow`).
    t.congestion_controller_factory(Arc::new(GameWindow));
    t.keep_alive_interval(Some(Duration::from_secs(1)));
    t.max_idle_timeout(Some(Duration::from_secs(6).try_into().expect("small")));
    t.datagram_receive_buffer_size(Some(64 * 1024));
    // Sized to the protocol: one bidirectional stream (the client opens it), no other stream;
    // a stream's window holds a few frames of `MAX_FRAME`, the connection's a little more. A
    // peer that opens streams it never uses, or sends without reading, costs at most this.
    t.max_concurrent_uni_streams(0u32.into());
    t.max_concurrent_bidi_streams(0u32.into());
    let frame = bolide_table::wire::MAX_FRAME as u32;
    t.stream_receive_window((4 * frame).into());
    t.receive_window(RECEIVE_WINDOW.into());
    t.send_window(u64::from(16 * frame));
    t
}

/// The congestion "controller" of a game's connection: a fixed window. A table sends little —
/// a beat every 10 ms, a request and its copies now and then, an update per action — and what
/// it sends is late if it waits: an Internet controller (Cubic) reads each burst of Wi-Fi loss
/// as congestion and sat at its 2.9 KB floor for most timed requests of a lab run with loss in
/// runs, where a far laptop's beats alone keep more than that in flight, so its beats, copies
/// and requests queued behind acknowledgements a burst had eaten. A connection never has more
/// in flight than the game sent within a round trip, far below this window; the window still
/// bounds what one connection may have outstanding.
#[derive(Debug, Clone, Copy)]
pub struct GameWindow;

impl quinn::congestion::ControllerFactory for GameWindow {
    fn build(self: Arc<Self>, _now: std::time::Instant, _mtu: u16) -> Box<dyn quinn::congestion::Controller> {
        Box::new(GameWindow)
    }
}

impl quinn::congestion::Controller for GameWindow {
    fn on_congestion_event(
        &mut self,
        _now: std::time::Instant,
        _sent: std::time::Instant,
        _persistent: bool,
        _lost: u64,
    ) {
    }

    fn on_mtu_update(&mut self, _mtu: u16) {}

    fn window(&self) -> u64 {
        GAME_WINDOW
    }

    fn clone_box(&self) -> Box<dyn quinn::congestion::Controller> {
        Box::new(*self)
    }

    fn initial_window(&self) -> u64 {
        GAME_WINDOW
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

/// A client config that accepts exactly the host whose certificate fingerprint starts with
/// `fingerprint` (the part of the room code after the dash).
pub fn client_config(fingerprint: &str) -> anyhow::Result<quinn::ClientConfig> {
    let provider = provider();
    let verifier = FingerprintVerifier {
        expected: fingerprint.to_string(),
        algorithms: provider.signature_verification_algorithms,
    };
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let mut config = quinn::ClientConfig::new(Arc::new(QuicClientConfig::try_from(tls)?));
    config.transport_config(Arc::new(transport()));
    Ok(config)
}

#[derive(Debug)]
struct FingerprintVerifier {
    expected: String,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for FingerprintVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let found = fingerprint_prefix(end_entity);
        if found == self.expected {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(format!(
                "this host's certificate fingerprint starts {found}, not {} as the room code says: \
                 it is not the host you were told about (check the code on the host's screen)",
                self.expected
            )))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quinn::congestion::ControllerFactory;

    #[test]
    fn fairness_5_a_burst_of_loss_never_holds_the_games_packets_back() {
        let now = std::time::Instant::now();
        let mut window = Arc::new(GameWindow).build(now, 1_200);
        assert_eq!(window.window(), GAME_WINDOW);
        // A burst of Wi-Fi loss: every packet of a stretch lost, persistent congestion.
        for _ in 0..100 {
            window.on_congestion_event(now, now, true, 10_000);
        }
        // A far laptop's beats alone keep about 4 KB in flight (100 a second on a 300 ms round
        // trip): Cubic's floor after such a burst (two packets, 2.9 KB) held them back.
        assert_eq!(window.window(), GAME_WINDOW);
        assert!(window.window() >= 16 * 1_452, "room for every beat, copy and update of a round trip");
    }
}
