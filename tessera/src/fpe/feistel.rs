//! The Feistel round loop shared by FF1 and FF3, generic over the integer
//! width and over how a round's block is built and enciphered.

use super::num::{Mod64, Mod128};
use crate::Direction;

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

/// `Mod64` for FF1 with d = 12: y is below 2^96.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Y96(pub(crate) Mod64);

/// The u64 rings differ only in how they reduce y.
macro_rules! ring64 {
    ($t:ty, |$m:ident, $y:ident| $reduce:expr) => {
        impl Ring for $t {
            type W = u64;
            #[inline(always)]
            fn reduce(&self, $y: u128) -> u64 {
                let $m = self.m64();
                $reduce
            }
            #[inline(always)]
            fn add(&self, a: u64, b: u64) -> u64 {
                self.m64().add(a, b)
            }
            #[inline(always)]
            fn sub(&self, a: u64, b: u64) -> u64 {
                self.m64().sub(a, b)
            }
            #[inline(always)]
            fn widen(w: u64) -> u128 {
                w as u128
            }
        }
    };
}

/// Access to the underlying [`Mod64`] of the u64 rings.
trait HasMod64 {
    fn m64(&self) -> &Mod64;
}
impl HasMod64 for Y64 {
    #[inline(always)]
    fn m64(&self) -> &Mod64 {
        &self.0
    }
}
impl HasMod64 for Y96 {
    #[inline(always)]
    fn m64(&self) -> &Mod64 {
        &self.0
    }
}
impl HasMod64 for Mod64 {
    #[inline(always)]
    fn m64(&self) -> &Mod64 {
        self
    }
}

ring64!(Y64, |m, y| m.rem64(y as u64));
ring64!(Y96, |m, y| m.reduce96(y));
ring64!(Mod64, |m, y| m.reduce(y));

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
    dir: Direction,
) -> (R::W, R::W) {
    if dir.is_encrypt() {
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
