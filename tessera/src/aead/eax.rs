//! EAX (Bellare, Rogaway, Wagner, "The EAX Mode of Operation", FSE 2004),
//! over AES-CMAC (OMAC1, RFC 4493) and AES-CTR.
//!
//! EAX tags with three tweaked MACs, OMAC^t(M) = CMAC(\[t\]_16 || M) for
//! t = 0 (nonce), 1 (header) and 2 (ciphertext), and encrypts with CTR
//! starting at N' = OMAC^0(N):
//!
//! ```text
//! N' = OMAC^0(N)   H' = OMAC^1(H)   C = CTR_{N'}(M)   Tag = N' xor H' xor OMAC^2(C)
//! ```
//!
//! Everything that depends only on the key is computed once: the CMAC
//! subkeys K1 and K2, the chaining value after each prefix block, E(\[t\]),
//! and OMAC^t of the empty string. OMAC^2 over the ciphertext is a chain
//! of dependent AES calls, the slowest part, so the CTR keystream is made to
//! run in the gaps of the chain and the chain's latency alone sets the pace:
//! - on x86-64 with AES-NI (checked at run time), `eax_ni.rs` runs each
//!   chain block and the keystream block two steps ahead round by round, side
//!   by side, with the round keys in registers;
//! - elsewhere, over the AES backend, the keystream for the next
//!   batch of blocks is requested from its parallel kernel before the chain
//!   walks the current batch.

use aes::cipher::consts::U16;
use aes::cipher::typenum::Unsigned;
use aes::cipher::{BlockCipherEncBackend, BlockCipherEncClosure, BlockSizeUser, ParBlocks};
use zeroize::Zeroize;

use super::{InPlace, Tag, tag_matches};
use crate::aes::block::{enc, load, xor};
use crate::aes::{Aes, Block};
use crate::cmac::Cmac;
use crate::{Direction, Error};

/// AES-EAX with a 128-bit tag; nonces of any length (OpenPGP uses 16,
/// RFC 9580 section 5.13.1).
///
/// Built once per key (16, 24 or 32 bytes); `Send + Sync`; sealing and
/// opening take `&self` and allocate nothing. Key-derived values are
/// zeroized on drop, and `Debug` shows only the key size.
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Eax, Nonce};
/// // The EAX paper's test vector for the 2-byte message F7FB.
/// let key = [0x91, 0x94, 0x5d, 0x3f, 0x4d, 0xcb, 0xee, 0x0b, 0xf4, 0x5e, 0xf5, 0x22, 0x55, 0xf0, 0x95, 0xa4];
/// let nonce = [0xbe, 0xca, 0xf0, 0x43, 0xb0, 0xa2, 0x3d, 0x84, 0x31, 0x94, 0xba, 0x97, 0x2c, 0x66, 0xde, 0xbd];
/// let header = [0xfa, 0x3b, 0xfd, 0x48, 0x06, 0xeb, 0x53, 0xfa];
/// let mut buf = [0xf7, 0xfb];
/// let eax = Eax::new(&key)?;
/// let tag = eax.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&header), &mut buf)?;
/// assert_eq!(buf, [0x19, 0xdd]);
/// assert_eq!(tag[..4], [0x5c, 0x4c, 0x93, 0x31]);
/// # Ok::<(), tessera::Error>(())
/// ```
///
/// # Sealing and opening
///
/// Sealing is EAX.Encrypt: a nonce of any length, the associated data as
/// the header.
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Eax, Nonce};
/// let eax = Eax::new(&[1u8; 16])?;
/// let mut buf = vec![0u8; 100];
/// let tag = eax.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[2; 16]), Aad::new(b"header"), &mut buf)?;
/// eax.open_in_place_separate_tag(Nonce::assume_unique_for_key(&[2; 16]), Aad::new(b"header"), &mut buf, &tag)?;
/// assert_eq!(buf, vec![0u8; 100]);
/// # Ok::<(), tessera::Error>(())
/// ```
///
/// Opening is EAX.Decrypt: MAC and decryption in one pass over the
/// buffer; the tag is compared in constant time, and the buffer zeroed if
/// it does not match.
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Eax, Nonce};
/// let eax = Eax::new(&[1u8; 16])?;
/// let mut buf = *b"attack at dawn";
/// let tag = eax.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[2; 16]), Aad::empty(), &mut buf)?;
/// assert!(eax.open_in_place_separate_tag(Nonce::assume_unique_for_key(&[3; 16]), Aad::empty(), &mut buf, &tag).is_err());
/// assert_eq!(buf, [0; 14]);
/// # Ok::<(), tessera::Error>(())
/// ```
#[derive(Clone)]
pub struct Eax {
    /// AES-CMAC (OMAC1) under the key: the AES schedule and the subkeys
    /// K1, K2 (RFC 4493 section 2.3), which also key CTR.
    mac: Cmac,
    /// E(\[t\]_16): the CBC-MAC chaining value after the prefix block of OMAC^t.
    prefix: [Block; 3],
    /// OMAC^t of the empty string: E(\[t\]_16 xor K1).
    empty: [Block; 3],
}

