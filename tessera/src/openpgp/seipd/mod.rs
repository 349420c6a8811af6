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

use std::io::{self, Read, Write};

use crate::fs::CopyError;
use crate::openpgp::poison::read_checked;

mod pool;
mod threads;
mod v1;
mod v2;

pub(crate) use pool::thread_count;
pub(crate) use threads::{ParOpener, ParSealer, worth_it};
pub use v1::{MdcOpener, MdcSealer};
pub(crate) use v1::MDC_LEN;
pub use v2::{ChunkOpener, ChunkSealer, V2Header};

/// A sealer whose plaintext buffer a reader fills in place: what
/// [`read_into`] reads straight into, one copy fewer than `write_all`.
pub(crate) trait Room: Write {
    /// The free part of the buffer being filled (a full chunk is sealed
    /// first, so it is never empty).
    fn room(&mut self) -> io::Result<&mut [u8]>;
    /// Takes the first `n` octets of the last [`Room::room`] as written.
    fn advance(&mut self, n: usize) -> io::Result<()>;
}

/// Reads exactly `n` octets of `from` into `to`'s buffers, as many per
/// `read` as the buffer has room for. An input that ends sooner is a
/// [`CopyError::Read`] of kind `UnexpectedEof`.
pub(crate) fn read_into<W: Room + ?Sized>(to: &mut W, from: &mut dyn Read, mut n: u64) -> Result<(), CopyError> {
    while n > 0 {
        let room = to.room().map_err(CopyError::Write)?;
        let want = room.len().min(usize::try_from(n).unwrap_or(usize::MAX));
        let got = read_some(from, &mut room[..want])?;
        to.advance(got).map_err(CopyError::Write)?;
        n -= got as u64;
    }
    Ok(())
}

/// One `read` into the non-empty `buf` (retried if interrupted) that must
/// not meet the end of the input.
pub(crate) fn read_some(from: &mut dyn Read, buf: &mut [u8]) -> Result<usize, CopyError> {
    loop {
        return match read_checked(from, buf) {
            Ok(0) => Err(CopyError::Read(io::Error::new(io::ErrorKind::UnexpectedEof, SHRANK))),
            Ok(k) => Ok(k),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => Err(CopyError::Read(e)),
        };
    }
}

/// The error of an input that ends before the length it was said to have.
const SHRANK: &str = "the input ended before its announced length (did the file shrink while being read?)";

/// Writes `data` through `to`'s buffers, as `write_all`.
pub(crate) fn write_through<W: Room + ?Sized>(to: &mut W, mut data: &[u8]) -> io::Result<()> {
    while !data.is_empty() {
        let room = to.room()?;
        let k = room.len().min(data.len());
        room[..k].copy_from_slice(&data[..k]);
        to.advance(k)?;
        data = &data[k..];
    }
    Ok(())
}

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
