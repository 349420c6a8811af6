//! `tessera keyset ...`: create, rotate, list, and convert keysets
//! (argument parsing and printing; the work is in `tessera::keyset`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use tessera::keyset::{
    DateRange, FpeAlgorithm, FpeParams, KeyStatus, KeyVersionMode, Keyset, LuhnRule, OutputPrefix, SivParams, Template,
    Transform, TransformParams, TweakPolicy,
};
use zeroize::Zeroizing;

use crate::io::{Output, WholeInput};
use crate::keyset_args::Protect;
use tessera_cli::signing::timestamp;

/// The keyset file to read and change, and its protection.
#[derive(Args, Debug)]
pub struct KeysetFile {
    /// The keyset file.
    #[arg(long, value_name = "FILE")]
    pub keyset: PathBuf,
    #[command(flatten)]
    pub protect: Protect,
}

#[derive(Subcommand, Debug)]
#[expect(clippy::large_enum_variant, reason = "parsed once per run")]
pub enum KeysetOp {
    /// Create a keyset file (-o) or add a transformation to one (--keyset), with one fresh key.
    New(NewArgs),
    /// Add a fresh key version to a transformation (enabled, not primary); prints its number.
    Add(VersionArgs),
    /// Make a version the primary (the one that encrypts).
    Promote(VersionArgs),
    /// Enable a disabled version again.
    Enable(VersionArgs),
    /// Disable a version (not the primary): its values are refused until enabled.
    Disable(VersionArgs),
    /// Destroy a disabled version (not the primary): its key bytes leave the file for good.
    Destroy(VersionArgs),
    /// List transformations and key versions (never key bytes).
    List(ListArgs),
    /// Read a Tink JSON cleartext keyset of AES-SIV keys into a keyset.
    ImportTink(ImportArgs),
    /// Write an AES-SIV transformation as a Tink JSON cleartext keyset.
    ExportTink(ExportArgs),
}

/// Where `new` and `import-tink` write: a new file, or an existing keyset.
#[derive(Args, Debug)]
#[group(id = "target", required = true, multiple = false)]
pub struct Target {
    /// Create this keyset file (refused if it exists).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Add to this existing keyset file.
    #[arg(long, value_name = "FILE")]
    pub keyset: Option<PathBuf>,
}

