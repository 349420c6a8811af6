//! Making signatures: v4 or v6 after the signer's key version, with the
//! creation time and issuer subpackets added, salted for v6.

use super::super::crypto::{self, HashAlg, SecretMaterial};
use super::super::key::{KeyVersion, PublicKey};
use super::super::{Result, random};
use super::hashing::{HashedFields, binding_digest, certification_digest, direct_key_digest};
use super::packet::{SigType, Signature};
use super::subpacket::{self, Subpacket, SubpacketValue};

/// A signature being built. Add subpackets, then call one of the `sign_*`
/// methods with the signer's secret.
///
/// ```
/// use tessera::openpgp::key::{generate, GenerateOptions};
/// use tessera::openpgp::sig::{hashing, SigType, SignatureBuilder, Subpacket, SubpacketValue};
/// let key = generate(&GenerateOptions::default()).unwrap();
/// let (public, secret) = (key.primary.public(), key.primary.secret().unwrap().secret().unwrap());
/// let sig = SignatureBuilder::new(SigType::DirectKey, public.created())
///     .subpacket(Subpacket::new(SubpacketValue::Features(vec![0x09])))
///     .sign_direct_key(public, secret)
///     .unwrap();
/// sig.verify_direct_key(public).unwrap();
/// assert_eq!(sig.features(), Some(0x09));
/// ```
#[derive(Debug, Clone)]
pub struct SignatureBuilder {
    sig_type: SigType,
    hash_alg: HashAlg,
    hashed: Vec<Subpacket>,
    unhashed: Vec<Subpacket>,
    created: u32,
    explicit_hash: bool,
    salt: Option<Vec<u8>>,
}

impl SignatureBuilder {
    /// A signature of `sig_type` made at `created` (seconds since the
    /// epoch), hashed with SHA2-512 (v6 keys) or SHA2-256 (v4 keys).
    pub fn new(sig_type: SigType, created: u32) -> Self {
        SignatureBuilder {
            sig_type,
            hash_alg: HashAlg::Sha512,
            hashed: Vec::new(),
            unhashed: Vec::new(),
            created,
            explicit_hash: false,
            salt: None,
        }
    }

    /// Chooses the hash algorithm.
    pub fn hash(mut self, hash_alg: HashAlg) -> Self {
        self.hash_alg = hash_alg;
        self.explicit_hash = true;
        self
    }

    /// Uses this salt (v6 signatures) instead of a fresh random one: a
    /// streaming signer must know it before hashing the data. It must be
    /// random and of [`HashAlg::v6_salt_len`] octets.
    pub fn salt(mut self, salt: Vec<u8>) -> Self {
        self.salt = Some(salt);
        self
    }

    /// Adds a hashed subpacket.
    pub fn subpacket(mut self, sp: Subpacket) -> Self {
        self.hashed.push(sp);
        self
    }

    /// Adds an unhashed subpacket.
    pub fn unhashed_subpacket(mut self, sp: Subpacket) -> Self {
        self.unhashed.push(sp);
        self
    }

    /// Signs the digest that `digest_of` computes over the final fields.
    pub fn sign_with(
        self,
        signer: &PublicKey,
        secret: &SecretMaterial,
        digest_of: impl FnOnce(&HashedFields<'_>) -> Vec<u8>,
    ) -> Result<Signature> {
        let version = signer.version().id();
        let fp = signer.fingerprint();
        let mut hashed = vec![Subpacket::critical(SubpacketValue::CreationTime(self.created))];
        hashed.extend(self.hashed);
        hashed.push(Subpacket::new(SubpacketValue::IssuerFingerprint(fp)));
        let mut unhashed = self.unhashed;
        if signer.version() == KeyVersion::V4 {
            unhashed.push(Subpacket::new(SubpacketValue::Issuer(fp.key_id())));
        }
        let hash_alg = if signer.version() == KeyVersion::V4 && self.hash_alg == HashAlg::Sha512 && !self.explicit_hash
        {
            HashAlg::Sha256
        } else {
            self.hash_alg
        };
        let mut salt = Vec::new();
        if signer.version() == KeyVersion::V6 {
            salt = match self.salt {
                Some(s) if s.len() == hash_alg.v6_salt_len() => s,
                Some(_) => return Err(super::super::Error::InvalidOption("v6 signature salt length")),
                None => {
                    let mut s = vec![0u8; hash_alg.v6_salt_len()];
                    random(&mut s)?;
                    s
                }
            };
        }
        let hashed_area = subpacket::write_area(&hashed);
        let fields = HashedFields {
            version,
            sig_type: self.sig_type,
            pk_alg: signer.alg(),
            hash_alg,
            hashed_area: &hashed_area,
            salt: &salt,
        };
        let digest = digest_of(&fields);
        let material = crypto::sign(secret, signer.material(), hash_alg, &digest)?;
        Ok(Signature {
            version,
            sig_type: self.sig_type,
            pk_alg: signer.alg(),
            hash_alg,
            unhashed_area: subpacket::write_area(&unhashed),
            hashed_area,
            hashed,
            unhashed,
            digest_prefix: [digest[0], digest[1]],
            salt,
            material,
        })
    }

    /// A direct key or key revocation signature on `primary`, by it.
    pub fn sign_direct_key(self, primary: &PublicKey, secret: &SecretMaterial) -> Result<Signature> {
        self.sign_with(primary, secret, |f| direct_key_digest(f, primary))
    }

    /// A certification of `user_id` on `primary`, by it.
    pub fn sign_certification(self, primary: &PublicKey, secret: &SecretMaterial, user_id: &[u8]) -> Result<Signature> {
        self.sign_with(primary, secret, |f| certification_digest(f, primary, user_id))
    }

    /// A subkey binding or revocation of `subkey`, by `primary`.
    pub fn sign_subkey_binding(
        self,
        primary: &PublicKey,
        secret: &SecretMaterial,
        subkey: &PublicKey,
    ) -> Result<Signature> {
        self.sign_with(primary, secret, |f| binding_digest(f, primary, subkey))
    }

    /// A primary key binding (back-signature) by `subkey` over `primary`.
    pub fn sign_primary_key_binding(
        self,
        primary: &PublicKey,
        subkey: &PublicKey,
        subkey_secret: &SecretMaterial,
    ) -> Result<Signature> {
        self.sign_with(subkey, subkey_secret, |f| binding_digest(f, primary, subkey))
    }
}
