//! Text values gathered for one batch call, and rebuilt as text after it.

use zeroize::Zeroize;

use super::{Alphabet, Fpe, TokenFormat, Tweaks};
use crate::Direction;
use crate::Error;

/// Text values gathered into one flat numeral buffer for [`Fpe::encrypt_batch`] /
/// [`Fpe::decrypt_batch`], then rebuilt as text.
///
/// [`push`](Self::push) maps a value to numerals (all its characters, or those the [`TokenFormat`]
/// selects); [`encrypt`](Self::encrypt) or [`decrypt`](Self::decrypt) runs the batch in one call;
/// [`append_utf8`](Self::append_utf8) writes value `i`'s result with the format's kept characters
/// back in place. Errors name the value by its index ([`Error::Batch`]). Buffers are kept across
/// [`clear`](Self::clear); [`reserve`](Self::reserve) sizes them up front. Values and results are
/// wiped by `clear` and on drop; a buffer that grows frees its old copy unwiped, which `reserve` avoids.
///
/// ```
/// use tessera::fpe::{Alphabet, FF1, Fpe, TextBatch, TokenFormat, Tweaks};
/// use tessera::Direction;
/// let ff1 = FF1::new(&[7u8; 16], Alphabet::digits()).unwrap();
/// let format = TokenFormat::new().passthrough("-").keep_suffix(4);
/// let mut batch = TextBatch::new(&ff1, &format).unwrap();
/// for v in ["4111-1111-1111-1111", "5500-0000-0000-0004"] {
///     batch.push(v).unwrap();
/// }
/// batch.encrypt(Tweaks::Same(b"cards")).unwrap();
/// let mut token = Vec::new();
/// batch.append_utf8(1, &mut token).unwrap();
/// let token = String::from_utf8(token).unwrap();
/// assert!(token.ends_with("-0004"));
/// let mut one = String::new();
/// format.transform_into(Direction::Encrypt, &ff1, b"cards", "5500-0000-0000-0004", &mut one).unwrap();
/// assert_eq!(token, one);
/// ```
pub struct TextBatch<'a> {
    cipher: &'a dyn Fpe,
    alphabet: &'a Alphabet,
    format: &'a TokenFormat,
    /// The numerals of every value, back to back.
    numerals: Vec<u16>,
    /// `ends[i]`: where value `i`'s numerals end.
    ends: Vec<usize>,
    /// The input values, back to back (kept only when the format keeps characters).
    texts: String,
    text_ends: Vec<usize>,
    /// Where a value is rebuilt before it is appended.
    scratch: String,
}

impl core::fmt::Debug for TextBatch<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TextBatch").field("format", self.format).field("values", &self.ends.len()).finish()
    }
}

impl Drop for TextBatch<'_> {
    fn drop(&mut self) {
        self.clear();
    }
}

impl<'a> TextBatch<'a> {
    /// An empty batch for `cipher` (which must have an alphabet) and `format` ([`TokenFormat::validate`]).
    pub fn new(cipher: &'a dyn Fpe, format: &'a TokenFormat) -> Result<Self, Error> {
        let alphabet = cipher.alphabet().ok_or(Error::Alphabet("cipher was built from a radix only"))?;
        format.validate(alphabet)?;
        Ok(TextBatch {
            cipher,
            alphabet,
            format,
            numerals: Vec::new(),
            ends: Vec::new(),
            texts: String::new(),
            text_ends: Vec::new(),
            scratch: String::new(),
        })
    }

