//! SOP's certificate-management subcommands: `revoke-key`, `merge-certs`,
//! `update-key`, `certify-userid`, `validate-userid`. Each reads its
//! arguments and maps the library's errors to SOP's exit codes; the work is
//! the library's.

use tessera::openpgp::Error as PgpError;
use tessera::openpgp::key::{
    Cert, CertifyOptions, KeyError, RevocationReason, UpdateOptions, UserIdQuery, merge_certs as merge,
};
use tessera_cli::signing::{now, now32};
use zeroize::Zeroizing;

use super::keys::{certs_from, key_passwords, read_all, secret_keys, secret_only, stdin_bytes, unlock, write_keys};
use super::sig::parse_date;
use super::{Fail, KEY_IS_PROTECTED, MISSING_ARG, R, fail, parse, pgp_fail, refs};

/// The primary key of a key to update is revoked, expired or too weak.
const PRIMARY_KEY_BAD: u8 = 103;
/// A certificate does not carry the User ID asked for (bound as asked).
const CERT_USERID_NO_MATCH: u8 = 107;
/// A key cannot make certifications.
const KEY_CANNOT_CERTIFY: u8 = 109;

/// The library's errors with SOP's codes for certificate management.
fn cert_fail(e: PgpError) -> Fail {
    match e {
        PgpError::Key(KeyError::PrimaryKeyBad { .. }) => Fail(PRIMARY_KEY_BAD, e.to_string()),
        PgpError::Key(KeyError::UserIdNotBound { .. }) => Fail(CERT_USERID_NO_MATCH, e.to_string()),
        PgpError::Key(KeyError::CannotCertify { .. }) => Fail(KEY_CANNOT_CERTIFY, e.to_string()),
        e => pgp_fail(e),
    }
}

/// The certificates on stdin (secret parts dropped).
fn stdin_certs() -> R<Vec<Cert>> {
    Ok(read_all("the input", &stdin_bytes()?)?.iter().map(Cert::to_public).collect())
}

/// `sop revoke-key [--no-armor] [--with-key-password=PW...] < KEYS > CERTS`:
/// the certificate of each key with a hard key revocation (no reason
/// given) added.
pub fn revoke_key(rest: &[String]) -> R<()> {
    let o = parse(rest, &["with-key-password"], &["no-armor"])?;
    let passwords = key_passwords(&o)?;
    let mut keys = secret_only("the input", read_all("the input", &stdin_bytes()?)?)?;
    let mut out = Vec::new();
    for k in &mut keys {
        unlock(k, &refs(&passwords))?;
        out.push(k.revoke(RevocationReason::Unspecified, "", now32()).map_err(cert_fail)?);
    }
    write_keys(&out, !o.has("no-armor"))
}

/// `sop merge-certs [--no-armor] CERTS... < CERTS > CERTS`: each
/// certificate on stdin with what the CERTS arguments hold of it merged
/// in; certificates only in the arguments are left out.
pub fn merge_certs(rest: &[String]) -> R<()> {
    let o = parse(rest, &[], &["no-armor"])?;
    let base = stdin_certs()?;
    let mut updates = Vec::new();
    for spec in &o.positional {
        updates.extend(certs_from(spec)?);
    }
    write_keys(&merge(&base, &updates).map_err(cert_fail)?, !o.has("no-armor"))
}

/// Unlocks `key` with one of `passwords` where locked; the password that
/// did, if one was needed (67 when none does).
fn unlock_remembering<'p>(key: &mut Cert, passwords: &[&'p [u8]]) -> R<Option<&'p [u8]>> {
    if key.keys().all(|k| k.secret().is_none_or(|s| !s.is_locked())) {
        return Ok(None);
    }
    for &pw in passwords {
        if unlock(key, &[pw]).is_ok() {
            return Ok(Some(pw));
        }
    }
    fail(KEY_IS_PROTECTED, format!("the key {} is locked: give its password", key.fingerprint()))
}

