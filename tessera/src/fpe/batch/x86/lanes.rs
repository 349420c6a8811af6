//! Decimal NUM and STR in every 128-bit lane of an xmm, ymm or zmm vector over [`Lanes`]: eight
//! digits per lane by multiplies and shifts, no table and no branch on a value (W. Muła's conversions).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::vec_op::vec_op;

/// An integer vector of 128-bit lanes with the instructions the decimal conversions use.
pub(crate) trait Lanes: Copy {
    /// The proof of the features the instructions need.
    type Token: Copy;
    /// `p` in every 128-bit lane.
    fn splat(t: Self::Token, p: [i16; 8]) -> Self;
    fn madd16(t: Self::Token, a: Self, b: Self) -> Self;
    fn packs32(t: Self::Token, a: Self, b: Self) -> Self;
    fn mul32(t: Self::Token, a: Self, b: Self) -> Self;
    fn add64(t: Self::Token, a: Self, b: Self) -> Self;
    fn sub16(t: Self::Token, a: Self, b: Self) -> Self;
    fn mullo16(t: Self::Token, a: Self, b: Self) -> Self;
    fn mulhi16(t: Self::Token, a: Self, b: Self) -> Self;
    fn srl45_64(t: Self::Token, a: Self) -> Self;
    fn sll2_64(t: Self::Token, a: Self) -> Self;
    /// Each lane's words moved one up (`down`: one down), zero shifted in.
    fn shift_word(t: Self::Token, a: Self, down: bool) -> Self;
    /// Per lane: word 2 of qword `q` four times, then word 0 four times (`rev`: word 0 first).
    fn spread(t: Self::Token, a: Self, q: usize, rev: bool) -> Self;
    /// Whether every u16 lane is below 10.
    fn below_ten(t: Self::Token, top: Self) -> bool;
}

/// The proof of SSE2, part of every x86-64 CPU.
#[derive(Clone, Copy)]
pub(crate) struct Sse2;

/// `$trait` for a vector whose instructions need `$token`'s features, with any `$extra` items.
macro_rules! lanes {
    ($trait:ident for $v:ty, $assoc:ident = $token:ty, { $($extra:item)* }
     $($name:ident($($a:ident: $t:ty),*) -> $r:ty = $e:expr;)*) => {
        impl $trait for $v {
            type $assoc = $token;
            $($extra)*
            $(#[inline(always)]
            fn $name(_: $token, $($a: $t),*) -> $r {
                // SAFETY: the token proves the features of the instructions.
                unsafe { $e }
            })*
        }
    };
}
pub(crate) use lanes;

/// `fn $name(t, a, ..) -> [$v; 2]`: `L::$name` on each of the two vectors.
macro_rules! twice {
    ($($name:ident($($a:ident),*) $(, $x:ident: $xt:ty)*;)*) => {$(
        #[inline(always)]
        fn $name(t: L::Token, $($a: Self,)* $($x: $xt),*) -> Self {
            [L::$name(t, $($a[0],)* $($x),*), L::$name(t, $($a[1],)* $($x),*)]
        }
    )*};
}

/// Two vectors as one of twice the lanes (each instruction twice).
impl<L: Lanes> Lanes for [L; 2] {
    type Token = L::Token;
    twice! {
        madd16(a, b); packs32(a, b); mul32(a, b); add64(a, b); sub16(a, b); mullo16(a, b); mulhi16(a, b);
        srl45_64(a); sll2_64(a); shift_word(a), down: bool; spread(a), q: usize, rev: bool;
    }
    #[inline(always)]
    fn splat(t: L::Token, p: [i16; 8]) -> Self {
        [L::splat(t, p); 2]
    }
    #[inline(always)]
    fn below_ten(t: L::Token, top: Self) -> bool {
        L::below_ten(t, top[0]) & L::below_ten(t, top[1])
    }
}

/// The `vpshufb` control of [`Lanes::spread`].
fn spread_ctl(q: usize, rev: bool) -> [i16; 8] {
    let at = 0x0808 * q as i16;
    let (hi, lo) = (0x0504 + at, 0x0100 + at);
    let (x, y) = if rev { (lo, hi) } else { (hi, lo) };
    [x, x, x, x, y, y, y, y]
}

