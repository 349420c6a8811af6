//! AES key wrap (RFC 3394) over the `aes-kw` crate, for the ECDH, X25519
//! and X448 session-key formats.

use aes_kw::KeyInit as _;
use zeroize::Zeroizing;

use crate::openpgp::{Error, Result};

/// Length of the integrity block RFC 3394 prepends.
const IV_LEN: usize = 8;

/// Wraps `key` (a multiple of 8 bytes, at least 16) under `kek`, whose
/// length selects AES-128/192/256.
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
