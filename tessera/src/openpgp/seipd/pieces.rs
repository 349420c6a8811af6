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

/// Most runs of a file one job names; a chunk spread over more pieces
/// than this is read by the caller's thread.
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

/// A place in the body: the file offset of the next body octet (or, with
/// none left in this piece, of the next length header), the octets left
/// in this piece, and whether pieces follow it.
#[derive(Clone, Copy, Debug)]
struct Place {
    at: u64,
    left: u64,
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
    pub(crate) fn new(file: Arc<File>, at: u64, left: u64, more: bool) -> std::io::Result<Self> {
        let file_len = Cell::new(file.metadata()?.len());
        Ok(PieceMap { file, file_len, place: Place { at, left, more } })
    }

    /// The file.
    pub(crate) fn file(&self) -> &Arc<File> {
        &self.file
    }

    /// Whether every octet of the body has been taken.
    pub(crate) fn ended(&self) -> bool {
        self.place.left == 0 && !self.place.more
    }

    /// The file offset just past the body, once [`PieceMap::ended`].
    pub(crate) fn end(&self) -> u64 {
        self.place.at
    }

    /// Whether at least `n` octets of the body are left.
    pub(crate) fn has(&self, n: u64) -> Result<bool> {
        let (_, walked) = self.walk(self.place, n, &mut |_, _| Ok(()))?;
        Ok(walked == n)
    }

    /// Takes the next `n` octets (fewer at the end of the body): their runs
    /// if at most [`MAX_SEGMENTS`], else `None` after reading them into
    /// `buf` here. Returns the runs and how many octets were taken.
    pub(crate) fn take(&mut self, n: usize, buf: &mut [u8]) -> Result<(Option<Segments>, usize)> {
        let mut segs = Segments::default();
        let mut spilled = 0;
        let file = Arc::clone(&self.file);
        let mut each = |at: u64, len: usize| -> Result<()> {
            if spilled == 0 && segs.push(at, len) {
                return Ok(());
            }
            if spilled == 0 {
                segs.read_into(&file, buf).map_err(|e| Error::from_io(e.into_io()))?;
                spilled = segs.parts.iter().map(|p| p.1).sum();
            }
            let dst = buf.get_mut(spilled..spilled + len).ok_or_else(|| Error::from_io(overflow()))?;
            Source::File(&file, at).read_exact(dst).map_err(|e| Error::from_io(e.into_io()))?;
            spilled += len;
            Ok(())
        };
        let (place, walked) = self.walk(self.place, n as u64, &mut each)?;
        let spilled_any = spilled > 0;
        self.place = place;
        Ok(((!spilled_any).then_some(segs), walked as usize))
    }

    /// Takes the next `n` octets (fewer at the end of the body) and reads
    /// them into the start of `buf` here; returns how many.
    pub(crate) fn read_into(&mut self, n: usize, buf: &mut [u8]) -> Result<usize> {
        let (runs, k) = self.take(n, buf)?;
        if let Some(r) = runs {
            r.read_into(&self.file, buf).map_err(|e| Error::from_io(e.into_io()))?;
        }
        Ok(k)
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
            let k = p.left.min(n - walked);
            self.check_within(p.at, k, "packet body")?;
            each(p.at, k as usize)?;
            (p.at, p.left, walked) = (p.at + k, p.left - k, walked + k);
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
            BodyLen::Fixed(n) => Place { at, left: n.into(), more: false },
            BodyLen::Partial(n) => Place { at, left: n.into(), more: true },
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
