//! Signing keys and signer certificates as both binaries load them, and
//! the one-line description of a verification result.

use std::path::Path;

use anyhow::{Context, Result, bail};
use tessera::openpgp::key::Cert;
use tessera::openpgp::s2k::S2kLimits;
use tessera::openpgp::sig::{Outcome, SigResult};

use crate::io::open_input;

/// Seconds since the epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// Reads every certificate or key in `path` (binary or armored).
pub fn read_certs(path: &Path) -> Result<Vec<Cert>> {
    let input = open_input(Some(path))?;
    Cert::read_all(input).with_context(|| format!("cannot read keys from {}", path.display()))
}

/// The secret keys in `path`, unlocked with `password` where locked.
pub fn read_secret_keys(path: &Path, password: Option<&[u8]>) -> Result<Vec<Cert>> {
    let mut keys = read_certs(path)?;
    keys.retain(Cert::is_secret);
    if keys.is_empty() {
        bail!("{} holds no secret key (it is a certificate?)", path.display());
    }
    for k in &mut keys {
        let locked = k.keys().any(|c| c.secret().is_some_and(|s| s.is_locked()));
        match (locked, password) {
            (false, _) => {}
            (true, None) => bail!("the key {} is locked; give --key-password-file", k.fingerprint()),
            (true, Some(pw)) => k
                .unlock(pw, &S2kLimits::default())
                .with_context(|| format!("cannot unlock the key {}", k.fingerprint()))?,
        }
    }
    Ok(keys)
}

/// One line about a verification result.
pub fn describe(r: &SigResult) -> String {
    let when = r.signature.as_ref().and_then(|s| s.created()).map(|t| format!(" made at {t}")).unwrap_or_default();
    match &r.outcome {
        Outcome::Good { cert, key, user_id } => {
            let uid = user_id.as_deref().map(|u| format!(" ({u})")).unwrap_or_default();
            format!("good signature by {cert}{uid} with key {key}{when}")
        }
        Outcome::Bad(why) => format!("bad signature{when}: {why}"),
        Outcome::UnknownSigner => format!("signature{when} by a key none of the given certificates holds"),
        Outcome::KeyNotValid { cert, why } => format!("signature{when} by {cert} does not count: {why}"),
        Outcome::WeakHash(h) => format!("signature{when} refused: its hash {h:?} is too weak"),
    }
}
