//! The fused kernels on AVX2 (see `batch_fused.rs` for the scheme and
//! the shared arithmetic): 8 values per step as two vectors of four halves,
//! their blocks built in 256-bit pairs, y reduced with the f64 quotient
//! estimate of [`rem4`](super::batch_fused::rem4) and folded with sign
//! blends. The AES-NI kernel ([`rounds_ni`]) splits the pairs and runs one
//! block per `aesenc`; the VAES-256 kernel ([`rounds_vaes256`], for CPUs
//! with VAES but without the AVX-512 kernel: Intel Alder Lake and later
//! client cores, AMD Zen 3) enciphers the pairs as they are, two blocks per
//! `vaesenc`, and reads y back from them. The arithmetic is the same, so
//! are the results. Every step is straight-line vector code
//! (`scripts/check-ct` compiles one round step of each).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::batch_fused::{
    MAX_ROUNDS, Mod256, blocks4, by_rounds, const_block, limbs4, load_halves, store_halves, update4,
};
use super::batch_round::Consts;
use super::batch_x86::{BSWAP_HI, BSWAP_LO};
use crate::Direction;

/// A chunk's groups and their vectors: 32 values as two groups of 16 (on a
/// Xeon capped at `vaes256`, 16 values as two groups of 8 ran 3-6% slower,
/// as three groups of 8 10-15% slower).
const CW: usize = 4;
const CG: usize = 2;

/// One round for 4·W values (W vectors of four halves) with VAES on 256-bit
/// block pairs and AVX2 arithmetic; m < 2^32. `cb` is the round's constant
/// block ^ rk[0] in both lanes. Values 0, 2 and 1, 3 of a vector share a
/// block pair, so reading y back in the same pairs restores their order.
#[inline]
#[target_feature(enable = "avx2,vaes")]
pub fn step256<const W: usize, const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m256i; 15],
    cb: __m256i,
    k: &Mod256,
    src: &[__m256i; W],
    dst: [__m256i; W],
) -> [__m256i; W] {
    let mut blk = [[_mm256_setzero_si256(); 2]; W];
    for (b, &x) in blk.iter_mut().zip(src) {
        *b = blocks4::<FF3>(x, cb);
    }
    for key in &rk[1..NR] {
        for b in &mut blk {
            *b = [_mm256_aesenc_epi128(b[0], *key), _mm256_aesenc_epi128(b[1], *key)];
        }
    }
    let mut out = dst;
    for (b, d) in blk.iter().zip(&mut out) {
        let (o0, o1) = (_mm256_aesenclast_epi128(b[0], rk[NR]), _mm256_aesenclast_epi128(b[1], rk[NR]));
        let y = if FF3 {
            limbs4(_mm256_unpacklo_epi64(o0, o1), _mm256_unpackhi_epi64(o0, o1), &k.r)
        } else {
            // Each value's first 8 bytes, reversed.
            let bswap = _mm256_set_epi64x(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO);
            _mm256_shuffle_epi8(_mm256_unpacklo_epi64(o0, o1), bswap)
        };
        *d = update4::<ENC>(*d, y, k);
    }
    out
}

/// The VAES-256 kernel: all rounds for every value of `a` and `b`.
///
/// # Safety
/// The CPU must have AVX2, AES-NI and VAES; `a.len() == b.len()`, a
/// multiple of 8; an even number of rounds; every half below its round's
/// modulus, each modulus in 2^16..2^32 (FF1) or
/// 2^16..=[`MAX_FF3`](super::batch_fused::MAX_FF3) (FF3).
#[target_feature(enable = "avx2,aes,vaes")]
pub unsafe fn rounds_vaes256<const FF3: bool>(
    keys: &[__m128i; 15],
    nr: usize,
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    let mut rk = [_mm256_setzero_si256(); 15];
    for (r, k) in rk.iter_mut().zip(keys) {
        *r = _mm256_broadcastsi128_si256(*k);
    }
    by_rounds!(run256::<FF3>(nr, dir; &rk, c, a, b, dir));
    wipe(&mut rk);
}

