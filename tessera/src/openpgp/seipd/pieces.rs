//! Where the octets of a packet body lie in a file: its partial-length
//! framing (RFC 9580 §4.2.1.4) walked with positioned reads of the length
//! headers only, so that chunk workers can read their chunks of a SEIPD v2
//! body straight from the file, each on its own thread.

use std::cell::Cell;
use std::fs::File;
use std::sync::Arc;

use super::room::Source;
use crate::TAG_LEN;
use crate::fs::CopyError;
use crate::openpgp::packet::{BodyLen, decode_new_len, new_len_size};
use crate::openpgp::{Error, Result};

/// The fewest octets left in the first piece (after the SEIPD header) for
/// which a body is read at offsets: with smaller pieces, reading each
/// length header alone costs more than the workers' reads gain. (tessera
/// writes pieces of at least a chunk, 64 KiB or more for large messages.)
pub(crate) const MIN_FIRST_PIECE: u32 = 1 << 15;

/// Most runs of a file one job names; a body whose chunks spread over
/// more pieces than this is read as a stream from there on.
pub(crate) const MAX_RUNS: usize = 16;

/// Most runs a job names: its octets in at most [`MAX_RUNS`], and the
/// look-ahead after them ([`PieceMap::take_ahead`], a tag's worth) in at
/// most one run an octet.
const RUNS_CAP: usize = MAX_RUNS + TAG_LEN;

/// The runs of a file a job's octets come from, `(offset, length)` in
/// order: the first fills the start of the buffer, the next goes on from
/// there. A fixed array, so that a job allocates nothing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Runs {
    parts: [(u64, usize); RUNS_CAP],
    count: usize,
}

impl Default for Runs {
    fn default() -> Self {
        Runs { parts: [(0, 0); RUNS_CAP], count: 0 }
    }
}

impl Runs {
    /// One run of `len` octets at `at`.
    pub(crate) fn one(at: u64, len: usize) -> Self {
        let mut s = Runs::default();
        s.parts[0] = (at, len);
        s.count = 1;
        s
    }

    /// Appends a run (to the last one, if it goes on from there); `false`
    /// (and nothing appended) when full.
    fn push(&mut self, at: u64, len: usize) -> bool {
        if let Some(last) = self.count.checked_sub(1).map(|i| &mut self.parts[i])
            && last.0 + last.1 as u64 == at
        {
            last.1 += len;
            return true;
        }
        let Some(slot) = self.parts.get_mut(self.count) else { return false };
        *slot = (at, len);
        self.count += 1;
        true
    }

    /// The file offset after the last run (0 for none).
    pub(crate) fn end(&self) -> u64 {
        self.count.checked_sub(1).map_or(0, |i| self.parts[i].0 + self.parts[i].1 as u64)
    }

    /// Reads every run of `file`, one after the other, into the start of `buf`.
    pub(crate) fn read_into(&self, file: &File, buf: &mut [u8]) -> std::result::Result<(), CopyError> {
        let mut off = 0;
        for &(at, len) in &self.parts[..self.count] {
            let dst = buf.get_mut(off..off + len).ok_or_else(|| CopyError::Read(overflow()))?;
            Source::File(file, at).read_exact(dst)?;
            off += len;
        }
        Ok(())
    }
}

fn overflow() -> std::io::Error {
    std::io::Error::other("a packet body's runs do not fit the chunk buffer")
}

/// What [`PieceMap::ahead`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ahead {
    Whole,
    Short,
    Stream,
}

/// A place in the body: the file offset of the next body octet (or, with
/// none left in this piece, of the next length header), the octets left
/// in this piece, and whether pieces follow it.
#[derive(Clone, Copy, Debug)]
struct Place {
    at: u64,
    left: u32,
    more: bool,
}

