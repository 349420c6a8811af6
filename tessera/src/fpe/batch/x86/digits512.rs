//! Decimal NUM and STR of whole batch groups with AVX-512 BW, for values of
//! at most 16 digits (both halves of at most 8): two values per 512-bit
//! vector. One word permutation, fixed per value length, moves the numerals
//! of two values into four 8-lane slots (a half per slot, right-aligned,
//! reversed for FF3's digit order, leading lanes zeroed), and another moves
//! the digits back. The conversions are [`super::digits128`]'s, in every
//! 128-bit lane at once. No table lookup and no branch depends on a value.

#![allow(unsafe_code)]

use super::vec_op::vec_op;
use crate::simd::{cast, load, store};
use core::arch::x86_64::*;

/// How far ahead of the numerals being parsed to prefetch (in numerals):
/// a group of 64 values of 16 digits.
const PREFETCH: usize = 64 * 16;

/// The permutations for one value length `n` and first-half length `u`.
pub(crate) struct Dec512 {
    /// The proof of AVX-512 the kernels run on.
    token: crate::cpu::Avx512,
    n: usize,
    /// Slot lane -> numeral of the two-value window (NUM).
    num_idx: [u16; 32],
    /// The slot lanes that hold numerals (the rest are leading zeros).
    num_keep: u32,
    /// Numeral of the window -> slot lane (STR).
    str_idx: [u16; 32],
}

impl Dec512 {
    /// The tables for values of `n` numerals whose first half has `u`,
    /// most significant first when `be` (FF1) or last (FF3); `None` unless
    /// both halves have 1 to 8 numerals and the CPU has AVX-512 F and BW.
    pub(crate) fn new(n: usize, u: usize, be: bool) -> Option<Self> {
        let halves = (1..=8).contains(&u) && (1..=8).contains(&n.checked_sub(u)?);
        let token = crate::cpu::Avx512::get().filter(|_| halves)?;
        let (mut num_idx, mut num_keep, mut str_idx) = ([0u16; 32], 0u32, [0u16; 32]);
        for (lane, slot) in num_idx.iter_mut().enumerate() {
            // Slot h: value h / 2, half h % 2; k counts the slot's lanes.
            let (h, k) = (lane / 8, lane % 8);
            let (start, m) = if h % 2 == 0 { ((h / 2) * n, u) } else { ((h / 2) * n + u, n - u) };
            if k < 8 - m {
                continue;
            }
            // The numeral's place in its half, most significant first.
            let i = k - (8 - m);
            let at = start + if be { i } else { m - 1 - i };
            *slot = at as u16;
            num_keep |= 1 << lane;
            str_idx[at] = lane as u16;
        }
        Some(Dec512 { token, n, num_idx, num_keep, str_idx })
    }

    /// The masks of the two windows of values `j..j + 4` (numerals `2n`
    /// wide from value `j`, then from `j + 2`), as many as `data` (`len`
    /// numerals) has: one constant unless the four values run past its end.
    #[inline]
    fn masks(&self, len: usize, j: usize) -> [__mmask32; 2] {
        let keep = |k: usize| ((1u64 << k) - 1) as __mmask32;
        if (j + 4) * self.n <= len {
            return [keep(2 * self.n); 2];
        }
        [0, 2].map(|p| keep(len.saturating_sub((j + p) * self.n).min(2 * self.n)))
    }

    /// NUM of both halves of every value in `data` (values of `n` numerals
    /// back to back) into `a` and `b`, which take the count rounded up to
    /// 4 (zeros past the last value), checking the numerals from the
    /// vectors the parse loads (each numeral is read once): whether every
    /// numeral of `data` is below 10. When not, `a` and `b` hold garbage.
    pub(crate) fn parse_checked(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        // SAFETY: `self.token` proves AVX-512 F and BW.
        unsafe { self.parse_avx512(self.token, data, a, b) }
    }

