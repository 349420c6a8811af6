//! Native-integer arithmetic for the Feistel rounds: modular reduction by a fixed radix power with a
//! precomputed reciprocal, and numeral <-> integer conversion without per-digit hardware division.

// Corrections are masked in (crate::ct) rather than chosen by `if`: the
// values are secret, and `scripts/check-ct` checks the compiled code.
use crate::ct::{mask64, mask128};

/// The largest radix (alphabet size) FPE accepts: numerals are `u16`.
///
/// ```
/// use tessera::fpe::{FF1, MAX_RADIX};
/// assert!(FF1::with_radix(&[0u8; 16], MAX_RADIX).is_ok());
/// assert!(FF1::with_radix(&[0u8; 16], MAX_RADIX + 1).is_err());
/// ```
pub const MAX_RADIX: u32 = 1 << 16;

/// 2^32, 2^64 and 2^96 mod `m` (public: a radix power), the weights by which FF3's y folds below 2^64.
pub(crate) fn limb_residues(m: u64) -> [u64; 3] {
    [32, 64, 96].map(|e| ((1u128 << e) % m as u128) as u64)
}

/// Reduction modulo a fixed `m` in `2..2^64` by Möller–Granlund "division by invariant integers":
/// two multiplications and two masked corrections.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mod64 {
    m: u64,
    /// `m` shifted left so its top bit is set.
    d: u64,
    shift: u32,
    /// floor((2^128 - 1) / d) - 2^64.
    v: u64,
    /// 2^64 mod m.
    r64: u64,
    /// floor((2^64 - 1) / m), for Barrett reduction of 64-bit values.
    inv: u64,
}

impl Mod64 {
    pub(crate) fn new(m: u64) -> Self {
        debug_assert!(m >= 2);
        let shift = m.leading_zeros();
        let d = m << shift;
        let v = (u128::MAX / d as u128 - (1u128 << 64)) as u64;
        let r64 = ((1u128 << 64) % m as u128) as u64;
        Mod64 { m, d, shift, v, r64, inv: u64::MAX / m }
    }

    #[inline(always)]
    pub(crate) fn modulus(&self) -> u64 {
        self.m
    }

    /// Quotient and remainder of (u1 * 2^64 + u0) by d, for normalized inputs with u1 < d.
    #[inline(always)]
    fn divrem_norm(&self, u1: u64, u0: u64) -> (u64, u64) {
        let q = (self.v as u128 * u1 as u128).wrapping_add((((u1 as u128) + 1) << 64) | u0 as u128);
        let (mut q1, q0) = ((q >> 64) as u64, q as u64);
        let mut r = u0.wrapping_sub(q1.wrapping_mul(self.d));
        let c1 = r > q0;
        q1 = q1.wrapping_sub(c1 as u64);
        r = r.wrapping_add(self.d & mask64(c1));
        let c2 = r >= self.d;
        q1 = q1.wrapping_add(c2 as u64);
        (q1, r.wrapping_sub(self.d & mask64(c2)))
    }

    /// Quotient and remainder of `hi * 2^64 + lo` by m, for hi < m.
    #[inline(always)]
    fn divrem2(&self, hi: u64, lo: u64) -> (u64, u64) {
        let s = self.shift;
        // lo >> (64 - s) without the out-of-range shift (and branch) at s == 0.
        let carry = (lo >> 1) >> (63 - s);
        let (q, r) = self.divrem_norm((hi << s) | carry, lo << s);
        (q, r >> s)
    }

    /// Quotient and remainder of a 64-bit `x` by m.
    #[inline(always)]
    pub(crate) fn divrem(&self, x: u64) -> (u64, u64) {
        self.divrem2(0, x)
    }

    /// `y mod m` for a 64-bit `y` by Barrett reduction: the estimate mulhi(y, floor((2^64-1)/m)) is at
    /// most one below the quotient, so one correction finishes it.
    #[inline(always)]
    pub(crate) fn rem64(&self, y: u64) -> u64 {
        let q = ((y as u128 * self.inv as u128) >> 64) as u64;
        let r = y - q * self.m;
        r.wrapping_sub(self.m & mask64(r >= self.m))
    }

