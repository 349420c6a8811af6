//! One FF1 or FF3-1 value at a time on AES-NI, for latency: between one round's AES output and the
//! next round's input are only a Barrett reduction, the add, two `cmov`s and one shuffle and xor.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::Direction;
use crate::aes::ni::Keys;
use crate::cpu::AesNi;
use crate::fpe::num::limb_residues;

/// Calls `$f::<NR, DEC>($args)` for the key's round count and the direction.
macro_rules! dispatch {
    ($keys:expr, $dir:expr, $f:ident($($arg:expr),*)) => {{
        let (rk, t) = ($keys.schedule(), $keys.token());
        // SAFETY: `t` proves AES-NI and SSE4.1, the features these functions are compiled for.
        unsafe {
            match ($keys.rounds(), $dir.is_encrypt()) {
                (10, true) => $f::<10, false>(t, rk, $($arg),*),
                (10, false) => $f::<10, true>(t, rk, $($arg),*),
                (12, true) => $f::<12, false>(t, rk, $($arg),*),
                (12, false) => $f::<12, true>(t, rk, $($arg),*),
                (_, true) => $f::<14, false>(t, rk, $($arg),*),
                (_, false) => $f::<14, true>(t, rk, $($arg),*),
            }
        }
    }};
}

/// FF1's rounds on one value (see [`ff1`]).
#[inline(always)]
pub(crate) fn ff1_value(
    keys: &Keys,
    base: u128,
    shb: u32,
    m: &(Fast, Fast),
    ab: (u64, u64),
    dir: Direction,
) -> (u64, u64) {
    dispatch!(keys, dir, ff1(base, shb, (&m.0, &m.1), ab))
}

/// FF3's rounds on one value (see [`ff3`]).
pub(crate) fn ff3_value(
    keys: &Keys,
    tweak: (u32, u32),
    m: &(Fast, Fast),
    ab: (u64, u64),
    dir: Direction,
) -> (u64, u64) {
    dispatch!(keys, dir, ff3(tweak, (&m.0, &m.1), ab))
}

/// Arithmetic modulo one radix power m, with 3m below 2^64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fast {
    m: u64,
    m2: u64,
    /// floor((2^64 - 1) / m): Barrett's quotient estimate is at most one short.
    inv: u64,
    /// 2^32, 2^64 and 2^96 mod m, to fold a 128-bit y into 64 bits (m < 2^30).
    r: [u64; 3],
    /// The least multiple of m above [`FOLD_BOUND`] ([`Fast::new_folded`]; else 0): `x + c - y` is
    /// ≡ x - y, not negative, below 2^64.
    c: u64,
}

/// Above every folded y ([`Fast::fold`], `fused_ni`'s): (2^32 - 1)·(3m - 2) for m < 2^30.
pub(crate) const FOLD_BOUND: u64 = 3 << 62;
const _: () = assert!(((1u128 << 32) - 1) * (3 * ((1 << 30) - 1) - 2) < FOLD_BOUND as u128);

impl Fast {
    /// For moduli with 3m < 2^64 (FF1's y of 8 bytes).
    pub(crate) fn new(m: u64) -> Option<Self> {
        (2..=u64::MAX / 3).contains(&m).then(|| Fast { m, m2: 2 * m, inv: u64::MAX / m, r: limb_residues(m), c: 0 })
    }

    /// For moduli below 2^30, which can also reduce a 128-bit y (FF3's).
    pub(crate) fn new_folded(m: u64) -> Option<Self> {
        // c + x < 3·2^62 + 2m < 2^64.
        Self::new(m).filter(|_| m < 1 << 30).map(|f| Fast { c: (FOLD_BOUND / m + 1) * m, ..f })
    }

    /// A 64-bit value congruent to `lo + hi * 2^64` mod m (four 32-bit limbs times 2^(32j) mod m).
    #[inline(always)]
    fn fold(&self, lo: u64, hi: u64) -> u64 {
        let l1 = (lo >> 32) * self.r[0];
        let h0 = (hi & 0xffff_ffff) * self.r[1];
        let h1 = (hi >> 32) * self.r[2];
        ((lo & 0xffff_ffff) + l1) + (h0 + h1)
    }

    /// One Feistel update: (x + y) mod m, or (x - y) mod m with `DEC` (`x` < m, any 64-bit `y`).
    #[inline(always)]
    pub(crate) fn step<const DEC: bool>(&self, x: u64, y: u64) -> u64 {
        let q = ((y as u128 * self.inv as u128) >> 64) as u64;
        let qm = q.wrapping_mul(self.m);
        // y - qm is y mod m or that plus m: t is in [0, 3m).
        let t = if DEC {
            x.wrapping_add(self.m2).wrapping_sub(y).wrapping_add(qm)
        } else {
            x.wrapping_add(y).wrapping_sub(qm)
        };
        reduce3(t, self.m, self.m2)
    }
}

impl Fast {
    /// One Feistel update for a folded y (< [`FOLD_BOUND`], moduli from [`Fast::new_folded`]): x + y or
    /// x + c - y goes into Barrett's quotient itself, leaving [0, 2m).
    #[inline(always)]
    pub(crate) fn step_folded<const DEC: bool>(&self, x: u64, y: u64) -> u64 {
        debug_assert!(self.c != 0 && y < FOLD_BOUND && x < self.m);
        // x + c first: off the path from y.
        let s = if DEC { x.wrapping_add(self.c).wrapping_sub(y) } else { x.wrapping_add(y) };
        let q = ((s as u128 * self.inv as u128) >> 64) as u64;
        reduce2(s.wrapping_sub(q.wrapping_mul(self.m)), self.m)
    }
}

