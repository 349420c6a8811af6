//! OpenPGP keys for Python: generation, certificate extraction, inspection,
//! and the key arguments of the other functions (`recipients=`, `keys=`,
//! `sign_with=`, `verify_with=`) read into certificates.

use std::fs::File;
use std::io::{self, BufReader};
use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use tessera::openpgp::Error as PgpError;
use tessera::openpgp::key::{Cert, GenerateOptions, KEY_UNLOCK_LIMITS, KeyProfile, KeyVersion, generate};
use zeroize::Zeroizing;

use crate::errors::{Failure, Kind};
use crate::pgp_io::{Fail, Password, Passwords};

/// Where keys or certificates come from: their bytes (binary or armored,
/// one or several) or a file path.
pub(crate) enum KeySource {
    Data(Zeroizing<Vec<u8>>),
    Path(PathBuf),
}

/// One source from `bytes`/`bytearray` (data) or `str`/`os.PathLike` (a path).
fn one_source(obj: &Bound<'_, PyAny>) -> PyResult<Option<KeySource>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Some(KeySource::Data(Zeroizing::new(b.as_bytes().to_vec()))));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Some(KeySource::Data(Zeroizing::new(b.to_vec()))));
    }
    if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
        return Ok(Some(KeySource::Path(obj.extract()?)));
    }
    Ok(None)
}

/// The sources in an argument: `None`, one source, or an iterable of them.
pub(crate) fn key_sources(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Vec<KeySource>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(Vec::new()) };
    let wrong = || PyTypeError::new_err(format!("{what}: expected bytes (key data), a path, or a list of them"));
    if let Some(s) = one_source(obj)? {
        return Ok(vec![s]);
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| wrong())? {
        out.push(one_source(&item?)?.ok_or_else(wrong)?);
    }
    Ok(out)
}

/// Every key or certificate in `sources` (`what` names the argument in
/// errors: data that is not a key is `InvalidKeyError`).
pub(crate) fn read_certs(sources: &[KeySource], what: &str) -> Result<Vec<Cert>, Fail> {
    let unreadable = |e: PgpError| match e {
        PgpError::Io(e) => Fail::Io(e),
        e => Fail::Lib(Failure::new(Kind::Key, format!("{what}: not an OpenPGP key or certificate ({e})"), None)),
    };
    let mut out = Vec::new();
    for s in sources {
        out.extend(match s {
            KeySource::Data(d) => Cert::read_all(d.as_slice()).map_err(unreadable)?,
            KeySource::Path(p) => {
                let f =
                    File::open(p).map_err(|e| Fail::Io(io::Error::new(e.kind(), format!("{}: {e}", p.display()))))?;
                Cert::read_all(BufReader::new(f)).map_err(unreadable)?
            }
        });
    }
    Ok(out)
}

/// The certificates (public parts) in `sources`.
pub(crate) fn read_public(sources: &[KeySource], what: &str) -> Result<Vec<Cert>, Fail> {
    Ok(read_certs(sources, what)?.iter().map(Cert::to_public).collect())
}

