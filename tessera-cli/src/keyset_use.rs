//! `--keyset KS --keyset-password-file F [--transform NAME]` on `tessera
//! fpe` and `tessera siv`: encrypt under the primary key, decrypt under the
//! version that made the value, rewrap to the primary.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use tessera::keyset::{FpeTransform, Keyset, SivTransform, TransformParams};
use tessera::siv::base64url;

use crate::fpe_cmd::FpeArgs;
use crate::io::{Output, WholeInput, parse_hex};
use crate::keyset_cmd::Protect;
use crate::siv_cmd::SivArgs;
use tessera_cli::records::{self, Outputs, Transform, ValueError, Values};

/// Keyset options of `tessera fpe` and `tessera siv`. `--keyset` stands in
/// for `--key-file`/`--key-env` (it joins their group, so exactly one of
/// the three is required), and the keyset's parameters replace the
/// per-call flags.
#[derive(Args, Debug)]
pub struct KeysetUse {
    /// Use this keyset (its transformation's parameters and keys) instead of a key file.
    #[arg(long, value_name = "FILE", group = "KeyArgs")]
    pub keyset: Option<PathBuf>,
    #[command(flatten)]
    pub protect: Protect,
    /// The transformation to use (default: the keyset's only one of this kind).
    #[arg(long, value_name = "NAME", requires = "keyset")]
    pub transform: Option<String>,
    /// FPE with external key versions: the version that made the input tokens
    /// (decrypt and rewrap; default: the primary).
    #[arg(long, value_name = "N", requires = "keyset")]
    pub version: Option<u32>,
}

/// What to do with each value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Encrypt,
    Decrypt,
    /// Decrypt under the version that made the value, encrypt under the primary.
    Rewrap,
}

impl From<tessera::Direction> for Op {
    fn from(d: tessera::Direction) -> Op {
        match d {
            tessera::Direction::Encrypt => Op::Encrypt,
            tessera::Direction::Decrypt => Op::Decrypt,
        }
    }
}

impl KeysetUse {
    /// Opens the keyset and picks the transformation of the wanted kind.
    fn open(&self, siv: bool) -> Result<(Keyset, String)> {
        let path = self.keyset.as_ref().context("give --keyset FILE")?;
        let ks = self.protect.open(path)?;
        let kind = |t: &&tessera::keyset::Transform| matches!(t.params, TransformParams::Siv(_)) == siv;
        let name = match &self.transform {
            Some(n) => n.clone(),
            None => match ks.transforms().iter().filter(kind).collect::<Vec<_>>().as_slice() {
                [one] => one.name.clone(),
                [] => bail!("{} holds no {} transformation", path.display(), if siv { "AES-SIV" } else { "FPE" }),
                _ => bail!("{} holds several transformations of this kind: name one with --transform", path.display()),
            },
        };
        Ok((ks, name))
    }
}

fn as_str(v: &[u8], index: usize) -> Result<&str, ValueError> {
    std::str::from_utf8(v).map_err(|_| ValueError { index, error: anyhow!("value is not valid UTF-8") })
}

struct FpeValues {
    fpe: FpeTransform,
    tweak: Option<Vec<u8>>,
    version: Option<u32>,
    op: Op,
    text: String,
}

impl Transform for FpeValues {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        let tweak = self.tweak.as_deref();
        let values = (0..input.len()).map(|i| as_str(input.get(i), i)).collect::<Result<Vec<&str>, _>>()?;
        // A failure about one value names it (the library's batch index).
        let err = |e: tessera::keyset::Error| match e {
            tessera::keyset::Error::Crypto(tessera::Error::Batch { index, source }) => {
                ValueError { index, error: anyhow!("{source}") }
            }
            e => ValueError { index: 0, error: e.into() },
        };
        match self.op {
            Op::Encrypt => self.fpe.encrypt_batch(tweak, &values, &mut out.data, &mut out.ends).map_err(err)?,
            Op::Decrypt => {
                self.fpe.decrypt_batch(tweak, &values, self.version, &mut out.data, &mut out.ends).map_err(err)?
            }
            Op::Rewrap => {
                for (i, v) in values.iter().enumerate() {
                    let r = self.fpe.rewrap_into(tweak, v, self.version, &mut self.text);
                    r.map_err(|e| ValueError { index: i, error: e.into() })?;
                    out.data.extend_from_slice(self.text.as_bytes());
                    out.ends.push(out.data.len());
                }
            }
        }
        Ok(())
    }
}

