//! Signature packets version 4 and 6 (RFC 9580 §5.2.3): parsing, encoding and
//! typed access to the subpackets that matter.

use super::super::crypto::{HashAlg, PublicKeyAlg, SigMaterial};
use super::super::key::{Fingerprint, KeyId};
use super::super::{Error, Result};
use super::subpacket::{self, Subpacket, SubpacketValue};

/// Signature types (RFC 9580 §5.2.1).
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::SigType;
/// let key = generate(&GenerateOptions { user_ids: vec!["A <a@example.org>".into()], ..Default::default() })?;
/// assert_eq!(key.direct_sigs[0].sig_type(), SigType::DirectKey);
/// assert_eq!(key.user_ids[0].sigs[0].sig_type(), SigType::Certification(0x13)); // positive
/// assert_eq!(key.subkeys[0].sigs[0].sig_type(), SigType::SubkeyBinding);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SigType {
    /// 0x00: binary document.
    Binary,
    /// 0x01: canonical text document.
    Text,
    /// 0x10-0x13: certification of a User ID and public key (generic,
    /// persona, casual, positive); the octet is kept.
    Certification(u8),
    /// 0x18: subkey binding.
    SubkeyBinding,
    /// 0x19: primary key binding (the back-signature of a signing subkey).
    PrimaryKeyBinding,
    /// 0x1F: direct key.
    DirectKey,
    /// 0x20: key revocation.
    KeyRevocation,
    /// 0x28: subkey revocation.
    SubkeyRevocation,
    /// 0x30: certification revocation.
    CertificationRevocation,
    /// Any other type (standalone, timestamp, third-party confirmation, ...).
    Other(u8),
}

impl SigType {
    /// Parses the type octet.
    ///
    /// ```
    /// use tessera::openpgp::sig::SigType;
    /// assert_eq!(SigType::from_id(0x01), SigType::Text);
    /// assert_eq!(SigType::from_id(0x40), SigType::Other(0x40)); // timestamp: kept, not interpreted
    /// ```
    pub fn from_id(id: u8) -> Self {
        match id {
            0x00 => SigType::Binary,
            0x01 => SigType::Text,
            0x10..=0x13 => SigType::Certification(id),
            0x18 => SigType::SubkeyBinding,
            0x19 => SigType::PrimaryKeyBinding,
            0x1f => SigType::DirectKey,
            0x20 => SigType::KeyRevocation,
            0x28 => SigType::SubkeyRevocation,
            0x30 => SigType::CertificationRevocation,
            _ => SigType::Other(id),
        }
    }

    /// The type octet.
    ///
    /// ```
    /// use tessera::openpgp::sig::SigType;
    /// assert_eq!(SigType::KeyRevocation.id(), 0x20);
    /// assert_eq!(SigType::from_id(SigType::Certification(0x10).id()), SigType::Certification(0x10));
    /// ```
    pub fn id(self) -> u8 {
        match self {
            SigType::Binary => 0x00,
            SigType::Text => 0x01,
            SigType::Certification(id) | SigType::Other(id) => id,
            SigType::SubkeyBinding => 0x18,
            SigType::PrimaryKeyBinding => 0x19,
            SigType::DirectKey => 0x1f,
            SigType::KeyRevocation => 0x20,
            SigType::SubkeyRevocation => 0x28,
            SigType::CertificationRevocation => 0x30,
        }
    }
}

/// A parsed signature packet (v4 or v6).
///
/// ```
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::{SigType, Signature};
/// # let cert_bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let cert = Cert::from_bytes(cert_bytes).unwrap();
/// let binding: &Signature = &cert.subkeys[0].sigs[0];
/// assert_eq!(binding.sig_type(), SigType::SubkeyBinding);
/// assert_eq!(binding.key_flags(), Some(0x0c));
/// binding.verify_subkey_binding(cert.primary.public(), cert.subkeys[0].key.public()).unwrap();
/// assert_eq!(Signature::parse(&binding.to_bytes()).unwrap(), *binding);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub(crate) version: u8,
    pub(crate) sig_type: SigType,
    pub(crate) pk_alg: PublicKeyAlg,
    pub(crate) hash_alg: HashAlg,
    pub(crate) hashed_area: Vec<u8>,
    pub(crate) hashed: Vec<Subpacket>,
    pub(crate) unhashed_area: Vec<u8>,
    pub(crate) unhashed: Vec<Subpacket>,
    pub(crate) digest_prefix: [u8; 2],
    pub(crate) salt: Vec<u8>,
    pub(crate) material: SigMaterial,
}

/// Reads a big-endian length of `n` (2 or 4) octets at `at`.
fn len_at(b: &[u8], at: usize, n: usize) -> Result<usize> {
    let s = b.get(at..at + n).ok_or(Error::Malformed("signature packet is cut short"))?;
    Ok(s.iter().fold(0usize, |acc, &x| acc << 8 | x as usize))
}

