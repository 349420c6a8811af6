//! The AES-NI key schedule ([`Keys`]: encryption and AESDEC round keys, and
//! the [`Width`] its block batches run at) and single blocks kept in
//! registers, for latency-bound chains (the FF1 and FF3 rounds, where each
//! block depends on the last).
//!
//! Chosen at run time: [`Keys::new`] returns `None` on CPUs without AES-NI
//! and SSE4.1 (or under a `TESSERA_CPU` cap below them), and `Aes` then
//! holds the `aes` crate's cipher.
#![allow(unsafe_code)]

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::cpu::{AesNi, Vaes256, Vaes512};
use crate::simd::cast;

/// The vector width a key's many-block work runs at, with the proof of its
/// features: the `cipher` backends (`backend.rs`) and AES-SIV's CTR kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// AES-NI, one block per instruction.
    Ni(AesNi),
    /// VAES on 256-bit vectors with AVX2.
    Vaes256(Vaes256),
    /// VAES on 512-bit vectors (AES-SIV's short seals on 256-bit vectors
    /// with AVX-512 VL).
    Vaes512(Vaes512),
}

impl Width {
    /// The widest this CPU has (under the `crate::cpu` cap), given AES-NI.
    pub(crate) fn detect(ni: AesNi) -> Width {
        match (Vaes512::get(), Vaes256::get()) {
            (Some(t), _) => Width::Vaes512(t),
            (None, Some(t)) => Width::Vaes256(t),
            (None, None) => Width::Ni(ni),
        }
    }
}

/// An AES key schedule for AES-NI (128, 192 or 256-bit keys): the
/// encryption round keys, the decryption ones for AESDEC, and the widest
/// block backend this CPU runs them on.
#[derive(Clone)]
pub(crate) struct Keys {
    rk: [__m128i; 15],
    dk: [__m128i; 15],
    rounds: usize,
    ni: AesNi,
    width: Width,
}

impl Drop for Keys {
    fn drop(&mut self) {
        crate::wipe::wipe_vectors(&mut self.rk);
        crate::wipe::wipe_vectors(&mut self.dk);
    }
}

/// Enciphers blocks with a schedule known to be usable on this CPU. Only
/// handed out by [`Keys::run`], after the CPU features were checked.
pub(crate) struct Ni<'a> {
    keys: &'a Keys,
}

impl Keys {
    /// Expands `key` (16, 24 or 32 bytes) if the CPU has AES-NI and SSE4.1.
    pub(crate) fn new(key: &[u8]) -> Option<Self> {
        let ni = AesNi::get()?;
        let rounds = key.len() / 4 + 6;
        // SAFETY: `ni` proves the features the expansions are compiled for.
        let (rk, dk) = unsafe {
            let rk = match key.len() {
                16 => expand128(ni, key),
                24 => expand192(ni, key),
                32 => expand256(ni, key),
                _ => return None,
            };
            (rk, invert(ni, &rk, rounds))
        };
        Some(Keys { rk, dk, rounds, ni, width: Width::detect(ni) })
    }

    /// The proof of AES-NI this schedule was expanded with.
    pub(crate) fn token(&self) -> AesNi {
        self.ni
    }

    /// The widest block backend this CPU runs the schedule on.
    pub(crate) fn width(&self) -> Width {
        self.width
    }

    /// The round keys 0..=Nr as bytes, in the order AES-NI loads them,
    /// zeros after the last: the schedule the VAES kernels of OCB and EAX
    /// broadcast. The caller wipes the copy.
    pub(crate) fn round_key_bytes(&self) -> [[u8; 16]; 15] {
        self.rk.map(crate::simd::cast)
    }

    /// [`Keys::round_key_bytes`] of the decryption schedule.
    pub(crate) fn dec_key_bytes(&self) -> [[u8; 16]; 15] {
        self.dk.map(crate::simd::cast)
    }

    /// The number of rounds: 10, 12 or 14.
    pub(crate) fn rounds(&self) -> usize {
        self.rounds
    }

    /// The round keys 0..=Nr as vectors, for kernels compiled with AES-NI
    /// (through [`encrypt_m128`]).
    pub(crate) fn schedule(&self) -> &[__m128i; 15] {
        &self.rk
    }

    /// The decryption round keys 0..=Nr for AESDEC (the equivalent inverse
    /// cipher: the encryption keys reversed, the middle ones through AESIMC).
    pub(crate) fn dec_schedule(&self) -> &[__m128i; 15] {
        &self.dk
    }

