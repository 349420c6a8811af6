//! The fused kernels on AES-NI (scheme in `fused512.rs`): eight blocks in flight over a [`Unit`] of
//! halves, one value on 64-bit scalars here ([`Scalar`]), two per vector in `fused_sse.rs`. Two
//! groups run as a pipeline of [`stage`]s: one group's update between the other's AES rounds.
//! `scripts/check-ct` compiles [`step`] on eight values for FF1, four for FF3, and [`stage`].

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::fused512::{MAX_ROUNDS, by_rounds, round_consts};
use super::run::FusedRun;
use super::single_ni::Fast;
use crate::Direction;
use crate::cpu::AesNi;
use crate::fpe::batch::round::{Consts, Prefetch};

/// Blocks in flight per group.
const BLOCKS: usize = 8;

/// `K` values of an AES-NI fused kernel: their halves (`Half`) and blocks.
/// The methods are compiled into the kernels' AES-NI and SSE4.1 functions.
pub(crate) trait Unit<const K: usize> {
    type Half: Copy;
    /// A round's modulus.
    type Mod;
    /// The modulus `m` with its limb residues `r`.
    fn modulus(t: AesNi, m: u64, r: [u64; 3]) -> Self::Mod;
    /// The halves `s[..K]`.
    fn load(s: &[u64]) -> Self::Half;
    /// Writes the halves to `s[..K]`.
    fn store(x: Self::Half, s: &mut [u64]);
    /// The blocks `cb ^ half` (`cb`: the round's constant block ^ rk\[0\]).
    fn build(t: AesNi, cb: __m128i, x: Self::Half) -> [__m128i; K];
    /// `d ± y mod m` (`ENC`: +), y read from the enciphered blocks `o`.
    fn finish<const ENC: bool>(t: AesNi, o: [__m128i; K], k: &Self::Mod, d: Self::Half) -> Self::Half;
}

/// The [`Unit`] methods that take the `AesNi` token (proof of AES-NI and SSE4.1), each body one
/// `unsafe` block.
macro_rules! unit_methods {
    ($(fn $name:ident $(<const $c:ident: $ct:ty>)? ($($a:ident: $t:ty),*) -> $r:ty { $($body:tt)* })*) => {$(
        #[inline(always)]
        fn $name $(<const $c: $ct>)? (_: AesNi, $($a: $t),*) -> $r {
            // SAFETY: the token proves the features of the code called.
            unsafe { $($body)* }
        }
    )*};
}
pub(crate) use unit_methods;

/// One value per unit on 64-bit scalars, FF3's layout or FF1's.
pub(crate) struct Scalar<const FF3: bool>;

impl<const FF3: bool> Unit<1> for Scalar<FF3> {
    type Half = u64;
    type Mod = Red;
    unit_methods! {
        fn modulus(m: u64, r: [u64; 3]) -> Red {
            Red::new::<FF3>(m, r).expect("moduli in range (the caller's contract)")
        }
        fn build(cb: __m128i, x: u64) -> [__m128i; 1] {
            // FF1: the half big-endian in bytes 8..16; FF3: little-endian in 0..8.
            let h = if FF3 { _mm_cvtsi64_si128(x as i64) } else { _mm_set_epi64x(x.swap_bytes() as i64, 0) };
            [_mm_xor_si128(cb, h)]
        }
        fn finish<const ENC: bool>(o: [__m128i; 1], k: &Red, d: u64) -> u64 {
            let mut d = d;
            finish::<FF3, ENC>(o[0], k, &mut d);
            d
        }
    }
    #[inline(always)]
    fn load(s: &[u64]) -> u64 {
        s[0]
    }
    #[inline(always)]
    fn store(x: u64, s: &mut [u64]) {
        s[0] = x;
    }
}

/// A round's modulus ([`Fast`]) and FF3's limb weights as 64-bit lanes:
/// \[1, 2^64 mod m\] and \[2^32 mod m, 2^96 mod m\].
pub struct Red {
    f: Fast,
    w: [__m128i; 2],
}

impl Red {
    /// For the modulus `m`, `r` its limb residues; `None` unless m is in 2..=(2^64 - 1) / 3 (FF1) or
    /// 2..2^30 (FF3).
    #[inline]
    #[target_feature(enable = "sse4.1")]
    fn new<const FF3: bool>(m: u64, r: [u64; 3]) -> Option<Self> {
        let f = if FF3 { Fast::new_folded(m) } else { Fast::new(m) }?;
        Some(Red { f, w: [_mm_set_epi64x(r[1] as i64, 1), _mm_set_epi64x(r[2] as i64, r[0] as i64)] })
    }

