//! The Cleartext Signature Framework (RFC 9580 §7): text signed so that it
//! stays readable. The signed text is the lines with trailing spaces and
//! tabs removed, joined by CR LF, without the line ending before the
//! signature block (RFC 9580 §7.2: that one is framing); lines starting
//! with `-` are dash-escaped (`- `). A text that ends with a line ending
//! is written with that ending and then the framing one, so the final line
//! ending is signed and given back: signing then reading returns the text
//! as it was (line endings included, LF or CR LF as in the message),
//! unless a line had trailing whitespace, which is never signed.
//!
//! Writing streams. Reading holds the text in memory (up to
//! [`MAX_CLEARTEXT`] octets): the salts of v6 signatures come after the
//! text, so it cannot be hashed before the signatures are read.
//!
//! ```
//! use std::io::Write;
//! use tessera::openpgp::key::{generate, GenerateOptions};
//! use tessera::openpgp::sig::{ClearSigner, SigType, Signer, SigningKey, read_cleartext};
//! let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
//! let keys = SigningKey::from_cert(&key, 1_700_000_001).unwrap();
//! let mut w = ClearSigner::new(Vec::new(), Signer::new(&keys, SigType::Text, 1_700_000_001).unwrap()).unwrap();
//! w.write_all(b"-dash\nsecond line  \n").unwrap();
//! let signed = w.finish().unwrap();
//! assert!(String::from_utf8_lossy(&signed).contains("\n- -dash\nsecond line\n\n-----BEGIN PGP SIGNATURE"));
//!
//! let certs = [key.to_public()];
//! let mut text = Vec::new();
//! let results = read_cleartext(signed.as_slice(), &mut text, &certs, 1_700_000_002).unwrap();
//! assert_eq!(text, b"-dash\nsecond line\n");
//! assert!(results[0].is_good());
//! ```

use std::io::{self, BufRead, Read, Write};

use super::super::crypto::HashAlg;
use super::super::key::Cert;
use super::super::{Error, Result};
use super::check::{Outcome, SigResult};
use super::document::{Signer, Verifier};
use super::packet::SigType;
use super::stream::{read_signatures, write_signatures};

/// Largest cleartext-signed text read (64 MiB).
///
/// ```
/// use tessera::openpgp::sig::MAX_CLEARTEXT;
/// // Larger texts are signed inline or detached, which stream.
/// assert_eq!(MAX_CLEARTEXT, 64 * 1024 * 1024);
/// ```
pub const MAX_CLEARTEXT: usize = 64 << 20;
/// Longest line read.
const MAX_LINE: u64 = 1 << 20;

const BEGIN_SIGNED: &str = "-----BEGIN PGP SIGNED MESSAGE-----";
pub(crate) const BEGIN_SIG: &str = "-----BEGIN PGP SIGNATURE-----";

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// Writes a cleartext-signed message as the text is written; call
/// [`ClearSigner::finish`]. The signer must make text (0x01) signatures.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::{ClearSigner, SigType, Signer, SigningKey, read_cleartext};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Text, 1_700_000_001)?;
/// let mut w = ClearSigner::new(Vec::new(), signer)?;
/// w.write_all(b"- dash-escaped\nplain\n")?;
/// let message = w.finish()?;
/// assert!(String::from_utf8_lossy(&message).contains("\n- - dash-escaped\n"));
/// let certs = [key.to_public()];
/// let mut text = Vec::new();
/// assert!(read_cleartext(message.as_slice(), &mut text, &certs, 1_700_000_002)?[0].is_good());
/// // The final line ending is signed and given back; without one, none is added.
/// assert_eq!(text, b"- dash-escaped\nplain\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ClearSigner<'a, W: Write> {
    out: W,
    signer: Signer<'a>,
    line_start: bool,
    /// The line ending just read, not yet written: CR LF (`Some(true)`) or LF.
    pending_eol: Option<bool>,
    held: Vec<u8>,
    emit: Vec<u8>,
    hashed: Vec<u8>,
}

