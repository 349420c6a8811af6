//! RSA private keys prepared once for PKCS#1 v1.5 decryption.

use std::sync::OnceLock;

use zeroize::Zeroize;

/// The aws-lc-rs decrypting key of a [`super::SecretMaterial::Rsa`], built
/// from its fields on the first decryption and kept with them, so that
/// later decryptions skip rebuilding, re-encoding and re-checking the key.
///
/// It starts empty ([`Default`]); a clone is empty too. Zeroizing it (as
/// dropping the secret material does) drops the prepared key, which
/// aws-lc-rs frees and cleanses.
///
/// ```
/// use tessera::openpgp::crypto::{generate, KeyType, SecretMaterial};
/// let (_, secret) = generate(KeyType::Rsa(2048)).unwrap();
/// assert!(matches!(secret, SecretMaterial::Rsa { .. }));
/// ```
#[derive(Default)]
pub struct PreparedRsa(pub(crate) OnceLock<Prepared>);

/// A prepared key and the public key (n, e) it was built with: a caller
/// passing another public key gets the checked path, not this key.
pub(crate) struct Prepared {
    pub(crate) n: Vec<u8>,
    pub(crate) e: Vec<u8>,
    #[cfg(feature = "rsa-decrypt")]
    pub(crate) key: aws_lc_rs::rsa::Pkcs1PrivateDecryptingKey,
}

impl std::fmt::Debug for PreparedRsa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedRsa").field("prepared", &self.0.get().is_some()).finish()
    }
}

impl Clone for PreparedRsa {
    fn clone(&self) -> Self {
        PreparedRsa::default()
    }
}

impl Zeroize for PreparedRsa {
    fn zeroize(&mut self) {
        drop(self.0.take());
    }
}
