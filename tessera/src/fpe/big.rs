//! FF1 beyond native integers: a fixed-capacity, allocation-free path.
//!
//! Numbers below radix^m are held as little-endian limbs in base K = radix^k (the largest power below
//! 2^32), the top limb modulo radix^(m mod k): reduction modulo radix^m is truncation, and binary <->
//! base K is a multiply or divide by K per limb, with a precomputed reciprocal.

use super::num::{Mod64, Radix};
use crate::Direction;
use crate::aes::{Aes, Block};
use crate::ct::mask64;

/// Bits of radix^v the big path supports (FF1's longest value follows from it).
pub(crate) const MAX_V_BITS: usize = 4000;
const MAX_B: usize = MAX_V_BITS / 8 + 2;
/// u32 limbs of a binary number up to d = 4*ceil(b/4)+4 bytes.
const BIN: usize = MAX_B / 4 + 4;
/// Base-K limbs: every K holds at least 16 bits (K = radix 65536; every other radix has K >= 2^21).
const KL: usize = MAX_V_BITS / 16 + 4;
/// Room for the last partial tweak block, \[i\] and NUM(B).
const TAIL: usize = (16 + 1 + MAX_B).div_ceil(16) * 16;
const SBLOCKS: usize = (MAX_B + 8).div_ceil(16);

/// A number below radix^m in mixed base K.
struct Limbs {
    l: [u64; KL],
    len: usize,
}

/// Shape of a number of m numerals: limb count, top-limb modulus.
#[derive(Clone, Copy)]
struct Shape {
    len: usize,
    top: Mod64,
}

struct Ctx<'a> {
    rx: &'a Radix,
    k: usize,
    kmod: Mod64,
}

impl Ctx<'_> {
    fn shape(&self, m: usize) -> Shape {
        let len = m.div_ceil(self.k);
        let top_digits = m - self.k * (len - 1);
        let top = self.rx.pow(top_digits).expect("top limb below 2^32") as u64;
        Shape { len, top: Mod64::new(top) }
    }

    fn limbs_of(&self, x: &[u16], out: &mut Limbs) {
        let m = x.len();
        out.len = m.div_ceil(self.k);
        for j in 0..out.len {
            let hi = m - self.k * j;
            let lo = hi.saturating_sub(self.k);
            out.l[j] = self.rx.num_be64(&x[lo..hi]);
        }
    }

    fn numerals_of(&self, a: &Limbs, x: &mut [u16]) {
        let m = x.len();
        for j in 0..a.len {
            let hi = m - self.k * j;
            let lo = hi.saturating_sub(self.k);
            self.rx.str_be64(a.l[j], &mut x[lo..hi]);
        }
    }

    /// Writes NUM(a) as `out.len()` big-endian bytes, in work that depends only on the limb count.
    fn to_bytes(&self, a: &Limbs, out: &mut [u8]) {
        let mut bin = [0u32; BIN];
        // bin < 2^bits, a bound that grows by ceil(log2 K) bits per step.
        let kbits = 64 - (self.kmod.modulus() - 1).leading_zeros() as usize;
        let mut bits = 0;
        for j in (0..a.len).rev() {
            bits += kbits;
            // bin = bin * K + a[j]
            let mut carry = a.l[j];
            for limb in bin.iter_mut().take(bits.div_ceil(32)) {
                let t = *limb as u64 * self.kmod.modulus() + carry;
                *limb = t as u32;
                carry = t >> 32;
            }
            debug_assert_eq!(carry, 0);
        }
        let b = out.len();
        for (i, o) in out.iter_mut().enumerate() {
            let j = b - 1 - i; // byte index from the least significant end
            *o = bin.get(j / 4).map_or(0, |w| (w >> (8 * (j % 4))) as u8);
        }
    }

    /// y (big-endian bytes) mod radix^m, as limbs; the running quotient is trimmed by a size bound.
    fn reduce(&self, y: &[u8], s: &Shape, out: &mut Limbs) {
        let mut bin = [0u32; BIN];
        let n = y.len() / 4;
        for (i, w) in y.chunks_exact(4).enumerate() {
            bin[n - 1 - i] = u32::from_be_bytes(w.try_into().expect("4 bytes"));
        }
        // The quotient is below 2^bits; dividing by M >= 2^e leaves it below 2^(bits - e).
        let mut bits = 32 * n;
        out.len = s.len;
        for j in 0..s.len {
            let modulus = if j + 1 == s.len { &s.top } else { &self.kmod };
            let mut rem = 0u64;
            for limb in bin[..bits.div_ceil(32)].iter_mut().rev() {
                let (q, r) = modulus.divrem((rem << 32) | *limb as u64);
                *limb = q as u32;
                rem = r;
            }
            out.l[j] = rem;
            bits = bits.saturating_sub(63 - modulus.modulus().leading_zeros() as usize);
        }
    }

    /// a = (a ± y) mod radix^m.
    fn add_sub(&self, a: &mut Limbs, y: &Limbs, s: &Shape, add: bool) {
        let mut carry = 0u64;
        for j in 0..s.len {
            let k = if j + 1 == s.len { s.top.modulus() } else { self.kmod.modulus() };
            // Branch-free in the limb values: the carries are secret.
            if add {
                let t = a.l[j] + y.l[j] + carry;
                carry = (t >= k) as u64;
                a.l[j] = t.wrapping_sub(k & mask64(t >= k));
            } else {
                let (t, borrow1) = a.l[j].overflowing_sub(y.l[j] + carry);
                carry = borrow1 as u64;
                a.l[j] = t.wrapping_add(k & mask64(borrow1));
            }
        }
    }
}

