//! SEIPD v2 chunks sealed and opened on several threads ([`super::pool`]),
//! with the same bytes and the same guarantees as the one-thread
//! `ChunkSealer` and `ChunkOpener`: output in chunk order, a chunk's
//! plaintext released only after its tag verifies, the last chunk only
//! with the final tag, and a fixed number of chunk buffers per message.

use std::fs::File;
use std::io::{self, Write};
use std::sync::Arc;

use zeroize::Zeroize;

use super::pieces::Runs;
use super::pool::{ChunkKey, ChunkPool, Op, buffer_count};
use super::v2::ChunkNonce;
use super::room::fill_in_order;
use super::{Room, Source, V2Header, chunk_size, write_over_room};
use crate::fs::{CopyError, IO_BUFFER};
use crate::TAG_LEN;
use crate::aead::{Aad, Aead, AeadInPlace};
use crate::openpgp::poison::Poison;
use crate::openpgp::{Error, Result};

/// The message key, IV and associated data of `header`.
pub(super) fn chunk_key(header: &V2Header, session_key: &[u8]) -> Result<Arc<ChunkKey>> {
    let (key, iv) = header.message_key(session_key)?;
    Ok(Arc::new(ChunkKey { aead: Aead::new(header.aead, &key)?, nonce: ChunkNonce::new(&iv), ad: header.ad() }))
}

/// The final tag's nonce index and associated data: the chunk associated
/// data, then the total plaintext length.
pub(super) fn final_ad(key: &ChunkKey, total: u64) -> [u8; 13] {
    let mut ad = [0u8; 13];
    ad[..5].copy_from_slice(&key.ad);
    ad[5..].copy_from_slice(&total.to_be_bytes());
    ad
}

/// Whether `threads` workers gain anything for chunks of `header`: at
/// least two buffers fit the memory budget.
pub(crate) fn worth_it(threads: usize, header: &V2Header, opening: bool) -> bool {
    let extra = if opening { 2 * TAG_LEN } else { TAG_LEN };
    threads > 1 && buffer_count(threads, chunk_size(header.chunk_octet) + extra) >= 2
}

/// Writes the chunks and final tag of a SEIPD v2 body, sealing on
/// `threads` workers. Call [`ParSealer::finish`].
pub(crate) struct ParSealer<W: Write> {
    inner: W,
    key: Arc<ChunkKey>,
    pool: ChunkPool,
    chunk: usize,
    cur: Wiped,
    fill: usize,
    total: u64,
    poison: Poison,
}

/// A chunk buffer outside the pool, wiped on drop.
#[derive(Default)]
pub(super) struct Wiped(pub(super) Vec<u8>);

impl Drop for Wiped {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl<W: Write> std::fmt::Debug for ParSealer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParSealer").field("chunk", &self.chunk).field("pool", &self.pool).finish()
    }
}

impl<W: Write> ParSealer<W> {
    /// Seals with the message key of `session_key` and `header`.
    pub(crate) fn new(inner: W, header: &V2Header, session_key: &[u8], threads: usize) -> Result<Self> {
        let key = chunk_key(header, session_key)?;
        let chunk = chunk_size(header.chunk_octet);
        let buffers = buffer_count(threads, chunk + TAG_LEN);
        let mut pool = ChunkPool::new(key.clone(), Op::Seal, threads.min(buffers), buffers, chunk + TAG_LEN);
        let cur = Wiped(pool.buffer().ok_or(Error::InvalidOption("no chunk buffer"))?);
        Ok(ParSealer { inner, key, pool, chunk, cur, fill: 0, total: 0, poison: Poison::default() })
    }

    /// Writes the next sealed chunk out. A worker's failure to read its
    /// chunk from a file is a [`CopyError::Read`].
    fn write_next(&mut self) -> std::result::Result<(), CopyError> {
        let Some(d) = self.pool.take() else {
            return Err(CopyError::Write(self.poison.set(Error::InvalidOption("a chunk worker stopped"))));
        };
        if !d.ok {
            let mut buf = d.buf;
            buf.as_mut_slice().zeroize();
            self.pool.recycle(buf);
            return Err(match d.read_error {
                _ if d.panicked => CopyError::Write(self.poison.set(Error::InvalidOption("a chunk worker panicked"))),
                Some(e) => CopyError::Read(self.poison.record_final::<()>(Err(e)).unwrap_err()),
                None => CopyError::Write(self.poison.set(Error::InvalidOption("sealing a chunk failed"))),
            });
        }
        let written = self.inner.write_all(&d.buf[..d.len + TAG_LEN]);
        self.total += d.len as u64;
        self.pool.recycle(d.buf);
        // The chunk's index is used: a retry must not write it again.
        self.poison.record_final(written).map_err(CopyError::Write)
    }

