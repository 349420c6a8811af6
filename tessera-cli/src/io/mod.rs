//! Files at the edge: key and password files or variables, inputs, and
//! outputs that appear only on success. Shared by `tessera` and `tessera-sop`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tessera::fs::IO_BUFFER;
use zeroize::Zeroizing;

mod output;
pub mod prompt;
pub use output::{Output, is_text};

/// Input files larger than this get a progress bar (on a terminal).
const PROGRESS_FROM: u64 = 8 << 20;

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
        tessera::hex::decode_key(&raw).map_err(|e| match e {
            tessera::Error::EmptyKey => {
                anyhow::anyhow!("{} is empty; make a key with `tessera keygen --bytes 32 -o FILE`", self.describe())
            }
            _ => anyhow::anyhow!("{} does not hold a hex key (write one with `tessera keygen`)", self.describe()),
        })
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
    /// The password in the file `path` (as a `--…-password-file` option
    /// names one), read as [`read`](Self::read) reads it.
    pub fn read_file(path: &Path) -> Result<Zeroizing<Vec<u8>>> {
        PasswordArgs { password_file: Some(path.to_path_buf()), password_env: None }.read()
    }

    /// The password in the file `path` when one is named.
    pub fn read_optional_file(path: Option<&Path>) -> Result<Option<Zeroizing<Vec<u8>>>> {
        path.map(Self::read_file).transpose()
    }

    /// Reads the password. Its contents never appear in an error.
    pub fn read(&self) -> Result<Zeroizing<Vec<u8>>> {
        let pw = match (&self.password_file, &self.password_env) {
            (Some(path), _) => {
                prompt::warn_if_open(path, "password file");
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

/// The bytes of an environment variable, if it is set: as they are on
/// Unix, UTF-8 on Windows (the platform's encoding of `OsString`).
pub fn env_bytes(var: &str) -> Option<Vec<u8>> {
    std::env::var_os(var).map(std::ffi::OsString::into_encoded_bytes)
}

/// The most threads `--threads` takes. Far above any core count, yet low
/// enough that every thread count a pipeline derives from it (two buffers
/// per thread, a name each) stays small.
pub const MAX_THREADS: usize = 1024;

/// Parses `--threads`: 0 (one per core) to [`MAX_THREADS`].
///
/// ```
/// use tessera_cli::io::parse_threads;
/// assert_eq!(parse_threads("0"), Ok(0));
/// assert_eq!(parse_threads("1024"), Ok(1024));
/// assert!(parse_threads("1025").is_err());
/// ```
pub fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n <= MAX_THREADS as u64 => Ok(n as usize),
        _ => Err(format!("a thread count is 0 (one per core) to {MAX_THREADS}")),
    }
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
    tessera::hex::decode(s)
        .map_err(|_| anyhow::anyhow!("{what} must be hex (an even number of 0-9a-f digits), got {s:?}"))
}

/// The one place that decides what `-` means: a path of `-` (input or
/// output, of any command) names stdin or stdout, as no path does.
///
/// ```
/// use std::path::Path;
/// use tessera_cli::io::file_path;
/// assert_eq!(file_path(Some(Path::new("-"))), None);
/// assert_eq!(file_path(Some(Path::new("./-"))), Some(Path::new("./-")));
/// assert_eq!(file_path(None), None);
/// ```
pub fn file_path(path: Option<&Path>) -> Option<&Path> {
    path.filter(|p| p.as_os_str() != "-")
}

/// Standard input holds one input: a second one asked of it (`-r -` with
/// the data on stdin too) would find it already read, and quietly be empty.
fn take_stdin() -> Result<()> {
    static TAKEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if TAKEN.swap(true, std::sync::atomic::Ordering::Relaxed) {
        bail!("stdin can hold only one input: give the others as files (only one may be - or left out)");
    }
    Ok(())
}

/// Opens `--input` (or stdin), with a progress bar on a terminal for files.
pub fn open_input(path: Option<&Path>) -> Result<Box<dyn BufRead + Send>> {
    Ok(Box::new(BufReader::with_capacity(IO_BUFFER, open_sized(path)?.0)))
}

/// An input opened unbuffered.
pub enum Input {
    /// A file (stdin's descriptor, or `--input`): the library may read it
    /// at offsets ([`tessera::openpgp::Encryptor::copy_from_file`]).
    File(File),
    /// A stream (a pipe, or a file behind a progress bar), with the length
    /// of the file behind it (0 if unknown).
    Stream(Box<dyn Read + Send>, u64),
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::File(file) => f.debug_tuple("File").field(file).finish(),
            Input::Stream(_, len) => f.debug_tuple("Stream").field(len).finish(),
        }
    }
}