    /// `y mod m` for `y < 2^96` (FF1's y on the u64 path): one fold by 2^64 mod m, then one reduction.
    #[inline(always)]
    pub(crate) fn reduce96(&self, y: u128) -> u64 {
        debug_assert!(y >> 96 == 0);
        let t = ((y >> 64) as u64 as u128) * self.r64 as u128 + (y as u64) as u128;
        // t < 2^32 * m + 2^64, so its high word is below m.
        self.divrem2((t >> 64) as u64, t as u64).1
    }

    /// `y mod m` for any 128-bit `y`.
    #[inline(always)]
    pub(crate) fn reduce(&self, y: u128) -> u64 {
        let hi = self.rem64((y >> 64) as u64);
        self.divrem2(hi, y as u64).1
    }

    /// `(a + b) mod m` for `a, b < m`.
    #[inline(always)]
    pub(crate) fn add(&self, a: u64, b: u64) -> u64 {
        let (s, o) = a.overflowing_add(b);
        s.wrapping_sub(self.m & mask64(o | (s >= self.m)))
    }

    /// `(a - b) mod m` for `a, b < m`.
    #[inline(always)]
    pub(crate) fn sub(&self, a: u64, b: u64) -> u64 {
        let (s, o) = a.overflowing_sub(b);
        s.wrapping_add(self.m & mask64(o))
    }
}

/// Reduction modulo a fixed `m` in `2..=2^96` on `u128` without an operand-timed division: moduli
/// below 2^64 through [`Mod64`], larger ones by Möller–Granlund's 3-by-2 division.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mod128 {
    m: u128,
    /// Set when m < 2^64.
    small: Option<Mod64>,
    /// m shifted left so its top bit is set, and the shift (at most 63 here).
    d: u128,
    shift: u32,
    /// floor((2^192 - 1) / d) - 2^64.
    v: u64,
}

impl Mod128 {
    pub(crate) fn new(m: u128) -> Self {
        debug_assert!((2..=1u128 << 96).contains(&m));
        if m >> 64 == 0 {
            return Mod128 { m, small: Some(Mod64::new(m as u64)), d: 0, shift: 0, v: 0 };
        }
        let shift = m.leading_zeros();
        let d = m << shift;
        // (2^192 - 1) = (2^128 - 1) * 2^64 + (2^64 - 1): the first quotient
        // digit is 1 (2^127 <= d < 2^128), the next 64 come by long division.
        let mut r = u128::MAX - d;
        let mut v = 0u64;
        for i in (0..64).rev() {
            let top = r >> 127;
            r = (r << 1) | 1;
            if top == 1 || r >= d {
                r = r.wrapping_sub(d);
                v |= 1 << i;
            }
        }
        Mod128 { m, small: None, d, shift, v }
    }

    /// `y mod m`: constant time in `y`.
    #[inline(always)]
    pub(crate) fn reduce(&self, y: u128) -> u128 {
        match &self.small {
            Some(small) => small.reduce(y) as u128,
            None => self.reduce_wide(y),
        }
    }

    /// `y mod m` for m >= 2^64 by one 3-by-2 division step.
    #[inline(always)]
    pub(crate) fn reduce_wide(&self, y: u128) -> u128 {
        let s = self.shift;
        // 2^64 <= m <= 2^96, so 31 <= s <= 63: y << s as three 64-bit
        // digits u2:u1:u0, with u2:u1 < 2^(64+s) <= d.
        debug_assert!((31..=63).contains(&s));
        let u2 = (y >> (128 - s)) as u64;
        let (u1, u0) = (((y << s) >> 64) as u64, (y << s) as u64);
        let (d1, d0) = ((self.d >> 64) as u64, self.d as u64);
        let q = (self.v as u128 * u2 as u128).wrapping_add(((u2 as u128) << 64) | u1 as u128);
        let (q1, q0) = ((q >> 64) as u64, q as u64);
        let r1 = u1.wrapping_sub(q1.wrapping_mul(d1));
        let t = d0 as u128 * q1 as u128;
        let mut r = (((r1 as u128) << 64) | u0 as u128).wrapping_sub(t).wrapping_sub(self.d);
        r = r.wrapping_add(self.d & mask128((r >> 64) as u64 >= q0));
        r = r.wrapping_sub(self.d & mask128(r >= self.d));
        r >> s
    }

