use super::*;
use proptest::prelude::*;

/// The check written out numeral by numeral, as the exact errors say.
fn reference(x: &[u16], radix: u32, min: usize, max: usize) -> Result<(), Error> {
    if x.len() < min || x.len() > max {
        return Err(Error::Length { len: x.len(), min, max, radix });
    }
    for (position, &d) in x.iter().enumerate() {
        if d as u32 >= radix {
            return Err(Error::NumeralOutOfRange { numeral: d as u32, position, radix });
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn fast_check_agrees_with_reference(
        radix in prop_oneof![Just(2u32), Just(10), Just(36), Just(65535), Just(MAX_RADIX), 2u32..=MAX_RADIX],
        x in proptest::collection::vec(any::<u16>(), 0..70),
        min in 0usize..8,
        max in 30usize..64,
        reduce: bool,
    ) {
        // Mostly in range, with the odd numeral at or above the radix.
        let x: Vec<u16> = if reduce { x.iter().map(|&d| (d as u32 % radix) as u16).collect() } else { x };
        prop_assert_eq!(numerals_below(&x, radix), x.iter().all(|&d| (d as u32) < radix));
        prop_assert_eq!(
            format!("{:?}", check_value(&x, radix, min, max)),
            format!("{:?}", reference(&x, radix, min, max))
        );
    }
}

#[test]
fn one_bad_numeral_anywhere_is_named() {
    for n in 1..=40 {
        for at in 0..n {
            for (radix, bad) in [(10u32, 10u16), (10, u16::MAX), (36, 36), (65535, 65535)] {
                let mut x = vec![radix as u16 - 1; n];
                assert!(numerals_below(&x, radix));
                assert!(check_value(&x, radix, 0, 64).is_ok());
                x[at] = bad;
                assert!(!numerals_below(&x, radix), "n={n} at={at}");
                assert_eq!(
                    format!("{:?}", check_value(&x, radix, 0, 64)),
                    format!("{:?}", reference(&x, radix, 0, 64)),
                );
            }
        }
    }
}
