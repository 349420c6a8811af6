//! Whole Feistel rounds of a batch group in registers (x86-64): each
//! round's AES blocks are built from the halves in vector registers,
//! enciphered there (VAES-512 on four blocks per vector, or AES-NI on one),
//! and y is read back and reduced without the blocks ever going to memory.
//! Used for one tweak per run (every value's block differs only by its
//! half) on the FF1 (d = 8) and FF3-1 layouts; the halves stay integers
//! across all rounds.
//!
//! A chunk of values runs all its rounds before the next chunk starts, so
//! its halves stay in registers too. Every step is straight-line vector
//! code (`scripts/check-ct` compiles one round step of each kernel).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::batch_round::Consts;
use super::batch_x86::{BSWAP_HI, BSWAP_LO, add4, add8, reduce4, reduce4_128, reduce8, sub4, sub8};
use crate::Direction;

/// Round `i`'s constant block as a 128-bit vector.
#[inline(always)]
fn const_block(c: &Consts<'_>, i: usize) -> __m128i {
    // SAFETY: SSE2 is part of every x86-64 CPU.
    unsafe { _mm_set_epi64x(c.blocks[i][1] as i64, c.blocks[i][0] as i64) }
}

/// `(hi * 2^64 + lo) mod m` for eight lanes, m < 2^32: both words reduced
/// side by side, then `(hi mod m) * r64 + (lo mod m)` (below m^2, with `r64`
/// = 2^64 mod m) once more; its quotient is below 2^32, so a 32-bit
/// multiply gives q * m.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub fn fold8(lo: __m512i, hi: __m512i, m: __m512i, inv: __m512d, r64: __m512i) -> __m512i {
    let t = _mm512_add_epi64(_mm512_mul_epu32(reduce8(hi, m, inv), r64), reduce8(lo, m, inv));
    let q = _mm512_cvttpd_epu64(_mm512_mul_pd(_mm512_cvtepu64_pd(t), inv));
    let r = _mm512_sub_epi64(t, _mm512_mul_epu32(q, m));
    let r = _mm512_mask_add_epi64(r, _mm512_cmplt_epi64_mask(r, _mm512_setzero_si512()), r, m);
    _mm512_mask_sub_epi64(r, _mm512_cmpge_epi64_mask(r, m), r, m)
}

/// One round for 8·W values with VAES-512: blocks from `src` (W vectors
/// of eight halves), `NR` AES rounds under `rk`, then `dst = dst ± y mod m`.
/// Values 0, 2, 4, 6 of a vector go to one block vector, 1, 3, 5, 7 to the
/// next, so reading y back in the same pairs restores the value order.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,vaes")]
#[allow(clippy::too_many_arguments)]
pub fn step512<const W: usize, const FF3: bool, const NR: usize>(
    rk: &[__m512i; 15],
    cb: __m128i,
    m: __m512i,
    inv: __m512d,
    r64: __m512i,
    src: &[__m512i; W],
    dst: &mut [__m512i; W],
    enc: bool,
) {
    let bswap = _mm512_set_epi64(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO);
    let (zero, cbk) = (_mm512_setzero_si512(), _mm512_xor_si512(_mm512_broadcast_i32x4(cb), rk[0]));
    let mut blk = [[zero; 2]; W];
    for (b, &x) in blk.iter_mut().zip(src) {
        let (lo, hi) = if FF3 {
            (_mm512_unpacklo_epi64(x, zero), _mm512_unpackhi_epi64(x, zero))
        } else {
            let bx = _mm512_shuffle_epi8(x, bswap);
            (_mm512_unpacklo_epi64(zero, bx), _mm512_unpackhi_epi64(zero, bx))
        };
        *b = [_mm512_xor_si512(lo, cbk), _mm512_xor_si512(hi, cbk)];
    }
    for k in &rk[1..NR] {
        for b in &mut blk {
            *b = [_mm512_aesenc_epi128(b[0], *k), _mm512_aesenc_epi128(b[1], *k)];
        }
    }
    for (b, d) in blk.iter_mut().zip(dst) {
        let (o0, o1) = (_mm512_aesenclast_epi128(b[0], rk[NR]), _mm512_aesenclast_epi128(b[1], rk[NR]));
        let y = if FF3 {
            fold8(_mm512_unpacklo_epi64(o0, o1), _mm512_unpackhi_epi64(o0, o1), m, inv, r64)
        } else {
            reduce8(_mm512_shuffle_epi8(_mm512_unpacklo_epi64(o0, o1), bswap), m, inv)
        };
        *d = if enc { add8(*d, y, m) } else { sub8(*d, y, m) };
    }
}

