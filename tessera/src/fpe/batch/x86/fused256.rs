//! The fused kernel on AVX2 and VAES-256 (scheme in `fused512.rs`): four halves per vector,
//! arithmetic in `fused_avx2.rs`, a 32-bit update for moduli up to [`MAX_NARROW`] ([`update32`]).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::fused_avx2::{Mod256, blocks4, blocks32, fold_top4, update4};
use super::fused512::{MAX_FF3, MAX_ROUNDS, by_rounds, load_halves, round_consts, store_halves};
use super::piped256::{PW, chunk_piped};
use super::round::{BSWAP_HI, BSWAP_LO};
use super::run::FusedRun;
use super::vec_op::mul_lo32;
use super::vec_op::vec_op;
use crate::Direction;
use crate::fpe::batch::round::{Consts, Prefetch};

/// A chunk: 32 values as eight groups of one vector (faster than two groups of four).
const CW: usize = 1;
const CG: usize = 8;

/// The largest modulus of [`update32`]: sums below 2m plus m stay below 2^32.
pub(crate) const MAX_NARROW: u64 = u32::MAX as u64 / 3;
const _: () = assert!(MAX_FF3 <= MAX_NARROW, "FF3 runs the 32-bit update only");

/// One round for 4·W values with VAES on 256-bit block pairs: m < 2^32, or m <= [`MAX_NARROW`] with
/// `NARROW` (halves in their lanes' low 32 bits, the high ones undefined on return). `cb`: the
/// round's constant block ^ `rk[0]` in both lanes.
#[inline]
#[target_feature(enable = "avx2,vaes,fma")]
pub fn step256<const W: usize, const FF3: bool, const NR: usize, const ENC: bool, const NARROW: bool>(
    rk: &[__m256i; 15],
    cb: __m256i,
    k: &Mod256,
    src: &[__m256i; W],
    dst: [__m256i; W],
) -> [__m256i; W] {
    let mut blk = [[_mm256_setzero_si256(); 2]; W];
    for (b, &x) in blk.iter_mut().zip(src) {
        *b = if NARROW { blocks32::<FF3>(x, cb) } else { blocks4::<FF3>(x, cb) };
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
            fold_top4(_mm256_unpacklo_epi64(o0, o1), _mm256_unpackhi_epi64(o0, o1), k)
        } else {
            // Each value's first 8 bytes, reversed (the unpack written out).
            let bswap = _mm256_set_epi64x(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO);
            _mm256_shuffle_epi8(vec_op!(ymm_reg: __m256i, "vpunpcklqdq", o0, o1), bswap)
        };
        *d = if NARROW { update32::<ENC>(*d, y, k) } else { update4::<ENC>(*d, y, k) };
    }
    out
}

/// `d ± y mod m` (`ENC`: +) in each lane's low 32 bits (high ones ignored, undefined on return), for
/// d < m, y < 2^64, 2^16 <= m <= [`MAX_NARROW`]. With [`rem4`](super::fused_avx2::rem4)'s estimate
/// `d ± (y - q·m)` is in [-m, 2m), exact modulo 2^32; two unsigned minimums fold it.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub fn update32<const ENC: bool>(d: __m256i, y: __m256i, k: &Mod256) -> __m256i {
    let k52 = _mm256_set1_epi64x(0x4330_0000_0000_0000);
    let yf = _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64::<12>(y), k52));
    // q's low 32 bits are the mantissa's; FMA's one rounding only narrows the estimate.
    let q = _mm256_castpd_si256(_mm256_fmadd_pd(yf, k.inv, k.c));
    let t = _mm256_sub_epi32(y, mul_lo32(q, k.m));
    let s = if ENC { _mm256_add_epi32(d, t) } else { _mm256_sub_epi32(d, t) };
    let s = _mm256_min_epu32(s, _mm256_add_epi32(s, k.m));
    _mm256_min_epu32(s, _mm256_sub_epi32(s, k.m))
}

/// The VAES-256 kernel: all rounds for every value of `a` and `b`, asking `pf` for a line between
/// steps. Needs `a.len() == b.len()`, a multiple of 8; an even number of rounds; halves below their
/// moduli, each in 2^16..2^32 (FF1) or 2^16..=[`MAX_FF3`].
#[target_feature(enable = "avx2,aes,vaes,fma")]
pub fn rounds_vaes256<const FF3: bool>(_: crate::cpu::Vaes256, work: FusedRun<'_, impl Prefetch>) {
    let FusedRun { keys, nr, c, a, b, dir, pf } = work;
    let mut rk = [_mm256_setzero_si256(); 15];
    for (r, k) in rk.iter_mut().zip(keys) {
        *r = _mm256_broadcastsi128_si256(*k);
    }
    by_rounds!(run256[FF3](nr, dir; &rk, c, a, b, dir, pf));
    crate::wipe::wipe_vectors(&mut rk);
}