    /// Runs `f` compiled with AES-NI enabled, so [`Ni`]'s block functions
    /// inline into it with the schedule at hand.
    #[inline]
    pub(crate) fn run<R>(&self, f: impl FnOnce(&Ni<'_>) -> R) -> R {
        #[target_feature(enable = "aes,sse4.1")]
        fn go<R>(_: AesNi, ni: &Ni<'_>, f: impl FnOnce(&Ni<'_>) -> R) -> R {
            f(ni)
        }
        // SAFETY: `self.ni` proves AES-NI and SSE4.1.
        unsafe { go(self.ni, &Ni { keys: self }, f) }
    }
}

impl Ni<'_> {
    /// One block through the rounds: AESENC with the encryption schedule,
    /// or (`DEC`) AESDEC with the decryption one.
    #[inline(always)]
    fn rounds<const DEC: bool>(&self, b: __m128i) -> __m128i {
        let (k, nr) = (if DEC { &self.keys.dk } else { &self.keys.rk }, self.keys.rounds);
        // SAFETY: Ni values only exist inside Keys::run, whose closure runs in a
        // function compiled for (and entered only on CPUs with) AES-NI and SSE4.1.
        unsafe {
            let mut b = _mm_xor_si128(b, k[0]);
            for kr in &k[1..nr] {
                b = if DEC { _mm_aesdec_si128(b, *kr) } else { _mm_aesenc_si128(b, *kr) };
            }
            if DEC { _mm_aesdeclast_si128(b, k[nr]) } else { _mm_aesenclast_si128(b, k[nr]) }
        }
    }

    #[inline(always)]
    fn encrypt(&self, lane0: u64, lane1: u64) -> (u64, u64) {
        let [l0, l1]: [u64; 2] = cast(self.rounds::<false>(cast([lane0, lane1])));
        (l0, l1)
    }

    /// Enciphers (or, with `DEC`, deciphers) `b` in place.
    #[inline(always)]
    pub(crate) fn block<const DEC: bool>(&self, b: &mut [u8; 16]) {
        *b = cast(self.rounds::<DEC>(cast(*b)));
    }

    /// Encrypts the block `x.to_be_bytes()`; returns the output read big-endian.
    #[inline(always)]
    pub(crate) fn encrypt_be(&self, x: u128) -> u128 {
        let (h, l) = self.encrypt(((x >> 64) as u64).swap_bytes(), (x as u64).swap_bytes());
        ((h.swap_bytes() as u128) << 64) | l.swap_bytes() as u128
    }

    /// Encrypts the block `x.to_le_bytes()`; returns the output read little-endian.
    #[inline(always)]
    pub(crate) fn encrypt_le(&self, x: u128) -> u128 {
        let (l, h) = self.encrypt(x as u64, (x >> 64) as u64);
        ((h as u128) << 64) | l as u128
    }
}

/// One block through `NR` rounds of the schedule `k` ([`Keys::schedule`]),
/// for kernels compiled with AES-NI, into which it inlines: the block stays
/// in a vector register, so a chain of these is one AES latency per block.
#[inline]
#[target_feature(enable = "aes")]
pub(crate) fn encrypt_m128<const NR: usize>(k: &[__m128i; 15], b: __m128i) -> __m128i {
    let mut b = _mm_xor_si128(b, k[0]);
    for kr in &k[1..NR] {
        b = _mm_aesenc_si128(b, *kr);
    }
    _mm_aesenclast_si128(b, k[NR])
}

/// Loads `b[..16]` into a vector.
#[inline(always)]
pub(crate) fn ld(b: &[u8]) -> __m128i {
    crate::simd::load(b)
}

/// Stores a vector into `b[..16]`.
#[inline(always)]
pub(crate) fn st(b: &mut [u8], x: __m128i) {
    crate::simd::store(b, x)
}

#[target_feature(enable = "aes,sse4.1")]
fn load(b: &[u8]) -> __m128i {
    let mut a = [0u8; 16];
    a[..b.len()].copy_from_slice(b);
    _mm_set_epi64x(
        i64::from_le_bytes(a[8..].try_into().expect("8 bytes")),
        i64::from_le_bytes(a[..8].try_into().expect("8 bytes")),
    )
}

/// The decryption schedule of `rk` for AESDEC: `rk` reversed, round keys
/// 1..Nr through InvMixColumns (AESIMC); zeros after round Nr.
#[target_feature(enable = "aes,sse4.1")]
fn invert(_: AesNi, rk: &[__m128i; 15], nr: usize) -> [__m128i; 15] {
    let mut dk = [_mm_setzero_si128(); 15];
    dk[0] = rk[nr];
    dk[nr] = rk[0];
    for i in 1..nr {
        dk[i] = _mm_aesimc_si128(rk[nr - i]);
    }
    dk
}

