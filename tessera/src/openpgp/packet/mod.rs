//! Packet framing (RFC 9580 §4.2): old and new headers, one-, two- and
//! five-octet lengths and partial body lengths, reading and writing.
//!
//! Nothing here allocates in proportion to a length field: bodies are read
//! through [`BodyReader`], which only ever asks the underlying reader for the
//! bytes the caller's buffer can hold.

use std::io::{self, Read, Write};

use super::poison::{Poison, read_checked};
use super::{Error, Result};

mod partial;
pub use partial::PartialWriter;

/// Packet type ids (RFC 9580 §5).
pub mod tag {
    /// Symmetric-Key Encrypted Session Key.
    pub const SKESK: u8 = 3;
    /// Signature (skipped when found inside a message).
    pub const SIGNATURE: u8 = 2;
    /// One-Pass Signature (skipped).
    pub const ONE_PASS_SIGNATURE: u8 = 4;
    /// Compressed Data.
    pub const COMPRESSED: u8 = 8;
    /// Symmetrically Encrypted Data (no integrity protection: refused).
    pub const SED: u8 = 9;
    /// Marker (ignored).
    pub const MARKER: u8 = 10;
    /// Literal Data.
    pub const LITERAL: u8 = 11;
    /// Symmetrically Encrypted and Integrity Protected Data.
    pub const SEIPD: u8 = 18;
    /// Modification Detection Code (inside SEIPD v1).
    pub const MDC: u8 = 19;
    /// Padding (ignored).
    pub const PADDING: u8 = 21;
    /// Public-Key Encrypted Session Key (skipped: no keys here).
    pub const PKESK: u8 = 1;
}

/// How the body of a packet is delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyLen {
    /// A body of exactly this many octets.
    Fixed(u32),
    /// A partial body: this many octets, then another length follows (new format only).
    Partial(u32),
    /// Old-format indeterminate length: the body runs to the end of the input.
    Indeterminate,
}

/// A parsed packet header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The packet type id.
    pub tag: u8,
    /// How its body is delimited.
    pub len: BodyLen,
    /// Whether the header was in the new (RFC 4880+) format.
    pub new_format: bool,
}

fn read_u8<R: Read + ?Sized>(r: &mut R) -> io::Result<Option<u8>> {
    let mut b = [0u8; 1];
    loop {
        match read_checked(r, &mut b) {
            Ok(0) => return Ok(None),
            Ok(_) => return Ok(Some(b[0])),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

fn need_u8<R: Read + ?Sized>(r: &mut R, what: &'static str) -> Result<u8> {
    read_u8(r).map_err(Error::from_io)?.ok_or(Error::Truncated(what))
}

/// Reads exactly `buf.len()` bytes, mapping a short read to [`Error::Truncated`].
pub(crate) fn read_exact<R: Read + ?Sized>(r: &mut R, buf: &mut [u8], what: &'static str) -> Result<()> {
    let n = read_full(r, buf)?;
    if n < buf.len() { Err(Error::Truncated(what)) } else { Ok(()) }
}

/// Reads until `buf` is full or the input ends; returns the count read.
pub(crate) fn read_full<R: Read + ?Sized>(r: &mut R, buf: &mut [u8]) -> Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match read_checked(r, &mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::from_io(e)),
        }
    }
    Ok(n)
}

/// Appends `data` to a buffer of secret octets without leaving a copy
/// behind: growth goes through [`reserve_wiped`](crate::wipe::reserve_wiped).
pub(crate) fn push_zeroizing(buf: &mut zeroize::Zeroizing<Vec<u8>>, data: &[u8]) {
    crate::wipe::reserve_wiped(buf, data.len());
    buf.extend_from_slice(data);
}

/// Octets of a new-format body length whose first octet is `o1`.
pub(crate) fn new_len_size(o1: u8) -> usize {
    match o1 {
        192..=223 => 2,
        255 => 5,
        _ => 1,
    }
}

/// The header octet of a new-format packet with this tag (RFC 9580 §4.2:
/// bits 7 and 6 set, then the tag); SEIPD v2's chunk associated data
/// starts with it too (§5.13.2).
pub const fn new_header(tag: u8) -> u8 {
    0xc0 | tag
}

