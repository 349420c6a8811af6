//! Files at the edge: key files, inputs, and outputs that appear only on success.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use zeroize::Zeroizing;

/// Where a key comes from: a file or an environment variable, never the
/// command line itself (it would land in shell history and `ps` output).
#[derive(clap::Args, Debug)]
#[group(required = true, multiple = false)]
pub struct KeyArgs {
    /// File holding the key as hex (whitespace ignored; `tessera keygen` writes one).
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// Environment variable holding the key as hex (for containers and CI secrets).
    #[arg(long, value_name = "VAR")]
    pub key_env: Option<String>,
}

impl KeyArgs {
    /// Reads and decodes the key. Its contents never appear in an error.
    pub fn read(&self) -> Result<Zeroizing<Vec<u8>>> {
        let raw = Zeroizing::new(match (&self.key_file, &self.key_env) {
            (Some(path), _) => {
                std::fs::read(path).with_context(|| format!("cannot read key file {}", path.display()))?
            }
            (None, Some(var)) => env_bytes(var).with_context(|| format!("environment variable {var} is not set"))?,
            (None, None) => bail!("no key: give --key-file or --key-env"),
        });
        let digits: Zeroizing<Vec<u8>> =
            Zeroizing::new(raw.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect());
        if digits.is_empty() {
            bail!("{} is empty; make a key with `tessera keygen --bytes 32 -o FILE`", self.describe());
        }
        if !digits.len().is_multiple_of(2) || !digits.iter().all(u8::is_ascii_hexdigit) {
            bail!("{} does not hold a hex key (write one with `tessera keygen`)", self.describe());
        }
        let nibble = |c: u8| (c as char).to_digit(16).expect("checked hex") as u8;
        Ok(Zeroizing::new(digits.chunks_exact(2).map(|p| nibble(p[0]) << 4 | nibble(p[1])).collect()))
    }

    /// Names the source for messages: "key file F" or "environment variable V".
    pub fn describe(&self) -> String {
        match (&self.key_file, &self.key_env) {
            (Some(path), _) => format!("key file {}", path.display()),
            (None, Some(var)) => format!("environment variable {var}"),
            (None, None) => "the key".into(),
        }
    }
}

/// Where a password comes from: a file (the whole file, one trailing newline
/// stripped) or an environment variable (taken as is).
#[derive(clap::Args, Debug)]
#[group(required = true, multiple = false)]
pub struct PasswordArgs {
    /// File holding the password (the whole file, one trailing newline stripped).
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Environment variable holding the password.
    #[arg(long, value_name = "VAR")]
    pub password_env: Option<String>,
}

impl PasswordArgs {
    /// Reads the password. Its contents never appear in an error.
    pub fn read(&self) -> Result<Zeroizing<Vec<u8>>> {
        let pw = match (&self.password_file, &self.password_env) {
            (Some(path), _) => {
                let mut pw = Zeroizing::new(
                    std::fs::read(path).with_context(|| format!("cannot read password file {}", path.display()))?,
                );
                let strip = if pw.ends_with(b"\r\n") { 2 } else { pw.ends_with(b"\n") as usize };
                let n = pw.len() - strip;
                pw.truncate(n);
                pw
            }
            (None, Some(var)) => {
                Zeroizing::new(env_bytes(var).with_context(|| format!("environment variable {var} is not set"))?)
            }
            (None, None) => bail!("no password: give --password-file or --password-env"),
        };
        if pw.is_empty() {
            let empty = tessera::openpgp::EMPTY_PASSWORD;
            match (&self.password_file, &self.password_env) {
                (Some(path), _) => bail!("password file {}: {empty}", path.display()),
                (_, var) => bail!("environment variable {}: {empty}", var.as_deref().unwrap_or("")),
            }
        }
        Ok(pw)
    }
}

/// The raw bytes of an environment variable, if it is set.
fn env_bytes(var: &str) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStringExt;
    std::env::var_os(var).map(OsStringExt::into_vec)
}

/// Parses a size: a number with an optional binary suffix K, M, G or T
/// (`256M` = 256 MiB).
pub fn parse_size(s: &str) -> std::result::Result<u64, String> {
    let s = s.trim();
    let (digits, shift) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => match c.to_ascii_uppercase() {
            'K' => (&s[..i], 10),
            'M' => (&s[..i], 20),
            'G' => (&s[..i], 30),
            'T' => (&s[..i], 40),
            _ => return Err(format!("unknown size suffix {c:?} (K, M, G or T)")),
        },
        _ => (s, 0),
    };
    let n: u64 = digits.parse().map_err(|_| format!("{s:?} is not a size (a number, optionally with K, M, G or T)"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("{s:?} is too large"))
}

/// Parses a hex command-line value (tweaks, associated data, nonces).
pub fn parse_hex(what: &str, s: &str) -> Result<Vec<u8>> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("{what} must be hex (an even number of 0-9a-f digits), got {s:?}");
    }
    Ok((0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("checked hex")).collect())
}

/// Opens `--input` (or stdin), with a progress bar on a terminal for files.
pub fn open_input(path: Option<&Path>) -> Result<Box<dyn BufRead>> {
    match path {
        None => Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin()))),
        Some(p) => {
            let f = File::open(p).with_context(|| format!("cannot open input {}", p.display()))?;
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            let r: Box<dyn Read> = if io::stderr().is_terminal() && len > 8 << 20 {
                let bar = indicatif::ProgressBar::new(len).with_style(
                    indicatif::ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
                        .expect("valid template"),
                );
                Box::new(bar.wrap_read(f))
            } else {
                Box::new(f)
            };
            Ok(Box::new(BufReader::with_capacity(1 << 16, r)))
        }
    }
}

/// Where results go: stdout, or a temporary file beside `--output` that is
/// renamed into place by [`Output::commit`]. Dropped without commit, the
/// temporary file is removed and no output file appears.
pub struct Output {
    inner: Sink,
}

enum Sink {
    Stdout(io::BufWriter<io::Stdout>),
    File { tmp: io::BufWriter<tempfile::NamedTempFile>, path: PathBuf },
}

impl Output {
    pub fn create(path: Option<&Path>) -> Result<Self> {
        let inner = match path {
            None => Sink::Stdout(io::BufWriter::with_capacity(1 << 16, io::stdout())),
            Some(p) => {
                let dir = match p.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let tmp = tempfile::Builder::new()
                    .prefix(".tessera-")
                    .suffix(".partial")
                    .tempfile_in(dir)
                    .with_context(|| format!("cannot create a file in {}", dir.display()))?;
                Sink::File { tmp: io::BufWriter::with_capacity(1 << 16, tmp), path: p.to_path_buf() }
            }
        };
        Ok(Output { inner })
    }

    /// Flushes and, for a file, renames it into place.
    pub fn commit(self) -> Result<()> {
        match self.inner {
            Sink::Stdout(mut w) => w.flush().context("cannot write to stdout"),
            Sink::File { tmp, path } => {
                let tmp = tmp.into_inner().map_err(|e| e.into_error()).context("cannot write output")?;
                tmp.as_file().sync_all().context("cannot write output")?;
                tmp.persist(&path).map_err(|e| e.error).with_context(|| format!("cannot create {}", path.display()))?;
                Ok(())
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.inner {
            Sink::Stdout(w) => w.write(buf),
            Sink::File { tmp, .. } => tmp.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.inner {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::File { tmp, .. } => tmp.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Sink::Stdout(w) => w.flush(),
            Sink::File { tmp, .. } => tmp.flush(),
        }
    }
}