/// Each round's constant block ^ `rk0` in both lanes into `cbk` ([`round_consts`]); the round
/// count, the moduli of the first round's parity and the other, and that parity.
#[inline]
#[target_feature(enable = "avx2")]
fn setup(
    rk0: __m128i,
    c: &Consts<'_>,
    (la, lb): (usize, usize),
    dir: Direction,
    cbk: &mut [__m256i; MAX_ROUNDS],
) -> (usize, [Mod256; 2], usize) {
    let (rounds, p) = round_consts(c, (la, lb, 8), dir, cbk, |b| _mm256_broadcastsi128_si256(_mm_xor_si128(b, rk0)));
    (rounds, [Mod256::new(c, p), Mod256::new(c, 1 - p)], p)
}

/// All rounds for 4·W·G values of `a` and `b` as G groups of W vectors (`cbk`, `ks`, `p` from
/// [`setup`]); `pf` asks for a line after every fourth group's step.
#[inline]
#[target_feature(enable = "avx2,vaes,fma")]
fn chunk256<const W: usize, const G: usize, const FF3: bool, const NR: usize, const ENC: bool, const NARROW: bool>(
    rk: &[__m256i; 15],
    cbk: &[__m256i],
    ks: &[Mod256; 2],
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
    pf: &mut impl Prefetch,
) {
    let [mut x, mut y] = load_halves::<__m256i, W, G>(a, b, p);
    for pair in cbk.chunks_exact(2) {
        for (j, (x, y)) in x.iter_mut().zip(&y).enumerate() {
            *x = step256::<W, FF3, NR, ENC, NARROW>(rk, pair[0], &ks[0], y, *x);
            if j % 4 == 3 {
                pf.line();
            }
        }
        for (j, (y, x)) in y.iter_mut().zip(&x).enumerate() {
            *y = step256::<W, FF3, NR, ENC, NARROW>(rk, pair[1], &ks[1], x, *y);
            if j % 4 == 3 {
                pf.line();
            }
        }
    }
    if NARROW {
        // The halves are the low 32 bits.
        for v in x.as_flattened_mut().iter_mut().chain(y.as_flattened_mut()) {
            *v = _mm256_and_si256(*v, _mm256_set1_epi64x(u32::MAX as i64));
        }
    }
    store_halves([x, y], a, b, p);
}

#[inline]
#[target_feature(enable = "avx2,vaes,fma")]
fn run256<const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m256i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
    pf: &mut impl Prefetch,
) {
    let mut cbk = [_mm256_setzero_si256(); MAX_ROUNDS];
    let (rounds, mut ks, p) = setup(_mm256_castsi256_si128(rk[0]), c, (a.len(), b.len()), dir, &mut cbk);
    let mut cz = [_mm256_setzero_si256(); 2];
    if FF3 {
        ks = [Mod256::with_top(c, p), Mod256::with_top(c, 1 - p)];
        cz = [p, 1 - p].map(|i| _mm256_set1_epi64x(super::piped256::dec_offset(c.m[i]) as i64));
    }
    // Chunks of 32 values (FF3: piped256.rs), the last 8 alone.
    macro_rules! chunks {
        ($narrow:literal) => {{
            let mut j = 0;
            if FF3 {
                while j + 8 * PW <= a.len() {
                    chunk_piped::<NR, ENC>(rk, &cbk[..rounds], (&ks, &cz), &mut a[j..], &mut b[j..], p, pf);
                    j += 8 * PW;
                }
            }
            while j + 4 * CW * CG <= a.len() {
                chunk256::<CW, CG, FF3, NR, ENC, $narrow>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p, pf);
                j += 4 * CW * CG;
            }
            while j < a.len() {
                chunk256::<2, 1, FF3, NR, ENC, $narrow>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p, &mut ());
                j += 8;
            }
        }};
    }
    // FF3's moduli are at most MAX_FF3, at most MAX_NARROW.
    if FF3 || c.m.iter().all(|&m| m <= MAX_NARROW) {
        chunks!(true)
    } else {
        chunks!(false)
    }
    crate::wipe::wipe_vectors(&mut cbk);
}

#[cfg(test)]
#[path = "fused256_tests.rs"]
pub(super) mod tests;
