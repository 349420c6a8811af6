//! Which keys of a certificate are valid at a given time, decided in this
//! one place (RFC 9580 §5.2.3.10, §10.1): self-signatures verified, the
//! newest live one winning; subkey bindings with the back-signature a
//! signing subkey needs; key flags; expiration; revocation.

use super::super::Result;
use super::super::crypto::PublicKeyAlg;
use super::super::sig::cost::Budget;
use super::super::sig::{SigType, Signature};
use super::check_cache::Rule;
use super::checks::Checker;
use super::valid::{ValidCert, ValidKey, flags};
use super::{Cert, CertKey, Fingerprint, KeyError, KeyVersion, PublicKey};

/// Flags a key without a key flags subpacket may have, by algorithm.
pub(super) fn implied_flags(alg: PublicKeyAlg, primary: bool) -> u8 {
    let mut f = 0;
    if alg.can_sign() {
        f |= flags::SIGN | if primary { flags::CERTIFY } else { 0 };
    }
    if alg.can_decrypt() {
        f |= flags::ENCRYPT;
    }
    f
}

fn expiry(key: &PublicKey, sig: &Signature) -> Option<u64> {
    match sig.key_expiration() {
        Some(e) if e != 0 => Some(u64::from(key.created()) + u64::from(e)),
        _ => None,
    }
}

/// Whether a revocation applies at `at`: hard ones (no reason, compromised,
/// or unknown codes) always; soft ones (superseded 1, retired 3, User ID no
/// longer valid 32) from their creation on.
fn revocation_applies(sig: &Signature, at: u64) -> bool {
    match sig.revocation_reason() {
        Some((1 | 3 | 32, _)) => sig.created().is_some_and(|c| u64::from(c) <= at),
        _ => true,
    }
}

/// Signatures of `sigs` worth checking: of an accepted type, naming no
/// issuer other than `issuer`, newest first (in reverse order of appearance
/// among equal times); the validation's check budget bounds the work.
fn candidates<'s>(
    sigs: &'s [Signature],
    issuer: &Fingerprint,
    accept: impl Fn(&Signature) -> bool,
) -> impl Iterator<Item = &'s Signature> {
    let mut c: Vec<&Signature> = sigs.iter().rev().filter(|s| accept(s) && s.may_be_issued_by(issuer)).collect();
    c.sort_by_key(|s| std::cmp::Reverse(s.created()));
    c.into_iter()
}

/// The newest signature of `sigs` of an accepted type that is live at `at`
/// and verifies.
fn newest_valid<'s>(
    sigs: &'s [Signature],
    at: u64,
    key: &PublicKey,
    issuer: &Fingerprint,
    accept: impl Fn(&Signature) -> bool,
    verify: impl Fn(&Signature) -> bool,
) -> Option<&'s Signature> {
    let key_created = key.created();
    let usable = |s: &Signature| accept(s) && s.is_live_at(at) && s.created().is_some_and(|c| c >= key_created);
    candidates(sigs, issuer, usable).find(|s| verify(s))
}

/// A revocation of type `ty` in `sigs` that applies at `at` and verifies.
fn revoked<'s>(
    sigs: &'s [Signature],
    at: u64,
    ty: SigType,
    issuer: &Fingerprint,
    verify: impl Fn(&Signature) -> bool,
) -> Option<&'s Signature> {
    candidates(sigs, issuer, |s| s.sig_type() == ty && revocation_applies(s, at)).find(|s| verify(s))
}

impl Cert {
    /// How many public-key checks of self-signatures [`Cert::validate`]
    /// has run on this certificate (outcomes are cached by content, so
    /// validating again adds none).
    ///
    /// ```
    /// use tessera::openpgp::key::{generate, GenerateOptions};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
    /// key.validate(1_700_000_100).unwrap();
    /// let checks = key.signature_checks();
    /// assert!(checks > 0);
    /// key.validate(1_700_000_200).unwrap();
    /// assert_eq!(key.signature_checks(), checks);
    /// ```
    pub fn signature_checks(&self) -> u64 {
        self.checked.checks()
    }

