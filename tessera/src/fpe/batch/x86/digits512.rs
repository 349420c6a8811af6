//! Decimal NUM and STR of whole batch groups with AVX-512 BW, two values per vector: a word
//! permutation per value length moves two values' numerals into four 8-lane slots, [`super::lanes`]
//! converts, another moves back.

#![allow(unsafe_code)]

use super::lanes::{Lanes, digits, num_lanes};
use crate::simd::{cast, load, store};
use core::arch::x86_64::*;

/// How far ahead of the numerals being parsed to prefetch: a group of 64 values of 16 digits.
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
    /// The tables for values of `n` numerals whose first half has `u`, most significant first when `be`
    /// (FF1); `None` unless both halves have 1 to 8 numerals and the CPU has AVX-512 F and BW.
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

    /// The masks of the two windows of values `j..j + 4` (`2n` numerals from value `j`, then from
    /// `j + 2`), cut at `len`.
    #[inline]
    fn masks(&self, len: usize, j: usize) -> [__mmask32; 2] {
        let keep = |k: usize| ((1u64 << k) - 1) as __mmask32;
        if (j + 4) * self.n <= len {
            return [keep(2 * self.n); 2];
        }
        [0, 2].map(|p| keep(len.saturating_sub((j + p) * self.n).min(2 * self.n)))
    }

    /// As `Dec::parse_in` (each numeral read once).
    pub(crate) fn parse_checked(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        // SAFETY: `self.token` proves AVX-512 F and BW.
        unsafe { self.parse_avx512(self.token, data, a, b) }
    }

    /// The inverse of [`Dec512::parse_checked`]; halves below 10^length.
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
        __m512i::below_ten(self.token, top)
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
        // The next group's numerals, into cache during this group's rounds.
        let ahead = data.as_ptr().wrapping_add(j * self.n + PREFETCH);
        _mm_prefetch::<_MM_HINT_T0>(ahead.cast());
        _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(32).cast());
        let mut r = [_mm512_setzero_si512(); 2];
        for ((p, r), mask) in r.iter_mut().enumerate().zip(masks) {
            let start = (j + 2 * p) * self.n;
            if mask != 0 {
                // SAFETY: the mask covers only numerals inside `data` (masked-off lanes are not read).
                let v = unsafe { _mm512_maskz_loadu_epi16(mask, data.as_ptr().add(start).cast()) };
                *top = _mm512_max_epu16(*top, v);
                *r = num_lanes(self.token, _mm512_maskz_permutexvar_epi16(self.num_keep, idx, v), false);
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
        // Qword 0 of each 128-bit lane: A of j, B of j, A of j+1, B of j+1 (A's qwords 0.., B's 8..).
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
            let d = digits(self.token, _mm512_permutex2var_epi64(av, *s, bv), false)[0];
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

// The conversions are tested beside the AVX2 ones, in `decimal_tests.rs`.
