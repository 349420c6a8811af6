//! The packet grammar of a message's contents (RFC 9580 §10.3), read as a
//! stream: signatures and one-pass signatures, then the literal data
//! (through compressed data packets nested at most
//! [`MAX_COMPRESSION_DEPTH`] deep), then one signature per one-pass
//! signature of the same layer. Every decrypting and verifying
//! reader goes through [`Message`], which reports the end of the literal
//! data only after it has read everything that follows it: the signatures,
//! the rest of the compressed data packet, and the rest of the stream
//! below, whose end, for encrypted data, is what verifies the final tag or
//! the MDC.
//!
//! Marker and padding packets may appear between any two packets of a
//! layer and are skipped. Signatures and one-pass signatures of a version
//! this implementation does not read are counted for the grammar and
//! otherwise skipped (RFC 9580 §5.2, §5.4), so the others still count.

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};
use std::rc::Rc;

use flate2::bufread::{DeflateDecoder, ZlibDecoder};

use super::packet::{BodyLen, BodyReader, read_exact, read_header, read_small_body, tag};
use super::plain::{LiteralInfo, Src, is_typed};
use super::poison::Poison;
use super::sig::{MAX_SIGNATURES, OnePassSig, SigPacket, Signature, read_sig_body, too_many_signatures};
use super::{Error, Result};

/// Compression algorithm ids (RFC 9580 §9.4).
pub(crate) mod compression {
    pub const UNCOMPRESSED: u8 = 0;
    pub const ZIP: u8 = 1;
    pub const ZLIB: u8 = 2;
    pub const BZIP2: u8 = 3;

    /// Whether compressed data of algorithm `alg` can be read.
    pub fn check(alg: u8) -> super::Result<()> {
        match alg {
            UNCOMPRESSED | ZIP | ZLIB => Ok(()),
            BZIP2 => Err(super::Error::Unsupported("BZip2 compressed data")),
            _ => Err(super::Error::Unsupported("compression algorithm (uncompressed, ZIP and ZLIB are read)")),
        }
    }
}

/// Most compressed data packets nested in one another (Sequoia reads
/// nested containers up to 16 deep too); deeper is [`Error::Limit`].
pub(crate) const MAX_COMPRESSION_DEPTH: usize = 16;

/// A signature packet met before the literal data, in message order.
#[derive(Debug)]
pub(crate) enum Leading {
    /// A one-pass signature: its signature follows the data.
    OnePass(OnePassSig),
    /// A signature over the data that follows it (RFC 9580 §10.3 "Signature
    /// Packet, OpenPGP Message").
    Signature(Signature),
}

/// Whether signature packets are parsed and kept ([`Message::open`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signatures {
    /// Parsed and kept, at most [`MAX_SIGNATURES`] of them.
    Keep,
    /// Skipped (their count is still checked).
    Skip,
}

/// The layer the packets are read from: the stream given, or the contents
/// of a compressed data packet read from the layer around it.
pub(crate) enum Layer<'a> {
    Outer(Src<'a>),
    Compressed(Box<Compressed<'a>>),
}

impl Read for Layer<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Layer::Outer(r) => r.read(buf),
            Layer::Compressed(c) => c.read(buf),
        }
    }
}

/// The compressed data packet's body, buffered so that what follows the
/// end of the compressed stream inside the packet can be checked.
type Packed<'a> = BufReader<BodyReader<Layer<'a>>>;

