//! FF3-1 (NIST SP 800-38G Rev 1, section 5.2) and the original FF3.
//!
//! FF3 (64-bit tweak) was withdrawn by NIST after the Durak–Vaudenay attack; it is kept only to
//! decrypt old tokens. A half's radix power always fits in 96 bits: every value runs on native integers.

use super::batch;
use super::batch::round::{BatchMod, Layout};
#[cfg(target_arch = "x86_64")]
use super::batch::x86::single_ni::{self, Fast};
use super::batch::{Run, slab};
use super::feistel::{Arith, Ring, keyed_feistel};
use super::keyed::Keyed;
use super::{Alphabet, Fpe, Tweaks, check_radix, check_value, min_len};
use crate::Direction;
use crate::Error;

/// Splits a tweak into (T_L, T_R), checking its length.
type SplitTweak = fn(&[u8]) -> Result<(u32, u32), Error>;

/// Shared machinery: the cipher on REVB(K), radix, and per-length moduli.
struct Core {
    keyed: Keyed,
    /// FF3's or FF3-1's tweak split.
    split: SplitTweak,
    alphabet: Option<Alphabet>,
    min: usize,
    max: usize,
    /// Indexed by length - min.
    arith: Vec<Arith>,
    /// The moduli for the AES-NI single-value rounds, when below 2^30.
    #[cfg(target_arch = "x86_64")]
    fast: Vec<Option<(Fast, Fast)>>,
}

impl Core {
    fn new(key: &[u8], split: SplitTweak, radix: u32, alphabet: Option<Alphabet>) -> Result<Self, Error> {
        check_radix(radix)?;
        let mut rev = zeroize::Zeroizing::new(key.to_vec());
        rev.reverse();
        let keyed = Keyed::new(&rev, radix)?;
        let rx = &keyed.rx;
        let min = min_len(radix);
        // maxlen = 2 * floor(log_radix(2^96)).
        let mut k = 0;
        while rx.pow(k + 1).is_some_and(|p| p <= 1u128 << 96) {
            k += 1;
        }
        let max = 2 * k;
        let arith = (min..=max)
            .map(|n| {
                let (u, v) = (n.div_ceil(2), n / 2);
                Arith::new(rx.pow(u).expect("fits"), rx.pow(v).expect("fits"))
            })
            .collect();
        #[cfg(target_arch = "x86_64")]
        let fast = (min..=max)
            .map(|n| {
                let p = |k| rx.pow(k).and_then(|p| u64::try_from(p).ok()).and_then(Fast::new_folded);
                p(n.div_ceil(2)).zip(p(n / 2))
            })
            .collect();
        Ok(Core {
            keyed,
            split,
            alphabet,
            min,
            max,
            arith,
            #[cfg(target_arch = "x86_64")]
            fast,
        })
    }

    /// The eight rounds. P = [W xor i]^4 || [NUM(REV(half))]^12; the cipher sees REVB(P) and
    /// S = REVB(output): both are little-endian reads.
    #[inline(always)]
    fn rounds<R: Ring>(&self, (tl, tr): (u32, u32), m: (&R, &R), ab: (R::W, R::W), dir: Direction) -> (R::W, R::W) {
        let p = move |i: usize, x: u128| ((((if i.is_multiple_of(2) { tr } else { tl }) ^ i as u32) as u128) << 96) | x;
        keyed_feistel::<R, false, 0>(&self.keyed, p, 8, m, ab, dir)
    }

    /// One value: the domain check, then the AES-NI chain when it serves the length, else `crypt_other`.
    fn crypt(&self, tw: (u32, u32), x: &mut [u16], dir: Direction) -> Result<(), Error> {
        check_value(x, self.keyed.rx.radix, self.min, self.max)?;
        #[cfg(target_arch = "x86_64")]
        if let (Some(keys), Some(m)) = (self.keyed.ni(), &self.fast[x.len() - self.min]) {
            let u = x.len().div_ceil(2);
            let ab = batch::num_halves::<false>(&self.keyed.rx, x, 0, x.len(), u);
            let ab = single_ni::ff3_value(keys, tw, m, ab, dir);
            batch::str_halves::<false>(&self.keyed.rx, x, 0, x.len(), u, ab);
            return Ok(());
        }
        self.crypt_other(tw, x, dir);
        Ok(())
    }

