//! Decimal text straight to and from FF1's integer halves, eight ASCII
//! digits per 64-bit word (SWAR: no table, no branch on a digit), for the
//! single-value digits path; its output is ASCII digits, so no UTF-8
//! check. Values of 8 to 16 digits as two 8-byte windows of the value,
//! other lengths through a padded stack buffer; halves of 1 to 9 digits.
#![allow(unsafe_code)]

/// Bytes before the value in the working buffers, so every 8-byte window
/// that ends inside the value starts inside the buffer.
const PAD: usize = 8;
/// The longest half.
const MAX_HALF: usize = 9;
const BUF: usize = PAD + 2 * MAX_HALF;
/// Eight ASCII zeros.
const ZEROS: u64 = 0x3030_3030_3030_3030;
const HIGH_NIBBLES: u64 = 0xf0f0_f0f0_f0f0_f0f0;

/// NUM of both halves of `text` (the first `u` digits, then the rest), or
/// `None` if a half is longer than nine digits or empty, or a byte is not
/// an ASCII digit. Branches only on the lengths and, at the end, on
/// whether every byte was a digit.
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

/// Appends STR^u(a) || STR^(n-u)(b) to `out` (a < 10^u, b < 10^(n-u),
/// halves of 1 to 9 digits as [`parse`] takes them).
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
    // SAFETY: `joined` and `put` make every byte of `digits` b'0' plus a
    // value below ten (ASCII, hence UTF-8): the String stays valid UTF-8.
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

/// The byte for numeral `d` that [`all_digits`] accepts exactly when `d`
/// is below 10 (10 or more gives 0x3a..=0xff, or below 0x30 after wrapping).
#[inline(always)]
fn ascii_of(d: u16) -> u8 {
    (d.min(0xff) as u8).wrapping_add(b'0')
}

/// Whether the value takes the direct route: 8 to 16 digits, halves of 1
/// to 8, so both halves sit in the 8-byte windows ending at 8 and at n.
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

/// [`window`] of numerals, each as [`ascii_of`] makes it: saturate to a
/// byte, add '0' bytewise (no carry between bytes).
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

/// NUM of both halves from the window ending at 8 (A is its first `u`
/// bytes) and the one ending at n (B is its last n - u), if all are digits.
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

/// NUM of the `k` (1..=9) digits ending at `end`, and whether they all are
/// ASCII digits (if not, the number is meaningless).
#[inline(always)]
fn half(buf: &[u8; BUF], end: usize, k: usize) -> (u64, bool) {
    // The bytes of the window before the half read as '0'.
    let keep = keep(k.min(8));
    let w = (word(buf, end) & keep) | (ZEROS & !keep);
    let top = if k > 8 { buf[end - 9].wrapping_sub(b'0') } else { 0 };
    (top as u64 * 100_000_000 + num8(w.wrapping_sub(ZEROS)), all_digits(w) & (top < 10))
}

/// Whether every byte of `w` is an ASCII digit: high nibble 3, and still 3
/// after adding 6. (A carry out of a byte comes only from a byte of 0xfa or
/// more, which already fails the first test.)
#[inline(always)]
fn all_digits(w: u64) -> bool {
    (w & HIGH_NIBBLES) == ZEROS && (w.wrapping_add(0x0606_0606_0606_0606) & HIGH_NIBBLES) == ZEROS
}

/// NUM_10 of eight digit values, one per byte, the first (lowest) byte
/// most significant: pairs, then fours, then all eight.
#[inline(always)]
pub(crate) fn num8(w: u64) -> u64 {
    // Wrapping: callers may pass bytes that are not digits (the result is
    // then discarded), and that must not panic where overflow is checked.
    let w = w.wrapping_mul(10).wrapping_add(w >> 8) & 0x00ff_00ff_00ff_00ff;
    let w = w.wrapping_mul(100).wrapping_add(w >> 16) & 0x0000_ffff_0000_ffff;
    w.wrapping_mul(10_000).wrapping_add(w >> 32) & 0xffff_ffff
}

/// STR^8_10 of `v` < 10^8 as ASCII, the most significant digit in the
/// lowest byte: split into fours, then pairs, then digits, by multiply-high
/// estimates that are exact in these ranges (z / 100 = z * 5243 >> 19 for
/// z < 10^4, z / 10 = z * 103 >> 10 for z < 100).
#[inline(always)]
pub(crate) fn ascii8(v: u32) -> u64 {
    let v = v as u64;
    let y = (v / 10_000) | ((v % 10_000) << 32);
    let q = ((y * 5243) >> 19) & 0x0000_007f_0000_007f;
    let y = q | ((y - q * 100) << 16);
    let q = ((y * 103) >> 10) & 0x000f_000f_000f_000f;
    (q | ((y - q * 10) << 8)) + ZEROS
}

