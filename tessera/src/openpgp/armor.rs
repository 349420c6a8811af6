//! ASCII armor (RFC 9580 §6), streaming in both directions.
//!
//! The reader accepts text before the `BEGIN` line, any armor headers, lines
//! of any length (it never buffers a line), CR LF or LF, and an optional
//! CRC24 line, which it ignores as §6.1 requires ("MUST NOT reject ... when
//! the CRC24 footer is present, missing, malformed, or disagrees"). The
//! writer emits 76-column lines and, only when asked (for RFC 4880 peers),
//! the CRC24.

use std::io::{self, BufRead, Read, Write};

use super::poison::Poison;
use super::{Error, Result};

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The kind of block in `-----BEGIN PGP <kind>-----`.
pub const MESSAGE: &str = "MESSAGE";
/// The armor kind of detached signatures.
pub const SIGNATURE: &str = "SIGNATURE";

/// CRC24 of RFC 9580 §6.1.1.
#[derive(Debug, Clone, Copy)]
pub struct Crc24(u32);

impl Default for Crc24 {
    fn default() -> Self {
        Crc24(0xb704ce)
    }
}

impl Crc24 {
    /// Adds bytes.
    pub fn update(&mut self, data: &[u8]) {
        let mut crc = self.0;
        for &b in data {
            crc ^= (b as u32) << 16;
            for _ in 0..8 {
                crc <<= 1;
                if crc & 0x1000000 != 0 {
                    crc ^= 0x1864cfb;
                }
            }
        }
        self.0 = crc;
    }
    /// The checksum (24 bits).
    pub fn value(&self) -> u32 {
        self.0 & 0xffffff
    }
}

/// Whether `r` starts (after whitespace) with armor rather than a binary
/// packet: a binary packet header has bit 7 set, armor is ASCII text.
pub fn is_armored<R: BufRead + ?Sized>(r: &mut R) -> Result<bool> {
    loop {
        let buf = r.fill_buf().map_err(Error::from_io)?;
        if buf.is_empty() {
            return Ok(false);
        }
        let ws = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if ws < buf.len() {
            return Ok(buf[ws] & 0x80 == 0);
        }
        // Only whitespace so far: it may be armor; binary never starts so.
        let n = buf.len();
        r.consume(n);
    }
}

const INVALID: u8 = 0xff;

const fn decode_table() -> [u8; 256] {
    let mut t = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        t[B64[i] as usize] = i as u8;
        i += 1;
    }
    t
}

static DECODE: [u8; 256] = decode_table();

/// Decodes a group of four sextets (and clears it).
fn decode_quad(q: &mut [u8; 4]) -> [u8; 3] {
    let v = (q[0] as u32) << 18 | (q[1] as u32) << 12 | (q[2] as u32) << 6 | q[3] as u32;
    *q = [0; 4];
    let b = v.to_be_bytes();
    [b[1], b[2], b[3]]
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Preamble,
    Headers,
    Body,
    Done,
}

/// Decodes an armored block as a byte stream, holding no more than a line
/// fragment of state.
///
/// An I/O error of the inner reader met between base64 groups is passed on
/// and the next `read` continues; any other error (bad armor, an error in
/// the middle of a line that was being skipped) is final: every later
/// `read` fails with it again.
#[derive(Debug)]
pub struct ArmorReader<R> {
    poison: Poison,
    /// Set when the last error came from the inner reader with nothing consumed.
    retryable: bool,
    inner: R,
    state: State,
    quad: [u8; 4],
    quad_len: usize,
    out: [u8; 3],
    out_pos: usize,
    out_len: usize,
    line_start: bool,
    padded: bool,
    in_crc: bool,
    kind: [u8; 32],
    kind_len: usize,
}

/// Longest armor line kept (BEGIN line, header line); longer lines are
/// skipped without being stored.
const MAX_LINE: usize = 80;

impl<R: BufRead> ArmorReader<R> {
    /// Reads armor from `inner`; the `BEGIN` line is looked for on the first
    /// read (or by [`ArmorReader::kind`]).
    pub fn new(inner: R) -> Self {
        ArmorReader {
            poison: Poison::default(),
            retryable: false,
            inner,
            state: State::Preamble,
            quad: [0; 4],
            quad_len: 0,
            out: [0; 3],
            out_pos: 0,
            out_len: 0,
            line_start: true,
            padded: false,
            in_crc: false,
            kind: [0; 32],
            kind_len: 0,
        }
    }

    /// The block kind (`MESSAGE`, ...) of the `BEGIN` line.
    pub fn kind(&mut self) -> Result<&str> {
        self.skip_to_body()?;
        std::str::from_utf8(&self.kind[..self.kind_len]).map_err(|_| Error::Malformed("armor BEGIN line"))
    }

