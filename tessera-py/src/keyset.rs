//! `tessera.Keyset`: named transformations with versioned keys (see
//! `tessera::keyset`). Encrypt under the primary, decrypt under the
//! version that made the value, rewrap to the primary; one value or whole
//! columns, without the GIL.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use tessera::BATCH_SIZE;
use tessera::keyset::{Error as KsError, FpeTransform, Keyset, Protection, SivTransform};
use tessera::siv::{MessageBatch, base64url};
use zeroize::Zeroizing;

use crate::columns::{Column, Flavor, Output, column, to_pyarrow};
use crate::errors::{Failure, Kind, kind_of};
use crate::pgp_io::Password;

/// A keyset error as a Python exception, naming the row of a batch.
fn failure(e: KsError, index: Option<usize>) -> Failure {
    let kind = match &e {
        KsError::Crypto(c) => kind_of(c),
        KsError::NoMatchingKey { .. } => Kind::Authentication,
        KsError::Sealed(_) | KsError::KeyDisabled { .. } | KsError::KeyDestroyed { .. } => Kind::Key,
        KsError::Malformed(_) | KsError::Io(_) => Kind::Value,
        _ => Kind::Parameter,
    };
    Failure::new(kind, e.to_string(), index)
}

/// A keyset file, opened with its password (or as cleartext JSON when
/// `insecure_cleartext=True`). Never shows its keys.
#[pyclass(module = "tessera", name = "Keyset", frozen)]
pub struct PyKeyset {
    ks: Keyset,
}

#[pymethods]
impl PyKeyset {
    /// Opens the keyset file at `path`.
    #[staticmethod]
    #[pyo3(signature = (path, password = None, *, insecure_cleartext = false))]
    fn open(py: Python<'_>, path: PathBuf, password: Option<Password>, insecure_cleartext: bool) -> PyResult<Self> {
        let protection = match (&password, insecure_cleartext) {
            (Some(p), false) => Protection::Password(p.bytes()),
            (None, true) => Protection::InsecureCleartext,
            _ => {
                let msg = "give a password, or insecure_cleartext=True for a cleartext keyset (not both)";
                return Err(Failure::new(Kind::Parameter, msg, None).into_py(py));
            }
        };
        let ks = py.detach(|| Keyset::open(&path, protection)).map_err(|e| failure(e, None).into_py(py))?;
        Ok(PyKeyset { ks })
    }

    /// The names of the transformations.
    fn names(&self) -> Vec<String> {
        self.ks.transforms().iter().map(|t| t.name.clone()).collect()
    }

    /// The transformation `name`, ready to use.
    fn transform(&self, py: Python<'_>, name: &str) -> PyResult<PyTransform> {
        let t = self.ks.transform(name).map_err(|e| failure(e, None).into_py(py))?;
        let inner = match t.params {
            tessera::keyset::TransformParams::Fpe(_) => self.ks.fpe(name).map(|f| Ready::Fpe(Box::new(f))),
            tessera::keyset::TransformParams::Siv(_) => self.ks.siv(name).map(Ready::Siv),
        };
        let inner = inner.map_err(|e| failure(e, None).into_py(py))?;
        Ok(PyTransform { name: name.to_owned(), inner })
    }

    fn __repr__(&self) -> String {
        format!("tessera.Keyset({})", self.names().join(", "))
    }
}

/// A batch error: the row of the value it names, if any.
fn batch_failure(e: KsError, rows: &[usize]) -> Failure {
    match e {
        KsError::Batch { index, source } => failure(*source, rows.get(index).copied()),
        e => failure(e, None),
    }
}

