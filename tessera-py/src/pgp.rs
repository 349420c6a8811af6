//! OpenPGP (RFC 9580) password encryption of files and Python file objects.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyBlockingIOError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use tessera::aead::Mode;
use tessera::fs::AtomicFile;
use tessera::openpgp::s2k::S2kLimits;
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
            Fail::Io(e) | Fail::Pgp(PgpError::Io(e)) => take_py_err().unwrap_or_else(|| PyOSError::new_err(e.to_string())),
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
struct PyReader(Py<PyAny>);

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
struct PyWriter {
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

/// Decryption limits from the keyword arguments (as the CLI's flags).
fn decrypt_options(l: &Limits) -> DecryptOptions {
    let limits = S2kLimits {
        max_argon2_t: l.max_argon2_passes,
        max_argon2_p: l.max_argon2_lanes,
        max_work_kib: l.max_s2k_work / 1024,
        ..S2kLimits::default()
    }
    .with_max_argon2_memory(l.max_argon2_memory);
    DecryptOptions { limits, max_decompressed_size: l.max_decompressed_size, ..DecryptOptions::default() }
}

/// The limits keyword arguments of `decrypt_file` and `decrypt_stream`.
struct Limits {
    max_argon2_memory: u64,
    max_argon2_passes: u8,
    max_argon2_lanes: u8,
    max_s2k_work: u64,
    max_decompressed_size: Option<u64>,
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

fn decrypt_paths(src: &Path, dst: &Path, pw: &[&[u8]], limits: &Limits) -> Result<(), Fail> {
    let input = BufReader::with_capacity(1 << 18, File::open(src).map_err(Fail::Io)?);
    // Output goes to a temporary file renamed only once everything verified,
    // so a v1 message may stream before its MDC is checked.
    let opts = DecryptOptions { v1_stream_unauthenticated: true, ..decrypt_options(limits) };
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
/// password, modified data) or `InvalidValueError` (malformed, truncated,
/// or above a limit: the limits are those of `tessera decrypt`, in bytes;
/// `max_decompressed_size=None` removes that one).
#[pyfunction]
#[pyo3(signature = (src, dst, password, *, max_argon2_memory = MAX_ARGON2_MEMORY, max_argon2_passes = 16,
                    max_argon2_lanes = 16, max_s2k_work = MAX_S2K_WORK,
                    max_decompressed_size = Some(DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE)))]
#[allow(clippy::too_many_arguments)]
pub fn decrypt_file(
    py: Python<'_>,
    src: PathBuf,
    dst: PathBuf,
    password: Passwords,
    max_argon2_memory: u64,
    max_argon2_passes: u8,
    max_argon2_lanes: u8,
    max_s2k_work: u64,
    max_decompressed_size: Option<u64>,
) -> PyResult<()> {
    let pw = password.list();
    let limits =
        Limits { max_argon2_memory, max_argon2_passes, max_argon2_lanes, max_s2k_work, max_decompressed_size };
    py.detach(|| decrypt_paths(&src, &dst, &pw, &limits)).map_err(|f| f.into_py(py))
}

/// Default `max_argon2_memory` (256 MiB), as the CLI's.
const MAX_ARGON2_MEMORY: u64 = 256 << 20;

/// Default `max_s2k_work` (1 GiB processed), as the CLI's.
const MAX_S2K_WORK: u64 = 1 << 30;

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
    let writer = PyWriter::new(py, writer)?;
    take_py_err();
    py.detach(|| -> Result<(), Fail> {
        let mut input = PyReader(reader);
        let mut enc = Encryptor::new(BufWriter::with_capacity(1 << 16, writer), &[pw], &opts)?;
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
/// `decrypt_file` to get nothing at all. Limits as in `decrypt_file`.
#[pyfunction]
#[pyo3(signature = (reader, writer, password, *, max_argon2_memory = MAX_ARGON2_MEMORY, max_argon2_passes = 16,
                    max_argon2_lanes = 16, max_s2k_work = MAX_S2K_WORK,
                    max_decompressed_size = Some(DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE)))]
#[allow(clippy::too_many_arguments)]
pub fn decrypt_stream(
    py: Python<'_>,
    reader: Py<PyAny>,
    writer: Py<PyAny>,
    password: Passwords,
    max_argon2_memory: u64,
    max_argon2_passes: u8,
    max_argon2_lanes: u8,
    max_s2k_work: u64,
    max_decompressed_size: Option<u64>,
) -> PyResult<()> {
    let pw = password.list();
    let limits =
        Limits { max_argon2_memory, max_argon2_passes, max_argon2_lanes, max_s2k_work, max_decompressed_size };
    let writer = PyWriter::new(py, writer)?;
    take_py_err();
    py.detach(|| -> Result<(), Fail> {
        let input = BufReader::with_capacity(1 << 16, PyReader(reader));
        let mut dec = Decryptor::with_options(input, &pw, &decrypt_options(&limits))?;
        let mut out = BufWriter::with_capacity(1 << 16, writer);
        io::copy(&mut dec, &mut out).map_err(from_io)?;
        out.flush().map_err(from_io)
    })
    .map_err(|f| f.into_py(py))
}
