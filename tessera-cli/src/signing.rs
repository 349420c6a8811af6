//! Signing keys and signer certificates as both binaries load them, and
//! the one-line description of a verification result.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tessera::openpgp::key::{Cert, KEY_UNLOCK_LIMITS, KeyError};
use tessera::openpgp::sig::{Outcome, SigResult};

use crate::io::{file_path, open_input, prompt};

/// Seconds since the epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// Seconds since the epoch, as signatures store them (32 bits).
pub fn now32() -> u32 {
    now().min(u64::from(u32::MAX)) as u32
}

/// `YYYY-MM-DD` (UTC) of a Unix time.
pub fn date(t: u64) -> String {
    let days = (t / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DDTHH:MM:SSZ`: a Unix time as ISO 8601 in UTC, the form every
/// time a person reads is printed in.
///
/// ```
/// use tessera_cli::signing::timestamp;
/// assert_eq!(timestamp(0), "1970-01-01T00:00:00Z");
/// assert_eq!(timestamp(1_796_530_689), "2026-12-06T04:18:09Z");
/// assert_eq!(timestamp(951_782_400), "2000-02-29T00:00:00Z");
/// ```
pub fn timestamp(t: u64) -> String {
    let s = t % 86_400;
    format!("{}T{:02}:{:02}:{:02}Z", date(t), s / 3600, s / 60 % 60, s % 60)
}

/// Reads every certificate or key in `path` (binary or armored). A path
/// that names no file is said to be one: keys and certificates are files,
/// never looked up by user ID or address.
pub fn read_certs(path: &Path) -> Result<Vec<Cert>> {
    if let Some(p) = file_path(Some(path))
        && std::fs::metadata(p).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    {
        bail!(
            "no such key or certificate file: {}; keys and certificates are given as files \
             (a user ID or an address is not looked up)",
            p.display()
        );
    }
    let input = open_input(Some(path))?;
    Cert::read_all(input).with_context(|| format!("cannot read keys from {}", path.display()))
}

/// Reads every certificate or key in each of `paths`, in order (secret
/// keys and certificates alike: decryption takes a mix).
pub fn read_all_certs(paths: &[PathBuf]) -> Result<Vec<Cert>> {
    let mut out = Vec::new();
    for p in paths {
        out.extend(read_certs(p)?);
    }
    Ok(out)
}

/// The secret keys in `path`, unlocked with `password` where locked, else
/// with one typed on a terminal (without a terminal, the error names
/// `password_flag`, the option that gives it).
pub fn read_secret_keys(path: &Path, password: Option<&[u8]>, password_flag: &str) -> Result<Vec<Cert>> {
    let mut keys = read_certs(path)?;
    keys.retain(Cert::is_secret);
    if keys.is_empty() {
        bail!(no_secret_key(path));
    }
    prompt::warn_if_open(path, "secret key file");
    for k in &mut keys {
        if !is_locked(k) {
            continue;
        }
        let typed;
        let pw = match password {
            Some(pw) => pw,
            None => {
                typed = prompt::ask(&format!("the password of the key {}", k.fingerprint()), password_flag)?;
                &typed[..]
            }
        };
        unlock_with_any(k, &[pw]).with_context(|| format!("cannot unlock the key {}", k.fingerprint()))?;
    }
    Ok(keys)
}

/// Reads every key in each of `paths` for decryption: each file must hold
/// a secret key (certificates beside it are kept, as in a keyring).
pub fn read_decryption_keys(paths: &[PathBuf]) -> Result<Vec<Cert>> {
    let mut out = Vec::new();
    for p in paths {
        let keys = read_certs(p)?;
        if !keys.iter().any(Cert::is_secret) {
            bail!(no_secret_key(p));
        }
        prompt::warn_if_open(p, "secret key file");
        out.extend(keys);
    }
    Ok(out)
}

/// The error for a file that holds certificates where a secret key is needed.
fn no_secret_key(path: &Path) -> String {
    format!(
        "{} holds no secret key, only certificates (public keys); give the secret key file \
         (as `tessera key generate` writes it)",
        path.display()
    )
}

/// Whether any secret part of `key` is locked.
pub fn is_locked(key: &Cert) -> bool {
    key.keys().any(|c| c.secret().is_some_and(|s| s.is_locked()))
}

/// Unlocks every locked secret part of `key` with the first of `passwords`
/// that opens them all; when none does, `key` is left as it was and the
/// error is the last password's (or [`KeyError::Locked`] without any).
pub fn unlock_with_any(key: &mut Cert, passwords: &[&[u8]]) -> tessera::openpgp::Result<()> {
    if !is_locked(key) {
        return Ok(());
    }
    let mut last = tessera::openpgp::Error::from(KeyError::Locked(key.fingerprint()));
    for pw in passwords {
        let mut candidate = key.clone();
        match candidate.unlock(pw, &KEY_UNLOCK_LIMITS) {
            Ok(()) => {
                *key = candidate;
                return Ok(());
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Succeeds if one of `results` is good; else the one error every command
/// gives (`verify`, `decrypt --verify-with`).
pub fn require_good(results: &[SigResult]) -> Result<()> {
    if results.is_empty() {
        bail!("no signature found: the data is not signed");
    }
    if !results.iter().any(SigResult::is_good) {
        bail!("no good signature from the given signers");
    }
    Ok(())
}

/// One line about a verification result.
pub fn describe(r: &SigResult) -> String {
    let when = r
        .signature
        .as_ref()
        .and_then(|s| s.created())
        .map(|t| format!(" made at {}", timestamp(t.into())))
        .unwrap_or_default();
    match &r.outcome {
        Outcome::Good { cert, key, user_id } => {
            let uid = user_id.as_deref().map(|u| format!(" ({u})")).unwrap_or_default();
            format!("good signature by {cert}{uid} with key {key}{when}")
        }
        Outcome::Bad(why) => format!("bad signature{when}: {why}"),
        Outcome::UnknownSigner => format!("signature{when} by a key none of the given certificates holds"),
        Outcome::KeyNotValid { cert, why } => format!("signature{when} by {cert} does not count: {why}"),
        Outcome::WeakHash(h) => format!("signature{when} refused: its hash {h:?} is too weak"),
        Outcome::Unchecked(why) => format!("signature{when} not checked: {why}"),
    }
}
