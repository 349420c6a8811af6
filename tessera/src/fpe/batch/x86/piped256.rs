//! FF3's VAES-256 chunks as a two-group pipeline: each [`stage`] enciphers one group's block pairs
//! and, between its first four AES rounds, reduces the other group's outputs ([`finish`]).

use core::arch::x86_64::*;

use super::fused_avx2::{Mod256, blocks32};
use super::fused512::{load_halves, store_halves};
use super::vec_op::mul_lo32;
use crate::fpe::batch::round::Prefetch;

/// Vectors of four halves per group: a chunk is 8·`PW` = 32 values.
pub(crate) const PW: usize = 4;

/// `d ± y mod m` (`ENC`: +) in each lane's low 32 bits, y from FF3's enciphered pairs `o`, with d in
/// the quotient: z = y' + d or (cz + d) - y' for `fold_top4`'s y' is below 2^64, so z - q·m is in
/// [-m, m) and one unsigned minimum with z - q·m + m folds it.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn finish<const ENC: bool>(o: [__m256i; 2], d: __m256i, k: &Mod256, cz: __m256i) -> __m256i {
    let (lo, hi) = (_mm256_unpacklo_epi64(o[0], o[1]), _mm256_unpackhi_epi64(o[0], o[1]));
    let h1 = _mm256_shuffle_epi32::<0b11_11_01_01>(hi);
    let h = _mm256_add_epi64(_mm256_mul_epu32(hi, k.r[1]), _mm256_mul_epu32(h1, k.r[2]));
    let lb = _mm256_add_epi64(lo, _mm256_and_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), lo), k.top));
    let d = _mm256_and_si256(d, _mm256_set1_epi64x(u32::MAX as i64));
    let z = if ENC {
        _mm256_add_epi64(_mm256_add_epi64(lb, d), h)
    } else {
        _mm256_sub_epi64(_mm256_sub_epi64(_mm256_add_epi64(cz, d), lb), h)
    };
    let k52 = _mm256_set1_epi64x(0x4330_0000_0000_0000);
    let zf = _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64::<12>(z), k52));
    let q = _mm256_castpd_si256(_mm256_fmadd_pd(zf, k.inv, k.c));
    let t = _mm256_sub_epi32(z, mul_lo32(q, k.m));
    _mm256_min_epu32(t, _mm256_add_epi32(t, k.m))
}

/// The least multiple of m at least 2^63 + (m - 1)·(2^33 - 1), above every `fold_top4` sum: cz + d - y'
/// is not negative and, for m <= 2^30, below 2^64.
pub(crate) fn dec_offset(m: u64) -> u64 {
    let b = (1u128 << 63) + u128::from(m - 1) * ((1 << 33) - 1);
    (b.div_ceil(u128::from(m)) * u128::from(m)) as u64
}

/// AES rounds 1..=NR of the built block pairs `blk`.
#[inline]
#[target_feature(enable = "avx2,vaes")]
fn encipher<const NR: usize>(rk: &[__m256i; 15], blk: [[__m256i; 2]; PW]) -> [[__m256i; 2]; PW] {
    let mut blk = blk;
    for key in &rk[1..NR] {
        for b in &mut blk {
            *b = [_mm256_aesenc_epi128(b[0], *key), _mm256_aesenc_epi128(b[1], *key)];
        }
    }
    blk.map(|b| [_mm256_aesenclast_epi128(b[0], rk[NR]), _mm256_aesenclast_epi128(b[1], rk[NR])])
}

/// One stage: enciphers `blk` and, after AES round `r + 1` (r < `PW`), updates `dst[r]` from `done[r]`.
#[inline]
#[target_feature(enable = "avx2,vaes,fma")]
pub(crate) fn stage<const NR: usize, const ENC: bool>(
    rk: &[__m256i; 15],
    blk: [[__m256i; 2]; PW],
    done: &[[__m256i; 2]; PW],
    k: &Mod256,
    cz: __m256i,
    dst: &mut [__m256i; PW],
) -> [[__m256i; 2]; PW] {
    let mut blk = blk;
    for (r, key) in rk[1..NR].iter().enumerate() {
        for b in &mut blk {
            *b = [_mm256_aesenc_epi128(b[0], *key), _mm256_aesenc_epi128(b[1], *key)];
        }
        if r < PW {
            dst[r] = finish::<ENC>(done[r], dst[r], k, cz);
        }
    }
    blk.map(|b| [_mm256_aesenclast_epi128(b[0], rk[NR]), _mm256_aesenclast_epi128(b[1], rk[NR])])
}

/// Each half of `src` (its low 32 bits) as FF3's block pairs ^ `cb`.
#[inline]
#[target_feature(enable = "avx2")]
fn build(src: &[__m256i; PW], cb: __m256i) -> [[__m256i; 2]; PW] {
    src.map(|v| blocks32::<true>(v, cb))
}

/// All FF3 rounds for the first 8·[`PW`] values of `a` and `b` as groups A and B (`cz` the
/// [`dec_offset`]s), each stage enciphering one group's round while the other's is finished. `pf`
/// asks for a line after each stage.
#[inline]
#[target_feature(enable = "avx2,vaes,fma")]
pub(crate) fn chunk_piped<const NR: usize, const ENC: bool>(
    rk: &[__m256i; 15],
    cbk: &[__m256i],
    (ks, cz): (&[Mod256; 2], &[__m256i; 2]),
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
    pf: &mut impl Prefetch,
) {
    let [[mut xa, mut xb], [mut ya, mut yb]] = load_halves::<__m256i, PW, 2>(a, b, p);
    let n = cbk.len() / 2;
    let mut oa = encipher::<NR>(rk, build(&ya, cbk[0]));
    for i in 0..n {
        let (c0, c1) = (cbk[2 * i], cbk[2 * i + 1]);
        let ob = stage::<NR, ENC>(rk, build(&yb, c0), &oa, &ks[0], cz[0], &mut xa);
        pf.line();
        oa = stage::<NR, ENC>(rk, build(&xa, c1), &ob, &ks[0], cz[0], &mut xb);
        pf.line();
        let ob = stage::<NR, ENC>(rk, build(&xb, c1), &oa, &ks[1], cz[1], &mut ya);
        pf.line();
        if i + 1 < n {
            oa = stage::<NR, ENC>(rk, build(&ya, cbk[2 * i + 2]), &ob, &ks[1], cz[1], &mut yb);
            pf.line();
        } else {
            for (d, o) in yb.iter_mut().zip(&ob) {
                *d = finish::<ENC>(*o, *d, &ks[1], cz[1]);
            }
        }
    }
    // The halves are the low 32 bits.
    let low = |v: [__m256i; PW]| v.map(|v| _mm256_and_si256(v, _mm256_set1_epi64x(u32::MAX as i64)));
    store_halves([[low(xa), low(xb)], [low(ya), low(yb)]], a, b, p);
}