    /// `(a + b) mod m` for `a, b < m`.
    #[inline(always)]
    pub(crate) fn add(&self, a: u128, b: u128) -> u128 {
        // m <= 2^96, so the sum cannot overflow.
        let s = a + b;
        s.wrapping_sub(self.m & mask128(s >= self.m))
    }

    /// `(a - b) mod m` for `a, b < m`.
    #[inline(always)]
    pub(crate) fn sub(&self, a: u128, b: u128) -> u128 {
        let (s, o) = a.overflowing_sub(b);
        s.wrapping_add(self.m & mask128(o))
    }
}

/// Conversions between numeral strings and integers for one radix.
///
/// Digits come from integers by dividing by a chunk `radix^k < 2^32` with [`Mod64`] reciprocals,
/// then by a 64-bit multiply-high per digit of a chunk (exact for 32-bit dividends).
#[derive(Clone, Debug)]
pub(crate) struct Radix {
    pub(crate) radix: u32,
    /// ceil(2^64 / radix): q = mulhi(x, magic) is exact for x < 2^32.
    magic: u64,
    /// Numerals per chunk: the largest k with radix^k < 2^32.
    k: u32,
    /// radix^k.
    chunk: u64,
    chunk_mod: Mod64,
    /// The most numerals whose values all fit a u64: radix^fits64 <= 2^64.
    fits64: u32,
    /// For radix <= 64: ceil(2^64 / radix^2) and the two digits of every value below radix^2.
    pair_magic: u64,
    pairs: Vec<[u16; 2]>,
}

impl Radix {
    pub(crate) fn new(radix: u32) -> Self {
        debug_assert!((2..=MAX_RADIX).contains(&radix));
        let magic = (u64::MAX / radix as u64).wrapping_add(1);
        let (mut k, mut chunk) = (0u32, 1u64);
        while chunk * radix as u64 <= u32::MAX as u64 {
            chunk *= radix as u64;
            k += 1;
        }
        let (pair_magic, pairs) = if radix <= 64 {
            let r2 = (radix * radix) as u64;
            (
                (u64::MAX / r2).wrapping_add(1),
                (0..radix * radix).map(|v| [(v / radix) as u16, (v % radix) as u16]).collect(),
            )
        } else {
            (0, Vec::new())
        };
        let mut fits64 = 0u32;
        while (radix as u128).pow(fits64 + 1) <= 1 << 64 {
            fits64 += 1;
        }
        Radix { radix, magic, k, chunk, chunk_mod: Mod64::new(chunk), fits64, pair_magic, pairs }
    }

    /// Splits `x < 2^32` into quotient and remainder by the radix.
    #[inline(always)]
    fn divrem_small(&self, x: u64) -> (u64, u16) {
        let q = if self.radix.is_power_of_two() {
            x >> self.radix.trailing_zeros()
        } else {
            ((self.magic as u128 * x as u128) >> 64) as u64
        };
        (q, (x - q * self.radix as u64) as u16)
    }

    /// `radix^n` if it fits in a `u128`.
    pub(crate) fn pow(&self, n: usize) -> Option<u128> {
        let mut p: u128 = 1;
        for _ in 0..n {
            p = p.checked_mul(self.radix as u128)?;
        }
        Some(p)
    }

    /// NUM_radix(x), first numeral most significant.
    #[inline(always)]
    pub(crate) fn num_be64(&self, x: &[u16]) -> u64 {
        x.iter().fold(0u64, |acc, &d| acc.wrapping_mul(self.radix as u64).wrapping_add(d as u64))
    }