    /// Reads one line, keeping at most MAX_LINE bytes; returns (bytes kept,
    /// whether the line was longer, whether the input ended).
    fn read_line(&mut self, line: &mut [u8; MAX_LINE]) -> Result<(usize, bool, bool)> {
        let mut kept = 0;
        let mut long = false;
        loop {
            let buf = self.inner.fill_buf().map_err(Error::from_io)?;
            if buf.is_empty() {
                return Ok((kept, long, true));
            }
            let (take, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let content = &buf[..if end { take - 1 } else { take }];
            let room = MAX_LINE - kept;
            let k = content.len().min(room);
            line[kept..kept + k].copy_from_slice(&content[..k]);
            kept += k;
            long |= content.len() > room;
            self.inner.consume(take);
            if end {
                while kept > 0 && line[kept - 1].is_ascii_whitespace() {
                    kept -= 1;
                }
                return Ok((kept, long, false));
            }
        }
    }

    fn skip_to_body(&mut self) -> Result<()> {
        let mut line = [0u8; MAX_LINE];
        while self.state == State::Preamble {
            let (n, long, eof) = self.read_line(&mut line)?;
            let l = &line[..n];
            if !long && n >= 20 && l.starts_with(b"-----BEGIN PGP ") && l.ends_with(b"-----") {
                let kind = &l[15..n - 5];
                if kind.len() > self.kind.len() {
                    return Err(Error::Malformed("armor BEGIN line"));
                }
                self.kind[..kind.len()].copy_from_slice(kind);
                self.kind_len = kind.len();
                self.state = State::Headers;
            } else if eof {
                return Err(Error::Malformed("no armor BEGIN line"));
            }
        }
        while self.state == State::Headers {
            let (n, long, eof) = self.read_line(&mut line)?;
            if eof {
                return Err(Error::Truncated("armor"));
            }
            if n == 0 && !long {
                self.state = State::Body;
            } else if !long && !line[..n].contains(&b':') {
                return Err(Error::Malformed("armor header line without ':' (or missing blank line)"));
            }
        }
        Ok(())
    }

    fn decode_into(&mut self, dst: &mut [u8]) -> Result<usize> {
        let mut written = 0;
        while written < dst.len() {
            if self.out_pos < self.out_len {
                let k = (self.out_len - self.out_pos).min(dst.len() - written);
                dst[written..written + k].copy_from_slice(&self.out[self.out_pos..self.out_pos + k]);
                self.out_pos += k;
                written += k;
                continue;
            }
            if self.state == State::Done {
                break;
            }
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                // Nothing was consumed: hand out what is decoded, or the
                // error, which the next read may retry.
                Err(_) if written > 0 => return Ok(written),
                Err(e) => {
                    self.retryable = true;
                    return Err(Error::from_io(e));
                }
            };
            if buf.is_empty() {
                return Err(Error::Truncated("armor has no END line"));
            }
            let mut i = 0;
            let mut end_line = false;
            while i < buf.len() && self.out_pos == self.out_len && written < dst.len() {
                // Fast path: whole quads straight into the caller's buffer.
                if self.quad_len == 0 && !self.in_crc && !self.padded {
                    while i + 4 <= buf.len() && written + 3 <= dst.len() {
                        let (a, b, c, d) = (
                            DECODE[buf[i] as usize],
                            DECODE[buf[i + 1] as usize],
                            DECODE[buf[i + 2] as usize],
                            DECODE[buf[i + 3] as usize],
                        );
                        if (a | b | c | d) > 63 {
                            break;
                        }
                        let v = (a as u32) << 18 | (b as u32) << 12 | (c as u32) << 6 | d as u32;
                        dst[written..written + 3].copy_from_slice(&v.to_be_bytes()[1..]);
                        written += 3;
                        i += 4;
                        self.line_start = false;
                    }
                    if i >= buf.len() || written >= dst.len() {
                        break;
                    }
                }
                let ch = buf[i];
                i += 1;
                if self.in_crc {
                    if ch == b'\n' {
                        self.in_crc = false;
                        self.line_start = true;
                    }
                    continue;
                }
                match ch {
                    b'\n' => self.line_start = true,
                    b'\r' | b' ' | b'\t' => {}
                    b'=' if self.line_start && self.quad_len == 0 => self.in_crc = true,
                    b'=' => {
                        if self.quad_len >= 2 {
                            let n = self.quad_len - 1;
                            self.out = decode_quad(&mut self.quad);
                            self.out_pos = 0;
                            self.out_len = n;
                            self.quad_len = 0;
                            self.padded = true;
                        } else if !self.padded {
                            return Err(Error::Malformed("armor padding"));
                        }
                        self.line_start = false;
                    }
                    b'-' if self.line_start => {
                        if self.quad_len != 0 {
                            return Err(Error::Truncated("armor body ends inside a base64 group"));
                        }
                        end_line = true;
                        break;
                    }
                    _ => {
                        let v = DECODE[ch as usize];
                        if v == INVALID || self.padded {
                            return Err(Error::Malformed("invalid character in armor"));
                        }
                        self.quad[self.quad_len] = v;
                        self.quad_len += 1;
                        self.line_start = false;
                        if self.quad_len == 4 {
                            self.out = decode_quad(&mut self.quad);
                            self.out_pos = 0;
                            self.out_len = 3;
                            self.quad_len = 0;
                        }
                    }
                }
            }
            self.inner.consume(i);
            if end_line {
                let mut line = [0u8; MAX_LINE];
                let (n, _, _) = self.read_line(&mut line)?;
                if !line[..n].starts_with(b"----END PGP ") {
                    return Err(Error::Malformed("armor END line"));
                }
                self.state = State::Done;
            }
        }
        Ok(written)
    }

