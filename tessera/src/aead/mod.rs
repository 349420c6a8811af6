//! Authenticated encryption for chunked data: OCB (RFC 7253), EAX and GCM,
//! the three modes of RFC 9580 section 5.13 (SEIPD v2 chunks).
//!
//! Every mode implements one small trait, [`AeadInPlace`]: seal a buffer in
//! place and return the 16-byte tag separately, or open a buffer in place
//! given the tag. A cipher is built once per key (16, 24 or 32 bytes: AES-128,
//! AES-192 or AES-256), is `Send + Sync`, and seals and opens from `&self`
//! without touching the heap, so one instance serves every chunk and thread.
//!
//! | mode | type | nonce | implementation |
//! |---|---|---|---|
//! | OCB3 (RFC 7253), OpenPGP id 2 | [`Ocb`] | 1..=15 bytes (OpenPGP: 15) | ours: a VAES kernel where the CPU has it, else many blocks per AES backend call |
//! | EAX (Bellare, Rogaway, Wagner 2004), OpenPGP id 1 | [`Eax`] | any length (OpenPGP: 16) | ours, CMAC chain interleaved with CTR |
//! | GCM (NIST SP 800-38D), OpenPGP id 3 | [`Gcm`] | 12 bytes | *ring* (AES-128/256) or RustCrypto `aes-gcm` |
//!
//! **A nonce must never repeat under one key.** Reusing a nonce with GCM
//! reveals the authentication key; with OCB and EAX it reveals the XOR of the
//! two plaintexts. OpenPGP derives each chunk's nonce from a fresh IV and the
//! chunk index, which is how this trait is meant to be used.
//!
//! ```
//! use tessera::aead::{Aad, AeadInPlace, Nonce, Ocb};
//!
//! let key = [0x11u8; 16];
//! let ocb = Ocb::new(&key)?;
//! let nonce = [0x22u8; 15];
//! let mut buf = *b"chunk of plaintext";
//! let tag = ocb.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"header"), &mut buf)?;
//! assert_ne!(&buf, b"chunk of plaintext");
//! ocb.open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"header"), &mut buf, &tag)?;
//! assert_eq!(&buf, b"chunk of plaintext");
//! # Ok::<(), tessera::Error>(())
//! ```

mod eax;
#[cfg(target_arch = "x86_64")]
mod eax_ni;
mod gcm;
mod nonce;
mod ocb;
#[cfg(target_arch = "x86_64")]
mod ocb_vaes;

pub use eax::Eax;
pub use gcm::Gcm;
pub use nonce::{Aad, Nonce};
pub use ocb::Ocb;

use crate::Error;
use crate::wipe::Wiped;

/// A 128-bit authentication tag.
///
/// ```
/// let tag: tessera::aead::Tag = [0; tessera::TAG_LEN];
/// assert_eq!(tag.len(), 16);
/// ```
pub type Tag = [u8; crate::TAG_LEN];

/// Authenticated encryption in place with a detached 16-byte tag: the
/// interface the chunked (RFC 9580 SEIPD v2) layer uses for every mode.
///
/// Implementations are built once per key, are `Send + Sync`, and allocate
/// nothing per call. `open_in_place_separate_tag` compares tags in constant
/// time and, when they differ, overwrites `buf` with zeros so no
/// unauthenticated plaintext escapes.
///
/// **Never seal two messages with the same key and nonce.** The argument
/// types carry the rule, as *ring*'s do: a [`Nonce`] is made by
/// [`Nonce::assume_unique_for_key`], is neither `Clone` nor `Copy`, and is
/// consumed by the call; the associated data comes wrapped as an [`Aad`].
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Eax, Gcm, Nonce, Ocb};
///
/// fn roundtrip(aead: &dyn AeadInPlace, nonce: &[u8]) {
///     let mut buf = [7u8; 100];
///     let tag = aead.seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(b"ad"), &mut buf).unwrap();
///     aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(b"ad"), &mut buf, &tag).unwrap();
///     assert_eq!(buf, [7u8; 100]);
///
///     // A modified ciphertext is rejected and the buffer wiped.
///     aead.seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(b"ad"), &mut buf).unwrap();
///     buf[3] ^= 1;
///     assert!(aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(b"ad"), &mut buf, &tag).is_err());
///     assert_eq!(buf, [0u8; 100]);
/// }
/// let key = [0x42u8; 32];
/// roundtrip(&Ocb::new(&key).unwrap(), &[1; 15]);
/// roundtrip(&Eax::new(&key).unwrap(), &[1; 16]);
/// roundtrip(&Gcm::new(&key).unwrap(), &[1; 12]);
/// ```
pub trait AeadInPlace: sealed::InPlace {
    /// Encrypts `buf` in place under `nonce`, authenticating `buf` and `aad`,
    /// and returns the tag.
    ///
    /// Fails only on a nonce length the mode does not accept
    /// ([`Error::NonceLength`]) or an input longer than the mode allows
    /// ([`Error::TooLong`]); `buf` is then left unchanged.
    #[inline]
    fn seal_in_place_separate_tag(&self, nonce: Nonce<'_>, aad: Aad<'_>, buf: &mut [u8]) -> Result<Tag, Error> {
        self.seal(nonce.as_bytes(), aad.as_bytes(), buf)
    }

