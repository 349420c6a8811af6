//! Decimal NUM and STR of whole batch groups on 128-bit lane pairs ([`Dec`]), four values at a time.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::lanes::{Lanes, Sse2, digits, lanes, num_four};
use crate::simd::{Plain, cast, load, store};

/// A group's numerals with room for its loads and stores: four values of
/// up to 16 numerals, the last one's B window reaching 3 * 16 + 8 + 8.
const PAD: usize = 4 * 16;

/// Whether the four values of `n` numerals (halves split at `u`) from numeral `at` of `len` are in
/// reach of eight-numeral loads and stores.
pub(crate) fn in_reach((n, u): (usize, usize), at: usize, len: usize) -> bool {
    at + 3 * n + u + 8 <= len
}

/// Four values of `n` numerals (halves of `u` and `n - u`) from numeral `at` of `data`, checked in
/// reach once: each half then moves with one unchecked vector load or store.
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

    /// Where value `i`'s half `h` starts (asserted, with `V`'s width: eight numerals, or sixteen from a
    /// value's start when u = 8).
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
        // SAFETY: `new` checked at + 3n + u + 8 <= len: the window (eight numerals from p <= at + 3n + u, or
        // sixteen from p <= at + 3n when u = 8) is inside `data`; any bits are a valid `V`.
        unsafe { core::ptr::read_unaligned(self.data.as_ref().as_ptr().add(p).cast::<V>()) }
    }
}

impl Quad<&mut [u16]> {
    /// Writes `v` over value `i`'s half `h` window.
    #[inline(always)]
    pub(crate) fn store<V: Plain>(&mut self, i: usize, h: usize, v: V) {
        let p = self.window::<V>(i, h);
        // SAFETY: as in `load`, the window is inside `data`; any bytes are valid numerals (u16).
        unsafe { core::ptr::write_unaligned(self.data.as_mut_ptr().add(p).cast::<V>(), v) }
    }
}

/// The byte shuffle taking eight right-aligned digit slots (most significant first) to the `m`
/// numerals of a half, or (`to_slots`) the numerals to the slots.
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

/// Two 128-bit lanes for [`Dec`] (an xmm pair, or a ymm): half A of a value in lane 0, B in lane 1.
pub(crate) trait Quads: Lanes + Plain {
    /// The proof of the features the data movement needs.
    type Entry: Copy;
    /// The proofs for this CPU, if it has the features.
    fn tokens() -> Option<(Self::Entry, Self::Token)>;
    /// The vector of lanes `lo` and `hi`.
    fn join(t: Self::Entry, lo: __m128i, hi: __m128i) -> Self;
    /// The two lanes.
    fn halves(t: Self::Entry, v: Self) -> [__m128i; 2];
    /// Lane 0 of `a` and `b`, then lane 1 of each.
    fn cross(t: Self::Entry, a: Self, b: Self) -> [Self; 2];
    fn shufb(t: Self::Entry, v: Self, ctl: Self) -> Self;
    fn max16(t: Self::Entry, a: Self, b: Self) -> Self;
    /// `out[..4]` = the four dwords of `x`.
    fn widen(t: Self::Entry, x: __m128i, out: &mut [u64]) -> ();
}

lanes! {Quads for [__m128i; 2], Entry = crate::cpu::Sse41, {
    fn tokens() -> Option<(crate::cpu::Sse41, Sse2)> {
        crate::cpu::Sse41::get().map(|t| (t, Sse2))
    }
    #[inline(always)]
    fn join(_: crate::cpu::Sse41, lo: __m128i, hi: __m128i) -> Self {
        [lo, hi]
    }
    #[inline(always)]
    fn halves(_: crate::cpu::Sse41, v: Self) -> [__m128i; 2] {
        v
    }
    #[inline(always)]
    fn cross(_: crate::cpu::Sse41, a: Self, b: Self) -> [Self; 2] {
        [[a[0], b[0]], [a[1], b[1]]]
    }}
    shufb(v: Self, ctl: Self) -> Self = [_mm_shuffle_epi8(v[0], ctl[0]), _mm_shuffle_epi8(v[1], ctl[1])];
    max16(a: Self, b: Self) -> Self = [_mm_max_epu16(a[0], b[0]), _mm_max_epu16(a[1], b[1])];
    widen(x: __m128i, out: &mut [u64]) -> () = {
        store(out, _mm_cvtepu32_epi64(x));
        store(&mut out[2..], _mm_cvtepu32_epi64(_mm_srli_si128::<8>(x)))
    };
}

lanes! {Quads for __m256i, Entry = crate::cpu::Avx2, {
    fn tokens() -> Option<(crate::cpu::Avx2, crate::cpu::Avx2)> {
        crate::cpu::Avx2::get().map(|t| (t, t))
    }}
    join(lo: __m128i, hi: __m128i) -> Self = _mm256_set_m128i(hi, lo);
    halves(v: Self) -> [__m128i; 2] = [_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)];
    cross(a: Self, b: Self) -> [Self; 2] =
        [_mm256_permute2x128_si256::<0x20>(a, b), _mm256_permute2x128_si256::<0x31>(a, b)];
    shufb(v: Self, ctl: Self) -> Self = _mm256_shuffle_epi8(v, ctl);
    max16(a: Self, b: Self) -> Self = _mm256_max_epu16(a, b);
    widen(x: __m128i, out: &mut [u64]) -> () = store(out, _mm256_cvtepu32_epi64(x));
}

