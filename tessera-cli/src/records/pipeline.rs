//! Records on every core: a reader thread cuts the input into batches,
//! worker threads transform them, and the calling thread writes them in
//! input order. A fixed pool of batch buffers circulates reader -> worker ->
//! writer -> reader, so memory stays the same whatever the input size: the
//! reader waits for the writer to hand a buffer back before cutting more.
//!
//! The output, and the error that stops it, are those of the one-thread
//! path: batches are written in order, and a failure (reading or
//! transforming batch k, or a worker panicking on it) is reported when the
//! writer reaches batch k, after everything before it was written and
//! before anything after it.
//!
//! On a failure the run returns at once, as the one-thread path does: the
//! reader owns the input and is left behind if it is blocked in a read
//! that may never end (`tail -f log | tessera fpe ...`); it stops at its
//! next batch, or with the process.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Builder;

use anyhow::{Context, Result, anyhow};

use super::{Batch, BatchReader, Layout, Transform};

/// What a run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// Lines read (the CSV header included).
    pub lines: u64,
    /// Batches written.
    pub batches: u64,
    /// Batch buffers made: the most batches ever in flight.
    pub buffers: usize,
}

/// The most batches in flight with `workers` workers: one being read, two
/// per worker (one transformed, one waiting), one being written.
pub fn in_flight_limit(workers: usize) -> usize {
    workers.saturating_mul(2).saturating_add(2)
}

/// A batch (or the error that ended the input) with its place in the input.
type Done = (u64, Result<Box<Batch>>);

/// A batch to transform with its place in the input.
type Work = (u64, Box<Batch>);

/// The work channel's one sender, shared by the reader (which sends) and
/// the writer (which closes it when it stops, so that the workers end even
/// while the reader is blocked in a read).
struct WorkTx(Mutex<Option<SyncSender<Work>>>);

impl WorkTx {
    /// Sends `w` to the workers; `false` once the channel is closed.
    fn send(&self, w: Work) -> bool {
        // The lock is not held while sending, so `close` never waits.
        let tx = self.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
        tx.is_some_and(|tx| tx.send(w).is_ok())
    }

    /// Closes the channel: the workers stop once it is empty.
    fn close(&self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Closes the work channel when the reader ends, however it ends.
struct CloseOnDrop(Arc<WorkTx>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Runs the batches of `input` (records of `layout`) through one worker per
/// transform in `workers` and writes them to `out` in input order. The
/// reader thread owns `input`: on a failure the run returns without
/// waiting for it to finish a read.
pub fn run<R: BufRead + Send + 'static>(
    layout: &Layout,
    input: R,
    out: &mut dyn Write,
    workers: Vec<Box<dyn Transform + Send + '_>>,
) -> Result<Report> {
    let limit = in_flight_limit(workers.len());
    let (free_tx, free_rx) = sync_channel::<Box<Batch>>(limit);
    let (work_tx, work_rx) = sync_channel::<Work>(limit);
    let (done_tx, done_rx) = sync_channel::<Done>(limit);
    let work_tx = Arc::new(WorkTx(Mutex::new(Some(work_tx))));
    let work_rx = Mutex::new(work_rx);
    std::thread::scope(|s| {
        let mut running = Vec::with_capacity(workers.len());
        for (i, t) in workers.into_iter().enumerate() {
            let (work_rx, done_tx) = (&work_rx, done_tx.clone());
            let spawned = Builder::new()
                .name(format!("tessera-records-{i}"))
                .spawn_scoped(s, move || transform(layout, t, work_rx, done_tx));
            match spawned {
                Ok(h) => running.push(h),
                Err(e) => {
                    work_tx.close();
                    return Err(e).context("cannot start a worker thread");
                }
            }
        }
        let reading = {
            let (layout, close, done_tx) = (layout.clone(), CloseOnDrop(Arc::clone(&work_tx)), done_tx.clone());
            let mut input = input;
            Builder::new()
                .name("tessera-records-reader".into())
                .spawn(move || read(BatchReader::new(&mut input, &layout), limit, free_rx, &close.0, done_tx))
        };
        let reading = match reading {
            Ok(h) => h,
            Err(e) => {
                work_tx.close();
                return Err(e).context("cannot start the reader thread");
            }
        };
        drop(done_tx);
        let written = write(out, done_rx, free_tx);
        // The workers end once idle, even if the reader is blocked in a read.
        work_tx.close();
        for h in running {
            // A worker that panicked has reported it to the writer.
            let _ = h.join();
        }
        let batches = written?;
        // Every batch was written: the reader has reached the end of the input.
        let (lines, buffers) = reading.join().map_err(|_| anyhow!("the reader thread panicked"))?;
        Ok(Report { lines, batches, buffers })
    })
}

/// The reader: fills buffers (new ones up to `limit`, then those the writer
/// returns) and sends them to the workers, or sends its error in sequence.
/// Returns the lines read and the buffers made.
fn read<R: BufRead + ?Sized>(
    mut reader: BatchReader<'_, R>,
    limit: usize,
    free: Receiver<Box<Batch>>,
    work: &WorkTx,
    done: SyncSender<Done>,
) -> (u64, usize) {
    let mut made = 0;
    for seq in 0.. {
        let mut b = if made < limit {
            made += 1;
            Box::default()
        } else {
            match free.recv() {
                Ok(b) => b,
                Err(_) => break, // the writer stopped
            }
        };
        match reader.fill(&mut b) {
            Ok(true) => {
                if !work.send((seq, b)) {
                    break;
                }
            }
            Ok(false) => break,
            Err(e) => {
                let _ = done.send((seq, Err(e)));
                break;
            }
        }
    }
    (reader.lines_read(), made)
}

/// Reports the batch `seq` as failed if its worker panics on it, so that
/// the writer stops there instead of waiting for it forever.
struct PanicReport<'a> {
    seq: u64,
    done: &'a SyncSender<Done>,
}

impl Drop for PanicReport<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.done.send((self.seq, Err(anyhow!("a worker thread panicked on this batch"))));
        }
    }
}

/// A worker: renders batches until the reader or the writer stops.
fn transform(
    layout: &Layout,
    mut t: Box<dyn Transform + Send + '_>,
    work: &Mutex<Receiver<Work>>,
    done: SyncSender<Done>,
) {
    loop {
        let next = work.lock().map_err(drop).and_then(|rx| rx.recv().map_err(drop));
        let Ok((seq, mut b)) = next else { return };
        let guard = PanicReport { seq, done: &done };
        let r = layout.render(&mut b, &mut *t).map(|()| b);
        drop(guard);
        if done.send((seq, r)).is_err() {
            return;
        }
    }
}

/// The writer: writes batches in input order and hands their buffers back
/// to the reader; stops at the first failure in input order. Returns the
/// number of batches written.
fn write(out: &mut dyn Write, done: Receiver<Done>, free: SyncSender<Box<Batch>>) -> Result<u64> {
    let mut waiting = BTreeMap::new();
    let mut next = 0u64;
    for (seq, r) in done {
        waiting.insert(seq, r);
        while let Some(r) = waiting.remove(&next) {
            let b = r?;
            out.write_all(&b.rendered).context("cannot write output")?;
            next += 1;
            // The reader may have finished: then the buffer is just dropped.
            let _ = free.send(b);
        }
    }
    Ok(next)
}
