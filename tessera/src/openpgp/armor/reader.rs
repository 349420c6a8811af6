//! The armor reader: finds the `BEGIN` line, skips the headers and decodes
//! the base64 body up to the `END` line.

use std::io::{self, BufRead, Read};

use super::B64;
use crate::openpgp::poison::Poison;
use crate::openpgp::{Error, Result};

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

/// What a body character ends.
enum Step {
    /// Keep decoding.
    Next,
    /// A `-` at the start of a line: the `END` line begins.
    EndLine,
}

/// The base64 body decoder: a partial group of sextets, decoded octets not
/// yet handed out, and where in a line the input is.
#[derive(Debug)]
struct BodyDecoder {
    quad: [u8; 4],
    quad_len: usize,
    out: [u8; 3],
    out_pos: usize,
    out_len: usize,
    line_start: bool,
    padded: bool,
    in_crc: bool,
    /// The CRC24 line has ended: only blank lines and the `END` line may follow.
    after_crc: bool,
    /// The block is quoted as in a mail reply: `>` at the start of a line
    /// (before any base64 digit) is part of the quoting.
    quoted: bool,
}

impl BodyDecoder {
    fn new() -> Self {
        BodyDecoder {
            quad: [0; 4],
            quad_len: 0,
            out: [0; 3],
            out_pos: 0,
            out_len: 0,
            line_start: true,
            padded: false,
            in_crc: false,
            after_crc: false,
            quoted: false,
        }
    }

    /// Whether decoded octets wait to be handed out.
    fn has_pending(&self) -> bool {
        self.out_pos < self.out_len
    }

    /// Hands out decoded octets; returns how many.
    fn take_pending(&mut self, dst: &mut [u8]) -> usize {
        let k = (self.out_len - self.out_pos).min(dst.len());
        dst[..k].copy_from_slice(&self.out[self.out_pos..self.out_pos + k]);
        self.out_pos += k;
        k
    }

    /// Decodes from `buf` into `dst[*written..]` until one of them runs out,
    /// octets are pending, or the `END` line starts. Returns the octets of
    /// `buf` used and whether the `END` line starts.
    fn decode_chunk(&mut self, buf: &[u8], dst: &mut [u8], written: &mut usize) -> Result<(usize, bool)> {
        let mut i = 0;
        while i < buf.len() && !self.has_pending() && *written < dst.len() {
            if self.quad_len == 0 && !self.in_crc && !self.after_crc && !self.padded {
                i += self.decode_whole_quads(&buf[i..], dst, written);
                if i >= buf.len() || *written >= dst.len() {
                    break;
                }
            }
            let ch = buf[i];
            i += 1;
            if let Step::EndLine = self.decode_char(ch)? {
                return Ok((i, true));
            }
        }
        Ok((i, false))
    }

    /// Fast path: whole quads of valid characters straight into `dst`.
    /// Returns the octets of `buf` used.
    fn decode_whole_quads(&mut self, buf: &[u8], dst: &mut [u8], written: &mut usize) -> usize {
        let mut i = 0;
        while i + 4 <= buf.len() && *written + 3 <= dst.len() {
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
            dst[*written..*written + 3].copy_from_slice(&v.to_be_bytes()[1..]);
            *written += 3;
            i += 4;
            self.line_start = false;
        }
        i
    }

    /// One character of the body: whitespace, padding, the CRC24 line, the
    /// start of the `END` line or a base64 digit. The CRC24 line's content
    /// is not checked (RFC 9580, section 6.1: a wrong checksum must not be
    /// rejected), but it ends the body: nothing but blank lines and the
    /// `END` line may follow it.
    fn decode_char(&mut self, ch: u8) -> Result<Step> {
        if self.in_crc {
            if ch == b'\n' {
                self.in_crc = false;
                self.after_crc = true;
                self.line_start = true;
            }
            return Ok(Step::Next);
        }
        let quote = ch == b'>' && self.quoted && self.line_start;
        if self.after_crc && !quote && !matches!(ch, b'\n' | b'\r' | b' ' | b'\t' | b'-') {
            return Err(Error::Malformed("data after the armor checksum line"));
        }
        match ch {
            b'\n' => self.line_start = true,
            b'\r' | b' ' | b'\t' => {}
            b'>' if quote => {}
            b'=' if self.line_start && self.quad_len == 0 => self.in_crc = true,
            b'=' => self.pad()?,
            b'-' if self.line_start => {
                if self.quad_len != 0 {
                    return Err(Error::Truncated("armor body ends inside a base64 group"));
                }
                return Ok(Step::EndLine);
            }
            _ => self.digit(ch)?,
        }
        Ok(Step::Next)
    }

