//! The check of a slab's ends: whether its values tile its data with lengths in range, and whether
//! all have one length (then the slab is one run).

use super::wide;

/// How a slab's values tile its data ([`check_ends`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tiling {
    /// A length out of range, an end out of order or past the data.
    Bad,
    /// Good, every value of one length: one run.
    OneLength,
    /// Good, with values of different lengths (or none).
    Lengths,
}

/// Whether the values `ends` (positions in the batch, the first starting at `origin`) have lengths in
/// `min..=max` and tile `data[origin..]` from its start, and whether all have one length, in one
/// vectorised pass ([`wide`]); a failure does not say which value is bad.
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

/// See [`check_ends`]; `len` is the data's length. `WORDS` (for AVX2): the checks fold as 64-bit
/// words, not bools (29 instead of 35 instructions per 8 ends).
#[inline(always)]
fn ends_tile<const WORDS: bool>(len: usize, ends: &[usize], origin: usize, min: usize, max: usize) -> Tiling {
    // Every length in range and every end at or after the one before (so all are at most the last).
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
#[path = "ends_tests.rs"]
mod tests;