/// `sop update-key [--no-armor] [--signing-only] [--no-added-capabilities]
/// [--with-key-password=PW...] [--merge-certs=CERTS...] < KEYS > KEYS`:
/// each key with stale self-signatures made again (see the library's
/// `Cert::update`), locked again with the password that opened it; a key
/// with nothing to update comes out as it came in.
pub fn update_key(rest: &[String]) -> R<()> {
    let o = parse(rest, &["with-key-password", "merge-certs"], &["no-armor", "signing-only", "no-added-capabilities"])?;
    let passwords = key_passwords(&o)?;
    let mut extra = Vec::new();
    for spec in o.values("merge-certs") {
        extra.extend(certs_from(spec)?);
    }
    let opts = UpdateOptions {
        at: now32(),
        signing_only: o.has("signing-only"),
        add_capabilities: !o.has("no-added-capabilities"),
        ..UpdateOptions::default()
    };
    let keys = secret_only("the input", read_all("the input", &stdin_bytes()?)?)?;
    let mut out = Vec::new();
    for stored in keys {
        let mut key = stored.clone();
        let password = unlock_remembering(&mut key, &refs(&passwords))?;
        let fp = key.fingerprint();
        for c in extra.iter().filter(|c| c.fingerprint() == fp) {
            key = key.merge(c).map_err(cert_fail)?;
        }
        let mut updated = key.update(&opts).map_err(cert_fail)?;
        let same =
            Zeroizing::new(updated.to_bytes().map_err(pgp_fail)?) == Zeroizing::new(key.to_bytes().map_err(pgp_fail)?);
        if same {
            out.push(stored);
            continue;
        }
        if let Some(pw) = password {
            updated.lock(pw).map_err(pgp_fail)?;
        }
        out.push(updated);
    }
    write_keys(&out, !o.has("no-armor"))
}

/// `sop certify-userid [--no-armor] --userid=USERID... [--with-key-password=PW...]
/// [--no-require-self-sig] KEYS... < CERTS > CERTS`: each certificate with
/// a certification by every key on each User ID (107 when a certificate
/// does not bind one, 109 when a key cannot certify).
pub fn certify_userid(rest: &[String]) -> R<()> {
    let o = parse(rest, &["userid", "with-key-password"], &["no-armor", "no-require-self-sig"])?;
    let user_ids: Vec<String> = o.values("userid").into_iter().map(String::from).collect();
    if user_ids.is_empty() {
        return fail(MISSING_ARG, "give at least one --userid");
    }
    if o.positional.is_empty() {
        return fail(MISSING_ARG, "give at least one key");
    }
    let passwords = key_passwords(&o)?;
    let keys = secret_keys(&o.positional, &refs(&passwords))?;
    let opts =
        CertifyOptions { user_ids, require_self_sig: !o.has("no-require-self-sig"), at: now32(), ..Default::default() };
    let mut out = Vec::new();
    for mut cert in stdin_certs()? {
        for k in &keys {
            cert = k.certify(&cert, &opts).map_err(cert_fail)?;
        }
        out.push(cert);
    }
    write_keys(&out, !o.has("no-armor"))
}

/// `sop validate-userid [--addr-spec-only] [--validate-at=DATE] USERID CERTS... < CERTS`:
/// exit 0 when every certificate on stdin binds USERID by one of the
/// authority CERTS, else 107.
pub fn validate_userid(rest: &[String]) -> R<()> {
    let o = parse(rest, &["validate-at"], &["addr-spec-only"])?;
    let Some((user_id, authority_specs)) = o.positional.split_first() else {
        return fail(MISSING_ARG, "give the User ID and at least one authority certificate");
    };
    if authority_specs.is_empty() {
        return fail(MISSING_ARG, "give at least one authority certificate");
    }
    let at = parse_date(o.value("validate-at").unwrap_or("now"), now())?;
    let mut authorities = Vec::new();
    for spec in authority_specs {
        authorities.extend(certs_from(spec)?);
    }
    let query = if o.has("addr-spec-only") { UserIdQuery::Email(user_id) } else { UserIdQuery::Exact(user_id) };
    for cert in stdin_certs()? {
        cert.validate_user_id(&query, &authorities, at).map_err(cert_fail)?;
    }
    Ok(())
}
