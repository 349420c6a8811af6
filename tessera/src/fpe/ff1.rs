//! FF1 (NIST SP 800-38G Rev 1, section 5.1).
//!
//! Values whose halves fit in a `u64` (radix 10: up to 38 digits) run on native integers with a
//! precomputed reciprocal; up to 2^96 on `u128`; longer values in [`super::big`]. CIPH(P) is cached
//! per (length, tweak length). On AES-NI, one value whose y has 8 bytes runs [`super::batch::x86::single_ni`].

use std::sync::OnceLock;

use super::batch;
use super::batch::round::{BatchMod, Layout};
#[cfg(target_arch = "x86_64")]
use super::batch::x86::single_ni::{self, Fast};
use super::batch::{Run, slab};
use super::big;
use super::feistel::{Arith, Ring, Y64, Y96, keyed_feistel};
use super::keyed::Keyed;
use super::num::Radix;
#[cfg(target_arch = "x86_64")]
use super::text10;
use super::{Alphabet, Fpe, MAX_LEN, Tweaks, check_radix, check_value, min_len};
use crate::Direction;
use crate::Error;
use crate::aes::Block;

/// Tweak lengths below this have CIPH(P) cached.
const P_CACHE: usize = 16;

#[derive(Debug)]
struct LenParams {
    n: usize,
    u: usize,
    b: usize,
    d: usize,
    arith: Arith,
    /// The moduli for the AES-NI single-value rounds, when d = 8 and they fit.
    #[cfg(target_arch = "x86_64")]
    fast: Option<(Fast, Fast)>,
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
    keyed: Keyed,
    alphabet: Option<Alphabet>,
    min: usize,
    max: usize,
    /// Parameters for lengths min..min+native.len() on native integers.
    native: Vec<LenParams>,
}

impl core::fmt::Debug for FF1 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FF1")
            .field("aes", &self.keyed.aes)
            .field("radix", &self.keyed.rx.radix)
            .field("lengths", &(self.min..=self.max))
            .finish()
    }
}

impl Drop for FF1 {
    /// Wipes the cached CIPH_K(P) blocks (the AES schedules wipe themselves).
    fn drop(&mut self) {
        use zeroize::Zeroize;
        for lp in &mut self.native {
            for p in &mut lp.p_cache {
                if let Some(block) = p.get_mut() {
                    block.zeroize();
                }
            }
        }
    }
}

/// ceil(ceil(v * log2(radix)) / 8): the byte length of NUM(B) in FF1.
fn num_bytes(rx: &Radix, v: usize) -> usize {
    let bits = match rx.pow(v) {
        Some(p) => 128 - (p - 1).leading_zeros() as usize,
        None if rx.radix.is_power_of_two() => v * rx.radix.trailing_zeros() as usize,
        None => {
            let e = v as f64 * (rx.radix as f64).log2();
            // e is not an integer (radix^v is not a power of two): f64 settles the ceiling unless e is
            // within rounding of one.
            if e - e.floor() > 1e-6 && e.ceil() - e > 1e-6 { e.ceil() as usize } else { exact_bits(rx.radix, v) }
        }
    };
    bits.div_ceil(8)
}

/// Bit length of radix^v - 1 (= ceil(v * log2(radix)) when radix^v is not a power of two).
fn exact_bits(radix: u32, v: usize) -> usize {
    let mut p = [0u32; big::MAX_V_BITS / 32 + 4];
    p[0] = 1;
    let mut len = 1;
    for _ in 0..v {
        let mut carry = 0u64;
        for limb in &mut p[..len] {
            let t = *limb as u64 * radix as u64 + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            p[len] = carry as u32;
            len += 1;
        }
    }
    // Subtract one, then take the bit length.
    for limb in &mut p[..len] {
        let (x, borrow) = limb.overflowing_sub(1);
        *limb = x;
        if !borrow {
            break;
        }
    }
    while len > 1 && p[len - 1] == 0 {
        len -= 1;
    }
    32 * (len - 1) + (32 - p[len - 1].leading_zeros() as usize)
}

