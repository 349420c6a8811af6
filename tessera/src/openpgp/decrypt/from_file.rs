//! Opening a message in a regular file at offsets, so that chunk workers
//! read the chunks they open.

use std::fs::File;
use std::io::{BufReader, Seek};

use super::{DecryptOptions, Decryptor};
use crate::fs::IO_BUFFER;
use crate::openpgp::Result;
use crate::openpgp::file_input::FileCursor;
use crate::openpgp::seipd::POSITIONED_READS;

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
