//! Each CTR kernel against the `aes` crate.

use super::*;
use crate::aes::Aes;
use crate::cmac::ni::tests::ctr_ref;
use crate::cpu::{Vaes256, Vaes512};

/// [`ctr_vaes256_vl`] for a `kl`-byte key's schedule.
fn ctr_vl(t: Vaes512, k: &[__m128i; 15], kl: usize, c: __m128i, src: Option<&[u8]>, dst: &mut [u8]) {
    // SAFETY: the token proves the features the kernel is compiled for.
    unsafe {
        match kl {
            16 => ctr_vaes256_vl::<10>(t, k, c, src, dst),
            24 => ctr_vaes256_vl::<12>(t, k, c, src, dst),
            _ => ctr_vaes256_vl::<14>(t, k, c, src, dst),
        }
    }
}

/// Each CTR kernel this CPU runs against the `aes` crate: every key
/// size, every length to 300 bytes and around 512 and 1024, from a
/// counter with no carry, one whose low half wraps and one that wraps.
#[test]
fn every_width_matches_the_aes_crate() {
    let data: Vec<u8> = (0..400u32).map(|i| (i * 67 + 11) as u8).collect();
    for kl in [16usize, 24, 32] {
        let key = &data[100..100 + kl];
        let (aes, ac) = (Aes::new(key).unwrap(), Aes::with_crate(key).unwrap());
        let Some(keys) = aes.ni() else { return };
        let sc = keys.schedule();
        let widths =
            [Some(Width::Ni(keys.token())), Vaes256::get().map(Width::Vaes256), Vaes512::get().map(Width::Vaes512)];
        for n in (0..300).chain([511, 512, 513, 1023, 1024, 1025]) {
            let src = (0..n).map(|i| (i * 13) as u8).collect::<Vec<u8>>();
            // A counter with no carry, one whose low half wraps, one that wraps.
            for q in [5u128, (1 << 64) - 9, u128::MAX - 3] {
                let want = ctr_ref(&ac, q, &src);
                // Each CTR kernel this CPU runs, out of place and in place.
                for width in widths.iter().flatten() {
                    let (mut out, mut inplace) = (vec![0u8; n], src.clone());
                    for (src, dst) in [(Some(&src[..]), &mut out[..]), (None, &mut inplace[..])] {
                        ctr_with(sc, keys.rounds(), *width, q, src, dst);
                    }
                    assert!(out == want && inplace == want, "ctr ({width:?}), {n} bytes, q {q:x}");
                }
                // The kernel that starts from a counter in a register (AES-SIV's seal).
                if let Some(t) = Vaes512::get() {
                    let (mut out, mut inplace) = (vec![0u8; n], src.clone());
                    for (src, dst) in [(Some(&src[..]), &mut out[..]), (None, &mut inplace[..])] {
                        ctr_vl(t, sc, kl, lanes(q), src, dst);
                    }
                    assert!(out == want && inplace == want, "ctr_vaes256_vl, {n} bytes, q {q:x}");
                }
            }
        }
    }
}
