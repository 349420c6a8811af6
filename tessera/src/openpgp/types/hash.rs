//! Streaming hashing over the RustCrypto `sha1`, `sha2` and `sha3` crates.

use sha2::Digest as _;

use super::HashAlg;

/// A running hash of one of the [`HashAlg`] algorithms.
///
/// It is also an [`std::io::Write`], so a reader can be copied into it.
///
/// ```
/// use tessera::openpgp::crypto::{HashAlg, Hasher};
/// let mut h = Hasher::new(HashAlg::Sha256);
/// h.update(b"ab");
/// h.update(b"c");
/// let digest = h.finalize();
/// assert_eq!(digest[..4], [0xba, 0x78, 0x16, 0xbf]);
/// ```
#[derive(Clone)]
pub enum Hasher {
    /// SHA-1 (collision-detecting implementation of the `sha1` crate).
    Sha1(sha1::Sha1),
    /// SHA2-224.
    Sha224(sha2::Sha224),
    /// SHA2-256.
    Sha256(sha2::Sha256),
    /// SHA2-384.
    Sha384(sha2::Sha384),
    /// SHA2-512.
    Sha512(sha2::Sha512),
    /// SHA3-256.
    Sha3_256(sha3::Sha3_256),
    /// SHA3-512.
    Sha3_512(sha3::Sha3_512),
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hasher({:?})", self.alg())
    }
}

impl Hasher {
    /// Starts a hash.
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::crypto::{HashAlg, Hasher};
    /// // A Hasher is a Write: copy a reader into it.
    /// let mut h = Hasher::new(HashAlg::Sha512);
    /// std::io::copy(&mut &b"abc"[..], &mut h)?;
    /// assert_eq!(h.finalize(), Hasher::digest(HashAlg::Sha512, b"abc"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(alg: HashAlg) -> Hasher {
        match alg {
            HashAlg::Sha1 => Hasher::Sha1(sha1::Sha1::new()),
            HashAlg::Sha224 => Hasher::Sha224(sha2::Sha224::new()),
            HashAlg::Sha256 => Hasher::Sha256(sha2::Sha256::new()),
            HashAlg::Sha384 => Hasher::Sha384(sha2::Sha384::new()),
            HashAlg::Sha512 => Hasher::Sha512(sha2::Sha512::new()),
            HashAlg::Sha3_256 => Hasher::Sha3_256(sha3::Sha3_256::new()),
            HashAlg::Sha3_512 => Hasher::Sha3_512(sha3::Sha3_512::new()),
        }
    }

    /// The algorithm.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{HashAlg, Hasher};
    /// assert_eq!(Hasher::new(HashAlg::Sha3_256).alg(), HashAlg::Sha3_256);
    /// ```
    pub fn alg(&self) -> HashAlg {
        match self {
            Hasher::Sha1(_) => HashAlg::Sha1,
            Hasher::Sha224(_) => HashAlg::Sha224,
            Hasher::Sha256(_) => HashAlg::Sha256,
            Hasher::Sha384(_) => HashAlg::Sha384,
            Hasher::Sha512(_) => HashAlg::Sha512,
            Hasher::Sha3_256(_) => HashAlg::Sha3_256,
            Hasher::Sha3_512(_) => HashAlg::Sha3_512,
        }
    }

    /// Hashes more data.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{HashAlg, Hasher};
    /// let mut h = Hasher::new(HashAlg::Sha1);
    /// h.update(b"a");
    /// h.update(b"bc");
    /// assert_eq!(h.finalize()[..4], [0xa9, 0x99, 0x3e, 0x36]); // SHA-1("abc")
    /// ```
    pub fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Sha1(h) => h.update(data),
            Hasher::Sha224(h) => h.update(data),
            Hasher::Sha256(h) => h.update(data),
            Hasher::Sha384(h) => h.update(data),
            Hasher::Sha512(h) => h.update(data),
            Hasher::Sha3_256(h) => h.update(data),
            Hasher::Sha3_512(h) => h.update(data),
        }
    }

    /// Finishes the hash; the result has [`HashAlg::digest_len`] bytes.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{HashAlg, Hasher};
    /// let digest = Hasher::new(HashAlg::Sha224).finalize();
    /// assert_eq!(digest.len(), HashAlg::Sha224.digest_len());
    /// ```
    pub fn finalize(self) -> Vec<u8> {
        match self {
            Hasher::Sha1(h) => h.finalize().to_vec(),
            Hasher::Sha224(h) => h.finalize().to_vec(),
            Hasher::Sha256(h) => h.finalize().to_vec(),
            Hasher::Sha384(h) => h.finalize().to_vec(),
            Hasher::Sha512(h) => h.finalize().to_vec(),
            Hasher::Sha3_256(h) => h.finalize().to_vec(),
            Hasher::Sha3_512(h) => h.finalize().to_vec(),
        }
    }

    /// Hashes `data` in one call.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{HashAlg, Hasher};
    /// let d = Hasher::digest(HashAlg::Sha256, b"abc");
    /// assert_eq!(d[..4], [0xba, 0x78, 0x16, 0xbf]);
    /// ```
    pub fn digest(alg: HashAlg, data: &[u8]) -> Vec<u8> {
        let mut h = Hasher::new(alg);
        h.update(data);
        h.finalize()
    }
}

impl std::io::Write for Hasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
