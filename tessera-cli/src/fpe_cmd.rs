//! `tessera fpe encrypt|decrypt`: one value per line (or CSV columns), in batches.

use anyhow::{Context, Result, anyhow};
use clap::{Args, ValueEnum};
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, TokenFormat, Tweaks};

use crate::io::{KeyArgs, Output, open_input, parse_hex};
use crate::records::{self, Outputs, RecordArgs, Transform, ValueError, Values};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algorithm {
    Ff1,
    #[value(name = "ff3-1")]
    Ff3_1,
    /// Withdrawn by NIST; only to decrypt existing tokens.
    Ff3,
}

#[derive(Args, Debug)]
pub struct FpeArgs {
    /// The AES key (16, 24 or 32 bytes).
    #[command(flatten)]
    pub key: KeyArgs,
    #[arg(long, value_enum, default_value = "ff1")]
    pub algorithm: Algorithm,
    /// The alphabet: the i-th character is numeral i.
    #[arg(long, default_value = "0123456789")]
    pub alphabet: String,
    /// Tweak as hex (FF3-1: exactly 7 bytes; FF3: 8 bytes; FF1: any length).
    #[arg(long, default_value = "")]
    pub tweak: String,
    /// Characters kept in place and not encrypted (e.g. "-" or " -").
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub passthrough: String,
    /// Leave the first N alphabet characters of each value in clear.
    #[arg(long, default_value_t = 0)]
    pub keep_prefix: usize,
    /// Leave the last N alphabet characters of each value in clear.
    #[arg(long, default_value_t = 0)]
    pub keep_suffix: usize,
    #[command(flatten)]
    pub records: RecordArgs,
}

/// Builds the cipher the arguments describe.
pub fn cipher(alg: Algorithm, key: &[u8], alphabet: &str) -> Result<Box<dyn Fpe>> {
    let a = Alphabet::new(alphabet).context("--alphabet")?;
    Ok(match alg {
        Algorithm::Ff1 => Box::new(FF1::new(key, a).context("key")?),
        Algorithm::Ff3_1 => Box::new(FF3_1::new(key, a).context("key")?),
        Algorithm::Ff3 => Box::new(FF3::new(key, a).context("key")?),
    })
}

/// Tokenizes batches of text values with the library's batch API.
pub struct FpeTransform {
    pub cipher: Box<dyn Fpe>,
    pub format: TokenFormat,
    pub tweak: Vec<u8>,
    pub encrypt: bool,
    nums: Vec<u16>,
    ends: Vec<usize>,
    text: String,
}

impl FpeTransform {
    pub fn new(cipher: Box<dyn Fpe>, format: TokenFormat, tweak: Vec<u8>, encrypt: bool) -> Self {
        FpeTransform { cipher, format, tweak, encrypt, nums: Vec::new(), ends: Vec::new(), text: String::new() }
    }
}

fn as_str(v: &[u8], index: usize) -> Result<&str, ValueError> {
    std::str::from_utf8(v).map_err(|_| ValueError { index, error: anyhow!("value is not valid UTF-8") })
}

impl Transform for FpeTransform {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        let alphabet = self.cipher.alphabet().expect("built with an alphabet");
        let plain = self.format.is_plain();
        self.nums.clear();
        self.ends.clear();
        for i in 0..input.len() {
            let s = as_str(input.get(i), i)?;
            if s.is_empty() {
                return Err(ValueError { index: i, error: anyhow!("empty value") });
            }
            let start = self.nums.len();
            self.nums.resize(start + s.len(), 0);
            let slot = &mut self.nums[start..];
            let n = if plain { alphabet.to_numerals(s, slot) } else { self.format.extract(alphabet, s, slot) }
                .map_err(|e| ValueError { index: i, error: e.into() })?;
            self.nums.truncate(start + n);
            self.ends.push(self.nums.len());
        }
        let tweaks = Tweaks::Same(&self.tweak);
        let r = if self.encrypt {
            self.cipher.encrypt_batch(tweaks, &mut self.nums, &self.ends)
        } else {
            self.cipher.decrypt_batch(tweaks, &mut self.nums, &self.ends)
        };
        r.map_err(|e| match e {
            tessera::Error::Batch { index, source } => ValueError { index, error: anyhow!("{source}") },
            e => ValueError { index: 0, error: e.into() },
        })?;
        let mut start = 0;
        for (i, &end) in self.ends.iter().enumerate() {
            if plain {
                alphabet.push_utf8(&self.nums[start..end], &mut out.data);
            } else {
                self.text.clear();
                let s = as_str(input.get(i), i)?;
                self.format
                    .merge(alphabet, s, &self.nums[start..end], &mut self.text)
                    .map_err(|e| ValueError { index: i, error: e.into() })?;
                out.data.extend_from_slice(self.text.as_bytes());
            }
            out.ends.push(out.data.len());
            start = end;
        }
        Ok(())
    }
}

pub fn run(args: &FpeArgs, encrypt: bool) -> Result<()> {
    let key = args.key.read()?;
    let tweak = parse_hex("--tweak", &args.tweak)?;
    let cipher = cipher(args.algorithm, &key, &args.alphabet)?;
    // Reject a bad tweak before reading any input.
    let (min, _) = cipher.len_range();
    let mut probe = vec![0u16; min];
    cipher.encrypt_numerals(&tweak, &mut probe).context("--tweak")?;
    let format =
        TokenFormat::new().passthrough(&args.passthrough).keep_prefix(args.keep_prefix).keep_suffix(args.keep_suffix);
    if let Some(c) = args.passthrough.chars().find(|&c| cipher.alphabet().is_some_and(|a| a.numeral(c).is_some())) {
        anyhow::bail!("--passthrough character {c:?} is also in the alphabet");
    }
    let mut t = FpeTransform::new(cipher, format, tweak, encrypt);
    let mut input = open_input(args.records.input.as_deref())?;
    let mut out = Output::create(args.records.output.as_deref())?;
    if args.records.csv {
        records::csv(&mut input, &mut out, &args.records.columns, &mut t)?;
    } else {
        records::lines(&mut input, &mut out, &mut t)?;
    }
    out.commit()
}
