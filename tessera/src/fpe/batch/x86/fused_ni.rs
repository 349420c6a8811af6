//! The fused kernel on AES-NI without AVX2 (scheme in `fused512.rs`), for
//! FF3 and FF1 moduli above `fused_sse.rs`'s: eight blocks per `aesenc`,
//! the update on 64-bit scalars ([`Fast`]). FF3's 128-bit y is folded in
//! the vector (limbs times 2^32k mod m, two `pmuludq`), then updated with d
//! in the quotient ([`Fast::step_folded`]). Two groups of eight run as a
//! pipeline of [`stage`]s. `scripts/check-ct` compiles [`step`] on eight
//! values for FF1, four for FF3 (on eight, LLVM loops over the values).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::fused512::{MAX_ROUNDS, by_rounds, const_block};
use super::run::FusedRun;
use super::single_ni::Fast;
use crate::Direction;
use crate::fpe::batch::round::{Consts, Prefetch};

/// Values per step: eight blocks in flight.
const W: usize = 8;

/// A round's modulus ([`Fast`]) and FF3's limb weights as 64-bit lanes:
/// \[1, 2^64 mod m\] and \[2^32 mod m, 2^96 mod m\].
pub struct Red {
    f: Fast,
    w: [__m128i; 2],
}

impl Red {
    /// For the modulus `m`, `r` its limb residues (2^32, 2^64 and 2^96 mod
    /// m); `None` unless m is in 2..=(2^64 - 1) / 3 (FF1) or 2..2^30 (FF3).
    #[inline]
    #[target_feature(enable = "sse4.1")]
    fn new<const FF3: bool>(m: u64, r: [u64; 3]) -> Option<Self> {
        let f = if FF3 { Fast::new_folded(m) } else { Fast::new(m) }?;
        Some(Red { f, w: [_mm_set_epi64x(r[1] as i64, 1), _mm_set_epi64x(r[2] as i64, r[0] as i64)] })
    }

    /// A 64-bit value congruent to the 128-bit `o` mod m (m < 2^30): each
    /// 32-bit limb times its weight (products below 2^62), summed.
    #[inline]
    #[target_feature(enable = "sse4.1")]
    fn fold(&self, o: __m128i) -> u64 {
        let even = _mm_mul_epu32(o, self.w[0]);
        let odd = _mm_mul_epu32(_mm_srli_epi64::<32>(o), self.w[1]);
        let s = _mm_add_epi64(even, odd);
        _mm_cvtsi128_si64(_mm_add_epi64(s, _mm_unpackhi_epi64(s, s))) as u64
    }
}

/// One round for `N` values: blocks `cb ^ half` (`cb`: the round's
/// constant block ^ rk\[0\]) enciphered, `dst[j] ± y_j mod m`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn step<const N: usize, const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    cb: __m128i,
    k: &Red,
    src: &[u64; N],
    dst: &mut [u64; N],
) {
    let blk = encipher::<N, NR>(rk, build::<N, FF3>(cb, src));
    for (o, d) in blk.iter().zip(dst) {
        finish::<FF3, ENC>(*o, k, d);
    }
}

/// The blocks `cb ^ half` of one round for the halves `src`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn build<const N: usize, const FF3: bool>(cb: __m128i, src: &[u64; N]) -> [__m128i; N] {
    let mut blk = [_mm_setzero_si128(); N];
    for (b, &x) in blk.iter_mut().zip(src) {
        // FF1: the half big-endian in bytes 8..16; FF3: little-endian in 0..8.
        let h = if FF3 { _mm_cvtsi64_si128(x as i64) } else { _mm_set_epi64x(x.swap_bytes() as i64, 0) };
        *b = _mm_xor_si128(cb, h);
    }
    blk
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

