//! The check of a slab's ends: whether its values tile its data with
//! lengths in range, and whether all have one length (then the slab is
//! one run), in one vectorised pass.

use super::wide;

/// How a slab's values tile its data ([`check_ends`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tiling {
    /// A length out of range, an end out of order or past the data.
    Bad,
    /// Good, every value of one length: one run ([`for_each_run`](super::for_each_run) has
    /// nothing to find).
    OneLength,
    /// Good, with values of different lengths (or none).
    Lengths,
}

/// Whether the values `ends` (positions in the batch, the first starting
/// at `origin`) have lengths in `min..=max` and tile `data[origin..]` from
/// its start, and whether all have one length: one pass over the ends,
/// vectorised ([`wide`]). A failure says nothing of which value is bad:
/// the value-by-value check names it. (The numerals are checked as the
/// decimal parses load them, else a run at a time: [`each_value`](super::each_value).)
pub(crate) fn check_ends(data: &[u16], ends: &[usize], origin: usize, (min, max): (usize, usize)) -> Tiling {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::Avx2::get().is_some() {
        return wide(|| ends_tile::<true>(data.len(), ends, origin, min, max));
    }
    ends_tile::<false>(data.len(), ends, origin, min, max)
}

/// Where the values `ends` end (`origin` when there are none).
fn ends_end(ends: &[usize], origin: usize) -> usize {
    ends.last().copied().unwrap_or(origin)
}

/// See [`check_ends`]; `len` is the data's length. `WORDS`: the steps'
/// checks folded as 64-bit words (a 0 or 1, the xor with the first
/// length), not bools: vectorised with AVX2 the loop then only ors its
/// lanes together (29 instead of 35 instructions per 8 ends); without
/// AVX2 the bools' loop measured a little faster.
#[inline(always)]
fn ends_tile<const WORDS: bool>(len: usize, ends: &[usize], origin: usize, min: usize, max: usize) -> Tiling {
    // Every length in range and every end at or after the one before (so
    // all are at most the last, checked against data.len()).
    let span = max.saturating_sub(min);
    let first = ends.first().map(|&e| e.wrapping_sub(origin));
    let first_ok = ends.first().is_none_or(|&e| e >= origin && (e - origin).wrapping_sub(min) <= span);
    let first = first.unwrap_or_default();
    let steps = ends[1.min(ends.len())..].iter().zip(ends);
    let (steps_bad, other) = if WORDS {
        let (bad, other) = steps.fold((0u64, 0usize), |(bad, other), (&e, &s)| {
            let step = e.wrapping_sub(s);
            (bad | u64::from((e < s) | (step.wrapping_sub(min) > span)), other | (step ^ first))
        });
        (bad != 0, other != 0)
    } else {
        steps.fold((false, false), |(bad, other), (&e, &s)| {
            let step = e.wrapping_sub(s);
            (bad | (e < s) | (step.wrapping_sub(min) > span), other | (step != first))
        })
    };
    let end = ends_end(ends, origin);
    // Values then tile data[origin..end]: checking those numerals checks every value's.
    match first_ok && !steps_bad && end <= len && origin <= end && min <= max {
        false => Tiling::Bad,
        true if other || ends.is_empty() => Tiling::Lengths,
        true => Tiling::OneLength,
    }
}

#[cfg(test)]
mod tests {
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
}
