//! OpenPGP (RFC 9580) password encryption of files and Python file objects.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use tessera::aead::Mode;
use tessera::fs::AtomicFile;
use tessera::openpgp::{
    DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error as PgpError, Profile, S2kChoice, SymAlg,
};

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
    fn list(&self) -> Vec<&[u8]> {
        match self {
            Passwords::One(p) => vec![p.bytes()],
            Passwords::Many(v) => v.iter().map(Password::bytes).collect(),
        }
    }
}

enum Fail {
    Pgp(PgpError),
    Io(io::Error),
    Py(PyErr),
}

impl From<PgpError> for Fail {
    fn from(e: PgpError) -> Self {
        Fail::Pgp(e)
    }
}

fn from_io(e: io::Error) -> Fail {
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
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Fail::Py(e) => e,
            Fail::Io(e) => PyOSError::new_err(e.to_string()),
            Fail::Pgp(PgpError::Io(e)) => PyOSError::new_err(e.to_string()),
            Fail::Pgp(e) => {
                let kind = match e {
                    PgpError::Authentication(_) | PgpError::WrongPassword => Kind::Authentication,
                    PgpError::InvalidOption(_) => Kind::Parameter,
                    _ => Kind::Value,
                };
                Failure::new(kind, e.to_string(), None).into_py(py)
            }
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

fn py_io(e: PyErr) -> io::Error {
    io::Error::other(PyIoError(e))
}

/// `read(n)` of a Python binary file object, as `io::Read`.
struct PyReader(Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self.0.bind(py).call_method1("read", (buf.len(),)).map_err(py_io)?;
            let bytes: &[u8] = if let Ok(b) = data.cast::<PyBytes>() {
                b.as_bytes()
            } else if let Ok(b) = data.cast::<PyByteArray>() {
                let v = b.to_vec();
                let n = v.len().min(buf.len());
                buf[..n].copy_from_slice(&v[..n]);
                return Ok(n);
            } else {
                return Err(py_io(PyValueError::new_err("read() must return bytes (open the file in binary mode)")));
            };
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
    }
}

/// `write(b)` of a Python binary file object, as `io::Write`.
struct PyWriter(Py<PyAny>);

impl Write for PyWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let n = self.0.bind(py).call_method1("write", (PyBytes::new(py, buf),)).map_err(py_io)?;
            Ok(n.extract::<Option<usize>>().ok().flatten().unwrap_or(buf.len()))
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Python::attach(|py| {
            let f = self.0.bind(py);
            if f.hasattr("flush").map_err(py_io)? {
                f.call_method0("flush").map_err(py_io)?;
            }
            Ok(())
        })
    }
}

fn options(
    aead: &str,
    cipher: &str,
    chunk_size_octet: u8,
    s2k: Option<&str>,
    s2k_count: u8,
    profile: &str,
    armor: bool,
) -> PyResult<EncryptOptions> {
    let bad = |what: &str, v: &str, ok: &str| PyValueError::new_err(format!("{what} {v:?}: expected one of {ok}"));
    let profile = match profile {
        "rfc9580" => Profile::Rfc9580,
        "rfc4880" => Profile::Rfc4880,
        p => return Err(bad("profile", p, "rfc9580, rfc4880")),
    };
    let s2k = match (s2k, profile) {
        (Some("argon2"), Profile::Rfc4880) => {
            return Err(PyValueError::new_err("s2k='argon2' needs profile='rfc9580' (GnuPG 2.2 cannot read Argon2)"));
        }
        (Some("argon2"), _) | (None, Profile::Rfc9580) => S2kChoice::default(),
        (Some("iterated"), _) | (None, Profile::Rfc4880) => S2kChoice::Iterated { count_octet: s2k_count },
        (Some(s), _) => return Err(bad("s2k", s, "argon2, iterated")),
    };
    if chunk_size_octet > 16 {
        return Err(PyValueError::new_err("chunk_size_octet must be 0..=16"));
    }
    Ok(EncryptOptions {
        profile,
        cipher: match cipher {
            "aes128" => SymAlg::Aes128,
            "aes192" => SymAlg::Aes192,
            "aes256" => SymAlg::Aes256,
            c => return Err(bad("cipher", c, "aes128, aes192, aes256")),
        },
        aead: match aead {
            "ocb" => Mode::Ocb,
            "eax" => Mode::Eax,
            "gcm" => Mode::Gcm,
            a => return Err(bad("aead", a, "ocb, eax, gcm")),
        },
        chunk_octet: chunk_size_octet,
        s2k,
        armor,
        filename: Vec::new(),
        date: 0,
        ..EncryptOptions::default()
    })
}

fn encrypt_paths(src: &Path, dst: &Path, pw: &[&[u8]], opts: &EncryptOptions) -> Result<(), Fail> {
    let mut input = BufReader::with_capacity(1 << 18, File::open(src).map_err(Fail::Io)?);
    let out = AtomicFile::create(dst).map_err(Fail::Io)?;
    let mut enc = Encryptor::new(out, pw, opts)?;
    io::copy(&mut input, &mut enc).map_err(from_io)?;
    enc.finish()?.commit().map_err(Fail::Io)
}

