//! Secret key and subkey packets (RFC 9580 §5.5.3): the public fields, then
//! the secret fields in the clear (S2K usage 0), encrypted with CFB and a
//! SHA-1 check (usage 254, iterated S2K) or with AEAD under an Argon2-derived
//! key (usage 253, §5.5.3 with HKDF). Unlock, lock and change password.

use hkdf::Hkdf;
use sha1::Digest as _;
use sha2::Sha256;
use zeroize::Zeroizing;

use super::super::cfb::Cfb;
use super::super::crypto::{HashAlg, SecretMaterial};
use super::super::s2k::{S2k, S2kLimits};
use super::super::{Error, Result, SymAlg, random};
use super::{KeyError, KeyVersion, PublicKey};
use crate::aead::{Aad, Aead, AeadInPlace, Mode, Nonce};
use crate::aes::Aes;
use crate::{Direction, TAG_LEN};

/// Limits for unlocking one's own secret keys: up to RFC 9580's first
/// recommended Argon2 option (2 GiB), which the A.5 sample and some
/// implementations use; a key file is chosen by its owner, not sent by a
/// stranger, so the message defaults ([`S2kLimits::default`]) are too low.
///
/// ```
/// use tessera::openpgp::key::{Cert, KEY_UNLOCK_LIMITS};
/// use tessera::openpgp::{DecryptOptions, Error};
/// # let a5_locked = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a5_v6_secret_locked.asc"));
/// let mut key = Cert::from_bytes(a5_locked)?; // RFC 9580 A.5
/// // RFC 9580 A.5 is locked with Argon2 over 2 GiB: more than a message may
/// // ask for, as much as one's own key may.
/// let message_limits = DecryptOptions::default().limits;
/// let refused = key.unlock(b"correct horse battery staple", &message_limits);
/// assert!(matches!(refused, Err(Error::LimitExceeded { .. })));
/// assert_eq!(KEY_UNLOCK_LIMITS.max_argon2_m, 21);
/// # Ok::<(), Error>(())
/// ```
pub const KEY_UNLOCK_LIMITS: S2kLimits =
    S2kLimits { max_argon2_m: 21, max_argon2_t: 16, max_argon2_p: 16, max_work_kib: 1 << 22, max_iterated_count: 255 };

/// How the secret fields are protected: the inside of a [`SecretKey`],
/// which says which one it holds by [`SecretKey::is_locked`].
#[derive(Debug, Clone)]
pub(crate) enum SecretPart {
    /// In the clear (usage 0).
    Plain(SecretMaterial),
    /// Encrypted under a password.
    Locked(Locked),
}

/// Password-encrypted secret fields, as the packet holds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Locked {
    usage: u8,
    cipher: SymAlg,
    aead: Option<Mode>,
    s2k: S2k,
    iv: Vec<u8>,
    data: Vec<u8>,
}

/// A secret key or subkey packet.
///
/// ```
/// use tessera::openpgp::key::{generate, GenerateOptions};
/// use tessera::openpgp::S2kLimits;
/// let key = generate(&GenerateOptions::default()).unwrap();
/// let mut sub = key.subkeys[0].key.secret().unwrap().clone();
/// sub.lock(b"pw").unwrap();
/// assert!(sub.is_locked() && sub.secret().is_err());
/// let material = sub.unlock(b"pw", &S2kLimits::default()).unwrap();
/// material.check(sub.public().material()).unwrap();
/// ```
#[derive(Clone)]
pub struct SecretKey {
    public: PublicKey,
    secret: SecretPart,
    subkey: bool,
}

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretKey")
            .field("public", &self.public)
            .field("locked", &self.is_locked())
            .finish_non_exhaustive()
    }
}

fn checksum(b: &[u8]) -> [u8; 2] {
    (b.iter().fold(0u16, |s, &x| s.wrapping_add(x as u16))).to_be_bytes()
}

