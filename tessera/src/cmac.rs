//! AES-CMAC (RFC 4493, NIST SP 800-38B): a MAC over AES-128/192/256.
//!
//! [`Cmac`] expands the key schedule and derives the subkeys K1 and K2
//! (RFC 4493 section 2.3) once, at construction. Tagging takes `&self`,
//! touches no heap, and runs the CBC chain inside one call of the AES
//! backend so the round keys stay in registers: each block costs one
//! AES latency (the serial floor) and one 128-bit XOR.

use aes::cipher::consts::U16;
use aes::cipher::{BlockCipherEncBackend, BlockCipherEncClosure, BlockSizeUser};
use zeroize::Zeroize;

use crate::Error;
use crate::aes::block::{dbl, enc, load, pad, xor, xor_int};
use crate::aes::{Aes, Block};

#[cfg(target_arch = "x86_64")]
pub(crate) mod ni;

/// The CBC-MAC chain: `x = E(x ^ m)` for every 16-byte block of `blocks`
/// (whose length must be a multiple of 16), then for every block of `tail`.
struct Chain<'a> {
    x: &'a mut Block,
    blocks: &'a [u8],
    tail: &'a [Block],
}

impl BlockSizeUser for Chain<'_> {
    type BlockSize = U16;
}

impl BlockCipherEncClosure for Chain<'_> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        let mut x = *self.x;
        for m in self.blocks.chunks_exact(16) {
            x = enc(backend, xor(&x, &load(m)));
        }
        for m in self.tail {
            x = enc(backend, xor(&x, m));
        }
        *self.x = x;
    }
}

/// Runs the CBC-MAC chain over `blocks` (a multiple of 16 bytes) then `tail`.
#[inline]
pub(crate) fn chain(aes: &Aes, x: &mut Block, blocks: &[u8], tail: &[Block]) {
    debug_assert_eq!(blocks.len() % 16, 0);
    aes.with_enc_backend(Chain { x, blocks, tail });
}

/// AES-CMAC (RFC 4493) with the key schedule and subkeys computed once.
///
/// `Send + Sync`; every operation takes `&self` and allocates nothing. The
/// subkeys are zeroized on drop (the AES schedule zeroizes itself) and
/// `Debug` prints only the key size.
///
/// ```
/// use tessera::cmac::Cmac;
/// // RFC 4493 section 4, Example 2.
/// let key = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c];
/// let msg = [0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a];
/// let cmac = Cmac::new(&key).unwrap();
/// let tag = cmac.mac(&msg);
/// assert_eq!(tag[..4], [0x07, 0x0a, 0x16, 0xb4]);
///
/// // The same, incrementally:
/// let mut st = cmac.start();
/// st.update(&msg[..5]);
/// st.update(&msg[5..]);
/// assert_eq!(st.finalize(), tag);
/// ```
#[derive(Clone)]
pub struct Cmac {
    aes: Aes,
    k1: Block,
    k2: Block,
}

impl core::fmt::Debug for Cmac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Cmac(AES-{}, ..)", self.aes.key_bits())
    }
}

impl Drop for Cmac {
    fn drop(&mut self) {
        self.k1.zeroize();
        self.k2.zeroize();
    }
}

impl Cmac {
    /// Builds AES-CMAC from a 16, 24 or 32-byte AES key (RFC 4493 uses
    /// AES-128; NIST SP 800-38B allows all three).
    ///
    /// ```
    /// assert!(tessera::cmac::Cmac::new(&[0u8; 32]).is_ok());
    /// assert!(tessera::cmac::Cmac::new(&[0u8; 20]).is_err());
    /// ```
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Ok(Self::from_aes(Aes::new(key)?))
    }

    /// Builds AES-CMAC over an expanded AES key: derives the subkeys
    /// (RFC 4493 section 2.3: L = AES(0^128), K1 = dbl(L), K2 = dbl(K1)).
    ///
    /// ```
    /// use tessera::{aes::Aes, cmac::Cmac};
    /// let cmac = Cmac::from_aes(Aes::new(&[7u8; 16]).unwrap());
    /// assert_eq!(cmac.mac(b"abc"), Cmac::new(&[7u8; 16]).unwrap().mac(b"abc"));
    /// ```
    pub fn from_aes(aes: Aes) -> Self {
        let mut l = [0u8; 16];
        aes.encrypt_block(&mut l);
        let k1 = dbl(&l);
        let k2 = dbl(&k1);
        l.zeroize();
        Cmac { aes, k1, k2 }
    }

    /// The AES key schedule under this MAC.
    pub(crate) fn aes(&self) -> &Aes {
        &self.aes
    }

    /// Subkey K1 (RFC 4493 section 2.3), XORed into a complete last block.
    #[inline(always)]
    pub(crate) fn k1(&self) -> &Block {
        &self.k1
    }

    /// Subkey K2, XORed into a padded last block.
    #[inline(always)]
    pub(crate) fn k2(&self) -> &Block {
        &self.k2
    }

    /// Test hook: the subkeys (K1, K2) of RFC 4493 section 2.3.
    #[doc(hidden)]
    pub fn subkeys(&self) -> (Block, Block) {
        (self.k1, self.k2)
    }

    /// The last block of a message as CMAC's final step wants it: complete
    /// blocks XOR K1, a partial (or empty) one padded then XOR K2.
    /// `last` holds 0..=16 bytes.
    #[inline(always)]
    pub(crate) fn last_block(&self, last: &[u8]) -> Block {
        if last.len() == 16 { xor_int(&load(last), &self.k1) } else { xor_int(&pad(last), &self.k2) }
    }

    /// The tag of `data` in one call (RFC 4493 section 2.4).
    ///
    /// ```
    /// use tessera::cmac::Cmac;
    /// // RFC 4493 section 4, Example 1 (empty message).
    /// let key = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c];
    /// let tag = Cmac::new(&key).unwrap().mac(b"");
    /// assert_eq!(tag[..4], [0xbb, 0x1d, 0x69, 0x29]);
    /// ```
    #[inline]
    pub fn mac(&self, data: &[u8]) -> Block {
        // All complete blocks but the last one go through the chain as they
        // are; the last (complete or not) gets the subkey.
        let full = data.len().saturating_sub(1) / 16 * 16;
        let last = self.last_block(&data[full..]);
        let mut x = [0u8; 16];
        chain(&self.aes, &mut x, &data[..full], core::slice::from_ref(&last));
        x
    }

    /// Starts an incremental computation; feed it with
    /// [`CmacState::update`] and finish with [`CmacState::finalize`].
    ///
    /// ```
    /// use tessera::cmac::Cmac;
    /// let cmac = Cmac::new(&[1u8; 16]).unwrap();
    /// let mut st = cmac.start();
    /// for part in [&b"split "[..], b"any", b"where you like"] {
    ///     st.update(part);
    /// }
    /// assert_eq!(st.finalize(), cmac.mac(b"split anywhere you like"));
    /// ```
    pub fn start(&self) -> CmacState<'_> {
        CmacState { cmac: self, x: [0; 16], buf: [0; 16], len: 0 }
    }
}

