//! Alphabets: characters <-> numerals.

use crate::Error;

const NONE: u16 = u16::MAX;

/// An ordered set of distinct characters; the i-th character is numeral i.
///
/// Radix 2..=65536. ASCII characters map through a table, others by binary search; mapping never
/// allocates.
///
/// ```
/// use tessera::fpe::Alphabet;
/// let a = Alphabet::new("0123456789abcdef").unwrap();
/// assert_eq!(a.radix(), 16);
/// let mut n = [0u16; 3];
/// assert_eq!(a.to_numerals("f0a", &mut n).unwrap(), 3);
/// assert_eq!(n, [15, 0, 10]);
/// let mut s = String::new();
/// a.push_str(&n, &mut s).unwrap();
/// assert_eq!(s, "f0a");
/// assert!(a.push_str(&[16], &mut s).is_err()); // 16 is not below the radix
/// assert_eq!(a.char_of(15), Some('f'));
/// assert_eq!(a.char_of(16), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    chars: Vec<char>,
    ascii: [u16; 128],
    /// Non-ASCII characters, sorted by character, with their numerals.
    other: Vec<(char, u16)>,
    all_ascii: bool,
    /// The first character, when the alphabet is a run of consecutive ASCII characters.
    run_start: Option<u8>,
}

impl Alphabet {
    /// The decimal digits `0123456789`.
    pub fn digits() -> Self {
        Self::new("0123456789").expect("valid")
    }
    /// Lowercase hexadecimal `0123456789abcdef`.
    pub fn hex() -> Self {
        Self::new("0123456789abcdef").expect("valid")
    }
    /// Lowercase letters `a-z`.
    pub fn lowercase() -> Self {
        Self::new("abcdefghijklmnopqrstuvwxyz").expect("valid")
    }
    /// `0-9a-zA-Z` (radix 62).
    pub fn alphanumeric() -> Self {
        Self::new("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ").expect("valid")
    }

    /// Builds an alphabet from distinct characters (2 to 65536 of them).
    pub fn new(chars: &str) -> Result<Self, Error> {
        Self::from_chars(chars.chars())
    }

    /// Builds an alphabet from an iterator of distinct characters.
    pub fn from_chars(chars: impl IntoIterator<Item = char>) -> Result<Self, Error> {
        let chars: Vec<char> = chars.into_iter().collect();
        if chars.len() < 2 {
            return Err(Error::Alphabet("needs at least 2 characters"));
        }
        if chars.len() > super::MAX_RADIX as usize {
            return Err(Error::Alphabet("has more than 65536 characters"));
        }
        let mut ascii = [NONE; 128];
        let mut other = Vec::new();
        for (i, &c) in chars.iter().enumerate() {
            // Numeral 65535 is the ASCII table's NONE marker: an ASCII character with it goes to `other`.
            let n = i as u16;
            if (c as u32) < 128 && i < NONE as usize {
                if ascii[c as usize] != NONE {
                    return Err(Error::Alphabet("repeats a character"));
                }
                ascii[c as usize] = n;
            } else {
                other.push((c, n));
            }
        }
        other.sort_unstable_by_key(|&(c, _)| c);
        if other.windows(2).any(|w| w[0].0 == w[1].0)
            || other.iter().any(|&(c, _)| (c as u32) < 128 && ascii[c as usize] != NONE)
        {
            return Err(Error::Alphabet("repeats a character"));
        }
        let all_ascii = other.is_empty();
        let run_start = (all_ascii && chars.windows(2).all(|w| w[1] as u32 == w[0] as u32 + 1)).then(|| chars[0] as u8);
        Ok(Alphabet { chars, ascii, other, all_ascii, run_start })
    }

    /// Number of characters (the radix).
    pub fn radix(&self) -> u32 {
        self.chars.len() as u32
    }

    /// The characters, in numeral order.
    pub fn chars(&self) -> &[char] {
        &self.chars
    }

    /// The numeral of `c`, if it is in the alphabet.
    #[inline]
    pub fn numeral(&self, c: char) -> Option<u16> {
        let u = c as u32;
        if u < 128 {
            let n = self.ascii[u as usize];
            if n != NONE {
                return Some(n);
            }
            if self.all_ascii {
                return None;
            }
        }
        self.other.binary_search_by_key(&c, |&(ch, _)| ch).ok().map(|i| self.other[i].1)
    }

    /// The character of numeral `n`; `None` when `n` is not below the radix.
    #[inline]
    pub fn char_of(&self, n: u16) -> Option<char> {
        self.chars.get(n as usize).copied()
    }

    /// [`Error::NumeralOutOfRange`] for the first numeral of `numerals` not below the radix.
    fn check(&self, numerals: &[u16]) -> Result<(), Error> {
        let radix = self.radix();
        if super::numerals_below(numerals, radix) {
            return Ok(());
        }
        let position = numerals.iter().position(|&n| n as u32 >= radix).unwrap_or(0);
        Err(Error::NumeralOutOfRange { numeral: numerals[position] as u32, position, radix })
    }

