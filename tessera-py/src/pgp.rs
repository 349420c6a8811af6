//! OpenPGP (RFC 9580) encryption of files and Python file objects: to
//! passwords and certificates, optionally signed, and decryption with
//! passwords and secret keys, optionally verified.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tessera::aead::Mode;
use tessera::fs::{AtomicFile, CHUNK_BUFFER, CopyError, IO_BUFFER, Spool};
use tessera::openpgp::key::Cert;
use tessera::openpgp::sig::{SigResult, SigType};
use tessera::openpgp::{
    DecryptOptions, Decryptor, EncryptOptions, Encryptor, MAX_CHUNK_OCTET, Profile, S2kKind, S2kLimits,
    SigningEncryptor, SymAlg, VerifyingDecryptor,
};

use crate::errors::{Failure, Kind};
use crate::pgp_io::{Fail, Password, Passwords, from_io, with_streams};
use crate::pgp_keys::{KeySource, key_passwords, key_sources, read_public, read_secret_keys};
use crate::pgp_sign::{Decrypted, make_signer, now};

/// Decryption limits from the keyword arguments (as the CLI's flags).
fn decrypt_options(l: &Limits) -> DecryptOptions {
    let limits = S2kLimits::from_sizes(l.max_argon2_memory, l.max_argon2_passes, l.max_argon2_lanes, l.max_s2k_work);
    // Files and streams from Python: chunks on every core (the GIL is released).
    DecryptOptions { limits, max_decompressed_size: l.max_decompressed_size, threads: 0, ..DecryptOptions::default() }
}

/// The limits keyword arguments of `decrypt_file` and `decrypt_stream`.
struct Limits {
    max_argon2_memory: u64,
    max_argon2_passes: u8,
    max_argon2_lanes: u8,
    max_s2k_work: u64,
    max_decompressed_size: Option<u64>,
}

/// Parses a name the library owns (`"ocb"`, `"aes256"`, ...); any other is
/// a `ValueError` listing `names`.
fn parse_name<T: std::str::FromStr>(what: &str, value: &str, names: &[&str]) -> PyResult<T> {
    value.parse().map_err(|_| PyValueError::new_err(format!("{what} {value:?}: expected one of {}", names.join(", "))))
}

/// The key arguments of the encryption functions, read with the GIL held.
struct EncryptKeys {
    recipients: Vec<KeySource>,
    signers: Vec<KeySource>,
    key_password: Option<Passwords>,
}

impl EncryptKeys {
    fn new(
        recipients: Option<&Bound<'_, PyAny>>,
        sign_with: Option<&Bound<'_, PyAny>>,
        key_password: Option<Passwords>,
    ) -> PyResult<Self> {
        Ok(EncryptKeys {
            recipients: key_sources(recipients, "recipients")?,
            signers: key_sources(sign_with, "sign_with")?,
            key_password,
        })
    }

    /// Reads the certificates into `opts` and the signing keys (unlocked).
    fn load(&self, opts: &mut EncryptOptions) -> Result<Vec<Cert>, Fail> {
        opts.recipients = read_public(&self.recipients, "recipients")?;
        read_secret_keys(&self.signers, &key_passwords(&self.key_password), "sign_with")
    }
}

/// Encrypts (and signs, when `signers` is not empty) `input` into `out`.
fn encrypt_into<W: Write>(
    input: &mut dyn Read,
    out: W,
    pw: &[&[u8]],
    opts: &EncryptOptions,
    signers: &[Cert],
) -> Result<W, Fail> {
    if signers.is_empty() {
        let mut enc = Encryptor::new(out, pw, opts)?;
        io::copy(input, &mut enc).map_err(from_io)?;
        return Ok(enc.finish()?);
    }
    let signer = make_signer(signers, SigType::Binary, now(), &opts.recipients)?;
    let mut enc = SigningEncryptor::new(out, pw, opts, signer)?;
    io::copy(input, &mut enc).map_err(from_io)?;
    Ok(enc.finish()?)
}

/// The key arguments of the decryption functions, read with the GIL held.
struct DecryptKeys {
    keys: Vec<KeySource>,
    key_password: Option<Passwords>,
    verify_with: Option<Vec<KeySource>>,
}

impl DecryptKeys {
    fn new(
        py: Python<'_>,
        keys: Option<&Bound<'_, PyAny>>,
        key_password: Option<Passwords>,
        verify_with: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let verify_with = match verify_with.filter(|v| !v.is_none()) {
            None => None,
            Some(v) => {
                let sources = key_sources(Some(v), "verify_with")?;
                if sources.is_empty() {
                    let msg = "verify_with: no certificate given (pass None to decrypt without verifying)";
                    return Err(Failure::new(Kind::Parameter, msg, None).into_py(py));
                }
                Some(sources)
            }
        };
        Ok(DecryptKeys { keys: key_sources(keys, "keys")?, key_password, verify_with })
    }

    /// Reads the secret keys into `opts` and the verifying certificates.
    fn load(&self, opts: &mut DecryptOptions) -> Result<Option<Vec<Cert>>, Fail> {
        opts.keys = read_secret_keys(&self.keys, &key_passwords(&self.key_password), "keys")?;
        self.verify_with.as_deref().map(|v| read_public(v, "verify_with")).transpose()
    }
}

