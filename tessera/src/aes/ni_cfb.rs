//! AES-NI CFB-128 encryption over whole blocks (OpenPGP CFB, RFC 9580
//! §5.13.1), the round keys in registers ([`super::ni::Keys::schedule`]).
//!
//! CFB encryption is a chain: `C_i = E(C_{i-1}) ^ P_i`, each block waiting
//! for the last, so its floor is one AES latency per block. The kernel folds
//! the plaintext block and round key 0 into the last round key:
//! `AESENCLAST(s, k_last ^ P_i ^ k_0) = C_i ^ k_0` is the next block's state
//! after round 0, so nothing but the rounds sits on the chain's critical
//! path; `C_i` itself is that value XOR `k_0`, off the path.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::ni::{Keys, ld, st};
use crate::Direction;
use crate::cpu::AesNi;

/// Encrypts the whole blocks of `dst` (from `src` when given, else in place)
/// after the ciphertext block `prev`; returns the last ciphertext block.
#[inline]
#[target_feature(enable = "aes")]
fn chain<const NR: usize>(_: AesNi, k: &[__m128i; 15], prev: __m128i, src: Option<&[u8]>, dst: &mut [u8]) -> __m128i {
    debug_assert!(dst.len().is_multiple_of(16) && src.is_none_or(|s| s.len() == dst.len()));
    let kx = _mm_xor_si128(k[NR], k[0]);
    let mut s = _mm_xor_si128(prev, k[0]);
    for i in 0..dst.len() / 16 {
        let p = ld(match src {
            Some(s) => &s[16 * i..],
            None => &dst[16 * i..],
        });
        for kr in &k[1..NR] {
            s = _mm_aesenc_si128(s, *kr);
        }
        s = _mm_aesenclast_si128(s, _mm_xor_si128(kx, p));
        st(&mut dst[16 * i..], _mm_xor_si128(s, k[0]));
    }
    _mm_xor_si128(s, k[0])
}

/// Blocks decrypted side by side: the AES units pipeline this many
/// independent rounds.
const WIDE: usize = 8;

/// Decrypts the whole blocks of `data` in place after the ciphertext block
/// `prev`: `P_i = C_i ^ E(C_{i-1})`, every `C` known, so [`WIDE`] blocks
/// run round by round side by side. Returns the last ciphertext block.
#[inline]
#[target_feature(enable = "aes")]
fn unchain<const NR: usize>(_: AesNi, k: &[__m128i; 15], mut prev: __m128i, data: &mut [u8]) -> __m128i {
    debug_assert!(data.len().is_multiple_of(16));
    let mut wide = data.chunks_exact_mut(16 * WIDE);
    for group in &mut wide {
        let mut c = [prev; WIDE];
        let mut s = [prev; WIDE];
        for j in 0..WIDE {
            c[j] = ld(&group[16 * j..]);
        }
        s[0] = _mm_xor_si128(prev, k[0]);
        for j in 1..WIDE {
            s[j] = _mm_xor_si128(c[j - 1], k[0]);
        }
        for kr in &k[1..NR] {
            for x in &mut s {
                *x = _mm_aesenc_si128(*x, *kr);
            }
        }
        for j in 0..WIDE {
            st(&mut group[16 * j..], _mm_xor_si128(_mm_aesenclast_si128(s[j], k[NR]), c[j]));
        }
        prev = c[WIDE - 1];
    }
    for b in wide.into_remainder().chunks_exact_mut(16) {
        let c = ld(b);
        let mut s = _mm_xor_si128(prev, k[0]);
        for kr in &k[1..NR] {
            s = _mm_aesenc_si128(s, *kr);
        }
        st(b, _mm_xor_si128(_mm_aesenclast_si128(s, k[NR]), c));
        prev = c;
    }
    prev
}

/// CFB-128 over the whole blocks of `dst` under an AES-NI schedule, after
/// the ciphertext block `prev`: encryption from `src` when given (else in
/// place), or decryption in place (`src` must be `None`). Returns the last
/// ciphertext block.
pub(crate) fn cfb(keys: &Keys, prev: &[u8; 16], src: Option<&[u8]>, dst: &mut [u8], dir: Direction) -> [u8; 16] {
    assert!(dir == Direction::Encrypt || src.is_none(), "CFB decrypts in place");
    let (k, t, prev) = (keys.schedule(), keys.token(), ld(prev));
    // SAFETY: a `Keys` value holds the `AesNi` token, proof of AES-NI and SSE4.1.
    let last = unsafe {
        match (keys.rounds(), dir) {
            (10, Direction::Encrypt) => chain::<10>(t, k, prev, src, dst),
            (12, Direction::Encrypt) => chain::<12>(t, k, prev, src, dst),
            (_, Direction::Encrypt) => chain::<14>(t, k, prev, src, dst),
            (10, Direction::Decrypt) => unchain::<10>(t, k, prev, dst),
            (12, Direction::Decrypt) => unchain::<12>(t, k, prev, dst),
            (_, Direction::Decrypt) => unchain::<14>(t, k, prev, dst),
        }
    };
    let mut out = [0u8; 16];
    st(&mut out, last);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::Aes;

    /// The chain against CFB written with the `aes` crate's single blocks.
    #[test]
    fn matches_block_by_block_cfb() {
        for len in [16, 24, 32] {
            let key: Vec<u8> = (0..len as u8).map(|i| i.wrapping_mul(29) ^ 0x5a).collect();
            let Some(keys) = Keys::new(&key) else { return };
            let aes = Aes::with_crate(&key).unwrap();
            let pt: Vec<u8> = (0..16 * 37).map(|i| (i * 7 + 3) as u8).collect();
            let iv = [0x42u8; 16];
            let mut want = pt.clone();
            let mut c = iv;
            for b in want.chunks_mut(16) {
                aes.encrypt_block(&mut c);
                b.iter_mut().zip(&mut c).for_each(|(x, k)| {
                    *x ^= *k;
                    *k = *x;
                });
            }
            let mut in_place = pt.clone();
            assert_eq!(cfb(&keys, &iv, None, &mut in_place, Direction::Encrypt), c, "key length {len}");
            assert_eq!(in_place, want, "key length {len}");
            let mut out = vec![0u8; pt.len()];
            assert_eq!(cfb(&keys, &iv, Some(&pt), &mut out, Direction::Encrypt), c);
            assert_eq!(out, want);
            for blocks in [0, 1, 7, 8, 9, 37] {
                let mut back = want[..16 * blocks].to_vec();
                let last = if blocks == 0 { iv } else { want[16 * blocks - 16..16 * blocks].try_into().unwrap() };
                assert_eq!(cfb(&keys, &iv, None, &mut back, Direction::Decrypt), last);
                assert_eq!(back, pt[..16 * blocks], "{blocks} blocks, key length {len}");
            }
        }
    }
}
