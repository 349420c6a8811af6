//! `--keyset KS --keyset-password-file F [--transform NAME]` on `tessera
//! fpe` and `tessera siv`: encrypt under the primary key, decrypt under the
//! version that made the value, rewrap to the primary.

use std::io::Write;

use anyhow::{Context, Result, bail};
use tessera::keyset::TransformParams;

use crate::fpe_cmd::FpeArgs;
use crate::io::{Output, WholeInput, parse_hex};
use crate::keyset_args::KeysetUse;
use crate::keyset_values::{FpeValues, Op, SivValues, with_flag};
use crate::siv_cmd::SivArgs;
use tessera_cli::records::{self, PerColumn, Transform};

/// `tessera fpe encrypt|decrypt|rewrap --keyset ...`, one value per line or
/// CSV columns; a transformation whose tweak comes from a field of each
/// record reads that CSV column.
pub fn fpe(args: &FpeArgs, op: Op) -> Result<()> {
    let tweak = if args.tweak.is_empty() { None } else { Some(parse_hex("--tweak", &args.tweak)?) };
    if let Some(columns) = ColumnMap::parse(&args.records.columns) {
        if args.from.given() {
            bail!("--from-* options move the tokens of one column; name one column without =TRANSFORM");
        }
        let opts = PerColumnOptions { tweak, ad: Vec::new(), version: args.keyset.version, op };
        return per_column(&args.keyset, &args.records, &columns, &opts, args.allow_withdrawn);
    }
    let (ks, name) = args.keyset.open(false)?;
    let first = ks.fpe(&name)?;
    let version = args.keyset.version;
    let from = match (args.from.given(), op) {
        (false, _) => None,
        (true, Op::Rewrap) if version.is_some() => {
            bail!("--version names the target's own tokens; the source's version is --from-version")
        }
        (true, Op::Rewrap) => Some(args.from.open(&ks)?),
        (true, _) => bail!("--from-* options name the tokens that `tessera fpe rewrap` moves"),
    };
    check_op(&first, op, version, from.is_some(), args.allow_withdrawn)?;
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
    records::process(&args.records, &args.records.columns, &[field.as_deref()], make)
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
    if let Some(columns) = ColumnMap::parse(&args.records.columns) {
        let opts = PerColumnOptions { tweak: None, ad, version: None, op };
        return per_column(&args.keyset, &args.records, &columns, &opts, false);
    }
    let (ks, name) = args.keyset.open(true)?;
    if args.lines || args.records.csv {
        let make = || Ok(Box::new(SivValues::new(ks.siv(&name)?, ad.clone(), op)) as Box<_>);
        return records::process(&args.records, &args.records.columns, &[], make);
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

/// `--columns card=cards,email=emails,zip`: each CSV column and the keyset
/// transformation it goes through (`None`: the one `--transform` names, or
/// the keyset's only one of the command's kind).
#[derive(Debug)]
struct ColumnMap(Vec<(String, Option<String>)>);

impl ColumnMap {
    /// The map, if any column names its transformation.
    fn parse(columns: &[String]) -> Option<ColumnMap> {
        if !columns.iter().any(|c| c.contains('=')) {
            return None;
        }
        let split = |c: &String| match c.split_once('=') {
            Some((col, t)) => (col.to_string(), Some(t.to_string())),
            None => (c.clone(), None),
        };
        Some(ColumnMap(columns.iter().map(split).collect()))
    }
}

/// What the per-column pass does, from the command's flags: `tweak` and
/// `version` go to FPE columns, `ad` to AES-SIV ones.
struct PerColumnOptions {
    tweak: Option<Vec<u8>>,
    ad: Vec<u8>,
    version: Option<u32>,
    op: Op,
}

/// `tessera fpe|siv encrypt|decrypt|rewrap --keyset KS --csv --columns
/// a=x,b=y`: one pass over the CSV, each column through its own keyset
/// transformation (FPE and AES-SIV mixed), with the output of one pass per
/// column. Every transformation is checked before any input is read.
fn per_column(
    keyset: &KeysetUse,
    records: &records::RecordArgs,
    columns: &ColumnMap,
    o: &PerColumnOptions,
    allow_withdrawn: bool,
) -> Result<()> {
    if !records.csv {
        bail!("--columns COLUMN=TRANSFORM names CSV columns: give --csv");
    }
    let path = keyset.keyset.as_ref().context("--columns COLUMN=TRANSFORM needs --keyset FILE")?;
    let ks = keyset.protect.open(path)?;
    let mut names = Vec::new();
    let mut plan: Vec<(String, String)> = Vec::new();
    for (column, transform) in &columns.0 {
        let transform = match transform {
            Some(t) => t.clone(),
            None => keyset.transform.clone().with_context(|| {
                format!("column {column:?} names no transformation: give {column}=NAME or --transform NAME")
            })?,
        };
        match plan.iter().find(|(c, _)| c == column) {
            Some((_, t)) if *t != transform => {
                bail!("column {column:?} is given two transformations, {t:?} and {transform:?}")
            }
            Some(_) => continue,
            None => {}
        }
        names.push(column.clone());
        plan.push((column.clone(), transform));
    }
    let mut tweak_fields = Vec::new();
    for (column, name) in &plan {
        match &ks.transform(name)?.params {
            TransformParams::Fpe(_) => {
                let fpe = ks.fpe(name)?;
                check_op(&fpe, o.op, o.version, false, allow_withdrawn)
                    .with_context(|| format!("column {column:?}"))?;
                if fpe.tweak_field().is_some() && o.tweak.is_some() {
                    bail!(
                        "column {column:?}: its transformation takes its tweak from a field of each record: give no --tweak"
                    );
                }
                tweak_fields.push(fpe.tweak_field().map(str::to_owned));
            }
            TransformParams::Siv(_) if o.version.is_some() => {
                bail!(
                    "column {column:?} is AES-SIV ({name:?}), whose ciphertexts name their key: --version is for FPE columns"
                )
            }
            TransformParams::Siv(_) => tweak_fields.push(None),
        }
    }
    let tweak_refs: Vec<Option<&str>> = tweak_fields.iter().map(Option::as_deref).collect();
    let make = || {
        let mut parts: Vec<Box<dyn Transform + Send>> = Vec::with_capacity(plan.len());
        for (_, name) in &plan {
            parts.push(match &ks.transform(name)?.params {
                TransformParams::Fpe(_) => {
                    let (fpe, tweak, version, op) = (ks.fpe(name)?, o.tweak.clone(), o.version, o.op);
                    Box::new(FpeValues { fpe, tweak, version, op, from: None })
                }
                TransformParams::Siv(_) => Box::new(SivValues::new(ks.siv(name)?, o.ad.clone(), o.op)),
            });
        }
        Ok(Box::new(PerColumn::new(parts)) as Box<dyn Transform + Send>)
    };
    records::process(records, &names, &tweak_refs, make)
}

/// The checks made before any input is read: encryption takes no version;
/// a decryption or rewrap must be able to tell the tokens' key version
/// (unless a `--from-*` source made them); making tokens with a withdrawn
/// method needs the opt-in.
fn check_op(
    fpe: &tessera::keyset::FpeTransform,
    op: Op,
    version: Option<u32>,
    from_given: bool,
    allow_withdrawn: bool,
) -> Result<()> {
    match op {
        Op::Encrypt if version.is_some() => {
            bail!("encryption always uses the primary key version ({}): give no --version", fpe.primary())
        }
        Op::Encrypt => Ok(()),
        Op::Decrypt => fpe.check_decrypt(version),
        Op::Rewrap if from_given => Ok(()),
        Op::Rewrap => fpe.check_rewrap(version),
    }
    .map_err(with_flag)?;
    if op != Op::Decrypt {
        tessera_cli::check_withdrawn(fpe.params().algorithm.algorithm(), allow_withdrawn)?;
    }
    Ok(())
}
