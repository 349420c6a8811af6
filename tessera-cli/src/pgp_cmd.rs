//! `tessera encrypt` and `tessera decrypt`: password-based OpenPGP
//! (RFC 9580 SEIPD v2 by default, RFC 4880 SEIPD v1 for GnuPG 2.2).
//!
//! Output files are written to a temporary file beside the target and
//! renamed only after the final tag (or MDC) verifies; on any failure no
//! output file exists. To stdout, v2 chunks stream as they verify; a v1
//! message is held in a temporary file until its MDC verifies.

use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};
use tessera::aead::Mode;
use tessera::openpgp::{
    DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error as PgpError, Profile, S2kChoice, SeipdVersion, SymAlg,
};

use crate::io::{Output, PasswordArgs, open_input};

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

/// Encrypt a file or stdin with a password.
#[derive(Args, Debug)]
pub struct EncryptArgs {
    /// The password.
    #[command(flatten)]
    pub password: PasswordArgs,
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
    /// Output file (default stdout); written only if everything succeeds.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Input file (default stdin).
    pub input: Option<PathBuf>,
}

/// Decrypt a password-encrypted OpenPGP message (binary or armored, v1 or v2).
#[derive(Args, Debug)]
pub struct DecryptArgs {
    /// The password.
    #[command(flatten)]
    pub password: PasswordArgs,
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
        e => anyhow!("{e}"),
    }
}

/// Maps an I/O error that may carry an OpenPGP error.
fn explain_io(e: io::Error) -> anyhow::Error {
    explain(PgpError::from_io(e))
}

pub fn encrypt(a: &EncryptArgs) -> Result<()> {
    let pw = a.password.read()?;
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
    };
    let mut input = open_input(a.input.as_deref())?;
    let out = Output::create(a.output.as_deref())?;
    let mut enc = Encryptor::new(out, &[&pw[..]], &opts).map_err(explain)?;
    io::copy(&mut input, &mut enc).map_err(|e| anyhow!("cannot encrypt: {e}"))?;
    let out = enc.finish().map_err(explain)?;
    out.commit()
}

pub fn decrypt(a: &DecryptArgs) -> Result<()> {
    let pw = a.password.read()?;
    let input = open_input(a.input.as_deref())?;
    // v1 messages stream only into a temporary file (renamed on success, or
    // copied to stdout once the MDC verifies).
    let opts = DecryptOptions { v1_stream_unauthenticated: true, ..DecryptOptions::default() };
    let mut dec = Decryptor::with_options(input, &[&pw[..]], &opts).map_err(explain)?;
    let mut out = Output::create(a.output.as_deref())?;
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
    let mut buf = vec![0u8; 1 << 18];
    loop {
        let n = match dec.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(explain_io(e)),
        };
        if n == 0 {
            return Ok(());
        }
        out.write_all(&buf[..n]).context("cannot write output")?;
    }
}
