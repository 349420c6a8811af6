//! [`AtomicFile`]: an output file that gets its name only when complete.
//!
//! On Linux the data goes to an unnamed file (`O_TMPFILE`) in the
//! destination's directory, linked into the directory only by the commit,
//! so a process killed while writing (SIGKILL, a power cut) leaves no file
//! behind: the kernel frees an unnamed inode when its last descriptor
//! closes, and the file system's recovery frees it after a crash. Where
//! `O_TMPFILE` is not available (other systems, and file systems or
//! kernels that refuse it) the data goes to a named temporary file
//! (`.tessera-*.partial`) instead, removed on drop but left behind by a
//! killed process.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::IO_BUFFER;

/// A file written beside its destination and given the destination's name
/// by [`commit`](Self::commit); dropped without a commit, the file is
/// removed and the destination is untouched. On Linux the file has no name
/// at all until the commit (`O_TMPFILE`), so nothing is left behind even
/// when the process is killed; where that is not supported it is a
/// temporary file named `.tessera-*.partial`, which a killed process can
/// leave behind (SECURITY.md). The file is created readable and writable
/// by its owner only (mode 0600 on Unix), and keeps those permissions when
/// it takes the destination's place. Writes are buffered, and the buffer
/// (which may have held keys) is wiped before it is freed.
///
/// ```
/// use std::io::Write;
/// use tessera::fs::AtomicFile;
/// let dir = std::env::temp_dir().join(format!("tessera-doc-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&dir); // left by an earlier run under this process ID
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
    tmp: Buffered,
    path: PathBuf,
}

/// The write buffer in front of the staged file; its whole capacity is
/// wiped when it is done with (committed or dropped).
#[derive(Debug)]
struct Buffered(Option<BufWriter<Staged>>);

impl Buffered {
    fn get(&mut self) -> &mut BufWriter<Staged> {
        self.0.as_mut().expect("present until finished or dropped")
    }

    /// Flushes, wipes the buffer and returns the staged file.
    fn finish(mut self) -> io::Result<Staged> {
        let mut w = self.0.take().expect("finished once");
        let flushed = w.flush();
        let staged = unbuffer(w);
        flushed.map(|()| staged)
    }
}

impl Drop for Buffered {
    fn drop(&mut self) {
        if let Some(w) = self.0.take() {
            drop(unbuffer(w));
        }
    }
}

/// The file behind `w`, its buffer (what is left unwritten, and the spare
/// capacity that held earlier writes) wiped.
fn unbuffer(w: BufWriter<Staged>) -> Staged {
    use zeroize::Zeroize;
    let (staged, buf) = w.into_parts();
    buf.unwrap_or_else(io::WriterPanicked::into_inner).zeroize();
    staged
}

/// Where the data waits for the commit.
#[derive(Debug)]
enum Staged {
    /// An `O_TMPFILE` file: no name until the commit links one.
    #[cfg(target_os = "linux")]
    Unnamed(File),
    /// A named temporary file, renamed by the commit.
    Named(tempfile::NamedTempFile),
}

/// The temporary names: hidden, and recognisable as tessera's.
fn temp_names() -> tempfile::Builder<'static, 'static> {
    let mut b = tempfile::Builder::new();
    b.prefix(".tessera-").suffix(".partial");
    b
}

/// The directory of `path` (`.` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

impl Staged {
    /// An unnamed file in `dir` where supported (and `unnamed` is set),
    /// else a named temporary file.
    fn create(dir: &Path, unnamed: bool) -> io::Result<Self> {
        #[cfg(target_os = "linux")]
        if unnamed && let Some(file) = linux::create_unnamed(dir)? {
            return Ok(Staged::Unnamed(file));
        }
        let _ = unnamed;
        Ok(Staged::Named(temp_names().tempfile_in(dir)?))
    }

    fn file(&self) -> &File {
        match self {
            #[cfg(target_os = "linux")]
            Staged::Unnamed(f) => f,
            Staged::Named(t) => t.as_file(),
        }
    }