impl<'a, W: Write> ClearSigner<'a, W> {
    /// Writes the header (with a `Hash` line when v4 signatures are made).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{ClearSigner, SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let keys = SigningKey::from_cert(&key, 1_700_000_001)?;
    /// // Cleartext signatures are text signatures.
    /// let binary = Signer::new(&keys, SigType::Binary, 1_700_000_001)?;
    /// assert!(ClearSigner::new(Vec::new(), binary).is_err());
    /// let text = Signer::new(&keys, SigType::Text, 1_700_000_001)?;
    /// assert!(ClearSigner::new(Vec::new(), text).is_ok());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new(mut out: W, signer: Signer<'a>) -> Result<Self> {
        if signer.sig_type() != SigType::Text {
            return Err(Error::InvalidOption("cleartext signatures are text signatures"));
        }
        let mut hashes: Vec<&str> = Vec::new();
        for (key, h, _) in signer.announced() {
            if key.version().id() == 4 && !hashes.contains(&h.name()) {
                hashes.push(h.name());
            }
        }
        let mut head = format!("{BEGIN_SIGNED}\n");
        if !hashes.is_empty() {
            head += &format!("Hash: {}\n", hashes.join(","));
        }
        head.push('\n');
        out.write_all(head.as_bytes()).map_err(Error::from_io)?;
        let (held, emit, hashed) = (Vec::new(), Vec::new(), Vec::new());
        Ok(ClearSigner { out, signer, line_start: true, pending_eol: None, held, emit, hashed })
    }

    /// Writes the pending line ending as it was in the input (CR LF or LF);
    /// it is hashed as CR LF.
    fn end_line(&mut self) {
        if let Some(crlf) = self.pending_eol.take() {
            self.emit.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
            self.hashed.extend_from_slice(b"\r\n");
        }
    }

    fn put(&mut self, b: u8) {
        self.end_line();
        if b == b'\n' {
            self.pending_eol = Some(self.held.last() == Some(&b'\r'));
            self.held.clear();
            self.line_start = true;
            return;
        }
        if self.line_start && b == b'-' {
            self.emit.extend_from_slice(b"- ");
        }
        self.line_start = false;
        if is_ws(b) {
            self.held.push(b);
            return;
        }
        self.emit.extend_from_slice(&self.held);
        self.hashed.extend_from_slice(&self.held);
        self.held.clear();
        self.emit.push(b);
        self.hashed.push(b);
    }

    /// Ends the text and writes the signature block; returns the output.
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{ClearSigner, SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Text, 1_700_000_001)?;
    /// let mut w = ClearSigner::new(Vec::new(), signer)?;
    /// w.write_all(b"hello\n")?;
    /// let message = w.finish()?;
    /// assert!(message.ends_with(b"-----END PGP SIGNATURE-----\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(mut self) -> Result<W> {
        // The text's own final line ending (signed), then the framing one.
        self.end_line();
        self.emit.push(b'\n');
        self.out.write_all(&self.emit).map_err(Error::from_io)?;
        self.signer.update(&self.hashed);
        let sigs = self.signer.finish()?;
        write_signatures(self.out, &sigs, true)
    }
}

impl<W: Write> Write for ClearSigner<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            self.put(b);
        }
        self.out.write_all(&self.emit)?;
        self.signer.update(&self.hashed);
        self.emit.clear();
        self.hashed.clear();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Reads one line (without its line ending or trailing whitespace); `None`
/// at the end, else whether it ended with CR LF.
fn line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Result<Option<bool>> {
    buf.clear();
    let n = input.by_ref().take(MAX_LINE).read_until(b'\n', buf).map_err(Error::from_io)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if n as u64 == MAX_LINE {
        return Err(Error::Limit("cleartext line longer than 1 MiB"));
    }
    let crlf = buf.last() == Some(&b'\r');
    while buf.last().is_some_and(|&b| is_ws(b)) {
        buf.pop();
    }
    // A CR ends a line only before its LF: one inside a line would show
    // the text differently from what was signed.
    if buf.contains(&b'\r') {
        return Err(Error::Malformed("a carriage return inside a cleartext line"));
    }
    Ok(Some(crlf))
}