/// An AES-SIV column through the library's batch calls, `BATCH_SIZE`
/// values at a time (text columns: unpadded base64url ciphertexts).
fn siv_column(s: &SivTransform, op: Op, col: &Column, ad: &[u8], text: bool) -> Result<Output, Failure> {
    let mut out = Output::with_capacity(col.len(), 0);
    let mut batch = MessageBatch::new();
    // One entry per row since the last flush: the row of a value, or None for a null.
    let mut rows: Vec<Option<usize>> = Vec::new();
    let (mut res, mut ends) = (Zeroizing::new(Vec::new()), Vec::new());
    let mut flush = |batch: &mut MessageBatch, rows: &mut Vec<Option<usize>>, out: &mut Output| {
        res.clear();
        ends.clear();
        let done = match op {
            Op::Encrypt => s.encrypt_batch(ad, batch, &mut res, &mut ends),
            Op::Decrypt => s.decrypt_batch(ad, batch, &mut res, &mut ends),
            Op::Rewrap => s.rewrap_batch(ad, batch, &mut res, &mut ends),
        };
        done.map_err(|e| batch_failure(e, &rows.iter().flatten().copied().collect::<Vec<_>>()))?;
        let (mut start, mut next) = (0, ends.iter());
        for r in rows.iter() {
            if r.is_none() {
                out.push_null();
                continue;
            }
            let end = *next.next().expect("one output per value");
            if text && op != Op::Decrypt {
                base64url::encode(&res[start..end], &mut out.data);
            } else {
                out.data.extend_from_slice(&res[start..end]);
            }
            start = end;
            out.end_value();
        }
        batch.clear();
        rows.clear();
        Ok::<(), Failure>(())
    };
    col.for_each(|row, v| {
        match v {
            None => rows.push(None),
            Some(v) if text && op != Op::Encrypt => {
                batch.push_base64url(v).map_err(|e| Failure::at(e, row))?;
                rows.push(Some(row));
            }
            Some(v) => {
                batch.push(v);
                rows.push(Some(row));
            }
        }
        if batch.len() == BATCH_SIZE { flush(&mut batch, &mut rows, &mut out) } else { Ok(()) }
    })?;
    flush(&mut batch, &mut rows, &mut out)?;
    Ok(out)
}

enum Ready {
    Fpe(Box<FpeTransform>),
    Siv(SivTransform),
}

/// What to do with each value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Encrypt,
    Decrypt,
    Rewrap,
}

/// Per-call options: FPE tweak and version, AES-SIV associated data.
struct Opts<'a> {
    tweak: Option<&'a [u8]>,
    version: Option<u32>,
    ad: &'a [u8],
}

/// One transformation of a keyset: FPE on `str`, AES-SIV on `bytes`
/// (AES-SIV on `str` columns reads and writes unpadded base64url).
#[pyclass(module = "tessera", name = "KeysetTransform", frozen)]
pub struct PyTransform {
    name: String,
    inner: Ready,
}

impl PyTransform {
    /// One value: FPE text, or AES-SIV bytes (raw, not base64url).
    fn one(&self, op: Op, value: &[u8], o: &Opts<'_>, out: &mut Vec<u8>) -> Result<(), KsError> {
        match &self.inner {
            Ready::Fpe(f) => {
                let v = std::str::from_utf8(value)
                    .map_err(|_| KsError::Crypto(tessera::Error::Format("FPE values are text")))?;
                let mut s = String::with_capacity(v.len());
                match op {
                    Op::Encrypt => f.encrypt_into(o.tweak, v, &mut s)?,
                    Op::Decrypt => drop(f.decrypt_into(o.tweak, v, o.version, &mut s)?),
                    Op::Rewrap => f.rewrap_into(o.tweak, v, o.version, &mut s)?,
                }
                out.extend_from_slice(s.as_bytes());
                zeroize::Zeroize::zeroize(&mut s);
            }
            Ready::Siv(s) => match op {
                Op::Encrypt => s.encrypt_append(o.ad, value, out)?,
                Op::Decrypt => out.extend_from_slice(&s.decrypt(o.ad, value)?),
                Op::Rewrap => out.extend_from_slice(&s.rewrap(o.ad, value)?),
            },
        }
        Ok(())
    }

    /// A column: nulls stay null; AES-SIV on strings goes through base64url.
    fn column(&self, op: Op, col: &Column, o: &Opts<'_>) -> Result<Output, Failure> {
        let text = col.flavor().map_err(|e| Failure::new(Kind::Value, e.to_string(), None))? == Flavor::Text;
        if let Ready::Siv(s) = &self.inner {
            return siv_column(s, op, col, o.ad, text);
        }
        let mut out = Output::with_capacity(col.len(), 0);
        let mut res = Vec::new();
        col.for_each(|row, v| {
            let Some(v) = v else {
                out.push_null();
                return Ok(());
            };
            res.clear();
            self.one(op, v, o, &mut res).map_err(|e| failure(e, Some(row)))?;
            out.data.extend_from_slice(&res);
            out.end_value();
            Ok(())
        })?;
        zeroize::Zeroize::zeroize(&mut res);
        Ok(out)
    }

