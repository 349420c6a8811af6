//! The streaming [`Decryptor`].

use std::io::{self, BufRead, Read};

use flate2::read::{DeflateDecoder, ZlibDecoder};

use super::armor::{ArmorReader, is_armored};
use super::packet::{BodyReader, read_exact, read_full, read_header, read_small_body, tag};
use super::s2k::S2kLimits;
use super::seipd::{ChunkOpener, MdcOpener, V2Header};
use super::skesk::{SessionKey, Skesk};
use super::{Error, Result};
use crate::aes::Aes;

/// Options of [`Decryptor::with_options`].
#[derive(Debug, Clone)]
pub struct DecryptOptions {
    /// Limits on the S2K work a message may ask for.
    pub limits: S2kLimits,
    /// Use this session key instead of passwords (SOP `--with-session-key`).
    pub session_key: Option<SessionKey>,
    /// SEIPD v1 (CFB + MDC) can only be authenticated at its end. By
    /// default the decryptor reads a v1 message whole into memory, up to
    /// this many octets, before releasing anything.
    pub v1_buffer_limit: usize,
    /// Instead, stream a v1 message, releasing plaintext **before** the MDC
    /// is checked (the end of input still fails if it does not verify).
    /// Only for callers that hold the output back until the end, such as a
    /// temporary file renamed on success.
    pub v1_stream_unauthenticated: bool,
    /// SEIPD v1 repeats two random octets at the start so that a wrong key
    /// shows at once (the "quick check"): a wrong password is then reported
    /// as [`Error::WrongPassword`] before any data is decrypted. Reporting it
    /// apart from an MDC failure is an oracle (Mister and Zuccherato, 2005:
    /// about 2^15 forged messages reveal two plaintext octets of a block) for
    /// a service that decrypts attacker-modified v1 messages and shows which
    /// error occurred. Set this to `false` in such services: the first
    /// candidate key is then used without the check and the MDC alone
    /// decides, so both failures end in the same [`Error::Authentication`]. Only
    /// that first candidate is tried (give one password; a message with
    /// several password packets may need the right one first). Default
    /// `true` (what GnuPG does; SEIPD v2 has no quick check).
    pub v1_quick_check: bool,
}

impl Default for DecryptOptions {
    fn default() -> Self {
        DecryptOptions {
            limits: S2kLimits::default(),
            session_key: None,
            v1_buffer_limit: 64 << 20,
            v1_stream_unauthenticated: false,
            v1_quick_check: true,
        }
    }
}

/// The literal data packet's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiteralInfo {
    /// Format octet: `b` binary, `t` text, `u` UTF-8.
    pub format: u8,
    /// Stored file name (may be empty).
    pub filename: Vec<u8>,
    /// Stored date (seconds since 1970; 0 = none).
    pub date: u32,
}

/// The version of the SEIPD packet that was decrypted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeipdVersion {
    /// CFB + MDC.
    V1,
    /// AEAD chunks.
    V2,
}

type Src<'a> = Box<dyn Read + 'a>;

/// Decrypts a password-encrypted OpenPGP message (binary or armored,
/// SEIPD v1 or v2) as a stream.
///
/// [`Decryptor::new`] reads the session key packets, finds the session key
/// and reads up to the start of the literal data. Reading then yields the
/// literal data; for SEIPD v2 each chunk is released only after its tag
/// verifies, and `Ok(0)` (the end) only after the final tag verifies. An
/// error from `read` means the message is damaged, truncated or forged:
/// discard everything read from it.
pub struct Decryptor<'a> {
    info: LiteralInfo,
    body: Option<BodyReader<Src<'a>>>,
    session_key: SessionKey,
    version: SeipdVersion,
    done: bool,
}

impl std::fmt::Debug for Decryptor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decryptor").field("literal", &self.info).field("version", &self.version).finish_non_exhaustive()
    }
}

const MAX_SKESK: usize = 64;

/// Packets that may accompany the literal data and are skipped.
fn skippable(t: u8) -> bool {
    matches!(t, tag::MARKER | tag::PADDING | tag::SIGNATURE | tag::ONE_PASS_SIGNATURE)
}

/// Reads packets to the end of `r`, accepting only skippable ones. For an
/// encrypted stream, reaching the end is what verifies the final tag.
fn drain_packets(r: &mut dyn Read) -> Result<()> {
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

enum Decompress<'a> {
    Zip(DeflateDecoder<BodyReader<Src<'a>>>),
    Zlib(ZlibDecoder<BodyReader<Src<'a>>>),
}

/// A compressed data packet's contents; its end is reported only after the
/// rest of the enclosing stream has been read (and so verified).
struct Compressed<'a> {
    dec: Decompress<'a>,
    ended: bool,
}

impl Read for Compressed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let n = match &mut self.dec {
            Decompress::Zip(d) => d.read(buf),
            Decompress::Zlib(d) => d.read(buf),
        }
        .map_err(|e| {
            if e.get_ref().is_some_and(|i| i.is::<Error>()) { e } else { Error::Malformed("compressed data").into_io() }
        })?;
        if n == 0 && !buf.is_empty() {
            let body = match &mut self.dec {
                Decompress::Zip(d) => d.get_mut(),
                Decompress::Zlib(d) => d.get_mut(),
            };
            body.skip_rest()?;
            drain_packets(body.get_mut())?;
            self.ended = true;
        }
        Ok(n)
    }
}

