//! `tessera key revoke|merge|update|certify|validate`: managing OpenPGP
//! certificates, and the emergency revocation certificate `key generate`
//! writes beside a new key. The library does the work; this reads the
//! arguments and writes the results.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use tessera::openpgp::key::{
    Cert, CertifyOptions, ExpiryChange, RevocationReason, UpdateOptions, UserIdQuery, merge_certs,
};
use tessera_cli::io::{Output, PasswordArgs, file_path};
use tessera_cli::signing::{is_locked, now, now32, read_all_certs, read_certs, read_secret_keys};

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasonArg {
    /// No reason given (hard: also voids what the key signed before).
    Unspecified,
    /// The secret key may be known to others (hard).
    Compromised,
    /// Replaced by another key (soft: what it signed before stays good).
    Superseded,
    /// No longer used (soft).
    Retired,
}

#[derive(Args, Debug)]
pub struct RevokeArgs {
    /// The secret key file.
    #[arg(short = 'i', long = "key", value_name = "KEY")]
    pub key: PathBuf,
    /// File holding the key's password, if it is locked.
    #[arg(long, value_name = "FILE")]
    pub key_password_file: Option<PathBuf>,
    /// Why the key is revoked.
    #[arg(long, value_enum, default_value = "unspecified")]
    pub reason: ReasonArg,
    /// A human-readable explanation.
    #[arg(long, default_value = "")]
    pub message: String,
    /// Write the revocation certificate (the certificate, revoked) here; stdout by default.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The certificate (or key) to merge into.
    pub base: PathBuf,
    /// Copies of it with more signatures or components (revocations, certifications, ...).
    #[arg(required = true)]
    pub updates: Vec<PathBuf>,
    /// Write the merged certificate here; stdout by default.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct UpdateArgs {
    /// The secret key file.
    #[arg(short = 'i', long = "key", value_name = "KEY")]
    pub key: PathBuf,
    /// File holding the key's password, if it is locked (the updated key is locked with it again).
    #[arg(long, value_name = "FILE")]
    pub key_password_file: Option<PathBuf>,
    /// Expire this many days from now (the key and its subkeys).
    #[arg(long, value_name = "DAYS", conflicts_with = "no_expiry")]
    pub expires: Option<u32>,
    /// Never expire.
    #[arg(long)]
    pub no_expiry: bool,
    /// The key only signs: add no encryption subkey.
    #[arg(long)]
    pub signing_only: bool,
    /// Add no capability the key lacks (no encryption subkey, no new features).
    #[arg(long)]
    pub no_added_capabilities: bool,
    /// Write the updated key here; stdout by default.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CertifyArgs {
    /// The certifying secret key.
    #[arg(short = 'i', long = "key", value_name = "KEY")]
    pub key: PathBuf,
    /// File holding the key's password, if it is locked.
    #[arg(long, value_name = "FILE")]
    pub key_password_file: Option<PathBuf>,
    /// A User ID of the certificate to certify (repeat for more).
    #[arg(long = "userid", required = true)]
    pub userids: Vec<String>,
    /// Also certify User IDs the certificate does not carry (they are added).
    #[arg(long)]
    pub no_require_self_sig: bool,
    /// The certificate to certify.
    pub cert: PathBuf,
    /// Write the certified certificate here; stdout by default.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// The User ID that must be bound.
    #[arg(long, required_unless_present = "email", conflicts_with = "email")]
    pub userid: Option<String>,
    /// Or: an e-mail address one of its User IDs must hold.
    #[arg(long)]
    pub email: Option<String>,
    /// A certificate whose certification counts (repeat for more; the certificate itself counts for its self-signatures).
    #[arg(long = "authority", required = true, value_name = "CERT")]
    pub authorities: Vec<PathBuf>,
    /// Judge at this time (Unix seconds); now by default.
    #[arg(long, value_name = "SECONDS")]
    pub at: Option<u64>,
    /// The certificates to check.
    #[arg(required = true)]
    pub certs: Vec<PathBuf>,
}

/// A password read from a file, if one was given.
type Password = Option<zeroize::Zeroizing<Vec<u8>>>;

/// The secret keys of `path`, unlocked with the password in `password_file`.
fn keys(path: &Path, password_file: &Option<PathBuf>) -> Result<(Vec<Cert>, Password)> {
    let pw = PasswordArgs::read_optional_file(password_file.as_deref())?;
    let keys = read_secret_keys(path, pw.as_deref().map(|p| p.as_slice()), "--key-password-file")?;
    Ok((keys, pw))
}

/// Writes `certs` armored to `output` (created only on success).
fn write_all(certs: &[Cert], output: Option<&Path>) -> Result<()> {
    let mut out = Output::create(output)?;
    for c in certs {
        c.write_armored(&mut out).context("cannot write the certificate")?;
    }
    out.commit()
}

