//! Format-preserving encryption: FF1 and FF3-1 (NIST SP 800-38G Rev 1) and legacy FF3, over any
//! alphabet of 2 to 65536 characters.
//!
//! Every cipher is built once from a key and an [`Alphabet`] (or a bare radix), is `Send + Sync`,
//! and works on `&self`. The [`Fpe`] trait gives the common operations:
//!
//! - numerals in place (`&mut [u16]`), with zero heap allocations;
//! - text into a caller's `String` (zero allocations once it has capacity), or a new `String`;
//! - batches, whose Feistel rounds are interleaved so that AES gets many independent blocks per
//!   call; results equal one-at-a-time results.
//!
//! ```
//! use tessera::fpe::{Alphabet, Fpe, FF1};
//! let key = [0x2bu8; 16];
//! let ff1 = FF1::new(&key, Alphabet::digits()).unwrap();
//! let token = ff1.encrypt(b"tweak", "4111111111111111").unwrap();
//! assert_eq!(token.len(), 16);
//! assert_eq!(ff1.decrypt(b"tweak", &token).unwrap(), "4111111111111111");
//! ```
//!
//! Domain rules are enforced with typed errors: radix 2..=65536, radix^len >= 1,000,000, FF3-1
//! length at most 2*floor(log_radix(2^96)), FF3-1 tweaks of exactly 7 bytes and FF3 tweaks of 8.

mod algorithm;
mod alphabet;
mod batch;
mod big;
mod feistel;
mod ff1;
mod ff3;
mod format;
mod keyed;
mod num;
mod rounding;
#[cfg(target_arch = "x86_64")]
mod text10;
mod text_batch;

pub use algorithm::Algorithm;
pub use alphabet::Alphabet;
#[doc(hidden)]
pub use batch::bench;
pub use ff1::FF1;
pub use ff3::{FF3, FF3_1};
pub use format::TokenFormat;
pub use num::MAX_RADIX;
pub use text_batch::TextBatch;

use crate::Direction;
use crate::Error;

/// Longest value the text helpers handle without a heap buffer; FF1 accepts at most this many numerals.
pub const MAX_LEN: usize = 8192;

/// The tweak(s) for a batch: one for every value, or one per value.
#[derive(Clone, Copy, Debug)]
pub enum Tweaks<'a> {
    /// The same tweak for every value.
    Same(&'a [u8]),
    /// `tweaks[i]` is the tweak of value `i`; the slice must have one per value.
    PerValue(&'a [&'a [u8]]),
}

impl<'a> Tweaks<'a> {
    #[inline]
    pub(crate) fn get(&self, i: usize) -> &'a [u8] {
        match *self {
            Tweaks::Same(t) => t,
            Tweaks::PerValue(ts) => ts[i],
        }
    }

    fn check_count(&self, n: usize) -> Result<(), Error> {
        match self {
            Tweaks::PerValue(ts) if ts.len() != n => Err(Error::Format("batch needs exactly one tweak per value")),
            _ => Ok(()),
        }
    }
}

/// Operations common to [`FF1`], [`FF3_1`] and [`FF3`].
pub trait Fpe: Send + Sync {
    /// The radix (alphabet size).
    fn radix(&self) -> u32;

    /// The alphabet, if the cipher was built with one (not from a bare radix).
    fn alphabet(&self) -> Option<&Alphabet>;

    /// The shortest and longest value length the cipher accepts, in numerals.
    fn len_range(&self) -> (usize, usize);

    /// Encrypts numerals in place. Zero heap allocations.
    fn encrypt_numerals(&self, tweak: &[u8], x: &mut [u16]) -> Result<(), Error>;

    /// Decrypts numerals in place. Zero heap allocations.
    fn decrypt_numerals(&self, tweak: &[u8], x: &mut [u16]) -> Result<(), Error>;

