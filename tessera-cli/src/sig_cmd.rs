//! `tessera sign` and `tessera verify`: OpenPGP document signatures,
//! detached, inline or cleartext, streamed.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use tessera::fs::{Spool, copy};
use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::key::Cert;
use tessera::openpgp::sig::{
    ClearSigner, InlineSigner, InlineVerifier, SigResult, SigType, Signer, SigningKey, Verifier, is_cleartext,
    read_cleartext, read_signatures, write_signatures,
};
use tessera::openpgp::{DecryptOptions, EncryptOptions, SigningEncryptor, VerifyingDecryptor};
use tessera_cli::io::{Output, PasswordArgs, file_path, open_input};
use tessera_cli::signing::{describe, now, read_all_certs, read_secret_keys, require_good};

#[derive(Args, Debug)]
pub struct SignArgs {
    /// The secret key file (every signing-capable key in it signs).
    #[arg(short = 'i', long = "key", value_name = "KEY")]
    pub key: PathBuf,
    /// File holding the key's password, if it is locked.
    #[arg(long, value_name = "FILE")]
    pub key_password_file: Option<PathBuf>,
    /// Write a detached signature instead of a signed message.
    #[arg(short = 'b', long, visible_alias = "detach-sign")]
    pub detached: bool,
    /// ASCII-armor the output.
    #[arg(short = 'a', long)]
    pub armor: bool,
    /// Make a text signature (line endings do not matter).
    #[arg(long, visible_alias = "textmode")]
    pub text: bool,
    /// Write a cleartext-signed message (text, readable without OpenPGP).
    #[arg(long, visible_alias = "clearsign", conflicts_with = "detached")]
    pub cleartext: bool,
    /// Hash to sign with (default: the one matching the key's strength, SHA256 for Ed25519, P-256 and RSA up to 3072 bits).
    #[arg(long, value_name = "HASH", value_parser = crate::pgp_explain::hash_parser())]
    pub hash: Option<HashAlg>,
    /// Output file (created only on success); stdout by default.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Input file; stdin by default.
    pub input: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// A certificate whose signatures count (repeat for more).
    #[arg(long = "signer", value_name = "CERT", required = true)]
    pub signers: Vec<PathBuf>,
    /// The detached signature; without it, the input is a signed message.
    #[arg(long, value_name = "SIG")]
    pub signature: Option<PathBuf>,
    /// For a signed message: write its data here (only if a signature is good).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Input file; stdin by default.
    pub input: Option<PathBuf>,
}

/// Secret keys loaded for signing while encrypting.
pub struct Signers(Vec<Cert>);

impl Signers {
    /// Reads and unlocks the keys.
    pub fn load(paths: &[PathBuf], password_file: &Option<PathBuf>) -> Result<Self> {
        let pw = PasswordArgs::read_optional_file(password_file.as_deref())?;
        let mut keys = Vec::new();
        for p in paths {
            keys.extend(read_secret_keys(p, pw.as_deref().map(|p| p.as_slice()), "--sign-key-password-file")?);
        }
        Ok(Signers(keys))
    }

    /// Encrypts and signs `input` in one pass into `out`, with `hash` or
    /// the one the keys and the recipients prefer.
    pub fn encrypt(
        &self,
        input: &mut dyn Read,
        pw: &[&[u8]],
        opts: &EncryptOptions,
        hash: Option<HashAlg>,
        out: Output,
    ) -> Result<Output> {
        let now = now();
        let signing = signing_keys(&self.0, now, &opts.recipients, hash)?;
        let signer = Signer::new(&signing, SigType::Binary, now as u32)?;
        let mut enc = SigningEncryptor::new(out, pw, opts, signer).map_err(crate::pgp_explain::explain)?;
        // 256 KiB reads (std's copy through `dyn Read` would use 8 KiB).
        copy(input, &mut enc).map_err(crate::pgp_explain::explain_encrypt_copy)?;
        enc.finish().map_err(crate::pgp_explain::explain)
    }
}

/// The signing keys of `keys` at `now`, their hash chosen by the library
/// (for `recipients`, or `hash` if given).
fn signing_keys<'a>(
    keys: &'a [Cert],
    now: u64,
    recipients: &[Cert],
    hash: Option<HashAlg>,
) -> Result<Vec<SigningKey<'a>>> {
    let mut signing = Vec::new();
    for k in keys {
        signing.extend(
            SigningKey::for_message(k, now, recipients, hash)
                .with_context(|| format!("the key {} cannot sign", k.fingerprint()))?,
        );
    }
    Ok(signing)
}

