//! The Feistel round loop shared by FF1 and FF3, generic over the integer
//! width and over how a round's block is built and enciphered.

use super::num::{Mod64, Mod128};

/// Arithmetic modulo radix^m on one integer width.
pub(crate) trait Ring: Copy {
    type W: Copy;
    /// y mod m (y is the round function's output, read as an integer).
    fn reduce(&self, y: u128) -> Self::W;
    fn add(&self, a: Self::W, b: Self::W) -> Self::W;
    fn sub(&self, a: Self::W, b: Self::W) -> Self::W;
    fn widen(w: Self::W) -> u128;
}

/// `Mod64` for FF1 with d = 8: y is below 2^64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Y64(pub(crate) Mod64);

impl Ring for Y64 {
    type W = u64;
    #[inline(always)]
    fn reduce(&self, y: u128) -> u64 {
        self.0.rem64(y as u64)
    }
    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        self.0.add(a, b)
    }
    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        self.0.sub(a, b)
    }
    #[inline(always)]
    fn widen(w: u64) -> u128 {
        w as u128
    }
}

/// `Mod64` for FF1 with d = 12: y is below 2^96.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Y96(pub(crate) Mod64);

impl Ring for Y96 {
    type W = u64;
    #[inline(always)]
    fn reduce(&self, y: u128) -> u64 {
        self.0.reduce96(y)
    }
    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        self.0.add(a, b)
    }
    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        self.0.sub(a, b)
    }
    #[inline(always)]
    fn widen(w: u64) -> u128 {
        w as u128
    }
}

impl Ring for Mod64 {
    type W = u64;
    #[inline(always)]
    fn reduce(&self, y: u128) -> u64 {
        Mod64::reduce(self, y)
    }
    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        Mod64::add(self, a, b)
    }
    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        Mod64::sub(self, a, b)
    }
    #[inline(always)]
    fn widen(w: u64) -> u128 {
        w as u128
    }
}

impl Ring for Mod128 {
    type W = u128;
    #[inline(always)]
    fn reduce(&self, y: u128) -> u128 {
        Mod128::reduce(self, y)
    }
    #[inline(always)]
    fn add(&self, a: u128, b: u128) -> u128 {
        Mod128::add(self, a, b)
    }
    #[inline(always)]
    fn sub(&self, a: u128, b: u128) -> u128 {
        Mod128::sub(self, a, b)
    }
    #[inline(always)]
    fn widen(w: u128) -> u128 {
        w
    }
}

/// Runs `rounds` Feistel rounds on (A, B). `prf(i, x)` is round i's output
/// for the half x (NUM(B) when encrypting, NUM(A) when decrypting), already
/// read as the integer y. Round i works modulo `mu` when i is even, else `mv`.
#[inline(always)]
pub(crate) fn feistel<R: Ring>(
    prf: impl Fn(usize, u128) -> u128,
    rounds: usize,
    (mu, mv): (&R, &R),
    (mut a, mut b): (R::W, R::W),
    enc: bool,
) -> (R::W, R::W) {
    if enc {
        for i in 0..rounds {
            let m = if i % 2 == 0 { mu } else { mv };
            let y = prf(i, R::widen(b));
            (a, b) = (b, m.add(a, m.reduce(y)));
        }
    } else {
        for i in (0..rounds).rev() {
            let m = if i % 2 == 0 { mu } else { mv };
            let y = prf(i, R::widen(a));
            (a, b) = (m.sub(b, m.reduce(y)), a);
        }
    }
    (a, b)
}
