//! The EAX body (CTR and OMAC^2 over all complete blocks but the last) with
//! AES-NI, the round keys in registers.
//!
//! Measured faster than the same loop over the `aes` crate's backend. Each
//! step runs the dependent CMAC block and the keystream block two steps
//! ahead round by round, side by side: the chain's rounds issue first, the
//! keystream's fill the AES unit's idle cycles between them (each AESENC
//! waits about four cycles for the previous one), so the chain's latency
//! alone sets the pace and the keystream comes for free. The keystream a
//! step needs was computed two steps earlier, so the CTR XOR never sits on
//! the chain's critical path.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Direction;
use crate::aes::Block;

/// AES-NI round keys for the EAX body.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Ni {
    rk: [Block; 15],
    rounds: usize,
}

impl core::fmt::Debug for Ni {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Ni(..)")
    }
}

impl Ni {
    /// Expands `key` if this CPU has AES-NI (and SSE4.1, which every
    /// AES-NI CPU has), with the crate's one AES-NI key schedule.
    pub(crate) fn new(key: &[u8]) -> Option<Self> {
        let rk = crate::aes::ni::Keys::new(key)?.round_key_bytes();
        Some(Ni { rk, rounds: key.len() / 4 + 6 })
    }

    /// CTR from `ctr0` over `data` (complete blocks) in place, and the CMAC
    /// chain from `x` over the ciphertext (produced when encrypting, read when decrypting).
    /// Returns the chaining value after the last block of `data`.
    #[inline]
    pub(crate) fn body(&self, data: &mut [u8], ctr0: u128, x: Block, dir: Direction) -> Block {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: `Ni` exists only when AES-NI was detected.
        unsafe {
            match (self.rounds, dir.is_encrypt()) {
                (10, true) => body::<10, true>(&self.rk, data, ctr0, x),
                (10, false) => body::<10, false>(&self.rk, data, ctr0, x),
                (12, true) => body::<12, true>(&self.rk, data, ctr0, x),
                (12, false) => body::<12, false>(&self.rk, data, ctr0, x),
                (_, true) => body::<14, true>(&self.rk, data, ctr0, x),
                (_, false) => body::<14, false>(&self.rk, data, ctr0, x),
            }
        }
    }
}

#[inline(always)]
fn ld(b: &Block) -> __m128i {
    // SAFETY: a 16-byte unaligned load from a 16-byte array (SSE2, always on x86-64).
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

#[target_feature(enable = "aes")]
fn body<const NR: usize, const SEAL: bool>(rk: &[Block; 15], data: &mut [u8], ctr0: u128, x: Block) -> Block {
    let k: [__m128i; 15] = core::array::from_fn(|r| ld(&rk[r]));
    let ctr = |i: usize| ld(&ctr0.wrapping_add(i as u128).to_be_bytes());
    let enc = |b: __m128i| {
        let mut b = _mm_xor_si128(b, k[0]);
        for kr in &k[1..NR] {
            b = _mm_aesenc_si128(b, *kr);
        }
        _mm_aesenclast_si128(b, k[NR])
    };
    let (mut ks_a, mut ks_b) = (enc(ctr(0)), enc(ctr(1)));
    let mut x = ld(&x);
    for (i, blk) in data.chunks_exact_mut(16).enumerate() {
        // SAFETY: `blk` is 16 bytes.
        let p = unsafe { _mm_loadu_si128(blk.as_ptr().cast()) };
        let o = _mm_xor_si128(p, ks_a);
        // SAFETY: as above.
        unsafe { _mm_storeu_si128(blk.as_mut_ptr().cast(), o) };
        let c = if SEAL { o } else { p };
        // The chain's block and the keystream two blocks ahead, round by round.
        let mut xc = _mm_xor_si128(x, _mm_xor_si128(c, k[0]));
        let mut kn = _mm_xor_si128(ctr(i + 2), k[0]);
        for kr in &k[1..NR] {
            xc = _mm_aesenc_si128(xc, *kr);
            kn = _mm_aesenc_si128(kn, *kr);
        }
        x = _mm_aesenclast_si128(xc, k[NR]);
        ks_a = ks_b;
        ks_b = _mm_aesenclast_si128(kn, k[NR]);
    }
    let mut out = [0u8; 16];
    // SAFETY: a 16-byte store into a 16-byte array.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), x) };
    out
}
