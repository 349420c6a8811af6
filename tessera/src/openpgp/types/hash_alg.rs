//! Hash algorithm identifiers (RFC 9580 §9.5).

use super::{Error, Result};

/// Hash algorithms (RFC 9580 §9.5).
///
/// SHA-1 is parsed so that legacy structures (v4 fingerprints, old binding
/// signatures, the ECDH KDF of old keys) can be checked; whether a SHA-1
/// signature counts is the signature layer's policy. MD5 and RIPEMD-160 are
/// refused.
///
/// ```
/// use tessera::openpgp::crypto::HashAlg;
/// let h = HashAlg::from_id(8).unwrap();
/// assert_eq!(h, HashAlg::Sha256);
/// assert_eq!(h.digest_len(), 32);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HashAlg {
    /// SHA-1 (2): legacy checks only.
    Sha1,
    /// SHA2-224 (11).
    Sha224,
    /// SHA2-256 (8).
    Sha256,
    /// SHA2-384 (9).
    Sha384,
    /// SHA2-512 (10).
    Sha512,
    /// SHA3-256 (12).
    Sha3_256,
    /// SHA3-512 (14).
    Sha3_512,
}

impl HashAlg {
    /// Parses an algorithm id; MD5, RIPEMD-160 and unknown ids are errors.
    ///
    /// ```
    /// use tessera::openpgp::{Error, crypto::HashAlg};
    /// assert_eq!(HashAlg::from_id(10)?, HashAlg::Sha512);
    /// assert!(matches!(HashAlg::from_id(1), Err(Error::UnsupportedHash(1)))); // MD5
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_id(id: u8) -> Result<Self> {
        Ok(match id {
            2 => HashAlg::Sha1,
            8 => HashAlg::Sha256,
            9 => HashAlg::Sha384,
            10 => HashAlg::Sha512,
            11 => HashAlg::Sha224,
            12 => HashAlg::Sha3_256,
            14 => HashAlg::Sha3_512,
            _ => return Err(Error::UnsupportedHash(id)),
        })
    }

    /// The algorithm id.
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// assert_eq!(HashAlg::Sha3_256.id(), 12);
    /// ```
    pub fn id(self) -> u8 {
        match self {
            HashAlg::Sha1 => 2,
            HashAlg::Sha256 => 8,
            HashAlg::Sha384 => 9,
            HashAlg::Sha512 => 10,
            HashAlg::Sha224 => 11,
            HashAlg::Sha3_256 => 12,
            HashAlg::Sha3_512 => 14,
        }
    }

    /// Digest length in bytes.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{HashAlg, Hasher};
    /// assert_eq!(HashAlg::Sha384.digest_len(), 48);
    /// assert_eq!(Hasher::digest(HashAlg::Sha384, b"").len(), 48);
    /// ```
    pub fn digest_len(self) -> usize {
        match self {
            HashAlg::Sha1 => 20,
            HashAlg::Sha224 => 28,
            HashAlg::Sha256 | HashAlg::Sha3_256 => 32,
            HashAlg::Sha384 => 48,
            HashAlg::Sha512 | HashAlg::Sha3_512 => 64,
        }
    }

    /// Salt length of v6 signatures made with this hash (RFC 9580 §9.5).
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// assert_eq!(HashAlg::Sha256.v6_salt_len(), 16);
    /// assert_eq!(HashAlg::Sha512.v6_salt_len(), 32);
    /// ```
    pub fn v6_salt_len(self) -> usize {
        match self {
            HashAlg::Sha1 | HashAlg::Sha224 | HashAlg::Sha256 | HashAlg::Sha3_256 => 16,
            HashAlg::Sha384 => 24,
            HashAlg::Sha512 | HashAlg::Sha3_512 => 32,
        }
    }

    /// The hashes a caller may ask new signatures to use (a command line's
    /// `--hash`); SHA-1 and SHA2-224 are not among them. Their names
    /// ([`HashAlg::name`]) parse back (`"SHA3-256".parse()`).
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// for h in HashAlg::SIGNING {
    ///     assert_eq!(h.name().parse::<HashAlg>()?, h);
    /// }
    /// assert!("SHA1".parse::<HashAlg>().is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub const SIGNING: [HashAlg; 5] =
        [HashAlg::Sha256, HashAlg::Sha384, HashAlg::Sha512, HashAlg::Sha3_256, HashAlg::Sha3_512];

    /// The algorithm's name as RFC 9580 writes it (also the armor `Hash:` name).
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// assert_eq!(HashAlg::Sha3_512.name(), "SHA3-512");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            HashAlg::Sha1 => "SHA1",
            HashAlg::Sha224 => "SHA224",
            HashAlg::Sha256 => "SHA256",
            HashAlg::Sha384 => "SHA384",
            HashAlg::Sha512 => "SHA512",
            HashAlg::Sha3_256 => "SHA3-256",
            HashAlg::Sha3_512 => "SHA3-512",
        }
    }
}
