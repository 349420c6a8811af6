//! FF1 (NIST SP 800-38G Rev 1, section 5.1).
//!
//! Values whose halves fit in a `u64` (radix 10: up to 38 digits) run on
//! native integers with a precomputed reciprocal; up to 2^96 on `u128`;
//! longer values on the fixed-capacity path in [`super::big`]. The CBC-MAC
//! state after block P is cached per (length, tweak length).

use std::sync::OnceLock;

use super::big;
use super::num::{Mod64, Mod128, Radix};
use super::{Alphabet, Fpe, MAX_LEN, Tweaks, batch_values, check_batch, check_radix, check_value, min_len};
use crate::Error;
use crate::aes::{Aes, Block};

/// Tweak lengths below this have CIPH(P) cached.
const P_CACHE: usize = 16;
/// Values interleaved per AES call in the batch path.
const GROUP: usize = 64;

#[derive(Clone, Copy, Debug)]
enum Arith {
    /// radix^v < 2^64.
    N64 { mu: Mod64, mv: Mod64 },
    /// radix^v < 2^96 (so y, of at most 16 bytes, fits a u128).
    N128 { mu: Mod128, mv: Mod128 },
}

#[derive(Debug)]
struct LenParams {
    n: usize,
    u: usize,
    b: usize,
    d: usize,
    arith: Arith,
    p_cache: [OnceLock<Block>; P_CACHE],
}

/// The FF1 format-preserving cipher.
///
/// ```
/// use tessera::fpe::{Alphabet, Fpe, FF1};
/// // NIST SP 800-38G FF1 sample 2.
/// let key = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c];
/// let ff1 = FF1::new(&key, Alphabet::digits()).unwrap();
/// assert_eq!(ff1.encrypt(b"9876543210", "0123456789").unwrap(), "6124200773");
///
/// // Numerals in place, no allocation:
/// let mut x = [0u16, 1, 2, 3, 4, 5, 6, 7, 8, 9];
/// ff1.encrypt_numerals(b"9876543210", &mut x).unwrap();
/// assert_eq!(x, [6, 1, 2, 4, 2, 0, 0, 7, 7, 3]);
/// ```
pub struct FF1 {
    aes: Aes,
    rx: Radix,
    alphabet: Option<Alphabet>,
    min: usize,
    max: usize,
    /// Parameters for lengths min..min+native.len() on native integers.
    native: Vec<LenParams>,
}

impl core::fmt::Debug for FF1 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FF1")
            .field("aes", &self.aes)
            .field("radix", &self.rx.radix)
            .field("lengths", &(self.min..=self.max))
            .finish()
    }
}

/// ceil(ceil(v * log2(radix)) / 8): the byte length of NUM(B) in FF1.
fn num_bytes(rx: &Radix, v: usize) -> usize {
    let bits = match rx.pow(v) {
        Some(p) => 128 - (p - 1).leading_zeros() as usize,
        None if rx.radix.is_power_of_two() => v * rx.radix.trailing_zeros() as usize,
        None => {
            let e = v as f64 * (rx.radix as f64).log2();
            // radix^v is never a power of two here, so e is never an integer;
            // f64 is exact enough unless e is within rounding of one.
            assert!(e - e.floor() > 1e-7 && e.ceil() - e > 1e-7, "radix^v too close to a power of two");
            e.ceil() as usize
        }
    };
    bits.div_ceil(8)
}

impl FF1 {
    /// Builds FF1 from a 16, 24 or 32-byte AES key and an alphabet.
    pub fn new(key: &[u8], alphabet: Alphabet) -> Result<Self, Error> {
        let mut f = Self::with_radix(key, alphabet.radix())?;
        f.alphabet = Some(alphabet);
        Ok(f)
    }

    /// Builds FF1 over bare numerals `0..radix` (text methods are unavailable).
    pub fn with_radix(key: &[u8], radix: u32) -> Result<Self, Error> {
        check_radix(radix)?;
        let aes = Aes::new(key)?;
        let rx = Radix::new(radix);
        let min = min_len(radix);
        let v_max = (big::MAX_V_BITS as f64 / (radix as f64).log2()).floor() as usize;
        let max = (2 * v_max).min(MAX_LEN);
        let mut native = Vec::new();
        for n in min..=max {
            let (u, v) = (n / 2, n - n / 2);
            let (pu, pv) = (rx.pow(u).expect("u fits"), rx.pow(v).expect("v fits"));
            let arith = if pv <= u64::MAX as u128 {
                Arith::N64 { mu: Mod64::new(pu as u64), mv: Mod64::new(pv as u64) }
            } else if pv <= 1u128 << 96 {
                Arith::N128 { mu: Mod128::new(pu), mv: Mod128::new(pv) }
            } else {
                break;
            };
            let b = num_bytes(&rx, v);
            native.push(LenParams { n, u, b, d: 4 * b.div_ceil(4) + 4, arith, p_cache: Default::default() });
        }
        Ok(FF1 { aes, rx, alphabet: None, min, max, native })
    }

