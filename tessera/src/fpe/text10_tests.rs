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
