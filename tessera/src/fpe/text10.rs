//! Decimal text straight to and from FF1's integer halves of 1 to 9 digits, eight ASCII digits per
//! 64-bit word (SWAR: no table, no branch on a digit).
#![allow(unsafe_code)]

/// Bytes before the value in the working buffers: every 8-byte window ending in the value is inside.
const PAD: usize = 8;
/// The longest half.
const MAX_HALF: usize = 9;
const BUF: usize = PAD + 2 * MAX_HALF;
/// Eight ASCII zeros.
const ZEROS: u64 = 0x3030_3030_3030_3030;
const HIGH_NIBBLES: u64 = 0xf0f0_f0f0_f0f0_f0f0;

/// NUM of both halves of `text` (the first `u` digits, then the rest), or `None` if a half is longer
/// than nine digits or empty, or a byte is not an ASCII digit (no branch on a digit).
#[inline]
pub(crate) fn parse(text: &[u8], u: usize) -> Option<(u64, u64)> {
    let n = text.len();
    if direct(n, u) {
        return windows(window(text, 8), window(text, n), n, u);
    }
    if !fits(n, u) {
        return None;
    }
    let mut buf = [b'0'; BUF];
    buf[PAD..PAD + n].copy_from_slice(text);
    halves(&buf, n, u)
}

/// [`parse`] for radix-10 numerals: `None` also when a numeral is 10 or more.
#[inline]
pub(crate) fn parse_numerals(x: &[u16], u: usize) -> Option<(u64, u64)> {
    let n = x.len();
    if direct(n, u) {
        // SAFETY: SSE2 is part of every x86-64 CPU.
        return unsafe { windows(narrow(x, 8), narrow(x, n), n, u) };
    }
    if !fits(n, u) {
        return None;
    }
    let mut buf = [b'0'; BUF];
    for (b, &d) in buf[PAD..PAD + n].iter_mut().zip(x) {
        *b = ascii_of(d);
    }
    halves(&buf, n, u)
}

/// Appends STR^u(a) || STR^(n-u)(b) to `out` (a < 10^u, b < 10^(n-u), halves as [`parse`] takes them).
#[inline]
pub(crate) fn push(u: usize, n: usize, ab: (u64, u64), out: &mut String) {
    let (word, buf);
    let digits = if direct(n, u) {
        word = joined(u, n, ab).to_le_bytes();
        &word[..n]
    } else {
        buf = ascii(u, n, ab);
        &buf[PAD..PAD + n]
    };
    debug_assert!(digits.is_ascii());
    // SAFETY: `joined` and `put` make every byte of `digits` b'0' plus a value below ten (ASCII): the
    // String stays valid UTF-8.
    unsafe { out.as_mut_vec() }.extend_from_slice(digits);
}

/// [`push`] as radix-10 numerals into `x` (of length n).
#[inline]
pub(crate) fn put_numerals(u: usize, ab: (u64, u64), x: &mut [u16]) {
    let n = x.len();
    if direct(n, u) {
        // Bytes above n borrow; none below them does.
        let d = joined(u, n, ab).wrapping_sub(u128::from_le_bytes([b'0'; 16]));
        // SAFETY: SSE2 is part of every x86-64 CPU.
        unsafe {
            widen(x, 8, d as u64);
            widen(x, n, (d >> (8 * (n - 8))) as u64);
        }
        return;
    }
    let buf = ascii(u, n, ab);
    for (d, &b) in x.iter_mut().zip(&buf[PAD..]) {
        *d = (b - b'0') as u16;
    }
}

/// The byte for numeral `d` that [`all_digits`] accepts exactly when `d` is below 10.
#[inline(always)]
fn ascii_of(d: u16) -> u8 {
    (d.min(0xff) as u8).wrapping_add(b'0')
}

/// Whether the value takes the direct route: 8 to 16 digits, halves of 1 to 8 (both in the 8-byte
/// windows ending at 8 and at n).
#[inline(always)]
fn direct(n: usize, u: usize) -> bool {
    (8..=16).contains(&n) && (1..=8).contains(&u) && n - u <= 8
}

/// `text[e - 8..e]` as a little-endian word.
#[inline(always)]
fn window(text: &[u8], e: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&text[e - 8..e]);
    u64::from_le_bytes(w)
}

/// [`window`] of numerals, each as [`ascii_of`] makes it.
#[inline]
#[target_feature(enable = "sse2")]
fn narrow(x: &[u16], e: usize) -> u64 {
    use core::arch::x86_64::*;
    let w = &x[e - 8..e];
    let v = crate::simd::load(w);
    // min(v, 0xff) by a saturating subtraction (the pack saturates signed).
    let top = _mm_set1_epi16(0xff);
    let v = _mm_sub_epi16(v, _mm_subs_epu16(v, top));
    let b = _mm_add_epi8(_mm_packus_epi16(v, v), _mm_set1_epi8(b'0' as i8));
    _mm_cvtsi128_si64(b) as u64
}

/// Writes the eight byte values of `d` as u16 to `x[e - 8..e]`.
#[inline]
#[target_feature(enable = "sse2")]
fn widen(x: &mut [u16], e: usize, d: u64) {
    use core::arch::x86_64::*;
    let v = _mm_unpacklo_epi8(_mm_cvtsi64_si128(d as i64), _mm_setzero_si128());
    let w = &mut x[e - 8..e];
    crate::simd::store(w, v);
}

