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
pub(crate) fn failure(e: KsError, index: Option<usize>) -> Failure {
    let kind = match &e {
        KsError::Crypto(c) => kind_of(c),
        KsError::NoMatchingKey { .. } => Kind::Authentication,
        KsError::Sealed(_) | KsError::KeyDisabled { .. } | KsError::KeyDestroyed { .. } => Kind::Key,
        KsError::Malformed(_) | KsError::Io(_) => Kind::Value,
        _ => Kind::Parameter,
    };
    let message = match &e {
        KsError::VersionAmbiguous { .. } | KsError::RewrapSourceUnknown { .. } | KsError::RewrapFromPrimary { .. } => {
            format!("{e} (version=N)")
        }
        _ => e.to_string(),
    };
    Failure::new(kind, message, index)
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
pub(crate) fn batch_failure(e: KsError, rows: &[Option<usize>]) -> Failure {
    let row = |index: usize| rows.iter().flatten().nth(index).copied();
    match e {
        KsError::Batch { index, source } => failure(*source, row(index)),
        KsError::Crypto(tessera::Error::Batch { index, source }) => failure(KsError::Crypto(*source), row(index)),
        e => failure(e, None),
    }
}

/// Writes a flushed batch's values into the output column in row order,
/// with a null wherever `rows` has one.
pub(crate) struct Rows<'r> {
    rows: std::slice::Iter<'r, Option<usize>>,
}

impl<'r> Rows<'r> {
    pub(crate) fn new(rows: &'r [Option<usize>]) -> Self {
        Rows { rows: rows.iter() }
    }

    /// The nulls before the next value, then the value as `put` writes it.
    fn value(&mut self, out: &mut Output, put: impl FnOnce(&mut Vec<u8>)) {
        while let Some(None) = self.rows.next() {
            out.push_null();
        }
        put(&mut out.data);
        out.end_value();
    }

    /// The nulls after the last value.
    fn finish(self, out: &mut Output) {
        self.rows.for_each(|_| out.push_null());
    }

    /// Every value of `res` (split at `ends`), as `put` writes it.
    pub(crate) fn all(mut self, out: &mut Output, res: &[u8], ends: &[usize], put: impl Fn(&[u8], &mut Vec<u8>)) {
        let mut start = 0;
        for &end in ends {
            self.value(out, |data| put(&res[start..end], data));
            start = end;
        }
        self.finish(out);
    }
}

/// An AES-SIV column through the library's batch calls, `BATCH_SIZE`
/// values at a time (text columns: unpadded base64url ciphertexts).
fn siv_column(s: &SivTransform, op: Op, col: &Column, ad: &[u8], text: bool) -> Result<Output, Failure> {
    let mut out = Output::with_capacity(col.len(), 0);
    let mut batch = MessageBatch::new();
    // One entry per row since the last flush: the row of a value, or None for a null.
    let mut rows: Vec<Option<usize>> = Vec::new();
    let (mut res, mut ends, mut scratch) = (Zeroizing::new(Vec::new()), Vec::new(), Vec::new());
    let mut flush = |batch: &mut MessageBatch, rows: &mut Vec<Option<usize>>, out: &mut Output| {
        let mut w = Rows::new(rows);
        // Encrypt and decrypt write straight from the batch's buffer.
        let done = match op {
            Op::Encrypt => s.encrypt_batch_each(ad, batch, |prefix, ct| {
                w.value(out, |data| {
                    if text {
                        scratch.clear();
                        scratch.extend_from_slice(prefix);
                        scratch.extend_from_slice(ct);
                        base64url::encode(&scratch, data);
                    } else {
                        data.extend_from_slice(prefix);
                        data.extend_from_slice(ct);
                    }
                })
            }),
            Op::Decrypt => s.decrypt_batch_each(ad, batch, |pt| w.value(out, |data| data.extend_from_slice(pt))),
            Op::Rewrap => {
                res.clear();
                ends.clear();
                s.rewrap_batch(ad, batch, &mut res, &mut ends)
            }
        };
        done.map_err(|e| batch_failure(e, rows))?;
        match op {
            Op::Rewrap if text => w.all(out, &res, &ends, base64url::encode),
            Op::Rewrap => w.all(out, &res, &ends, |r, data| data.extend_from_slice(r)),
            _ => w.finish(out),
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

pub(crate) fn not_text() -> KsError {
    KsError::Crypto(tessera::Error::Format("FPE values are text"))
}

enum Ready {
    Fpe(Box<FpeTransform>),
    Siv(SivTransform),
}

/// What to do with each value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Encrypt,
    Decrypt,
    Rewrap,
}

/// Per-call options: FPE tweak (or one per row) and version, AES-SIV
/// associated data.
pub(crate) struct Opts<'a> {
    pub(crate) tweak: Option<&'a [u8]>,
    pub(crate) tweaks: Option<&'a Column>,
    pub(crate) version: Option<u32>,
    pub(crate) ad: &'a [u8],
}

/// `tweaks=`: each row's tweak bytes, `None` for a null.
pub(crate) struct RowTweaks {
    data: Vec<u8>,
    spans: Vec<Option<(usize, usize)>>,
}

impl RowTweaks {
    pub(crate) fn read(col: &Column, rows: usize) -> Result<Self, Failure> {
        if col.len() != rows {
            let msg = format!("tweaks= has {} rows; the values have {rows}", col.len());
            return Err(Failure::new(Kind::Parameter, msg, None));
        }
        let mut t = RowTweaks { data: Vec::new(), spans: Vec::with_capacity(rows) };
        col.for_each(|_, v| {
            let span = v.map(|v| {
                t.data.extend_from_slice(v);
                (t.data.len() - v.len(), t.data.len())
            });
            t.spans.push(span);
            Ok::<(), Failure>(())
        })?;
        Ok(t)
    }

    /// The tweaks of the value rows among `rows`; a null one is an error naming its row.
    pub(crate) fn of<'t>(&'t self, rows: &[Option<usize>]) -> Result<Vec<&'t [u8]>, Failure> {
        let tweak = |r: usize| match self.spans[r] {
            Some((a, z)) => Ok(&self.data[a..z]),
            None => Err(Failure::new(Kind::Parameter, "the tweak of this row is null", Some(r))),
        };
        rows.iter().flatten().map(|&r| tweak(r)).collect()
    }
}

