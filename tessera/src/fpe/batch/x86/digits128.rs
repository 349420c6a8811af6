//! Decimal NUM and STR of one half of 1 to 16 digits with SSE2, most significant first when `BE`.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::lanes::{Sse2, digits, num_lanes};
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

/// NUM_10 of eight numeral lanes (each below 10), lane 0 most significant when `BE`, else least.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn num8<const BE: bool>(v: __m128i) -> u32 {
    _mm_cvtsi128_si32(num_lanes(Sse2, v, !BE)) as u32
}

/// STR^8_10 of `x` < 10^8 as eight u16 lanes, most significant first when `BE`, else least.
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

/// Writes STR^m_10(`v`) (m in 1..=16, v < 10^m) to `x[start..start + m]`, reversed unless `BE`, and
/// zeros below `start` when `BE`, above `start + m` otherwise (never outside `x`).
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

#[cfg(test)]
#[path = "digits128_tests.rs"]
mod tests;
