//! Symmetric cipher identifiers (RFC 9580 §9.3).

use super::{Error, Result};

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
