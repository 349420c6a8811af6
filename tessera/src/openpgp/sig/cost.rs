//! What checking a signature costs, and the budgets that bound it.
//!
//! Certificates and signed messages come from whoever sends them, so the
//! work they cause is bounded by cost, not by count: one RSA-16384 check
//! with a 64-bit public exponent costs as much as a few hundred Ed25519
//! checks. Costs are estimates in microseconds of one core
//! ([`verify_cost`], [`hash_cost`]); a [`Budget`] is an amount of them that
//! checks draw from until it is spent. Certificate validation draws from
//! three budgets of its own that grow with the certificate's size
//! ([`VALIDATION_BUDGET`]: primary key, subkeys, revocations, so that a
//! flood in one cannot starve another) and, inside a message, from the
//! message's budget too ([`MESSAGE_BUDGET`]).
//!
//! ```
//! use tessera::openpgp::key::{generate, GenerateOptions};
//! use tessera::openpgp::sig::cost::{MESSAGE_BUDGET, verify_cost};
//! let key = generate(&GenerateOptions::default()).unwrap(); // Ed25519
//! // One message may check about 16,000 Ed25519 signatures' worth.
//! assert_eq!(MESSAGE_BUDGET / verify_cost(key.primary.public()), 16_666);
//! ```

use std::cell::Cell;

use super::super::crypto::{Curve, PublicKeyAlg, PublicMaterial};
use super::super::key::PublicKey;

/// Estimated microseconds of one core one public-key signature check by
/// `key` costs: an upper bound measured for each algorithm (`cargo bench
/// --bench cert_validation -- costs` prints the measured figures beside
/// these), RSA and DSA scaled by the modulus squared and the exponents'
/// lengths.
///
/// ```
/// use tessera::openpgp::crypto::{KeyType, generate};
/// use tessera::openpgp::key::{KeyVersion, PublicKey};
/// use tessera::openpgp::sig::cost::verify_cost;
/// let (ed, _) = generate(KeyType::Ed25519)?;
/// let (rsa, _) = generate(KeyType::Rsa(3072))?;
/// let ed = PublicKey::new(KeyVersion::V6, 1_700_000_000, ed)?;
/// let rsa = PublicKey::new(KeyVersion::V4, 1_700_000_000, rsa)?;
/// assert!(verify_cost(&rsa) > verify_cost(&ed));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn verify_cost(key: &PublicKey) -> u64 {
    match (key.alg(), key.material()) {
        (_, PublicMaterial::Rsa { n, e }) => {
            // Square-and-multiply over the exponent's bits, each step a
            // multiplication of the modulus' size.
            let words = (n.bits() as u64).div_ceil(64).max(1);
            let ones: u32 = e.as_bytes().iter().map(|b| b.count_ones()).sum();
            let steps = e.bits() as u64 + u64::from(ones);
            RSA_BASE + (words * words * steps).div_ceil(RSA_PER_US)
        }
        (_, PublicMaterial::Dsa { p, q, .. }) => {
            // The `dsa` crate raises to exponents of the modulus' precision
            // (g^u1 and y^u2) and checks y^q: 2L + N squarings, a quarter
            // more multiplications (fixed windows). Measured 35 ms for
            // DSA-2048 and 92 ms for DSA-3072 on one loaded core; this
            // estimates 40 and 131.
            let words = (p.bits() as u64).div_ceil(64).max(1);
            let steps = (2 * p.bits() as u64 + q.bits() as u64) * 5 / 4;
            RSA_BASE + (words * words * steps).div_ceil(RSA_PER_US)
        }
        (PublicKeyAlg::Ed25519 | PublicKeyAlg::EdDsaLegacy, _) => ED25519,
        (PublicKeyAlg::Ed448, _) => ED448,
        (PublicKeyAlg::MlDsa65Ed25519, _) => ED25519 + ML_DSA_65,
        (PublicKeyAlg::MlDsa87Ed448, _) => ED448 + ML_DSA_87,
        (PublicKeyAlg::SlhDsaShake128s, _) => SLH_DSA_128S,
        (PublicKeyAlg::SlhDsaShake128f, _) => SLH_DSA_128F,
        (PublicKeyAlg::SlhDsaShake256s, _) => SLH_DSA_256S,
        (_, m) => match m.curve() {
            Some(Curve::NistP256) => P256,
            Some(Curve::NistP384) => P384,
            Some(Curve::NistP521) => P521,
            _ => UNKNOWN,
        },
    }
}

