//! Document signatures checked against certificates, with the policy in
//! one place: which hashes count for data, and that the signing key was
//! valid (not expired, not revoked, signing-capable) when it signed.
//!
//! Policy for data signatures (binary 0x00 and text 0x01): SHA-1 and MD5
//! are refused (MD5 cannot even be parsed); SHA-1 stays accepted only for
//! old key bindings, as [`super::SHA1_BINDING_CUTOFF`] documents. A hashed
//! critical subpacket that is not understood makes the signature bad
//! (RFC 9580 §5.2.3.7).
//!
//! ```
//! use tessera::openpgp::key::Cert;
//! use tessera::openpgp::sig::{InlineVerifier, Outcome};
//! # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
//! let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
//! let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
//! let results = InlineVerifier::new(message.as_bytes(), &[cert], 1_717_200_000)?.verify_to(&mut Vec::new())?;
//! assert!(matches!(&results[0].outcome, Outcome::Good { user_id: None, .. }));
//! # Ok::<(), tessera::openpgp::Error>(())
//! ```

use super::super::crypto::HashAlg;
use super::super::key::{Cert, Charge, Fingerprint, PublicKey, ValidCert, cert_octets};
use super::cost::{Budget, MESSAGE_BUDGET, VALIDATION_BUDGET};
pub use super::hash_choice::{hash_acceptable, negotiate_hash};
use super::packet::{SigType, Signature};

/// What one signature amounts to.
///
/// ```
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::{InlineVerifier, Outcome};
/// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
/// // Without the signer's certificate.
/// let results = InlineVerifier::new(message.as_bytes(), &[], 1_717_200_000)?.verify_to(&mut Vec::new())?;
/// assert_eq!(results[0].outcome, Outcome::UnknownSigner);
/// // Before the signature was made.
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let certs = [Cert::from_bytes(a3_cert)?]; // RFC 9580 A.3
/// let results = InlineVerifier::new(message.as_bytes(), &certs, 1_600_000_000)?.verify_to(&mut Vec::new())?;
/// assert!(matches!(results[0].outcome, Outcome::KeyNotValid { .. }));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It verifies, made by a key valid and signing-capable at its creation.
    Good {
        /// The certificate's (primary key's) fingerprint.
        cert: Fingerprint,
        /// The fingerprint of the key that signed (primary or subkey).
        key: Fingerprint,
        /// The certificate's primary User ID at signing time, if any.
        user_id: Option<String>,
    },
    /// It does not verify (modified data or signature, or malformed).
    Bad(String),
    /// None of the given certificates holds its issuer.
    UnknownSigner,
    /// The signature verifies but the key could not sign at its creation
    /// time (expired, revoked, not flagged for signing), or the signature
    /// itself has expired.
    KeyNotValid {
        /// The certificate's fingerprint.
        cert: Fingerprint,
        /// Why.
        why: String,
    },
    /// Its hash algorithm is refused for data signatures (SHA-1).
    WeakHash(HashAlg),
    /// It was not checked: the message's budget for signature checks was
    /// spent (see [`DocumentChecker`]).
    Unchecked(String),
}

impl Outcome {
    /// Whether the signature counts.
    ///
    /// ```
    /// use tessera::openpgp::sig::Outcome;
    /// assert!(!Outcome::UnknownSigner.is_good());
    /// assert!(!Outcome::Bad("modified".into()).is_good());
    /// ```
    pub fn is_good(&self) -> bool {
        matches!(self, Outcome::Good { .. })
    }
}

/// One signature and what it amounts to.
///
/// ```
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::{InlineVerifier, SigType};
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let certs = [Cert::from_bytes(a3_cert)?]; // RFC 9580 A.3
/// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
/// let results = InlineVerifier::new(message.as_bytes(), &certs, 1_717_200_000)?.verify_to(&mut Vec::new())?;
/// let sig = results[0].signature.as_ref().expect("parsed");
/// assert_eq!(sig.sig_type(), SigType::Text);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SigResult {
    /// The signature (if it could be parsed and paired).
    pub signature: Option<Signature>,
    /// The verdict.
    pub outcome: Outcome,
}

impl SigResult {
    /// Whether it counts.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// use tessera::openpgp::sig::InlineVerifier;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let certs = [Cert::from_bytes(a3_cert)?]; // RFC 9580 A.3
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
    /// let results = InlineVerifier::new(message.as_bytes(), &certs, 1_717_200_000)?.verify_to(&mut Vec::new())?;
    /// assert!(results[0].is_good());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn is_good(&self) -> bool {
        self.outcome.is_good()
    }
}

/// Whether `sig` may be a data signature at all: its type and hash.
fn data_policy(sig: &Signature) -> Option<Outcome> {
    if !matches!(sig.sig_type(), SigType::Binary | SigType::Text) {
        return Some(Outcome::Bad(format!("signature type 0x{:02x} is not a data signature", sig.sig_type().id())));
    }
    if sig.hash_alg() == HashAlg::Sha1 {
        return Some(Outcome::WeakHash(HashAlg::Sha1));
    }
    None
}