/// The first length octet of a partial body piece of 2^n octets (§4.2.1.4).
const PARTIAL_LEN: u8 = 0xe0;

/// The shortest partial body piece the writer uses: 512 octets, the least
/// the RFC allows for the first piece (§4.2.1.4).
const MIN_PARTIAL: usize = 512;

/// Scratch of [`BodyReader::skip_rest`], on the stack.
const SKIP_SCRATCH: usize = 512;

/// Decodes a whole new-format body length (RFC 9580 §4.2.1).
pub(crate) fn decode_new_len(b: &[u8]) -> BodyLen {
    match b[0] {
        o1 @ 0..=191 => BodyLen::Fixed(o1 as u32),
        o1 @ 192..=223 => BodyLen::Fixed(((o1 as u32 - 192) << 8) + b[1] as u32 + 192),
        o1 @ 224..=254 => BodyLen::Partial(1 << (o1 & 0x1f)),
        255 => BodyLen::Fixed(u32::from_be_bytes(b[1..5].try_into().expect("4"))),
    }
}

/// Reads a new-format body length (RFC 9580 §4.2.1).
fn read_new_len<R: Read + ?Sized>(r: &mut R) -> Result<BodyLen> {
    let mut b = [0u8; 5];
    b[0] = need_u8(r, "packet length")?;
    let size = new_len_size(b[0]);
    read_exact(r, &mut b[1..size], "packet length")?;
    Ok(decode_new_len(&b))
}

/// Reads a packet header; `Ok(None)` at a clean end of input.
pub fn read_header<R: Read + ?Sized>(r: &mut R) -> Result<Option<Header>> {
    let Some(ctb) = read_u8(r).map_err(Error::from_io)? else { return Ok(None) };
    if ctb & 0x80 == 0 {
        return Err(Error::Malformed("not an OpenPGP packet (bit 7 of the header is clear)"));
    }
    if ctb & 0x40 != 0 {
        let tag = ctb & 0x3f;
        Ok(Some(Header { tag, len: read_new_len(r)?, new_format: true }))
    } else {
        let tag = (ctb >> 2) & 0x0f;
        let len = match ctb & 3 {
            0 => BodyLen::Fixed(need_u8(r, "packet length")? as u32),
            1 => {
                let mut b = [0u8; 2];
                read_exact(r, &mut b, "packet length")?;
                BodyLen::Fixed(u16::from_be_bytes(b) as u32)
            }
            2 => {
                let mut b = [0u8; 4];
                read_exact(r, &mut b, "packet length")?;
                BodyLen::Fixed(u32::from_be_bytes(b))
            }
            _ => BodyLen::Indeterminate,
        };
        Ok(Some(Header { tag, len, new_format: false }))
    }
}

/// Reads one packet body, following partial body lengths, and reports a
/// short input as [`Error::Truncated`].
///
/// An I/O error of the inner reader may be retried (a partial body length
/// read in part is kept); a truncated body is final: later reads fail with
/// the same error.
#[derive(Debug)]
pub struct BodyReader<R> {
    inner: R,
    remaining: u32,
    more: bool,
    to_eof: bool,
    /// The next partial body length, as far as it has been read.
    len: [u8; 5],
    len_have: usize,
    poison: Poison,
}

impl<R: Read> BodyReader<R> {
    /// Reads the body that `len` announces from `inner`.
    pub fn new(inner: R, len: BodyLen) -> Self {
        match len {
            BodyLen::Fixed(n) => Self::with_state(inner, n, false, false),
            BodyLen::Partial(n) => Self::with_state(inner, n, true, false),
            BodyLen::Indeterminate => Self::with_state(inner, 0, false, true),
        }
    }

    fn with_state(inner: R, remaining: u32, more: bool, to_eof: bool) -> Self {
        BodyReader { inner, remaining, more, to_eof, len: [0; 5], len_have: 0, poison: Poison::default() }
    }

