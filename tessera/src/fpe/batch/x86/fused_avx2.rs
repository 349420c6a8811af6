//! The AVX2 arithmetic of the fused kernels of `fused256.rs`, four values per vector.

use core::arch::x86_64::*;

use super::fused512::MAX_FF3;
use super::round::{BSWAP_HI, BSWAP_LO};
use crate::fpe::batch::round::Consts;

/// A number below 2^64 congruent to `hi·2^64 + lo` mod m, 2^16 <= m <= [`MAX_FF3`] (`k` from
/// [`Mod256::with_top`]), by two multiplies: `lo` less its top bit b, plus b·(2^63 mod m)
/// (`k.top` = 2^63 + 2^63 mod m, masked by the sign of `lo`), plus h0·(2^64 mod m) + h1·(2^96 mod m);
/// the sum is below 2^63 + (m - 1)·(2^33 - 1).
#[inline]
#[target_feature(enable = "avx2")]
pub fn fold_top4(lo: __m256i, hi: __m256i, k: &Mod256) -> __m256i {
    let h1 = _mm256_shuffle_epi32::<0b11_11_01_01>(hi);
    let h = _mm256_add_epi64(_mm256_mul_epu32(hi, k.r[1]), _mm256_mul_epu32(h1, k.r[2]));
    let b = _mm256_and_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), lo), k.top);
    _mm256_add_epi64(_mm256_add_epi64(lo, b), h)
}
const _: () = assert!(((MAX_FF3 - 1) as u128) * ((1 << 33) - 1) < 1 << 63, "fold_top4's sum must stay below 2^64");

/// One modulus broadcast: m, [`rem4`]'s constants, 2^32, 2^64, 2^96 mod m and (FF3 on VAES-256)
/// 2^63 + (2^63 mod m).
#[derive(Clone, Copy)]
pub struct Mod256 {
    pub(crate) m: __m256i,
    pub(crate) inv: __m256d,
    pub(crate) c: __m256d,
    off: [__m256i; 2],
    pub(crate) r: [__m256i; 3],
    /// Set by [`Mod256::with_top`], else zero.
    pub(crate) top: __m256i,
}

impl Mod256 {
    /// The vectors for parity `p` of `c`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn new(c: &Consts<'_>, p: usize) -> Self {
        Self::with(c.m[p], c.r[p])
    }

    /// As [`Mod256::new`], with `top` for [`fold_top4`].
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn with_top(c: &Consts<'_>, p: usize) -> Self {
        let top = (1u64 << 63) | ((1u64 << 63) % c.m[p]);
        Mod256 { top: _mm256_set1_epi64x(top as i64), ..Self::new(c, p) }
    }

    /// The vectors for modulus `m` and FF3's limb residues `r`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn with(m: u64, r: [u64; 3]) -> Self {
        let v = |x: u64| _mm256_set1_epi64x(x as i64);
        let [inv, c] = quotient_consts(m);
        // `rem4` reads q·m + (0x4330_0000·m mod 2^32)·2^32 for q·m.
        let k = (0x4330_0000u64.wrapping_mul(m) & u64::from(u32::MAX)) << 32;
        Mod256 {
            m: v(m),
            inv: _mm256_set1_pd(inv),
            c: _mm256_set1_pd(c),
            off: [v(k.wrapping_add(m)), v(m.wrapping_sub(k))],
            r: r.map(v),
            top: _mm256_setzero_si256(),
        }
    }
}

/// [`rem4`]'s f64 constants for m: inv = 2^12 / m rounded, and c = 2^52 - 2^52·inv rounded once (the
/// product is exact), so (2^52 + Y)·inv + c is 2^52 + Y·inv.
pub(crate) fn quotient_consts(m: u64) -> [f64; 2] {
    let inv = 4096.0 / m as f64;
    let two52 = (1u64 << 52) as f64;
    [inv, two52 - two52 * inv]
}