/// CFB with an IV, through the zero-IV [`Cfb`]: a first block whose
/// ciphertext is the IV makes the next keystream block E(IV).
fn cfb(key: &[u8], iv: &[u8], data: &mut [u8], dir: Direction) -> Result<()> {
    let aes = Aes::new(key).map_err(|_| Error::InvalidOption("key length"))?;
    let iv: [u8; 16] = iv.try_into().map_err(|_| Error::Malformed("secret key IV length"))?;
    let mut c = Cfb::new(aes.clone());
    let mut first = iv;
    c.decrypt(&mut first); // consumes E(0); `first` is now junk, the state holds IV
    match dir {
        Direction::Encrypt => c.encrypt(data),
        Direction::Decrypt => c.decrypt(data),
    }
    Ok(())
}

impl Locked {
    fn parse(version: KeyVersion, usage: u8, d: &[u8]) -> Result<(Locked, usize)> {
        let short = || Error::Malformed("secret key packet is cut short");
        let mut at = 0;
        let mut take = |n: usize| -> Result<&[u8]> {
            let s = d.get(at..at + n).ok_or_else(short)?;
            at += n;
            Ok(s)
        };
        let declared = if version == KeyVersion::V6 { Some(take(1)?[0] as usize) } else { None };
        let cipher = SymAlg::from_id(take(1)?[0])?;
        let aead = if usage == 253 { Some(Mode::from_id(take(1)?[0])?) } else { None };
        if version == KeyVersion::V6 {
            take(1)?; // S2K length; the specifier says its own length
        }
        let (s2k, n) = S2k::parse(&d[at.min(d.len())..])?;
        at += n;
        let iv_len = aead.map_or(16, |a| a.nonce_len());
        let iv = d.get(at..at + iv_len).ok_or_else(short)?.to_vec();
        at += iv_len;
        if declared.is_some_and(|l| l + 1 != at) {
            return Err(Error::Malformed("secret key S2K parameter length"));
        }
        Ok((Locked { usage, cipher, aead, s2k, iv, data: d[at..].to_vec() }, d.len()))
    }

    fn write(&self, version: KeyVersion, out: &mut Vec<u8>) {
        out.push(self.usage);
        let mut params = vec![self.cipher.id()];
        if let Some(a) = self.aead {
            params.push(a.id());
        }
        let mut s2k = Vec::new();
        self.s2k.write(&mut s2k);
        if version == KeyVersion::V6 {
            params.push(s2k.len() as u8);
        }
        params.extend_from_slice(&s2k);
        params.extend_from_slice(&self.iv);
        if version == KeyVersion::V6 {
            out.push(params.len() as u8);
        }
        out.extend_from_slice(&params);
        out.extend_from_slice(&self.data);
    }
}

