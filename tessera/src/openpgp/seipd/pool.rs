//! Worker threads that seal or open SEIPD v2 chunks for one message.
//!
//! The caller's thread does all the I/O but positioned reads of a file; it
//! hands a chunk buffer (with room for its tag), filled or to be filled
//! from runs of a file, to the pool and takes buffers back **in index
//! order**.
//! The number of buffers is fixed when the pool is made, so the memory of a
//! message does not depend on its size or on how fast the workers are: a
//! caller with no free buffer must first take the next finished one.

use std::fs::File;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use zeroize::Zeroize;

use super::pieces::Runs;
use super::v2::ChunkNonce;
use crate::fs::CopyError;
use crate::TAG_LEN;
use crate::aead::{Aad, Aead, AeadInPlace};

/// Most octets of chunk buffers one message keeps (with 256 KiB chunks:
/// sixteen), so that peak memory stays well under 8 MiB.
pub(crate) const BUFFER_BUDGET: usize = 4 << 20;

/// The most workers one message gets, whatever it asks for.
pub(crate) const MAX_WORKERS: usize = 1024;

/// How many threads `threads` asks for: 0 means one per core; at most
/// [`MAX_WORKERS`].
pub(crate) fn thread_count(threads: usize) -> usize {
    let n = if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
    n.min(MAX_WORKERS)
}

/// How many chunk buffers of `buf_len` octets `threads` workers get (two
/// per worker within [`BUFFER_BUDGET`]); fewer than two means the chunks
/// are too large to gain from threads.
pub(crate) fn buffer_count(threads: usize, buf_len: usize) -> usize {
    threads.saturating_mul(2).min(BUFFER_BUDGET / buf_len.max(1))
}

/// Sealing or opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Seal,
    Open,
}

/// The per-message constants every chunk needs: the AEAD with the message
/// key, the chunk nonces (from the IV) and the associated data.
pub(crate) struct ChunkKey {
    pub(crate) aead: Aead,
    pub(crate) nonce: ChunkNonce,
    pub(crate) ad: [u8; 5],
}

impl ChunkKey {
    /// Seals `buf[..len]` in place and puts the tag after it.
    pub(crate) fn seal(&self, index: u64, buf: &mut [u8], len: usize) -> bool {
        let mut nonces = self.nonce.clone();
        match self.aead.seal_in_place_separate_tag(nonces.at(index), Aad::new(&self.ad), &mut buf[..len]) {
            Ok(tag) => {
                buf[len..len + TAG_LEN].copy_from_slice(&tag);
                true
            }
            Err(_) => false,
        }
    }

    /// Opens `buf[..len]` in place against the tag after it; on failure
    /// the data is wiped.
    pub(crate) fn open(&self, index: u64, buf: &mut [u8], len: usize) -> bool {
        let mut nonces = self.nonce.clone();
        let (data, rest) = buf.split_at_mut(len);
        let tag: &[u8; TAG_LEN] = rest[..TAG_LEN].try_into().expect("room for a tag");
        let ok = self.aead.open_in_place_separate_tag(nonces.at(index), Aad::new(&self.ad), data, tag).is_ok();
        if !ok {
            data.zeroize();
        }
        ok
    }
}

/// A chunk handed to a worker: `len` octets of data, then room for the
/// tag; with `src`, the worker first reads the buffer's start from those
/// runs of the file (the data, and when opening its tag too). Its buffer
/// is wiped if the job is dropped unworked (every worker gone).
struct Job {
    index: u64,
    buf: Vec<u8>,
    len: usize,
    src: Option<(Arc<File>, Runs)>,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

/// A chunk back from a worker, sealed (tag after the data) or opened.
pub(crate) struct Done {
    pub(crate) index: u64,
    pub(crate) buf: Vec<u8>,
    pub(crate) len: usize,
    /// `false`: the tag did not verify, or sealing or reading failed; the
    /// data is wiped when a tag did not verify (the caller wipes the rest).
    pub(crate) ok: bool,
    /// Why reading the chunk's data failed, if it did.
    pub(crate) read_error: Option<std::io::Error>,
    /// The worker panicked on this chunk (a bug): not ok, whatever the
    /// buffer holds.
    pub(crate) panicked: bool,
}

/// A fault the workers of the pools made on this thread fake, for tests of
/// what the caller does when a worker fails.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Panic while working on the chunk of this index.
    PanicAt(u64),
    /// End the worker, with no answer, at the first chunk of this index or
    /// later (as a thread that died outside the panic guard would).
    ExitFrom(u64),
    /// The operating system refuses the second worker thread (as when
    /// out of threads: `EAGAIN`, a `WouldBlock` error).
    RefuseSecondThread,
}

