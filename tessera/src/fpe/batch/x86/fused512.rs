//! The fused kernels' scheme, and its VAES-512 + IFMA kernel: with one tweak for a run, every round
//! of FF1 (d = 8) or FF3-1 is built, enciphered and reduced with the halves in registers, a chunk
//! at a time in groups (one group's AES overlaps another's reduction). Straight-line vector code
//! (`scripts/check-ct`).

use crate::simd::{Plain, cast, load, store};
use core::arch::x86_64::*;

use super::round::{BSWAP_HI, BSWAP_LO};
use super::run::FusedRun;
use crate::Direction;
use crate::fpe::batch::round::{Consts, Prefetch};

/// The largest moduli: FF1 on AVX-512 (3m must fit IFMA's 52 bits), FF3-1
/// on every fused kernel (y's limb sum must fit 64 bits).
pub(crate) const MAX_FF1_512: u64 = 1 << 50;
pub(crate) const MAX_FF3: u64 = 1 << 30;
/// The most rounds a run has (FF1's ten).
pub(crate) const MAX_ROUNDS: usize = 10;

/// Calls `run::<G.., NR, ENC>(args)` (`run[G..](..)`) for the AES round count `nr` (10, 12,
/// else 14) and direction `dir` as constants: no branch inside the rounds.
macro_rules! by_rounds {
    ($run:ident $([$($g:tt)*])? ($nr:expr, $dir:expr; $($arg:expr),*)) => {
        match ($nr, $dir.is_encrypt()) {
            (10, true) => $run::<$($($g)*,)? 10, true>($($arg),*),
            (10, false) => $run::<$($($g)*,)? 10, false>($($arg),*),
            (12, true) => $run::<$($($g)*,)? 12, true>($($arg),*),
            (12, false) => $run::<$($($g)*,)? 12, false>($($arg),*),
            (_, true) => $run::<$($($g)*,)? 14, true>($($arg),*),
            (_, false) => $run::<$($($g)*,)? 14, false>($($arg),*),
        }
    };
}
pub(crate) use by_rounds;

/// Round `i`'s constant block as a 128-bit vector.
#[inline(always)]
pub(crate) fn const_block(c: &Consts<'_>, i: usize) -> __m128i {
    cast(c.blocks[i])
}

/// For a run on `la` and `lb` values (as many, a multiple of `whole`): each round's constant block
/// as `wide` makes it into `cbk`, in run order (the caller wipes them); returns the round count and
/// the first round's parity (0: it updates A).
#[inline(always)]
pub(crate) fn round_consts<V>(
    c: &Consts<'_>,
    (la, lb, whole): (usize, usize, usize),
    dir: Direction,
    cbk: &mut [V; MAX_ROUNDS],
    wide: impl Fn(__m128i) -> V,
) -> (usize, usize) {
    assert!(la == lb && la.is_multiple_of(whole), "whole vectors");
    let rounds = c.blocks.len();
    assert!(rounds.is_multiple_of(2) && rounds <= MAX_ROUNDS, "an even number of rounds, at most ten");
    for (r, v) in cbk[..rounds].iter_mut().enumerate() {
        *v = wide(const_block(c, dir.round(r, rounds)));
    }
    (rounds, dir.round(0, rounds) % 2)
}

/// The first G·W vectors `V` of `a` and `b` as G groups of W, the half round parity `p` updates first.
#[inline(always)]
pub(crate) fn load_halves<V: Plain, const W: usize, const G: usize>(
    a: &[u64],
    b: &[u64],
    p: usize,
) -> [[[V; W]; G]; 2] {
    let k = size_of::<V>() / 8;
    assert!(a.len() >= k * W * G && b.len() >= k * W * G, "whole vectors");
    // Zeros, then each vector loaded (the size asserted).
    let mut h = [[[load::<V, u8>(&[0; 64]); W]; G]; 2];
    for (half, s) in h.iter_mut().zip([a, b]) {
        for (j, v) in half.as_flattened_mut().iter_mut().enumerate() {
            *v = load(&s[k * j..]);
        }
    }
    if p == 0 { h } else { [h[1], h[0]] }
}

/// Stores what [`load_halves`] loaded (with the same `p`) back.
#[inline(always)]
pub(crate) fn store_halves<V: Plain, const W: usize, const G: usize>(
    h: [[[V; W]; G]; 2],
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
) {
    let k = size_of::<V>() / 8;
    assert!(a.len() >= k * W * G && b.len() >= k * W * G, "whole vectors");
    let h = if p == 0 { h } else { [h[1], h[0]] };
    for (half, s) in h.iter().zip([a, b]) {
        for (j, v) in half.as_flattened().iter().enumerate() {
            store(&mut s[k * j..], *v);
        }
    }
}

