//! What an FPE batch reads next, and asking for it early: the next slab's
//! numerals and ends, prefetched a group's share at a time.

use super::batch::GROUP;

/// What the batch reads after the slab being processed: its numerals and
/// its ends, prefetched a group's share at a time while the slab's groups
/// run their rounds (read in one burst when the next slab starts, the ends
/// alone cost about 1 ns a value out of main memory).
#[derive(Clone, Copy, Default)]
pub(crate) struct Ahead<'a> {
    pub(crate) numerals: &'a [u16],
    pub(crate) ends: &'a [usize],
}

impl<'a> Ahead<'a> {
    /// Its shares for consecutive groups of [`GROUP`] values of `n`
    /// numerals (empty ones once it runs out).
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

/// Asks for `next` in L2, one software prefetch per 64 bytes: the loads
/// start while the caller computes, and nothing waits for them.
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
