//! Decimal NUM and STR for the batch path with SSE2 (part of every x86-64
//! CPU): eight digits per 128-bit vector, by multiplications and shifts
//! only, so no table lookup and no branch depends on a value (constant
//! time, unlike the scalar two-digit table of [`super::num::Radix`]).
//! Halves of 1 to 16 digits; numerals are u16, as the batch data holds them.
//!
//! Digits run most significant first (`BE`, FF1's NUM and STR) or least
//! significant first (FF3's NUM(REV(X)) and REV(STR(x))).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

/// Lanes kept when a half fills the last (`KEEP_LAST[k..k + 8]`) or first
/// (`KEEP_FIRST[8 - k..16 - k]`) `k` of eight.
static KEEP_LAST: [u16; 16] = [0, 0, 0, 0, 0, 0, 0, 0, !0, !0, !0, !0, !0, !0, !0, !0];
static KEEP_FIRST: [u16; 16] = [!0, !0, !0, !0, !0, !0, !0, !0, 0, 0, 0, 0, 0, 0, 0, 0];

/// Eight numerals from `x[p..p + 8]`; positions outside `x` read as zero.
#[inline]
#[target_feature(enable = "sse2")]
fn load8(x: &[u16], p: isize) -> __m128i {
    if p >= 0 && p as usize + 8 <= x.len() {
        // SAFETY: x[p..p + 8] is in bounds (checked above); an unaligned load.
        return unsafe { _mm_loadu_si128(x.as_ptr().add(p as usize) as *const __m128i) };
    }
    let mut t = [0u16; 8];
    for (k, d) in t.iter_mut().enumerate() {
        if let Some(&v) = usize::try_from(p + k as isize).ok().and_then(|i| x.get(i)) {
            *d = v;
        }
    }
    // SAFETY: a 16-byte load from a 16-byte array.
    unsafe { _mm_loadu_si128(t.as_ptr() as *const __m128i) }
}

/// Writes the eight lanes of `v` to `x[p..p + 8]`, skipping positions outside `x`.
#[inline]
#[target_feature(enable = "sse2")]
fn store8(x: &mut [u16], p: isize, v: __m128i) {
    if p >= 0 && p as usize + 8 <= x.len() {
        // SAFETY: x[p..p + 8] is in bounds (checked above); an unaligned store.
        return unsafe { _mm_storeu_si128(x.as_mut_ptr().add(p as usize) as *mut __m128i, v) };
    }
    let mut t = [0u16; 8];
    // SAFETY: a 16-byte store into a 16-byte array.
    unsafe { _mm_storeu_si128(t.as_mut_ptr() as *mut __m128i, v) };
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
    // SAFETY: `at` holds at least 8 u16 (k <= 8).
    unsafe { _mm_loadu_si128(at.as_ptr() as *const __m128i) }
}

/// NUM_10 of eight numeral lanes (each below 10), lane 0 most significant
/// when `BE`, else least.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn num8<const BE: bool>(v: __m128i) -> u32 {
    let w = |hi: i16| {
        if BE { _mm_setr_epi16(hi, 1, hi, 1, hi, 1, hi, 1) } else { _mm_setr_epi16(1, hi, 1, hi, 1, hi, 1, hi) }
    };
    // Pairs (below 100), then fours (below 10^4, so they pack into i16), then eight.
    let t = _mm_madd_epi16(v, w(10));
    let t = _mm_madd_epi16(_mm_packs_epi32(t, t), w(100));
    let t = _mm_madd_epi16(_mm_packs_epi32(t, t), w(10_000));
    _mm_cvtsi128_si32(t) as u32
}

