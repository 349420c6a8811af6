//! A SEIPD v2 body opened on several threads ([`super::pool`]), with the
//! same guarantees as the one-thread `ChunkOpener`: chunks released in
//! order, each only after its tag verifies, the last only with the final
//! tag. The body comes from a stream the caller's thread reads, or, in a
//! file read at offsets ([`ChunkSource::pieces`]), from runs of the file
//! that each worker reads for the chunks it opens.

use std::io::{self, Read};
use std::sync::Arc;

use zeroize::Zeroize;

use super::pieces::{Ahead, PieceMap, Runs, read_error};
use super::pool::{ChunkKey, ChunkPool, Done, Op, buffer_count};
use super::threads::{Wiped, chunk_key, final_ad};
use super::{V2Header, chunk_size};
use crate::TAG_LEN;
use crate::fs::CopyError;
use crate::aead::{Aad, AeadInPlace};
use crate::openpgp::poison::{Poison, read_checked};
use crate::openpgp::{Error, Result};

#[cfg(test)]
thread_local! {
    /// Chunks of a body read at offsets that this thread handed to the
    /// workers, or read itself (the last chunk and final tag).
    pub(crate) static AT_OFFSETS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// What a [`ParOpener`] reads a SEIPD v2 body from: a stream, which may be
/// a file read at offsets.
pub(crate) trait ChunkSource: Read {
    /// The rest of the body as runs of a file, if it can be read at
    /// offsets; decided when first asked, before anything is read.
    fn pieces(&mut self) -> Option<&mut PieceMap> {
        None
    }

    /// Ends [`ChunkSource::pieces`]: `read` goes on after the runs taken.
    fn stream_after_pieces(&mut self) {}

    /// For a file: the offset after the octets read so far as a stream
    /// (reading at offsets does not move it).
    fn offset(&self) -> Option<u64> {
        None
    }

    /// For a file: decryption failed after the octets up to offset `at`
    /// (what the one-thread reader had read when it failed); the file is
    /// left there (at most at its end) rather than where reading ahead
    /// stopped.
    fn fail_at(&mut self, _at: u64) {}
}

impl ChunkSource for &[u8] {}

impl<T: ChunkSource + ?Sized> ChunkSource for Box<T> {
    fn pieces(&mut self) -> Option<&mut PieceMap> {
        (**self).pieces()
    }

    fn stream_after_pieces(&mut self) {
        (**self).stream_after_pieces();
    }

    fn offset(&self) -> Option<u64> {
        (**self).offset()
    }

    fn fail_at(&mut self, at: u64) {
        (**self).fail_at(at);
    }
}

/// Reads a SEIPD v2 body (after its header), opening chunks on `threads`
/// workers; yields each chunk after its tag verifies, in order, and the
/// end of input only after the final tag verifies. Errors behave as the
/// one-thread opener's: an I/O error of `inner` can be retried, a failed
/// tag or truncation is final; so is any error reading a file at offsets.
pub(crate) struct ParOpener<R: ChunkSource> {
    /// Declared (so dropped) before `inner`: the workers stop reading a
    /// file before `inner` leaves its position where reading stopped.
    pool: ChunkPool,
    inner: R,
    /// `inner` is a file whose runs the workers read.
    at_offsets: bool,
    /// An error reading the runs, held back (as `pending`) until the chunks
    /// handed out before it are released; final.
    failed: Option<Error>,
    /// `failed` came from walking the file's runs (not from reading on
    /// after them as a stream).
    failed_walking: bool,
    key: Arc<ChunkKey>,
    chunk: usize,
    /// The buffer being filled from `inner`: chunk, tag, and the next
    /// tag's worth of look-ahead.
    cur: Wiped,
    fill: usize,
    /// `inner` has ended; what `cur` holds is the last chunk and final tag.
    ended: bool,
    /// A read error of `inner`, held back until the chunks read before it
    /// are released (as the one-thread opener released them before it read
    /// further); not final, as there.
    pending: Option<io::Error>,
    /// For a file, where each chunk in flight ends with the next tag's
    /// worth after it (the offset the one-thread reader has read to when
    /// it opens that chunk), in slot `index % buffers`.
    ends: Vec<Option<u64>>,
    /// For a file, the end (as in `ends`) of the last chunk released.
    released_end: Option<u64>,
    /// A read returned an error (the file was placed then, if at all).
    errored: bool,
    /// The chunk being released to the caller.
    out: Wiped,
    out_pos: usize,
    out_end: usize,
    done: bool,
    poison: Poison,
}

impl<R: ChunkSource> std::fmt::Debug for ParOpener<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParOpener").field("chunk", &self.chunk).field("pool", &self.pool).finish()
    }
}

