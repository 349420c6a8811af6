//! Vector instructions written out where LLVM would rewrite their intrinsics into slower code.

#![allow(unsafe_code)]

use core::arch::x86_64::__m256i;

/// `$op r, a, b` on `$reg` registers (`ymm_reg`: `__m256i`, `zmm_reg`: `__m512i`).
macro_rules! vec_op {
    ($reg:ident: $ty:ty, $op:literal, $a:expr, $b:expr) => {{
        let r: $ty;
        // SAFETY: one instruction of the features the calling function enables, on registers only: no
        // memory, stack or flags.
        unsafe {
            core::arch::asm!(concat!($op, " {r}, {a}, {b}"), r = lateout($reg) r, a = in($reg) $a,
                b = in($reg) $b, options(pure, nomem, nostack, preserves_flags));
        }
        r
    }};
}
pub(crate) use vec_op;

/// `vpmuludq` (LLVM widens `_mm256_mul_epu32` into two multiplies where only the low 32 bits are used).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn mul_lo32(a: __m256i, b: __m256i) -> __m256i {
    vec_op!(ymm_reg: __m256i, "vpmuludq", a, b)
}