#[cfg(test)]
thread_local! {
    /// The fault the workers of pools made on this thread fake (copied to
    /// each worker when it starts).
    pub(crate) static FAULT: std::cell::Cell<Option<Fault>> = const { std::cell::Cell::new(None) };
}

/// What the workers are started with, kept until the first chunk is
/// submitted: a message of one chunk never starts them.
struct Start {
    key: Arc<ChunkKey>,
    op: Op,
    threads: usize,
    jobs: Arc<Mutex<Receiver<Job>>>,
    done: SyncSender<Done>,
    /// The fault the workers fake: this thread's when the pool was made.
    #[cfg(test)]
    fault: Option<Fault>,
}

/// The workers of one message and its fixed set of chunk buffers.
pub(crate) struct ChunkPool {
    jobs: Option<SyncSender<Job>>,
    done: Receiver<Done>,
    start: Option<Start>,
    workers: Vec<JoinHandle<()>>,
    /// Finished chunks that arrived before an earlier one, in slot
    /// `index % buffers` (at most `buffers` chunks are ever in flight, so
    /// slots never collide; fixed size, so no allocation per chunk).
    early: Vec<Option<Done>>,
    free: Vec<Vec<u8>>,
    /// Buffers of the set not allocated yet: a short message never pays
    /// for (nor wipes) the ones it does not use.
    unmade: usize,
    buf_len: usize,
    submitted: u64,
    taken: u64,
}

impl std::fmt::Debug for ChunkPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkPool").field("workers", &self.workers.len()).field("in_flight", &self.in_flight()).finish()
    }
}

impl ChunkPool {
    /// A pool of `threads` workers doing `op` with `key` (started with the
    /// first chunk), and `buffers` buffers of `buf_len` octets (made as
    /// they are first needed).
    pub(crate) fn new(key: Arc<ChunkKey>, op: Op, threads: usize, buffers: usize, buf_len: usize) -> Self {
        // Bounded channels as large as the buffer set: a send never waits,
        // and their storage is allocated once, not per chunk.
        let buffers = buffers.max(1);
        let (jobs, job_rx) = mpsc::sync_channel::<Job>(buffers);
        let (done_tx, done) = mpsc::sync_channel::<Done>(buffers);
        let jobs_rx = Arc::new(Mutex::new(job_rx));
        #[cfg(not(test))]
        let start = Start { key, op, threads, jobs: jobs_rx, done: done_tx };
        #[cfg(test)]
        let start = Start { key, op, threads, jobs: jobs_rx, done: done_tx, fault: FAULT.get() };
        ChunkPool {
            jobs: Some(jobs),
            done,
            start: Some(start),
            workers: Vec::with_capacity(threads),
            early: (0..buffers).map(|_| None).collect(),
            free: Vec::with_capacity(buffers),
            unmade: buffers,
            buf_len,
            submitted: 0,
            taken: 0,
        }
    }

    /// Starts the workers. Fails only if the operating system refuses a
    /// thread (the workers already started then end with the pool), with
    /// an error that is not one to retry: the pool does not start again.
    fn start_workers(&mut self) -> std::io::Result<()> {
        let Some(start) = self.start.take() else { return Ok(()) };
        let Start { key, op, threads, jobs, done, .. } = &start;
        let op = *op;
        #[cfg(test)]
        let fault = start.fault;
        for i in 0..*threads {
            #[cfg(test)]
            if i == 1 && fault == Some(Fault::RefuseSecondThread) {
                let refused = std::io::Error::from(std::io::ErrorKind::WouldBlock);
                return Err(std::io::Error::other(format!("cannot start a chunk worker thread: {refused}")));
            }
            let (key, rx, tx) = (key.clone(), jobs.clone(), done.clone());
            let handle = std::thread::Builder::new()
                .name(format!("tessera-chunks-{i}"))
                .spawn(move || {
                    #[cfg(test)]
                    FAULT.set(fault);
                    work(&key, op, &rx, &tx)
                })
                .map_err(|e| std::io::Error::other(format!("cannot start a chunk worker thread: {e}")))?;
            self.workers.push(handle);
        }
        Ok(())
    }

