//! Keysets opened once: the settings name a keyset file and where its
//! password is; an opened keyset is kept, in this process, under its path,
//! the file's size and modification time and its password (compared in
//! constant time), so a query binds without unsealing the file again and
//! an edited file or another password opens it afresh. Unsealing (Argon2)
//! happens at bind time, never per chunk.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use subtle::ConstantTimeEq;
use tessera::keyset::{Keyset, Protection};
use zeroize::Zeroizing;

/// Where the keyset's password is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordSource {
    /// A file: the whole file, one trailing newline (`\n` or `\r\n`) stripped.
    File(PathBuf),
    /// An environment variable, taken as it is.
    Env(String),
}

impl PasswordSource {
    /// Reads the password; an error names the source, never its contents.
    pub fn read(&self) -> Result<Zeroizing<Vec<u8>>, String> {
        let pw = match self {
            PasswordSource::File(path) => {
                let mut pw = Zeroizing::new(
                    std::fs::read(path).map_err(|e| format!("cannot read password file {}: {e}", path.display()))?,
                );
                let strip = if pw.ends_with(b"\r\n") { 2 } else { usize::from(pw.ends_with(b"\n")) };
                let n = pw.len() - strip;
                pw.truncate(n);
                pw
            }
            PasswordSource::Env(var) => Zeroizing::new(
                std::env::var_os(var)
                    .ok_or_else(|| format!("environment variable {var} is not set"))?
                    .into_encoded_bytes(),
            ),
        };
        if pw.is_empty() {
            return Err(format!("{self}: {}", tessera::openpgp::EMPTY_PASSWORD));
        }
        Ok(pw)
    }
}

impl std::fmt::Display for PasswordSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PasswordSource::File(p) => write!(f, "password file {}", p.display()),
            PasswordSource::Env(v) => write!(f, "environment variable {v}"),
        }
    }
}

/// One opened keyset and what it was opened from.
struct Entry {
    path: PathBuf,
    stamp: (u64, Option<SystemTime>),
    password: Zeroizing<Vec<u8>>,
    keyset: Arc<Keyset>,
}

/// How many opened keysets are kept (the oldest is dropped first).
const KEPT: usize = 8;

static OPENED: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// The file's size and modification time.
fn stamp(path: &Path) -> Result<(u64, Option<SystemTime>), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read keyset {}: {e}", path.display()))?;
    Ok((meta.len(), meta.modified().ok()))
}

/// The keyset at `path`, unsealed with the password from `source`: the one
/// already opened from the same file (same size and modification time)
/// with the same password, or opened now and kept.
pub fn open(path: &Path, source: &PasswordSource) -> Result<Arc<Keyset>, String> {
    let password = source.read()?;
    let stamp = stamp(path)?;
    let same = |e: &Entry| e.path == path && e.stamp == stamp && bool::from(e.password.ct_eq(&password));
    if let Some(e) = OPENED.lock().map_err(|_| "keyset cache poisoned")?.iter().find(|e| same(e)) {
        return Ok(Arc::clone(&e.keyset));
    }
    let keyset = Keyset::open(path, Protection::Password(&password))
        .map_err(|e| format!("cannot open keyset {} with the {source}: {e}", path.display()))?;
    let keyset = Arc::new(keyset);
    let mut opened = OPENED.lock().map_err(|_| "keyset cache poisoned")?;
    opened.retain(|e| !same(e));
    if opened.len() >= KEPT {
        opened.remove(0);
    }
    opened.push(Entry { path: path.to_path_buf(), stamp, password, keyset: Arc::clone(&keyset) });
    Ok(keyset)
}

#[cfg(test)]
mod tests {
    use tessera::keyset::Template;
    use tessera::openpgp::{EncryptOptions, S2kChoice};

    use super::*;

    fn write_keyset(path: &Path, password: &[u8], name: &str) {
        let mut ks = Keyset::new();
        ks.add_transform(name, Template::Digits.params()).unwrap();
        let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..Default::default() };
        std::fs::write(path, ks.to_bytes_with(Protection::Password(password), &opts).unwrap()).unwrap();
    }

    #[test]
    fn a_keyset_is_unsealed_once_per_file_state_and_password() {
        let dir = tempfile::tempdir().unwrap();
        let (ks, pw) = (dir.path().join("ks.tks"), dir.path().join("pw"));
        write_keyset(&ks, b"s3cret", "numbers");
        std::fs::write(&pw, "s3cret\r\n").unwrap();
        let file = PasswordSource::File(pw.clone());
        let first = open(&ks, &file).unwrap();
        assert!(Arc::ptr_eq(&first, &open(&ks, &file).unwrap()));

        std::fs::write(&pw, "not-it-7Q\n").unwrap();
        let e = open(&ks, &file).unwrap_err();
        assert!(e.contains("cannot open keyset") && !e.contains("not-it-7Q"), "{e}");

        // Another file at the same path (other contents, so another size): opened afresh.
        std::fs::write(&pw, "s3cret").unwrap();
        write_keyset(&ks, b"s3cret", "other_name");
        let again = open(&ks, &file).unwrap();
        assert!(!Arc::ptr_eq(&first, &again), "same keyset");
        again.transform("other_name").unwrap();
    }

    #[test]
    fn passwords_come_from_a_file_or_a_variable_and_are_never_empty() {
        let dir = tempfile::tempdir().unwrap();
        let pw = dir.path().join("pw");
        std::fs::write(&pw, "pa ss\n\n").unwrap();
        assert_eq!(&PasswordSource::File(pw.clone()).read().unwrap()[..], b"pa ss\n");
        std::fs::write(&pw, "\n").unwrap();
        assert!(PasswordSource::File(pw).read().unwrap_err().contains("password file"));
        let unset = PasswordSource::Env("TESSERA_DUCKDB_UNIT_TEST_UNSET".into());
        assert!(unset.read().unwrap_err().contains("is not set"));
    }
}
