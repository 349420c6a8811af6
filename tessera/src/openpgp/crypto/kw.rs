//! AES key wrap (RFC 3394) over the `aes-kw` crate, for the ECDH, X25519
//! and X448 session-key formats.
//!
//! ```
//! use tessera::openpgp::crypto::kw;
//! let (kek, session_key) = ([0x42u8; 16], [0x07u8; 16]);
//! let wrapped = kw::wrap(&kek, &session_key)?;
//! assert_eq!(wrapped.len(), 16 + 8); // the integrity block
//! assert_eq!(*kw::unwrap(&kek, &wrapped)?, session_key);
//! # Ok::<(), tessera::openpgp::Error>(())
//! ```

use aes_kw::KeyInit as _;
use zeroize::Zeroizing;

use crate::openpgp::{Error, Result};

/// Length of the integrity block RFC 3394 prepends.
const IV_LEN: usize = 8;

/// Wraps `key` (a multiple of 8 bytes, at least 16) under `kek`, whose
/// length selects AES-128/192/256.
///
/// ```
/// use tessera::openpgp::crypto::kw;
/// // RFC 3394 §4.1: 128 bits of key data under a 128-bit KEK.
/// let kek: Vec<u8> = (0u8..16).collect();
/// let key = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];
/// let wrapped = kw::wrap(&kek, &key)?;
/// assert_eq!(wrapped[..8], [0x1f, 0xa6, 0x8b, 0x0a, 0x81, 0x12, 0xb4, 0x47]);
/// assert_eq!(wrapped.len(), 24);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn wrap(kek: &[u8], key: &[u8]) -> Result<Vec<u8>> {
    let mut out = vec![0u8; key.len() + IV_LEN];
    let len = match kek.len() {
        16 => aes_kw::KwAes128::new_from_slice(kek).map(|kw| kw.wrap_key(key, &mut out).map(|w| w.len())),
        24 => aes_kw::KwAes192::new_from_slice(kek).map(|kw| kw.wrap_key(key, &mut out).map(|w| w.len())),
        32 => aes_kw::KwAes256::new_from_slice(kek).map(|kw| kw.wrap_key(key, &mut out).map(|w| w.len())),
        _ => return Err(Error::InvalidOption("key-wrap key length")),
    };
    let len = len.map_err(|_| Error::InvalidOption("key-wrap key length"))?;
    let len = len.map_err(|_| Error::InvalidOption("key to wrap must be a multiple of 8 bytes"))?;
    out.truncate(len);
    Ok(out)
}

/// Unwraps `wrapped` under `kek`; a failed integrity check is
/// [`Error::SessionKeyDecryption`].
///
/// ```
/// use tessera::openpgp::{Error, crypto::kw};
/// let kek = [7u8; 32];
/// let mut wrapped = kw::wrap(&kek, &[1u8; 32])?;
/// assert_eq!(*kw::unwrap(&kek, &wrapped)?, [1u8; 32]);
/// wrapped[0] ^= 1;
/// assert!(matches!(kw::unwrap(&kek, &wrapped), Err(Error::SessionKeyDecryption)));
/// # Ok::<(), Error>(())
/// ```
pub fn unwrap(kek: &[u8], wrapped: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    if wrapped.len() < 2 * IV_LEN + IV_LEN || !wrapped.len().is_multiple_of(IV_LEN) {
        return Err(Error::Malformed("wrapped key length"));
    }
    let mut out = Zeroizing::new(vec![0u8; wrapped.len() - IV_LEN]);
    let len = match kek.len() {
        16 => aes_kw::KwAes128::new_from_slice(kek).map(|kw| kw.unwrap_key(wrapped, &mut out).map(|k| k.len())),
        24 => aes_kw::KwAes192::new_from_slice(kek).map(|kw| kw.unwrap_key(wrapped, &mut out).map(|k| k.len())),
        32 => aes_kw::KwAes256::new_from_slice(kek).map(|kw| kw.unwrap_key(wrapped, &mut out).map(|k| k.len())),
        _ => return Err(Error::InvalidOption("key-wrap key length")),
    };
    let len = len.map_err(|_| Error::InvalidOption("key-wrap key length"))?;
    let len = len.map_err(|_| Error::SessionKeyDecryption)?;
    out.truncate(len);
    Ok(out)
}