impl Target {
    fn load(&self, protect: &Protect) -> Result<(Keyset, &Path)> {
        match (&self.output, &self.keyset) {
            (Some(out), _) if out.exists() => {
                bail!("{} exists; use --keyset {} to add to it", out.display(), out.display())
            }
            (Some(out), _) => Ok((Keyset::new(), out)),
            (None, Some(ks)) => Ok((protect.open(ks)?, ks)),
            (None, None) => bail!("give -o FILE or --keyset FILE"),
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Algorithm {
    Ff1,
    #[value(name = "ff3-1")]
    Ff3_1,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum VersionMode {
    External,
    Embedded,
}

#[derive(Args, Debug)]
pub struct NewArgs {
    #[command(flatten)]
    pub target: Target,
    #[command(flatten)]
    pub protect: Protect,
    /// Name of the transformation.
    #[arg(long, value_name = "NAME")]
    pub transform: String,
    /// Start from a built-in template: card, ssn, digits, alphanumeric, email-local, date, siv.
    #[arg(long, value_name = "NAME")]
    pub template: Option<String>,
    /// AES-SIV (Tink-compatible deterministic encryption) instead of FPE.
    #[arg(long, conflicts_with_all = ["template", "alphabet"])]
    pub siv: bool,
    /// AES-SIV: new keys write no prefix (Tink RAW) instead of 0x01 + key ID.
    #[arg(long, requires = "siv")]
    pub raw: bool,
    /// FPE algorithm (default ff1; ff3-1 is withdrawn by NIST and needs --allow-withdrawn).
    #[arg(long, value_enum)]
    pub algorithm: Option<Algorithm>,
    /// Create an FF3-1 transformation although NIST withdrew the method.
    #[arg(long, requires = "algorithm")]
    pub allow_withdrawn: bool,
    /// FPE alphabet (the i-th character is numeral i).
    #[arg(long, value_name = "CHARS")]
    pub alphabet: Option<String>,
    /// Characters kept in place, unencrypted.
    #[arg(long, value_name = "CHARS")]
    pub passthrough: Option<String>,
    /// Leading alphabet characters kept in clear.
    #[arg(long, value_name = "N")]
    pub keep_prefix: Option<usize>,
    /// Trailing alphabet characters kept in clear.
    #[arg(long, value_name = "N")]
    pub keep_suffix: Option<usize>,
    /// Fixed tweak (hex) stored in the keyset.
    #[arg(long, value_name = "HEX", conflicts_with = "tweak_per_call")]
    pub tweak: Option<String>,
    /// The tweak is given with each call (`--tweak` on `tessera fpe`).
    #[arg(long)]
    pub tweak_per_call: bool,
    /// The tweak of each value is this field of its record (the CSV column of
    /// that name on `tessera fpe --csv`; not empty; 7 bytes for FF3-1).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["tweak", "tweak_per_call"])]
    pub tweak_field: Option<String>,
    /// Whether tokens carry their key version (embedded) or the caller names it (external).
    #[arg(long, value_enum)]
    pub key_version: Option<VersionMode>,
    /// Embedded mode: the characters of the first encrypted position (radix x slots).
    #[arg(long, value_name = "CHARS")]
    pub embedded_alphabet: Option<String>,
    /// Card numbers: every value must pass the Luhn check; tokens pass it too, or fail it so
    /// that no token can be taken for a card number.
    #[arg(long, value_enum, conflicts_with = "date_range")]
    pub luhn: Option<LuhnArg>,
    /// Dates (YYYY-MM-DD) in FIRST..LAST, tokens in the same range (at least 1,000,000 days;
    /// the date template's default is 0001-01-01..9999-12-31).
    #[arg(long, value_name = "FIRST..LAST")]
    pub date_range: Option<String>,
    /// Version 1 holds this existing key (hex) instead of a fresh one: the key of tokens or
    /// ciphertexts made with --key-file, to decrypt them or move them with `rewrap --from-transform`.
    #[arg(long, value_name = "FILE", conflicts_with = "key_env")]
    pub key_file: Option<PathBuf>,
    /// As --key-file, from an environment variable.
    #[arg(long, value_name = "VAR")]
    pub key_env: Option<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LuhnArg {
    /// Tokens pass the Luhn check.
    Pass,
    /// Tokens fail the Luhn check.
    Fail,
}

#[derive(Args, Debug)]
pub struct VersionArgs {
    #[command(flatten)]
    pub file: KeysetFile,
    /// The transformation.
    #[arg(long, value_name = "NAME")]
    pub transform: String,
    /// The key version (AES-SIV: the key ID).
    #[arg(long, value_name = "N")]
    pub version: Option<u32>,
}

#[derive(Args, Debug)]
pub struct ListArgs {
    #[command(flatten)]
    pub file: KeysetFile,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The Tink JSON cleartext keyset to read.
    #[arg(long, value_name = "FILE")]
    pub cleartext: PathBuf,
    #[command(flatten)]
    pub target: Target,
    #[command(flatten)]
    pub protect: Protect,
    /// Name of the new transformation.
    #[arg(long, value_name = "NAME", default_value = "tink")]
    pub transform: String,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Acknowledge that the output holds the keys in clear (required).
    #[arg(long, required = true)]
    pub cleartext: bool,
    #[command(flatten)]
    pub file: KeysetFile,
    /// The AES-SIV transformation (default: the only one).
    #[arg(long, value_name = "NAME")]
    pub transform: Option<String>,
    /// Write here (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(op: &KeysetOp) -> Result<()> {
    match op {
        KeysetOp::New(a) => new(a),
        KeysetOp::Add(a) => rotate(a, "add"),
        KeysetOp::Promote(a) => rotate(a, "promote"),
        KeysetOp::Enable(a) => rotate(a, "enable"),
        KeysetOp::Disable(a) => rotate(a, "disable"),
        KeysetOp::Destroy(a) => rotate(a, "destroy"),
        KeysetOp::List(a) => list(a),
        KeysetOp::ImportTink(a) => import(a),
        KeysetOp::ExportTink(a) => export(a),
    }
}

fn params(a: &NewArgs) -> Result<TransformParams> {
    if a.siv {
        let output_prefix = if a.raw { OutputPrefix::Raw } else { OutputPrefix::Tink };
        return Ok(TransformParams::Siv(SivParams { output_prefix, ..SivParams::default() }));
    }
    let base = match &a.template {
        Some(name) => Template::from_name(name).map(Template::params).with_context(|| {
            let names: Vec<_> = Template::ALL.iter().map(|t| t.name()).collect();
            format!("no template {name:?}; the templates are {}", names.join(", "))
        })?,
        None => TransformParams::Fpe(FpeParams::new(a.alphabet.as_deref().unwrap_or("0123456789"))),
    };
    let TransformParams::Fpe(mut p) = base else { return Ok(base) };
    if let Some(alg) = a.algorithm {
        p.algorithm = match alg {
            Algorithm::Ff1 => FpeAlgorithm::Ff1,
            Algorithm::Ff3_1 => FpeAlgorithm::Ff3_1,
        };
        tessera_cli::check_withdrawn(p.algorithm.algorithm(), a.allow_withdrawn)?;
        if matches!(alg, Algorithm::Ff3_1) && a.tweak.is_none() && !a.tweak_per_call && a.tweak_field.is_none() {
            p.tweak = TweakPolicy::Fixed { hex: "00".repeat(7) };
        }
    }
    p.alphabet = a.alphabet.clone().unwrap_or(p.alphabet);
    p.passthrough = a.passthrough.clone().unwrap_or(p.passthrough);
    p.keep_prefix = a.keep_prefix.unwrap_or(p.keep_prefix);
    p.keep_suffix = a.keep_suffix.unwrap_or(p.keep_suffix);
    if let Some(hex) = &a.tweak {
        p.tweak = TweakPolicy::Fixed { hex: hex.trim().to_ascii_lowercase() };
    }
    if a.tweak_per_call {
        p.tweak = TweakPolicy::Call;
    }
    if let Some(name) = &a.tweak_field {
        p.tweak = TweakPolicy::Field { name: name.clone() };
    }
    if let Some(m) = a.key_version {
        p.key_version = match m {
            VersionMode::External => KeyVersionMode::External,
            VersionMode::Embedded => KeyVersionMode::Embedded,
        };
    }
    p.embedded_alphabet = a.embedded_alphabet.clone();
    if let Some(rule) = a.luhn {
        p.luhn = Some(match rule {
            LuhnArg::Pass => LuhnRule::Pass,
            LuhnArg::Fail => LuhnRule::Fail,
        });
    }
    if let Some(range) = &a.date_range {
        let (first, last) = range.split_once("..").context("--date-range FIRST..LAST, e.g. 0001-01-01..9999-12-31")?;
        p.date = Some(DateRange { first: first.into(), last: last.into() });
    }
    Ok(TransformParams::Fpe(p))
}

fn new(a: &NewArgs) -> Result<()> {
    let (mut ks, path) = a.target.load(&a.protect)?;
    let id = if a.key_file.is_some() || a.key_env.is_some() {
        let key = crate::io::KeyArgs { key_file: a.key_file.clone(), key_env: a.key_env.clone() }.read()?;
        ks.add_transform_with_key(&a.transform, params(a)?, &key)?
    } else {
        ks.add_transform(&a.transform, params(a)?)?
    };
    a.protect.save(&ks, path)?;
    eprintln!("tessera: transformation {:?} created with key version {id} (primary)", a.transform);
    Ok(())
}

fn rotate(a: &VersionArgs, op: &str) -> Result<()> {
    let mut ks = a.file.protect.open(&a.file.keyset)?;
    let name = a.transform.as_str();
    let version = || a.version.with_context(|| format!("`keyset {op}` needs --version N"));
    match op {
        "add" => {
            let id = ks.add_key(name)?;
            println!("{id}");
        }
        "promote" => ks.promote(name, version()?)?,
        "enable" => ks.enable(name, version()?)?,
        "disable" => ks.disable(name, version()?)?,
        _ => ks.destroy(name, version()?).map_err(|e| match e {
            tessera::keyset::Error::DestroyEnabled { version, .. } => {
                anyhow::anyhow!("{e} (tessera keyset disable --transform {name:?} --version {version})")
            }
            e => e.into(),
        })?,
    }
    a.file.protect.save(&ks, &a.file.keyset)
}

fn describe(t: &Transform) -> String {
    match &t.params {
        TransformParams::Siv(p) => {
            let prefix = if p.output_prefix == OutputPrefix::Raw { "RAW" } else { "TINK" };
            format!("AES-SIV (Tink-compatible), new keys {prefix}")
        }
        TransformParams::Fpe(p) => {
            let tweak = match &p.tweak {
                TweakPolicy::Fixed { hex } if hex.is_empty() => "none".into(),
                TweakPolicy::Fixed { hex } => format!("fixed {hex}"),
                TweakPolicy::Call => "per call".into(),
                TweakPolicy::Field { name } => format!("field {name}"),
            };
            let alg = if p.algorithm == FpeAlgorithm::Ff1 { "FF1" } else { "FF3-1" };
            let mode = if p.key_version == KeyVersionMode::Embedded { "embedded" } else { "external" };
            let subset = match (&p.luhn, &p.date) {
                (Some(LuhnRule::Pass), _) => ", card numbers, tokens pass the Luhn check".to_string(),
                (Some(LuhnRule::Fail), _) => ", card numbers, tokens fail the Luhn check".to_string(),
                (None, Some(r)) => format!(", dates {}..{}", r.first, r.last),
                (None, None) => String::new(),
            };
            format!(
                "FPE {alg} alphabet {:?} passthrough {:?} keep {}+{} tweak {tweak}, {mode} key versions{subset}",
                p.alphabet, p.passthrough, p.keep_prefix, p.keep_suffix
            )
        }
    }
}

fn list(a: &ListArgs) -> Result<()> {
    let ks = a.file.protect.open(&a.file.keyset)?;
    let mut out = std::io::stdout().lock();
    for t in ks.transforms() {
        writeln!(out, "{}: {}", t.name, describe(t))?;
        for k in &t.keys {
            let status = match k.status {
                KeyStatus::Enabled => "enabled",
                KeyStatus::Disabled => "disabled",
                KeyStatus::Destroyed => "destroyed",
            };
            let primary = if k.id == t.primary { " primary" } else { "" };
            let prefix = match k.output_prefix {
                Some(OutputPrefix::Tink) => " TINK-prefixed",
                Some(OutputPrefix::Raw) => " RAW",
                None => "",
            };
            writeln!(out, "  version {} {status}{primary}{prefix} created {}", k.id, timestamp(k.created))?;
        }
    }
    Ok(())
}

fn import(a: &ImportArgs) -> Result<()> {
    let (mut ks, path) = a.target.load(&a.protect)?;
    let json = Zeroizing::new(WholeInput::open(Some(&a.cleartext))?.read(0)?);
    ks.import_tink(&a.transform, &json).with_context(|| format!("cannot import {}", a.cleartext.display()))?;
    a.protect.save(&ks, path)
}

fn export(a: &ExportArgs) -> Result<()> {
    let ks = a.file.protect.open(&a.file.keyset)?;
    let name = match &a.transform {
        Some(n) => n.clone(),
        None => {
            let sivs: Vec<&Transform> =
                ks.transforms().iter().filter(|t| matches!(t.params, TransformParams::Siv(_))).collect();
            match sivs.as_slice() {
                [one] => one.name.clone(),
                [] => bail!("the keyset has no AES-SIV transformation to export"),
                _ => bail!("the keyset has several AES-SIV transformations: name one with --transform"),
            }
        }
    };
    let json = ks.export_tink(&name)?;
    let mut out = Output::create(a.output.as_deref())?;
    out.write_all(&json).context("cannot write the Tink keyset")?;
    out.commit()
}