/// Decrypts `input` into `out`; with `verify`, also checks the signatures
/// and fails (`SignatureError`) unless one from those certificates is good.
fn decrypt_into<R: BufRead>(
    input: R,
    out: &mut dyn Write,
    pw: &[&[u8]],
    opts: &DecryptOptions,
    verify: Option<&[Cert]>,
) -> Result<Option<Vec<SigResult>>, Fail> {
    let Some(certs) = verify else {
        let mut dec = Decryptor::with_options(input, pw, opts)?;
        io::copy(&mut dec, out).map_err(from_io)?;
        return Ok(None);
    };
    let mut dec = VerifyingDecryptor::new(input, pw, opts, certs, now())?;
    io::copy(&mut dec, out).map_err(from_io)?;
    Ok(Some(dec.finish()?.results))
}

fn encrypt_paths(
    src: &Path,
    dst: &Path,
    pw: &[&[u8]],
    mut opts: EncryptOptions,
    keys: &EncryptKeys,
) -> Result<(), Fail> {
    let signers = keys.load(&mut opts)?;
    let file = File::open(src).map_err(Fail::Io)?;
    let out = AtomicFile::create(dst).map_err(Fail::Io)?;
    if signers.is_empty() {
        // Straight into the chunk buffers, read by every chunk worker.
        let mut enc = Encryptor::new(out, pw, &opts)?;
        enc.copy_from_file(&file).map_err(|e| from_io(e.into_io()))?;
        return enc.finish()?.commit().map_err(Fail::Io);
    }
    let mut input = BufReader::with_capacity(CHUNK_BUFFER, file);
    encrypt_into(&mut input, out, pw, &opts, &signers)?.commit().map_err(Fail::Io)
}

fn decrypt_paths(src: &Path, dst: &Path, pw: &[&[u8]], limits: &Limits, keys: &DecryptKeys) -> Result<Decrypted, Fail> {
    // Output goes to a temporary file renamed only once everything verified,
    // so a v1 message may stream before its MDC is checked.
    let mut opts = DecryptOptions { v1_stream_unauthenticated: true, ..decrypt_options(limits) };
    let certs = keys.load(&mut opts)?;
    let file = File::open(src).map_err(Fail::Io)?;
    let mut out = AtomicFile::create(dst).map_err(Fail::Io)?;
    let results = match certs.as_deref() {
        // Read at offsets, by every chunk worker.
        None => {
            io::copy(&mut Decryptor::from_file(&file, pw, &opts)?, &mut out).map_err(from_io)?;
            None
        }
        verify => decrypt_into(BufReader::with_capacity(CHUNK_BUFFER, &file), &mut out, pw, &opts, verify)?,
    };
    out.commit().map_err(Fail::Io)?;
    Ok(Decrypted::new(results))
}

/// A Python function that encrypts from `$src` into `$dst`, with the
/// keyword arguments every encrypting function takes: one list, so
/// `encrypt_file` and `encrypt_stream` take the same options (as the stub
/// documents them). `$body` sees them parsed: the options (`$opts`), the
/// keys (`$keys`, read later without the GIL) and the passwords (`$pw`).
macro_rules! encrypting_function {
    ($(#[$doc:meta])* $name:ident($py:ident, $src:ident: $st:ty, $dst:ident: $dt:ty)
     |$opts:ident, $keys:ident, $pw:ident| $body:block) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = ($src, $dst, password = None, *, recipients = None, sign_with = None, key_password = None,
                            aead = "ocb", cipher = "aes256", chunk_size_octet = 12, s2k = None, s2k_count = 255,
                            profile = "rfc9580", armor = false))]
        #[allow(clippy::too_many_arguments)]
        pub fn $name(
            $py: Python<'_>,
            $src: $st,
            $dst: $dt,
            password: Option<Password>,
            recipients: Option<Bound<'_, PyAny>>,
            sign_with: Option<Bound<'_, PyAny>>,
            key_password: Option<Passwords>,
            aead: &str,
            cipher: &str,
            chunk_size_octet: u8,
            s2k: Option<&str>,
            s2k_count: u8,
            profile: &str,
            armor: bool,
        ) -> PyResult<()> {
            let profile: Profile = parse_name("profile", profile, Profile::NAMES)?;
            let s2k = s2k.map(|s| parse_name::<S2kKind>("s2k", s, S2kKind::NAMES)).transpose()?;
            let defaults = EncryptOptions::for_profile(profile, s2k, s2k_count).map_err(|_| {
                PyValueError::new_err("s2k='argon2' needs profile='rfc9580' (GnuPG 2.2 cannot read Argon2)")
            })?;
            if chunk_size_octet > MAX_CHUNK_OCTET {
                return Err(PyValueError::new_err(format!("chunk_size_octet must be 0..={MAX_CHUNK_OCTET}")));
            }
            let mut $opts = EncryptOptions {
                cipher: parse_name("cipher", cipher, SymAlg::NAMES)?,
                aead: parse_name("aead", aead, Mode::NAMES)?,
                chunk_octet: chunk_size_octet,
                armor,
                threads: 0,
                ..defaults
            };
            let $keys = EncryptKeys::new(recipients.as_ref(), sign_with.as_ref(), key_password)?;
            let $pw: Vec<&[u8]> = password.iter().map(Password::bytes).collect();
            $body
        }
    };
}

