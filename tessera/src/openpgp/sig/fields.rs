//! Typed access to the subpackets of a [`Signature`] (RFC 9580 §5.2.3.7 and
//! following): creation and expiration times, key flags, preferences,
//! issuers, intended recipients, embedded signatures, critical bits.

use super::super::Result;
use super::super::key::{Fingerprint, KeyId};
use super::packet::Signature;
use super::subpacket::{Subpacket, SubpacketValue};

impl Signature {
    /// Subpackets of the hashed area (covered by the signature).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::SubpacketValue;
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let first = &key.direct_sigs[0].hashed()[0];
    /// assert_eq!((first.critical, &first.value), (true, &SubpacketValue::CreationTime(1_700_000_000)));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn hashed(&self) -> &[Subpacket] {
        &self.hashed
    }
    /// Subpackets of the unhashed area (not covered: hints only).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, KeyProfile, generate};
    /// use tessera::openpgp::sig::SubpacketValue;
    /// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
    /// let key = generate(&opts)?;
    /// // v4 signatures carry the issuer key ID as an unhashed hint.
    /// let unhashed = key.user_ids[0].sigs[0].unhashed();
    /// assert!(matches!(unhashed[0].value, SubpacketValue::Issuer(id) if id == key.fingerprint().key_id()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn unhashed(&self) -> &[Subpacket] {
        &self.unhashed
    }

    fn find_hashed<T>(&self, f: impl Fn(&SubpacketValue) -> Option<T>) -> Option<T> {
        self.hashed.iter().rev().find_map(|s| f(&s.value))
    }

    /// Signature creation time (hashed area); every valid signature has one.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// assert_eq!(key.direct_sigs[0].created(), Some(1_700_000_000));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn created(&self) -> Option<u32> {
        self.find_hashed(|v| if let SubpacketValue::CreationTime(t) = v { Some(*t) } else { None })
    }
    /// Signature expiration: seconds after creation, `None` or 0 for never.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000)
    ///     .subpacket(Subpacket::new(SubpacketValue::SigExpiration(60)))
    ///     .sign_direct_key(public, secret)?;
    /// assert_eq!(sig.sig_expiration(), Some(60));
    /// assert!(sig.is_live_at(1_700_000_059) && !sig.is_live_at(1_700_000_060));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn sig_expiration(&self) -> Option<u32> {
        self.find_hashed(|v| if let SubpacketValue::SigExpiration(t) = v { Some(*t) } else { None })
    }
    /// Key expiration: seconds after the key's creation, `None` or 0 for never.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions { expires_in: Some(86_400), ..Default::default() })?;
    /// assert_eq!(key.direct_sigs[0].key_expiration(), Some(86_400));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn key_expiration(&self) -> Option<u32> {
        self.find_hashed(|v| if let SubpacketValue::KeyExpiration(t) = v { Some(*t) } else { None })
    }
    /// The first octet of the key flags subpacket, if present.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, flags, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert_eq!(key.direct_sigs[0].key_flags(), Some(flags::CERTIFY | flags::SIGN));
    /// assert_eq!(key.subkeys[0].sigs[0].key_flags(), Some(flags::ENCRYPT));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn key_flags(&self) -> Option<u8> {
        self.find_hashed(
            |v| if let SubpacketValue::KeyFlags(f) = v { Some(f.first().copied().unwrap_or(0)) } else { None },
        )
    }
    /// The first octet of the features subpacket, if present.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, features, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert_eq!(key.direct_sigs[0].features(), Some(features::SEIPD_V1 | features::SEIPD_V2));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn features(&self) -> Option<u8> {
        self.find_hashed(
            |v| if let SubpacketValue::Features(f) = v { Some(f.first().copied().unwrap_or(0)) } else { None },
        )
    }
    /// Preferred symmetric ciphers (SEIPD v1).
    ///
    /// ```
    /// use tessera::openpgp::SymAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert_eq!(key.direct_sigs[0].preferred_symmetric(), Some(&[SymAlg::Aes256.id(), SymAlg::Aes128.id()][..]));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn preferred_symmetric(&self) -> Option<&[u8]> {
        self.hashed.iter().rev().find_map(|s| match &s.value {
            SubpacketValue::PreferredSymmetric(p) => Some(p.as_slice()),
            _ => None,
        })
    }
    /// Preferred AEAD ciphersuites (SEIPD v2).
    ///
    /// ```
    /// use tessera::aead::Mode;
    /// use tessera::openpgp::SymAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let first = key.direct_sigs[0].preferred_aead().and_then(|p| p.first().copied());
    /// assert_eq!(first, Some((SymAlg::Aes256.id(), Mode::Ocb.id())));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn preferred_aead(&self) -> Option<&[(u8, u8)]> {
        self.hashed.iter().rev().find_map(|s| match &s.value {
            SubpacketValue::PreferredAead(p) => Some(p.as_slice()),
            _ => None,
        })
    }
    /// Preferred hash algorithms.
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert_eq!(key.direct_sigs[0].preferred_hash(), Some(&[HashAlg::Sha512.id(), HashAlg::Sha256.id()][..]));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn preferred_hash(&self) -> Option<&[u8]> {
        self.hashed.iter().rev().find_map(|s| match &s.value {
            SubpacketValue::PreferredHash(p) => Some(p.as_slice()),
            _ => None,
        })
    }
    /// Whether the primary User ID flag is set.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let uids = vec!["A <a@example.org>".into(), "A <a@example.net>".into()];
    /// let key = generate(&GenerateOptions { user_ids: uids, ..Default::default() })?;
    /// assert!(key.user_ids[0].sigs[0].primary_user_id());
    /// assert!(!key.user_ids[1].sigs[0].primary_user_id());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn primary_user_id(&self) -> bool {
        self.find_hashed(|v| if let SubpacketValue::PrimaryUserId(p) = v { Some(*p) } else { None }).unwrap_or(false)
    }
    /// Reason for revocation (code, text), if given.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let reason = SubpacketValue::RevocationReason { code: 3, text: b"retired".to_vec() };
    /// let revocation = SignatureBuilder::new(SigType::KeyRevocation, 1_700_000_000)
    ///     .subpacket(Subpacket::new(reason))
    ///     .sign_direct_key(public, secret)?;
    /// assert_eq!(revocation.revocation_reason(), Some((3, &b"retired"[..])));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn revocation_reason(&self) -> Option<(u8, &[u8])> {
        self.hashed.iter().rev().find_map(|s| match &s.value {
            SubpacketValue::RevocationReason { code, text } => Some((*code, text.as_slice())),
            _ => None,
        })
    }
    /// Intended recipient fingerprints (hashed area).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// let opts = GenerateOptions { created: Some(1_700_000_000), ..Default::default() };
    /// let (alice, bob) = (generate(&opts)?, generate(&opts)?);
    /// let mut signer = Signer::new(&SigningKey::from_cert(&alice, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// signer.intended_recipient(bob.fingerprint());
    /// let sig = signer.finish()?.remove(0);
    /// assert_eq!(sig.intended_recipients().collect::<Vec<_>>(), [&bob.fingerprint()]);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn intended_recipients(&self) -> impl Iterator<Item = &Fingerprint> {
        self.hashed.iter().filter_map(|s| match &s.value {
            SubpacketValue::IntendedRecipient(fp) => Some(fp),
            _ => None,
        })
    }
    /// Signer's User ID, if given.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000)
    ///     .subpacket(Subpacket::new(SubpacketValue::SignersUserId(b"alice@example.org".to_vec())))
    ///     .sign_direct_key(public, secret)?;
    /// assert_eq!(sig.signers_user_id(), Some(&b"alice@example.org"[..]));
    /// assert_eq!(key.direct_sigs[0].signers_user_id(), None);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn signers_user_id(&self) -> Option<&[u8]> {
        self.hashed.iter().rev().find_map(|s| match &s.value {
            SubpacketValue::SignersUserId(u) => Some(u.as_slice()),
            _ => None,
        })
    }

    /// Embedded signatures (either area: they verify by themselves).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let inner = key.direct_sigs[0].clone();
    /// let outer = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000)
    ///     .unhashed_subpacket(Subpacket::new(SubpacketValue::EmbeddedSignature(inner.to_bytes())))
    ///     .sign_direct_key(public, secret)?;
    /// let embedded: Vec<_> = outer.embedded_signatures().collect::<Result<_, _>>()?;
    /// assert_eq!(embedded, [inner]);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn embedded_signatures(&self) -> impl Iterator<Item = Result<Signature>> + '_ {
        self.hashed.iter().chain(&self.unhashed).filter_map(|s| match &s.value {
            SubpacketValue::EmbeddedSignature(b) => Some(Signature::parse(b)),
            _ => None,
        })
    }

    /// Issuer fingerprints named in either area (unhashed ones are hints).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let issuers: Vec<_> = key.subkeys[0].sigs[0].issuer_fingerprints().collect();
    /// assert_eq!(issuers, [&key.fingerprint()]); // the primary key binds the subkey
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn issuer_fingerprints(&self) -> impl Iterator<Item = &Fingerprint> {
        self.hashed.iter().chain(&self.unhashed).filter_map(|s| match &s.value {
            SubpacketValue::IssuerFingerprint(fp) => Some(fp),
            _ => None,
        })
    }

    /// Issuer key IDs named in either area, including those of issuer
    /// fingerprints.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// let ids: Vec<String> = alice.user_ids[0].sigs[0].issuer_key_ids().map(|id| id.to_string()).collect();
    /// assert!(ids.contains(&"F231550C4F47E38E".to_string()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn issuer_key_ids(&self) -> impl Iterator<Item = KeyId> + '_ {
        self.hashed.iter().chain(&self.unhashed).filter_map(|s| match &s.value {
            SubpacketValue::Issuer(id) => Some(*id),
            SubpacketValue::IssuerFingerprint(fp) => Some(fp.key_id()),
            _ => None,
        })
    }

    /// Whether the signature names `fp` (or its key ID) as its issuer, or
    /// names no issuer at all.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let (key, other) = (generate(&GenerateOptions::default())?, generate(&GenerateOptions::default())?);
    /// let sig = &key.direct_sigs[0];
    /// assert!(sig.may_be_issued_by(&key.fingerprint()));
    /// assert!(!sig.may_be_issued_by(&other.fingerprint()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn may_be_issued_by(&self, fp: &Fingerprint) -> bool {
        let mut any = false;
        for id in self.issuer_key_ids() {
            any = true;
            if id == fp.key_id() {
                return true;
            }
        }
        !any
    }

    /// A critical subpacket not understood here, in the hashed area (the
    /// signature is then invalid, RFC 9580 §5.2.3.7).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let odd = Subpacket::critical(SubpacketValue::Other { kind: 101, body: vec![1] }); // private/experimental
    /// let sig = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000).subpacket(odd).sign_direct_key(public, secret)?;
    /// assert_eq!(sig.unknown_critical(), Some(101));
    /// assert!(sig.verify_direct_key(public).is_err()); // RFC 9580 §5.2.3.7
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn unknown_critical(&self) -> Option<u8> {
        self.hashed.iter().find(|s| s.is_unknown_critical()).map(|s| s.kind())
    }
}
