//! The OCB3 bulk (RFC 7253 section 4.2, complete blocks) with VAES on
//! 256-bit vectors: two blocks per register, sixteen per iteration.
//!
//! Measured faster than the same loop over the `aes` crate's backend, which
//! moves every block through memory three times (the offsets, its own batch
//! buffer, the output). Here a block is loaded once and stored once:
//! - offsets come from the Gray code: within an aligned group of 16 blocks,
//!   Offset_{16k+j} = Offset_{16k} xor G_j, G_j the XOR of the L_i for the
//!   bits of j xor (j >> 1) (a per-key table), for j < 16, and
//!   Offset_{16k+16} = Offset_{16k+15} xor L_{ntz(16k+16)};
//! - the input offset is folded into round key 0 and the output offset into
//!   the last round key (AESENCLAST(x, k xor o) = AESENCLAST(x, k) xor o);
//! - the checksum is folded into a 256-bit accumulator (two lanes) and
//!   halved once at the end.
//!
//! Chosen at run time (`is_x86_feature_detected!`); without VAES and AVX2
//! the `aes` crate path in `ocb.rs` runs instead.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::aes::Block;
use crate::aes::ni::Keys;

/// Round keys broadcast to both 128-bit lanes, and the Gray-code offsets.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Vaes {
    /// Encryption round keys 0..=rounds, each twice.
    enc: [[u8; 32]; 15],
    /// Decryption round keys for AESDEC (equivalent inverse cipher).
    dec: [[u8; 32]; 15],
    rounds: usize,
    /// (G_{2t+1}, G_{2t+2}) for t in 0..8, with G_16 taken as G_15.
    gray: [[u8; 32]; 8],
    /// G_15 = L_3: Offset_{16k+15} xor Offset_{16k}.
    g15: Block,
}

impl core::fmt::Debug for Vaes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Vaes(..)")
    }
}

fn pair(a: &Block, b: &Block) -> [u8; 32] {
    let mut p = [0u8; 32];
    p[..16].copy_from_slice(a);
    p[16..].copy_from_slice(b);
    p
}

impl Vaes {
    /// Expands `key` for the VAES kernels if this CPU has VAES, AVX2 and
    /// AES-NI; `l` is the OCB table L_0, L_1, ... (at least 4 entries).
    pub(crate) fn new(key: &[u8], l: &[Block]) -> Option<Self> {
        if !(is_x86_feature_detected!("vaes") && is_x86_feature_detected!("avx2")) {
            return None;
        }
        let (mut ek, mut dk, rounds) = schedules(key)?;
        let g = |j| gray_offset(l, j);
        let gray = core::array::from_fn(|t| pair(&g(2 * t + 1), &g(if t == 7 { 15 } else { 2 * t + 2 })));
        let v = Vaes {
            enc: core::array::from_fn(|r| pair(&ek[r], &ek[r])),
            dec: core::array::from_fn(|r| pair(&dk[r], &dk[r])),
            rounds,
            gray,
            g15: g(15),
        };
        ek.zeroize();
        dk.zeroize();
        Some(v)
    }

    /// Encrypts the first multiple of 256 bytes of `data` (complete blocks
    /// `index + 1 ..`), with Offset_index = `off`; `index` must be a multiple
    /// of 16. Returns the bytes done, the new offset and the checksum of the
    /// plaintext done.
    #[inline]
    pub(crate) fn seal(&self, l: &[Block; 64], data: &mut [u8], index: u64, off: Block) -> (usize, Block, Block) {
        debug_assert_eq!(index % 16, 0);
        // SAFETY: `Vaes` exists only when VAES, AVX2 and AES-NI were detected.
        unsafe {
            match self.rounds {
                10 => bulk::<10, true>(self, l, data, index, off),
                12 => bulk::<12, true>(self, l, data, index, off),
                _ => bulk::<14, true>(self, l, data, index, off),
            }
        }
    }