    /// Whether the alphabet is the ASCII digits `0123456789` in order.
    #[inline]
    pub(crate) fn is_ascii_digits(&self) -> bool {
        self.run_start == Some(b'0') && self.chars.len() == 10
    }

    /// Whether every character of the alphabet is ASCII.
    pub fn is_ascii(&self) -> bool {
        self.all_ascii
    }

    /// Maps `text` to numerals in `out`; returns how many were written. Fails with [`Error::NotInAlphabet`]
    /// on the first foreign character, [`Error::BufferTooSmall`] if `out` is shorter than the text.
    pub fn to_numerals(&self, text: &str, out: &mut [u16]) -> Result<usize, Error> {
        if self.all_ascii {
            let bytes = text.as_bytes();
            let Some(out) = out.get_mut(..bytes.len()) else {
                // Bytes, not characters, may be what overflows: a non-ASCII text fails for a character.
                if !text.is_ascii() {
                    return Err(self.first_foreign(text));
                }
                return Err(Error::BufferTooSmall { got: out.len(), needed: bytes.len() });
            };
            // Map everything, then report the first bad character (no branch per character).
            let mut bad = false;
            if let Some(first) = self.run_start {
                let radix = self.chars.len() as u8;
                for (&b, o) in bytes.iter().zip(out.iter_mut()) {
                    let n = b.wrapping_sub(first);
                    bad |= n >= radix;
                    *o = n as u16;
                }
            } else {
                for (&b, o) in bytes.iter().zip(out.iter_mut()) {
                    let n = self.ascii[(b & 0x7f) as usize];
                    bad |= (b >= 128) | (n == NONE);
                    *o = n;
                }
            }
            if bad {
                return Err(self.first_foreign(text));
            }
            return Ok(bytes.len());
        }
        let mut len = 0;
        for (position, ch) in text.chars().enumerate() {
            let n = self.numeral(ch).ok_or(Error::NotInAlphabet { ch, position })?;
            let Some(o) = out.get_mut(position) else {
                return Err(Error::BufferTooSmall { got: out.len(), needed: text.chars().count() });
            };
            *o = n;
            len += 1;
        }
        Ok(len)
    }

    /// The error for the first character of `text` not in this ASCII alphabet.
    #[cold]
    fn first_foreign(&self, text: &str) -> Error {
        let i = text.bytes().position(|b| b >= 128 || self.ascii[b as usize] == NONE).unwrap_or(0);
        let position = text[..i].chars().count();
        let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
        Error::NotInAlphabet { ch, position }
    }

    /// The characters of `numerals` (checked, of an ASCII alphabet) into `bytes`, one per numeral.
    #[inline]
    fn ascii_bytes(&self, numerals: &[u16], bytes: &mut [u8]) {
        match self.run_start {
            Some(first) => bytes.iter_mut().zip(numerals).for_each(|(b, &n)| *b = first.wrapping_add(n as u8)),
            None => bytes.iter_mut().zip(numerals).for_each(|(b, &n)| *b = self.chars[n as usize] as u8),
        }
    }

    /// Appends the UTF-8 encoding of `numerals` to `out`; a numeral not below the radix is
    /// [`Error::NumeralOutOfRange`], and then nothing is appended.
    pub fn push_utf8(&self, numerals: &[u16], out: &mut Vec<u8>) -> Result<(), Error> {
        self.check(numerals)?;
        if self.all_ascii {
            let start = out.len();
            out.resize(start + numerals.len(), 0);
            self.ascii_bytes(numerals, &mut out[start..]);
        } else {
            let mut buf = [0u8; 4];
            for &n in numerals {
                out.extend_from_slice(self.chars[n as usize].encode_utf8(&mut buf).as_bytes());
            }
        }
        Ok(())
    }