impl FF1 {
    /// Builds FF1 from a 16, 24 or 32-byte AES key and an alphabet.
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, FF1, Fpe};
    /// let ff1 = FF1::new(&[0x2b; 32], Alphabet::alphanumeric())?;
    /// let token = ff1.encrypt(b"", "order4711")?;
    /// assert_eq!(ff1.decrypt(b"", &token)?, "order4711");
    /// assert!(FF1::new(&[0x2b; 20], Alphabet::digits()).is_err()); // not an AES key length
    /// # Ok::<(), tessera::Error>(())
    /// ```
    pub fn new(key: &[u8], alphabet: Alphabet) -> Result<Self, Error> {
        let mut f = Self::with_radix(key, alphabet.radix())?;
        f.alphabet = Some(alphabet);
        Ok(f)
    }

    /// Builds FF1 over bare numerals `0..radix` (text methods are unavailable).
    ///
    /// ```
    /// use tessera::fpe::{FF1, Fpe};
    /// let ff1 = FF1::with_radix(&[0x2b; 16], 36)?;
    /// let mut x = [35u16, 0, 17, 4, 4, 20];
    /// ff1.encrypt_numerals(b"tweak", &mut x)?;
    /// ff1.decrypt_numerals(b"tweak", &mut x)?;
    /// assert_eq!(x, [35, 0, 17, 4, 4, 20]);
    /// assert!(ff1.encrypt(b"tweak", "123456").is_err()); // no alphabet for text
    /// # Ok::<(), tessera::Error>(())
    /// ```
    pub fn with_radix(key: &[u8], radix: u32) -> Result<Self, Error> {
        check_radix(radix)?;
        let keyed = Keyed::new(key, radix)?;
        let rx = &keyed.rx;
        let min = min_len(radix);
        let v_max = (big::MAX_V_BITS as f64 / (radix as f64).log2()).floor() as usize;
        let max = (2 * v_max).min(MAX_LEN);
        let mut native = Vec::new();
        for n in min..=max {
            let (u, v) = (n / 2, n - n / 2);
            let (pu, pv) = (rx.pow(u).expect("u fits"), rx.pow(v).expect("v fits"));
            // Native integers while y's d bytes fit a u128 (radix^v <= 2^96).
            if pv > 1u128 << 96 {
                break;
            }
            let arith = Arith::new(pu, pv);
            let b = num_bytes(rx, v);
            let d = 4 * b.div_ceil(4) + 4;
            #[cfg(target_arch = "x86_64")]
            // d = 8: radix^u <= radix^v <= 2^32.
            let fast = if d == 8 { Fast::new(pu as u64).zip(Fast::new(pv as u64)) } else { None };
            native.push(LenParams {
                n,
                u,
                b,
                d,
                arith,
                #[cfg(target_arch = "x86_64")]
                fast,
                p_cache: Default::default(),
            });
        }
        Ok(FF1 { keyed, alphabet: None, min, max, native })
    }

    /// Uses the `aes` crate for every block (tests the portable path).
    #[doc(hidden)]
    pub fn without_aes_ni(mut self) -> Self {
        self.keyed.without_aes_ni();
        self
    }

    fn p_block(&self, n: usize, t: usize) -> Block {
        let r = self.keyed.rx.radix.to_be_bytes();
        let (n4, t4) = ((n as u32).to_be_bytes(), (t as u32).to_be_bytes());
        let u = (n / 2) as u8;
        [1, 2, 1, r[1], r[2], r[3], 10, u, n4[0], n4[1], n4[2], n4[3], t4[0], t4[1], t4[2], t4[3]]
    }

    fn ciph_p(&self, n: usize, t: usize) -> Block {
        let mut p = self.p_block(n, t);
        self.keyed.aes.encrypt_block(&mut p);
        p
    }

    fn params(&self, n: usize) -> Option<&LenParams> {
        self.native.get(n.checked_sub(self.min)?)
    }

    /// The CBC-MAC state after P and the tweak-only blocks of Q, and the
    /// last block of Q with \[i\] and NUM(B) zero (native paths: b + 1 <= 16).
    fn prefix(&self, lp: &LenParams, tweak: &[u8]) -> (u128, u128) {
        let t = tweak.len();
        let mut state = match lp.p_cache.get(t) {
            Some(c) => *c.get_or_init(|| self.ciph_p(lp.n, t)),
            None => self.ciph_p(lp.n, t),
        };
        // Q = T || 0^pad || [i] || NUM(B): all blocks but the last hold only tweak bytes and zeros.
        let last = (t + lp.b + 1).next_multiple_of(16) - 16;
        let fill = |blk: &mut Block, part: &[u8]| blk.iter_mut().zip(part).for_each(|(d, s)| *d = *s);
        let mut q = 0;
        while q < last {
            let mut blk = [0u8; 16];
            fill(&mut blk, &tweak[q.min(t)..(q + 16).min(t)]);
            state = (u128::from_be_bytes(state) ^ u128::from_be_bytes(blk)).to_be_bytes();
            self.keyed.aes.encrypt_block(&mut state);
            q += 16;
        }
        let mut tmpl = [0u8; 16];
        fill(&mut tmpl, &tweak[last.min(t)..]);
        (u128::from_be_bytes(state), u128::from_be_bytes(tmpl))
    }

    /// The ten rounds on native integers: round i enciphers `base` ^ \[i\] ^ NUM(half), and y is the
    /// first d bytes of the output (`SHY` = 128 - 8d).
    #[inline(always)]
    fn rounds<R: Ring, const SHY: u32>(
        &self,
        lp: &LenParams,
        base: u128,
        m: (&R, &R),
        ab: (R::W, R::W),
        dir: Direction,
    ) -> (R::W, R::W) {
        debug_assert_eq!(SHY as usize, 128 - 8 * lp.d);
        let shb = 8 * lp.b;
        keyed_feistel::<R, true, SHY>(&self.keyed, |i, x| base ^ ((i as u128) << shb) ^ x, 10, m, ab, dir)
    }

    /// CBC state ^ last block of Q template for `tweak` ([`FF1::prefix`]), cached for the empty tweak.
    #[inline(always)]
    fn base(&self, lp: &LenParams, tweak: &[u8]) -> u128 {
        if tweak.is_empty() {
            return u128::from_be_bytes(*lp.p_cache[0].get_or_init(|| self.ciph_p(lp.n, 0)));
        }
        let (state, tmpl) = self.prefix(lp, tweak);
        state ^ tmpl
    }

    /// One value: the AES-NI chain when it serves the length, else the domain check and
    /// [`FF1::crypt_other`] (out of line: its frame is large).
    fn crypt(&self, tweak: &[u8], x: &mut [u16], dir: Direction) -> Result<(), Error> {
        check_tweak_len(tweak.len())?;
        #[cfg(target_arch = "x86_64")]
        if let (Some(keys), Some(lp @ LenParams { fast: Some(m), .. })) = (self.keyed.ni(), self.params(x.len())) {
            // A length with parameters is in min..=max: only the numerals are left to check.
            let (decimal, (n, u)) = (self.keyed.rx.radix == 10, (x.len(), lp.u));
            let ab = match decimal {
                true => text10::parse_numerals(x, u),
                false => super::numerals_below(x, self.keyed.rx.radix)
                    .then(|| batch::num_halves::<true>(&self.keyed.rx, x, 0, n, u)),
            };
            if let Some(ab) = ab {
                let ab = single_ni::ff1_value(keys, self.base(lp, tweak), 8 * lp.b as u32, m, ab, dir);
                match decimal {
                    true => text10::put_numerals(u, ab, x),
                    false => batch::str_halves::<true>(&self.keyed.rx, x, 0, n, u, ab),
                }
                return Ok(());
            }
        }
        check_value(x, self.keyed.rx.radix, self.min, self.max)?;
        self.crypt_other(tweak, x, dir);
        Ok(())
    }

    /// The text of one value over the ASCII digits through the AES-NI chain and [`super::text10`];
    /// `None` (nothing written) in every other case, bad characters included.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn text_digits(&self, tweak: &[u8], text: &str, out: &mut String, dir: Direction) -> Option<()> {
        if !self.alphabet.as_ref()?.is_ascii_digits() {
            return None;
        }
        let (keys, lp) = (self.keyed.ni()?, self.params(text.len())?);
        let m = lp.fast.as_ref()?;
        let ab = text10::parse(text.as_bytes(), lp.u)?;
        let ab = single_ni::ff1_value(keys, self.base(lp, tweak), 8 * lp.b as u32, m, ab, dir);
        out.clear();
        text10::push(lp.u, lp.n, ab, out);
        Some(())
    }

    /// The generic paths for one value already checked against the domain.
    #[inline(never)]
    fn crypt_other(&self, tweak: &[u8], x: &mut [u16], dir: Direction) {
        let Some(lp) = self.params(x.len()) else {
            let n = x.len();
            big::ff1(
                &self.keyed.aes,
                &self.keyed.rx,
                &self.p_block(n, tweak.len()),
                tweak,
                num_bytes(&self.keyed.rx, n - n / 2),
                x,
                dir,
            );
            return;
        };
        let base = self.base(lp, tweak);
        match lp.arith {
            Arith::N64 { mu, mv } => {
                let ab = batch::num_halves::<true>(&self.keyed.rx, x, 0, x.len(), lp.u);
                let ab = match lp.d {
                    8 => self.rounds::<_, 64>(lp, base, (&Y64(mu), &Y64(mv)), ab, dir),
                    _ => self.rounds::<_, 32>(lp, base, (&Y96(mu), &Y96(mv)), ab, dir),
                };
                batch::str_halves::<true>(&self.keyed.rx, x, 0, x.len(), lp.u, ab);
            }
            Arith::N128 { mu, mv } => {
                let (xa, xb) = x.split_at_mut(lp.u);
                let ab = (self.keyed.rx.num_be128(xa), self.keyed.rx.num_be128(xb));
                let (a, b) = match lp.d {
                    8 => self.rounds::<_, 64>(lp, base, (&mu, &mv), ab, dir),
                    12 => self.rounds::<_, 32>(lp, base, (&mu, &mv), ab, dir),
                    _ => self.rounds::<_, 0>(lp, base, (&mu, &mv), ab, dir),
                };
                self.keyed.rx.str_be128(a, xa);
                self.keyed.rx.str_be128(b, xb);
            }
        }
    }
}