    /// NUM_radix(REV(x)), last numeral most significant.
    #[inline(always)]
    pub(crate) fn num_le64(&self, x: &[u16]) -> u64 {
        x.iter().rev().fold(0u64, |acc, &d| acc.wrapping_mul(self.radix as u64).wrapping_add(d as u64))
    }

    /// NUM_radix(x) as u128.
    #[inline]
    pub(crate) fn num_be128(&self, x: &[u16]) -> u128 {
        x.iter().fold(0u128, |acc, &d| acc.wrapping_mul(self.radix as u128).wrapping_add(d as u128))
    }

    /// NUM_radix(REV(x)) as u128.
    #[inline]
    pub(crate) fn num_le128(&self, x: &[u16]) -> u128 {
        x.iter().rev().fold(0u128, |acc, &d| acc.wrapping_mul(self.radix as u128).wrapping_add(d as u128))
    }

    /// Writes the low `m` digits of `x` (STR^m_radix) through `put(index, digit)`, index m - 1 least
    /// significant.
    #[inline(always)]
    fn digits64(&self, mut x: u64, m: usize, mut put: impl FnMut(usize, u16)) {
        // From the least significant down, a chunk of k at a time; two digits per step with the pair table.
        let mut pos = m;
        while pos > 0 {
            let (q, mut r) = if pos > self.k as usize { self.chunk_mod.divrem(x) } else { (0, x) };
            let mut take = pos.min(self.k as usize);
            if !self.pairs.is_empty() {
                while take >= 2 {
                    let q2 = ((self.pair_magic as u128 * r as u128) >> 64) as u64;
                    let [hi, lo] = self.pairs[(r - q2 * (self.radix * self.radix) as u64) as usize];
                    r = q2;
                    put(pos - 1, lo);
                    put(pos - 2, hi);
                    pos -= 2;
                    take -= 2;
                }
            }
            for _ in 0..take {
                let (q2, d) = self.divrem_small(r);
                r = q2;
                pos -= 1;
                put(pos, d);
            }
            x = q;
        }
    }

    /// STR^m_radix(x) into `out` (first numeral most significant).
    #[inline(always)]
    pub(crate) fn str_be64(&self, x: u64, out: &mut [u16]) {
        let m = out.len();
        self.digits64(x, m, |i, d| out[i] = d);
    }

    /// REV(STR^m_radix(x)) into `out` (first numeral least significant).
    #[inline(always)]
    pub(crate) fn str_le64(&self, x: u64, out: &mut [u16]) {
        let m = out.len();
        self.digits64(x, m, |i, d| out[m - 1 - i] = d);
    }

    /// STR^m_radix for u128 values (first numeral most significant), in steps that depend only on `out.len()`.
    pub(crate) fn str_be128(&self, mut x: u128, out: &mut [u16]) {
        let k = self.k as usize;
        let mut i = out.len();
        // Peel chunks of k numerals off the low end until the rest (below
        // radix^i <= 2^64) fits a u64; x / radix^k is two 2-by-1 divisions.
        while i > self.fits64 as usize {
            let (qh, rh) = self.chunk_mod.divrem((x >> 64) as u64);
            let (ql, r) = self.chunk_mod.divrem2(rh, x as u64);
            x = ((qh as u128) << 64) | ql as u128;
            self.str_be64(r, &mut out[i - k..i]);
            i -= k;
        }
        self.str_be64(x as u64, &mut out[..i]);
    }

    /// REV(STR^m_radix(x)) for u128 values.
    pub(crate) fn str_le128(&self, x: u128, out: &mut [u16]) {
        self.str_be128(x, out);
        out.reverse();
    }

    /// Numerals per 32-bit chunk and the chunk value radix^k.
    pub(crate) fn chunk(&self) -> (usize, u64) {
        (self.k as usize, self.chunk)
    }
}

#[cfg(test)]
#[path = "num_tests.rs"]
mod tests;
