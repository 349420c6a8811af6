//! `tessera keygen`: a fresh random key from the operating system, as hex.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use zeroize::Zeroizing;

use crate::io::create_new_private;

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
    match &args.output {
        None => std::io::stdout().write_all(&line).context("cannot write to stdout"),
        Some(path) => {
            let mut f = create_new_private(path).with_context(|| {
                format!("cannot create key file {} (an existing key file is never overwritten)", path.display())
            })?;
            f.write_all(&line).and_then(|_| f.sync_all()).with_context(|| format!("cannot write {}", path.display()))
        }
    }
}
