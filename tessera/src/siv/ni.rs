//! AES-SIV of one message with AES-NI: the S2V chains (K1) and the CTR
//! keystream (K2) with both key schedules in registers, the crate's one
//! AES-NI schedule (`aes::ni::Keys`), through the kernels of
//! `aes::ni_mac`.
//!
//! Measured faster than the same steps over the `aes` crate's backend for
//! the short messages SIV mostly protects (BENCHMARKS.md): each CMAC block
//! is one AES latency with no per-call dispatch, and
//! - the chain over the plaintext's blocks that D does not touch runs
//!   beside the associated data's CMAC, round by round (`cbc_mac2`: they
//!   are independent until the last one or two blocks);
//! - decryption runs CTR, the chain over the plaintext and the associated
//!   data's CMAC side by side (`ctr_cbc_mac`, which EAX's body uses too):
//!   the chain's latency alone sets the pace, the rest is free;
//! - encryption's CTR, which must wait for V, runs 32 blocks in flight on
//!   VAES-512 (eight on AES-NI elsewhere) for what the `aes` crate would
//!   take one block at a time (a partial batch of its backend: under 64
//!   blocks with VAES-512).
//!
//! Chosen at run time: [`SivNi::new`] returns `None` without AES-NI.
#![allow(unsafe_code)]

use super::AesSiv;
use super::ctr;
use super::s2v::Job;
use crate::aes::Block;
use crate::aes::block::xor_int;
use crate::aes::ni::{Keys, ld, st};
use crate::aes::ni_mac::{Blocks, cbc_mac, cbc_mac2, ctr_cbc_mac, ctr_with};

/// The AES-NI schedules of K1 (S2V's CMAC) and K2 (CTR).
#[derive(Clone)]
pub(crate) struct SivNi {
    k1: Keys,
    k2: Keys,
    /// Whether CTR runs on 512-bit vectors (AVX-512F, AVX-512BW and VAES).
    vaes512: bool,
}

impl core::fmt::Debug for SivNi {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SivNi(..)")
    }
}

fn block(x: core::arch::x86_64::__m128i) -> Block {
    let mut out = [0u8; 16];
    st(&mut out, x);
    out
}

impl SivNi {
    /// Expands K1 and K2 (16, 24 or 32 bytes each, the same length) if this
    /// CPU has AES-NI.
    pub(crate) fn new(k1: &[u8], k2: &[u8]) -> Option<Self> {
        let vaes512 = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("vaes");
        Some(SivNi { k1: Keys::new(k1)?, k2: Keys::new(k2)?, vaes512 })
    }

    /// The CBC-MAC chain under K1, `x = E(x ^ m)` over the blocks of `c`.
    #[inline]
    pub(crate) fn chain(&self, x: Block, c: Blocks<'_>) -> Block {
        let (k, x) = (self.k1.schedule(), ld(&x));
        // SAFETY: a `Keys` value exists only on CPUs with AES-NI (and SSE4.1).
        block(unsafe {
            match self.k1.rounds() {
                10 => cbc_mac::<10>(k, x, c),
                12 => cbc_mac::<12>(k, x, c),
                _ => cbc_mac::<14>(k, x, c),
            }
        })
    }

    /// Two chains under K1 from zero, over `a` and over `b`, side by side.
    #[inline]
    pub(crate) fn chain2(&self, a: Blocks<'_>, b: Blocks<'_>) -> (Block, Block) {
        let k = self.k1.schedule();
        // SAFETY: as in `chain`.
        let (x, y) = unsafe {
            match self.k1.rounds() {
                10 => cbc_mac2::<10>(k, a, b),
                12 => cbc_mac2::<12>(k, a, b),
                _ => cbc_mac2::<14>(k, a, b),
            }
        };
        (block(x), block(y))
    }

    /// AES-CTR under K2 from the counter block `q` over `dst` (`dst = src ^
    /// keystream`, or in place when `src` is `None`).
    #[inline]
    pub(crate) fn ctr(&self, q: u128, src: Option<&[u8]>, dst: &mut [u8]) {
        assert!(src.is_none_or(|s| s.len() == dst.len()));
        let k = self.k2.schedule();
        // SAFETY: as in `chain`, and `vaes512` says AVX-512F, AVX-512BW and VAES were
        // detected; the lengths were checked above.
        unsafe { ctr_with(k, self.k2.rounds(), self.vaes512, q, src, dst) }
    }

