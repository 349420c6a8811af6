//! Decimal NUM and STR of whole batch groups with AVX2, for values of at
//! most 16 digits (both halves of at most 8), on CPUs without AVX-512 BW:
//! one value per 256-bit vector, half A in the low 128-bit lane, half B in
//! the high one. A byte shuffle, fixed per value length, right-aligns each
//! half in its lane (reversed for FF3's digit order, leading lanes zeroed);
//! NUM then folds four values at once, so one vector ends with A of four
//! values in its low lane and B in its high lane. STR converts four halves
//! per vector pass and a second shuffle puts the digits back in order. The
//! conversions are [`super::lanes`]'; no table lookup and no branch
//! depends on a value (only on positions and lengths). The parse keeps the
//! largest numeral it loads and says at the end whether all were digits.

#![allow(unsafe_code)]

use crate::simd::{cast, load, store};
use core::arch::x86_64::*;

use super::digit_quads::{Quad, load_quad, shuffle, store_quad};
use super::lanes::{Lanes, digits, num_four};

/// The shuffles for one value length `n` and first-half length `u`.
pub(crate) struct Dec256 {
    /// The proof of AVX2 the kernels run on.
    token: crate::cpu::Avx2,
    n: usize,
    u: usize,
    /// Per lane: slot byte -> byte of the eight numerals from the half's
    /// start (NUM); 0x80 zeroes the slot.
    num_ctl: [u8; 32],
    /// Per lane: byte of the eight numerals from the half's start -> slot
    /// byte (STR): A's in both lanes, then B's in both lanes.
    str_ctl: [[u8; 32]; 2],
    /// Values of 16 numerals split in the middle, most significant first
    /// (`Some(false)`) or last (`Some(true)`): one 32-byte load or store
    /// per value, and the conversions work in the numerals' order, so no
    /// shuffle.
    whole: Option<bool>,
}

impl Dec256 {
    /// The shuffles for values of `n` numerals whose first half has `u`,
    /// most significant first when `be` (FF1) or last (FF3); `None` unless
    /// both halves have 1 to 8 numerals and the CPU has AVX2.
    pub(crate) fn new(n: usize, u: usize, be: bool) -> Option<Self> {
        let halves = (1..=8).contains(&u) && (1..=8).contains(&n.checked_sub(u)?);
        let token = crate::cpu::Avx2::get().filter(|_| halves)?;
        let join = |lo: [u8; 16], hi: [u8; 16]| {
            let mut t = [0u8; 32];
            t[..16].copy_from_slice(&lo);
            t[16..].copy_from_slice(&hi);
            t
        };
        let (sa, sb) = (shuffle(u, be, false), shuffle(n - u, be, false));
        Some(Dec256 {
            token,
            n,
            u,
            num_ctl: join(shuffle(u, be, true), shuffle(n - u, be, true)),
            str_ctl: [join(sa, sa), join(sb, sb)],
            whole: (n == 16 && u == 8).then_some(!be),
        })
    }

    /// NUM of both halves of every value in `data` (values of `n` numerals
    /// back to back) into `a` and `b`, which take the count rounded up to
    /// 4 (zeros past the last value), checking the numerals from the
    /// vectors the parse loads (no pass of its own): whether every numeral
    /// of `data` is below 10. When not, `a` and `b` hold garbage.
    pub(crate) fn parse_checked(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        // SAFETY: `self.token` proves AVX2.
        unsafe { self.parse_avx2(self.token, data, a, b) }
    }

    /// STR of both halves of every value back into `data` (the inverse of
    /// [`Dec256::parse_checked`]); every half must be below 10^its length.
    pub(crate) fn format(&self, a: &[u64], b: &[u64], data: &mut [u16]) {
        // SAFETY: as in `parse`.
        unsafe { self.format_avx2(self.token, a, b, data) }
    }

