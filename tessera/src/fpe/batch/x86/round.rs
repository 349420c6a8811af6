//! The AVX-512 and AVX2 round kernels of [`super::super::kernel`]: straight-line, masked corrections.

#![allow(unsafe_code)]

use crate::simd::{load, store};
use core::arch::x86_64::*;

use crate::Direction;
use crate::fpe::batch::round::{Layout, build_portable};

/// Byte order reversal within each 64-bit lane (for `vpshufb`).
pub(crate) const BSWAP_LO: i64 = 0x0001_0203_0405_0607;
pub(crate) const BSWAP_HI: i64 = 0x0809_0a0b_0c0d_0e0f;
/// 2^84 + 2^52 (exact in f64).
const TWO84_PLUS_TWO52: f64 = (1u128 << 84) as f64 + (1u64 << 52) as f64;

/// `y mod m` for eight u64 `y`: the f64 quotient estimate is within one, then two masked corrections.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub fn reduce8(y: __m512i, m: __m512i, inv: __m512d) -> __m512i {
    let q = _mm512_cvttpd_epu64(_mm512_mul_pd(_mm512_cvtepu64_pd(y), inv));
    let r = _mm512_sub_epi64(y, _mm512_mullo_epi64(q, m));
    let r = _mm512_mask_add_epi64(r, _mm512_cmplt_epi64_mask(r, _mm512_setzero_si512()), r, m);
    _mm512_mask_sub_epi64(r, _mm512_cmpge_epi64_mask(r, m), r, m)
}

/// `fn $name(lo, hi, m, inv)`: `(hi * 2^64 + lo) mod m` for m < 2^32, by three `$reduce`s.
macro_rules! reduce_128 {
    ($name:ident, $v:ty, $inv:ty, $features:literal, $reduce:ident, $or:ident, $sll:ident, $srl:ident, $and:ident, $set1:ident) => {
        #[inline]
        #[target_feature(enable = $features)]
        pub fn $name(lo: $v, hi: $v, m: $v, inv: $inv) -> $v {
            let r = $reduce(hi, m, inv);
            let r = $reduce($or($sll::<32>(r), $srl::<32>(lo)), m, inv);
            $reduce($or($sll::<32>(r), $and(lo, $set1(u32::MAX as i64))), m, inv)
        }
    };
}
reduce_128! {reduce8_128, __m512i, __m512d, "avx512f,avx512dq", reduce8,
_mm512_or_si512, _mm512_slli_epi64, _mm512_srli_epi64, _mm512_and_si512, _mm512_set1_epi64}
reduce_128! {reduce4_128, __m256i, __m256d, "avx2", reduce4,
_mm256_or_si256, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_and_si256, _mm256_set1_epi64x}

/// `(a + r) mod m` for `a, r < m < 2^63`, eight lanes.
#[inline]
#[target_feature(enable = "avx512f")]
pub fn add8(a: __m512i, r: __m512i, m: __m512i) -> __m512i {
    let s = _mm512_add_epi64(a, r);
    _mm512_mask_sub_epi64(s, _mm512_cmpge_epu64_mask(s, m), s, m)
}

/// `(a - r) mod m` for `a, r < m`, eight lanes.
#[inline]
#[target_feature(enable = "avx512f")]
pub fn sub8(a: __m512i, r: __m512i, m: __m512i) -> __m512i {
    let s = _mm512_sub_epi64(a, r);
    _mm512_mask_add_epi64(s, _mm512_cmplt_epu64_mask(a, r), s, m)
}

/// The first (`ODD` = 0) or second (`ODD` = 1) 8 bytes, read little-endian, of eight consecutive
/// blocks (`lo` holds blocks 0..4, `hi` blocks 4..8).
#[inline]
#[target_feature(enable = "avx512f")]
pub fn words8<const ODD: i64>(lo: __m512i, hi: __m512i) -> __m512i {
    let idx = _mm512_setr_epi64(ODD, 2 + ODD, 4 + ODD, 6 + ODD, 8 + ODD, 10 + ODD, 12 + ODD, 14 + ODD);
    _mm512_permutex2var_epi64(lo, idx, hi)
}