    /// STR of both halves of every value back into `data` (the inverse of
    /// [`Dec512::parse_checked`]); every half must be below 10^its length.
    pub(crate) fn format(&self, a: &[u64], b: &[u64], data: &mut [u16]) {
        // SAFETY: as in `parse`.
        unsafe { self.format_avx512(self.token, a, b, data) }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    fn parse_avx512(&self, _: crate::cpu::Avx512, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        assert!(data.len().is_multiple_of(self.n), "whole values only");
        let count = data.len() / self.n;
        assert!(a.len() >= count.next_multiple_of(4) && b.len() >= count.next_multiple_of(4));
        let idx = cast(self.num_idx);
        // Qwords 0, 4, 8, 12 of the two slot results: A of j, j + 1, ...
        let pick_a = _mm512_setr_epi64(0, 4, 8, 12, 0, 0, 0, 0);
        let pick_b = _mm512_setr_epi64(2, 6, 10, 14, 0, 0, 0, 0);
        // The largest numeral loaded (lane-wise; masked-off lanes load 0).
        let mut top = _mm512_setzero_si512();
        // Whole groups of four with one mask (kept in a mask register), then the rest.
        let whole = count / 4 * 4;
        let full = self.masks(data.len(), 0);
        for j in (0..whole).step_by(4) {
            self.parse4(data, j, full, [idx, pick_a, pick_b], &mut top, a, b);
        }
        if whole < count {
            self.parse4(data, whole, self.masks(data.len(), whole), [idx, pick_a, pick_b], &mut top, a, b);
        }
        // The windows tile `data`: every numeral was loaded once.
        all_below_ten(top)
    }

    /// Values `j..j + 4` of [`Dec512::parse_avx512`] with the window masks `masks`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    #[allow(clippy::too_many_arguments)]
    fn parse4(
        &self,
        data: &[u16],
        j: usize,
        masks: [__mmask32; 2],
        [idx, pick_a, pick_b]: [__m512i; 3],
        top: &mut __m512i,
        a: &mut [u64],
        b: &mut [u64],
    ) {
        // The next group's numerals, on their way to cache while this
        // group runs its rounds (a hint: never faults, reads nothing).
        let ahead = data.as_ptr().wrapping_add(j * self.n + PREFETCH);
        _mm_prefetch::<_MM_HINT_T0>(ahead.cast());
        _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(32).cast());
        let mut r = [_mm512_setzero_si512(); 2];
        for ((p, r), mask) in r.iter_mut().enumerate().zip(masks) {
            let start = (j + 2 * p) * self.n;
            if mask != 0 {
                // SAFETY: the mask covers only numerals inside `data`
                // (masked-off lanes are not read).
                let v = unsafe { _mm512_maskz_loadu_epi16(mask, data.as_ptr().add(start).cast()) };
                *top = _mm512_max_epu16(*top, v);
                *r = num32(_mm512_maskz_permutexvar_epi16(self.num_keep, idx, v));
            }
        }
        // Slot values sit in qwords 0, 2, 4, 6: A of j, B of j, A of j+1, ...
        let av = _mm512_permutex2var_epi64(r[0], pick_a, r[1]);
        let bv = _mm512_permutex2var_epi64(r[0], pick_b, r[1]);
        let (a4, b4) = (&mut a[j..j + 4], &mut b[j..j + 4]);
        store(a4, _mm512_castsi512_si256(av));
        store(b4, _mm512_castsi512_si256(bv));
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    fn format_avx512(&self, _: crate::cpu::Avx512, a: &[u64], b: &[u64], data: &mut [u16]) {
        assert!(data.len().is_multiple_of(self.n), "whole values only");
        let count = data.len() / self.n;
        assert!(a.len() >= count.next_multiple_of(4) && b.len() >= count.next_multiple_of(4));
        let idx = cast(self.str_idx);
        // Qword 0 of each 128-bit lane: A of j, B of j, A of j+1, B of j+1
        // (A's qwords 0.., B's 8..); [`digits32`] reads nothing else.
        let spread = [_mm512_setr_epi64(0, 0, 8, 8, 1, 1, 9, 9), _mm512_setr_epi64(2, 2, 10, 10, 3, 3, 11, 11)];
        let whole = count / 4 * 4;
        let full = self.masks(data.len(), 0);
        for j in (0..whole).step_by(4) {
            self.format4(a, b, data, j, full, idx, spread);
        }
        if whole < count {
            self.format4(a, b, data, whole, self.masks(data.len(), whole), idx, spread);
        }
    }

    /// Values `j..j + 4` of [`Dec512::format_avx512`] with the window masks `masks`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    #[allow(clippy::too_many_arguments)]
    fn format4(
        &self,
        a: &[u64],
        b: &[u64],
        data: &mut [u16],
        j: usize,
        masks: [__mmask32; 2],
        idx: __m512i,
        spread: [__m512i; 2],
    ) {
        let (av, bv) = (_mm512_castsi256_si512(load(&a[j..j + 4])), _mm512_castsi256_si512(load(&b[j..j + 4])));
        for ((p, s), mask) in spread.iter().enumerate().zip(masks) {
            let start = (j + 2 * p) * self.n;
            let d = digits32(_mm512_permutex2var_epi64(av, *s, bv));
            // SAFETY: the mask covers only numerals inside `data` (masked-off lanes are not written).
            unsafe {
                _mm512_mask_storeu_epi16(
                    data.as_mut_ptr().wrapping_add(start).cast(),
                    mask,
                    _mm512_permutexvar_epi16(idx, d),
                )
            };
        }
    }
}

/// Whether every u16 lane of `top` is below 10 (one mask compare, tested
/// whole: no branch).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn all_below_ten(top: __m512i) -> bool {
    _mm512_cmpgt_epu16_mask(top, _mm512_set1_epi16(9)) == 0
}

