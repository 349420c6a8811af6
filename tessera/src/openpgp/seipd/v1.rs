//! SEIPD v1 (RFC 9580 §5.13.1): CFB over a random prefix, the plaintext
//! and a Modification Detection Code packet.

use std::io::{self, Read, Write};

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use super::mdc_hash::MdcHash;
use super::{Room, V1_PREFIX_LEN, write_over_room};
use crate::openpgp::cfb::Cfb;
use crate::openpgp::packet::{new_header, tag};
use crate::openpgp::poison::{Poison, read_checked};
use crate::openpgp::{Error, Result};

/// The cipher block: the prefix is one random block and its last two octets again.
const BLOCK: usize = size_of::<crate::aes::Block>();

/// Writes a SEIPD v1 body after its version octet: CFB over a random
/// prefix, the plaintext and the MDC packet. Call [`MdcSealer::finish`].
pub struct MdcSealer<W: Write> {
    inner: W,
    cfb: Cfb,
    hash: MdcHash,
    /// The plaintext encrypted in place (SHA-1 inline), or the ciphertext
    /// of the plaintext in the hash thread's buffers.
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
    // Only the fuzz harness and the tests use this.
    #[cfg(feature = "internals")]
    /// Starts the body with `session_key` (16, 24 or 32 octets), hashing on
    /// the caller's thread.
    pub fn new(inner: W, session_key: &[u8]) -> Result<Self> {
        Self::with_threads(inner, session_key, 1)
    }

    /// Starts the body with `session_key` (16, 24 or 32 octets), the MDC's
    /// SHA-1 on a thread of its own when `threads` > 1, beside the CFB
    /// chain on the caller's (on the caller's thread otherwise): the same
    /// octets either way.
    pub fn with_threads(inner: W, session_key: &[u8], threads: usize) -> Result<Self> {
        let mut random = [0u8; BLOCK];
        crate::openpgp::random(&mut random)?;
        Self::start(inner, session_key, threads, random)
    }

    /// Starts the body with the prefix block `random`.
    fn start(mut inner: W, session_key: &[u8], threads: usize, random: [u8; BLOCK]) -> Result<Self> {
        let mut cfb = Cfb::with_key(session_key).map_err(|_| Error::InvalidOption("session key length"))?;
        let mut prefix = [0u8; V1_PREFIX_LEN];
        prefix[..BLOCK].copy_from_slice(&random);
        prefix[BLOCK] = prefix[BLOCK - 2];
        prefix[BLOCK + 1] = prefix[BLOCK - 1];
        let hash = MdcHash::new(&prefix, threads);
        cfb.encrypt(&mut prefix);
        inner.write_all(&prefix)?;
        Ok(MdcSealer { inner, cfb, hash, scratch: vec![0u8; MDC_SCRATCH], poison: Poison::default() })
    }

    /// Writes the MDC packet and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.poison.check()?;
        let mut mdc = [0u8; MDC_LEN];
        mdc[..2].copy_from_slice(&MDC_HEADER);
        self.hash.update(&MDC_HEADER)?;
        mdc[2..].copy_from_slice(&self.hash.finalize()?);
        self.cfb.encrypt(&mut mdc);
        self.inner.write_all(&mdc)?;
        Ok(self.inner)
    }

    /// Encrypts the `n` plaintext octets filled last in the hash thread's
    /// buffer through the scratch buffer and writes them.
    fn seal_handed_off(&mut self, n: usize) -> io::Result<()> {
        let MdcHash::Thread(t) = &mut self.hash else { return Ok(()) };
        t.advance(n)?;
        for p in t.last_filled(n).chunks(MDC_SCRATCH) {
            let c = &mut self.scratch[..p.len()];
            self.cfb.encrypt_to(p, c);
            self.inner.write_all(c)?;
        }
        Ok(())
    }
}

write_over_room!(MdcSealer);

impl<W: Write> Room for MdcSealer<W> {
    fn room(&mut self) -> io::Result<&mut [u8]> {
        self.poison.check()?;
        match &mut self.hash {
            MdcHash::Inline { .. } => Ok(&mut self.scratch[..]),
            MdcHash::Thread(t) => t.room().map_err(|e| self.poison.record_final::<()>(Err(e)).unwrap_err()),
        }
    }