    /// A 64-bit value congruent to the 128-bit `o` mod m (m < 2^30): its limbs times their weights.
    #[inline]
    #[target_feature(enable = "sse4.1")]
    fn fold(&self, o: __m128i) -> u64 {
        let even = _mm_mul_epu32(o, self.w[0]);
        let odd = _mm_mul_epu32(_mm_srli_epi64::<32>(o), self.w[1]);
        let s = _mm_add_epi64(even, odd);
        _mm_cvtsi128_si64(_mm_add_epi64(s, _mm_unpackhi_epi64(s, s))) as u64
    }
}

/// `d = d +- y mod m`, y read from the enciphered block `o`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn finish<const FF3: bool, const ENC: bool>(o: __m128i, k: &Red, d: &mut u64) {
    // FF3: y folded to 64 bits (congruent mod m); FF1: the output's first 8 bytes, big-endian.
    let y = if FF3 { k.fold(o) } else { (_mm_cvtsi128_si64(o) as u64).swap_bytes() };
    *d = match (FF3, ENC) {
        // The fold is below FOLD_BOUND: the update with d in the quotient.
        (true, true) => k.f.step_folded::<false>(*d, y),
        (true, false) => k.f.step_folded::<true>(*d, y),
        (false, true) => k.f.step::<false>(*d, y),
        (false, false) => k.f.step::<true>(*d, y),
    };
}

/// One round for `N` units: blocks built, enciphered, `dst ± y mod m`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn step<U: Unit<K>, const K: usize, const N: usize, const NR: usize, const ENC: bool>(
    t: AesNi,
    rk: &[__m128i; 15],
    cb: __m128i,
    k: &U::Mod,
    src: &[U::Half; N],
    dst: &mut [U::Half; N],
) {
    let blk = encipher::<K, N, NR>(rk, build::<U, K, N>(t, cb, src));
    for (o, d) in blk.iter().zip(dst) {
        *d = U::finish::<ENC>(t, *o, k, *d);
    }
}

/// The blocks of the halves `x`.
#[inline(always)]
fn build<U: Unit<K>, const K: usize, const N: usize>(t: AesNi, cb: __m128i, x: &[U::Half; N]) -> [[__m128i; K]; N] {
    let mut blk = [[cb; K]; N];
    for (b, &x) in blk.iter_mut().zip(x) {
        *b = U::build(t, cb, x);
    }
    blk
}

