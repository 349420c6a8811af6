//! Many FPE values at once through the interleaved batch path
//! ([`crate::fpe::TextBatch`]), with the same results as one at a time.

use zeroize::Zeroize;

use crate::Direction;
use crate::fpe::{TextBatch, Tweaks};

use super::error::{Error, Result};
use super::tokenize::FpeTransform;

/// What one batch call does, to which values.
#[derive(Clone, Copy)]
struct Job<'a> {
    dir: Direction,
    tweak: Option<&'a [u8]>,
    values: &'a [&'a str],
    /// The key version of the tokens (decryption; `None`: the primary).
    version: Option<u32>,
}

/// An error about value `index` of a batch.
fn at(index: usize) -> impl Fn(Error) -> Error {
    move |e| match e {
        Error::Crypto(c) => Error::Crypto(crate::Error::Batch { index, source: Box::new(c) }),
        e => e,
    }
}

impl FpeTransform {
    /// Encrypts `values` under the primary, appending each token to `out`
    /// and its end to `ends`; equal to [`encrypt_into`](Self::encrypt_into)
    /// one at a time, but the FF1/FF3-1 rounds of all values are
    /// interleaved. An error about one value is an
    /// [`Error::Crypto`]`(`[`crate::Error::Batch`]`)` naming it.
    ///
    /// ```
    /// use tessera::keyset::{Keyset, Template};
    /// let mut ks = Keyset::new();
    /// ks.add_transform("ssn", Template::Ssn.params()).unwrap();
    /// let fpe = ks.fpe("ssn").unwrap();
    /// let (mut out, mut ends) = (Vec::new(), Vec::new());
    /// fpe.encrypt_batch(None, &["123-45-6789", "987-65-4321"], &mut out, &mut ends).unwrap();
    /// assert_eq!(std::str::from_utf8(&out[..ends[0]]).unwrap(), fpe.encrypt(None, "123-45-6789").unwrap());
    /// ```
    pub fn encrypt_batch(
        &self,
        tweak: Option<&[u8]>,
        values: &[&str],
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        self.run_batch(&Job { dir: Direction::Encrypt, tweak, values, version: None }, out, ends)
    }

    /// Decrypts `values` (all made by `version`, or by the primary when it is
    /// `None`; in embedded mode each token's own version), appending each
    /// plaintext to `out` and its end to `ends`. See
    /// [`encrypt_batch`](Self::encrypt_batch).
    pub fn decrypt_batch(
        &self,
        tweak: Option<&[u8]>,
        values: &[&str],
        version: Option<u32>,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        self.run_batch(&Job { dir: Direction::Decrypt, tweak, values, version }, out, ends)
    }

    fn run_batch(&self, job: &Job<'_>, out: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<()> {
        let Job { dir, tweak, values, version } = *job;
        // Tokens whose version is read one by one, and values with a kept
        // tail, go one at a time.
        let one_by_one =
            self.params.keep_from_last.is_some() || (dir == Direction::Decrypt && self.embedding.is_some());
        if one_by_one {
            return self.each(job, out, ends);
        }
        let tweak = self.tweak(tweak)?;
        let version = version.unwrap_or(self.primary());
        let mut batch = TextBatch::new(self.cipher(version)?, &self.format)?;
        for (i, v) in values.iter().enumerate() {
            batch.push(v).map_err(|e| at(i)(e.into()))?;
        }
        batch.transform(dir, Tweaks::Same(tweak))?;
        let mut token = String::new();
        for i in 0..values.len() {
            let start = out.len();
            batch.append_utf8(i, out)?;
            if dir == Direction::Encrypt && self.embedding.is_some() {
                token.clear();
                token.push_str(std::str::from_utf8(&out[start..]).expect("tokens are UTF-8"));
                self.embed_version(version, &mut token);
                out.truncate(start);
                out.extend_from_slice(token.as_bytes());
            }
            ends.push(out.len());
        }
        batch.clear();
        Ok(())
    }

    fn each(&self, job: &Job<'_>, out: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<()> {
        let Job { dir, tweak, values, version } = *job;
        let mut s = String::new();
        for (i, v) in values.iter().enumerate() {
            match dir {
                Direction::Encrypt => self.encrypt_into(tweak, v, &mut s),
                Direction::Decrypt => self.decrypt_into(tweak, v, version, &mut s).map(drop),
            }
            .map_err(at(i))?;
            out.extend_from_slice(s.as_bytes());
            ends.push(out.len());
        }
        s.zeroize();
        Ok(())
    }
}
