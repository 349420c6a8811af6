//! A message in a regular file, read at offsets ([`FileCursor`]): the
//! packets around the SEIPD body are parsed as a stream, and a v2 body can
//! be handed to chunk workers as runs of the file
//! ([`super::seipd::PieceMap`]), each worker reading its own chunks.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::rc::Rc;

use super::Result;
use super::decrypt::Decryptor;
use super::options::DecryptOptions;
use super::seipd::{POSITIONED_READS, read_at};
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
struct FileCursor<'f> {
    at: FileAt<'f>,
    buf: Box<[u8]>,
    /// The file offset of `buf[0]`; `buf[..end]` holds the file from there.
    buf_at: u64,
    end: usize,
}

impl<'f> FileCursor<'f> {
    fn new(file: &'f File, pos: u64) -> Self {
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

impl<'a> Decryptor<'a> {
    /// Opens the message in `file`, from its position, with `passwords`
    /// and `opts` as [`Decryptor::with_options`] does: the same plaintext,
    /// released in the same steps, and the same errors. A regular file is
    /// read at offsets, and with [`DecryptOptions::threads`] other than 1
    /// each chunk worker reads the chunks it opens, so reading runs on every
    /// core too, when the message is binary (not armored) SEIPD v2 opened
    /// by one candidate session key, and its body comes in pieces of 32 KiB
    /// or more (tessera writes such pieces; pieces so small that a chunk
    /// spans more than 16 are read as a stream from there on). Anything
    /// else, and any other file (a pipe, a terminal), is read as a stream.
    ///
    /// When the decryptor is dropped, the file's position is where the
    /// one-thread stream reader would have stopped, whatever the thread
    /// count: after the message and any packets that may follow it once
    /// it is read to the end, and after a failure in the encrypted data (a
    /// chunk or tag that does not verify, a cut or unreadable file) where
    /// that reader found it (chunk workers read ahead of it, which does not
    /// move the file), and after the last chunk released when the
    /// decryptor is dropped part way (a packet inside the plaintext failed,
    /// or the caller stopped reading). After an armored message more
    /// threads may leave it further on, by at most the chunks they read
    /// ahead.
    ///
    /// ```
    /// use std::io::{Read, Seek, Write};
    /// use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, S2kChoice};
    ///
    /// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    /// let mut file = tempfile::tempfile()?;
    /// let mut enc = Encryptor::new(&mut file, &[b"pw".as_slice()], &opts)?;
    /// enc.write_all(&vec![7u8; 1 << 20])?;
    /// enc.finish()?;
    /// file.rewind()?;
    ///
    /// let opts = DecryptOptions { threads: 2, ..DecryptOptions::default() };
    /// let mut out = Vec::new();
    /// Decryptor::from_file(&file, &[b"pw".as_slice()], &opts)?.read_to_end(&mut out)?;
    /// assert_eq!(out, vec![7u8; 1 << 20]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_file(file: &'a File, passwords: &[&[u8]], opts: &DecryptOptions) -> Result<Self> {
        let regular = file.metadata().map(|m| m.is_file()).unwrap_or(false);
        if !(POSITIONED_READS && regular) {
            return Self::with_options(BufReader::with_capacity(IO_BUFFER, file), passwords, opts);
        }
        let pos = (&*file).stream_position()?;
        let cursor = FileCursor::new(file, pos);
        let at = cursor.at.clone();
        Self::open(cursor, Some(at), passwords, opts)
    }
}