/// The built blocks `blk` through every AES round.
#[inline]
#[target_feature(enable = "aes")]
fn encipher<const K: usize, const N: usize, const NR: usize>(
    rk: &[__m128i; 15],
    mut blk: [[__m128i; K]; N],
) -> [[__m128i; K]; N] {
    for key in &rk[1..NR] {
        for b in blk.as_flattened_mut() {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    for b in blk.as_flattened_mut() {
        *b = _mm_aesenclast_si128(*b, rk[NR]);
    }
    blk
}

/// One stage of the two-group pipeline: enciphers `blk` and, one unit after each of the first W AES
/// rounds, finishes the other group's enciphered `done` into `dst`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn stage<U: Unit<K>, const K: usize, const W: usize, const NR: usize, const ENC: bool>(
    t: AesNi,
    rk: &[__m128i; 15],
    mut blk: [[__m128i; K]; W],
    done: &[[__m128i; K]; W],
    k: &U::Mod,
    dst: &mut [U::Half; W],
) -> [[__m128i; K]; W] {
    const { assert!(K * W == BLOCKS && W <= 8 && NR > W) };
    // Written out: no loop, no jump.
    macro_rules! go {
        ($($r:literal)*) => {$(
            if $r < W {
                for b in blk.as_flattened_mut() {
                    *b = _mm_aesenc_si128(*b, rk[$r + 1]);
                }
                dst[$r] = U::finish::<ENC>(t, done[$r], k, dst[$r]);
            }
        )*};
    }
    go!(0 1 2 3 4 5 6 7);
    for key in &rk[W + 1..NR] {
        for b in blk.as_flattened_mut() {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    for b in blk.as_flattened_mut() {
        *b = _mm_aesenclast_si128(*b, rk[NR]);
    }
    blk
}

/// The AES-NI kernel: all rounds for every value of `a` and `b`, asking `pf` for each chunk's share
/// before it. Needs `a.len() == b.len()`, a multiple of 8; an even number of rounds, at most ten;
/// halves below their moduli, each in 2..=(2^64 - 1) / 3 (FF1) or 2..2^30 (FF3).
#[target_feature(enable = "aes,sse4.1")]
pub fn rounds_aesni<const FF3: bool>(t: AesNi, work: FusedRun<'_, impl Prefetch>) {
    let FusedRun { keys, nr, c, a, b, dir, pf } = work;
    by_rounds!(run[Scalar<FF3>, 1, 8](nr, dir; t, keys, c, a, b, dir, pf));
}

/// All rounds for every value of `a` and `b` in units `U` of `K` values, `W` units a group, chunks of
/// two groups then one.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn run<U: Unit<K>, const K: usize, const W: usize, const NR: usize, const ENC: bool>(
    t: AesNi,
    rk: &[__m128i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
    pf: &mut impl Prefetch,
) {
    let mut cbk = [_mm_setzero_si128(); MAX_ROUNDS];
    let (rounds, p) = round_consts(c, (a.len(), b.len(), BLOCKS), dir, &mut cbk, |b| _mm_xor_si128(b, rk[0]));
    // The moduli of the first round's parity and the other.
    let ks = [U::modulus(t, c.m[p], c.r[p]), U::modulus(t, c.m[1 - p], c.r[1 - p])];
    let mut j = 0;
    while j + 2 * BLOCKS <= a.len() {
        pf.part((a.len() - j).div_ceil(2 * BLOCKS));
        chunk::<U, K, W, 2, NR, ENC>(t, rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 2 * BLOCKS;
    }
    if j < a.len() {
        pf.rest();
        chunk::<U, K, W, 1, NR, ENC>(t, rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
    }
    crate::wipe::wipe_vectors(&mut cbk);
}

/// All rounds for G groups (1 or 2) of `W` units of `a` and `b`: two groups as a pipeline of
/// [`stage`]s, one [`step`] by step.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn chunk<U: Unit<K>, const K: usize, const W: usize, const G: usize, const NR: usize, const ENC: bool>(
    t: AesNi,
    rk: &[__m128i; 15],
    cbk: &[__m128i],
    ks: &[U::Mod; 2],
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
) {
    assert!(a.len() >= K * W * G && b.len() >= K * W * G, "whole groups");
    // h[0]: the halves the first round updates; h[1]: the others.
    let (xs, ys) = if p == 0 { (&mut *a, &mut *b) } else { (&mut *b, &mut *a) };
    let mut h = [[[U::load(xs); W]; G]; 2];
    for (half, s) in h.iter_mut().zip([&*xs, &*ys]) {
        for (j, x) in half.as_flattened_mut().iter_mut().enumerate() {
            *x = U::load(&s[K * j..]);
        }
    }
    if G == 1 {
        for (r, &cb) in cbk.iter().enumerate() {
            let [x, y] = &mut h;
            let (src, dst) = if r % 2 == 0 { (&y[0], &mut x[0]) } else { (&x[0], &mut y[0]) };
            step::<U, K, W, NR, ENC>(t, rk, cb, &ks[r % 2], src, dst);
        }
    } else {
        // Stage s enciphers round s / 2 of group s % 2 (from h[1 - t % 2])
        // and finishes stage s - 1 into h[t' % 2].
        let mut done = encipher::<K, W, NR>(rk, build::<U, K, W>(t, cbk[0], &h[1][0]));
        for s in 1..2 * cbk.len() {
            let blk = build::<U, K, W>(t, cbk[s / 2], &h[1 - (s / 2) % 2][s % 2]);
            let r = (s - 1) / 2;
            done = stage::<U, K, W, NR, ENC>(t, rk, blk, &done, &ks[r % 2], &mut h[r % 2][(s - 1) % 2]);
        }
        let r = cbk.len() - 1;
        for (o, d) in done.iter().zip(&mut h[r % 2][1]) {
            *d = U::finish::<ENC>(t, *o, &ks[r % 2], *d);
        }
    }
    for (half, s) in h.iter().zip([xs, ys]) {
        for (j, x) in half.as_flattened().iter().enumerate() {
            U::store(*x, &mut s[K * j..]);
        }
    }
}

#[cfg(test)]
#[path = "fused_ni_tests.rs"]
mod tests;
