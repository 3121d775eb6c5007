//! The host's identity: a self-signed certificate made with rcgen on first start and kept in
//! the data dir, so the host keeps its fingerprint — and so its room code — across restarts.

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use sha2::{Digest, Sha256};
use std::path::Path;

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
        std::fs::create_dir_all(dir)?;
        let made = rcgen::generate_simple_self_signed(vec!["bolide.local".to_string()])?;
        let key_der = made.signing_key.serialize_der();
        std::fs::write(&key_path, &key_der)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&key_path, std::fs::Permissions::from_mode(0o600))?;
        }
        std::fs::write(&cert_path, made.cert.der())?;
        Ok(Identity { cert: made.cert.der().clone(), key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key_der)) })
    }

    /// The fingerprint part of the room code.
    pub fn code_suffix(&self) -> String {
        fingerprint_prefix(&self.cert)
    }
}

/// Crockford's base32: no I, L, O or U, so a code read aloud is typed right.
const BASE32: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Characters of fingerprint in a room code: 30 bits, so a look-alike host needs about a
/// billion key pairs to forge one (see the README's threat model).
pub const FINGERPRINT_CHARS: usize = 6;

/// The first [`FINGERPRINT_CHARS`] base32 characters of the certificate's SHA-256.
pub fn fingerprint_prefix(cert: &[u8]) -> String {
    let digest = Sha256::digest(cert);
    let mut bits: u64 = 0;
    for b in &digest[..5] {
        bits = bits << 8 | u64::from(*b);
    }
    (0..FINGERPRINT_CHARS).map(|i| BASE32[((bits >> (35 - 5 * i)) & 31) as usize] as char).collect()
}

/// A full room code: the code word, a dash, the certificate fingerprint prefix.
pub fn room_code(word: &str, identity: &Identity) -> String {
    format!("{}-{}", word.to_ascii_uppercase(), identity.code_suffix())
}

/// Splits `WORD-FINGERPRINT`; the check is case-insensitive and forgives O/0, I/L/1.
pub fn split_code(code: &str) -> Option<(String, String)> {
    let (word, fp) = code.trim().rsplit_once('-')?;
    let fp: String = fp
        .to_ascii_uppercase()
        .chars()
        .map(|c| match c {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    (!word.is_empty() && fp.len() == FINGERPRINT_CHARS).then(|| (word.to_ascii_uppercase(), fp))
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

    #[test]
    fn codes_split_and_forgive_look_alikes() {
        assert_eq!(split_code("gare-7f3k0q"), Some(("GARE".into(), "7F3K0Q".into())));
        assert_eq!(split_code("GARE-7F3KOQ"), Some(("GARE".into(), "7F3K0Q".into())));
        assert_eq!(split_code("GARE"), None);
        assert_eq!(split_code("GARE-7F3"), None);
        assert_eq!(fingerprint_prefix(b"abc").len(), FINGERPRINT_CHARS);
        assert_ne!(fingerprint_prefix(b"abc"), fingerprint_prefix(b"abd"));
    }
}
