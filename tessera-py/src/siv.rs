//! `tessera.AesSiv`: RFC 5297 deterministic authenticated encryption.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;
use tessera::BATCH_SIZE;
use tessera::siv::{AesSiv, BatchAd, MessageBatch, TAG_LEN, base64url};

use crate::columns::{Column, Flavor, Output, column, to_pyarrow};
use crate::errors::{Failure, Kind, lib_err};

/// AES-SIV (RFC 5297) with a 32, 48 or 64-byte key.
///
/// Deterministic: equal plaintexts under equal associated data give equal
/// ciphertexts (`V || C`, 16 bytes longer than the plaintext).
#[pyclass(module = "tessera", name = "AesSiv", frozen)]
pub struct PyAesSiv {
    siv: AesSiv,
}

fn comps(ad: &[PyBackedBytes], nonce: Option<&PyBackedBytes>) -> Vec<Vec<u8>> {
    ad.iter().chain(nonce).map(|c| c.to_vec()).collect()
}

/// Which type the batch output has.
fn output_flavor(output: Option<&str>, input: Flavor) -> PyResult<Flavor> {
    match output {
        None => Ok(input),
        Some("binary") => Ok(Flavor::Bytes),
        Some("string") => Ok(Flavor::Text),
        Some(o) => Err(PyValueError::new_err(format!("output must be 'binary' or 'string', not {o:?}"))),
    }
}