    /// Reads the next partial body length, resuming one read in part.
    fn next_len(&mut self) -> Result<BodyLen> {
        loop {
            let need = if self.len_have == 0 { 1 } else { new_len_size(self.len[0]) };
            if self.len_have == need {
                self.len_have = 0;
                return Ok(decode_new_len(&self.len));
            }
            match read_checked(&mut self.inner, &mut self.len[self.len_have..need]) {
                Ok(0) => return Err(Error::from_io(self.poison.set(Error::Truncated("packet length")))),
                Ok(n) => self.len_have += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::from_io(e)),
            }
        }
    }

    /// Reads and discards the rest of the body.
    pub fn skip_rest(&mut self) -> Result<()> {
        let mut scratch = [0u8; SKIP_SCRATCH];
        while read_full(self, &mut scratch)? > 0 {}
        Ok(())
    }

    /// The underlying reader.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The underlying reader (positioned after the body if it was read to the end).
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The octets left in the current piece and whether pieces follow it,
    /// when the body has a length (not read to the end of the input) and
    /// no length header is half read: what a reader of the body at file
    /// offsets starts from.
    pub(crate) fn framing(&self) -> Option<(u32, bool)> {
        (!self.to_eof && self.len_have == 0).then_some((self.remaining, self.more))
    }

    /// Goes on with `remaining` octets left in the current piece and, if
    /// `more`, pieces after it: after part of the body was read by other
    /// means (see [`BodyReader::framing`]) and the input moved past it.
    pub(crate) fn resume_at(&mut self, remaining: u32, more: bool) {
        (self.remaining, self.more, self.to_eof, self.len_have) = (remaining, more, false, 0);
    }

    /// Whether the whole body has been read.
    pub fn is_done(&self) -> bool {
        !self.to_eof && self.remaining == 0 && !self.more
    }

    fn read_body(&mut self, buf: &mut [u8]) -> Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.to_eof {
            return read_checked(&mut self.inner, buf).map_err(Error::from_io);
        }
        while self.remaining == 0 {
            if !self.more {
                return Ok(0);
            }
            match self.next_len()? {
                BodyLen::Fixed(n) => {
                    self.remaining = n;
                    self.more = false;
                }
                BodyLen::Partial(n) => self.remaining = n,
                BodyLen::Indeterminate => unreachable!("new-format lengths are never indeterminate"),
            }
        }
        let want = buf.len().min(self.remaining as usize);
        let n = loop {
            match read_checked(&mut self.inner, &mut buf[..want]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::from_io(e)),
            }
        };
        if n == 0 {
            return Err(Error::from_io(self.poison.set(Error::Truncated("packet body"))));
        }
        self.remaining -= n as u32;
        Ok(n)
    }
}

impl<R: Read> Read for BodyReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        self.read_body(buf).map_err(Error::into_io)
    }
}

/// Reads a whole small packet body into `buf` (at most `buf.len()` bytes);
/// a longer body is a [`Error::Limit`] error. Returns the body length.
pub(crate) fn read_small_body<R: Read>(r: R, len: BodyLen, buf: &mut [u8], what: &'static str) -> Result<usize> {
    let mut body = BodyReader::new(r, len);
    let n = read_full(&mut body, buf)?;
    let mut probe = [0u8; 1];
    if read_full(&mut body, &mut probe)? != 0 {
        return Err(Error::Limit(what));
    }
    Ok(n)
}

/// Encodes a new-format definite body length into `out`; returns its size.
pub fn encode_len(len: u32, out: &mut [u8; 5]) -> usize {
    if len < 192 {
        out[0] = len as u8;
        1
    } else if len < 8384 {
        let v = len - 192;
        out[0] = (v >> 8) as u8 + 192;
        out[1] = v as u8;
        2
    } else {
        out[0] = 255;
        out[1..5].copy_from_slice(&len.to_be_bytes());
        5
    }
}

/// Writes a whole packet with a new-format header and a definite length.
pub fn write_packet<W: Write + ?Sized>(w: &mut W, tag: u8, body: &[u8]) -> io::Result<()> {
    let mut len = [0u8; 5];
    let n = encode_len(u32::try_from(body.len()).map_err(|_| io::Error::other("packet too large"))?, &mut len);
    w.write_all(&[new_header(tag)])?;
    w.write_all(&len[..n])?;
    w.write_all(body)
}

