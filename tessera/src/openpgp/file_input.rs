//! A message in a regular file, read at offsets ([`FileCursor`]): the
//! packets around the SEIPD body are parsed as a stream, and a v2 body can
//! be handed to chunk workers as runs of the file
//! ([`super::seipd::PieceMap`]), each worker reading its own chunks
//! ([`Decryptor::from_file`](super::Decryptor::from_file)).

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::rc::Rc;

use super::seipd::read_at;
use crate::fs::IO_BUFFER;

/// A file and the offset of the next octet its stream reader returns;
/// whoever reads the file at offsets moves that offset on past what it read.
#[derive(Clone, Debug)]
pub(crate) struct FileAt<'f> {
    pub(crate) file: &'f File,
    pub(crate) pos: Rc<Cell<u64>>,
}

/// A buffered reader of a file that reads at offsets only ([`FileAt::pos`]
/// onward), never through the file's own position; when dropped it leaves
/// that position where reading stopped.
pub(crate) struct FileCursor<'f> {
    pub(crate) at: FileAt<'f>,
    buf: Box<[u8]>,
    /// The file offset of `buf[0]`; `buf[..end]` holds the file from there.
    buf_at: u64,
    end: usize,
}

impl<'f> FileCursor<'f> {
    pub(crate) fn new(file: &'f File, pos: u64) -> Self {
        let at = FileAt { file, pos: Rc::new(Cell::new(pos)) };
        FileCursor { at, buf: vec![0u8; IO_BUFFER].into_boxed_slice(), buf_at: 0, end: 0 }
    }

    /// What the buffer holds from the current offset on (empty if the
    /// offset moved outside it).
    fn buffered(&self) -> &[u8] {
        let pos = self.at.pos.get();
        match pos.checked_sub(self.buf_at).and_then(|k| usize::try_from(k).ok()) {
            Some(k) if k < self.end => &self.buf[k..self.end],
            _ => &[],
        }
    }
}

impl Read for FileCursor<'_> {
    fn read(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        // Large reads with nothing buffered skip the buffer.
        if self.buffered().is_empty() && dst.len() >= self.buf.len() {
            let n = read_at(self.at.file, dst, self.at.pos.get())?;
            self.at.pos.set(self.at.pos.get() + n as u64);
            return Ok(n);
        }
        let src = self.fill_buf()?;
        let n = src.len().min(dst.len());
        dst[..n].copy_from_slice(&src[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for FileCursor<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.buffered().is_empty() {
            let pos = self.at.pos.get();
            self.end = 0;
            self.end = read_at(self.at.file, &mut self.buf, pos)?;
            self.buf_at = pos;
        }
        Ok(self.buffered())
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.buffered().len());
        self.at.pos.set(self.at.pos.get() + n as u64);
    }
}

impl Drop for FileCursor<'_> {
    fn drop(&mut self) {
        // Best effort: a caller reading on from the file's position finds
        // what follows the message (as after a `BufReader`, it may not).
        let _ = (&*self.at.file).seek(SeekFrom::Start(self.at.pos.get()));
    }
}
