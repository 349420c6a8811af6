//! Writing a packet of unknown length as partial body lengths
//! (RFC 9580 §4.2.1.4).

use std::io::{self, Write};

use zeroize::Zeroizing;

use super::super::poison::Poison;
use super::super::seipd::{Room, Source};
use crate::fs::CopyError;
use super::{MIN_PARTIAL, PARTIAL_LEN, encode_len, new_header};

/// Writes one packet of unknown length as a stream of partial body lengths
/// (RFC 9580 §4.2.1.4), without buffering it.
///
/// Every partial piece is a power of two of at least 512 octets (so the
/// first one is too, as the RFC requires); fewer than 512 octets are held
/// back in a small inline buffer. [`PartialWriter::finish`] writes what is
/// held as the final, definite-length piece. A packet shorter than 512
/// octets is written with a single definite length.
pub struct PartialWriter<W: Write> {
    inner: W,
    tag: u8,
    started: bool,
    /// Up to 511 octets of the packet (plaintext, for a literal packet):
    /// wiped when dropped.
    held: Zeroizing<[u8; MIN_PARTIAL]>,
    held_len: usize,
    poison: Poison,
}

impl<W: Write> std::fmt::Debug for PartialWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartialWriter").field("tag", &self.tag).finish_non_exhaustive()
    }
}

impl<W: Write> PartialWriter<W> {
    /// Starts a packet of type `tag`; nothing is written yet.
    pub fn new(inner: W, tag: u8) -> Self {
        PartialWriter { inner, tag, started: false, held: Zeroizing::new([0; MIN_PARTIAL]), held_len: 0, poison: Poison::default() }
    }

    // Only the fuzz harness and the tests use this.
    #[cfg(feature = "internals")]
    /// The underlying writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    fn start(&mut self) -> io::Result<()> {
        if !self.started {
            self.inner.write_all(&[new_header(self.tag)])?;
            self.started = true;
        }
        Ok(())
    }

    /// Writes the final piece and returns the underlying writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.poison.check()?;
        self.start()?;
        let mut len = [0u8; 5];
        let n = encode_len(self.held_len as u32, &mut len);
        self.inner.write_all(&len[..n])?;
        self.inner.write_all(&self.held[..self.held_len])?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for PartialWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        self.poison.check()?;
        let r = self.write_pieces(data);
        self.poison.record(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.poison.check()?;
        let r = self.inner.flush();
        self.poison.record(r)
    }
}

impl<W: Write> PartialWriter<W> {
    /// Writes every whole power-of-two piece `data` completes; holds the rest.
    fn write_pieces(&mut self, mut data: &[u8]) -> io::Result<()> {
        let mut total = self.held_len + data.len();
        if total < MIN_PARTIAL {
            self.held[self.held_len..total].copy_from_slice(data);
            self.held_len = total;
            return Ok(());
        }
        self.start()?;
        while total >= MIN_PARTIAL {
            let log = (usize::BITS - 1 - total.leading_zeros()).min(30);
            let piece = 1usize << log;
            self.inner.write_all(&[PARTIAL_LEN | log as u8])?;
            let from_held = self.held_len;
            self.inner.write_all(&self.held[..from_held])?;
            self.held_len = 0;
            let (now, rest) = data.split_at(piece - from_held);
            self.inner.write_all(now)?;
            data = rest;
            total -= piece;
        }
        self.held[..data.len()].copy_from_slice(data);
        self.held_len = data.len();
        Ok(())
    }
}

impl<W: Write> PartialWriter<W> {
    /// Writes `n` octets read from `from`, in the pieces `write_all` would
    /// make of them, reading each piece straight into `inner`'s buffers
    /// (what is left under 512 octets is held, as there). An error
    /// poisons the writer: a piece may have been announced and not filled.
    pub(crate) fn fill_from(&mut self, from: &mut Source<'_>, n: u64) -> Result<(), CopyError>
    where
        W: Room,
    {
        self.poison.check().map_err(CopyError::Write)?;
        let r = self.fill_pieces(from, n);
        if let Err(e) = &r {
            self.poison_with(e.io());
        }
        r
    }

    /// Makes every later call fail with (a copy of) `e`.
    pub(crate) fn poison_with(&mut self, e: &io::Error) {
        let _ = self.poison.record_final::<()>(Err(io::Error::new(e.kind(), e.to_string())));
    }

    fn fill_pieces(&mut self, from: &mut Source<'_>, n: u64) -> Result<(), CopyError>
    where
        W: Room,
    {
        let too_long = || CopyError::Read(io::Error::new(io::ErrorKind::InvalidInput, "input length too large"));
        let mut total = n.checked_add(self.held_len as u64).ok_or_else(too_long)?;
        if total >= MIN_PARTIAL as u64 {
            self.start().map_err(CopyError::Write)?;
        }
        while total >= MIN_PARTIAL as u64 {
            let log = (u64::BITS - 1 - total.leading_zeros()).min(30);
            let piece = 1u64 << log;
            self.inner.write_all(&[PARTIAL_LEN | log as u8]).map_err(CopyError::Write)?;
            let from_held = self.held_len;
            self.inner.write_all(&self.held[..from_held]).map_err(CopyError::Write)?;
            self.held_len = 0;
            self.inner.fill_from(from, piece - from_held as u64)?;
            total -= piece;
        }
        let end = total as usize;
        from.read_exact(&mut self.held[self.held_len..end])?;
        self.held_len = end;
        Ok(())
    }
}
