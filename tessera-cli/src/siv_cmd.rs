//! `tessera siv encrypt|decrypt` — PLACEHOLDER owned by the SIV work (issue 3).
//!
//! Instructions for whoever implements it (replace this whole file):
//! - Fill in `SivArgs` (clap `Args`): `--key-file F`, `--ad HEX` (repeatable, in order),
//!   `--nonce HEX`, `--input F`, `--output F`, `--lines`, `--csv`, `--columns a,b`.
//! - Binary mode: read all of stdin/--input (SIV is not streamable: S2V needs the whole
//!   plaintext before CTR), write `V || C` (encrypt) or the plaintext (decrypt) through
//!   `crate::io::Output` (temp file renamed on commit; nothing written on failure).
//! - `--lines` / `--csv`: implement `crate::records::Transform` (see fpe_cmd.rs for the
//!   pattern: batch values in, outputs back to back in `Outputs`), encrypting each value
//!   to unpadded base64url of `V || C` (decrypt the reverse) with the library's batch API;
//!   a failed verification is a `ValueError` for that value ("authentication failed").
//!   Then call `crate::records::lines` or `crate::records::csv`.
//! - Keys via `crate::io::read_key_file`, hex args via `crate::io::parse_hex`.
//! - `pub fn run(args: &SivArgs, encrypt: bool) -> anyhow::Result<()>` is what main.rs calls.

use anyhow::{Result, bail};
use clap::Args;

#[derive(Args, Debug)]
pub struct SivArgs {}

pub fn run(_args: &SivArgs, _encrypt: bool) -> Result<()> {
    bail!("siv is not implemented yet")
}
