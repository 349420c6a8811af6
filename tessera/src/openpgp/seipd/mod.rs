//! Symmetrically Encrypted and Integrity Protected Data (RFC 9580 §5.13).
//!
//! - v2 (§5.13.2): the session key and a 32-octet salt give, by
//!   HKDF-SHA256 with info `0xD2 || 2 || cipher || aead || chunk octet`, the
//!   message key and an IV of N-8 octets; chunk i is sealed with the nonce
//!   `IV || i` (big-endian 64-bit) and the five info octets as associated
//!   data; after the last chunk comes a tag over the empty string with the
//!   next index as nonce and the info octets plus the total plaintext length
//!   (big-endian 64-bit) as associated data.
//! - v1 (§5.13.1): CFB with a zero IV over a random block-size prefix (its
//!   last two octets repeated), the plaintext and an MDC packet holding the
//!   SHA-1 of everything before it.
//!
//! [`ChunkSealer`] and [`ChunkOpener`] each own one buffer of a chunk plus
//! one or two tags, sealed or opened in place; the nonce is updated in
//! place. Nothing else is allocated per message.

mod mdc_hash;
mod par_open;
mod pieces;
mod pool;
mod room;
mod threads;
mod v1;
mod v2;

#[cfg(all(test, any(unix, windows)))]
mod at_offsets_tests;
#[cfg(all(test, any(unix, windows)))]
mod from_file_tests;
#[cfg(all(test, any(unix, windows)))]
mod worker_fault_tests;

pub(crate) use pool::thread_count;
pub(crate) use par_open::{ChunkSource, ParOpener};
pub(crate) use pieces::{MIN_FIRST_PIECE, PieceMap};
pub(crate) use room::{POSITIONED_READS, Room, Source, read_at, write_over_room, write_through};
pub(crate) use threads::{ParSealer, worth_it};
pub use v1::{MdcOpener, MdcSealer};
pub(crate) use v1::MDC_LEN;
pub use v2::{ChunkOpener, ChunkSealer, V2Header};

/// Octets of a SEIPD v2 header after the version octet: cipher, AEAD mode,
/// chunk size octet and the 32-octet salt.
pub const V2_HEADER_LEN: usize = 35;

/// Octets of the SEIPD v1 prefix: a random block and its last two octets
/// repeated (the quick check).
pub const V1_PREFIX_LEN: usize = 18;

/// Largest chunk size octet RFC 9580 allows (chunks of 2^22 octets).
///
/// ```
/// use tessera::openpgp::{EncryptOptions, Encryptor, Error, MAX_CHUNK_OCTET};
/// // Chunks of 2^(16+6) = 4 MiB at most; a larger octet is refused.
/// let opts = EncryptOptions { chunk_octet: MAX_CHUNK_OCTET + 1, ..EncryptOptions::default() };
/// assert!(matches!(Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts), Err(Error::InvalidOption(_))));
/// ```
pub const MAX_CHUNK_OCTET: u8 = 16;

/// Chunk size in octets for a chunk size octet: 2^(c+6).
pub fn chunk_size(octet: u8) -> usize {
    1usize << (octet as u32 + 6)
}