/// NUM of both halves from the windows ending at 8 (A: its first `u` bytes) and at n (B: its last
/// n - u), if all are digits.
#[inline(always)]
fn windows(first: u64, last: u64, n: usize, u: usize) -> Option<(u64, u64)> {
    let (ka, kb) = (keep(u), keep(n - u));
    let a = (first << (8 * (8 - u))) | (ZEROS & !ka);
    let b = (last & kb) | (ZEROS & !kb);
    (all_digits(a) & all_digits(b)).then(|| (num8(a.wrapping_sub(ZEROS)), num8(b.wrapping_sub(ZEROS))))
}

/// The top `k` (1..=8) bytes of a word.
#[inline(always)]
fn keep(k: usize) -> u64 {
    u64::MAX << (8 * (8 - k))
}

/// STR^u(a) || STR^(n-u)(b) in ASCII in the low n bytes (direct route).
#[inline(always)]
pub(crate) fn joined(u: usize, n: usize, (a, b): (u64, u64)) -> u128 {
    let wa = ascii8(a as u32) >> (8 * (8 - u));
    let wb = ascii8(b as u32) >> (8 * (8 - (n - u)));
    wa as u128 | ((wb as u128) << (8 * u))
}

/// Whether a value of `n` digits split after `u` has halves of 1 to 9 digits.
#[inline(always)]
fn fits(n: usize, u: usize) -> bool {
    (1..=MAX_HALF).contains(&u) && n.checked_sub(u).is_some_and(|v| (1..=MAX_HALF).contains(&v))
}

/// NUM of both halves of the `n` bytes after the padding, if all are digits.
#[inline(always)]
fn halves(buf: &[u8; BUF], n: usize, u: usize) -> Option<(u64, u64)> {
    let (a, ok_a) = half(buf, PAD + u, u);
    let (b, ok_b) = half(buf, PAD + n, n - u);
    (ok_a & ok_b).then_some((a, b))
}

/// STR^u(a) || STR^(n-u)(b) in ASCII, after the padding.
#[inline(always)]
fn ascii(u: usize, n: usize, (a, b): (u64, u64)) -> [u8; BUF] {
    debug_assert!(fits(n, u));
    let mut buf = [0u8; BUF];
    // B first: its window writes zeros over A's place, which A then fills.
    put(&mut buf, PAD + n, n - u, b);
    put(&mut buf, PAD + u, u, a);
    buf
}

/// The 8 bytes ending at `end`, the first one lowest.
#[inline(always)]
fn word(buf: &[u8; BUF], end: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&buf[end - 8..end]);
    u64::from_le_bytes(w)
}

/// NUM of the `k` (1..=9) digits ending at `end`, and whether they all are ASCII digits.
#[inline(always)]
fn half(buf: &[u8; BUF], end: usize, k: usize) -> (u64, bool) {
    // The bytes of the window before the half read as '0'.
    let keep = keep(k.min(8));
    let w = (word(buf, end) & keep) | (ZEROS & !keep);
    let top = if k > 8 { buf[end - 9].wrapping_sub(b'0') } else { 0 };
    (top as u64 * 100_000_000 + num8(w.wrapping_sub(ZEROS)), all_digits(w) & (top < 10))
}

/// Whether every byte of `w` is an ASCII digit: high nibble 3, and still 3 after adding 6 (a carry
/// out of a byte comes only from a byte that fails the first test).
#[inline(always)]
fn all_digits(w: u64) -> bool {
    (w & HIGH_NIBBLES) == ZEROS && (w.wrapping_add(0x0606_0606_0606_0606) & HIGH_NIBBLES) == ZEROS
}

/// NUM_10 of eight digit values, one per byte, the first (lowest) byte most significant.
#[inline(always)]
pub(crate) fn num8(w: u64) -> u64 {
    // Wrapping: callers may pass bytes that are not digits (the result is then discarded).
    let w = w.wrapping_mul(10).wrapping_add(w >> 8) & 0x00ff_00ff_00ff_00ff;
    let w = w.wrapping_mul(100).wrapping_add(w >> 16) & 0x0000_ffff_0000_ffff;
    w.wrapping_mul(10_000).wrapping_add(w >> 32) & 0xffff_ffff
}

/// STR^8_10 of `v` < 10^8 as ASCII, the most significant digit in the lowest byte, by multiply-high estimates
/// exact in these ranges (z / 100 = z * 5243 >> 19 for z < 10^4, z / 10 = z * 103 >> 10 for z < 100).
#[inline(always)]
pub(crate) fn ascii8(v: u32) -> u64 {
    let v = v as u64;
    let y = (v / 10_000) | ((v % 10_000) << 32);
    let q = ((y * 5243) >> 19) & 0x0000_007f_0000_007f;
    let y = q | ((y - q * 100) << 16);
    let q = ((y * 103) >> 10) & 0x000f_000f_000f_000f;
    (q | ((y - q * 10) << 8)) + ZEROS
}

/// Writes STR^k(v) (k in 1..=9) to the `k` bytes ending at `end`, and zeros below them in the window.
#[inline(always)]
fn put(buf: &mut [u8; BUF], end: usize, k: usize, v: u64) {
    buf[end - 8..end].copy_from_slice(&ascii8((v % 100_000_000) as u32).to_le_bytes());
    if k > 8 {
        buf[end - 9] = b'0' + (v / 100_000_000) as u8;
    }
}

#[cfg(test)]
#[path = "text10_tests.rs"]
mod tests;
