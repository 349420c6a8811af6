//! Key generation: a v6 key (Ed25519 primary, X25519 encryption subkey) by
//! default, or a v4 key for RFC 4880 peers such as GnuPG 2.2 (EdDSALegacy
//! primary, ECDH Curve25519Legacy subkey), with a User ID, self-signatures
//! carrying the usual subpackets, an optional expiration and an optional
//! password. Both kinds announce SEIPD v2 and AEAD ciphersuites, as
//! Sequoia's keys do: RFC 9580 peers encrypt to them with AEAD, RFC 4880
//! peers ignore what they do not know.

use super::super::crypto::{self, KeyType};
use super::super::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
use super::super::{Error, Result};
use super::valid::{features, flags};
use super::{Cert, CertKey, KeyVersion, PublicKey, SecretKey, Subkey, UserId};

/// Which kind of key to make.
///
/// ```
/// use tessera::openpgp::crypto::PublicKeyAlg;
/// use tessera::openpgp::key::{GenerateOptions, KeyProfile, generate};
/// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
/// let key = generate(&opts)?;
/// assert_eq!(key.primary.public().alg(), PublicKeyAlg::EdDsaLegacy);
/// // A v4 key needs a User ID.
/// assert!(generate(&GenerateOptions { profile: KeyProfile::Rfc4880, ..Default::default() }).is_err());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyProfile {
    /// v6 key, Ed25519 + X25519, SEIPD v2 announced (RFC 9580).
    #[default]
    Rfc9580,
    /// v4 key, EdDSALegacy + ECDH Curve25519Legacy (RFC 4880: GnuPG 2.2
    /// imports it), still announcing SEIPD v2 and AEAD ciphersuites for
    /// RFC 9580 peers (as Sequoia's `rfc4880` profile does).
    Rfc4880,
    /// Post-quantum v6 key (RFC 9980): ML-DSA-65+Ed25519 + ML-KEM-768+X25519,
    /// what Sequoia's and rPGP's `rfc9980` profiles make.
    Rfc9980,
    /// Post-quantum v6 key at the higher level (RFC 9980): ML-DSA-87+Ed448 +
    /// ML-KEM-1024+X448.
    Rfc9980High,
    /// v4 key with a post-quantum encryption subkey (RFC 9980 allows
    /// ML-KEM-768+X25519 on v4 subkeys): Ed25519 + ML-KEM-768+X25519, as
    /// rPGP's `rfc9980-v4` profile makes. Its signatures are not
    /// post-quantum.
    Rfc9980V4,
}

impl KeyProfile {
    /// Every profile, by the name the front ends use for it (the same names
    /// as Sequoia's and rPGP's SOP profiles where they have one).
    ///
    /// ```
    /// use tessera::openpgp::key::KeyProfile;
    /// for (name, profile) in KeyProfile::NAMES {
    ///     assert_eq!(name.parse::<KeyProfile>()?, profile);
    ///     assert_eq!(profile.name(), name);
    /// }
    /// assert!("rfc9999".parse::<KeyProfile>().is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub const NAMES: [(&'static str, KeyProfile); 5] = [
        ("rfc9580", KeyProfile::Rfc9580),
        ("rfc4880", KeyProfile::Rfc4880),
        ("rfc9980", KeyProfile::Rfc9980),
        ("rfc9980-high", KeyProfile::Rfc9980High),
        ("rfc9980-v4", KeyProfile::Rfc9980V4),
    ];

    /// The profile's name (see [`KeyProfile::NAMES`]).
    ///
    /// ```
    /// use tessera::openpgp::key::KeyProfile;
    /// assert_eq!(KeyProfile::Rfc9980.name(), "rfc9980");
    /// ```
    pub fn name(self) -> &'static str {
        KeyProfile::NAMES.iter().find(|(_, p)| *p == self).map_or("", |(n, _)| n)
    }

    /// Whether the key is a v4 key (which needs a User ID).
    ///
    /// ```
    /// use tessera::openpgp::key::KeyProfile;
    /// assert!(KeyProfile::Rfc9980V4.is_v4());
    /// assert!(!KeyProfile::Rfc9980.is_v4());
    /// ```
    pub fn is_v4(self) -> bool {
        matches!(self, KeyProfile::Rfc4880 | KeyProfile::Rfc9980V4)
    }
}