impl core::fmt::Debug for Eax {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Eax(AES-{}, ..)", self.mac.aes().key_bits())
    }
}

impl Drop for Eax {
    fn drop(&mut self) {
        self.prefix.zeroize();
        self.empty.zeroize();
    }
}

impl Eax {
    /// Builds AES-EAX from a 16, 24 or 32-byte key.
    ///
    /// ```
    /// assert!(tessera::aead::Eax::new(&[0u8; 32]).is_ok());
    /// assert!(tessera::aead::Eax::new(&[0u8; 8]).is_err());
    /// ```
    ///
    /// On x86-64 CPUs with AES-NI the CTR and CMAC body runs in an AES-NI
    /// kernel (`eax_ni.rs`) on the key's AES-NI schedule; elsewhere through
    /// the AES backend.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Ok(Self::from_aes(Aes::new(key)?))
    }

    /// Builds AES-EAX over an expanded AES key: derives the CMAC subkeys and
    /// the values of the three tweak prefixes. The body runs on the AES-NI
    /// schedule `aes` carries, if any, as with [`Eax::new`].
    ///
    /// ```
    /// use tessera::{aead::Eax, aes::Aes};
    /// let eax = Eax::from_aes(Aes::new(&[5u8; 24]).unwrap());
    /// assert_eq!(format!("{eax:?}"), "Eax(AES-192, ..)");
    /// ```
    pub fn from_aes(aes: Aes) -> Self {
        let mac = Cmac::from_aes(aes);
        let k1 = mac.k1();
        let t = |t: u8| -> Block {
            let mut b = [0u8; 16];
            b[15] = t;
            b
        };
        let mut blocks = [t(0), t(1), t(2), xor(&t(0), k1), xor(&t(1), k1), xor(&t(2), k1), [0; 16], [0; 16]];
        mac.aes().encrypt_blocks(&mut blocks[..6]);
        let prefix = [blocks[0], blocks[1], blocks[2]];
        let empty = [blocks[3], blocks[4], blocks[5]];
        blocks.zeroize();
        Eax { mac, prefix, empty }
    }

    /// OMAC^t(data) = CMAC(\[t\]_16 || data).
    #[inline(always)]
    fn omac<B: BlockCipherEncBackend<BlockSize = U16>>(&self, backend: &B, t: usize, data: &[u8]) -> Block {
        if data.is_empty() {
            return self.empty[t];
        }
        let full = (data.len() - 1) / 16 * 16;
        let mut x = self.prefix[t];
        for m in data[..full].chunks_exact(16) {
            x = enc(backend, xor(&x, &load(m)));
        }
        enc(backend, xor(&x, &self.mac.last_block(&data[full..])))
    }

    /// The CTR keystream for blocks `first..first + ks.len()` after the
    /// initial counter `ctr0` (a 128-bit big-endian counter, wrapping).
    #[inline(always)]
    fn keystream<B: BlockCipherEncBackend<BlockSize = U16>>(
        backend: &B,
        ks: &mut ParBlocks<B>,
        ctr0: u128,
        first: usize,
        n: usize,
    ) {
        for (j, k) in ks[..n].iter_mut().enumerate() {
            k.0 = ctr0.wrapping_add((first + j) as u128).to_be_bytes();
        }
        if n == B::ParBlocksSize::USIZE {
            backend.encrypt_par_blocks_inplace(ks);
        } else {
            backend.encrypt_tail_blocks_inplace(&mut ks[..n]);
        }
    }
}

/// EAX encryption or decryption (the paper's EAX.Encrypt / EAX.Decrypt)
/// in one backend call; returns the expected tag.
struct Run<'a> {
    eax: &'a Eax,
    /// Encrypt: MAC the ciphertext just produced; decrypt: MAC the ciphertext read.
    dir: Direction,
    nonce: &'a [u8],
    ad: &'a [u8],
    buf: &'a mut [u8],
    tag: &'a mut Tag,
}

impl BlockSizeUser for Run<'_> {
    type BlockSize = U16;
}

impl BlockCipherEncClosure for Run<'_> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        let eax = self.eax;
        let n = eax.omac(backend, 0, self.nonce);
        let h = eax.omac(backend, 1, self.ad);
        let c = if self.buf.is_empty() { eax.empty[2] } else { ctr_omac(eax, backend, self.dir, self.buf, n) };
        *self.tag = xor(&xor(&n, &h), &c);
    }
}

