//! The outcomes of a certificate's signature checks, remembered by content
//! (the signer's key, what is signed and the signature octets) so that
//! validating the same certificate again repeats no public-key operation.

use std::collections::HashMap;
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use super::PublicKey;
use crate::openpgp::sig::cost::{CHEAPEST, VALIDATION_BUDGET};

/// Most public-key checks one call to [`super::Cert::validate`] can make
/// on a certificate of up to 200,000 octets (larger ones get budgets in
/// proportion to their size): its budgets spent on the cheapest checks
/// there are (outcomes already cached need none).
///
/// ```
/// use tessera::openpgp::key::{Cert, MAX_CHECKS_PER_VALIDATION};
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
/// // Two self-signatures: far below the bound; a second validation checks none again.
/// assert_eq!(cert.signature_checks(), 0);
/// cert.validate(1_717_200_000)?;
/// let first = cert.signature_checks();
/// cert.validate(1_717_200_000)?;
/// assert_eq!(cert.signature_checks(), first);
/// assert!(first <= MAX_CHECKS_PER_VALIDATION as u64);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub const MAX_CHECKS_PER_VALIDATION: usize =
    ((VALIDATION_BUDGET.primary + VALIDATION_BUDGET.subkeys + VALIDATION_BUDGET.revocations) / CHEAPEST) as usize;

/// Outcomes kept per certificate; the cache is emptied when it is full.
const MAX_CACHED: usize = 2 * MAX_CHECKS_PER_VALIDATION;

/// What a checked signature is over: the cache key includes it so that a
/// signature checked under one rule is never taken as checked under another.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rule {
    /// Direct key signature or key revocation.
    DirectKey,
    /// Certification or certification revocation of a User ID.
    Certification,
    /// Subkey binding or revocation.
    SubkeyBinding,
    /// Primary key binding (back-signature) by a subkey.
    PrimaryKeyBinding,
}

#[derive(Debug, Default, Clone)]
struct Outcomes {
    by_content: HashMap<[u8; 32], bool>,
    /// Public-key checks run, for tests and diagnostics.
    checks: u64,
}

/// Cached check outcomes of one certificate (cloned with it).
#[derive(Default)]
pub(crate) struct CheckCache(Mutex<Outcomes>);

impl CheckCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Outcomes> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Public-key checks run so far.
    pub(crate) fn checks(&self) -> u64 {
        self.lock().checks
    }

    /// The remembered outcome of the check whose content is `key`.
    pub(crate) fn get(&self, key: &[u8; 32]) -> Option<bool> {
        self.lock().by_content.get(key).copied()
    }

    /// Remembers an outcome (emptying the cache when it is full); `paid`
    /// counts a public-key check run for it.
    pub(crate) fn remember(&self, key: [u8; 32], ok: bool, paid: bool) {
        let mut o = self.lock();
        o.checks += u64::from(paid);
        if o.by_content.len() >= MAX_CACHED {
            o.by_content.clear();
        }
        o.by_content.insert(key, ok);
    }
}

impl Clone for CheckCache {
    fn clone(&self) -> Self {
        CheckCache(Mutex::new(self.lock().clone()))
    }
}

impl std::fmt::Debug for CheckCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = self.lock();
        f.debug_struct("CheckCache").field("cached", &o.by_content.len()).field("checks", &o.checks).finish()
    }
}

/// The content a check outcome depends on.
pub(crate) fn content_key(rule: Rule, signer: &PublicKey, subject: &[u8], sig: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    let signer = signer.body();
    h.update([rule as u8]);
    for part in [signer, subject, sig] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finalize().into()
}
