//! `--keyset KS --keyset-password-file F [--transform NAME]` on `tessera
//! fpe` and `tessera siv`: encrypt under the primary key, decrypt under the
//! version that made the value, rewrap to the primary.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use tessera::keyset::{BatchTweaks, FpeTransform, Keyset, SivTransform, TransformParams};
use tessera::siv::{MessageBatch, base64url};

use crate::fpe_cmd::FpeArgs;
use crate::fpe_migrate::Source;
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
    /// FPE: the key version that made the input tokens (decrypt and rewrap;
    /// refused on encrypt and on AES-SIV). External versions: required by
    /// rewrap, and by decrypt while several versions are enabled; embedded
    /// versions: checked against each token.
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

/// A library error, with the flag that resolves it where there is one.
fn with_flag(e: tessera::keyset::Error) -> anyhow::Error {
    use tessera::keyset::Error;
    match e {
        Error::VersionAmbiguous { .. } | Error::RewrapSourceUnknown { .. } | Error::RewrapFromPrimary { .. } => {
            anyhow!("{e} (--version N)")
        }
        e => e.into(),
    }
}

/// A library error about one value of a batch (or about the whole batch:
/// reported at its first value).
fn value_error(e: tessera::keyset::Error) -> ValueError {
    use tessera::keyset::Error;
    match e {
        Error::Crypto(tessera::Error::Batch { index, source }) => ValueError { index, error: anyhow!("{source}") },
        Error::Batch { index, source } => ValueError { index, error: with_flag(*source) },
        e => ValueError { index: 0, error: with_flag(e) },
    }
}

struct FpeValues<'a> {
    fpe: FpeTransform,
    tweak: Option<Vec<u8>>,
    version: Option<u32>,
    op: Op,
    /// Rewrap: the tokens' source when it is not `fpe`'s own older versions.
    from: Option<&'a Source>,
}

impl Transform for FpeValues<'_> {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        let values = (0..input.len()).map(|i| as_str(input.get(i), i)).collect::<Result<Vec<&str>, _>>()?;
        // Tweak policy `field`: each value's tweak is its record's field.
        let per_value: Vec<&[u8]>;
        let tweaks = if self.fpe.tweak_field().is_some() {
            per_value = (0..input.len()).map(|i| input.tweak(i).unwrap_or_default()).collect();
            BatchTweaks::PerValue(&per_value)
        } else {
            self.tweak.as_deref().into()
        };
        let (data, ends) = (&mut out.data, &mut out.ends);
        match self.op {
            Op::Encrypt => self.fpe.encrypt_batch(tweaks, &values, data, ends),
            Op::Decrypt => self.fpe.decrypt_batch(tweaks, &values, self.version, data, ends),
            Op::Rewrap => match self.from {
                Some(from) => self.fpe.migrate_batch(&from.tokens(), tweaks, &values, data, ends),
                None => self.fpe.rewrap_batch(tweaks, &values, self.version, data, ends),
            },
        }
        .map_err(value_error)
    }
}

/// `tessera fpe encrypt|decrypt|rewrap --keyset ...`, one value per line or
/// CSV columns; a transformation whose tweak comes from a field of each
/// record reads that CSV column.
pub fn fpe(args: &FpeArgs, op: Op) -> Result<()> {
    let (ks, name) = args.keyset.open(false)?;
    let tweak = if args.tweak.is_empty() { None } else { Some(parse_hex("--tweak", &args.tweak)?) };
    let first = ks.fpe(&name)?;
    // Refuse a decryption or rewrap that cannot know the tokens' key version
    // before any input is read.
    let version = args.keyset.version;
    if op == Op::Encrypt && version.is_some() {
        bail!("encryption always uses the primary key version ({}): give no --version", first.primary());
    }
    let from = match (args.from.given(), op) {
        (false, _) => None,
        (true, Op::Rewrap) if version.is_some() => {
            bail!("--version names the target's own tokens; the source's version is --from-version")
        }
        (true, Op::Rewrap) => Some(args.from.open(&ks)?),
        (true, _) => bail!("--from-* options name the tokens that `tessera fpe rewrap` moves"),
    };
    match op {
        Op::Encrypt => Ok(()),
        Op::Decrypt => first.check_decrypt(version),
        Op::Rewrap if from.is_some() => Ok(()),
        Op::Rewrap => first.check_rewrap(version),
    }
    .map_err(with_flag)?;
    if op != Op::Decrypt {
        crate::fpe_cmd::check_withdrawn(first.params().algorithm.algorithm(), args.allow_withdrawn)?;
    }
    let field = first.tweak_field().map(str::to_owned);
    if let Some(f) = &field {
        let what = format!("transformation {name:?} takes its tweak from the field {f:?} of each record");
        if tweak.is_some() {
            bail!("{what}: give no --tweak");
        }
        if !args.records.csv {
            bail!("{what}: give --csv and --columns (the CSV must have a column {f:?})");
        }
    }
    let make = || {
        let fpe = ks.fpe(&name)?;
        Ok(Box::new(FpeValues { fpe, tweak: tweak.clone(), version, op, from: from.as_ref() }) as Box<_>)
    };
    records::process(&args.records, field.as_deref(), make)
}

