//! AES-SIV of one message with AES-NI: the S2V chains (K1) and the CTR
//! keystream (K2) with both key schedules in registers, the crate's one
//! AES-NI schedule (`aes::ni::Keys`).
//!
//! Measured faster than the same steps over the `aes` crate's backend for
//! the short messages SIV mostly protects (BENCHMARKS.md): each CMAC block
//! is one AES latency with no per-call dispatch, and
//! - the chain over the plaintext's blocks that D does not touch runs
//!   beside the associated data's CMAC (they are independent until the
//!   last one or two blocks, and the out-of-order core overlaps them);
//! - decryption runs CTR and the chain over the plaintext side by side
//!   (`aes::ni::ctr_cbc_mac`, which EAX's body uses too): the chain's
//!   latency alone sets the pace and the keystream is free.
//!
//! Chosen at run time: [`SivNi::new`] returns `None` without AES-NI.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::aes::Block;
use crate::aes::ni::{Keys, ctr_cbc_mac, encrypt_m128, ld, st};

/// The AES-NI schedules of K1 (S2V's CMAC) and K2 (CTR).
#[derive(Clone)]
pub(crate) struct SivNi {
    k1: Keys,
    k2: Keys,
}

impl core::fmt::Debug for SivNi {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SivNi(..)")
    }
}

impl SivNi {
    /// Expands K1 and K2 (16, 24 or 32 bytes each, the same length) if this
    /// CPU has AES-NI.
    pub(crate) fn new(k1: &[u8], k2: &[u8]) -> Option<Self> {
        Some(SivNi { k1: Keys::new(k1)?, k2: Keys::new(k2)? })
    }

    /// The CBC-MAC chain under K1: `x = E(x ^ m)` over the 16-byte blocks
    /// of `blocks` (a multiple of 16 bytes), then over `tail`.
    #[inline]
    pub(crate) fn chain(&self, x: Block, blocks: &[u8], tail: &[Block]) -> Block {
        debug_assert_eq!(blocks.len() % 16, 0);
        let k = self.k1.schedule();
        // SAFETY: a `Keys` value exists only on CPUs with AES-NI (and SSE4.1).
        unsafe {
            match self.k1.rounds() {
                10 => chain::<10>(k, x, blocks, tail),
                12 => chain::<12>(k, x, blocks, tail),
                _ => chain::<14>(k, x, blocks, tail),
            }
        }
    }

    /// AES-CTR under K2 from the counter block `q` over `dst` (`dst = src ^
    /// keystream`, or in place when `src` is `None`), with the CBC-MAC
    /// chain under K1 from zero over the first `chained` bytes of the
    /// output (a multiple of 16, at most `dst.len()`), side by side.
    /// Returns the chaining value.
    #[inline]
    pub(crate) fn ctr_chain(&self, q: u128, src: Option<&[u8]>, dst: &mut [u8], chained: usize) -> Block {
        assert!(chained.is_multiple_of(16) && chained <= dst.len() && src.is_none_or(|s| s.len() == dst.len()));
        let (k1, k2) = (self.k1.schedule(), self.k2.schedule());
        // SAFETY: as in `chain`; the lengths were checked above.
        unsafe {
            match self.k1.rounds() {
                10 => ctr_chain::<10>(k1, k2, q, src, dst, chained),
                12 => ctr_chain::<12>(k1, k2, q, src, dst, chained),
                _ => ctr_chain::<14>(k1, k2, q, src, dst, chained),
            }
        }
    }
}

#[target_feature(enable = "aes")]
fn chain<const NR: usize>(k: &[__m128i; 15], x: Block, blocks: &[u8], tail: &[Block]) -> Block {
    let mut x = ld(&x);
    for m in blocks.chunks_exact(16) {
        x = encrypt_m128::<NR>(k, _mm_xor_si128(x, ld(m)));
    }
    for m in tail {
        x = encrypt_m128::<NR>(k, _mm_xor_si128(x, ld(m)));
    }
    let mut out = [0u8; 16];
    st(&mut out, x);
    out
}