    /// Verifies `tag` over the ciphertext `buf` and `aad` and decrypts `buf`
    /// in place.
    ///
    /// On a tag mismatch returns [`Error::Authentication`] and leaves `buf`
    /// all zeros. A bad nonce length or an over-long input is reported as
    /// for sealing, with `buf` unchanged.
    #[inline]
    fn open_in_place_separate_tag(
        &self,
        nonce: Nonce<'_>,
        aad: Aad<'_>,
        buf: &mut [u8],
        tag: &Tag,
    ) -> Result<(), Error> {
        if self.open(nonce.as_bytes(), aad.as_bytes(), buf, tag)? {
            Ok(())
        } else {
            zeroize::Zeroize::zeroize(buf);
            Err(Error::Authentication)
        }
    }
}

/// The AEAD modes of RFC 9580 section 9.6 (table "AEAD Algorithms").
///
/// ```
/// use tessera::aead::Mode;
/// assert_eq!(Mode::from_id(2), Ok(Mode::Ocb));
/// assert_eq!(Mode::Ocb.id(), 2);
/// assert_eq!(Mode::from_id(4), Err(tessera::Error::UnsupportedAead(4)));
/// assert_eq!(Mode::Ocb.nonce_len(), 15);
/// assert_eq!(Mode::Eax.nonce_len(), 16);
/// assert_eq!(Mode::Gcm.nonce_len(), 12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// EAX (id 1).
    Eax,
    /// OCB3, RFC 7253 (id 2); the mode every OpenPGP v6 implementation must support.
    Ocb,
    /// GCM, NIST SP 800-38D (id 3).
    Gcm,
}

impl Mode {
    /// The mode with an OpenPGP AEAD algorithm id; any other id is
    /// [`Error::UnsupportedAead`].
    ///
    /// ```
    /// use tessera::aead::Mode;
    /// assert_eq!(Mode::from_id(1), Ok(Mode::Eax));
    /// assert!(Mode::from_id(0).is_err());
    /// ```
    pub fn from_id(id: u8) -> Result<Self, Error> {
        match id {
            1 => Ok(Mode::Eax),
            2 => Ok(Mode::Ocb),
            3 => Ok(Mode::Gcm),
            _ => Err(Error::UnsupportedAead(id)),
        }
    }

    /// The OpenPGP AEAD algorithm id (RFC 9580 section 9.6).
    ///
    /// ```
    /// assert_eq!(tessera::aead::Mode::Gcm.id(), 3);
    /// ```
    pub fn id(self) -> u8 {
        match self {
            Mode::Eax => 1,
            Mode::Ocb => 2,
            Mode::Gcm => 3,
        }
    }

    /// The nonce length OpenPGP uses with this mode (RFC 9580 section 9.6).
    ///
    /// ```
    /// use tessera::aead::Mode;
    /// assert_eq!(Mode::Ocb.nonce_len(), 15);
    /// ```
    pub fn nonce_len(self) -> usize {
        match self {
            Mode::Eax => 16,
            Mode::Ocb => 15,
            Mode::Gcm => 12,
        }
    }
}

