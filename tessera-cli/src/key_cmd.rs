//! `tessera key generate|cert|show` (and the certificate management of
//! `key_manage.rs`): OpenPGP keys and certificates.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use tessera::openpgp::key::{GenerateOptions, KeyProfile, ValidKey, flags, generate};

use tessera_cli::io::{Output, PasswordArgs, file_path};
use tessera_cli::signing::{now, read_certs, timestamp};

#[derive(Subcommand, Debug)]
pub enum KeyOp {
    /// Generate a secret key (v6 Ed25519 + X25519 by default).
    Generate(GenerateArgs),
    /// Extract the certificate (public key) from a secret key.
    Cert(CertArgs),
    /// Show fingerprints, algorithms, subkeys, flags and validity.
    Show(ShowArgs),
    /// Write a revocation certificate for a secret key.
    Revoke(crate::key_manage::RevokeArgs),
    /// Merge copies of a certificate (revocations, certifications, new subkeys).
    Merge(crate::key_manage::MergeArgs),
    /// Renew a key's self-signatures and expiry; add an encryption subkey if it has none.
    Update(crate::key_manage::UpdateArgs),
    /// Certify User IDs of another certificate with a secret key.
    Certify(crate::key_manage::CertifyArgs),
    /// Check that certificates bind a User ID, certified by given authorities.
    Validate(crate::key_manage::ValidateArgs),
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileArg {
    /// v6 key: Ed25519 primary, X25519 subkey, SEIPD v2.
    Rfc9580,
    /// v4 key for GnuPG 2.2: EdDSALegacy primary, ECDH Curve25519Legacy subkey.
    Rfc4880,
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// User ID, e.g. "Alice <alice@example.org>" (repeat for more; the first is primary).
    #[arg(long = "userid", required = true)]
    pub userids: Vec<String>,
    /// Key profile.
    #[arg(long, value_enum, default_value = "rfc9580")]
    pub profile: ProfileArg,
    /// Lock the secret key with the password in this file.
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Expire after this many days.
    #[arg(long, value_name = "DAYS")]
    pub expires: Option<u32>,
    /// Write the secret key here (armored; created only on success, and
    /// never replacing an existing file).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CertArgs {
    /// The secret key file (binary or armored).
    pub key: PathBuf,
    /// Write the certificate here (armored).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A key or certificate file (binary or armored, several keys allowed).
    pub file: PathBuf,
}

pub fn run(op: &KeyOp) -> Result<()> {
    match op {
        KeyOp::Generate(a) => generate_cmd(a),
        KeyOp::Cert(a) => cert_cmd(a),
        KeyOp::Show(a) => show_cmd(a),
        KeyOp::Revoke(a) => crate::key_manage::revoke(a),
        KeyOp::Merge(a) => crate::key_manage::merge(a),
        KeyOp::Update(a) => crate::key_manage::update(a),
        KeyOp::Certify(a) => crate::key_manage::certify(a),
        KeyOp::Validate(a) => crate::key_manage::validate(a),
    }
}

fn generate_cmd(a: &GenerateArgs) -> Result<()> {
    if let Some(p) = file_path(a.output.as_deref())
        && std::fs::symlink_metadata(p).is_ok()
    {
        bail!("{} exists; it is never replaced", p.display());
    }
    let profile = match a.profile {
        ProfileArg::Rfc9580 => KeyProfile::Rfc9580,
        ProfileArg::Rfc4880 => KeyProfile::Rfc4880,
    };
    let expires_in = match a.expires {
        Some(d) => Some(d.checked_mul(86_400).context("--expires is too large")?),
        None => None,
    };
    let password = match &a.password_file {
        Some(p) => Some(PasswordArgs { password_file: Some(p.clone()), password_env: None }.read()?),
        None => None,
    };
    let opts = GenerateOptions { profile, user_ids: a.userids.clone(), expires_in, created: None };
    let mut key = generate(&opts).context("key generation failed")?;
    let revocation = crate::key_manage::emergency_revocation(&key, a.output.as_deref())?;
    if let Some(pw) = password {
        key.lock(&pw).context("cannot lock the key")?;
    }
    let mut out = Output::create(a.output.as_deref())?;
    key.write_armored(&mut out).context("cannot write the key")?;
    out.commit_new()?;
    revocation.map_or(Ok(()), |r| r.commit())
}

fn cert_cmd(a: &CertArgs) -> Result<()> {
    let certs = read_certs(&a.key)?;
    let mut out = Output::create(a.output.as_deref())?;
    for c in &certs {
        c.to_public().write_armored(&mut out).context("cannot write the certificate")?;
    }
    out.commit()
}

fn flag_names(f: u8) -> String {
    let names = [
        (flags::CERTIFY, "certify"),
        (flags::SIGN, "sign"),
        (flags::ENCRYPT_COMMS, "encrypt-comms"),
        (flags::ENCRYPT_STORAGE, "encrypt-storage"),
    ];
    let v: Vec<&str> = names.iter().filter(|(b, _)| f & b != 0).map(|(_, n)| *n).collect();
    if v.is_empty() { "none".into() } else { v.join(",") }
}

fn describe(k: &ValidKey<'_>) -> String {
    let exp = k.expires.map(|e| format!(", expires {}", timestamp(e))).unwrap_or_default();
    format!("flags {}{exp}, valid", flag_names(k.flags))
}

fn key_line(w: &mut impl Write, what: &str, k: &tessera::openpgp::key::CertKey, status: &str) -> std::io::Result<()> {
    let p = k.public();
    let secret = match k.secret() {
        Some(s) if s.is_locked() => " [secret, locked]",
        Some(_) => " [secret]",
        None => "",
    };
    writeln!(
        w,
        "{what} {} v{} {:?} created {}{secret}",
        p.fingerprint(),
        p.version().id(),
        p.alg(),
        timestamp(p.created().into())
    )?;
    writeln!(w, "         {status}")
}

fn show_cmd(a: &ShowArgs) -> Result<()> {
    let certs = read_certs(&a.file)?;
    let now = now();
    let mut w = std::io::stdout().lock();
    for c in &certs {
        match c.validate(now) {
            Ok(v) => {
                key_line(&mut w, "primary", &c.primary, &describe(&v.primary))?;
                if let Some(u) = v.user_id {
                    writeln!(w, "uid      {}", String::from_utf8_lossy(u))?;
                }
                for sk in &c.subkeys {
                    let fp = sk.key.public().fingerprint();
                    let status = match v.subkeys.iter().find(|k| k.public().fingerprint() == fp) {
                        Some(k) => describe(k),
                        None => {
                            let why = v.refused.iter().find(|(f, _)| *f == fp).map(|(_, w)| *w).unwrap_or("invalid");
                            format!("not valid: {why}")
                        }
                    };
                    key_line(&mut w, "subkey ", &sk.key, &status)?;
                }
            }
            Err(e) => {
                key_line(&mut w, "primary", &c.primary, &format!("not valid: {e}"))?;
                for u in &c.user_ids {
                    writeln!(w, "uid      {}", String::from_utf8_lossy(&u.value))?;
                }
                for sk in &c.subkeys {
                    key_line(&mut w, "subkey ", &sk.key, "not valid (certificate not valid)")?;
                }
            }
        }
        writeln!(w)?;
    }
    Ok(())
}
