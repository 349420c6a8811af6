//! The types of what a packet sequence is, as a whole: certificates or secret keys
//! (with their user IDs, subkeys, capabilities and expiry, as their
//! self-signatures say them: not verified here), an encrypted message, a
//! signed message, detached signatures or a cleartext-signed text.

use super::super::crypto::PublicKeyAlg;
use super::super::key::{Fingerprint, KeyId};

/// What the inspected data is.
///
/// ```
/// use tessera::openpgp::inspect::{KeyHandle, Limits, Summary, inspect};
/// # let sig = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a2_v4_signature.asc"));
/// let report = inspect(sig.as_slice(), &Limits::default())?; // RFC 9580 A.2
/// let Summary::DetachedSignatures { signers } = &report.summary else { panic!("{:?}", report.summary) };
/// assert!(matches!(signers[..], [KeyHandle::Fingerprint(_) | KeyHandle::KeyId(_)]));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Summary {
    /// One or more certificates (transferable public keys).
    Certificates(Vec<KeySummary>),
    /// One or more secret keys.
    SecretKeys(Vec<KeySummary>),
    /// An encrypted message.
    EncryptedMessage {
        /// The recipients of its PKESK packets (`None`: anonymous).
        recipients: Vec<Option<KeyHandle>>,
        /// How many SKESK (password) packets it has.
        passwords: usize,
    },
    /// A signed message (literal data with signatures).
    SignedMessage {
        /// Who signed it, as the signatures name them.
        signers: Vec<KeyHandle>,
    },
    /// Literal data without signatures or encryption.
    LiteralMessage,
    /// Detached signatures.
    DetachedSignatures {
        /// Who signed, as the signatures name them.
        signers: Vec<KeyHandle>,
    },
    /// A cleartext-signed text.
    CleartextSigned {
        /// Who signed it, as the signatures name them.
        signers: Vec<KeyHandle>,
    },
    /// OpenPGP packets that form none of the above.
    Other,
}

/// A certificate or secret key: its primary key, user IDs and subkeys.
///
/// ```
/// use tessera::openpgp::inspect::{Limits, Summary, inspect};
/// # let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
/// let report = inspect(cert.as_slice(), &Limits::default())?; // the OpenPGP samples' Alice
/// let Summary::Certificates(keys) = &report.summary else { panic!("a certificate") };
/// assert_eq!(keys[0].user_ids, [b"Alice Lovelace <alice@openpgp.example>".to_vec()]);
/// assert_eq!(keys[0].subkeys.len(), 1);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySummary {
    /// The primary key, with what its newest self-signatures say.
    pub primary: KeyFacts,
    /// The user IDs (escape them before printing: see [`super::escape`]).
    pub user_ids: Vec<Vec<u8>>,
    /// The subkeys, with what their binding signatures say.
    pub subkeys: Vec<KeyFacts>,
}

/// A key and what its self-signatures say of it (not verified).
///
/// ```
/// use tessera::openpgp::inspect::{Limits, Summary, inspect, key_flag_names};
/// # let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let report = inspect(cert.as_slice(), &Limits::default())?; // RFC 9580 A.3
/// let Summary::Certificates(keys) = &report.summary else { panic!("a certificate") };
/// let sub = &keys[0].subkeys[0];
/// assert_eq!(key_flag_names(sub.flags.unwrap()), ["encrypt communications", "encrypt storage"]);
/// assert_eq!((sub.bits, sub.created, sub.expires), (255, 1_669_824_483, None));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyFacts {
    /// The key's fingerprint.
    pub fingerprint: Fingerprint,
    /// Its algorithm.
    pub alg: PublicKeyAlg,
    /// Its size in bits.
    pub bits: usize,
    /// When it was made (seconds since 1970).
    pub created: u32,
    /// When it expires (seconds since 1970), by the newest self-signature
    /// that says it.
    pub expires: Option<u64>,
    /// Its key flags, by the newest self-signature that has them.
    pub flags: Option<u8>,
}

/// A key named by key ID or by fingerprint.
///
/// ```
/// use tessera::openpgp::inspect::{KeyHandle, Limits, Summary, inspect};
/// # let msg = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a8_x25519_ocb.asc"));
/// let report = inspect(msg.as_slice(), &Limits::default())?; // RFC 9580 A.8
/// let Summary::EncryptedMessage { recipients, .. } = &report.summary else { panic!("a message") };
/// let Some(KeyHandle::Fingerprint(fp)) = recipients[0] else { panic!("PKESK v6 names a fingerprint") };
/// assert_eq!(fp.key_id().to_string(), "12C83F1E706F6308");
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyHandle {
    /// A key ID.
    KeyId(KeyId),
    /// A fingerprint.
    Fingerprint(Fingerprint),
}