/// One modulus broadcast for [`step512`]: m, 2m, 3m (FF1) or m, m - 1, 2m - 1 (FF3), the Barrett
/// factor (floor(2^64 / m), FF3 floor(2^65 / m)), 2^52 - m, and 2^64, 2^96 mod m.
#[derive(Clone, Copy)]
pub struct Mod512 {
    m: [__m512i; 3],
    mu: __m512i,
    neg: __m512i,
    r: [__m512i; 2],
}

impl Mod512 {
    /// The vectors for parity `p` of `c`, for FF3's reduction (`FF3`) or FF1's.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn new<const FF3: bool>(c: &Consts<'_>, p: usize) -> Self {
        let v = |x: u64| _mm512_set1_epi64(x as i64);
        let m = c.m[p];
        // floor(2^65 / m) from floor(2^64 / m) and 2^64 mod m: no division.
        let mu = if FF3 { 2 * c.mu[p] + u64::from(2 * c.r[p][1] >= m) } else { c.mu[p] };
        let ms = if FF3 { [m, m - 1, 2 * m - 1] } else { [m, 2 * m, 3 * m] };
        // FF1's folded reduction ([`barrett8_fold`]) reads 2^32 mod m; `mu` is then floor(2^52 / m).
        let r = if !FF3 && c.fold { [v(c.r[p][0]), v(0)] } else { [v(c.r[p][1]), v(c.r[p][2])] };
        Mod512 { m: ms.map(v), mu: v(mu), neg: v((1 << 52) - m), r }
    }
}

/// `y mod m` up to 2m more (in [0, 3m)) for 2^12 <= m <= 2^50: the quotient estimate
/// `(y >> 12)·mu >> 52` is at most two short, and the remainder is exact in the low 52 bits.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub fn barrett8(y: __m512i, k: &Mod512) -> __m512i {
    let q = _mm512_madd52hi_epu64(_mm512_setzero_si512(), _mm512_srli_epi64::<12>(y), k.mu);
    _mm512_and_si512(_mm512_madd52lo_epu64(y, q, k.neg), _mm512_set1_epi64((1 << 52) - 1))
}

/// `y mod m` up to m more (in [0, 2m)) for 2 <= m <= 2^20: y folded to y' = hi·(2^32 mod m) + lo
/// < m·2^32 <= 2^52, then the estimate `y'·mu >> 52` (mu = floor(2^52 / m)) is at most one short.
/// The remainder is exact in the low 52 bits.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub fn barrett8_fold(y: __m512i, k: &Mod512) -> __m512i {
    let lo = _mm512_and_si512(y, _mm512_set1_epi64(u32::MAX as i64));
    let y = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64::<32>(y), k.r[0]), lo);
    let q = _mm512_madd52hi_epu64(_mm512_setzero_si512(), y, k.mu);
    _mm512_and_si512(_mm512_madd52lo_epu64(y, q, k.neg), _mm512_set1_epi64((1 << 52) - 1))
}

/// `d + r mod m` (`ENC`) or `d - r mod m` for d < m, r < 3m:
/// the sum, shifted into [0, 4m), less 2m then m where that does not wrap.
#[inline]
#[target_feature(enable = "avx512f")]
pub fn update8<const ENC: bool>(d: __m512i, r: __m512i, k: &Mod512) -> __m512i {
    let s = if ENC { _mm512_add_epi64(d, r) } else { _mm512_sub_epi64(_mm512_add_epi64(d, k.m[2]), r) };
    let s = _mm512_min_epu64(s, _mm512_sub_epi64(s, k.m[1]));
    _mm512_min_epu64(s, _mm512_sub_epi64(s, k.m[0]))
}

