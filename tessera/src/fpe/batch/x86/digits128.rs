//! Decimal NUM and STR on 128-bit vectors, with [`super::lanes`]'
//! conversions: one half of 1 to 16 digits with SSE2 (part of every x86-64
//! CPU), and whole batch groups ([`Dec128`]) with SSSE3 byte shuffles and
//! SSE4.1 where the CPU has no AVX2. Numerals are u16, as the batch data
//! holds them; digits run most significant first (`BE`, FF1's NUM and STR)
//! or least significant first (FF3's NUM(REV(X)) and REV(STR(x))).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::digit_quads::{Quad, load_quad, shuffle, store_quad};
use super::lanes::{Lanes, Sse2, digits, num_four, num_lanes};
use crate::simd::{cast, load, store};

/// Lanes kept when a half fills the last (`KEEP_LAST[k..k + 8]`) or first
/// (`KEEP_FIRST[8 - k..16 - k]`) `k` of eight.
static KEEP_LAST: [u16; 16] = [0, 0, 0, 0, 0, 0, 0, 0, !0, !0, !0, !0, !0, !0, !0, !0];
static KEEP_FIRST: [u16; 16] = [!0, !0, !0, !0, !0, !0, !0, !0, 0, 0, 0, 0, 0, 0, 0, 0];

/// Eight numerals from `x[p..p + 8]`; positions outside `x` read as zero.
#[inline]
#[target_feature(enable = "sse2")]
fn load8(x: &[u16], p: isize) -> __m128i {
    if p >= 0 && p as usize + 8 <= x.len() {
        return load(&x[p as usize..]);
    }
    let mut t = [0u16; 8];
    for (k, d) in t.iter_mut().enumerate() {
        if let Some(&v) = usize::try_from(p + k as isize).ok().and_then(|i| x.get(i)) {
            *d = v;
        }
    }
    cast(t)
}

/// Writes the eight lanes of `v` to `x[p..p + 8]`, skipping positions outside `x`.
#[inline]
#[target_feature(enable = "sse2")]
fn store8(x: &mut [u16], p: isize, v: __m128i) {
    if p >= 0 && p as usize + 8 <= x.len() {
        return store(&mut x[p as usize..], v);
    }
    let t: [u16; 8] = cast(v);
    for (k, &d) in t.iter().enumerate() {
        if let Some(o) = usize::try_from(p + k as isize).ok().and_then(|i| x.get_mut(i)) {
            *o = d;
        }
    }
}

/// The mask keeping `k` (1..=8) lanes: the last ones for `BE`, else the first.
#[inline]
#[target_feature(enable = "sse2")]
fn keep<const BE: bool>(k: usize) -> __m128i {
    let at = if BE { &KEEP_LAST[k..] } else { &KEEP_FIRST[8 - k..] };
    load(at)
}

/// NUM_10 of eight numeral lanes (each below 10), lane 0 most significant
/// when `BE`, else least.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn num8<const BE: bool>(v: __m128i) -> u32 {
    _mm_cvtsi128_si32(num_lanes(Sse2, v, !BE)) as u32
}

/// STR^8_10 of `x` < 10^8 as eight u16 lanes, most significant first when
/// `BE`, else least.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn digits8<const BE: bool>(x: u32) -> __m128i {
    digits(Sse2, _mm_cvtsi32_si128(x as i32), !BE)[0]
}