/// The secret keys in `sources`, each unlocked with the first of
/// `passwords` that opens it (a locked key stays locked without any: the
/// library then names it when it is needed).
pub(crate) fn read_secret_keys(sources: &[KeySource], passwords: &[&[u8]], what: &str) -> Result<Vec<Cert>, Fail> {
    let mut keys = read_certs(sources, what)?;
    keys.retain(Cert::is_secret);
    if keys.is_empty() && !sources.is_empty() {
        let msg = format!("{what}: no secret key found (certificates hold only public keys)");
        return Err(Fail::Lib(Failure::new(Kind::Key, msg, None)));
    }
    for key in &mut keys {
        let mut last = None;
        for pw in passwords {
            match key.unlock(pw, &KEY_UNLOCK_LIMITS) {
                Ok(()) => {
                    last = None;
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        if let Some(e) = last {
            return Err(e.into());
        }
    }
    Ok(keys)
}

/// Key passwords: `None`, one, or a list to try on each key.
pub(crate) fn key_passwords(p: &Option<Passwords>) -> Vec<&[u8]> {
    p.as_ref().map(Passwords::list).unwrap_or_default()
}

/// One User ID or several.
#[derive(FromPyObject)]
pub enum UserIds {
    One(String),
    Many(Vec<String>),
}

pub(crate) fn serialize(certs: &[Cert], armor: bool) -> Result<Zeroizing<Vec<u8>>, Fail> {
    let mut out = Zeroizing::new(Vec::new());
    for c in certs {
        if armor {
            c.write_armored(&mut *out)?;
        } else {
            out.extend_from_slice(&Zeroizing::new(c.to_bytes()?));
        }
    }
    Ok(out)
}

/// Generates a secret key; see the stub for the Python documentation.
#[pyfunction]
#[pyo3(signature = (userid = None, *, profile = "rfc9580", password = None, armor = true, expires_in = None))]
pub fn generate_key(
    py: Python<'_>,
    userid: Option<UserIds>,
    profile: &str,
    password: Option<Password>,
    armor: bool,
    expires_in: Option<u32>,
) -> PyResult<Py<PyBytes>> {
    let profile: KeyProfile =
        profile.parse().map_err(|e| PyValueError::new_err(format!("profile {profile:?}: {e}")))?;
    if password.as_ref().is_some_and(|p| p.bytes().is_empty()) {
        return Err(PyValueError::new_err("password: must not be empty (pass None for an unlocked key)"));
    }
    let user_ids = match userid {
        None => Vec::new(),
        Some(UserIds::One(u)) => vec![u],
        Some(UserIds::Many(v)) => v,
    };
    let opts = GenerateOptions { profile, user_ids, expires_in, created: None };
    let out = py
        .detach(|| -> Result<_, Fail> {
            let mut key = generate(&opts)?;
            if let Some(pw) = &password {
                key.lock(pw.bytes())?;
            }
            serialize(&[key], armor)
        })
        .map_err(|f| f.into_py(py))?;
    Ok(PyBytes::new(py, &out).unbind())
}

/// The certificates (public keys) of the keys in `key`.
#[pyfunction]
#[pyo3(signature = (key, *, armor = true))]
pub fn extract_cert(py: Python<'_>, key: Bound<'_, PyAny>, armor: bool) -> PyResult<Py<PyBytes>> {
    let sources = key_sources(Some(&key), "key")?;
    let out = py.detach(|| serialize(&read_public(&sources, "key")?, armor)).map_err(|f| f.into_py(py))?;
    Ok(PyBytes::new(py, &out).unbind())
}

/// What `inspect_keys` tells about one key or certificate.
#[pyclass(module = "tessera.openpgp", name = "KeyInfo", frozen, get_all)]
pub struct KeyInfo {
    /// The primary key's fingerprint (hex).
    fingerprint: String,
    /// 4 or 6.
    version: u8,
    /// Whether it holds secret key material.
    secret: bool,
    /// Whether some secret key in it is locked with a password.
    locked: bool,
    /// The User IDs (UTF-8, lossy).
    user_ids: Vec<String>,
    /// The subkeys' fingerprints.
    subkeys: Vec<String>,
    /// Whether it can encrypt now (a valid encryption-capable key).
    can_encrypt: bool,
    /// Whether it can sign now.
    can_sign: bool,
    /// Why it is not valid now, if it is not (expired, revoked, ...).
    problem: Option<String>,
}

#[pymethods]
impl KeyInfo {
    fn __repr__(&self) -> String {
        let kind = if self.secret { "secret key" } else { "certificate" };
        format!("KeyInfo(v{} {kind} {}, user_ids={:?})", self.version, self.fingerprint, self.user_ids)
    }
}

fn info(cert: &Cert, now: u64) -> KeyInfo {
    let valid = cert.validate(now);
    let (can_encrypt, can_sign) =
        valid.as_ref().map(|v| (!v.encryption_keys().is_empty(), !v.signing_keys().is_empty())).unwrap_or_default();
    KeyInfo {
        fingerprint: cert.fingerprint().to_string(),
        version: match cert.version() {
            KeyVersion::V4 => 4,
            KeyVersion::V6 => 6,
        },
        secret: cert.is_secret(),
        locked: cert.keys().any(|k| k.secret().is_some_and(|s| s.is_locked())),
        user_ids: cert.user_ids.iter().map(|u| String::from_utf8_lossy(&u.value).into_owned()).collect(),
        subkeys: cert.subkeys.iter().map(|s| s.key.public().fingerprint().to_string()).collect(),
        can_encrypt,
        can_sign,
        problem: valid.err().map(|e| e.to_string()),
    }
}

/// Describes every key or certificate in `data` (bytes or a path).
#[pyfunction]
pub fn inspect_keys(py: Python<'_>, data: Bound<'_, PyAny>) -> PyResult<Vec<KeyInfo>> {
    let sources = key_sources(Some(&data), "data")?;
    let now = crate::pgp_sign::now();
    py.detach(|| Ok(read_certs(&sources, "data")?.iter().map(|c| info(c, now)).collect()))
        .map_err(|f: Fail| f.into_py(py))
}