    /// The generic paths for one value already checked against the domain.
    #[inline(never)]
    fn crypt_other(&self, tw: (u32, u32), x: &mut [u16], dir: Direction) {
        let u = x.len().div_ceil(2);
        match self.arith[x.len() - self.min] {
            Arith::N64 { mu, mv } => {
                let ab = batch::num_halves::<false>(&self.keyed.rx, x, 0, x.len(), u);
                let ab = self.rounds(tw, (&mu, &mv), ab, dir);
                batch::str_halves::<false>(&self.keyed.rx, x, 0, x.len(), u, ab);
            }
            Arith::N128 { mu, mv } => {
                let (xa, xb) = x.split_at_mut(u);
                let ab = (self.keyed.rx.num_le128(xa), self.keyed.rx.num_le128(xb));
                let (a, b) = self.rounds(tw, (&mu, &mv), ab, dir);
                self.keyed.rx.str_le128(a, xa);
                self.keyed.rx.str_le128(b, xb);
            }
        }
    }
}

impl slab::Batched for Core {
    fn domain(&self) -> (u32, usize, usize) {
        (self.keyed.rx.radix, self.min, self.max)
    }

    fn check_tweak(&self, tweak: &[u8]) -> Result<(), Error> {
        (self.split)(tweak).map(drop)
    }

    fn one(&self, tweak: &[u8], x: &mut [u16], dir: Direction) -> Result<(), Error> {
        self.crypt((self.split)(tweak)?, x, dir)
    }

    fn run(&self, tweaks: &Tweaks<'_>, run: Run<'_>, dir: Direction) -> Option<Option<usize>> {
        let len = run.len;
        let Arith::N64 { mu, mv } = self.arith[len - self.min] else { return None };
        // REVB(P) read little-endian: (W ^ [i]^4) << 96 | NUM(REV(half)).
        let terms: [[u64; 2]; 8] = core::array::from_fn(|i| [0, (i as u64) << 32]);
        let plan = self.keyed.plan(Layout::Ff3, (len, len.div_ceil(2)), (BatchMod::new(mu), BatchMod::new(mv)), &terms);
        // Even rounds take W = T_R, odd rounds T_L; the tweaks were checked.
        let base = |t: &[u8]| {
            let (tl, tr) = (self.split)(t).unwrap_or_default();
            [[0, (tr as u64) << 32], [0, (tl as u64) << 32]]
        };
        Some(plan.run_tweaks(tweaks, run, base, dir))
    }
}

/// FF3-1 tweak halves: T_L = T[0..27] || 0^4, T_R = T[32..55] || T[28..31] || 0^4.
fn split_56(t: &[u8]) -> Result<(u32, u32), Error> {
    let t: &[u8; 7] = t.try_into().map_err(|_| Error::TweakLength { got: t.len(), expected: "7 (56 bits)" })?;
    let tl = u32::from_be_bytes([t[0], t[1], t[2], t[3] & 0xf0]);
    let tr = u32::from_be_bytes([t[4], t[5], t[6], (t[3] & 0x0f) << 4]);
    Ok((tl, tr))
}

/// FF3 tweak halves: T_L = T[0..31], T_R = T[32..63].
fn split_64(t: &[u8]) -> Result<(u32, u32), Error> {
    let t: &[u8; 8] = t.try_into().map_err(|_| Error::TweakLength { got: t.len(), expected: "8 (64 bits)" })?;
    Ok((u32::from_be_bytes([t[0], t[1], t[2], t[3]]), u32::from_be_bytes([t[4], t[5], t[6], t[7]])))
}