#[target_feature(enable = "aes")]
fn ctr_chain<const NR: usize>(
    k1: &[__m128i; 15],
    k2: &[__m128i; 15],
    q: u128,
    src: Option<&[u8]>,
    dst: &mut [u8],
    chained: usize,
) -> Block {
    let (body, rest) = dst.split_at_mut(chained);
    let (x, ks) = ctr_cbc_mac::<NR, true>(k1, k2, q, src.map(|s| &s[..chained]), body, _mm_setzero_si128());
    // The rest (S2V's last one or two blocks, which D touches): keystream
    // already computed for the first two, a partial block last.
    for (j, d) in rest.chunks_mut(16).enumerate() {
        let ks = match ks.get(j) {
            Some(k) => *k,
            None => encrypt_m128::<NR>(k2, ld(&q.wrapping_add((chained / 16 + j) as u128).to_be_bytes())),
        };
        let (off, n) = (chained + 16 * j, d.len());
        let mut b = [0u8; 16];
        b[..n].copy_from_slice(match src {
            Some(s) => &s[off..off + n],
            None => d,
        });
        let y = _mm_xor_si128(ld(&b), ks);
        st(&mut b, y);
        d.copy_from_slice(&b[..n]);
    }
    let mut out = [0u8; 16];
    st(&mut out, x);
    out
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::siv::AesSiv;

    /// The AES-NI path against the portable one (the `aes` crate), for
    /// every key size, 0 to 3 associated-data components and lengths
    /// around every block boundary S2V and CTR treat apart.
    #[test]
    fn ni_and_portable_paths_agree() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i * 89 + 3) as u8).collect();
        for kl in [32usize, 48, 64] {
            let key: Vec<u8> = (0..kl as u8).map(|i| i.wrapping_mul(53) ^ 0xa7).collect();
            let fast = AesSiv::new(&key).unwrap();
            let portable = AesSiv::new_portable(&key).unwrap();
            assert_eq!(
                fast.ni.is_some(),
                std::is_x86_feature_detected!("aes") && std::is_x86_feature_detected!("sse4.1")
            );
            assert!(portable.ni.is_none());
            let lens = (0..100).chain([127, 128, 129, 255, 256, 257, 1000, 1023, 4096 + 7]);
            for (t, n) in lens.enumerate() {
                let ad: Vec<&[u8]> = (0..t % 4).map(|j| &data[j * 7..j * 7 + (t * 13 + j) % 150]).collect();
                let nonce = (t % 3 == 0).then_some(&data[t % 50..t % 50 + 12]);
                let pt = &data[t % 17..t % 17 + n];
                let (mut a, mut b) = (vec![0u8; n + 16], vec![0u8; n + 16]);
                fast.seal_into(nonce, &ad, pt, &mut a).unwrap();
                portable.seal_into(nonce, &ad, pt, &mut b).unwrap();
                assert!(a == b, "AES-SIV-{} len {n} ad {}", kl * 8, ad.len());
                let (mut x, mut y) = (vec![0u8; n], vec![0u8; n]);
                fast.open_into(nonce, &ad, &a, &mut x).unwrap();
                portable.open_into(nonce, &ad, &b, &mut y).unwrap();
                assert!(x == pt && y == pt, "open, len {n}");
                assert_eq!(fast.open_in_place(nonce, &ad, &mut a).unwrap(), pt, "in place, len {n}");
                // A flipped bit anywhere is refused, and the output wiped.
                let bit = (t * 37) % (8 * (n + 16));
                b[bit / 8] ^= 1 << (bit % 8);
                let mut z = vec![0xffu8; n];
                assert_eq!(fast.open_into(nonce, &ad, &b, &mut z), Err(Error::Authentication), "len {n} bit {bit}");
                assert!(z.iter().all(|&v| v == 0));
            }
        }
    }
}
