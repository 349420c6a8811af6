//! The Feistel round loop shared by FF1 and FF3, generic over the integer width and the round function.

use super::keyed::Keyed;
use super::num::{Mod64, Mod128};
use crate::Direction;

/// One length's moduli radix^u and radix^v: u64 arithmetic when both are below 2^64, else u128.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arith {
    N64 { mu: Mod64, mv: Mod64 },
    N128 { mu: Mod128, mv: Mod128 },
}

impl Arith {
    /// For the moduli `pu` and `pv`.
    pub(crate) fn new(pu: u128, pv: u128) -> Self {
        match (u64::try_from(pu), u64::try_from(pv)) {
            (Ok(mu), Ok(mv)) => Arith::N64 { mu: Mod64::new(mu), mv: Mod64::new(mv) },
            _ => Arith::N128 { mu: Mod128::new(pu), mv: Mod128::new(pv) },
        }
    }
}

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

/// Runs `rounds` Feistel rounds on (A, B). `prf(i, x)` is round i's y for the half x (NUM(B) when
/// encrypting, NUM(A) when decrypting); round i works modulo `mu` when i is even, else `mv`.
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

/// [`feistel`] with round i's y from enciphering `block(i, x)` under `keyed`, read big-endian when
/// `BE` (FF1) or little-endian (FF3's REVB), shifted right by `SHY`.
#[inline(always)]
pub(crate) fn keyed_feistel<R: Ring, const BE: bool, const SHY: u32>(
    keyed: &Keyed,
    block: impl Fn(usize, u128) -> u128,
    rounds: usize,
    m: (&R, &R),
    ab: (R::W, R::W),
    dir: Direction,
) -> (R::W, R::W) {
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = keyed.ni() {
        let y = |ni: &crate::aes::ni::Ni<'_>, x| if BE { ni.encrypt_be(x) } else { ni.encrypt_le(x) };
        return k.run(|ni| feistel(|i, x| y(ni, block(i, x)) >> SHY, rounds, m, ab, dir));
    }
    let prf = |i: usize, x: u128| {
        let mut blk = if BE { block(i, x).to_be_bytes() } else { block(i, x).to_le_bytes() };
        keyed.aes.encrypt_block(&mut blk);
        (if BE { u128::from_be_bytes(blk) } else { u128::from_le_bytes(blk) }) >> SHY
    };
    feistel(prf, rounds, m, ab, dir)
}