    fn p_block(&self, n: usize, t: usize) -> Block {
        let r = self.rx.radix.to_be_bytes();
        let (n4, t4) = ((n as u32).to_be_bytes(), (t as u32).to_be_bytes());
        let u = (n / 2) as u8;
        [1, 2, 1, r[1], r[2], r[3], 10, u, n4[0], n4[1], n4[2], n4[3], t4[0], t4[1], t4[2], t4[3]]
    }

    fn ciph_p(&self, n: usize, t: usize) -> Block {
        let mut p = self.p_block(n, t);
        self.aes.encrypt_block(&mut p);
        p
    }

    fn params(&self, n: usize) -> Option<&LenParams> {
        self.native.get(n.checked_sub(self.min)?)
    }

    /// The CBC-MAC state after P and the tweak-only blocks of Q, and the
    /// last block of Q with [i] and NUM(B) zero (native paths: b + 1 <= 16).
    fn prefix(&self, lp: &LenParams, tweak: &[u8]) -> (u128, u128) {
        let t = tweak.len();
        let mut state = match lp.p_cache.get(t) {
            Some(c) => *c.get_or_init(|| self.ciph_p(lp.n, t)),
            None => self.ciph_p(lp.n, t),
        };
        let pad = (16 - (t + lp.b + 1) % 16) % 16;
        let last = t + pad + 1 + lp.b - 16;
        for q in (0..last).step_by(16) {
            for (i, s) in state.iter_mut().enumerate() {
                *s ^= tweak.get(q + i).copied().unwrap_or(0);
            }
            self.aes.encrypt_block(&mut state);
        }
        let mut tmpl = [0u8; 16];
        for (i, s) in tmpl.iter_mut().enumerate() {
            *s = tweak.get(last + i).copied().unwrap_or(0);
        }
        (u128::from_be_bytes(state), u128::from_be_bytes(tmpl))
    }

    #[inline(always)]
    fn round_y(&self, state: u128, tmpl: u128, i: usize, lp: &LenParams, val: u128) -> u128 {
        let mut blk = (state ^ (tmpl | ((i as u128) << (8 * lp.b)) | val)).to_be_bytes();
        self.aes.encrypt_block(&mut blk);
        u128::from_be_bytes(blk) >> (128 - 8 * lp.d)
    }

    fn crypt(&self, tweak: &[u8], x: &mut [u16], enc: bool) -> Result<(), Error> {
        check_value(x, self.rx.radix, self.min, self.max)?;
        let Some(lp) = self.params(x.len()) else {
            let n = x.len();
            big::ff1(&self.aes, &self.rx, &self.p_block(n, tweak.len()), tweak, num_bytes(&self.rx, n - n / 2), x, enc);
            return Ok(());
        };
        let (state, tmpl) = self.prefix(lp, tweak);
        let (xa, xb) = x.split_at_mut(lp.u);
        match lp.arith {
            Arith::N64 { mu, mv } => {
                let (mut a, mut b) = (self.rx.num_be64(xa), self.rx.num_be64(xb));
                if enc {
                    for i in 0..10 {
                        let y = self.round_y(state, tmpl, i, lp, b as u128);
                        let m = if i % 2 == 0 { &mu } else { &mv };
                        (a, b) = (b, m.add(a, m.reduce96(y)));
                    }
                } else {
                    for i in (0..10).rev() {
                        let y = self.round_y(state, tmpl, i, lp, a as u128);
                        let m = if i % 2 == 0 { &mu } else { &mv };
                        (a, b) = (m.sub(b, m.reduce96(y)), a);
                    }
                }
                self.rx.str_be64(a, xa);
                self.rx.str_be64(b, xb);
            }
            Arith::N128 { mu, mv } => {
                let (mut a, mut b) = (self.rx.num_be128(xa), self.rx.num_be128(xb));
                if enc {
                    for i in 0..10 {
                        let y = self.round_y(state, tmpl, i, lp, b);
                        let m = if i % 2 == 0 { &mu } else { &mv };
                        (a, b) = (b, m.add(a, m.reduce(y)));
                    }
                } else {
                    for i in (0..10).rev() {
                        let y = self.round_y(state, tmpl, i, lp, a);
                        let m = if i % 2 == 0 { &mu } else { &mv };
                        (a, b) = (m.sub(b, m.reduce(y)), a);
                    }
                }
                self.rx.str_be128(a, xa);
                self.rx.str_be128(b, xb);
            }
        }
        Ok(())
    }

