//! Checking signatures against keys, with the policy that decides which
//! signatures count at all.
//!
//! Policy (documented in SECURITY.md): a signature is refused when it has an
//! unknown critical subpacket in its hashed area, no creation time, a
//! version other than its signer's key version, or a SHA-1 hash — except a
//! SHA-1 key binding or certification made before 2023-02-01, which old v4
//! keys still carry (the date Sequoia and GnuPG also use).

use super::super::Result;
use super::super::crypto::{self, HashAlg};
use super::super::key::{Charge, KeyError, PublicKey};
use super::hashing::{binding_digest, certification_digest, direct_key_digest};
use super::packet::{SigType, Signature};

/// SHA-1 self-signatures made before this time (2023-02-01) are accepted.
///
/// ```
/// use tessera::openpgp::crypto::HashAlg;
/// use tessera::openpgp::key::{GenerateOptions, KeyProfile, generate};
/// use tessera::openpgp::sig::{SHA1_BINDING_CUTOFF, SigType, SignatureBuilder};
/// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], created: Some(1_600_000_000), ..Default::default() };
/// let key = generate(&opts)?;
/// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
/// let certify = |at: u32| {
///     SignatureBuilder::new(SigType::Certification(0x13), at).hash(HashAlg::Sha1).sign_certification(public, secret, b"A <a@example.org>")
/// };
/// // An old SHA-1 certification still counts; a new one does not.
/// certify(SHA1_BINDING_CUTOFF - 1)?.verify_certification(public, b"A <a@example.org>")?;
/// assert!(certify(SHA1_BINDING_CUTOFF)?.verify_certification(public, b"A <a@example.org>").is_err());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub const SHA1_BINDING_CUTOFF: u32 = 1_675_209_600;

fn bad(why: &'static str) -> super::super::Error {
    KeyError::BadSignature(why).into()
}

