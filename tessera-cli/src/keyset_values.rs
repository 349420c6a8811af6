//! Keyset transformations as record [`Transform`]s: FPE tokens and AES-SIV
//! ciphertexts (unpadded base64url) of batches of values.

use anyhow::anyhow;
use tessera::keyset::{BatchTweaks, FpeTransform, SivTransform};
use tessera::siv::{MessageBatch, base64url};

use crate::fpe_migrate::Source;
use tessera_cli::records::{Outputs, Transform, ValueError, Values};

/// What to do with each value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Encrypt,
    Decrypt,
    /// Decrypt under the version that made the value, encrypt under the primary.
    Rewrap,
}

impl From<tessera::Direction> for Op {
    fn from(d: tessera::Direction) -> Op {
        match d {
            tessera::Direction::Encrypt => Op::Encrypt,
            tessera::Direction::Decrypt => Op::Decrypt,
        }
    }
}

fn as_str(v: &[u8], index: usize) -> Result<&str, ValueError> {
    std::str::from_utf8(v).map_err(|_| ValueError { index, error: anyhow!("value is not valid UTF-8") })
}

/// A library error, with the flag that resolves it where there is one.
pub fn with_flag(e: tessera::keyset::Error) -> anyhow::Error {
    use tessera::keyset::Error;
    match e {
        Error::VersionAmbiguous { .. } | Error::RewrapSourceUnknown { .. } | Error::RewrapFromPrimary { .. } => {
            anyhow!("{e} (--version N)")
        }
        e => e.into(),
    }
}

/// A library error about one value of a batch (or about the whole batch:
/// reported at its first value).
fn value_error(e: tessera::keyset::Error) -> ValueError {
    use tessera::keyset::Error;
    match e {
        Error::Crypto(tessera::Error::Batch { index, source }) => ValueError { index, error: anyhow!("{source}") },
        Error::Batch { index, source } => ValueError { index, error: with_flag(*source) },
        e => ValueError { index: 0, error: with_flag(e) },
    }
}

pub struct FpeValues<'a> {
    pub fpe: FpeTransform,
    pub tweak: Option<Vec<u8>>,
    pub version: Option<u32>,
    pub op: Op,
    /// Rewrap: the tokens' source when it is not `fpe`'s own older versions.
    pub from: Option<&'a Source>,
}

impl Transform for FpeValues<'_> {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        let values = (0..input.len()).map(|i| as_str(input.get(i), i)).collect::<Result<Vec<&str>, _>>()?;
        // Tweak policy `field`: each value's tweak is its record's field.
        let per_value: Vec<&[u8]>;
        let tweaks = if self.fpe.tweak_field().is_some() {
            per_value = (0..input.len()).map(|i| input.tweak(i).unwrap_or_default()).collect();
            BatchTweaks::PerValue(&per_value)
        } else {
            self.tweak.as_deref().into()
        };
        let (data, ends) = (&mut out.data, &mut out.ends);
        match self.op {
            Op::Encrypt => self.fpe.encrypt_batch(tweaks, &values, data, ends),
            Op::Decrypt => self.fpe.decrypt_batch(tweaks, &values, self.version, data, ends),
            Op::Rewrap => match self.from {
                Some(from) => self.fpe.migrate_batch(&from.tokens(), tweaks, &values, data, ends),
                None => self.fpe.rewrap_batch(tweaks, &values, self.version, data, ends),
            },
        }
        .map_err(value_error)
    }
}

/// AES-SIV values through the library's batch calls (one S2V of the
/// associated data per batch); ciphertexts as unpadded base64url.
pub struct SivValues {
    siv: SivTransform,
    ad: Vec<u8>,
    op: Op,
    batch: MessageBatch,
    /// Rewrap's output; one ciphertext (prefix `|| V || C`) to encode.
    res: Vec<u8>,
    ends: Vec<usize>,
}

impl SivValues {
    /// `op` on values of `siv` with associated data `ad`.
    pub fn new(siv: SivTransform, ad: Vec<u8>, op: Op) -> Self {
        SivValues { siv, ad, op, batch: MessageBatch::new(), res: Vec::new(), ends: Vec::new() }
    }
}

impl Transform for SivValues {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        self.batch.clear();
        for i in 0..input.len() {
            if self.op == Op::Encrypt {
                self.batch.push(input.get(i));
            } else {
                self.batch.push_base64url(input.get(i)).map_err(|e| ValueError { index: i, error: e.into() })?;
            }
        }
        let (res, ends, ad) = (&mut self.res, &mut self.ends, &self.ad[..]);
        let mut put = |bytes: &[u8], base64: bool| {
            if base64 {
                base64url::encode(bytes, &mut out.data);
            } else {
                out.data.extend_from_slice(bytes);
            }
            out.ends.push(out.data.len());
        };
        match self.op {
            Op::Encrypt => self.siv.encrypt_batch_each(ad, &mut self.batch, |prefix, ct| {
                res.clear();
                res.extend_from_slice(prefix);
                res.extend_from_slice(ct);
                put(res, true);
            }),
            Op::Decrypt => self.siv.decrypt_batch_each(ad, &mut self.batch, |pt| put(pt, false)),
            Op::Rewrap => {
                res.clear();
                ends.clear();
                self.siv.rewrap_batch(ad, &mut self.batch, res, ends).map(|()| {
                    let mut start = 0;
                    for &end in ends.iter() {
                        put(&res[start..end], true);
                        start = end;
                    }
                })
            }
        }
        .map_err(value_error)
    }
}