enum Decoder<'a> {
    Stored(BodyReader<Layer<'a>>),
    Zip(DeflateDecoder<Packed<'a>>),
    Zlib(ZlibDecoder<Packed<'a>>),
}

/// A compressed data packet's contents. `produced` counts the octets
/// decompressed by every layer of the message together, at most `max`
/// (what a nested zip bomb makes at each layer counts).
pub(crate) struct Compressed<'a> {
    dec: Decoder<'a>,
    produced: Rc<Cell<u64>>,
    max: Option<u64>,
}

impl<'a> Compressed<'a> {
    /// Opens the packet `body`; `produced` is shared by every layer.
    fn open(mut body: BodyReader<Layer<'a>>, produced: Rc<Cell<u64>>, max: Option<u64>) -> Result<Self> {
        let mut alg = [0u8; 1];
        read_exact(&mut body, &mut alg, "compressed data header")?;
        compression::check(alg[0])?;
        Ok(Self::with_alg(body, alg[0], produced, max))
    }

    /// The contents of a compressed data packet whose algorithm octet,
    /// `alg`, was read from `body` and passed [`compression::check`].
    pub(crate) fn with_alg(body: BodyReader<Layer<'a>>, alg: u8, produced: Rc<Cell<u64>>, max: Option<u64>) -> Self {
        let dec = match alg {
            compression::ZIP => Decoder::Zip(DeflateDecoder::new(BufReader::new(body))),
            compression::ZLIB => Decoder::Zlib(ZlibDecoder::new(BufReader::new(body))),
            _ => Decoder::Stored(body),
        };
        Compressed { dec, produced, max }
    }

    /// After the compressed stream's end: checks that nothing follows it
    /// in the packet, and returns the layer the packet was read from,
    /// positioned after it.
    pub(crate) fn close(self) -> Result<Layer<'a>> {
        let mut packed = match self.dec {
            Decoder::Stored(body) => return Ok(body.into_inner()),
            Decoder::Zip(d) => d.into_inner(),
            Decoder::Zlib(d) => d.into_inner(),
        };
        if !packed.fill_buf().map_err(Error::from_io)?.is_empty() {
            return Err(Error::Malformed("data after the end of the compressed stream"));
        }
        Ok(packed.into_inner().into_inner())
    }
}

impl Read for Compressed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let r = match &mut self.dec {
            Decoder::Stored(b) => return b.read(buf),
            Decoder::Zip(d) => d.read(buf),
            Decoder::Zlib(d) => d.read(buf),
        };
        // The decoder reports a corrupt stream as InvalidInput/InvalidData
        // and one cut short as UnexpectedEof (the packet body below reports
        // its own end as a typed error); other I/O errors come from below
        // and leave it intact.
        let n = r.map_err(|e| match e.kind() {
            _ if is_typed(&e) => e,
            io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData => Error::Malformed("compressed data").into_io(),
            io::ErrorKind::UnexpectedEof => Error::Truncated("compressed data").into_io(),
            _ => e,
        })?;
        let produced = self.produced.get() + n as u64;
        self.produced.set(produced);
        if let Some(max) = self.max.filter(|&m| produced > m) {
            let limit = "max_decompressed_size (octets)";
            return Err(Error::LimitExceeded { limit, asked: produced, allowed: max }.into_io());
        }
        Ok(n)
    }
}

/// A message's literal data, read through the grammar around it: `read`
/// yields the literal data and returns `Ok(0)` only once everything after
/// it has been read and found well formed (see the module documentation).
pub(crate) struct Message<'a> {
    literal: LiteralInfo,
    leading: Vec<Leading>,
    /// The literal data packet's body; `None` once read to the end.
    body: Option<BodyReader<Layer<'a>>>,
    /// One-pass signatures per layer, outermost first.
    one_pass: Vec<usize>,
    trailing: Vec<Signature>,
    sigs: Signatures,
    poison: Poison,
}

impl std::fmt::Debug for Message<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Message").field("literal", &self.literal).finish_non_exhaustive()
    }
}

impl<'a> Message<'a> {
    /// Reads `src` up to the start of the literal data; a compressed data
    /// packet decompresses to at most `max` octets.
    pub(crate) fn open(src: Src<'a>, max: Option<u64>, sigs: Signatures) -> Result<Self> {
        let mut layer = Layer::Outer(src);
        let (mut leading, mut one_pass, mut seen) = (Vec::new(), vec![0usize], 0usize);
        let produced = Rc::new(Cell::new(0u64));
        loop {
            let h = read_header(&mut layer)?.ok_or(Error::Malformed("the message holds no literal data"))?;
            match h.tag {
                tag::ONE_PASS_SIGNATURE | tag::SIGNATURE if sigs == Signatures::Keep && seen == MAX_SIGNATURES => {
                    return Err(too_many_signatures());
                }
                tag::ONE_PASS_SIGNATURE => {
                    seen += 1;
                    *one_pass.last_mut().expect("a layer") += 1;
                    let mut buf = [0u8; 128];
                    let n = read_small_body(&mut layer, h.len, &mut buf, "one-pass signature packet too long")?;
                    // One of a version other than 3 and 6 still asks for
                    // its signature after the data, which is skipped too.
                    if sigs == Signatures::Keep && matches!(buf[..n].first(), Some(3 | 6)) {
                        leading.push(Leading::OnePass(OnePassSig::parse(&buf[..n])?));
                    }
                }
                tag::SIGNATURE => {
                    seen += 1;
                    match sigs {
                        Signatures::Keep => {
                            if let SigPacket::Read(sig) = read_sig_body(&mut layer, h.len)? {
                                leading.push(Leading::Signature(sig));
                            }
                        }
                        Signatures::Skip => skip(&mut layer, h.len)?,
                    }
                }
                tag::COMPRESSED => {
                    if one_pass.len() > MAX_COMPRESSION_DEPTH {
                        return Err(Error::Limit("compressed data packets nested more than 16 deep"));
                    }
                    let body = BodyReader::new(layer, h.len);
                    layer = Layer::Compressed(Box::new(Compressed::open(body, produced.clone(), max)?));
                    one_pass.push(0);
                }
                tag::MARKER | tag::PADDING => skip(&mut layer, h.len)?,
                tag::LITERAL => {
                    let mut body = BodyReader::new(layer, h.len);
                    let literal = read_literal_header(&mut body)?;
                    let (body, trailing, poison) = (Some(body), Vec::new(), Poison::default());
                    return Ok(Message { literal, leading, body, one_pass, trailing, sigs, poison });
                }
                _ => return Err(Error::Malformed("unexpected packet before the literal data")),
            }
        }
    }