/// Ed25519 and the legacy EdDSA over it.
const ED25519: u64 = 60;
/// Ed448.
const ED448: u64 = 2_000;
/// ECDSA over NIST P-256, P-384 and P-521.
const P256: u64 = 450;
const P384: u64 = 1_600;
const P521: u64 = 1_000;
/// Anything else that might verify (never cheaper than the dearest curve).
const UNKNOWN: u64 = 2_000;
/// ML-DSA-65 and ML-DSA-87 verification (RustCrypto `ml-dsa`), the
/// lattice halves of RFC 9980's composite signatures: about 300 and 500 µs
/// measured (`examples/pq_cputime`, one core).
const ML_DSA_65: u64 = 400;
const ML_DSA_87: u64 = 600;
/// SLH-DSA verification (RustCrypto `slh-dsa`): hashing only, more of it
/// for the fast-signing variant (about 1.6, 4.7 and 3.3 ms measured).
const SLH_DSA_128S: u64 = 2_000;
const SLH_DSA_128F: u64 = 5_000;
const SLH_DSA_256S: u64 = 4_000;
/// RSA: a fixed part, and word-steps (64-bit words squared, times the
/// exponent's squarings and multiplications) per microsecond.
const RSA_BASE: u64 = 20;
const RSA_PER_US: u64 = 140;

/// The cheapest public-key check [`verify_cost`] estimates (RSA-1024 with
/// a small exponent; smaller than any key checked at all, as keys under
/// 2048 bits are refused before any arithmetic).
///
/// ```
/// use tessera::openpgp::sig::cost::{CHEAPEST, MESSAGE_BUDGET};
/// assert!(MESSAGE_BUDGET / CHEAPEST < 100_000);
/// ```
pub const CHEAPEST: u64 = RSA_BASE + (16 * 16 * 4u64).div_ceil(RSA_PER_US);

/// Estimated microseconds of hashing `octets` octets (digests and the
/// outcome cache's keys), at 400 MB/s or more (SHA2-512 and SHA3 in
/// software; the signer picks the hash).
///
/// ```
/// use tessera::openpgp::sig::cost::hash_cost;
/// assert_eq!(hash_cost(100), 0);
/// assert_eq!(hash_cost(1 << 20), 2_621);
/// ```
pub fn hash_cost(octets: usize) -> u64 {
    octets as u64 / 400
}

/// Estimated microseconds one message's signatures may cost to check, with
/// every certificate validation they need: under a second of one core, or
/// [`ValidationBudget::per_octet`] times three per octet of the
/// certificates given when that is more (so that validating a large
/// certificate in full is never cut short by the message).
///
/// ```
/// use tessera::openpgp::sig::cost::{MESSAGE_BUDGET, VALIDATION_BUDGET};
/// assert!(VALIDATION_BUDGET.primary + VALIDATION_BUDGET.subkeys + VALIDATION_BUDGET.revocations <= MESSAGE_BUDGET);
/// ```
pub const MESSAGE_BUDGET: u64 = 1_000_000;

/// What one validation of a certificate may spend, in estimated
/// microseconds, from three budgets: the primary key's bindings (direct key
/// signatures and certifications), the subkeys' bindings (with their
/// back-signatures), and revocations, so that garbage in one cannot use up
/// another. Each is the larger of its fixed amount and
/// [`ValidationBudget::per_octet`] per octet of the certificate: a flood of
/// forged signatures whose checks cost less per octet than that is checked
/// in full, whatever its size.
///
/// ```
/// use tessera::openpgp::sig::cost::VALIDATION_BUDGET;
/// assert_eq!(VALIDATION_BUDGET.for_octets(1_000), [400_000, 400_000, 200_000]);
/// assert_eq!(VALIDATION_BUDGET.for_octets(1 << 20), [1 << 20; 3]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidationBudget {
    /// For direct key signatures and certifications of User IDs.
    pub primary: u64,
    /// For subkey bindings and their back-signatures.
    pub subkeys: u64,
    /// For the revocations of the components found valid.
    pub revocations: u64,
    /// Each budget is at least this much per octet of the certificate.
    pub per_octet: u64,
}