impl SecretKey {
    /// Parses a secret key (`subkey` false, tag 5) or secret subkey (tag 7)
    /// packet body.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, SecretKey, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let sub = key.subkeys[0].key.secret().expect("a secret key");
    /// let mut body = Vec::new();
    /// sub.write(&mut body);
    /// let parsed = SecretKey::parse(&body, true)?;
    /// assert!(parsed.is_subkey());
    /// assert_eq!(parsed.public().fingerprint(), sub.public().fingerprint());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn parse(body: &[u8], subkey: bool) -> Result<Self> {
        let (public, at) = PublicKey::parse(body)?;
        let rest = &body[at..];
        let (&usage, fields) = rest.split_first().ok_or(Error::Malformed("secret key packet is cut short"))?;
        let secret = match usage {
            0 => {
                let mut input = fields;
                let m = SecretMaterial::parse(public.material(), &mut input)?;
                if public.version() == KeyVersion::V4 {
                    let used = fields.len() - input.len();
                    if input != checksum(&fields[..used]) {
                        return Err(Error::Malformed("secret key checksum does not match"));
                    }
                } else if !input.is_empty() {
                    return Err(Error::Malformed("trailing data after the secret key fields"));
                }
                SecretPart::Plain(m)
            }
            253 | 254 => SecretPart::Locked(Locked::parse(public.version(), usage, fields)?.0),
            255 => return Err(Error::Unsupported("secret keys protected with a 16-bit checksum (S2K usage 255)")),
            _ => return Err(Error::Unsupported("secret keys protected with a legacy cipher octet")),
        };
        if let (SecretPart::Locked(l), KeyVersion::V6) = (&secret, public.version())
            && l.usage == 253
            && !matches!(l.s2k, S2k::Argon2 { .. })
            && !matches!(l.s2k, S2k::Iterated { .. })
        {
            return Err(Error::Malformed("v6 AEAD-protected secret key with a weak S2K"));
        }
        // RFC 9580 §3.7.2.1: Argon2 only with AEAD protection (usage 253).
        if let SecretPart::Locked(l) = &secret
            && l.usage != 253
            && matches!(l.s2k, S2k::Argon2 { .. })
        {
            return Err(Error::Malformed("Argon2 S2K outside AEAD protection (S2K usage 253)"));
        }
        Ok(SecretKey { public, secret, subkey })
    }

    /// A secret key from its parts, in the clear.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, generate};
    /// use tessera::openpgp::key::{KeyVersion, PublicKey, SecretKey};
    /// let (public, secret) = generate(KeyType::Ed25519)?;
    /// let key = SecretKey::from_parts(PublicKey::new(KeyVersion::V6, 1_700_000_000, public)?, secret, false);
    /// assert!(!key.is_locked() && !key.is_subkey());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn from_parts(public: PublicKey, secret: SecretMaterial, subkey: bool) -> Self {
        SecretKey { public, secret: SecretPart::Plain(secret), subkey }
    }

    /// Appends the packet body.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let primary = key.primary.secret().expect("a secret key");
    /// let mut body = Vec::new();
    /// primary.write(&mut body);
    /// // The public fields, usage octet 0 (in the clear), the Ed25519 seed.
    /// assert!(body.starts_with(primary.public().body()));
    /// assert_eq!(body.len(), primary.public().body().len() + 1 + 32);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.public.body());
        match &self.secret {
            SecretPart::Plain(m) => {
                out.push(0);
                let s = m.to_vec();
                out.extend_from_slice(&s);
                if self.public.version() == KeyVersion::V4 {
                    out.extend_from_slice(&checksum(&s));
                }
            }
            SecretPart::Locked(l) => l.write(self.public.version(), out),
        }
    }

    /// The public part.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let secret = key.primary.secret().expect("a secret key");
    /// assert_eq!(secret.public().fingerprint(), key.fingerprint());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn public(&self) -> &PublicKey {
        &self.public
    }

    /// Whether this is a subkey packet.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert!(key.subkeys[0].key.secret().is_some_and(|s| s.is_subkey()));
    /// assert!(key.primary.secret().is_some_and(|s| !s.is_subkey()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn is_subkey(&self) -> bool {
        self.subkey
    }

    /// Whether the secret fields are password-protected.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a4_secret = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a4_v6_secret.asc"));
    /// let plain = Cert::from_bytes(a4_secret)?; // RFC 9580 A.4
    /// # let a5_locked = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a5_v6_secret_locked.asc"));
    /// let locked = Cert::from_bytes(a5_locked)?; // RFC 9580 A.5
    /// assert!(plain.primary.secret().is_some_and(|s| !s.is_locked()));
    /// assert!(locked.primary.secret().is_some_and(|s| s.is_locked()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn is_locked(&self) -> bool {
        matches!(self.secret, SecretPart::Locked(_))
    }

    /// The secret fields, when in the clear.
    ///
    /// ```
    /// use tessera::openpgp::Error;
    /// use tessera::openpgp::key::{Cert, KeyError};
    /// # let a5_locked = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a5_v6_secret_locked.asc"));
    /// let locked = Cert::from_bytes(a5_locked)?; // RFC 9580 A.5
    /// let primary = locked.primary.secret().expect("a secret key");
    /// assert!(matches!(primary.secret(), Err(Error::Key(KeyError::Locked(_)))));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn secret(&self) -> Result<&SecretMaterial> {
        match &self.secret {
            SecretPart::Plain(m) => Ok(m),
            SecretPart::Locked(_) => Err(KeyError::Locked(self.public.fingerprint()).into()),
        }
    }

    /// How the secret fields are stored: the S2K usage octet, cipher, AEAD
    /// mode and S2K of a locked key; `None` in the clear.
    pub(crate) fn protection(&self) -> Option<(u8, SymAlg, Option<Mode>, &S2k)> {
        match &self.secret {
            SecretPart::Plain(_) => None,
            SecretPart::Locked(l) => Some((l.usage, l.cipher, l.aead, &l.s2k)),
        }
    }

    fn tag(&self) -> u8 {
        if self.subkey { 0xc7 } else { 0xc5 }
    }

    /// AEAD key (HKDF-SHA256, info = tag || version || cipher || AEAD) and
    /// associated data (tag || public key body), RFC 9580 §5.5.3.
    fn aead_params(&self, s2k_key: &[u8], cipher: SymAlg, aead: Mode) -> (Zeroizing<Vec<u8>>, Vec<u8>) {
        let info = [self.tag(), self.public.version().id(), cipher.id(), aead.id()];
        let mut kek = Zeroizing::new(vec![0u8; cipher.key_len()]);
        Hkdf::<Sha256>::new(None, s2k_key).expand(&info, &mut kek).expect("short output");
        let mut ad = vec![self.tag()];
        ad.extend_from_slice(self.public.body());
        (kek, ad)
    }

    /// Decrypts the secret fields with `password` and checks them against the
    /// public key; the packet itself stays as it is.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, KEY_UNLOCK_LIMITS, KeyProfile, generate};
    /// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
    /// let mut sub = generate(&opts)?.subkeys[0].key.secret().expect("a secret key").clone();
    /// sub.lock(b"pw")?;
    /// let material = sub.unlock(b"pw", &KEY_UNLOCK_LIMITS)?;
    /// material.check(sub.public().material())?;
    /// assert!(sub.is_locked()); // the packet stays locked
    /// assert!(sub.unlock(b"wrong", &KEY_UNLOCK_LIMITS).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn unlock(&self, password: &[u8], limits: &S2kLimits) -> Result<SecretMaterial> {
        let l = match &self.secret {
            SecretPart::Plain(m) => return Ok(m.clone()),
            SecretPart::Locked(l) => l,
        };
        let wrong = || Error::from(KeyError::WrongKeyPassword(self.public.fingerprint()));
        let key = l.s2k.derive(password, l.cipher.key_len(), limits)?;
        let mut plain = Zeroizing::new(l.data.clone());
        let material_len = match l.aead {
            Some(aead) => {
                let n = plain.len().checked_sub(TAG_LEN).ok_or(Error::Malformed("secret key is cut short"))?;
                let tag: [u8; TAG_LEN] = plain[n..].try_into().expect("16");
                let (kek, ad) = self.aead_params(&key, l.cipher, aead);
                Aead::new(aead, &kek)?
                    .open_in_place_separate_tag(
                        Nonce::assume_unique_for_key(&l.iv),
                        Aad::new(&ad),
                        &mut plain[..n],
                        &tag,
                    )
                    .map_err(|_| wrong())?;
                n
            }
            None => {
                cfb(&key, &l.iv, &mut plain, Direction::Decrypt)?;
                let n = plain.len().checked_sub(20).ok_or_else(wrong)?;
                let sum = sha1::Sha1::digest(&plain[..n]);
                if !bool::from(subtle::ConstantTimeEq::ct_eq(&sum[..], &plain[n..])) {
                    return Err(wrong());
                }
                n
            }
        };
        let mut input = &plain[..material_len];
        let m = SecretMaterial::parse(self.public.material(), &mut input).map_err(|_| wrong())?;
        if !input.is_empty() {
            return Err(wrong());
        }
        m.check(self.public.material()).map_err(|_| wrong())?;
        Ok(m)
    }

    /// Replaces locked secret fields by their decrypted form.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, KEY_UNLOCK_LIMITS, KeyProfile, generate};
    /// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
    /// let mut sub = generate(&opts)?.subkeys[0].key.secret().expect("a secret key").clone();
    /// sub.lock(b"pw")?;
    /// sub.decrypt_in_place(b"pw", &KEY_UNLOCK_LIMITS)?;
    /// assert!(!sub.is_locked() && sub.secret().is_ok());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn decrypt_in_place(&mut self, password: &[u8], limits: &S2kLimits) -> Result<()> {
        let m = self.unlock(password, limits)?;
        self.secret = SecretPart::Plain(m);
        Ok(())
    }

    /// Encrypts the (plain) secret fields under `password`: v6 keys with
    /// AEAD (OCB, AES-256) and Argon2id with RFC 9580 §3.7.1.4's second
    /// recommended parameters, t = 3, p = 4, 64 MiB (usage 253); v4 keys with CFB, AES-256,
    /// iterated and salted SHA-256 S2K and the SHA-1 check (usage 254), which
    /// GnuPG 2.2 reads.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, KeyProfile, generate};
    /// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
    /// let mut sub = generate(&opts)?.subkeys[0].key.secret().expect("a secret key").clone();
    /// let mut clear = Vec::new();
    /// sub.write(&mut clear);
    /// sub.lock(b"pw")?;
    /// let mut locked = Vec::new();
    /// sub.write(&mut locked);
    /// assert_eq!(locked[sub.public().body().len()], 254); // usage: CFB with the SHA-1 check
    /// assert_ne!(clear, locked);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn lock(&mut self, password: &[u8]) -> Result<()> {
        let m = self.secret()?.to_vec();
        let cipher = SymAlg::Aes256;
        let v6 = self.public.version() == KeyVersion::V6;
        let s2k = if v6 {
            let mut salt = [0u8; 16];
            random(&mut salt)?;
            S2k::Argon2 { salt, t: 3, p: 4, m: 16 }
        } else {
            let mut salt = [0u8; 8];
            random(&mut salt)?;
            S2k::Iterated { hash: HashAlg::Sha256, salt, count: 0xff }
        };
        let limits = S2kLimits::UNLIMITED; // our own parameters, chosen above
        let key = s2k.derive(password, cipher.key_len(), &limits)?;
        let locked = if v6 {
            let aead = Mode::Ocb;
            let mut iv = vec![0u8; aead.nonce_len()];
            random(&mut iv)?;
            let (kek, ad) = self.aead_params(&key, cipher, aead);
            let mut data = m.to_vec();
            let tag = Aead::new(aead, &kek)?.seal_in_place_separate_tag(
                Nonce::assume_unique_for_key(&iv),
                Aad::new(&ad),
                &mut data,
            )?;
            data.extend_from_slice(&tag);
            Locked { usage: 253, cipher, aead: Some(aead), s2k, iv, data }
        } else {
            let mut iv = vec![0u8; 16];
            random(&mut iv)?;
            let mut data = m.to_vec();
            data.extend_from_slice(&sha1::Sha1::digest(&m[..]));
            cfb(&key, &iv, &mut data, Direction::Encrypt)?;
            Locked { usage: 254, cipher, aead: None, s2k, iv, data }
        };
        self.secret = SecretPart::Locked(locked);
        Ok(())
    }

    /// Unlocks with `old` and locks again with `new`; `new` empty leaves the
    /// key in the clear.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, KEY_UNLOCK_LIMITS, KeyProfile, generate};
    /// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
    /// let mut sub = generate(&opts)?.subkeys[0].key.secret().expect("a secret key").clone();
    /// sub.lock(b"old")?;
    /// // An empty new password removes the protection.
    /// sub.change_password(b"old", b"", &KEY_UNLOCK_LIMITS)?;
    /// assert!(!sub.is_locked());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn change_password(&mut self, old: &[u8], new: &[u8], limits: &S2kLimits) -> Result<()> {
        self.decrypt_in_place(old, limits)?;
        if !new.is_empty() {
            self.lock(new)?;
        }
        Ok(())
    }
}
