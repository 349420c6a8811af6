//! What [`super::Cert::validate`] finds: the certificate as it stands at
//! one time, its valid keys with their flags, and the questions the
//! encryptor, decryptor and verifier ask of it.

use super::super::crypto::PublicKeyAlg;
use super::super::sig::Signature;
use super::super::{Error, Result};
use super::Cert;
use super::{CertKey, Fingerprint, KeyError, PublicKey};

/// Key flag bits (RFC 9580 §5.2.3.29).
///
/// ```
/// use tessera::openpgp::key::{Cert, flags};
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
/// let valid = cert.validate(1_717_200_000)?;
/// assert_eq!(valid.primary.flags, flags::CERTIFY | flags::SIGN);
/// assert_ne!(valid.subkeys[0].flags & flags::ENCRYPT, 0);
/// assert_eq!(flags::ENCRYPT, flags::ENCRYPT_COMMS | flags::ENCRYPT_STORAGE);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub mod flags {
    /// May certify other keys.
    pub const CERTIFY: u8 = 0x01;
    /// May sign data.
    pub const SIGN: u8 = 0x02;
    /// May encrypt communications.
    pub const ENCRYPT_COMMS: u8 = 0x04;
    /// May encrypt storage.
    pub const ENCRYPT_STORAGE: u8 = 0x08;
    /// Either encryption flag.
    pub const ENCRYPT: u8 = ENCRYPT_COMMS | ENCRYPT_STORAGE;
}

/// Features bits (RFC 9580 §5.2.3.32).
///
/// ```
/// use tessera::openpgp::key::{Cert, features};
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
/// // RFC 9580 A.3 announces both SEIPD versions.
/// assert_eq!(cert.validate(1_717_200_000)?.features(), features::SEIPD_V1 | features::SEIPD_V2);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub mod features {
    /// SEIPD v1 (with MDC).
    pub const SEIPD_V1: u8 = 0x01;
    /// SEIPD v2 (AEAD).
    pub const SEIPD_V2: u8 = 0x08;
}

/// A key of a certificate that is valid at the time asked.
///
/// ```
/// use tessera::openpgp::crypto::PublicKeyAlg;
/// use tessera::openpgp::key::Cert;
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
/// let valid = cert.validate(1_717_200_000)?;
/// let sub = &valid.subkeys[0];
/// assert_eq!((sub.key.public().alg(), sub.expires), (PublicKeyAlg::X25519, None));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ValidKey<'a> {
    /// The key (with its secret part, if the certificate has one).
    pub key: &'a CertKey,
    /// Its key flags (from its binding, or inferred from the algorithm).
    pub flags: u8,
    /// When it expires (seconds since the epoch), if it does.
    pub expires: Option<u64>,
}

impl ValidKey<'_> {
    /// The public key.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let valid = cert.validate(1_717_200_000)?;
    /// assert_eq!(valid.primary.public().fingerprint(), cert.fingerprint());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn public(&self) -> &PublicKey {
        self.key.public()
    }
}

/// A certificate as it stands at one time: everything the encryptor,
/// decryptor and verifier need, already checked.
///
/// ```
/// use tessera::openpgp::key::{generate, GenerateOptions, KeyError};
/// use tessera::openpgp::Error;
/// let opts = GenerateOptions { created: Some(1_700_000_000), expires_in: Some(86_400), ..Default::default() };
/// let key = generate(&opts).unwrap();
/// assert_eq!(key.validate(1_700_000_100).unwrap().encryption_keys().len(), 1);
/// assert!(matches!(key.validate(1_800_000_000), Err(Error::Key(KeyError::Expired { .. }))));
/// ```
#[derive(Debug, Clone)]
pub struct ValidCert<'a> {
    /// The certificate.
    pub cert: &'a Cert,
    /// The time this view is for.
    pub at: u64,
    /// The primary key and its flags.
    pub primary: ValidKey<'a>,
    /// The valid subkeys.
    pub subkeys: Vec<ValidKey<'a>>,
    /// The self-signature the key's preferences come from.
    pub self_sig: &'a Signature,
    /// The primary User ID, if any is valid.
    pub user_id: Option<&'a [u8]>,
    /// What each subkey that was refused was refused for.
    pub refused: Vec<(Fingerprint, &'static str)>,
}