macro_rules! ff3_type {
    ($(#[$doc:meta])* $name:ident, $split:ident, $tweak:literal) => {
        $(#[$doc])*
        pub struct $name(Core);

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("aes", &self.0.keyed.aes)
                    .field("radix", &self.0.keyed.rx.radix)
                    .field("lengths", &(self.0.min..=self.0.max))
                    .finish()
            }
        }

        impl $name {
            /// Builds the cipher from a 16, 24 or 32-byte AES key and an alphabet.
            ///
            #[doc = concat!("```\nuse tessera::fpe::{Alphabet, Fpe, ", stringify!($name), "};\n",
                "let c = ", stringify!($name), "::new(&[0x2b; 16], Alphabet::alphanumeric())?;\n",
                "let token = c.encrypt(", $tweak, ", \"order4711\")?;\n",
                "assert_eq!(token.len(), 9);\n",
                "assert_eq!(c.decrypt(", $tweak, ", &token)?, \"order4711\");\n",
                "assert!(", stringify!($name), "::new(&[0x2b; 20], Alphabet::digits()).is_err()); // not an AES key length\n",
                "# Ok::<(), tessera::Error>(())\n```")]
            pub fn new(key: &[u8], alphabet: Alphabet) -> Result<Self, Error> {
                Core::new(key, $split, alphabet.radix(), Some(alphabet)).map(Self)
            }

            /// Builds the cipher over bare numerals `0..radix`.
            ///
            #[doc = concat!("```\nuse tessera::fpe::{Fpe, ", stringify!($name), "};\n",
                "let c = ", stringify!($name), "::with_radix(&[0x2b; 16], 10)?;\n",
                "let mut x = [1u16, 2, 3, 4, 5, 6, 7, 8];\n",
                "c.encrypt_numerals(", $tweak, ", &mut x)?;\n",
                "assert!(x.iter().all(|&d| d < 10));\n",
                "c.decrypt_numerals(", $tweak, ", &mut x)?;\n",
                "assert_eq!(x, [1, 2, 3, 4, 5, 6, 7, 8]);\n",
                "assert!(c.encrypt(", $tweak, ", \"12345678\").is_err()); // no alphabet for text\n",
                "# Ok::<(), tessera::Error>(())\n```")]
            pub fn with_radix(key: &[u8], radix: u32) -> Result<Self, Error> {
                Core::new(key, $split, radix, None).map(Self)
            }

            /// Uses the `aes` crate for every block (tests the portable path).
            #[doc(hidden)]
            pub fn without_aes_ni(mut self) -> Self {
                self.0.keyed.without_aes_ni();
                self
            }
        }

        impl Fpe for $name {
            fn radix(&self) -> u32 {
                self.0.keyed.rx.radix
            }
            fn alphabet(&self) -> Option<&Alphabet> {
                self.0.alphabet.as_ref()
            }
            fn len_range(&self) -> (usize, usize) {
                (self.0.min, self.0.max)
            }
            fn encrypt_numerals(&self, tweak: &[u8], x: &mut [u16]) -> Result<(), Error> {
                slab::Batched::one(&self.0, tweak, x, Direction::Encrypt)
            }
            fn decrypt_numerals(&self, tweak: &[u8], x: &mut [u16]) -> Result<(), Error> {
                slab::Batched::one(&self.0, tweak, x, Direction::Decrypt)
            }
            fn encrypt_batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize]) -> Result<(), Error> {
                slab::drive(&self.0, &tweaks, data, ends, Direction::Encrypt)
            }
            fn decrypt_batch(&self, tweaks: Tweaks<'_>, data: &mut [u16], ends: &[usize]) -> Result<(), Error> {
                slab::drive(&self.0, &tweaks, data, ends, Direction::Decrypt)
            }
        }
    };
}

ff3_type!(
    /// The FF3-1 format-preserving cipher (56-bit tweak).
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, Fpe, FF3_1};
    /// let key = [0xadu8; 16];
    /// let ff3 = FF3_1::new(&key, Alphabet::digits()).unwrap();
    /// let tweak = [1u8, 2, 3, 4, 5, 6, 7];
    /// let token = ff3.encrypt(&tweak, "890121234567890000").unwrap();
    /// assert_eq!(ff3.decrypt(&tweak, &token).unwrap(), "890121234567890000");
    /// assert!(ff3.encrypt(&[0u8; 8], "890121234567890000").is_err()); // 7-byte tweaks only
    /// ```
    FF3_1,
    split_56,
    "b\"7 bytes\""
);

ff3_type!(
    /// The original FF3 (64-bit tweak). **Withdrawn by NIST** (SP 800-38G Rev 1) after practical
    /// attacks; kept only to decrypt existing tokens. Use [`FF1`](super::FF1) or [`FF3_1`] for anything new.
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, Fpe, FF3};
    /// // NIST FF3 sample 1.
    /// let key = [0xEF, 0x43, 0x59, 0xD8, 0xD5, 0x80, 0xAA, 0x4F, 0x7F, 0x03, 0x6D, 0x6F, 0x04, 0xFC, 0x6A, 0x94];
    /// let tweak = [0xD8, 0xE7, 0x92, 0x0A, 0xFA, 0x33, 0x0A, 0x73];
    /// let ff3 = FF3::new(&key, Alphabet::digits()).unwrap();
    /// assert_eq!(ff3.decrypt(&tweak, "750918814058654607").unwrap(), "890121234567890000");
    /// ```
    FF3,
    split_64,
    "b\"8 bytes!\""
);
