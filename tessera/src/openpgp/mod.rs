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
mod file_input;
#[cfg(feature = "internals")]
pub mod hostile;
pub mod inspect;
pub mod key;
mod message;
mod plain;
mod poison;
mod session;
pub mod sig;
mod signcrypt;
mod types;
internal_mods!(packet, pkesk, seipd, skesk);
#[cfg(feature = "internals")]
pub use types::s2k;
#[cfg(not(feature = "internals"))]
pub(crate) use types::s2k;

pub use decrypt::{DecryptOptions, Decryptor, LiteralInfo};
pub use encrypt::{EMPTY_PASSWORD, EncryptOptions, Encryptor, MAX_FILENAME_LEN};
pub use seipd::MAX_CHUNK_OCTET;
pub use signcrypt::{SigningEncryptor, Verified, VerifyingDecryptor};
pub use types::S2kLimits;
pub use types::{Error, Profile, Result, S2kChoice, S2kKind, SeipdVersion, SessionKey, SymAlg};

/// Fills `buf` with random bytes from the operating system.
pub(crate) fn random(buf: &mut [u8]) -> Result<()> {
    getrandom::fill(buf).map_err(|_| Error::Random)
}