/// Decimal NUM and STR of whole batch groups on [`Quads`], both halves of at most 8 digits: a byte
/// shuffle per value length right-aligns each half in its lane; NUM folds four values at once, STR
/// converts four halves per pass and shuffles the digits back.
pub(crate) struct Dec<L: Quads> {
    entry: L::Entry,
    token: L::Token,
    n: usize,
    u: usize,
    /// Per lane: slot byte -> byte of the half's eight numerals (NUM); 0x80 zeroes the slot.
    num_ctl: [u8; 32],
    /// Per lane: byte of the half's eight numerals -> slot byte (STR): A's in both lanes, then B's.
    str_ctl: [[u8; 32]; 2],
    /// 16 numerals split in the middle, most significant first (`Some(false)`) or last: one 32-byte load
    /// or store, no shuffle.
    whole: Option<bool>,
}

/// [`Dec`] on SSSE3 and SSE4.1 (every CPU with AES-NI has both).
pub(crate) type Dec128 = Dec<[__m128i; 2]>;
/// [`Dec`] on AVX2.
pub(crate) type Dec256 = Dec<__m256i>;

impl<L: Quads> Dec<L> {
    /// The shuffles for values of `n` numerals whose first half has `u`, most significant first when
    /// `be` (FF1); `None` unless both halves have 1 to 8 numerals and the CPU has `L`'s features.
    pub(crate) fn new(n: usize, u: usize, be: bool) -> Option<Self> {
        let halves = (1..=8).contains(&u) && (1..=8).contains(&n.checked_sub(u)?);
        let (entry, token) = L::tokens().filter(|_| halves)?;
        let join = |lo: [u8; 16], hi: [u8; 16]| {
            let mut t = [0u8; 32];
            t[..16].copy_from_slice(&lo);
            t[16..].copy_from_slice(&hi);
            t
        };
        let (sa, sb) = (shuffle(u, be, false), shuffle(n - u, be, false));
        Some(Dec {
            entry,
            token,
            n,
            u,
            num_ctl: join(shuffle(u, be, true), shuffle(n - u, be, true)),
            str_ctl: [join(sa, sa), join(sb, sb)],
            whole: (n == 16 && u == 8).then_some(!be),
        })
    }

    /// The four values from numeral `at` of `src`, A's window in lane 0 and B's in lane 1, shuffled into
    /// digit slots (`WHOLE`: as loaded); `top` keeps the lane-wise largest numeral loaded.
    #[inline(always)]
    fn load4<const WHOLE: bool>(&self, src: &[u16], at: usize, ctl: L, top: &mut L) -> [L; 4] {
        let (q, e) = (Quad::new(src, (self.n, self.u), at), self.entry);
        let mut v = [*top; 4];
        for (i, v) in v.iter_mut().enumerate() {
            let x = if WHOLE { q.load(i, 0) } else { L::join(e, q.load(i, 0), q.load(i, 1)) };
            *top = L::max16(e, *top, x);
            *v = if WHOLE { x } else { L::shufb(e, x, ctl) };
        }
        v
    }

    /// NUM of both halves of every value in `data` into `a` and `b` (count rounded up to 4): whether
    /// all numerals are below 10 (if not, `a` and `b` hold garbage).
    #[inline(always)]
    fn parse_in(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        match self.whole {
            Some(true) => self.parse_with::<true, true>(data, a, b),
            Some(false) => self.parse_with::<true, false>(data, a, b),
            None => self.parse_with::<false, false>(data, a, b),
        }
    }

    /// [`Dec::parse_in`]; `WHOLE`: values of 16 numerals split in the middle,
    /// least significant first when `REV` ([`Dec::whole`]).
    #[inline(always)]
    fn parse_with<const WHOLE: bool, const REV: bool>(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        assert!(data.len().is_multiple_of(self.n), "whole values only");
        let count = data.len() / self.n;
        assert!(a.len() >= count.next_multiple_of(4) && b.len() >= count.next_multiple_of(4));
        let (ctl, e) = (cast(self.num_ctl), self.entry);
        // The largest numeral loaded (lane-wise; the padded copy adds zeros).
        let mut top = L::splat(self.token, [0; 8]);
        for j in (0..count).step_by(4) {
            let at = j * self.n;
            let v = if in_reach((self.n, self.u), at, data.len()) {
                self.load4::<WHOLE>(data, at, ctl, &mut top)
            } else {
                // A zero-padded copy of the last values (out of reach).
                let mut pad = [0u16; PAD];
                pad[..data.len() - at].copy_from_slice(&data[at..]);
                self.load4::<WHOLE>(&pad, 0, ctl, &mut top)
            };
            let [ra, rb] = L::halves(e, num_four(self.token, v, REV));
            L::widen(e, ra, &mut a[j..j + 4]);
            L::widen(e, rb, &mut b[j..j + 4]);
        }
        // Each value's halves were loaded whole: every numeral was loaded.
        L::below_ten(self.token, top)
    }