/// FF3's `d + y mod m` (`ENC`) or `d - y mod m` in [0, 2m) ([`fix8`]
/// finishes it), for the 128-bit `y = hi·2^64 + lo`, d < m, 2^16 <= m <= 2^30.
///
/// With d' = d (encrypting) or m - 1 - d, y + d' folds to `Y = lo + t`,
/// t = h0·(2^64 mod m) + d' + h1·(2^96 mod m) < 2^33·m <= 2^63 (h0, h1 the
/// 32-bit halves of `hi`). Y may pass 2^64; neither read needs the carry:
/// - q = floor(e·mu / 2^52), e = (lo >> 13) + (t >> 13) < 2^52, mu =
///   floor(2^65 / m) <= 2^49: e in (Y/2^13 - 2, Y/2^13] and mu in
///   (2^65/m - 1, 2^65/m] give Y/m - 2 < Y/m - Y/2^65 - 2^14/m < q <= Y/m
///   (Y/2^65 <= 3/4 for m <= 2^30, 2^14/m <= 1/4 for m >= 2^16), so
///   ρ = Y - q·m is in [0, 2m);
/// - ρ's low 52 bits: IFMA's low half adds q·(2^52 - m) to `lo + t` (ρ,
///   ≡ y + d), or q·m to `(2m - 1 - lo) - t` (2m - 1 - ρ ≡ d - y), both
///   below 2^52.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub fn pre8<const ENC: bool>(lo: __m512i, hi: __m512i, d: __m512i, k: &Mod512) -> __m512i {
    // `mul_epu32` reads the low 32 bits of a lane.
    let h1 = _mm512_shuffle_epi32::<_MM_PERM_DDBB>(hi);
    let d = if ENC { d } else { _mm512_sub_epi64(k.m[1], d) };
    let t = _mm512_add_epi64(_mm512_add_epi64(_mm512_mul_epu32(hi, k.r[0]), d), _mm512_mul_epu32(h1, k.r[1]));
    let e = _mm512_add_epi64(_mm512_srli_epi64::<13>(lo), _mm512_srli_epi64::<13>(t));
    let q = _mm512_madd52hi_epu64(_mm512_setzero_si512(), e, k.mu);
    let s = if ENC {
        _mm512_madd52lo_epu64(_mm512_add_epi64(lo, t), q, k.neg)
    } else {
        _mm512_madd52lo_epu64(_mm512_sub_epi64(_mm512_sub_epi64(k.m[2], lo), t), q, k.m[0])
    };
    _mm512_and_si512(s, _mm512_set1_epi64((1 << 52) - 1))
}

/// `s mod m` for s < 2m: less m where that does not wrap.
#[inline]
#[target_feature(enable = "avx512f")]
pub fn fix8(s: __m512i, k: &Mod512) -> __m512i {
    _mm512_min_epu64(s, _mm512_sub_epi64(s, k.m[0]))
}

/// One round for 8·W values: blocks of `src` ^ `cbk` (the round's constant block ^ `rk[0]`), `NR`
/// AES rounds, then `dst ± y mod m`. Values 0, 2, 4, 6 of a vector share one block vector, 1, 3, 5, 7
/// the next.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma,vaes")]
pub fn step512<const W: usize, const FF3: bool, const FOLD: bool, const NR: usize, const ENC: bool>(
    rk: &[__m512i; 15],
    cbk: __m512i,
    k: &Mod512,
    src: &[__m512i; W],
    dst: [__m512i; W],
) -> [__m512i; W] {
    // FF1: value 2k's (`to_lo`) or 2k + 1's (`to_hi`) bytes reversed into
    // the upper half of lane k; `y_be` reverses a lane's low 8 bytes.
    let z = 0x8080_8080_8080_8080u64 as i64; // zero bytes
    let to_lo = _mm512_set_epi64(BSWAP_LO, z, BSWAP_LO, z, BSWAP_LO, z, BSWAP_LO, z);
    let to_hi = _mm512_set_epi64(BSWAP_HI, z, BSWAP_HI, z, BSWAP_HI, z, BSWAP_HI, z);
    let y_be = _mm512_set1_epi64(BSWAP_LO);
    let zero = _mm512_setzero_si512();
    let lo_qwords = _mm512_set_epi64(0, -1, 0, -1, 0, -1, 0, -1);
    let mut blk = [[zero; 2]; W];
    for (b, &x) in blk.iter_mut().zip(src) {
        *b = if FF3 {
            // Even values xored in place (cbk ^ (x & low qwords)), odd moved down.
            [
                _mm512_ternarylogic_epi64::<0x78>(cbk, x, lo_qwords),
                _mm512_xor_si512(_mm512_unpackhi_epi64(x, zero), cbk),
            ]
        } else {
            [_mm512_xor_si512(_mm512_shuffle_epi8(x, to_lo), cbk), _mm512_xor_si512(_mm512_shuffle_epi8(x, to_hi), cbk)]
        };
    }
    for key in &rk[1..NR] {
        for b in &mut blk {
            *b = [_mm512_aesenc_epi128(b[0], *key), _mm512_aesenc_epi128(b[1], *key)];
        }
    }
    let mut out = dst;
    for (b, d) in blk.iter().zip(&mut out) {
        let (o0, o1) = (_mm512_aesenclast_epi128(b[0], rk[NR]), _mm512_aesenclast_epi128(b[1], rk[NR]));
        *d = if FF3 {
            fix8(pre8::<ENC>(_mm512_unpacklo_epi64(o0, o1), _mm512_unpackhi_epi64(o0, o1), *d, k), k)
        } else {
            // o0's first 8 bytes reversed in each lane's low half, o1's in its high.
            let y = _mm512_mask_shuffle_epi8(_mm512_shuffle_epi8(o0, y_be), 0xff00_ff00_ff00_ff00, o1, y_be);
            let r = if FOLD { barrett8_fold(y, k) } else { barrett8(y, k) };
            update8::<ENC>(*d, r, k)
        };
    }
    out
}

