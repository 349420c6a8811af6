//! Budgeted, cached self-signature checks for [`super::Cert::validate`].
//!
//! A certificate fetched from a key server may carry thousands of
//! signatures that anyone could have added. Validation therefore:
//!
//! - skips, before any cryptography, signatures that name an issuer other
//!   than the key expected to have made them, and refuses before any
//!   public-key operation a signature whose policy or digest prefix fails;
//! - pays for every check by its cost ([`crate::openpgp::sig::cost`]): the
//!   hashing of what is signed and, when it gets that far, the public-key
//!   operation weighted by algorithm and key size, from three budgets per
//!   validation that grow with the certificate's size: the primary key's
//!   bindings (direct key signatures, certifications), the subkeys'
//!   bindings (and back-signatures), and revocations, checked only for
//!   components found valid. A flood in one cannot use up another, and a
//!   flood whose checks cost less per octet than the budgets grow is
//!   checked in full. Beyond a budget, anything unchecked counts as not
//!   verifying;
//! - remembers each outcome by content (the signer's key, what is signed and
//!   the signature octets), so validating the same certificate again, for
//!   every message, repeats no public-key operation.

use std::cell::Cell;

use super::check_cache::{CheckCache, Rule, content_key};
use super::{Cert, PublicKey};
use crate::openpgp::crypto::SigMaterial;
use crate::openpgp::sig::cost::{Budget, VALIDATION_BUDGET, hash_cost, verify_cost};
use crate::openpgp::sig::{SigType, Signature};

/// What a check may spend before its public-key operation: the budgets to
/// charge, and what became of the charge (a refused one leaves the outcome
/// unknown, not "does not verify", and it is not remembered).
pub(crate) struct Charge<'b> {
    pool: &'b Budget,
    outer: Option<&'b Budget>,
    state: Cell<Charged>,
}

/// What became of a [`Charge`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Charged {
    Nothing,
    Paid,
    Refused,
}

impl<'b> Charge<'b> {
    /// Charges `pool` and, when given, `outer` too.
    pub(crate) fn new(pool: &'b Budget, outer: Option<&'b Budget>) -> Self {
        Charge { pool, outer, state: Cell::new(Charged::Nothing) }
    }

    /// Pays for one public-key check by `signer`; false when too little is
    /// left.
    pub(crate) fn pay_for(&self, signer: &PublicKey) -> bool {
        let ok = self.pool.spend_with(self.outer, verify_cost(signer));
        self.state.set(if ok { Charged::Paid } else { Charged::Refused });
        ok
    }

    /// Whether a charge was refused.
    pub(crate) fn refused(&self) -> bool {
        self.state.get() == Charged::Refused
    }

    /// Whether a public-key check was paid for.
    pub(crate) fn paid(&self) -> bool {
        self.state.get() == Charged::Paid
    }
}

/// The checks of one validation: the cache and what remains of its budgets
/// (and of the message's, when it runs for one).
pub(crate) struct Checker<'a> {
    cache: &'a CheckCache,
    primary: Budget,
    subkeys: Budget,
    revocations: Budget,
    message: Option<&'a Budget>,
}

/// About how many octets a signature packet takes (its header included).
pub(crate) fn signature_octets(sig: &Signature) -> u64 {
    let material = match &sig.material {
        SigMaterial::Rsa { s } => 2 + s.as_bytes().len(),
        SigMaterial::Dsa { r, s } | SigMaterial::Ecdsa { r, s } | SigMaterial::EdDsaLegacy { r, s } => {
            4 + r.as_bytes().len() + s.as_bytes().len()
        }
        SigMaterial::Ed25519(_) => 64,
        SigMaterial::Ed448(_) => 114,
        SigMaterial::Composite { ecc, pq } => ecc.len() + pq.len(),
    };
    (20 + sig.hashed_area.len() + sig.unhashed_area.len() + sig.salt.len() + material) as u64
}

/// About how many octets `cert` takes encoded: what its budgets grow with.
pub(crate) fn cert_octets(cert: &Cert) -> u64 {
    let sigs = |s: &[Signature]| s.iter().map(signature_octets).sum::<u64>();
    let key = |k: &super::CertKey| 6 + k.public().body().len() as u64;
    key(&cert.primary)
        + sigs(&cert.direct_sigs)
        + cert.user_ids.iter().map(|u| 6 + u.value.len() as u64 + sigs(&u.sigs)).sum::<u64>()
        + cert.subkeys.iter().map(|k| key(&k.key) + sigs(&k.sigs)).sum::<u64>()
}

impl<'a> Checker<'a> {
    /// The checks of one validation of `cert`, drawing on `message` too,
    /// when given.
    pub(crate) fn new(cert: &'a Cert, message: Option<&'a Budget>) -> Self {
        let [primary, subkeys, revocations] = VALIDATION_BUDGET.for_octets(cert_octets(cert));
        Checker {
            cache: &cert.checked,
            primary: Budget::new(primary),
            subkeys: Budget::new(subkeys),
            revocations: Budget::new(revocations),
            message,
        }
    }

    /// Whether `sig` by `signer` over `subject` verifies (`verify` runs the
    /// check, paying through the [`Charge`] it is given before its
    /// public-key operation): from the cache, else by running it while the
    /// budget lasts. Revocations, the primary key's bindings and the
    /// subkeys' each pay from their own budget.
    pub(crate) fn verified(
        &self,
        rule: Rule,
        signer: &PublicKey,
        subject: &[u8],
        sig: &Signature,
        verify: impl FnOnce(&Charge<'_>) -> bool,
    ) -> bool {
        let revocation = matches!(
            sig.sig_type(),
            SigType::KeyRevocation | SigType::SubkeyRevocation | SigType::CertificationRevocation
        );
        let pool = match rule {
            _ if revocation => &self.revocations,
            Rule::DirectKey | Rule::Certification => &self.primary,
            Rule::SubkeyBinding | Rule::PrimaryKeyBinding => &self.subkeys,
        };
        let octets = sig.to_bytes();
        // The cache's key and the digest each hash what is signed.
        if !pool.spend_with(self.message, 1 + hash_cost(2 * (subject.len() + octets.len()))) {
            return false;
        }
        let key = content_key(rule, signer, subject, &octets);
        if let Some(ok) = self.cache.get(&key) {
            return ok;
        }
        let charge = Charge::new(pool, self.message);
        let ok = verify(&charge);
        if charge.refused() {
            return false;
        }
        self.cache.remember(key, ok, charge.paid());
        ok
    }
}