    /// Encrypts many values in place. `data` holds the values back to back; `ends[i]` is where value
    /// `i` ends. Every value is checked first: on error ([`Error::Batch`] naming it) `data` is untouched.
    fn encrypt_batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize]) -> Result<(), Error>;

    /// Decrypts many values in place; see [`Fpe::encrypt_batch`].
    fn decrypt_batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize]) -> Result<(), Error>;

    /// Checks that the cipher accepts `tweak` (FF3-1: 7 bytes, FF3: 8) by encrypting a throwaway value
    /// of the shortest length with it.
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, Fpe, FF3_1};
    /// let ff3_1 = FF3_1::new(&[1u8; 16], Alphabet::digits()).unwrap();
    /// assert!(ff3_1.check_tweak(b"7 bytes").is_ok());
    /// assert!(ff3_1.check_tweak(b"short").is_err());
    /// ```
    fn check_tweak(&self, tweak: &[u8]) -> Result<(), Error> {
        let (min, _) = self.len_range();
        let mut probe = vec![0u16; min];
        self.encrypt_numerals(tweak, &mut probe)
    }

    /// [`Fpe::encrypt_numerals`] or [`Fpe::decrypt_numerals`], as `dir` says.
    ///
    /// ```
    /// use tessera::fpe::{Fpe, FF1};
    /// use tessera::Direction;
    /// let ff1 = FF1::with_radix(&[1u8; 16], 10).unwrap();
    /// let mut x = [1u16, 2, 3, 4, 5, 6];
    /// ff1.transform_numerals(Direction::Encrypt, b"t", &mut x).unwrap();
    /// ff1.transform_numerals(Direction::Decrypt, b"t", &mut x).unwrap();
    /// assert_eq!(x, [1, 2, 3, 4, 5, 6]);
    /// ```
    fn transform_numerals(&self, dir: Direction, tweak: &[u8], x: &mut [u16]) -> Result<(), Error> {
        match dir {
            Direction::Encrypt => self.encrypt_numerals(tweak, x),
            Direction::Decrypt => self.decrypt_numerals(tweak, x),
        }
    }

    /// [`Fpe::encrypt_batch`] or [`Fpe::decrypt_batch`], as `dir` says.
    ///
    /// ```
    /// use tessera::fpe::{Fpe, Tweaks, FF1};
    /// use tessera::Direction;
    /// let ff1 = FF1::with_radix(&[1u8; 16], 10).unwrap();
    /// let mut data = [1u16, 2, 3, 4, 5, 6, 9, 9, 9, 9, 9, 9, 9];
    /// let ends = [6, 13];
    /// ff1.transform_batch(Direction::Encrypt, Tweaks::Same(b"t"), &mut data, &ends).unwrap();
    /// ff1.transform_batch(Direction::Decrypt, Tweaks::Same(b"t"), &mut data, &ends).unwrap();
    /// assert_eq!(data, [1, 2, 3, 4, 5, 6, 9, 9, 9, 9, 9, 9, 9]);
    /// ```
    fn transform_batch(
        &self,
        dir: Direction,
        tweaks: Tweaks<'_>,
        data: &mut [u16],
        ends: &[usize],
    ) -> Result<(), Error> {
        match dir {
            Direction::Encrypt => self.encrypt_batch(tweaks, data, ends),
            Direction::Decrypt => self.decrypt_batch(tweaks, data, ends),
        }
    }

    /// Encrypts or decrypts `text` into `out` (cleared first), as `dir` says; no heap allocation when
    /// `out` has the capacity.
    fn transform_into(&self, dir: Direction, tweak: &[u8], text: &str, out: &mut String) -> Result<(), Error> {
        text_op(self, tweak, text, out, dir)
    }

    /// Encrypts `text` into `out` (cleared first); no heap allocation when
    /// `out` already has the capacity.
    fn encrypt_into(&self, tweak: &[u8], text: &str, out: &mut String) -> Result<(), Error> {
        self.transform_into(Direction::Encrypt, tweak, text, out)
    }

    /// Decrypts `text` into `out` (cleared first); no heap allocation when
    /// `out` already has the capacity.
    fn decrypt_into(&self, tweak: &[u8], text: &str, out: &mut String) -> Result<(), Error> {
        self.transform_into(Direction::Decrypt, tweak, text, out)
    }

    /// Encrypts `text`, returning a new `String`.
    fn encrypt(&self, tweak: &[u8], text: &str) -> Result<String, Error> {
        let mut out = String::with_capacity(text.len());
        self.encrypt_into(tweak, text, &mut out)?;
        Ok(out)
    }

    /// Decrypts `text`, returning a new `String`.
    fn decrypt(&self, tweak: &[u8], text: &str) -> Result<String, Error> {
        let mut out = String::with_capacity(text.len());
        self.decrypt_into(tweak, text, &mut out)?;
        Ok(out)
    }
}

