use super::*;
use crate::fpe::{Tweaks, check_batch, check_value, numerals_below};

/// The one-pass check accepts exactly the batches the value-by-value
/// check accepts: lengths at and past both limits, ends that go back or
/// past the data, numerals at and above the radix, empty batches.
#[test]
fn fast_check_agrees_with_value_by_value() {
    let (radix, min, max) = (10u32, 2usize, 6usize);
    let data: Vec<u16> = (0..40).map(|i| (i % 10) as u16).collect();
    let mut bad_digit = data.clone();
    bad_digit[17] = 10;
    let ends_cases: [&[usize]; 10] = [
        &[],
        &[2, 8, 12, 18, 24],
        &[1, 5],
        &[6, 13],
        &[3, 2],
        &[4, 8, 6, 10],
        &[4, 8, 38, 42],
        &[6, 12, 18, 24, 30, 36, 40],
        &[usize::MAX, 3],
        &[4, usize::MAX],
    ];
    // The batch path's check: the ends, then the numerals (as parsed).
    let slab = |d: &[u16], ends: &[usize], origin: usize| {
        check_ends(d, ends, origin, (min, max)) != Tiling::Bad
            && numerals_below(&d[origin..ends_end(ends, origin)], radix)
    };
    let slow = |d: &[u16], ends: &[usize]| {
        check_batch(&Tweaks::Same(b""), d, ends, |_, x| check_value(x, radix, min, max)).is_ok()
    };
    for d in [&data, &bad_digit] {
        for ends in ends_cases {
            let want = slow(d, ends);
            assert_eq!(slab(d, ends, 0), want, "ends {ends:?}");
            for tiling in
                [ends_tile::<false>(d.len(), ends, 0, min, max), ends_tile::<true>(d.len(), ends, 0, min, max)]
            {
                let portable = tiling != Tiling::Bad && numerals_below(&d[..ends_end(ends, 0)], radix);
                assert_eq!(portable, want, "portable, ends {ends:?}");
            }
        }
    }
    assert!(!slow(&bad_digit, &[2, 8, 12, 18, 24]) && slow(&data, &[2, 8, 12, 18, 24]), "cases hit both answers");
    // A slab starting at `origin`: its first value starts there, and
    // only its own numerals count.
    assert!(slab(&data, &[12, 18, 24], 8) && !slab(&bad_digit, &[12, 18, 24], 8));
    assert!(slab(&bad_digit, &[24, 30], 18) && slab(&bad_digit, &[], 18));
    assert!(!slab(&data, &[6, 12], 8) && !slab(&data, &[9, 12], 8) && !slab(&data, &[40], 30));
    assert!(!slab(&data, &[37], 36) && slab(&data, &[40], 38) && !slab(&data, &[42], 38));
}

/// One length only when the first value (from `origin`) and every
/// step after it have it; bad tilings stay bad, none is not one run.
#[test]
fn one_length_needs_every_value() {
    let data = [0u16; 40];
    let check = |ends: &[usize], origin| check_ends(&data, ends, origin, (2, 6));
    assert_eq!(check(&[6, 12, 18, 24], 0), Tiling::OneLength);
    assert_eq!(check(&[10, 14, 18], 6), Tiling::OneLength);
    assert_eq!(check(&[4], 0), Tiling::OneLength);
    // The first value alone differs (from the origin), or one step.
    assert_eq!(check(&[4, 10, 16, 22], 0), Tiling::Lengths);
    assert_eq!(check(&[10, 14, 18], 5), Tiling::Lengths);
    assert_eq!(check(&[6, 12, 17, 23], 0), Tiling::Lengths);
    assert_eq!(check(&[6, 12, 18, 23], 0), Tiling::Lengths);
    assert_eq!(check(&[], 0), Tiling::Lengths);
    // Bad: past the data, a length out of range, an end going back.
    assert_eq!(check(&[36, 42], 30), Tiling::Bad);
    assert_eq!(check(&[7, 14], 0), Tiling::Bad);
    assert_eq!(check(&[6, 4, 10], 0), Tiling::Bad);
}