    /// Decrypts like [`Vaes::seal`] encrypts; the checksum is of the plaintext produced.
    #[inline]
    pub(crate) fn open(&self, l: &[Block; 64], data: &mut [u8], index: u64, off: Block) -> (usize, Block, Block) {
        debug_assert_eq!(index % 16, 0);
        // SAFETY: `Vaes` exists only when VAES, AVX2 and AES-NI were detected.
        unsafe {
            match self.rounds {
                10 => bulk::<10, false>(self, l, data, index, off),
                12 => bulk::<12, false>(self, l, data, index, off),
                _ => bulk::<14, false>(self, l, data, index, off),
            }
        }
    }
}

/// The encryption and decryption round keys of `key` and its number of
/// rounds, if this CPU has AES-NI: the crate's one AES-NI schedule, and its
/// inverse for AESDEC. The caller wipes the keys.
pub(super) fn schedules(key: &[u8]) -> Option<([Block; 15], [Block; 15], usize)> {
    let ek = Keys::new(key)?.round_key_bytes();
    let rounds = key.len() / 4 + 6;
    // SAFETY: `Keys::new` succeeded, so this CPU has AES-NI.
    let dk = unsafe { invert(&ek, rounds) };
    Some((ek, dk, rounds))
}

/// G_j = Offset_{m + j} xor Offset_m for any m that is a multiple of the
/// next power of two above j: the XOR of the L_i for the set bits of
/// j xor (j >> 1) (RFC 7253's offsets in Gray-code form).
pub(super) fn gray_offset(l: &[Block], j: usize) -> Block {
    let mut gj = j ^ (j >> 1);
    let mut acc = [0u8; 16];
    while gj != 0 {
        let li = &l[gj.trailing_zeros() as usize];
        acc = core::array::from_fn(|i| acc[i] ^ li[i]);
        gj &= gj - 1;
    }
    acc
}

#[inline(always)]
fn ld(p: &[u8; 32]) -> __m256i {
    // SAFETY: `p` is 32 readable bytes; unaligned loads are allowed; AVX is
    // enabled in every caller (they are `target_feature(enable = "avx2")`).
    unsafe { _mm256_loadu_si256(p.as_ptr().cast()) }
}

/// The bulk loop, `NR` rounds; `SEAL` encrypts (checksum of the input),
/// else decrypts (checksum of the output).
#[target_feature(enable = "avx2,vaes,aes")]
fn bulk<const NR: usize, const SEAL: bool>(
    k: &Vaes,
    l: &[Block; 64],
    data: &mut [u8],
    mut index: u64,
    off: Block,
) -> (usize, Block, Block) {
    let keys = if SEAL { &k.enc } else { &k.dec };
    let k0 = ld(&keys[0]);
    let klast = ld(&keys[NR]);
    // SAFETY: a 16-byte load from a 16-byte array.
    let mut base = unsafe { _mm_loadu_si128(off.as_ptr().cast()) };
    // SAFETY: as above.
    let g15 = unsafe { _mm_loadu_si128(k.g15.as_ptr().cast()) };
    let mut sum = _mm256_setzero_si256();
    let mut done = 0;
    for chunk in data.chunks_exact_mut(256) {
        index += 16;
        // SAFETY: a 16-byte load from a 16-byte array.
        let lnext = unsafe { _mm_loadu_si128(l[index.trailing_zeros() as usize].as_ptr().cast()) };
        let bb = _mm256_broadcastsi128_si256(base);
        let mut o = [bb; 8];
        for (t, o) in o.iter_mut().enumerate() {
            *o = _mm256_xor_si256(bb, ld(&k.gray[t]));
        }
        o[7] = _mm256_xor_si256(o[7], _mm256_inserti128_si256::<1>(_mm256_setzero_si256(), lnext));
        let mut d = [bb; 8];
        for t in 0..8 {
            // SAFETY: `chunk` is 256 bytes, so bytes 32t..32t+32 are in bounds.
            let x = unsafe { _mm256_loadu_si256(chunk.as_ptr().add(32 * t).cast()) };
            if SEAL {
                sum = _mm256_xor_si256(sum, x);
            }
            d[t] = _mm256_xor_si256(x, _mm256_xor_si256(o[t], k0));
        }
        for kr in &keys[1..NR] {
            let kr = ld(kr);
            for x in &mut d {
                *x = if SEAL { _mm256_aesenc_epi128(*x, kr) } else { _mm256_aesdec_epi128(*x, kr) };
            }
        }
        for t in 0..8 {
            let kl = _mm256_xor_si256(klast, o[t]);
            let y = if SEAL { _mm256_aesenclast_epi128(d[t], kl) } else { _mm256_aesdeclast_epi128(d[t], kl) };
            if !SEAL {
                sum = _mm256_xor_si256(sum, y);
            }
            // SAFETY: as for the load above.
            unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().add(32 * t).cast(), y) };
        }
        base = _mm_xor_si128(base, _mm_xor_si128(g15, lnext));
        done += 256;
    }
    let mut off = [0u8; 16];
    let mut s = [0u8; 16];
    let folded = _mm_xor_si128(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
    // SAFETY: 16-byte stores into 16-byte arrays.
    unsafe {
        _mm_storeu_si128(off.as_mut_ptr().cast(), base);
        _mm_storeu_si128(s.as_mut_ptr().cast(), folded);
    }
    (done, off, s)
}

