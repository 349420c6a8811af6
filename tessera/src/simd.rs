//! Unaligned loads and stores of x86-64 vectors from and to arrays of
//! plain integers, bounds-checked, so kernels move data without `unsafe`
//! (its own file so `scripts/check-ct` can compile the kernels that use it).
#![allow(unsafe_code)]

use core::arch::x86_64::{__m128i, __m256i, __m512i};
use core::mem::{size_of, size_of_val};

/// Types with no padding for which every bit pattern is a valid value.
///
/// # Safety
/// Implemented only for the integer types and integer vectors below.
pub(crate) unsafe trait Plain: Copy {}

// SAFETY: integers and integer vectors: no padding, every bit pattern valid.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for u16 {}
// SAFETY: as above.
unsafe impl Plain for u32 {}
// SAFETY: as above.
unsafe impl Plain for u64 {}
// SAFETY: as above.
unsafe impl Plain for __m128i {}
// SAFETY: as above.
unsafe impl Plain for __m256i {}
// SAFETY: as above.
unsafe impl Plain for __m512i {}
// SAFETY: arrays of plain types: no padding between elements.
unsafe impl<T: Plain, const N: usize> Plain for [T; N] {}

/// The vector `V` in the first bytes of `src` (panics if `src` is shorter).
/// Inlined into its caller, where it is one unaligned vector load.
#[inline(always)]
pub(crate) fn load<V: Plain, T: Plain>(src: &[T]) -> V {
    assert!(size_of_val(src) >= size_of::<V>());
    // SAFETY: `src` holds at least `size_of::<V>()` readable bytes (checked),
    // unaligned reads are allowed, and every bit pattern is a valid `V`.
    unsafe { core::ptr::read_unaligned(src.as_ptr().cast::<V>()) }
}

/// Writes the vector `v` over the first bytes of `dst` (panics if `dst` is
/// shorter). Inlined into its caller, where it is one unaligned vector store.
#[inline(always)]
pub(crate) fn store<V: Plain, T: Plain>(dst: &mut [T], v: V) {
    assert!(size_of_val(dst) >= size_of::<V>());
    // SAFETY: `dst` holds at least `size_of::<V>()` writable bytes (checked),
    // unaligned writes are allowed, and any bytes are valid `T` values.
    unsafe { core::ptr::write_unaligned(dst.as_mut_ptr().cast::<V>(), v) }
}

/// The bits of `x` as another plain type of the same size.
#[inline(always)]
pub(crate) fn cast<A: Plain, B: Plain>(x: A) -> B {
    const { assert!(size_of::<A>() == size_of::<B>()) };
    // SAFETY: same size (checked at compile time), every bit pattern is a valid `B`.
    unsafe { core::mem::transmute_copy(&x) }
}