impl Signature {
    /// Parses a signature packet body.
    ///
    /// ```
    /// use tessera::openpgp::{Error, sig::Signature};
    /// # use tessera::openpgp::key::{GenerateOptions, generate};
    /// # let key = generate(&GenerateOptions::default())?;
    /// let body = key.direct_sigs[0].to_bytes();
    /// assert_eq!(Signature::parse(&body)?, key.direct_sigs[0]);
    /// assert!(Signature::parse(&body[..body.len() - 1]).is_err());
    /// assert!(matches!(Signature::parse(&[3]), Err(Error::Unsupported(_)))); // v3 signatures
    /// # Ok::<(), Error>(())
    /// ```
    pub fn parse(body: &[u8]) -> Result<Self> {
        let short = || Error::Malformed("signature packet is cut short");
        let version = *body.first().ok_or_else(short)?;
        let n = match version {
            4 => 2,
            6 => 4,
            3 => return Err(Error::Unsupported("version 3 signatures")),
            _ => return Err(Error::Unsupported("signature packet version (4 and 6 are supported)")),
        };
        let head = body.get(1..4).ok_or_else(short)?;
        let sig_type = SigType::from_id(head[0]);
        let pk_alg = PublicKeyAlg::from_id(head[1])?;
        let hash_alg = HashAlg::from_id(head[2])?;
        let mut at = 4;
        let hl = len_at(body, at, n)?;
        at += n;
        let hashed_area = body.get(at..at + hl).ok_or_else(short)?.to_vec();
        at += hl;
        let ul = len_at(body, at, n)?;
        at += n;
        let unhashed_area = body.get(at..at + ul).ok_or_else(short)?.to_vec();
        at += ul;
        let digest_prefix: [u8; 2] = body.get(at..at + 2).ok_or_else(short)?.try_into().expect("2");
        at += 2;
        let mut salt = Vec::new();
        if version == 6 {
            let sl = *body.get(at).ok_or_else(short)? as usize;
            salt = body.get(at + 1..at + 1 + sl).ok_or_else(short)?.to_vec();
            at += 1 + sl;
            if sl != hash_alg.v6_salt_len() {
                return Err(Error::Malformed("v6 signature salt length does not match its hash"));
            }
        }
        let mut rest = &body[at..];
        let material = SigMaterial::parse(pk_alg, &mut rest)?;
        if !rest.is_empty() {
            return Err(Error::Malformed("trailing data after the signature fields"));
        }
        let hashed = subpacket::parse_area(&hashed_area)?;
        let unhashed = subpacket::parse_area(&unhashed_area)?;
        Ok(Signature {
            version,
            sig_type,
            pk_alg,
            hash_alg,
            hashed_area,
            hashed,
            unhashed_area,
            unhashed,
            digest_prefix,
            salt,
            material,
        })
    }

    /// Appends the encoded packet body.
    ///
    /// ```
    /// # use tessera::openpgp::key::{GenerateOptions, generate};
    /// # let key = generate(&GenerateOptions::default())?;
    /// let sig = &key.direct_sigs[0];
    /// let mut body = Vec::new();
    /// sig.write(&mut body);
    /// assert_eq!(body, sig.to_bytes());
    /// assert_eq!(body[0], 6); // version
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&[self.version, self.sig_type.id(), self.pk_alg.id(), self.hash_alg.id()]);
        for area in [&self.hashed_area, &self.unhashed_area] {
            if self.version == 6 {
                out.extend_from_slice(&(area.len() as u32).to_be_bytes());
            } else {
                out.extend_from_slice(&(area.len() as u16).to_be_bytes());
            }
            out.extend_from_slice(area);
        }
        out.extend_from_slice(&self.digest_prefix);
        if self.version == 6 {
            out.push(self.salt.len() as u8);
            out.extend_from_slice(&self.salt);
        }
        self.material.serialize(out);
    }

    /// The encoded packet body.
    ///
    /// ```
    /// use tessera::openpgp::sig::{Signature, write_signatures};
    /// # use tessera::openpgp::key::{GenerateOptions, generate};
    /// # let key = generate(&GenerateOptions::default())?;
    /// let sig: &Signature = &key.direct_sigs[0];
    /// // The packet body; `write_signatures` adds the packet header.
    /// let packet = write_signatures(Vec::new(), std::slice::from_ref(sig), false)?;
    /// assert!(packet.ends_with(&sig.to_bytes()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.write(&mut v);
        v
    }

    /// Signature version (4 or 6).
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// assert_eq!(alice.user_ids[0].sigs[0].version(), 4);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn version(&self) -> u8 {
        self.version
    }
    /// Signature type.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// use tessera::openpgp::sig::SigType;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// assert_eq!(alice.subkeys[0].sigs[0].sig_type(), SigType::SubkeyBinding);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn sig_type(&self) -> SigType {
        self.sig_type
    }
    /// Public-key algorithm of the signer.
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// assert_eq!(alice.user_ids[0].sigs[0].pk_alg(), PublicKeyAlg::EdDsaLegacy);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn pk_alg(&self) -> PublicKeyAlg {
        self.pk_alg
    }
    /// Hash algorithm.
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert_eq!(key.direct_sigs[0].hash_alg(), HashAlg::Sha512); // v6 keys sign with SHA2-512
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn hash_alg(&self) -> HashAlg {
        self.hash_alg
    }
    /// The salt (v6; empty for v4).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let sig = &key.direct_sigs[0];
    /// assert_eq!(sig.salt().len(), sig.hash_alg().v6_salt_len()); // v4 signatures have none
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn salt(&self) -> &[u8] {
        &self.salt
    }
    /// The left 16 bits of the signed digest.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::hashing;
    /// let key = generate(&GenerateOptions::default())?;
    /// let sig = &key.direct_sigs[0];
    /// let digest = hashing::direct_key_digest(&sig.hashed_fields(), key.primary.public());
    /// assert_eq!(sig.digest_prefix(), [digest[0], digest[1]]);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn digest_prefix(&self) -> [u8; 2] {
        self.digest_prefix
    }
    /// The algorithm-specific signature fields.
    ///
    /// ```
    /// use tessera::openpgp::crypto::SigMaterial;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert!(matches!(key.direct_sigs[0].material(), SigMaterial::Ed25519(_)));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn material(&self) -> &SigMaterial {
        &self.material
    }
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