/// Decrypts and verifies: the data is kept only if a signature from
/// `certs` is good. When `out` is a file (-o), it is already a temporary
/// file renamed into place only on success, so the data goes straight into
/// it; to a stream (stdout, a FIFO) it is spooled first, and released once
/// verified.
pub fn decrypt_verify(
    certs: &[PathBuf],
    input: Box<dyn BufRead>,
    pw: &[&[u8]],
    opts: &DecryptOptions,
    mut out: Output,
) -> Result<Output> {
    let signers: Vec<Cert> = read_all_certs(certs)?.iter().map(Cert::to_public).collect();
    let mut dec = VerifyingDecryptor::new(input, pw, opts, &signers, now()).map_err(crate::pgp_explain::explain)?;
    let spool = if !out.is_stream() {
        copy(&mut dec, &mut out).map_err(crate::pgp_explain::explain_copy)?;
        None
    } else {
        let mut spool = Spool::new().context("cannot create a temporary file")?;
        spool.fill(&mut dec).map_err(crate::pgp_explain::explain_copy)?;
        Some(spool)
    };
    let results = dec.finish_results().map_err(crate::pgp_explain::explain)?;
    // A failure is one line; the good signatures are said on success.
    require_good(&results)?;
    for r in results.iter().filter(|r| r.is_good()) {
        eprintln!("{}", describe(r));
    }
    if let Some(spool) = spool {
        spool.release(&mut out).map_err(crate::pgp_explain::explain_copy)?;
    }
    Ok(out)
}

pub fn sign(a: &SignArgs) -> Result<()> {
    let pw = PasswordArgs::read_optional_file(a.key_password_file.as_deref())?;
    let keys = read_secret_keys(&a.key, pw.as_deref().map(|p| p.as_slice()), "--key-password-file")?;
    let now = now();
    let signing = signing_keys(&keys, now, &[], a.hash)?;
    let ty = if a.text || a.cleartext { SigType::Text } else { SigType::Binary };
    let signer = Signer::new(&signing, ty, now as u32)?;
    let mut input = open_input(a.input.as_deref())?;
    let out = if a.armor || a.cleartext {
        Output::create(a.output.as_deref())?
    } else {
        Output::create_binary(a.output.as_deref())?
    };
    let out = if a.detached {
        let mut signer = signer;
        std::io::copy(&mut input, &mut signer).context("cannot read the input")?;
        write_signatures(out, &signer.finish()?, a.armor)?
    } else if a.cleartext {
        let mut w = ClearSigner::new(out, signer)?;
        std::io::copy(&mut input, &mut w).context("cannot sign the input")?;
        w.finish()?
    } else if a.armor {
        let armor = ArmorWriter::new(out, MESSAGE, signer.armor_crc())?;
        let mut w = InlineSigner::new(armor, signer)?;
        std::io::copy(&mut input, &mut w).context("cannot sign the input")?;
        w.finish()?.finish()?
    } else {
        let mut w = InlineSigner::new(out, signer)?;
        std::io::copy(&mut input, &mut w).context("cannot sign the input")?;
        w.finish()?
    };
    out.commit()
}

/// Prints a line per signature: to stdout, unless the signed data goes
/// there (`-o -`), then to stderr.
fn report(results: &[SigResult], data_to_stdout: bool) -> Result<()> {
    let mut w: Box<dyn Write> =
        if data_to_stdout { Box::new(std::io::stderr().lock()) } else { Box::new(std::io::stdout().lock()) };
    for r in results {
        writeln!(w, "{}", describe(r))?;
    }
    require_good(results)
}

pub fn verify(a: &VerifyArgs) -> Result<()> {
    let certs: Vec<Cert> = read_all_certs(&a.signers)?.iter().map(Cert::to_public).collect();
    let now = now();
    let mut input: Box<dyn BufRead> = open_input(a.input.as_deref())?;
    if let Some(sig) = &a.signature {
        let sigs = read_signatures(open_input(Some(sig))?).with_context(|| format!("cannot read {}", sig.display()))?;
        let mut v = Verifier::new(sigs, &certs, now);
        std::io::copy(&mut input, &mut v).context("cannot read the input")?;
        return report(&v.finish(), false);
    }
    let mut out = a.output.as_deref().map(|p| Output::create_plaintext(Some(p))).transpose()?;
    // A stream (a FIFO, a device, stdout's descriptor) shows what is written
    // at once: the data is held back until a signature is good. A file is a
    // temporary one renamed into place only then.
    let mut spool = match &out {
        Some(o) if o.is_stream() => Some(Spool::new().context("cannot create a temporary file")?),
        _ => None,
    };
    let mut sink = std::io::sink();
    let w: &mut dyn Write = match (&mut spool, &mut out) {
        (Some(s), _) => s,
        (None, Some(o)) => o,
        (None, None) => &mut sink,
    };
    let results = if is_cleartext(&mut input)? {
        read_cleartext(input, w, &certs, now)?
    } else {
        InlineVerifier::new(input, &certs, now)?.verify_to(w)?
    };
    report(&results, out.as_ref().is_some_and(|_| file_path(a.output.as_deref()).is_none()))?;
    if let Some(mut o) = out {
        if let Some(spool) = spool {
            spool.release(&mut o).map_err(crate::pgp_explain::explain_copy)?;
        }
        o.commit()?;
    }
    Ok(())
}
