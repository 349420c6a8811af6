//! Errors about keys and certificates. They name the key (by fingerprint)
//! and the reason; none holds secret material or a password.

use super::Fingerprint;

/// Why a key, certificate or signature cannot be used.
///
/// ```
/// use tessera::openpgp::{EncryptOptions, Encryptor, Error};
/// use tessera::openpgp::key::{GenerateOptions, KeyError, generate};
/// let opts = GenerateOptions { created: Some(1_000_000_000), expires_in: Some(60), ..Default::default() };
/// let expired = generate(&opts)?.to_public();
/// // Encrypting to an expired certificate is refused, naming it.
/// let err = Encryptor::new(Vec::new(), &[], &EncryptOptions { recipients: vec![expired.clone()], ..Default::default() }).unwrap_err();
/// assert!(matches!(&err, Error::Key(KeyError::Expired { fingerprint, .. }) if *fingerprint == expired.fingerprint()));
/// assert!(err.to_string().contains(&expired.fingerprint().to_hex()));
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyError {
    /// A signature did not verify, or is not acceptable (policy, critical
    /// subpacket, wrong signer).
    #[error("bad signature: {0}")]
    BadSignature(&'static str),
    /// The certificate's primary key has expired.
    #[error("certificate {fingerprint} expired at {expired_at} (Unix time)")]
    Expired {
        /// The primary key.
        fingerprint: Fingerprint,
        /// When it expired (seconds since the epoch).
        expired_at: u64,
    },
    /// The certificate's primary key is revoked.
    #[error("certificate {fingerprint} is revoked{reason}")]
    Revoked {
        /// The primary key.
        fingerprint: Fingerprint,
        /// ": reason", or empty.
        reason: String,
    },
    /// The certificate has no valid self-signature (or binding) at the time asked.
    #[error("certificate {fingerprint} has no valid self-signature: {why}")]
    NoValidSelfSignature {
        /// The primary key.
        fingerprint: Fingerprint,
        /// What was wrong.
        why: &'static str,
    },
    /// No subkey (or primary key) of the certificate can encrypt now.
    #[error("certificate {fingerprint} has no valid encryption-capable key: {why}")]
    NoEncryptionKey {
        /// The primary key.
        fingerprint: Fingerprint,
        /// Why each candidate was refused.
        why: String,
    },
    /// The secret key is locked and no (or the wrong) password was given.
    #[error("the secret key {0} is locked: give its password")]
    Locked(Fingerprint),
    /// The password did not unlock the secret key.
    #[error("wrong password for the secret key {0}")]
    WrongKeyPassword(Fingerprint),
    /// The key has no secret part here (a certificate, or a stub).
    #[error("no secret key material for {0}")]
    NoSecret(Fingerprint),
    /// None of the given secret keys opens any of the message's PKESKs.
    #[error("no key given can decrypt this message; it is encrypted to {recipients}")]
    NoDecryptionKey {
        /// Whom the message names (key IDs or fingerprints), comma-separated.
        recipients: String,
    },
    /// The input holds no key or certificate.
    #[error("no OpenPGP key or certificate found in the input")]
    NoKey,
    /// Two certificates with different primary keys cannot be merged.
    #[error("cannot merge certificate {other} into {base}: their primary keys differ")]
    DifferentCertificates {
        /// The certificate merged into.
        base: Fingerprint,
        /// The certificate that was to be merged.
        other: Fingerprint,
    },
    /// The key cannot make certifications now (revoked, expired, or without
    /// the certify flag).
    #[error("the key {fingerprint} cannot certify: {why}")]
    CannotCertify {
        /// The certifying key's primary key.
        fingerprint: Fingerprint,
        /// Why not.
        why: String,
    },
    /// The primary key of a secret key cannot be kept up to date (revoked,
    /// or expired without a new expiry given).
    #[error("the primary key {fingerprint} cannot be updated: {why}")]
    PrimaryKeyBad {
        /// The primary key.
        fingerprint: Fingerprint,
        /// Why not.
        why: String,
    },
    /// A User ID is not on the certificate with a valid self-signature, or
    /// not certified by any of the given authorities.
    #[error("certificate {fingerprint}: the User ID {user_id:?} is not bound: {why}")]
    UserIdNotBound {
        /// The certificate.
        fingerprint: Fingerprint,
        /// The User ID (or address) asked for, lossily decoded.
        user_id: String,
        /// Why not.
        why: String,
    },
}