/// The first 8 bytes, read big-endian, of eight consecutive blocks.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub fn heads8(lo: __m512i, hi: __m512i) -> __m512i {
    let bswap = _mm512_set_epi64(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO);
    _mm512_shuffle_epi8(words8::<0>(lo, hi), bswap)
}

/// y mod m for eight blocks: FF1 reads y as the first 8 bytes big-endian, FF3-1 as all 16 bytes
/// little-endian (then m < 2^32).
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512bw")]
pub fn y8<const FF3: bool>(lo: __m512i, hi: __m512i, m: __m512i, inv: __m512d) -> __m512i {
    if FF3 { reduce8_128(words8::<0>(lo, hi), words8::<1>(lo, hi), m, inv) } else { reduce8(heads8(lo, hi), m, inv) }
}

/// The AVX-512 round kernel (see `Kernel::round`) on all of `x`, whose length it returns. Panics
/// unless `blocks.len() >= x.len()`.
#[target_feature(enable = "avx512f,avx512dq,avx512bw")]
pub fn round_avx512<const FF3: bool>(
    _: crate::cpu::Avx512,
    m: u64,
    inv: f64,
    blocks: &[[u8; 16]],
    x: &mut [u64],
    dir: Direction,
) -> usize {
    assert!(blocks.len() >= x.len(), "one block per value");
    let (vm, vinv) = (_mm512_set1_epi64(m as i64), _mm512_set1_pd(inv));
    let n = x.len();
    let mut j = 0;
    while j < n {
        // Lane masks from the length alone (the tail of the group).
        let k = (n - j).min(8);
        let (mlo, mhi) = (lanes(2 * k.min(4)), lanes(2 * k.saturating_sub(4)));
        let p = blocks[j..].as_ptr() as *const i64;
        // SAFETY: the masks cover only blocks j..j+k, inside `blocks` (asserted above)
        // (masked-off lanes are not accessed), and x[j..j+k].
        unsafe {
            let lo = _mm512_maskz_loadu_epi64(mlo, p);
            let hi = _mm512_maskz_loadu_epi64(mhi, p.add(8));
            let t = _mm512_maskz_loadu_epi64(lanes(k), x[j..].as_ptr() as *const i64);
            let r = y8::<FF3>(lo, hi, vm, vinv);
            let s = if dir.is_encrypt() { add8(t, r, vm) } else { sub8(t, r, vm) };
            _mm512_mask_storeu_epi64(x[j..].as_mut_ptr() as *mut i64, lanes(k), s);
        }
        j += 8;
    }
    n
}

/// A mask of the low `k` (at most 8) lanes.
#[inline(always)]
fn lanes(k: usize) -> __mmask8 {
    ((1u32 << k) - 1) as __mmask8
}

/// `y mod m` for four u64 `y` and m < 2^32: the f64 quotient estimate is within one.
#[inline]
#[target_feature(enable = "avx2")]
pub fn reduce4(y: __m256i, m: __m256i, inv: __m256d) -> __m256i {
    // Exact doubles of y's halves: 2^52 + lo and 2^84 + hi * 2^32.
    let (k52, k84) = (0x4330_0000_0000_0000i64, 0x4530_0000_0000_0000i64);
    let lo = _mm256_blend_epi32::<0b1010_1010>(y, _mm256_set1_epi64x(k52));
    let hi = _mm256_xor_si256(_mm256_srli_epi64::<32>(y), _mm256_set1_epi64x(k84));
    // (2^84 + hi * 2^32) - (2^84 + 2^52) + (2^52 + lo), rounded once.
    let hi = _mm256_sub_pd(_mm256_castsi256_pd(hi), _mm256_set1_pd(TWO84_PLUS_TWO52));
    let yf = _mm256_add_pd(hi, _mm256_castsi256_pd(lo));
    // q < 2^48: truncate, then read its bits after adding 2^52.
    let qf = _mm256_round_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(_mm256_mul_pd(yf, inv));
    let q = _mm256_xor_si256(
        _mm256_castpd_si256(_mm256_add_pd(qf, _mm256_set1_pd(f64::from_bits(k52 as u64)))),
        _mm256_set1_epi64x(k52),
    );
    // q * m mod 2^64 from 32-bit products (m < 2^32).
    let qm = _mm256_add_epi64(
        _mm256_mul_epu32(q, m),
        _mm256_slli_epi64::<32>(_mm256_mul_epu32(_mm256_srli_epi64::<32>(q), m)),
    );
    let r = _mm256_sub_epi64(y, qm);
    let r = _mm256_add_epi64(r, _mm256_and_si256(m, _mm256_cmpgt_epi64(_mm256_setzero_si256(), r)));
    let big = _mm256_cmpgt_epi64(r, _mm256_sub_epi64(m, _mm256_set1_epi64x(1)));
    _mm256_sub_epi64(r, _mm256_and_si256(m, big))
}

