//! Output files that appear only when everything succeeded, and output
//! held back until it may be released.
//!
//! Decrypting into a file must not leave a partial or unverified file
//! behind when the input turns out to be damaged or forged (an SEIPD v1
//! message verifies only at its end), and a tokenization job that fails
//! half-way must not leave half a file, not even when the process is
//! killed. [`AtomicFile`] writes an unnamed file in its destination's
//! directory (Linux; elsewhere a temporary name) and gives it the
//! destination's name only on [`AtomicFile::commit`], which is what every
//! front end (the CLI, the Python package) uses. Output to a
//! stream that cannot be taken back (stdout, a Python file object) waits
//! in a [`Spool`] instead; [`copy`] moves data between the two sides and
//! says which one failed.

use std::fs::File;
use std::io::{self, Read, Seek, Write};

mod atomic;
pub use atomic::{AtomicFile, DirSyncError};

/// Buffer of buffered file and stream I/O in the front ends and of
/// [`AtomicFile`]: 64 KiB, so that a chunk of 64 KiB or more (256 KiB by
/// default) written whole bypasses it instead of being copied into it.
pub const IO_BUFFER: usize = 1 << 16;

/// Buffer of [`copy`]: a chunk of the default size (256 KiB) in one read
/// or write. Files shorter than this are copied as streams by
/// [`crate::openpgp::Encryptor::copy_from_file`].
pub const CHUNK_BUFFER: usize = 1 << 18;

/// Which side of a [`copy`] failed.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// Reading failed (from a decryptor, the error may carry its OpenPGP
    /// error: [`crate::openpgp::Error::from_io`] gets it back).
    #[error("cannot read: {0}")]
    Read(io::Error),
    /// Writing failed.
    #[error("cannot write: {0}")]
    Write(io::Error),
    /// The temporary file of a [`Spool`] failed (written or read back).
    #[error("temporary file: {0}")]
    Spool(io::Error),
}

impl CopyError {
    /// The I/O error inside, whichever side failed.
    ///
    /// ```
    /// use tessera::fs::CopyError;
    /// let e = CopyError::Read(std::io::ErrorKind::UnexpectedEof.into());
    /// assert_eq!(e.io().kind(), std::io::ErrorKind::UnexpectedEof);
    /// ```
    pub fn io(&self) -> &io::Error {
        let (CopyError::Read(e) | CopyError::Write(e) | CopyError::Spool(e)) = self;
        e
    }

    /// The I/O error inside, owned.
    pub fn into_io(self) -> io::Error {
        let (CopyError::Read(e) | CopyError::Write(e) | CopyError::Spool(e)) = self;
        e
    }
}

/// Copies everything from `from` to `to` in pieces of up to
/// [`CHUNK_BUFFER`] octets (one decrypted chunk per read), retrying
/// interrupted reads, and says which side failed. Returns the number of
/// octets copied. Nothing is flushed.
///
/// ```
/// use tessera::fs::{CopyError, copy};
/// let mut out = Vec::new();
/// assert_eq!(copy(&mut &b"data"[..], &mut out).unwrap(), 4);
/// assert_eq!(out, b"data");
/// let mut full = [0u8; 2];
/// assert!(matches!(copy(&mut &b"data"[..], &mut &mut full[..]), Err(CopyError::Write(_))));
/// ```
pub fn copy(from: &mut dyn Read, to: &mut dyn Write) -> Result<u64, CopyError> {
    // Plaintext passes through it: wiped when dropped.
    let mut buf = zeroize::Zeroizing::new(vec![0u8; CHUNK_BUFFER]);
    let mut total = 0u64;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(CopyError::Read(e)),
        };
        to.write_all(&buf[..n]).map_err(CopyError::Write)?;
        total += n as u64;
    }
}

/// Output held back in an anonymous temporary file (created readable by
/// its owner only and deleted when closed) until [`release`](Self::release):
/// what a front end writing to a stream does with data that is not
/// authenticated yet (an SEIPD v1 message before its MDC, a message before
/// its signatures are checked). Dropped without a release, nothing is
/// written anywhere.
///
/// ```
/// use std::io::Write;
/// use tessera::fs::Spool;
/// let mut spool = Spool::new()?;
/// spool.write_all(b"held back")?;
/// let mut out = Vec::new();
/// spool.release(&mut out).unwrap();
/// assert_eq!(out, b"held back");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Spool {
    file: File,
}

impl Spool {
    /// Creates the temporary file.
    pub fn new() -> io::Result<Self> {
        Ok(Spool { file: tempfile::tempfile()? })
    }

    /// Reads `from` to its end into a new spool, then releases it to `to`:
    /// nothing reaches `to` unless all of `from` could be read.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// assert_eq!(tessera::fs::Spool::copy(&mut &b"data"[..], &mut out).unwrap(), 4);
    /// assert_eq!(out, b"data");
    /// ```
    pub fn copy(from: &mut dyn Read, to: &mut dyn Write) -> Result<u64, CopyError> {
        let mut spool = Spool::new().map_err(CopyError::Spool)?;
        spool.fill(from)?;
        spool.release(to)
    }

    /// Reads `from` to its end into the spool, as [`copy`] (a failure to
    /// write the temporary file is [`CopyError::Spool`]).
    pub fn fill(&mut self, from: &mut dyn Read) -> Result<u64, CopyError> {
        copy(from, &mut self.file).map_err(|e| match e {
            CopyError::Write(e) => CopyError::Spool(e),
            e => e,
        })
    }

    /// Writes everything held to `to` (not flushed) and deletes the file.
    pub fn release(mut self, to: &mut dyn Write) -> Result<u64, CopyError> {
        self.file.rewind().map_err(CopyError::Spool)?;
        copy(&mut self.file, to).map_err(|e| match e {
            CopyError::Read(e) => CopyError::Spool(e),
            e => e,
        })
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("read side"))
        }
    }
    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("write side"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn copy_says_which_side_failed() {
        let data: Vec<u8> = (0..600_000u32).map(|i| i as u8).collect();
        let mut out = Vec::new();
        assert_eq!(copy(&mut &data[..], &mut out).unwrap(), data.len() as u64);
        assert_eq!(out, data);
        assert!(matches!(copy(&mut Failing, &mut Vec::new()), Err(CopyError::Read(_))));
        assert!(matches!(copy(&mut &data[..], &mut Failing), Err(CopyError::Write(_))));
    }

    #[test]
    fn spools_release_only_what_was_read_whole() {
        let data: Vec<u8> = (0..600_000u32).map(|i| (i * 7) as u8).collect();
        let mut out = Vec::new();
        assert_eq!(Spool::copy(&mut &data[..], &mut out).unwrap(), data.len() as u64);
        assert_eq!(out, data);
        // A read failure after some data: nothing is released.
        let mut failing = (&data[..1000]).chain(Failing);
        let mut out = Vec::new();
        assert!(matches!(Spool::copy(&mut failing, &mut out), Err(CopyError::Read(_))));
        assert!(out.is_empty());
        assert!(matches!(Spool::copy(&mut &data[..], &mut Failing), Err(CopyError::Write(_))));
        let mut spool = Spool::new().unwrap();
        spool.write_all(b"abc").unwrap();
        assert_eq!(spool.fill(&mut &b"def"[..]).unwrap(), 3);
        let mut out = Vec::new();
        spool.release(&mut out).unwrap();
        assert_eq!(out, b"abcdef");
    }
}
