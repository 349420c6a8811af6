//! Token formats: which characters of a value are encrypted.

use super::{Alphabet, Fpe};
use crate::Direction;
use crate::Error;

/// Which characters of a text value are encrypted and which stay in clear: passthrough characters
/// (kept in place, e.g. the dashes of `4111-1111-1111-1111`) and the first/last N alphabet characters.
///
/// ```
/// use tessera::fpe::{Alphabet, FF1, TokenFormat};
/// use tessera::Direction;
/// let ff1 = FF1::new(&[7u8; 16], Alphabet::digits()).unwrap();
/// let fmt = TokenFormat::new().passthrough("-").keep_prefix(6).keep_suffix(4);
/// let mut out = String::new();
/// fmt.transform_into(Direction::Encrypt, &ff1, b"", "4111-1111-1111-1111", &mut out).unwrap();
/// assert!(out.starts_with("4111-11") && out.ends_with("-1111"));
/// let mut back = String::new();
/// fmt.transform_into(Direction::Decrypt, &ff1, b"", &out, &mut back).unwrap();
/// assert_eq!(back, "4111-1111-1111-1111");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenFormat {
    passthrough: Vec<char>,
    /// The ASCII passthrough characters as a bit set (bit `b` for byte `b`).
    pass_ascii: [u64; 2],
    keep_prefix: usize,
    keep_suffix: usize,
}

impl TokenFormat {
    /// Encrypt every character (no passthrough, nothing kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Characters kept in place and not encrypted; they must not be in the cipher's alphabet
    /// ([`validate`](Self::validate)).
    pub fn passthrough(mut self, chars: &str) -> Self {
        self.passthrough = chars.chars().collect();
        self.passthrough.sort_unstable();
        self.passthrough.dedup();
        self.pass_ascii = [0; 2];
        for c in self.passthrough.iter().filter(|c| c.is_ascii()) {
            self.pass_ascii[*c as usize >> 6] |= 1 << (*c as u32 & 63);
        }
        self
    }

    /// Leave the first `n` alphabet characters in clear.
    pub fn keep_prefix(mut self, n: usize) -> Self {
        self.keep_prefix = n;
        self
    }

    /// Leave the last `n` alphabet characters in clear.
    pub fn keep_suffix(mut self, n: usize) -> Self {
        self.keep_suffix = n;
        self
    }

    /// Whether this format encrypts whole values (no passthrough, nothing kept).
    pub fn is_plain(&self) -> bool {
        self.passthrough.is_empty() && self.keep_prefix == 0 && self.keep_suffix == 0
    }

    /// Whether the octet `b` is an ASCII passthrough character.
    #[inline]
    fn is_pass_ascii(&self, b: u8) -> bool {
        b < 128 && self.pass_ascii[usize::from(b >> 6)] >> (b & 63) & 1 == 1
    }

    fn is_pass(&self, c: char) -> bool {
        !self.passthrough.is_empty() && self.passthrough.binary_search(&c).is_ok()
    }

    fn check(&self, alphabet: &Alphabet) -> Result<(), Error> {
        self.validate(alphabet)
    }

    /// Checks that no passthrough character is in `alphabet` (such tokens would not decrypt;
    /// [`Error::PassthroughInAlphabet`] names the first). Every method that takes an alphabet checks it.
    ///
    /// ```
    /// use tessera::{Error, fpe::{Alphabet, TokenFormat}};
    /// let digits = Alphabet::digits();
    /// assert!(TokenFormat::new().passthrough("- ").validate(&digits).is_ok());
    /// let err = TokenFormat::new().passthrough("-5").validate(&digits).unwrap_err();
    /// assert_eq!(err, Error::PassthroughInAlphabet { ch: '5' });
    /// ```
    pub fn validate(&self, alphabet: &Alphabet) -> Result<(), Error> {
        match self.passthrough.iter().find(|&&c| alphabet.numeral(c).is_some()) {
            Some(&ch) => Err(Error::PassthroughInAlphabet { ch }),
            None => Ok(()),
        }
    }

    /// Writes the numerals to encrypt from `text` into `out`; returns how many.
    pub fn extract(&self, alphabet: &Alphabet, text: &str, out: &mut [u16]) -> Result<usize, Error> {
        self.check(alphabet)?;
        if alphabet.is_ascii_digits()
            && let Some(n) = self.extract_digits(text.as_bytes(), out)?
        {
            return Ok(n);
        }
        self.extract_chars(alphabet, text, out)
    }

    /// [`extract`](Self::extract), character by character.
    fn extract_chars(&self, alphabet: &Alphabet, text: &str, out: &mut [u16]) -> Result<usize, Error> {
        let total = text.chars().filter(|&c| !self.is_pass(c)).count();
        let (lo, hi) = (self.keep_prefix, total.saturating_sub(self.keep_suffix));
        let mut k = 0; // index among non-passthrough characters
        let mut n = 0;
        for (position, ch) in text.chars().enumerate() {
            if self.is_pass(ch) {
                continue;
            }
            let d = alphabet.numeral(ch).ok_or(Error::NotInAlphabet { ch, position })?;
            if k >= lo && k < hi {
                let cap = out.len();
                *out.get_mut(n).ok_or_else(|| Error::BufferTooSmall { got: cap, needed: hi - lo })? = d;
                n += 1;
            }
            k += 1;
        }
        Ok(n)
    }

