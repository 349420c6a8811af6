//! Symmetrically Encrypted and Integrity Protected Data (RFC 9580 §5.13).
//!
//! - v2 (§5.13.2): the session key and a 32-octet salt give, by
//!   HKDF-SHA256 with info `0xD2 || 2 || cipher || aead || chunk octet`, the
//!   message key and an IV of N-8 octets; chunk i is sealed with the nonce
//!   `IV || i` (big-endian 64-bit) and the five info octets as associated
//!   data; after the last chunk comes a tag over the empty string with the
//!   next index as nonce and the info octets plus the total plaintext length
//!   (big-endian 64-bit) as associated data.
//! - v1 (§5.13.1): CFB with a zero IV over a random block-size prefix (its
//!   last two octets repeated), the plaintext and an MDC packet holding the
//!   SHA-1 of everything before it.
//!
//! [`ChunkSealer`] and [`ChunkOpener`] each own one buffer of a chunk plus
//! one or two tags, sealed or opened in place; the nonce is updated in
//! place. Nothing else is allocated per message.

use std::io::{self, Read, Write};

use hkdf::Hkdf;
use sha1::{Digest, Sha1};
use sha2::Sha256;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use super::cfb::Cfb;
use super::poison::{Poison, read_checked};
use super::{Error, Result, SymAlg};
use crate::TAG_LEN;
use crate::aead::{Aead, AeadInPlace, Mode};
use crate::aes::Aes;

/// Octets of a SEIPD v2 header after the version octet: cipher, AEAD mode,
/// chunk size octet and the 32-octet salt.
pub const V2_HEADER_LEN: usize = 35;

/// Octets of the SEIPD v1 prefix: a random block and its last two octets
/// repeated (the quick check).
pub const V1_PREFIX_LEN: usize = 18;

/// Largest chunk size octet RFC 9580 allows (chunks of 2^22 octets).
pub const MAX_CHUNK_OCTET: u8 = 16;

/// Chunk size in octets for a chunk size octet: 2^(c+6).
pub fn chunk_size(octet: u8) -> usize {
    1usize << (octet as u32 + 6)
}

/// The header of a SEIPD v2 packet body (after the version octet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2Header {
    /// Message cipher.
    pub cipher: SymAlg,
    /// AEAD mode.
    pub aead: Mode,
    /// Chunk size octet (0..=16).
    pub chunk_octet: u8,
    /// 32-octet salt.
    pub salt: [u8; 32],
}

impl V2Header {
    /// Parses the 35 octets after the version octet.
    pub fn parse(b: &[u8; V2_HEADER_LEN]) -> Result<V2Header> {
        let cipher = SymAlg::from_id(b[0])?;
        let aead = Mode::from_id(b[1])?;
        if b[2] > MAX_CHUNK_OCTET {
            return Err(Error::Malformed("SEIPD v2 chunk size octet above 16"));
        }
        Ok(V2Header { cipher, aead, chunk_octet: b[2], salt: b[3..].try_into().expect("32") })
    }

    /// The body prefix: version 2, then the header.
    pub fn encode(&self) -> [u8; 36] {
        let mut b = [0u8; 36];
        b[..4].copy_from_slice(&[2, self.cipher.id(), self.aead.id(), self.chunk_octet]);
        b[4..].copy_from_slice(&self.salt);
        b
    }

    /// The associated data of every chunk: 0xD2 || 2 || cipher || aead || chunk octet.
    pub fn ad(&self) -> [u8; 5] {
        [0xd2, 2, self.cipher.id(), self.aead.id(), self.chunk_octet]
    }

    /// HKDF-SHA256 message key and IV (N-8 octets) from the session key.
    pub fn message_key(&self, session_key: &[u8]) -> Result<(Zeroizing<Vec<u8>>, Vec<u8>)> {
        if session_key.len() != self.cipher.key_len() {
            return Err(Error::WrongPassword);
        }
        let klen = self.cipher.key_len();
        let ivlen = self.aead.nonce_len() - 8;
        let mut okm = Zeroizing::new([0u8; 32 + 16]);
        Hkdf::<Sha256>::new(Some(&self.salt), session_key)
            .expand(&self.ad(), &mut okm[..klen + ivlen])
            .expect("short output");
        Ok((Zeroizing::new(okm[..klen].to_vec()), okm[klen..klen + ivlen].to_vec()))
    }
}