impl<'a> Decryptor<'a> {
    /// Opens `input` with any of `passwords`.
    pub fn new<R: BufRead + 'a>(input: R, passwords: &[&[u8]]) -> Result<Self> {
        Self::with_options(input, passwords, &DecryptOptions::default())
    }

    /// Opens `input` with any of `passwords` (or `opts.session_key`).
    pub fn with_options<R: BufRead + 'a>(mut input: R, passwords: &[&[u8]], opts: &DecryptOptions) -> Result<Self> {
        let mut src: Src<'a> =
            if is_armored(&mut input)? { Box::new(ArmorReader::new(input)) } else { Box::new(input) };

        // Session key packets up to the encrypted data.
        let mut skesks: Vec<Skesk> = Vec::new();
        let mut unsupported_skesk = None;
        let seipd_len = loop {
            let Some(h) = read_header(&mut src)? else {
                return Err(if skesks.is_empty() {
                    Error::Malformed("no encrypted data packet")
                } else {
                    Error::Truncated("no encrypted data packet after the session key packets")
                });
            };
            match h.tag {
                tag::SKESK => {
                    if skesks.len() == MAX_SKESK {
                        return Err(Error::Limit("more than 64 SKESK packets"));
                    }
                    let mut body = [0u8; 512];
                    let n = read_small_body(&mut src, h.len, &mut body, "SKESK packet longer than 512 octets")?;
                    match Skesk::parse(&body[..n]) {
                        Ok(s) => skesks.push(s),
                        Err(
                            e @ (Error::Unsupported(_)
                            | Error::UnsupportedS2k(_)
                            | Error::UnsupportedCipher(_)
                            | Error::UnsupportedAead(_)),
                        ) => {
                            unsupported_skesk.get_or_insert(e);
                        }
                        Err(e) => return Err(e),
                    }
                }
                tag::PKESK | tag::MARKER | tag::PADDING => BodyReader::new(&mut src, h.len).skip_rest()?,
                tag::SEIPD => break h.len,
                tag::SED => return Err(Error::Unsupported("encrypted data without integrity protection (SED)")),
                tag::LITERAL | tag::COMPRESSED => return Err(Error::Unsupported("the message is not encrypted")),
                _ => return Err(Error::Malformed("unexpected packet before the encrypted data")),
            }
        };

        // Candidate session keys: v6 packets check the password; v4 packets
        // give a candidate to try on the data.
        let mut candidates: Vec<SessionKey> = Vec::new();
        let mut first_err: Option<Error> = None;
        if let Some(sk) = &opts.session_key {
            candidates.push(sk.clone());
        } else {
            if skesks.is_empty() {
                return Err(unsupported_skesk.unwrap_or(Error::NoPasswordPacket));
            }
            'outer: for pw in passwords {
                for s in &skesks {
                    match s.decrypt(pw, &opts.limits) {
                        Ok(k) => {
                            let v6 = matches!(s, Skesk::V6 { .. });
                            candidates.push(k);
                            if v6 {
                                break 'outer;
                            }
                        }
                        Err(Error::WrongPassword) => {}
                        Err(e) => {
                            first_err.get_or_insert(e);
                        }
                    }
                }
            }
            if candidates.is_empty() {
                return Err(first_err.unwrap_or(Error::WrongPassword));
            }
        }

        let mut body = SeipdBody { body: BodyReader::new(src, seipd_len), ended: false };
        let mut version = [0u8; 1];
        read_exact(&mut body, &mut version, "SEIPD packet")?;
        let (plain, session_key, version): (Src<'a>, SessionKey, SeipdVersion) = match version[0] {
            2 => {
                let mut h = [0u8; 35];
                read_exact(&mut body, &mut h, "SEIPD v2 header")?;
                let header = V2Header::parse(&h)?;
                let sk = candidates
                    .into_iter()
                    .find(|k| k.key.len() == header.cipher.key_len() && k.alg.is_none_or(|a| a == header.cipher))
                    .ok_or(Error::WrongPassword)?;
                let opener = ChunkOpener::new(body, &header, &sk.key)?;
                let sk = SessionKey { alg: Some(header.cipher), key: sk.key };
                (Box::new(opener), sk, SeipdVersion::V2)
            }
            1 => {
                let mut prefix = [0u8; 18];
                read_exact(&mut body, &mut prefix, "SEIPD v1 prefix")?;
                // v1 takes its cipher from the session key: it must name one
                // whose key length matches.
                let mut named = candidates.into_iter().filter(|k| k.alg.is_some_and(|a| a.key_len() == k.key.len()));
                let (sk, mut opener) = if opts.v1_quick_check {
                    let sk = named.find(|k| quick_check(&k.key, &prefix)).ok_or(Error::WrongPassword)?;
                    let opener = MdcOpener::with_prefix(body, &sk.key, &prefix)?;
                    (sk, opener)
                } else {
                    let sk = named.next().ok_or(Error::WrongPassword)?;
                    let opener = MdcOpener::without_quick_check(body, &sk.key, &prefix)?;
                    (sk, opener)
                };
                let plain: Src<'a> = if opts.v1_stream_unauthenticated {
                    Box::new(opener)
                } else {
                    // Unverified plaintext: every buffer it passes through is
                    // wiped when dropped, including those left behind by growth.
                    let mut all = zeroize::Zeroizing::new(Vec::new());
                    let mut chunk = zeroize::Zeroizing::new([0u8; 8192]);
                    loop {
                        let n = read_full(&mut opener, &mut chunk[..])?;
                        if n == 0 {
                            break;
                        }
                        if all.len() + n > opts.v1_buffer_limit {
                            return Err(Error::Limit(
                                "SEIPD v1 message larger than the buffer limit (it cannot be authenticated before its end)",
                            ));
                        }
                        if all.len() + n > all.capacity() {
                            let mut grown =
                                zeroize::Zeroizing::new(Vec::with_capacity((2 * all.capacity()).max(all.len() + n)));
                            grown.extend_from_slice(&all);
                            all = grown;
                        }
                        all.extend_from_slice(&chunk[..n]);
                    }
                    Box::new(io::Cursor::new(all))
                };
                (plain, sk, SeipdVersion::V1)
            }
            _ => return Err(Error::Unsupported("SEIPD version (1 and 2 are supported)")),
        };

        let (info, body) = open_literal(plain, 0)?;
        Ok(Decryptor { info, body: Some(body), session_key, version, done: false })
    }

    /// The literal data packet's metadata.
    pub fn literal(&self) -> &LiteralInfo {
        &self.info
    }

    /// The session key that opened the message, with its cipher.
    pub fn session_key(&self) -> &SessionKey {
        &self.session_key
    }

    /// Which SEIPD version the message used.
    pub fn seipd_version(&self) -> SeipdVersion {
        self.version
    }
}