/// Folds the previous round key into the next (the shift-and-xor of FIPS 197's KeyExpansion).
#[target_feature(enable = "aes,sse4.1")]
fn fold(mut t: __m128i, assist: __m128i) -> __m128i {
    let mut s = _mm_slli_si128::<4>(t);
    t = _mm_xor_si128(t, s);
    s = _mm_slli_si128::<4>(s);
    t = _mm_xor_si128(t, s);
    s = _mm_slli_si128::<4>(s);
    _mm_xor_si128(_mm_xor_si128(t, s), assist)
}

#[target_feature(enable = "aes,sse4.1")]
fn expand128(_: AesNi, key: &[u8]) -> [__m128i; 15] {
    let mut rk = [_mm_setzero_si128(); 15];
    rk[0] = load(key);
    macro_rules! step {
        ($i:expr, $rcon:expr) => {
            rk[$i] = fold(rk[$i - 1], _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<$rcon>(rk[$i - 1])));
        };
    }
    step!(1, 0x01);
    step!(2, 0x02);
    step!(3, 0x04);
    step!(4, 0x08);
    step!(5, 0x10);
    step!(6, 0x20);
    step!(7, 0x40);
    step!(8, 0x80);
    step!(9, 0x1b);
    step!(10, 0x36);
    rk
}

#[target_feature(enable = "aes,sse4.1")]
fn expand256(_: AesNi, key: &[u8]) -> [__m128i; 15] {
    let mut rk = [_mm_setzero_si128(); 15];
    rk[0] = load(&key[..16]);
    rk[1] = load(&key[16..]);
    // Even round keys take RotWord(SubWord(.)) xor rcon of the previous key,
    // odd ones SubWord(.) without rotation.
    macro_rules! even {
        ($i:expr, $rcon:expr) => {
            rk[$i] = fold(rk[$i - 2], _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<$rcon>(rk[$i - 1])));
        };
    }
    macro_rules! odd {
        ($i:expr) => {
            rk[$i] = fold(rk[$i - 2], _mm_shuffle_epi32::<0xaa>(_mm_aeskeygenassist_si128::<0>(rk[$i - 1])));
        };
    }
    even!(2, 0x01);
    odd!(3);
    even!(4, 0x02);
    odd!(5);
    even!(6, 0x04);
    odd!(7);
    even!(8, 0x08);
    odd!(9);
    even!(10, 0x10);
    odd!(11);
    even!(12, 0x20);
    odd!(13);
    even!(14, 0x40);
    rk
}

#[target_feature(enable = "aes,sse4.1")]
fn expand192(_: AesNi, key: &[u8]) -> [__m128i; 15] {
    // The schedule in 32-bit words, six per key-length step (FIPS 197 5.2),
    // with SubWord/RotWord from aeskeygenassist; then packed four per round key.
    let mut w = [0u32; 52];
    for (i, c) in key.chunks_exact(4).enumerate() {
        w[i] = u32::from_le_bytes(c.try_into().expect("4 bytes"));
    }
    let rcon = [0x01u32, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80];
    for i in 6..52 {
        let mut t = w[i - 1];
        if i % 6 == 0 {
            // aeskeygenassist word 1 = RotWord(SubWord(X1)) xor RCON; put t in X1.
            let a = _mm_aeskeygenassist_si128::<0>(_mm_set_epi32(0, 0, t as i32, 0));
            t = (_mm_extract_epi32::<1>(a) as u32) ^ rcon[i / 6 - 1];
        }
        w[i] = w[i - 6] ^ t;
    }
    let mut rk = [_mm_setzero_si128(); 15];
    for (r, k) in rk.iter_mut().take(13).enumerate() {
        *k = _mm_set_epi32(w[4 * r + 3] as i32, w[4 * r + 2] as i32, w[4 * r + 1] as i32, w[4 * r] as i32);
    }
    w.iter_mut().for_each(|x| *x = 0);
    rk
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::Aes;

    #[test]
    fn matches_the_aes_crate() {
        let Some(_) = Keys::new(&[0; 16]) else { return };
        let mut s = 0x0123_4567_89ab_cdefu64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for len in [16, 24, 32] {
            for _ in 0..50 {
                let key: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                let x = ((next() as u128) << 64) | next() as u128;
                let aes = Aes::with_crate(&key).unwrap();
                let ni = Keys::new(&key).unwrap();
                let mut b = x.to_be_bytes();
                aes.encrypt_block(&mut b);
                assert_eq!(ni.run(|n| n.encrypt_be(x)), u128::from_be_bytes(b), "key length {len}");
                let mut b = x.to_le_bytes();
                aes.encrypt_block(&mut b);
                assert_eq!(ni.run(|n| n.encrypt_le(x)), u128::from_le_bytes(b), "key length {len}");
            }
        }
    }
}
