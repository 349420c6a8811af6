//! SOP's key subcommands (`generate-key`, `extract-cert`,
//! `change-key-password`) and how every subcommand loads KEYS and CERTS.

use std::io::{self, BufReader, Write};

use tessera::openpgp::armor::ArmorWriter;
use tessera::openpgp::key::{Cert, GenerateOptions, KeyProfile, KeyVersion, generate};
use tessera::openpgp::sig::SigningKey;
use tessera_cli::signing::{now, unlock_with_any};
use zeroize::Zeroizing;

use super::{
    BAD_DATA, Fail, KEY_CANNOT_SIGN, KEY_IS_PROTECTED, MISSING_ARG, Opts, R, fail, given_passwords, io_fail,
    new_password, parse, pgp_fail, profile_name, read_indirect, refs,
};

/// The profiles of `generate-key`, the default first.
pub const PROFILES: [(&str, &str); 5] = [
    ("rfc9580", "v6 key: Ed25519 primary key (certify, sign), X25519 encryption subkey; the default"),
    ("rfc4880", "v4 key for GnuPG 2.2 and older peers: EdDSALegacy primary key, ECDH Curve25519Legacy subkey"),
    ("rfc9980", "post-quantum v6 key: ML-DSA-65+Ed25519 primary key, ML-KEM-768+X25519 encryption subkey"),
    ("rfc9980-high", "post-quantum v6 key: ML-DSA-87+Ed448 primary key, ML-KEM-1024+X448 encryption subkey"),
    ("rfc9980-v4", "v4 key: Ed25519 primary key, post-quantum ML-KEM-768+X25519 encryption subkey"),
];

/// Every key or certificate in `raw` (binary or armored); none is 41.
pub fn read_all(what: &str, raw: &[u8]) -> R<Vec<Cert>> {
    let certs = Cert::read_all(raw).map_err(|e| Fail(BAD_DATA, format!("{what}: {e}")))?;
    if certs.is_empty() {
        return fail(BAD_DATA, format!("{what}: no key or certificate"));
    }
    Ok(certs)
}

/// The certificates in the CERTS argument `spec` (secret parts dropped).
pub fn certs_from(spec: &str) -> R<Vec<Cert>> {
    let raw = read_indirect("certificate", spec)?;
    Ok(read_all(spec, &raw)?.iter().map(Cert::to_public).collect())
}

/// The certificates of every CERTS argument (at least one).
pub fn all_certs(specs: &[String]) -> R<Vec<Cert>> {
    if specs.is_empty() {
        return fail(MISSING_ARG, "give at least one certificate");
    }
    let mut certs = Vec::new();
    for s in specs {
        certs.extend(certs_from(s)?);
    }
    Ok(certs)
}

/// Reads all of stdin.
pub fn stdin_bytes() -> R<Zeroizing<Vec<u8>>> {
    let mut raw = Zeroizing::new(Vec::new());
    io::copy(&mut BufReader::new(io::stdin().lock()), &mut *raw).map_err(io_fail)?;
    Ok(raw)
}

/// Secret keys only: a certificate among them is 41.
pub fn secret_only(what: &str, keys: Vec<Cert>) -> R<Vec<Cert>> {
    if let Some(c) = keys.iter().find(|k| !k.is_secret()) {
        return fail(BAD_DATA, format!("{what} holds the certificate {}, not a secret key", c.fingerprint()));
    }
    Ok(keys)
}

/// The secret keys of the KEYS arguments `specs`, as stored (perhaps locked).
pub fn read_secret_keys(specs: &[String]) -> R<Vec<Cert>> {
    let mut keys = Vec::new();
    for spec in specs {
        let raw = read_indirect("key", spec)?;
        keys.extend(secret_only(spec, read_all(spec, &raw)?)?);
    }
    Ok(keys)
}

/// Unlocks `key` with one of `passwords` where locked (67 when none opens it).
pub fn unlock(key: &mut Cert, passwords: &[&[u8]]) -> R<()> {
    unlock_with_any(key, passwords).map_err(|e| Fail(KEY_IS_PROTECTED, e.to_string()))
}

