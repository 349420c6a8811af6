//! The FPE algorithms by name, and a cipher of the one chosen at run time.

use core::str::FromStr;

use super::{Alphabet, FF1, FF3, FF3_1, Fpe};
use crate::Error;

/// One of the format-preserving ciphers, chosen by name at run time.
///
/// ```
/// use tessera::fpe::{Algorithm, Alphabet, Fpe};
/// let alg: Algorithm = "ff3-1".parse().unwrap();
/// assert_eq!(alg, Algorithm::Ff3_1);
/// let cipher = alg.cipher(&[7u8; 16], Alphabet::digits()).unwrap();
/// assert_eq!(cipher.encrypt(b"tessera", "123456").unwrap().len(), 6);
/// assert!("ff2".parse::<Algorithm>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// FF1 ([`FF1`]), name `ff1`.
    Ff1,
    /// FF3-1 ([`FF3_1`]), name `ff3-1`.
    Ff3_1,
    /// Legacy FF3 ([`FF3`], withdrawn by NIST; to read old tokens), name `ff3`.
    Ff3,
}

impl Algorithm {
    /// Every algorithm, in the order of [`Algorithm::NAMES`].
    pub const ALL: [Algorithm; 3] = [Algorithm::Ff1, Algorithm::Ff3_1, Algorithm::Ff3];

    /// The names [`FromStr`] accepts, in the order of [`Algorithm::ALL`].
    pub const NAMES: [&'static str; 3] = ["ff1", "ff3-1", "ff3"];

    /// The algorithm's name (`ff1`, `ff3-1`, `ff3`).
    ///
    /// ```
    /// assert_eq!(tessera::fpe::Algorithm::Ff3_1.name(), "ff3-1");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ff1 => "ff1",
            Algorithm::Ff3_1 => "ff3-1",
            Algorithm::Ff3 => "ff3",
        }
    }

    /// Why the method is no longer approved for new tokens, or `None` for FF1, the only FPE method
    /// NIST's second public draft of SP 800-38G Rev 1 (February 2025) keeps (FF3-1 falls to Beyne's
    /// 2021 linear attack, FF3 to Durak and Vaudenay's). Such a method is for decrypting and migrating
    /// existing tokens ([`crate::keyset::TokenSource`]).
    ///
    /// ```
    /// use tessera::fpe::Algorithm;
    /// assert!(Algorithm::Ff1.withdrawn().is_none());
    /// assert!(Algorithm::Ff3_1.withdrawn().unwrap().contains("SP 800-38G"));
    /// ```
    pub fn withdrawn(self) -> Option<&'static str> {
        match self {
            Algorithm::Ff1 => None,
            Algorithm::Ff3_1 => Some(
                "FF3-1 is withdrawn: NIST SP 800-38G Rev 1 second public draft (February 2025) approves FF1 only \
                 (Beyne's 2021 attack on the FF3-1 tweak schedule); use it to decrypt or migrate old tokens",
            ),
            Algorithm::Ff3 => Some(
                "FF3 is withdrawn: NIST removed it in SP 800-38G Rev 1 (Durak and Vaudenay's 2017 attack) and its \
                 second public draft (February 2025) approves FF1 only; use it to decrypt or migrate old tokens",
            ),
        }
    }

    /// Builds the cipher from a 16, 24 or 32-byte AES key and an alphabet.
    ///
    /// ```
    /// use tessera::fpe::{Algorithm, Alphabet};
    /// assert!(Algorithm::Ff1.cipher(&[0u8; 32], Alphabet::hex()).is_ok());
    /// assert!(Algorithm::Ff1.cipher(&[0u8; 15], Alphabet::hex()).is_err());
    /// ```
    pub fn cipher(self, key: &[u8], alphabet: Alphabet) -> Result<Box<dyn Fpe>, Error> {
        Ok(match self {
            Algorithm::Ff1 => Box::new(FF1::new(key, alphabet)?),
            Algorithm::Ff3_1 => Box::new(FF3_1::new(key, alphabet)?),
            Algorithm::Ff3 => Box::new(FF3::new(key, alphabet)?),
        })
    }
}

impl FromStr for Algorithm {
    type Err = Error;

    /// Parses `ff1`, `ff3-1` or `ff3` (exactly; no other spelling).
    fn from_str(name: &str) -> Result<Self, Error> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or(Error::UnknownName { what: "FPE algorithm", expected: "ff1, ff3-1, ff3" })
    }
}

impl core::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
#[path = "algorithm_tests.rs"]
mod tests;