/// FF1 of `x` in place on the big path; `b` is FF1's byte count for NUM(B), the domain is checked.
pub(crate) fn ff1(aes: &Aes, rx: &Radix, p: &Block, tweak: &[u8], b: usize, x: &mut [u16], dir: Direction) {
    let (k, kv) = rx.chunk();
    let ctx = Ctx { rx, k, kmod: Mod64::new(kv) };
    let n = x.len();
    let u = n / 2;
    let d = 4 * b.div_ceil(4) + 4;
    let t = tweak.len();
    let pad = (16 - (t + b + 1) % 16) % 16;
    let qlen = t + pad + 1 + b;
    // Blocks of Q that hold only tweak and padding are the same every round.
    let fixed = (t + pad) / 16 * 16;
    let mut state = *p;
    aes.encrypt_block(&mut state);
    for q in (0..fixed).step_by(16) {
        for (i, s) in state.iter_mut().enumerate() {
            *s ^= tweak.get(q + i).copied().unwrap_or(0);
        }
        aes.encrypt_block(&mut state);
    }
    let tail_len = qlen - fixed;
    let mut tail = [0u8; TAIL];
    for (i, s) in tail[..tail_len].iter_mut().enumerate() {
        *s = tweak.get(fixed + i).copied().unwrap_or(0);
    }
    let (su, sv) = (ctx.shape(u), ctx.shape(n - u));
    let mut a = Limbs { l: [0; KL], len: 0 };
    let mut bb = Limbs { l: [0; KL], len: 0 };
    let mut y = Limbs { l: [0; KL], len: 0 };
    ctx.limbs_of(&x[..u], &mut a);
    ctx.limbs_of(&x[u..], &mut bb);
    let mut s = [[0u8; 16]; SBLOCKS];
    for r in 0..10u8 {
        let i = dir.round(r as usize, 10) as u8;
        let shape = if i.is_multiple_of(2) { &su } else { &sv };
        let src = if dir.is_encrypt() { &bb } else { &a };
        tail[tail_len - b - 1] = i;
        ctx.to_bytes(src, &mut tail[tail_len - b..tail_len]);
        let mut rr = state;
        for blk in tail[..tail_len].chunks_exact(16) {
            for (x, y) in rr.iter_mut().zip(blk) {
                *x ^= y;
            }
            aes.encrypt_block(&mut rr);
        }
        // S = R || CIPH(R xor [1]) || CIPH(R xor [2]) ...
        let nblocks = d.div_ceil(16);
        s[0] = rr;
        for (j, blk) in s[1..nblocks].iter_mut().enumerate() {
            *blk = (u128::from_be_bytes(rr) ^ (j as u128 + 1)).to_be_bytes();
        }
        aes.encrypt_blocks(&mut s[1..nblocks]);
        ctx.reduce(&s.as_flattened()[..d], shape, &mut y);
        if dir.is_encrypt() {
            ctx.add_sub(&mut a, &y, shape, true);
            core::mem::swap(&mut a, &mut bb);
        } else {
            ctx.add_sub(&mut bb, &y, shape, false);
            core::mem::swap(&mut a, &mut bb);
        }
    }
    ctx.numerals_of(&a, &mut x[..u]);
    ctx.numerals_of(&bb, &mut x[u..]);
}