/// All rounds for 8·H·G values of `a` and `b`, as G (1 or 2) groups of H vectors; `ks`: the moduli of
/// the first round's parity `p` and the other.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma,vaes")]
fn chunk512<const H: usize, const G: usize, const FF3: bool, const FOLD: bool, const NR: usize, const ENC: bool>(
    rk: &[__m512i; 15],
    cbk: &[__m512i],
    ks: &[Mod512; 2],
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
) {
    let [mut x, mut y] = load_halves::<__m512i, H, G>(a, b, p);
    // Constant group indices keep the halves in registers.
    const { assert!(G <= 2, "at most two groups") };
    for pair in cbk.chunks_exact(2) {
        x[0] = step512::<H, FF3, FOLD, NR, ENC>(rk, pair[0], &ks[0], &y[0], x[0]);
        if G > 1 {
            x[G - 1] = step512::<H, FF3, FOLD, NR, ENC>(rk, pair[0], &ks[0], &y[G - 1], x[G - 1]);
        }
        y[0] = step512::<H, FF3, FOLD, NR, ENC>(rk, pair[1], &ks[1], &x[0], y[0]);
        if G > 1 {
            y[G - 1] = step512::<H, FF3, FOLD, NR, ENC>(rk, pair[1], &ks[1], &x[G - 1], y[G - 1]);
        }
    }
    store_halves([x, y], a, b, p);
}

/// The VAES-512 kernel: all rounds for every value of `a` and `b`, after asking `pf` for all of it.
/// Needs `a.len() == b.len()`, a multiple of 8; an even number of rounds; halves below their moduli,
/// each in 2^16..=[`MAX_FF1_512`] (FF1) or 2^16..=[`MAX_FF3`] (FF3), or both in 2..=2^20 with `c.fold`.
#[target_feature(enable = "avx512f,avx512bw,avx512ifma,vaes")]
pub fn rounds_vaes512<const FF3: bool>(_: crate::cpu::Vaes512Ifma, work: FusedRun<'_, impl Prefetch>) {
    let FusedRun { keys, nr, c, a, b, dir, pf } = work;
    pf.rest();
    let mut rk = [_mm512_setzero_si512(); 15];
    for (r, k) in rk.iter_mut().zip(keys) {
        *r = _mm512_broadcast_i32x4(*k);
    }
    if !FF3 && c.fold {
        by_rounds!(run512[false, true](nr, dir; &rk, c, a, b, dir));
    } else {
        by_rounds!(run512[FF3, false](nr, dir; &rk, c, a, b, dir));
    }
    crate::wipe::wipe_vectors(&mut rk);
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma,vaes")]
fn run512<const FF3: bool, const FOLD: bool, const NR: usize, const ENC: bool>(
    rk: &[__m512i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    let mut cbk = [_mm512_setzero_si512(); MAX_ROUNDS];
    let wide = |b| _mm512_xor_si512(_mm512_broadcast_i32x4(b), rk[0]);
    let (rounds, p) = round_consts(c, (a.len(), b.len(), 8), dir, &mut cbk, wide);
    let ks = [Mod512::new::<FF3>(c, p), Mod512::new::<FF3>(c, 1 - p)];
    // Chunks of 64 values, then 32, then 8.
    let mut j = 0;
    while j + 64 <= a.len() {
        chunk512::<4, 2, FF3, FOLD, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 64;
    }
    if j + 32 <= a.len() {
        chunk512::<2, 2, FF3, FOLD, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 32;
    }
    while j < a.len() {
        chunk512::<1, 1, FF3, FOLD, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 8;
    }
    crate::wipe::wipe_vectors(&mut cbk);
}

#[cfg(test)]
#[path = "fused_tests.rs"]
#[allow(unsafe_code)] // calls the kernels' `#[target_feature]` helpers
mod tests;