    /// Syncs the data, gives the file the name `path` (see [`Staged::name`])
    /// and syncs the directory, so the new name survives a crash too.
    fn publish(self, path: &Path, replace: bool) -> io::Result<()> {
        self.file().sync_all()?;
        self.name(path, replace)?;
        sync_dir(dir_of(path))
    }

    /// Gives the file the name `path`: replacing what is there if
    /// `replace`, else failing with `AlreadyExists`. On failure the file is
    /// gone and `path` untouched.
    fn name(self, path: &Path, replace: bool) -> io::Result<()> {
        let named = match self {
            // Linked directly onto `path` when nothing may be replaced
            // (linkat fails if it exists); else linked to a fresh temporary
            // name first and renamed over `path`, which is atomic.
            #[cfg(target_os = "linux")]
            Staged::Unnamed(file) if !replace => return linux::link(&file, path),
            #[cfg(target_os = "linux")]
            Staged::Unnamed(file) => temp_names().make_in(dir_of(path), |p| linux::link(&file, p))?.into_temp_path(),
            Staged::Named(t) => t.into_temp_path(),
        };
        if replace { named.persist(path) } else { named.persist_noclobber(path) }.map_err(|e| e.error)
    }
}

/// Symbolic links followed from `path` before giving up: Linux's own
/// limit (`ELOOP`).
const MAX_LINKS: usize = 40;

/// Where a commit onto `path` puts the file: `path` with the symbolic links
/// of its last component followed (a link's relative target is read from
/// the link's directory; the directories on the way are the system's to
/// resolve). Refuses a destination that exists and is not a regular file,
/// and a chain of more than [`MAX_LINKS`] links.
fn destination(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => p = dir_of(&p).join(std::fs::read_link(&p)?),
            Ok(m) if !m.is_file() => {
                let what = format!("{} is not a regular file; it is never replaced", p.display());
                return Err(io::Error::new(io::ErrorKind::InvalidInput, what));
            }
            Ok(_) => return Ok(p),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(p),
            Err(e) => return Err(e),
        }
    }
    let what = format!("{}: more than {MAX_LINKS} symbolic links", path.display());
    Err(io::Error::new(io::ErrorKind::InvalidInput, what))
}

/// Syncs the directory `dir` (on Unix: a rename or link is durable only
/// once its directory is). A failure is a [`DirSyncError`] inside the
/// [`io::Error`], of the failure's kind.
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    File::open(dir).and_then(|d| d.sync_all()).map_err(|source| {
        let kind = source.kind();
        io::Error::new(kind, DirSyncError { dir: dir.to_path_buf(), source })
    })?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// The file has its name, but the directory holding the name could not be
/// synced: the name may not survive a crash. [`AtomicFile::commit`]'s
/// error carries it (`get_ref` and `downcast_ref`).
///
/// ```
/// use std::io::Write;
/// use tessera::fs::{AtomicFile, DirSyncError};
/// let dir = std::env::temp_dir().join(format!("tessera-doc-sync-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&dir); // left by an earlier run under this process ID
/// std::fs::create_dir_all(&dir)?;
/// let mut out = AtomicFile::create(&dir.join("out.txt"))?;
/// out.write_all(b"data")?;
/// if let Err(e) = out.commit() {
///     match e.get_ref().and_then(|e| e.downcast_ref::<DirSyncError>()) {
///         Some(sync) => eprintln!("written, not yet durable: {sync}"),
///         None => eprintln!("not written: {e}"),
///     }
/// }
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[error("the file has its name, but syncing its directory {} failed: {source}", dir.display())]
pub struct DirSyncError {
    /// The directory.
    pub dir: PathBuf,
    /// Why syncing it failed.
    pub source: io::Error,
}

