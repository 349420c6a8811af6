//! The encrypted data packet's body as `Read` adapters, read to the end of
//! the input so that nothing after the encrypted data is ignored; the
//! packets inside it are read by [`super::message`].

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;
use std::sync::Arc;

use super::file_input::FileAt;
use super::packet::{BodyReader, read_header, tag};
use super::poison::Poison;
use super::seipd::{ChunkSource, MIN_FIRST_PIECE, PieceMap};
use super::{Error, Result};

/// A boxed reader: the decrypted stream, or a layer above it.
pub(crate) type Src<'a> = Box<dyn Read + 'a>;

/// Reads packets to the end of `r`, accepting only marker and padding
/// packets: what may follow the encrypted data packet. For an encrypted
/// stream, reaching the end is what verifies the final tag.
pub(crate) fn drain_packets(r: &mut dyn Read) -> Result<()> {
    while let Some(h) = read_header(r)? {
        if !matches!(h.tag, tag::MARKER | tag::PADDING) {
            return Err(Error::Malformed("unexpected packet after the encrypted data"));
        }
        BodyReader::new(&mut *r, h.len).skip_rest()?;
    }
    Ok(())
}

/// Whether an `io::Error` carries one of this module's typed errors.
pub(crate) fn is_typed(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|i| i.is::<Error>())
}

/// The SEIPD packet's body. Its end is reported only after the rest of the
/// input has been read and holds nothing but packets that may be skipped
/// (for armor, this also reads and checks the END line): no trailing data
/// after the encrypted data is ignored.
///
/// In a file read at offsets, the body may instead be handed out as runs
/// of the file ([`ChunkSource::pieces`]); reading goes on after the runs
/// taken once [`ChunkSource::stream_after_pieces`] is called.
pub(crate) struct SeipdBody<'a> {
    body: BodyReader<Src<'a>>,
    offsets: Offsets<'a>,
    /// The file, if the body is in one: where reading it stopped.
    file: Option<FileAt<'a>>,
    ended: bool,
    poison: Poison,
}

/// Whether a [`SeipdBody`] is read at offsets.
enum Offsets<'a> {
    /// The file below, until [`ChunkSource::pieces`] is first asked.
    Undecided(FileAt<'a>),
    /// Handed out as runs; `pos` is the file's stream offset, moved past
    /// the runs taken when the stream goes on.
    Pieces { map: PieceMap, pos: Rc<Cell<u64>> },
    /// Read as a stream.
    No,
}

impl<'a> SeipdBody<'a> {
    /// The body `body`; with `at`, the file it reads at offsets.
    pub(crate) fn new(body: BodyReader<Src<'a>>, at: Option<FileAt<'a>>) -> Self {
        let file = at.clone();
        let offsets = at.map_or(Offsets::No, Offsets::Undecided);
        SeipdBody { body, offsets, file, ended: false, poison: Poison::default() }
    }
}

impl ChunkSource for SeipdBody<'_> {
    fn pieces(&mut self) -> Option<&mut PieceMap> {
        // Decided on the first call: the current piece must be the last or
        // large enough that reading each length header alone pays.
        if matches!(self.offsets, Offsets::Undecided(_))
            && let Offsets::Undecided(at) = std::mem::replace(&mut self.offsets, Offsets::No)
        {
            let framing = self.body.framing().filter(|&(left, more)| !more || left >= MIN_FIRST_PIECE);
            if let (Some((left, more)), Ok(file)) = (framing, at.file.try_clone())
                && let Ok(map) = PieceMap::new(Arc::new(file), at.pos.get(), left, more)
            {
                self.offsets = Offsets::Pieces { map, pos: at.pos };
            }
        }
        match &mut self.offsets {
            Offsets::Pieces { map, .. } => Some(map),
            _ => None,
        }
    }

    fn stream_after_pieces(&mut self) {
        if let Offsets::Pieces { map, pos } = std::mem::replace(&mut self.offsets, Offsets::No) {
            let (at, left, more) = map.place();
            pos.set(at);
            self.body.resume_at(left, more);
        }
    }

    fn offset(&self) -> Option<u64> {
        self.file.as_ref().map(|f| f.pos.get())
    }

    fn fail_at(&mut self, at: u64) {
        // Without the file's length (metadata failed) the position stays.
        if let Some(f) = &self.file
            && let Ok(m) = f.file.metadata()
        {
            f.pos.set(at.min(m.len()));
        }
    }
}

