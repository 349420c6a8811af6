//! FPE columns of a keyset transformation: values gathered into batch
//! calls of the library (`BATCH_SIZE` at a time, nulls kept), and
//! `KeysetTransform.migrate_batch`, tokens of a key outside the keyset (any
//! FPE method) moved to a transformation in one pass.

use pyo3::prelude::*;
use tessera::BATCH_SIZE;
use tessera::keyset::{BatchTweaks, Error as KsError, FpeTransform, TokenSource};
use zeroize::Zeroizing;

use crate::columns::{Column, Flavor, Output, column, to_pyarrow};
use crate::errors::{Failure, Kind};
use crate::fpe::Core;
use crate::keyset::{Op, Opts, RowTweaks, Rows, batch_failure, failure, not_text};

/// Values gathered for one FPE batch call: their text back to back.
#[derive(Default)]
struct FpeBatch {
    text: Zeroizing<String>,
    ends: Vec<usize>,
    /// One entry per row since the last flush: the row of a value, or None for a null.
    rows: Vec<Option<usize>>,
}

/// An FPE column through the library's batch calls, `BATCH_SIZE` values
/// at a time.
pub(crate) fn fpe_column(f: &FpeTransform, op: Op, col: &Column, o: &Opts<'_>) -> Result<Output, Failure> {
    fpe_column_with(col, o, |tweaks, values, res, ends| match op {
        Op::Encrypt => f.encrypt_batch(tweaks, values, res, ends),
        Op::Decrypt => f.decrypt_batch(tweaks, values, o.version, res, ends),
        Op::Rewrap => f.rewrap_batch(tweaks, values, o.version, res, ends),
    })
}

/// The values of an FPE column through `call`, one batch call per
/// `BATCH_SIZE` values (nulls skipped and kept).
pub(crate) fn fpe_column_with(
    col: &Column,
    o: &Opts<'_>,
    call: impl Fn(BatchTweaks<'_>, &[&str], &mut Vec<u8>, &mut Vec<usize>) -> Result<(), KsError>,
) -> Result<Output, Failure> {
    let mut out = Output::with_capacity(col.len(), 0);
    let mut b = FpeBatch::default();
    let (mut res, mut ends) = (Zeroizing::new(Vec::new()), Vec::new());
    let row_tweaks = o.tweaks.map(|t| RowTweaks::read(t, col.len())).transpose()?;
    let mut flush = |b: &mut FpeBatch, out: &mut Output| {
        let per_row = row_tweaks.as_ref().map(|t| t.of(&b.rows)).transpose()?;
        let tweaks = per_row.as_deref().map_or(o.tweak.into(), BatchTweaks::PerValue);
        let mut start = 0;
        let values: Vec<&str> = b
            .ends
            .iter()
            .map(|&end| {
                let v = &b.text[start..end];
                start = end;
                v
            })
            .collect();
        res.clear();
        ends.clear();
        call(tweaks, &values, &mut res, &mut ends).map_err(|e| batch_failure(e, &b.rows))?;
        Rows::new(&b.rows).all(out, &res, &ends, |r, data| data.extend_from_slice(r));
        b.text.clear();
        b.ends.clear();
        b.rows.clear();
        Ok::<(), Failure>(())
    };
    col.for_each(|row, v| {
        match v {
            None => b.rows.push(None),
            Some(v) => {
                let v = std::str::from_utf8(v).map_err(|_| failure(not_text(), Some(row)))?;
                b.text.push_str(v);
                b.ends.push(b.text.len());
                b.rows.push(Some(row));
            }
        }
        if b.ends.len() == BATCH_SIZE { flush(&mut b, &mut out) } else { Ok(()) }
    })?;
    flush(&mut b, &mut out)?;
    Ok(out)
}

/// Decrypts `values` with `source` and its tweak and encrypts them with
/// `target`'s primary version, as the library's
/// [`FpeTransform::migrate_batch`] does, without the GIL.
pub fn migrate(
    py: Python<'_>,
    target: &FpeTransform,
    source: &Core,
    source_tweak: &[u8],
    values: &Bound<'_, PyAny>,
    o: &Opts<'_>,
) -> PyResult<Py<PyAny>> {
    source
        .cipher
        .check_tweak(source_tweak)
        .map_err(|e| Failure::new(Kind::Parameter, format!("source_tweak: {e}"), None).into_py(py))?;
    let col = column(values)?;
    if col.flavor()? != Flavor::Text {
        return Err(pyo3::exceptions::PyTypeError::new_err("FPE batches take strings, not bytes"));
    }
    let large = col.large();
    let from = TokenSource::Cipher { cipher: &*source.cipher, format: &source.format, tweak: source_tweak };
    let array = py
        .detach(|| {
            fpe_column_with(&col, o, |tweaks, values, res, ends| target.migrate_batch(&from, tweaks, values, res, ends))
                .and_then(|out| out.finish(Flavor::Text, large).map_err(|m| Failure::new(Kind::Value, m, None)))
        })
        .map_err(|f| f.into_py(py))?;
    to_pyarrow(py, array)
}
