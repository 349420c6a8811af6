//! OpenPGP signatures for Python: `sign`/`verify` on bytes and files, the
//! result objects, and the signers and verifications the encryption
//! functions use when they sign while encrypting or verify while decrypting.
//!
//! A verification that finds no good signature is an exception
//! (`SignatureError`), never a flag in a result: results only ever list
//! what was checked alongside data that passed.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tessera::fs::{AtomicFile, CHUNK_BUFFER};
use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
use tessera::openpgp::key::Cert;
use tessera::openpgp::sig::{
    ClearSigner, InlineSigner, InlineVerifier, Outcome, SigResult, SigType, Signature, Signer, SigningKey, Verifier,
    is_cleartext, read_cleartext, read_signatures, write_signatures,
};

use crate::errors::{Failure, Kind};
use crate::pgp_io::{Fail, Passwords, from_io};
use crate::pgp_keys::{KeySource, key_passwords, key_sources, read_public, read_secret_keys};

/// Seconds since the epoch.
pub(crate) fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// One signature and what it amounts to.
#[pyclass(module = "tessera.openpgp", name = "Verification", frozen, get_all)]
#[derive(Clone)]
pub struct Verification {
    /// "good", "bad", "unknown-signer", "key-not-valid" or "weak-hash".
    status: &'static str,
    /// Whether it counts (status "good").
    good: bool,
    /// The signer's certificate fingerprint, when known.
    signer: Option<String>,
    /// The fingerprint of the (sub)key that signed, for good signatures.
    key: Option<String>,
    /// The signer's primary User ID at signing time, for good signatures.
    user_id: Option<String>,
    /// The signature's creation time (seconds since the epoch).
    created: Option<u32>,
    /// One line saying what was found.
    message: String,
}

#[pymethods]
impl Verification {
    fn __repr__(&self) -> String {
        format!("Verification({})", self.message)
    }
}

impl Verification {
    fn new(r: &SigResult) -> Self {
        let created = r.signature.as_ref().and_then(Signature::created);
        let mut v = Verification {
            status: "",
            good: false,
            signer: None,
            key: None,
            user_id: None,
            created,
            message: String::new(),
        };
        v.message = match &r.outcome {
            Outcome::Good { cert, key, user_id } => {
                (v.status, v.good) = ("good", true);
                (v.signer, v.key, v.user_id) = (Some(cert.to_string()), Some(key.to_string()), user_id.clone());
                format!("good signature by {cert} (key {key})")
            }
            Outcome::Bad(why) => {
                v.status = "bad";
                format!("bad signature: {why}")
            }
            Outcome::UnknownSigner => {
                v.status = "unknown-signer";
                "signature by a key that none of the given certificates holds".into()
            }
            Outcome::KeyNotValid { cert, why } => {
                (v.status, v.signer) = ("key-not-valid", Some(cert.to_string()));
                format!("signature by {cert} does not count: {why}")
            }
            Outcome::WeakHash(h) => {
                v.status = "weak-hash";
                format!("signature refused: its hash {h:?} is too weak")
            }
            Outcome::Unchecked(why) => {
                v.status = "unchecked";
                format!("signature not checked: {why}")
            }
        };
        v
    }
}

fn verifications(results: &[SigResult]) -> Vec<Verification> {
    results.iter().map(Verification::new).collect()
}

/// The result of `decrypt_file`/`decrypt_stream`: the data decrypted and
/// authenticated; `verified` is true only when `verify_with=` was given
/// (and then at least one signature from it is good, or it raised).
#[pyclass(module = "tessera.openpgp", name = "Decrypted", frozen, get_all)]
pub struct Decrypted {
    /// Whether signatures were required and one was good.
    verified: bool,
    /// Every signature checked (empty without `verify_with=`).
    verifications: Vec<Verification>,
}

#[pymethods]
impl Decrypted {
    fn __repr__(&self) -> String {
        let good = self.verifications.iter().filter(|v| v.good).count();
        format!("Decrypted(verified={}, good signatures={good})", if self.verified { "True" } else { "False" })
    }
}

impl Decrypted {
    pub(crate) fn new(results: Option<Vec<SigResult>>) -> Self {
        Decrypted { verified: results.is_some(), verifications: verifications(&results.unwrap_or_default()) }
    }
}

/// The result of `verify`/`verify_file`: at least one good signature.
#[pyclass(module = "tessera.openpgp", name = "Verified", frozen)]
pub struct Verified {
    data: Option<Vec<u8>>,
    verifications: Vec<Verification>,
}

