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
#[path = "ends_tests.rs"]
mod tests;