/// A chunk nonce, `IV || big-endian index`, updated in place.
#[derive(Debug, Clone)]
struct Nonce {
    bytes: [u8; 16],
    len: usize,
}

impl Nonce {
    fn new(iv: &[u8]) -> Self {
        let mut bytes = [0u8; 16];
        bytes[..iv.len()].copy_from_slice(iv);
        Nonce { bytes, len: iv.len() + 8 }
    }
    fn at(&mut self, index: u64) -> &[u8] {
        self.bytes[self.len - 8..self.len].copy_from_slice(&index.to_be_bytes());
        &self.bytes[..self.len]
    }
}

struct ChunkState {
    aead: Aead,
    nonce: Nonce,
    /// Chunk associated data, then the total length for the final tag.
    ad: [u8; 13],
    chunk: usize,
    index: u64,
    total: u64,
}

impl ChunkState {
    fn new(header: &V2Header, session_key: &[u8]) -> Result<Self> {
        let (key, iv) = header.message_key(session_key)?;
        let mut ad = [0u8; 13];
        ad[..5].copy_from_slice(&header.ad());
        Ok(ChunkState {
            aead: Aead::new(header.aead, &key)?,
            nonce: Nonce::new(&iv),
            ad,
            chunk: chunk_size(header.chunk_octet),
            index: 0,
            total: 0,
        })
    }
    fn final_ad(&mut self) -> &[u8; 13] {
        self.ad[5..].copy_from_slice(&self.total.to_be_bytes());
        &self.ad
    }
}

/// Writes the chunks and the final tag of a SEIPD v2 body (after its
/// 36-octet header) to `inner`. Call [`ChunkSealer::finish`].
pub struct ChunkSealer<W: Write> {
    inner: W,
    st: ChunkState,
    buf: Vec<u8>,
    fill: usize,
    empty_chunk_when_empty: bool,
    /// After an error of `inner` the chunk may be sealed but not written:
    /// sealing it again would reuse its nonce, so every later call fails.
    poison: Poison,
}

impl<W: Write> std::fmt::Debug for ChunkSealer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkSealer").field("chunk", &self.st.chunk).field("index", &self.st.index).finish()
    }
}

impl<W: Write> ChunkSealer<W> {
    /// Seals with the message key derived from `session_key` and `header`.
    pub fn new(inner: W, header: &V2Header, session_key: &[u8]) -> Result<Self> {
        let st = ChunkState::new(header, session_key)?;
        let buf = vec![0u8; st.chunk + TAG_LEN];
        Ok(ChunkSealer { inner, st, buf, fill: 0, empty_chunk_when_empty: true, poison: Poison::default() })
    }

    /// For an empty plaintext, whether to write one empty chunk before the
    /// final tag (the default) or none. Readers must accept both.
    pub fn empty_chunk_when_empty(&mut self, yes: bool) {
        self.empty_chunk_when_empty = yes;
    }

    fn seal_chunk(&mut self) -> io::Result<()> {
        self.poison.check()?;
        let n = self.fill;
        let nonce = self.st.nonce.at(self.st.index);
        let tag = self
            .st
            .aead
            .seal_in_place_separate_tag(nonce, &self.st.ad[..5], &mut self.buf[..n])
            .map_err(Error::from)?;
        self.buf[n..n + TAG_LEN].copy_from_slice(&tag);
        let written = self.inner.write_all(&self.buf[..n + TAG_LEN]);
        self.poison.record(written)?;
        self.st.index += 1;
        self.st.total += n as u64;
        self.fill = 0;
        Ok(())
    }

    /// Seals the last chunk, writes the final tag and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.poison.check()?;
        if self.fill > 0 || (self.st.index == 0 && self.empty_chunk_when_empty) {
            self.seal_chunk()?;
        }
        let index = self.st.index;
        let ad = *self.st.final_ad();
        let nonce = self.st.nonce.at(index);
        let tag = self.st.aead.seal_in_place_separate_tag(nonce, &ad, &mut []).map_err(Error::from)?;
        self.inner.write_all(&tag)?;
        self.buf.zeroize();
        Ok(self.inner)
    }
}

