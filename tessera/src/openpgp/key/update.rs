//! Keeping a secret key up to date (SOP's `update-key`): self-signatures
//! made again where they use SHA-1, are about to expire, or must carry a
//! new expiry; SEIPD v2 announced on v6 keys and an encryption subkey added
//! when missing, unless capabilities may not be added.

use super::super::crypto::{self, HashAlg, KeyType, PublicKeyAlg, SecretMaterial};
use super::super::sig::{SigType, Signature, SignatureBuilder, Subpacket, SubpacketValue};
use super::super::{Error, Result};
use super::valid::{features, flags};
use super::{Cert, CertKey, KeyError, KeyVersion, PublicKey, SecretKey, Subkey};

/// A self-signature that expires sooner than this (seconds) is made again.
///
/// ```
/// use tessera::openpgp::key::REFRESH_MARGIN;
/// assert_eq!(REFRESH_MARGIN, 30 * 86_400); // 30 days
/// ```
pub const REFRESH_MARGIN: u32 = 30 * 86_400;

/// What to do with the key's expiry.
///
/// ```
/// use tessera::openpgp::key::ExpiryChange;
/// assert_eq!(ExpiryChange::default(), ExpiryChange::Keep);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExpiryChange {
    /// Keep the expiry each self-signature states.
    #[default]
    Keep,
    /// The key and its subkeys never expire.
    Never,
    /// The key and its subkeys expire this many seconds after the update.
    After(u32),
}

/// How [`Cert::update`] updates a key.
///
/// ```
/// use tessera::openpgp::key::UpdateOptions;
/// let opts = UpdateOptions::default();
/// assert!(opts.add_capabilities && !opts.signing_only);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct UpdateOptions {
    /// When the update is made (seconds since the epoch).
    pub at: u32,
    /// The key is for signing only: no encryption subkey is added.
    pub signing_only: bool,
    /// Capabilities the key lacks may be added (SOP's update-key without
    /// `--no-added-capabilities`): SEIPD v2 on a v6 key, an encryption
    /// subkey when none is valid.
    pub add_capabilities: bool,
    /// The expiry.
    pub expiry: ExpiryChange,
}

impl Default for UpdateOptions {
    fn default() -> Self {
        UpdateOptions { at: 0, signing_only: false, add_capabilities: true, expiry: ExpiryChange::Keep }
    }
}

/// The newest signature of `sigs` of type `ty` made by `at` that passes
/// `verify`, unless a revocation of type `revocation` passing `verify` was
/// made at or after it.
fn current(
    sigs: &[Signature],
    ty: impl Fn(SigType) -> bool,
    revocation: SigType,
    at: u32,
    verify: impl Fn(&Signature) -> bool,
) -> Option<&Signature> {
    let newest = sigs
        .iter()
        .rev()
        .filter(|s| ty(s.sig_type()) && s.created().is_some_and(|c| c <= at) && verify(s))
        .max_by_key(|s| s.created())?;
    let revoked = sigs.iter().any(|r| r.sig_type() == revocation && r.created() >= newest.created() && verify(r));
    (!revoked).then_some(newest)
}

/// Adds `new`, the replacement of `old` (one of `sigs`, of which `out` is
/// a copy with signatures appended), to `out`. Made in the same second as
/// `old`, it takes `old`'s place: two self-signatures of one time leave
/// readers to choose between them.
fn replace(out: &mut Vec<Signature>, sigs: &[Signature], old: &Signature, new: Signature) {
    let at = sigs.iter().position(|s| std::ptr::eq(s, old));
    match at {
        Some(i) if old.created() == new.created() => out[i] = new,
        _ => out.push(new),
    }
}

/// What a refreshed self-signature changes.
struct Refresh {
    at: u32,
    /// The key expiration value (seconds after the key's creation; 0:
    /// never), or `None` to keep the old one.
    key_expiration: Option<u32>,
    /// Feature bits to add.
    add_features: u8,
}

impl Refresh {
    /// Whether `old` must be made again.
    fn needed(&self, old: &Signature) -> bool {
        let expiring = old.sig_expiration().is_some_and(|e| {
            e != 0
                && u64::from(old.created().unwrap_or(0)) + u64::from(e) < u64::from(self.at) + u64::from(REFRESH_MARGIN)
        });
        let missing_features =
            self.add_features != 0 && old.features().unwrap_or(0) & self.add_features != self.add_features;
        self.key_expiration.is_some() || old.hash_alg() == HashAlg::Sha1 || expiring || missing_features
    }