/// Any of the three modes, chosen at run time (e.g. from an OpenPGP packet).
///
/// ```
/// use tessera::aead::{Aad, Aead, AeadInPlace, Mode, Nonce};
/// let aead = Aead::new(Mode::Gcm, &[3u8; 16])?;
/// let mut buf = [0u8; 40];
/// let tag = aead.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[9; 12]), Aad::empty(), &mut buf)?;
/// aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(&[9; 12]), Aad::empty(), &mut buf, &tag)?;
/// assert_eq!(aead.mode(), Mode::Gcm);
/// # Ok::<(), tessera::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Aead(Wiped<Modes>);

/// Built once per key and used in place: the size of the OCB variant (its L
/// table) costs nothing per call, and boxing it would add an indirection.
/// [`Wiped`] wipes the whole enum on drop: the EAX and GCM variants leave
/// OCB's tail unused, and moves copy stale stack contents into it.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
enum Modes {
    Ocb(Ocb),
    Eax(Eax),
    Gcm(Gcm),
}

impl Aead {
    /// Builds `mode` with a 16, 24 or 32-byte AES key.
    ///
    /// ```
    /// use tessera::aead::{Aead, Mode};
    /// assert!(Aead::new(Mode::Eax, &[0u8; 24]).is_ok());
    /// assert!(Aead::new(Mode::Ocb, &[0u8; 15]).is_err());
    /// ```
    pub fn new(mode: Mode, key: &[u8]) -> Result<Self, Error> {
        Ok(match mode {
            Mode::Ocb => Aead(Wiped::new(Modes::Ocb(Ocb::new(key)?))),
            Mode::Eax => Aead(Wiped::new(Modes::Eax(Eax::new(key)?))),
            Mode::Gcm => Aead(Wiped::new(Modes::Gcm(Gcm::new(key)?))),
        })
    }

    /// The mode.
    ///
    /// ```
    /// use tessera::aead::{Aead, Mode};
    /// assert_eq!(Aead::new(Mode::Ocb, &[0u8; 16]).unwrap().mode(), Mode::Ocb);
    /// ```
    pub fn mode(&self) -> Mode {
        match &*self.0 {
            Modes::Ocb(_) => Mode::Ocb,
            Modes::Eax(_) => Mode::Eax,
            Modes::Gcm(_) => Mode::Gcm,
        }
    }

    /// The mode's cipher.
    fn in_place(&self) -> &dyn InPlace {
        match &*self.0 {
            Modes::Ocb(a) => a,
            Modes::Eax(a) => a,
            Modes::Gcm(a) => a,
        }
    }
}

impl InPlace for Aead {
    #[inline]
    fn seal(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        self.in_place().seal(nonce, ad, buf)
    }

    #[inline]
    fn open(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &Tag) -> Result<bool, Error> {
        self.in_place().open(nonce, ad, buf, tag)
    }
}

/// What each mode implements, on plain byte slices: [`AeadInPlace`] is
/// written once over it (the nonce and associated data out of their
/// wrappers; on opening, the wipe of `buf` when the tag does not match).
/// Public in a private module: a bound of the public trait that nothing
/// outside the crate can name or implement.
mod sealed {
    use super::Tag;
    use crate::Error;

    pub trait InPlace: Send + Sync {
        /// Encrypts `buf` in place under `nonce`, authenticating `buf` and `ad`,
        /// and returns the tag (the errors of
        /// [`AeadInPlace::seal_in_place_separate_tag`](super::AeadInPlace::seal_in_place_separate_tag),
        /// `buf` unchanged).
        fn seal(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Tag, Error>;

        /// Decrypts `buf` in place under `nonce` and returns whether `tag`
        /// authenticates it and `ad`, compared in constant time (the errors of
        /// [`AeadInPlace::open_in_place_separate_tag`](super::AeadInPlace::open_in_place_separate_tag)
        /// but [`Error::Authentication`], `buf` unchanged).
        fn open(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &Tag) -> Result<bool, Error>;
    }
}

pub(crate) use sealed::InPlace;

impl<T: InPlace> AeadInPlace for T {}

/// Whether `tag` is `expected`, compared in constant time.
#[inline]
fn tag_matches(expected: &Tag, tag: &Tag) -> bool {
    use subtle::ConstantTimeEq;
    expected.ct_eq(tag).into()
}
