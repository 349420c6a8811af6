//! Key revocation (RFC 9580 §5.2.1.11, §5.2.3.31): a key revocation
//! signature with its reason, and the revocation certificate that carries
//! it (the certificate with the revocation added).

use super::super::crypto::SecretMaterial;
use super::super::sig::{SigType, Signature, SignatureBuilder, Subpacket, SubpacketValue};
use super::super::{Error, Result};
use super::{Cert, KeyError, PublicKey};

/// Why a key is revoked (the Reason for Revocation codes of RFC 9580
/// §5.2.3.31). [`Unspecified`](Self::Unspecified) and
/// [`Compromised`](Self::Compromised) are hard revocations: they reach back
/// to signatures made before them. The others are soft.
///
/// ```
/// use tessera::openpgp::key::RevocationReason;
/// assert_eq!(RevocationReason::Retired.code(), 3);
/// assert_eq!(RevocationReason::from_name("compromised"), Some(RevocationReason::Compromised));
/// assert!(RevocationReason::Compromised.is_hard() && !RevocationReason::Superseded.is_hard());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RevocationReason {
    /// 0: no reason given (hard).
    #[default]
    Unspecified,
    /// 1: the key is superseded by another (soft).
    Superseded,
    /// 2: the secret key material may have been compromised (hard).
    Compromised,
    /// 3: the key is retired and no longer used (soft).
    Retired,
}

impl RevocationReason {
    /// The reason code.
    ///
    /// ```
    /// use tessera::openpgp::key::RevocationReason;
    /// assert_eq!(RevocationReason::Compromised.code(), 2);
    /// ```
    pub fn code(self) -> u8 {
        match self {
            RevocationReason::Unspecified => 0,
            RevocationReason::Superseded => 1,
            RevocationReason::Compromised => 2,
            RevocationReason::Retired => 3,
        }
    }

    /// The reason named `unspecified`, `superseded`, `compromised` or
    /// `retired`.
    ///
    /// ```
    /// use tessera::openpgp::key::RevocationReason;
    /// assert_eq!(RevocationReason::from_name("retired"), Some(RevocationReason::Retired));
    /// assert_eq!(RevocationReason::from_name("lost"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "unspecified" => RevocationReason::Unspecified,
            "superseded" => RevocationReason::Superseded,
            "compromised" => RevocationReason::Compromised,
            "retired" => RevocationReason::Retired,
            _ => return None,
        })
    }

    /// Whether the revocation also invalidates what the key made before it.
    ///
    /// ```
    /// use tessera::openpgp::key::RevocationReason;
    /// assert!(RevocationReason::Unspecified.is_hard());
    /// assert!(!RevocationReason::Retired.is_hard());
    /// ```
    pub fn is_hard(self) -> bool {
        matches!(self, RevocationReason::Unspecified | RevocationReason::Compromised)
    }
}

impl Cert {
    /// The primary key and its unlocked secret: [`KeyError::NoSecret`] for
    /// a certificate, [`KeyError::Locked`] for a locked key.
    pub(crate) fn primary_signer(&self) -> Result<(&PublicKey, &SecretMaterial)> {
        let secret = self.primary.secret().ok_or(Error::Key(KeyError::NoSecret(self.fingerprint())))?;
        Ok((self.primary.public(), secret.secret()?))
    }

    /// A key revocation signature made at `at` (seconds since the epoch)
    /// by this secret key's primary key, with `reason` and a human-readable
    /// `message` (may be empty).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, RevocationReason, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let sig = key.revocation(RevocationReason::Retired, "moved to a new key", 1_800_000_000)?;
    /// sig.verify_direct_key(key.primary.public())?;
    /// assert_eq!(sig.revocation_reason(), Some((3, &b"moved to a new key"[..])));
    /// // A certificate cannot revoke itself.
    /// assert!(key.to_public().revocation(RevocationReason::Retired, "", 1_800_000_000).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn revocation(&self, reason: RevocationReason, message: &str, at: u32) -> Result<Signature> {
        let (public, secret) = self.primary_signer()?;
        let why = SubpacketValue::RevocationReason { code: reason.code(), text: message.as_bytes().to_vec() };
        SignatureBuilder::new(SigType::KeyRevocation, at).subpacket(Subpacket::new(why)).sign_direct_key(public, secret)
    }

    /// The revocation certificate of this secret key: its certificate with
    /// a key revocation made at `at` added. Every OpenPGP implementation
    /// reads it as the revoked certificate; merged into (or imported over)
    /// a copy of the certificate, it revokes that copy.
    ///
    /// ```
    /// use tessera::openpgp::Error;
    /// use tessera::openpgp::key::{GenerateOptions, KeyError, RevocationReason, generate};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let revoked = key.revoke(RevocationReason::Compromised, "", 1_700_000_100)?;
    /// assert!(!revoked.is_secret());
    /// // A hard revocation: the key is revoked at every time.
    /// assert!(matches!(revoked.validate(1_700_000_050), Err(Error::Key(KeyError::Revoked { .. }))));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn revoke(&self, reason: RevocationReason, message: &str, at: u32) -> Result<Cert> {
        let sig = self.revocation(reason, message, at)?;
        let mut cert = self.to_public();
        cert.direct_sigs.push(sig);
        Ok(cert)
    }
}