pub fn revoke(a: &RevokeArgs) -> Result<()> {
    let reason = match a.reason {
        ReasonArg::Unspecified => RevocationReason::Unspecified,
        ReasonArg::Compromised => RevocationReason::Compromised,
        ReasonArg::Superseded => RevocationReason::Superseded,
        ReasonArg::Retired => RevocationReason::Retired,
    };
    let (keys, _) = keys(&a.key, &a.key_password_file)?;
    let mut out = Vec::new();
    for k in &keys {
        out.push(k.revoke(reason, &a.message, now32()).with_context(|| format!("cannot revoke {}", k.fingerprint()))?);
    }
    write_all(&out, a.output.as_deref())
}

pub fn merge(a: &MergeArgs) -> Result<()> {
    let base = read_certs(&a.base)?;
    // Secret key material comes only from the base file: an update that
    // holds some does not turn a public certificate into a secret key file.
    let updates: Vec<_> = read_all_certs(&a.updates)?.iter().map(|c| c.to_public()).collect();
    if let Some(u) = updates.iter().find(|u| !base.iter().any(|b| b.fingerprint() == u.fingerprint())) {
        bail!("{} is not in {}: only copies of the same certificate merge", u.fingerprint(), a.base.display());
    }
    write_all(&merge_certs(&base, &updates)?, a.output.as_deref())
}

pub fn update(a: &UpdateArgs) -> Result<()> {
    let expiry = match (a.expires, a.no_expiry) {
        (Some(d), _) => ExpiryChange::After(d.checked_mul(86_400).context("--expires is too large")?),
        (None, true) => ExpiryChange::Never,
        (None, false) => ExpiryChange::Keep,
    };
    let opts =
        UpdateOptions { at: now32(), signing_only: a.signing_only, add_capabilities: !a.no_added_capabilities, expiry };
    let was_locked = read_certs(&a.key)?.iter().any(is_locked);
    let (keys, pw) = keys(&a.key, &a.key_password_file)?;
    let mut out = Vec::new();
    for k in &keys {
        let mut updated = k.update(&opts).with_context(|| format!("cannot update {}", k.fingerprint()))?;
        if let Some(pw) = pw.as_deref().filter(|_| was_locked) {
            updated.lock(pw).context("cannot lock the updated key")?;
        }
        out.push(updated);
    }
    write_all(&out, a.output.as_deref())
}

pub fn certify(a: &CertifyArgs) -> Result<()> {
    let (keys, _) = keys(&a.key, &a.key_password_file)?;
    let opts = CertifyOptions {
        user_ids: a.userids.clone(),
        require_self_sig: !a.no_require_self_sig,
        at: now32(),
        ..Default::default()
    };
    let mut out = Vec::new();
    for mut cert in read_certs(&a.cert)?.iter().map(Cert::to_public) {
        for k in &keys {
            cert = k.certify(&cert, &opts)?;
        }
        out.push(cert);
    }
    write_all(&out, a.output.as_deref())
}

pub fn validate(a: &ValidateArgs) -> Result<()> {
    let (query, what) = match (&a.userid, &a.email) {
        (Some(u), _) => (UserIdQuery::Exact(u), format!("the User ID {u:?}")),
        (None, Some(e)) => (UserIdQuery::Email(e), format!("a User ID with the address {e}")),
        (None, None) => bail!("give --userid or --email"),
    };
    let authorities = read_all_certs(&a.authorities)?;
    let at = a.at.unwrap_or_else(now);
    for c in read_all_certs(&a.certs)? {
        c.validate_user_id(&query, &authorities, at)?;
        println!("{}: {what} is bound", c.fingerprint());
    }
    Ok(())
}

/// The emergency revocation certificate of a new key, to be written as
/// `F.rev` beside the key file `F` once the key is.
pub struct PendingRevocation {
    out: Output,
    cert: Cert,
}

/// Prepares `F.rev` for the (unlocked) new key written to `key_output`
/// (nothing for stdout). `F.rev` must not exist; it is created only by
/// [`PendingRevocation::commit`].
pub fn emergency_revocation(key: &Cert, key_output: Option<&Path>) -> Result<Option<PendingRevocation>> {
    let Some(path) = file_path(key_output) else { return Ok(None) };
    let mut name = path.as_os_str().to_owned();
    name.push(".rev");
    let rev_path = PathBuf::from(name);
    if std::fs::symlink_metadata(&rev_path).is_ok() {
        bail!("{} exists; it is never replaced", rev_path.display());
    }
    let message = "emergency revocation certificate made with the key";
    let cert = key.revoke(RevocationReason::Unspecified, message, now32()).context("cannot make the revocation")?;
    Ok(Some(PendingRevocation { out: Output::create(Some(&rev_path))?, cert }))
}

impl PendingRevocation {
    /// Writes the revocation certificate into place.
    pub fn commit(mut self) -> Result<()> {
        self.cert.write_armored(&mut self.out).context("cannot write the revocation certificate")?;
        self.out.commit_new()
    }
}
