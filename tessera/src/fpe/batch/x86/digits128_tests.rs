use super::*;
use crate::fpe::batch::x86::digit_quads::Dec128;

fn lanes(v: __m128i) -> [u16; 8] {
    crate::simd::cast(v)
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
    let rx = crate::fpe::num::Radix::new(10);
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

/// Whether the CPU level (capped by `TESSERA_CPU`) has SSE4.1; prints a
/// note when the conversions' tests are skipped.
fn sse41() -> bool {
    let has = crate::cpu::Sse41::get().is_some();
    if !has {
        eprintln!("note: no SSE4.1 at this CPU level (TESSERA_CPU): SSE4.1 conversion test skipped");
    }
    has
}

/// Every split `u` of every length `n` from 2 to 16, both digit orders
/// (`be`), with its SSE4.1 conversion.
fn every_shape() -> impl Iterator<Item = (usize, usize, bool, Dec128)> {
    (2usize..=16).flat_map(|n| {
        (n.saturating_sub(8).max(1)..=8.min(n - 1)).flat_map(move |u| {
            [true, false].into_iter().map(move |be| (n, u, be, Dec128::new(n, u, be).expect("SSE4.1 and a split")))
        })
    })
}

/// NUM of both halves of the value `x`, by the scalar conversions.
fn scalar(x: &[u16], u: usize, be: bool) -> (u64, u64) {
    let rx = crate::fpe::num::Radix::new(10);
    let (xa, xb) = x.split_at(u);
    if be { (rx.num_be64(xa), rx.num_be64(xb)) } else { (rx.num_le64(xa), rx.num_le64(xb)) }
}

/// No conversion for a half of 0 or more than 8 numerals.
#[test]
fn dec128_only_for_halves_of_one_to_eight() {
    for (n, u) in [(17, 8), (10, 1), (17, 9), (19, 10), (8, 0), (8, 8), (1, 1), (0, 0), (5, 6)] {
        assert!(Dec128::new(n, u, true).is_none() && Dec128::new(n, u, false).is_none(), "{n} {u}");
    }
    if sse41() {
        assert!(Dec128::new(16, 8, true).is_some() && Dec128::new(2, 1, false).is_some());
    }
}

/// Every shape, value counts 1 to 9 (a partial group of four, its loads
/// and stores at the data's end through the padded copy), random values,
/// all zeros and all nines: the parse gives the scalar NUM and zeros up
/// to the next multiple of four; the format gives the numerals back and
/// writes only inside `data`.
#[test]
fn dec128_groups_match_scalar() {
    if !sse41() {
        return;
    }
    let mut seed = 0x0123_4567_89ab_cdefu64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % 10
    };
    for (n, u, be, dec) in every_shape() {
        for count in 1..=9usize {
            let random: Vec<u16> = (0..count * n).map(|_| next() as u16).collect();
            for data in [random, vec![0; count * n], vec![9; count * n]] {
                let (mut a, mut b) = ([7u64; 12], [7u64; 12]);
                assert!(dec.parse_checked(&data, &mut a, &mut b), "n {n} u {u} be {be} count {count}");
                for (j, x) in data.chunks(n).enumerate() {
                    assert_eq!((a[j], b[j]), scalar(x, u, be), "n {n} u {u} be {be} count {count} value {j}");
                }
                let past = count..count.next_multiple_of(4);
                assert!(a[past.clone()].iter().chain(&b[past]).all(|&x| x == 0), "zeros past the last value");
                let mut buf = vec![5u16; count * n + 16];
                dec.format(&a, &b, &mut buf[8..8 + count * n]);
                assert_eq!(buf[8..8 + count * n], data[..], "n {n} u {u} be {be} count {count}");
                assert!(buf[..8].iter().chain(&buf[8 + count * n..]).all(|&d| d == 5), "wrote outside");
            }
        }
    }
}

/// The check fused into the parse: every shape, 1 to 9 values, a bad
/// numeral at every position in turn (10 and 11 just above the digits,
/// 0xffff just below zero, 0x0100 with a zero low byte, 0x7fff and 0x8000
/// at the i16 sign edge), each found; nines everywhere pass.
#[test]
fn dec128_check_finds_every_bad_numeral() {
    if !sse41() {
        return;
    }
    for (n, u, be, dec) in every_shape() {
        for count in 1..=9 {
            let (mut a, mut b) = ([0u64; 12], [0u64; 12]);
            let data: Vec<u16> = (0..count * n).map(|i| (i * 7 % 10) as u16).collect();
            assert!(dec.parse_checked(&vec![9; count * n], &mut a, &mut b), "nines {n} {u} {be} {count}");
            assert!(dec.parse_checked(&data, &mut a, &mut b), "digits {n} {u} {be} {count}");
            for at in 0..data.len() {
                for bad in [10, 11, 0xffff, 0x0100, 0x7fff, 0x8000] {
                    let mut d = data.clone();
                    d[at] = bad;
                    assert!(!dec.parse_checked(&d, &mut a, &mut b), "n {n} u {u} be {be} count {count} at {at} {bad}");
                }
            }
        }
    }
}

/// Two halves per STR pass and NUM back, in every lane of every width
/// this CPU has, both digit orders: every 8-digit edge.
#[test]
fn every_width_every_lane() {
    use super::super::lanes::{Lanes, digits, num_lanes};
    use crate::simd::{Plain, load, store};
    let mut xs: Vec<u64> = (0..100_000_000).step_by(99_991).collect();
    for p in 0..8 {
        let t = 10u64.pow(p);
        xs.extend([t - 1, t, t + 1, 99_999_999 - t]);
    }
    // Each 128-bit lane's two u64 to digits, then each lane's digits back.
    fn check<L: Lanes + Plain>(t: L::Token, x: &[u64]) {
        for rev in [false, true] {
            for (q, d) in digits::<L>(t, load(x), rev).into_iter().enumerate() {
                let (mut dd, mut back) = ([0u16; 32], [0u32; 16]);
                store(&mut dd, d);
                store(&mut back, num_lanes(t, d, rev));
                for lane in 0..size_of::<L>() / 16 {
                    let v = x[2 * lane + q];
                    let mut want: Vec<u16> = format!("{v:08}").bytes().map(|b| (b - b'0') as u16).collect();
                    if rev {
                        want.reverse();
                    }
                    assert_eq!(dd[8 * lane..8 * lane + 8], want[..], "{v} {rev}");
                    assert_eq!(back[4 * lane] as u64, v, "{v} {rev}");
                }
            }
        }
    }
    for w in xs.windows(8) {
        check::<__m128i>(super::super::lanes::Sse2, w);
        if let Some(t) = crate::cpu::Avx2::get() {
            check::<__m256i>(t, w);
        }
        if let Some(t) = crate::cpu::Avx512::get() {
            check::<__m512i>(t, w);
        }
    }
}