/// `pmulhuw`, `vpmulhuw` and `vpshufb` written out, where LLVM rewrites the intrinsics into slower code.
#[inline]
#[target_feature(enable = "sse2")]
fn mulhi128(mut a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: one instruction on registers only: no memory, stack or flags.
    unsafe {
        core::arch::asm!("pmulhuw {a}, {b}", a = inout(xmm_reg) a, b = in(xmm_reg) b,
            options(pure, nomem, nostack, preserves_flags))
    };
    a
}
/// `fn $name(a, b)`: the one instruction `$op` on `$v` (`$reg`), for `$features`.
macro_rules! one_op {
    ($($name:ident, $features:literal, $reg:ident: $v:ty, $op:literal;)*) => {$(
        #[inline]
        #[target_feature(enable = $features)]
        fn $name(a: $v, b: $v) -> $v {
            vec_op!($reg: $v, $op, a, b)
        }
    )*};
}
one_op! {
    mulhi256, "avx2", ymm_reg: __m256i, "vpmulhuw";
    shufb256, "avx2", ymm_reg: __m256i, "vpshufb";
    mulhi512, "avx512f,avx512bw", zmm_reg: __m512i, "vpmulhuw";
    shufb512, "avx512f,avx512bw", zmm_reg: __m512i, "vpshufb";
}

