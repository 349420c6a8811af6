//! The fused kernel for FF1 with moduli up to [`MAX_NARROW`] on AES-NI and SSE4.1: `fused_ni.rs`'s
//! kernel on a [`Unit`] of two values per vector with `fused256.rs`'s 32-bit update (FF3 is faster on
//! scalar units).

#![allow(unsafe_code)]

use crate::simd::{load, store};
use core::arch::x86_64::*;

use super::fused_avx2::place32;
use super::fused_avx2::quotient_consts;
use super::fused_ni::{Unit, run, unit_methods};
use super::fused256::MAX_NARROW;
use super::fused512::by_rounds;
use super::round::{BSWAP_HI, BSWAP_LO};
use super::run::FusedRun;
use crate::cpu::AesNi;
use crate::fpe::batch::round::Prefetch;

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

/// Two values per vector, each half in its lane's low 32 bits (the high ones ignored, zero when stored).
pub(crate) struct Pair;

impl Unit<2> for Pair {
    type Half = __m128i;
    type Mod = ModSse;
    unit_methods! {
        fn modulus(m: u64, _r: [u64; 3]) -> ModSse { ModSse::new(m) }
        fn build(cb: __m128i, x: __m128i) -> [__m128i; 2] { build(x, cb) }
        fn finish<const ENC: bool>(o: [__m128i; 2], k: &ModSse, d: __m128i) -> __m128i { finish::<ENC>(o, k, d) }
    }
    #[inline(always)]
    fn load(s: &[u64]) -> __m128i {
        load(s)
    }
    #[inline(always)]
    fn store(x: __m128i, s: &mut [u64]) {
        // SAFETY: SSE2, part of every x86-64 CPU.
        store(s, unsafe { _mm_and_si128(x, _mm_set1_epi64x(u32::MAX as i64)) });
    }
}

/// The blocks `cb ^ half` of the two halves of `x`.
#[inline]
#[target_feature(enable = "sse4.1")]
fn build(x: __m128i, cb: __m128i) -> [__m128i; 2] {
    place32(false).map(|[l, h]| _mm_xor_si128(_mm_shuffle_epi8(x, _mm_set_epi64x(h, l)), cb))
}

/// `d ± y mod m` for the two values of `d`, y read from their enciphered blocks `o`.
#[inline]
#[target_feature(enable = "sse4.1")]
fn finish<const ENC: bool>(o: [__m128i; 2], k: &ModSse, d: __m128i) -> __m128i {
    // Each value's first 8 bytes, reversed.
    let y = _mm_shuffle_epi8(_mm_unpacklo_epi64(o[0], o[1]), _mm_set_epi64x(BSWAP_HI, BSWAP_LO));
    update2::<ENC>(d, y, k)
}

/// [`update32`](super::fused256::update32) on two lanes without FMA: the estimate
/// `(2^52 + Y)·inv + c`, each step rounded to nearest, is within (y/m - 0.41, y/m + 0.35), so y - q·m
/// is in [-m, m) and `d ± t` in [-m, 2m), exact modulo 2^32 (only q's low 32 bits are read).
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

/// The SSE4.1 kernel for FF1, asking `pf` for everything first; moduli in 2^16..=[`MAX_NARROW`].
#[target_feature(enable = "aes,sse4.1")]
pub fn rounds_sse41(t: AesNi, work: FusedRun<'_, impl Prefetch>) {
    let FusedRun { keys, nr, c, a, b, dir, pf } = work;
    pf.rest();
    by_rounds!(run[Pair, 2, 4](nr, dir; t, keys, c, a, b, dir, &mut ()));
}

#[cfg(test)]
#[path = "fused_sse_tests.rs"]
mod tests;
