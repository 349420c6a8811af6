use super::*;
use proptest::prelude::*;

proptest! {
    #[test]
    fn mod64_matches_hardware(m in 2u64.., y: u128, a: u64, b: u64) {
        let r = Mod64::new(m);
        prop_assert_eq!(r.reduce(y) as u128, y % m as u128);
        let y96 = y >> 32;
        prop_assert_eq!(r.reduce96(y96) as u128, y96 % m as u128);
        let x = y as u64;
        prop_assert_eq!(r.divrem(x), (x / m, x % m));
        prop_assert_eq!(r.rem64(x), x % m);
        let (a, b) = (a % m, b % m);
        prop_assert_eq!(r.add(a, b) as u128, (a as u128 + b as u128) % m as u128);
        prop_assert_eq!(r.sub(a, b) as u128, (a as u128 + m as u128 - b as u128) % m as u128);
    }

    #[test]
    fn mod128_matches_hardware(m in 2u128..=(1u128 << 96), y: u128, a: u128, b: u128) {
        let r = Mod128::new(m);
        prop_assert_eq!(r.reduce(y), y % m);
        let (a, b) = (a % m, b % m);
        prop_assert_eq!(r.add(a, b), (a + b) % m);
        prop_assert_eq!(r.sub(a, b), (a + m - b) % m);
    }

    #[test]
    fn mod128_wide_moduli(shift in 0u32..33, m: u64, y: u128) {
        // Moduli in 2^64..=2^96, where the 3-by-2 division runs.
        let m = ((m as u128) << shift).max(1 << 64);
        prop_assert_eq!(Mod128::new(m).reduce(y), y % m);
    }

    #[test]
    fn small_moduli(m in 2u64..5000, y: u128) {
        prop_assert_eq!(Mod64::new(m).reduce(y) as u128, y % m as u128);
        prop_assert_eq!(Mod64::new(m).reduce96(y >> 32) as u128, (y >> 32) % m as u128);
    }

    #[test]
    fn digits_round_trip(radix in 2u32..=65536, x: u64, len in 1usize..20) {
        let rx = Radix::new(radix);
        let Some(p) = rx.pow(len) else { return Ok(()) };
        if p > u64::MAX as u128 + 1 { return Ok(()) }
        let x = (x as u128 % p) as u64;
        let mut d = vec![0u16; len];
        rx.str_be64(x, &mut d);
        prop_assert!(d.iter().all(|&n| (n as u32) < radix));
        prop_assert_eq!(rx.num_be64(&d), x);
        rx.str_le64(x, &mut d);
        prop_assert_eq!(rx.num_le64(&d), x);
    }

    #[test]
    fn digits_round_trip_128(radix in 2u32..=65536, x: u128, len in 1usize..40) {
        let rx = Radix::new(radix);
        let Some(p) = rx.pow(len) else { return Ok(()) };
        let x = x % p;
        let mut d = vec![0u16; len];
        rx.str_be128(x, &mut d);
        prop_assert_eq!(rx.num_be128(&d), x);
        rx.str_le128(x, &mut d);
        prop_assert_eq!(rx.num_le128(&d), x);
    }
}

#[test]
fn extreme_moduli_128() {
    let ms =
        [2u128, 10, u64::MAX as u128, 1 << 64, (1 << 64) + 1, (1 << 96) - 1, 1 << 96, 10u128.pow(28), 62u128.pow(16)];
    for m in ms {
        let r = Mod128::new(m);
        for y in [0u128, 1, m - 1, m, m + 1, u128::MAX, u128::MAX - 1, 1 << 127, (1 << 96) - 1, u64::MAX as u128] {
            assert_eq!(r.reduce(y), y % m, "m={m} y={y}");
        }
    }
}

#[test]
fn extreme_moduli() {
    for m in [2u64, 3, 10, 1 << 32, (1 << 32) + 1, u64::MAX, u64::MAX - 1, 1 << 63, 10u64.pow(19)] {
        let r = Mod64::new(m);
        for y in [0u128, 1, u128::MAX, u64::MAX as u128, (1u128 << 96) - 1, 12345678901234567890123456789] {
            assert_eq!(r.reduce(y) as u128, y % m as u128, "m={m} y={y}");
            assert_eq!(r.rem64(y as u64), y as u64 % m, "m={m} y={y}");
            let y96 = y & ((1 << 96) - 1);
            assert_eq!(r.reduce96(y96) as u128, y96 % m as u128, "m={m} y={y96}");
        }
    }
}