/// What the chunks of a run share, for `rk0` the first round key and
/// halves of `la` and `lb` values: each round's constant block ^ rk0 in
/// both lanes, in the order the rounds run (copies of rk0: [`wipe`] them),
/// the round count, the moduli of the first round's parity and the other,
/// and that parity.
#[inline]
#[target_feature(enable = "avx2")]
fn setup(
    rk0: __m128i,
    c: &Consts<'_>,
    la: usize,
    lb: usize,
    dir: Direction,
) -> ([__m256i; MAX_ROUNDS], usize, [Mod256; 2], usize) {
    assert!(la == lb && la.is_multiple_of(8), "whole vectors");
    let rounds = c.blocks.len();
    assert!(rounds.is_multiple_of(2) && rounds <= MAX_ROUNDS, "an even number of rounds, at most ten");
    let mut cbk = [_mm256_setzero_si256(); MAX_ROUNDS];
    for (r, v) in cbk[..rounds].iter_mut().enumerate() {
        *v = _mm256_broadcastsi128_si256(_mm_xor_si128(const_block(c, dir.round(r, rounds)), rk0));
    }
    let p = dir.round(0, rounds) % 2;
    (cbk, rounds, [Mod256::new(c, p), Mod256::new(c, 1 - p)], p)
}

/// Zeroes key material copies; volatile so the wipe stays.
#[inline]
#[target_feature(enable = "avx2")]
fn wipe(v: &mut [__m256i]) {
    for k in v {
        // SAFETY: `k` is a valid, aligned vector.
        unsafe { core::ptr::write_volatile(k, _mm256_setzero_si256()) };
    }
}

/// All rounds for 4·W·G values of `a` and `b` (at least that many each),
/// as G groups of W vectors run one after another in every round, so a
/// group's reduction overlaps the next group's AES. `cbk` holds each
/// round's block constant ^ rk[0] in the order they run, `ks` the moduli of
/// the first round's parity and the other, `p` that parity.
#[inline]
#[target_feature(enable = "avx2,vaes")]
fn chunk256<const W: usize, const G: usize, const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m256i; 15],
    cbk: &[__m256i],
    ks: &[Mod256; 2],
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
) {
    let [mut x, mut y] = load_halves::<W, G>(a, b, p);
    for pair in cbk.chunks_exact(2) {
        for (x, y) in x.iter_mut().zip(&y) {
            *x = step256::<W, FF3, NR, ENC>(rk, pair[0], &ks[0], y, *x);
        }
        for (y, x) in y.iter_mut().zip(&x) {
            *y = step256::<W, FF3, NR, ENC>(rk, pair[1], &ks[1], x, *y);
        }
    }
    store_halves([x, y], a, b, p);
}

#[inline]
#[target_feature(enable = "avx2,vaes")]
fn run256<const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m256i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    let (mut cbk, rounds, ks, p) = setup(_mm256_castsi256_si128(rk[0]), c, a.len(), b.len(), dir);
    let mut j = 0;
    while j + 4 * CW * CG <= a.len() {
        chunk256::<CW, CG, FF3, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 4 * CW * CG;
    }
    while j < a.len() {
        chunk256::<2, 1, FF3, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 8;
    }
    wipe(&mut cbk);
}

