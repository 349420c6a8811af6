//! Which way a cipher runs.

/// Which way a cipher runs, across FPE, the AEAD kernels and the front ends.
///
/// ```
/// use tessera::fpe::{Alphabet, FF1, Fpe};
/// use tessera::Direction;
/// let ff1 = FF1::new(&[0x2b; 16], Alphabet::digits())?;
/// let mut token = String::new();
/// ff1.transform_into(Direction::Encrypt, b"tweak", "4111111111111111", &mut token)?;
/// assert_eq!(token, ff1.encrypt(b"tweak", "4111111111111111")?);
/// let mut back = String::new();
/// ff1.transform_into(Direction::Encrypt.reverse(), b"tweak", &token, &mut back)?;
/// assert_eq!(back, "4111111111111111");
/// # Ok::<(), tessera::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Plaintext to ciphertext.
    Encrypt,
    /// Ciphertext to plaintext.
    Decrypt,
}

impl Direction {
    /// Whether this is [`Direction::Encrypt`].
    ///
    /// ```
    /// assert!(tessera::Direction::Encrypt.is_encrypt());
    /// assert!(!tessera::Direction::Decrypt.is_encrypt());
    /// ```
    #[inline(always)]
    pub const fn is_encrypt(self) -> bool {
        matches!(self, Direction::Encrypt)
    }

    /// The other direction.
    ///
    /// ```
    /// use tessera::Direction;
    /// assert_eq!(Direction::Encrypt.reverse(), Direction::Decrypt);
    /// assert_eq!(Direction::Decrypt.reverse(), Direction::Encrypt);
    /// ```
    #[inline]
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::Encrypt => Direction::Decrypt,
            Direction::Decrypt => Direction::Encrypt,
        }
    }

    /// Round `r` of `rounds` counted in this direction: `r` when encrypting,
    /// `rounds - 1 - r` when decrypting (Feistel rounds run backwards).
    #[inline(always)]
    pub(crate) const fn round(self, r: usize, rounds: usize) -> usize {
        match self {
            Direction::Encrypt => r,
            Direction::Decrypt => rounds - 1 - r,
        }
    }
}
