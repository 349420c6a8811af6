//! The VAES-256 form of the fused AES-NI + AVX2 kernel (`batch_fused.rs`),
//! for CPUs with VAES but without the AVX-512 kernel (Intel Alder Lake and
//! later client cores, AMD Zen 3): the same blocks, built in 256-bit pairs,
//! are enciphered two per `vaesenc` instead of being split for AES-NI, and
//! y is read back from the pairs as they come out. The arithmetic (the f64
//! quotient estimate of [`rem4`](super::batch_fused::rem4), the sign-blend
//! folds, FF3's limbs) is the AVX2 kernel's, so the results are the same.
//! Every step is straight-line vector code (`scripts/check-ct` compiles one
//! round step).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::batch_fused::{MAX_ROUNDS, Mod256, blocks4, by_rounds, limbs4, load_halves, store_halves, update4};
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
    assert!(a.len() == b.len() && a.len().is_multiple_of(8), "whole vectors");
    let rounds = c.blocks.len();
    assert!(rounds.is_multiple_of(2) && rounds <= MAX_ROUNDS, "an even number of rounds, at most ten");
    // Each round's constant block ^ rk[0], in both lanes, once per call.
    let mut cbk = [_mm256_setzero_si256(); MAX_ROUNDS];
    for (r, v) in cbk[..rounds].iter_mut().enumerate() {
        let i = dir.round(r, rounds);
        let blk = _mm256_set_epi64x(
            c.blocks[i][1] as i64,
            c.blocks[i][0] as i64,
            c.blocks[i][1] as i64,
            c.blocks[i][0] as i64,
        );
        *v = _mm256_xor_si256(blk, rk[0]);
    }
    let p = dir.round(0, rounds) % 2;
    let ks = [Mod256::new(c, p), Mod256::new(c, 1 - p)];
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
