use super::*;
use proptest::prelude::*;

proptest! {
    #[test]
    fn step_matches_hardware(m in 2u64..=u64::MAX / 3, x: u64, y: u64) {
        let f = Fast::new(m).unwrap();
        let x = x % m;
        let r = (y % m) as u128;
        prop_assert_eq!(f.step::<false>(x, y) as u128, (x as u128 + r) % m as u128);
        prop_assert_eq!(f.step::<true>(x, y) as u128, (x as u128 + m as u128 - r) % m as u128);
    }

    #[test]
    fn fold_is_congruent(m in 2u64..1 << 30, y: u128) {
        let f = Fast::new_folded(m).unwrap();
        prop_assert_eq!(f.fold(y as u64, (y >> 64) as u64) % m, (y % m as u128) as u64);
    }

    #[test]
    fn step_folded_matches_u128(m in 2u64..1 << 30, x: u64, y: u128) {
        let f = Fast::new_folded(m).unwrap();
        let (x, z) = (x % m, f.fold(y as u64, (y >> 64) as u64));
        let r = (y % m as u128) as u64;
        prop_assert_eq!(f.step_folded::<false>(x, z), (x + r) % m);
        prop_assert_eq!(f.step_folded::<true>(x, z), (x + m - r) % m);
    }
}

#[test]
fn extreme_moduli() {
    for m in [2u64, 3, 10, 100_000_000, (1 << 30) - 1, 1 << 32, u64::MAX / 3] {
        let f = Fast::new(m).unwrap();
        for x in [0, 1, m / 2, m - 1] {
            for y in [0u64, 1, m - 1, m, m + 1, 2 * m, u64::MAX, u64::MAX - 1, u64::MAX / 2] {
                let r = (y % m) as u128;
                assert_eq!(f.step::<false>(x, y) as u128, (x as u128 + r) % m as u128, "m={m} x={x} y={y}");
                assert_eq!(f.step::<true>(x, y) as u128, (x as u128 + m as u128 - r) % m as u128);
            }
        }
    }
    assert!(Fast::new(u64::MAX / 3 + 1).is_none() && Fast::new(1).is_none());
    assert!(Fast::new_folded(1 << 30).is_none());
}

/// [`Fast::step_folded`] against u128 arithmetic at its bound's edges:
/// moduli 2^16 (+ 1), 10^8 and the largest below 2^30 (among them the
/// one within 5000 of 2^30 whose fold of 2^128 - 1 is largest), y of
/// 0, m - 1, m, the largest fold ([`Fast::fold`] of 2^128 - 1: below
/// [`FOLD_BOUND`]), FOLD_BOUND - 1 and the multiples of m around it,
/// x of 0, 1 and m - 1, both directions.
#[test]
fn step_folded_on_the_edges() {
    let top = |f: &Fast| f.fold(u64::MAX, u64::MAX);
    let worst = ((1 << 30) - 5000..1 << 30).max_by_key(|&m| top(&Fast::new_folded(m).unwrap())).unwrap();
    for m in [1 << 16, (1 << 16) + 1, 100_000_000, worst, (1 << 30) - 1] {
        let f = Fast::new_folded(m).unwrap();
        let last = FOLD_BOUND - 1 - (FOLD_BOUND - 1) % m;
        for y in [0, 1, m - 1, m, top(&f), FOLD_BOUND - 1, last - 1, last, last + 1, last - m] {
            assert!(y < FOLD_BOUND, "m {m} y {y}");
            let r = (y % m) as u128;
            for x in [0, 1, m - 1] {
                assert_eq!(f.step_folded::<false>(x, y) as u128, (x as u128 + r) % m as u128, "m {m} x {x} y {y}");
                let want = (x as u128 + m as u128 - r) % m as u128;
                assert_eq!(f.step_folded::<true>(x, y) as u128, want, "dec m {m} x {x} y {y}");
            }
        }
    }
}
