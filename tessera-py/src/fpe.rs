//! `tessera.FF1`, `tessera.FF3_1`, `tessera.FF3`: format-preserving encryption.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use tessera::fpe::{Algorithm, Alphabet, Fpe, TextBatch, TokenFormat, Tweaks};
use tessera::{BATCH_SIZE, Direction};

use crate::columns::{Column, Flavor, Output, column, to_pyarrow};
use crate::errors::{Failure, Kind, lib_err, py_err};

/// What the three classes share: the cipher and the token format.
pub struct Core {
    pub(crate) cipher: Box<dyn Fpe>,
    pub(crate) format: TokenFormat,
    algorithm: Algorithm,
    name: &'static str,
    alphabet: String,
    passthrough: String,
    keep_prefix: usize,
    keep_suffix: usize,
}

/// The rows since the last batch call: (row, not null), and the values.
struct Pending<'a> {
    batch: TextBatch<'a>,
    rows: Vec<(usize, bool)>,
}

impl Core {
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        alg: Algorithm,
        name: &'static str,
        key: &[u8],
        alphabet: &str,
        passthrough: &str,
        keep_prefix: usize,
        keep_suffix: usize,
    ) -> PyResult<Self> {
        let a = Alphabet::new(alphabet).map_err(|e| py_err(py, Kind::Parameter, format!("alphabet: {e}")))?;
        let format = TokenFormat::new().passthrough(passthrough).keep_prefix(keep_prefix).keep_suffix(keep_suffix);
        format.validate(&a).map_err(|e| lib_err(py, e))?;
        let cipher = alg.cipher(key, a).map_err(|e| lib_err(py, e))?;
        Ok(Core {
            cipher,
            format,
            algorithm: alg,
            name,
            alphabet: alphabet.to_owned(),
            passthrough: passthrough.to_owned(),
            keep_prefix,
            keep_suffix,
        })
    }

    fn repr(&self, py: Python<'_>) -> PyResult<String> {
        let q = |t: &str| -> PyResult<String> { Ok(pyo3::types::PyString::new(py, t).repr()?.to_string()) };
        let mut s = format!("tessera.{}(alphabet={}", self.name, q(&self.alphabet)?);
        if !self.passthrough.is_empty() {
            s += &format!(", passthrough={}", q(&self.passthrough)?);
        }
        if self.keep_prefix != 0 {
            s += &format!(", keep_prefix={}", self.keep_prefix);
        }
        if self.keep_suffix != 0 {
            s += &format!(", keep_suffix={}", self.keep_suffix);
        }
        Ok(s + ")")
    }

    /// Making tokens with a withdrawn method: a `DeprecationWarning`
    /// naming the status (shown once per call site by Python's filters).
    fn warn_withdrawn(&self, py: Python<'_>, dir: Direction) -> PyResult<()> {
        match self.algorithm.withdrawn() {
            Some(note) if dir == Direction::Encrypt => {
                let category = py.get_type::<pyo3::exceptions::PyDeprecationWarning>();
                PyErr::warn(py, &category, &std::ffi::CString::new(note).expect("no NUL"), 2)
            }
            _ => Ok(()),
        }
    }

    fn one(&self, py: Python<'_>, value: &str, tweak: &[u8], dir: Direction) -> PyResult<String> {
        self.warn_withdrawn(py, dir)?;
        let mut out = String::with_capacity(value.len());
        let r = if self.format.is_plain() {
            self.cipher.transform_into(dir, tweak, value, &mut out)
        } else {
            self.format.transform_into(dir, &*self.cipher, tweak, value, &mut out)
        };
        r.map_err(|e| lib_err(py, e))?;
        Ok(out)
    }

    fn batch(&self, py: Python<'_>, values: &Bound<'_, PyAny>, tweak: &[u8], dir: Direction) -> PyResult<Py<PyAny>> {
        self.warn_withdrawn(py, dir)?;
        let col = column(values)?;
        if col.flavor()? != Flavor::Text {
            return Err(pyo3::exceptions::PyTypeError::new_err("FPE batches take strings, not bytes"));
        }
        // Rejects a tweak the cipher does not accept, before touching values.
        self.cipher.check_tweak(tweak).map_err(|e| py_err(py, Kind::Parameter, format!("tweak: {e}")))?;
        let large = col.large();
        let array = py
            .detach(|| self.run(&col, tweak, dir).and_then(|o| o.finish(Flavor::Text, large).map_err(value_failure)))
            .map_err(|f| f.into_py(py))?;
        to_pyarrow(py, array)
    }

    /// The batch work, without the GIL: values go to the library's batch API
    /// `BATCH_SIZE` at a time (nulls skipped), as in the CLI.
    fn run(&self, col: &Column, tweak: &[u8], dir: Direction) -> Result<Output, Failure> {
        let batch = TextBatch::new(&*self.cipher, &self.format).map_err(|e| Failure::from_lib(e, |i| i))?;
        let mut p = Pending { batch, rows: Vec::new() };
        let mut out = Output::with_capacity(col.len(), 0);
        col.for_each(|row, v| {
            match v {
                None => p.rows.push((row, false)),
                Some(bytes) => {
                    // Arrow validated string arrays; list items came from Python str.
                    let s = std::str::from_utf8(bytes)
                        .map_err(|_| Failure::new(Kind::Value, "value is not valid UTF-8", Some(row)))?;
                    p.batch.push(s).map_err(|e| Failure::at(e, row))?;
                    p.rows.push((row, true));
                }
            }
            if p.batch.len() == BATCH_SIZE { flush(&mut p, &mut out, tweak, dir) } else { Ok(()) }
        })?;
        flush(&mut p, &mut out, tweak, dir)?;
        Ok(out)
    }
}

