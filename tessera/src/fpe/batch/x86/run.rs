//! What every fused kernel is given for one run with one tweak.

use core::arch::x86_64::__m128i;

use crate::Direction;
use crate::fpe::batch::round::{Consts, Prefetch};

/// A fused kernel's work: every round for every value whose halves are `a` and `b` (as many, a
/// multiple of 8), enciphered under `keys` (`nr` rounds); `pf` asked for what the batch reads next.
pub(crate) struct FusedRun<'a, P: Prefetch> {
    pub(crate) keys: &'a [__m128i; 15],
    pub(crate) nr: usize,
    pub(crate) c: &'a Consts<'a>,
    pub(crate) a: &'a mut [u64],
    pub(crate) b: &'a mut [u64],
    pub(crate) dir: Direction,
    pub(crate) pf: &'a mut P,
}
