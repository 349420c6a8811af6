//! What the OpenPGP functions share: passwords, the Python file-object
//! adapters (`io::Read`/`io::Write` over `read()`/`write()`), and library
//! errors turned into typed Python exceptions.

use std::io::{self, Read, Write};

use pyo3::exceptions::{PyBlockingIOError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use tessera::openpgp::Error as PgpError;
use tessera::openpgp::key::KeyError;

use crate::errors::{Failure, Kind};

/// A password: `str` (UTF-8) or `bytes`.
#[derive(FromPyObject)]
pub enum Password {
    Text(String),
    Bytes(Vec<u8>),
}

impl Password {
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Password::Text(s) => s.as_bytes(),
            Password::Bytes(b) => b,
        }
    }
}

/// One password or several (decryption tries each).
#[derive(FromPyObject)]
pub enum Passwords {
    One(Password),
    Many(Vec<Password>),
}

impl Passwords {
    pub(crate) fn list(&self) -> Vec<&[u8]> {
        match self {
            Passwords::One(p) => vec![p.bytes()],
            Passwords::Many(v) => v.iter().map(Password::bytes).collect(),
        }
    }
}

pub(crate) enum Fail {
    Pgp(PgpError),
    /// An error of the binding's own (an argument that does not fit).
    Lib(Failure),
    Io(io::Error),
    Py(PyErr),
}

impl From<PgpError> for Fail {
    fn from(e: PgpError) -> Self {
        Fail::Pgp(e)
    }
}

pub(crate) fn from_io(e: io::Error) -> Fail {
    // A Python error raised inside a file object's read/write travels as an io::Error.
    if e.get_ref().is_some_and(|i| i.is::<PyIoError>()) {
        let inner = e.into_inner().expect("checked").downcast::<PyIoError>().expect("checked");
        return Fail::Py(inner.0);
    }
    match PgpError::from_io(e) {
        PgpError::Io(e) => Fail::Io(e),
        e => Fail::Pgp(e),
    }
}

impl Fail {
    pub(crate) fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Fail::Py(e) => e,
            Fail::Lib(f) => f.into_py(py),
            Fail::Io(e) | Fail::Pgp(PgpError::Io(e)) => {
                take_py_err().unwrap_or_else(|| PyOSError::new_err(e.to_string()))
            }
            Fail::Pgp(e) => Failure::new(pgp_kind(&e), e.to_string(), None).into_py(py),
        }
    }
}

#[derive(Debug)]
struct PyIoError(PyErr);

impl std::fmt::Display for PyIoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for PyIoError {}

thread_local! {
    /// The last exception a file object raised (or that an adapter raised
    /// for it) on this thread. The library's readers and writers repeat an
    /// error by kind and message after the first report, which loses the
    /// exception itself; the stream functions give this one back instead.
    static LAST_PY_ERR: std::cell::RefCell<Option<PyErr>> = const { std::cell::RefCell::new(None) };
}

fn py_io(e: PyErr) -> io::Error {
    let copy = Python::attach(|py| e.clone_ref(py));
    LAST_PY_ERR.with(|slot| *slot.borrow_mut() = Some(copy));
    io::Error::other(PyIoError(e))
}

/// Takes the exception recorded by [`py_io`], if any.
fn take_py_err() -> Option<PyErr> {
    LAST_PY_ERR.with(|slot| slot.borrow_mut().take())
}

/// An `io::Error` carrying a new Python exception of type `E`.
fn py_fail<E: pyo3::PyTypeInfo>(msg: String) -> io::Error {
    py_io(PyErr::new::<E, _>(msg))
}