    /// The literal data packet's metadata.
    pub(crate) fn literal(&self) -> &LiteralInfo {
        &self.literal
    }

    /// The signatures and one-pass signatures before the literal data
    /// (none when skipped).
    pub(crate) fn take_leading(&mut self) -> Vec<Leading> {
        std::mem::take(&mut self.leading)
    }

    /// The signatures after the literal data, in message order, once it has
    /// been read to the end (none when skipped).
    pub(crate) fn take_trailing(&mut self) -> Vec<Signature> {
        std::mem::take(&mut self.trailing)
    }

    /// Reads what follows the literal data in each layer, innermost first:
    /// exactly one signature per one-pass signature of that layer.
    fn read_trailer(&mut self, mut layer: Layer<'a>) -> Result<()> {
        loop {
            let expected = self.one_pass.pop().expect("a layer per compressed data packet, and the outer one");
            let mut found = 0usize;
            while let Some(h) = read_header(&mut layer)? {
                match h.tag {
                    tag::SIGNATURE if found == expected => {
                        return Err(Error::Malformed("more signatures than one-pass signatures in a layer"));
                    }
                    tag::SIGNATURE => {
                        found += 1;
                        match self.sigs {
                            Signatures::Keep => {
                                if let SigPacket::Read(sig) = read_sig_body(&mut layer, h.len)? {
                                    self.trailing.push(sig);
                                }
                            }
                            Signatures::Skip => skip(&mut layer, h.len)?,
                        }
                    }
                    tag::MARKER | tag::PADDING => skip(&mut layer, h.len)?,
                    tag::LITERAL => return Err(Error::Malformed("more than one literal data packet")),
                    _ => return Err(Error::Malformed("unexpected packet after the literal data")),
                }
            }
            if found != expected {
                return Err(Error::Malformed("fewer signatures than one-pass signatures in a layer"));
            }
            layer = match layer {
                Layer::Outer(_) => return Ok(()),
                Layer::Compressed(c) => c.close()?,
            };
        }
    }
}

impl Read for Message<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        let Some(body) = self.body.as_mut() else { return Ok(0) };
        if buf.is_empty() {
            return Ok(0);
        }
        let n = match body.read(buf) {
            // An I/O error of the input below leaves every layer intact.
            Err(e) if !is_typed(&e) => return Err(e),
            r => self.poison.record(r)?,
        };
        if n == 0 {
            let layer = self.body.take().expect("checked above").into_inner();
            self.read_trailer(layer).map_err(|e| self.poison.set(e))?;
        }
        Ok(n)
    }
}

fn skip(r: &mut Layer<'_>, len: BodyLen) -> Result<()> {
    BodyReader::new(r, len).skip_rest()
}

/// Reads the literal data packet's metadata at the start of its body.
pub(crate) fn read_literal_header<R: Read>(body: &mut BodyReader<R>) -> Result<LiteralInfo> {
    let mut head = [0u8; 2];
    read_exact(body, &mut head, "literal data header")?;
    let mut filename = vec![0u8; head[1] as usize];
    read_exact(body, &mut filename, "literal data header")?;
    let mut date = [0u8; 4];
    read_exact(body, &mut date, "literal data header")?;
    Ok(LiteralInfo { format: head[0], filename, date: u32::from_be_bytes(date) })
}