impl<W: Write> Write for ChunkSealer<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    fn write_all(&mut self, mut data: &[u8]) -> io::Result<()> {
        self.poison.check()?;
        while !data.is_empty() {
            // A full chunk is sealed only once more data arrives, so the last
            // chunk is never empty unless the whole plaintext is.
            if self.fill == self.st.chunk {
                self.seal_chunk()?;
            }
            let k = (self.st.chunk - self.fill).min(data.len());
            self.buf[self.fill..self.fill + k].copy_from_slice(&data[..k]);
            self.fill += k;
            data = &data[k..];
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.poison.check()?;
        let r = self.inner.flush();
        self.poison.record(r)
    }
}

/// Reads a SEIPD v2 body (after its header) and yields the plaintext, each
/// chunk only after its tag verifies, and the end of input only after the
/// final tag verifies. The last chunk is released only together with the
/// final tag.
///
/// An I/O error of `inner` keeps what was read so far: the next `read`
/// continues. A failed tag or a truncated input is final: every later
/// `read` fails with the same error.
pub struct ChunkOpener<R: Read> {
    inner: R,
    st: ChunkState,
    /// Chunk + tag + the next 16 octets (a tag, when the input ends there).
    buf: Vec<u8>,
    fill: usize,
    out_pos: usize,
    out_end: usize,
    /// Start of look-ahead octets to keep after the released chunk.
    keep_from: usize,
    done: bool,
    poison: Poison,
}

impl<R: Read> std::fmt::Debug for ChunkOpener<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkOpener").field("chunk", &self.st.chunk).field("index", &self.st.index).finish()
    }
}

impl<R: Read> ChunkOpener<R> {
    /// Opens with the message key derived from `session_key` and `header`.
    pub fn new(inner: R, header: &V2Header, session_key: &[u8]) -> Result<Self> {
        let st = ChunkState::new(header, session_key)?;
        let buf = vec![0u8; st.chunk + 2 * TAG_LEN];
        Ok(ChunkOpener {
            inner,
            st,
            buf,
            fill: 0,
            out_pos: 0,
            out_end: 0,
            keep_from: 0,
            done: false,
            poison: Poison::default(),
        })
    }

