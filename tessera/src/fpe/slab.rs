//! The batch driver: a batch is checked and processed a slab at a time
//! (about [`SLAB_NUMERALS`] numerals), so the numerals the check reads
//! are still in cache when the rounds read them, and each slab goes
//! through main memory once instead of twice. A bad value in a slab
//! undoes the slabs before it (the inverse over what was done) before the
//! error returns: on any error the batch is as the caller gave it, and the
//! error names the first bad value, as when the whole batch was checked
//! first. The slab's ends and tweaks are checked before it is processed,
//! its numerals as they are parsed (the decimal parses, AVX-512 and AVX2,
//! check the vectors they load, so each numeral is read once).

use super::batch::{check_ends, for_each_run};
use super::{Tweaks, check_batch, check_value};
use crate::Direction;
use crate::Error;

/// Numerals per slab (64 KiB): the check's reads stay in L2 until the
/// rounds read them again.
pub(crate) const SLAB_NUMERALS: usize = 32 * 1024;

/// Values per slab for a batch whose values average `data_len / count`
/// numerals: whole groups of [`super::batch::GROUP`] values, at least one.
fn slab_values(data_len: usize, count: usize) -> usize {
    let per = (data_len / count.max(1)).max(1);
    (SLAB_NUMERALS / per).next_multiple_of(super::batch::GROUP).max(super::batch::GROUP)
}

/// Encrypts or decrypts (`dir`) the batch `data` / `ends` with `tweaks`,
/// checking every value against `(radix, min, max)` and every tweak
/// against `check_tweak` before it changes, a slab at a time. `f(index of
/// the first value, its values back to back, their length, direction,
/// what the batch reads next)` processes one run of values of one length
/// whose ends and tweaks are checked but not its numerals: it returns
/// `Some(k)` if value k or a later one has a numeral not below the radix,
/// having done only values `..k`, else `None`; it must not fail on
/// checked values.
pub(crate) fn drive(
    tweaks: &Tweaks<'_>,
    data: &mut [u16],
    ends: &[usize],
    domain: (u32, usize, usize),
    check_tweak: impl Fn(&[u8]) -> Result<(), Error>,
    dir: Direction,
    mut f: impl FnMut(usize, &mut [u16], usize, Direction, &[u16]) -> Result<Option<usize>, Error>,
) -> Result<(), Error> {
    let (radix, min, max) = domain;
    // The value-by-value check of the first `upto` values: the exact error.
    let slow = |data: &[u16], upto: usize| {
        let tweaks = match tweaks {
            Tweaks::PerValue(ts) => Tweaks::PerValue(&ts[..upto]),
            same => *same,
        };
        check_batch(&tweaks, data, &ends[..upto], |t, x| check_tweak(t).and_then(|()| check_value(x, radix, min, max)))
    };
    let per_value = match tweaks {
        Tweaks::Same(t) if check_tweak(t).is_err() => return slow(data, ends.len()),
        Tweaks::PerValue(ts) if ts.len() != ends.len() => return check_batch(tweaks, data, ends, |_, _| Ok(())),
        Tweaks::PerValue(ts) => Some(ts),
        Tweaks::Same(_) => None,
    };
    let step = slab_values(data.len(), ends.len());
    let (mut i0, mut s0) = (0, 0);
    while i0 < ends.len() {
        let i1 = (i0 + step).min(ends.len());
        let good = per_value.is_none_or(|ts| ts[i0..i1].iter().all(|t| check_tweak(t).is_ok()))
            && check_ends(data, &ends[i0..i1], s0, (min, max));
        if !good && let Err(e) = slow(data, i1) {
            undo(&mut f, data, &ends[..i0], dir)?;
            return Err(e);
        }
        let s1 = ends[i1 - 1];
        // The numerals after the slab, as many as in it: the next slab's.
        let (head, tail) = data.split_at_mut(s1);
        let ahead = &tail[..(s1 - s0).min(tail.len())];
        let stopped = for_each_run(&mut head[s0..], &ends[i0..i1], (s0, i0), |first, run, len| {
            let at = first.checked_sub(1).map_or(0, |p| ends[p]) - s0;
            f(first, run, len, dir, ahead.get(at..).unwrap_or_default())
        })?;
        if let Some(done) = stopped {
            // A numeral out of range in value `done` or after, within this slab.
            let e = slow(data, i1).err();
            debug_assert!(e.is_some(), "a bad numeral the value-by-value check misses");
            undo(&mut f, data, &ends[..done], dir)?;
            return Err(e.unwrap_or(Error::Format("batch numeral out of range")));
        }
        (i0, s0) = (i1, s1);
    }
    Ok(())
}

/// Undoes the values `ends` (the first ones of the batch, checked and
/// done in direction `dir`) by the inverse: they are valid, so `f` does
/// them all.
fn undo(
    f: &mut impl FnMut(usize, &mut [u16], usize, Direction, &[u16]) -> Result<Option<usize>, Error>,
    data: &mut [u16],
    ends: &[usize],
    dir: Direction,
) -> Result<(), Error> {
    let end = ends.last().copied().unwrap_or(0);
    for_each_run(&mut data[..end], ends, (0, 0), |first, run, len| f(first, run, len, dir.reverse(), &[])).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slabs_are_whole_groups() {
        for (len, count) in [(0, 0), (16 * 5_000_000, 5_000_000), (10, 1), (8192 * 3, 3), (2, 100_000)] {
            let v = slab_values(len, count);
            assert!(v >= super::super::batch::GROUP && v.is_multiple_of(super::super::batch::GROUP), "{len} {count}");
        }
        assert_eq!(slab_values(16 * 1_000_000, 1_000_000), 2048);
    }
}
