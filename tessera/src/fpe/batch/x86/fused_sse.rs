//! The fused kernel for FF1 with moduli up to [`MAX_NARROW`] on AES-NI and
//! SSE4.1 without AVX2: `fused256.rs`'s 32-bit update on two values per
//! vector, as a pipeline of [`stage`]s as in `fused_ni.rs` (FF3 stays
//! there): FF1 measured 2.07x the AES floor against `fused_ni.rs`'s 2.35x,
//! FF3-1 2.80x against 2.53x (idle A/B at aesni). Halves in their lanes'
//! low 32 bits.

#![allow(unsafe_code)]

use crate::simd::{load, store};
use core::arch::x86_64::*;

use super::fused_avx2::place32;
use super::fused_avx2::quotient_consts;
use super::fused_ni::round_blocks;
use super::fused256::MAX_NARROW;
use super::fused512::by_rounds;
use super::round::{BSWAP_HI, BSWAP_LO};
use super::run::FusedRun;
use crate::Direction;
use crate::fpe::batch::round::{Consts, Prefetch};

/// Vectors (of two values) per group: eight blocks in flight.
const W: usize = 4;
/// Groups per chunk.
const G: usize = 2;

/// One modulus in both 64-bit lanes, with the f64 constants of [`update2`].
pub struct ModSse {
    m: __m128i,
    inv: __m128d,
    c: __m128d,
}

impl ModSse {
    /// The vectors for modulus `m`, which must be in 2^16..=[`MAX_NARROW`].
    #[inline]
    #[target_feature(enable = "sse4.1")]
    pub fn new(m: u64) -> Self {
        assert!((1 << 16..=MAX_NARROW).contains(&m), "a narrow modulus");
        let [inv, c] = quotient_consts(m);
        let v = |x: u64| _mm_set1_epi64x(x as i64);
        ModSse { m: v(m), inv: _mm_set1_pd(inv), c: _mm_set1_pd(c) }
    }
}