/// The `Hash` header's algorithms (`None` for no header). RFC 9580 §7.1:
/// the only header allowed there is `Hash`, which is optional (legacy).
fn read_header_lines<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Result<Option<Vec<HashAlg>>> {
    let mut hashes: Option<Vec<HashAlg>> = None;
    loop {
        line(input, buf)?.ok_or(Error::Truncated("cleartext header"))?;
        if buf.is_empty() {
            return Ok(hashes);
        }
        let text = std::str::from_utf8(buf).map_err(|_| Error::Malformed("cleartext header"))?;
        let (name, value) = text.split_once(": ").ok_or(Error::Malformed("cleartext header line"))?;
        if name != "Hash" {
            return Err(Error::Malformed("a cleartext header other than Hash"));
        }
        for v in value.split(',').map(str::trim) {
            let known = (1u8..=14).filter_map(|id| HashAlg::from_id(id).ok());
            let h = known.into_iter().find(|h| h.name() == v).ok_or(Error::Unsupported("hash in Hash header"))?;
            hashes.get_or_insert_with(Vec::new).push(h);
        }
    }
}

/// Reads the rest of `input` after the signature block: only whitespace
/// may follow it (not text that would look signed, nor a second signed
/// message).
fn only_whitespace_left<R: BufRead>(input: &mut R) -> Result<()> {
    loop {
        let rest = input.fill_buf().map_err(Error::from_io)?;
        if rest.is_empty() {
            return Ok(());
        }
        if !rest.iter().all(|b| b.is_ascii_whitespace()) {
            return Err(Error::Malformed("data after the cleartext signature block"));
        }
        let n = rest.len();
        input.consume(n);
    }
}

/// Whether `input` starts with a cleartext-signed message.
///
/// ```
/// use tessera::openpgp::sig::is_cleartext;
/// let signed = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a6_cleartext.asc"));
/// assert!(is_cleartext(&mut signed.as_bytes())?);
/// let inline = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
/// assert!(!is_cleartext(&mut inline.as_bytes())?);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn is_cleartext<R: BufRead + ?Sized>(input: &mut R) -> Result<bool> {
    let head = input.fill_buf().map_err(Error::from_io)?;
    Ok(head.starts_with(BEGIN_SIGNED.as_bytes()))
}