/// `tessera fpe encrypt|decrypt|rewrap --keyset ...`, one value per line or CSV columns.
pub fn fpe(args: &FpeArgs, op: Op) -> Result<()> {
    let (ks, name) = args.keyset.open(false)?;
    let tweak = if args.tweak.is_empty() { None } else { Some(parse_hex("--tweak", &args.tweak)?) };
    let make = || {
        let fpe = ks.fpe(&name)?;
        Ok(Box::new(FpeValues { fpe, tweak: tweak.clone(), version: args.keyset.version, op, text: String::new() })
            as Box<_>)
    };
    records::process(&args.records, make)
}

struct SivValues {
    siv: SivTransform,
    ad: Vec<u8>,
    op: Op,
    bytes: Vec<u8>,
}

impl Transform for SivValues {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        for i in 0..input.len() {
            let err = |e: tessera::keyset::Error| ValueError { index: i, error: e.into() };
            let v = input.get(i);
            if self.op == Op::Encrypt {
                self.bytes.clear();
                self.siv.encrypt_append(&self.ad, v, &mut self.bytes).map_err(err)?;
                base64url::encode(&self.bytes, &mut out.data);
            } else {
                self.bytes.clear();
                base64url::decode(v, &mut self.bytes).map_err(|e| ValueError { index: i, error: e.into() })?;
                match self.op {
                    Op::Decrypt => out.data.extend_from_slice(&self.siv.decrypt(&self.ad, &self.bytes).map_err(err)?),
                    _ => base64url::encode(&self.siv.rewrap(&self.ad, &self.bytes).map_err(err)?, &mut out.data),
                }
            }
            out.ends.push(out.data.len());
        }
        Ok(())
    }
}

/// `tessera siv encrypt|decrypt|rewrap --keyset ...`: binary on stdin and
/// stdout (Tink's bytes: prefix `|| V || C`), or base64url per value with
/// `--lines` / `--csv`. Exactly one associated-data string, as in Tink
/// (empty without `--ad`).
pub fn siv(args: &SivArgs, op: Op) -> Result<()> {
    if args.ad.len() > 1 || args.nonce.is_some() {
        bail!("with --keyset, AES-SIV takes one --ad (Tink's associated data) and no --nonce");
    }
    let ad = args.ad.first().map(|a| parse_hex("--ad", a)).transpose()?.unwrap_or_default();
    let (ks, name) = args.keyset.open(true)?;
    if args.lines || args.records.csv {
        let make = || Ok(Box::new(SivValues { siv: ks.siv(&name)?, ad: ad.clone(), op, bytes: Vec::new() }) as Box<_>);
        return records::process(&args.records, make);
    }
    let siv = ks.siv(&name)?;
    let path = args.records.output.as_deref();
    let mut out = if op == Op::Decrypt { Output::create(path)? } else { Output::create_binary(path)? };
    let data = zeroize::Zeroizing::new(WholeInput::open(args.records.input.as_deref())?.read(0)?);
    let result = match op {
        Op::Encrypt => zeroize::Zeroizing::new(siv.encrypt(&ad, &data)?),
        Op::Decrypt => siv.decrypt(&ad, &data)?,
        Op::Rewrap => zeroize::Zeroizing::new(siv.rewrap(&ad, &data)?),
    };
    out.write_all(&result).context("cannot write output")?;
    out.commit()
}