/// One round for 2·N values (N vectors of two halves): blocks `cb ^ half`
/// enciphered, then `dst ± y mod m`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub fn step<const N: usize, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    cb: __m128i,
    k: &ModSse,
    src: &[__m128i; N],
    dst: [__m128i; N],
) -> [__m128i; N] {
    let mut blk = src.map(|x| build(x, cb));
    for key in &rk[1..NR] {
        for b in blk.as_flattened_mut() {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    let mut out = dst;
    for (b, d) in blk.iter().zip(&mut out) {
        *d = finish::<ENC>(b.map(|b| _mm_aesenclast_si128(b, rk[NR])), k, *d);
    }
    out
}

/// The blocks `cb ^ half` of the two halves of `x`.
#[inline]
#[target_feature(enable = "sse4.1")]
fn build(x: __m128i, cb: __m128i) -> [__m128i; 2] {
    place32(false).map(|[l, h]| _mm_xor_si128(_mm_shuffle_epi8(x, _mm_set_epi64x(h, l)), cb))
}

/// `d ± y mod m` for the two values of `d`, y read from their enciphered
/// blocks `o`.
#[inline]
#[target_feature(enable = "sse4.1")]
fn finish<const ENC: bool>(o: [__m128i; 2], k: &ModSse, d: __m128i) -> __m128i {
    // Each value's first 8 bytes, reversed.
    let y = _mm_shuffle_epi8(_mm_unpacklo_epi64(o[0], o[1]), _mm_set_epi64x(BSWAP_HI, BSWAP_LO));
    update2::<ENC>(d, y, k)
}

/// One stage of the two-group pipeline, as `fused_ni::stage`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub fn stage<const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    blk: [[__m128i; 2]; W],
    done: &[[__m128i; 2]; W],
    k: &ModSse,
    dst: &mut [__m128i; W],
) -> [[__m128i; 2]; W] {
    let mut blk = blk;
    let mut go = |r: usize| {
        for b in blk.as_flattened_mut() {
            *b = _mm_aesenc_si128(*b, rk[r + 1]);
        }
        dst[r] = finish::<ENC>(done[r], k, dst[r]);
    };
    go(0);
    go(1);
    go(2);
    go(3);
    const _: () = assert!(W == 4, "one go per vector");
    for key in &rk[W + 1..NR] {
        for b in blk.as_flattened_mut() {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    blk.map(|b| b.map(|b| _mm_aesenclast_si128(b, rk[NR])))
}

/// [`update32`](super::fused256::update32) on two lanes without FMA: the
/// estimate `(2^52 + Y)·inv + c`, each step rounded to nearest, is within
/// (y/m - 0.41, y/m + 0.35), so y - q·m is in [-m, m) and `d ± t` in
/// [-m, 2m), exact modulo 2^32 (only q's low 32 bits are read).
#[inline]
#[target_feature(enable = "sse4.1")]
fn update2<const ENC: bool>(d: __m128i, y: __m128i, k: &ModSse) -> __m128i {
    let k52 = _mm_set1_epi64x(0x4330_0000_0000_0000);
    let yf = _mm_castsi128_pd(_mm_or_si128(_mm_srli_epi64::<12>(y), k52));
    let q = _mm_castpd_si128(_mm_add_pd(_mm_mul_pd(yf, k.inv), k.c));
    let t = _mm_sub_epi32(y, mul_lo32(q, k.m));
    let s = if ENC { _mm_add_epi32(d, t) } else { _mm_sub_epi32(d, t) };
    let s = _mm_min_epu32(s, _mm_add_epi32(s, k.m));
    _mm_min_epu32(s, _mm_sub_epi32(s, k.m))
}

/// `pmuludq`, written out (as [`super::vec_op::mul_lo32`]).
#[inline]
#[target_feature(enable = "sse4.1")]
fn mul_lo32(a: __m128i, b: __m128i) -> __m128i {
    let mut r = a;
    // SAFETY: one SSE2 instruction on registers only: no memory, stack or flags.
    unsafe {
        core::arch::asm!("pmuludq {r}, {b}", r = inout(xmm_reg) r, b = in(xmm_reg) b,
            options(pure, nomem, nostack, preserves_flags));
    }
    r
}

/// The SSE4.1 kernel: as `fused_ni::rounds_aesni` for FF1, asking `pf`
/// for everything first; moduli in 2^16..=[`MAX_NARROW`].
#[target_feature(enable = "aes,sse4.1")]
pub fn rounds_sse41(_: crate::cpu::AesNi, work: FusedRun<'_, impl Prefetch>) {
    let FusedRun { keys, nr, c, a, b, dir, pf } = work;
    pf.rest();
    by_rounds!(run(nr, dir; keys, c, a, b, dir));
}

#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn run<const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    let (mut cbk, rounds, p) = round_blocks(rk[0], c, a.len(), b.len(), dir);
    let ks = [ModSse::new(c.m[p]), ModSse::new(c.m[1 - p])];
    let mut j = 0;
    while j + 2 * W * G <= a.len() {
        chunk::<G, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 2 * W * G;
    }
    if j < a.len() {
        chunk::<1, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
    }
    crate::wipe::wipe_vectors(&mut cbk);
}

/// All rounds for 2·W·N values: two groups ([`pipeline`]) or one ([`step`]
/// by step), as `fused_ni::chunk`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn chunk<const N: usize, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    cbk: &[__m128i],
    ks: &[ModSse; 2],
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
) {
    assert!(a.len() >= 2 * W * N && b.len() >= 2 * W * N, "whole groups");
    // x: the halves the first round updates; y: the others.
    let (xs, ys) = if p == 0 { (a, b) } else { (b, a) };
    let load = |s: &[u64]| -> [[__m128i; W]; N] {
        core::array::from_fn(|g| core::array::from_fn(|v| load(&s[2 * (W * g + v)..])))
    };
    let mut h = [load(xs), load(ys)];
    if N == 2 {
        let v = pipeline::<NR, ENC>(rk, cbk, ks, [[h[0][0], h[0][N - 1]], [h[1][0], h[1][N - 1]]]);
        [h[0][0], h[0][N - 1], h[1][0], h[1][N - 1]] = [v[0][0], v[0][1], v[1][0], v[1][1]];
    } else {
        let [x, y] = &mut h;
        for pair in cbk.chunks_exact(2) {
            for (x, y) in x.iter_mut().zip(&*y) {
                *x = step::<W, NR, ENC>(rk, pair[0], &ks[0], y, *x);
            }
            for (y, x) in y.iter_mut().zip(&*x) {
                *y = step::<W, NR, ENC>(rk, pair[1], &ks[1], x, *y);
            }
        }
    }
    for (h, s) in h.iter().zip([xs, ys]) {
        for (j, v) in h.as_flattened().iter().enumerate() {
            // The halves are the low 32 bits.
            let v = _mm_and_si128(*v, _mm_set1_epi64x(u32::MAX as i64));
            store(&mut s[2 * j..], v);
        }
    }
}

/// All rounds for two groups (`h[i][g]`: group g's halves of round parity
/// i) as a pipeline of [`stage`]s, as in `fused_ni::chunk`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn pipeline<const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    cbk: &[__m128i],
    ks: &[ModSse; 2],
    h: [[[__m128i; W]; 2]; 2],
) -> [[[__m128i; W]; 2]; 2] {
    let mut v = h;
    let blocks = |v: &[[[__m128i; W]; 2]; 2], s: usize| v[1 - (s / 2) % 2][s % 2].map(|x| build(x, cbk[s / 2]));
    let mut done = encipher::<NR>(rk, blocks(&v, 0));
    for s in 1..2 * cbk.len() {
        let blk = blocks(&v, s);
        let t = (s - 1) / 2;
        done = stage::<NR, ENC>(rk, blk, &done, &ks[t % 2], &mut v[t % 2][(s - 1) % 2]);
    }
    let t = cbk.len() - 1;
    for (o, d) in done.iter().zip(&mut v[t % 2][1]) {
        *d = finish::<ENC>(*o, &ks[t % 2], *d);
    }
    v
}

/// Blocks through every AES round.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn encipher<const NR: usize>(rk: &[__m128i; 15], blk: [[__m128i; 2]; W]) -> [[__m128i; 2]; W] {
    let mut blk = blk;
    for key in &rk[1..NR] {
        for b in blk.as_flattened_mut() {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    blk.map(|b| b.map(|b| _mm_aesenclast_si128(b, rk[NR])))
}

#[cfg(test)]
#[path = "fused_sse_tests.rs"]
mod tests;