/// Reads a cleartext-signed message: writes the text (each line with the
/// line ending it has in the message, LF or CR LF, but for the framing one
/// before the signature block; dash-escaping undone, trailing whitespace
/// removed) to `out` and returns
/// one result per signature, judged against `certs` at `now`.
///
/// Refused as [`Error::Malformed`] (RFC 9580 §7.1): a header other than
/// `Hash` (which may be absent), a carriage return inside a line, a
/// signature that is not a text signature, and anything but whitespace
/// after the signature block (such as a second signed message).
///
/// ```
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::read_cleartext;
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let certs = [Cert::from_bytes(a3_cert)?]; // RFC 9580 A.3
/// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a6_cleartext.asc"));
/// let mut text = Vec::new();
/// let results = read_cleartext(message.as_bytes(), &mut text, &certs, 1_717_200_000)?;
/// assert!(results[0].is_good());
/// assert_eq!(text, b"What we need from the grocery store:\n\n- tofu\n- vegetables\n- noodles\n");
/// // One changed letter: a bad signature (the text is still written).
/// let changed = message.replace("tofu", "tofo");
/// assert!(!read_cleartext(changed.as_bytes(), &mut Vec::new(), &certs, 1_717_200_000)?[0].is_good());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn read_cleartext<R: BufRead>(
    mut input: R,
    out: &mut dyn Write,
    certs: &[Cert],
    now: u64,
) -> Result<Vec<SigResult>> {
    let mut buf = Vec::new();
    let hashes = read_framing(&mut input, &mut buf)?;
    let mut text = Vec::new();
    // The line ending of each text line but the last (that one is framing).
    let mut crlf: Vec<bool> = Vec::new();
    let mut ending = None;
    loop {
        let this = line(&mut input, &mut buf)?.ok_or(Error::Truncated("cleartext signature block"))?;
        if buf == BEGIN_SIG.as_bytes() {
            break;
        }
        let l = buf.strip_prefix(b"- ").unwrap_or(&buf);
        if let Some(previous) = ending.replace(this) {
            text.extend_from_slice(b"\r\n");
            crlf.push(previous);
        }
        text.extend_from_slice(l);
        if text.len() > MAX_CLEARTEXT {
            return Err(Error::Limit("cleartext-signed text larger than 64 MiB"));
        }
    }
    let block = io::Cursor::new(format!("{BEGIN_SIG}\n").into_bytes()).chain(&mut input);
    let sigs = read_signatures(block)?;
    if sigs.iter().any(|s| s.sig_type() != SigType::Text) {
        return Err(Error::Malformed("a cleartext signature that is not a text signature"));
    }
    only_whitespace_left(&mut input)?;
    let declared: Vec<bool> =
        sigs.iter().map(|s| s.version() == 6 || hashes.as_ref().is_none_or(|h| h.contains(&s.hash_alg()))).collect();
    let mut v = Verifier::new(sigs, certs, now);
    v.update(&text);
    let mut results = v.finish();
    for (r, ok) in results.iter_mut().zip(declared) {
        if !ok {
            r.outcome = Outcome::Bad("its hash is not named by the Hash header".into());
        }
    }
    write_text(out, &text, &crlf)?;
    Ok(results)
}

/// Reads the `BEGIN PGP SIGNED MESSAGE` line and the header lines after
/// it; returns the `Hash` header's algorithms (`None` for no header).
fn read_framing<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Result<Option<Vec<HashAlg>>> {
    loop {
        line(input, buf)?.ok_or(Error::Malformed("no cleartext-signed message"))?;
        if buf == BEGIN_SIGNED.as_bytes() {
            break;
        }
        if !buf.is_empty() {
            return Err(Error::Malformed("text before the cleartext-signed message"));
        }
    }
    read_header_lines(input, buf)
}

/// Reads a cleartext-signed message up to and with its `BEGIN PGP
/// SIGNATURE` line, keeping one line at a time: returns the `Hash` header's
/// algorithms (empty for none) and the number of text lines. The signature
/// block's armor follows (from its first header line on).
pub(crate) fn skip_cleartext<R: BufRead>(input: &mut R) -> Result<(Vec<HashAlg>, u64)> {
    let mut buf = Vec::new();
    let hashes = read_framing(input, &mut buf)?.unwrap_or_default();
    let mut lines = 0u64;
    loop {
        line(input, &mut buf)?.ok_or(Error::Truncated("cleartext signature block"))?;
        if buf == BEGIN_SIG.as_bytes() {
            return Ok((hashes, lines));
        }
        lines += 1;
    }
}

/// Writes the signed `text` (lines joined by CR LF) with the line endings
/// the message had: `crlf[i]` says whether line `i` ended with CR LF.
fn write_text(out: &mut dyn Write, text: &[u8], crlf: &[bool]) -> Result<()> {
    for (i, piece) in text.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            let eol: &[u8] = if crlf[i - 1] { b"\r\n" } else { b"\n" };
            out.write_all(eol).map_err(Error::from_io)?;
        }
        out.write_all(piece.strip_suffix(b"\r").unwrap_or(piece)).map_err(Error::from_io)?;
    }
    Ok(())
}