    /// The underlying reader.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Fills the buffer from `inner`; `Ok(true)` when the input ended
    /// first. An error leaves `fill` counting every octet read.
    fn fill_buf(&mut self) -> io::Result<bool> {
        while self.fill < self.buf.len() {
            match read_checked(&mut self.inner, &mut self.buf[self.fill..]) {
                Ok(0) => return Ok(true),
                Ok(n) => self.fill += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    fn open_chunk(&mut self, len: usize) -> Result<()> {
        let (data, rest) = self.buf.split_at_mut(len);
        let tag: &[u8; TAG_LEN] = rest[..TAG_LEN].try_into().expect("16");
        let nonce = self.st.nonce.at(self.st.index);
        self.st
            .aead
            .open_in_place_separate_tag(nonce, &self.st.ad[..5], data, tag)
            .map_err(|_| Error::Authentication("chunk"))?;
        self.st.index += 1;
        self.st.total += len as u64;
        Ok(())
    }

    /// Verifies what the filled buffer holds: a whole chunk and its tag, or
    /// (at the end of input) the last chunk, its tag and the final tag.
    fn open_filled(&mut self, ended: bool) -> Result<()> {
        let chunk = self.st.chunk;
        if !ended {
            self.open_chunk(chunk)?;
            self.out_end = chunk;
            self.keep_from = chunk + TAG_LEN;
            return Ok(());
        }
        let n = self.fill;
        if n < TAG_LEN || (n > TAG_LEN && n < 2 * TAG_LEN) {
            return Err(Error::Truncated("SEIPD v2 chunk or final tag missing"));
        }
        let mut last = 0;
        if n >= 2 * TAG_LEN {
            last = n - 2 * TAG_LEN;
            self.open_chunk(last)?;
        }
        let final_tag: [u8; TAG_LEN] = self.buf[n - TAG_LEN..n].try_into().expect("16");
        let index = self.st.index;
        let ad = *self.st.final_ad();
        let nonce = self.st.nonce.at(index);
        if self.st.aead.open_in_place_separate_tag(nonce, &ad, &mut [], &final_tag).is_err() {
            self.buf[..last].zeroize();
            return Err(Error::Authentication("final tag: the message was truncated or modified"));
        }
        self.out_end = last;
        self.keep_from = n;
        self.done = true;
        Ok(())
    }
}

impl<R: Read> Read for ChunkOpener<R> {
    fn read(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        while self.out_pos == self.out_end {
            if self.done || dst.is_empty() {
                return Ok(0);
            }
            if self.keep_from > 0 {
                // Move the look-ahead after the released chunk to the front.
                self.buf.copy_within(self.keep_from..self.fill, 0);
                self.fill -= self.keep_from;
                self.keep_from = 0;
                self.out_pos = 0;
                self.out_end = 0;
            }
            let ended = self.fill_buf()?;
            self.open_filled(ended).map_err(|e| self.poison.set(e))?;
        }
        let k = (self.out_end - self.out_pos).min(dst.len());
        dst[..k].copy_from_slice(&self.buf[self.out_pos..self.out_pos + k]);
        self.out_pos += k;
        Ok(k)
    }
}

impl<R: Read> Drop for ChunkOpener<R> {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

/// Writes a SEIPD v1 body after its version octet: CFB over a random
/// prefix, the plaintext and the MDC packet. Call [`MdcSealer::finish`].
pub struct MdcSealer<W: Write> {
    inner: W,
    cfb: Cfb,
    sha: Sha1,
    scratch: Vec<u8>,
    /// After an error of `inner` the CFB state is ahead of what was written.
    poison: Poison,
}

impl<W: Write> std::fmt::Debug for MdcSealer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MdcSealer(..)")
    }
}

impl<W: Write> MdcSealer<W> {
    /// Starts the body with `session_key` (16, 24 or 32 octets).
    pub fn new(mut inner: W, session_key: &[u8]) -> Result<Self> {
        let aes = Aes::new(session_key).map_err(|_| Error::InvalidOption("session key length"))?;
        let mut prefix = [0u8; 18];
        super::random(&mut prefix[..16])?;
        prefix[16] = prefix[14];
        prefix[17] = prefix[15];
        let mut sha = Sha1::new();
        sha.update(prefix);
        let mut cfb = Cfb::new(aes);
        cfb.encrypt(&mut prefix);
        inner.write_all(&prefix)?;
        Ok(MdcSealer { inner, cfb, sha, scratch: vec![0u8; MDC_SCRATCH], poison: Poison::default() })
    }

    /// Writes the MDC packet and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.poison.check()?;
        let mut mdc = [0u8; MDC_LEN];
        mdc[..2].copy_from_slice(&MDC_HEADER);
        self.sha.update(MDC_HEADER);
        mdc[2..].copy_from_slice(&self.sha.clone().finalize());
        self.cfb.encrypt(&mut mdc);
        self.inner.write_all(&mdc)?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for MdcSealer<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }
    fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        self.poison.check()?;
        self.sha.update(data);
        for piece in data.chunks(self.scratch.len()) {
            let s = &mut self.scratch[..piece.len()];
            s.copy_from_slice(piece);
            self.cfb.encrypt(s);
            let written = self.inner.write_all(s);
            self.poison.record(written)?;
        }
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.poison.check()?;
        let r = self.inner.flush();
        self.poison.record(r)
    }
}

/// Reads a SEIPD v1 body after its version octet. The last 22 octets (the
/// MDC packet) are held back; the end of input is reported only after the
/// MDC verifies.
///
/// **Plaintext read before the end is not yet authenticated** (CFB + MDC
/// cannot be checked earlier). [`super::Decryptor`] therefore buffers v1
/// messages (up to a limit) unless the caller opts into streaming, as the
/// CLI does when writing to a temporary file renamed only on success.
///
/// An I/O error of `inner` keeps what was read so far: the next `read`
/// continues. A failed MDC or a truncated input is final.
pub struct MdcOpener<R: Read> {
    inner: R,
    cfb: Cfb,
    sha: Sha1,
    buf: Vec<u8>,
    /// Decrypted octets held in buf[..held] (the last 22 may be the MDC).
    held: usize,
    /// Octets of buf[..hashed] are in `sha`.
    hashed: usize,
    pos: usize,
    done: bool,
    poison: Poison,
}

impl<R: Read> std::fmt::Debug for MdcOpener<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MdcOpener(..)")
    }
}

/// Octets of the MDC packet: its header (tag 19, length 20) and a SHA-1.
const MDC_LEN: usize = 22;

