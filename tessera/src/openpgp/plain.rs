//! The packet stream inside the encrypted data, as `Read` adapters: the
//! literal data packet (through at most one compressed data packet) and
//! the packets that may follow it, read to the end so that the end of the
//! encrypted data (its final tag or MDC) is always checked.

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;
use std::sync::Arc;

use flate2::read::{DeflateDecoder, ZlibDecoder};

use super::file_input::FileAt;
use super::packet::{BodyReader, read_exact, read_header, tag};
use super::poison::Poison;
use super::seipd::{ChunkSource, MIN_FIRST_PIECE, PieceMap};
use super::{Error, Result};

/// A boxed reader: the decrypted stream, or a layer above it.
pub(crate) type Src<'a> = Box<dyn Read + 'a>;

/// Compression algorithm ids (RFC 9580 §9.4).
mod compression {
    pub const UNCOMPRESSED: u8 = 0;
    pub const ZIP: u8 = 1;
    pub const ZLIB: u8 = 2;
    pub const BZIP2: u8 = 3;
}

/// Packets that may accompany the literal data and are skipped.
fn skippable(t: u8) -> bool {
    matches!(t, tag::MARKER | tag::PADDING | tag::SIGNATURE | tag::ONE_PASS_SIGNATURE)
}

/// Reads packets to the end of `r`, accepting only skippable ones. For an
/// encrypted stream, reaching the end is what verifies the final tag.
pub(crate) fn drain_packets(r: &mut dyn Read) -> Result<()> {
    while let Some(h) = read_header(r)? {
        if h.tag == tag::LITERAL {
            return Err(Error::Malformed("more than one literal data packet"));
        }
        if !skippable(h.tag) {
            return Err(Error::Malformed("unexpected packet after the literal data"));
        }
        BodyReader::new(&mut *r, h.len).skip_rest()?;
    }
    Ok(())
}

/// Whether an `io::Error` carries one of this module's typed errors.
pub(crate) fn is_typed(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|i| i.is::<Error>())
}

enum Decompress<'a> {
    Stored(BodyReader<Src<'a>>),
    Zip(DeflateDecoder<BodyReader<Src<'a>>>),
    Zlib(ZlibDecoder<BodyReader<Src<'a>>>),
}

impl<'a> Decompress<'a> {
    fn body(&mut self) -> &mut BodyReader<Src<'a>> {
        match self {
            Decompress::Stored(b) => b,
            Decompress::Zip(d) => d.get_mut(),
            Decompress::Zlib(d) => d.get_mut(),
        }
    }
}

/// A compressed data packet's contents, at most `max` octets when
/// decompressed; its end is reported only after the rest of the enclosing
/// stream has been read (and so verified).
struct Compressed<'a> {
    dec: Decompress<'a>,
    produced: u64,
    max: Option<u64>,
    ended: bool,
    poison: Poison,
}

impl Compressed<'_> {
    fn read_some(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let r = match &mut self.dec {
            Decompress::Stored(b) => return b.read(buf),
            Decompress::Zip(d) => d.read(buf),
            Decompress::Zlib(d) => d.read(buf),
        };
        // The decoder reports a corrupt stream as InvalidInput/InvalidData;
        // other I/O errors come from below and leave it intact.
        r.map_err(|e| match e.kind() {
            io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData if !is_typed(&e) => {
                Error::Malformed("compressed data").into_io()
            }
            _ => e,
        })
    }
}

impl Read for Compressed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        if self.ended {
            return Ok(0);
        }
        let n = match self.read_some(buf) {
            Err(e) if is_typed(&e) => return Err(self.poison.set(Error::from_io(e))),
            r => r?,
        };
        self.produced += n as u64;
        if let Some(max) = self.max.filter(|&m| self.produced > m && !matches!(self.dec, Decompress::Stored(_))) {
            let e =
                Error::LimitExceeded { limit: "max_decompressed_size (octets)", asked: self.produced, allowed: max };
            return Err(self.poison.set(e));
        }
        if n == 0 && !buf.is_empty() {
            let body = self.dec.body();
            let r = body.skip_rest().and_then(|()| drain_packets(body.get_mut()));
            r.map_err(|e| self.poison.set(e))?;
            self.ended = true;
        }
        Ok(n)
    }
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

/// Finds the literal data packet at the start of a plaintext packet stream,
/// through at most one compressed data packet whose output is limited to
/// `max_decompressed` octets.
pub(crate) fn open_literal(
    plain: Src<'_>,
    max_decompressed: Option<u64>,
) -> Result<(LiteralInfo, BodyReader<Src<'_>>)> {
    find_literal(plain, max_decompressed, true)
}

fn find_literal(
    mut plain: Src<'_>,
    max: Option<u64>,
    may_decompress: bool,
) -> Result<(LiteralInfo, BodyReader<Src<'_>>)> {
    loop {
        let h = read_header(&mut plain)?.ok_or(Error::Malformed("the encrypted data holds no literal data"))?;
        match h.tag {
            tag::LITERAL => {
                let mut body = BodyReader::new(plain, h.len);
                let mut head = [0u8; 2];
                read_exact(&mut body, &mut head, "literal data header")?;
                let mut filename = vec![0u8; head[1] as usize];
                read_exact(&mut body, &mut filename, "literal data header")?;
                let mut date = [0u8; 4];
                read_exact(&mut body, &mut date, "literal data header")?;
                let info = LiteralInfo { format: head[0], filename, date: u32::from_be_bytes(date) };
                return Ok((info, body));
            }
            tag::COMPRESSED if may_decompress => {
                let mut body = BodyReader::new(plain, h.len);
                let mut alg = [0u8; 1];
                read_exact(&mut body, &mut alg, "compressed data header")?;
                let dec = match alg[0] {
                    compression::UNCOMPRESSED => Decompress::Stored(body),
                    compression::ZIP => Decompress::Zip(DeflateDecoder::new(body)),
                    compression::ZLIB => Decompress::Zlib(ZlibDecoder::new(body)),
                    compression::BZIP2 => return Err(Error::Unsupported("BZip2 compressed data")),
                    _ => return Err(Error::Unsupported("compression algorithm")),
                };
                let inner = Compressed { dec, produced: 0, max, ended: false, poison: Poison::default() };
                return find_literal(Box::new(inner), max, false);
            }
            tag::COMPRESSED => return Err(Error::Unsupported("nested compressed data")),
            t if skippable(t) => BodyReader::new(&mut plain, h.len).skip_rest()?,
            _ => return Err(Error::Malformed("unexpected packet in the encrypted data")),
        }
    }
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