/// Writes STR^k(v) (k in 1..=9) to the `k` bytes ending at `end`, and
/// zeros below them within the 8-byte window.
#[inline(always)]
fn put(buf: &mut [u8; BUF], end: usize, k: usize, v: u64) {
    buf[end - 8..end].copy_from_slice(&ascii8((v % 100_000_000) as u32).to_le_bytes());
    if k > 8 {
        buf[end - 9] = b'0' + (v / 100_000_000) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every eight-digit edge (powers of ten and their neighbours) and a
    /// stride through the range, both ways.
    #[test]
    fn eight_digits_both_ways() {
        let mut xs: Vec<u32> = (0..100_000_000).step_by(7_919).collect();
        for p in 0..8 {
            let t = 10u32.pow(p);
            xs.extend([t - 1, t, t + 1, 99_999_999 / t, 99_999_999 - t, 99_999_999]);
        }
        for x in xs {
            let s = format!("{x:08}");
            assert_eq!(ascii8(x).to_le_bytes(), s.as_bytes(), "{x}");
            assert_eq!(num8(ascii8(x) - ZEROS), x as u64);
        }
    }

    /// Every split of every length, values at the edges and random ones,
    /// against formatting and parsing by the standard library.
    #[test]
    fn halves_round_trip_at_every_length() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for u in 1..=MAX_HALF {
            for v in 1..=MAX_HALF {
                let (pu, pv) = (10u64.pow(u as u32), 10u64.pow(v as u32));
                let mut cases = vec![(0, 0), (pu - 1, pv - 1), (pu / 10, pv / 10), (1, pv - 1)];
                for _ in 0..50 {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    cases.push(((seed >> 7) % pu, (seed >> 3) % pv));
                }
                for (a, b) in cases {
                    let text = format!("{a:0u$}{b:0v$}");
                    assert_eq!(parse(text.as_bytes(), u), Some((a, b)), "{text} u={u}");
                    let mut out = String::from("keep:");
                    push(u, u + v, (a, b), &mut out);
                    assert_eq!(out, format!("keep:{text}"));
                    let numerals: Vec<u16> = text.bytes().map(|c| (c - b'0') as u16).collect();
                    assert_eq!(parse_numerals(&numerals, u), Some((a, b)), "{text} u={u}");
                    let mut x = vec![7u16; u + v];
                    put_numerals(u, (a, b), &mut x);
                    assert_eq!(x, numerals, "{text} u={u}");
                }
            }
        }
    }

    /// A single non-digit anywhere, of every kind at the edges of '0'..='9'
    /// and beyond ASCII, makes the parse fail; so do empty or long halves.
    #[test]
    fn rejects_any_non_digit() {
        for n in 2..=2 * MAX_HALF {
            let u = n / 2;
            for at in 0..n {
                for bad in [b'/', b':', b' ', 0, 0x7f, 0x80, 0xc3, 0xfa, 0xff, b'0' + 0x10, b'9' + 0x40] {
                    let mut text = vec![b'5'; n];
                    text[at] = bad;
                    assert_eq!(parse(&text, u), None, "n={n} at={at} bad={bad:#x}");
                }
                for bad in [10u16, 0x3a - 0x30 + 6, 0xcf, 0xd0, 0xd5, 0xff, 0x100, 0x130, u16::MAX] {
                    let mut x = vec![5u16; n];
                    x[at] = bad;
                    assert_eq!(parse_numerals(&x, u), None, "n={n} at={at} bad={bad:#x}");
                }
            }
        }
        // Whole values of non-digits (the arithmetic on them must not
        // overflow: debug builds and the fuzzer check it).
        for n in 1..=2 * MAX_HALF + 2 {
            for bad in [0u8, b'/', b':', 0x7f, 0x80, 0xc6, 0xfa, 0xff] {
                for u in 1..n {
                    assert_eq!(parse(&vec![bad; n], u), None, "n={n} u={u} bad={bad:#x}");
                    assert_eq!(parse_numerals(&vec![u16::from(bad) + 10; n], u), None, "n={n} u={u}");
                }
            }
        }
        // Random bytes of every length (half of them digits): the same answer as
        // a byte-by-byte check, and no overflow on the way (the fuzzer found one).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let n = 2 + (seed >> 59) as usize % (2 * MAX_HALF - 1);
            let text: Vec<u8> = (0..n)
                .map(|i| {
                    let r = (seed >> (i % 8 * 8)) as u8 ^ (i as u8).wrapping_mul(0x9d);
                    if r & 1 == 0 { b'0' + r % 10 } else { r }
                })
                .collect();
            let u = n / 2;
            let digits = text.iter().all(u8::is_ascii_digit);
            assert_eq!(parse(&text, u).is_some(), digits && fits(n, u), "{text:?}");
        }
        assert_eq!(num8(u64::MAX) >> 32, 0, "any word, no overflow");
        assert_eq!(parse(b"123456", 0), None);
        assert_eq!(parse(b"123456", 6), None);
        assert_eq!(parse(b"12345678901", 1), None);
        assert_eq!(parse(b"12", 3), None);
    }

    use crate::fpe::{Alphabet, FF1, Fpe};

    /// The fast text and radix-10 numeral paths against the generic rounds
    /// (the same key without AES-NI) at every length the chain serves
    /// (6 to 18 digits), both directions, edge values and random ones.
    #[test]
    fn fast_paths_match_the_generic_path() {
        let key = [0x3cu8; 16];
        let fast = FF1::new(&key, Alphabet::digits()).unwrap();
        let slow = FF1::new(&key, Alphabet::digits()).unwrap().without_aes_ni();
        let mut seed = 0x51_7cc1_b727_220au64;
        for n in 6..=2 * MAX_HALF {
            let mut texts = vec!["0".repeat(n), "9".repeat(n), format!("1{}", "0".repeat(n - 1))];
            for _ in 0..20 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                texts.push((0..n).map(|k| char::from(b'0' + ((seed >> (2 * k + 5)) % 10) as u8)).collect());
            }
            for text in &texts {
                for tweak in [&b""[..], b"tweak", &[9u8; 40]] {
                    let (mut a, mut b) = (String::new(), String::new());
                    fast.encrypt_into(tweak, text, &mut a).unwrap();
                    slow.encrypt_into(tweak, text, &mut b).unwrap();
                    assert_eq!(a, b, "n={n} {text}");
                    fast.decrypt_into(tweak, text, &mut a).unwrap();
                    slow.decrypt_into(tweak, text, &mut b).unwrap();
                    assert_eq!(a, b, "n={n} {text}");
                    let mut x: Vec<u16> = text.bytes().map(|c| (c - b'0') as u16).collect();
                    fast.encrypt_numerals(tweak, &mut x).unwrap();
                    let enc: String = x.iter().map(|&d| char::from(b'0' + d as u8)).collect();
                    assert_eq!(enc, slow.encrypt(tweak, text).unwrap());
                    fast.decrypt_numerals(tweak, &mut x).unwrap();
                    assert!(x.iter().zip(text.bytes()).all(|(&d, c)| d == (c - b'0') as u16));
                }
            }
        }
    }

    /// Bad characters and numerals get the general path's exact errors, and
    /// leave numerals untouched; lengths outside the chain still work.
    #[test]
    fn fast_paths_report_the_same_errors() {
        let fast = FF1::new(&[5u8; 16], Alphabet::digits()).unwrap();
        let slow = FF1::new(&[5u8; 16], Alphabet::digits()).unwrap().without_aes_ni();
        for n in [1, 5, 6, 10, 16, 18, 19, 40] {
            for at in 0..n {
                for bad in ['a', '/', ':', ' ', '\u{e9}', '\u{661}'] {
                    let text: String = (0..n).map(|k| if k == at { bad } else { '7' }).collect();
                    let (mut a, mut b) = (String::from("x"), String::from("x"));
                    assert_eq!(fast.encrypt_into(b"t", &text, &mut a), slow.encrypt_into(b"t", &text, &mut b));
                    assert_eq!(fast.decrypt_into(b"t", &text, &mut a), slow.decrypt_into(b"t", &text, &mut b));
                }
                for bad in [10u16, 11, 0xcf, 0xd0, 0xff, 0x100, 0x130, u16::MAX] {
                    let mut x = vec![7u16; n];
                    x[at] = bad;
                    let mut y = x.clone();
                    assert_eq!(fast.encrypt_numerals(b"t", &mut x), slow.encrypt_numerals(b"t", &mut y));
                    assert_eq!(x, y, "n={n} at={at} bad={bad}");
                }
            }
            let text = "3".repeat(n);
            assert_eq!(fast.encrypt(b"t", &text), slow.encrypt(b"t", &text));
        }
    }
}