/// `y - q·m + m` (`dec` false) or `m - (y - q·m)`, both in [0, 2m], for y < 2^64 and
/// 2^16 <= m < 2^32, q within one above floor(y / m): y's top 52 bits (exact as 2^52 + Y) times
/// 2^12 / m plus c errs by under 1/16 + 1/32 + 1/16 + 1/4, so the sum is in (y/m - 0.41, y/m + 0.35)
/// and rounds to q* or q* + 1; `off` cancels 2^52's exponent bits in q·m.
#[inline]
#[target_feature(enable = "avx2")]
pub fn rem4(y: __m256i, k: &Mod256, dec: bool) -> __m256i {
    let k52 = _mm256_set1_epi64x(0x4330_0000_0000_0000);
    let yf = _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64::<12>(y), k52));
    let q = _mm256_castpd_si256(_mm256_add_pd(_mm256_mul_pd(yf, k.inv), k.c));
    let qm = _mm256_add_epi64(
        _mm256_mul_epu32(q, k.m),
        _mm256_slli_epi64::<32>(_mm256_mul_epu32(_mm256_srli_epi64::<32>(q), k.m)),
    );
    if dec {
        _mm256_add_epi64(_mm256_sub_epi64(k.off[1], y), qm)
    } else {
        _mm256_sub_epi64(_mm256_add_epi64(y, k.off[0]), qm)
    }
}

/// `s - m` where that is not negative, else `s` (s < 2^63).
#[inline]
#[target_feature(enable = "avx2")]
pub fn fold4(s: __m256i, m: __m256i) -> __m256i {
    let t = _mm256_sub_epi64(s, m);
    _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(t), _mm256_castsi256_pd(s), _mm256_castsi256_pd(t)))
}

/// The two block pairs of 4 halves `x` (values 0, 2 and 1, 3), each xored with `cb`, the half placed
/// as FF3 or FF1 places it.
#[inline]
#[target_feature(enable = "avx2")]
pub fn blocks4<const FF3: bool>(x: __m256i, cb: __m256i) -> [__m256i; 2] {
    let zero = _mm256_setzero_si256();
    let (lo, hi) = if FF3 {
        (_mm256_unpacklo_epi64(x, zero), _mm256_unpackhi_epi64(x, zero))
    } else {
        let bx = _mm256_shuffle_epi8(x, _mm256_set_epi64x(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO));
        (_mm256_unpacklo_epi64(zero, bx), _mm256_unpackhi_epi64(zero, bx))
    };
    [_mm256_xor_si256(lo, cb), _mm256_xor_si256(hi, cb)]
}

/// `d + y mod m` (`ENC`) or `d - y mod m` for d < m, y < 2^64.
#[inline]
#[target_feature(enable = "avx2")]
pub fn update4<const ENC: bool>(d: __m256i, y: __m256i, k: &Mod256) -> __m256i {
    // d ± y + m (mod m) in [0, 3m), less m twice where that stays >= 0.
    let s = _mm256_add_epi64(d, rem4(y, k, !ENC));
    fold4(fold4(s, k.m), k.m)
}

/// As [`blocks4`] from the low 32 bits of each half (the high ones ignored).
#[inline]
#[target_feature(enable = "avx2")]
pub fn blocks32<const FF3: bool>(x: __m256i, cb: __m256i) -> [__m256i; 2] {
    let [lo, hi] = place32(FF3).map(|[l, h]| _mm256_set_epi64x(h, l, h, l));
    [_mm256_xor_si256(_mm256_shuffle_epi8(x, lo), cb), _mm256_xor_si256(_mm256_shuffle_epi8(x, hi), cb)]
}

/// The byte shuffles (one 128-bit lane as two 64-bit words) placing the low 32 bits of a lane's value
/// 0 or 1 in a block and zeroing the rest: FF3 in its bytes 0..4, FF1 reversed to its bytes 12..16.
pub(crate) const fn place32(ff3: bool) -> [[i64; 2]; 2] {
    let z = 0x8080_8080_8080_8080u64 as i64; // zero bytes
    if ff3 {
        [[0x8080_8080_0302_0100u64 as i64, z], [0x8080_8080_0b0a_0908u64 as i64, z]]
    } else {
        [[z, 0x0001_0203_8080_8080], [z, 0x0809_0a0b_8080_8080]]
    }
}
