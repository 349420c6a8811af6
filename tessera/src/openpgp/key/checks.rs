//! Bounded, cached self-signature checks for [`super::Cert::validate`].
//!
//! A certificate fetched from a key server may carry thousands of
//! signatures that anyone could have added. Validation therefore:
//!
//! - skips, before any cryptography, signatures that name an issuer other
//!   than the key expected to have made them;
//! - checks a component's candidates newest first until one verifies,
//!   at most [`MAX_CHECKS_PER_VALIDATION`] signatures in one call to
//!   `validate` (a signature whose digest prefix does not match fails
//!   before any public-key operation). There is no smaller cap per
//!   component: forged copies of a real signature with a later creation
//!   time would otherwise hide it (a handful of unsigned packets making a
//!   certificate unusable). Hiding a signature now takes more forged
//!   packets than the whole budget; beyond the budget, anything unchecked
//!   counts as not verifying, which fails closed for bindings and
//!   certifications, and for revocations does no more than whoever
//!   delivers the certificate could do by leaving the revocation out;
//! - remembers each outcome by content (the signer's key, what is signed and
//!   the signature octets), so validating the same certificate again, for
//!   every message, repeats no public-key operation.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use super::PublicKey;
use crate::openpgp::sig::Signature;

/// Most public-key checks made by one call to [`super::Cert::validate`]
/// (outcomes already cached cost nothing).
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
pub const MAX_CHECKS_PER_VALIDATION: usize = 4096;

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
    /// Public-key checks run (cache misses), for tests and diagnostics.
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
fn content_key(rule: Rule, signer: &PublicKey, subject: &[u8], sig: &Signature) -> [u8; 32] {
    let mut h = Sha256::new();
    let signer = signer.body();
    let sig = sig.to_bytes();
    h.update([rule as u8]);
    for part in [signer, subject, &sig] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finalize().into()
}

/// The checks of one validation: the cache and what remains of the budget.
pub(crate) struct Checker<'a> {
    cache: &'a CheckCache,
    budget: Cell<usize>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(cache: &'a CheckCache) -> Self {
        Checker { cache, budget: Cell::new(MAX_CHECKS_PER_VALIDATION) }
    }

    /// Whether `sig` by `signer` over `subject` verifies (`verify` runs the
    /// check): from the cache, else by running it while the budget lasts.
    pub(crate) fn verified(
        &self,
        rule: Rule,
        signer: &PublicKey,
        subject: &[u8],
        sig: &Signature,
        verify: impl FnOnce() -> bool,
    ) -> bool {
        let key = content_key(rule, signer, subject, sig);
        if let Some(&ok) = self.cache.lock().by_content.get(&key) {
            return ok;
        }
        let left = self.budget.get();
        if left == 0 {
            return false;
        }
        self.budget.set(left - 1);
        let ok = verify();
        let mut o = self.cache.lock();
        o.checks += 1;
        if o.by_content.len() >= MAX_CACHED {
            o.by_content.clear();
        }
        o.by_content.insert(key, ok);
        ok
    }
}