    /// A builder for the signature that replaces `old`: its hashed
    /// subpackets but the creation time, issuer, signature expiration and
    /// embedded signatures, with the new expiry and features.
    fn builder(&self, old: &Signature) -> SignatureBuilder {
        let mut b = SignatureBuilder::new(old.sig_type(), self.at);
        let mut had_features = false;
        for sp in old.hashed() {
            let value = match &sp.value {
                SubpacketValue::CreationTime(_)
                | SubpacketValue::SigExpiration(_)
                | SubpacketValue::Issuer(_)
                | SubpacketValue::IssuerFingerprint(_)
                | SubpacketValue::EmbeddedSignature(_) => continue,
                SubpacketValue::KeyExpiration(_) if self.key_expiration.is_some() => continue,
                SubpacketValue::Features(f) => {
                    had_features = true;
                    let mut f = f.clone();
                    f.resize(f.len().max(1), 0);
                    f[0] |= self.add_features;
                    SubpacketValue::Features(f)
                }
                v => v.clone(),
            };
            b = b.subpacket(Subpacket { value, ..sp.clone() });
        }
        if !had_features && self.add_features != 0 {
            b = b.subpacket(Subpacket::new(SubpacketValue::Features(vec![self.add_features])));
        }
        match self.key_expiration {
            Some(e) if e != 0 => b.subpacket(Subpacket::new(SubpacketValue::KeyExpiration(e))),
            _ => b,
        }
    }
}

/// The key expiration value for `key` under `change` at `at`.
fn key_expiration(key: &PublicKey, change: ExpiryChange, at: u32) -> Option<u32> {
    match change {
        ExpiryChange::Keep => None,
        ExpiryChange::Never => Some(0),
        ExpiryChange::After(s) => Some(at.saturating_sub(key.created()).saturating_add(s).max(1)),
    }
}