    /// Whether `key` (this certificate's primary key or one of its
    /// subkeys) may decrypt: its newest verifying self-signature (binding
    /// for a subkey; direct key or certification for the primary), at any
    /// time, grants either encryption flag (or, without key flags, its
    /// algorithm can encrypt). Expiry and revocation do not matter here:
    /// what was sent to a key stays readable with it, as with every peer.
    ///
    /// ```
    /// use tessera::openpgp::key::{generate, GenerateOptions};
    /// let key = generate(&GenerateOptions::default()).unwrap();
    /// assert!(key.may_decrypt_with(&key.subkeys[0].key));
    /// assert!(!key.may_decrypt_with(&key.primary));
    /// ```
    pub fn may_decrypt_with(&self, key: &CertKey) -> bool {
        let pk = self.primary.public();
        let fp = pk.fingerprint();
        let sub = key.public();
        let checker = Checker::new(self, None);
        let made_after = |s: &Signature| s.created().is_some_and(|c| c >= sub.created());
        let grants = |s: &Signature, primary: bool| {
            s.key_flags().unwrap_or_else(|| implied_flags(sub.alg(), primary)) & flags::ENCRYPT != 0
        };
        if sub.fingerprint() == fp {
            let newest_direct = candidates(&self.direct_sigs, &fp, |s| {
                s.sig_type() == SigType::DirectKey && made_after(s)
            })
            .find(|s| checker.verified(Rule::DirectKey, pk, &[], s, |c| s.verify_direct_key_paid(pk, Some(c)).is_ok()));
            let certified = self.user_ids.iter().filter_map(|uid| {
                candidates(&uid.sigs, &fp, |s| matches!(s.sig_type(), SigType::Certification(_)) && made_after(s)).find(
                    |s| {
                        checker.verified(Rule::Certification, pk, &uid.value, s, |c| {
                            s.verify_certification_paid(pk, &uid.value, Some(c)).is_ok()
                        })
                    },
                )
            });
            return newest_direct
                .into_iter()
                .chain(certified)
                .max_by_key(|s| s.created())
                .is_some_and(|s| grants(s, true));
        }
        let Some(sk) = self.subkeys.iter().find(|s| s.key.public().fingerprint() == sub.fingerprint()) else {
            return false;
        };
        candidates(&sk.sigs, &fp, |s| s.sig_type() == SigType::SubkeyBinding && made_after(s))
            .find(|s| {
                checker.verified(Rule::SubkeyBinding, pk, sub.body(), s, |c| {
                    s.verify_subkey_binding_paid(pk, sub, Some(c)).is_ok()
                })
            })
            .is_some_and(|s| grants(s, false))
    }

    /// The keys that claim to sign, judged without any public-key
    /// operation: the primary key if its algorithm signs; each subkey with a
    /// binding signature that grants signing (or, without key flags, whose
    /// algorithm signs) and embeds a back-signature. Never a bare subkey.
    /// The cheap filter before checking a signature that names no issuer;
    /// [`Cert::validate`] decides.
    ///
    /// ```
    /// use tessera::openpgp::key::{generate, GenerateOptions};
    /// let key = generate(&GenerateOptions::default()).unwrap();
    /// let claimed: Vec<_> = key.keys_claiming_to_sign().map(|k| k.fingerprint()).collect();
    /// assert_eq!(claimed, [key.fingerprint()]); // the subkey only encrypts
    /// ```
    pub fn keys_claiming_to_sign(&self) -> impl Iterator<Item = &PublicKey> {
        let primary = self.primary.public();
        let subkeys = self.subkeys.iter().filter(|sk| {
            let alg = sk.key.public().alg();
            sk.sigs.iter().any(|s| {
                s.sig_type() == SigType::SubkeyBinding
                    && s.key_flags().unwrap_or_else(|| implied_flags(alg, false)) & flags::SIGN != 0
                    && s.embedded_signatures().next().is_some()
            })
        });
        primary.alg().can_sign().then_some(primary).into_iter().chain(subkeys.map(|sk| sk.key.public()))
    }