/// All rounds for 8·W values of `a` and `b` (at least 8·W each).
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,vaes")]
fn chunk512<const W: usize, const FF3: bool, const NR: usize>(
    rk: &[__m512i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    assert!(a.len() >= 8 * W && b.len() >= 8 * W, "whole vectors");
    let mut h = [[_mm512_setzero_si512(); W]; 2];
    for (half, x) in h.iter_mut().zip([&*a, &*b]) {
        for (k, v) in half.iter_mut().enumerate() {
            // SAFETY: 8·W u64 are readable (checked above); unaligned loads.
            *v = unsafe { _mm512_loadu_si512(x.as_ptr().add(8 * k).cast()) };
        }
    }
    let vm = [_mm512_set1_epi64(c.m[0] as i64), _mm512_set1_epi64(c.m[1] as i64)];
    let vinv = [_mm512_set1_pd(c.inv[0]), _mm512_set1_pd(c.inv[1])];
    let vr64 = [_mm512_set1_epi64(c.r64[0] as i64), _mm512_set1_epi64(c.r64[1] as i64)];
    let rounds = c.blocks.len();
    for r in 0..rounds {
        // Even rounds update A from B, odd rounds B from A.
        let i = dir.round(r, rounds);
        let p = i % 2;
        let [ha, hb] = &mut h;
        let (src, dst) = if p == 0 { (&*hb, ha) } else { (&*ha, hb) };
        step512::<W, FF3, NR>(rk, const_block(c, i), vm[p], vinv[p], vr64[p], src, dst, dir.is_encrypt());
    }
    for (half, x) in h.iter().zip([a, b]) {
        for (k, v) in half.iter().enumerate() {
            // SAFETY: as above, unaligned stores.
            unsafe { _mm512_storeu_si512(x.as_mut_ptr().add(8 * k).cast(), *v) };
        }
    }
}

/// The VAES-512 kernel: all rounds for every value of `a` and `b`.
///
/// # Safety
/// The CPU must have AVX-512 F, DQ, BW and VAES; `a.len() == b.len()`, a
/// multiple of 8; every half below its round's modulus, each modulus in
/// 2^16..2^52 (FF1) or 2^16..2^32 (FF3).
#[target_feature(enable = "avx512f,avx512dq,avx512bw,vaes")]
pub unsafe fn rounds_vaes512<const FF3: bool>(
    keys: &[__m128i; 15],
    nr: usize,
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    let mut rk = [_mm512_setzero_si512(); 15];
    for (r, k) in rk.iter_mut().zip(keys) {
        *r = _mm512_broadcast_i32x4(*k);
    }
    match nr {
        10 => run512::<FF3, 10>(&rk, c, a, b, dir),
        12 => run512::<FF3, 12>(&rk, c, a, b, dir),
        _ => run512::<FF3, 14>(&rk, c, a, b, dir),
    }
    for k in &mut rk {
        // SAFETY: `k` is a valid, aligned vector; volatile so the wipe of
        // the key copies stays.
        unsafe { core::ptr::write_volatile(k, _mm512_setzero_si512()) };
    }
}

#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,vaes")]
fn run512<const FF3: bool, const NR: usize>(
    rk: &[__m512i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    assert!(a.len() == b.len() && a.len().is_multiple_of(8), "whole vectors");
    let mut j = 0;
    while j + 32 <= a.len() {
        chunk512::<4, FF3, NR>(rk, c, &mut a[j..], &mut b[j..], dir);
        j += 32;
    }
    while j < a.len() {
        chunk512::<1, FF3, NR>(rk, c, &mut a[j..], &mut b[j..], dir);
        j += 8;
    }
}

/// One round for 8 values (two vectors of four halves) with AES-NI on
/// eight 128-bit blocks and AVX2 arithmetic; m < 2^32. As [`step512`]:
/// values 0, 2 and 1, 3 of a vector share a 256-bit block pair.
#[inline]
#[target_feature(enable = "avx2,aes")]
#[allow(clippy::too_many_arguments)]
pub fn step_ni<const FF3: bool, const NR: usize>(
    rk: &[__m128i; 15],
    cb: __m128i,
    m: __m256i,
    inv: __m256d,
    src: &[__m256i; 2],
    dst: &mut [__m256i; 2],
    enc: bool,
) {
    let bswap = _mm256_set_epi64x(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO);
    let (zero, cb) = (_mm256_setzero_si256(), _mm256_broadcastsi128_si256(_mm_xor_si128(cb, rk[0])));
    let mut blk = [_mm_setzero_si128(); 8];
    for (k, &x) in src.iter().enumerate() {
        let (lo, hi) = if FF3 {
            (_mm256_unpacklo_epi64(x, zero), _mm256_unpackhi_epi64(x, zero))
        } else {
            let bx = _mm256_shuffle_epi8(x, bswap);
            (_mm256_unpacklo_epi64(zero, bx), _mm256_unpackhi_epi64(zero, bx))
        };
        let (lo, hi) = (_mm256_xor_si256(lo, cb), _mm256_xor_si256(hi, cb));
        blk[4 * k] = _mm256_castsi256_si128(lo);
        blk[4 * k + 1] = _mm256_extracti128_si256::<1>(lo);
        blk[4 * k + 2] = _mm256_castsi256_si128(hi);
        blk[4 * k + 3] = _mm256_extracti128_si256::<1>(hi);
    }
    for k in &rk[1..NR] {
        for b in &mut blk {
            *b = _mm_aesenc_si128(*b, *k);
        }
    }
    for b in &mut blk {
        *b = _mm_aesenclast_si128(*b, rk[NR]);
    }
    for (k, d) in dst.iter_mut().enumerate() {
        let o0 = _mm256_set_m128i(blk[4 * k + 1], blk[4 * k]);
        let o1 = _mm256_set_m128i(blk[4 * k + 3], blk[4 * k + 2]);
        let y = if FF3 {
            reduce4_128(_mm256_unpacklo_epi64(o0, o1), _mm256_unpackhi_epi64(o0, o1), m, inv)
        } else {
            reduce4(_mm256_shuffle_epi8(_mm256_unpacklo_epi64(o0, o1), bswap), m, inv)
        };
        *d = if enc { add4(*d, y, m) } else { sub4(*d, y, m) };
    }
}

/// The AES-NI + AVX2 kernel: all rounds for every value of `a` and `b`,
/// eight values at a time.
///
/// # Safety
/// The CPU must have AVX2 and AES-NI; `a.len() == b.len()`, a multiple
/// of 8; every half below its round's modulus, each modulus in 2^16..2^32.
#[target_feature(enable = "avx2,aes")]
pub unsafe fn rounds_ni<const FF3: bool>(
    keys: &[__m128i; 15],
    nr: usize,
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    match nr {
        10 => run_ni::<FF3, 10>(keys, c, a, b, dir),
        12 => run_ni::<FF3, 12>(keys, c, a, b, dir),
        _ => run_ni::<FF3, 14>(keys, c, a, b, dir),
    }
}

#[inline]
#[target_feature(enable = "avx2,aes")]
fn run_ni<const FF3: bool, const NR: usize>(
    rk: &[__m128i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    assert!(a.len() == b.len() && a.len().is_multiple_of(8), "whole vectors");
    let vm = [_mm256_set1_epi64x(c.m[0] as i64), _mm256_set1_epi64x(c.m[1] as i64)];
    let vinv = [_mm256_set1_pd(c.inv[0]), _mm256_set1_pd(c.inv[1])];
    let rounds = c.blocks.len();
    for (ca, cb) in a.chunks_exact_mut(8).zip(b.chunks_exact_mut(8)) {
        // SAFETY: eight u64 in each chunk; unaligned loads.
        let mut h: [[__m256i; 2]; 2] = unsafe {
            [
                [_mm256_loadu_si256(ca.as_ptr().cast()), _mm256_loadu_si256(ca.as_ptr().add(4).cast())],
                [_mm256_loadu_si256(cb.as_ptr().cast()), _mm256_loadu_si256(cb.as_ptr().add(4).cast())],
            ]
        };
        for r in 0..rounds {
            let i = dir.round(r, rounds);
            let p = i % 2;
            let [ha, hb] = &mut h;
            let (src, dst) = if p == 0 { (&*hb, ha) } else { (&*ha, hb) };
            step_ni::<FF3, NR>(rk, const_block(c, i), vm[p], vinv[p], src, dst, dir.is_encrypt());
        }
        // SAFETY: as above, unaligned stores.
        unsafe {
            _mm256_storeu_si256(ca.as_mut_ptr().cast(), h[0][0]);
            _mm256_storeu_si256(ca.as_mut_ptr().add(4).cast(), h[0][1]);
            _mm256_storeu_si256(cb.as_mut_ptr().cast(), h[1][0]);
            _mm256_storeu_si256(cb.as_mut_ptr().add(4).cast(), h[1][1]);
        }
    }
}
