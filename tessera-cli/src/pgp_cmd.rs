//! `tessera encrypt` and `tessera decrypt`: password-based OpenPGP
//! (RFC 9580 SEIPD v2 by default, RFC 4880 SEIPD v1 for GnuPG 2.2).
//!
//! Output files are written to a temporary file beside the target and
//! renamed only after the final tag (or MDC) verifies; on any failure no
//! output file exists. To stdout, v2 chunks stream as they verify; a v1
//! message is held in a temporary file until its MDC verifies.

use std::io::{self, BufReader};
use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args;
use clap::builder::PossibleValue;
use tessera::aead::Mode;
use tessera::fs::{IO_BUFFER, Spool, copy};
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::key::{Cert, KEY_UNLOCK_LIMITS};
use tessera::openpgp::{
    DecryptOptions, Decryptor, EncryptOptions, Encryptor, MAX_CHUNK_OCTET, Profile, S2kChoice, S2kKind, S2kLimits,
    SeipdVersion, SymAlg,
};
use tessera_cli::named;
use tessera_cli::signing::{is_locked, read_all_certs, read_decryption_keys};

use crate::io::{Input, Output, PasswordArgs, open_input, open_unbuffered, parse_size, parse_threads};
use crate::pgp_explain::{explain, explain_copy, explain_encrypt_copy, hash_parser};

/// The names of a library type, for clap's help and errors.
fn names(names: &'static [&'static str]) -> impl Iterator<Item = PossibleValue> {
    names.iter().copied().map(PossibleValue::new)
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
    #[arg(long, default_value = "ocb", value_parser = named::<Mode>(names(Mode::NAMES)))]
    pub aead: Mode,
    /// Cipher.
    #[arg(long, default_value = "aes256", value_parser = named::<SymAlg>(names(SymAlg::NAMES)))]
    pub cipher: SymAlg,
    /// Chunk size octet c: chunks of 2^(c+6) bytes (12 = 256 KiB).
    #[arg(long, default_value_t = EncryptOptions::default().chunk_octet,
          value_parser = clap::value_parser!(u8).range(0..=i64::from(MAX_CHUNK_OCTET)))]
    pub chunk_size_octet: u8,
    /// Password hashing: Argon2 (t=3, p=4, 64 MiB) or iterated+salted SHA-256
    /// (default: argon2, or iterated for --profile rfc4880).
    #[arg(long, value_parser = named::<S2kKind>(names(S2kKind::NAMES)))]
    pub s2k: Option<S2kKind>,
    /// Coded count octet of the iterated S2K (255 = 65011712 bytes hashed).
    #[arg(long, default_value_t = S2kChoice::DEFAULT_COUNT_OCTET)]
    pub s2k_count: u8,
    /// rfc9580: SKESK v6 + SEIPD v2 (AEAD; to certificates, when every recipient announces it);
    /// rfc4880: SKESK v4 + SEIPD v1. GnuPG 2.2 reads only rfc4880: password messages for it need
    /// --profile rfc4880, and so do messages to a tessera or Sequoia key its owner uses in GnuPG 2.2
    /// (such keys announce SEIPD v2; GnuPG's own keys do not, and get SEIPD v1 anyway).
    #[arg(long, default_value = "rfc9580", value_parser = named::<Profile>(names(Profile::NAMES)))]
    pub profile: Profile,
    /// ASCII-armored output.
    #[arg(short = 'a', long)]
    pub armor: bool,
    /// Also sign with this secret key (repeat for more): one pass, signatures inside the encryption.
    #[arg(long, value_name = "KEY")]
    pub sign_with: Vec<PathBuf>,
    /// File holding the password of the --sign-with keys, if they are locked.
    #[arg(long, value_name = "FILE")]
    pub sign_key_password_file: Option<PathBuf>,
    /// Hash to sign with (default: the strongest the signing keys and the recipients all prefer).
    #[arg(long, value_name = "HASH", requires = "sign_with",
          value_parser = hash_parser())]
    pub hash: Option<HashAlg>,
    /// Threads sealing chunks, each reading its own from a file input unless a progress bar
    /// shows (0 = one per core, the default; 1 = all on one thread; at most 1024). The output
    /// is the same.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_threads)]
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
        let limits = S2kLimits::from_sizes(
            self.max_argon2_memory,
            self.max_argon2_passes,
            self.max_argon2_lanes,
            self.max_s2k_work,
        );
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
    /// Threads opening chunks, each reading its own from a file input unless a progress bar
    /// shows (0 = one per core, the default; 1 = all on one thread; at most 1024).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Output file (default stdout); created only after the whole message verifies.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Input file (default stdin).
    pub input: Option<PathBuf>,
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

/// Whether a password is asked for a new message (typed twice) or for one
/// that exists (typed once).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Secret {
    New,
    Existing,
}

