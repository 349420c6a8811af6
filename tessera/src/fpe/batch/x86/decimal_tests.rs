use super::*;
use crate::fpe::{FF1, FF3_1, Fpe, Tweaks};

/// Random numerals, all zeros and all nines (each half at 0 and at its
/// maximum), for `count` values of `n`.
fn cases(n: usize, count: usize, next: &mut impl FnMut() -> u64) -> [Vec<u16>; 3] {
    [(0..count * n).map(|_| (next() % 10) as u16).collect(), vec![0; count * n], vec![9; count * n]]
}

/// Both whole-group conversions this CPU has (AVX2, AVX-512 BW) for
/// values of `n` numerals split at `u`, in FF1's digit order when `be`.
fn converters(n: usize, u: usize, be: bool) -> Vec<Decimal> {
    let avx512 = Dec512::new(n, u, be).map(Decimal::Avx512);
    Dec256::new(n, u, be).map(Decimal::Avx2).into_iter().chain(avx512).collect()
}

/// Every split `u` of every length `n` from 2 to 16, both digit orders
/// (`be`), each with every conversion this CPU has.
fn every_shape() -> impl Iterator<Item = (usize, usize, bool, Decimal)> {
    (2usize..=16).flat_map(|n| {
        (n.saturating_sub(8).max(1)..=8.min(n - 1)).flat_map(move |u| {
            [true, false].into_iter().flat_map(move |be| converters(n, u, be).into_iter().map(move |d| (n, u, be, d)))
        })
    })
}

/// Every split of every length up to 16, both digit orders, value
/// counts 1 to 9 (partial groups, loads and stores at the data's end),
/// in each conversion against the scalar ones; format writes only
/// inside `data`.
#[test]
fn whole_groups_match_scalar() {
    if crate::cpu::Avx2::get().is_none() {
        return;
    }
    let rx = crate::fpe::num::Radix::new(10);
    let mut seed = 0x0123_4567_89ab_cdefu64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed >> 11
    };
    for (n, u) in [(17, 8), (10, 1), (17, 9), (19, 10)] {
        assert!(converters(n, u, true).is_empty() && converters(n, u, false).is_empty(), "{n} {u}");
    }
    for (n, u, be, dec) in every_shape() {
        let wide = matches!(dec, Decimal::Avx512(_));
        for count in 1..=9usize {
            for data in cases(n, count, &mut next) {
                let (mut a, mut b) = ([7u64; 12], [7u64; 12]);
                assert!(dec.parse_checked(&data, &mut a, &mut b));
                for j in 0..count {
                    let (xa, xb) = data[j * n..(j + 1) * n].split_at(u);
                    let want = if be { (rx.num_be64(xa), rx.num_be64(xb)) } else { (rx.num_le64(xa), rx.num_le64(xb)) };
                    assert_eq!((a[j], b[j]), want, "512 {wide} n {n} u {u} be {be} count {count} value {j}");
                }
                assert!(a[count..count.next_multiple_of(4)].iter().all(|&x| x == 0));
                let mut buf = vec![5u16; count * n + 16];
                dec.format(&a, &b, &mut buf[8..8 + count * n]);
                assert_eq!(buf[8..8 + count * n], data[..], "512 {wide} n {n} u {u} be {be} count {count}");
                assert!(buf[..8].iter().chain(&buf[8 + count * n..]).all(|&d| d == 5), "wrote outside");
            }
        }
    }
}

/// The check fused into both parses (AVX2, AVX-512 BW): every length
/// and split up to 16, both digit orders, 1 to 9 values (windows cut
/// at the data's end, AVX2's padded last group), a bad numeral (10,
/// 11, 0x7fff, 0x8000, 0xffff: negative as i16) at every position in
/// turn, and the same data with only digits; the parse of good data
/// gives each value's halves as the scalar NUM.
#[test]
fn parse_checked_finds_every_bad_numeral() {
    if crate::cpu::Avx2::get().is_none() {
        return;
    }
    let rx = crate::fpe::num::Radix::new(10);
    for (n, u, be, dec) in every_shape() {
        let wide = matches!(dec, Decimal::Avx512(_));
        for count in 1..=9 {
            let data: Vec<u16> = (0..count * n).map(|i| (i * 7 % 10) as u16).collect();
            let (mut a, mut b) = ([0u64; 12], [0u64; 12]);
            assert!(dec.parse_checked(&data, &mut a, &mut b), "512 {wide} {n} {u} {be} {count}");
            for j in 0..count {
                let (xa, xb) = data[j * n..(j + 1) * n].split_at(u);
                let want = if be { (rx.num_be64(xa), rx.num_be64(xb)) } else { (rx.num_le64(xa), rx.num_le64(xb)) };
                assert_eq!((a[j], b[j]), want, "{wide} {n} {u} {be} {count} value {j}");
            }
            for at in 0..data.len() {
                for bad in [10, 11, 0x7fff, 0x8000, 0xffff] {
                    let mut d = data.clone();
                    d[at] = bad;
                    let ok = dec.parse_checked(&d, &mut a, &mut b);
                    assert!(!ok, "512 {wide} {n} {u} {be} {count} {at} {bad}");
                }
            }
        }
    }
}

/// Batches through the AVX2 conversions (the portable kernel never
/// takes the AVX-512 ones) against value-by-value encryption, for FF1
/// and FF3-1, lengths 2 to 19 (17 to 19 take the per-value path), and
/// back: ragged counts, zeros and nines.
#[test]
fn batches_round_trip_through_avx2() {
    let key = [0x2bu8; 16];
    let ciphers: [(Box<dyn Fpe>, &[u8]); 2] = [
        (Box::new(FF1::with_radix(&key, 10).unwrap().without_aes_ni()), b"tweak"),
        (Box::new(FF3_1::with_radix(&key, 10).unwrap().without_aes_ni()), &[1, 2, 3, 4, 5, 6, 7]),
    ];
    let mut seed = 0x9e37_79b9u64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed >> 11
    };
    for (fpe, tweak) in &ciphers {
        let (min, max) = fpe.len_range();
        for n in min.max(2)..=max.min(19) {
            for count in [5usize, 70] {
                for data in cases(n, count, &mut next) {
                    let ends: Vec<usize> = (1..=count).map(|j| j * n).collect();
                    let mut got = data.clone();
                    fpe.encrypt_batch(Tweaks::Same(tweak), &mut got, &ends).unwrap();
                    let mut want = data.clone();
                    for x in want.chunks_mut(n) {
                        fpe.encrypt_numerals(tweak, x).unwrap();
                    }
                    assert_eq!(got, want, "n {n} count {count}");
                    fpe.decrypt_batch(Tweaks::Same(tweak), &mut got, &ends).unwrap();
                    assert_eq!(got, data, "n {n} count {count}");
                }
            }
        }
    }
}