/// The rest of one packet body in a file, read at offsets.
#[derive(Debug)]
pub(crate) struct PieceMap {
    file: Arc<File>,
    /// The file's length as last seen: a body that goes past it (after
    /// one more look, in case the file grew) is left to the stream reader.
    file_len: Cell<u64>,
    place: Place,
}

impl PieceMap {
    /// The body whose next octet is at `at`, with `left` octets left in the
    /// current piece and, if `more`, pieces after it.
    pub(crate) fn new(file: Arc<File>, at: u64, left: u32, more: bool) -> std::io::Result<Self> {
        let file_len = Cell::new(file.metadata()?.len());
        Ok(PieceMap { file, file_len, place: Place { at, left, more } })
    }

    /// The file.
    pub(crate) fn file(&self) -> &Arc<File> {
        &self.file
    }

    /// What the next `job + extra` octets of the body are: [`Ahead::Whole`]
    /// with the first `job` in at most [`MAX_RUNS`] runs,
    /// [`Ahead::Short`] (the body ends first, all of it in at most that many
    /// runs), or [`Ahead::Stream`]: pieces so small that the body is better
    /// read as a stream (the walk stops there, so tiny pieces cost only a
    /// few reads here), or a body that goes past the file's length as last
    /// seen (the stream reader then decides, by the end of the input).
    pub(crate) fn ahead(&self, job: u64, extra: u64) -> Result<Ahead> {
        let (mut job_runs, mut runs, mut seen) = (0, 0, 0);
        // The extra octets add at most `extra` runs: a walk stopped after
        // more could not have been whole.
        let limit = MAX_RUNS + usize::try_from(extra).unwrap_or(usize::MAX);
        let mut count = |_: u64, len: usize| {
            job_runs += usize::from(seen < job);
            (runs, seen) = (runs + 1, seen + len as u64);
            job_runs <= MAX_RUNS && runs <= limit
        };
        let n = job + extra;
        Ok(match self.walk(self.place, n, &mut count)? {
            Walked::Done(_, walked) if walked == n => Ahead::Whole,
            Walked::Done(..) if runs <= MAX_RUNS => Ahead::Short,
            _ => Ahead::Stream,
        })
    }

    /// Takes the next `n` octets, which [`PieceMap::ahead`] found in at most
    /// [`MAX_RUNS`] runs (fewer octets only at the end of the body): the
    /// runs and how many octets they hold.
    pub(crate) fn take(&mut self, n: usize) -> Result<(Runs, usize)> {
        let mut runs = Runs::default();
        let mut push = |at: u64, len: usize| runs.push(at, len);
        match self.walk(self.place, n as u64, &mut push)? {
            Walked::Done(place, walked) => {
                self.place = place;
                Ok((runs, walked as usize))
            }
            // The file changed since `ahead` looked.
            Walked::Stopped | Walked::Beyond => Err(Error::Truncated("packet body")),
        }
    }

    /// Takes the next `n` octets as [`PieceMap::take`] does, with the runs
    /// of the `extra` octets after them too (named, not taken: the next
    /// take starts with them), which [`PieceMap::ahead`] found whole: the
    /// runs and how many octets they hold. A chunk's job reads the next
    /// tag's worth after it, as the stream reader does before it releases
    /// that chunk (so a file cut there fails the same way).
    pub(crate) fn take_ahead(&mut self, n: usize, extra: usize) -> Result<(Runs, usize)> {
        let (mut runs, k) = self.take(n)?;
        let mut push = |at: u64, len: usize| runs.push(at, len);
        match self.walk(self.place, extra as u64, &mut push)? {
            Walked::Done(_, walked) => Ok((runs, k + walked as usize)),
            // The file changed since `ahead` looked.
            Walked::Stopped | Walked::Beyond => Err(Error::Truncated("packet body")),
        }
    }

    /// Takes the next `n` octets as [`PieceMap::take`] does and reads them
    /// into the start of `buf` here; returns how many.
    pub(crate) fn read_into(&mut self, n: usize, buf: &mut [u8]) -> Result<usize> {
        let (runs, k) = self.take(n)?;
        runs.read_into(&self.file, buf).map_err(read_error)?;
        Ok(k)
    }