/// Runs the pending values through one batch call and appends every pending
/// row (nulls included) to `out`.
fn flush(p: &mut Pending<'_>, out: &mut Output, tweak: &[u8], dir: Direction) -> Result<(), Failure> {
    let tweaks = Tweaks::Same(tweak);
    let value_rows: Vec<usize> = p.rows.iter().filter(|r| r.1).map(|r| r.0).collect();
    p.batch.transform(dir, tweaks).map_err(|e| Failure::from_lib(e, |i| value_rows[i]))?;
    let mut k = 0;
    for &(row, present) in &p.rows {
        if !present {
            out.push_null();
            continue;
        }
        p.batch.append_utf8(k, &mut out.data).map_err(|e| Failure::new(Kind::Value, e.to_string(), Some(row)))?;
        out.end_value();
        k += 1;
    }
    p.batch.clear();
    p.rows.clear();
    Ok(())
}

fn value_failure(message: String) -> Failure {
    Failure::new(Kind::Value, message, None)
}

macro_rules! fpe_class {
    ($name:ident, $pyname:literal, $alg:expr, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(module = "tessera", name = $pyname, frozen)]
        pub struct $name(Core);

        #[pymethods]
        impl $name {
            #[new]
            #[pyo3(signature = (key, alphabet = "0123456789", *, passthrough = "", keep_prefix = 0, keep_suffix = 0))]
            fn new(
                py: Python<'_>,
                key: PyBackedBytes,
                alphabet: &str,
                passthrough: &str,
                keep_prefix: usize,
                keep_suffix: usize,
            ) -> PyResult<Self> {
                Core::new(py, $alg, $pyname, &key, alphabet, passthrough, keep_prefix, keep_suffix).map($name)
            }

            /// Encrypts one value; returns the token (same length, same alphabet).
            #[pyo3(signature = (value, tweak = b"".as_slice()))]
            fn encrypt(&self, py: Python<'_>, value: &str, tweak: &[u8]) -> PyResult<String> {
                self.0.one(py, value, tweak, Direction::Encrypt)
            }

            /// Decrypts one token; returns the original value.
            #[pyo3(signature = (value, tweak = b"".as_slice()))]
            fn decrypt(&self, py: Python<'_>, value: &str, tweak: &[u8]) -> PyResult<String> {
                self.0.one(py, value, tweak, Direction::Decrypt)
            }

            /// Encrypts a column of strings; returns a `pyarrow.Array` (nulls stay null).
            #[pyo3(signature = (values, tweak = b"".as_slice()))]
            fn encrypt_batch(&self, py: Python<'_>, values: &Bound<'_, PyAny>, tweak: &[u8]) -> PyResult<Py<PyAny>> {
                self.0.batch(py, values, tweak, Direction::Encrypt)
            }

            /// Decrypts a column of tokens; returns a `pyarrow.Array` (nulls stay null).
            #[pyo3(signature = (values, tweak = b"".as_slice()))]
            fn decrypt_batch(&self, py: Python<'_>, values: &Bound<'_, PyAny>, tweak: &[u8]) -> PyResult<Py<PyAny>> {
                self.0.batch(py, values, tweak, Direction::Decrypt)
            }

            /// The alphabet: character i is numeral i.
            #[getter]
            fn alphabet(&self) -> &str {
                &self.0.alphabet
            }

            /// The alphabet size.
            #[getter]
            fn radix(&self) -> u32 {
                self.0.cipher.radix()
            }

            /// Shortest accepted value, in encrypted characters.
            #[getter]
            fn min_len(&self) -> usize {
                self.0.cipher.len_range().0
            }

            /// Longest accepted value, in encrypted characters.
            #[getter]
            fn max_len(&self) -> usize {
                self.0.cipher.len_range().1
            }

            #[getter]
            fn passthrough(&self) -> &str {
                &self.0.passthrough
            }

            #[getter]
            fn keep_prefix(&self) -> usize {
                self.0.keep_prefix
            }

            #[getter]
            fn keep_suffix(&self) -> usize {
                self.0.keep_suffix
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                self.0.repr(py)
            }
        }
    };
}

fpe_class!(PyFF1, "FF1", Algorithm::Ff1, "FF1 (NIST SP 800-38G Rev 1) over an alphabet.");
fpe_class!(PyFF3_1, "FF3_1", Algorithm::Ff3_1, "FF3-1 (NIST SP 800-38G Rev 1): 7-byte tweaks.");
fpe_class!(PyFF3, "FF3", Algorithm::Ff3, "Legacy FF3 (withdrawn by NIST; to read old tokens): 8-byte tweaks.");

/// Runs `f` on the cipher of a `tessera.FF1`, `FF3_1` or `FF3` object.
pub fn with_core<T>(obj: &Bound<'_, PyAny>, f: impl FnOnce(&Core) -> PyResult<T>) -> PyResult<T> {
    if let Ok(c) = obj.cast::<PyFF1>() {
        return f(&c.get().0);
    }
    if let Ok(c) = obj.cast::<PyFF3_1>() {
        return f(&c.get().0);
    }
    if let Ok(c) = obj.cast::<PyFF3>() {
        return f(&c.get().0);
    }
    Err(pyo3::exceptions::PyTypeError::new_err("source must be a tessera.FF1, tessera.FF3_1 or tessera.FF3"))
}
