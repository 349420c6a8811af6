//! Where the octets of a packet body lie in a file: its partial-length
//! framing (RFC 9580 §4.2.1.4) walked with positioned reads of the length
//! headers only, so that chunk workers can read their chunks of a SEIPD v2
//! body straight from the file, each on its own thread.

use std::cell::Cell;
use std::fs::File;
use std::sync::Arc;

use super::room::Source;
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
pub(crate) const MAX_SEGMENTS: usize = 8;

/// The runs of a file a job's octets come from, `(offset, length)` in
/// order: the first fills the start of the buffer, the next goes on from
/// there. A fixed array, so that a job allocates nothing.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Segments {
    parts: [(u64, usize); MAX_SEGMENTS],
    count: usize,
}

impl Segments {
    /// One run of `len` octets at `at`.
    pub(crate) fn one(at: u64, len: usize) -> Self {
        let mut s = Segments::default();
        s.parts[0] = (at, len);
        s.count = 1;
        s
    }

    /// Appends a run; `false` (and nothing appended) when full.
    fn push(&mut self, at: u64, len: usize) -> bool {
        let Some(slot) = self.parts.get_mut(self.count) else { return false };
        *slot = (at, len);
        self.count += 1;
        true
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
    Fragmented,
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
    /// The file's length as last seen: a run beyond it is a truncated
    /// body (after one more look, in case the file grew).
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

    /// What the next `n` octets of the body are: [`Ahead::Whole`] in at
    /// most [`MAX_SEGMENTS`] runs, [`Ahead::Short`] (the body ends first,
    /// in at most that many runs too), or [`Ahead::Fragmented`] (more runs:
    /// pieces so small that the body is better read as a stream; the walk
    /// stops there, so tiny pieces cost no more than a few reads here).
    pub(crate) fn ahead(&self, n: u64) -> Result<Ahead> {
        let mut runs = 0;
        let mut count = |_: u64, _: usize| -> Result<()> {
            runs += 1;
            // Stops the walk; told apart from a real error by `runs`.
            if runs > MAX_SEGMENTS { Err(Error::Limit("runs of a job")) } else { Ok(()) }
        };
        match self.walk(self.place, n, &mut count) {
            Ok((_, walked)) => Ok(if walked == n { Ahead::Whole } else { Ahead::Short }),
            Err(_) if runs > MAX_SEGMENTS => Ok(Ahead::Fragmented),
            Err(e) => Err(e),
        }
    }

    /// Takes the next `n` octets (fewer at the end of the body), which
    /// [`PieceMap::ahead`] found in at most [`MAX_SEGMENTS`] runs: the runs
    /// and how many octets they hold.
    pub(crate) fn take(&mut self, n: usize) -> Result<(Segments, usize)> {
        let mut segs = Segments::default();
        let mut push = |at: u64, len: usize| {
            if segs.push(at, len) { Ok(()) } else { Err(Error::InvalidOption("more runs than a job names")) }
        };
        let (place, walked) = self.walk(self.place, n as u64, &mut push)?;
        self.place = place;
        Ok((segs, walked as usize))
    }

    /// Takes the next `n` octets as [`PieceMap::take`] does and reads them
    /// into the start of `buf` here; returns how many.
    pub(crate) fn read_into(&mut self, n: usize, buf: &mut [u8]) -> Result<usize> {
        let (runs, k) = self.take(n)?;
        runs.read_into(&self.file, buf).map_err(|e| Error::from_io(e.into_io()))?;
        Ok(k)
    }

    /// Where the body goes on, to read the rest as a stream: the file
    /// offset of its next octet (or length header), the octets left in
    /// the current piece and whether pieces follow (none left and none
    /// following: the body ended).
    pub(crate) fn place(&self) -> (u64, u32, bool) {
        (self.place.at, self.place.left, self.place.more)
    }

    /// Walks up to `n` octets from `from`, handing each run to `each`;
    /// returns the place after them and how many there were (fewer than
    /// `n` only at the end of the body).
    fn walk(&self, from: Place, n: u64, each: &mut dyn FnMut(u64, usize) -> Result<()>) -> Result<(Place, u64)> {
        let mut p = from;
        let mut walked = 0;
        while walked < n {
            if p.left == 0 {
                if !p.more {
                    break;
                }
                p = self.next_piece(p.at)?;
                continue;
            }
            let k = u64::from(p.left).min(n - walked);
            self.check_within(p.at, k, "packet body")?;
            each(p.at, k as usize)?;
            // k <= p.left, a u32.
            (p.at, p.left, walked) = (p.at + k, p.left - k as u32, walked + k);
        }
        Ok((p, walked))
    }

    /// Reads the length header at `at`: the place of the piece after it.
    fn next_piece(&self, at: u64) -> Result<Place> {
        let mut h = [0u8; 5];
        self.check_within(at, 1, "packet length")?;
        self.read_header(&mut h[..1], at)?;
        let need = new_len_size(h[0]);
        self.check_within(at, need as u64, "packet length")?;
        self.read_header(&mut h[1..need], at + 1)?;
        let at = at + need as u64;
        Ok(match decode_new_len(&h) {
            BodyLen::Fixed(n) => Place { at, left: n, more: false },
            BodyLen::Partial(n) => Place { at, left: n, more: true },
            BodyLen::Indeterminate => return Err(Error::Malformed("indeterminate length inside a body")),
        })
    }

    fn read_header(&self, dst: &mut [u8], at: u64) -> Result<()> {
        Source::File(&self.file, at).read_exact(dst).map_err(|e| Error::from_io(e.into_io()))
    }

    /// `Ok` if the file holds `k` octets at `at`, else the body is
    /// truncated (`what` names the part that is missing).
    fn check_within(&self, at: u64, k: u64, what: &'static str) -> Result<()> {
        let end = at.checked_add(k).ok_or(Error::Truncated(what))?;
        if end <= self.file_len.get() {
            return Ok(());
        }
        let now = self.file.metadata().map_err(Error::from_io)?.len();
        self.file_len.set(now);
        if end <= now { Ok(()) } else { Err(Error::Truncated(what)) }
    }
}

// Positioned reads only exist on some platforms; the tests need a file.
#[cfg(all(test, any(unix, windows)))]
#[path = "pieces_tests.rs"]
pub(super) mod tests;