/// NUM_10 of the `m` (1..=16) numerals `x[start..start + m]` (each below 10).
#[inline(always)]
pub(crate) fn num<const BE: bool>(x: &[u16], start: usize, m: usize) -> u64 {
    // SAFETY: SSE2 is part of every x86-64 CPU.
    unsafe { num_sse2::<BE>(x, start, m) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn num_sse2<const BE: bool>(x: &[u16], start: usize, m: usize) -> u64 {
    debug_assert!((1..=16).contains(&m));
    let (s, k) = (start as isize, m.min(8));
    // The eight least significant digits, then the rest.
    let lo_at = if BE { s + m as isize - 8 } else { s };
    let lo = num8::<BE>(_mm_and_si128(load8(x, lo_at), keep::<BE>(k))) as u64;
    if m <= 8 {
        return lo;
    }
    let hi_at = if BE { lo_at - 8 } else { s + 8 };
    let hi = num8::<BE>(_mm_and_si128(load8(x, hi_at), keep::<BE>(m - 8))) as u64;
    hi * 100_000_000 + lo
}

/// Writes STR^m_10(`v`) (m in 1..=16, v < 10^m) to `x[start..start + m]`,
/// reversed unless `BE`. Writes leading zeros past the half too: below
/// `start` when `BE`, above `start + m` otherwise (never outside `x`), so
/// callers write halves in descending (`BE`) or ascending order of position.
#[inline(always)]
pub(crate) fn put<const BE: bool>(x: &mut [u16], start: usize, m: usize, v: u64) {
    // SAFETY: SSE2 is part of every x86-64 CPU.
    unsafe { put_sse2::<BE>(x, start, m, v) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn put_sse2<const BE: bool>(x: &mut [u16], start: usize, m: usize, v: u64) {
    debug_assert!((1..=16).contains(&m));
    let s = start as isize;
    let (hi, lo) = ((v / 100_000_000) as u32, (v % 100_000_000) as u32);
    let lo_at = if BE { s + m as isize - 8 } else { s };
    store8(x, lo_at, digits8::<BE>(lo));
    if m > 8 {
        store8(x, if BE { lo_at - 8 } else { s + 8 }, digits8::<BE>(hi));
    }
}

/// Decimal NUM and STR of whole batch groups with SSSE3 and SSE4.1 (every
/// CPU with AES-NI has both), for values of at most 16 digits (both halves
/// of at most 8): each half is loaded as eight numerals from its start and
/// a byte shuffle, fixed per value length, right-aligns it in digit slots
/// (reversed for FF3's digit order, the rest zeroed); NUM then folds four
/// halves at once. STR converts two halves per vector pass, and a second
/// shuffle puts the digits back in order. The parse keeps the largest
/// numeral it loads and says at the end whether all were digits (the
/// check costs no pass of its own). No table lookup and no branch depends
/// on a value (only on positions and lengths).
pub(crate) struct Dec128 {
    /// The proof of SSSE3 and SSE4.1 the kernels run on.
    token: crate::cpu::Sse41,
    n: usize,
    u: usize,
    /// Slot byte -> byte of the eight numerals from the half's start (NUM),
    /// for A then B; 0x80 zeroes the slot.
    num_ctl: [[u8; 16]; 2],
    /// Byte of the eight numerals from the half's start -> slot byte (STR),
    /// for A then B.
    str_ctl: [[u8; 16]; 2],
}

impl Dec128 {
    /// The shuffles for values of `n` numerals whose first half has `u`,
    /// most significant first when `be` (FF1) or last (FF3); `None` unless
    /// both halves have 1 to 8 numerals and the CPU has SSSE3 and SSE4.1.
    pub(crate) fn new(n: usize, u: usize, be: bool) -> Option<Self> {
        let halves = (1..=8).contains(&u) && (1..=8).contains(&n.checked_sub(u)?);
        let token = crate::cpu::Sse41::get().filter(|_| halves)?;
        let ctl = |to_slots| [u, n - u].map(|m| shuffle(m, be, to_slots));
        Some(Dec128 { token, n, u, num_ctl: ctl(true), str_ctl: ctl(false) })
    }

    /// NUM of both halves of every value in `data` (values of `n` numerals
    /// back to back) into `a` and `b`, which take the count rounded up to 4
    /// (zeros past the last value), checking the numerals from the vectors
    /// it loads: whether every numeral of `data` is below 10. When not, `a`
    /// and `b` hold garbage.
    pub(crate) fn parse_checked(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        // SAFETY: `self.token` proves SSSE3 and SSE4.1.
        unsafe { self.parse_sse41(self.token, data, a, b) }
    }

    /// STR of both halves of every value back into `data` (the inverse of
    /// [`Dec128::parse_checked`]); every half must be below 10^its length.
    pub(crate) fn format(&self, a: &[u64], b: &[u64], data: &mut [u16]) {
        // SAFETY: as in `parse_checked`.
        unsafe { self.format_sse41(self.token, a, b, data) }
    }

    /// The four values from numeral `at` of `src`: their A halves, then
    /// their B halves, each shuffled into digit slots (the numerals read
    /// past a half are dropped); `top` keeps the lane-wise largest numeral
    /// loaded (those past a half too: all are in `src`).
    #[inline]
    #[target_feature(enable = "ssse3,sse4.1")]
    fn load4(&self, src: &[u16], at: usize, ctl: [__m128i; 2], top: &mut __m128i) -> [[__m128i; 4]; 2] {
        let q = Quad::new(src, (self.n, self.u), at);
        [0, 1].map(|h| {
            [0, 1, 2, 3].map(|i| {
                let x = q.load(i, h);
                *top = _mm_max_epu16(*top, x);
                _mm_shuffle_epi8(x, ctl[h])
            })
        })
    }

    /// Writes value i < 4 from numeral `at + i * n` of `dst` on: half A
    /// (the first `u` numerals of `h[0][i]`), then B (the first `n - u` of
    /// `h[1][i]`) from `u` numerals further. Each store writes eight
    /// numerals, so values go in ascending order of position (a value
    /// overwrites its predecessor's spill).
    #[inline]
    #[target_feature(enable = "ssse3,sse4.1")]
    fn store4(&self, dst: &mut [u16], at: usize, h: [[__m128i; 4]; 2]) {
        let mut q = Quad::new(dst, (self.n, self.u), at);
        for i in 0..4 {
            for (half, x) in h.iter().enumerate() {
                q.store(i, half, x[i]);
            }
        }
    }

    #[target_feature(enable = "ssse3,sse4.1")]
    fn parse_sse41(&self, _: crate::cpu::Sse41, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        assert!(data.len().is_multiple_of(self.n), "whole values only");
        let count = data.len() / self.n;
        assert!(a.len() >= count.next_multiple_of(4) && b.len() >= count.next_multiple_of(4));
        let ctl = self.num_ctl.map(cast);
        // The largest numeral loaded (lane-wise; the padded copy adds zeros).
        let mut top = _mm_setzero_si128();
        for j in (0..count).step_by(4) {
            let v = load_quad((self.n, self.u), data, j * self.n, |src, at| self.load4(src, at, ctl, &mut top));
            for (x, out) in v.into_iter().zip([&mut a[j..j + 4], &mut b[j..j + 4]]) {
                let r = num_four(Sse2, x, false);
                store(out, _mm_cvtepu32_epi64(r));
                store(&mut out[2..], _mm_cvtepu32_epi64(_mm_srli_si128::<8>(r)));
            }
        }
        // Every numeral was loaded (each half from its start).
        __m128i::below_ten(Sse2, top)
    }

    #[target_feature(enable = "ssse3,sse4.1")]
    fn format_sse41(&self, _: crate::cpu::Sse41, a: &[u64], b: &[u64], data: &mut [u16]) {
        assert!(data.len().is_multiple_of(self.n), "whole values only");
        let count = data.len() / self.n;
        assert!(a.len() >= count.next_multiple_of(4) && b.len() >= count.next_multiple_of(4));
        let ctl = self.str_ctl.map(cast);
        for j in (0..count).step_by(4) {
            let h = [&a[j..j + 4], &b[j..j + 4]].map(|x| {
                let [d0, d1] = digits(Sse2, load(x), false);
                let [d2, d3] = digits(Sse2, load(&x[2..]), false);
                [d0, d1, d2, d3]
            });
            let h = [0, 1].map(|i| h[i].map(|d| _mm_shuffle_epi8(d, ctl[i])));
            store_quad((self.n, self.u), data, j * self.n, |dst, at| self.store4(dst, at, h));
        }
    }
}

#[cfg(test)]
#[path = "digits128_tests.rs"]
mod tests;