/// A Python function that decrypts from `$src` into `$dst`, with the
/// keyword arguments every decrypting function takes (one list, as for
/// [`encrypting_function`]). `$body` sees the passwords (`$pw`), the keys
/// (`$keys`, read later without the GIL) and the limits (`$limits`).
macro_rules! decrypting_function {
    ($(#[$doc:meta])* $name:ident($py:ident, $src:ident: $st:ty, $dst:ident: $dt:ty)
     |$pw:ident, $keys:ident, $limits:ident| $body:block) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = ($src, $dst, password = None, *, keys = None, key_password = None, verify_with = None,
                            max_argon2_memory = MAX_ARGON2_MEMORY, max_argon2_passes = 16,
                            max_argon2_lanes = 16, max_s2k_work = MAX_S2K_WORK,
                            max_decompressed_size = Some(DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE)))]
        #[allow(clippy::too_many_arguments)]
        pub fn $name(
            $py: Python<'_>,
            $src: $st,
            $dst: $dt,
            password: Option<Passwords>,
            keys: Option<Bound<'_, PyAny>>,
            key_password: Option<Passwords>,
            verify_with: Option<Bound<'_, PyAny>>,
            max_argon2_memory: u64,
            max_argon2_passes: u8,
            max_argon2_lanes: u8,
            max_s2k_work: u64,
            max_decompressed_size: Option<u64>,
        ) -> PyResult<Decrypted> {
            let $pw = key_passwords(&password);
            let $keys = DecryptKeys::new($py, keys.as_ref(), key_password, verify_with.as_ref())?;
            let $limits =
                Limits { max_argon2_memory, max_argon2_passes, max_argon2_lanes, max_s2k_work, max_decompressed_size };
            $body
        }
    };
}

encrypting_function! {
    /// Encrypts the file `src` to `dst`; see the stub for the Python documentation.
    encrypt_file(py, src: PathBuf, dst: PathBuf) |opts, keys, pw| {
        opts.filename = EncryptOptions::file_name_of(&src);
        py.detach(|| encrypt_paths(&src, &dst, &pw, opts, &keys)).map_err(|f| f.into_py(py))
    }
}

decrypting_function! {
    /// Decrypts the OpenPGP file `src` to `dst`; see the stub.
    decrypt_file(py, src: PathBuf, dst: PathBuf) |pw, keys, limits| {
        py.detach(|| decrypt_paths(&src, &dst, &pw, &limits, &keys)).map_err(|f| f.into_py(py))
    }
}

/// Default `max_argon2_memory` (256 MiB), as the CLI's.
const MAX_ARGON2_MEMORY: u64 = S2kLimits::DEFAULT.max_argon2_memory();

/// Default `max_s2k_work` (1 GiB processed), as the CLI's.
const MAX_S2K_WORK: u64 = S2kLimits::DEFAULT.max_work();

encrypting_function! {
    /// Encrypts everything read from the binary file object `reader` into
    /// `writer` (streaming, constant memory). Options as in `encrypt_file`.
    encrypt_stream(py, reader: Py<PyAny>, writer: Py<PyAny>) |opts, keys, pw| {
        with_streams(py, reader, writer, |mut input, writer| {
            let signers = keys.load(&mut opts)?;
            let out = BufWriter::with_capacity(IO_BUFFER, writer);
            encrypt_into(&mut input, out, &pw, &opts, &signers)?.flush().map_err(from_io)
        })
    }
}

decrypting_function! {
    /// Decrypts an OpenPGP message read from `reader` into `writer`; see the stub.
    decrypt_stream(py, reader: Py<PyAny>, writer: Py<PyAny>) |pw, keys, limits| {
        with_streams(py, reader, writer, |reader, writer| {
            let mut opts = decrypt_options(&limits);
            let certs = keys.load(&mut opts)?;
            let input = BufReader::with_capacity(IO_BUFFER, reader);
            let mut out = BufWriter::with_capacity(IO_BUFFER, writer);
            let results = if certs.is_some() {
                // Nothing reaches `writer` before a signature is found good: the
                // data waits in an anonymous temporary file (deleted on close).
                opts.v1_stream_unauthenticated = true;
                let mut spool = Spool::new().map_err(Fail::Io)?;
                let results = decrypt_into(input, &mut spool, &pw, &opts, certs.as_deref())?;
                spool.release(&mut out).map_err(|e| match e {
                    CopyError::Read(e) | CopyError::Spool(e) => Fail::Io(e),
                    CopyError::Write(e) => from_io(e),
                })?;
                results
            } else {
                decrypt_into(input, &mut out, &pw, &opts, None)?
            };
            out.flush().map_err(from_io)?;
            Ok(Decrypted::new(results))
        })
    }
}