    /// A free chunk buffer, writing finished chunks out until one is.
    fn free_buffer(&mut self) -> std::result::Result<Vec<u8>, CopyError> {
        loop {
            if let Some(b) = self.pool.buffer() {
                return Ok(b);
            }
            self.write_next()?;
        }
    }

    /// Hands the current chunk to the workers and gets a fresh buffer,
    /// writing finished chunks out until one is free.
    fn submit(&mut self) -> io::Result<()> {
        let next = self.free_buffer().map_err(CopyError::into_io)?;
        let full = std::mem::replace(&mut self.cur.0, next);
        // A failure (no worker thread could start) is final: the chunk is gone.
        let submitted = self.pool.submit(full, self.fill, None);
        self.poison.record_final(submitted)?;
        self.fill = 0;
        Ok(())
    }

    /// Seals the last chunk, writes every chunk and the final tag, and
    /// returns the writer.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        self.poison.check()?;
        // The last chunk is never empty unless the whole plaintext is, and
        // then one empty chunk is written (as the one-thread sealer does).
        // A message of one chunk is sealed here: no worker is started.
        if self.pool.next_index() == 0 {
            if !self.key.seal(0, &mut self.cur.0, self.fill) {
                return Err(Error::InvalidOption("sealing a chunk failed").into());
            }
            self.inner.write_all(&self.cur.0[..self.fill + TAG_LEN])?;
            self.total = self.fill as u64;
            self.fill = 0;
            let tag = self.final_tag(1)?;
            self.inner.write_all(&tag)?;
            return Ok(self.inner);
        }
        if self.fill > 0 {
            self.submit()?;
        }
        while self.pool.in_flight() > 0 {
            self.write_next().map_err(CopyError::into_io)?;
        }
        let tag = self.final_tag(self.pool.next_index())?;
        self.inner.write_all(&tag)?;
        Ok(self.inner)
    }

    /// The final tag, after `chunks` chunks of `total` octets in all.
    fn final_tag(&self, chunks: u64) -> Result<crate::aead::Tag> {
        let mut nonces = self.key.nonce.clone();
        let ad = final_ad(&self.key, self.total);
        Ok(self.key.aead.seal_in_place_separate_tag(nonces.at(chunks), Aad::new(&ad), &mut [])?)
    }
}

write_over_room!(ParSealer);

impl<W: Write> Room for ParSealer<W> {
    fn room(&mut self) -> io::Result<&mut [u8]> {
        self.poison.check()?;
        // A full chunk goes out only once more data arrives, so the last
        // chunk is never empty unless the whole plaintext is.
        if self.fill == self.chunk {
            self.submit()?;
        }
        Ok(&mut self.cur.0[self.fill..self.chunk])
    }

    fn advance(&mut self, n: usize) -> io::Result<()> {
        self.fill += n;
        Ok(())
    }

    /// From a file, each whole chunk of 64 KiB or more is read by the
    /// worker that seals it (positioned reads, so reading runs on every
    /// worker too); the chunk being filled and the rest are read here. On
    /// success every chunk handed out has been written, so that a failed
    /// read is reported here. Any error poisons the sealer.
    fn fill_from(&mut self, from: &mut Source<'_>, n: u64) -> std::result::Result<(), CopyError> {
        self.poison.check().map_err(CopyError::Write)?;
        let r = match from {
            Source::File(file, at) if self.chunk >= IO_BUFFER => self.fill_on_workers(file, at, n),
            _ => fill_in_order(self, from, n),
        };
        if let Err(e) = &r {
            let e = e.io();
            let _ = self.poison.record_final::<()>(Err(io::Error::new(e.kind(), e.to_string())));
        }
        r
    }
}

impl<W: Write> ParSealer<W> {
    /// [`Room::fill_from`] from `file` at `*at`, whole chunks read by the workers.
    fn fill_on_workers(&mut self, file: &File, at: &mut u64, mut n: u64) -> std::result::Result<(), CopyError> {
        let shared = Arc::new(file.try_clone().map_err(CopyError::Read)?);
        let chunk = self.chunk as u64;
        while n > 0 {
            if self.fill == self.chunk {
                self.submit().map_err(CopyError::Write)?;
            }
            if self.fill == 0 && n >= chunk {
                let buf = self.free_buffer()?;
                let submitted = self.pool.submit(buf, self.chunk, Some((shared.clone(), Runs::one(*at, self.chunk))));
                self.poison.record_final(submitted).map_err(CopyError::Write)?;
                (*at, n) = (*at + chunk, n - chunk);
                continue;
            }
            let room = self.room().map_err(CopyError::Write)?;
            let k = room.len().min(usize::try_from(n).unwrap_or(usize::MAX));
            Source::File(file, *at).read_exact(&mut room[..k])?;
            self.fill += k;
            (*at, n) = (*at + k as u64, n - k as u64);
        }
        while self.pool.in_flight() > 0 {
            self.write_next()?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "threads_tests.rs"]
mod tests;