impl<R: ChunkSource> ParOpener<R> {
    /// Opens with the message key of `session_key` and `header`.
    pub(crate) fn new(mut inner: R, header: &V2Header, session_key: &[u8], threads: usize) -> Result<Self> {
        let at_offsets = inner.pieces().is_some();
        let key = chunk_key(header, session_key)?;
        let chunk = chunk_size(header.chunk_octet);
        let len = chunk + 2 * TAG_LEN;
        let buffers = buffer_count(threads, len);
        let mut pool = ChunkPool::new(key.clone(), Op::Open, threads.min(buffers), buffers, len);
        let cur = Wiped(pool.buffer().ok_or(Error::InvalidOption("no chunk buffer"))?);
        Ok(ParOpener {
            inner,
            at_offsets,
            failed: None,
            failed_walking: false,
            key,
            pool,
            chunk,
            cur,
            fill: 0,
            ended: false,
            pending: None,
            ends: vec![None; buffers.max(1)],
            released_end: None,
            errored: false,
            out: Wiped::default(),
            out_pos: 0,
            out_end: 0,
            done: false,
            poison: Poison::default(),
        })
    }

    /// Reads into `cur` and hands every whole chunk to the workers while
    /// a free buffer takes the look-ahead; stops at the end of input or
    /// when every buffer is in flight.
    fn pump(&mut self) -> io::Result<()> {
        if self.at_offsets {
            if self.failed.is_none() {
                self.failed = self.pump_runs().err();
                self.failed_walking = self.failed.is_some() && self.inner.pieces().is_some();
            }
            if let Some(e) = self.failed.take_if(|_| self.pool.in_flight() == 0) {
                // Walking the file's length headers failed (a cut header,
                // an I/O error): the stream reader would have read to its end.
                if self.failed_walking {
                    self.inner.fail_at(u64::MAX);
                }
                return Err(self.poison.set(e));
            }
            if self.at_offsets || self.failed.is_some() {
                return Ok(());
            }
        }
        if self.pending.is_some() {
            return self.pending_error();
        }
        let full = self.chunk + 2 * TAG_LEN;
        while !self.ended {
            while self.fill < full {
                match read_checked(&mut self.inner, &mut self.cur.0[self.fill..]) {
                    Ok(0) => {
                        self.ended = true;
                        return Ok(());
                    }
                    Ok(n) => self.fill += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.pending = Some(e);
                        return self.pending_error();
                    }
                }
            }
            // A whole chunk and its tag, with more input after them.
            let Some(mut next) = self.pool.buffer() else { return Ok(()) };
            next[..TAG_LEN].copy_from_slice(&self.cur.0[full - TAG_LEN..full]);
            let ready = std::mem::replace(&mut self.cur.0, next);
            let end = self.inner.offset();
            self.submit(ready, None, end)?;
            self.fill = TAG_LEN;
        }
        Ok(())
    }

    /// [`ParOpener::pump`] of a body read at offsets: hands every whole
    /// chunk (and its tag) to the workers as runs of the file while a free
    /// buffer is left and the next tag's worth follows it; then reads the
    /// last chunk and final tag into `cur` on this thread. Pieces too small
    /// for a job's runs: the rest is read as a stream.
    fn pump_runs(&mut self) -> Result<()> {
        let full = self.chunk + TAG_LEN;
        while !self.ended {
            let Some(map) = self.inner.pieces() else { return Err(Error::InvalidOption("the SEIPD body's runs")) };
            match map.ahead(full as u64, TAG_LEN as u64)? {
                Ahead::Whole => {}
                Ahead::Stream => {
                    self.inner.stream_after_pieces();
                    self.at_offsets = false;
                    return Ok(());
                }
                Ahead::Short => {
                    // The last chunk and the final tag, or the final tag
                    // alone; then the stream goes on after the body.
                    self.fill = map.read_into(full + TAG_LEN, &mut self.cur.0)?;
                    #[cfg(test)]
                    AT_OFFSETS.with(|c| c.set(c.get() + 1));
                    self.inner.stream_after_pieces();
                    if read_checked(&mut self.inner, &mut [0u8; 1]).map_err(Error::from_io)? != 0 {
                        return Err(Error::InvalidOption("the SEIPD body read at offsets went on"));
                    }
                    self.ended = true;
                    return Ok(());
                }
            }
            let Some(buf) = self.pool.buffer() else { return Ok(()) };
            // The job reads the next tag's worth too: the stream reader
            // reads it before it releases the chunk.
            let runs = match map.take_ahead(full, TAG_LEN) {
                Ok((runs, n)) if n == full + TAG_LEN => runs,
                taken => {
                    self.pool.recycle(buf);
                    return Err(taken.err().unwrap_or(Error::Truncated("packet body")));
                }
            };
            let src = Some((Arc::clone(map.file()), runs));
            self.submit(buf, src, Some(runs.end())).map_err(Error::from_io)?;
            #[cfg(test)]
            AT_OFFSETS.with(|c| c.set(c.get() + 1));
        }
        Ok(())
    }

    /// Hands `buf` to the workers as the next whole chunk, which ends at
    /// `end` of the file (look-ahead included), if known. A failure (no
    /// worker thread could start) is final: the chunk is gone.
    fn submit(&mut self, buf: Vec<u8>, src: Option<(Arc<std::fs::File>, Runs)>, end: Option<u64>) -> io::Result<()> {
        let slots = self.ends.len() as u64;
        self.ends[(self.pool.next_index() % slots) as usize] = end;
        let submitted = self.pool.submit(buf, self.chunk, src);
        self.poison.record_final(submitted)
    }

    /// The held-back read error once no chunk read before it is in flight.
    fn pending_error(&mut self) -> io::Result<()> {
        if self.pool.in_flight() > 0 {
            return Ok(());
        }
        self.pending.take().map_or(Ok(()), Err)
    }

    /// The next chunk to release: a finished one from the workers, or at
    /// the end of input the last chunk with the final tag.
    fn next_chunk(&mut self) -> Result<()> {
        if let Some(d) = self.pool.take() {
            return self.release(d);
        }
        // Every worker gone with chunks in flight: never the end of input,
        // or the last chunk would follow chunks never released.
        if !self.ended || self.pool.in_flight() > 0 {
            return Err(Error::InvalidOption("a chunk worker stopped"));
        }
        let n = self.fill;
        if n < TAG_LEN || (n > TAG_LEN && n < 2 * TAG_LEN) {
            return Err(Error::Truncated("SEIPD v2 chunk or final tag missing"));
        }
        let index = self.pool.next_index();
        let before = self.total_before_last();
        let mut last = 0;
        let buf = &mut self.cur.0;
        if n >= 2 * TAG_LEN {
            last = n - 2 * TAG_LEN;
            if !self.key.open(index, buf, last) {
                return Err(Error::Authentication("chunk"));
            }
        }
        let total = before + last as u64;
        let final_index = index + u64::from(n >= 2 * TAG_LEN);
        let final_tag: [u8; TAG_LEN] = buf[n - TAG_LEN..n].try_into().expect("16");
        let mut nonces = self.key.nonce.clone();
        let ad = final_ad(&self.key, total);
        if self.key.aead.open_in_place_separate_tag(nonces.at(final_index), Aad::new(&ad), &mut [], &final_tag).is_err()
        {
            buf[..last].zeroize();
            return Err(Error::Authentication("final tag: the message was truncated or modified"));
        }
        std::mem::swap(&mut self.out.0, &mut self.cur.0);
        self.out_pos = 0;
        self.out_end = last;
        self.done = true;
        Ok(())
    }

    /// Plaintext octets of the chunks before the last one (all whole).
    fn total_before_last(&self) -> u64 {
        self.pool.next_index() * self.chunk as u64
    }

    fn release(&mut self, d: Done) -> Result<()> {
        if !d.ok {
            let mut buf = d.buf;
            buf.as_mut_slice().zeroize();
            self.pool.recycle(buf);
            if let Some(at) = self.ends[(d.index % self.ends.len() as u64) as usize] {
                self.inner.fail_at(at);
            }
            return Err(match d.read_error {
                _ if d.panicked => Error::InvalidOption("a chunk worker panicked"),
                Some(e) => read_error(CopyError::Read(e)),
                None => Error::Authentication("chunk"),
            });
        }
        self.released_end = self.ends[(d.index % self.ends.len() as u64) as usize];
        let old = std::mem::replace(&mut self.out.0, d.buf);
        if !old.is_empty() {
            self.pool.recycle(old);
        }
        self.out_pos = 0;
        self.out_end = d.len;
        Ok(())
    }
}

