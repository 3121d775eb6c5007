//! The host's identity: a self-signed certificate made with rcgen on first start and kept in
//! the data dir, so the host keeps its fingerprint — and so its room code — across restarts.

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::path::Path;

pub use bolide_link::code::{FINGERPRINT_CHARS, fingerprint_prefix, split_code};

pub struct Identity {
    pub cert: CertificateDer<'static>,
    pub key: PrivateKeyDer<'static>,
}

impl Identity {
    /// Loads `dir/cert.der` and `dir/key.der`, or makes and saves a new pair.
    pub fn load_or_create(dir: &Path) -> anyhow::Result<Identity> {
        let (cert_path, key_path) = (dir.join("cert.der"), dir.join("key.der"));
        if cert_path.exists() && key_path.exists() {
            let cert = CertificateDer::from(std::fs::read(&cert_path)?);
            let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(std::fs::read(&key_path)?));
            return Ok(Identity { cert, key });
        }
        crate::files::private_dir(dir)?;
        let made = rcgen::generate_simple_self_signed(vec!["bolide.local".to_string()])?;
        let key_der = made.signing_key.serialize_der();
        // Created 0600 from the start (never readable between a write and a chmod), and never
        // through a symlink.
        crate::files::write_private(&key_path, &key_der)?;
        crate::files::write_private(&cert_path, made.cert.der())?;
        Ok(Identity { cert: made.cert.der().clone(), key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key_der)) })
    }

    /// The fingerprint part of the room code.
    pub fn code_suffix(&self) -> String {
        fingerprint_prefix(&self.cert)
    }
}

/// A full room code: the code word, a dash, the certificate's fingerprint in groups.
pub fn room_code(word: &str, identity: &Identity) -> String {
    bolide_link::code::format_code(word, &identity.code_suffix(), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_survives_a_restart() {
        let dir = std::env::temp_dir().join(format!("bolide-identity-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let a = Identity::load_or_create(&dir).unwrap();
        let b = Identity::load_or_create(&dir).unwrap();
        assert_eq!(a.cert, b.cert);
        assert_eq!(room_code("gare", &a), room_code("GARE", &b));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
