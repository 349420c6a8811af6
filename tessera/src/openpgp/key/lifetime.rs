//! How long a new key is valid: a number of days or never, three years
//! unless asked otherwise (the convention of Sequoia's `sq key generate`).

use super::super::{Error, Result};

/// The days a new key is valid unless asked otherwise: three years.
///
/// ```
/// assert_eq!(tessera::openpgp::key::DEFAULT_KEY_DAYS, 3 * 365);
/// ```
pub const DEFAULT_KEY_DAYS: u32 = 1095;

/// How long a new key is valid, from its creation.
///
/// ```
/// use tessera::openpgp::key::{DEFAULT_KEY_DAYS, KeyLifetime};
/// assert_eq!(KeyLifetime::default(), KeyLifetime::Days(DEFAULT_KEY_DAYS));
/// assert_eq!("never".parse::<KeyLifetime>()?.seconds(), None);
/// assert_eq!("30".parse::<KeyLifetime>()?.seconds(), Some(30 * 86_400));
/// assert!("49711".parse::<KeyLifetime>().is_err()); // past what a key can say
/// assert!("0".parse::<KeyLifetime>().is_err());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyLifetime {
    /// The key never expires.
    Never,
    /// The key expires this many days (of 86400 seconds) after its creation.
    Days(u32),
}

impl Default for KeyLifetime {
    fn default() -> Self {
        KeyLifetime::Days(DEFAULT_KEY_DAYS)
    }
}

impl KeyLifetime {
    /// The most days a key's expiration (seconds in 32 bits) can say.
    ///
    /// ```
    /// use tessera::openpgp::key::KeyLifetime;
    /// assert!(u64::from(KeyLifetime::MAX_DAYS) * 86_400 <= u64::from(u32::MAX));
    /// ```
    pub const MAX_DAYS: u32 = u32::MAX / 86_400;

    /// Seconds from creation to expiration, as
    /// [`GenerateOptions::expires_in`](super::GenerateOptions::expires_in)
    /// takes them (`None`: never).
    ///
    /// ```
    /// use tessera::openpgp::key::KeyLifetime;
    /// assert_eq!(KeyLifetime::Days(2).seconds(), Some(172_800));
    /// assert_eq!(KeyLifetime::Never.seconds(), None);
    /// ```
    pub fn seconds(self) -> Option<u32> {
        match self {
            KeyLifetime::Never => None,
            KeyLifetime::Days(d) => Some(d.min(Self::MAX_DAYS) * 86_400),
        }
    }
}

impl std::str::FromStr for KeyLifetime {
    type Err = Error;

    /// `never`, or a number of days from 1 to [`KeyLifetime::MAX_DAYS`].
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("never") {
            return Ok(KeyLifetime::Never);
        }
        match s.parse::<u32>() {
            Ok(d) if (1..=Self::MAX_DAYS).contains(&d) => Ok(KeyLifetime::Days(d)),
            _ => Err(Error::InvalidOption("a key lifetime is a number of days from 1 to 49710, or never")),
        }
    }
}
