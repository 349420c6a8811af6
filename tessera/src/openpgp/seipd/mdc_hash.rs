//! The SEIPD v1 MDC's SHA-1, on the caller's thread or on one of its own.
//!
//! SEIPD v1 encryption is a CFB chain, one AES latency per block; SHA-1 of
//! the same plaintext costs about as much again. With a second thread the
//! plaintext goes to it in buffers of [`HANDOFF`] octets (a fixed number of
//! them, [`BUFFERS`], recycled), so the chain and the hash run side by side.
//! The digest is the same either way. The thread starts once a message
//! reaches [`HANDOFF`] octets.

use std::io;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use sha1::{Digest, Sha1};
use zeroize::Zeroizing;

use super::{Room, write_through};

/// Octets of plaintext handed to the hash thread at a time.
pub(super) const HANDOFF: usize = 1 << 18;

/// Hand-off buffers per message (their octets are the plaintext in flight).
const BUFFERS: usize = 4;

/// A plaintext buffer, wiped when dropped.
type Buf = Zeroizing<Vec<u8>>;

/// SHA-1 on the caller's thread or on a thread of its own.
pub(super) enum MdcHash {
    /// On the caller's thread, moving to a thread of its own (when
    /// `threads` > 1) once `hashed` reaches [`HANDOFF`]: a short message
    /// neither spawns a thread nor allocates its buffers.
    Inline { sha: Sha1, threads: usize, hashed: usize },
    Thread(HashThread),
}

impl MdcHash {
    /// SHA-1 over `start` so far, later on another thread when `threads` > 1.
    pub(super) fn new(start: &[u8], threads: usize) -> Self {
        let mut sha = Sha1::new();
        sha.update(start);
        MdcHash::Inline { sha, threads, hashed: 0 }
    }

    /// Hashes `data` (copied into the hand-off buffers when threaded).
    pub(super) fn update(&mut self, data: &[u8]) -> io::Result<()> {
        match self {
            MdcHash::Inline { sha, threads, hashed } => {
                sha.update(data);
                *hashed = hashed.saturating_add(data.len());
                if *threads > 1 && *hashed >= HANDOFF {
                    match HashThread::spawn(sha.clone()) {
                        Ok(t) => *self = MdcHash::Thread(t),
                        // No thread to be had: on this one, as with one thread.
                        Err(_) => *threads = 1,
                    }
                }
            }
            MdcHash::Thread(t) => write_through(t, data)?,
        }
        Ok(())
    }

    /// The digest of everything hashed.
    pub(super) fn finalize(self) -> io::Result<[u8; 20]> {
        let sha = match self {
            MdcHash::Inline { sha, .. } => sha,
            MdcHash::Thread(t) => t.finish()?,
        };
        Ok(sha.finalize().into())
    }
}

/// A thread hashing the buffers it is handed, in order.
pub(super) struct HashThread {
    /// Filled buffers to hash (`None` once finishing).
    to: Option<SyncSender<(Buf, usize)>>,
    /// Hashed buffers, free again.
    back: Receiver<Buf>,
    /// The buffer being filled and its octets filled.
    cur: Option<Buf>,
    fill: usize,
    handle: Option<JoinHandle<Sha1>>,
}

/// The error of a hash thread that stopped (it panicked).
fn stopped() -> io::Error {
    io::Error::other("the SHA-1 thread stopped")
}

impl Room for HashThread {
    /// The free part of the buffer being filled (never empty): a full one
    /// is handed to the thread first and a hashed one taken back.
    fn room(&mut self) -> io::Result<&mut [u8]> {
        if self.fill == HANDOFF {
            self.hand_off()?;
        }
        if self.cur.is_none() {
            self.cur = Some(self.back.recv().map_err(|_| stopped())?);
        }
        let cur = self.cur.as_mut().ok_or_else(stopped)?;
        Ok(&mut cur[self.fill..])
    }

    /// Takes the next `n` octets of the last [`Room::room`] as filled.
    fn advance(&mut self, n: usize) -> io::Result<()> {
        debug_assert!(self.fill + n <= HANDOFF);
        self.fill += n;
        Ok(())
    }
}

impl HashThread {
    /// Starts the thread from the state `sha`, with [`BUFFERS`] buffers.
    fn spawn(mut sha: Sha1) -> io::Result<Self> {
        let (to, work) = sync_channel::<(Buf, usize)>(BUFFERS);
        let (free, back) = sync_channel::<Buf>(BUFFERS);
        for _ in 1..BUFFERS {
            free.send(Zeroizing::new(vec![0u8; HANDOFF])).map_err(|_| stopped())?;
        }
        let handle = std::thread::Builder::new().name("tessera-mdc-sha1".into()).spawn(move || {
            for (buf, len) in work {
                sha.update(&buf[..len]);
                // The sealer may be gone (dropped): the buffer is then wiped here.
                let _ = free.send(buf);
            }
            sha
        })?;
        Ok(HashThread {
            to: Some(to),
            back,
            cur: Some(Zeroizing::new(vec![0u8; HANDOFF])),
            fill: 0,
            handle: Some(handle),
        })
    }

    /// The `n` octets filled last, for the caller to read.
    pub(super) fn last_filled(&self, n: usize) -> &[u8] {
        self.cur.as_ref().map_or(&[], |c| &c[self.fill - n..self.fill])
    }

    /// Sends the buffer being filled, if anything is in it.
    fn hand_off(&mut self) -> io::Result<()> {
        if self.fill == 0 {
            return Ok(());
        }
        let buf = self.cur.take().ok_or_else(stopped)?;
        let to = self.to.as_ref().ok_or_else(stopped)?;
        to.send((buf, self.fill)).map_err(|_| stopped())?;
        self.fill = 0;
        Ok(())
    }

    /// Hashes what is left and returns the state.
    fn finish(mut self) -> io::Result<Sha1> {
        self.hand_off()?;
        self.to = None;
        let handle = self.handle.take().ok_or_else(stopped)?;
        handle.join().map_err(|_| stopped())
    }
}

impl Drop for HashThread {
    /// Ends the thread: without more work its loop returns.
    fn drop(&mut self) {
        self.to = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