fn text_op<C: Fpe + ?Sized>(c: &C, tweak: &[u8], text: &str, out: &mut String, dir: Direction) -> Result<(), Error> {
    with_numerals(text, |buf| text_op_in(c, tweak, text, out, dir, buf))
}

/// Runs `f` with a zeroed numeral buffer: 64 numerals for texts of up to 64 bytes, else [`MAX_LEN`].
pub(crate) fn with_numerals<T>(text: &str, f: impl FnOnce(&mut [u16]) -> T) -> T {
    const SHORT: usize = 64;
    if text.len() <= SHORT { f(&mut [0u16; SHORT]) } else { f(&mut [0u16; MAX_LEN]) }
}

fn text_op_in<C: Fpe + ?Sized>(
    c: &C,
    tweak: &[u8],
    text: &str,
    out: &mut String,
    dir: Direction,
    buf: &mut [u16],
) -> Result<(), Error> {
    let alphabet = c.alphabet().ok_or(Error::Alphabet("cipher was built from a radix only"))?;
    let n = alphabet.to_numerals(text, buf).map_err(|e| match e {
        Error::BufferTooSmall { .. } => {
            let (min, max) = c.len_range();
            Error::Length { len: text.chars().count(), min, max, radix: c.radix() }
        }
        e => e,
    })?;
    let x = &mut buf[..n];
    c.transform_numerals(dir, tweak, x)?;
    out.clear();
    alphabet.push_str(x, out)
}

/// Smallest length with radix^len >= 1,000,000 (and at least 2).
pub(crate) fn min_len(radix: u32) -> usize {
    let (mut n, mut p) = (0usize, 1u64);
    while p < 1_000_000 || n < 2 {
        p = p.saturating_mul(radix as u64);
        n += 1;
    }
    n
}

pub(crate) fn check_radix(radix: u32) -> Result<(), Error> {
    if (2..=MAX_RADIX).contains(&radix) { Ok(()) } else { Err(Error::Radix(radix)) }
}

/// Checks a value's length and numerals against the domain; the exact error comes from
/// [`value_error`] only when the branch-free pass fails.
#[inline(always)]
pub(crate) fn check_value(x: &[u16], radix: u32, min: usize, max: usize) -> Result<(), Error> {
    if x.len() < min || x.len() > max || !numerals_below(x, radix) {
        return value_error(x, radix, min, max);
    }
    Ok(())
}

/// Whether every numeral of `x` is below `radix`, in one pass that branches only on the length.
#[inline(always)]
pub(crate) fn numerals_below(x: &[u16], radix: u32) -> bool {
    let top = radix.saturating_sub(1).min(u16::MAX as u32) as u16;
    x.iter().fold(0u16, |over, &d| over | d.saturating_sub(top)) == 0
}

/// The exact domain error for `x` (its length, else its first numeral not below `radix`); `Ok` if
/// `x` is in the domain after all.
#[cold]
#[inline(never)]
fn value_error(x: &[u16], radix: u32, min: usize, max: usize) -> Result<(), Error> {
    if x.len() < min || x.len() > max {
        return Err(Error::Length { len: x.len(), min, max, radix });
    }
    match x.iter().position(|&d| d as u32 >= radix) {
        Some(position) => Err(Error::NumeralOutOfRange { numeral: x[position] as u32, position, radix }),
        None => Ok(()),
    }
}

/// Checks every value of a batch, naming the first bad one.
pub(crate) fn check_batch(
    tweaks: &Tweaks<'_>,
    data: &[u16],
    ends: &[usize],
    mut check: impl FnMut(&[u8], &[u16]) -> Result<(), Error>,
) -> Result<(), Error> {
    tweaks.check_count(ends.len())?;
    crate::error::check_ends(data.len(), ends, |index, span| check(tweaks.get(index), &data[span]))
}

#[cfg(test)]
#[path = "fpe_tests.rs"]
mod tests;