/// The MDC packet's header octets, hashed with the data.
const MDC_HEADER: [u8; 2] = [0xd3, 0x14];

/// Octets encrypted or decrypted at a time by the v1 sealer and opener.
const MDC_SCRATCH: usize = 1 << 16;

impl<R: Read> MdcOpener<R> {
    /// Continues after the 18-octet `prefix` (already read from `inner`)
    /// and checks its repeated octets (a wrong key shows there with
    /// probability 1 - 2^-16: [`Error::WrongPassword`]).
    pub fn with_prefix(inner: R, session_key: &[u8], prefix: &[u8; V1_PREFIX_LEN]) -> Result<Self> {
        Self::open(inner, session_key, prefix, true)
    }

    /// As [`MdcOpener::with_prefix`], without the quick check: a wrong key
    /// shows only as an MDC failure at the end ([`Error::Authentication`]), the same
    /// error as modified data (see `DecryptOptions::v1_quick_check`).
    pub fn without_quick_check(inner: R, session_key: &[u8], prefix: &[u8; V1_PREFIX_LEN]) -> Result<Self> {
        Self::open(inner, session_key, prefix, false)
    }

    fn open(inner: R, session_key: &[u8], prefix: &[u8; V1_PREFIX_LEN], quick_check: bool) -> Result<Self> {
        let aes = Aes::new(session_key).map_err(|_| Error::WrongPassword)?;
        let mut cfb = Cfb::new(aes);
        let mut prefix = *prefix;
        cfb.decrypt(&mut prefix);
        if quick_check && prefix[14..16] != prefix[16..18] {
            return Err(Error::WrongPassword);
        }
        let mut sha = Sha1::new();
        sha.update(prefix);
        Ok(MdcOpener {
            inner,
            cfb,
            sha,
            buf: vec![0u8; MDC_SCRATCH],
            held: 0,
            hashed: 0,
            pos: 0,
            done: false,
            poison: Poison::default(),
        })
    }

    /// Reads and decrypts until the buffer is full; `Ok(true)` when the
    /// input ended first. An error keeps every octet read in `held`.
    fn fill(&mut self) -> io::Result<bool> {
        while self.held < self.buf.len() {
            let start = self.held;
            match read_checked(&mut self.inner, &mut self.buf[start..]) {
                Ok(0) => return Ok(true),
                Ok(n) => {
                    self.cfb.decrypt(&mut self.buf[start..start + n]);
                    self.held += n;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    /// At the end of input: the last 22 octets held must be the MDC packet
    /// over everything before it.
    fn check_mdc(&mut self) -> Result<()> {
        if self.held < MDC_LEN {
            return Err(Error::Truncated("SEIPD v1 MDC missing"));
        }
        let body_end = self.held - MDC_LEN;
        self.sha.update(&self.buf[self.hashed..body_end + 2]);
        let digest = self.sha.clone().finalize();
        let mdc = &self.buf[body_end..self.held];
        let ok = mdc[..2] == MDC_HEADER && bool::from(mdc[2..].ct_eq(&digest[..]));
        if !ok {
            self.buf.zeroize();
            self.held = 0;
            self.pos = 0;
            return Err(Error::Authentication("MDC"));
        }
        self.held = body_end;
        self.hashed = body_end;
        self.done = true;
        Ok(())
    }
}

impl<R: Read> Read for MdcOpener<R> {
    fn read(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        loop {
            // Octets hashed are plaintext: all but the last 22 of a full
            // buffer (once done, the MDC has been cut off and everything held
            // is). Octets read after an I/O error wait for the buffer to fill.
            let avail_end = if self.done { self.held } else { self.hashed };
            if self.pos < avail_end {
                let k = (avail_end - self.pos).min(dst.len());
                dst[..k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
                self.pos += k;
                return Ok(k);
            }
            if self.done || dst.is_empty() {
                return Ok(0);
            }
            // Keep the unreleased tail, refill.
            self.buf.copy_within(self.pos..self.held, 0);
            self.held -= self.pos;
            self.hashed -= self.pos;
            self.pos = 0;
            if self.fill()? {
                self.check_mdc().map_err(|e| self.poison.set(e))?;
            } else {
                let end = self.held - MDC_LEN;
                self.sha.update(&self.buf[self.hashed..end]);
                self.hashed = end;
            }
        }
    }
}

impl<R: Read> Drop for MdcOpener<R> {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}
