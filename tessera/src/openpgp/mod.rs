//! Password-based OpenPGP encryption (RFC 9580), streaming in constant memory.
//!
//! What this module reads and writes:
//!
//! - SKESK v6 (RFC 9580 §5.3: S2K, then HKDF-SHA256 key-encryption key, then
//!   the session key wrapped with AEAD) and SKESK v4 (what GnuPG 2.2 and
//!   RFC 4880 implementations write);
//! - SEIPD v2 (§5.13.2: salt, HKDF message key and IV, AEAD chunks with the
//!   nonce `IV || chunk index`, a final tag over the total length) with OCB,
//!   EAX or GCM over AES-128/192/256, and SEIPD v1 (§5.13.1: CFB + MDC);
//! - literal data, compressed data (reading: ZIP and ZLIB), padding and
//!   marker packets, old and new packet headers, partial body lengths;
//! - ASCII armor (§6), read with or without the CRC24, written without it
//!   for v2 messages.
//!
//! [`Encryptor`] is an [`std::io::Write`] (call [`Encryptor::finish`]: it writes
//! the last chunk and the final tag) and [`Decryptor`] an [`std::io::Read`].
//! Both hold one chunk-plus-tag buffer that is sealed or opened in place, so
//! memory and the number of allocations do not depend on the message size.
//! The decryptor releases a chunk only after its tag verifies; the end of the
//! stream is reported (`Ok(0)`) only after the final tag verifies.
//!
//! ```
//! use std::io::{Read, Write};
//! use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
//!
//! let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
//! let mut enc = Encryptor::new(Vec::new(), &[b"password".as_slice()], &opts).unwrap();
//! enc.write_all(b"Hello, world!").unwrap();
//! let message = enc.finish().unwrap();
//!
//! let mut dec = Decryptor::new(message.as_slice(), &[b"password".as_slice()]).unwrap();
//! let mut out = Vec::new();
//! dec.read_to_end(&mut out).unwrap();
//! assert_eq!(out, b"Hello, world!");
//! ```

/// Declares the engine modules: public with the `internals` feature (for
/// the fuzz harness and the integration tests; unstable, outside semver),
/// crate-private otherwise. What applications need from them is
/// re-exported below.
macro_rules! internal_mods {
    ($($name:ident),+ $(,)?) => {
        $(
            #[cfg(feature = "internals")]
            pub mod $name;
            #[cfg(not(feature = "internals"))]
            pub(crate) mod $name;
        )+
    };
}

pub mod armor;
mod cfb;
pub mod crypto;
mod decrypt;
mod encrypt;
mod error;
mod file_input;
#[cfg(feature = "internals")]
pub mod hostile;
pub mod inspect;
pub mod key;
mod message;
mod names;
mod options;
mod plain;
mod poison;
mod session;
pub mod sig;
mod signcrypt;
internal_mods!(packet, pkesk, s2k, seipd, skesk);

pub use decrypt::{Decryptor, LiteralInfo};
pub use encrypt::Encryptor;
pub use error::Error;
pub use options::{
    DecryptOptions, EMPTY_PASSWORD, EncryptOptions, MAX_FILENAME_LEN, Profile, S2kChoice, S2kKind, SeipdVersion,
};
pub use s2k::S2kLimits;
pub use seipd::MAX_CHUNK_OCTET;
pub use signcrypt::{SigningEncryptor, Verified, VerifyingDecryptor};
pub use skesk::SessionKey;

/// Result type of this module.
///
/// ```
/// use tessera::openpgp::{Error, Result, SymAlg};
/// fn cipher(id: u8) -> Result<SymAlg> {
///     SymAlg::from_id(id)
/// }
/// assert!(matches!(cipher(2), Err(Error::UnsupportedCipher(2))));
/// ```
pub type Result<T> = std::result::Result<T, Error>;

/// Symmetric ciphers (RFC 9580 §9.3). Only AES is supported.
///
/// ```
/// use tessera::openpgp::{EncryptOptions, SymAlg};
/// let opts = EncryptOptions { cipher: SymAlg::Aes128, ..EncryptOptions::default() };
/// assert_eq!(opts.cipher.key_len(), 16);
/// assert_eq!(EncryptOptions::default().cipher, SymAlg::Aes256);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymAlg {
    /// AES with a 128-bit key (id 7).
    Aes128,
    /// AES with a 192-bit key (id 8).
    Aes192,
    /// AES with a 256-bit key (id 9).
    Aes256,
}

impl SymAlg {
    /// Parses an algorithm id.
    ///
    /// ```
    /// use tessera::openpgp::{Error, SymAlg};
    /// assert_eq!(SymAlg::from_id(9).unwrap(), SymAlg::Aes256);
    /// assert!(matches!(SymAlg::from_id(3), Err(Error::UnsupportedCipher(3)))); // CAST5
    /// ```
    pub fn from_id(id: u8) -> Result<Self> {
        match id {
            7 => Ok(SymAlg::Aes128),
            8 => Ok(SymAlg::Aes192),
            9 => Ok(SymAlg::Aes256),
            _ => Err(Error::UnsupportedCipher(id)),
        }
    }
    /// The algorithm id.
    ///
    /// ```
    /// use tessera::openpgp::SymAlg;
    /// assert_eq!(SymAlg::Aes128.id(), 7);
    /// assert_eq!(SymAlg::from_id(SymAlg::Aes192.id()).unwrap(), SymAlg::Aes192);
    /// ```
    pub fn id(self) -> u8 {
        match self {
            SymAlg::Aes128 => 7,
            SymAlg::Aes192 => 8,
            SymAlg::Aes256 => 9,
        }
    }
    /// Key size in bytes.
    ///
    /// ```
    /// use tessera::openpgp::SymAlg;
    /// assert_eq!(SymAlg::Aes192.key_len(), 24);
    /// ```
    pub fn key_len(self) -> usize {
        match self {
            SymAlg::Aes128 => 16,
            SymAlg::Aes192 => 24,
            SymAlg::Aes256 => 32,
        }
    }
}

/// Fills `buf` with random bytes from the operating system.
pub(crate) fn random(buf: &mut [u8]) -> Result<()> {
    getrandom::fill(buf).map_err(|_| Error::Random)
}