    /// A free buffer, if any (all may be in flight).
    pub(crate) fn buffer(&mut self) -> Option<Vec<u8>> {
        self.free.pop().or_else(|| {
            self.unmade = self.unmade.checked_sub(1)?;
            Some(vec![0u8; self.buf_len])
        })
    }

    /// Gives a buffer back.
    pub(crate) fn recycle(&mut self, buf: Vec<u8>) {
        self.free.push(buf);
    }

    /// Chunks handed out and not yet taken back.
    pub(crate) fn in_flight(&self) -> u64 {
        self.submitted - self.taken
    }

    /// Index the next submitted chunk gets.
    pub(crate) fn next_index(&self) -> u64 {
        self.submitted
    }

    /// Hands `buf[..len]` to the workers as the next chunk; with `src`,
    /// a worker first reads the buffer's start from those runs of the file.
    pub(crate) fn submit(&mut self, buf: Vec<u8>, len: usize, src: Option<(Arc<File>, Runs)>) -> std::io::Result<()> {
        let job = Job { index: self.submitted, buf, len, src };
        self.start_workers()?;
        self.submitted += 1;
        // The workers outlive the sender; a send fails only once every
        // worker is gone (the job's buffer is wiped), and `take` says so.
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
        Ok(())
    }

    /// The next chunk in index order, waiting for it; `None` when none is
    /// in flight or every worker died (then chunks may still be in flight:
    /// [`ChunkPool::in_flight`]).
    pub(crate) fn take(&mut self) -> Option<Done> {
        if self.in_flight() == 0 {
            return None;
        }
        let slots = self.early.len() as u64;
        let slot = (self.taken % slots) as usize;
        while self.early[slot].is_none() {
            let d = self.done.recv().ok()?;
            let at = (d.index % slots) as usize;
            self.early[at] = Some(d);
        }
        let d = self.early[slot].take()?;
        self.taken += 1;
        Some(d)
    }
}

fn work(key: &ChunkKey, op: Op, jobs: &Mutex<Receiver<Job>>, done: &SyncSender<Done>) {
    loop {
        let mut job = match jobs.lock().unwrap_or_else(|e| e.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        #[cfg(test)]
        if matches!(FAULT.get(), Some(Fault::ExitFrom(from)) if job.index >= from) {
            return;
        }
        let (index, len, src, mut buf) = (job.index, job.len, job.src.take(), std::mem::take(&mut job.buf));
        // A panic (a bug) fails this chunk, which comes back not ok: the
        // caller then fails, instead of waiting for it forever or, once
        // every worker is gone, missing it.
        let worked = catch_unwind(AssertUnwindSafe(|| work_on(key, op, index, &mut buf, len, src)));
        let panicked = worked.is_err();
        let (ok, read_error) = worked.unwrap_or((false, None));
        if done.send(Done { index, buf, len, ok, read_error, panicked }).is_err() {
            return;
        }
    }
}

/// Reads (with `src`) and seals or opens one chunk: whether that worked,
/// and why reading failed, if it did.
fn work_on(
    key: &ChunkKey,
    op: Op,
    index: u64,
    buf: &mut [u8],
    len: usize,
    src: Option<(Arc<File>, Runs)>,
) -> (bool, Option<std::io::Error>) {
    #[cfg(test)]
    if FAULT.get() == Some(Fault::PanicAt(index)) {
        panic!("a worker panic faked at chunk {index}");
    }
    let read_error = src.and_then(|(file, runs)| runs.read_into(&file, buf).err());
    let ok = read_error.is_none()
        && match op {
            Op::Seal => key.seal(index, buf, len),
            Op::Open => key.open(index, buf, len),
        };
    (ok, read_error.map(CopyError::into_io))
}

impl Drop for ChunkPool {
    fn drop(&mut self) {
        // Closing the job channel ends the workers once they are idle.
        self.jobs = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
        while let Ok(mut d) = self.done.try_recv() {
            d.buf.zeroize();
        }
        for d in self.early.iter_mut().flatten() {
            d.buf.zeroize();
        }
        for b in &mut self.free {
            b.zeroize();
        }
    }
}
