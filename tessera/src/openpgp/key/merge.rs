//! Merging copies of one certificate: the union of their components (User
//! IDs, subkeys) and signatures, each once, in the order first seen.

use super::super::Result;
use super::super::sig::Signature;
use super::cert::{CertKey, Subkey, UserId};
use super::{Cert, KeyError};

/// Whether two signatures are the same signature: equal in everything but
/// the unhashed area, which anyone may change in transit.
fn same_signature(a: &Signature, b: &Signature) -> bool {
    a.version == b.version
        && a.sig_type == b.sig_type
        && a.pk_alg == b.pk_alg
        && a.hash_alg == b.hash_alg
        && a.hashed_area == b.hashed_area
        && a.salt == b.salt
        && a.material == b.material
}

/// Appends each of `more` not already in `sigs`.
fn add_signatures(sigs: &mut Vec<Signature>, more: &[Signature]) {
    for s in more {
        if !sigs.iter().any(|t| same_signature(s, t)) {
            sigs.push(s.clone());
        }
    }
}

/// `key`, or `other` when only `other` holds the secret part.
fn with_secret(key: &mut CertKey, other: &CertKey) {
    if matches!(key, CertKey::Public(_)) && matches!(other, CertKey::Secret(_)) {
        *key = other.clone();
    }
}

impl Cert {
    /// Merges `other`, a copy of the same certificate (same primary key),
    /// into this one: every User ID, subkey and signature of either, each
    /// once (signatures equal but for their unhashed area count as one), in
    /// the order first seen (this certificate's first). A secret part held
    /// by either is kept. A certificate with another primary key is
    /// [`KeyError::DifferentCertificates`].
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, RevocationReason, generate};
    /// let key = generate(&GenerateOptions { user_ids: vec!["A <a@example.org>".into()], ..Default::default() })?;
    /// let cert = key.to_public();
    /// let revoked = key.revoke(RevocationReason::Retired, "", 1_900_000_000)?;
    /// let merged = cert.merge(&revoked)?;
    /// assert_eq!(merged.direct_sigs.len(), cert.direct_sigs.len() + 1);
    /// // Merging again changes nothing.
    /// assert_eq!(*merged.merge(&revoked)?.to_bytes()?, *merged.to_bytes()?);
    /// assert!(cert.merge(&generate(&GenerateOptions::default())?).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn merge(&self, other: &Cert) -> Result<Cert> {
        if self.fingerprint() != other.fingerprint() {
            return Err(KeyError::DifferentCertificates { base: self.fingerprint(), other: other.fingerprint() }.into());
        }
        let mut out = Cert {
            primary: self.primary.clone(),
            direct_sigs: Vec::new(),
            user_ids: Vec::new(),
            subkeys: Vec::new(),
            checked: self.checked.clone(),
            unsupported_subkey: self.unsupported_subkey.or(other.unsupported_subkey),
        };
        with_secret(&mut out.primary, &other.primary);
        for c in [self, other] {
            add_signatures(&mut out.direct_sigs, &c.direct_sigs);
            for u in &c.user_ids {
                match out.user_ids.iter_mut().find(|o| o.value == u.value) {
                    Some(o) => add_signatures(&mut o.sigs, &u.sigs),
                    None => {
                        let mut sigs = Vec::new();
                        add_signatures(&mut sigs, &u.sigs);
                        out.user_ids.push(UserId { value: u.value.clone(), sigs });
                    }
                }
            }
            for k in &c.subkeys {
                let fp = k.key.public().fingerprint();
                match out.subkeys.iter_mut().find(|o| o.key.public().fingerprint() == fp) {
                    Some(o) => {
                        with_secret(&mut o.key, &k.key);
                        add_signatures(&mut o.sigs, &k.sigs);
                    }
                    None => {
                        let mut sigs = Vec::new();
                        add_signatures(&mut sigs, &k.sigs);
                        out.subkeys.push(Subkey { key: k.key.clone(), sigs });
                    }
                }
            }
        }
        Ok(out)
    }
}

/// SOP's `merge-certs`: each certificate of `base` with every certificate
/// of `updates` that has its primary key merged in ([`Cert::merge`]);
/// updates for certificates not in `base` are left out. Certificates of
/// `base` with the same primary key come out as one.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, RevocationReason, generate, merge_certs};
/// let (a, b) = (generate(&GenerateOptions::default())?, generate(&GenerateOptions::default())?);
/// let revoked_a = a.revoke(RevocationReason::Retired, "", 1_900_000_000)?;
/// let merged = merge_certs(&[a.to_public()], &[revoked_a, b.to_public()])?;
/// assert_eq!(merged.len(), 1); // b is not in the base
/// assert_eq!(merged[0].direct_sigs.len(), 2);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn merge_certs(base: &[Cert], updates: &[Cert]) -> Result<Vec<Cert>> {
    let mut out: Vec<Cert> = Vec::new();
    for b in base {
        match out.iter_mut().find(|o| o.fingerprint() == b.fingerprint()) {
            Some(o) => *o = o.merge(b)?,
            None => out.push(b.clone()),
        }
    }
    for o in &mut out {
        let fp = o.fingerprint();
        for u in updates.iter().filter(|u| u.fingerprint() == fp) {
            *o = o.merge(u)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::super::sig::{Subpacket, SubpacketValue, subpacket};
    use super::super::{GenerateOptions, generate};

    /// Signatures equal but for their unhashed area (which anyone may
    /// change) count once; the first copy seen stays.
    #[test]
    fn signatures_differing_only_in_the_unhashed_area_merge_into_one() {
        let key = generate(&GenerateOptions::default()).unwrap().to_public();
        let mut other = key.clone();
        let sig = &mut other.direct_sigs[0];
        sig.unhashed.push(Subpacket::new(SubpacketValue::Other { kind: 101, body: vec![1, 2, 3] }));
        sig.unhashed_area = subpacket::write_area(&sig.unhashed);
        let merged = key.merge(&other).unwrap();
        assert_eq!(merged.direct_sigs.len(), 1);
        assert_eq!(merged.direct_sigs[0], key.direct_sigs[0]);
    }
}