/// `read(n)` of a Python binary file object, as `io::Read`, held to the
/// Python io protocol: `bytes` or `bytearray` of at most `n` octets (empty
/// at the end), or `None` from a non-blocking object with nothing to read.
/// Anything else is an error, never truncated or padded: a reader that
/// returns more than asked would otherwise lose the excess silently.
pub(crate) struct PyReader(pub(crate) Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self.0.bind(py).call_method1("read", (buf.len(),)).map_err(py_io)?;
            if data.is_none() {
                return Err(py_fail::<PyBlockingIOError>(
                    "read() returned None: the file object is non-blocking and has no data; pass a blocking one".into(),
                ));
            }
            let copy = |bytes: &[u8], buf: &mut [u8]| {
                if bytes.len() > buf.len() {
                    return Err(py_fail::<PyValueError>(format!(
                        "read({}) returned {} bytes, more than asked for",
                        buf.len(),
                        bytes.len()
                    )));
                }
                buf[..bytes.len()].copy_from_slice(bytes);
                Ok(bytes.len())
            };
            if let Ok(b) = data.cast::<PyBytes>() {
                copy(b.as_bytes(), buf)
            } else if let Ok(b) = data.cast::<PyByteArray>() {
                copy(&b.to_vec(), buf)
            } else {
                Err(py_fail::<PyValueError>(format!(
                    "read() must return bytes, got {} (open the file in binary mode)",
                    data.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                )))
            }
        })
    }
}

/// `write(b)` of a Python binary file object, as `io::Write`, held to the
/// Python io protocol: the count written, at most `len(b)` (a short count is
/// a partial write; the rest is written again), or `None` from a buffered
/// object that wrote everything. A count above `len(b)`, a negative one or
/// one of another type is an error. `None` from an `io.RawIOBase` means
/// "would block" (non-blocking): an error, since nothing was written; from
/// any other object (one whose `write` has no `return`) it means all.
pub(crate) struct PyWriter {
    file: Py<PyAny>,
    raw: bool,
}

impl PyWriter {
    fn new(py: Python<'_>, file: Py<PyAny>) -> PyResult<Self> {
        let raw_base = py.import("io")?.getattr("RawIOBase")?;
        let raw = file.bind(py).is_instance(&raw_base)?;
        Ok(PyWriter { file, raw })
    }
}

impl Write for PyWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let n = self.file.bind(py).call_method1("write", (PyBytes::new(py, buf),)).map_err(py_io)?;
            if n.is_none() && self.raw {
                return Err(py_fail::<PyBlockingIOError>(
                    "write() returned None: the file object is non-blocking and would block; pass a blocking one"
                        .into(),
                ));
            }
            if n.is_none() {
                return Ok(buf.len());
            }
            let n: i128 = n.extract().map_err(|_| {
                py_fail::<PyValueError>(format!(
                    "write() must return the number of bytes written or None, got {}",
                    n.get_type().name().map(|t| t.to_string()).unwrap_or_default()
                ))
            })?;
            match usize::try_from(n) {
                Ok(n) if n <= buf.len() => Ok(n),
                _ => Err(py_fail::<PyValueError>(format!(
                    "write() of {} bytes returned {n}: a count must be between 0 and the bytes given",
                    buf.len()
                ))),
            }
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Python::attach(|py| {
            let f = self.file.bind(py);
            if f.hasattr("flush").map_err(py_io)? {
                f.call_method0("flush").map_err(py_io)?;
            }
            Ok(())
        })
    }
}

/// Which Python exception a library error becomes.
fn pgp_kind(e: &PgpError) -> Kind {
    match e {
        PgpError::Authentication(_) | PgpError::WrongPassword | PgpError::SessionKeyDecryption => Kind::Authentication,
        PgpError::InvalidOption(_) => Kind::Parameter,
        PgpError::BadSignature => Kind::Signature,
        PgpError::KeyMismatch => Kind::Key,
        PgpError::Key(k) => match k {
            KeyError::BadSignature(_) => Kind::Signature,
            KeyError::Locked(_) => Kind::KeyLocked,
            KeyError::WrongKeyPassword(_) | KeyError::NoDecryptionKey { .. } => Kind::Authentication,
            _ => Kind::Key,
        },
        _ => Kind::Value,
    }
}

/// Runs `work` without the GIL on `reader` and `writer` (Python binary
/// file objects) wrapped as `io::Read`/`io::Write`. An exception a file
/// object raised is given back as itself.
pub(crate) fn with_streams<T: Send>(
    py: Python<'_>,
    reader: Py<PyAny>,
    writer: Py<PyAny>,
    work: impl FnOnce(PyReader, PyWriter) -> Result<T, Fail> + Send,
) -> PyResult<T> {
    let writer = PyWriter::new(py, writer)?;
    take_py_err();
    let result = py.detach(|| work(PyReader(reader), writer)).map_err(|f| f.into_py(py));
    take_py_err();
    result
}