    /// Where the body goes on, to read the rest as a stream: the file
    /// offset of its next octet (or length header), the octets left in
    /// the current piece and whether pieces follow (none left and none
    /// following: the body ended).
    pub(crate) fn place(&self) -> (u64, u32, bool) {
        (self.place.at, self.place.left, self.place.more)
    }

    /// Walks up to `n` octets from `from`, handing each run to `each`
    /// while it says to go on.
    fn walk(&self, from: Place, n: u64, each: &mut dyn FnMut(u64, usize) -> bool) -> Result<Walked> {
        let mut p = from;
        let mut walked = 0;
        while walked < n {
            if p.left == 0 {
                if !p.more {
                    break;
                }
                match self.next_piece(p.at)? {
                    Some(next) => p = next,
                    None => return Ok(Walked::Beyond),
                }
                continue;
            }
            let k = u64::from(p.left).min(n - walked);
            if !self.within(p.at, k)? {
                return Ok(Walked::Beyond);
            }
            if !each(p.at, k as usize) {
                return Ok(Walked::Stopped);
            }
            // k <= p.left, a u32.
            (p.at, p.left, walked) = (p.at + k, p.left - k as u32, walked + k);
        }
        Ok(Walked::Done(p, walked))
    }

    /// Reads the length header at `at`: the place of the piece after it
    /// (`None` if the header goes past the file's end).
    fn next_piece(&self, at: u64) -> Result<Option<Place>> {
        let mut h = [0u8; 5];
        if !self.within(at, 1)? {
            return Ok(None);
        }
        self.read_header(&mut h[..1], at)?;
        let need = new_len_size(h[0]);
        if !self.within(at, need as u64)? {
            return Ok(None);
        }
        self.read_header(&mut h[1..need], at + 1)?;
        let at = at + need as u64;
        Ok(Some(match decode_new_len(&h) {
            BodyLen::Fixed(n) => Place { at, left: n, more: false },
            BodyLen::Partial(n) => Place { at, left: n, more: true },
            // Not a new-format length; never decoded from one.
            BodyLen::Indeterminate => return Err(Error::Malformed("indeterminate length inside a body")),
        }))
    }

    /// Reads (part of) a length header: a file that ends first (it shrank
    /// since its length was seen) is a truncated length, as for a stream.
    fn read_header(&self, dst: &mut [u8], at: u64) -> Result<()> {
        Source::File(&self.file, at).read_exact(dst).map_err(|e| match read_error(e) {
            Error::Truncated(_) => Error::Truncated("packet length"),
            e => e,
        })
    }

    /// Whether the file holds `k` octets at `at` (looking again at its
    /// length before saying no, in case it grew).
    fn within(&self, at: u64, k: u64) -> Result<bool> {
        let Some(end) = at.checked_add(k) else { return Ok(false) };
        if end <= self.file_len.get() {
            return Ok(true);
        }
        self.file_len.set(self.file.metadata().map_err(Error::from_io)?.len());
        Ok(end <= self.file_len.get())
    }
}

/// How a walk ended: done (at the end of the body or after the octets
/// asked for), stopped by its caller, or at a run past the file's end.
enum Walked {
    Done(Place, u64),
    Stopped,
    Beyond,
}

/// The error of a positioned read of the body: the file ending early (it
/// shrank while being read) is a truncated body, as for a stream.
pub(crate) fn read_error(e: CopyError) -> Error {
    match e.into_io() {
        e if e.kind() == std::io::ErrorKind::UnexpectedEof => Error::Truncated("packet body"),
        e => Error::from_io(e),
    }
}

// Positioned reads only exist on some platforms; the tests need a file.
#[cfg(all(test, any(unix, windows)))]
#[path = "pieces_tests.rs"]
pub(super) mod tests;
