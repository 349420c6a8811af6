//! RSA private keys prepared once: for PKCS#1 v1.5 decryption (aws-lc-rs)
//! and for signing (the `rsa` crate's checked key with its CRT values).

use std::sync::OnceLock;

use zeroize::Zeroize;

use super::Mpi;
use crate::openpgp::Result;

/// The keys built from the fields of a [`super::SecretMaterial::Rsa`]: the
/// aws-lc-rs decrypting key on the first decryption, the checked signing
/// key on the first signature, each kept with the fields, so that later
/// operations skip rebuilding, re-encoding and re-checking the key.
///
/// It starts empty ([`Default`]); a clone is empty too. Zeroizing it (as
/// dropping the secret material does) drops the prepared keys, which
/// aws-lc-rs and the `rsa` crate free and cleanse.
///
/// ```
/// use tessera::openpgp::crypto::{generate, KeyType, SecretMaterial};
/// let (_, secret) = generate(KeyType::Rsa(2048)).unwrap();
/// assert!(matches!(secret, SecretMaterial::Rsa { .. }));
/// ```
#[derive(Default)]
pub struct PreparedRsa(
    pub(crate) OnceLock<Prepared>,
    /// Boxed: the `rsa` crate's key is large, and every secret key holds this.
    pub(crate) Box<OnceLock<Keyed<rsa::PrivateKey>>>,
);

/// A prepared key and the public key (n, e) it was built with: a caller
/// passing another public key gets the checked path, not this key.
pub(crate) struct Keyed<T> {
    pub(crate) n: Vec<u8>,
    pub(crate) e: Vec<u8>,
    pub(crate) key: T,
}

/// The prepared decrypting key.
#[cfg(feature = "rsa-decrypt")]
pub(crate) type Prepared = Keyed<aws_lc_rs::rsa::Pkcs1PrivateDecryptingKey>;
/// Without aws-lc-rs there is nothing to prepare for decryption.
#[cfg(not(feature = "rsa-decrypt"))]
pub(crate) type Prepared = Keyed<()>;

/// The key in `cell` if it was built for (n, e); otherwise built now by
/// `build`, and kept if `cell` is still empty (two threads may both build:
/// one key is kept, both are valid). A key built for another (n, e) lives
/// in `fresh`.
pub(crate) fn cached<'c, T>(
    cell: &'c OnceLock<Keyed<T>>,
    fresh: &'c mut Option<T>,
    n: &Mpi,
    e: &Mpi,
    build: impl FnOnce() -> Result<T>,
) -> Result<&'c T> {
    let (n, e) = (n.as_bytes(), e.as_bytes());
    match cell.get() {
        Some(k) if k.n == n && k.e == e => Ok(&k.key),
        Some(_) => Ok(fresh.insert(build()?)),
        None => {
            let _ = cell.set(Keyed { n: n.to_vec(), e: e.to_vec(), key: build()? });
            match cell.get() {
                Some(k) if k.n == n && k.e == e => Ok(&k.key),
                _ => Err(crate::openpgp::Error::KeyMismatch),
            }
        }
    }
}

impl std::fmt::Debug for PreparedRsa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedRsa")
            .field("decryption", &self.0.get().is_some())
            .field("signing", &self.1.get().is_some())
            .finish()
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
        drop(self.1.take());
    }
}
