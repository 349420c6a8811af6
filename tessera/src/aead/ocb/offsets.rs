//! OCB's key-dependent offsets (RFC 7253 section 4.1): L_* = E(0),
//! L_$ = double(L_*) and L_i = double^(i+1)(L_$), and the block loops of
//! HASH, OCB-ENCRYPT and OCB-DECRYPT that read them inside one `aes` crate
//! backend call.

use aes::cipher::array::{Array, ArraySize};
use aes::cipher::consts::U16;
use aes::cipher::typenum::Unsigned;
use aes::cipher::{BlockCipherDecBackend, BlockCipherEncBackend, ParBlocks};
use zeroize::Zeroize;

use crate::aes::block::{dbl, enc, load, pad, xor};
use crate::aes::{Aes, Block};

/// Number of precomputed L_i: block indices below 2^64 have ntz < 64.
pub(super) const L_COUNT: usize = 64;

/// L_*, L_$ and L_0 .. L_63 of one key, zeroized on drop.
#[derive(Clone)]
pub(super) struct Offsets {
    pub(super) l_star: Block,
    pub(super) l_dollar: Block,
    pub(super) l: [Block; L_COUNT],
}

impl Drop for Offsets {
    fn drop(&mut self) {
        self.l_star.zeroize();
        self.l_dollar.zeroize();
        self.l.zeroize();
    }
}

impl Offsets {
    /// The offsets of the key `aes` holds (RFC 7253 section 4.1).
    pub(super) fn new(aes: &Aes) -> Self {
        let mut l_star = [0u8; 16];
        aes.encrypt_block(&mut l_star);
        let l_dollar = dbl(&l_star);
        let mut l = [[0u8; 16]; L_COUNT];
        let mut x = l_dollar;
        for li in &mut l {
            x = dbl(&x);
            *li = x;
        }
        x.zeroize();
        Offsets { l_star, l_dollar, l }
    }

    /// The XOR of the L_i for the set bits of gray(m) = m xor (m >> 1):
    /// Offset_m xor Offset_0 for the offsets of section 4.2 and 4.1 (HASH).
    #[inline]
    pub(super) fn gray_offset(&self, m: u64) -> Block {
        let mut g = m ^ (m >> 1);
        let mut acc = [0u8; 16];
        while g != 0 {
            acc = xor(&acc, &self.l[g.trailing_zeros() as usize]);
            g &= g - 1;
        }
        acc
    }

    /// HASH(K, A) of RFC 7253 section 4.1, the associated data's sum.
    #[inline(always)]
    pub(super) fn hash<B: BlockCipherEncBackend<BlockSize = U16>>(&self, backend: &B, ad: &[u8]) -> Block {
        let mut sum = [0u8; 16];
        if ad.is_empty() {
            return sum;
        }
        let p = B::ParBlocksSize::USIZE;
        let mut x: ParBlocks<B> = Default::default();
        let mut off = [0u8; 16];
        let mut i = 0u64;
        let full = ad.len() / 16 * 16;
        for group in ad[..full].chunks(16 * p) {
            let n = group.len() / 16;
            for (a, xj) in group.chunks_exact(16).zip(x.iter_mut()) {
                i += 1;
                off = xor(&off, &self.l[i.trailing_zeros() as usize]);
                xj.0 = xor(&load(a), &off);
            }
            if n == p {
                backend.encrypt_par_blocks_inplace(&mut x);
            } else {
                backend.encrypt_tail_blocks_inplace(&mut x[..n]);
            }
            for xj in &x[..n] {
                sum = xor(&sum, &xj.0);
            }
        }
        let rest = &ad[full..];
        if !rest.is_empty() {
            off = xor(&off, &self.l_star);
            sum = xor(&sum, &enc(backend, xor(&pad(rest), &off)));
        }
        sum
    }

    /// Encrypts ([`Enc`]) or decrypts ([`Dec`]) the complete blocks of
    /// `data` (a multiple of 16 bytes) in place as blocks `i + 1, i + 2, ...`
    /// with Offset_i = `off`, and returns the last offset and the checksum of
    /// these blocks' plaintext (RFC 7253 sections 4.2 and 4.3): `C::Par`
    /// blocks per cipher call, each XORed with its offset before and after.
    #[inline(always)]
    pub(super) fn blocks<C: ParCipher>(
        &self,
        cipher: &C,
        data: &mut [u8],
        mut i: u64,
        mut off: Block,
    ) -> (Block, Block) {
        let p = C::Par::USIZE;
        let mut x: Array<AesBlock, C::Par> = Default::default();
        let mut offs: Array<AesBlock, C::Par> = Default::default();
        let mut sum = [0u8; 16];
        for group in data.chunks_mut(16 * p) {
            let n = group.len() / 16;
            for ((b, xj), oj) in group.chunks_exact(16).zip(x.iter_mut()).zip(offs.iter_mut()) {
                i += 1;
                off = xor(&off, &self.l[i.trailing_zeros() as usize]);
                let b = load(b);
                if C::SEAL {
                    sum = xor(&sum, &b);
                }
                oj.0 = off;
                xj.0 = xor(&b, &off);
            }
            if n == p {
                cipher.par(&mut x);
            } else {
                cipher.tail(&mut x[..n]);
            }
            for ((b, xj), oj) in group.chunks_exact_mut(16).zip(x.iter()).zip(offs.iter()) {
                let out = xor(&xj.0, &oj.0);
                if !C::SEAL {
                    sum = xor(&sum, &out);
                }
                b.copy_from_slice(&out);
            }
        }
        (off, sum)
    }
}

/// One AES block as the `aes` crate's backends take it.
type AesBlock = Array<u8, U16>;

/// One direction of an `aes` crate backend, for [`Offsets::blocks`].
pub(super) trait ParCipher {
    /// The blocks one call takes at the most.
    type Par: ArraySize;
    /// Encryption (OCB-ENCRYPT) or decryption (OCB-DECRYPT).
    const SEAL: bool;
    /// `Par` blocks in place.
    fn par(&self, x: &mut Array<AesBlock, Self::Par>);
    /// Fewer blocks in place.
    fn tail(&self, x: &mut [AesBlock]);
}

/// An encrypting backend.
pub(super) struct Enc<'a, B>(pub(super) &'a B);

/// A decrypting backend.
pub(super) struct Dec<'a, B>(pub(super) &'a B);

impl<B: BlockCipherEncBackend<BlockSize = U16>> ParCipher for Enc<'_, B> {
    type Par = B::ParBlocksSize;
    const SEAL: bool = true;
    #[inline(always)]
    fn par(&self, x: &mut Array<AesBlock, Self::Par>) {
        self.0.encrypt_par_blocks_inplace(x);
    }
    #[inline(always)]
    fn tail(&self, x: &mut [AesBlock]) {
        self.0.encrypt_tail_blocks_inplace(x);
    }
}

impl<B: BlockCipherDecBackend<BlockSize = U16>> ParCipher for Dec<'_, B> {
    type Par = B::ParBlocksSize;
    const SEAL: bool = false;
    #[inline(always)]
    fn par(&self, x: &mut Array<AesBlock, Self::Par>) {
        self.0.decrypt_par_blocks_inplace(x);
    }
    #[inline(always)]
    fn tail(&self, x: &mut [AesBlock]) {
        self.0.decrypt_tail_blocks_inplace(x);
    }
}
