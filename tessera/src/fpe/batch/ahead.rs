//! What an FPE batch reads next (the next slab's numerals and ends), and prefetching it.

use super::round::GROUP;
use super::round::Prefetch;

/// What the batch reads after the slab being processed, prefetched a group's share at a time during
/// the slab's rounds.
#[derive(Clone, Copy, Default)]
pub(crate) struct Ahead<'a> {
    pub(crate) numerals: &'a [u16],
    pub(crate) ends: &'a [usize],
}

impl<'a> Ahead<'a> {
    /// Its shares for consecutive groups of [`GROUP`] values of `n` numerals (then empty ones).
    pub(crate) fn groups(self, n: usize) -> impl Iterator<Item = Ahead<'a>> {
        let (mut numerals, mut ends) = (self.numerals.chunks(GROUP * n), self.ends.chunks(GROUP));
        core::iter::from_fn(move || {
            Some(Ahead { numerals: numerals.next().unwrap_or_default(), ends: ends.next().unwrap_or_default() })
        })
    }

    /// Asks for all of it in L2 (see [`prefetch`]).
    pub(crate) fn prefetch(&self) {
        prefetch(self.numerals);
        prefetch(self.ends);
    }
}

/// A kernel's share of what comes next, asked for a line at a time (numerals, then ends) or all at once.
impl Prefetch for Ahead<'_> {
    #[inline(always)]
    fn line(&mut self) {
        if !self.numerals.is_empty() {
            let line = self.numerals.len().min(64 / size_of::<u16>());
            prefetch(&self.numerals[..1]);
            self.numerals = &self.numerals[line..];
        } else if !self.ends.is_empty() {
            let line = self.ends.len().min(64 / size_of::<usize>());
            prefetch(&self.ends[..1]);
            self.ends = &self.ends[line..];
        }
    }

    fn rest(&mut self) {
        self.prefetch();
        *self = Ahead::default();
    }

    fn part(&mut self, parts: usize) {
        let lines = |bytes: usize| bytes.div_ceil(64);
        let left = lines(size_of_val(self.numerals)) + lines(size_of_val(self.ends));
        for _ in 0..left.div_ceil(parts.max(1)) {
            self.line();
        }
    }
}

/// Asks for `next` in L2, one software prefetch per 64 bytes.
#[inline(always)]
#[allow(unsafe_code)]
fn prefetch<T>(next: &[T]) {
    #[cfg(target_arch = "x86_64")]
    for at in (0..next.len()).step_by(64 / size_of::<T>()) {
        use core::arch::x86_64::{_MM_HINT_T1, _mm_prefetch};
        // SAFETY: a prefetch is a hint: it never faults, changes nothing a
        // program can see, and the address is inside `next`.
        unsafe { _mm_prefetch::<_MM_HINT_T1>(next.as_ptr().wrapping_add(at).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = next;
}

#[cfg(test)]
#[path = "ahead_tests.rs"]
mod tests;