    /// AES-CTR under K2 from the counter block `q` over `dst` (`dst = src ^
    /// keystream`, or in place when `src` is `None`), with the CBC-MAC
    /// chain under K1 from zero over the first `chained` bytes of the
    /// output (a multiple of 16, at most 32 bytes short of `dst.len()`) and the chain under
    /// K1 from zero over `side`, side by side. Returns both chaining values.
    #[inline]
    pub(crate) fn ctr_chain(
        &self,
        q: u128,
        src: Option<&[u8]>,
        dst: &mut [u8],
        chained: usize,
        side: Blocks<'_>,
    ) -> (Block, Block) {
        assert!(chained.is_multiple_of(16) && chained <= dst.len() && dst.len() - chained <= 32);
        assert!(src.is_none_or(|s| s.len() == dst.len()));
        let (k1, k2) = (self.k1.schedule(), self.k2.schedule());
        let (body, rest) = dst.split_at_mut(chained);
        let (src, src_rest) = match src {
            Some(s) => (Some(&s[..chained]), Some(&s[chained..])),
            None => (None, None),
        };
        let zero = [0u8; 16];
        // SAFETY: as in `chain`; the lengths were checked above.
        let (x, ks, xs) = unsafe {
            match self.k1.rounds() {
                10 => ctr_cbc_mac::<10, true>(k1, k2, q, src, body, ld(&zero), side),
                12 => ctr_cbc_mac::<12, true>(k1, k2, q, src, body, ld(&zero), side),
                _ => ctr_cbc_mac::<14, true>(k1, k2, q, src, body, ld(&zero), side),
            }
        };
        // The rest (S2V's last one or two blocks, which D touches): the
        // keystream of the two blocks after the chained ones came back.
        let mut ksb = [0u8; 32];
        st(&mut ksb, ks[0]);
        st(&mut ksb[16..], ks[1]);
        for (i, (d, k)) in rest.iter_mut().zip(ksb).enumerate() {
            *d = k ^ src_rest.map_or(*d, |s| s[i]);
        }
        zeroize::Zeroize::zeroize(&mut ksb);
        (block(x), block(xs))
    }
}