fn decrypt_paths(src: &Path, dst: &Path, pw: &[&[u8]]) -> Result<(), Fail> {
    let input = BufReader::with_capacity(1 << 18, File::open(src).map_err(Fail::Io)?);
    // Output goes to a temporary file renamed only once everything verified,
    // so a v1 message may stream before its MDC is checked.
    let opts = DecryptOptions { v1_stream_unauthenticated: true, ..DecryptOptions::default() };
    let mut dec = Decryptor::with_options(input, pw, &opts)?;
    let mut out = AtomicFile::create(dst).map_err(Fail::Io)?;
    io::copy(&mut dec, &mut out).map_err(from_io)?;
    out.commit().map_err(Fail::Io)
}

/// Encrypts the file `src` to `dst` with a password (OpenPGP, RFC 9580 by
/// default: SKESK v6 + SEIPD v2). Options as the CLI's `tessera encrypt`.
/// `dst` appears only when everything succeeded.
#[pyfunction]
#[pyo3(signature = (src, dst, password, *, aead = "ocb", cipher = "aes256", chunk_size_octet = 12, s2k = None,
                    s2k_count = 255, profile = "rfc9580", armor = false))]
#[allow(clippy::too_many_arguments)]
pub fn encrypt_file(
    py: Python<'_>,
    src: PathBuf,
    dst: PathBuf,
    password: Password,
    aead: &str,
    cipher: &str,
    chunk_size_octet: u8,
    s2k: Option<&str>,
    s2k_count: u8,
    profile: &str,
    armor: bool,
) -> PyResult<()> {
    let mut opts = options(aead, cipher, chunk_size_octet, s2k, s2k_count, profile, armor)?;
    opts.filename =
        src.file_name().map(|n| n.as_encoded_bytes().iter().copied().take(255).collect()).unwrap_or_default();
    let pw = password.bytes();
    py.detach(|| encrypt_paths(&src, &dst, &[pw], &opts)).map_err(|f| f.into_py(py))
}

/// Decrypts the OpenPGP file `src` (binary or armored, v1 or v2) to `dst`
/// with a password (or a list to try). Nothing is written to `dst` unless
/// the whole message verifies; failures raise `AuthenticationError` (wrong
/// password, modified data) or `InvalidValueError` (malformed, truncated).
#[pyfunction]
pub fn decrypt_file(py: Python<'_>, src: PathBuf, dst: PathBuf, password: Passwords) -> PyResult<()> {
    let pw = password.list();
    py.detach(|| decrypt_paths(&src, &dst, &pw)).map_err(|f| f.into_py(py))
}

/// Encrypts everything read from the binary file object `reader` into
/// `writer` (streaming, constant memory). Options as in `encrypt_file`.
#[pyfunction]
#[pyo3(signature = (reader, writer, password, *, aead = "ocb", cipher = "aes256", chunk_size_octet = 12, s2k = None,
                    s2k_count = 255, profile = "rfc9580", armor = false))]
#[allow(clippy::too_many_arguments)]
pub fn encrypt_stream(
    py: Python<'_>,
    reader: Py<PyAny>,
    writer: Py<PyAny>,
    password: Password,
    aead: &str,
    cipher: &str,
    chunk_size_octet: u8,
    s2k: Option<&str>,
    s2k_count: u8,
    profile: &str,
    armor: bool,
) -> PyResult<()> {
    let opts = options(aead, cipher, chunk_size_octet, s2k, s2k_count, profile, armor)?;
    let pw = password.bytes();
    py.detach(|| -> Result<(), Fail> {
        let mut input = PyReader(reader);
        let mut enc = Encryptor::new(BufWriter::with_capacity(1 << 16, PyWriter(writer)), &[pw], &opts)?;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = input.read(&mut buf).map_err(from_io)?;
            if n == 0 {
                break;
            }
            enc.write_all(&buf[..n]).map_err(from_io)?;
        }
        enc.finish()?.flush().map_err(from_io)
    })
    .map_err(|f| f.into_py(py))
}

/// Decrypts an OpenPGP message read from `reader` into `writer`. SEIPD v2
/// releases each chunk only after its tag verifies; a v1 (CFB + MDC)
/// message is held in memory (up to 64 MiB) until its MDC verifies. On
/// failure some verified chunks may already have been written: use
/// `decrypt_file` to get nothing at all.
#[pyfunction]
pub fn decrypt_stream(py: Python<'_>, reader: Py<PyAny>, writer: Py<PyAny>, password: Passwords) -> PyResult<()> {
    let pw = password.list();
    py.detach(|| -> Result<(), Fail> {
        let input = BufReader::with_capacity(1 << 16, PyReader(reader));
        let mut dec = Decryptor::new(input, &pw)?;
        let mut out = BufWriter::with_capacity(1 << 16, PyWriter(writer));
        io::copy(&mut dec, &mut out).map_err(from_io)?;
        out.flush().map_err(from_io)
    })
    .map_err(|f| f.into_py(py))
}