/// One stage of the two-group pipeline: enciphers `blk` and, one value
/// after each of the first W AES rounds, finishes the other group's
/// enciphered `done` into `dst` (interleaved in program order).
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn stage<const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    blk: [__m128i; W],
    done: &[__m128i; W],
    k: &Red,
    dst: &mut [u64; W],
) -> [__m128i; W] {
    let mut blk = blk;
    // Written out (NR - 1 >= W): no loop, no jump.
    let mut go = |r: usize| {
        for b in &mut blk {
            *b = _mm_aesenc_si128(*b, rk[r + 1]);
        }
        finish::<FF3, ENC>(done[r], k, &mut dst[r]);
    };
    go(0);
    go(1);
    go(2);
    go(3);
    go(4);
    go(5);
    go(6);
    go(7);
    const _: () = assert!(W == 8, "one go per value");
    for key in &rk[W + 1..NR] {
        for b in &mut blk {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    blk.map(|b| _mm_aesenclast_si128(b, rk[NR]))
}

/// The AES-NI kernel: all rounds for every value of `a` and `b`, asking
/// `pf` for each chunk's share before it (a burst first, or a line per
/// stage, measured slower). Needs AES-NI and SSE4.1 (the token);
/// `a.len() == b.len()`, a multiple of 8; an even number of rounds, at most
/// ten; halves below their moduli, each in 2..=(2^64 - 1) / 3 (FF1) or
/// 2..2^30 (FF3).
#[target_feature(enable = "aes,sse4.1")]
pub fn rounds_aesni<const FF3: bool>(_: crate::cpu::AesNi, work: FusedRun<'_, impl Prefetch>) {
    let FusedRun { keys, nr, c, a, b, dir, pf } = work;
    by_rounds!(run::<FF3>(nr, dir; keys, c, a, b, dir, pf));
}

#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn run<const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
    pf: &mut impl Prefetch,
) {
    let (mut cbk, rounds, p) = round_blocks(rk[0], c, a.len(), b.len(), dir);
    // The moduli of the first round's parity and the other.
    let ks = [p, 1 - p].map(|i| Red::new::<FF3>(c.m[i], c.r[i]).expect("moduli in range (the caller's contract)"));
    let mut j = 0;
    while j + 2 * W <= a.len() {
        pf.part((a.len() - j).div_ceil(2 * W));
        chunk::<2, FF3, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 2 * W;
    }
    if j < a.len() {
        pf.rest();
        chunk::<1, FF3, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
    }
    crate::wipe::wipe_vectors(&mut cbk);
}

/// Each round's constant block ^ `rk0` in run order (the caller wipes
/// them), the round count, and the first round's parity (0: it updates A).
#[inline]
#[target_feature(enable = "sse4.1")]
pub(crate) fn round_blocks(
    rk0: __m128i,
    c: &Consts<'_>,
    la: usize,
    lb: usize,
    dir: Direction,
) -> ([__m128i; MAX_ROUNDS], usize, usize) {
    assert!(la == lb && la.is_multiple_of(W), "whole groups");
    let rounds = c.blocks.len();
    assert!(rounds.is_multiple_of(2) && rounds <= MAX_ROUNDS, "an even number of rounds, at most ten");
    let mut cbk = [_mm_setzero_si128(); MAX_ROUNDS];
    for (r, v) in cbk[..rounds].iter_mut().enumerate() {
        *v = _mm_xor_si128(const_block(c, dir.round(r, rounds)), rk0);
    }
    (cbk, rounds, dir.round(0, rounds) % 2)
}

/// All rounds for `W`·G values of `a` and `b` (`cbk`, `ks`, `p` as in
/// [`run`]): two groups as a pipeline of [`stage`]s, one [`step`] by step.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn chunk<const G: usize, const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    cbk: &[__m128i],
    ks: &[Red; 2],
    a: &mut [u64],
    b: &mut [u64],
    p: usize,
) {
    // h[0]: the halves the first round updates; h[1]: the others.
    let (xs, ys) = if p == 0 { (&mut *a, &mut *b) } else { (&mut *b, &mut *a) };
    let mut h = [[[0u64; W]; G]; 2];
    for g in 0..G {
        h[0][g].copy_from_slice(&xs[g * W..(g + 1) * W]);
        h[1][g].copy_from_slice(&ys[g * W..(g + 1) * W]);
    }
    if G == 1 {
        for (t, &cb) in cbk.iter().enumerate() {
            let [x, y] = &mut h;
            let (src, dst) = if t % 2 == 0 { (&y[0], &mut x[0]) } else { (&x[0], &mut y[0]) };
            step::<W, FF3, NR, ENC>(rk, cb, &ks[t % 2], src, dst);
        }
    } else {
        // Stage s enciphers round s / 2 of group s % 2 (from h[1 - t % 2])
        // and finishes stage s - 1 into h[t' % 2].
        let blocks = |h: &[[[u64; W]; G]; 2], s: usize| build::<W, FF3>(cbk[s / 2], &h[1 - (s / 2) % 2][s % 2]);
        let mut done = encipher::<W, NR>(rk, blocks(&h, 0));
        for s in 1..2 * cbk.len() {
            let blk = blocks(&h, s);
            let t = (s - 1) / 2;
            done = stage::<FF3, NR, ENC>(rk, blk, &done, &ks[t % 2], &mut h[t % 2][(s - 1) % 2]);
        }
        let t = cbk.len() - 1;
        for (o, d) in done.iter().zip(&mut h[t % 2][1]) {
            finish::<FF3, ENC>(*o, &ks[t % 2], d);
        }
    }
    for g in 0..G {
        xs[g * W..(g + 1) * W].copy_from_slice(&h[0][g]);
        ys[g * W..(g + 1) * W].copy_from_slice(&h[1][g]);
    }
}

/// The blocks `blk` (built) through every AES round.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn encipher<const N: usize, const NR: usize>(rk: &[__m128i; 15], blk: [__m128i; N]) -> [__m128i; N] {
    let mut blk = blk;
    for key in &rk[1..NR] {
        for b in &mut blk {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    blk.map(|b| _mm_aesenclast_si128(b, rk[NR]))
}

#[cfg(test)]
#[path = "fused_ni_tests.rs"]
mod tests;