#[pymethods]
impl Verified {
    /// The signed data of an inline-signed or cleartext message given as
    /// bytes (`None` for a detached signature or a file).
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.data.as_ref().map(|d| PyBytes::new(py, d))
    }

    /// Every signature checked; at least one is good.
    #[getter]
    fn verifications(&self) -> Vec<Verification> {
        self.verifications.clone()
    }

    fn __repr__(&self) -> String {
        format!("Verified({})", self.verifications.iter().map(|v| v.message.as_str()).collect::<Vec<_>>().join("; "))
    }
}

/// A signer over every signing-capable key in `keys`, each hashing with
/// what the library picks for a message to `recipients` (none when only
/// signing).
pub(crate) fn make_signer<'a>(
    keys: &'a [Cert],
    ty: SigType,
    now: u64,
    recipients: &[Cert],
) -> Result<Signer<'a>, Fail> {
    let mut signing = Vec::new();
    for k in keys {
        signing.extend(SigningKey::for_message(k, now, recipients, None)?);
    }
    Ok(Signer::new(&signing, ty, now as u32)?)
}

/// What kind of signed output `sign` makes.
#[derive(Clone, Copy)]
struct SignMode {
    detached: bool,
    cleartext: bool,
    armor: bool,
    text: bool,
}

fn sign_into<W: Write>(input: &mut dyn Read, out: W, keys: &[Cert], m: SignMode) -> Result<W, Fail> {
    let ty = if m.text || m.cleartext { SigType::Text } else { SigType::Binary };
    let signer = make_signer(keys, ty, now(), &[])?;
    let mut copy = |w: &mut dyn Write| io::copy(input, w).map(drop).map_err(from_io);
    Ok(if m.detached {
        let mut signer = signer;
        copy(&mut signer)?;
        write_signatures(out, &signer.finish()?, m.armor)?
    } else if m.cleartext {
        let mut w = ClearSigner::new(out, signer)?;
        copy(&mut w)?;
        w.finish()?
    } else if m.armor {
        let mut w = InlineSigner::new(ArmorWriter::new(out, MESSAGE, false).map_err(Fail::Io)?, signer)?;
        copy(&mut w)?;
        w.finish()?.finish().map_err(Fail::Io)?
    } else {
        let mut w = InlineSigner::new(out, signer)?;
        copy(&mut w)?;
        w.finish()?
    })
}

/// Checks `input` (a signed message, or data with detached `sigs`),
/// writing a signed message's data to `out`.
fn verify_into(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    certs: &[Cert],
    sigs: Option<Vec<Signature>>,
) -> Result<Vec<SigResult>, Fail> {
    let now = now();
    if let Some(sigs) = sigs {
        let mut v = Verifier::new(sigs, certs, now);
        io::copy(input, &mut v).map_err(from_io)?;
        return Ok(v.finish());
    }
    if is_cleartext(input)? {
        return Ok(read_cleartext(input, out, certs, now)?);
    }
    Ok(InlineVerifier::new(input, certs, now)?.verify_to(out)?)
}

/// The results, if at least one is good; else `SignatureError` saying what was found.
fn require_good(results: Vec<SigResult>) -> Result<Vec<Verification>, Fail> {
    let v = verifications(&results);
    if v.iter().any(|v| v.good) {
        return Ok(v);
    }
    let msg = if v.is_empty() {
        "no good signature: the data is not signed".to_string()
    } else {
        let found: Vec<&str> = v.iter().map(|v| v.message.as_str()).collect();
        format!("no good signature from the given certificates ({})", found.join("; "))
    };
    Err(Fail::Lib(Failure::new(Kind::Signature, msg, None)))
}

fn read_detached(sources: &[KeySource]) -> Result<Option<Vec<Signature>>, Fail> {
    let mut sigs = Vec::new();
    for s in sources {
        sigs.extend(match s {
            KeySource::Data(d) => read_signatures(d.as_slice())?,
            KeySource::Path(p) => read_signatures(BufReader::new(File::open(p).map_err(Fail::Io)?))?,
        });
    }
    Ok((!sources.is_empty()).then_some(sigs))
}

/// The secret keys and output form of a signing function, read with the
/// GIL held.
struct Signing {
    sources: Vec<KeySource>,
    key_password: Option<Passwords>,
    mode: SignMode,
}

impl Signing {
    /// Reads and unlocks the secret keys.
    fn keys(&self) -> Result<Vec<Cert>, Fail> {
        read_secret_keys(&self.sources, &key_passwords(&self.key_password), "key")
    }
}