/// CTR from N' over `buf` (non-empty) in place, interleaved with OMAC^2 over
/// the ciphertext; returns OMAC^2(C).
#[inline(always)]
fn ctr_omac<B: BlockCipherEncBackend<BlockSize = U16>>(
    eax: &Eax,
    backend: &B,
    dir: Direction,
    buf: &mut [u8],
    n: Block,
) -> Block {
    let p = B::ParBlocksSize::USIZE;
    let ctr0 = u128::from_be_bytes(n);
    let blocks = buf.len().div_ceil(16);
    #[cfg(target_arch = "x86_64")]
    if let Some(keys) = eax.mac.aes().ni()
        && blocks >= 2
    {
        let body = (blocks - 1) * 16;
        let (head, tail) = buf.split_at_mut(body);
        let x = super::eax_ni::body(keys, head, ctr0, eax.prefix[2], dir);
        let k = enc(backend, ctr0.wrapping_add((blocks - 1) as u128).to_be_bytes());
        let mut c = [0u8; 16];
        for ((b, k), c) in tail.iter_mut().zip(k).zip(c.iter_mut()) {
            *c = if dir.is_encrypt() { *b ^ k } else { *b };
            *b ^= k;
        }
        return enc(backend, xor(&x, &eax.mac.last_block(&c[..tail.len()])));
    }
    // Every block but the last goes through the chain as it is; the last
    // (complete or not) gets a subkey.
    let body = blocks - 1;
    let mut ks: ParBlocks<B> = Default::default();
    let mut next: ParBlocks<B> = Default::default();
    Eax::keystream(backend, &mut ks, ctr0, 0, p.min(blocks));
    let mut x = eax.prefix[2];
    let mut last = [0u8; 16];
    for (g, group) in buf.chunks_mut(16 * p).enumerate() {
        let first = g * p;
        // Ask for the next batch's keystream before walking this one: it
        // does not depend on the chain, so it fills the AES units while
        // the chain waits on each block.
        if first + p < blocks {
            Eax::keystream(backend, &mut next, ctr0, first + p, p.min(blocks - first - p));
        }
        let chained = body.saturating_sub(first).min(p);
        let (head, tail) = group.split_at_mut(chained * 16);
        for (b, k) in head.chunks_exact_mut(16).zip(ks.iter()) {
            let v = load(b);
            let out = xor(&v, &k.0);
            b.copy_from_slice(&out);
            let c = if dir.is_encrypt() { out } else { v };
            x = enc(backend, xor(&x, &c));
        }
        if !tail.is_empty() {
            // The message's last block (1..=16 bytes).
            let k = &ks[chained].0;
            let len = tail.len();
            let mut c = [0u8; 16];
            for ((b, k), c) in tail.iter_mut().zip(k).zip(c.iter_mut()) {
                *c = if dir.is_encrypt() { *b ^ k } else { *b };
                *b ^= k;
            }
            last = eax.mac.last_block(&c[..len]);
        }
        core::mem::swap(&mut ks, &mut next);
    }
    enc(backend, xor(&x, &last))
}

impl InPlace for Eax {
    // EAX.Encrypt: `nonce` of any length, `ad` is the header.
    fn seal(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        let mut tag = [0u8; 16];
        self.mac.aes().with_enc_backend(Run { eax: self, dir: Direction::Encrypt, nonce, ad, buf, tag: &mut tag });
        Ok(tag)
    }

    // EAX.Decrypt: MAC and decryption in one pass over `buf`; the tag is compared in constant time
    // (`buf` is zeroed by `AeadInPlace` if it does not match).
    fn open(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &Tag) -> Result<bool, Error> {
        let mut expected = [0u8; 16];
        self.mac.aes().with_enc_backend(Run { eax: self, dir: Direction::Decrypt, nonce, ad, buf, tag: &mut expected });
        Ok(tag_matches(&expected, tag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aead::{Aad, AeadInPlace, Nonce};

    #[test]
    fn kernel_and_portable_paths_agree() {
        for kl in [16usize, 24, 32] {
            let key: Vec<u8> = (0..kl as u8).map(|i| i.wrapping_mul(31) ^ 0xa5).collect();
            let fast = Eax::new(&key).unwrap();
            let portable = Eax::from_aes(crate::cpu::with_cap(crate::cpu::Level::Portable, || Aes::new(&key).unwrap()));
            for len in (0..700).chain([4096, 4096 + 15, 65536 + 1]) {
                let pt: Vec<u8> = (0..len).map(|i| (i * 13 + len) as u8).collect();
                let nonce = [len as u8; 16];
                let (mut a, mut b) = (pt.clone(), pt.clone());
                let ta = fast
                    .seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"h"), &mut a)
                    .unwrap();
                let tb = portable
                    .seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"h"), &mut b)
                    .unwrap();
                assert!(a == b && ta == tb, "AES-{} len {len}", kl * 8);
                fast.open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"h"), &mut b, &tb)
                    .unwrap();
                portable
                    .open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"h"), &mut a, &ta)
                    .unwrap();
                assert!(a == pt && b == pt, "AES-{} len {len}", kl * 8);
            }
        }
    }
}