/// FF1 tweaks have at most 2^32 - 1 bytes (block P holds the length in four bytes).
fn check_tweak_len(len: usize) -> Result<(), Error> {
    match u32::try_from(len) {
        Ok(_) => Ok(()),
        Err(_) => Err(Error::TweakLength { got: len, expected: "at most 2^32 - 1 (FF1)" }),
    }
}

impl Fpe for FF1 {
    fn radix(&self) -> u32 {
        self.keyed.rx.radix
    }
    fn alphabet(&self) -> Option<&Alphabet> {
        self.alphabet.as_ref()
    }
    fn len_range(&self) -> (usize, usize) {
        (self.min, self.max)
    }
    fn transform_into(&self, dir: Direction, tweak: &[u8], text: &str, out: &mut String) -> Result<(), Error> {
        check_tweak_len(tweak.len())?;
        #[cfg(target_arch = "x86_64")]
        if self.text_digits(tweak, text, out, dir).is_some() {
            return Ok(());
        }
        super::text_op(self, tweak, text, out, dir)
    }
    fn encrypt_numerals(&self, tweak: &[u8], x: &mut [u16]) -> Result<(), Error> {
        self.crypt(tweak, x, Direction::Encrypt)
    }
    fn decrypt_numerals(&self, tweak: &[u8], x: &mut [u16]) -> Result<(), Error> {
        self.crypt(tweak, x, Direction::Decrypt)
    }
    fn encrypt_batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize]) -> Result<(), Error> {
        slab::drive(self, &tweaks, data, ends, Direction::Encrypt)
    }
    fn decrypt_batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize]) -> Result<(), Error> {
        slab::drive(self, &tweaks, data, ends, Direction::Decrypt)
    }
}