    /// Appends the characters of `numerals` to `out`; errors as [`push_utf8`](Self::push_utf8).
    pub fn push_str(&self, numerals: &[u16], out: &mut String) -> Result<(), Error> {
        self.check(numerals)?;
        if self.all_ascii {
            // Bytes through a stack buffer: one UTF-8 check per 64 numerals.
            let mut buf = [0u8; 64];
            for part in numerals.chunks(buf.len()) {
                let bytes = &mut buf[..part.len()];
                self.ascii_bytes(part, bytes);
                // Every byte is an ASCII character of the alphabet (checked above).
                out.push_str(core::str::from_utf8(bytes).map_err(|_| Error::Format("alphabet is not ASCII"))?);
            }
            return Ok(());
        }
        out.extend(numerals.iter().map(|&n| self.chars[n as usize]));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_alphabets() {
        assert!(Alphabet::new("0").is_err());
        assert!(Alphabet::new("").is_err());
        assert!(Alphabet::new("0120").is_err());
        assert!(Alphabet::new("aéé").is_err());
    }

    #[test]
    fn unicode_round_trip() {
        let a = Alphabet::new("αβγδε01").unwrap();
        assert_eq!(a.radix(), 7);
        let mut n = [0u16; 8];
        let k = a.to_numerals("β0ε1", &mut n).unwrap();
        assert_eq!(&n[..k], &[1, 5, 4, 6]);
        let mut s = String::new();
        a.push_str(&n[..k], &mut s).unwrap();
        assert_eq!(s, "β0ε1");
        assert_eq!(a.to_numerals("βx", &mut n), Err(Error::NotInAlphabet { ch: 'x', position: 1 }));
    }

    #[test]
    fn ascii_errors_name_the_position() {
        let a = Alphabet::digits();
        let mut n = [0u16; 8];
        assert_eq!(a.to_numerals("12a4", &mut n), Err(Error::NotInAlphabet { ch: 'a', position: 2 }));
        assert_eq!(a.to_numerals("1é", &mut n), Err(Error::NotInAlphabet { ch: 'é', position: 1 }));
        assert!(matches!(a.to_numerals("123456789", &mut n), Err(Error::BufferTooSmall { .. })));
    }

    #[test]
    fn ascii_runs_map_by_subtraction_and_others_by_table() {
        let mut n = [0u16; 8];
        for (a, run) in [(Alphabet::digits(), true), (Alphabet::lowercase(), true), (Alphabet::hex(), false)] {
            assert_eq!(a.run_start.is_some(), run);
            let text: String = a.chars().iter().rev().take(5).collect();
            let k = a.to_numerals(&text, &mut n).unwrap();
            let mut back = String::new();
            a.push_str(&n[..k], &mut back).unwrap();
            assert_eq!(back, text);
        }
        // Characters just outside a run, on both sides, and outside ASCII.
        let d = Alphabet::digits();
        assert_eq!(d.to_numerals("12/4", &mut n), Err(Error::NotInAlphabet { ch: '/', position: 2 }));
        assert_eq!(d.to_numerals(":", &mut n), Err(Error::NotInAlphabet { ch: ':', position: 0 }));
        assert_eq!(Alphabet::hex().to_numerals("0fg", &mut n), Err(Error::NotInAlphabet { ch: 'g', position: 2 }));
        assert_eq!(Alphabet::hex().to_numerals("0é", &mut n), Err(Error::NotInAlphabet { ch: 'é', position: 1 }));
    }

    /// A non-ASCII text whose bytes, not characters, overflow the buffer is refused for its characters
    /// (an ASCII alphabet, with a run or without, holds none of them).
    #[test]
    fn ascii_alphabets_name_a_foreign_character_before_the_buffer() {
        for a in [Alphabet::digits(), Alphabet::hex()] {
            let mut n = [0u16; 2];
            assert_eq!(a.to_numerals("1\u{e9}", &mut n), Err(Error::NotInAlphabet { ch: '\u{e9}', position: 1 }));
            let long = "\u{e9}".repeat(5000);
            let mut n = [0u16; 8192];
            assert_eq!(a.to_numerals(&long, &mut n), Err(Error::NotInAlphabet { ch: '\u{e9}', position: 0 }));
            assert!(matches!(a.to_numerals("123", &mut [0u16; 2]), Err(Error::BufferTooSmall { got: 2, needed: 3 })));
        }
    }

    /// A numeral at or above the radix is an error naming it, and nothing is appended, for ASCII runs,
    /// other ASCII and non-ASCII alphabets.
    #[test]
    fn numerals_past_the_radix_are_refused() {
        for a in [Alphabet::digits(), Alphabet::hex(), Alphabet::new("αβγδε01").unwrap()] {
            let r = a.radix() as u16;
            for bad in [r, r + 1, 200, u16::MAX] {
                let x = [0, 1, bad, 0];
                let want = Err(Error::NumeralOutOfRange { numeral: bad as u32, position: 2, radix: r as u32 });
                let (mut s, mut v) = ("kept".to_string(), b"kept".to_vec());
                assert_eq!(a.push_str(&x, &mut s), want);
                assert_eq!(a.push_utf8(&x, &mut v), want);
                assert_eq!((s.as_str(), v.as_slice()), ("kept", &b"kept"[..]));
                assert_eq!(a.char_of(bad), None);
            }
            assert!(a.char_of(r - 1).is_some());
        }
    }

    #[test]
    fn full_radix_65536() {
        let a = Alphabet::from_chars((0..65536u32 + 2048).filter_map(char::from_u32).take(65536)).unwrap();
        assert_eq!(a.radix(), 65536);
        let c = a.char_of(65535).unwrap();
        assert_eq!(a.numeral(c), Some(65535));
        assert_eq!(a.numeral('A'), Some(65));
    }
}