impl Write for Staged {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl AtomicFile {
    /// Creates the file in the directory of `path` (which must exist and be
    /// writable). `path` itself is not touched until the commit.
    ///
    /// When `path` is a symbolic link (or a chain of them), the destination
    /// is the file it leads to (which need not exist yet): the commit
    /// replaces that file and the link stays. A destination that exists
    /// and is not a regular file (a directory, a FIFO, a device, a socket)
    /// is refused with [`InvalidInput`](io::ErrorKind::InvalidInput):
    /// renaming a file over it would replace the FIFO or the device itself
    /// rather than write to it (write to such a destination directly).
    pub fn create(path: &Path) -> io::Result<Self> {
        Self::create_with(path, true)
    }

    fn create_with(path: &Path, unnamed: bool) -> io::Result<Self> {
        let path = destination(path)?;
        let staged = Staged::create(dir_of(&path), unnamed)?;
        Ok(AtomicFile { tmp: Buffered(Some(BufWriter::with_capacity(IO_BUFFER, staged))), path })
    }

    /// The destination: the path given, or the file its symbolic links
    /// lead to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes, syncs the data to disk, and gives the file the
    /// destination's name, atomically replacing a file already there; then
    /// syncs the destination's directory on Unix (a failure there is a
    /// [`DirSyncError`]: the file already has its name).
    pub fn commit(self) -> io::Result<()> {
        let path = self.path;
        self.tmp.finish()?.publish(&path, true)
    }

    /// As [`commit`](Self::commit), but never replaces anything: if the
    /// destination exists by then, the error is
    /// [`AlreadyExists`](io::ErrorKind::AlreadyExists) and the file is
    /// removed.
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::fs::AtomicFile;
    /// let dir = std::env::temp_dir().join(format!("tessera-doc-new-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir); // left by an earlier run under this process ID
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("new.txt");
    /// let mut out = AtomicFile::create(&path)?;
    /// out.write_all(b"first")?;
    /// out.commit_new()?;
    /// let mut again = AtomicFile::create(&path)?;
    /// again.write_all(b"second")?;
    /// assert_eq!(again.commit_new().unwrap_err().kind(), std::io::ErrorKind::AlreadyExists);
    /// assert_eq!(std::fs::read(&path)?, b"first");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn commit_new(self) -> io::Result<()> {
        let path = self.path;
        self.tmp.finish()?.publish(&path, false)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.get().write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.tmp.get().write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.tmp.get().flush()
    }
}

/// `O_TMPFILE` and `linkat` through rustix.
#[cfg(target_os = "linux")]
mod linux {
    use std::fs::File;
    use std::io;
    use std::os::fd::AsRawFd;
    use std::path::Path;

    use rustix::fs::{AtFlags, CWD, Mode, OFlags};
    use rustix::io::Errno;

    /// An unnamed file in `dir`, mode 0600; `None` where the kernel or the
    /// file system does not support `O_TMPFILE` (`EOPNOTSUPP`; `EISDIR`
    /// or `EINVAL` from kernels before 3.11).
    pub(super) fn create_unnamed(dir: &Path) -> io::Result<Option<File>> {
        let flags = OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC;
        match rustix::fs::openat(CWD, dir, flags, Mode::RUSR | Mode::WUSR) {
            Ok(fd) => Ok(Some(File::from(fd))),
            Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Gives the unnamed `file` the name `to`; `AlreadyExists` if taken.
    /// Through `/proc/self/fd` (what open(2) suggests: `AT_EMPTY_PATH`
    /// needs `CAP_DAC_READ_SEARCH` before Linux 6.10), with
    /// `AT_EMPTY_PATH` as the fallback (no `/proc`, say); the first error
    /// if both fail.
    pub(super) fn link(file: &File, to: &Path) -> io::Result<()> {
        let proc = format!("/proc/self/fd/{}", file.as_raw_fd());
        match rustix::fs::linkat(CWD, proc.as_str(), CWD, to, AtFlags::SYMLINK_FOLLOW) {
            Err(e) if e != Errno::EXIST => rustix::fs::linkat(file, "", CWD, to, AtFlags::EMPTY_PATH).map_err(|_| e),
            r => r,
        }
        .map_err(io::Error::from)
    }
}

#[cfg(test)]
#[path = "atomic_tests.rs"]
mod tests;