/// How far in the future a signature's creation time may be (clock skew
/// between signer and verifier), in seconds.
const MAX_CLOCK_SKEW: u64 = 5 * 60;

/// Checks the signing key against the certificate's state at the
/// signature's creation time: a hard revocation applies there whenever it
/// was made, a soft one only from its creation on (RFC 9580 §5.2.3.31).
fn key_valid_at(
    cert: &Cert,
    key: &PublicKey,
    sig: &Signature,
    now: u64,
    budget: &Budget,
) -> Result<Option<String>, String> {
    let created = u64::from(sig.created().ok_or("it has no creation time")?);
    if created > now.saturating_add(MAX_CLOCK_SKEW) {
        return Err("it was made in the future (its creation time is after now)".into());
    }
    let valid: ValidCert<'_> = cert.validate_in(created, Some(budget)).map_err(|e| format!("at signing time: {e}"))?;
    let fp = key.fingerprint();
    if !valid.signing_keys().iter().any(|k| k.public().fingerprint() == fp) {
        let why = valid.refused.iter().find(|(f, _)| *f == fp).map(|(_, w)| *w).unwrap_or("not flagged for signing");
        return Err(format!("key {fp} could not sign at signing time: {why}"));
    }
    if !sig.is_live_at(now.max(created)) {
        return Err("the signature has expired".into());
    }
    Ok(valid.user_id.map(crate::openpgp::inspect::escape))
}

/// Most signatures naming no issuer that one message may have tried
/// against every key that could have made them; further ones count as by
/// an unknown signer.
///
/// ```
/// use tessera::openpgp::sig::check::MAX_ISSUERLESS;
/// assert_eq!(MAX_ISSUERLESS, 4);
/// ```
pub const MAX_ISSUERLESS: usize = 4;

/// Judges the document signatures of one message against `certs` at `now`
/// (seconds since the epoch), within one budget for the whole message
/// ([`MESSAGE_BUDGET`], or more in proportion to the certificates' size;
/// certificate validations included), so that what a message costs to
/// check does not grow with signatures times keys.
///
/// Cheap checks come before any cryptography: a signature is checked only
/// against keys that claim to sign (the primary key of a signing
/// algorithm, subkeys whose bindings grant signing and carry a
/// back-signature: no bare subkey), each distinct key once: the keys it
/// names as issuer, or for one naming no issuer (at most [`MAX_ISSUERLESS`]
/// per message) those of its algorithm and version. A certificate is
/// validated (within its budget, outcomes cached) only for a key that
/// verifies the signature, and every certificate holding that key is
/// tried until one makes it good.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::check::DocumentChecker;
/// use tessera::openpgp::sig::{DocumentHasher, SigType, Signer, SigningKey};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let mut signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
/// signer.update(b"data");
/// let sig = signer.finish()?.remove(0);
/// let f = sig.hashed_fields();
/// let mut h = DocumentHasher::new(&f);
/// h.update(b"data");
/// let certs = [key.to_public()];
/// let mut checker = DocumentChecker::new(&certs, 1_700_000_002);
/// assert!(checker.check(&sig, &h.finish(&f)).is_good());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug)]
pub struct DocumentChecker<'c> {
    certs: &'c [Cert],
    now: u64,
    budget: Budget,
    issuerless: usize,
}

impl<'c> DocumentChecker<'c> {
    /// A checker for one message's signatures.
    ///
    /// ```
    /// use tessera::openpgp::sig::check::DocumentChecker;
    /// let checker = DocumentChecker::new(&[], 1_700_000_000);
    /// # let _ = checker;
    /// ```
    pub fn new(certs: &'c [Cert], now: u64) -> Self {
        let octets: u64 = certs.iter().map(cert_octets).sum();
        let budget = MESSAGE_BUDGET.max(octets.saturating_mul(3 * VALIDATION_BUDGET.per_octet));
        DocumentChecker { certs, now, budget: Budget::new(budget), issuerless: 0 }
    }

