//! The geometry the SSE4.1 and AVX2 decimal conversions share: four values
//! of a group in reach of eight-numeral loads and stores, padded copies at
//! the end of the data, and the byte shuffles between a half's numerals and
//! its digit slots.

#![allow(unsafe_code)]

use crate::simd::Plain;

/// A group's numerals with room for its loads and stores: four values of
/// up to 16 numerals, the last one's B window reaching 3 * 16 + 8 + 8.
const PAD: usize = 4 * 16;

/// Whether the four values of `n` numerals (halves split at `u`) from
/// numeral `at` of `len` are whole and in reach of eight-numeral loads and
/// stores (B's from `at + u`): the geometry [`Dec128`](super::digits128::Dec128) and
/// [`Dec256`](super::digits256::Dec256) share.
pub(crate) fn in_reach((n, u): (usize, usize), at: usize, len: usize) -> bool {
    at + 3 * n + u + 8 <= len
}

/// The four values of `n` numerals (halves of `u` and `n - u`, 1 to 8
/// numerals each) from numeral `at` of `data`, checked in reach
/// ([`in_reach`]) once, when made: each half's window then moves with one
/// vector load or store and no bounds check of its own.
pub(crate) struct Quad<S> {
    data: S,
    at: usize,
    n: usize,
    u: usize,
}

impl<S: AsRef<[u16]>> Quad<S> {
    #[inline(always)]
    pub(crate) fn new(data: S, (n, u): (usize, usize), at: usize) -> Self {
        let len = data.as_ref().len();
        assert!(n <= 16 && u <= 8 && at <= len && in_reach((n, u), at, len));
        Quad { data, at, n, u }
    }

    /// Where value `i < 4`'s half `h < 2` starts (asserted, with the width
    /// of `V`: eight numerals, or sixteen from a value's start when its
    /// first half has eight).
    #[inline(always)]
    fn window<V>(&self, i: usize, h: usize) -> usize {
        let bytes = size_of::<V>();
        assert!(i < 4 && h < 2 && (bytes <= 16 || (bytes <= 32 && h == 0 && self.u == 8)));
        self.at + i * self.n + h * self.u
    }

    /// Value `i`'s half `h` window as a vector.
    #[inline(always)]
    pub(crate) fn load<V: Plain>(&self, i: usize, h: usize) -> V {
        let p = self.window::<V>(i, h);
        // SAFETY: `new` checked at + 3n + u + 8 <= len, so the window (at
        // most eight numerals from p <= at + 3n + u, or sixteen from
        // p <= at + 3n when u = 8) is inside `data`; unaligned reads are
        // allowed and every bit pattern is a valid `V`.
        unsafe { core::ptr::read_unaligned(self.data.as_ref().as_ptr().add(p).cast::<V>()) }
    }
}

impl Quad<&mut [u16]> {
    /// Writes `v` over value `i`'s half `h` window.
    #[inline(always)]
    pub(crate) fn store<V: Plain>(&mut self, i: usize, h: usize, v: V) {
        let p = self.window::<V>(i, h);
        // SAFETY: as in `load`, the window is inside `data`; any bytes are
        // valid numerals (u16).
        unsafe { core::ptr::write_unaligned(self.data.as_mut_ptr().add(p).cast::<V>(), v) }
    }
}

/// `load` on the four values from numeral `at` of `data`: in place when in
/// reach, else on a zero-padded copy of the last values (fewer than
/// 3 * 16 + 8 + 8 numerals left; zeros past the last value).
#[inline(always)]
pub(crate) fn load_quad<R>(nu: (usize, usize), data: &[u16], at: usize, load: impl FnOnce(&[u16], usize) -> R) -> R {
    if in_reach(nu, at, data.len()) {
        return load(data, at);
    }
    let mut pad = [0u16; PAD];
    pad[..data.len() - at].copy_from_slice(&data[at..]);
    load(&pad, 0)
}

/// `store` of the four values from numeral `at` of `data`: in place when in
/// reach, else into a padded copy whose whole values are copied back (the
/// stores' spill past the last value stays in the copy).
#[inline(always)]
pub(crate) fn store_quad(nu: (usize, usize), data: &mut [u16], at: usize, store: impl FnOnce(&mut [u16], usize)) {
    if in_reach(nu, at, data.len()) {
        return store(data, at);
    }
    let mut pad = [0u16; PAD];
    store(&mut pad, 0);
    let end = data.len().min(at + 4 * nu.0);
    data[at..end].copy_from_slice(&pad[..end - at]);
}

/// The byte shuffle taking eight right-aligned digit slots (most
/// significant first) to the `m` numerals of a half from its start, or
/// (`to_slots`) the numerals to the slots.
pub(crate) fn shuffle(m: usize, be: bool, to_slots: bool) -> [u8; 16] {
    let mut ctl = [0x80u8; 16];
    for i in 0..m {
        // Numeral i of the half (from its start) and its slot.
        let slot = if be { 8 - m + i } else { 7 - i };
        let (to, from) = if to_slots { (slot, i) } else { (i, slot) };
        ctl[2 * to] = 2 * from as u8;
        ctl[2 * to + 1] = 2 * from as u8 + 1;
    }
    ctl
}