    /// STR of both halves of every value back into `data` (the inverse of [`Dec::parse_in`]); every
    /// half must be below 10^its length.
    #[inline(always)]
    fn format_in(&self, a: &[u64], b: &[u64], data: &mut [u16]) {
        match self.whole {
            Some(true) => self.format_with::<true, true>(a, b, data),
            Some(false) => self.format_with::<true, false>(a, b, data),
            None => self.format_with::<false, false>(a, b, data),
        }
    }

    /// [`Dec::format_in`]; `WHOLE` and `REV` as in [`Dec::parse_with`].
    #[inline(always)]
    fn format_with<const WHOLE: bool, const REV: bool>(&self, a: &[u64], b: &[u64], data: &mut [u16]) {
        assert!(data.len().is_multiple_of(self.n), "whole values only");
        let count = data.len() / self.n;
        assert!(a.len() >= count.next_multiple_of(4) && b.len() >= count.next_multiple_of(4));
        let (ctl, e, t): ([L; 2], _, _) = (self.str_ctl.map(cast), self.entry, self.token);
        for j in (0..count).step_by(4) {
            let (av, bv): (L, L) = (load(&a[j..j + 4]), load(&b[j..j + 4]));
            // Digits of values (j, j + 2) and (j + 1, j + 3), one per lane.
            let ([a02, a13], [b02, b13]) = (digits(t, av, REV), digits(t, bv, REV));
            let h = if WHOLE {
                // Value i's A and B side by side: one 32-byte store each.
                let ([v0, v2], [v1, v3]) = (L::cross(e, a02, b02), L::cross(e, a13, b13));
                [v0, v1, v2, v3]
            } else {
                [a02, a13, b02, b13]
            };
            let (nu, at) = ((self.n, self.u), j * self.n);
            if in_reach(nu, at, data.len()) {
                self.store4::<WHOLE>(data, at, h, ctl);
            } else {
                // Into a padded copy whose whole values are copied back (the spill stays in the copy).
                let mut pad = [0u16; PAD];
                self.store4::<WHOLE>(&mut pad, 0, h, ctl);
                let end = data.len().min(at + 4 * self.n);
                data[at..end].copy_from_slice(&pad[..end - at]);
            }
        }
    }

    /// Writes values `at..` from their digits `h` (`WHOLE`: value i's 16 in `h[i]`; else
    /// [a02, a13, b02, b13], shuffled by `ctl`), in ascending order: a value over its predecessor's spill.
    #[inline(always)]
    fn store4<const WHOLE: bool>(&self, dst: &mut [u16], at: usize, h: [L; 4], ctl: [L; 2]) {
        if WHOLE {
            let dst = &mut dst[at..at + 64];
            for (i, v) in h.into_iter().enumerate() {
                store(&mut dst[16 * i..], v);
            }
            return;
        }
        let e = self.entry;
        let (a02, a13) = (L::halves(e, L::shufb(e, h[0], ctl[0])), L::halves(e, L::shufb(e, h[1], ctl[0])));
        let (b02, b13) = (L::halves(e, L::shufb(e, h[2], ctl[1])), L::halves(e, L::shufb(e, h[3], ctl[1])));
        let mut q = Quad::new(dst, (self.n, self.u), at);
        for (i, (x, y)) in
            [(a02[0], b02[0]), (a13[0], b13[0]), (a02[1], b02[1]), (a13[1], b13[1])].into_iter().enumerate()
        {
            q.store(i, 0, x);
            q.store(i, 1, y);
        }
    }
}

/// The entries of `$dec`, each compiled for `$features` (its entry token's).
macro_rules! entries {
    ($($dec:ty, $token:ty, $features:literal, $parse:ident, $format:ident;)*) => {$(
        impl $dec {
            /// As [`Dec::parse_in`].
            pub(crate) fn parse_checked(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
                // SAFETY: `self.entry` proves the features.
                unsafe { $parse(self.entry, self, data, a, b) }
            }

            /// As [`Dec::format_in`].
            pub(crate) fn format(&self, a: &[u64], b: &[u64], data: &mut [u16]) {
                // SAFETY: as in `parse_checked`.
                unsafe { $format(self.entry, self, a, b, data) }
            }
        }

        #[target_feature(enable = $features)]
        fn $parse(_: $token, d: &$dec, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
            d.parse_in(data, a, b)
        }

        #[target_feature(enable = $features)]
        fn $format(_: $token, d: &$dec, a: &[u64], b: &[u64], data: &mut [u16]) {
            d.format_in(a, b, data)
        }
    )*};
}

entries! {
    Dec128, crate::cpu::Sse41, "ssse3,sse4.1", parse_sse41, format_sse41;
    Dec256, crate::cpu::Avx2, "avx2", parse_avx2, format_avx2;
}