    /// The underlying reader, positioned after the END line once the body
    /// has been read to its end.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: BufRead> Read for ArmorReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        self.retryable = false;
        let r = if self.state != State::Body && self.state != State::Done {
            self.skip_to_body().and_then(|()| self.decode_into(buf))
        } else {
            self.decode_into(buf)
        };
        match r {
            Ok(n) => Ok(n),
            Err(e) if self.retryable => Err(e.into_io()),
            Err(e) => Err(self.poison.set(e)),
        }
    }
}

/// Encodes a byte stream as an armored block.
///
/// Call [`ArmorWriter::finish`]: it writes the last group, the optional
/// CRC24 and the `END` line.
pub struct ArmorWriter<W: Write> {
    inner: W,
    kind: &'static str,
    crc: Option<Crc24>,
    group: [u8; 3],
    group_len: usize,
    col: usize,
    out: [u8; OUT_BUF],
    out_len: usize,
    /// After an error of `inner`, part of a line may have been written.
    poison: Poison,
}

impl<W: Write> std::fmt::Debug for ArmorWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArmorWriter").field("kind", &self.kind).finish_non_exhaustive()
    }
}

const COLUMNS: usize = 76;

/// Encoded octets held before writing: whole lines (76 characters and a
/// line feed), with room for a last quad and line feed.
const OUT_BUF: usize = 1040;

impl<W: Write> ArmorWriter<W> {
    /// Writes the `BEGIN` line of a `kind` block (e.g. [`MESSAGE`]); with
    /// `crc`, a CRC24 line is written at the end (RFC 4880 style).
    pub fn new(mut inner: W, kind: &'static str, crc: bool) -> io::Result<Self> {
        write!(inner, "-----BEGIN PGP {kind}-----\n\n")?;
        Ok(ArmorWriter {
            inner,
            kind,
            crc: crc.then(Crc24::default),
            group: [0; 3],
            group_len: 0,
            col: 0,
            out: [0; OUT_BUF],
            out_len: 0,
            poison: Poison::default(),
        })
    }

    fn put_quad(&mut self, g: [u8; 3], n: usize) {
        let v = (g[0] as u32) << 16 | (g[1] as u32) << 8 | g[2] as u32;
        let chars = [
            B64[(v >> 18) as usize & 63],
            B64[(v >> 12) as usize & 63],
            if n > 1 { B64[(v >> 6) as usize & 63] } else { b'=' },
            if n > 2 { B64[v as usize & 63] } else { b'=' },
        ];
        self.out[self.out_len..self.out_len + 4].copy_from_slice(&chars);
        self.out_len += 4;
        self.col += 4;
        if self.col == COLUMNS {
            self.out[self.out_len] = b'\n';
            self.out_len += 1;
            self.col = 0;
        }
    }

    fn drain(&mut self) -> io::Result<()> {
        self.poison.check()?;
        let r = self.inner.write_all(&self.out[..self.out_len]);
        self.poison.record(r)?;
        self.out_len = 0;
        Ok(())
    }