/// An AES-CMAC computation in progress (RFC 4493 section 2.4, fed in parts).
///
/// Holds at most one block of input: the final block is processed only
/// at [`CmacState::finalize`], when it is known to be last. The chaining
/// value is zeroized on drop.
///
/// ```
/// use tessera::cmac::Cmac;
/// let cmac = Cmac::new(&[9u8; 24]).unwrap();
/// let mut st = cmac.start();
/// st.update(&[0xaa; 40]);
/// st.update(&[0xbb; 3]);
/// let mut all = vec![0xaa; 40];
/// all.extend_from_slice(&[0xbb; 3]);
/// assert_eq!(st.finalize(), cmac.mac(&all));
/// ```
pub struct CmacState<'a> {
    cmac: &'a Cmac,
    /// The CBC chaining value.
    x: Block,
    /// Buffered input not yet chained: `buf[..len]`, `len` in 0..=16.
    buf: Block,
    len: usize,
}

impl core::fmt::Debug for CmacState<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CmacState").field("cmac", self.cmac).field("buffered", &self.len).finish_non_exhaustive()
    }
}

impl Drop for CmacState<'_> {
    fn drop(&mut self) {
        self.x.zeroize();
        self.buf.zeroize();
    }
}

impl CmacState<'_> {
    /// Appends `data` to the message.
    ///
    /// ```
    /// use tessera::cmac::Cmac;
    /// let mac = Cmac::new(&[1u8; 16]).unwrap();
    /// let mut st = mac.start();
    /// st.update(b"hello, ");
    /// st.update(b"world");
    /// assert_eq!(st.finalize(), mac.mac(b"hello, world"));
    /// ```
    pub fn update(&mut self, mut data: &[u8]) {
        if data.is_empty() {
            return;
        }
        if self.len > 0 {
            let take = (16 - self.len).min(data.len());
            self.buf[self.len..self.len + take].copy_from_slice(&data[..take]);
            self.len += take;
            data = &data[take..];
            if data.is_empty() {
                return;
            }
            // The buffer is full and more follows, so it is not the last block.
            self.x = xor(&self.x, &self.buf);
            self.cmac.aes.encrypt_block(&mut self.x);
            self.len = 0;
        }
        // Chain every complete block except the last (possibly complete) one.
        let keep = (data.len() - 1) % 16 + 1;
        let (body, rest) = data.split_at(data.len() - keep);
        chain(&self.cmac.aes, &mut self.x, body, &[]);
        self.buf[..keep].copy_from_slice(rest);
        self.len = keep;
    }

    /// Finishes the computation and returns the tag.
    ///
    /// ```
    /// use tessera::cmac::Cmac;
    /// let mac = Cmac::new(&[1u8; 16]).unwrap();
    /// let mut st = mac.start();
    /// st.update(b"hello, ");
    /// st.update(b"world");
    /// assert_eq!(st.finalize(), mac.mac(b"hello, world"));
    /// ```
    pub fn finalize(mut self) -> Block {
        let last = self.cmac.last_block(&self.buf[..self.len]);
        let mut x = self.x;
        chain(&self.cmac.aes, &mut x, &[], core::slice::from_ref(&last));
        self.x.zeroize();
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dbl_matches_rfc4493_subkeys() {
        // RFC 4493 section 4: L, K1, K2 for key 2b7e1516...
        let l = 0x7df76b0c1ab899b33e42f047b91b546fu128.to_be_bytes();
        assert_eq!(u128::from_be_bytes(dbl(&l)), 0xfbeed618357133667c85e08f7236a8de);
        assert_eq!(u128::from_be_bytes(dbl(&dbl(&l))), 0xf7ddac306ae266ccf90bc11ee46d513b);
    }

    #[test]
    fn incremental_equals_one_shot_for_every_split() {
        let cmac = Cmac::new(&[3u8; 16]).unwrap();
        let data: Vec<u8> = (0..80u8).collect();
        for n in 0..data.len() {
            let want = cmac.mac(&data[..n]);
            for a in 0..=n {
                for b in a..=n {
                    let mut st = cmac.start();
                    st.update(&data[..a]);
                    st.update(&data[a..b]);
                    st.update(&data[b..n]);
                    assert_eq!(st.finalize(), want, "n={n} a={a} b={b}");
                }
            }
        }
    }
}
