//! Symmetric-Key Encrypted Session Key packets (RFC 9580 §5.3): v6 (the
//! session key wrapped with AEAD under an HKDF-derived key) and v4 (the S2K
//! output is the session key, or decrypts it with CFB).

use hkdf::Hkdf;
use sha2::Sha256;
use zeroize::Zeroizing;

use super::cfb::Cfb;
use super::s2k::{S2k, S2kLimits};
use super::{Error, Result, SessionKey, SymAlg};
use crate::TAG_LEN;
use crate::aead::{Aad, Aead, AeadInPlace, Mode, Nonce};
use crate::aes::Aes;

/// A parsed SKESK packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skesk {
    /// Version 6.
    V6 {
        /// Cipher of the key-encryption key.
        cipher: SymAlg,
        /// AEAD mode wrapping the session key.
        aead: Mode,
        /// How the password becomes a key.
        s2k: S2k,
        /// AEAD nonce (the mode's nonce length).
        iv: Vec<u8>,
        /// The wrapped session key.
        esk: Vec<u8>,
        /// Its tag.
        tag: [u8; TAG_LEN],
    },
    /// Version 4.
    V4 {
        /// Cipher of the S2K key (and of the message when `esk` is absent).
        cipher: SymAlg,
        /// How the password becomes a key.
        s2k: S2k,
        /// The CFB-encrypted (algorithm || session key), if present.
        esk: Option<Vec<u8>>,
    },
}

/// HKDF-SHA256 key-encryption key of a v6 SKESK (RFC 9580 §5.3.1):
/// info = 0xC3 || 6 || cipher || aead, no salt.
pub fn v6_kek(s2k_key: &[u8], cipher: SymAlg, aead: Mode) -> Zeroizing<Vec<u8>> {
    let info = [0xc3, 6, cipher.id(), aead.id()];
    let mut kek = Zeroizing::new(vec![0u8; cipher.key_len()]);
    Hkdf::<Sha256>::new(None, s2k_key).expand(&info, &mut kek).expect("short output");
    kek
}

impl Skesk {
    /// Parses a SKESK body.
    pub fn parse(body: &[u8]) -> Result<Skesk> {
        let short = || Error::Malformed("SKESK packet is cut short");
        match body.first() {
            Some(6) => {
                let count = *body.get(1).ok_or_else(short)? as usize;
                let fields = body.get(2..2 + count).ok_or_else(short)?;
                if fields.len() < 3 {
                    return Err(short());
                }
                let cipher = SymAlg::from_id(fields[0])?;
                let aead = Mode::from_id(fields[1])?;
                let s2k_len = fields[2] as usize;
                let s2k_bytes = fields.get(3..3 + s2k_len).ok_or_else(short)?;
                let (s2k, used) = S2k::parse(s2k_bytes)?;
                if used != s2k_len {
                    return Err(Error::Malformed("SKESK v6 S2K length"));
                }
                let iv = &fields[3 + s2k_len..];
                if iv.len() != aead.nonce_len() {
                    return Err(Error::Malformed("SKESK v6 nonce length"));
                }
                let rest = &body[2 + count..];
                if rest.len() < TAG_LEN + 16 || rest.len() > TAG_LEN + 32 {
                    return Err(Error::Malformed("SKESK v6 encrypted key length"));
                }
                let (esk, tag) = rest.split_at(rest.len() - TAG_LEN);
                Ok(Skesk::V6 {
                    cipher,
                    aead,
                    s2k,
                    iv: iv.to_vec(),
                    esk: esk.to_vec(),
                    tag: tag.try_into().expect("16"),
                })
            }
            Some(4) => {
                let cipher = SymAlg::from_id(*body.get(1).ok_or_else(short)?)?;
                let (s2k, used) = S2k::parse(&body[2..])?;
                let esk = &body[2 + used..];
                Ok(Skesk::V4 { cipher, s2k, esk: (!esk.is_empty()).then(|| esk.to_vec()) })
            }
            Some(_) => Err(Error::Unsupported("SKESK version (4 and 6 are supported)")),
            None => Err(short()),
        }
    }