/// `(a + r) mod m` for `a, r < m < 2^62`, four lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub fn add4(a: __m256i, r: __m256i, m: __m256i) -> __m256i {
    let s = _mm256_add_epi64(a, r);
    let big = _mm256_cmpgt_epi64(s, _mm256_sub_epi64(m, _mm256_set1_epi64x(1)));
    _mm256_sub_epi64(s, _mm256_and_si256(m, big))
}

/// `(a - r) mod m` for `a, r < m < 2^62`, four lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub fn sub4(a: __m256i, r: __m256i, m: __m256i) -> __m256i {
    let s = _mm256_sub_epi64(a, r);
    _mm256_add_epi64(s, _mm256_and_si256(m, _mm256_cmpgt_epi64(_mm256_setzero_si256(), s)))
}

/// y mod m for four blocks (`lo` holds blocks 0 and 1, `hi` blocks 2 and 3), read as [`y8`] reads.
#[inline]
#[target_feature(enable = "avx2")]
pub fn y4<const FF3: bool>(lo: __m256i, hi: __m256i, m: __m256i, inv: __m256d) -> __m256i {
    // Even qwords of lo (blocks 0, 1) and hi (blocks 2, 3), in order; odd likewise.
    let first = _mm256_permute4x64_epi64::<0b1101_1000>(_mm256_unpacklo_epi64(lo, hi));
    if FF3 {
        let second = _mm256_permute4x64_epi64::<0b1101_1000>(_mm256_unpackhi_epi64(lo, hi));
        reduce4_128(first, second, m, inv)
    } else {
        let bswap = _mm256_set_epi64x(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO);
        reduce4(_mm256_shuffle_epi8(first, bswap), m, inv)
    }
}

/// The AVX2 round kernel (see `Kernel::round`) on whole vectors, whose length it returns; needs
/// m < 2^32 and `blocks.len() >= x.len()`.
#[target_feature(enable = "avx2")]
pub fn round_avx2<const FF3: bool>(
    _: crate::cpu::Avx2,
    m: u32,
    inv: f64,
    blocks: &[[u8; 16]],
    x: &mut [u64],
    dir: Direction,
) -> usize {
    let (vm, vinv) = (_mm256_set1_epi64x(m as i64), _mm256_set1_pd(inv));
    let whole = x.len() / 4 * 4;
    for j in (0..whole).step_by(4) {
        let (lo, hi, t) = (load(&blocks[j..j + 2]), load(&blocks[j + 2..j + 4]), load(&x[j..j + 4]));
        let r = y4::<FF3>(lo, hi, vm, vinv);
        let s = if dir.is_encrypt() { add4(t, r, vm) } else { sub4(t, r, vm) };
        store(&mut x[j..j + 4], s);
    }
    whole
}

/// `Kernel::build`'s block-building loop: [`build_portable`] compiled for each `$features`.
macro_rules! builds {
    ($($name:ident, $token:ty, $features:literal;)*) => {$(
        #[target_feature(enable = $features)]
        pub fn $name(_: $token, layout: Layout, bases: &[[u64; 2]], term: [u64; 2], x: &[u64], blocks: &mut [[u8; 16]]) {
            build_portable(layout, bases, term, x, blocks)
        }
    )*};
}
builds! {
    build_avx512, crate::cpu::Avx512, "avx512f,avx512bw,avx512dq,avx512vl";
    build_avx2, crate::cpu::Avx2, "avx2";
}