    /// The number of values pushed since the last [`clear`](Self::clear).
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no value was pushed since the last [`clear`](Self::clear).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Makes room for `values` more values of `bytes` more bytes of text in all, so that
    /// pushing them allocates nothing.
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, FF1, TextBatch, TokenFormat};
    /// let ff1 = FF1::new(&[7u8; 16], Alphabet::digits()).unwrap();
    /// let format = TokenFormat::new();
    /// let mut batch = TextBatch::new(&ff1, &format).unwrap();
    /// let values = ["123456", "7890123"];
    /// batch.reserve(values.len(), values.iter().map(|v| v.len()).sum());
    /// values.iter().for_each(|v| batch.push(v).unwrap());
    /// assert_eq!(batch.len(), 2);
    /// ```
    pub fn reserve(&mut self, values: usize, bytes: usize) {
        // A character is at least one byte: `bytes` numerals always suffice.
        self.numerals.reserve(bytes);
        self.ends.reserve(values);
        if !self.format.is_plain() {
            self.texts.reserve(bytes);
            self.text_ends.reserve(values);
        }
    }

    /// Forgets every value, wiping the values and results (keeping the buffers' capacity).
    pub fn clear(&mut self) {
        // Slices, not the `Vec`s: a slice is wiped by one fill, a `Vec` element by element.
        self.numerals.as_mut_slice().zeroize();
        self.numerals.clear();
        self.ends.clear();
        self.texts.as_mut_str().zeroize();
        self.texts.clear();
        self.text_ends.clear();
        self.scratch.as_mut_str().zeroize();
        self.scratch.clear();
    }

    /// Adds a value; a character outside the alphabet (and not passthrough) is an error
    /// ([`Error::NotInAlphabet`]) that leaves the batch as it was. Lengths are checked by the batch call.
    pub fn push(&mut self, value: &str) -> Result<(), Error> {
        let start = self.numerals.len();
        // A character is at least one byte: `value.len()` numerals always suffice.
        self.numerals.resize(start + value.len(), 0);
        let slot = &mut self.numerals[start..];
        let plain = self.format.is_plain();
        let taken = if plain {
            self.alphabet.to_numerals(value, slot)
        } else {
            self.format.extract(self.alphabet, value, slot)
        };
        match taken {
            Ok(n) => self.numerals.truncate(start + n),
            Err(e) => {
                self.numerals[start..].zeroize();
                self.numerals.truncate(start);
                return Err(e);
            }
        }
        self.ends.push(self.numerals.len());
        if !plain {
            self.texts.push_str(value);
            self.text_ends.push(self.texts.len());
        }
        Ok(())
    }

    /// Encrypts or decrypts every value in one [`Fpe::transform_batch`] call; on error
    /// ([`Error::Batch`] naming the value) nothing was changed.
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, FF1, TextBatch, TokenFormat, Tweaks};
    /// use tessera::Direction;
    /// let ff1 = FF1::new(&[7u8; 16], Alphabet::digits()).unwrap();
    /// let format = TokenFormat::new();
    /// let mut batch = TextBatch::new(&ff1, &format).unwrap();
    /// batch.push("123456").unwrap();
    /// batch.transform(Direction::Encrypt, Tweaks::Same(b"t")).unwrap();
    /// batch.transform(Direction::Decrypt, Tweaks::Same(b"t")).unwrap();
    /// let mut back = Vec::new();
    /// batch.append_utf8(0, &mut back).unwrap();
    /// assert_eq!(back, b"123456");
    /// ```
    pub fn transform(&mut self, dir: Direction, tweaks: Tweaks<'_>) -> Result<(), Error> {
        self.cipher.transform_batch(dir, tweaks, &mut self.numerals, &self.ends)
    }

    /// Encrypts every value ([`transform`](Self::transform) with [`Direction::Encrypt`]).
    pub fn encrypt(&mut self, tweaks: Tweaks<'_>) -> Result<(), Error> {
        self.transform(Direction::Encrypt, tweaks)
    }

    /// Decrypts every value ([`transform`](Self::transform) with [`Direction::Decrypt`]).
    pub fn decrypt(&mut self, tweaks: Tweaks<'_>) -> Result<(), Error> {
        self.transform(Direction::Decrypt, tweaks)
    }

    /// Appends every value as UTF-8 text to `out`, pushing each one's end to `ends`.
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, FF1, TextBatch, TokenFormat, Tweaks};
    /// let ff1 = FF1::new(&[7u8; 16], Alphabet::digits()).unwrap();
    /// let format = TokenFormat::new();
    /// let mut batch = TextBatch::new(&ff1, &format).unwrap();
    /// batch.push("123456").unwrap();
    /// batch.push("7890123").unwrap();
    /// let (mut out, mut ends) = (b"x".to_vec(), Vec::new());
    /// batch.append_all_utf8(&mut out, &mut ends).unwrap();
    /// assert_eq!((&out[..], &ends[..]), (&b"x1234567890123"[..], &[7, 14][..]));
    /// ```
    pub fn append_all_utf8(&mut self, out: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<(), Error> {
        if self.format.is_plain() && self.alphabet.is_ascii() {
            // One byte per numeral: the numerals' ends shifted are the texts'.
            let base = out.len();
            self.alphabet.push_utf8(&self.numerals, out)?;
            ends.extend(self.ends.iter().map(|&end| base + end));
            return Ok(());
        }
        for index in 0..self.len() {
            self.append_utf8(index, out)?;
            ends.push(out.len());
        }
        Ok(())
    }

    /// Appends value `index` as UTF-8 text to `out`, the format's passthrough and kept characters back
    /// in place (before a batch call: the value itself). An index past the batch is [`Error::Format`].
    pub fn append_utf8(&mut self, index: usize, out: &mut Vec<u8>) -> Result<(), Error> {
        let end = *self.ends.get(index).ok_or(Error::Format("value index past the end of the batch"))?;
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        let numerals = &self.numerals[start..end];
        if self.format.is_plain() {
            // Numerals come from `push` and the batch calls: all below the radix.
            return self.alphabet.push_utf8(numerals, out);
        }
        let text_start = if index == 0 { 0 } else { self.text_ends[index - 1] };
        let text = &self.texts[text_start..self.text_ends[index]];
        // The value before may be longer: wiped, not only emptied.
        self.scratch.as_mut_str().zeroize();
        self.scratch.clear();
        self.format.merge(self.alphabet, text, numerals, &mut self.scratch)?;
        out.extend_from_slice(self.scratch.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fpe::{FF1, FF3_1};

    fn utf8(batch: &mut TextBatch<'_>) -> Vec<String> {
        (0..batch.len())
            .map(|i| {
                let mut v = Vec::new();
                batch.append_utf8(i, &mut v).unwrap();
                String::from_utf8(v).unwrap()
            })
            .collect()
    }

    #[test]
    fn matches_one_value_at_a_time_and_round_trips() {
        let ff1 = FF1::new(&[3u8; 32], Alphabet::new("0123456789abcdefé").unwrap()).unwrap();
        let values = ["12345678", "éé1234567", "000000000000", "abcdefabé"];
        for format in [TokenFormat::new(), TokenFormat::new().passthrough("-").keep_prefix(2).keep_suffix(1)] {
            let mut batch = TextBatch::new(&ff1, &format).unwrap();
            for v in values {
                batch.push(v).unwrap();
            }
            assert_eq!(utf8(&mut batch), values, "before the batch call: the values themselves");
            batch.encrypt(Tweaks::Same(b"tw")).unwrap();
            let tokens = utf8(&mut batch);
            for (v, t) in values.iter().zip(&tokens) {
                let mut one = String::new();
                format.transform_into(Direction::Encrypt, &ff1, b"tw", v, &mut one).unwrap();
                assert_eq!(t, &one);
            }
            batch.clear();
            assert!(batch.is_empty());
            tokens.iter().for_each(|t| batch.push(t).unwrap());
            batch.decrypt(Tweaks::Same(b"tw")).unwrap();
            assert_eq!(utf8(&mut batch), values);
        }
    }

    #[test]
    fn all_at_once_equals_one_at_a_time() {
        let digits = FF1::new(&[3u8; 16], Alphabet::digits()).unwrap();
        let letters = FF1::new(&[3u8; 16], Alphabet::new("zyxwvutsrq").unwrap()).unwrap();
        let wide = FF1::new(&[3u8; 16], Alphabet::new("0123456789é").unwrap()).unwrap();
        let dashes = TokenFormat::new().passthrough("-").keep_suffix(2);
        let plain = TokenFormat::new();
        let cases: [(&FF1, &TokenFormat, &[&str]); 4] = [
            (&digits, &plain, &["123456", "98765432101234567890", "000000"]),
            (&letters, &plain, &["zyxwvu", "qqqqqqqq"]),
            (&wide, &plain, &["1234é6", "é99999"]),
            (&digits, &dashes, &["123-456-78", "1234-5678-9012"]),
        ];
        for (cipher, format, values) in cases {
            let mut batch = TextBatch::new(cipher, format).unwrap();
            values.iter().for_each(|v| batch.push(v).unwrap());
            batch.encrypt(Tweaks::Same(b"tw")).unwrap();
            let (mut out, mut ends) = (b"prefix".to_vec(), vec![6]);
            batch.append_all_utf8(&mut out, &mut ends).unwrap();
            let each = utf8(&mut batch);
            assert_eq!(out, [b"prefix".to_vec(), each.concat().into_bytes()].concat());
            let lens: Vec<usize> = ends.windows(2).map(|w| w[1] - w[0]).collect();
            assert_eq!(lens, each.iter().map(String::len).collect::<Vec<_>>());
        }
    }

    #[test]
    fn errors_name_the_value_and_leave_the_batch_usable() {
        let ff1 = FF1::new(&[3u8; 16], Alphabet::digits()).unwrap();
        let format = TokenFormat::new().passthrough("-");
        let mut batch = TextBatch::new(&ff1, &format).unwrap();
        batch.push("123-456").unwrap();
        assert_eq!(batch.push("12x456"), Err(Error::NotInAlphabet { ch: 'x', position: 2 }));
        assert_eq!(batch.len(), 1);
        batch.push("1-2").unwrap();
        let err = batch.encrypt(Tweaks::Same(b"")).unwrap_err();
        assert!(
            matches!(err, Error::Batch { index: 1, ref source } if matches!(**source, Error::Length { len: 2, .. }))
        );
        // Nothing was encrypted: the values read back unchanged.
        assert_eq!(utf8(&mut batch), ["123-456", "1-2"]);
        assert!(matches!(batch.append_utf8(2, &mut Vec::new()), Err(Error::Format(_))));
    }

    #[test]
    fn refuses_bad_formats_tweaks_and_bare_radix_ciphers() {
        let ff3_1 = FF3_1::new(&[3u8; 16], Alphabet::digits()).unwrap();
        let bad = TokenFormat::new().passthrough("-0");
        assert_eq!(TextBatch::new(&ff3_1, &bad).unwrap_err(), Error::PassthroughInAlphabet { ch: '0' });
        let plain = TokenFormat::new();
        let mut batch = TextBatch::new(&ff3_1, &plain).unwrap();
        batch.push("123456").unwrap();
        let e = batch.encrypt(Tweaks::Same(b"short")).unwrap_err();
        let e = if let Error::Batch { index: 0, source } = e { *source } else { e };
        assert!(matches!(e, Error::TweakLength { got: 5, .. }), "{e:?}");
        let radix_only = FF1::with_radix(&[3u8; 16], 10).unwrap();
        assert!(matches!(TextBatch::new(&radix_only, &plain), Err(Error::Alphabet(_))));
    }
}