impl<R: ChunkSource> Drop for ParOpener<R> {
    /// Dropped part way (the caller stopped reading, or a packet inside
    /// the plaintext failed) with no error of its own: the file is left
    /// where the one-thread reader stopped, after the last chunk released.
    fn drop(&mut self) {
        if let Some(at) = self.released_end.filter(|_| !self.done && !self.errored) {
            self.inner.fail_at(at);
        }
    }
}

impl<R: ChunkSource> Read for ParOpener<R> {
    fn read(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        let read = self.read_released(dst);
        self.errored |= read.is_err();
        read
    }
}

impl<R: ChunkSource> ParOpener<R> {
    /// [`Read::read`]: the released chunk's octets, releasing the next
    /// chunk when it is used up.
    fn read_released(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        while self.out_pos == self.out_end {
            if self.done || dst.is_empty() {
                return Ok(0);
            }
            // The released chunk's buffer goes back before reading more.
            if !self.out.0.is_empty() {
                let old = std::mem::take(&mut self.out.0);
                self.pool.recycle(old);
            }
            self.pump()?;
            self.next_chunk().map_err(|e| self.poison.set(e))?;
        }
        let k = (self.out_end - self.out_pos).min(dst.len());
        dst[..k].copy_from_slice(&self.out.0[self.out_pos..self.out_pos + k]);
        self.out_pos += k;
        Ok(k)
    }
}

