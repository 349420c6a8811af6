//! The CTR half of AES-SIV (RFC 5297 section 2.5).
//!
//! The counter starts at Q = V with the 31st and 63rd bits (counting from
//! the right, 0-based) cleared, `Q = V & 1^64 || 0^1 || 1^31 || 0^1 || 1^31`,
//! and is incremented as one 128-bit big-endian integer, modulo 2^128.
//! Keystream is generated one backend batch (`ParBlocks`: 64 blocks with
//! VAES-512, 32 with VAES-256, 8 with AES-NI) at a time, inside a single
//! call of the AES backend, and XORed 16 bytes at a time.

use aes::cipher::consts::U16;
use aes::cipher::typenum::Unsigned;
use aes::cipher::{Array, BlockCipherEncBackend, BlockCipherEncClosure, BlockSizeUser, ParBlocks};

use crate::aes::block::{load, xor};
use crate::aes::{Aes, Block};

/// The initial counter Q of RFC 5297 section 2.5, as a big-endian integer.
#[inline(always)]
pub(crate) fn counter(v: &Block) -> u128 {
    u128::from_be_bytes(*v) & !((1u128 << 63) | (1u128 << 31))
}

/// `dst[i] = src[i] ^ ks[i]` (or `dst[i] ^= ks[i]` when `src` is `None`) for
/// `dst.len() <= 16 * ks.len()` bytes, a block at a time.
#[inline(always)]
pub(crate) fn xor_keystream(dst: &mut [u8], src: Option<&[u8]>, ks: &[Array<u8, U16>]) {
    let full = dst.len() / 16;
    match src {
        Some(src) => {
            for (i, (d, s)) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)).enumerate() {
                d.copy_from_slice(&xor(&load(s), &ks[i].0));
            }
            for (j, d) in dst[16 * full..].iter_mut().enumerate() {
                *d = src[16 * full + j] ^ ks[full].0[j];
            }
        }
        None => {
            for (i, d) in dst.chunks_exact_mut(16).enumerate() {
                d.copy_from_slice(&xor(&load(d), &ks[i].0));
            }
            for (j, d) in dst[16 * full..].iter_mut().enumerate() {
                *d ^= ks[full].0[j];
            }
        }
    }
}

/// Encrypts every block of `blocks` in place with a backend: whole
/// backend batches, then the remainder.
#[inline(always)]
pub(crate) fn enc_many<B: BlockCipherEncBackend<BlockSize = U16>>(backend: &B, blocks: &mut [Block]) {
    let blocks = Array::cast_slice_from_core_mut(blocks);
    let mut chunks = blocks.chunks_exact_mut(B::ParBlocksSize::USIZE);
    for chunk in &mut chunks {
        let par: &mut ParBlocks<B> = chunk.try_into().expect("ParBlocks-sized chunk");
        backend.encrypt_par_blocks(par.into());
    }
    backend.encrypt_tail_blocks(chunks.into_remainder().into());
}

struct Ctr<'a> {
    q: u128,
    src: Option<&'a [u8]>,
    dst: &'a mut [u8],
}

impl BlockSizeUser for Ctr<'_> {
    type BlockSize = U16;
}

impl BlockCipherEncClosure for Ctr<'_> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        let p = B::ParBlocksSize::USIZE;
        let mut ks = ParBlocks::<B>::default();
        let mut ctr = self.q;
        let mut fill = |ks: &mut [Array<u8, U16>]| {
            for b in ks {
                b.0 = ctr.to_be_bytes();
                ctr = ctr.wrapping_add(1);
            }
        };
        // Whole backend batches first, with no per-block bookkeeping.
        let whole = self.dst.len() / (16 * p) * (16 * p);
        let (body, rest) = self.dst.split_at_mut(whole);
        match self.src {
            Some(src) => {
                for (d, s) in body.chunks_exact_mut(16 * p).zip(src.chunks_exact(16 * p)) {
                    fill(&mut ks);
                    backend.encrypt_par_blocks((&mut ks).into());
                    for ((d, s), k) in d.chunks_exact_mut(16).zip(s.chunks_exact(16)).zip(ks.iter()) {
                        d.copy_from_slice(&xor(&load(s), &k.0));
                    }
                }
            }
            None => {
                for d in body.chunks_exact_mut(16 * p) {
                    fill(&mut ks);
                    backend.encrypt_par_blocks((&mut ks).into());
                    for (d, k) in d.chunks_exact_mut(16).zip(ks.iter()) {
                        d.copy_from_slice(&xor(&load(d), &k.0));
                    }
                }
            }
        }
        if !rest.is_empty() {
            let nb = rest.len().div_ceil(16);
            fill(&mut ks[..nb]);
            if nb == p {
                backend.encrypt_par_blocks((&mut ks).into());
            } else {
                backend.encrypt_tail_blocks((&mut ks[..nb]).into());
            }
            xor_keystream(rest, self.src.map(|s| &s[whole..]), &ks[..nb]);
        }
    }
}

/// AES-CTR from the synthetic IV `v` over `dst` (in place when `src` is
/// `None`, else `dst = src ^ keystream`; `src` as long as `dst`).
pub(crate) fn apply(aes: &Aes, v: &Block, src: Option<&[u8]>, dst: &mut [u8]) {
    apply_from(aes, counter(v), src, dst);
}

/// AES-CTR with the counter block `q` for the first block of `dst`.
pub(crate) fn apply_from(aes: &Aes, q: u128, src: Option<&[u8]>, dst: &mut [u8]) {
    debug_assert!(src.is_none_or(|s| s.len() == dst.len()));
    if !dst.is_empty() {
        aes.with_enc_backend(Ctr { q, src, dst });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_clears_bits_63_and_31() {
        assert_eq!(counter(&[0xff; 16]), 0xffffffff_ffffffff_7fffffff_7fffffff);
        assert_eq!(counter(&[0; 16]), 0);
    }

    #[test]
    fn counter_wraps_modulo_2_128() {
        // V = all ones gives Q = ff..ff 7fffffff 7fffffff: no wrap in 4 blocks;
        // force one through the internal counter instead.
        let aes = Aes::new(&[1u8; 16]).unwrap();
        let mut got = [0u8; 48];
        aes.with_enc_backend(Ctr { q: u128::MAX, src: None, dst: &mut got });
        let mut want = [0u8; 48];
        for (i, c) in [u128::MAX, 0, 1].into_iter().enumerate() {
            let mut b = c.to_be_bytes();
            aes.encrypt_block(&mut b);
            want[16 * i..16 * i + 16].copy_from_slice(&b);
        }
        assert_eq!(got, want);
    }

    #[test]
    fn matches_block_by_block_for_all_lengths() {
        let aes = Aes::new(&[2u8; 32]).unwrap();
        let v = [0xa5u8; 16];
        let src: Vec<u8> = (0..3000u32).map(|i| (i * 7) as u8).collect();
        for n in (0..200).chain([479, 480, 481, 1023, 1024, 1025, 3000]) {
            let mut want = src[..n].to_vec();
            let mut c = counter(&v);
            for chunk in want.chunks_mut(16) {
                let mut k = c.to_be_bytes();
                aes.encrypt_block(&mut k);
                chunk.iter_mut().zip(k).for_each(|(d, k)| *d ^= k);
                c = c.wrapping_add(1);
            }
            let mut out = vec![0u8; n];
            apply(&aes, &v, Some(&src[..n]), &mut out);
            assert_eq!(out, want, "n={n}");
            let mut inplace = src[..n].to_vec();
            apply(&aes, &v, None, &mut inplace);
            assert_eq!(inplace, want, "in place n={n}");
        }
    }
}
