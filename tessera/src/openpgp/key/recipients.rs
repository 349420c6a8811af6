//! Choosing how to encrypt for a set of recipients (RFC 9580 §5.2.3.15,
//! §5.2.3.32, §9 and §12.2): SEIPD v2 only if every recipient announces it,
//! and the most preferred algorithms every recipient accepts.

use super::super::{Result, SymAlg};
use super::valid::{ValidCert, features};
use super::{Fingerprint, PublicKey};
use crate::aead::Mode;

/// How a message to some recipients is to be encrypted.
///
/// ```
/// use tessera::openpgp::key::{generate, Cert, EncryptionPlan, GenerateOptions, KeyProfile};
/// use tessera::aead::Mode;
/// use tessera::openpgp::SymAlg;
/// let t = 1_700_000_000u32;
/// let v6 = generate(&GenerateOptions { created: Some(t), ..Default::default() }).unwrap();
/// let v4 = generate(&GenerateOptions {
///     profile: KeyProfile::Rfc4880,
///     user_ids: vec!["B <b@example.org>".into()],
///     created: Some(t),
///     ..Default::default()
/// })
/// .unwrap();
/// let plan = EncryptionPlan::new(&[v6.validate(t.into()).unwrap()], true).unwrap();
/// assert_eq!((plan.cipher, plan.aead), (SymAlg::Aes256, Some(Mode::Ocb)));
/// // tessera's v4 keys announce SEIPD v2 too: AEAD for both.
/// let plan = EncryptionPlan::new(&[v6.validate(t.into()).unwrap(), v4.validate(t.into()).unwrap()], true).unwrap();
/// assert_eq!((plan.cipher, plan.aead, plan.keys.len()), (SymAlg::Aes256, Some(Mode::Ocb), 2));
/// // A recipient without SEIPD v2 in its features (the OpenPGP samples'
/// // Alice, an RFC 4880 key): v1 for everyone.
/// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
/// let (alice, now) = (Cert::from_bytes(alice_cert).unwrap(), 1_717_200_000);
/// let plan = EncryptionPlan::new(&[v6.validate(now).unwrap(), alice.validate(now).unwrap()], true).unwrap();
/// assert_eq!((plan.aead, plan.keys.len()), (None, 2));
/// ```
#[derive(Debug, Clone)]
pub struct EncryptionPlan {
    /// SEIPD v2 (AEAD) with this mode, or v1 (CFB + MDC) when `None`.
    pub aead: Option<Mode>,
    /// The symmetric cipher.
    pub cipher: SymAlg,
    /// Every (certificate fingerprint, encryption key) to make a PKESK for.
    pub keys: Vec<(Fingerprint, PublicKey)>,
}

