//! `KeysetTransform.migrate_batch`: tokens of a key outside the keyset
//! (any FPE method) moved to a transformation in one pass.

use pyo3::prelude::*;
use tessera::keyset::{FpeTransform, TokenSource};

use crate::columns::{Flavor, column, to_pyarrow};
use crate::errors::{Failure, Kind};
use crate::fpe::Core;
use crate::keyset::{Opts, fpe_column_with};

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
