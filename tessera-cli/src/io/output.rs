//! Outputs that appear only on success, and the one rule for binary
//! output to a terminal.

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use tessera::fs::{AtomicFile, IO_BUFFER};

use super::file_path;

/// Standard output as a file of its own (a duplicate of descriptor 1):
/// binary writes then skip `Stdout`'s line buffering, which searches every
/// write for a newline and splits it there.
#[cfg(unix)]
fn stdout_file() -> Option<File> {
    use std::os::fd::AsFd;
    // Anything printed before goes first.
    io::stdout().flush().ok()?;
    io::stdout().as_fd().try_clone_to_owned().ok().map(File::from)
}

#[cfg(not(unix))]
fn stdout_file() -> Option<File> {
    None
}

/// Where results go: stdout, or a temporary file beside `--output` that is
/// renamed into place by [`Output::commit`] ([`tessera::fs::AtomicFile`]:
/// mode 0600 on Unix; through a symbolic link, the file it names). Dropped
/// without commit, the temporary file is removed and no output file
/// appears. An `--output` that is a FIFO, a device or a socket is written
/// directly, as stdout is: a stream, whose writes cannot be taken back.
#[derive(Debug)]
pub struct Output {
    inner: Sink,
    /// Writes holding bytes that are not text are refused (plaintext of
    /// unknown kind bound for a terminal).
    text_only: bool,
}

#[derive(Debug)]
enum Sink {
    Stdout(io::BufWriter<io::Stdout>),
    /// Standard output's descriptor, or an `--output` that is not a regular file.
    Stream(io::BufWriter<File>),
    File(AtomicFile),
}

impl Output {
    /// Output to the file `path`, or to stdout.
    pub fn create(path: Option<&Path>) -> Result<Self> {
        // 64 KiB: an OpenPGP chunk of 64 KiB or more (256 KiB by default)
        // goes out in one write, not copied into the buffer first.
        let inner = match file_path(path) {
            None => match stdout_file() {
                Some(f) => Sink::Stream(io::BufWriter::with_capacity(IO_BUFFER, f)),
                None => Sink::Stdout(io::BufWriter::with_capacity(IO_BUFFER, io::stdout())),
            },
            Some(p) if is_special(p) => Sink::Stream(io::BufWriter::with_capacity(
                IO_BUFFER,
                File::options().write(true).open(p).with_context(|| format!("cannot open {}", p.display()))?,
            )),
            Some(p) => Sink::File(
                AtomicFile::create(p)
                    .with_context(|| format!("cannot create a temporary file beside {}", p.display()))?,
            ),
        };
        Ok(Output { inner, text_only: false })
    }

    /// Whether writes go out as they are made (stdout, a FIFO, a device):
    /// output that must not be seen before it is verified has to be held
    /// back by the caller ([`tessera::fs::Spool`]).
    pub fn is_stream(&self) -> bool {
        !matches!(self.inner, Sink::File(_))
    }

    /// Like [`Output::create`], for binary data: refused when it would go
    /// to a terminal on stdout that was not named (`-o -` names it).
    pub fn create_binary(path: Option<&Path>) -> Result<Self> {
        refuse_terminal(path, io::stdout().is_terminal())?;
        Output::create(path)
    }

    /// Like [`Output::create`], for data that may be text or binary (a
    /// decrypted or verified plaintext): bound for a terminal on stdout that
    /// was not named (`-o -` names it), a write holding bytes that are not
    /// text fails before any of them is written.
    pub fn create_plaintext(path: Option<&Path>) -> Result<Self> {
        let mut out = Output::create(path)?;
        out.text_only = refuse_terminal(path, io::stdout().is_terminal()).is_err();
        Ok(out)
    }

    /// Refuses `buf` if this output takes text only and `buf` is not text.
    fn check(&self, buf: &[u8]) -> io::Result<()> {
        if self.text_only && !is_text(buf) {
            return Err(io::Error::other(BINARY_TO_TERMINAL));
        }
        Ok(())
    }