    /// Rebuilds a value into `out`: `text`'s kept characters with `numerals` in the encrypted positions.
    /// `numerals` must hold exactly one numeral per encrypted position (else `Error::Format`, nothing
    /// written); a numeral not below the radix is `Error::NumeralOutOfRange`, `out` then partly written.
    pub fn merge(&self, alphabet: &Alphabet, text: &str, numerals: &[u16], out: &mut String) -> Result<(), Error> {
        self.check(alphabet)?;
        if alphabet.is_ascii_digits() && text.is_ascii() {
            return self.merge_digits(text.as_bytes(), numerals, out);
        }
        self.merge_chars(alphabet, text, numerals, out)
    }

    /// [`merge`](Self::merge), character by character.
    fn merge_chars(&self, alphabet: &Alphabet, text: &str, numerals: &[u16], out: &mut String) -> Result<(), Error> {
        let total = text.chars().filter(|&c| !self.is_pass(c)).count();
        let (lo, hi) = (self.keep_prefix, total.saturating_sub(self.keep_suffix));
        if numerals.len() != hi.saturating_sub(lo) {
            return Err(Error::Format("merge needs exactly one numeral per encrypted character"));
        }
        let mut k = 0;
        let mut next = numerals.iter().enumerate();
        for ch in text.chars() {
            if self.is_pass(ch) {
                out.push(ch);
                continue;
            }
            let numeral = if k >= lo && k < hi { next.next() } else { None };
            match numeral {
                Some((position, &d)) => out.push(alphabet.char_of(d).ok_or(Error::NumeralOutOfRange {
                    numeral: d as u32,
                    position,
                    radix: alphabet.radix(),
                })?),
                None => out.push(ch),
            }
            k += 1;
        }
        Ok(())
    }

    /// [`extract`](Self::extract) over the decimal digits; `None` when `out` cannot hold every digit.
    fn extract_digits(&self, text: &[u8], out: &mut [u16]) -> Result<Option<usize>, Error> {
        let mut all = 0;
        for (position, &b) in text.iter().enumerate() {
            let d = b.wrapping_sub(b'0');
            if d < 10 {
                if let Some(slot) = out.get_mut(all) {
                    *slot = u16::from(d);
                }
                all += 1;
            } else if !self.is_pass_ascii(b) {
                if b >= 128 {
                    return Ok(None); // a multi-byte character: named by the general path
                }
                return Err(Error::NotInAlphabet { ch: char::from(b), position });
            }
        }
        if all > out.len() {
            return Ok(None);
        }
        let (lo, hi) = (self.keep_prefix, all.saturating_sub(self.keep_suffix));
        if hi <= lo {
            return Ok(Some(0));
        }
        out.copy_within(lo..hi, 0);
        Ok(Some(hi - lo))
    }

    /// [`merge`](Self::merge) of an ASCII value over the decimal digits, a stack block at a time.
    fn merge_digits(&self, text: &[u8], numerals: &[u16], out: &mut String) -> Result<(), Error> {
        // As in `merge_chars`, every character that is not passthrough is a position.
        let all = text.iter().filter(|&&b| !self.is_pass_ascii(b)).count();
        let (lo, hi) = (self.keep_prefix, all.saturating_sub(self.keep_suffix).max(self.keep_prefix));
        if numerals.len() != hi - lo {
            return Err(Error::Format("merge needs exactly one numeral per encrypted character"));
        }
        if let Some((position, &d)) = numerals.iter().enumerate().find(|&(_, &d)| d >= 10) {
            return Err(Error::NumeralOutOfRange { numeral: u32::from(d), position, radix: 10 });
        }
        out.reserve(text.len());
        let mut block = [0u8; 64];
        let (mut n, mut k) = (0, 0);
        let mut next = numerals.iter();
        for &b in text {
            let mut c = b;
            if !self.is_pass_ascii(b) {
                if (lo..hi).contains(&k) {
                    c = b'0' + next.next().map_or(0, |&d| d as u8);
                }
                k += 1;
            }
            block[n] = c;
            n += 1;
            if n == block.len() {
                out.push_str(std::str::from_utf8(&block).map_err(|_| Error::Format("merge of a non-ASCII value"))?);
                n = 0;
            }
        }
        out.push_str(std::str::from_utf8(&block[..n]).map_err(|_| Error::Format("merge of a non-ASCII value"))?);
        Ok(())
    }

