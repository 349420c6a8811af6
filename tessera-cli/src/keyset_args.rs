//! How a command names a keyset and opens it: the file, its protection
//! (a password, a team's certificates and keys, or cleartext) and, for
//! `tessera fpe` and `tessera siv`, the transformation.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use tessera::keyset::{Keyset, Protection, TransformParams};
use tessera::openpgp::key::Cert;
use zeroize::Zeroizing;

use crate::io::{PasswordArgs, prompt};
use tessera_cli::signing::{read_all_certs, read_secret_keys};

/// How the keyset file is protected: a password (file or environment
/// variable), certificates (a team's keyset: encrypted to each member's
/// certificate and signed by the member who wrote it, opened with a
/// member's secret key), or cleartext when asked for by name.
#[derive(Args, Debug, Clone)]
pub struct Protect {
    /// File holding the keyset's password (the whole file, one trailing newline stripped).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["keyset_password_env", "keyset_recipient", "keyset_key"])]
    pub keyset_password_file: Option<PathBuf>,
    /// Environment variable holding the keyset's password.
    #[arg(long, value_name = "VAR", conflicts_with_all = ["keyset_recipient", "keyset_key"])]
    pub keyset_password_env: Option<String>,
    /// A team member's certificate (repeat for each): the keyset is encrypted to
    /// these, and accepted only when signed by one of them.
    #[arg(long, value_name = "CERT")]
    pub keyset_recipient: Vec<PathBuf>,
    /// Your secret key: it opens the keyset, and signs it when a command changes it.
    #[arg(long, value_name = "KEY")]
    pub keyset_key: Option<PathBuf>,
    /// File holding the password of a locked --keyset-key.
    #[arg(long, value_name = "FILE", requires = "keyset_key")]
    pub keyset_key_password_file: Option<PathBuf>,
    /// Read or write the keyset as cleartext JSON, key bytes in hex (unsafe at rest).
    #[arg(long, conflicts_with_all = ["keyset_password_file", "keyset_password_env", "keyset_recipient", "keyset_key"])]
    pub insecure_cleartext: bool,
}

/// What [`Protect`] read: the password or the certificates and keys.
enum Sealing {
    Cleartext,
    Password(Zeroizing<Vec<u8>>),
    Certificates { recipients: Vec<Cert>, keys: Vec<Cert> },
}

/// The keyset password typed on a terminal, asked for once a run: a
/// command that opens the keyset and writes it back uses the same one. A
/// keyset written without being opened first is new, and its password is
/// asked twice.
fn typed_keyset_password(new: bool) -> Result<Zeroizing<Vec<u8>>> {
    static TYPED: std::sync::OnceLock<Zeroizing<Vec<u8>>> = std::sync::OnceLock::new();
    if let Some(pw) = TYPED.get() {
        return Ok(pw.clone());
    }
    let flags = "--keyset-password-file, --keyset-password-env, --keyset-key/--keyset-recipient \
                 or (for a cleartext one) --insecure-cleartext";
    let pw = if new {
        prompt::ask_new("a password for the new keyset", flags)?
    } else {
        prompt::ask("the keyset's password", flags)?
    };
    Ok(TYPED.get_or_init(|| pw).clone())
}

impl Protect {
    fn read(&self, new: bool) -> Result<Sealing> {
        if self.insecure_cleartext {
            return Ok(Sealing::Cleartext);
        }
        if !self.keyset_recipient.is_empty() || self.keyset_key.is_some() {
            let recipients = read_all_certs(&self.keyset_recipient)?;
            let password = match &self.keyset_key_password_file {
                Some(f) => Some(PasswordArgs::read_file(f)?),
                None => None,
            };
            let keys = match &self.keyset_key {
                Some(path) => {
                    read_secret_keys(path, password.as_deref().map(|p| &p[..]), "--keyset-key-password-file")?
                }
                None => Vec::new(),
            };
            return Ok(Sealing::Certificates { recipients, keys });
        }
        if self.keyset_password_file.is_none() && self.keyset_password_env.is_none() {
            return typed_keyset_password(new).map(Sealing::Password);
        }
        let args = PasswordArgs {
            password_file: self.keyset_password_file.clone(),
            password_env: self.keyset_password_env.clone(),
        };
        args.read().map(Sealing::Password)
    }

    /// Runs `f` with the protection these flags ask for.
    fn with<R>(
        &self,
        new: bool,
        f: impl FnOnce(Protection<'_>) -> tessera::keyset::Result<R>,
    ) -> Result<tessera::keyset::Result<R>> {
        Ok(match &self.read(new)? {
            Sealing::Cleartext => f(Protection::InsecureCleartext),
            Sealing::Password(p) => f(Protection::Password(p)),
            Sealing::Certificates { recipients, keys } => f(Protection::Certificates { recipients, keys }),
        })
    }

    /// Opens the keyset at `path`.
    pub fn open(&self, path: &Path) -> Result<Keyset> {
        self.with(false, |p| Keyset::open(path, p))?.with_context(|| format!("cannot open keyset {}", path.display()))
    }

    /// Writes the keyset to `path` atomically (0600; the old file stays on error).
    pub fn save(&self, ks: &Keyset, path: &Path) -> Result<()> {
        self.with(true, |p| ks.save(path, p))?.with_context(|| format!("cannot write keyset {}", path.display()))
    }
}

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

impl KeysetUse {
    /// Opens the keyset and picks the transformation of the wanted kind.
    pub fn open(&self, siv: bool) -> Result<(Keyset, String)> {
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