impl Read for SeipdBody<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        if matches!(self.offsets, Offsets::Pieces { .. }) {
            return Err(self.poison.set(Error::InvalidOption("the SEIPD body is being read at offsets")));
        }
        let n = self.body.read(buf)?;
        if n == 0 && !buf.is_empty() && !self.ended {
            drain_packets(self.body.get_mut()).map_err(|e| self.poison.set(e))?;
            self.ended = true;
        }
        Ok(n)
    }
}

/// A SEIPD body whose first octets were read ahead (to pick a session key
/// by its first chunk): those octets, then the rest of the body. The
/// octets read ahead are freed once read (into the opener's buffer), so
/// that opening holds one chunk's worth of them at most for that long.
pub(crate) struct ReadAhead<'a> {
    first: Vec<u8>,
    at: usize,
    body: SeipdBody<'a>,
}

impl<'a> ReadAhead<'a> {
    /// `first`, read from `body`, then the rest of `body`.
    pub(crate) fn new(first: Vec<u8>, body: SeipdBody<'a>) -> Self {
        ReadAhead { first, at: 0, body }
    }
}

impl Read for ReadAhead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.first.len() {
            return self.body.read(buf);
        }
        let n = (self.first.len() - self.at).min(buf.len());
        buf[..n].copy_from_slice(&self.first[self.at..self.at + n]);
        self.at += n;
        if self.at == self.first.len() {
            (self.first, self.at) = (Vec::new(), 0);
        }
        Ok(n)
    }
}

impl ChunkSource for ReadAhead<'_> {
    fn offset(&self) -> Option<u64> {
        // Known once the octets read ahead are (they came before it).
        self.first.is_empty().then(|| self.body.offset()).flatten()
    }

    fn fail_at(&mut self, at: u64) {
        self.body.fail_at(at);
    }
}

/// The literal data packet's metadata.
///
/// ```
/// use tessera::openpgp::{Decryptor, LiteralInfo};
/// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
/// let dec = Decryptor::new(message.as_bytes(), &[b"password".as_slice()])?;
/// assert_eq!(dec.literal(), &LiteralInfo { format: b'b', filename: Vec::new(), date: 0 });
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiteralInfo {
    /// Format octet: `b` binary, `t` text, `u` UTF-8.
    pub format: u8,
    /// Stored file name (may be empty).
    pub filename: Vec<u8>,
    /// Stored date (seconds since 1970; 0 = none).
    pub date: u32,
}

#[cfg(test)]
#[test]
fn read_ahead_frees_its_octets_once_read() {
    use super::packet::BodyLen;
    let rest: Src<'_> = Box::new(&b"rest"[..]);
    let mut r = ReadAhead::new(b"first".to_vec(), SeipdBody::new(BodyReader::new(rest, BodyLen::Fixed(4)), None));
    let mut out = [0u8; 16];
    assert_eq!(r.read(&mut out[..3]).unwrap(), 3);
    assert_eq!(r.first.capacity(), 5, "held while some is unread");
    assert_eq!(r.read(&mut out[3..]).unwrap(), 2);
    assert_eq!(r.first.capacity(), 0, "freed once read");
    assert_eq!(r.read(&mut out[5..]).unwrap(), 4);
    assert_eq!(r.read(&mut out[9..]).unwrap(), 0);
    assert_eq!(&out[..9], b"firstrest");
}
