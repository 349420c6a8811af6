//! The source options of `tessera fpe rewrap --keyset …`: tokens made by a
//! key file (any method: FF3-1 and FF3 migrate without a warning) or by
//! another transformation of the keyset, moved to `--transform` in one pass.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use tessera::fpe::{Algorithm, Alphabet, Fpe, TokenFormat};
use tessera::keyset::{BatchTweaks, FpeTransform, Keyset, TokenSource};

use crate::io::{KeyArgs, parse_hex};

/// Where the tokens that `fpe rewrap` moves come from, when not from the
/// target transformation's own older versions.
#[derive(Args, Debug)]
#[command(next_help_heading = "Migration source (fpe rewrap)")]
pub struct MigrateFrom {
    /// Rewrap tokens made with the key in this file (hex) and the --from-* parameters.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["from_key_env", "from_transform"])]
    pub from_key_file: Option<PathBuf>,
    /// Rewrap tokens made with the key in this environment variable (hex).
    #[arg(long, value_name = "VAR", conflicts_with = "from_transform")]
    pub from_key_env: Option<String>,
    /// The method that made the tokens [default: ff1].
    #[arg(long, value_parser = tessera_cli::named::<Algorithm>(Algorithm::NAMES.map(clap::builder::PossibleValue::new)))]
    pub from_algorithm: Option<Algorithm>,
    /// The tokens' tweak as hex (with --from-transform: its per-call tweak).
    #[arg(long, value_name = "HEX")]
    pub from_tweak: Option<String>,
    /// The tokens' alphabet [default: 0123456789].
    #[arg(long)]
    pub from_alphabet: Option<String>,
    /// Characters the tokens kept in place.
    #[arg(long, allow_hyphen_values = true)]
    pub from_passthrough: Option<String>,
    /// Alphabet characters the tokens left in clear at the start.
    #[arg(long, value_name = "N")]
    pub from_keep_prefix: Option<usize>,
    /// Alphabet characters the tokens left in clear at the end.
    #[arg(long, value_name = "N")]
    pub from_keep_suffix: Option<usize>,
    /// Rewrap tokens made by this other transformation of the keyset.
    #[arg(long, value_name = "NAME")]
    pub from_transform: Option<String>,
    /// The key version of --from-transform that made the tokens.
    #[arg(long, value_name = "N", requires = "from_transform")]
    pub from_version: Option<u32>,
}

impl MigrateFrom {
    /// Whether any source option was given.
    pub fn given(&self) -> bool {
        self.from_key_file.is_some()
            || self.from_key_env.is_some()
            || self.from_transform.is_some()
            || self.params_given()
    }

    /// Whether a parameter of a key-file source was given.
    fn params_given(&self) -> bool {
        self.from_algorithm.is_some()
            || self.from_alphabet.is_some()
            || self.from_passthrough.is_some()
            || self.from_keep_prefix.is_some()
            || self.from_keep_suffix.is_some()
    }

    /// Reads the source: its cipher or transformation, checked before any input is read.
    pub fn open(&self, ks: &Keyset) -> Result<Source> {
        let tweak = self.from_tweak.as_deref().map(|t| parse_hex("--from-tweak", t)).transpose()?;
        if let Some(name) = &self.from_transform {
            if self.params_given() {
                bail!(
                    "--from-transform takes its parameters from the keyset: give no --from-algorithm, --from-alphabet, ..."
                );
            }
            let fpe = ks.fpe(name).with_context(|| format!("--from-transform {name}"))?;
            if fpe.tweak_field().is_some() {
                bail!(
                    "--from-transform {name}: its tweak comes from a field of each record; rewrap it with its own keyset call"
                );
            }
            fpe.check_decrypt(self.from_version).context("--from-version")?;
            return Ok(Source::Transform { fpe: Box::new(fpe), tweak, version: self.from_version });
        }
        let key = KeyArgs { key_file: self.from_key_file.clone(), key_env: self.from_key_env.clone() };
        if key.key_file.is_none() && key.key_env.is_none() {
            bail!("give the tokens' key with --from-key-file or --from-key-env (or --from-transform NAME)");
        }
        let key = key.read()?;
        let alphabet =
            Alphabet::new(self.from_alphabet.as_deref().unwrap_or("0123456789")).context("--from-alphabet")?;
        let cipher = self.from_algorithm.unwrap_or(Algorithm::Ff1).cipher(&key, alphabet).context("--from-key-file")?;
        let tweak = tweak.unwrap_or_default();
        cipher.check_tweak(&tweak).context("--from-tweak")?;
        let format = TokenFormat::new()
            .passthrough(self.from_passthrough.as_deref().unwrap_or(""))
            .keep_prefix(self.from_keep_prefix.unwrap_or(0))
            .keep_suffix(self.from_keep_suffix.unwrap_or(0));
        Ok(Source::Cipher { cipher, format, tweak })
    }
}

/// An opened migration source, shared by the workers.
pub enum Source {
    /// A cipher from a key file.
    Cipher { cipher: Box<dyn Fpe>, format: TokenFormat, tweak: Vec<u8> },
    /// Another transformation of the keyset.
    Transform { fpe: Box<FpeTransform>, tweak: Option<Vec<u8>>, version: Option<u32> },
}

impl Source {
    /// The library's view of it.
    pub fn tokens(&self) -> TokenSource<'_> {
        match self {
            Source::Cipher { cipher, format, tweak } => TokenSource::Cipher { cipher: &**cipher, format, tweak },
            Source::Transform { fpe, tweak, version } => {
                TokenSource::Transform { fpe, tweaks: BatchTweaks::from(tweak.as_deref()), version: *version }
            }
        }
    }
}