/// One round for 8 values (two vectors of four halves) with AES-NI on
/// eight 128-bit blocks and AVX2 arithmetic; m < 2^32. `cb` is the
/// round's constant block ^ rk[0] in both lanes. As [`step512`](super::batch_fused::step512):
/// values 0, 2 and 1, 3 of a vector share a 256-bit block pair.
#[inline]
#[target_feature(enable = "avx2,aes")]
pub fn step_ni<const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    cb: __m256i,
    k: &Mod256,
    src: &[__m256i; 2],
    dst: [__m256i; 2],
) -> [__m256i; 2] {
    let mut blk = [_mm_setzero_si128(); 8];
    for (j, &x) in src.iter().enumerate() {
        let [lo, hi] = blocks4::<FF3>(x, cb);
        blk[4 * j] = _mm256_castsi256_si128(lo);
        blk[4 * j + 1] = _mm256_extracti128_si256::<1>(lo);
        blk[4 * j + 2] = _mm256_castsi256_si128(hi);
        blk[4 * j + 3] = _mm256_extracti128_si256::<1>(hi);
    }
    for key in &rk[1..NR] {
        for b in &mut blk {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    for b in &mut blk {
        *b = _mm_aesenclast_si128(*b, rk[NR]);
    }
    let mut out = dst;
    for (j, d) in out.iter_mut().enumerate() {
        let b = &blk[4 * j..4 * j + 4];
        let y = if FF3 {
            let (o0, o1) = (_mm256_set_m128i(b[1], b[0]), _mm256_set_m128i(b[3], b[2]));
            limbs4(_mm256_unpacklo_epi64(o0, o1), _mm256_unpackhi_epi64(o0, o1), &k.r)
        } else {
            // FF1 reads only the first 8 bytes: pair them before widening.
            let y = _mm256_set_m128i(_mm_unpacklo_epi64(b[1], b[3]), _mm_unpacklo_epi64(b[0], b[2]));
            _mm256_shuffle_epi8(y, _mm256_set_epi64x(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO))
        };
        *d = update4::<ENC>(*d, y, k);
    }
    out
}

/// The AES-NI + AVX2 kernel: all rounds for every value of `a` and `b`,
/// eight values at a time.
///
/// # Safety
/// The CPU must have AVX2 and AES-NI; `a.len() == b.len()`, a multiple
/// of 8; an even number of rounds; every half below its round's modulus,
/// each modulus in 2^16..2^32 (FF1) or 2^16..=[`MAX_FF3`](super::batch_fused::MAX_FF3) (FF3).
#[target_feature(enable = "avx2,aes")]
pub unsafe fn rounds_ni<const FF3: bool>(
    keys: &[__m128i; 15],
    nr: usize,
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    by_rounds!(run_ni::<FF3>(nr, dir; keys, c, a, b, dir));
}

/// All rounds for 8·G values of `a` and `b` (at least that many each), as
/// G groups of two vectors run one after another in every round, as
/// `chunk512`'s groups: a group's reduction overlaps the next group's
/// AES. `cbk` holds each round's block constant ^ rk[0] in the order they
/// run, `ks` the moduli of the first round's parity and the other, `p`
/// that parity.
#[inline]
#[target_feature(enable = "avx2,aes")]
fn chunk_ni<const G: usize, const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    cbk: &[__m256i],
    ks: &[Mod256; 2],
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
) {
    let [mut x, mut y] = load_halves::<2, G>(a, b, p);
    for pair in cbk.chunks_exact(2) {
        for (x, y) in x.iter_mut().zip(&y) {
            *x = step_ni::<FF3, NR, ENC>(rk, pair[0], &ks[0], y, *x);
        }
        for (y, x) in y.iter_mut().zip(&x) {
            *y = step_ni::<FF3, NR, ENC>(rk, pair[1], &ks[1], x, *y);
        }
    }
    store_halves([x, y], a, b, p);
}

#[inline]
#[target_feature(enable = "avx2,aes")]
fn run_ni<const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    let (mut cbk, rounds, ks, p) = setup(rk[0], c, a.len(), b.len(), dir);
    let mut j = 0;
    while j + 16 <= a.len() {
        chunk_ni::<2, FF3, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 16;
    }
    if j < a.len() {
        chunk_ni::<1, FF3, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
    }
    wipe(&mut cbk);
}