    /// Decides what of this certificate is valid at `at` (seconds since the
    /// epoch). An error names the certificate and why it is unusable:
    /// revoked, expired, or without a valid self-signature.
    ///
    /// ```
    /// use tessera::openpgp::Error;
    /// use tessera::openpgp::key::{Cert, KeyError};
    /// # let a1_key = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a1_v4_ed25519legacy.asc"));
    /// let bare = Cert::from_bytes(a1_key)?; // RFC 9580 A.1
    /// // RFC 9580 A.1 is a bare key packet: no self-signature, so not valid.
    /// assert!(matches!(bare.validate(1_717_200_000), Err(Error::Key(KeyError::NoValidSelfSignature { .. }))));
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// assert!(cert.validate(1_717_200_000)?.user_id.is_none()); // a v6 key needs no User ID
    /// # Ok::<(), Error>(())
    /// ```
    pub fn validate(&self, at: u64) -> Result<ValidCert<'_>> {
        self.validate_in(at, None)
    }

    /// [`Cert::validate`], its checks also paid from `message` (the budget
    /// of the message whose signatures need this validation) when given.
    pub(crate) fn validate_in(&self, at: u64, message: Option<&Budget>) -> Result<ValidCert<'_>> {
        let pk = self.primary.public();
        pk.material().require_size()?;
        let fp = pk.fingerprint();
        let checker = Checker::new(self, message);
        let direct_ok = |s: &Signature| {
            checker.verified(Rule::DirectKey, pk, &[], s, |c| s.verify_direct_key_paid(pk, Some(c)).is_ok())
        };
        // Bindings first, revocations after, each from its own budget.
        let direct = newest_valid(&self.direct_sigs, at, pk, &fp, |s| s.sig_type() == SigType::DirectKey, direct_ok);
        let (best, revoked_uid_sig) = self.primary_user_id(&checker, at);
        // v6 keys take their properties from the direct key signature, v4
        // keys from the primary User ID's (RFC 9580 §5.2.3.10); revoking a
        // User ID does not revoke the key, so with every User ID revoked the
        // newest of their certifications still binds it.
        let uid_sig = best.map(|(_, s)| s).or(revoked_uid_sig);
        let self_sig = match pk.version() {
            KeyVersion::V6 => direct.or(uid_sig),
            KeyVersion::V4 => uid_sig.or(direct),
        };
        if let Some(r) = revoked(&self.direct_sigs, at, SigType::KeyRevocation, &fp, direct_ok) {
            let reason = r
                .revocation_reason()
                .map(|(c, t)| format!(": reason {c}: {}", crate::openpgp::inspect::escape(t)))
                .unwrap_or_default();
            return Err(KeyError::Revoked { fingerprint: fp, reason }.into());
        }
        let self_sig = self_sig.ok_or(KeyError::NoValidSelfSignature {
            fingerprint: fp,
            why: "no live, verifying self-signature at this time",
        })?;
        // The key's expiry comes from the governing self-signature (the
        // newest live one, so a renewal makes an expired key valid again),
        // or, when that one has no Key Expiration Time subpacket, from the
        // direct key signature, as Sequoia reads it.
        let governing = match direct {
            Some(d) if self_sig.key_expiration().is_none() => d,
            _ => self_sig,
        };
        let expires = expiry(pk, governing);
        if let Some(e) = expires
            && e <= at
        {
            return Err(KeyError::Expired { fingerprint: fp, expired_at: e }.into());
        }
        if u64::from(pk.created()) > at {
            return Err(
                KeyError::NoValidSelfSignature { fingerprint: fp, why: "the key was created after this time" }.into()
            );
        }
        let primary_flags = self_sig.key_flags().unwrap_or_else(|| implied_flags(pk.alg(), true));
        let mut subkeys = Vec::new();
        let mut refused = Vec::new();
        for sk in &self.subkeys {
            match self.validate_subkey(&checker, sk, at, expires) {
                Ok(v) => subkeys.push(v),
                Err(why) => refused.push((sk.key.public().fingerprint(), why)),
            }
        }
        Ok(ValidCert {
            cert: self,
            at,
            primary: ValidKey { key: &self.primary, flags: primary_flags, expires },
            subkeys,
            self_sig,
            user_id: best.map(|(u, _)| u),
            refused,
        })
    }

    /// The primary User ID at `at` and its certification: among User IDs
    /// with a live, verified, unrevoked certification, the one flagged
    /// primary, else the newest. Beside it, the newest live, verified
    /// certification of a revoked User ID.
    fn primary_user_id(&self, checker: &Checker<'_>, at: u64) -> (Option<(&[u8], &Signature)>, Option<&Signature>) {
        let pk = self.primary.public();
        let fp = pk.fingerprint();
        let mut best: Option<(&[u8], &Signature)> = None;
        let mut revoked: Option<&Signature> = None;
        for uid in &self.user_ids {
            let verify = |s: &Signature| {
                checker.verified(Rule::Certification, pk, &uid.value, s, |c| {
                    s.verify_certification_paid(pk, &uid.value, Some(c)).is_ok()
                })
            };
            let certification = |s: &Signature| matches!(s.sig_type(), SigType::Certification(_));
            let Some(cert) = newest_valid(&uid.sigs, at, pk, &fp, certification, verify) else { continue };
            let better = match best {
                None => true,
                Some((_, b)) => (cert.primary_user_id(), cert.created()) > (b.primary_user_id(), b.created()),
            };
            let revocation = |s: &Signature| {
                s.sig_type() == SigType::CertificationRevocation
                    && s.created() >= cert.created()
                    && revocation_applies(s, at)
            };
            if !better {
                continue;
            }
            if candidates(&uid.sigs, &fp, revocation).any(verify) {
                if revoked.is_none_or(|r| cert.created() > r.created()) {
                    revoked = Some(cert);
                }
            } else {
                best = Some((&uid.value, cert));
            }
        }
        (best, revoked)
    }

    fn validate_subkey<'a>(
        &'a self,
        checker: &Checker<'_>,
        sk: &'a super::Subkey,
        at: u64,
        primary_expires: Option<u64>,
    ) -> std::result::Result<ValidKey<'a>, &'static str> {
        let pk = self.primary.public();
        let sub = sk.key.public();
        if sub.version() != pk.version() {
            return Err("its version differs from the primary key's");
        }
        if sub.material().require_size().is_err() {
            return Err("too small (RSA, DSA and Elgamal keys need 2048 bits)");
        }
        let fp = pk.fingerprint();
        let verify = |s: &Signature| {
            checker.verified(Rule::SubkeyBinding, pk, sub.body(), s, |c| {
                s.verify_subkey_binding_paid(pk, sub, Some(c)).is_ok()
            })
        };
        let binding = newest_valid(&sk.sigs, at, sub, &fp, |s| s.sig_type() == SigType::SubkeyBinding, verify);
        if revoked(&sk.sigs, at, SigType::SubkeyRevocation, &fp, verify).is_some() {
            return Err("revoked");
        }
        let binding = binding.ok_or("no live, verifying binding signature at this time")?;
        let f = binding.key_flags().unwrap_or_else(|| implied_flags(sub.alg(), false));
        if f & (flags::SIGN | flags::CERTIFY) != 0 {
            let back = binding
                .embedded_signatures()
                .filter_map(|r| r.ok())
                .filter(|b| b.sig_type() == SigType::PrimaryKeyBinding && b.is_live_at(at))
                .any(|b| {
                    checker.verified(Rule::PrimaryKeyBinding, sub, pk.body(), &b, |c| {
                        b.verify_primary_key_binding_paid(pk, sub, Some(c)).is_ok()
                    })
                });
            if !back {
                return Err("a signing subkey without a live, valid primary key binding (back-signature)");
            }
        }
        let expires = expiry(sub, binding).into_iter().chain(primary_expires).min();
        if expires.is_some_and(|e| e <= at) {
            return Err("expired");
        }
        Ok(ValidKey { key: &sk.key, flags: f, expires })
    }
}