    /// As [`Output::commit`], but a file never replaces one that exists by
    /// then: that is an error (naming it), and nothing is written.
    pub fn commit_new(self) -> Result<()> {
        match self.inner {
            Sink::File(f) => {
                let path = f.path().to_path_buf();
                f.commit_new().map_err(|e| match e.kind() {
                    io::ErrorKind::AlreadyExists => anyhow::anyhow!("{} exists; it is never replaced", path.display()),
                    _ => anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
                })
            }
            inner => Output { inner, text_only: false }.commit(),
        }
    }

    /// Flushes and, for a file, renames it into place.
    pub fn commit(self) -> Result<()> {
        match self.inner {
            Sink::Stdout(mut w) => w.flush().context("cannot write to stdout"),
            Sink::Stream(mut w) => w.flush().context("cannot write the output"),
            Sink::File(f) => {
                let path = f.path().to_path_buf();
                f.commit().with_context(|| format!("cannot write {}", path.display()))
            }
        }
    }
}

/// Whether `path` exists (links followed) and is neither a regular file
/// nor a directory: a FIFO, a device or a socket, written in place.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// What every command says when it will not write binary to a terminal.
const BINARY_TO_TERMINAL: &str =
    "the output is binary and stdout is a terminal; give -o FILE, redirect stdout, or -o - to write it anyway";

/// The one rule for binary output: binary to a terminal would garble it
/// and could leave it in a strange state, so it is refused when stdout is
/// a terminal and was not named; `-o -` names it (written as asked).
fn refuse_terminal(path: Option<&Path>, stdout_is_terminal: bool) -> Result<()> {
    if path.is_none() && stdout_is_terminal {
        bail!(BINARY_TO_TERMINAL);
    }
    Ok(())
}

/// Whether `buf` can go to a terminal as it is: no control characters but
/// tab, line feed, form feed and carriage return (an escape sequence
/// could drive the terminal), and no DEL. UTF-8 is text.
///
/// ```
/// use tessera_cli::io::is_text;
/// assert!(is_text("naïve\ttext\r\n".as_bytes()));
/// assert!(!is_text(b"\x1b]0;title\x07"));
/// assert!(!is_text(&[0x00, 0x01]));
/// ```
pub fn is_text(buf: &[u8]) -> bool {
    buf.iter().all(|&b| b >= 0x20 && b != 0x7f || matches!(b, b'\t' | b'\n' | 0x0c | b'\r'))
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check(buf)?;
        match &mut self.inner {
            Sink::Stdout(w) => w.write(buf),
            Sink::Stream(w) => w.write(buf),
            Sink::File(f) => f.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.check(buf)?;
        match &mut self.inner {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Stream(w) => w.write_all(buf),
            Sink::File(f) => f.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Sink::Stdout(w) => w.flush(),
            Sink::Stream(w) => w.flush(),
            Sink::File(f) => f.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_files_appear_on_commit_and_binary_is_kept_off_terminals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut out = Output::create(Some(&path)).unwrap();
        out.write_all(b"data").unwrap();
        assert!(!path.exists());
        out.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"data");
        assert!(refuse_terminal(None, true).unwrap_err().to_string().contains("stdout is a terminal"));
        assert!(refuse_terminal(None, false).is_ok());
        assert!(refuse_terminal(Some(&path), true).is_ok());
        assert!(refuse_terminal(Some(Path::new("-")), true).is_ok(), "-o - names the terminal");
        let e = Output::create(Some(&dir.path().join("no/dir/out"))).unwrap_err().to_string();
        assert!(e.starts_with("cannot create a temporary file beside"), "{e}");
        // commit_new: a file that appeared meanwhile is kept, and named.
        let mut out = Output::create(Some(&path)).unwrap();
        out.write_all(b"other").unwrap();
        let e = out.commit_new().unwrap_err().to_string();
        assert!(e.contains("exists; it is never replaced"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), b"data");
        let new = dir.path().join("new");
        let mut out = Output::create(Some(&new)).unwrap();
        out.write_all(b"new").unwrap();
        out.commit_new().unwrap();
        assert_eq!(std::fs::read(&new).unwrap(), b"new");
    }
}