/// A Python function `$name` over `$imp`, with the key and form keyword
/// arguments every signing function takes after its own (`$arg`s): one
/// list, so `sign` and `sign_file` take the same (as the stub documents).
macro_rules! signing_function {
    ($(#[$doc:meta])* $name:ident => $imp:ident($($arg:ident: $at:ty),*) -> $ret:ty) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = ($($arg,)* key, *, key_password = None, detached = false, cleartext = false, armor = false,
                            text = false))]
        #[allow(clippy::too_many_arguments)]
        pub fn $name(
            py: Python<'_>,
            $($arg: $at,)*
            key: Bound<'_, PyAny>,
            key_password: Option<Passwords>,
            detached: bool,
            cleartext: bool,
            armor: bool,
            text: bool,
        ) -> PyResult<$ret> {
            let sources = key_sources(Some(&key), "key")?;
            let mode = SignMode { detached, cleartext, armor, text };
            $imp(py, $($arg,)* Signing { sources, key_password, mode })
        }
    };
}

signing_function! {
    /// Signs `data` (bytes); see the stub for the Python documentation.
    sign => sign_bytes(data: &[u8]) -> Py<PyBytes>
}

fn sign_bytes(py: Python<'_>, data: &[u8], signing: Signing) -> PyResult<Py<PyBytes>> {
    let out =
        py.detach(|| sign_into(&mut &*data, Vec::new(), &signing.keys()?, signing.mode)).map_err(|f| f.into_py(py))?;
    Ok(PyBytes::new(py, &out).unbind())
}

signing_function! {
    /// Signs the file `src` into `dst` (created only on success).
    sign_file => sign_path(src: PathBuf, dst: PathBuf) -> ()
}

fn sign_path(py: Python<'_>, src: PathBuf, dst: PathBuf, signing: Signing) -> PyResult<()> {
    py.detach(|| {
        let keys = signing.keys()?;
        let mut input = BufReader::with_capacity(CHUNK_BUFFER, File::open(&src).map_err(Fail::Io)?);
        let out = AtomicFile::create(&dst).map_err(Fail::Io)?;
        sign_into(&mut input, out, &keys, signing.mode)?.commit().map_err(Fail::Io)
    })
    .map_err(|f| f.into_py(py))
}

/// Verifies signed bytes (or bytes and a detached signature).
#[pyfunction]
#[pyo3(signature = (data, signers, *, signature = None))]
pub fn verify(
    py: Python<'_>,
    data: &[u8],
    signers: Bound<'_, PyAny>,
    signature: Option<Bound<'_, PyAny>>,
) -> PyResult<Verified> {
    let certs = key_sources(Some(&signers), "signers")?;
    let sig = key_sources(signature.as_ref(), "signature")?;
    py.detach(|| {
        let certs = read_public(&certs, "signers")?;
        let sigs = read_detached(&sig)?;
        let detached = sigs.is_some();
        let mut out = Vec::new();
        let results = verify_into(&mut &*data, &mut out, &certs, sigs)?;
        Ok(Verified { verifications: require_good(results)?, data: (!detached).then_some(out) })
    })
    .map_err(|f: Fail| f.into_py(py))
}

/// Verifies a signed file (or a file and a detached signature); a signed
/// message's data goes to `dst` only if a signature is good.
#[pyfunction]
#[pyo3(signature = (src, signers, *, signature = None, dst = None))]
pub fn verify_file(
    py: Python<'_>,
    src: PathBuf,
    signers: Bound<'_, PyAny>,
    signature: Option<Bound<'_, PyAny>>,
    dst: Option<PathBuf>,
) -> PyResult<Verified> {
    let certs = key_sources(Some(&signers), "signers")?;
    let sig = key_sources(signature.as_ref(), "signature")?;
    if !sig.is_empty() && dst.is_some() {
        let msg = "dst: only a signed message has data to write; a detached signature's data is `src` itself";
        return Err(Failure::new(Kind::Parameter, msg, None).into_py(py));
    }
    py.detach(|| {
        let certs = read_public(&certs, "signers")?;
        let sigs = read_detached(&sig)?;
        let mut input = BufReader::with_capacity(CHUNK_BUFFER, File::open(&src).map_err(Fail::Io)?);
        let mut out = dst.as_deref().map(AtomicFile::create).transpose().map_err(Fail::Io)?;
        let mut sink = io::sink();
        let w: &mut dyn Write = match &mut out {
            Some(o) => o,
            None => &mut sink,
        };
        let verifications = require_good(verify_into(&mut input, w, &certs, sigs)?)?;
        if let Some(o) = out {
            o.commit().map_err(Fail::Io)?;
        }
        Ok(Verified { data: None, verifications })
    })
    .map_err(|f: Fail| f.into_py(py))
}
