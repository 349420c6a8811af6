//! `tessera fpe encrypt|decrypt`: one value per line (or CSV columns), in batches.

use anyhow::{Context, Result, anyhow};
use clap::Args;
use clap::builder::PossibleValue;
use tessera::Direction;
use tessera::fpe::{Algorithm, Alphabet, Fpe, TextBatch, TokenFormat, Tweaks};

use crate::io::{KeyArgs, parse_hex};
use tessera_cli::records::{self, Outputs, RecordArgs, Transform, ValueError, Values};

/// The `--algorithm` values, named by the library.
fn algorithms() -> impl Iterator<Item = PossibleValue> {
    Algorithm::ALL.into_iter().map(|a| match a {
        Algorithm::Ff3 => PossibleValue::new(a.name()).help("Withdrawn by NIST; only to decrypt existing tokens"),
        _ => PossibleValue::new(a.name()),
    })
}

#[derive(Args, Debug)]
pub struct FpeArgs {
    /// The AES key (16, 24 or 32 bytes).
    #[command(flatten)]
    pub key: KeyArgs,
    #[arg(long, default_value = "ff1", conflicts_with = "keyset", value_parser = tessera_cli::named::<Algorithm>(algorithms()))]
    pub algorithm: Algorithm,
    /// The alphabet: the i-th character is numeral i.
    #[arg(long, default_value = "0123456789", conflicts_with = "keyset")]
    pub alphabet: String,
    /// Tweak as hex (FF3-1: exactly 7 bytes; FF3: 8 bytes; FF1: any length).
    #[arg(long, default_value = "")]
    pub tweak: String,
    /// Characters kept in place and not encrypted (e.g. "-" or " -").
    #[arg(long, default_value = "", allow_hyphen_values = true, conflicts_with = "keyset")]
    pub passthrough: String,
    /// Leave the first N alphabet characters of each value in clear.
    #[arg(long, default_value_t = 0, conflicts_with = "keyset")]
    pub keep_prefix: usize,
    /// Leave the last N alphabet characters of each value in clear.
    #[arg(long, default_value_t = 0, conflicts_with = "keyset")]
    pub keep_suffix: usize,
    #[command(flatten)]
    pub records: RecordArgs,
    #[command(flatten)]
    pub keyset: crate::keyset_use::KeysetUse,
    /// Encrypt with FF3-1 or FF3 although NIST withdrew them (decrypting and rewrapping never need this).
    #[arg(long)]
    pub allow_withdrawn: bool,
    #[command(flatten)]
    pub from: crate::fpe_migrate::MigrateFrom,
}

/// Refuses to make new tokens with a withdrawn method unless `allowed`,
/// and says once on stderr that it is withdrawn when it is allowed.
pub fn check_withdrawn(algorithm: Algorithm, allowed: bool) -> Result<()> {
    let Some(note) = algorithm.withdrawn() else { return Ok(()) };
    if !allowed {
        anyhow::bail!("{note}; give --allow-withdrawn to make tokens with it anyway");
    }
    eprintln!("tessera: warning: {note}");
    Ok(())
}

/// Tokenizes batches of text values with the library's [`TextBatch`].
pub struct FpeTransform<'a> {
    batch: TextBatch<'a>,
    tweak: Vec<u8>,
    direction: Direction,
}

impl<'a> FpeTransform<'a> {
    /// Checks `format` against the cipher's alphabet.
    pub fn new(cipher: &'a dyn Fpe, format: &'a TokenFormat, tweak: Vec<u8>, direction: Direction) -> Result<Self> {
        let batch = TextBatch::new(cipher, format).map_err(|e| match e {
            tessera::Error::PassthroughInAlphabet { .. } => anyhow!("--{e}"),
            e => e.into(),
        })?;
        Ok(FpeTransform { batch, tweak, direction })
    }
}

fn as_str(v: &[u8], index: usize) -> Result<&str, ValueError> {
    std::str::from_utf8(v).map_err(|_| ValueError { index, error: anyhow!("value is not valid UTF-8") })
}

/// A library error about value `index`.
fn at(index: usize) -> impl Fn(tessera::Error) -> ValueError {
    move |e| ValueError { index, error: e.into() }
}

impl Transform for FpeTransform<'_> {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        self.batch.clear();
        for i in 0..input.len() {
            let s = as_str(input.get(i), i)?;
            if s.is_empty() {
                return Err(ValueError { index: i, error: anyhow!("empty value") });
            }
            self.batch.push(s).map_err(at(i))?;
        }
        self.batch.transform(self.direction, Tweaks::Same(&self.tweak)).map_err(|e| match e {
            tessera::Error::Batch { index, source } => ValueError { index, error: anyhow!("{source}") },
            e => at(0)(e),
        })?;
        for i in 0..self.batch.len() {
            self.batch.append_utf8(i, &mut out.data).map_err(at(i))?;
            out.ends.push(out.data.len());
        }
        Ok(())
    }
}

pub fn run(args: &FpeArgs, direction: Direction) -> Result<()> {
    if args.keyset.keyset.is_some() {
        use crate::keyset_use::fpe;
        return fpe(args, direction.into());
    }
    if args.from.given() {
        anyhow::bail!("--from-* options name the tokens that `tessera fpe rewrap --keyset` moves");
    }
    let key = args.key.read()?;
    let tweak = parse_hex("--tweak", &args.tweak)?;
    let alphabet = Alphabet::new(&args.alphabet).context("--alphabet")?;
    let cipher = args.algorithm.cipher(&key, alphabet).context("key")?;
    // Reject a bad tweak before reading any input.
    cipher.check_tweak(&tweak).context("--tweak")?;
    if direction == Direction::Encrypt {
        check_withdrawn(args.algorithm, args.allow_withdrawn)?;
    }
    let format =
        TokenFormat::new().passthrough(&args.passthrough).keep_prefix(args.keep_prefix).keep_suffix(args.keep_suffix);
    let make = || Ok(Box::new(FpeTransform::new(&*cipher, &format, tweak.clone(), direction)?) as Box<_>);
    records::process(&args.records, &args.records.columns, &[], make)
}