/// Decryption round keys for AESDEC: the encryption keys reversed, the
/// middle ones through InvMixColumns (AESIMC).
#[target_feature(enable = "aes")]
fn invert(ek: &[Block; 15], nr: usize) -> [Block; 15] {
    let mut dk = [[0u8; 16]; 15];
    dk[0] = ek[nr];
    dk[nr] = ek[0];
    for i in 1..nr {
        // SAFETY: 16-byte loads and stores within 16-byte arrays.
        unsafe {
            let x = _mm_aesimc_si128(_mm_loadu_si128(ek[nr - i].as_ptr().cast()));
            _mm_storeu_si128(dk[i].as_mut_ptr().cast(), x);
        }
    }
    dk
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::Aes;

    /// One block through the expanded schedule with AES-NI.
    #[target_feature(enable = "aes")]
    fn encrypt_one(rk: &[Block; 15], nr: usize, b: Block) -> Block {
        // SAFETY: 16-byte loads and stores within 16-byte arrays.
        unsafe {
            let mut x = _mm_xor_si128(_mm_loadu_si128(b.as_ptr().cast()), _mm_loadu_si128(rk[0].as_ptr().cast()));
            for k in &rk[1..nr] {
                x = _mm_aesenc_si128(x, _mm_loadu_si128(k.as_ptr().cast()));
            }
            x = _mm_aesenclast_si128(x, _mm_loadu_si128(rk[nr].as_ptr().cast()));
            let mut out = [0u8; 16];
            _mm_storeu_si128(out.as_mut_ptr().cast(), x);
            out
        }
    }

    #[test]
    fn key_expansion_matches_the_aes_crate() {
        if !is_x86_feature_detected!("aes") {
            return;
        }
        for kl in [16usize, 24, 32] {
            for seed in 0..20u8 {
                let key: Vec<u8> =
                    (0..kl as u8).map(|i| i.wrapping_mul(37).wrapping_add(seed.wrapping_mul(101))).collect();
                let rk = Keys::new(&key).unwrap().round_key_bytes();
                let aes = Aes::new(&key).unwrap();
                let mut b = [seed; 16];
                // SAFETY: AES-NI was detected above.
                let got = unsafe { encrypt_one(&rk, kl / 4 + 6, b) };
                aes.encrypt_block(&mut b);
                assert_eq!(got, b, "AES-{}", kl * 8);
            }
        }
    }
}