    /// Writes the rest and the `END` line; returns the underlying writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.poison.check()?;
        if self.out_len + 10 > self.out.len() {
            self.drain()?;
        }
        if self.group_len > 0 {
            let (g, n) = (self.group, self.group_len);
            self.put_quad(g, n);
        }
        if self.col != 0 {
            self.out[self.out_len] = b'\n';
            self.out_len += 1;
        }
        self.drain()?;
        if let Some(crc) = self.crc {
            let c = crc.value().to_be_bytes();
            self.col = 0;
            self.put_quad([c[1], c[2], c[3]], 3);
            self.inner.write_all(b"=")?;
            self.drain()?;
            self.inner.write_all(b"\n")?;
        }
        writeln!(self.inner, "-----END PGP {}-----", self.kind)?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for ArmorWriter<W> {
    fn write(&mut self, mut data: &[u8]) -> io::Result<usize> {
        self.poison.check()?;
        let len = data.len();
        if let Some(crc) = &mut self.crc {
            crc.update(data);
        }
        while self.group_len > 0 && self.group_len < 3 && !data.is_empty() {
            self.group[self.group_len] = data[0];
            self.group_len += 1;
            data = &data[1..];
        }
        if self.group_len > 0 && self.group_len < 3 {
            return Ok(len);
        }
        if self.group_len == 3 {
            if self.out_len + 5 > self.out.len() {
                self.drain()?;
            }
            let g = self.group;
            self.put_quad(g, 3);
            self.group_len = 0;
        }
        let mut groups = data.chunks_exact(3);
        for g in &mut groups {
            if self.out_len + 5 > self.out.len() {
                self.drain()?;
            }
            self.put_quad([g[0], g[1], g[2]], 3);
        }
        let rest = groups.remainder();
        self.group[..rest.len()].copy_from_slice(rest);
        self.group_len = rest.len();
        Ok(len)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        let r = self.inner.flush();
        self.poison.record(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dearmor(text: &[u8], chunk: usize) -> Result<Vec<u8>> {
        let mut r = ArmorReader::new(text);
        let mut out = Vec::new();
        let mut buf = vec![0u8; chunk];
        loop {
            let n = r.read(&mut buf).map_err(Error::from_io)?;
            if n == 0 {
                return Ok(out);
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    #[test]
    fn an_error_is_final() {
        let text = b"-----BEGIN PGP MESSAGE-----\n\nwy4E!BwMI\n-----END PGP MESSAGE-----\n";
        let mut r = ArmorReader::new(&text[..]);
        let mut buf = [0u8; 64];
        assert!(r.read(&mut buf).is_err());
        for _ in 0..3 {
            let e = Error::from_io(r.read(&mut buf).unwrap_err());
            assert!(matches!(e, Error::Malformed("invalid character in armor")), "{e:?}");
        }
    }

    #[test]
    fn round_trip_all_lengths() {
        for n in [0usize, 1, 2, 3, 4, 56, 57, 58, 100, 1000, 5000] {
            let data: Vec<u8> = (0..n).map(|i| (i * 31 + 7) as u8).collect();
            for crc in [false, true] {
                let mut w = ArmorWriter::new(Vec::new(), MESSAGE, crc).unwrap();
                for (i, p) in data.chunks(7).enumerate() {
                    if i % 2 == 0 {
                        w.write_all(p).unwrap();
                    } else {
                        for b in p {
                            w.write_all(&[*b]).unwrap();
                        }
                    }
                }
                let text = w.finish().unwrap();
                for line in text.split(|&b| b == b'\n') {
                    assert!(line.len() <= 76);
                }
                for chunk in [1, 2, 3, 5, 4096] {
                    assert_eq!(dearmor(&text, chunk).unwrap(), data, "n={n} crc={crc} chunk={chunk}");
                }
                // CR LF line ends and a preamble are accepted.
                let mut crlf = b"some text first\r\n".to_vec();
                for &b in &text {
                    if b == b'\n' {
                        crlf.push(b'\r');
                    }
                    crlf.push(b);
                }
                assert_eq!(dearmor(&crlf, 4096).unwrap(), data);
            }
        }
    }

    #[test]
    fn crc24_known_value() {
        // "Hello, world!" as written by GnuPG's armor.
        let mut c = Crc24::default();
        c.update(b"");
        assert_eq!(c.value(), 0xb704ce);
    }

    #[test]
    fn headers_and_bad_input() {
        let text = b"-----BEGIN PGP MESSAGE-----\nComment: hi\nVersion: x\n\nAAEC\n=abcd\n-----END PGP MESSAGE-----\n";
        assert_eq!(dearmor(text, 10).unwrap(), [0, 1, 2]);
        assert!(matches!(dearmor(b"-----BEGIN PGP MESSAGE-----\n\nAAEC\n", 10), Err(Error::Truncated(_))));
        assert!(matches!(
            dearmor(b"-----BEGIN PGP MESSAGE-----\n\nAA*C\n-----END PGP MESSAGE-----\n", 10),
            Err(Error::Malformed(_))
        ));
        assert!(matches!(dearmor(b"hello", 10), Err(Error::Malformed(_))));
        assert!(matches!(
            dearmor(b"-----BEGIN PGP MESSAGE-----\n\nAAE\n-----END PGP MESSAGE-----\n", 10),
            Err(Error::Truncated(_))
        ));
    }
}