/// The password, when given (one is needed unless keys are): from the
/// file or variable, else typed on a terminal; without one, the error names
/// the flags, `what` among them.
fn read_password(
    p: &OptionalPassword,
    keys_given: bool,
    what: &str,
    secret: Secret,
) -> Result<Vec<zeroize::Zeroizing<Vec<u8>>>> {
    if p.password_file.is_none() && p.password_env.is_none() {
        if keys_given {
            return Ok(Vec::new());
        }
        let flags = format!("--password-file FILE, --password-env VAR or {what}");
        let pw = match secret {
            Secret::New => crate::io::prompt::ask_new("a password for the message", &flags),
            Secret::Existing => crate::io::prompt::ask("the message's password", &flags),
        };
        return Ok(vec![pw?]);
    }
    let args = PasswordArgs { password_file: p.password_file.clone(), password_env: p.password_env.clone() };
    Ok(vec![args.read()?])
}

pub fn encrypt(a: &EncryptArgs) -> Result<()> {
    let pws = read_password(&a.password, !a.recipients.is_empty(), "--recipient CERT", Secret::New)?;
    let recipients = read_all_certs(&a.recipients)?;
    let defaults = EncryptOptions::for_profile(a.profile, a.s2k, a.s2k_count).map_err(|_| {
        anyhow!("--s2k argon2 needs --profile rfc9580 (GnuPG 2.2 cannot read Argon2); use --s2k iterated")
    })?;
    let opts = EncryptOptions {
        cipher: a.cipher,
        aead: a.aead,
        chunk_octet: a.chunk_size_octet,
        armor: a.armor,
        filename: a.input.as_deref().map(EncryptOptions::file_name_of).unwrap_or_default(),
        recipients: recipients.iter().map(Cert::to_public).collect(),
        threads: a.threads,
        ..defaults
    };
    let input = open_unbuffered(a.input.as_deref())?;
    let out = if a.armor { Output::create(a.output.as_deref())? } else { Output::create_binary(a.output.as_deref())? };
    let pw: Vec<&[u8]> = pws.iter().map(|p| &p[..]).collect();
    if !a.sign_with.is_empty() {
        let signers = crate::sig_cmd::Signers::load(&a.sign_with, &a.sign_key_password_file)?;
        let mut input: Box<dyn io::Read> = match input {
            Input::File(f) => Box::new(f),
            Input::Stream(r, _) => r,
        };
        return signers.encrypt(&mut input, &pw, &opts, a.hash, out)?.commit();
    }
    let mut enc = Encryptor::new(out, &pw, &opts).map_err(explain)?;
    // Straight into the chunk buffers; a file is read by every chunk worker.
    match input {
        Input::File(f) => enc.copy_from_file(&f),
        // Behind a progress bar: a file of more than 8 MiB, read here.
        Input::Stream(mut r, len) => enc.copy_from(&mut r, len),
    }
    .map_err(explain_encrypt_copy)?;
    let out = enc.finish().map_err(explain)?;
    out.commit()
}

pub fn decrypt(a: &DecryptArgs) -> Result<()> {
    let pws = read_password(&a.password, !a.keys.is_empty(), "--key KEY", Secret::Existing)?;
    let mut keys = read_decryption_keys(&a.keys)?;
    unlock_keys(&mut keys, a.key_password_file.as_ref())?;
    // v1 messages stream only into a temporary file (renamed on success, or
    // copied to stdout or another stream once the MDC verifies).
    let opts = DecryptOptions { v1_stream_unauthenticated: true, keys, threads: a.threads, ..a.limits.options() };
    let pw: Vec<&[u8]> = pws.iter().map(|p| &p[..]).collect();
    if !a.verify_with.is_empty() {
        let input = open_input(a.input.as_deref())?;
        let out = Output::create_plaintext(a.output.as_deref())?;
        return crate::sig_cmd::decrypt_verify(&a.verify_with, input, &pw, &opts, out)?.commit();
    }
    let input = open_unbuffered(a.input.as_deref())?;
    let mut out = Output::create_plaintext(a.output.as_deref())?;
    let file;
    let mut dec = match input {
        // A file (not behind a progress bar): read at offsets, by every chunk worker.
        Input::File(f) => {
            file = f;
            Decryptor::from_file(&file, &pw, &opts)
        }
        Input::Stream(r, _) => Decryptor::with_options(BufReader::with_capacity(IO_BUFFER, r), &pw, &opts),
    }
    .map_err(explain)?;
    let copied = if out.is_stream() && dec.seipd_version() == SeipdVersion::V1 {
        Spool::copy(&mut dec, &mut out)
    } else {
        copy(&mut dec, &mut out)
    };
    copied.map_err(explain_copy)?;
    out.commit()
}

/// Unlocks the locked keys among `keys` with the password in `file`, else
/// one typed on a terminal. Without either they stay locked, and the
/// message's decryption says to give --key-password-file if it needs them.
fn unlock_keys(keys: &mut [Cert], file: Option<&PathBuf>) -> Result<()> {
    if !keys.iter().any(is_locked) {
        return Ok(());
    }
    let kp = match file {
        Some(f) => PasswordArgs::read_file(f)?,
        None if crate::io::prompt::can_ask() => {
            crate::io::prompt::ask("the password of the secret keys", "--key-password-file FILE")?
        }
        None => return Ok(()),
    };
    for k in keys {
        k.unlock(&kp, &KEY_UNLOCK_LIMITS).map_err(explain)?;
    }
    Ok(())
}
