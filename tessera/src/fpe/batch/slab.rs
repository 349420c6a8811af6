//! The batch driver: a batch is checked and processed a slab of about [`SLAB_NUMERALS`] numerals at
//! a time. A bad value undoes the slabs before it: on error the batch is as given and the error names
//! the first bad value.

use super::ahead::Ahead;
use super::ends::{Tiling, check_ends};
use super::{MIN_RUN, Run, each_value, for_each_run};
use crate::Direction;
use crate::Error;
use crate::fpe::{Tweaks, check_batch, check_value};

/// Numerals per slab (64 KiB): the check's reads stay in L2 until the rounds read them again.
pub(crate) const SLAB_NUMERALS: usize = 32 * 1024;

/// Values per slab for a batch of `count` values in `data_len` numerals: whole groups, at least one.
fn slab_values(data_len: usize, count: usize) -> usize {
    let per = (data_len / count.max(1)).max(1);
    (SLAB_NUMERALS / per).next_multiple_of(super::GROUP).max(super::GROUP)
}

/// A cipher as the batch driver sees it.
pub(crate) trait Batched {
    /// `(radix, min, max)`: every numeral is below the radix and every length in `min..=max`.
    fn domain(&self) -> (u32, usize, usize);

    /// Refuses a tweak the cipher does not take.
    fn check_tweak(&self, tweak: &[u8]) -> Result<(), Error>;

    /// One value, checked as a single call checks it.
    fn one(&self, tweak: &[u8], x: &mut [u16], dir: Direction) -> Result<(), Error>;

    /// The batch path for `run`: `Some(Some(k))` if value k or a later one has a numeral not below the
    /// radix, having done only values `..k`; `Some(None)` when all are done; `None` (the run as given)
    /// when it has no batch path for the length.
    fn run(&self, tweaks: &Tweaks<'_>, run: Run<'_>, dir: Direction) -> Option<Option<usize>>;
}

/// Encrypts or decrypts the batch `data` / `ends` under `c`, checking every value against [`Batched::domain`]
/// and every tweak with [`Batched::check_tweak`] before it changes. Runs [`Batched::run`] does not take, and
/// batches of fewer than [`MIN_RUN`] values ([`tiny`]), go through [`Batched::one`].
pub(crate) fn drive(
    c: &impl Batched,
    tweaks: &Tweaks<'_>,
    data: &mut [u16],
    ends: &[usize],
    dir: Direction,
) -> Result<(), Error> {
    let (radix, min, max) = c.domain();
    let check_tweak = |t: &[u8]| c.check_tweak(t);
    let one = |i: usize, x: &mut [u16], dir| c.one(tweaks.get(i), x, dir);
    let mut f = |first: usize, run: &mut [u16], len: usize, dir: Direction, ahead: Ahead<'_>| {
        if run.len() >= MIN_RUN * len
            && let Some(stopped) = c.run(tweaks, Run { first, values: &mut *run, len, ahead }, dir)
        {
            return Ok(stopped);
        }
        each_value(run, len, radix, |j, x| one(first + j, x, dir))
    };
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
    if ends.len() < MIN_RUN {
        return match tiny(data, ends, dir, &one, &mut f) {
            Ok(()) => Ok(()),
            // The values before the bad one are undone: the exact error.
            Err(e) => slow(data, ends.len()).and(Err(e)),
        };
    }
    let step = slab_values(data.len(), ends.len());
    let (mut i0, mut s0) = (0, 0);
    while i0 < ends.len() {
        let i1 = (i0 + step).min(ends.len());
        let tiling = check_ends(data, &ends[i0..i1], s0, (min, max));
        let good =
            per_value.is_none_or(|ts| ts[i0..i1].iter().all(|t| check_tweak(t).is_ok())) && tiling != Tiling::Bad;
        if !good && let Err(e) = slow(data, i1) {
            undo(&mut f, data, &ends[..i0], dir)?;
            return Err(e);
        }
        let s1 = ends[i1 - 1];
        // The numerals and ends after the slab, as many as in it: the next slab's.
        let (head, tail) = data.split_at_mut(s1);
        let next =
            Ahead { numerals: &tail[..(s1 - s0).min(tail.len())], ends: &ends[i1..(2 * i1 - i0).min(ends.len())] };
        let run = |first: usize, run: &mut [u16], len| {
            let at = first.checked_sub(1).map_or(0, |p| ends[p]) - s0;
            let ahead = Ahead {
                numerals: next.numerals.get(at..).unwrap_or_default(),
                ends: next.ends.get(first - i0..).unwrap_or_default(),
            };
            f(first, run, len, dir, ahead)
        };
        // One length: the whole slab is one run (no second pass over its ends).
        let stopped = if tiling == Tiling::OneLength {
            run(i0, &mut head[s0..], ends[i0] - s0)?.map(|k| i0 + k)
        } else {
            for_each_run(&mut head[s0..], &ends[i0..i1], (s0, i0), run)?
        };
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

/// The values `ends` of a batch of fewer than [`MIN_RUN`] values (tweaks counted, a shared tweak
/// checked) one at a time by `one`, with no batch check. On the first value `one` refuses (or whose
/// end is out of order), the values before it are undone ([`undo`]) and its error returned.
fn tiny(
    data: &mut [u16],
    ends: &[usize],
    dir: Direction,
    one: &impl Fn(usize, &mut [u16], Direction) -> Result<(), Error>,
    f: &mut impl FnMut(usize, &mut [u16], usize, Direction, Ahead<'_>) -> Result<Option<usize>, Error>,
) -> Result<(), Error> {
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        let done = match data.get_mut(start..end) {
            Some(x) => one(i, x, dir),
            None => Err(Error::Format("batch ends are not increasing within the data")),
        };
        if let Err(e) = done {
            undo(f, data, &ends[..i], dir)?;
            return Err(e);
        }
        start = end;
    }
    Ok(())
}

/// Undoes the first values of the batch, `ends`, checked and done in direction `dir`.
fn undo(
    f: &mut impl FnMut(usize, &mut [u16], usize, Direction, Ahead<'_>) -> Result<Option<usize>, Error>,
    data: &mut [u16],
    ends: &[usize],
    dir: Direction,
) -> Result<(), Error> {
    let end = ends.last().copied().unwrap_or(0);
    let stopped = for_each_run(&mut data[..end], ends, (0, 0), |first, run, len| {
        f(first, run, len, dir.reverse(), Ahead::default())
    })?;
    // The values were checked before they were done: none can stop the inverse.
    debug_assert!(stopped.is_none(), "undoing stopped at a checked value");
    Ok(())
}

#[cfg(test)]
#[path = "slab_tests.rs"]
mod tests;
