//! OpenPGP certificate management for Python: revocation, merging,
//! updating keys, certifying and validating User IDs. The library does
//! the work; this converts arguments and errors.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tessera::openpgp::key::{
    Cert, CertifyOptions, ExpiryChange, RevocationReason, UpdateOptions, UserIdQuery, merge_certs as merge,
};

use crate::pgp_io::{Fail, Passwords};
use crate::pgp_keys::{UserIds, key_passwords, key_sources, read_public, read_secret_keys, serialize};

/// Seconds since the epoch now, as signatures store them.
fn now32() -> u32 {
    crate::pgp_sign::now().min(u64::from(u32::MAX)) as u32
}

fn bytes_out(
    py: Python<'_>,
    work: impl FnOnce() -> Result<zeroize::Zeroizing<Vec<u8>>, Fail> + Send,
) -> PyResult<Py<PyBytes>> {
    let out = py.detach(work).map_err(|f| f.into_py(py))?;
    Ok(PyBytes::new(py, &out).unbind())
}

/// Revocation certificates of the secret keys in `key`; see the stub.
#[pyfunction]
#[pyo3(signature = (key, *, key_password = None, reason = "unspecified", message = "", armor = true))]
pub fn revoke_key(
    py: Python<'_>,
    key: Bound<'_, PyAny>,
    key_password: Option<Passwords>,
    reason: &str,
    message: &str,
    armor: bool,
) -> PyResult<Py<PyBytes>> {
    let reason = RevocationReason::from_name(reason).ok_or_else(|| {
        PyValueError::new_err(format!("reason {reason:?}: expected unspecified, compromised, superseded or retired"))
    })?;
    let sources = key_sources(Some(&key), "key")?;
    bytes_out(py, || {
        let keys = read_secret_keys(&sources, &key_passwords(&key_password), "key")?;
        let at = now32();
        let revoked = keys.iter().map(|k| k.revoke(reason, message, at)).collect::<Result<Vec<_>, _>>()?;
        serialize(&revoked, armor)
    })
}

/// The certificates of `certs` with what `updates` hold of them merged in.
#[pyfunction]
#[pyo3(signature = (certs, updates, *, armor = true))]
pub fn merge_certs(
    py: Python<'_>,
    certs: Bound<'_, PyAny>,
    updates: Bound<'_, PyAny>,
    armor: bool,
) -> PyResult<Py<PyBytes>> {
    let base = key_sources(Some(&certs), "certs")?;
    let more = key_sources(Some(&updates), "updates")?;
    bytes_out(py, || serialize(&merge(&read_public(&base, "certs")?, &read_public(&more, "updates")?)?, armor))
}

/// The secret keys of `key`, updated; see the stub.
#[pyfunction]
#[pyo3(signature = (key, *, key_password = None, expires_in = None, signing_only = false, add_capabilities = true, armor = true))]
pub fn update_key(
    py: Python<'_>,
    key: Bound<'_, PyAny>,
    key_password: Option<crate::pgp_io::Password>,
    expires_in: Option<u32>,
    signing_only: bool,
    add_capabilities: bool,
    armor: bool,
) -> PyResult<Py<PyBytes>> {
    let expiry = match expires_in {
        None => ExpiryChange::Keep,
        Some(0) => ExpiryChange::Never,
        Some(s) => ExpiryChange::After(s),
    };
    let sources = key_sources(Some(&key), "key")?;
    bytes_out(py, || {
        let opts = UpdateOptions { at: now32(), signing_only, add_capabilities, expiry };
        let pw = key_password.as_ref().map(|p| p.bytes());
        let stored = crate::pgp_keys::read_certs(&sources, "key")?;
        let keys = read_secret_keys(&sources, pw.as_slice(), "key")?;
        let mut out = Vec::new();
        for (k, s) in keys.iter().zip(stored.iter().filter(|c| c.is_secret())) {
            let mut updated = k.update(&opts)?;
            if let Some(pw) = pw.filter(|_| s.keys().any(|c| c.secret().is_some_and(|x| x.is_locked()))) {
                updated.lock(pw)?;
            }
            out.push(updated);
        }
        serialize(&out, armor)
    })
}

/// `cert` with `userid` certified by every secret key of `key`.
#[pyfunction]
#[pyo3(signature = (key, cert, userid, *, key_password = None, require_self_sig = true, armor = true))]
pub fn certify_userid(
    py: Python<'_>,
    key: Bound<'_, PyAny>,
    cert: Bound<'_, PyAny>,
    userid: UserIds,
    key_password: Option<Passwords>,
    require_self_sig: bool,
    armor: bool,
) -> PyResult<Py<PyBytes>> {
    let user_ids = match userid {
        UserIds::One(u) => vec![u],
        UserIds::Many(v) => v,
    };
    let keys = key_sources(Some(&key), "key")?;
    let certs = key_sources(Some(&cert), "cert")?;
    bytes_out(py, || {
        let keys = read_secret_keys(&keys, &key_passwords(&key_password), "key")?;
        let opts = CertifyOptions { user_ids, require_self_sig, at: now32(), ..Default::default() };
        let mut out = Vec::new();
        for mut c in read_public(&certs, "cert")? {
            for k in &keys {
                c = k.certify(&c, &opts)?;
            }
            out.push(c);
        }
        serialize(&out, armor)
    })
}

/// Whether every certificate of `cert` binds `userid`, certified by one of
/// `authorities`; see the stub.
#[pyfunction]
#[pyo3(signature = (cert, userid, authorities, *, email = false, at = None))]
pub fn validate_userid(
    py: Python<'_>,
    cert: Bound<'_, PyAny>,
    userid: &str,
    authorities: Bound<'_, PyAny>,
    email: bool,
    at: Option<u64>,
) -> PyResult<bool> {
    let certs = key_sources(Some(&cert), "cert")?;
    let auth = key_sources(Some(&authorities), "authorities")?;
    let at = at.unwrap_or_else(crate::pgp_sign::now);
    py.detach(|| -> Result<bool, Fail> {
        let authorities: Vec<Cert> = read_public(&auth, "authorities")?;
        let query = if email { UserIdQuery::Email(userid) } else { UserIdQuery::Exact(userid) };
        let certs = read_public(&certs, "cert")?;
        Ok(certs.iter().all(|c| c.validate_user_id(&query, &authorities, at).is_ok()))
    })
    .map_err(|f| f.into_py(py))
}
