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
#[derive(Debug, Default)]
pub struct Scratch {
    batch: MessageBatch,
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

/// Wipes and empties `buf`, keeping its capacity: one fill of the slice
/// (`Vec::zeroize` writes element by element). The capacity past the
/// length is not wiped, so these buffers are only ever emptied through it.
pub fn wipe(buf: &mut Vec<u8>) {
    buf.as_mut_slice().zeroize();
    buf.clear();
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
        wipe(out);
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
    wipe(bytes);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::keyset;

    fn run(job: &Job, values: &[&str]) -> Result<Vec<String>, ValueError> {
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        job.run(values, &mut Scratch::default(), &mut out, &mut ends)?;
        let starts = std::iter::once(0).chain(ends.iter().copied());
        Ok(starts.zip(&ends).map(|(s, &e)| String::from_utf8(out[s..e].to_vec()).unwrap()).collect())
    }

    #[test]
    fn fpe_chunks_equal_one_value_at_a_time_and_errors_name_the_value() {
        let ks = keyset();
        let enc = Job::Fpe { fpe: ks.fpe("numbers").unwrap(), op: Op::Encrypt, version: None };
        let tokens = run(&enc, &["123456", "9876543210"]).unwrap();
        assert_eq!(tokens[1], ks.fpe("numbers").unwrap().encrypt(None, "9876543210").unwrap());
        let dec = Job::Fpe { fpe: ks.fpe("numbers").unwrap(), op: Op::Decrypt, version: None };
        let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
        assert_eq!(run(&dec, &refs).unwrap(), ["123456", "9876543210"]);
        let e = run(&enc, &["123456", "123456", "12x456"]).unwrap_err();
        assert_eq!(e.index, 2);
        assert!(e.message.contains("alphabet"), "{}", e.message);
    }

    #[test]
    fn siv_round_trip_is_base64url_and_bad_text_names_the_value() {
        let ks = keyset();
        let siv = ks.siv("emails").unwrap();
        let enc = Job::Siv { siv: ks.siv("emails").unwrap(), op: Op::Encrypt };
        let cts = run(&enc, &["a@b.c", ""]).unwrap();
        let mut want = Vec::new();
        base64url::encode(&siv.encrypt(b"", b"a@b.c").unwrap(), &mut want);
        assert_eq!(cts[0].as_bytes(), want);
        let dec = Job::Siv { siv, op: Op::Decrypt };
        assert_eq!(run(&dec, &[cts[0].as_str(), cts[1].as_str()]).unwrap(), ["a@b.c", ""]);
        assert_eq!(run(&dec, &[cts[0].as_str(), "not base64!"]).unwrap_err().index, 1);
        assert_eq!(run(&dec, &[cts[0].as_str(), "AAAA"]).unwrap_err().index, 1);
    }

    #[test]
    fn migration_moves_ff3_1_tokens_to_ff1() {
        let ks = keyset();
        let legacy = ks.fpe("legacy").unwrap();
        let old: Vec<String> = ["123456", "00001234567890"].iter().map(|v| legacy.encrypt(None, v).unwrap()).collect();
        let job = Job::Migrate { from: legacy, to: ks.fpe("numbers").unwrap() };
        let moved = run(&job, &[old[0].as_str(), old[1].as_str()]).unwrap();
        let ff1 = ks.fpe("numbers").unwrap();
        assert_eq!(ff1.decrypt(None, &moved[1], None).unwrap().as_str(), "00001234567890");
        assert_eq!(run(&job, &[old[0].as_str(), "12"]).unwrap_err().index, 1);
    }

    #[test]
    fn a_plaintext_that_is_not_utf8_is_refused() {
        assert_eq!(check_text(b"ab\xff", &[2, 3]).unwrap_err().index, 1);
        assert!(check_text(b"abc", &[1, 3]).is_ok());
    }
}
