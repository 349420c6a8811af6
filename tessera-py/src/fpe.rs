//! `tessera.FF1`, `tessera.FF3_1`, `tessera.FF3`: format-preserving encryption.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, TokenFormat, Tweaks};

use crate::columns::{Flavor, Output, column, to_pyarrow};
use crate::errors::{Failure, Kind, lib_err, py_err};

/// Values per call of the library's batch API.
const CHUNK: usize = 4096;

/// What the three classes share: the cipher and the token format.
pub struct Core {
    cipher: Box<dyn Fpe>,
    format: TokenFormat,
    name: &'static str,
    alphabet: String,
    passthrough: String,
    keep_prefix: usize,
    keep_suffix: usize,
}

#[derive(Clone, Copy)]
enum Alg {
    Ff1,
    Ff3_1,
    Ff3,
}

impl Core {
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        alg: Alg,
        key: &[u8],
        alphabet: &str,
        passthrough: &str,
        keep_prefix: usize,
        keep_suffix: usize,
    ) -> PyResult<Self> {
        let a = Alphabet::new(alphabet).map_err(|e| py_err(py, Kind::Parameter, format!("alphabet: {e}")))?;
        if let Some(c) = passthrough.chars().find(|&c| a.numeral(c).is_some()) {
            return Err(py_err(py, Kind::Parameter, format!("passthrough character {c:?} is also in the alphabet")));
        }
        let (cipher, name): (Box<dyn Fpe>, _) = match alg {
            Alg::Ff1 => (Box::new(FF1::new(key, a).map_err(|e| lib_err(py, e))?), "FF1"),
            Alg::Ff3_1 => (Box::new(FF3_1::new(key, a).map_err(|e| lib_err(py, e))?), "FF3_1"),
            Alg::Ff3 => (Box::new(FF3::new(key, a).map_err(|e| lib_err(py, e))?), "FF3"),
        };
        let format = TokenFormat::new().passthrough(passthrough).keep_prefix(keep_prefix).keep_suffix(keep_suffix);
        Ok(Core {
            cipher,
            format,
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

    /// Rejects a tweak the cipher does not accept, before touching values.
    fn check_tweak(&self, py: Python<'_>, tweak: &[u8]) -> PyResult<()> {
        let (min, _) = self.cipher.len_range();
        let mut probe = vec![0u16; min];
        self.cipher.encrypt_numerals(tweak, &mut probe).map_err(|e| py_err(py, Kind::Parameter, format!("tweak: {e}")))
    }

    fn one(&self, py: Python<'_>, value: &str, tweak: &[u8], enc: bool) -> PyResult<String> {
        let mut out = String::with_capacity(value.len());
        let r = match (self.format.is_plain(), enc) {
            (true, true) => self.cipher.encrypt_into(tweak, value, &mut out),
            (true, false) => self.cipher.decrypt_into(tweak, value, &mut out),
            (false, true) => self.format.encrypt_into(&*self.cipher, tweak, value, &mut out),
            (false, false) => self.format.decrypt_into(&*self.cipher, tweak, value, &mut out),
        };
        r.map_err(|e| lib_err(py, e))?;
        Ok(out)
    }

    fn batch(&self, py: Python<'_>, values: &Bound<'_, PyAny>, tweak: &[u8], enc: bool) -> PyResult<Py<PyAny>> {
        let col = column(values)?;
        if col.flavor()? != Flavor::Text {
            return Err(pyo3::exceptions::PyTypeError::new_err("FPE batches take strings, not bytes"));
        }
        self.check_tweak(py, tweak)?;
        let large = col.large();
        let array = py
            .detach(|| self.run(&col, tweak, enc).and_then(|o| o.finish(Flavor::Text, large).map_err(value_failure)))
            .map_err(|f| f.into_py(py))?;
        to_pyarrow(py, array)
    }

    /// The batch work, without the GIL: values go to the library's batch API
    /// `CHUNK` at a time (nulls skipped), as in the CLI.
    fn run(&self, col: &crate::columns::Column, tweak: &[u8], enc: bool) -> Result<Output, Failure> {
        let alphabet = self.cipher.alphabet().expect("built with an alphabet");
        let plain = self.format.is_plain();
        let n = col.len();
        let mut out = Output::with_capacity(n, 0);
        let mut st = State {
            nums: Vec::new(),
            ends: Vec::new(),
            rows: Vec::new(),
            texts: String::new(),
            text_ends: Vec::new(),
            text: String::new(),
        };
        col.for_each(|row, v| {
            match v {
                None => st.rows.push((row, false)),
                Some(bytes) => {
                    // Arrow validated string arrays; list items came from Python str.
                    let s = std::str::from_utf8(bytes)
                        .map_err(|_| Failure::new(Kind::Value, "value is not valid UTF-8", Some(row)))?;
                    let start = st.nums.len();
                    st.nums.resize(start + s.len(), 0);
                    let slot = &mut st.nums[start..];
                    let k = if plain { alphabet.to_numerals(s, slot) } else { self.format.extract(alphabet, s, slot) }
                        .map_err(|e| {
                            let e = match e {
                                tessera::Error::BufferTooSmall { .. } => {
                                    let (min, max) = self.cipher.len_range();
                                    tessera::Error::Length {
                                        len: s.chars().count(),
                                        min,
                                        max,
                                        radix: self.cipher.radix(),
                                    }
                                }
                                e => e,
                            };
                            Failure::at(e, row)
                        })?;
                    st.nums.truncate(start + k);
                    st.ends.push(st.nums.len());
                    st.rows.push((row, true));
                    if !plain {
                        st.texts.push_str(s);
                        st.text_ends.push(st.texts.len());
                    }
                }
            }
            if st.ends.len() == CHUNK {
                self.flush(&mut st, &mut out, tweak, enc)?;
            }
            Ok::<(), Failure>(())
        })?;
        self.flush(&mut st, &mut out, tweak, enc)?;
        Ok(out)
    }

    fn flush(&self, st: &mut State, out: &mut Output, tweak: &[u8], enc: bool) -> Result<(), Failure> {
        let alphabet = self.cipher.alphabet().expect("built with an alphabet");
        let tweaks = Tweaks::Same(tweak);
        let r = if enc {
            self.cipher.encrypt_batch(tweaks, &mut st.nums, &st.ends)
        } else {
            self.cipher.decrypt_batch(tweaks, &mut st.nums, &st.ends)
        };
        let value_rows: Vec<usize> = st.rows.iter().filter(|r| r.1).map(|r| r.0).collect();
        r.map_err(|e| Failure::from_lib(e, |i| value_rows[i]))?;
        let (mut start, mut k) = (0, 0);
        for &(_, present) in &st.rows {
            if !present {
                out.push_null();
                continue;
            }
            let end = st.ends[k];
            if self.format.is_plain() {
                alphabet.push_utf8(&st.nums[start..end], &mut out.data);
            } else {
                let s = &st.texts[if k == 0 { 0 } else { st.text_ends[k - 1] }..st.text_ends[k]];
                st.text.clear();
                let row = value_rows[k];
                self.format
                    .merge(alphabet, s, &st.nums[start..end], &mut st.text)
                    .map_err(|e| Failure::new(Kind::Value, e.to_string(), Some(row)))?;
                out.data.extend_from_slice(st.text.as_bytes());
            }
            out.end_value();
            start = end;
            k += 1;
        }
        st.nums.clear();
        st.ends.clear();
        st.rows.clear();
        st.texts.clear();
        st.text_ends.clear();
        Ok(())
    }
}

struct State {
    nums: Vec<u16>,
    ends: Vec<usize>,
    /// (row, is not null) for every row since the last flush.
    rows: Vec<(usize, bool)>,
    /// Input text of the values (token formats only), back to back.
    texts: String,
    text_ends: Vec<usize>,
    text: String,
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
                Core::new(py, $alg, &key, alphabet, passthrough, keep_prefix, keep_suffix).map($name)
            }

            /// Encrypts one value; returns the token (same length, same alphabet).
            #[pyo3(signature = (value, tweak = b"".as_slice()))]
            fn encrypt(&self, py: Python<'_>, value: &str, tweak: &[u8]) -> PyResult<String> {
                self.0.one(py, value, tweak, true)
            }

            /// Decrypts one token; returns the original value.
            #[pyo3(signature = (value, tweak = b"".as_slice()))]
            fn decrypt(&self, py: Python<'_>, value: &str, tweak: &[u8]) -> PyResult<String> {
                self.0.one(py, value, tweak, false)
            }

            /// Encrypts a column of strings; returns a `pyarrow.Array` (nulls stay null).
            #[pyo3(signature = (values, tweak = b"".as_slice()))]
            fn encrypt_batch(&self, py: Python<'_>, values: &Bound<'_, PyAny>, tweak: &[u8]) -> PyResult<Py<PyAny>> {
                self.0.batch(py, values, tweak, true)
            }

            /// Decrypts a column of tokens; returns a `pyarrow.Array` (nulls stay null).
            #[pyo3(signature = (values, tweak = b"".as_slice()))]
            fn decrypt_batch(&self, py: Python<'_>, values: &Bound<'_, PyAny>, tweak: &[u8]) -> PyResult<Py<PyAny>> {
                self.0.batch(py, values, tweak, false)
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

fpe_class!(PyFF1, "FF1", Alg::Ff1, "FF1 (NIST SP 800-38G Rev 1) over an alphabet.");
fpe_class!(PyFF3_1, "FF3_1", Alg::Ff3_1, "FF3-1 (NIST SP 800-38G Rev 1): 7-byte tweaks.");
fpe_class!(PyFF3, "FF3", Alg::Ff3, "Legacy FF3 (withdrawn by NIST; to read old tokens): 8-byte tweaks.");
