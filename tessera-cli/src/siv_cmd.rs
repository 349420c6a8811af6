//! `tessera siv encrypt|decrypt`: AES-SIV (RFC 5297), deterministic
//! authenticated encryption.
//!
//! Binary mode (the default) reads the whole input, since S2V needs all of
//! the plaintext before CTR can start, and writes `V || C` (V first) or the
//! verified plaintext. `--lines` and `--csv --columns` encrypt each value to
//! unpadded base64url of `V || C` (and back) through the library's batch API.
//! Nothing is written to `--output` unless every value verifies.

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use tessera::Direction;
use tessera::siv::{AesSiv, BatchAd, MAX_AD, MessageBatch, TAG_LEN, base64url};

use crate::io::{KeyArgs, Output, WholeInput, parse_hex};
use tessera_cli::records::{self, Outputs, RecordArgs, Transform, ValueError, Values};

#[derive(Args, Debug)]
pub struct SivArgs {
    /// The AES-SIV key: 32, 48 or 64 bytes (`tessera keygen --bytes 32`).
    #[command(flatten)]
    pub key: KeyArgs,
    /// An associated-data component as hex; repeat for several (order matters).
    #[arg(long = "ad", value_name = "HEX")]
    pub ad: Vec<String>,
    /// A nonce as hex: the last component before the plaintext (RFC 5297 section 3).
    #[arg(long, value_name = "HEX")]
    pub nonce: Option<String>,
    /// One value per line: each line becomes unpadded base64url of V || C (decrypt: the reverse).
    #[arg(long, conflicts_with = "csv")]
    pub lines: bool,
    #[command(flatten)]
    pub records: RecordArgs,
    #[command(flatten)]
    pub keyset: crate::keyset_use::KeysetUse,
}

/// Encrypts or decrypts batches of values with one AES-SIV key and the same
/// associated data for every value; ciphertexts are unpadded base64url of
/// `V || C`.
pub struct SivTransform {
    siv: AesSiv,
    /// The associated-data components, the nonce last.
    comps: Vec<Vec<u8>>,
    direction: Direction,
    batch: MessageBatch,
}

impl SivTransform {
    pub fn new(siv: AesSiv, comps: Vec<Vec<u8>>, direction: Direction) -> Self {
        SivTransform { siv, comps, direction, batch: MessageBatch::new() }
    }
}

fn value_error(e: tessera::Error) -> ValueError {
    match e {
        tessera::Error::Batch { index, source } => ValueError { index, error: explain(*source) },
        e => ValueError { index: 0, error: explain(e) },
    }
}

/// The library's error, with what to check for a failed verification.
fn explain(e: tessera::Error) -> anyhow::Error {
    match e {
        tessera::Error::Authentication => {
            anyhow!("authentication failed: wrong key, --ad or --nonce, or the ciphertext was modified")
        }
        e => e.into(),
    }
}

impl Transform for SivTransform {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        let comps: Vec<&[u8]> = self.comps.iter().map(Vec::as_slice).collect();
        let ad = BatchAd::Same(&comps);
        self.batch.clear();
        if self.direction.is_encrypt() {
            (0..input.len()).for_each(|i| self.batch.push(input.get(i)));
            for ct in self.batch.seal(&self.siv, ad).map_err(value_error)? {
                base64url::encode(ct, &mut out.data);
                out.ends.push(out.data.len());
            }
        } else {
            for i in 0..input.len() {
                let len =
                    self.batch.push_base64url(input.get(i)).map_err(|e| ValueError { index: i, error: e.into() })?;
                if len < TAG_LEN {
                    let error = anyhow!("value holds {len} bytes; an AES-SIV ciphertext (V || C) has at least 16");
                    return Err(ValueError { index: i, error });
                }
            }
            for pt in self.batch.open(&self.siv, ad).map_err(value_error)? {
                out.data.extend_from_slice(pt);
                out.ends.push(out.data.len());
            }
        }
        Ok(())
    }
}

/// The key and the S2V components the arguments describe, checked before
/// any input is read.
fn setup(args: &SivArgs) -> Result<(AesSiv, Vec<Vec<u8>>)> {
    let key = args.key.read()?;
    let siv = AesSiv::new(&key).map_err(|e| {
        anyhow!(
            "{}: {e} (AES-SIV takes 32, 48 or 64 bytes; make one with `tessera keygen --bytes 32`)",
            args.key.describe()
        )
    })?;
    let mut comps = args.ad.iter().map(|a| parse_hex("--ad", a)).collect::<Result<Vec<_>>>()?;
    if let Some(n) = &args.nonce {
        comps.push(parse_hex("--nonce", n)?);
    }
    if comps.len() > MAX_AD {
        bail!("{} --ad/--nonce components given; AES-SIV allows at most {MAX_AD}", comps.len());
    }
    Ok((siv, comps))
}

pub fn run(args: &SivArgs, direction: Direction) -> Result<()> {
    if args.keyset.keyset.is_some() {
        use crate::keyset_use::siv;
        return siv(args, direction.into());
    }
    let (siv, comps) = setup(args)?;
    if args.lines || args.records.csv {
        let make = || Ok(Box::new(SivTransform::new(siv.clone(), comps.clone(), direction)) as Box<_>);
        return records::process(&args.records, &args.records.columns, &[], make);
    }
    let input = WholeInput::open(args.records.input.as_deref())?;
    // V || C is binary: refused on a terminal before any input is read.
    let path = args.records.output.as_deref();
    let mut out = if direction.is_encrypt() { Output::create_binary(path)? } else { Output::create_plaintext(path)? };
    let refs: Vec<&[u8]> = comps.iter().map(Vec::as_slice).collect();
    // In place: V goes in the room in front of the plaintext; the
    // plaintext is what follows V.
    let mut buf = input.read(if direction.is_encrypt() { TAG_LEN } else { 0 })?;
    let result = if direction.is_encrypt() {
        siv.seal_in_place(None, &refs, &mut buf).map_err(explain)?;
        &buf[..]
    } else {
        if buf.len() < TAG_LEN {
            bail!("the input is {} bytes; an AES-SIV ciphertext (V || C) has at least 16", buf.len());
        }
        siv.open_in_place(None, &refs, &mut buf).map_err(explain)?
    };
    out.write_all(result).context("cannot write output")?;
    out.commit()
}
