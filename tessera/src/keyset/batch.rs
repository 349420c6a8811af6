//! Many FPE values at once through the interleaved batch path
//! ([`crate::fpe::TextBatch`]), with the same results as one at a time.

use zeroize::Zeroize;

use crate::Direction;
use crate::fpe::{TextBatch, Tweaks};

use super::error::{Result, at};
use super::tokenize::FpeTransform;

/// The tweaks of a batch call on an [`FpeTransform`], as its tweak policy
/// asks: none (`fixed`: the keyset's), or the caller's (`call`, `field`).
///
/// ```
/// use tessera::keyset::{BatchTweaks, FpeParams, Keyset, TransformParams, TweakPolicy};
/// let mut p = FpeParams::new("0123456789");
/// p.tweak = TweakPolicy::Field { name: "customer".into() };
/// let mut ks = Keyset::new();
/// ks.add_transform("acct", TransformParams::Fpe(p)).unwrap();
/// let fpe = ks.fpe("acct").unwrap();
/// assert_eq!(fpe.tweak_field(), Some("customer"));
/// // Each value's tweak is its record's "customer" field.
/// let tweaks: [&[u8]; 2] = [b"c-17", b"c-42"];
/// let (mut out, mut ends) = (Vec::new(), Vec::new());
/// fpe.encrypt_batch(BatchTweaks::PerValue(&tweaks), &["123456", "123456"], &mut out, &mut ends).unwrap();
/// assert_eq!(out[..ends[0]], *fpe.encrypt(Some(b"c-17"), "123456").unwrap().as_bytes());
/// assert_eq!(out[ends[0]..], *fpe.encrypt(Some(b"c-42"), "123456").unwrap().as_bytes());
/// ```
#[derive(Debug, Clone, Copy)]
pub enum BatchTweaks<'a> {
    /// No tweak given: the one fixed in the keyset (policy `fixed`).
    Fixed,
    /// The same tweak for every value (policies `call` and `field`).
    Same(&'a [u8]),
    /// `tweaks[i]` for value `i` (policies `call` and `field`; with
    /// `field`, each value's record's field, which must not be empty).
    PerValue(&'a [&'a [u8]]),
}

impl<'a> From<Option<&'a [u8]>> for BatchTweaks<'a> {
    /// `None`: [`BatchTweaks::Fixed`]; `Some(t)`: [`BatchTweaks::Same`].
    fn from(t: Option<&'a [u8]>) -> Self {
        t.map_or(BatchTweaks::Fixed, BatchTweaks::Same)
    }
}

impl<'a> BatchTweaks<'a> {
    /// The tweak given for value `i`, as the one-value calls take it.
    fn get(&self, i: usize) -> Option<&'a [u8]> {
        match *self {
            BatchTweaks::Fixed => None,
            BatchTweaks::Same(t) => Some(t),
            BatchTweaks::PerValue(ts) => ts.get(i).copied(),
        }
    }
}

/// What one batch call does, to which values.
#[derive(Clone, Copy)]
struct Job<'a> {
    dir: Direction,
    tweaks: BatchTweaks<'a>,
    values: &'a [&'a str],
    /// The key version of the tokens (decryption; `None`: the primary).
    version: Option<u32>,
}

/// The values that `text` holds back to back, value `i` ending at `ends[i]`
/// (each end on a character boundary: the batch calls append whole values).
pub(super) fn split<'t>(text: &'t str, ends: &[usize]) -> Vec<&'t str> {
    let starts = std::iter::once(0).chain(ends.iter().copied());
    starts.zip(ends).map(|(start, &end)| &text[start..end]).collect()
}

impl FpeTransform {
    /// Encrypts `values` under the primary, appending each token to `out`
    /// and its end to `ends`; equal to [`encrypt_into`](Self::encrypt_into)
    /// one at a time, but the FF1/FF3-1 rounds of all values are
    /// interleaved. An error about one value names it: an
    /// [`Error::Crypto`](super::Error::Crypto)`(`[`crate::Error::Batch`]`)` for a bad value, an
    /// [`Error::Batch`](super::Error::Batch) for its tweak or key version; `out` and `ends` are
    /// then left as they were.
    ///
    /// ```
    /// use tessera::keyset::{BatchTweaks, Keyset, Template};
    /// let mut ks = Keyset::new();
    /// ks.add_transform("ssn", Template::Ssn.params()).unwrap();
    /// let fpe = ks.fpe("ssn").unwrap();
    /// let (mut out, mut ends) = (Vec::new(), Vec::new());
    /// fpe.encrypt_batch(BatchTweaks::Fixed, &["123-45-6789", "987-65-4321"], &mut out, &mut ends).unwrap();
    /// assert_eq!(std::str::from_utf8(&out[..ends[0]]).unwrap(), fpe.encrypt(None, "123-45-6789").unwrap());
    /// ```
    pub fn encrypt_batch(
        &self,
        tweaks: BatchTweaks<'_>,
        values: &[&str],
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        self.run_batch(&Job { dir: Direction::Encrypt, tweaks, values, version: None }, out, ends)
    }