/// The secret keys of the KEYS arguments `specs`, each unlocked with one
/// of `passwords` where locked (67 when none opens it).
pub fn secret_keys(specs: &[String], passwords: &[&[u8]]) -> R<Vec<Cert>> {
    let mut keys = read_secret_keys(specs)?;
    for k in &mut keys {
        unlock(k, passwords)?;
    }
    Ok(keys)
}

/// The signing keys of `keys` (79 when one has none that can sign now),
/// their hash chosen by the library for a message to `recipients` (none
/// when only signing).
pub fn signing_keys<'a>(keys: &'a [Cert], recipients: &[Cert]) -> R<Vec<SigningKey<'a>>> {
    let mut out = Vec::new();
    for k in keys {
        out.extend(
            SigningKey::for_message(k, now(), recipients, None)
                .map_err(|e| Fail(KEY_CANNOT_SIGN, format!("{}: {e}", k.fingerprint())))?,
        );
    }
    Ok(out)
}

/// `--with-key-password` values.
pub fn key_passwords(o: &Opts) -> R<Vec<Zeroizing<Vec<u8>>>> {
    given_passwords(o, "with-key-password")
}

/// Writes `keys` to stdout, armored (one block) or binary.
pub fn write_keys(keys: &[Cert], armor: bool) -> R<()> {
    let mut bytes = Zeroizing::new(Vec::new());
    for k in keys {
        bytes.extend_from_slice(&Zeroizing::new(k.to_bytes().map_err(pgp_fail)?));
    }
    let mut out = io::stdout().lock();
    if armor {
        let kind = if keys.iter().any(Cert::is_secret) { "PRIVATE KEY BLOCK" } else { "PUBLIC KEY BLOCK" };
        let v4 = keys.iter().any(|k| k.version() == KeyVersion::V4);
        let mut w = ArmorWriter::new(&mut out, kind, v4).map_err(io_fail)?;
        w.write_all(&bytes).map_err(io_fail)?;
        w.finish().map_err(io_fail)?;
    } else {
        out.write_all(&bytes).map_err(io_fail)?;
    }
    out.flush().map_err(io_fail)
}

/// `sop generate-key [--profile] [--with-key-password] [--signing-only] USERID...`.
pub fn generate_key(rest: &[String]) -> R<()> {
    let o = parse(rest, &["profile", "with-key-password"], &["no-armor", "signing-only"])?;
    let profile: KeyProfile = profile_name(&o, &PROFILES)?.parse().map_err(pgp_fail)?;
    if profile.is_v4() && o.positional.is_empty() {
        return fail(MISSING_ARG, format!("the {} profile needs a User ID", profile.name()));
    }
    let password = o.value("with-key-password").map(|s| new_password("--with-key-password", s)).transpose()?;
    let opts = GenerateOptions { profile, user_ids: o.positional.clone(), ..GenerateOptions::default() };
    let mut key = generate(&opts).map_err(|e| Fail(1, format!("key generation failed: {e}")))?;
    if o.has("signing-only") {
        // The primary key certifies and signs; the subkey only encrypts.
        key.subkeys.clear();
    }
    if let Some(pw) = password {
        key.lock(&pw).map_err(pgp_fail)?;
    }
    write_keys(&[key], !o.has("no-armor"))
}

/// `sop extract-cert < KEYS > CERTS`.
pub fn extract_cert(rest: &[String]) -> R<()> {
    let o = parse(rest, &[], &["no-armor"])?;
    let keys = secret_only("the input", read_all("the input", &stdin_bytes()?)?)?;
    let certs: Vec<Cert> = keys.iter().map(Cert::to_public).collect();
    write_keys(&certs, !o.has("no-armor"))
}

/// `sop change-key-password [--old-key-password...] [--new-key-password] < KEYS > KEYS`:
/// without a new password the keys come out unlocked.
pub fn change_key_password(rest: &[String]) -> R<()> {
    let o = parse(rest, &["old-key-password", "new-key-password"], &["no-armor"])?;
    let old = given_passwords(&o, "old-key-password")?;
    let new = o.value("new-key-password").map(|s| new_password("--new-key-password", s)).transpose()?;
    let mut keys = secret_only("the input", read_all("the input", &stdin_bytes()?)?)?;
    for k in &mut keys {
        unlock(k, &refs(&old))?;
        if let Some(pw) = &new {
            k.lock(pw).map_err(pgp_fail)?;
        }
    }
    write_keys(&keys, !o.has("no-armor"))
}
