//! The round kernel of a batch, one [`Kernel`] per CPU level: per round [`Kernel::build`] writes one
//! AES block per value, AES enciphers them, [`Kernel::round`] updates the other halves as
//! `x ± y mod m`; [`Kernel::fused`] does all three in registers (`x86/fused*.rs`).

#![allow(unsafe_code)]

use super::round::{AesKeys, BatchMod, Consts, LIMB_MODULI, Layout, Prefetch, build_portable, round_scalar};
#[cfg(target_arch = "x86_64")]
use super::x86::fused_ni;
#[cfg(target_arch = "x86_64")]
use super::x86::fused_sse;
#[cfg(target_arch = "x86_64")]
use super::x86::fused256;
#[cfg(target_arch = "x86_64")]
use super::x86::fused512 as fused;
#[cfg(target_arch = "x86_64")]
use super::x86::round as x86;
#[cfg(target_arch = "x86_64")]
use super::x86::run::FusedRun;
use crate::Direction;
#[cfg(target_arch = "x86_64")]
use crate::cpu;

/// `$f::<FF3>(args)` with FF3 = `$ff3` as a constant.
#[cfg(target_arch = "x86_64")]
macro_rules! by_layout {
    ($ff3:expr, $($f:ident)::+($($arg:expr),*)) => {
        if $ff3 { $($f)::+::<true>($($arg),*) } else { $($f)::+::<false>($($arg),*) }
    };
}

