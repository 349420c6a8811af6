//! The library's error type.

use thiserror::Error;

/// Everything that can go wrong in tessera. Messages never contain key material.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// A key of the wrong size.
    #[error("key is {got} bytes; expected {expected}")]
    KeyLength {
        /// The length given.
        got: usize,
        /// The accepted lengths.
        expected: &'static str,
    },
    /// A radix outside 2..=65536.
    #[error("radix {0} is outside 2..=65536")]
    Radix(u32),
    /// An alphabet with fewer than 2 characters, too many, or a repeated character.
    #[error("invalid alphabet: {0}")]
    Alphabet(&'static str),
    /// A character that is not in the alphabet, at a character position (0-based).
    #[error("character {ch:?} at position {position} is not in the alphabet")]
    NotInAlphabet {
        /// The offending character.
        ch: char,
        /// Its position in the value, in characters.
        position: usize,
    },
    /// A numeral >= radix.
    #[error("numeral {numeral} at position {position} is not below the radix {radix}")]
    NumeralOutOfRange {
        /// The offending numeral.
        numeral: u32,
        /// Its position in the value.
        position: usize,
        /// The radix.
        radix: u32,
    },
    /// A value too short or too long for the domain of the cipher.
    #[error("length {len} is outside the domain {min}..={max} for radix {radix}")]
    Length {
        /// The value's length in numerals.
        len: usize,
        /// The shortest allowed (radix^min >= 1,000,000).
        min: usize,
        /// The longest allowed.
        max: usize,
        /// The radix.
        radix: u32,
    },
    /// A tweak of the wrong size.
    #[error("tweak is {got} bytes; expected {expected}")]
    TweakLength {
        /// The length given.
        got: usize,
        /// The accepted length(s).
        expected: &'static str,
    },
    /// An output buffer too small.
    #[error("output buffer holds {got}; {needed} needed")]
    BufferTooSmall {
        /// Capacity given.
        got: usize,
        /// Capacity needed.
        needed: usize,
    },
    /// A batch item failed; `index` is its position in the batch.
    #[error("item {index}: {source}")]
    Batch {
        /// Position of the failing item.
        index: usize,
        /// What went wrong with it.
        source: Box<Error>,
    },
    /// Authentication failed: the data, tag or associated data was modified or the key is wrong.
    #[error("authentication failed: wrong key or modified data")]
    Authentication,
    /// More associated-data components than AES-SIV allows (RFC 5297
    /// section 2.6: at most 126, a nonce counting as one).
    #[error("{got} associated-data components (a nonce counts as one); AES-SIV allows at most {max}")]
    TooManyAd {
        /// The number given.
        got: usize,
        /// The limit (126).
        max: usize,
    },
    /// A nonce of a length the AEAD mode does not accept.
    #[error("nonce is {got} bytes; expected {expected}")]
    NonceLength {
        /// The length given.
        got: usize,
        /// The accepted lengths.
        expected: &'static str,
    },
    /// A message or associated data longer than the mode allows under one nonce.
    #[error("input is longer than the {max} bytes the mode allows under one nonce")]
    TooLong {
        /// The largest accepted length in bytes.
        max: u64,
    },
    /// An OpenPGP AEAD algorithm id other than EAX (1), OCB (2) and GCM (3).
    #[error("unsupported AEAD mode id {0} (EAX, OCB and GCM are supported)")]
    UnsupportedAead(u8),
    /// A malformed input (encoding, framing).
    #[error("invalid input: {0}")]
    Format(&'static str),
    /// Text that is not unpadded base64url ([`crate::siv::base64url`]).
    #[error("value is not unpadded base64url (A-Z a-z 0-9 - _, no '=')")]
    Base64Url,
    /// A name (of an algorithm, a mode) that is not one of the accepted ones.
    #[error("unknown {what}; expected one of {expected}")]
    UnknownName {
        /// What was being named.
        what: &'static str,
        /// The accepted names, comma-separated.
        expected: &'static str,
    },
    /// A [`TokenFormat`](crate::fpe::TokenFormat) passthrough character that
    /// is also in the cipher's alphabet (such tokens would not decrypt).
    #[error("passthrough character {ch:?} is also in the alphabet")]
    PassthroughInAlphabet {
        /// The first such character.
        ch: char,
    },
    /// Text that is not hex: an odd number of digits, or a character other
    /// than 0-9, a-f, A-F ([`crate::hex`]).
    #[error("not hex: expected an even number of digits 0-9, a-f, A-F")]
    Hex,
    /// Key text that holds no hex digits at all ([`crate::hex::decode_key`]).
    #[error("the key text is empty")]
    EmptyKey,
}

impl Error {
    /// `e` as the error of item `index` of a batch.
    pub(crate) fn at(index: usize, e: Error) -> Error {
        Error::Batch { index, source: Box::new(e) }
    }
}

/// Walks a batch of values laid out back to back in `len` units, value `i`
/// ending at `ends[i]`: calls `check(i, start..end)` for each in order. An
/// end behind its start or past `len` is value `i`'s error, and so is what
/// `check` returns.
pub(crate) fn check_ends(
    len: usize,
    ends: &[usize],
    mut check: impl FnMut(usize, core::ops::Range<usize>) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut start = 0;
    for (index, &end) in ends.iter().enumerate() {
        if end < start || end > len {
            return Err(Error::at(index, Error::Format("batch ends are not increasing within the data")));
        }
        check(index, start..end).map_err(|e| Error::at(index, e))?;
        start = end;
    }
    Ok(())
}