impl ValidationBudget {
    /// The three budgets (primary, subkeys, revocations) for a certificate
    /// of `octets` octets.
    ///
    /// ```
    /// use tessera::openpgp::sig::cost::VALIDATION_BUDGET;
    /// let [primary, _, revocations] = VALIDATION_BUDGET.for_octets(300_000);
    /// assert_eq!((primary, revocations), (400_000, 300_000));
    /// ```
    pub fn for_octets(&self, octets: u64) -> [u64; 3] {
        let scaled = octets.saturating_mul(self.per_octet);
        [self.primary.max(scaled), self.subkeys.max(scaled), self.revocations.max(scaled)]
    }
}

/// The budget of one call to [`crate::openpgp::key::Cert::validate`].
///
/// ```
/// use tessera::openpgp::sig::cost::VALIDATION_BUDGET;
/// // A second of one core for a certificate up to 200 KB, 3 units per
/// // octet from 400 KB on.
/// assert_eq!(VALIDATION_BUDGET.for_octets(200_000).iter().sum::<u64>(), 1_000_000);
/// assert_eq!(VALIDATION_BUDGET.for_octets(1_000_000).iter().sum::<u64>(), 3_000_000);
/// ```
pub const VALIDATION_BUDGET: ValidationBudget =
    ValidationBudget { primary: 400_000, subkeys: 400_000, revocations: 200_000, per_octet: 1 };

/// An amount of estimated work that checks draw from until it is spent.
///
/// ```
/// use tessera::openpgp::sig::cost::Budget;
/// let b = Budget::new(100);
/// assert!(b.spend(60));
/// assert!(!b.spend(60)); // not enough left: nothing is taken
/// assert_eq!(b.left(), 40);
/// ```
#[derive(Debug)]
pub struct Budget {
    left: Cell<u64>,
    short: Cell<bool>,
}

impl Budget {
    /// A budget of `units` estimated microseconds.
    ///
    /// ```
    /// use tessera::openpgp::sig::cost::{Budget, MESSAGE_BUDGET};
    /// assert_eq!(Budget::new(MESSAGE_BUDGET).left(), MESSAGE_BUDGET);
    /// ```
    pub fn new(units: u64) -> Self {
        Budget { left: Cell::new(units), short: Cell::new(false) }
    }

    /// What is left.
    ///
    /// ```
    /// use tessera::openpgp::sig::cost::Budget;
    /// let b = Budget::new(10);
    /// b.spend(3);
    /// assert_eq!(b.left(), 7);
    /// ```
    pub fn left(&self) -> u64 {
        self.left.get()
    }

    /// Whether a charge was ever refused for want of what was left.
    ///
    /// ```
    /// use tessera::openpgp::sig::cost::Budget;
    /// let b = Budget::new(5);
    /// assert!(b.spend(5) && !b.ran_short());
    /// assert!(!b.spend(1) && b.ran_short());
    /// ```
    pub fn ran_short(&self) -> bool {
        self.short.get()
    }

    /// Takes `units` if that much is left; otherwise takes nothing and
    /// says so.
    ///
    /// ```
    /// use tessera::openpgp::sig::cost::Budget;
    /// let b = Budget::new(1);
    /// assert!(b.spend(1) && !b.spend(1));
    /// ```
    pub fn spend(&self, units: u64) -> bool {
        match self.left.get().checked_sub(units) {
            Some(left) => {
                self.left.set(left);
                true
            }
            None => {
                self.short.set(true);
                false
            }
        }
    }

    /// Takes `units` from both `self` and `outer` (when given), or from
    /// neither.
    pub(crate) fn spend_with(&self, outer: Option<&Budget>, units: u64) -> bool {
        match outer {
            Some(o) if o.left() < units => o.spend(units),
            Some(o) => self.spend(units) && o.spend(units),
            None => self.spend(units),
        }
    }
}