/// Emits `PyAesSiv`'s `#[pymethods]` block: each `scalar` method (one
/// value, `data`) runs the `AesSiv` method it names (`seal` or `open`), each
/// `batch` method (a column of `values`) forwards to `PyAesSiv::batch` with
/// its `seal` flag. Then the items of `impl` as given.
macro_rules! aes_siv_pymethods {
    (
        scalar { $( $(#[$sdoc:meta])* fn $scalar:ident => $lib:ident; )* }
        batch { $( $(#[$bdoc:meta])* fn $batch:ident => $seal:literal; )* }
        impl { $($items:tt)* }
    ) => {
        #[pymethods]
        impl PyAesSiv {
            $(
                $(#[$sdoc])*
                #[pyo3(signature = (data, ad = Vec::new(), nonce = None))]
                fn $scalar<'py>(
                    &self,
                    py: Python<'py>,
                    data: PyBackedBytes,
                    ad: Vec<PyBackedBytes>,
                    nonce: Option<PyBackedBytes>,
                ) -> PyResult<Bound<'py, PyBytes>> {
                    let ad: Vec<&[u8]> = ad.iter().map(|c| &c[..]).collect();
                    let out = self.siv.$lib(nonce.as_deref(), &ad, &data).map_err(|e| lib_err(py, e))?;
                    Ok(PyBytes::new(py, &out))
                }
            )*
            $(
                $(#[$bdoc])*
                #[pyo3(signature = (values, ad = Vec::new(), nonce = None, *, output = None))]
                fn $batch(
                    &self,
                    py: Python<'_>,
                    values: &Bound<'_, PyAny>,
                    ad: Vec<PyBackedBytes>,
                    nonce: Option<PyBackedBytes>,
                    output: Option<&str>,
                ) -> PyResult<Py<PyAny>> {
                    self.batch(py, $seal, values, &ad, nonce.as_ref(), output)
                }
            )*
            $($items)*
        }
    };
}

aes_siv_pymethods! {
    scalar {
        /// Encrypts `data`; returns `V || C`.
        fn encrypt => seal;

        /// Verifies and decrypts `V || C`; raises `AuthenticationError` on failure.
        fn decrypt => open;
    }
    batch {
        /// Encrypts a column. Binary in: binary `V || C` out; string in: unpadded
        /// base64url of `V || C` out (override with `output="binary"|"string"`).
        fn encrypt_batch => true;

        /// Decrypts a column: binary `V || C` in, or unpadded base64url strings.
        /// Output is of the input's type (string output must be UTF-8) unless
        /// `output="binary"|"string"`. All or nothing: a failed verification
        /// raises `AuthenticationError` naming the row.
        fn decrypt_batch => false;
    }
    impl {
        #[new]
        fn new(py: Python<'_>, key: PyBackedBytes) -> PyResult<Self> {
            AesSiv::new(&key).map(|siv| PyAesSiv { siv }).map_err(|e| lib_err(py, e))
        }

        /// Key size in bits: 256, 384 or 512.
        #[getter]
        fn key_bits(&self) -> u32 {
            self.siv.key_bits()
        }

        fn __repr__(&self) -> String {
            format!("tessera.AesSiv(AES-SIV-{})", self.siv.key_bits())
        }
    }
}

impl PyAesSiv {
    /// `encrypt_batch` (`seal`) or `decrypt_batch`: the column, its output
    /// type (`output=`, else the input's) and the components, then the work
    /// without the GIL; a `pyarrow.Array`.
    fn batch(
        &self,
        py: Python<'_>,
        seal: bool,
        values: &Bound<'_, PyAny>,
        ad: &[PyBackedBytes],
        nonce: Option<&PyBackedBytes>,
        output: Option<&str>,
    ) -> PyResult<Py<PyAny>> {
        let col = column(values)?;
        let input = col.flavor()?;
        let flavor = output_flavor(output, input)?;
        let comps = comps(ad, nonce);
        let large = col.large();
        let array = py
            .detach(|| {
                let out = if seal {
                    encrypt_column(&self.siv, &col, &comps, flavor)
                } else {
                    decrypt_column(&self.siv, &col, &comps, input, flavor)
                };
                out.and_then(|o| o.finish(flavor, large).map_err(|m| Failure::new(Kind::Value, m, None)))
            })
            .map_err(|f| f.into_py(py))?;
        to_pyarrow(py, array)
    }
}

/// Rows since the last batch call: (row, not null), and the values.
struct Pending {
    batch: MessageBatch,
    rows: Vec<(usize, bool)>,
}

impl Pending {
    /// Every row of `col`: a value goes into the batch through `push` (which
    /// may refuse it, naming its row); `write` writes out the pending rows
    /// every `BATCH_SIZE` values and once at the end.
    fn run(
        col: &Column,
        mut push: impl FnMut(&mut MessageBatch, usize, &[u8]) -> Result<(), Failure>,
        mut write: impl FnMut(&mut Pending) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let mut p = Pending { batch: MessageBatch::new(), rows: Vec::new() };
        let mut flush = |p: &mut Pending| -> Result<(), Failure> {
            write(p)?;
            p.batch.clear();
            p.rows.clear();
            Ok(())
        };
        col.for_each(|row, v| {
            if let Some(b) = v {
                push(&mut p.batch, row, b)?;
            }
            p.rows.push((row, v.is_some()));
            if p.batch.len() == BATCH_SIZE { flush(&mut p) } else { Ok(()) }
        })?;
        flush(&mut p)
    }

    fn value_rows(&self) -> Vec<usize> {
        self.rows.iter().filter(|r| r.1).map(|r| r.0).collect()
    }
}

fn encrypt_column(siv: &AesSiv, col: &Column, comps: &[Vec<u8>], out_flavor: Flavor) -> Result<Output, Failure> {
    let comps: Vec<&[u8]> = comps.iter().map(Vec::as_slice).collect();
    let mut out = Output::with_capacity(col.len(), 0);
    let push = |batch: &mut MessageBatch, _, b: &[u8]| {
        batch.push(b);
        Ok(())
    };
    Pending::run(col, push, |p| {
        let rows = p.value_rows();
        let mut cts = p.batch.seal(siv, BatchAd::Same(&comps)).map_err(|e| Failure::from_lib(e, |i| rows[i]))?;
        for &(_, present) in &p.rows {
            if !present {
                out.push_null();
                continue;
            }
            let ct = cts.next().expect("one ciphertext per value");
            match out_flavor {
                Flavor::Bytes => out.data.extend_from_slice(ct),
                Flavor::Text => base64url::encode(ct, &mut out.data),
            }
            out.end_value();
        }
        Ok(())
    })?;
    Ok(out)
}

fn decrypt_column(
    siv: &AesSiv,
    col: &Column,
    comps: &[Vec<u8>],
    in_flavor: Flavor,
    out_flavor: Flavor,
) -> Result<Output, Failure> {
    let comps: Vec<&[u8]> = comps.iter().map(Vec::as_slice).collect();
    let mut out = Output::with_capacity(col.len(), 0);
    let push = |batch: &mut MessageBatch, row, b: &[u8]| {
        let got = match in_flavor {
            Flavor::Bytes => {
                batch.push(b);
                b.len()
            }
            Flavor::Text => batch.push_base64url(b).map_err(|e| Failure::new(Kind::Value, e.to_string(), Some(row)))?,
        };
        if got < TAG_LEN {
            return Err(Failure::new(
                Kind::Value,
                format!("value holds {got} bytes; an AES-SIV ciphertext (V || C) has at least 16"),
                Some(row),
            ));
        }
        Ok(())
    };
    Pending::run(col, push, |p| {
        let rows = p.value_rows();
        let mut pts = p.batch.open(siv, BatchAd::Same(&comps)).map_err(|e| {
            let mut f = Failure::from_lib(e, |i| rows[i]);
            if matches!(f.kind, Kind::Authentication) {
                f.message = "authentication failed: wrong key or associated data, or the value was modified".into();
            }
            f
        })?;
        for &(row, present) in &p.rows {
            if !present {
                out.push_null();
                continue;
            }
            let pt = pts.next().expect("one plaintext per value");
            if out_flavor == Flavor::Text && std::str::from_utf8(pt).is_err() {
                return Err(Failure::new(
                    Kind::Value,
                    "decrypted value is not UTF-8; ask for output=\"binary\"",
                    Some(row),
                ));
            }
            out.data.extend_from_slice(pt);
            out.end_value();
        }
        Ok(())
    })?;
    Ok(out)
}
