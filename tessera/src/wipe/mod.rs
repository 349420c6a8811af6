//! Overwriting memory that held key material, in a way the optimiser keeps.
#![allow(unsafe_code)]

use core::sync::atomic::{Ordering, compiler_fence};

/// Sets every byte of `*v` to zero with volatile writes: eight bytes at a
/// time where `T` is aligned for it (a key schedule's few hundred bytes
/// in a few dozen stores), the rest one at a time.
///
/// # Safety
/// `v` must be aligned for `T` and valid for writes, and `*v` must hold no value that is used
/// again: callers pass dropped storage as `MaybeUninit`.
pub(crate) unsafe fn wipe<T>(v: *mut T) {
    let p = v.cast::<u8>();
    let words = if align_of::<T>() >= align_of::<u64>() { size_of::<T>() / 8 } else { 0 };
    // SAFETY: p..p+size_of::<T>() is `*v`, valid for writes (caller); with
    // `words` > 0, `p` is aligned for u64 (so is `T`) and the words lie in it.
    unsafe {
        for i in 0..words {
            core::ptr::write_volatile(p.cast::<u64>().add(i), 0);
        }
        for i in 8 * words..size_of::<T>() {
            core::ptr::write_volatile(p.add(i), 0);
        }
    }
    compiler_fence(Ordering::SeqCst);
}

#[cfg(target_arch = "x86_64")]
mod vectors;
#[cfg(target_arch = "x86_64")]
pub(crate) use vectors::wipe_vectors;

/// A value whose every byte is overwritten after it is dropped: for fields
/// such as `Option<KeySchedule>`, where `None` (or a smaller variant) leaves
/// bytes unused that moves fill with stale stack contents, key material
/// included, and that the inner type's own zeroization never reaches.
pub(crate) struct Wiped<T>(core::mem::ManuallyDrop<T>);

impl<T> Wiped<T> {
    pub(crate) fn new(v: T) -> Self {
        Wiped(core::mem::ManuallyDrop::new(v))
    }
}

impl<T: Clone> Clone for Wiped<T> {
    fn clone(&self) -> Self {
        Wiped::new(T::clone(self))
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for Wiped<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        T::fmt(self, f)
    }
}

impl<T> core::ops::Deref for Wiped<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> core::ops::DerefMut for Wiped<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T> Drop for Wiped<T> {
    fn drop(&mut self) {
        // SAFETY: the value is dropped exactly once, here, and the
        // ManuallyDrop around it is never read again, so its bytes may be
        // overwritten.
        unsafe {
            core::mem::ManuallyDrop::drop(&mut self.0);
            wipe((&mut self.0 as *mut core::mem::ManuallyDrop<T>).cast::<core::mem::MaybeUninit<T>>());
        }
    }
}

/// Makes room for `extra` more bytes in `v` without leaving a copy of what
/// it holds in freed memory: when it must grow, the contents move to a new
/// allocation (at least twice as large, as `Vec` would) and the old one is
/// wiped before it is freed.
pub(crate) fn reserve_wiped(v: &mut Vec<u8>, extra: usize) {
    use zeroize::Zeroize;
    let needed = v.len().saturating_add(extra);
    if needed > v.capacity() {
        let mut grown = Vec::with_capacity(needed.max(v.capacity().saturating_mul(2)));
        grown.extend_from_slice(v);
        v.zeroize();
        *v = grown;
    }
}
