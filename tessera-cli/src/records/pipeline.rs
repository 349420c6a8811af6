//! Records on every core: a reader thread cuts the input into batches,
//! worker threads transform them, and the calling thread writes them in
//! input order. A fixed pool of batch buffers circulates reader -> worker ->
//! writer -> reader, so memory stays the same whatever the input size: the
//! reader waits for the writer to hand a buffer back before cutting more.
//!
//! The output, and the error that stops it, are those of the one-thread
//! path: batches are written in order, and a failure (reading or
//! transforming batch k) is reported when the writer reaches batch k, after
//! everything before it was written and before anything after it.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use anyhow::{Context, Result};

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
    2 * workers + 2
}

/// A batch (or the error that ended the input) with its place in the input.
type Done = (u64, Result<Box<Batch>>);

/// Runs `reader`'s batches through one worker per transform in `workers`
/// and writes them to `out` in input order.
pub fn run<R: BufRead + Send + ?Sized>(
    layout: &Layout,
    reader: BatchReader<'_, R>,
    out: &mut dyn Write,
    workers: Vec<Box<dyn Transform + Send + '_>>,
) -> Result<Report> {
    let limit = in_flight_limit(workers.len());
    let (free_tx, free_rx) = sync_channel::<Box<Batch>>(limit);
    let (work_tx, work_rx) = sync_channel::<(u64, Box<Batch>)>(limit);
    let (done_tx, done_rx) = sync_channel::<Done>(limit);
    let work_rx = Mutex::new(work_rx);
    std::thread::scope(|s| {
        let reading = {
            let done_tx = done_tx.clone();
            s.spawn(move || read(reader, limit, free_rx, work_tx, done_tx))
        };
        for t in workers {
            let (work_rx, done_tx) = (&work_rx, done_tx.clone());
            s.spawn(move || transform(layout, t, work_rx, done_tx));
        }
        drop(done_tx);
        let written = write(out, done_rx, free_tx);
        // The writer has dropped its channel ends: the others stop too.
        let (lines, buffers) = reading.join().expect("the reader thread does not panic");
        Ok(Report { lines, batches: written?, buffers })
    })
}

/// The reader: fills buffers (new ones up to `limit`, then those the writer
/// returns) and sends them to the workers, or sends its error in sequence.
/// Returns the lines read and the buffers made.
fn read<R: BufRead + ?Sized>(
    mut reader: BatchReader<'_, R>,
    limit: usize,
    free: Receiver<Box<Batch>>,
    work: SyncSender<(u64, Box<Batch>)>,
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
                if work.send((seq, b)).is_err() {
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

/// A worker: renders batches until the reader or the writer stops.
fn transform(
    layout: &Layout,
    mut t: Box<dyn Transform + Send + '_>,
    work: &Mutex<Receiver<(u64, Box<Batch>)>>,
    done: SyncSender<Done>,
) {
    loop {
        let next = work.lock().map_err(drop).and_then(|rx| rx.recv().map_err(drop));
        let Ok((seq, mut b)) = next else { return };
        let r = layout.render(&mut b, &mut *t).map(|()| b);
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
