//! AES-GCM (NIST SP 800-38D) with 96-bit nonces and 128-bit tags, behind
//! [`AeadInPlace`](super::AeadInPlace).
//!
//! GCM is not ours: the fastest vetted implementation that builds here is
//! wrapped. Measured side by side on this machine (AES-128-GCM seal, 1 MiB;
//! `tessera/benches/aead.rs`), *ring* leads aws-lc-rs and RustCrypto
//! `aes-gcm`, so with the default feature `gcm-ring` AES-128 and AES-256 go
//! through *ring*'s assembly (AES-NI/VAES with CLMUL, stitched). *ring* has
//! no AES-192-GCM, so 24-byte keys, and every key when the feature is off,
//! use RustCrypto `aes-gcm` (pure Rust) over tessera's `Aes`.

#[cfg(feature = "gcm-ring")]
use core::ops::RangeFrom;

use aes::cipher::consts::U12;
use aes_gcm::{AeadInOut, AesGcm};

use super::{InPlace, Tag};
use crate::Error;
use crate::aes::{Aes, CipherTraits};
#[cfg(feature = "gcm-ring")]
use crate::wipe::Wiped;

/// Longest plaintext GCM allows under one nonce: 2^36 - 32 bytes (SP 800-38D section 5.2.1.1).
const P_MAX: u64 = (1 << 36) - 32;
/// Longest associated data: 2^61 - 1 bytes.
const A_MAX: u64 = (1 << 61) - 1;

enum Inner {
    /// *ring* does not zeroize its key schedule: `Wiped` overwrites it after
    /// its drop, in its own heap cell.
    #[cfg(feature = "gcm-ring")]
    Ring(Box<Wiped<ring::aead::LessSafeKey>>),
    // Boxed, so that no variant leaves an unused tail in the enum (moves
    // copy it, stale key material and all, and nothing would wipe it).
    Rc(Box<AesGcm<CipherTraits<Aes>, U12>>),
}

/// AES-GCM (NIST SP 800-38D) with 12-byte nonces and 16-byte tags, the
/// form OpenPGP uses (RFC 9580 section 5.13.3).
///
/// Built once per key (16, 24 or 32 bytes); `Send + Sync`; sealing and
/// opening take `&self` and allocate nothing. `Debug` shows only the key
/// size and the backend.
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Gcm, Nonce};
/// // NIST GCM test case 2 (McGrew and Viega): zero key, zero nonce, one zero block.
/// let gcm = Gcm::new(&[0u8; 16])?;
/// let mut buf = [0u8; 16];
/// let tag = gcm.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[0u8; 12]), Aad::empty(), &mut buf)?;
/// assert_eq!(buf[..4], [0x03, 0x88, 0xda, 0xce]);
/// assert_eq!(tag[..4], [0xab, 0x6e, 0x47, 0xd4]);
/// # Ok::<(), tessera::Error>(())
/// ```
///
/// # Sealing and opening
///
/// Sealing is GCM-AE (SP 800-38D section 7.1); the nonce must be 12 bytes,
/// any other length is [`Error::NonceLength`].
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Gcm, Nonce};
/// let gcm = Gcm::new(&[1u8; 32])?;
/// let mut buf = [0u8; 64];
/// assert!(gcm.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[0; 16]), Aad::empty(), &mut buf).is_err());
/// let tag = gcm.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[0; 12]), Aad::empty(), &mut buf)?;
/// # let _ = tag;
/// # Ok::<(), tessera::Error>(())
/// ```
///
/// Opening is GCM-AD (SP 800-38D section 7.2): the tag is compared in
/// constant time, and the buffer zeroed if it does not match.
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Gcm, Nonce};
/// let gcm = Gcm::new(&[1u8; 16])?;
/// let mut buf = *b"sixty-four bits";
/// let mut tag = gcm.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[5; 12]), Aad::empty(), &mut buf)?;
/// tag[0] ^= 0x80;
/// assert!(gcm.open_in_place_separate_tag(Nonce::assume_unique_for_key(&[5; 12]), Aad::empty(), &mut buf, &tag).is_err());
/// assert_eq!(buf, [0; 15]);
/// # Ok::<(), tessera::Error>(())
/// ```
pub struct Gcm {
    inner: Inner,
    key_bits: u32,
}

impl Clone for Gcm {
    fn clone(&self) -> Self {
        let inner = match &self.inner {
            #[cfg(feature = "gcm-ring")]
            Inner::Ring(k) => Inner::Ring(k.clone()),
            Inner::Rc(k) => Inner::Rc(k.clone()),
        };
        Gcm { inner, key_bits: self.key_bits }
    }
}

impl core::fmt::Debug for Gcm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Gcm(AES-{}, {}, ..)", self.key_bits, self.backend())
    }
}

