//! `tessera key generate|cert|show` (and the certificate management of
//! `key_manage.rs`): OpenPGP keys and certificates.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use tessera::openpgp::key::{Cert, GenerateOptions, KeyLifetime, KeyProfile, ValidKey, flags, generate};
use zeroize::Zeroizing;

use tessera_cli::io::{Output, PasswordArgs, file_path, prompt};
use tessera_cli::signing::{now, read_certs, timestamp};

#[derive(Subcommand, Debug)]
pub enum KeyOp {
    /// Generate a secret key (v4 for GnuPG 2.2 and everyone by default; v6 with --profile rfc9580).
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
    /// v4 key (EdDSALegacy primary, ECDH Curve25519Legacy subkey): read by GnuPG 2.2 and every
    /// RFC 9580 implementation; it announces SEIPD v2, so tessera and Sequoia encrypt to it with AEAD.
    Rfc4880,
    /// v6 key (Ed25519 primary, X25519 subkey): read by RFC 9580 implementations (Sequoia,
    /// OpenPGP.js 6, GopenPGP 3), not by GnuPG ("unknown version 6").
    Rfc9580,
    /// Post-quantum v6 key (RFC 9980: ML-DSA-65+Ed25519 primary, ML-KEM-768+X25519 subkey), as
    /// Sequoia's and rPGP's rfc9980 profiles make; read by RFC 9980 implementations only.
    Rfc9980,
    /// Post-quantum v6 key at the higher level (ML-DSA-87+Ed448, ML-KEM-1024+X448).
    #[value(name = "rfc9980-high")]
    Rfc9980High,
    /// v4 key with a post-quantum encryption subkey (Ed25519 primary, ML-KEM-768+X25519 subkey),
    /// as rPGP's rfc9980-v4 profile makes; its signatures are not post-quantum.
    #[value(name = "rfc9980-v4")]
    Rfc9980V4,
}

/// Generate a secret key: a User ID, a signing primary key and an encryption subkey, valid for
/// three years unless --expires says otherwise, locked with a password (asked for on a terminal)
/// unless --no-password.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// User ID, e.g. "Alice <alice@example.org>" (repeat for more; the first is primary).
    #[arg(long = "userid", required = true)]
    pub userids: Vec<String>,
    /// Key profile: rfc4880 for GnuPG 2.2 and everyone (as Sequoia's `sq key generate`),
    /// rfc9580 for a v6 key, rfc9980 for a post-quantum one.
    #[arg(long, value_enum, default_value = "rfc4880")]
    pub profile: ProfileArg,
    /// Lock the secret key with the password in this file (without it, asked for on a terminal).
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Leave the secret key unprotected (anyone who reads the file can use it).
    #[arg(long, conflicts_with = "password_file")]
    pub no_password: bool,
    /// Expire after this many days, or never.
    #[arg(long, value_name = "DAYS|never", default_value = "1095",
          value_parser = |s: &str| s.parse::<KeyLifetime>())]
    pub expires: KeyLifetime,
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
    let password = new_key_password(a)?;
    let mut key = generate(&generate_options(a)).context("key generation failed")?;
    // Beside an -o key file: F.rev, an emergency revocation certificate.
    let revocation = crate::key_manage::emergency_revocation(&key, a.output.as_deref())?;
    if let Some(pw) = password {
        key.lock(&pw).context("cannot lock the key")?;
    }
    write_key(&key, a)?;
    revocation.map_or(Ok(()), |r| r.commit())
}

/// What the flags ask of the library's key generation.
fn generate_options(a: &GenerateArgs) -> GenerateOptions {
    let profile = match a.profile {
        ProfileArg::Rfc9580 => KeyProfile::Rfc9580,
        ProfileArg::Rfc4880 => KeyProfile::Rfc4880,
        ProfileArg::Rfc9980 => KeyProfile::Rfc9980,
        ProfileArg::Rfc9980High => KeyProfile::Rfc9980High,
        ProfileArg::Rfc9980V4 => KeyProfile::Rfc9980V4,
    };
    GenerateOptions { profile, user_ids: a.userids.clone(), expires_in: a.expires.seconds(), created: None }
}

/// The password that locks the new key: from --password-file, typed twice
/// on a terminal, or none when --no-password asks for an unprotected key.
fn new_key_password(a: &GenerateArgs) -> Result<Option<Zeroizing<Vec<u8>>>> {
    if a.no_password {
        return Ok(None);
    }
    match &a.password_file {
        Some(p) => Ok(Some(PasswordArgs::read_file(p)?)),
        None => prompt::ask_new(
            "a password for the new key",
            "--password-file FILE, or --no-password for an unprotected key",
        )
        .map(Some),
    }
}

/// Writes the armored secret key to -o (created only now) or stdout.
fn write_key(key: &Cert, a: &GenerateArgs) -> Result<()> {
    let mut out = Output::create(a.output.as_deref())?;
    key.write_armored(&mut out).context("cannot write the key")?;
    out.commit_new()
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
    let exp = k.expires.map(|e| format!("expires {}", timestamp(e))).unwrap_or_else(|| "never expires".into());
    format!("flags {}, {exp}, valid", flag_names(k.flags))
}

/// The algorithm's strength as a person reads it: its curve and size in
/// bits ("Ed25519Legacy, 255 bits"), or the size alone (RSA, and the
/// algorithms named after their curve).
fn strength(p: &tessera::openpgp::key::PublicKey) -> String {
    let m = p.material();
    match m.curve() {
        Some(c) => format!("{}, {} bits", c.name(), m.bits()),
        None => format!("{} bits", m.bits()),
    }
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
        "{what} {} v{} {:?} ({}) created {}{secret}",
        p.fingerprint(),
        p.version().id(),
        p.alg(),
        strength(p),
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
                    writeln!(w, "uid      {}", tessera::openpgp::inspect::escape(u))?;
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
                    writeln!(w, "uid      {}", tessera::openpgp::inspect::escape(&u.value))?;
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