impl EncryptionPlan {
    /// Plans encryption to `certs` (already validated at the time of
    /// encryption). A certificate without a usable encryption key is an error
    /// naming it. With `allow_v2` false, SEIPD v1 is used regardless.
    ///
    /// ```
    /// use tessera::openpgp::key::{Cert, EncryptionPlan};
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let valid = cert.validate(1_717_200_000)?;
    /// assert!(EncryptionPlan::new(&[valid.clone()], true)?.aead.is_some()); // SEIPD v2
    /// assert!(EncryptionPlan::new(&[valid], false)?.aead.is_none()); // v1 asked for
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new(certs: &[ValidCert<'_>], allow_v2: bool) -> Result<Self> {
        let mut keys = Vec::new();
        for c in certs {
            for k in c.require_encryption_keys()? {
                keys.push((c.cert.fingerprint(), k.public().clone()));
            }
        }
        // RFC 9980 §7.1: a certificate with a post-quantum encryption key
        // accepts AES-256 (and AES-256 + OCB) implicitly, and a message to
        // it should use AES-256.
        let pq: Vec<bool> = certs
            .iter()
            .map(|c| keys.iter().any(|(f, k)| *f == c.cert.fingerprint() && k.alg().is_post_quantum()))
            .collect();
        let v2 = allow_v2 && !certs.is_empty() && certs.iter().all(|c| c.features() & features::SEIPD_V2 != 0);
        if v2 {
            let prefs: Vec<_> = certs.iter().map(|c| c.self_sig.preferred_aead()).collect();
            let (cipher, aead) = choose_aead(&prefs, &pq);
            Ok(EncryptionPlan { aead: Some(aead), cipher, keys })
        } else {
            let prefs: Vec<_> = certs.iter().map(|c| c.self_sig.preferred_symmetric()).collect();
            Ok(EncryptionPlan { aead: None, cipher: choose_cipher(&prefs, &pq), keys })
        }
    }
}

/// The first of `candidates` (the first recipient's preferences) that every
/// list in `all` holds: AES-256 ones first when a recipient is post-quantum.
fn first_accepted<T: Copy + PartialEq>(all: &[Vec<T>], any_pq: bool, is_aes256: impl Fn(T) -> bool) -> Option<T> {
    let mut candidates = all.first().cloned().unwrap_or_default();
    if any_pq {
        candidates.sort_by_key(|&t| !is_aes256(t));
    }
    candidates.into_iter().find(|t| all.iter().all(|p| p.contains(t)))
}

fn push_missing<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// The first ciphersuite of the first recipient's preferences that all
/// recipients list and tessera supports (AES-256 first when a recipient is
/// post-quantum); AES-128 + OCB (which every implementation must support)
/// when there is none.
fn choose_aead(prefs: &[Option<&[(u8, u8)]>], pq: &[bool]) -> (SymAlg, Mode) {
    let (aes256, aes128) = ((SymAlg::Aes256.id(), Mode::Ocb.id()), (SymAlg::Aes128.id(), Mode::Ocb.id()));
    let all: Vec<Vec<(u8, u8)>> = prefs
        .iter()
        .zip(pq)
        .map(|(stated, &pq)| {
            let mut p = stated.map(<[_]>::to_vec).unwrap_or_else(|| vec![aes128]);
            if pq {
                push_missing(&mut p, aes256);
                push_missing(&mut p, aes128);
            }
            p.retain(|&(c, a)| SymAlg::from_id(c).is_ok() && Mode::from_id(a).is_ok());
            p
        })
        .collect();
    let first = first_accepted(&all, pq.contains(&true), |(c, _)| c == SymAlg::Aes256.id());
    first.map_or((SymAlg::Aes128, Mode::Ocb), |(c, a)| {
        (SymAlg::from_id(c).expect("kept above"), Mode::from_id(a).expect("kept above"))
    })
}

/// The first cipher of the first recipient's preferences that all list and
/// tessera supports (AES-256 first when a recipient is post-quantum);
/// AES-128 (mandatory to implement, so implicitly accepted by everyone)
/// otherwise.
fn choose_cipher(prefs: &[Option<&[u8]>], pq: &[bool]) -> SymAlg {
    let all: Vec<Vec<u8>> = prefs
        .iter()
        .zip(pq)
        .map(|(stated, &pq)| {
            let mut p = stated.unwrap_or(&[]).to_vec();
            if pq {
                push_missing(&mut p, SymAlg::Aes256.id());
            }
            push_missing(&mut p, SymAlg::Aes128.id());
            p.retain(|&id| SymAlg::from_id(id).is_ok());
            p
        })
        .collect();
    let first = first_accepted(&all, pq.contains(&true), |id| id == SymAlg::Aes256.id());
    first.and_then(|id| SymAlg::from_id(id).ok()).unwrap_or(SymAlg::Aes128)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 9980 §7.1: a post-quantum recipient accepts AES-256 (+ OCB)
    /// implicitly, and AES-256 comes first when one is present.
    #[test]
    fn post_quantum_recipients_imply_and_prefer_aes_256() {
        let (aes128, aes256) = (SymAlg::Aes128.id(), SymAlg::Aes256.id());
        assert_eq!(choose_cipher(&[None], &[false]), SymAlg::Aes128);
        assert_eq!(choose_cipher(&[None], &[true]), SymAlg::Aes256);
        let both: &[u8] = &[aes128, aes256];
        assert_eq!(choose_cipher(&[Some(both)], &[false]), SymAlg::Aes128);
        assert_eq!(choose_cipher(&[Some(both), None], &[false, true]), SymAlg::Aes256);
        // A classical recipient that names AES-128 alone keeps it.
        assert_eq!(choose_cipher(&[Some(&[aes128]), None], &[false, true]), SymAlg::Aes128);
        let ocb = Mode::Ocb.id();
        assert_eq!(choose_aead(&[None], &[false]), (SymAlg::Aes128, Mode::Ocb));
        assert_eq!(choose_aead(&[None], &[true]), (SymAlg::Aes256, Mode::Ocb));
        let suites: &[(u8, u8)] = &[(aes128, ocb), (aes256, ocb)];
        assert_eq!(choose_aead(&[Some(suites), None], &[false, true]), (SymAlg::Aes256, Mode::Ocb));
        assert_eq!(choose_aead(&[Some(&[(aes128, ocb)]), None], &[false, true]), (SymAlg::Aes128, Mode::Ocb));
        assert_eq!(choose_aead(&[Some(suites), Some(suites)], &[true, false]), (SymAlg::Aes256, Mode::Ocb));
    }
}