    /// Judges `sig`, whose data hashed to `digest` (computed by
    /// [`super::DocumentHasher`] over the signature's own fields).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::check::DocumentChecker;
    /// use tessera::openpgp::sig::{Outcome, SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let mut signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// signer.update(b"data");
    /// let sig = signer.finish()?.remove(0);
    /// // The wrong digest.
    /// let outcome = DocumentChecker::new(&[key.to_public()], 1_700_000_002).check(&sig, &[0; 64]);
    /// assert!(matches!(outcome, Outcome::Bad(_)));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn check(&mut self, sig: &Signature, digest: &[u8]) -> Outcome {
        if let Some(o) = data_policy(sig) {
            return o;
        }
        if sig.issuer_key_ids().next().is_some() {
            return self.check_named(sig, digest);
        }
        if self.issuerless == MAX_ISSUERLESS {
            return Outcome::UnknownSigner;
        }
        self.issuerless += 1;
        self.check_issuerless(sig, digest)
    }

    fn spent() -> Outcome {
        Outcome::Unchecked("the budget for this message's signature checks is spent".into())
    }

    /// Verifies `sig` by `key`, paid from the message's budget: `None` when
    /// too little is left.
    fn verify(&self, sig: &Signature, key: &PublicKey, digest: &[u8]) -> Option<Result<(), String>> {
        let charge = Charge::new(&self.budget, None);
        let r = sig.verify_digest_paid(key, digest, Some(&charge)).map_err(|e| e.to_string());
        (!charge.refused()).then_some(r)
    }

    /// The verdict on `sig` by `key` of `cert`, whose check verified it:
    /// good if the key was valid and flagged for signing when the signature
    /// was made ([`key_valid_at`]), "not checked" if the budget ran out
    /// deciding that.
    fn judged(&self, cert: &Cert, key: &PublicKey, sig: &Signature) -> Outcome {
        match key_valid_at(cert, key, sig, self.now, &self.budget) {
            Ok(user_id) => Outcome::Good { cert: cert.fingerprint(), key: key.fingerprint(), user_id },
            Err(_) if self.budget.ran_short() => Self::spent(),
            Err(why) => Outcome::KeyNotValid { cert: cert.fingerprint(), why },
        }
    }

    /// Checks `sig` against each key of `candidates` (a certificate and one
    /// of its keys that claims to sign), each distinct key once: the first
    /// good verdict, else the most telling (bad over key not valid).
    fn first_good<'k>(
        &self,
        sig: &Signature,
        digest: &[u8],
        candidates: impl Iterator<Item = (&'k Cert, &'k PublicKey)>,
    ) -> Option<Outcome> {
        let mut found = None;
        let mut verified: Vec<(Fingerprint, bool)> = Vec::new();
        for (cert, key) in candidates {
            let fp = key.fingerprint();
            let ok = match verified.iter().find(|(f, _)| *f == fp) {
                Some(&(_, ok)) => ok,
                None => match self.verify(sig, key, digest) {
                    None => return Some(Self::spent()),
                    Some(r) => {
                        if let Err(why) = &r {
                            found = Some(Outcome::Bad(why.clone()));
                        }
                        verified.push((fp, r.is_ok()));
                        r.is_ok()
                    }
                },
            };
            if !ok {
                continue;
            }
            match self.judged(cert, key, sig) {
                o @ (Outcome::Good { .. } | Outcome::Unchecked(_)) => return Some(o),
                o => found = found.filter(|f| matches!(f, Outcome::Bad(_))).or(Some(o)),
            }
        }
        found
    }

    /// A signature naming its issuer: checked against the keys it names
    /// that claim to sign (no public-key operation to tell), then judged by
    /// the validity of a key that verifies it; a named key that does not
    /// even claim to sign is not valid for it.
    fn check_named(&self, sig: &Signature, digest: &[u8]) -> Outcome {
        let named = |k: &PublicKey| sig.may_be_issued_by(&k.fingerprint());
        let candidates =
            self.certs.iter().flat_map(|c| c.keys_claiming_to_sign().filter(|k| named(k)).map(move |k| (c, k)));
        if let Some(o) = self.first_good(sig, digest, candidates) {
            return o;
        }
        match self.certs.iter().find_map(|c| c.keys().map(|k| k.public()).find(|k| named(k)).map(|k| (c, k))) {
            Some((cert, key)) => Outcome::KeyNotValid {
                cert: cert.fingerprint(),
                why: format!("key {} is not bound for signing", key.fingerprint()),
            },
            None => Outcome::UnknownSigner,
        }
    }

    /// A signature naming no issuer: checked only against keys of its
    /// algorithm and version that claim to sign, and judged by the validity
    /// of a key that verifies it.
    fn check_issuerless(&self, sig: &Signature, digest: &[u8]) -> Outcome {
        let fits = |k: &PublicKey| k.alg() == sig.pk_alg() && k.version().id() == sig.version;
        let candidates =
            self.certs.iter().flat_map(|c| c.keys_claiming_to_sign().filter(|k| fits(k)).map(move |k| (c, k)));
        self.first_good(sig, digest, candidates).unwrap_or(Outcome::UnknownSigner)
    }
}

/// Judges one document signature whose data hashed to `digest` against
/// `certs` at `now`: a [`DocumentChecker`] for a message of one signature.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::{DocumentHasher, Outcome, SigType, Signer, SigningKey, check};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let mut signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
/// signer.update(b"data");
/// let sig = signer.finish()?.remove(0);
/// let f = sig.hashed_fields();
/// let mut h = DocumentHasher::new(&f);
/// h.update(b"data");
/// let digest = h.finish(&f);
/// let certs = [key.to_public()];
/// assert!(check::check_document(&sig, &digest, &certs, 1_700_000_002).is_good());
/// // Without the signer's certificate: neither good nor bad.
/// assert_eq!(check::check_document(&sig, &digest, &[], 1_700_000_002), Outcome::UnknownSigner);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn check_document(sig: &Signature, digest: &[u8], certs: &[Cert], now: u64) -> Outcome {
    DocumentChecker::new(certs, now).check(sig, digest)
}
