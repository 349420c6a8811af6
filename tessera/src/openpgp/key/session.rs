//! The session key and the keys of a certificate: PKESK packets for an
//! [`EncryptionPlan`] (v6 with SEIPD v2, v3 with v1, named or anonymous
//! recipients), and recovering the session key from a message's PKESKs
//! with secret keys (those the packets name first, then the anonymous
//! packets against every decryption-capable key).

use super::super::crypto::{PkeskVersion, decrypt_session_key, encrypt_session_key};
use super::super::pkesk::{Pkesk, Recipient};
use super::super::{Error, Result, SessionKey};
use super::{Cert, CertKey, EncryptionPlan, Fingerprint, KeyError, KeyId};

impl EncryptionPlan {
    /// One PKESK per recipient key for `session_key`: v6 for SEIPD v2, v3
    /// for SEIPD v1. With `anonymous`, the recipient is left out (a wildcard
    /// key ID or an empty fingerprint) and decryptors try every key.
    ///
    /// ```
    /// use tessera::openpgp::key::{Cert, EncryptionPlan, decrypt_pkesks};
    /// # let a4_secret = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a4_v6_secret.asc"));
    /// let secret = Cert::from_bytes(a4_secret)?; // RFC 9580 A.4
    /// let cert = secret.to_public();
    /// let plan = EncryptionPlan::new(&[cert.validate(1_717_200_000)?], true)?;
    /// let pkesks = plan.pkesks(&[7; 32], true)?; // anonymous: no key ID
    /// assert_eq!(pkesks.len(), 1);
    /// assert_eq!(*decrypt_pkesks(&pkesks, &[secret])?.key, [7; 32]);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn pkesks(&self, session_key: &[u8], anonymous: bool) -> Result<Vec<Pkesk>> {
        let (version, sym) = match self.aead {
            Some(_) => (PkeskVersion::V6, None),
            None => (PkeskVersion::V3, Some(self.cipher)),
        };
        let mut out = Vec::with_capacity(self.keys.len());
        for (_, key) in &self.keys {
            let fp = key.fingerprint();
            let payload = encrypt_session_key(key.material(), fp.as_bytes(), version, sym, session_key)?;
            let recipient = (!anonymous).then(|| match version {
                PkeskVersion::V6 => {
                    Recipient::Fingerprint { key_version: key.version().id(), fingerprint: fp.as_bytes().to_vec() }
                }
                PkeskVersion::V3 => Recipient::KeyId(fp.key_id().0),
            });
            out.push(Pkesk { version, recipient, payload });
        }
        Ok(out)
    }
}

/// Whether a PKESK names `key`.
fn names(p: &Pkesk, fp: &Fingerprint) -> bool {
    match &p.recipient {
        Some(Recipient::KeyId(id)) => KeyId(*id) == fp.key_id(),
        Some(Recipient::Fingerprint { fingerprint, .. }) => fingerprint.as_slice() == fp.as_bytes(),
        None => false,
    }
}

/// How a PKESK names its recipient, for error messages.
fn describe(p: &Pkesk) -> String {
    match &p.recipient {
        Some(Recipient::KeyId(id)) => format!("0x{}", KeyId(*id)),
        Some(Recipient::Fingerprint { fingerprint, .. }) => {
            format!("0x{}", super::super::types::hex_upper(fingerprint))
        }
        None => "an anonymous recipient".into(),
    }
}

/// Every key of `keys` that has secret material, an encryption algorithm
/// and a binding that grants an encryption flag ([`Cert::may_decrypt_with`]).
/// Expired or revoked keys still decrypt what was sent to them (RFC 9580
/// leaves that to the reader, and every peer allows it).
fn decryption_keys(keys: &[Cert]) -> impl Iterator<Item = (&Cert, &CertKey)> {
    keys.iter().flat_map(|c| {
        c.keys()
            .filter(move |k| k.secret().is_some() && k.public().alg().can_decrypt() && c.may_decrypt_with(k))
            .map(move |k| (c, k))
    })
}

fn try_key(p: &Pkesk, k: &CertKey) -> Result<SessionKey> {
    let secret = k.secret().expect("filtered").secret()?;
    let public = k.public();
    decrypt_session_key(secret, public.material(), public.fingerprint().as_bytes(), &p.payload, p.version)
}

/// Recovers the session key: first each PKESK that names one of `keys`,
/// then each anonymous PKESK against every key. A named key that is still
/// locked is an error saying so ([`KeyError::Locked`]); when nothing works,
/// [`KeyError::NoDecryptionKey`] lists whom the message is encrypted to.
///
/// ```
/// use tessera::openpgp::Error;
/// use tessera::openpgp::key::{Cert, EncryptionPlan, GenerateOptions, KeyError, decrypt_pkesks, generate};
/// # let a4_secret = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a4_v6_secret.asc"));
/// let secret = Cert::from_bytes(a4_secret)?; // RFC 9580 A.4
/// let plan = EncryptionPlan::new(&[secret.validate(1_717_200_000)?], true)?;
/// let pkesks = plan.pkesks(&[7; 32], false)?;
/// assert_eq!(*decrypt_pkesks(&pkesks, &[secret])?.key, [7; 32]);
/// // Another key: the error lists whom the message is for.
/// let other = generate(&GenerateOptions::default())?;
/// assert!(matches!(decrypt_pkesks(&pkesks, &[other]), Err(Error::Key(KeyError::NoDecryptionKey { .. }))));
/// # Ok::<(), Error>(())
/// ```
pub fn decrypt_pkesks(pkesks: &[Pkesk], keys: &[Cert]) -> Result<SessionKey> {
    decrypt_pkesks_for(pkesks, keys).map(|(sk, _)| sk)
}

/// As [`decrypt_pkesks`], also returning the primary fingerprint of the
/// certificate whose key opened a PKESK (for the intended recipient check).
pub(crate) fn decrypt_pkesks_for(pkesks: &[Pkesk], keys: &[Cert]) -> Result<(SessionKey, Fingerprint)> {
    let mut locked = None;
    for p in pkesks.iter().filter(|p| p.recipient.is_some()) {
        for (c, k) in decryption_keys(keys).filter(|(_, k)| names(p, &k.public().fingerprint())) {
            match try_key(p, k) {
                Ok(sk) => return Ok((sk, c.fingerprint())),
                Err(Error::Key(e @ KeyError::Locked(_))) => locked = Some(e),
                Err(_) => {}
            }
        }
    }
    for p in pkesks.iter().filter(|p| p.recipient.is_none()) {
        for (c, k) in decryption_keys(keys) {
            if let Ok(sk) = try_key(p, k) {
                return Ok((sk, c.fingerprint()));
            }
        }
    }
    if let Some(e) = locked {
        return Err(e.into());
    }
    let to = pkesks.iter().map(describe).collect::<Vec<_>>().join(", ");
    let recipients = if to.is_empty() { "no public key (it has password packets only)".into() } else { to };
    Err(KeyError::NoDecryptionKey { recipients }.into())
}
