//! Wiping stack copies held in x86-64 vector types (its own file so
//! `scripts/check-ct` can compile the kernels that call it on its own).
#![allow(unsafe_code)]

use core::arch::x86_64::{__m128i, __m256i, __m512i};
use core::sync::atomic::{Ordering, compiler_fence};

/// Vector types whose all-zero bit pattern is a valid value, for
/// [`wipe_vectors`].
pub(crate) trait Vector: Copy {}
impl Vector for __m128i {}
impl Vector for __m256i {}
impl Vector for __m512i {}

/// Zeroes every vector of `v` (stack copies of round keys, or of constants
/// XORed with round key 0) with one volatile store each, which the
/// optimiser keeps. Inlined into its caller, so the store is as wide as the
/// caller's target features allow.
#[inline(always)]
pub(crate) fn wipe_vectors<V: Vector>(v: &mut [V]) {
    for x in v {
        // SAFETY: `x` is a valid, aligned `V`, and all zeros is a valid `V`
        // (the `Vector` types are plain integer vectors).
        unsafe { core::ptr::write_volatile(x, core::mem::zeroed()) };
    }
    compiler_fence(Ordering::SeqCst);
}