/// One implementation of the round arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Scalar [`Mod64`](crate::fpe::num::Mod64) arithmetic; every CPU.
    Portable,
    /// [`Kernel::Portable`]'s arithmetic, and whole rounds in registers on AES-NI ([`Kernel::fused`]).
    #[cfg(target_arch = "x86_64")]
    AesNi(cpu::AesNi),
    /// Four values per 256-bit vector (moduli below 2^32).
    #[cfg(target_arch = "x86_64")]
    Avx2(cpu::Avx2),
    /// [`Kernel::Avx2`], and [`Kernel::AesNi`]'s whole rounds in registers.
    #[cfg(target_arch = "x86_64")]
    Avx2Ni(cpu::Avx2Aes),
    /// [`Kernel::Avx2`], and whole rounds in registers on 256-bit VAES.
    #[cfg(target_arch = "x86_64")]
    Vaes256(cpu::Vaes256),
    /// Eight values per 512-bit vector (AVX-512 F, DQ, BW and VL).
    #[cfg(target_arch = "x86_64")]
    Avx512(cpu::Avx512),
    /// [`Kernel::Avx512`], and whole rounds in registers with VAES-512 and IFMA ([`Kernel::fused`]).
    #[cfg(target_arch = "x86_64")]
    Vaes512(cpu::Vaes512Ifma),
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub(crate) fn detect() -> Self {
        *Self::available().last().expect("the portable kernel is always available")
    }

    /// Every kernel this CPU runs, slowest first.
    pub(crate) fn available() -> Vec<Self> {
        #[allow(unused_mut)]
        let mut all = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            all.extend(cpu::AesNi::get().map(Kernel::AesNi));
            all.extend(cpu::Avx2::get().map(Kernel::Avx2));
            all.extend(cpu::Avx2Aes::get().map(Kernel::Avx2Ni));
            all.extend(cpu::Vaes256::get().map(Kernel::Vaes256));
            all.extend(cpu::Avx512::get().map(Kernel::Avx512));
            all.extend(cpu::Vaes512Ifma::get().map(Kernel::Vaes512));
        }
        all
    }

    /// Whether this kernel runs on AVX-512 (F, DQ, BW and VL).
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn avx512(self) -> bool {
        matches!(self.arith(), Kernel::Avx512(_))
    }

    /// The kernel whose arithmetic this one uses for [`Kernel::build`] and [`Kernel::round`].
    fn arith(self) -> Self {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2Ni(t) => Kernel::Avx2(t.into()),
            #[cfg(target_arch = "x86_64")]
            Kernel::Vaes256(t) => Kernel::Avx2(t.into()),
            #[cfg(target_arch = "x86_64")]
            Kernel::Vaes512(t) => Kernel::Avx512(t.into()),
            #[cfg(target_arch = "x86_64")]
            Kernel::AesNi(_) => Kernel::Portable,
            k => k,
        }
    }

    /// Runs every round of `c` on the halves `a` and `b` (as many, a multiple of 8, each below its
    /// modulus) in registers and asks `pf` for all of it, if this kernel has a fused form for the layout
    /// and moduli; else returns false having done nothing.
    #[allow(unused_variables)]
    pub(crate) fn fused(
        self,
        keys: Option<&AesKeys>,
        c: &Consts<'_>,
        a: &mut [u64],
        b: &mut [u64],
        dir: Direction,
        pf: &mut impl Prefetch,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some(keys) = keys.filter(|_| c.vector || (c.fold && matches!(self, Kernel::Vaes512(_)))) {
            assert!(a.len() == b.len() && a.len().is_multiple_of(8), "whole vectors");
            let (rk, nr, ff3) = (keys.schedule(), keys.rounds(), c.layout == Layout::Ff3);
            let max = |ff1| if ff3 { fused::MAX_FF3 } else { ff1 };
            let work = FusedRun { keys: rk, nr, c, a, b, dir, pf: &mut *pf };
            // AVX2 without VAES runs the AES-NI kernels (faster there: BENCHMARKS.md).
            let fused = match self {
                Kernel::Avx2Ni(t) => Kernel::AesNi(t.into()),
                k => k,
            };
            // SAFETY: each kernel is called with the token its `Kernel` holds, proof of the features it is
            // compiled for; the lengths were checked above, the moduli in each arm.
            unsafe {
                match fused {
                    // Only this kernel is given the folded moduli.
                    Kernel::Vaes512(t) if c.below(max(fused::MAX_FF1_512)) => {
                        by_layout!(ff3, fused::rounds_vaes512(t, work))
                    }
                    // FF1 only (FF3 measured slower); the 32-bit update needs moduli up to MAX_NARROW.
                    Kernel::AesNi(t) if !ff3 && c.below(fused256::MAX_NARROW) => fused_sse::rounds_sse41(t, work),
                    // FF3's limb fold needs moduli below 2^30 (FF1's are far below 2^64 / 3).
                    Kernel::AesNi(t) if !ff3 || c.below(LIMB_MODULI - 1) => {
                        by_layout!(ff3, fused_ni::rounds_aesni(t, work))
                    }
                    Kernel::Vaes256(t) if c.below(max(u32::MAX as u64)) => {
                        by_layout!(ff3, fused256::rounds_vaes256(t, work))
                    }
                    _ => return false,
                }
            }
            pf.rest();
            return true;
        }
        false
    }

    /// For each `j < x.len()`: `blocks[j]` = `bases[j] ^ term` with `x[j]` xored in where `layout` puts the
    /// half. `bases` and `blocks` must be at least as long as `x`.
    pub(crate) fn build(self, layout: Layout, bases: &[[u64; 2]], term: [u64; 2], x: &[u64], blocks: &mut [[u8; 16]]) {
        // SAFETY: each kernel is called with the token its `Kernel` holds,
        // proof of the features it is compiled for.
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_unsafe))]
        unsafe {
            match self.arith() {
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx512(t) => x86::build_avx512(t, layout, bases, term, x, blocks),
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx2(t) => x86::build_avx2(t, layout, bases, term, x, blocks),
                _ => build_portable(layout, bases, term, x, blocks),
            }
        }
    }

    /// For each `j < x.len()`: `y` = `blocks[j]` read as `layout` says; `x[j] = (x[j] + y) mod m` when
    /// encrypting, else `(x[j] - y) mod m`. Every `x[j]` must be below m; `blocks` at least as long as `x`.
    pub(crate) fn round(self, m: &BatchMod, layout: Layout, blocks: &[[u8; 16]], x: &mut [u64], dir: Direction) {
        assert!(blocks.len() >= x.len(), "one block per value");
        // The values a vector kernel took (whole vectors), the rest scalar.
        #[cfg(not(target_arch = "x86_64"))]
        let whole = 0;
        #[cfg(target_arch = "x86_64")]
        let whole = {
            let (mm, fits, ff3) = (m.m.modulus(), m.vector(layout), layout == Layout::Ff3);
            // SAFETY: each kernel is called with the token its `Kernel` holds, proof of the features it is
            // compiled for; the lengths were checked above.
            unsafe {
                match self.arith() {
                    Kernel::Avx512(t) if fits => by_layout!(ff3, x86::round_avx512(t, mm, m.inv, blocks, x, dir)),
                    Kernel::Avx2(t) if fits && mm >> 32 == 0 => {
                        by_layout!(ff3, x86::round_avx2(t, mm as u32, m.inv, blocks, x, dir))
                    }
                    _ => 0,
                }
            }
        };
        round_scalar(m, layout, &blocks[whole..], &mut x[whole..], dir)
    }
}

#[cfg(test)]
#[path = "kernel_tests.rs"]
mod tests;
