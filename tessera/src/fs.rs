//! Output files that appear only when everything succeeded.
//!
//! Decrypting into a file must not leave a partial or unverified file
//! behind when the input turns out to be damaged or forged (an SEIPD v1
//! message verifies only at its end), and a tokenization job that fails
//! half-way must not leave half a file. [`AtomicFile`] writes beside its
//! destination and renames into place on [`AtomicFile::commit`], which is
//! what every front end (the CLI, the Python package) uses.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Buffer between the writer and the temporary file.
const BUFFER: usize = 1 << 16;

/// A file written to a temporary name in its destination's directory and
/// renamed onto the destination by [`commit`](Self::commit); dropped
/// without a commit, the temporary file is removed and the destination is
/// untouched. The temporary file is created readable and writable by its
/// owner only (mode 0600 on Unix, by the `tempfile` crate), and keeps those
/// permissions when it takes the destination's place. Writes are buffered.
///
/// ```
/// use std::io::Write;
/// use tessera::fs::AtomicFile;
/// let dir = std::env::temp_dir().join(format!("tessera-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("out.txt");
///
/// let mut out = AtomicFile::create(&path)?;
/// out.write_all(b"partial")?;
/// drop(out); // no commit: nothing appears
/// assert!(!path.exists());
///
/// let mut out = AtomicFile::create(&path)?;
/// out.write_all(b"complete")?;
/// out.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"complete");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct AtomicFile {
    tmp: BufWriter<tempfile::NamedTempFile>,
    path: PathBuf,
}

impl AtomicFile {
    /// Creates the temporary file beside `path` (whose directory must exist
    /// and be writable). `path` itself is not touched until the commit.
    pub fn create(path: &Path) -> io::Result<Self> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let tmp = tempfile::Builder::new().prefix(".tessera-").suffix(".partial").tempfile_in(dir)?;
        Ok(AtomicFile { tmp: BufWriter::with_capacity(BUFFER, tmp), path: path.to_path_buf() })
    }

    /// The destination.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes, syncs the data to disk, and renames the file onto the
    /// destination (replacing a file already there).
    pub fn commit(self) -> io::Result<()> {
        let tmp = self.tmp.into_inner().map_err(io::IntoInnerError::into_error)?;
        tmp.as_file().sync_all()?;
        tmp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.tmp.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn appears_only_on_commit_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut f = AtomicFile::create(&path).unwrap();
        assert_eq!(f.path(), path);
        f.write_all(&[7u8; 100_000]).unwrap();
        assert_eq!(entries(dir.path()).len(), 1, "only the temporary file");
        assert!(!path.exists());
        drop(f);
        assert!(entries(dir.path()).is_empty(), "dropped: the temporary file is removed");

        std::fs::write(&path, b"old").unwrap();
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"old", "untouched until the commit");
        f.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(entries(dir.path()), ["out"]);
    }

    #[test]
    #[cfg(unix)]
    fn is_private_to_its_owner() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret");
        AtomicFile::create(&path).unwrap().commit().unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn errors_for_a_missing_directory_or_a_directory_destination() {
        let dir = tempfile::tempdir().unwrap();
        assert!(AtomicFile::create(&dir.path().join("no/such/dir/out")).is_err());
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("x"), b"").unwrap();
        let f = AtomicFile::create(&sub).unwrap();
        assert!(f.commit().is_err(), "cannot rename a file onto a non-empty directory");
        assert_eq!(entries(dir.path()), ["sub"], "the temporary file is gone after a failed commit");
    }
}