impl Signature {
    /// Checks the policy and then `digest` (computed by one of the
    /// [`super::hashing`] rules) against `signer`.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{HashAlg, Hasher};
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, hashing};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// // A binary signature over "data", hashed by hand.
    /// let digest_of = |f: &hashing::HashedFields<'_>| {
    ///     let mut h = hashing::begin(f);
    ///     h.update(b"data");
    ///     hashing::finish(h, f)
    /// };
    /// let sig = SignatureBuilder::new(SigType::Binary, 1_700_000_000).sign_with(public, secret, digest_of)?;
    /// sig.verify_digest(public, &digest_of(&sig.hashed_fields()))?;
    /// assert!(sig.verify_digest(public, &Hasher::digest(HashAlg::Sha512, b"other")).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn verify_digest(&self, signer: &PublicKey, digest: &[u8]) -> Result<()> {
        self.verify_digest_paid(signer, digest, None)
    }

    /// [`Signature::verify_digest`], paying through `charge` (when given)
    /// once the checks that need no public-key operation pass.
    pub(crate) fn verify_digest_paid(
        &self,
        signer: &PublicKey,
        digest: &[u8],
        charge: Option<&Charge<'_>>,
    ) -> Result<()> {
        if self.unknown_critical().is_some() {
            return Err(bad("it has a critical subpacket that is not understood"));
        }
        let created = self.created().ok_or_else(|| bad("it has no creation time"))?;
        if signer.version().id() != self.version {
            return Err(bad("its version differs from its signer's key version"));
        }
        if self.pk_alg != signer.alg() {
            return Err(bad("its algorithm differs from its signer's"));
        }
        if self.hash_alg == HashAlg::Sha1 {
            let binding = !matches!(self.sig_type, SigType::Binary | SigType::Text | SigType::Other(_));
            if !binding || created >= SHA1_BINDING_CUTOFF {
                return Err(bad("SHA-1 is refused (except for key bindings made before 2023-02-01)"));
            }
        }
        if signer.alg().is_post_quantum() && self.hash_alg.digest_len() < 32 {
            return Err(bad("a post-quantum signature needs a digest of at least 256 bits (RFC 9980)"));
        }
        if digest.get(..2) != Some(&self.digest_prefix[..]) {
            return Err(bad("the digest does not match"));
        }
        if charge.is_some_and(|c| !c.pay_for(signer)) {
            return Err(bad("not checked: the budget for signature checks is spent"));
        }
        crypto::verify(signer.material(), self.hash_alg, digest, &self.material)
            .map_err(|_| bad("the signature does not verify"))
    }

    fn expect_type(&self, ok: bool) -> Result<()> {
        if ok { Ok(()) } else { Err(bad("unexpected signature type")) }
    }

    /// A direct key (0x1F) or key revocation (0x20) signature by `primary`.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// cert.direct_sigs[0].verify_direct_key(cert.primary.public())?;
    /// // Not by the subkey.
    /// assert!(cert.direct_sigs[0].verify_direct_key(cert.subkeys[0].key.public()).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn verify_direct_key(&self, primary: &PublicKey) -> Result<()> {
        self.verify_direct_key_paid(primary, None)
    }

    pub(crate) fn verify_direct_key_paid(&self, primary: &PublicKey, charge: Option<&Charge<'_>>) -> Result<()> {
        self.expect_type(matches!(self.sig_type, SigType::DirectKey | SigType::KeyRevocation))?;
        self.verify_digest_paid(primary, &direct_key_digest(&self.hashed_fields(), primary), charge)
    }

    /// A certification (0x10-0x13) or certification revocation (0x30) of
    /// `user_id` on `primary`, made by `primary`.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// let uid = &alice.user_ids[0];
    /// uid.sigs[0].verify_certification(alice.primary.public(), &uid.value)?;
    /// assert!(uid.sigs[0].verify_certification(alice.primary.public(), b"Mallory <m@example.org>").is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn verify_certification(&self, primary: &PublicKey, user_id: &[u8]) -> Result<()> {
        self.verify_certification_paid(primary, user_id, None)
    }

    pub(crate) fn verify_certification_paid(
        &self,
        primary: &PublicKey,
        user_id: &[u8],
        charge: Option<&Charge<'_>>,
    ) -> Result<()> {
        self.expect_type(matches!(self.sig_type, SigType::Certification(_) | SigType::CertificationRevocation))?;
        self.verify_digest_paid(primary, &certification_digest(&self.hashed_fields(), primary, user_id), charge)
    }

    /// A certification (0x10-0x13) or certification revocation (0x30) of
    /// `user_id` on `target`, made by another key `signer`.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let (alice, bob) = (generate(&GenerateOptions::default())?, generate(&GenerateOptions::default())?);
    /// let (signer, secret) = (alice.primary.public(), alice.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::Certification(0x10), 1_700_000_000)
    ///     .sign_third_party_certification(signer, secret, bob.primary.public(), b"Bob")?;
    /// sig.verify_third_party_certification(signer, bob.primary.public(), b"Bob")?;
    /// assert!(sig.verify_third_party_certification(signer, bob.primary.public(), b"Mallory").is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn verify_third_party_certification(
        &self,
        signer: &PublicKey,
        target: &PublicKey,
        user_id: &[u8],
    ) -> Result<()> {
        self.expect_type(matches!(self.sig_type, SigType::Certification(_) | SigType::CertificationRevocation))?;
        // A third party's certification needs collision resistance (the
        // 2020 SHA-1 chosen-prefix collision moved one to another key):
        // SHA-1 is refused here whatever its date, as Sequoia's policy does.
        if self.hash_alg == HashAlg::Sha1 {
            return Err(bad("SHA-1 is refused for third-party certifications"));
        }
        self.verify_digest_paid(signer, &certification_digest(&self.hashed_fields(), target, user_id), None)
    }

    /// A subkey binding (0x18) or subkey revocation (0x28) by `primary`.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let sub = &cert.subkeys[0];
    /// sub.sigs[0].verify_subkey_binding(cert.primary.public(), sub.key.public())?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn verify_subkey_binding(&self, primary: &PublicKey, subkey: &PublicKey) -> Result<()> {
        self.verify_subkey_binding_paid(primary, subkey, None)
    }

    pub(crate) fn verify_subkey_binding_paid(
        &self,
        primary: &PublicKey,
        subkey: &PublicKey,
        charge: Option<&Charge<'_>>,
    ) -> Result<()> {
        self.expect_type(matches!(self.sig_type, SigType::SubkeyBinding | SigType::SubkeyRevocation))?;
        if subkey.alg().is_post_quantum() && self.hash_alg == HashAlg::Sha1 {
            // RFC 9980 §7.2: whatever its date.
            return Err(bad("SHA-1 is refused for the binding of a post-quantum subkey"));
        }
        self.verify_digest_paid(primary, &binding_digest(&self.hashed_fields(), primary, subkey), charge)
    }

    /// A primary key binding (0x19, the back-signature embedded in a signing
    /// subkey's binding), made by `subkey`.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, generate as keypair};
    /// use tessera::openpgp::key::{GenerateOptions, KeyVersion, PublicKey, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let key = generate(&GenerateOptions::default())?;
    /// let primary = key.primary.public();
    /// // A signing subkey signs the primary key back.
    /// let (sub_public, sub_secret) = keypair(KeyType::Ed25519)?;
    /// let sub = PublicKey::new(KeyVersion::V6, 1_700_000_000, sub_public)?;
    /// let back = SignatureBuilder::new(SigType::PrimaryKeyBinding, 1_700_000_000).sign_primary_key_binding(primary, &sub, &sub_secret)?;
    /// back.verify_primary_key_binding(primary, &sub)?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn verify_primary_key_binding(&self, primary: &PublicKey, subkey: &PublicKey) -> Result<()> {
        self.verify_primary_key_binding_paid(primary, subkey, None)
    }

    pub(crate) fn verify_primary_key_binding_paid(
        &self,
        primary: &PublicKey,
        subkey: &PublicKey,
        charge: Option<&Charge<'_>>,
    ) -> Result<()> {
        self.expect_type(self.sig_type == SigType::PrimaryKeyBinding)?;
        self.verify_digest_paid(subkey, &binding_digest(&self.hashed_fields(), primary, subkey), charge)
    }

    /// Whether the signature has expired at `now` (or was made after it).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let sig = &key.direct_sigs[0];
    /// assert!(sig.is_live_at(1_700_000_000));
    /// assert!(!sig.is_live_at(1_699_999_999)); // made after that time
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn is_live_at(&self, now: u64) -> bool {
        let Some(created) = self.created() else { return false };
        if u64::from(created) > now {
            return false;
        }
        match self.sig_expiration() {
            Some(e) if e != 0 => now < u64::from(created) + u64::from(e),
            _ => true,
        }
    }
}