lanes! {Lanes for __m128i, Token = Sse2, {}
    splat(p: [i16; 8]) -> Self = _mm_setr_epi16(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    madd16(a: Self, b: Self) -> Self = _mm_madd_epi16(a, b);
    packs32(a: Self, b: Self) -> Self = _mm_packs_epi32(a, b);
    mul32(a: Self, b: Self) -> Self = _mm_mul_epu32(a, b);
    add64(a: Self, b: Self) -> Self = _mm_add_epi64(a, b);
    sub16(a: Self, b: Self) -> Self = _mm_sub_epi16(a, b);
    mullo16(a: Self, b: Self) -> Self = _mm_mullo_epi16(a, b);
    mulhi16(a: Self, b: Self) -> Self = mulhi128(a, b);
    srl45_64(a: Self) -> Self = _mm_srli_epi64::<45>(a);
    sll2_64(a: Self) -> Self = _mm_slli_epi64::<2>(a);
    shift_word(a: Self, down: bool) -> Self = if down { _mm_bsrli_si128::<2>(a) } else { _mm_bslli_si128::<2>(a) };
    spread(a: Self, q: usize, rev: bool) -> Self = match (q, rev) {
        (0, false) => _mm_unpacklo_epi32(_mm_shufflelo_epi16::<0x0a>(a), _mm_shufflelo_epi16::<0x0a>(a)),
        (0, true) => _mm_unpacklo_epi32(_mm_shufflelo_epi16::<0xa0>(a), _mm_shufflelo_epi16::<0xa0>(a)),
        (_, false) => _mm_unpackhi_epi32(_mm_shufflehi_epi16::<0x0a>(a), _mm_shufflehi_epi16::<0x0a>(a)),
        (_, true) => _mm_unpackhi_epi32(_mm_shufflehi_epi16::<0xa0>(a), _mm_shufflehi_epi16::<0xa0>(a)),
    };
    below_ten(top: Self) -> bool = {
        let over = _mm_subs_epu16(top, _mm_set1_epi16(9));
        _mm_movemask_epi8(_mm_cmpeq_epi16(over, _mm_setzero_si128())) == 0xffff
    };
}

/// [`Lanes`] for ymm (`$y`, AVX2) and zmm (`$z`, AVX-512 BW).
macro_rules! wide {
    ($($name:ident($($a:ident: $t:ty),*) -> $r:ty = $y:expr, $z:expr;)*) => {
        lanes! {Lanes for __m256i, Token = crate::cpu::Avx2, {} $($name($($a: $t),*) -> $r = $y;)*}
        lanes! {Lanes for __m512i, Token = crate::cpu::Avx512, {} $($name($($a: $t),*) -> $r = $z;)*}
    };
}

wide! {
    splat(p: [i16; 8]) -> Self =
        _mm256_broadcastsi128_si256(__m128i::splat(Sse2, p)), _mm512_broadcast_i32x4(__m128i::splat(Sse2, p));
    madd16(a: Self, b: Self) -> Self = _mm256_madd_epi16(a, b), _mm512_madd_epi16(a, b);
    packs32(a: Self, b: Self) -> Self = _mm256_packs_epi32(a, b), _mm512_packs_epi32(a, b);
    mul32(a: Self, b: Self) -> Self = _mm256_mul_epu32(a, b), _mm512_mul_epu32(a, b);
    add64(a: Self, b: Self) -> Self = _mm256_add_epi64(a, b), _mm512_add_epi64(a, b);
    sub16(a: Self, b: Self) -> Self = _mm256_sub_epi16(a, b), _mm512_sub_epi16(a, b);
    mullo16(a: Self, b: Self) -> Self = _mm256_mullo_epi16(a, b), _mm512_mullo_epi16(a, b);
    mulhi16(a: Self, b: Self) -> Self = mulhi256(a, b), mulhi512(a, b);
    srl45_64(a: Self) -> Self = _mm256_srli_epi64::<45>(a), _mm512_srli_epi64::<45>(a);
    sll2_64(a: Self) -> Self = _mm256_slli_epi64::<2>(a), _mm512_slli_epi64::<2>(a);
    shift_word(a: Self, down: bool) -> Self =
        if down { _mm256_bsrli_epi128::<2>(a) } else { _mm256_bslli_epi128::<2>(a) },
        if down { _mm512_bsrli_epi128::<2>(a) } else { _mm512_bslli_epi128::<2>(a) };
    spread(a: Self, q: usize, rev: bool) -> Self =
        shufb256(a, _mm256_broadcastsi128_si256(__m128i::splat(Sse2, spread_ctl(q, rev)))),
        shufb512(a, _mm512_broadcast_i32x4(__m128i::splat(Sse2, spread_ctl(q, rev))));
    below_ten(top: Self) -> bool = {
        let over = _mm256_subs_epu16(top, _mm256_set1_epi16(9));
        _mm256_testz_si256(over, over) == 1
    }, _mm512_cmpgt_epu16_mask(top, _mm512_set1_epi16(9)) == 0;
}

/// The weights `[hi, 1]` in every dword (`[1, hi]` when `rev`), only in each 64-bit lane's first two
/// when `first`.
#[inline(always)]
fn weights<L: Lanes>(t: L::Token, hi: i16, rev: bool, first: bool) -> L {
    let (a, b) = if rev { (1, hi) } else { (hi, 1) };
    let (c, d) = if first { (0, 0) } else { (a, b) };
    L::splat(t, [a, b, c, d, a, b, c, d])
}

/// NUM_10 of the eight numerals (each below 10) of every lane of `v`, most significant first (last
/// when `rev`), in the lane's first dword (the second is zero).
#[inline(always)]
pub(crate) fn num_lanes<L: Lanes>(t: L::Token, v: L, rev: bool) -> L {
    let x = L::madd16(t, v, weights(t, 10, rev, false));
    let x = L::madd16(t, L::packs32(t, x, x), weights(t, 100, rev, false));
    L::madd16(t, L::packs32(t, x, x), weights(t, 10_000, rev, true))
}

/// NUM_10 of four vectors' lanes (as [`num_lanes`]): dword i of each lane of the result is that
/// lane's value from `v[i]`.
#[inline(always)]
pub(crate) fn num_four<L: Lanes>(t: L::Token, v: [L; 4], rev: bool) -> L {
    let (w10, w100) = (weights(t, 10, rev, false), weights(t, 100, rev, false));
    let pair = |a, b| L::madd16(t, L::packs32(t, L::madd16(t, a, w10), L::madd16(t, b, w10)), w100);
    let (s01, s23) = (pair(v[0], v[1]), pair(v[2], v[3]));
    L::madd16(t, L::packs32(t, s01, s23), weights(t, 10_000, rev, false))
}

/// STR^8_10 of each u64 of `x` (below 10^8) as eight u16 lanes, most significant first (last when
/// `rev`): the first vector from each lane's qword 0, the second from its qword 1.
#[inline(always)]
pub(crate) fn digits<L: Lanes>(t: L::Token, x: L, rev: bool) -> [L; 2] {
    let dword = |c: u32| L::splat(t, [c as i16, (c >> 16) as i16, 0, 0, c as i16, (c >> 16) as i16, 0, 0]);
    // abcd = x / 10^4 (exact below 10^8: multiply by ceil(2^45 / 10^4)),
    // then x + abcd * (2^32 - 10^4) = abcd * 2^32 + efgh, times 4.
    let abcd = L::srl45_64(t, L::mul32(t, x, dword(0xd1b7_1759)));
    let w = L::sll2_64(t, L::add64(t, x, L::mul32(t, abcd, dword(10_000u32.wrapping_neg()))));
    let group = |p: [i16; 4]| {
        let p = if rev { [p[3], p[2], p[1], p[0]] } else { p };
        L::splat(t, [p[0], p[1], p[2], p[3], p[0], p[1], p[2], p[3]])
    };
    let (recip, shifts) = (group([8389, 5243, 13108, -32768]), group([1 << 7, 1 << 11, 1 << 13, -32768]));
    // Ten times each lane but the group's last, which moves into the next.
    let ten = group([10, 10, 10, 0]);
    let c = [recip, shifts, ten];
    [str_qword(t, L::spread(t, w, 0, rev), c, rev), str_qword(t, L::spread(t, w, 1, rev), c, rev)]
}

/// The digits from [a, ab, abc, abcd, e, ef, efg, efgh] times 4 (reversed when `rev`), given
/// `[recip, shifts, ten]` of [`digits`]: each lane minus ten times the lane before it.
#[inline(always)]
fn str_qword<L: Lanes>(t: L::Token, v: L, [recip, shifts, ten]: [L; 3], rev: bool) -> L {
    let v = L::mulhi16(t, L::mulhi16(t, v, recip), shifts);
    L::sub16(t, v, L::shift_word(t, L::mullo16(t, v, ten), rev))
}
