//! The fused kernel for CPUs with AES-NI but no AVX2 (Intel Goldmont and
//! Tremont Atoms and Celerons, Cores before Haswell): every round of a run
//! with one tweak, eight blocks in flight per `aesenc` (the round keys are
//! read from the schedule), each block built from its half and read back
//! in registers, with no block ever stored. The arithmetic is the
//! portable round's, on 64-bit scalars: FF1's y by one Barrett step, FF3's
//! 128-bit y by its 32-bit limbs ([`rem_limbs`]), then a masked add or
//! subtract. Two groups of eight values alternate in every round, so one
//! group's reduction overlaps the other's AES. Straight-line code with
//! masks, no branch on a value (`scripts/check-ct` compiles [`step`]: FF1
//! on eight values, FF3 on four: on eight, LLVM keeps FF3's updates as a
//! loop whose jump counts values, which the check cannot tell from a
//! secret one).

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::batch_fused::{MAX_ROUNDS, by_rounds, const_block};
use super::batch_round::{Consts, rem_limbs};
use super::num::Mod64;
use crate::Direction;

/// Values per step: eight blocks in flight.
const W: usize = 8;

/// One round's modulus and FF3's limb residues (2^32, 2^64, 2^96 mod m).
pub struct Red {
    m: Mod64,
    r: [u64; 3],
}

/// One round for `N` values (`W` in use): blocks `cb ^ half` (`cb`: the
/// round's constant block ^ rk\[0\]) enciphered together, `dst[j] = dst[j]
/// +- y_j mod m`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub fn step<const N: usize, const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    cb: __m128i,
    k: &Red,
    src: &[u64; N],
    dst: &mut [u64; N],
) {
    let mut blk = [_mm_setzero_si128(); N];
    for (b, &x) in blk.iter_mut().zip(src) {
        // FF1: the half big-endian in bytes 8..16; FF3: little-endian in 0..8.
        let h = if FF3 { _mm_cvtsi64_si128(x as i64) } else { _mm_set_epi64x(x.swap_bytes() as i64, 0) };
        *b = _mm_xor_si128(cb, h);
    }
    for key in &rk[1..NR] {
        for b in &mut blk {
            *b = _mm_aesenc_si128(*b, *key);
        }
    }
    for (b, d) in blk.iter().zip(dst) {
        let o = _mm_aesenclast_si128(*b, rk[NR]);
        let lo = _mm_cvtsi128_si64(o) as u64;
        let y = if FF3 {
            rem_limbs(&k.m, &k.r, lo, _mm_extract_epi64::<1>(o) as u64)
        } else {
            // y is the output's first 8 bytes, big-endian.
            k.m.rem64(lo.swap_bytes())
        };
        *d = if ENC { k.m.add(*d, y) } else { k.m.sub(*d, y) };
    }
}

/// The AES-NI kernel: all rounds for every value of `a` and `b`, eight
/// values at a time.
///
/// # Safety
/// The CPU must have AES-NI and SSE4.1; `a.len() == b.len()`, a multiple
/// of 8; an even number of rounds, at most ten; every half below its
/// round's modulus, each modulus at least 2 (FF1) or in
/// 2..=[`LIMB_MODULI`](super::batch_round::LIMB_MODULI) (FF3).
#[target_feature(enable = "aes,sse4.1")]
pub unsafe fn rounds_aesni<const FF3: bool>(
    keys: &[__m128i; 15],
    nr: usize,
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    by_rounds!(run::<FF3>(nr, dir; keys, c, a, b, dir));
}

#[inline]
#[target_feature(enable = "aes,sse4.1")]
fn run<const FF3: bool, const NR: usize, const ENC: bool>(
    rk: &[__m128i; 15],
    c: &Consts<'_>,
    a: &mut [u64],
    b: &mut [u64],
    dir: Direction,
) {
    assert!(a.len() == b.len() && a.len().is_multiple_of(W), "whole groups");
    let rounds = c.blocks.len();
    assert!(rounds.is_multiple_of(2) && rounds <= MAX_ROUNDS, "an even number of rounds, at most ten");
    // Each round's constant block ^ rk[0], in the order the rounds run
    // (copies of rk[0]: wiped below).
    let mut cbk = [_mm_setzero_si128(); MAX_ROUNDS];
    for (r, v) in cbk[..rounds].iter_mut().enumerate() {
        *v = _mm_xor_si128(const_block(c, dir.round(r, rounds)), rk[0]);
    }
    // The moduli of the first round's parity and the other; p that parity.
    let p = dir.round(0, rounds) % 2;
    let ks = [p, 1 - p].map(|i| Red { m: Mod64::new(c.m[i]), r: c.r[i] });
    let mut j = 0;
    while j + 2 * W <= a.len() {
        chunk::<2, FF3, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
        j += 2 * W;
    }
    if j < a.len() {
        chunk::<1, FF3, NR, ENC>(rk, &cbk[..rounds], &ks, &mut a[j..], &mut b[j..], p);
    }
    for v in &mut cbk {
        // SAFETY: `v` is a valid, aligned vector; volatile so the wipe stays.
        unsafe { core::ptr::write_volatile(v, _mm_setzero_si128()) };
    }
}

/// All rounds for `W`·G values of `a` and `b` (at least that many each),
/// as G groups run one after another in every round. `cbk` holds each
/// round's block constant ^ rk[0] in run order, `ks` the moduli of the
/// first round's parity and the other, `p` that parity (0: the first
/// round updates A).
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
    // x: the halves the first round updates; y: the others.
    let (xs, ys) = if p == 0 { (&mut *a, &mut *b) } else { (&mut *b, &mut *a) };
    let mut x = [[0u64; W]; G];
    let mut y = [[0u64; W]; G];
    for g in 0..G {
        x[g].copy_from_slice(&xs[g * W..(g + 1) * W]);
        y[g].copy_from_slice(&ys[g * W..(g + 1) * W]);
    }
    for pair in cbk.chunks_exact(2) {
        for (x, y) in x.iter_mut().zip(&y) {
            step::<W, FF3, NR, ENC>(rk, pair[0], &ks[0], y, x);
        }
        for (y, x) in y.iter_mut().zip(&x) {
            step::<W, FF3, NR, ENC>(rk, pair[1], &ks[1], x, y);
        }
    }
    for g in 0..G {
        xs[g * W..(g + 1) * W].copy_from_slice(&x[g]);
        ys[g * W..(g + 1) * W].copy_from_slice(&y[g]);
    }
}