impl core::str::FromStr for KeyProfile {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        KeyProfile::NAMES
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, p)| *p)
            .ok_or(Error::InvalidOption("unknown key profile (rfc9580, rfc4880, rfc9980, rfc9980-high, rfc9980-v4)"))
    }
}

/// What to put in a new key.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// let opts = GenerateOptions { created: Some(1_700_000_000), expires_in: Some(3600), ..Default::default() };
/// let key = generate(&opts)?;
/// assert_eq!(key.validate(1_700_000_000)?.primary.expires, Some(1_700_003_600));
/// assert!(key.validate(1_700_003_600).is_err()); // expired
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct GenerateOptions {
    /// The kind of key.
    pub profile: KeyProfile,
    /// User IDs (`"Name <email>"`); the first is the primary one. May be empty
    /// for a v6 key.
    pub user_ids: Vec<String>,
    /// Seconds after creation when the key expires (`None`: never).
    pub expires_in: Option<u32>,
    /// Creation time (seconds since the epoch); `None`: now.
    pub created: Option<u32>,
}

/// Preferred symmetric ciphers: AES-256, AES-128.
const PREF_SYM: [u8; 2] = [9, 7];
/// Preferred AEAD ciphersuites: AES-256 and AES-128 with OCB, then GCM.
const PREF_AEAD: [(u8, u8); 4] = [(9, 2), (7, 2), (9, 3), (7, 3)];
/// Preferred hashes: SHA2-512, SHA2-256.
const PREF_HASH: [u8; 2] = [10, 8];

fn now() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs().min(u64::from(u32::MAX)) as u32)
        .unwrap_or(0)
}

/// The subpackets of the self-signature that carries the key's properties.
/// Both profiles announce SEIPD v1 and v2, and AEAD ciphersuites: a v4 key
/// read by an RFC 4880 peer keeps its meaning (the peer ignores the v2 bit
/// and the unknown subpacket), one read by an RFC 9580 peer gets AEAD.
fn key_properties(builder: SignatureBuilder, expires_in: Option<u32>) -> SignatureBuilder {
    let mut b = builder
        .subpacket(Subpacket::critical(SubpacketValue::KeyFlags(vec![flags::CERTIFY | flags::SIGN])))
        .subpacket(Subpacket::new(SubpacketValue::PreferredSymmetric(PREF_SYM.to_vec())))
        .subpacket(Subpacket::new(SubpacketValue::PreferredHash(PREF_HASH.to_vec())))
        .subpacket(Subpacket::new(SubpacketValue::PreferredCompression(vec![0])))
        .subpacket(Subpacket::new(SubpacketValue::Features(vec![features::SEIPD_V1 | features::SEIPD_V2])))
        .subpacket(Subpacket::new(SubpacketValue::PreferredAead(PREF_AEAD.to_vec())));
    if let Some(e) = expires_in {
        b = b.subpacket(Subpacket::new(SubpacketValue::KeyExpiration(e)));
    }
    b
}

/// The binding of an encryption subkey made at `at`, the subkey expiring
/// `expires_in` seconds after its creation (`None`: never).
pub(super) fn encryption_subkey_binding(at: u32, expires_in: Option<u32>) -> SignatureBuilder {
    let b = SignatureBuilder::new(SigType::SubkeyBinding, at)
        .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![flags::ENCRYPT])));
    match expires_in {
        Some(e) => b.subpacket(Subpacket::new(SubpacketValue::KeyExpiration(e))),
        None => b,
    }
}

