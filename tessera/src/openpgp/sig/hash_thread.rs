//! Document hashes computed on a thread of their own, so that hashing the
//! data (the floor of signing and verifying) runs on one core while the
//! caller's thread reads, writes and hands chunks to the AEAD workers of
//! [`crate::openpgp::seipd`] on the other.
//!
//! The data is copied into a fixed set of [`BUFFERS`] buffers of
//! [`BUF_LEN`] octets (512 KiB, whatever the size of the data), handed to
//! the thread in order; a caller with no free buffer waits for the thread.
//! Every buffer is wiped when the hashing ends.

use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

use zeroize::Zeroize;

use super::super::{Error, Result};
use super::hashing::DocumentHasher;

/// Octets per buffer handed to the thread: with 64 KiB, the hand-offs
/// (two thread wake-ups each) kept decrypt+verify of 256 MiB at 60% of the
/// hash's speed; with 128 KiB it runs at the hash's speed.
const BUF_LEN: usize = 128 << 10;
/// Buffers per hashing thread: one filling, two queued, one being hashed.
const BUFFERS: usize = 4;

/// The hashers of a signer or verifier: here, or on their thread.
#[derive(Debug)]
pub(crate) enum Hashing {
    /// Hashed on the caller's thread.
    Here(Vec<DocumentHasher>),
    /// Hashed on a thread of their own.
    Thread(HashThread),
}

impl Hashing {
    /// Moves the hashing to a thread of its own (nothing if it already is,
    /// or if there is nothing to hash for). Fails only if the operating
    /// system refuses a thread.
    pub(crate) fn move_to_thread(&mut self) -> Result<()> {
        if let Hashing::Here(hashers) = self
            && !hashers.is_empty()
        {
            *self = Hashing::Thread(HashThread::start(std::mem::take(hashers))?);
        }
        Ok(())
    }

    /// Hashes more data.
    pub(crate) fn update(&mut self, data: &[u8]) {
        match self {
            Hashing::Here(hashers) => hashers.iter_mut().for_each(|h| h.update(data)),
            Hashing::Thread(t) => t.update(data),
        }
    }

    /// The hashers, with all the data hashed.
    pub(crate) fn finish(self) -> Result<Vec<DocumentHasher>> {
        match self {
            Hashing::Here(hashers) => Ok(hashers),
            Hashing::Thread(t) => t.finish(),
        }
    }
}

/// A thread hashing the data handed to it, in order.
pub(crate) struct HashThread {
    jobs: Option<SyncSender<Vec<u8>>>,
    free: Receiver<Vec<u8>>,
    cur: Vec<u8>,
    handle: Option<JoinHandle<Vec<DocumentHasher>>>,
    /// The thread stopped (it cannot, short of a panic): the hashes are lost.
    broken: bool,
}

impl std::fmt::Debug for HashThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HashThread").field("filled", &self.cur.len()).finish_non_exhaustive()
    }
}

impl HashThread {
    fn start(mut hashers: Vec<DocumentHasher>) -> Result<Self> {
        let (jobs, job_rx) = mpsc::sync_channel::<Vec<u8>>(BUFFERS);
        let (free_tx, free) = mpsc::sync_channel::<Vec<u8>>(BUFFERS);
        for _ in 1..BUFFERS {
            free_tx.send(Vec::with_capacity(BUF_LEN)).map_err(|_| Error::InvalidOption("hash thread"))?;
        }
        let handle = std::thread::Builder::new()
            .name("tessera-hash".into())
            .spawn(move || {
                for mut buf in job_rx {
                    hashers.iter_mut().for_each(|h| h.update(&buf));
                    buf.clear();
                    if let Err(mpsc::SendError(mut buf)) = free_tx.send(buf) {
                        buf.zeroize();
                    }
                }
                hashers
            })
            .map_err(Error::from_io)?;
        let cur = Vec::with_capacity(BUF_LEN);
        Ok(HashThread { jobs: Some(jobs), free, cur, handle: Some(handle), broken: false })
    }

    fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() && !self.broken {
            let k = (BUF_LEN - self.cur.len()).min(data.len());
            self.cur.extend_from_slice(&data[..k]);
            data = &data[k..];
            if self.cur.len() == BUF_LEN {
                match self.free.recv() {
                    Ok(next) => self.send(next),
                    Err(_) => self.broken = true,
                }
            }
        }
    }

    /// Hands the current buffer to the thread and goes on with `next`.
    fn send(&mut self, next: Vec<u8>) {
        let full = std::mem::replace(&mut self.cur, next);
        let sent = self.jobs.as_ref().map(|j| j.send(full));
        if let Some(Err(mpsc::SendError(mut full))) = sent {
            full.zeroize();
            self.broken = true;
        }
    }

    fn finish(mut self) -> Result<Vec<DocumentHasher>> {
        if !self.cur.is_empty() {
            self.send(Vec::new());
        }
        self.jobs = None;
        let hashers = self.handle.take().map(JoinHandle::join);
        match hashers {
            Some(Ok(h)) if !self.broken => Ok(h),
            _ => Err(Error::InvalidOption("the hashing thread stopped")),
        }
    }
}

impl Drop for HashThread {
    fn drop(&mut self) {
        // Closing the job channel ends the thread once it is idle.
        self.jobs = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
        self.cur.zeroize();
        while let Ok(mut b) = self.free.try_recv() {
            b.zeroize();
        }
    }
}