impl<'a> ValidCert<'a> {
    /// The keys that may encrypt (either encryption flag and an encryption
    /// algorithm): valid subkeys, and the primary key if flagged so.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// let valid = alice.validate(1_717_200_000)?;
    /// let keys = valid.encryption_keys();
    /// assert_eq!(keys.len(), 1);
    /// assert_eq!(keys[0].public().fingerprint(), alice.subkeys[0].key.public().fingerprint());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn encryption_keys(&self) -> Vec<&ValidKey<'a>> {
        std::iter::once(&self.primary)
            .chain(&self.subkeys)
            .filter(|k| k.flags & flags::ENCRYPT != 0 && k.public().alg().can_encrypt())
            .collect()
    }

    /// The Elgamal keys flagged for encryption: they decrypt what was sent
    /// to them, but nothing is encrypted to them here.
    fn elgamal_keys(&self) -> impl Iterator<Item = &ValidKey<'a>> {
        std::iter::once(&self.primary)
            .chain(&self.subkeys)
            .filter(|k| k.flags & flags::ENCRYPT != 0 && k.public().alg() == PublicKeyAlg::Elgamal)
    }

    /// The encryption keys, or an error naming the certificate and why none
    /// qualifies ([`Error::UnsupportedPublicKeyAlg`] when the only other
    /// subkeys are of algorithms not supported here, or Elgamal keys, which
    /// are only decrypted with).
    ///
    /// ```
    /// use tessera::openpgp::Error;
    /// use tessera::openpgp::key::{GenerateOptions, KeyError, generate};
    /// // A certificate whose only key signs: refused as a recipient, by name.
    /// let mut key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// key.subkeys.clear();
    /// let valid = key.validate(1_700_000_001)?;
    /// assert!(matches!(valid.require_encryption_keys(), Err(Error::Key(KeyError::NoEncryptionKey { .. }))));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn require_encryption_keys(&self) -> Result<Vec<&ValidKey<'a>>> {
        let keys = self.encryption_keys();
        if keys.is_empty() {
            // The only other subkeys are of algorithms not supported here.
            if let (true, Some(alg)) = (self.refused.is_empty(), self.cert.unsupported_subkey) {
                return Err(Error::UnsupportedPublicKeyAlg(alg));
            }
            if self.refused.is_empty() && self.elgamal_keys().next().is_some() {
                return Err(Error::UnsupportedPublicKeyAlg(PublicKeyAlg::Elgamal.id()));
            }
            let why = if self.refused.is_empty() {
                "no subkey is flagged for encryption".to_string()
            } else {
                self.refused.iter().map(|(fp, w)| format!("subkey {fp}: {w}")).collect::<Vec<_>>().join("; ")
            };
            return Err(Error::from(KeyError::NoEncryptionKey { fingerprint: self.cert.fingerprint(), why }));
        }
        Ok(keys)
    }

    /// The keys that may sign data (sign flag and a signing algorithm).
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let valid = cert.validate(1_717_200_000)?;
    /// let signers: Vec<_> = valid.signing_keys().iter().map(|k| k.public().fingerprint()).collect();
    /// assert_eq!(signers, [cert.fingerprint()]); // the primary key signs, the subkey encrypts
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn signing_keys(&self) -> Vec<&ValidKey<'a>> {
        std::iter::once(&self.primary)
            .chain(&self.subkeys)
            .filter(|k| k.flags & flags::SIGN != 0 && k.public().alg().can_sign())
            .collect()
    }

    /// The features octet of the governing self-signature (0 if absent).
    ///
    /// ```
    /// use tessera::openpgp::key::{Cert, features};
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// // An RFC 4880 key: SEIPD v1 only, so messages to it use v1.
    /// assert_eq!(alice.validate(1_717_200_000)?.features() & features::SEIPD_V2, 0);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn features(&self) -> u8 {
        self.self_sig.features().unwrap_or(0)
    }
}
