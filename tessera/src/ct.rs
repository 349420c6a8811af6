//! Masks for branch-free selection on secret values.
//!
//! `if`, `select_unpredictable` and even `x & (0 - c as u64)` may compile to
//! a conditional jump: LLVM sees that the mask is 0 or all ones and is free
//! to branch on it (rustc 1.95 did, for the u128 and u64 subtractions). An
//! empty `asm!` that "may change" the mask hides that fact at no cost: no
//! instruction is emitted. `scripts/check-ct` checks the compiled kernels.
#![allow(unsafe_code)]

/// All ones when `c`, else zero, opaque to the optimiser.
#[inline(always)]
pub(crate) fn mask64(c: bool) -> u64 {
    let mut m = (c as u64).wrapping_neg();
    barrier(&mut m);
    m
}

/// [`mask64`] for u128.
#[inline(always)]
pub(crate) fn mask128(c: bool) -> u128 {
    let m = mask64(c);
    ((m as u128) << 64) | m as u128
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86", target_arch = "aarch64", target_arch = "arm"))]
#[inline(always)]
fn barrier(m: &mut u64) {
    #[cfg(any(target_arch = "x86", target_arch = "arm"))]
    {
        // 32-bit targets: the u64 lives in two registers; hide both halves.
        let (mut lo, mut hi) = (*m as u32, (*m >> 32) as u32);
        // SAFETY: an empty instruction string: no code is emitted, no memory,
        // stack or flag is touched; only the optimiser's knowledge is lost.
        unsafe {
            core::arch::asm!("/* {0} {1} */", inout(reg) lo, inout(reg) hi, options(pure, nomem, nostack, preserves_flags))
        };
        *m = (hi as u64) << 32 | lo as u64;
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "arm")))]
    // SAFETY: an empty instruction string: no code is emitted, no memory,
    // stack or flag is touched; only the optimiser's knowledge is lost.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) * m, options(pure, nomem, nostack, preserves_flags))
    };
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "x86", target_arch = "aarch64", target_arch = "arm")))]
#[inline(always)]
fn barrier(m: &mut u64) {
    *m = core::hint::black_box(*m);
}

#[cfg(test)]
mod tests {
    #[test]
    fn masks() {
        assert_eq!(super::mask64(true), u64::MAX);
        assert_eq!(super::mask64(false), 0);
        assert_eq!(super::mask128(true), u128::MAX);
        assert_eq!(super::mask128(false), 0);
    }
}
