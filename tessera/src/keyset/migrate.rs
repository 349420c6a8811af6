//! Moving tokens onto a keyset transformation in one pass: tokens made
//! outside the keyset (a key file and any FPE method, FF3-1 and FF3
//! included) or by another of its transformations are decrypted and
//! encrypted again under the target's primary version, the plaintexts never
//! leaving one zeroized buffer.

use zeroize::Zeroizing;

use crate::Direction;
use crate::fpe::{Fpe, TextBatch, TokenFormat, Tweaks};

use super::batch::{BatchTweaks, split};
use super::error::{Result, at};
use super::tokenize::FpeTransform;

/// What made the tokens to migrate.
#[derive(Clone, Copy)]
pub enum TokenSource<'a> {
    /// A cipher outside any keyset (FF1, FF3-1 or FF3 from a key file), the
    /// token format it wrote and the tweak of every token.
    Cipher {
        /// The cipher that made the tokens.
        cipher: &'a dyn Fpe,
        /// Their format (passthrough characters, kept prefix and suffix).
        format: &'a TokenFormat,
        /// The tweak of every token.
        tweak: &'a [u8],
    },
    /// Another transformation of a keyset, its tweaks and the key version
    /// that made the tokens (as [`FpeTransform::decrypt_batch`] takes them).
    Transform {
        /// The transformation that made the tokens.
        fpe: &'a FpeTransform,
        /// Their tweaks.
        tweaks: BatchTweaks<'a>,
        /// The key version that made them (`None`: as `decrypt_batch` decides).
        version: Option<u32>,
    },
}

impl std::fmt::Debug for TokenSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenSource::Cipher { .. } => f.write_str("TokenSource::Cipher"),
            TokenSource::Transform { fpe, version, .. } => {
                f.debug_struct("TokenSource::Transform").field("fpe", fpe).field("version", version).finish()
            }
        }
    }
}

impl TokenSource<'_> {
    /// Decrypts `values`, appending each plaintext to `plain` (which is
    /// large enough that it never reallocates) and its end to `ends`.
    fn decrypt(&self, values: &[&str], plain: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<()> {
        match *self {
            TokenSource::Cipher { cipher, format, tweak } => {
                let mut batch = TextBatch::new(cipher, format)?;
                for (i, v) in values.iter().enumerate() {
                    batch.push(v).map_err(|e| at(i)(e.into()))?;
                }
                batch.transform(Direction::Decrypt, Tweaks::Same(tweak))?;
                for i in 0..values.len() {
                    batch.append_utf8(i, plain)?;
                    ends.push(plain.len());
                }
                batch.clear();
                Ok(())
            }
            TokenSource::Transform { fpe, tweaks, version } => fpe.decrypt_batch(tweaks, values, version, plain, ends),
        }
    }
}

impl FpeTransform {
    /// Re-encrypts `values` (made by `from`, or by the version each carries
    /// in embedded mode) under the primary, as
    /// [`rewrap_into`](Self::rewrap_into) on each (refused as it refuses): a
    /// [`decrypt_batch`](Self::decrypt_batch) then an
    /// [`encrypt_batch`](Self::encrypt_batch), through
    /// [`migrate_batch`](Self::migrate_batch) with this transformation as
    /// the source: the plaintexts pass through one buffer, sized up front
    /// and zeroized before this returns; the batch's working numerals are
    /// not wiped (SECURITY.md: plaintext buffers are not).
    ///
    /// ```
    /// use tessera::keyset::{BatchTweaks, Keyset, Template};
    /// let mut ks = Keyset::new();
    /// ks.add_transform("ssn", Template::Ssn.params()).unwrap();
    /// let old = ks.fpe("ssn").unwrap().encrypt(None, "123-45-6789").unwrap();
    /// let v2 = ks.add_key("ssn").unwrap();
    /// ks.promote("ssn", v2).unwrap();
    /// let fpe = ks.fpe("ssn").unwrap();
    /// let (mut out, mut ends) = (Vec::new(), Vec::new());
    /// fpe.rewrap_batch(BatchTweaks::Fixed, &[old.as_str()], Some(1), &mut out, &mut ends).unwrap();
    /// assert_eq!(out, fpe.encrypt(None, "123-45-6789").unwrap().as_bytes());
    /// ```
    pub fn rewrap_batch(
        &self,
        tweaks: BatchTweaks<'_>,
        values: &[&str],
        from: Option<u32>,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        self.check_rewrap(from)?;
        let own = TokenSource::Transform { fpe: self, tweaks, version: from };
        self.migrate_batch(&own, tweaks, values, out, ends)
    }

    /// Moves `values`, tokens made by `source`, to this transformation:
    /// each is decrypted by the source and encrypted under the primary
    /// version with `tweaks`, the new token appended to `out` and its end to
    /// `ends`. A token the source cannot decrypt, or a plaintext outside
    /// this transformation's domain, is an error naming the value (as
    /// [`encrypt_batch`](Self::encrypt_batch) reports it), and `out` and
    /// `ends` are left as they were. The plaintexts pass through one buffer
    /// that is zeroized before this returns.
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, FF3_1, Fpe, TokenFormat};
    /// use tessera::keyset::{BatchTweaks, Keyset, Template, TokenSource};
    ///
    /// // Tokens an FF3-1 deployment made, with its key and tweak.
    /// let old = FF3_1::new(&[7u8; 16], Alphabet::digits()).unwrap();
    /// let tweak = [1, 2, 3, 4, 5, 6, 7];
    /// let tokens = [old.encrypt(&tweak, "4111111111111111").unwrap()];
    ///
    /// let mut ks = Keyset::new();
    /// ks.add_transform("cards", Template::Digits.params()).unwrap();
    /// let ff1 = ks.fpe("cards").unwrap();
    /// let format = TokenFormat::new();
    /// let source = TokenSource::Cipher { cipher: &old, format: &format, tweak: &tweak };
    /// let values: Vec<&str> = tokens.iter().map(String::as_str).collect();
    /// let (mut out, mut ends) = (Vec::new(), Vec::new());
    /// ff1.migrate_batch(&source, BatchTweaks::Fixed, &values, &mut out, &mut ends).unwrap();
    /// let token = std::str::from_utf8(&out).unwrap();
    /// assert_eq!(ff1.decrypt(None, token, None).unwrap().as_str(), "4111111111111111");
    /// ```
    pub fn migrate_batch(
        &self,
        source: &TokenSource<'_>,
        tweaks: BatchTweaks<'_>,
        values: &[&str],
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        // A plaintext has as many characters as its token, each at most 4
        // UTF-8 octets and each token character at least one: this buffer
        // never grows, so no copy of a plaintext is left behind.
        let size = values.iter().map(|v| v.len()).sum::<usize>() * 4;
        let (mut plain, mut plain_ends) = (Zeroizing::new(Vec::with_capacity(size)), Vec::with_capacity(values.len()));
        source.decrypt(values, &mut plain, &mut plain_ends)?;
        let text = std::str::from_utf8(&plain).map_err(|_| crate::Error::Format("a plaintext is not UTF-8"))?;
        self.encrypt_batch(tweaks, &split(text, &plain_ends), out, ends)
    }
}