/// Splits a packet sequence into (tag, body) pairs, a partial-length body
/// joined into one: for tools and tests that take messages apart.
///
/// ```
/// use tessera::openpgp::packet::{join_packets, split_packets};
/// let packets = vec![(11, b"literal".to_vec()), (2, vec![4; 300])];
/// let bytes = join_packets(&packets);
/// assert_eq!(split_packets(&bytes)?, packets);
/// assert!(split_packets(&bytes[..bytes.len() - 1]).is_err());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[cfg(feature = "internals")]
pub fn split_packets(mut data: &[u8]) -> Result<Vec<(u8, Vec<u8>)>> {
    let mut out = Vec::new();
    while let Some(h) = read_header(&mut data)? {
        let mut body = Vec::new();
        BodyReader::new(&mut data, h.len).read_to_end(&mut body).map_err(Error::from_io)?;
        out.push((h.tag, body));
    }
    Ok(out)
}

/// The packet sequence of (tag, body) pairs, each with a new-format header
/// and a definite length (see [`split_packets`]). Panics on a body of
/// 4 GiB or more.
#[cfg(feature = "internals")]
pub fn join_packets(packets: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (tag, body) in packets {
        debug_assert!(*tag < 64, "a packet tag has six bits");
        write_packet(&mut out, *tag, body).expect("a Vec takes every write");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(n: usize) {
        let data: Vec<u8> = (0..n).map(|i| (i * 7 + 3) as u8).collect();
        let mut w = PartialWriter::new(Vec::new(), tag::LITERAL);
        for piece in data.chunks(333) {
            w.write_all(piece).unwrap();
        }
        let out = w.finish().unwrap();
        let mut r = out.as_slice();
        let h = read_header(&mut r).unwrap().unwrap();
        assert_eq!(h.tag, tag::LITERAL);
        if n < 512 {
            assert_eq!(h.len, BodyLen::Fixed(n as u32));
        } else {
            assert!(matches!(h.len, BodyLen::Partial(p) if p >= 512));
        }
        let mut body = BodyReader::new(&mut r, h.len);
        let mut back = Vec::new();
        body.read_to_end(&mut back).unwrap();
        assert_eq!(back, data);
        assert!(r.is_empty());
    }

    #[test]
    fn partial_lengths_round_trip() {
        for n in [0, 1, 191, 192, 511, 512, 513, 1023, 1024, 8383, 8384, 100_000, 262_160, 1 << 20] {
            roundtrip(n);
        }
    }

    #[test]
    fn lengths_encode_and_decode() {
        for n in [0u32, 1, 191, 192, 193, 8383, 8384, 100_000, u32::MAX] {
            let mut b = [0u8; 5];
            let k = encode_len(n, &mut b);
            let mut v = vec![0xc0 | 11];
            v.extend_from_slice(&b[..k]);
            let h = read_header(&mut v.as_slice()).unwrap().unwrap();
            assert_eq!(h.len, BodyLen::Fixed(n));
        }
        // Old format: tag 11, 1, 2 and 4 octet lengths and indeterminate.
        assert_eq!(read_header(&mut [0xac, 5].as_slice()).unwrap().unwrap().len, BodyLen::Fixed(5));
        assert_eq!(read_header(&mut [0xad, 1, 2].as_slice()).unwrap().unwrap().len, BodyLen::Fixed(258));
        assert_eq!(read_header(&mut [0xae, 0, 1, 0, 0].as_slice()).unwrap().unwrap().len, BodyLen::Fixed(65536));
        let h = read_header(&mut [0xaf].as_slice()).unwrap().unwrap();
        assert_eq!((h.tag, h.len, h.new_format), (11, BodyLen::Indeterminate, false));
    }

    #[test]
    fn truncation_is_typed() {
        assert!(matches!(read_header(&mut [0xc3].as_slice()), Err(Error::Truncated(_))));
        assert!(matches!(read_header(&mut [0xc3, 0xff, 0].as_slice()), Err(Error::Truncated(_))));
        assert!(matches!(read_header(&mut [0x03].as_slice()), Err(Error::Malformed(_))));
        let mut body = BodyReader::new([1u8, 2].as_slice(), BodyLen::Fixed(1 << 30));
        let mut v = Vec::new();
        let e = body.read_to_end(&mut v).unwrap_err();
        assert!(matches!(Error::from_io(e), Error::Truncated(_)));
    }
}