    /// A `=` inside a line: the group ends with 1 or 2 octets.
    fn pad(&mut self) -> Result<()> {
        if self.quad_len >= 2 {
            let n = self.quad_len - 1;
            self.emit(n);
            self.padded = true;
        } else if !self.padded {
            return Err(Error::Malformed("armor padding"));
        }
        self.line_start = false;
        Ok(())
    }

    /// A base64 digit, outside the fast path.
    fn digit(&mut self, ch: u8) -> Result<()> {
        let v = DECODE[ch as usize];
        if v == INVALID || self.padded {
            return Err(Error::Malformed("invalid character in armor"));
        }
        self.quad[self.quad_len] = v;
        self.quad_len += 1;
        self.line_start = false;
        if self.quad_len == 4 {
            self.emit(3);
        }
        Ok(())
    }

    /// Decodes the group into `n` pending octets.
    fn emit(&mut self, n: usize) {
        self.out = decode_quad(&mut self.quad);
        self.out_pos = 0;
        self.out_len = n;
        self.quad_len = 0;
    }
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
///
/// ```
/// use std::io::Read;
/// use tessera::openpgp::armor::ArmorReader;
/// // Text before BEGIN, an armor header and a CRC24 line are all accepted.
/// let text = "see below\n-----BEGIN PGP MESSAGE-----\nComment: x\n\nAQID\n=AAAA\n-----END PGP MESSAGE-----\n";
/// let mut bytes = Vec::new();
/// ArmorReader::new(text.as_bytes()).read_to_end(&mut bytes)?;
/// assert_eq!(bytes, [1, 2, 3]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct ArmorReader<R> {
    poison: Poison,
    /// Set when the last error came from the inner reader with nothing consumed.
    retryable: bool,
    inner: R,
    state: State,
    body: BodyDecoder,
    kind: [u8; 32],
    kind_len: usize,
    /// The first body line when no blank line follows the `BEGIN` line
    /// (read as a line, decoded before the rest of the body).
    replay: [u8; MAX_LINE + 1],
    replay_len: usize,
    replay_pos: usize,
}

/// Where the `BEGIN` line's dashes start in `l`, when `l` is one: what
/// stands before them may only be indentation or mail quoting (`>`).
fn begin_line(l: &[u8]) -> Option<usize> {
    let at = l.iter().position(|&b| !matches!(b, b' ' | b'\t' | b'>'))?;
    let rest = &l[at..];
    (rest.len() >= 20 && rest.starts_with(b"-----BEGIN PGP ") && rest.ends_with(b"-----")).then_some(at)
}

/// Whether `l` is an armor header line, `Key: Value` (or `Key:` with no
/// value), RFC 9580 §6.2.2.
fn is_header(l: &[u8]) -> bool {
    match l.iter().position(|&b| b == b':') {
        Some(0) | None => false,
        Some(i) => matches!(l.get(i + 1), None | Some(b' ')),
    }
}

/// Longest armor line kept (BEGIN line, header line); longer lines are
/// skipped without being stored.
const MAX_LINE: usize = 80;

impl<R: BufRead> ArmorReader<R> {
    /// Reads armor from `inner`; the `BEGIN` line is looked for on the first
    /// read (or by [`ArmorReader::kind`]).
    ///
    /// ```
    /// use std::io::Read;
    /// use tessera::openpgp::armor::ArmorReader;
    /// let mut r = ArmorReader::new("no armor here".as_bytes());
    /// assert!(r.read_to_end(&mut Vec::new()).is_err());
    /// ```
    pub fn new(inner: R) -> Self {
        ArmorReader {
            poison: Poison::default(),
            retryable: false,
            inner,
            state: State::Preamble,
            body: BodyDecoder::new(),
            kind: [0; 32],
            kind_len: 0,
            replay: [0; MAX_LINE + 1],
            replay_len: 0,
            replay_pos: 0,
        }
    }