/// The one S2V component before the plaintext, if there is exactly one
/// (its CMAC then runs beside the plaintext's chain).
#[inline]
fn one_component<'a>(nonce: Option<&'a [u8]>, ad: &[&'a [u8]]) -> Option<&'a [u8]> {
    match (ad, nonce) {
        (&[c], None) | ([], Some(c)) => Some(c),
        _ => None,
    }
}

/// The paths of [`AesSiv`] through these kernels.
impl SivNi {
    /// S2V: the plaintext's chain beside the associated data's CMAC (round
    /// by round when there is one component), D only for the last blocks.
    pub(super) fn s2v(&self, siv: &AesSiv, nonce: Option<&[u8]>, ad: &[&[u8]], s: &[u8]) -> Block {
        let prefix = Blocks::of(&s[..Job::last_prefix_len(s.len())]);
        let (x, d) = match one_component(nonce, ad) {
            Some(c) => {
                let (x, mac) = self.chain2(prefix, Job::cmac(&siv.mac, c).blocks_ni());
                (x, xor_int(&siv.d0_dbl, &mac))
            }
            None => (self.chain([0; 16], prefix), siv.fold_d(nonce, ad)),
        };
        self.chain(x, Job::last(&siv.mac, &d, s).tail_ni())
    }

    /// Decrypts into `p` with the counter from `v` and returns S2V of the
    /// result: CTR, the chain over the plaintext and the associated data's
    /// CMAC (with one component) side by side, D only for the last blocks.
    pub(super) fn open_s2v(
        &self,
        siv: &AesSiv,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        v: &Block,
        src: Option<&[u8]>,
        p: &mut [u8],
    ) -> Block {
        let (q, chained) = (ctr::counter(v), Job::last_prefix_len(p.len()));
        let (x, d) = match one_component(nonce, ad) {
            Some(c) => {
                let (x, mac) = self.ctr_chain(q, src, p, chained, Job::cmac(&siv.mac, c).blocks_ni());
                (x, xor_int(&siv.d0_dbl, &mac))
            }
            None => (self.ctr_chain(q, src, p, chained, Blocks::NONE).0, siv.fold_d(nonce, ad)),
        };
        self.chain(x, Job::last(&siv.mac, &d, p).tail_ni())
    }

    /// AES-CTR from V: whole batches of the `aes` crate's widest backend
    /// (64 blocks, VAES-512 where present) through `aes`, the rest here (32
    /// blocks in flight with VAES-512, eight with AES-NI).
    pub(super) fn apply_ctr(&self, aes: &crate::aes::Aes, v: &Block, src: Option<&[u8]>, dst: &mut [u8]) {
        let (q, whole) = (ctr::counter(v), dst.len() / 1024 * 1024);
        let (head, rest) = dst.split_at_mut(whole);
        let (src, src_rest) = match src {
            Some(s) => (Some(&s[..whole]), Some(&s[whole..])),
            None => (None, None),
        };
        ctr::apply_from(aes, q, src, head);
        self.ctr(q.wrapping_add((whole / 16) as u128), src_rest, rest);
    }
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

    /// The kernels the AES-NI path picks by shape (the associated data's
    /// CMAC beside the plaintext's chain when there is one component, CTR
    /// split between the `aes` crate and `ni.rs`) against the portable path:
    /// plaintexts of 0 to 4 blocks and odd tails, and around the 64-block
    /// batch; 0 to 3 components of 0 to 3 blocks and odd lengths, with and
    /// without a nonce; every way in and out.
    #[test]
    fn every_shape_matches_the_portable_path() {
        let data: Vec<u8> = (0..3000u32).map(|i| (i * 151 + 5) as u8).collect();
        let sizes = [0usize, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 1023, 1024, 1025, 2063];
        let ad_lens = [0usize, 1, 15, 16, 17, 33, 48, 50];
        for kl in [32usize, 48, 64] {
            let fast = AesSiv::new(&data[kl..2 * kl]).unwrap();
            let portable = AesSiv::new_portable(&data[kl..2 * kl]).unwrap();
            for (t, n) in sizes.iter().flat_map(|&n| (0..8).map(move |t| (t, n))) {
                let ads: Vec<&[u8]> = (0..t % 4).map(|j| &data[j * 9..j * 9 + ad_lens[(t + j) % 8]]).collect();
                let nonce = (t >= 4).then_some(&data[100..100 + ad_lens[t]]);
                let pt = &data[200..200 + n];
                let want = portable.seal(nonce, &ads, pt).unwrap();
                let what = format!("AES-SIV-{} n={n} ads={} nonce={:?}", kl * 8, ads.len(), nonce.map(|c| c.len()));
                assert_eq!(fast.seal(nonce, &ads, pt).unwrap(), want, "seal {what}");
                let mut buf = [&[0u8; 16][..], pt].concat();
                fast.seal_in_place(nonce, &ads, &mut buf).unwrap();
                assert_eq!(buf, want, "seal in place {what}");
                assert_eq!(fast.open(nonce, &ads, &want).unwrap(), pt, "open {what}");
                assert_eq!(fast.open_in_place(nonce, &ads, &mut buf).unwrap(), pt, "open in place {what}");
                let mut bad = want.clone();
                let at = (t * 7) % bad.len();
                bad[at] ^= 0x10;
                assert_eq!(fast.open(nonce, &ads, &bad), Err(Error::Authentication), "tampered {what}");
            }
        }
    }

    /// The AES-NI CTR kernel (what machines without VAES-512 run) forced on
    /// this machine too, against the portable path: every key size, lengths
    /// around the 8-block batches and the partial last block.
    #[test]
    fn ctr_without_vaes_matches_the_portable_path() {
        let data: Vec<u8> = (0..1200u32).map(|i| (i * 29 + 1) as u8).collect();
        for kl in [32usize, 48, 64] {
            let mut fast = AesSiv::new(&data[..kl]).unwrap();
            let Some(ni) = &mut *fast.ni else { return };
            ni.vaes512 = false;
            let portable = AesSiv::new_portable(&data[..kl]).unwrap();
            for n in (0..140).chain([255, 256, 257, 1000, 1023, 1024, 1025, 1100]) {
                let (ad, pt) = (&data[n % 7..n % 7 + 20], &data[100..100 + n]);
                let want = portable.seal(None, &[ad], pt).unwrap();
                assert_eq!(fast.seal(None, &[ad], pt).unwrap(), want, "AES-SIV-{} seal, {n} bytes", kl * 8);
                let mut buf = pt.to_vec();
                let v = fast.seal_in_place_separate_tag(None, &[ad], &mut buf).unwrap();
                assert_eq!((&v[..], &buf[..]), (&want[..16], &want[16..]), "in place, {n} bytes");
                assert_eq!(fast.open(None, &[ad], &want).unwrap(), pt, "open, {n} bytes");
            }
        }
    }
}