impl Cert {
    /// Updates this secret key at `opts.at` (see [`UpdateOptions`]): the
    /// current self-signature of the primary key, of each unrevoked User ID
    /// and of each unrevoked subkey is made again when it uses SHA-1,
    /// expires within [`REFRESH_MARGIN`], or a new expiry is asked for. A
    /// key with nothing to update comes back unchanged. A revoked primary
    /// key, or one expired without a new expiry, is
    /// [`KeyError::PrimaryKeyBad`]; a locked key is [`KeyError::Locked`].
    ///
    /// ```
    /// use tessera::openpgp::key::{ExpiryChange, GenerateOptions, UpdateOptions, generate};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), expires_in: Some(3600), ..Default::default() })?;
    /// let opts = UpdateOptions { at: 1_700_001_000, ..Default::default() };
    /// // Nothing to do: the same key.
    /// assert_eq!(*key.update(&opts)?.to_bytes()?, *key.to_bytes()?);
    /// // One more year.
    /// let longer = key.update(&UpdateOptions { expiry: ExpiryChange::After(365 * 86_400), ..opts })?;
    /// assert_eq!(longer.validate(1_700_001_000)?.primary.expires, Some(1_700_001_000 + 365 * 86_400));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn update(&self, opts: &UpdateOptions) -> Result<Cert> {
        let (pk, secret) = self.primary_signer()?;
        self.check_primary_for_update(opts)?;
        let add_features =
            if opts.add_capabilities && self.version() == KeyVersion::V6 { features::SEIPD_V2 } else { 0 };
        let refresh = Refresh { at: opts.at, key_expiration: key_expiration(pk, opts.expiry, opts.at), add_features };
        let mut out = self.clone();
        let is = |t: SigType| move |s: SigType| s == t;
        let direct_ok = |s: &Signature| s.verify_direct_key(pk).is_ok();
        if let Some(old) =
            current(&self.direct_sigs, is(SigType::DirectKey), SigType::KeyRevocation, opts.at, direct_ok)
            && refresh.needed(old)
        {
            let new = refresh.builder(old).sign_direct_key(pk, secret)?;
            replace(&mut out.direct_sigs, &self.direct_sigs, old, new);
        }
        let uid_refresh = Refresh { add_features: 0, ..refresh };
        for (i, u) in self.user_ids.iter().enumerate() {
            let ok = |s: &Signature| s.verify_certification(pk, &u.value).is_ok();
            let certification = |t: SigType| matches!(t, SigType::Certification(_));
            let revocation = SigType::CertificationRevocation;
            if let Some(old) =
                current(&u.sigs, certification, revocation, opts.at, |s| s.may_be_issued_by(&pk.fingerprint()) && ok(s))
                && uid_refresh.needed(old)
            {
                let new = uid_refresh.builder(old).sign_certification(pk, secret, &u.value)?;
                replace(&mut out.user_ids[i].sigs, &u.sigs, old, new);
            }
        }
        for (i, sk) in self.subkeys.iter().enumerate() {
            let sub = sk.key.public();
            let sub_refresh =
                Refresh { key_expiration: key_expiration(sub, opts.expiry, opts.at), add_features: 0, ..refresh };
            let ok = |s: &Signature| s.verify_subkey_binding(pk, sub).is_ok();
            if let Some(old) = current(&sk.sigs, is(SigType::SubkeyBinding), SigType::SubkeyRevocation, opts.at, ok)
                && sub_refresh.needed(old)
            {
                let b = with_back_signature(sub_refresh.builder(old), old, pk, sk, opts.at)?;
                replace(&mut out.subkeys[i].sigs, &sk.sigs, old, b.sign_subkey_binding(pk, secret, sub)?);
            }
        }
        if opts.add_capabilities && !opts.signing_only {
            out.add_encryption_subkey_if_missing(opts.at)?;
        }
        Ok(out)
    }

    /// Refuses a revoked primary key, or one expired while the expiry is
    /// kept.
    fn check_primary_for_update(&self, opts: &UpdateOptions) -> Result<()> {
        let bad = |why: String| Error::Key(KeyError::PrimaryKeyBad { fingerprint: self.fingerprint(), why });
        match self.validate(u64::from(opts.at)) {
            Ok(_) => Ok(()),
            Err(Error::Key(KeyError::Expired { .. })) if opts.expiry != ExpiryChange::Keep => Ok(()),
            Err(Error::Key(KeyError::Expired { expired_at, .. })) => {
                Err(bad(format!("it expired at {expired_at} (Unix time); give a new expiry")))
            }
            Err(e) => Err(bad(e.to_string())),
        }
    }

    /// Adds an encryption subkey (X25519 on v6 keys, ECDH Curve25519Legacy
    /// on v4 keys, the ML-KEM of its level under a post-quantum primary key)
    /// made at `at`, expiring with the primary key, when no key of this
    /// certificate can encrypt at `at`.
    fn add_encryption_subkey_if_missing(&mut self, at: u32) -> Result<()> {
        let valid = self.validate(u64::from(at))?;
        if !valid.encryption_keys().is_empty() {
            return Ok(());
        }
        let expires = valid.primary.expires.map(|e| e.saturating_sub(u64::from(at)).min(u64::from(u32::MAX)) as u32);
        let kind = match (self.version(), self.primary.public().alg()) {
            (KeyVersion::V6, PublicKeyAlg::MlDsa65Ed25519) => KeyType::MlKem768X25519,
            (KeyVersion::V6, PublicKeyAlg::MlDsa87Ed448) => KeyType::MlKem1024X448,
            (KeyVersion::V6, _) => KeyType::X25519,
            (KeyVersion::V4, _) => KeyType::EcdhCurve25519Legacy,
        };
        let (material, sub_secret) = crypto::generate(kind)?;
        let sub = PublicKey::new(self.version(), at, material)?;
        let (pk, secret) = self.primary_signer()?;
        let b = super::generate::encryption_subkey_binding(at, expires.map(|e| e.max(1)));
        let binding = b.sign_subkey_binding(pk, secret, &sub)?;
        let key = CertKey::Secret(SecretKey::from_parts(sub, sub_secret, true));
        self.subkeys.push(Subkey { key, sigs: vec![binding] });
        Ok(())
    }
}

/// `b` with the back-signature a signing subkey's binding needs: the old
/// binding's, unless it uses SHA-1 or is missing; then one made at `at`
/// with the subkey's secret.
fn with_back_signature(
    b: SignatureBuilder,
    old: &Signature,
    primary: &PublicKey,
    sk: &Subkey,
    at: u32,
) -> Result<SignatureBuilder> {
    let sub = sk.key.public();
    let f = old.key_flags().unwrap_or_else(|| super::validity::implied_flags(sub.alg(), false));
    if f & (flags::SIGN | flags::CERTIFY) == 0 {
        return Ok(b);
    }
    let reusable = old.embedded_signatures().filter_map(|r| r.ok()).find(|e| {
        e.sig_type() == SigType::PrimaryKeyBinding
            && e.hash_alg() != HashAlg::Sha1
            && e.verify_primary_key_binding(primary, sub).is_ok()
    });
    let back = match reusable {
        Some(e) => e,
        None => {
            let secret: &SecretMaterial =
                sk.key.secret().ok_or(Error::Key(KeyError::NoSecret(sub.fingerprint())))?.secret()?;
            SignatureBuilder::new(SigType::PrimaryKeyBinding, at).sign_primary_key_binding(primary, sub, secret)?
        }
    };
    Ok(b.subpacket(Subpacket::new(SubpacketValue::EmbeddedSignature(back.to_bytes()))))
}
