//! AES-NI kernels for CBC-MAC chains (S2V's CMACs, EAX's OMAC) beside
//! other work (a second chain, CTR), with the schedules in registers
//! ([`crate::aes::ni::Keys::schedule`]). CTR alone: `siv::ni_ctr`.
//!
//! A chain `x = E(x ^ m)` costs one AES latency per block and leaves the
//! AES units idle between its dependent rounds. These kernels fill those
//! cycles with independent work issued round by round beside the chain: a
//! second chain ([`cbc_mac2`]), CTR keystream and a second chain
//! ([`ctr_cbc_mac`]). Every chain also folds the next block into its last
//! round key: `AESENCLAST(s, k_last ^ k_0 ^ m) = E(..) ^ m ^ k_0` is the
//! next block's state after round 0, so no XOR sits between two blocks on
//! the chain's critical path (one AES latency per block, nothing more).
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::aes::Block;
use crate::aes::ni::{encrypt_m128, ld, st};
use crate::cpu::AesNi;

/// The blocks of one CBC-MAC chain: `prefix` (a multiple of 16 bytes, read
/// in place) then `tail`.
#[derive(Clone, Copy)]
pub(crate) struct Blocks<'a> {
    pub prefix: &'a [u8],
    pub tail: &'a [Block],
}

impl<'a> Blocks<'a> {
    /// No block: a chain that is just its starting value.
    pub(crate) const NONE: Blocks<'static> = Blocks { prefix: &[], tail: &[] };

    /// The blocks of `prefix` (a multiple of 16 bytes).
    pub(crate) fn of(prefix: &'a [u8]) -> Self {
        debug_assert_eq!(prefix.len() % 16, 0);
        Blocks { prefix, tail: &[] }
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.prefix.len() / 16 + self.tail.len()
    }

    #[inline(always)]
    fn get(&self, i: usize) -> __m128i {
        let pb = self.prefix.len() / 16;
        if i < pb { ld(&self.prefix[16 * i..]) } else { ld(&self.tail[i - pb]) }
    }

    /// The state after round 0 of block 0 from the chaining value `x`, or
    /// `x` itself when there is no block.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn start(&self, x: __m128i, k0: __m128i) -> __m128i {
        if self.len() > 0 { _mm_xor_si128(x, _mm_xor_si128(self.get(0), k0)) } else { x }
    }

    /// The last round key of block `i`: `k_last ^ k_0 ^ m_{i+1}` (`kx ^
    /// m_{i+1}`) when block `i + 1` exists, so the round's output is that
    /// block's state after round 0; else `k_last`, and the output is the
    /// chaining value.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn last_key(&self, i: usize, kx: __m128i, klast: __m128i) -> __m128i {
        if i + 1 < self.len() { _mm_xor_si128(kx, self.get(i + 1)) } else { klast }
    }
}

/// Continues the chain over `c` from block `from`, whose state after round
/// 0 is `s`, to the end; returns the chaining value (`s` when `from` is
/// past the end).
#[inline]
#[target_feature(enable = "aes")]
fn finish<const NR: usize>(k: &[__m128i; 15], c: &Blocks<'_>, from: usize, mut s: __m128i) -> __m128i {
    let kx = _mm_xor_si128(k[NR], k[0]);
    for i in from..c.len() {
        for kr in &k[1..NR] {
            s = _mm_aesenc_si128(s, *kr);
        }
        s = _mm_aesenclast_si128(s, c.last_key(i, kx, k[NR]));
    }
    s
}

/// The CBC-MAC chain `x = E_k(x ^ m)` from `x` over `c`.
#[inline]
#[target_feature(enable = "aes")]
pub(crate) fn cbc_mac<const NR: usize>(_: AesNi, k: &[__m128i; 15], x: __m128i, c: Blocks<'_>) -> __m128i {
    finish::<NR>(k, &c, 0, c.start(x, k[0]))
}

/// Two independent CBC-MAC chains under `k`, both from zero, over `a` and
/// `b`, round by round side by side while both run (the AES units take the
/// second chain's rounds in the first's idle cycles), then the longer alone.
/// Always inlined (into S2V's kernels, whose chain goes on from its value).
///
/// # Safety
/// The CPU must have AES-NI.
#[inline(always)]
pub(crate) unsafe fn cbc_mac2<const NR: usize>(k: &[__m128i; 15], a: Blocks<'_>, b: Blocks<'_>) -> (__m128i, __m128i) {
    // SAFETY: the caller vouches for AES-NI.
    unsafe {
        let kx = _mm_xor_si128(k[NR], k[0]);
        let zero = _mm_setzero_si128();
        let (mut sa, mut sb) = (a.start(zero, k[0]), b.start(zero, k[0]));
        let both = a.len().min(b.len());
        for i in 0..both {
            for kr in &k[1..NR] {
                sa = _mm_aesenc_si128(sa, *kr);
                sb = _mm_aesenc_si128(sb, *kr);
            }
            sa = _mm_aesenclast_si128(sa, a.last_key(i, kx, k[NR]));
            sb = _mm_aesenclast_si128(sb, b.last_key(i, kx, k[NR]));
        }
        (finish::<NR>(k, &a, both, sa), finish::<NR>(k, &b, both, sb))
    }
}