impl Gcm {
    /// Builds AES-GCM from a 16, 24 or 32-byte key.
    ///
    /// ```
    /// use tessera::aead::Gcm;
    /// assert!(Gcm::new(&[0u8; 24]).is_ok());
    /// assert!(Gcm::new(&[0u8; 31]).is_err());
    /// ```
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        let key_bits = match key.len() {
            16 | 24 | 32 => 8 * key.len() as u32,
            n => return Err(Error::KeyLength { got: n, expected: "16, 24 or 32" }),
        };
        #[cfg(feature = "gcm-ring")]
        {
            let alg = match key.len() {
                16 => Some(&ring::aead::AES_128_GCM),
                32 => Some(&ring::aead::AES_256_GCM),
                _ => None,
            };
            if let Some(alg) = alg {
                let key = ring::aead::UnboundKey::new(alg, key)
                    .map_err(|_| Error::KeyLength { got: key.len(), expected: "16, 24 or 32" })?;
                return Ok(Gcm {
                    inner: Inner::Ring(Box::new(Wiped::new(ring::aead::LessSafeKey::new(key)))),
                    key_bits,
                });
            }
        }
        Ok(Gcm { inner: Inner::Rc(Box::new(AesGcm::from(CipherTraits(Aes::new(key)?)))), key_bits })
    }

    /// Which implementation serves this key: `"ring"` or `"aes-gcm"` (RustCrypto).
    ///
    /// ```
    /// use tessera::aead::Gcm;
    /// assert_eq!(Gcm::new(&[0u8; 24]).unwrap().backend(), "aes-gcm");
    /// ```
    pub fn backend(&self) -> &'static str {
        match self.inner {
            #[cfg(feature = "gcm-ring")]
            Inner::Ring(_) => "ring",
            _ => "aes-gcm",
        }
    }
}

fn check(nonce: &[u8], ad: &[u8], buf: &[u8]) -> Result<[u8; 12], Error> {
    let nonce: [u8; 12] =
        nonce.try_into().map_err(|_| Error::NonceLength { got: nonce.len(), expected: "12 (96 bits)" })?;
    if buf.len() as u64 > P_MAX {
        return Err(Error::TooLong { max: P_MAX });
    }
    if ad.len() as u64 > A_MAX {
        return Err(Error::TooLong { max: A_MAX });
    }
    Ok(nonce)
}

impl InPlace for Gcm {
    // GCM-AE (SP 800-38D section 7.1): `nonce` must be 12 bytes.
    fn seal(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        let nonce = check(nonce, ad, buf)?;
        let tag: Tag = match &self.inner {
            #[cfg(feature = "gcm-ring")]
            Inner::Ring(k) => {
                let nonce = ring::aead::Nonce::assume_unique_for_key(nonce);
                let tag = k
                    .seal_in_place_separate_tag(nonce, ring::aead::Aad::from(ad), buf)
                    .map_err(|_| Error::TooLong { max: P_MAX })?;
                tag.as_ref().try_into().expect("16-byte tag")
            }
            Inner::Rc(k) => rc_seal(&**k, &nonce, ad, buf)?,
        };
        Ok(tag)
    }

    // GCM-AD (SP 800-38D section 7.2): the tag is compared in constant time (`buf` is zeroed by
    // `AeadInPlace` if it does not match).
    fn open(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &Tag) -> Result<bool, Error> {
        let nonce = check(nonce, ad, buf)?;
        Ok(match &self.inner {
            #[cfg(feature = "gcm-ring")]
            Inner::Ring(k) => {
                let nonce = ring::aead::Nonce::assume_unique_for_key(nonce);
                let all: RangeFrom<usize> = 0..;
                k.open_in_place_separate_tag(nonce, ring::aead::Aad::from(ad), ring::aead::Tag::from(*tag), buf, all)
                    .is_ok()
            }
            Inner::Rc(k) => rc_open(&**k, &nonce, ad, buf, tag),
        })
    }
}

#[inline]
fn rc_seal<A: AeadInOut<NonceSize = U12>>(k: &A, nonce: &[u8; 12], ad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
    let tag = k.encrypt_inout_detached(nonce.into(), ad, buf.into()).map_err(|_| Error::TooLong { max: P_MAX })?;
    Ok(tag.as_slice().try_into().expect("16-byte tag"))
}

#[inline]
fn rc_open<A: AeadInOut<NonceSize = U12>>(k: &A, nonce: &[u8; 12], ad: &[u8], buf: &mut [u8], tag: &Tag) -> bool {
    k.decrypt_inout_detached(nonce.into(), ad, buf.into(), tag.as_slice().try_into().expect("16 bytes")).is_ok()
}
