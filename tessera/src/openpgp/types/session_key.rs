//! The session key of a message: what a PKESK or SKESK packet carries and
//! the SEIPD packet is encrypted with.

use zeroize::Zeroizing;

use super::SymAlg;

/// A session key: the key of the SEIPD packet. Zeroized on drop; `Debug`
/// shows only its length.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, Profile, SymAlg};
/// let opts = EncryptOptions::for_profile(Profile::Rfc4880, None, 96)?;
/// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
/// enc.write_all(b"data")?;
/// let message = enc.finish()?;
/// let key = Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?.session_key().clone();
/// // SEIPD v1: the packet names the cipher.
/// assert_eq!((key.alg, key.key.len()), (Some(SymAlg::Aes256), 32));
/// assert_eq!(format!("{key:?}"), "SessionKey(Some(Aes256), 32 bytes)"); // never the key
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Clone)]
pub struct SessionKey {
    /// The cipher, when the packet names it (SKESK v4, SEIPD v1); for SEIPD
    /// v2 the cipher is in the SEIPD header.
    pub alg: Option<SymAlg>,
    /// The key bytes.
    pub key: Zeroizing<Vec<u8>>,
}

impl std::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SessionKey({:?}, {} bytes)", self.alg, self.key.len())
    }
}
