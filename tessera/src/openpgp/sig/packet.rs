//! Signature packets version 4 and 6 (RFC 9580 §5.2.3): parsing, encoding and
//! the fixed fields; typed access to the subpackets is in `fields.rs`.

use super::super::crypto::{HashAlg, PublicKeyAlg, SigMaterial};
use super::super::{Error, Result};
use super::subpacket::{self, Subpacket};

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
        if version == 4 && pk_alg.is_post_quantum() {
            return Err(Error::Malformed("a post-quantum signature in a v4 signature packet (RFC 9980: v6 only)"));
        }
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
}