/// AES-SIV values through the library's batch calls (one S2V of the
/// associated data per batch); ciphertexts as unpadded base64url.
struct SivValues {
    siv: SivTransform,
    ad: Vec<u8>,
    op: Op,
    batch: MessageBatch,
    /// Rewrap's output; one ciphertext (prefix `|| V || C`) to encode.
    res: Vec<u8>,
    ends: Vec<usize>,
}

impl Transform for SivValues {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        self.batch.clear();
        for i in 0..input.len() {
            if self.op == Op::Encrypt {
                self.batch.push(input.get(i));
            } else {
                self.batch.push_base64url(input.get(i)).map_err(|e| ValueError { index: i, error: e.into() })?;
            }
        }
        let (res, ends, ad) = (&mut self.res, &mut self.ends, &self.ad[..]);
        let mut put = |bytes: &[u8], base64: bool| {
            if base64 {
                base64url::encode(bytes, &mut out.data);
            } else {
                out.data.extend_from_slice(bytes);
            }
            out.ends.push(out.data.len());
        };
        match self.op {
            Op::Encrypt => self.siv.encrypt_batch_each(ad, &mut self.batch, |prefix, ct| {
                res.clear();
                res.extend_from_slice(prefix);
                res.extend_from_slice(ct);
                put(res, true);
            }),
            Op::Decrypt => self.siv.decrypt_batch_each(ad, &mut self.batch, |pt| put(pt, false)),
            Op::Rewrap => {
                res.clear();
                ends.clear();
                self.siv.rewrap_batch(ad, &mut self.batch, res, ends).map(|()| {
                    let mut start = 0;
                    for &end in ends.iter() {
                        put(&res[start..end], true);
                        start = end;
                    }
                })
            }
        }
        .map_err(value_error)
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
    if args.keyset.version.is_some() {
        bail!("AES-SIV ciphertexts name their key (TINK prefix) or are tried with every RAW key: give no --version");
    }
    let ad = args.ad.first().map(|a| parse_hex("--ad", a)).transpose()?.unwrap_or_default();
    let (ks, name) = args.keyset.open(true)?;
    if args.lines || args.records.csv {
        let make = || {
            let (siv, batch, ad) = (ks.siv(&name)?, MessageBatch::new(), ad.clone());
            Ok(Box::new(SivValues { siv, ad, op, batch, res: Vec::new(), ends: Vec::new() }) as Box<_>)
        };
        return records::process(&args.records, None, make);
    }
    let siv = ks.siv(&name)?;
    let path = args.records.output.as_deref();
    let mut out = if op == Op::Decrypt { Output::create_plaintext(path)? } else { Output::create_binary(path)? };
    let data = zeroize::Zeroizing::new(WholeInput::open(args.records.input.as_deref())?.read(0)?);
    let result = match op {
        Op::Encrypt => zeroize::Zeroizing::new(siv.encrypt(&ad, &data)?),
        Op::Decrypt => siv.decrypt(&ad, &data)?,
        Op::Rewrap => zeroize::Zeroizing::new(siv.rewrap(&ad, &data)?),
    };
    out.write_all(&result).context("cannot write output")?;
    out.commit()
}