/// Checks the repeated octets of a SEIPD v1 prefix under `key`.
fn quick_check(key: &[u8], prefix: &[u8; 18]) -> bool {
    let Ok(aes) = Aes::new(key) else { return false };
    let mut p = *prefix;
    super::cfb::Cfb::new(aes).decrypt(&mut p);
    p[14..16] == p[16..18]
}

/// Finds the literal data packet at the start of a plaintext packet stream,
/// through at most one compressed data packet.
fn open_literal(mut plain: Src<'_>, depth: u32) -> Result<(LiteralInfo, BodyReader<Src<'_>>)> {
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
            tag::COMPRESSED if depth == 0 => {
                let mut body = BodyReader::new(plain, h.len);
                let mut alg = [0u8; 1];
                read_exact(&mut body, &mut alg, "compressed data header")?;
                let inner: Src<'_> = match alg[0] {
                    0 => Box::new(StoredThenDrain { body, ended: false }),
                    1 => Box::new(Compressed { dec: Decompress::Zip(DeflateDecoder::new(body)), ended: false }),
                    2 => Box::new(Compressed { dec: Decompress::Zlib(ZlibDecoder::new(body)), ended: false }),
                    3 => return Err(Error::Unsupported("BZip2 compressed data")),
                    _ => return Err(Error::Unsupported("compression algorithm")),
                };
                return open_literal(inner, depth + 1);
            }
            tag::COMPRESSED => return Err(Error::Unsupported("nested compressed data")),
            t if skippable(t) => BodyReader::new(&mut plain, h.len).skip_rest()?,
            _ => return Err(Error::Malformed("unexpected packet in the encrypted data")),
        }
    }
}

/// The SEIPD packet's body. Its end is reported only after the rest of the
/// input has been read and holds nothing but packets that may be skipped
/// (for armor, this also reads and checks the END line): no trailing data
/// after the encrypted data is ignored.
struct SeipdBody<'a> {
    body: BodyReader<Src<'a>>,
    ended: bool,
}

impl Read for SeipdBody<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.body.read(buf)?;
        if n == 0 && !buf.is_empty() && !self.ended {
            drain_packets(self.body.get_mut())?;
            self.ended = true;
        }
        Ok(n)
    }
}

/// "Uncompressed" compressed data: the body as is, then the rest of the
/// enclosing stream drained.
struct StoredThenDrain<'a> {
    body: BodyReader<Src<'a>>,
    ended: bool,
}

impl Read for StoredThenDrain<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let n = self.body.read(buf)?;
        if n == 0 && !buf.is_empty() {
            drain_packets(self.body.get_mut())?;
            self.ended = true;
        }
        Ok(n)
    }
}

impl Read for Decryptor<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        let body = self.body.as_mut().expect("present until done");
        let n = body.read(buf)?;
        if n == 0 {
            // The literal data ended: read the rest of the plaintext stream,
            // which verifies the final tag (or MDC).
            drain_packets(body.get_mut())?;
            self.done = true;
            self.body = None;
        }
        Ok(n)
    }
}