/// Generates a new secret key (unlocked; see [`Cert::lock`]).
///
/// ```
/// use tessera::openpgp::key::{generate, GenerateOptions, KeyProfile};
/// let opts = GenerateOptions { user_ids: vec!["Alice <alice@example.org>".into()], ..Default::default() };
/// let key = generate(&opts).unwrap();
/// let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
/// let valid = key.validate(now).unwrap();
/// assert_eq!(valid.encryption_keys().len(), 1);
/// ```
pub fn generate(opts: &GenerateOptions) -> Result<Cert> {
    let created = opts.created.unwrap_or_else(now);
    let (version, primary_type, sub_type) = match opts.profile {
        KeyProfile::Rfc9580 => (KeyVersion::V6, KeyType::Ed25519, KeyType::X25519),
        KeyProfile::Rfc4880 => (KeyVersion::V4, KeyType::EdDsaLegacy, KeyType::EcdhCurve25519Legacy),
        KeyProfile::Rfc9980 => (KeyVersion::V6, KeyType::MlDsa65Ed25519, KeyType::MlKem768X25519),
        KeyProfile::Rfc9980High => (KeyVersion::V6, KeyType::MlDsa87Ed448, KeyType::MlKem1024X448),
        KeyProfile::Rfc9980V4 => (KeyVersion::V4, KeyType::Ed25519, KeyType::MlKem768X25519),
    };
    if version == KeyVersion::V4 && opts.user_ids.is_empty() {
        return Err(Error::InvalidOption("a v4 key needs a User ID"));
    }
    let (pp, ps) = crypto::generate(primary_type)?;
    let primary = PublicKey::new(version, created, pp)?;
    let (sp, ss) = crypto::generate(sub_type)?;
    let sub = PublicKey::new(version, created, sp)?;

    let mut direct_sigs = Vec::new();
    if version == KeyVersion::V6 {
        let b = key_properties(SignatureBuilder::new(SigType::DirectKey, created), opts.expires_in);
        direct_sigs.push(b.sign_direct_key(&primary, &ps)?);
    }
    let mut user_ids = Vec::new();
    for (i, uid) in opts.user_ids.iter().enumerate() {
        let mut b = key_properties(SignatureBuilder::new(SigType::Certification(0x13), created), opts.expires_in);
        if i == 0 {
            b = b.subpacket(Subpacket::new(SubpacketValue::PrimaryUserId(true)));
        }
        let sig = b.sign_certification(&primary, &ps, uid.as_bytes())?;
        user_ids.push(UserId { value: uid.as_bytes().to_vec(), sigs: vec![sig] });
    }
    let binding = encryption_subkey_binding(created, opts.expires_in).sign_subkey_binding(&primary, &ps, &sub)?;
    Ok(Cert {
        primary: CertKey::Secret(SecretKey::from_parts(primary, ps, false)),
        direct_sigs,
        user_ids,
        subkeys: vec![Subkey { key: CertKey::Secret(SecretKey::from_parts(sub, ss, true)), sigs: vec![binding] }],
        checked: Default::default(),
        unsupported_subkey: None,
    })
}

impl Cert {
    /// Locks every secret key with `password` (v6: AEAD + Argon2; v4: CFB +
    /// iterated S2K).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, KeyProfile, generate};
    /// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
    /// let mut key = generate(&opts)?;
    /// key.lock(b"pw")?;
    /// assert!(key.keys().all(|k| k.secret().is_some_and(|s| s.is_locked())));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn lock(&mut self, password: &[u8]) -> Result<()> {
        for k in std::iter::once(&mut self.primary).chain(self.subkeys.iter_mut().map(|s| &mut s.key)) {
            if let Some(s) = k.secret_mut() {
                s.lock(password)?;
            }
        }
        Ok(())
    }

    /// Unlocks every locked secret key in place with `password`.
    ///
    /// ```
    /// use tessera::openpgp::Error;
    /// use tessera::openpgp::key::{GenerateOptions, KEY_UNLOCK_LIMITS, KeyError, KeyProfile, generate};
    /// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
    /// let mut key = generate(&opts)?;
    /// key.lock(b"pw")?;
    /// assert!(matches!(key.clone().unlock(b"guess", &KEY_UNLOCK_LIMITS), Err(Error::Key(KeyError::WrongKeyPassword(_)))));
    /// key.unlock(b"pw", &KEY_UNLOCK_LIMITS)?;
    /// assert!(key.keys().all(|k| k.secret().is_some_and(|s| !s.is_locked())));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn unlock(&mut self, password: &[u8], limits: &super::super::s2k::S2kLimits) -> Result<()> {
        for k in std::iter::once(&mut self.primary).chain(self.subkeys.iter_mut().map(|s| &mut s.key)) {
            if let Some(s) = k.secret_mut()
                && s.is_locked()
            {
                s.decrypt_in_place(password, limits)?;
            }
        }
        Ok(())
    }
}
