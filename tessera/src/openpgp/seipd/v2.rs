//! SEIPD v2 (RFC 9580 §5.13.2): HKDF-derived message key, AEAD chunks and
//! the final tag over the total length.

use std::io::{self, Read, Write};

use hkdf::Hkdf;
use sha2::Sha256;
use zeroize::{Zeroize, Zeroizing};

use super::{MAX_CHUNK_OCTET, Room, V2_HEADER_LEN, chunk_size, write_over_room};
use crate::TAG_LEN;
use crate::aead::{Aad, Aead, AeadInPlace, Mode, Nonce};
use crate::openpgp::packet::{new_header, tag};
use crate::openpgp::poison::{Poison, read_checked};
use crate::openpgp::{Error, Result, SymAlg};

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
    pub fn encode(&self) -> [u8; 1 + V2_HEADER_LEN] {
        let mut b = [0u8; 1 + V2_HEADER_LEN];
        b[..4].copy_from_slice(&[2, self.cipher.id(), self.aead.id(), self.chunk_octet]);
        b[4..].copy_from_slice(&self.salt);
        b
    }

    /// The associated data of every chunk: 0xD2 || 2 || cipher || aead || chunk octet.
    pub fn ad(&self) -> [u8; 5] {
        [new_header(tag::SEIPD), 2, self.cipher.id(), self.aead.id(), self.chunk_octet]
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

/// The chunk nonces, `IV || big-endian index`, built in place.
#[derive(Debug, Clone)]
pub(crate) struct ChunkNonce {
    bytes: [u8; 16],
    len: usize,
}

impl ChunkNonce {
    pub(crate) fn new(iv: &[u8]) -> Self {
        let mut bytes = [0u8; 16];
        bytes[..iv.len()].copy_from_slice(iv);
        ChunkNonce { bytes, len: iv.len() + 8 }
    }
    /// The nonce of chunk `index` (or of the final tag, whose index is the
    /// chunk count): unique per key because the index is.
    pub(crate) fn at(&mut self, index: u64) -> Nonce<'_> {
        self.bytes[self.len - 8..self.len].copy_from_slice(&index.to_be_bytes());
        Nonce::assume_unique_for_key(&self.bytes[..self.len])
    }
}

struct ChunkState {
    aead: Aead,
    nonce: ChunkNonce,
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
            nonce: ChunkNonce::new(&iv),
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
    /// Plaintext until sealed: wiped when dropped.
    buf: Zeroizing<Vec<u8>>,
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
        let buf = Zeroizing::new(vec![0u8; st.chunk + TAG_LEN]);
        Ok(ChunkSealer { inner, st, buf, fill: 0, empty_chunk_when_empty: true, poison: Poison::default() })
    }

    // Only the fuzz harness and the tests use this.
    #[cfg(feature = "internals")]
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
            .seal_in_place_separate_tag(nonce, Aad::new(&self.st.ad[..5]), &mut self.buf[..n])
            .map_err(Error::from)?;
        self.buf[n..n + TAG_LEN].copy_from_slice(&tag);
        // Sealed in place: a retry would seal the chunk again under its nonce.
        let written = self.inner.write_all(&self.buf[..n + TAG_LEN]);
        self.poison.record_final(written)?;
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
        let tag = self.st.aead.seal_in_place_separate_tag(nonce, Aad::new(&ad), &mut []).map_err(Error::from)?;
        self.inner.write_all(&tag)?;
        Ok(self.inner)
    }
}

write_over_room!(ChunkSealer);

impl<W: Write> Room for ChunkSealer<W> {
    fn room(&mut self) -> io::Result<&mut [u8]> {
        self.poison.check()?;
        // A full chunk is sealed only once more data arrives, so the last
        // chunk is never empty unless the whole plaintext is.
        if self.fill == self.st.chunk {
            self.seal_chunk()?;
        }
        Ok(&mut self.buf[self.fill..self.st.chunk])
    }

    fn advance(&mut self, n: usize) -> io::Result<()> {
        self.fill += n;
        Ok(())
    }
}

/// Reads a SEIPD v2 body (after its header) and yields the plaintext, each
/// chunk only after its tag verifies, and the end of input only after the
/// final tag verifies (a truncated message can thus end after a whole
/// chunk that verified: the missing final tag is then the error that
/// `read` returns instead of the end of input).
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

    // Only the fuzz harness and the tests use this.
    #[cfg(feature = "internals")]
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
            .open_in_place_separate_tag(nonce, Aad::new(&self.st.ad[..5]), data, tag)
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
        if self.st.aead.open_in_place_separate_tag(nonce, Aad::new(&ad), &mut [], &final_tag).is_err() {
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
