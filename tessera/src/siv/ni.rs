//! AES-SIV of one message with AES-NI: the S2V chains (K1) and the CTR
//! keystream (K2) with both key schedules in registers, the crate's one
//! AES-NI schedule (`aes::ni::Keys`), through the kernels of
//! `cmac::ni`.
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
//! - encryption's CTR, which must wait for V, runs from V's register 16
//!   blocks in flight on 256-bit vectors with AVX-512's 32 registers on
//!   VAES-512 CPUs (measured faster there than 512-bit vectors; 16 on
//!   VAES-256, eight on AES-NI elsewhere) with no keystream through
//!   memory: the `aes` crate takes a short message's blocks one at
//!   a time (a partial batch of its backend), and a long one's through a
//!   keystream buffer, at about a third of the speed with VAES-512
//!   (BENCHMARKS.md, siv8; with AES-NI alone it keeps whole 1 KiB batches).
//!
//! Chosen at run time: `AesSiv` holds a kernel width only when its keys
//! have AES-NI schedules.
#![allow(unsafe_code)]

use super::AesSiv;
use super::ctr;
use super::s2v::Job;
use core::arch::x86_64::__m128i;

use super::ni_ctr::{ctr_with, siv_ctr_vaes256_vl};
use super::ni_s2v::{Side, cmac_last, open_last, s2v_last, seal_last};
use crate::aes::Block;
use crate::aes::block::tags_equal;
use crate::aes::ni::Width;
use crate::aes::ni::{Keys, ld, st};
use crate::cmac::ni::{Blocks, cbc_mac};
use crate::cpu::Vaes512;

/// The AES-NI schedules of K1 (S2V's CMAC) and K2 (CTR), borrowed from
/// the [`AesSiv`]'s two [`crate::aes::Aes`] values.
#[derive(Clone, Copy)]
pub(crate) struct SivNi<'a> {
    pub(crate) k1: &'a Keys,
    pub(crate) k2: &'a Keys,
    /// The CTR kernel's vectors (VAES-512, VAES-256 or AES-NI).
    pub(crate) width: Width,
}

fn block(x: __m128i) -> Block {
    let mut out = [0u8; 16];
    st(&mut out, x);
    out
}