    /// Encodes the body.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Skesk::V6 { cipher, aead, s2k, iv, esk, tag } => {
                out.push(6);
                out.push((3 + s2k.encoded_len() + iv.len()) as u8);
                out.extend_from_slice(&[cipher.id(), aead.id(), s2k.encoded_len() as u8]);
                s2k.write(out);
                out.extend_from_slice(iv);
                out.extend_from_slice(esk);
                out.extend_from_slice(tag);
            }
            Skesk::V4 { cipher, s2k, esk } => {
                out.extend_from_slice(&[4, cipher.id()]);
                s2k.write(out);
                if let Some(esk) = esk {
                    out.extend_from_slice(esk);
                }
            }
        }
    }

    /// Wraps `session_key` for `password` in a v6 SKESK.
    pub fn seal_v6(
        session_key: &[u8],
        password: &[u8],
        cipher: SymAlg,
        aead: Mode,
        s2k: S2k,
        iv: &[u8],
    ) -> Result<Skesk> {
        if iv.len() != aead.nonce_len() {
            return Err(Error::InvalidOption("SKESK v6 nonce length (the AEAD mode's nonce length)"));
        }
        let key = s2k.derive(password, cipher.key_len(), &S2kLimits::UNLIMITED)?;
        let kek = v6_kek(&key, cipher, aead);
        let mut esk = session_key.to_vec();
        let tag = Aead::new(aead, &kek)?.seal_in_place_separate_tag(
            Nonce::assume_unique_for_key(iv),
            Aad::new(&[0xc3, 6, cipher.id(), aead.id()]),
            &mut esk,
        )?;
        Ok(Skesk::V6 { cipher, aead, s2k, iv: iv.to_vec(), esk, tag })
    }

    /// Wraps `session_key` (for `sk_alg`) for `password` in a v4 SKESK with
    /// an encrypted session key.
    pub fn seal_v4(session_key: &[u8], sk_alg: SymAlg, password: &[u8], cipher: SymAlg, s2k: S2k) -> Result<Skesk> {
        let key = s2k.derive(password, cipher.key_len(), &S2kLimits::UNLIMITED)?;
        let mut esk = Vec::with_capacity(1 + session_key.len());
        esk.push(sk_alg.id());
        esk.extend_from_slice(session_key);
        Cfb::new(Aes::new(&key).map_err(|_| Error::InvalidOption("key length"))?).encrypt(&mut esk);
        Ok(Skesk::V4 { cipher, s2k, esk: Some(esk) })
    }

    /// The S2K specifier.
    pub fn s2k(&self) -> &S2k {
        match self {
            Skesk::V6 { s2k, .. } | Skesk::V4 { s2k, .. } => s2k,
        }
    }

    /// The work (KiB processed, see [`S2k::work_kib`]) of deriving this
    /// packet's key from a password.
    pub fn work_kib(&self) -> u64 {
        match self {
            Skesk::V6 { cipher, s2k, .. } | Skesk::V4 { cipher, s2k, .. } => s2k.work_kib(cipher.key_len()),
        }
    }

    /// Recovers the session key with `password`. A v6 packet proves the
    /// password right or wrong ([`Error::WrongPassword`]); a v4 packet
    /// cannot (the SEIPD packet will tell).
    pub fn decrypt(&self, password: &[u8], limits: &S2kLimits) -> Result<SessionKey> {
        match self {
            Skesk::V6 { cipher, aead, s2k, iv, esk, tag } => {
                let key = s2k.derive(password, cipher.key_len(), limits)?;
                let kek = v6_kek(&key, *cipher, *aead);
                let mut sk = Zeroizing::new(esk.clone());
                Aead::new(*aead, &kek)?
                    .open_in_place_separate_tag(
                        Nonce::assume_unique_for_key(iv),
                        Aad::new(&[0xc3, 6, cipher.id(), aead.id()]),
                        &mut sk,
                        tag,
                    )
                    .map_err(|_| Error::WrongPassword)?;
                Ok(SessionKey { alg: None, key: sk })
            }
            Skesk::V4 { cipher, s2k, esk } => {
                let key = s2k.derive(password, cipher.key_len(), limits)?;
                match esk {
                    None => Ok(SessionKey { alg: Some(*cipher), key }),
                    Some(esk) => {
                        let mut plain = Zeroizing::new(esk.clone());
                        Cfb::new(Aes::new(&key).map_err(|_| Error::InvalidOption("key length"))?).decrypt(&mut plain);
                        let alg = SymAlg::from_id(plain[0]).map_err(|_| Error::WrongPassword)?;
                        if plain.len() != 1 + alg.key_len() {
                            return Err(Error::WrongPassword);
                        }
                        Ok(SessionKey { alg: Some(alg), key: Zeroizing::new(plain[1..].to_vec()) })
                    }
                }
            }
        }
    }
}