/// Writes block `j` of the CTR output, `dst[j] = src[j] ^ ks` (or in
/// place), and returns what the chain takes of it: the output (`OUT`) or
/// the input. Always inlined: a call would spill the chain's state around
/// it, onto the chain's critical path.
#[inline(always)]
pub(crate) fn put_block<const OUT: bool>(src: Option<&[u8]>, dst: &mut [u8], j: usize, ks: __m128i) -> __m128i {
    let input = ld(match src {
        Some(s) => &s[16 * j..],
        None => &dst[16 * j..],
    });
    // SAFETY: SSE2, part of every x86-64 CPU.
    let output = unsafe { _mm_xor_si128(input, ks) };
    st(&mut dst[16 * j..], output);
    if OUT { output } else { input }
}

/// CTR under the schedule `kc` from the counter block `q` (a big-endian
/// integer, incremented modulo 2^128) over `dst`, a multiple of 16 bytes
/// (`dst = src ^ keystream`, or in place when `src` is `None`); the CBC-MAC
/// chain `x = E_km(x ^ block)` from `x` over the output blocks (`OUT`) or
/// the input blocks; and a second chain under `km` from zero over `side`;
/// all side by side. Returns the first chain's value, the keystream of the
/// two blocks after `dst`, and the side chain's value.
///
/// The EAX body and AES-SIV decryption (whose side chain is the associated
/// data's CMAC). Each step runs the chain's block, the keystream two blocks
/// ahead and the side chain's block round by round: the chain's rounds
/// issue first, the others fill the AES units' idle cycles between them
/// (each AESENC waits for the previous one), so the chain's latency alone
/// sets the pace; the CTR XOR of the next block is done before the chain
/// needs it.
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "aes")]
pub(crate) fn ctr_cbc_mac<const NR: usize, const OUT: bool>(
    _: AesNi,
    km: &[__m128i; 15],
    kc: &[__m128i; 15],
    q: u128,
    src: Option<&[u8]>,
    dst: &mut [u8],
    x: __m128i,
    side: Blocks<'_>,
) -> (__m128i, [__m128i; 2], __m128i) {
    debug_assert!(dst.len().is_multiple_of(16) && src.is_none_or(|s| s.len() == dst.len()));
    let n = dst.len() / 16;
    let ctr = |i: usize| ld(&q.wrapping_add(i as u128).to_be_bytes());
    let kx = _mm_xor_si128(km[NR], km[0]);
    let mut put = |j: usize, ks: __m128i| put_block::<OUT>(src, dst, j, ks);
    // ks[0]: keystream of the block being chained, ks[1]: of the next one.
    let mut ks = [encrypt_m128::<NR>(kc, ctr(0)), encrypt_m128::<NR>(kc, ctr(1))];
    let mut ss = side.start(_mm_setzero_si128(), km[0]);
    if n == 0 {
        return (x, ks, finish::<NR>(km, &side, 0, ss));
    }
    let mut s = _mm_xor_si128(x, _mm_xor_si128(put(0, ks[0]), km[0]));
    let with_side = side.len().min(n);
    for i in 0..n {
        let mut kn = _mm_xor_si128(ctr(i + 2), kc[0]);
        if i < with_side {
            for r in 1..NR {
                s = _mm_aesenc_si128(s, km[r]);
                kn = _mm_aesenc_si128(kn, kc[r]);
                ss = _mm_aesenc_si128(ss, km[r]);
            }
            ss = _mm_aesenclast_si128(ss, side.last_key(i, kx, km[NR]));
        } else {
            for r in 1..NR {
                s = _mm_aesenc_si128(s, km[r]);
                kn = _mm_aesenc_si128(kn, kc[r]);
            }
        }
        let last = if i + 1 < n { _mm_xor_si128(kx, put(i + 1, ks[1])) } else { km[NR] };
        s = _mm_aesenclast_si128(s, last);
        ks = [ks[1], _mm_aesenclast_si128(kn, kc[NR])];
    }
    (s, ks, finish::<NR>(km, &side, with_side, ss))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::aes::Aes;

    fn block(x: __m128i) -> Block {
        let mut b = [0u8; 16];
        st(&mut b, x);
        b
    }

    /// The reference chain through the `aes` crate, one block at a time.
    fn chain_ref(aes: &Aes, mut x: Block, blocks: impl IntoIterator<Item = Block>) -> Block {
        for m in blocks {
            x = core::array::from_fn(|i| x[i] ^ m[i]);
            aes.encrypt_block(&mut x);
        }
        x
    }

    /// AES-CTR through the `aes` crate from the big-endian counter `q`.
    pub(crate) fn ctr_ref(aes: &Aes, q: u128, data: &[u8]) -> Vec<u8> {
        let mut out = data.to_vec();
        for (i, c) in out.chunks_mut(16).enumerate() {
            let mut k = q.wrapping_add(i as u128).to_be_bytes();
            aes.encrypt_block(&mut k);
            c.iter_mut().zip(k).for_each(|(d, k)| *d ^= k);
        }
        out
    }

    fn blocks_of(b: &Blocks<'_>) -> Vec<Block> {
        let mut v: Vec<Block> = b.prefix.chunks_exact(16).map(|c| c.try_into().unwrap()).collect();
        v.extend_from_slice(b.tail);
        v
    }

    /// Every kernel against the `aes` crate one block at a time: every key
    /// size, chains of 0 to 5 blocks on either side (prefix and tail), CTR
    /// beside them from a counter that wraps.
    #[test]
    fn kernels_match_the_aes_crate() {
        if crate::cpu::AesNi::get().is_none() {
            return;
        }
        let data: Vec<u8> = (0..400u32).map(|i| (i * 67 + 11) as u8).collect();
        let tails: Vec<Block> = (0..3u8).map(|i| [i.wrapping_mul(29) ^ 0x5c; 16]).collect();
        for kl in [16usize, 24, 32] {
            let (km, kc) = (&data[..kl], &data[100..100 + kl]);
            let (am, ac) = (Aes::new(km).unwrap(), Aes::new(kc).unwrap());
            let (nm, nc) = (am.ni().unwrap(), ac.ni().unwrap());
            // The references run on the `aes` crate.
            let (am, ac) = (Aes::with_crate(km).unwrap(), Aes::with_crate(kc).unwrap());
            let (sm, sc) = (nm.schedule(), nc.schedule());
            let shapes: Vec<Blocks<'_>> = (0..4)
                .flat_map(|p| (0..3).map(move |t| (p, t)))
                .map(|(p, t)| Blocks { prefix: &data[7..7 + 16 * p], tail: &tails[..t] })
                .collect();
            for (a, b) in shapes.iter().flat_map(|a| shapes.iter().map(move |b| (a, b))) {
                let x0 = [0x3cu8; 16];
                // SAFETY: `nm.token()` proves AES-NI (so below).
                let (got, (x, y)) = unsafe {
                    match kl {
                        16 => (cbc_mac::<10>(nm.token(), sm, ld(&x0), *a), cbc_mac2::<10>(sm, *a, *b)),
                        24 => (cbc_mac::<12>(nm.token(), sm, ld(&x0), *a), cbc_mac2::<12>(sm, *a, *b)),
                        _ => (cbc_mac::<14>(nm.token(), sm, ld(&x0), *a), cbc_mac2::<14>(sm, *a, *b)),
                    }
                };
                assert_eq!(block(got), chain_ref(&am, x0, blocks_of(a)), "cbc_mac AES-{}", kl * 8);
                assert_eq!(block(x), chain_ref(&am, [0; 16], blocks_of(a)), "cbc_mac2 a");
                assert_eq!(block(y), chain_ref(&am, [0; 16], blocks_of(b)), "cbc_mac2 b");
            }
            for n in 0..=6usize {
                for side in shapes.iter().step_by(2) {
                    for q in [5u128, u128::MAX - 2] {
                        let src = &data[3..3 + 16 * n];
                        let mut out = vec![0u8; 16 * n];
                        let x0 = [0xa1u8; 16];
                        // SAFETY: as above; `out` and `src` are whole blocks of the same length.
                        let (x, ks, xs) = unsafe {
                            match kl {
                                16 => {
                                    ctr_cbc_mac::<10, true>(nm.token(), sm, sc, q, Some(src), &mut out, ld(&x0), *side)
                                }
                                24 => {
                                    ctr_cbc_mac::<12, false>(nm.token(), sm, sc, q, Some(src), &mut out, ld(&x0), *side)
                                }
                                _ => {
                                    ctr_cbc_mac::<14, true>(nm.token(), sm, sc, q, Some(src), &mut out, ld(&x0), *side)
                                }
                            }
                        };
                        let want = ctr_ref(&ac, q, src);
                        assert_eq!(out, want, "ctr_cbc_mac output, {n} blocks");
                        let chained = if kl == 24 { src } else { &want[..] };
                        let blocks = chained.chunks_exact(16).map(|c| c.try_into().unwrap());
                        assert_eq!(block(x), chain_ref(&am, x0, blocks), "ctr_cbc_mac chain, {n} blocks");
                        assert_eq!(block(xs), chain_ref(&am, [0; 16], blocks_of(side)), "side chain");
                        let next = ctr_ref(&ac, q.wrapping_add(n as u128), &[0u8; 32]);
                        assert_eq!([block(ks[0]), block(ks[1])].concat(), next, "keystream after");
                    }
                }
            }
        }
    }
}