    fn scalar<'py>(&self, py: Python<'py>, op: Op, value: &Bound<'py, PyAny>, o: &Opts<'_>) -> PyResult<Py<PyAny>> {
        let text = value.is_instance_of::<PyString>();
        let bytes: Vec<u8> = if text { value.extract::<String>()?.into_bytes() } else { value.extract::<Vec<u8>>()? };
        let mut out = Vec::new();
        py.detach(|| self.one(op, &bytes, o, &mut out)).map_err(|e| failure(e, None).into_py(py))?;
        if text && matches!(self.inner, Ready::Fpe(_)) {
            let s = String::from_utf8(out).expect("FPE output is text");
            Ok(PyString::new(py, &s).into_any().unbind())
        } else {
            Ok(PyBytes::new(py, &out).into_any().unbind())
        }
    }

    fn batch(&self, py: Python<'_>, op: Op, values: &Bound<'_, PyAny>, o: &Opts<'_>) -> PyResult<Py<PyAny>> {
        let col = column(values)?;
        let flavor = col.flavor()?;
        let large = col.large();
        let array = py
            .detach(|| {
                self.column(op, &col, o)
                    .and_then(|out| out.finish(flavor, large).map_err(|m| Failure::new(Kind::Value, m, None)))
            })
            .map_err(|f| f.into_py(py))?;
        to_pyarrow(py, array)
    }
}

#[pymethods]
impl PyTransform {
    /// Encrypts one value under the primary key (FPE: `str`; AES-SIV: `bytes`).
    #[pyo3(signature = (value, *, tweak = None, ad = Vec::new()))]
    fn encrypt(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
        tweak: Option<Vec<u8>>,
        ad: Vec<u8>,
    ) -> PyResult<Py<PyAny>> {
        self.scalar(py, Op::Encrypt, value, &Opts { tweak: tweak.as_deref(), version: None, ad: &ad })
    }

    /// Decrypts one value under the version that made it (FPE external
    /// mode: `version`, default the primary).
    #[pyo3(signature = (value, *, tweak = None, version = None, ad = Vec::new()))]
    fn decrypt(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
        tweak: Option<Vec<u8>>,
        version: Option<u32>,
        ad: Vec<u8>,
    ) -> PyResult<Py<PyAny>> {
        self.scalar(py, Op::Decrypt, value, &Opts { tweak: tweak.as_deref(), version, ad: &ad })
    }

    /// Re-encrypts one value under the primary key.
    #[pyo3(signature = (value, *, tweak = None, version = None, ad = Vec::new()))]
    fn rewrap(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
        tweak: Option<Vec<u8>>,
        version: Option<u32>,
        ad: Vec<u8>,
    ) -> PyResult<Py<PyAny>> {
        self.scalar(py, Op::Rewrap, value, &Opts { tweak: tweak.as_deref(), version, ad: &ad })
    }

    /// Encrypts a column (Arrow array or list); returns a `pyarrow.Array`.
    #[pyo3(signature = (values, *, tweak = None, ad = Vec::new()))]
    fn encrypt_batch(
        &self,
        py: Python<'_>,
        values: &Bound<'_, PyAny>,
        tweak: Option<Vec<u8>>,
        ad: Vec<u8>,
    ) -> PyResult<Py<PyAny>> {
        self.batch(py, Op::Encrypt, values, &Opts { tweak: tweak.as_deref(), version: None, ad: &ad })
    }

    /// Decrypts a column; all or nothing (an error names the row).
    #[pyo3(signature = (values, *, tweak = None, version = None, ad = Vec::new()))]
    fn decrypt_batch(
        &self,
        py: Python<'_>,
        values: &Bound<'_, PyAny>,
        tweak: Option<Vec<u8>>,
        version: Option<u32>,
        ad: Vec<u8>,
    ) -> PyResult<Py<PyAny>> {
        self.batch(py, Op::Decrypt, values, &Opts { tweak: tweak.as_deref(), version, ad: &ad })
    }

    /// Re-encrypts a column under the primary key.
    #[pyo3(signature = (values, *, tweak = None, version = None, ad = Vec::new()))]
    fn rewrap_batch(
        &self,
        py: Python<'_>,
        values: &Bound<'_, PyAny>,
        tweak: Option<Vec<u8>>,
        version: Option<u32>,
        ad: Vec<u8>,
    ) -> PyResult<Py<PyAny>> {
        self.batch(py, Op::Rewrap, values, &Opts { tweak: tweak.as_deref(), version, ad: &ad })
    }

    /// The primary key version.
    #[getter]
    fn primary(&self) -> u32 {
        match &self.inner {
            Ready::Fpe(f) => f.primary(),
            Ready::Siv(s) => s.primary(),
        }
    }

    fn __repr__(&self) -> String {
        let kind = if matches!(self.inner, Ready::Fpe(_)) { "FPE" } else { "AES-SIV" };
        format!("tessera.KeysetTransform({:?}, {kind}, primary={})", self.name, self.primary())
    }
}