    /// Hashes, encrypts and writes the first `n` octets of the last room.
    fn advance(&mut self, n: usize) -> io::Result<()> {
        let r = match &mut self.hash {
            MdcHash::Inline { .. } => {
                let s = &mut self.scratch[..n];
                match self.hash.update(&*s) {
                    Ok(()) => {
                        self.cfb.encrypt(s);
                        self.inner.write_all(s)
                    }
                    Err(e) => Err(e),
                }
            }
            MdcHash::Thread(_) => self.seal_handed_off(n),
        };
        // The CFB state and the hash have moved on: a retry would repeat them.
        self.poison.record_final(r)
    }
}

/// Reads a SEIPD v1 body after its version octet. The last 22 octets (the
/// MDC packet) are held back; the end of input is reported only after the
/// MDC verifies.
///
/// **Plaintext read before the end is not yet authenticated** (CFB + MDC
/// cannot be checked earlier). [`crate::openpgp::Decryptor`] therefore buffers v1
/// messages (up to a limit) unless the caller opts into streaming, as the
/// CLI does when writing to a temporary file renamed only on success.
///
/// An I/O error of `inner` keeps what was read so far: the next `read`
/// continues. A failed MDC or a truncated input is final.
pub struct MdcOpener<R: Read> {
    inner: R,
    cfb: Cfb,
    hash: MdcHash,
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

/// Octets of a SHA-1 digest, the MDC packet's body.
const SHA1_LEN: usize = 20;

/// The MDC packet's header octets (new format, tag 19, length 20), hashed
/// with the data.
const MDC_HEADER: [u8; 2] = [new_header(tag::MDC), SHA1_LEN as u8];

/// Octets of the MDC packet: its header and a SHA-1.
pub(crate) const MDC_LEN: usize = MDC_HEADER.len() + SHA1_LEN;

/// Octets encrypted or decrypted at a time by the v1 sealer and opener.
const MDC_SCRATCH: usize = 1 << 16;

impl<R: Read> MdcOpener<R> {
    // Only the fuzz harness and the tests use this.
    #[cfg(feature = "internals")]
    /// Continues after the 18-octet `prefix` (already read from `inner`)
    /// and checks its repeated octets (a wrong key shows there with
    /// probability 1 - 2^-16: [`Error::WrongPassword`]).
    pub fn with_prefix(inner: R, session_key: &[u8], prefix: &[u8; V1_PREFIX_LEN]) -> Result<Self> {
        Self::open(inner, session_key, prefix, true, 1)
    }

    /// As `MdcOpener::with_prefix` (feature `internals`), without the quick check: a wrong key
    /// shows only as an MDC failure at the end ([`Error::Authentication`]), the same
    /// error as modified data (see `DecryptOptions::v1_quick_check`).
    pub fn without_quick_check(inner: R, session_key: &[u8], prefix: &[u8; V1_PREFIX_LEN]) -> Result<Self> {
        Self::open(inner, session_key, prefix, false, 1)
    }

    /// As [`MdcOpener::without_quick_check`], the MDC's SHA-1 on a thread of
    /// its own when `threads` > 1, beside the decryption on the caller's.
    pub(crate) fn with_threads(
        inner: R,
        session_key: &[u8],
        prefix: &[u8; V1_PREFIX_LEN],
        threads: usize,
    ) -> Result<Self> {
        Self::open(inner, session_key, prefix, false, threads)
    }

    fn open(
        inner: R,
        session_key: &[u8],
        prefix: &[u8; V1_PREFIX_LEN],
        quick_check: bool,
        threads: usize,
    ) -> Result<Self> {
        let mut cfb = Cfb::with_key(session_key).map_err(|_| Error::WrongPassword)?;
        let mut prefix = *prefix;
        cfb.decrypt(&mut prefix);
        if quick_check && prefix[BLOCK - 2..BLOCK] != prefix[BLOCK..] {
            return Err(Error::WrongPassword);
        }
        Ok(MdcOpener {
            inner,
            cfb,
            hash: MdcHash::new(&prefix, threads),
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
        self.hash.update(&self.buf[self.hashed..body_end + 2]).map_err(Error::from_io)?;
        let hash = std::mem::replace(&mut self.hash, MdcHash::new(&[], 1));
        let digest = hash.finalize().map_err(Error::from_io)?;
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
                let hashed = self.hash.update(&self.buf[self.hashed..end]);
                self.poison.record_final(hashed)?;
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

#[cfg(test)]
#[path = "v1_tests.rs"]
mod tests;