impl slab::Batched for FF1 {
    fn domain(&self) -> (u32, usize, usize) {
        (self.keyed.rx.radix, self.min, self.max)
    }

    fn check_tweak(&self, tweak: &[u8]) -> Result<(), Error> {
        check_tweak_len(tweak.len())
    }

    fn one(&self, tweak: &[u8], x: &mut [u16], dir: Direction) -> Result<(), Error> {
        self.crypt(tweak, x, dir)
    }

    fn run(&self, tweaks: &Tweaks<'_>, run: Run<'_>, dir: Direction) -> Option<Option<usize>> {
        let len = run.len;
        let lp @ LenParams { arith: Arith::N64 { mu, mv }, .. } = self.params(len)? else { return None };
        // Round i's block is CBC state ^ Q template ^ [i] ^ NUM(half), big-endian.
        let words = |x: u128| [((x >> 64) as u64).swap_bytes(), (x as u64).swap_bytes()];
        let terms: [[u64; 2]; 10] = core::array::from_fn(|i| words((i as u128) << (8 * lp.b)));
        let layout = if lp.d == 8 { Layout::Ff1 } else { Layout::Ff1Y96 };
        let plan = self.keyed.plan(layout, (len, lp.u), (BatchMod::new(*mu), BatchMod::new(*mv)), &terms);
        Some(plan.run_tweaks(tweaks, run, |tweak| [words(self.base(lp, tweak)); 2], dir))
    }
}

#[cfg(test)]
#[path = "ff1_tests.rs"]
mod tests;