/// `t` mod m for `t` < 2m, by one `cmov`.
#[inline(always)]
fn reduce2(t: u64, m: u64) -> u64 {
    sub_if(t, t, m)
}

/// `t` mod m for `t` < 3m, by two `cmov`s (both compares from `t`).
#[inline(always)]
fn reduce3(t: u64, m: u64, m2: u64) -> u64 {
    sub_if(t, sub_if(t, t, m), m2)
}

/// `t - k` where `t >= k`, else `r`, by a `cmov` (written out: a select may compile to a branch on `t`).
#[inline(always)]
fn sub_if(t: u64, mut r: u64, k: u64) -> u64 {
    // SAFETY: register-only arithmetic and a conditional move; no memory, stack or control flow.
    unsafe {
        core::arch::asm!(
            "sub {t}, {k}",
            "cmovae {r}, {t}",
            t = inout(reg) t => _,
            r = inout(reg) r,
            k = in(reg) k,
            options(pure, nomem, nostack),
        );
    }
    r
}

/// AES rounds 1..=NR of a block already xored with round key 0.
#[inline]
#[target_feature(enable = "aes")]
fn rest<const NR: usize>(rk: &[__m128i; 15], mut b: __m128i) -> __m128i {
    for k in &rk[1..NR] {
        b = _mm_aesenc_si128(b, *k);
    }
    _mm_aesenclast_si128(b, rk[NR])
}

/// The Feistel chain, unrolled: `R` (at most 10) rounds, round i enciphering its block and reading y
/// with `prf`; even rounds mod `m.0`.
#[inline(always)]
fn chain<const R: usize, const DEC: bool>(
    m: (&Fast, &Fast),
    (mut a, mut b): (u64, u64),
    mut prf: impl FnMut(usize, u64, &Fast) -> u64,
) -> (u64, u64) {
    const { assert!(R <= 10) };
    let mut round = |j: usize| {
        if j >= R {
            return;
        }
        let i = if DEC { R - 1 - j } else { j };
        let mi = if i % 2 == 0 { m.0 } else { m.1 };
        if DEC {
            (a, b) = (mi.step::<true>(b, prf(i, a, mi)), a);
        } else {
            (a, b) = (b, mi.step::<false>(a, prf(i, b, mi)));
        }
    };
    round(0);
    round(1);
    round(2);
    round(3);
    round(4);
    round(5);
    round(6);
    round(7);
    round(8);
    round(9);
    (a, b)
}

/// FF1's ten rounds for d = 8 (NUM(half) in the last b <= 4 bytes of the block). `base` is the
/// CBC-MAC state xor the last block of Q, as a big-endian integer; `shb` = 8b places \[i\].
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn ff1<const NR: usize, const DEC: bool>(
    _: AesNi,
    rk: &[__m128i; 15],
    base: u128,
    shb: u32,
    m: (&Fast, &Fast),
    ab: (u64, u64),
) -> (u64, u64) {
    let base = _mm_xor_si128(crate::aes::ni::ld(&base.to_be_bytes()), rk[0]);
    // The byte of [i], selected from a vector of i in every byte.
    let at = crate::aes::ni::ld(&(0xffu128 << shb).to_be_bytes());
    // The half's low 8 bytes (little-endian in lane 0), reversed into bytes 8..16.
    let place = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1, -1, -1, -1);
    chain::<10, DEC>(m, ab, |i, x, _| {
        let k = _mm_xor_si128(base, _mm_and_si128(_mm_set1_epi8(i as i8), at));
        let blk = _mm_xor_si128(_mm_shuffle_epi8(_mm_cvtsi64_si128(x as i64), place), k);
        (_mm_cvtsi128_si64(rest::<NR>(rk, blk)) as u64).swap_bytes()
    })
}

/// FF3's eight rounds (moduli from [`Fast::new_folded`]): the cipher sees (W ^ \[i\]) << 96 |
/// NUM(REV(half)) little-endian, y is the output read little-endian; W is T_R in even rounds, else T_L.
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn ff3<const NR: usize, const DEC: bool>(
    _: AesNi,
    rk: &[__m128i; 15],
    (tl, tr): (u32, u32),
    m: (&Fast, &Fast),
    ab: (u64, u64),
) -> (u64, u64) {
    let w = [tr, tl].map(|w| _mm_xor_si128(_mm_set_epi64x(((w as u64) << 32) as i64, 0), rk[0]));
    chain::<8, DEC>(m, ab, |i, x, mi| {
        let k = _mm_xor_si128(w[i % 2], _mm_set_epi64x((i as i64) << 32, 0));
        let out = rest::<NR>(rk, _mm_xor_si128(_mm_cvtsi64_si128(x as i64), k));
        mi.fold(_mm_cvtsi128_si64(out) as u64, _mm_extract_epi64::<1>(out) as u64)
    })
}

#[cfg(test)]
#[path = "single_ni_tests.rs"]
mod tests;
