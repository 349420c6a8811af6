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
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// use tessera::openpgp::key::{GenerateOptions, KeyProfile, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
    /// let key = generate(&opts)?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000).sign_direct_key(public, secret)?;
    /// assert_eq!(sig.hash_alg(), HashAlg::Sha256); // a v4 key's default
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
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
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000).hash(HashAlg::Sha3_256).sign_direct_key(public, secret)?;
    /// assert_eq!((sig.hash_alg(), sig.salt().len()), (HashAlg::Sha3_256, 16));
    /// sig.verify_direct_key(public)?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn hash(mut self, hash_alg: HashAlg) -> Self {
        self.hash_alg = hash_alg;
        self.explicit_hash = true;
        self
    }

    /// Uses this salt (v6 signatures) instead of a fresh random one: a
    /// streaming signer must know it before hashing the data. It must be
    /// random and of [`HashAlg::v6_salt_len`] octets.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000).salt(vec![9; 32]).sign_direct_key(public, secret)?;
    /// assert_eq!(sig.salt(), [9; 32]);
    /// // SHA2-512 wants 32 octets of salt.
    /// assert!(SignatureBuilder::new(SigType::DirectKey, 1_700_000_000).salt(vec![9; 16]).sign_direct_key(public, secret).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn salt(mut self, salt: Vec<u8>) -> Self {
        self.salt = Some(salt);
        self
    }

    /// Adds a hashed subpacket.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000)
    ///     .subpacket(Subpacket::new(SubpacketValue::KeyExpiration(3600)))
    ///     .sign_direct_key(public, secret)?;
    /// // Creation time first, the subpackets given, the issuer fingerprint last.
    /// assert_eq!(sig.hashed().len(), 3);
    /// assert_eq!(sig.key_expiration(), Some(3600));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn subpacket(mut self, sp: Subpacket) -> Self {
        self.hashed.push(sp);
        self
    }

    /// Adds an unhashed subpacket.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let hint = Subpacket::new(SubpacketValue::KeyExpiration(3600));
    /// let sig = SignatureBuilder::new(SigType::DirectKey, 1_700_000_000).unhashed_subpacket(hint).sign_direct_key(public, secret)?;
    /// assert_eq!(sig.unhashed().len(), 1);
    /// assert_eq!(sig.key_expiration(), None); // unhashed: not believed
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn unhashed_subpacket(mut self, sp: Subpacket) -> Self {
        self.unhashed.push(sp);
        self
    }

    /// Signs the digest that `digest_of` computes over the final fields.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{DocumentHasher, SigType, SignatureBuilder};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::Binary, 1_700_000_000).sign_with(public, secret, |f| {
    ///     let mut h = DocumentHasher::new(f);
    ///     h.update(b"document");
    ///     h.finish(f)
    /// })?;
    /// let mut h = DocumentHasher::new(&sig.hashed_fields());
    /// h.update(b"document");
    /// sig.verify_digest(public, &h.finish(&sig.hashed_fields()))?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
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
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let revocation = SignatureBuilder::new(SigType::KeyRevocation, 1_700_000_000).sign_direct_key(public, secret)?;
    /// revocation.verify_direct_key(public)?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn sign_direct_key(self, primary: &PublicKey, secret: &SecretMaterial) -> Result<Signature> {
        self.sign_with(primary, secret, |f| direct_key_digest(f, primary))
    }

    /// A certification of `user_id` on `primary`, by it.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::Certification(0x13), 1_700_000_000)
    ///     .sign_certification(public, secret, b"Alice <alice@example.org>")?;
    /// sig.verify_certification(public, b"Alice <alice@example.org>")?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn sign_certification(self, primary: &PublicKey, secret: &SecretMaterial, user_id: &[u8]) -> Result<Signature> {
        self.sign_with(primary, secret, |f| certification_digest(f, primary, user_id))
    }

    /// A certification (or certification revocation) of `user_id` on
    /// `target`, by another key `signer` (RFC 9580 §5.2.4: the hash covers
    /// the certified key and the User ID).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let (alice, bob) = (generate(&GenerateOptions::default())?, generate(&GenerateOptions::default())?);
    /// let (signer, secret) = (alice.primary.public(), alice.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::Certification(0x10), 1_700_000_000)
    ///     .sign_third_party_certification(signer, secret, bob.primary.public(), b"Bob <bob@example.org>")?;
    /// sig.verify_third_party_certification(signer, bob.primary.public(), b"Bob <bob@example.org>")?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn sign_third_party_certification(
        self,
        signer: &PublicKey,
        secret: &SecretMaterial,
        target: &PublicKey,
        user_id: &[u8],
    ) -> Result<Signature> {
        self.sign_with(signer, secret, |f| certification_digest(f, target, user_id))
    }

    /// A subkey binding or revocation of `subkey`, by `primary`.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sub = key.subkeys[0].key.public();
    /// let revocation = SignatureBuilder::new(SigType::SubkeyRevocation, 1_700_000_000).sign_subkey_binding(public, secret, sub)?;
    /// revocation.verify_subkey_binding(public, sub)?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn sign_subkey_binding(
        self,
        primary: &PublicKey,
        secret: &SecretMaterial,
        subkey: &PublicKey,
    ) -> Result<Signature> {
        self.sign_with(primary, secret, |f| binding_digest(f, primary, subkey))
    }

    /// A primary key binding (back-signature) by `subkey` over `primary`.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, generate as keypair};
    /// use tessera::openpgp::key::{GenerateOptions, KeyVersion, PublicKey, generate};
    /// use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (primary, primary_secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let (sub_public, sub_secret) = keypair(KeyType::Ed25519)?;
    /// let sub = PublicKey::new(KeyVersion::V6, 1_700_000_000, sub_public)?;
    /// // A signing subkey's binding embeds its back-signature.
    /// let back = SignatureBuilder::new(SigType::PrimaryKeyBinding, 1_700_000_000).sign_primary_key_binding(primary, &sub, &sub_secret)?;
    /// let binding = SignatureBuilder::new(SigType::SubkeyBinding, 1_700_000_000)
    ///     .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![0x02])))
    ///     .subpacket(Subpacket::new(SubpacketValue::EmbeddedSignature(back.to_bytes())))
    ///     .sign_subkey_binding(primary, primary_secret, &sub)?;
    /// binding.embedded_signatures().next().expect("embedded")?.verify_primary_key_binding(primary, &sub)?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn sign_primary_key_binding(
        self,
        primary: &PublicKey,
        subkey: &PublicKey,
        subkey_secret: &SecretMaterial,
    ) -> Result<Signature> {
        self.sign_with(subkey, subkey_secret, |f| binding_digest(f, primary, subkey))
    }
}