/// NUM_10 of each 128-bit lane's eight numerals (most significant first),
/// into the lane's first qword (as [`super::digits128::num8`]; the second
/// dword is zero).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn num32(v: __m512i) -> __m512i {
    let t = _mm512_madd_epi16(v, lanes([10, 1, 10, 1]));
    let t = _mm512_madd_epi16(_mm512_packs_epi32(t, t), lanes([100, 1, 100, 1]));
    _mm512_madd_epi16(_mm512_packs_epi32(t, t), lanes([10_000, 1, 0, 0]))
}

/// `x` twice in every 128-bit lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn lanes(x: [i16; 4]) -> __m512i {
    _mm512_broadcast_i32x4(_mm_setr_epi16(x[0], x[1], x[2], x[3], x[0], x[1], x[2], x[3]))
}

/// `vpmulhuw`: the high halves of the 16-bit products. Written out because
/// `_mm512_mulhi_epu16` is lowered through 32-bit lanes (two halves,
/// `vpmovzxwd`, `vpmulld` or `vpmulhuw`, `vpmovdw`), several times the work.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn mulhi16(a: __m512i, b: __m512i) -> __m512i {
    vec_op!(zmm_reg: __m512i, "vpmulhuw", a, b)
}

/// `vpshufb`: written out because LLVM turns a word-duplicating
/// `_mm512_shuffle_epi8` back into two shuffles (`vpshuflw`, `vpshufd`),
/// both on the port the other shuffles of [`digits32`] need.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn shufb(a: __m512i, ctl: __m512i) -> __m512i {
    vec_op!(zmm_reg: __m512i, "vpshufb", a, ctl)
}

/// STR^8_10 of the first dword (below 10^8) of each 128-bit lane, as eight
/// u16 lanes most significant first (as [`super::digits128::digits8`]);
/// what the lane holds past that dword does not matter.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn digits32(v: __m512i) -> __m512i {
    let abcd = _mm512_srli_epi64::<45>(_mm512_mul_epu32(v, _mm512_set1_epi32(0xd1b7_1759_u32 as i32)));
    let efgh = _mm512_sub_epi32(v, _mm512_mul_epu32(abcd, _mm512_set1_epi32(10_000)));
    let v1 = _mm512_slli_epi64::<2>(_mm512_unpacklo_epi16(abcd, efgh));
    // Word 0 (abcd) four times, then word 1 (efgh): one shuffle, not two.
    let v2 = shufb(v1, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3)));
    let v3 = mulhi16(v2, lanes([8389, 5243, 13108, -32768]));
    let v4 = mulhi16(v3, lanes([1 << 7, 1 << 11, 1 << 13, -32768]));
    _mm512_sub_epi16(v4, _mm512_slli_epi64::<16>(_mm512_mullo_epi16(v4, _mm512_set1_epi16(10))))
}

// The conversions are tested beside the AVX2 ones, in `super::digits256`.