    /// Looks for the next `BEGIN` line: `false` when the input ends first
    /// (text after the last armored block of a file).
    ///
    /// ```
    /// use tessera::openpgp::armor::ArmorReader;
    /// assert!(!ArmorReader::new("Cheers,\nAlice\n".as_bytes()).has_block()?);
    /// let text = "-----BEGIN PGP MESSAGE-----\n\nAQID\n-----END PGP MESSAGE-----\n";
    /// assert!(ArmorReader::new(text.as_bytes()).has_block()?);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn has_block(&mut self) -> Result<bool> {
        let mut line = [0u8; MAX_LINE];
        while self.state == State::Preamble {
            let (n, long, eof) = self.read_line(&mut line)?;
            if let Some(at) = begin_line(&line[..n]).filter(|_| !long) {
                let kind = &line[at + 15..n - 5];
                if kind.len() > self.kind.len() {
                    return Err(Error::Malformed("armor BEGIN line"));
                }
                self.kind[..kind.len()].copy_from_slice(kind);
                self.kind_len = kind.len();
                self.body.quoted = line[..at].contains(&b'>');
                self.state = State::Headers;
            } else if eof {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The block kind (`MESSAGE`, ...) of the `BEGIN` line.
    ///
    /// ```
    /// use tessera::openpgp::armor::ArmorReader;
    /// let text = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAQID\n-----END PGP PUBLIC KEY BLOCK-----\n";
    /// assert_eq!(ArmorReader::new(text.as_bytes()).kind()?, "PUBLIC KEY BLOCK");
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
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
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                // A line read in part cannot be resumed by a later call.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::from_io(e)),
            };
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

    /// Reads up to the body: the `BEGIN` line, then the header lines up to
    /// a blank line. Indentation and the mail quoting of the `BEGIN` line
    /// are skipped on each line. Without any header, the blank line may be
    /// missing: a first line that is no header is the body's first line.
    fn skip_to_body(&mut self) -> Result<()> {
        if !self.has_block()? {
            return Err(Error::Malformed("no armor BEGIN line"));
        }
        let mut line = [0u8; MAX_LINE];
        let mut headers = 0usize;
        while self.state == State::Headers {
            let (n, long, eof) = self.read_line(&mut line)?;
            if eof {
                return Err(Error::Truncated("armor"));
            }
            let quoting = |b: &u8| matches!(b, b' ' | b'\t') || *b == b'>' && self.body.quoted;
            let l = &line[line[..n].iter().take_while(|b| quoting(b)).count()..n];
            if l.is_empty() && !long {
                self.state = State::Body;
            } else if is_header(l) {
                // A long header is kept only as far as its start.
                headers += 1;
            } else if long {
                // Not a header: a body line longer than any armor writes.
                return Err(Error::Malformed("armor line too long"));
            } else if headers == 0 && l[0] != b'-' {
                self.replay[..l.len()].copy_from_slice(l);
                self.replay[l.len()] = b'\n';
                (self.replay_pos, self.replay_len) = (0, l.len() + 1);
                self.state = State::Body;
            } else {
                return Err(Error::Malformed("armor header line without ': ' (or missing blank line)"));
            }
        }
        Ok(())
    }

    /// Decodes body octets into `dst` until it is full, the `END` line has
    /// been read, or the inner reader has nothing more to give now.
    fn decode_into(&mut self, dst: &mut [u8]) -> Result<usize> {
        let mut written = 0;
        while written < dst.len() {
            if self.body.has_pending() {
                written += self.body.take_pending(&mut dst[written..]);
                continue;
            }
            if self.state == State::Done {
                break;
            }
            if self.replay_pos < self.replay_len {
                let line = &self.replay[self.replay_pos..self.replay_len];
                let (used, end_line) = self.body.decode_chunk(line, dst, &mut written)?;
                self.replay_pos += used;
                if end_line {
                    return Err(Error::Malformed("armor END line"));
                }
                continue;
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
            let (used, end_line) = self.body.decode_chunk(buf, dst, &mut written)?;
            self.inner.consume(used);
            if end_line {
                self.read_end_line()?;
            }
        }
        Ok(written)
    }

    /// Reads the rest of the line that started with `-` after the body.
    fn read_end_line(&mut self) -> Result<()> {
        let mut line = [0u8; MAX_LINE];
        let (n, _, _) = self.read_line(&mut line)?;
        if !line[..n].starts_with(b"----END PGP ") {
            return Err(Error::Malformed("armor END line"));
        }
        self.state = State::Done;
        Ok(())
    }

    /// The underlying reader, positioned after the END line once the body
    /// has been read to its end.
    ///
    /// ```
    /// use std::io::Read;
    /// use tessera::openpgp::armor::ArmorReader;
    /// let two = "-----BEGIN PGP MESSAGE-----\n\nAQ==\n-----END PGP MESSAGE-----\n-----BEGIN PGP MESSAGE-----\n\nAg==\n-----END PGP MESSAGE-----\n";
    /// let mut first = ArmorReader::new(two.as_bytes());
    /// first.read_to_end(&mut Vec::new())?;
    /// // The second block follows where the first ended.
    /// let mut second = Vec::new();
    /// ArmorReader::new(first.into_inner()).read_to_end(&mut second)?;
    /// assert_eq!(second, [2]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
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