/// STR^8_10 of `x` < 10^8 as eight u16 lanes, most significant first when
/// `BE`, else least (W. Muła's SSE2 conversion: divisions by 10^4, then by
/// 10^3..10^0 in 16-bit lanes, by multiply-high).
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn digits8<const BE: bool>(x: u32) -> __m128i {
    let v = _mm_cvtsi32_si128(x as i32);
    // abcd = x / 10^4 (exact for x < 10^8: multiply by ceil(2^45 / 10^4)), efgh = x mod 10^4.
    let abcd = _mm_srli_epi64::<45>(_mm_mul_epu32(v, _mm_set1_epi32(0xd1b7_1759_u32 as i32)));
    let efgh = _mm_sub_epi32(v, _mm_mul_epu32(abcd, _mm_set1_epi32(10_000)));
    // [abcd * 4] x4, [efgh * 4] x4 in 16-bit lanes.
    let v1 = _mm_slli_epi64::<2>(_mm_unpacklo_epi16(abcd, efgh));
    let v2 = _mm_unpacklo_epi16(v1, v1);
    let v2 = _mm_unpacklo_epi32(v2, v2);
    // [a, ab, abc, abcd, e, ef, efg, efgh]: by 10^3, 10^2, 10^1, 10^0.
    let v3 = _mm_mulhi_epu16(v2, _mm_setr_epi16(8389, 5243, 13108, -32768, 8389, 5243, 13108, -32768));
    let shifts = opaque(_mm_setr_epi16(1 << 7, 1 << 11, 1 << 13, -32768, 1 << 7, 1 << 11, 1 << 13, -32768));
    let v4 = _mm_mulhi_epu16(v3, shifts);
    // Each lane minus ten times the lane before it (zero at a, e): the digits.
    let d = _mm_sub_epi16(v4, _mm_slli_epi64::<16>(_mm_mullo_epi16(v4, _mm_set1_epi16(10))));
    if BE {
        d
    } else {
        // Reverse the eight lanes: 32-bit lanes, then the pairs within them.
        let d = _mm_shuffle_epi32::<0b0001_1011>(d);
        _mm_shufflehi_epi16::<0b1011_0001>(_mm_shufflelo_epi16::<0b1011_0001>(d))
    }
}

/// `v`, hidden from the optimiser: multiply-high by powers of two would
/// otherwise become per-lane shifts, which SSE2 emulates in some thirty
/// instructions. Emits no instruction.
#[inline(always)]
fn opaque(mut v: __m128i) -> __m128i {
    // SAFETY: an empty instruction string: no code is emitted, no memory,
    // stack or flag is touched.
    unsafe { core::arch::asm!("/* {0} */", inout(xmm_reg) v, options(pure, nomem, nostack, preserves_flags)) };
    v
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(v: __m128i) -> [u16; 8] {
        let mut t = [0u16; 8];
        // SAFETY: a 16-byte store into a 16-byte array.
        unsafe { _mm_storeu_si128(t.as_mut_ptr() as *mut __m128i, v) };
        t
    }

    /// Every 8-digit block: the edges, every power of ten and its
    /// neighbours, and a stride through the whole range.
    #[test]
    fn eight_digits_both_ways() {
        let mut xs: Vec<u32> = (0..100_000_000).step_by(9_973).collect();
        for p in 0..8 {
            let t = 10u32.pow(p);
            xs.extend([t - 1, t, t + 1, 99_999_999 / t, 99_999_999 - t]);
        }
        for x in xs {
            let want: Vec<u16> = format!("{x:08}").bytes().map(|b| (b - b'0') as u16).collect();
            let (be, le, from_be, from_le) = both_ways(x);
            assert_eq!(be[..], want[..], "{x}");
            let mut rev = be;
            rev.reverse();
            assert_eq!(le, rev, "{x}");
            assert_eq!((from_be, from_le), (x, x));
        }
    }

    /// STR^8 of `x` in both digit orders, and NUM of each back.
    fn both_ways(x: u32) -> ([u16; 8], [u16; 8], u32, u32) {
        // SAFETY: SSE2 is part of every x86-64 CPU.
        unsafe {
            let (be, le) = (digits8::<true>(x), digits8::<false>(x));
            (lanes(be), lanes(le), num8::<true>(be), num8::<false>(le))
        }
    }

    /// Halves of every length at every offset in a short buffer (so loads
    /// and stores run off both ends), against the scalar conversions.
    #[test]
    fn halves_at_the_edges() {
        let rx = super::super::num::Radix::new(10);
        let mut seed = 0x1234_5678u64;
        for m in 1..=16usize {
            for len in m..m + 20 {
                for start in 0..=len - m {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let v = (seed >> 4) % 10u64.pow(m as u32);
                    let mut x = vec![7u16; len];
                    put::<true>(&mut x, start, m, v);
                    assert_eq!(rx.num_be64(&x[start..start + m]), v, "m {m} len {len} start {start}");
                    assert!(x[start + m..].iter().all(|&d| d == 7), "BE wrote above the half");
                    assert_eq!(num::<true>(&x, start, m), v);
                    let mut y = vec![7u16; len];
                    put::<false>(&mut y, start, m, v);
                    assert_eq!(rx.num_le64(&y[start..start + m]), v, "m {m} len {len} start {start}");
                    assert!(y[..start].iter().all(|&d| d == 7), "LE wrote below the half");
                    assert_eq!(num::<false>(&y, start, m), v);
                }
            }
        }
    }
}