    /// Encrypts or decrypts the selected characters of `text` into `out` (cleared first).
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, FF1, TokenFormat};
    /// use tessera::Direction;
    /// let ff1 = FF1::new(&[7u8; 16], Alphabet::digits()).unwrap();
    /// let format = TokenFormat::new().passthrough("-");
    /// let (mut token, mut back) = (String::new(), String::new());
    /// format.transform_into(Direction::Encrypt, &ff1, b"t", "4111-1111-1111-1111", &mut token).unwrap();
    /// format.transform_into(Direction::Decrypt, &ff1, b"t", &token, &mut back).unwrap();
    /// assert_eq!(back, "4111-1111-1111-1111");
    /// ```
    pub fn transform_into(
        &self,
        dir: Direction,
        c: &(impl Fpe + ?Sized),
        tweak: &[u8],
        text: &str,
        out: &mut String,
    ) -> Result<(), Error> {
        super::with_numerals(text, |buf| {
            let alphabet = c.alphabet().ok_or(Error::Alphabet("cipher was built from a radix only"))?;
            let n = self.extract(alphabet, text, buf).map_err(|e| match e {
                Error::BufferTooSmall { needed, .. } => {
                    let (min, max) = c.len_range();
                    Error::Length { len: needed, min, max, radix: c.radix() }
                }
                e => e,
            })?;
            let x = &mut buf[..n];
            c.transform_numerals(dir, tweak, x)?;
            out.clear();
            self.merge(alphabet, text, x, out)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `merge` takes exactly one numeral per encrypted character (fewer would leave plaintext in the
    /// token, more would drop ciphertext); otherwise it errs with `out` untouched.
    #[test]
    fn merge_needs_one_numeral_per_encrypted_character() {
        let digits = Alphabet::digits();
        let fmt = TokenFormat::new().passthrough("-").keep_prefix(2).keep_suffix(1);
        // "12-3456-7": 1 and 2 kept, 3456 encrypted, 7 kept.
        let mut out = String::from("kept:");
        fmt.merge(&digits, "12-3456-7", &[9, 8, 7, 6], &mut out).unwrap();
        assert_eq!(out, "kept:12-9876-7");
        for numerals in [&[][..], &[9], &[9, 8, 7], &[9, 8, 7, 6, 5]] {
            let mut out = String::from("kept:");
            let r = fmt.merge(&digits, "12-3456-7", numerals, &mut out);
            assert!(matches!(r, Err(Error::Format(_))), "{numerals:?}: {r:?} {out}");
            assert_eq!(out, "kept:", "{numerals:?}");
        }
        // Nothing selected: no numerals.
        let all_kept = TokenFormat::new().keep_prefix(5).keep_suffix(5);
        let mut out = String::new();
        all_kept.merge(&digits, "1234", &[], &mut out).unwrap();
        assert_eq!(out, "1234");
        assert!(all_kept.merge(&digits, "1234", &[0], &mut String::new()).is_err());
    }
}

#[cfg(test)]
mod digit_tests {
    use super::*;

    /// The decimal byte paths give what the character paths give, errors included.
    #[test]
    fn digit_paths_agree_with_the_character_paths() {
        let digits = Alphabet::digits();
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..20_000 {
            let len = next(24) as usize;
            let text: String = (0..len).map(|_| b"0123456789012345678- x"[next(22) as usize] as char).collect();
            let f = TokenFormat::new().passthrough(" -").keep_prefix(next(5) as usize).keep_suffix(next(5) as usize);
            let (mut a, mut b) = (vec![0u16; 32], vec![0u16; 32]);
            let ra = f.extract_digits(text.as_bytes(), &mut a).map(|n| n.expect("the buffer holds every digit"));
            assert_eq!(ra, f.extract_chars(&digits, &text, &mut b), "{text:?}");
            // merge takes any text: every character that is not passthrough is a position.
            let positions = text.chars().filter(|&c| c != ' ' && c != '-').count();
            let (lo, hi) = (f.keep_prefix, positions.saturating_sub(f.keep_suffix).max(f.keep_prefix));
            let n = match ra {
                Ok(n) => {
                    assert_eq!(a[..n], b[..n]);
                    n
                }
                Err(_) => {
                    a = (0..32).map(|i| i % 10).collect();
                    hi - lo
                }
            };
            let numerals: Vec<u16> = a[..n].iter().map(|d| (d + 3) % 10).collect();
            let (mut ma, mut mb) = (String::new(), String::new());
            let ra = f.merge_digits(text.as_bytes(), &numerals, &mut ma);
            assert_eq!((ra, &ma), (f.merge_chars(&digits, &text, &numerals, &mut mb), &mb), "{text:?}");
            for bad in [&numerals[..n.saturating_sub(1)], &[10u16; 3][..n.min(3)]] {
                let (mut x, mut y) = (String::new(), String::new());
                let got = f.merge_digits(text.as_bytes(), bad, &mut x).is_err();
                assert_eq!(got, f.merge_chars(&digits, &text, bad, &mut y).is_err(), "{text:?} {bad:?}");
            }
        }
    }
}
