//! `tessera keygen`: a fresh random key from the operating system, as hex.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use tessera::fs::AtomicFile;
use zeroize::Zeroizing;

#[derive(Args, Debug)]
pub struct KeygenArgs {
    /// Key size in bytes: 16, 24 or 32 for FPE; 32, 48 or 64 for AES-SIV.
    #[arg(long)]
    pub bytes: usize,
    /// Write the key to this file (created with mode 0600; never overwritten).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

pub fn random_key(bytes: usize) -> Result<Zeroizing<Vec<u8>>> {
    let mut key = Zeroizing::new(vec![0u8; bytes]);
    getrandom::fill(&mut key).map_err(|e| anyhow::anyhow!("operating system randomness failed: {e}"))?;
    Ok(key)
}

pub fn run(args: &KeygenArgs) -> Result<()> {
    if ![16, 24, 32, 48, 64].contains(&args.bytes) {
        bail!("--bytes must be 16, 24 or 32 (FPE) or 32, 48 or 64 (AES-SIV), not {}", args.bytes);
    }
    let key = random_key(args.bytes)?;
    let line = Zeroizing::new([tessera::hex::encode_key(&key).as_bytes(), b"\n"].concat());
    match tessera_cli::io::file_path(args.output.as_deref()) {
        None => std::io::stdout().write_all(&line).context("cannot write to stdout"),
        Some(path) => write_key_file(path, &line),
    }
}

/// Writes `line` to the new file `path` (mode 0600) through an
/// [`AtomicFile`]: the name appears only with the whole key, synced, and
/// an existing file is never replaced.
fn write_key_file(path: &Path, line: &[u8]) -> Result<()> {
    let exists = || format!("cannot create key file {} (an existing key file is never overwritten)", path.display());
    if std::fs::symlink_metadata(path).is_ok() {
        bail!(exists());
    }
    let mut f = AtomicFile::create(path).with_context(exists)?;
    f.write_all(line).with_context(|| format!("cannot write {}", path.display()))?;
    f.commit_new().map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => anyhow::Error::new(e).context(exists()),
        _ => anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
    })
}