/// The refusal of `version=` on AES-SIV, where it would mean nothing.
const SIV_VERSION: &str =
    "AES-SIV ciphertexts name their key (TINK prefix) or are tried with every RAW key: give no version=";

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
                let v = std::str::from_utf8(value).map_err(|_| not_text())?;
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
        match &self.inner {
            Ready::Siv(_) | Ready::Fpe(_) if o.tweak.is_some() && o.tweaks.is_some() => Err(Failure::new(
                Kind::Parameter,
                "give tweak= (one for every row) or tweaks= (one per row), not both",
                None,
            )),
            Ready::Siv(_) if o.tweaks.is_some() => Err(Failure::new(Kind::Parameter, "tweaks= is for FPE", None)),
            Ready::Siv(_) if o.version.is_some() => Err(Failure::new(Kind::Parameter, SIV_VERSION, None)),
            Ready::Siv(s) => siv_column(s, op, col, o.ad, text),
            Ready::Fpe(f) => crate::keyset_fpe::fpe_column(f, op, col, o),
        }
    }

    fn scalar<'py>(&self, py: Python<'py>, op: Op, value: &Bound<'py, PyAny>, o: &Opts<'_>) -> PyResult<Py<PyAny>> {
        let text = value.is_instance_of::<PyString>();
        let bytes: Vec<u8> = if text { value.extract::<String>()?.into_bytes() } else { value.extract::<Vec<u8>>()? };
        if o.version.is_some() && matches!(self.inner, Ready::Siv(_)) {
            return Err(Failure::new(Kind::Parameter, SIV_VERSION, None).into_py(py));
        }
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

/// Emits `PyTransform`'s `#[pymethods]` block: each `scalar` method (one
/// `value`) forwards to `PyTransform::scalar`, each `batch` method (a column
/// of `values`, with `tweaks=`) to `PyTransform::batch`, with its `Op`;
/// `(version)` adds the `version=` keyword. Then the items of `impl` as given.
macro_rules! transform_pymethods {
    (
        scalar { $( $(#[$sdoc:meta])* fn $scalar:ident($($sversion:ident)?) => $sop:expr; )* }
        batch { $( $(#[$bdoc:meta])* fn $batch:ident($($bversion:ident)?) => $bop:expr; )* }
        impl { $($items:tt)* }
    ) => {
        #[pymethods]
        impl PyTransform {
            $(
                $(#[$sdoc])*
                #[pyo3(signature = (value, *, tweak = None, $($sversion = None,)? ad = Vec::new()))]
                fn $scalar(
                    &self,
                    py: Python<'_>,
                    value: &Bound<'_, PyAny>,
                    tweak: Option<Vec<u8>>,
                    $($sversion: Option<u32>,)?
                    ad: Vec<u8>,
                ) -> PyResult<Py<PyAny>> {
                    // `version=` where the method takes it, else none.
                    let version = None $(.or($sversion))?;
                    self.scalar(py, $sop, value, &Opts { tweak: tweak.as_deref(), tweaks: None, version, ad: &ad })
                }
            )*
            $(
                $(#[$bdoc])*
                #[pyo3(signature = (values, *, tweak = None, tweaks = None, $($bversion = None,)? ad = Vec::new()))]
                fn $batch(
                    &self,
                    py: Python<'_>,
                    values: &Bound<'_, PyAny>,
                    tweak: Option<Vec<u8>>,
                    tweaks: Option<&Bound<'_, PyAny>>,
                    $($bversion: Option<u32>,)?
                    ad: Vec<u8>,
                ) -> PyResult<Py<PyAny>> {
                    let tweaks = tweaks.map(column).transpose()?;
                    // `version=` where the method takes it, else none.
                    let version = None $(.or($bversion))?;
                    let o = Opts { tweak: tweak.as_deref(), tweaks: tweaks.as_ref(), version, ad: &ad };
                    self.batch(py, $bop, values, &o)
                }
            )*
            $($items)*
        }
    };
}

transform_pymethods! {
    scalar {
        /// Encrypts one value under the primary key (FPE: `str`; AES-SIV: `bytes`).
        fn encrypt() => Op::Encrypt;

        /// Decrypts one value under the version that made it (FPE external
        /// mode: `version`, required while several versions are enabled).
        fn decrypt(version) => Op::Decrypt;

        /// Re-encrypts one value under the primary key (FPE external mode:
        /// `version`, the one that made it, is required and is not the primary).
        fn rewrap(version) => Op::Rewrap;
    }
    batch {
        /// Encrypts a column (Arrow array or list); returns a `pyarrow.Array`.
        /// FPE: `tweak=` one tweak for every row, or `tweaks=` a column of one
        /// per row (a transformation whose tweak is another field of the record).
        fn encrypt_batch() => Op::Encrypt;

        /// Decrypts a column; all or nothing (an error names the row).
        fn decrypt_batch(version) => Op::Decrypt;

        /// Re-encrypts a column under the primary key.
        fn rewrap_batch(version) => Op::Rewrap;
    }
    impl {
        /// Moves a column of tokens made by `source` (a `tessera.FF1`,
        /// `FF3_1` or `FF3` with the old key, alphabet and format; `source_tweak`
        /// their tweak) to this FPE transformation's primary version: FF3-1
        /// tokens to FF1 in one pass, the plaintexts never leaving Rust. No
        /// warning: migrating off a withdrawn method is what it is for.
        #[pyo3(signature = (values, source, *, source_tweak = Vec::new(), tweak = None, tweaks = None))]
        fn migrate_batch(
            &self,
            py: Python<'_>,
            values: &Bound<'_, PyAny>,
            source: &Bound<'_, PyAny>,
            source_tweak: Vec<u8>,
            tweak: Option<Vec<u8>>,
            tweaks: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            let Ready::Fpe(f) = &self.inner else {
                return Err(Failure::new(Kind::Parameter, "migrate_batch is for FPE transformations", None).into_py(py));
            };
            let tweaks = tweaks.map(column).transpose()?;
            let o = Opts { tweak: tweak.as_deref(), tweaks: tweaks.as_ref(), version: None, ad: &[] };
            crate::fpe::with_core(source, |core| crate::keyset_fpe::migrate(py, f, core, &source_tweak, values, &o))
        }

        /// The primary key version.
        #[getter]
        fn primary(&self) -> u32 {
            match &self.inner {
                Ready::Fpe(f) => f.primary(),
                Ready::Siv(s) => s.primary(),
            }
        }

        /// "FPE" or "AES-SIV".
        #[getter]
        fn kind(&self) -> &'static str {
            if matches!(self.inner, Ready::Fpe(_)) { "FPE" } else { "AES-SIV" }
        }

        fn __repr__(&self) -> String {
            format!("tessera.KeysetTransform({:?}, {}, primary={})", self.name, self.kind(), self.primary())
        }
    }
}