    fn batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize], enc: bool) -> Result<(), Error> {
        check_batch(&tweaks, data, ends, |_, x| check_value(x, self.rx.radix, self.min, self.max))?;
        let mut g = Group::default();
        let mut memo: Option<(usize, (u128, u128))> = None;
        for (i, x) in batch_values(data, ends) {
            let lp = match self.params(x.len()) {
                Some(lp @ LenParams { arith: Arith::N64 { .. }, .. }) => lp,
                _ => {
                    self.crypt(tweaks.get(i), x, enc)?;
                    continue;
                }
            };
            let pre = match (&tweaks, memo) {
                (Tweaks::Same(_), Some((n, pre))) if n == lp.n => pre,
                _ => {
                    let pre = self.prefix(lp, tweaks.get(i));
                    memo = Some((lp.n, pre));
                    pre
                }
            };
            g.push(self, lp, pre, x);
            if g.len == GROUP {
                g.run(self, enc);
            }
        }
        g.run(self, enc);
        Ok(())
    }
}

/// Up to [`GROUP`] values on the u64 path, advanced round by round together.
struct Group<'d> {
    len: usize,
    a: [u64; GROUP],
    b: [u64; GROUP],
    /// CBC state xor the Q template: the round block is this ^ [i] ^ NUM(B).
    base: [u128; GROUP],
    /// 8 * b and 128 - 8 * d per value.
    shifts: [(u32, u32); GROUP],
    m: [(Mod64, Mod64); GROUP],
    out: [&'d mut [u16]; GROUP],
    split: [usize; GROUP],
    blocks: [Block; GROUP],
}

impl Default for Group<'_> {
    fn default() -> Self {
        Group {
            len: 0,
            a: [0; GROUP],
            b: [0; GROUP],
            base: [0; GROUP],
            shifts: [(0, 0); GROUP],
            m: [(Mod64::new(2), Mod64::new(2)); GROUP],
            out: core::array::from_fn(|_| <&mut [u16]>::default()),
            split: [0; GROUP],
            blocks: [[0; 16]; GROUP],
        }
    }
}

impl<'d> Group<'d> {
    fn push(&mut self, f: &FF1, lp: &LenParams, (state, tmpl): (u128, u128), x: &'d mut [u16]) {
        let Arith::N64 { mu, mv } = lp.arith else { unreachable!("group holds u64-path values only") };
        let j = self.len;
        self.a[j] = f.rx.num_be64(&x[..lp.u]);
        self.b[j] = f.rx.num_be64(&x[lp.u..]);
        self.base[j] = state ^ tmpl;
        self.shifts[j] = (8 * lp.b as u32, 128 - 8 * lp.d as u32);
        self.m[j] = (mu, mv);
        self.split[j] = lp.u;
        self.out[j] = x;
        self.len += 1;
    }

    fn run(&mut self, f: &FF1, enc: bool) {
        let n = self.len;
        for r in 0..10usize {
            let i = if enc { r } else { 9 - r };
            for j in 0..n {
                let v = if enc { self.b[j] } else { self.a[j] };
                self.blocks[j] = (self.base[j] ^ ((i as u128) << self.shifts[j].0) ^ v as u128).to_be_bytes();
            }
            f.aes.encrypt_blocks(&mut self.blocks[..n]);
            for j in 0..n {
                let y = u128::from_be_bytes(self.blocks[j]) >> self.shifts[j].1;
                let m = if i % 2 == 0 { &self.m[j].0 } else { &self.m[j].1 };
                let (a, b) = (self.a[j], self.b[j]);
                (self.a[j], self.b[j]) = if enc { (b, m.add(a, m.reduce96(y))) } else { (m.sub(b, m.reduce96(y)), a) };
            }
        }
        for j in 0..n {
            let x = core::mem::take(&mut self.out[j]);
            let (xa, xb) = x.split_at_mut(self.split[j]);
            f.rx.str_be64(self.a[j], xa);
            f.rx.str_be64(self.b[j], xb);
        }
        self.len = 0;
    }
}

impl Fpe for FF1 {
    fn radix(&self) -> u32 {
        self.rx.radix
    }
    fn alphabet(&self) -> Option<&Alphabet> {
        self.alphabet.as_ref()
    }
    fn len_range(&self) -> (usize, usize) {
        (self.min, self.max)
    }
    fn encrypt_numerals(&self, tweak: &[u8], x: &mut [u16]) -> Result<(), Error> {
        self.crypt(tweak, x, true)
    }
    fn decrypt_numerals(&self, tweak: &[u8], x: &mut [u16]) -> Result<(), Error> {
        self.crypt(tweak, x, false)
    }
    fn encrypt_batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize]) -> Result<(), Error> {
        self.batch(tweaks, data, ends, true)
    }
    fn decrypt_batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize]) -> Result<(), Error> {
        self.batch(tweaks, data, ends, false)
    }
}