    /// Decrypts `values` (all made by `version`, or when it is `None` by the
    /// only enabled version; in embedded mode each token's own version; see
    /// [`version_of`](Self::version_of)), appending each
    /// plaintext to `out` and its end to `ends`. See
    /// [`encrypt_batch`](Self::encrypt_batch).
    pub fn decrypt_batch(
        &self,
        tweaks: BatchTweaks<'_>,
        values: &[&str],
        version: Option<u32>,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        self.run_batch(&Job { dir: Direction::Decrypt, tweaks, values, version }, out, ends)
    }

    /// The batch call's tweaks, checked against the policy (and, for
    /// per-value tweaks, each one: its index names a bad one).
    fn batch_tweaks<'a>(&'a self, tweaks: BatchTweaks<'a>, n: usize) -> Result<Tweaks<'a>> {
        match tweaks {
            BatchTweaks::Fixed => Ok(Tweaks::Same(self.tweak(None)?)),
            BatchTweaks::Same(t) => Ok(Tweaks::Same(self.tweak(Some(t))?)),
            BatchTweaks::PerValue(ts) if ts.len() != n => {
                Err(crate::Error::Format("a batch needs exactly one tweak per value").into())
            }
            BatchTweaks::PerValue(ts) => {
                for (i, t) in ts.iter().enumerate() {
                    self.tweak(Some(t)).map_err(at(i))?;
                }
                Ok(Tweaks::PerValue(ts))
            }
        }
    }

    /// Runs the batch; on error `out` and `ends` are left as they were
    /// (what was appended is zeroized first).
    fn run_batch(&self, job: &Job<'_>, out: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<()> {
        let (len, count) = (out.len(), ends.len());
        let done = self.run(job, out, ends);
        if done.is_err() {
            out[len..].zeroize();
            out.truncate(len);
            ends.truncate(count);
        }
        done
    }

    fn run(&self, job: &Job<'_>, out: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<()> {
        let Job { dir, values, version, .. } = *job;
        let tweaks = self.batch_tweaks(job.tweaks, values.len())?;
        if let Some(walk) = &self.walk {
            let version = if dir == Direction::Decrypt { self.external_version(version)? } else { self.primary() };
            return walk.run(self.cipher(version)?, &self.alphabet, &self.format, dir, tweaks, values, out, ends);
        }
        // Values with a kept tail go one at a time.
        if self.params.keep_from_last.is_some() {
            return self.each(job, out, ends);
        }
        // Embedded versions: tokens that all carry the same version go
        // through the batch as plain tokens; others one at a time.
        let (mut plain, mut plain_ends) = (String::new(), Vec::new());
        let version = if dir == Direction::Decrypt && self.embedding.is_some() {
            match self.common_version(values, version, &mut plain, &mut plain_ends) {
                Some(v) => v,
                None => return self.each(job, out, ends),
            }
        } else if dir == Direction::Decrypt {
            self.external_version(version)?
        } else {
            self.primary()
        };
        let texts: Vec<&str>;
        let values = if plain_ends.is_empty() {
            values
        } else {
            texts = split(&plain, &plain_ends);
            &texts
        };
        let mut batch = TextBatch::new(self.cipher(version)?, &self.format)?;
        batch.reserve(values.len(), values.iter().map(|v| v.len()).sum());
        for (i, v) in values.iter().enumerate() {
            batch.push(v).map_err(|e| at(i)(e.into()))?;
        }
        batch.transform(dir, tweaks)?;
        if dir == Direction::Decrypt || self.embedding.is_none() {
            return batch.append_all_utf8(out, ends).map_err(Into::into);
        }
        let mut token = String::new();
        for i in 0..values.len() {
            let start = out.len();
            batch.append_utf8(i, out)?;
            token.clear();
            token.push_str(std::str::from_utf8(&out[start..]).expect("tokens are UTF-8"));
            self.embed_version(version, &mut token);
            out.truncate(start);
            out.extend_from_slice(token.as_bytes());
            ends.push(out.len());
        }
        batch.clear();
        Ok(())
    }

    /// Embedded mode: the version every token carries (agreeing with
    /// `version` if given), appending each as a plain token to `plain`
    /// and its end to `ends`; `None` if they differ or one is unreadable.
    fn common_version(
        &self,
        values: &[&str],
        version: Option<u32>,
        plain: &mut String,
        ends: &mut Vec<usize>,
    ) -> Option<u32> {
        let mut found = None;
        for v in values {
            let this = self.version_of(v, version).ok()?;
            if found.is_some_and(|f| f != this) {
                return None;
            }
            found = Some(this);
            self.unembed(v, plain);
            ends.push(plain.len());
        }
        found
    }

    fn each(&self, job: &Job<'_>, out: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<()> {
        let Job { dir, tweaks, values, version } = *job;
        let mut s = String::new();
        for (i, v) in values.iter().enumerate() {
            let tweak = tweaks.get(i);
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
