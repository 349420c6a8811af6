//! What one SQL call does to a column, decided once when the query is
//! bound: the transformation(s), the direction, the key version. Runs one
//! library batch call per DuckDB chunk. No DuckDB types here.

use tessera::keyset::{BatchTweaks, Error, FpeTransform, SivTransform, TokenSource};
use tessera::siv::{MessageBatch, base64url};
use zeroize::Zeroize;

/// The direction of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Under the primary key version.
    Encrypt,
    /// Under the version that made the value.
    Decrypt,
    /// Decrypt under the version that made the value, encrypt under the primary.
    Rewrap,
}

impl Op {
    /// The SQL function's name.
    pub fn sql_name(self) -> &'static str {
        match self {
            Op::Encrypt => "tessera_encrypt",
            Op::Decrypt => "tessera_decrypt",
            Op::Rewrap => "tessera_rewrap",
        }
    }
}

/// A bound call: FPE values are text in, text out; AES-SIV ciphertexts are
/// unpadded base64url of the keyset's bytes (prefix, then `V || C`), as
/// `tessera siv --keyset ... --lines` writes them, with empty associated
/// data.
#[derive(Debug)]
#[expect(clippy::large_enum_variant, reason = "one per query, behind an Arc")]
pub enum Job {
    /// An FPE transformation; `version`: the key version of the tokens
    /// (decrypt and rewrap; `None`: as the library decides).
    Fpe { fpe: FpeTransform, op: Op, version: Option<u32> },
    /// Tokens of `from` (another FPE transformation of the keyset) moved to `to`.
    Migrate { from: FpeTransform, to: FpeTransform },
    /// An AES-SIV transformation.
    Siv { siv: SivTransform, op: Op },
}

/// An error about value `index` of a chunk (0-based), or about the call.
#[derive(Debug)]
pub struct ValueError {
    /// The value's index among the values handed to [`Job::run`].
    pub index: usize,
    /// What is wrong (never the value itself).
    pub message: String,
}

/// Buffers reused from chunk to chunk by one thread.
#[derive(Default)]
pub struct Scratch {
    batch: MessageBatch,
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scratch")
    }
}

/// The library's error about one value of a batch, or about the whole call
/// (reported at its first value).
fn value_error(e: Error) -> ValueError {
    match e {
        Error::Crypto(tessera::Error::Batch { index, source }) => ValueError { index, message: source.to_string() },
        Error::Batch { index, source } => ValueError { index, message: source.to_string() },
        e => ValueError { index: 0, message: e.to_string() },
    }
}

impl Job {
    /// Runs the call on `values`, writing each result to `out` (cleared
    /// first, as `ends` is) and its end to `ends`. On error `out` may hold
    /// part of the results: the caller wipes it.
    pub fn run(
        &self,
        values: &[&str],
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<(), ValueError> {
        let fixed = BatchTweaks::Fixed;
        out.zeroize();
        out.clear();
        ends.clear();
        match self {
            Job::Fpe { fpe, op: Op::Encrypt, .. } => fpe.encrypt_batch(fixed, values, out, ends),
            Job::Fpe { fpe, op: Op::Decrypt, version } => fpe.decrypt_batch(fixed, values, *version, out, ends),
            Job::Fpe { fpe, op: Op::Rewrap, version } => fpe.rewrap_batch(fixed, values, *version, out, ends),
            Job::Migrate { from, to } => {
                let source = TokenSource::Transform { fpe: from, tweaks: fixed, version: None };
                to.migrate_batch(&source, fixed, values, out, ends)
            }
            Job::Siv { siv, op } => return run_siv(siv, *op, values, scratch, out, ends),
        }
        .map_err(value_error)
    }
}

fn run_siv(
    siv: &SivTransform,
    op: Op,
    values: &[&str],
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
    ends: &mut Vec<usize>,
) -> Result<(), ValueError> {
    let Scratch { batch, bytes, ends: byte_ends } = scratch;
    batch.clear();
    for (index, v) in values.iter().enumerate() {
        if op == Op::Encrypt {
            batch.push(v.as_bytes());
        } else {
            batch.push_base64url(v.as_bytes()).map_err(|e| ValueError { index, message: e.to_string() })?;
        }
    }
    let mut put = |b: &[u8]| {
        base64url::encode(b, out);
        ends.push(out.len());
    };
    bytes.clear();
    byte_ends.clear();
    let done = match op {
        Op::Encrypt => siv.encrypt_batch_each(b"", batch, |prefix, ct| {
            bytes.clear();
            bytes.extend_from_slice(prefix);
            bytes.extend_from_slice(ct);
            put(bytes);
        }),
        Op::Rewrap => siv.rewrap_batch(b"", batch, bytes, byte_ends).map(|()| {
            let mut start = 0;
            for &end in byte_ends.iter() {
                put(&bytes[start..end]);
                start = end;
            }
        }),
        Op::Decrypt => siv.decrypt_batch(b"", batch, out, ends),
    };
    bytes.zeroize();
    bytes.clear();
    batch.clear();
    done.map_err(value_error)?;
    if op == Op::Decrypt {
        check_text(out, ends)?;
    }
    Ok(())
}

/// A VARCHAR must be UTF-8: a plaintext that is not (encrypted from bytes
/// outside SQL) is an error naming its value.
fn check_text(out: &[u8], ends: &[usize]) -> Result<(), ValueError> {
    let starts = std::iter::once(0).chain(ends.iter().copied());
    for (index, (start, &end)) in starts.zip(ends).enumerate() {
        if std::str::from_utf8(&out[start..end]).is_err() {
            return Err(ValueError { index, message: "the plaintext is not UTF-8 text".into() });
        }
    }
    Ok(())
}