/// Opens `--input` (or stdin) unbuffered; a file larger than 8 MiB gets a
/// progress bar when stderr is a terminal.
pub fn open_unbuffered(path: Option<&Path>) -> Result<Input> {
    let Some(p) = file_path(path) else {
        take_stdin()?;
        return Ok(match stdin_file() {
            Some(f) => Input::File(f),
            None => Input::Stream(Box::new(io::stdin()), 0),
        });
    };
    let f = File::open(p).with_context(|| format!("cannot open input {}", p.display()))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if io::stderr().is_terminal() && len > PROGRESS_FROM {
        let bar = indicatif::ProgressBar::new(len).with_style(
            indicatif::ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
                .expect("valid template"),
        );
        return Ok(Input::Stream(Box::new(bar.wrap_read(f)), len));
    }
    Ok(Input::File(f))
}

/// Opens `--input` (or stdin) unbuffered, and says how many bytes it holds
/// if it is a regular file (0 if unknown).
fn open_sized(path: Option<&Path>) -> Result<(Box<dyn Read + Send>, u64)> {
    Ok(match open_unbuffered(path)? {
        Input::File(f) => {
            let len = f.metadata().ok().filter(std::fs::Metadata::is_file).map_or(0, |m| m.len());
            (Box::new(f), len)
        }
        Input::Stream(r, len) => (r, len),
    })
}

/// An input read whole (AES-SIV needs all of a message before it can
/// start): [`WholeInput::read`] reads it in one allocation when it is a
/// regular file (its size is known), straight into the result.
pub struct WholeInput {
    inner: Box<dyn Read + Send>,
    len: u64,
}

impl std::fmt::Debug for WholeInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WholeInput").field("len", &self.len).finish_non_exhaustive()
    }
}

impl WholeInput {
    /// Opens `--input` (or stdin).
    pub fn open(path: Option<&Path>) -> Result<Self> {
        let (inner, len) = open_sized(path)?;
        Ok(WholeInput { inner, len })
    }

    /// Reads everything, after `room` zero bytes (room for a tag in front).
    pub fn read(mut self, room: usize) -> Result<Vec<u8>> {
        // One byte more than the file so the final read finds the end without growing.
        let hint = usize::try_from(self.len).unwrap_or(0).saturating_add(room + 1);
        let mut data = Vec::with_capacity(hint);
        data.resize(room, 0);
        self.inner.read_to_end(&mut data).context("cannot read input")?;
        Ok(data)
    }
}

/// Standard input as a file of its own (a duplicate of descriptor 0), so
/// that reads skip the standard library's stdin lock and buffer.
#[cfg(unix)]
fn stdin_file() -> Option<File> {
    use std::os::fd::AsFd;
    io::stdin().as_fd().try_clone_to_owned().ok().map(File::from)
}

#[cfg(not(unix))]
fn stdin_file() -> Option<File> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_from_files_and_variables() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("key");
        std::fs::write(&file, b"00112233 44556677\n8899aabb ccddeeff\n").unwrap();
        let from_file = KeyArgs { key_file: Some(file.clone()), key_env: None };
        assert_eq!(from_file.read().unwrap()[..], (0..16u8).map(|i| i * 0x11).collect::<Vec<_>>()[..]);
        std::fs::write(&file, b" \n").unwrap();
        assert!(
            from_file
                .read()
                .unwrap_err()
                .to_string()
                .ends_with("is empty; make a key with `tessera keygen --bytes 32 -o FILE`")
        );
        std::fs::write(&file, b"0011x2").unwrap();
        let e = from_file.read().unwrap_err().to_string();
        assert_eq!(e, format!("key file {} does not hold a hex key (write one with `tessera keygen`)", file.display()));
        let missing = KeyArgs { key_file: None, key_env: Some("TESSERA_CLI_IO_TEST_UNSET".into()) };
        assert_eq!(
            missing.read().unwrap_err().to_string(),
            "environment variable TESSERA_CLI_IO_TEST_UNSET is not set"
        );
    }

    #[test]
    fn whole_inputs_come_after_the_room_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in");
        let data: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let read = WholeInput::open(Some(&path)).unwrap().read(16).unwrap();
        assert_eq!((&read[..16], &read[16..]), (&[0u8; 16][..], &data[..]));
        assert_eq!(WholeInput::open(Some(&path)).unwrap().read(0).unwrap(), data);
        let e = WholeInput::open(Some(&dir.path().join("missing"))).unwrap_err().to_string();
        assert!(e.starts_with("cannot open input"), "{e}");
    }

    #[test]
    fn hex_values() {
        assert_eq!(parse_hex("--ad", " 0aFf ").unwrap(), [0x0a, 0xff]);
        assert_eq!(parse_hex("--ad", "").unwrap(), Vec::<u8>::new());
        let e = parse_hex("--nonce", "abc").unwrap_err().to_string();
        assert_eq!(e, "--nonce must be hex (an even number of 0-9a-f digits), got \"abc\"");
    }
}