    /// The four values from numeral `at` of `src`, each as numerals
    /// `s..s + 8` in the low lane and `s + u..s + u + 8` in the high lane,
    /// shuffled into digit slots (the numerals read past a value are
    /// dropped; `WHOLE`: as loaded, see [`Dec256::whole`]); `top` keeps the lane-wise largest numeral loaded (those
    /// past a value too: all are in `src`).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load4<const WHOLE: bool>(&self, src: &[u16], at: usize, ctl: __m256i, top: &mut __m256i) -> [__m256i; 4] {
        let q = Quad::new(src, (self.n, self.u), at);
        [0, 1, 2, 3].map(|i| {
            // Numerals s..s + 8 and s + u..s + u + 8 for s = at + i * n (one
            // load of 16 numerals when `WHOLE`: u = 8).
            let x = if WHOLE { q.load(i, 0) } else { _mm256_set_m128i(q.load(i, 1), q.load(i, 0)) };
            *top = _mm256_max_epu16(*top, x);
            if WHOLE { x } else { _mm256_shuffle_epi8(x, ctl) }
        })
    }

    /// Writes value i < 4 from numeral `at + i * n` of `dst` on: half A
    /// (the first `u` numerals of `h[i].0`), then B (the first `n - u` of
    /// `h[i].1`) from `u` numerals further. Each store writes eight
    /// numerals, so values go in ascending order of position (a value
    /// overwrites its predecessor's spill).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store4(&self, dst: &mut [u16], at: usize, h: [(__m128i, __m128i); 4]) {
        let mut q = Quad::new(dst, (self.n, self.u), at);
        for (i, (x, y)) in h.into_iter().enumerate() {
            q.store(i, 0, x);
            q.store(i, 1, y);
        }
    }

    #[target_feature(enable = "avx2")]
    fn parse_avx2(&self, _: crate::cpu::Avx2, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        match self.whole {
            Some(true) => self.parse_with::<true, true>(data, a, b),
            Some(false) => self.parse_with::<true, false>(data, a, b),
            None => self.parse_with::<false, false>(data, a, b),
        }
    }

    /// [`Dec256::parse_checked`]; `WHOLE`: values of 16 numerals split in
    /// the middle, least significant first when `REV` ([`Dec256::whole`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn parse_with<const WHOLE: bool, const REV: bool>(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        assert!(data.len().is_multiple_of(self.n), "whole values only");
        let count = data.len() / self.n;
        assert!(a.len() >= count.next_multiple_of(4) && b.len() >= count.next_multiple_of(4));
        let ctl = cast(self.num_ctl);
        // The largest numeral loaded (lane-wise; the padded copy adds zeros).
        let mut top = _mm256_setzero_si256();
        for j in (0..count).step_by(4) {
            let v =
                load_quad((self.n, self.u), data, j * self.n, |src, at| self.load4::<WHOLE>(src, at, ctl, &mut top));
            let r = num_four(self.token, v, REV);
            let (a4, b4) = (&mut a[j..j + 4], &mut b[j..j + 4]);
            store(a4, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(r)));
            store(b4, _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(r)));
        }
        // Each value's halves were loaded whole (A from its start, B from
        // `u` on): every numeral was loaded.
        __m256i::below_ten(self.token, top)
    }

    #[target_feature(enable = "avx2")]
    fn format_avx2(&self, _: crate::cpu::Avx2, a: &[u64], b: &[u64], data: &mut [u16]) {
        match self.whole {
            Some(true) => self.format_with::<true, true>(a, b, data),
            Some(false) => self.format_with::<true, false>(a, b, data),
            None => self.format_with::<false, false>(a, b, data),
        }
    }

    /// [`Dec256::format`]; `WHOLE` and `REV` as in [`Dec256::parse_with`].
    #[inline]
    #[target_feature(enable = "avx2")]
    fn format_with<const WHOLE: bool, const REV: bool>(&self, a: &[u64], b: &[u64], data: &mut [u16]) {
        assert!(data.len().is_multiple_of(self.n), "whole values only");
        let count = data.len() / self.n;
        assert!(a.len() >= count.next_multiple_of(4) && b.len() >= count.next_multiple_of(4));
        let ctl: [__m256i; 2] = self.str_ctl.map(cast);
        for j in (0..count).step_by(4) {
            let (av, bv) = (load(&a[j..j + 4]), load(&b[j..j + 4]));
            // Digits of values (j, j + 2) and (j + 1, j + 3), one per lane.
            let ([a02, a13], [b02, b13]) = (digits(self.token, av, REV), digits(self.token, bv, REV));
            if WHOLE {
                // Value i's A and B side by side: one 32-byte store.
                let (lo, hi) = (_mm256_permute2x128_si256::<0x20>, _mm256_permute2x128_si256::<0x31>);
                let v = [lo(a02, b02), lo(a13, b13), hi(a02, b02), hi(a13, b13)];
                store_quad((self.n, self.u), data, j * self.n, |dst, at| store4_whole(dst, at, v));
                continue;
            }
            let [a02, a13] = [a02, a13].map(|d| _mm256_shuffle_epi8(d, ctl[0]));
            let [b02, b13] = [b02, b13].map(|d| _mm256_shuffle_epi8(d, ctl[1]));
            let (lo, hi) = (_mm256_castsi256_si128, _mm256_extracti128_si256::<1>);
            let h = [(lo(a02), lo(b02)), (lo(a13), lo(b13)), (hi(a02), hi(b02)), (hi(a13), hi(b13))];
            store_quad((self.n, self.u), data, j * self.n, |dst, at| self.store4(dst, at, h));
        }
    }
}

/// Writes the four values of 16 numerals `v` from numeral `at` of `dst` on.
#[inline]
#[target_feature(enable = "avx2")]
fn store4_whole(dst: &mut [u16], at: usize, v: [__m256i; 4]) {
    let dst = &mut dst[at..at + 64];
    for (i, v) in v.into_iter().enumerate() {
        store(&mut dst[16 * i..], v);
    }
}