impl SivNi<'_> {
    /// The CBC-MAC chain under K1, `x = E(x ^ m)` over the blocks of `c`.
    #[inline]
    pub(crate) fn chain(&self, x: Block, c: Blocks<'_>) -> Block {
        let (k, x) = (self.k1.schedule(), ld(&x));
        // SAFETY: `self.k1.token()` proves AES-NI and SSE4.1.
        block(unsafe {
            match self.k1.rounds() {
                10 => cbc_mac::<10>(self.k1.token(), k, x, c),
                12 => cbc_mac::<12>(self.k1.token(), k, x, c),
                _ => cbc_mac::<14>(self.k1.token(), k, x, c),
            }
        })
    }

    /// AES-CTR under K2 from the counter block `q` over `dst` (`dst = src ^
    /// keystream`, or in place when `src` is `None`).
    #[inline]
    pub(crate) fn ctr(&self, q: u128, src: Option<&[u8]>, dst: &mut [u8]) {
        assert!(src.is_none_or(|s| s.len() == dst.len()));
        let k = self.k2.schedule();
        ctr_with(k, self.k2.rounds(), self.width, q, src, dst)
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
impl SivNi<'_> {
    /// Runs `f` with what every final-blocks kernel (`ni_s2v`) takes from
    /// the associated data and K1's subkeys: the one component's CMAC blocks
    /// to chain beside the plaintext (with D before it), or none and D after
    /// all the components; D; and the subkeys K1, K2, in registers.
    #[inline(always)]
    fn with_side<R>(&self, siv: &AesSiv, nonce: Option<&[u8]>, ad: &[&[u8]], f: impl FnOnce(Side<'_>) -> R) -> R {
        let sub = [ld(siv.mac.k1()), ld(siv.mac.k2())];
        let (job, d) = match one_component(nonce, ad) {
            Some(c) if c.len() >= 16 => {
                // The CMAC's last block made in a register (`cmac_last`).
                // SAFETY: `self.k1.token()` proves AES-NI, SSSE3 and SSE4.1.
                let last = block(unsafe { cmac_last(self.k1.token(), c, sub) });
                let full = (c.len() - 1) / 16 * 16;
                (Some(Job { prefix: &c[..full], tail: [last, [0; 16]], ntail: 1 }), siv.d0_dbl)
            }
            Some(c) => (Some(Job::cmac(&siv.mac, c)), siv.d0_dbl),
            None => (None, siv.fold_d(nonce, ad)),
        };
        let side = job.as_ref().map_or(Blocks::NONE, Job::blocks_ni);
        f(Side { blocks: side, d: ld(&d), sub })
    }

    /// S2V: the plaintext's chain beside the associated data's CMAC (round
    /// by round when there is one component), D only for the last blocks,
    /// all in registers (`ni_s2v`) from 16 bytes of plaintext on.
    pub(super) fn s2v(&self, siv: &AesSiv, nonce: Option<&[u8]>, ad: &[&[u8]], s: &[u8]) -> Block {
        if s.len() < 16 {
            return self.chain([0; 16], Job::last(&siv.mac, &siv.fold_d(nonce, ad), s).tail_ni());
        }
        block(self.s2v_long(siv, nonce, ad, s))
    }

    /// [`Self::s2v`] for a last component `s` of at least 16 bytes, V in a
    /// register.
    #[inline]
    fn s2v_long(&self, siv: &AesSiv, nonce: Option<&[u8]>, ad: &[&[u8]], s: &[u8]) -> __m128i {
        let k = self.k1.schedule();
        // SAFETY: `self.k1.token()` proves AES-NI and SSE4.1; `s` has 16 bytes.
        self.with_side(siv, nonce, ad, |side| unsafe {
            match self.k1.rounds() {
                10 => s2v_last::<10>(self.k1.token(), k, s, side),
                12 => s2v_last::<12>(self.k1.token(), k, s, side),
                _ => s2v_last::<14>(self.k1.token(), k, s, side),
            }
        })
    }

    /// With VAES-512: S2V, V kept in a register, then CTR from the counter
    /// block made from it there (no trip through memory), on 256-bit vectors
    /// with the 32 registers of AVX-512 (`siv_ctr_vaes256_vl`): right after
    /// the chain, and before the next call's chain, that measured faster than
    /// 512-bit vectors, and as fast from 64 KiB to 1 MiB.
    fn seal_vaes512(
        &self,
        t: Vaes512,
        siv: &AesSiv,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> __m128i {
        let v = self.s2v_long(siv, nonce, ad, src.unwrap_or(dst));
        let k = self.k2.schedule();
        // SAFETY: the `Vaes512` token proves the features the kernel is compiled for.
        unsafe {
            match self.k2.rounds() {
                10 => siv_ctr_vaes256_vl::<10>(t, k, v, src, dst),
                12 => siv_ctr_vaes256_vl::<12>(t, k, v, src, dst),
                _ => siv_ctr_vaes256_vl::<14>(t, k, v, src, dst),
            }
        }
        v
    }

    /// Encrypts into `dst` (from `src`, as long, or in place) and returns
    /// V, for 16 to 1023 bytes on CPUs without VAES (else `None`, nothing
    /// done): S2V as in [`Self::s2v`] and CTR from V in one kernel, V kept
    /// in a register. With VAES-512 the same fusion measured slower
    /// (BENCHMARKS.md, siv7), and with VAES the wide CTR after S2V is
    /// shorter: seal takes [`Self::s2v`] then [`Self::ctr`].
    pub(super) fn seal(
        &self,
        siv: &AesSiv,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Option<Block> {
        assert!(src.is_none_or(|s| s.len() == dst.len()));
        match self.width {
            Width::Vaes512(t) if dst.len() >= 16 => return Some(block(self.seal_vaes512(t, siv, nonce, ad, src, dst))),
            Width::Ni(_) if (16..1024).contains(&dst.len()) => {}
            _ => return None,
        }
        let (km, kc) = (self.k1.schedule(), self.k2.schedule());
        // SAFETY: as in `s2v`; `dst` has 16 bytes, `src` (if any) as many (checked above).
        Some(block(self.with_side(siv, nonce, ad, |side| unsafe {
            match self.k1.rounds() {
                10 => seal_last::<10>(self.k1.token(), km, kc, src, dst, side),
                12 => seal_last::<12>(self.k1.token(), km, kc, src, dst, side),
                _ => seal_last::<14>(self.k1.token(), km, kc, src, dst, side),
            }
        })))
    }

    /// Decrypts into `p` with the counter from `v` and says whether S2V of
    /// the result is `v`: CTR, the chain over the plaintext and the
    /// associated data's CMAC (with one component) side by side, D only for
    /// the last blocks, V compared in constant time.
    pub(super) fn open_matches(
        &self,
        siv: &AesSiv,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        v: &Block,
        src: Option<&[u8]>,
        p: &mut [u8],
    ) -> bool {
        let q = ctr::counter(v);
        let want = if p.len() < 16 {
            self.ctr(q, src, p);
            self.s2v(siv, nonce, ad, p)
        } else {
            let (km, kc) = (self.k1.schedule(), self.k2.schedule());
            // SAFETY: as in `s2v`; `p` has 16 bytes, `src` (if any) as many (checked there).
            block(self.with_side(siv, nonce, ad, |side| unsafe {
                match self.k1.rounds() {
                    10 => open_last::<10>(self.k1.token(), km, kc, q, src, p, side),
                    12 => open_last::<12>(self.k1.token(), km, kc, q, src, p, side),
                    _ => open_last::<14>(self.k1.token(), km, kc, q, src, p, side),
                }
            }))
        };
        tags_equal(&want, v)
    }

    /// AES-CTR from V over `dst` (`dst = src ^ keystream`, or in place):
    /// with VAES, all of it on this crate's kernel; with AES-NI alone,
    /// whole 1 KiB batches through `aes`'s backend and the rest here.
    pub(super) fn apply_ctr(&self, aes: &crate::aes::Aes, v: &Block, src: Option<&[u8]>, dst: &mut [u8]) {
        let q = ctr::counter(v);
        let whole = if matches!(self.width, Width::Ni(_)) { dst.len() / 1024 * 1024 } else { 0 };
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
            assert_eq!(fast.ni.is_some(), crate::cpu::AesNi::get().is_some());
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

    /// The final blocks S2V builds in registers (`ni_s2v`: D onto the
    /// last 16 bytes by byte shuffles, the plaintext's last bytes from the
    /// keystream when opening) against the portable path: every length of
    /// 0 to 6 blocks and every tail, 0 to 3 components with and without a
    /// nonce, every key size; a flip in the last byte, where only the final
    /// blocks see it, is refused.
    #[test]
    fn final_blocks_in_registers_match_the_portable_path() {
        let data: Vec<u8> = (0..400u32).map(|i| (i * 197 + 13) as u8).collect();
        for kl in [32usize, 48, 64] {
            let fast = AesSiv::new(&data[..kl]).unwrap();
            let portable = AesSiv::new_portable(&data[..kl]).unwrap();
            for n in 0..=96usize {
                for (count, nonce) in (0..4).flat_map(|c| [(c, None), (c, Some(&data[50..50 + n % 20]))]) {
                    let ads: Vec<&[u8]> = (0..count).map(|j| &data[j * 5..j * 5 + (n + 7 * j) % 40]).collect();
                    let pt = &data[300 - n..300];
                    let want = portable.seal(nonce, &ads, pt).unwrap();
                    let what = format!("AES-SIV-{} n={n} ads={count} nonce={}", kl * 8, nonce.is_some());
                    assert_eq!(fast.seal(nonce, &ads, pt).unwrap(), want, "seal {what}");
                    assert_eq!(fast.open(nonce, &ads, &want).unwrap(), pt, "open {what}");
                    let mut buf = want[16..].to_vec();
                    let v = want[..16].try_into().unwrap();
                    fast.open_in_place_separate_tag(nonce, &ads, &mut buf, &v).unwrap();
                    assert_eq!(buf, pt, "open in place {what}");
                    let mut bad = want.clone();
                    *bad.last_mut().unwrap() ^= 0x80;
                    assert_eq!(fast.open(nonce, &ads, &bad), Err(Error::Authentication), "tampered {what}");
                }
            }
        }
    }

    /// Every CTR kernel this CPU runs forced in turn (AES-NI with the fused
    /// seal kernel, what machines without VAES run; VAES-256, what those
    /// without AVX-512 run; VAES-512), against the portable path: every key
    /// size, 0 to 2 components at every length (D alone, the one CMAC
    /// beside the chain, D folded first), lengths around each kernel's
    /// vectors and steps (16, 32, 64 bytes; 4 and 8 vectors), the partial
    /// last block and the fused kernel's 1024-byte limit; seal out of place
    /// and in place, open.
    #[test]
    fn every_ctr_width_matches_the_portable_path() {
        use crate::aes::ni::Width;
        use crate::cpu::{AesNi, Vaes256, Vaes512};
        let data: Vec<u8> = (0..5000u32).map(|i| (i * 29 + 1) as u8).collect();
        let widths =
            [AesNi::get().map(Width::Ni), Vaes256::get().map(Width::Vaes256), Vaes512::get().map(Width::Vaes512)];
        let edges = [127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 1100, 4096 + 33];
        for (kl, &width) in [32usize, 48, 64].into_iter().flat_map(|k| widths.iter().flatten().map(move |w| (k, w))) {
            let mut fast = AesSiv::new(&data[..kl]).unwrap();
            let Some(w) = &mut fast.ni else { return };
            *w = width;
            let portable = AesSiv::new_portable(&data[..kl]).unwrap();
            for (n, count) in (0..100).chain(edges).flat_map(|n| (0..3).map(move |c| (n, c))) {
                let ad: Vec<&[u8]> = (0..count).map(|j| &data[n % 7 + j..n % 7 + 20 + j]).collect();
                let pt = &data[100..100 + n];
                let what = format!("AES-SIV-{} {width:?}, {n} bytes, {count} components", kl * 8);
                let want = portable.seal(None, &ad, pt).unwrap();
                assert_eq!(fast.seal(None, &ad, pt).unwrap(), want, "seal {what}");
                let mut buf = pt.to_vec();
                let v = fast.seal_in_place_separate_tag(None, &ad, &mut buf).unwrap();
                assert_eq!((&v[..], &buf[..]), (&want[..16], &want[16..]), "in place {what}");
                assert_eq!(fast.open(None, &ad, &want).unwrap(), pt, "open {what}");
            }
        }
    }
}
