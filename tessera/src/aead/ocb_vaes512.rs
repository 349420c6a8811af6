//! The OCB3 bulk (RFC 7253 section 4.2, complete blocks) with VAES on
//! 512-bit vectors: four blocks per register, 32 per iteration.
//!
//! The same loop as `ocb_vaes.rs` (see there: Gray-code offsets, input
//! offset folded into round key 0 and output offset into the last), twice
//! as wide: within an aligned group of 32 blocks Offset_{32k+j} =
//! Offset_{32k} xor G_j for j < 32, and Offset_{32k+32} = Offset_{32k+31}
//! xor L_{ntz(32k+32)}.
//!
//! Chosen at run time (`is_x86_feature_detected!`) when the CPU has
//! AVX-512F and VAES, and only where it was measured faster than the
//! 256-bit kernel (see `ocb/kernel.rs`).
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::ocb_vaes::{gray_offset, schedules};
use crate::aes::Block;

/// Round keys and the Gray-code offsets of one key.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Vaes512 {
    /// Encryption round keys 0..=rounds.
    enc: [Block; 15],
    /// Decryption round keys for AESDEC (equivalent inverse cipher).
    dec: [Block; 15],
    rounds: usize,
    /// G_1, ..., G_31, then G_31 again in the place of G_32.
    gray: [Block; 32],
}

impl core::fmt::Debug for Vaes512 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Vaes512(..)")
    }
}

impl Vaes512 {
    /// Expands `key` for the 512-bit kernel if this CPU has AVX-512F, VAES
    /// and AES-NI; `l` is the OCB table L_0, L_1, ... (at least 5 entries).
    pub(crate) fn new(key: &[u8], l: &[Block]) -> Option<Self> {
        if !(is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("vaes")) {
            return None;
        }
        let (mut enc, mut dec, rounds) = schedules(key)?;
        let v = Vaes512 { enc, dec, rounds, gray: core::array::from_fn(|j| gray_offset(l, (j + 1).min(31))) };
        enc.zeroize();
        dec.zeroize();
        Some(v)
    }

    /// Encrypts the first multiple of 512 bytes of `data` (complete blocks
    /// `index + 1 ..`), with Offset_index = `off`; `index` must be a multiple
    /// of 32. Returns the bytes done, the new offset and the checksum of the
    /// plaintext done.
    #[inline]
    pub(crate) fn seal(&self, l: &[Block; 64], data: &mut [u8], index: u64, off: Block) -> (usize, Block, Block) {
        debug_assert_eq!(index % 32, 0);
        // SAFETY: `Vaes512` exists only when AVX-512F, VAES and AES-NI were detected.
        unsafe {
            match self.rounds {
                10 => bulk::<10, true>(self, l, data, index, off),
                12 => bulk::<12, true>(self, l, data, index, off),
                _ => bulk::<14, true>(self, l, data, index, off),
            }
        }
    }

    /// Decrypts like [`Vaes512::seal`] encrypts; the checksum is of the plaintext produced.
    #[inline]
    pub(crate) fn open(&self, l: &[Block; 64], data: &mut [u8], index: u64, off: Block) -> (usize, Block, Block) {
        debug_assert_eq!(index % 32, 0);
        // SAFETY: `Vaes512` exists only when AVX-512F, VAES and AES-NI were detected.
        unsafe {
            match self.rounds {
                10 => bulk::<10, false>(self, l, data, index, off),
                12 => bulk::<12, false>(self, l, data, index, off),
                _ => bulk::<14, false>(self, l, data, index, off),
            }
        }
    }
}

#[inline(always)]
fn ld(b: &Block) -> __m128i {
    // SAFETY: a 16-byte unaligned load from a 16-byte array (SSE2).
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// The bulk loop, `NR` rounds; `SEAL` encrypts (checksum of the input),
/// else decrypts (checksum of the output).
#[target_feature(enable = "avx512f,vaes,aes")]
fn bulk<const NR: usize, const SEAL: bool>(
    k: &Vaes512,
    l: &[Block; 64],
    data: &mut [u8],
    mut index: u64,
    off: Block,
) -> (usize, Block, Block) {
    let keys = if SEAL { &k.enc } else { &k.dec };
    let rk: [__m512i; 15] = core::array::from_fn(|r| _mm512_broadcast_i32x4(ld(&keys[r])));
    let mut base = ld(&off);
    let g31 = ld(&k.gray[30]);
    let mut sum = _mm512_setzero_si512();
    let mut done = 0;
    for chunk in data.chunks_exact_mut(512) {
        index += 32;
        let lnext = ld(&l[index.trailing_zeros() as usize]);
        let bb = _mm512_broadcast_i32x4(base);
        let mut o = [bb; 8];
        for (t, o) in o.iter_mut().enumerate() {
            // SAFETY: `gray` holds 32 blocks, so blocks 4t..4t+4 (64 bytes) are in bounds.
            *o = _mm512_xor_si512(bb, unsafe { _mm512_loadu_si512(k.gray.as_ptr().add(4 * t).cast()) });
        }
        o[7] = _mm512_xor_si512(o[7], _mm512_inserti32x4::<3>(_mm512_setzero_si512(), lnext));
        let mut d = [bb; 8];
        for t in 0..8 {
            // SAFETY: `chunk` is 512 bytes, so bytes 64t..64t+64 are in bounds.
            let x = unsafe { _mm512_loadu_si512(chunk.as_ptr().add(64 * t).cast()) };
            if SEAL {
                sum = _mm512_xor_si512(sum, x);
            }
            d[t] = _mm512_xor_si512(x, _mm512_xor_si512(o[t], rk[0]));
        }
        for kr in &rk[1..NR] {
            for x in &mut d {
                *x = if SEAL { _mm512_aesenc_epi128(*x, *kr) } else { _mm512_aesdec_epi128(*x, *kr) };
            }
        }
        for t in 0..8 {
            let kl = _mm512_xor_si512(rk[NR], o[t]);
            let y = if SEAL { _mm512_aesenclast_epi128(d[t], kl) } else { _mm512_aesdeclast_epi128(d[t], kl) };
            if !SEAL {
                sum = _mm512_xor_si512(sum, y);
            }
            // SAFETY: as for the load above.
            unsafe { _mm512_storeu_si512(chunk.as_mut_ptr().add(64 * t).cast(), y) };
        }
        base = _mm_xor_si128(base, _mm_xor_si128(g31, lnext));
        done += 512;
    }
    let folded = _mm_xor_si128(
        _mm_xor_si128(_mm512_extracti32x4_epi32::<0>(sum), _mm512_extracti32x4_epi32::<1>(sum)),
        _mm_xor_si128(_mm512_extracti32x4_epi32::<2>(sum), _mm512_extracti32x4_epi32::<3>(sum)),
    );
    let mut off = [0u8; 16];
    let mut s = [0u8; 16];
    // SAFETY: 16-byte stores into 16-byte arrays.
    unsafe {
        _mm_storeu_si128(off.as_mut_ptr().cast(), base);
        _mm_storeu_si128(s.as_mut_ptr().cast(), folded);
    }
    (done, off, s)
}
