//! `tessera encrypt` and `tessera decrypt`: password-based OpenPGP
//! (RFC 9580 SEIPD v2 by default, RFC 4880 SEIPD v1 for GnuPG 2.2).
//!
//! Output files are written to a temporary file beside the target and
//! renamed only after the final tag (or MDC) verifies; on any failure no
//! output file exists. To stdout, v2 chunks stream as they verify; a v1
//! message is held in a temporary file until its MDC verifies.

use std::io::{self, Seek};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};
use tessera::aead::Mode;
use tessera::openpgp::key::{Cert, KEY_UNLOCK_LIMITS};
use tessera::openpgp::s2k::S2kLimits;
use tessera::openpgp::{
    DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error as PgpError, Profile, S2kChoice, SeipdVersion, SymAlg,
};

use crate::io::{CopyError, Output, PasswordArgs, open_input, parse_size};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AeadArg {
    Ocb,
    Eax,
    Gcm,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CipherArg {
    Aes128,
    Aes192,
    Aes256,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum S2kArg {
    Argon2,
    Iterated,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ProfileArg {
    Rfc9580,
    Rfc4880,
}

/// Encrypt a file or stdin with a password and/or to certificates.
#[derive(Args, Debug)]
pub struct EncryptArgs {
    /// The password (optional with --recipient).
    #[command(flatten)]
    pub password: OptionalPassword,
    /// Encrypt to the certificates in this file (repeatable; binary or armored).
    #[arg(short = 'r', long = "recipient", value_name = "CERT")]
    pub recipients: Vec<PathBuf>,
    /// AEAD mode of SEIPD v2.
    #[arg(long, value_enum, default_value = "ocb")]
    pub aead: AeadArg,
    /// Cipher.
    #[arg(long, value_enum, default_value = "aes256")]
    pub cipher: CipherArg,
    /// Chunk size octet c: chunks of 2^(c+6) bytes (12 = 256 KiB).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u8).range(0..=16))]
    pub chunk_size_octet: u8,
    /// Password hashing: Argon2 (t=3, p=4, 64 MiB) or iterated+salted SHA-256
    /// (default: argon2, or iterated for --profile rfc4880).
    #[arg(long, value_enum)]
    pub s2k: Option<S2kArg>,
    /// Coded count octet of the iterated S2K (255 = 65011712 bytes hashed).
    #[arg(long, default_value_t = 255)]
    pub s2k_count: u8,
    /// rfc9580: SKESK v6 + SEIPD v2 (AEAD); rfc4880: SKESK v4 + SEIPD v1 (for GnuPG 2.2).
    #[arg(long, value_enum, default_value = "rfc9580")]
    pub profile: ProfileArg,
    /// ASCII-armored output.
    #[arg(long)]
    pub armor: bool,
    /// Also sign with this secret key (repeat for more): one pass, signatures inside the encryption.
    #[arg(long, value_name = "KEY")]
    pub sign_with: Vec<PathBuf>,
    /// File holding the password of the --sign-with keys, if they are locked.
    #[arg(long, value_name = "FILE")]
    pub sign_key_password_file: Option<PathBuf>,
    /// Threads sealing chunks (0 = one per core; 1 = all on one thread). The output is the same.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Output file (default stdout); written only if everything succeeds.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Input file (default stdin).
    pub input: Option<PathBuf>,
}

/// Limits on the work and output a message may ask for (refused before the
/// work is done or the memory allocated).
#[derive(Args, Debug)]
pub struct LimitArgs {
    /// Most memory one Argon2 password packet may use (K, M, G suffixes; rounded
    /// down to a power of two). Messages made with RFC 9580's first Argon2
    /// option need 2G.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size)]
    pub max_argon2_memory: u64,
    /// Most Argon2 passes.
    #[arg(long, value_name = "N", default_value_t = S2kLimits::default().max_argon2_t)]
    pub max_argon2_passes: u8,
    /// Most Argon2 lanes (parallelism).
    #[arg(long, value_name = "N", default_value_t = S2kLimits::default().max_argon2_p)]
    pub max_argon2_lanes: u8,
    /// Total password-hashing work for the message, over every password packet,
    /// as data processed (Argon2 memory times passes, or octets hashed).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    pub max_s2k_work: u64,
    /// Most octets a compressed message may expand to (0 = no limit).
    #[arg(long, value_name = "SIZE", default_value = "16G", value_parser = parse_size)]
    pub max_decompressed_size: u64,
}

impl LimitArgs {
    /// Decryption options with these limits.
    pub fn options(&self) -> DecryptOptions {
        let limits = S2kLimits {
            max_argon2_t: self.max_argon2_passes,
            max_argon2_p: self.max_argon2_lanes,
            max_work_kib: self.max_s2k_work / 1024,
            ..S2kLimits::default()
        }
        .with_max_argon2_memory(self.max_argon2_memory);
        let max_decompressed_size = (self.max_decompressed_size > 0).then_some(self.max_decompressed_size);
        DecryptOptions { limits, max_decompressed_size, ..DecryptOptions::default() }
    }
}

/// Decrypt an OpenPGP message with a password or secret keys (binary or armored, v1 or v2).
#[derive(Args, Debug)]
pub struct DecryptArgs {
    /// The password (optional with --key).
    #[command(flatten)]
    pub password: OptionalPassword,
    /// Secret key file to decrypt with (repeatable; binary or armored).
    #[arg(short = 'i', long = "key", value_name = "KEY")]
    pub keys: Vec<PathBuf>,
    /// File holding the password of locked secret keys.
    #[arg(long, value_name = "FILE")]
    pub key_password_file: Option<PathBuf>,
    /// Require a good signature by this certificate (repeat for more); with -o,
    /// the file appears only then; to stdout, nothing is written before.
    #[arg(long, value_name = "CERT")]
    pub verify_with: Vec<PathBuf>,
    /// Limits.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Threads opening chunks (0 = one per core; 1 = all on one thread).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Output file (default stdout); created only after the whole message verifies.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Input file (default stdin).
    pub input: Option<PathBuf>,
}

/// One line that says what went wrong and what to do.
pub fn explain(e: PgpError) -> anyhow::Error {
    match e {
        PgpError::WrongPassword => {
            anyhow!(
                "wrong password: it opens none of the message's password packets (check the password file or variable)"
            )
        }
        PgpError::Authentication(what) => anyhow!(
            "authentication failed ({what}): the message was modified, damaged or cut short; nothing from it can be trusted"
        ),
        PgpError::Truncated(what) => {
            anyhow!("the message is truncated ({what}): the file was cut short; get a complete copy")
        }
        PgpError::NoPasswordPacket => {
            anyhow!("the message is not password-encrypted (it is for a public key, or not encrypted)")
        }
        PgpError::Io(e) => anyhow!("I/O error: {e}"),
        e @ PgpError::LimitExceeded { limit, .. } => {
            let flag = LIMIT_FLAGS.iter().find(|(name, _)| limit.starts_with(name)).map(|(_, flag)| *flag);
            match flag {
                Some(flag) => anyhow!("{e}; raise {flag} only for messages from someone you trust"),
                None => anyhow!("{e}"),
            }
        }
        e => anyhow!("{e}"),
    }
}

/// The library's limit names and the flags that set them.
const LIMIT_FLAGS: [(&str, &str); 5] = [
    ("max_argon2_m", "--max-argon2-memory"),
    ("max_argon2_t", "--max-argon2-passes"),
    ("max_argon2_p", "--max-argon2-lanes"),
    ("max_work_kib", "--max-s2k-work"),
    ("max_decompressed_size", "--max-decompressed-size"),
];

/// Maps an I/O error that may carry an OpenPGP error.
fn explain_io(e: io::Error) -> anyhow::Error {
    explain(PgpError::from_io(e))
}

/// Reads every key or certificate in `paths`.
fn read_keys(paths: &[PathBuf]) -> Result<Vec<Cert>> {
    let mut out = Vec::new();
    for p in paths {
        let input = open_input(Some(p))?;
        out.extend(Cert::read_all(input).map_err(|e| anyhow!("cannot read keys from {}: {e}", p.display()))?);
    }
    Ok(out)
}

/// A password that keys or certificates make optional.
#[derive(clap::Args, Debug)]
#[group(required = false, multiple = false)]
pub struct OptionalPassword {
    /// File holding the password (the whole file, one trailing newline stripped).
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Environment variable holding the password.
    #[arg(long, value_name = "VAR")]
    pub password_env: Option<String>,
}

/// The password, when given (one is needed unless keys are).
fn read_password(p: &OptionalPassword, keys_given: bool, what: &str) -> Result<Vec<zeroize::Zeroizing<Vec<u8>>>> {
    if p.password_file.is_none() && p.password_env.is_none() {
        if keys_given {
            return Ok(Vec::new());
        }
        bail!("no password: give --password-file, --password-env or {what}");
    }
    let args = PasswordArgs { password_file: p.password_file.clone(), password_env: p.password_env.clone() };
    Ok(vec![args.read()?])
}

pub fn encrypt(a: &EncryptArgs) -> Result<()> {
    let pws = read_password(&a.password, !a.recipients.is_empty(), "--recipient")?;
    let recipients = read_keys(&a.recipients)?;
    let profile = match a.profile {
        ProfileArg::Rfc9580 => Profile::Rfc9580,
        ProfileArg::Rfc4880 => Profile::Rfc4880,
    };
    let s2k = match (a.s2k, profile) {
        (Some(S2kArg::Argon2), Profile::Rfc4880) => {
            bail!("--s2k argon2 needs --profile rfc9580 (GnuPG 2.2 cannot read Argon2); use --s2k iterated")
        }
        (Some(S2kArg::Argon2), _) | (None, Profile::Rfc9580) => S2kChoice::default(),
        (Some(S2kArg::Iterated), _) | (None, Profile::Rfc4880) => S2kChoice::Iterated { count_octet: a.s2k_count },
    };
    let opts = EncryptOptions {
        profile,
        cipher: match a.cipher {
            CipherArg::Aes128 => SymAlg::Aes128,
            CipherArg::Aes192 => SymAlg::Aes192,
            CipherArg::Aes256 => SymAlg::Aes256,
        },
        aead: match a.aead {
            AeadArg::Ocb => Mode::Ocb,
            AeadArg::Eax => Mode::Eax,
            AeadArg::Gcm => Mode::Gcm,
        },
        chunk_octet: a.chunk_size_octet,
        s2k,
        armor: a.armor,
        filename: a
            .input
            .as_deref()
            .and_then(Path::file_name)
            .map(|n| n.as_encoded_bytes().iter().copied().take(255).collect())
            .unwrap_or_default(),
        date: 0,
        recipients: recipients.iter().map(Cert::to_public).collect(),
        anonymous_recipients: false,
        threads: a.threads,
    };
    let mut input = open_input(a.input.as_deref())?;
    let out = Output::create(a.output.as_deref())?;
    let pw: Vec<&[u8]> = pws.iter().map(|p| &p[..]).collect();
    if !a.sign_with.is_empty() {
        let signers = crate::sig_cmd::Signers::load(&a.sign_with, &a.sign_key_password_file)?;
        return signers.encrypt(&mut input, &pw, &opts, out)?.commit();
    }
    let mut enc = Encryptor::new(out, &pw, &opts).map_err(explain)?;
    // 256 KiB reads, straight into the chunk buffer (std's copy would use 8 KiB).
    crate::io::copy(&mut input, &mut enc).map_err(|e| match e {
        CopyError::Read(e) => anyhow!("cannot read input: {e}"),
        CopyError::Write(e) => anyhow!("cannot encrypt: {e}"),
    })?;
    let out = enc.finish().map_err(explain)?;
    out.commit()
}

pub fn decrypt(a: &DecryptArgs) -> Result<()> {
    let pws = read_password(&a.password, !a.keys.is_empty(), "--key")?;
    let mut keys = read_keys(&a.keys)?;
    if let Some(f) = &a.key_password_file {
        let kp = PasswordArgs { password_file: Some(f.clone()), password_env: None }.read()?;
        for k in &mut keys {
            k.unlock(&kp, &KEY_UNLOCK_LIMITS).map_err(explain)?;
        }
    }
    let input = open_input(a.input.as_deref())?;
    // v1 messages stream only into a temporary file (renamed on success, or
    // copied to stdout once the MDC verifies).
    let opts = DecryptOptions { v1_stream_unauthenticated: true, keys, threads: a.threads, ..a.limits.options() };
    let pw: Vec<&[u8]> = pws.iter().map(|p| &p[..]).collect();
    let out = Output::create(a.output.as_deref())?;
    if !a.verify_with.is_empty() {
        return crate::sig_cmd::decrypt_verify(&a.verify_with, input, &pw, &opts, out)?.commit();
    }
    let mut out = out;
    let mut dec = Decryptor::with_options(input, &pw, &opts).map_err(explain)?;
    if a.output.is_none() && dec.seipd_version() == SeipdVersion::V1 {
        let mut spool = tempfile::tempfile().context("cannot create a temporary file")?;
        io::copy(&mut dec, &mut spool).map_err(explain_io)?;
        spool.rewind().context("temporary file")?;
        io::copy(&mut spool, &mut out).context("cannot write to stdout")?;
    } else {
        copy_out(&mut dec, &mut out)?;
    }
    out.commit()
}

fn copy_out(dec: &mut Decryptor<'_>, out: &mut Output) -> Result<()> {
    match crate::io::copy(dec, out) {
        Ok(_) => Ok(()),
        Err(CopyError::Read(e)) => Err(explain_io(e)),
        Err(CopyError::Write(e)) => Err(anyhow::Error::from(e).context("cannot write output")),
    }
}
