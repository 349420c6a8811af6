//! The EAX body (CTR and OMAC^2 over all complete blocks but the last) with
//! AES-NI, the round keys in registers.
//!
//! Measured faster than the same loop over the `aes` crate's backend. The
//! kernel is `cmac::ni::ctr_cbc_mac` (shared with AES-SIV decryption): each
//! step runs the dependent CMAC block and the keystream block two steps
//! ahead round by round, side by side, so the chain's latency alone sets
//! the pace and the keystream comes for free.
#![allow(unsafe_code)]

use crate::Direction;
use crate::aes::Block;
use crate::aes::ni::{Keys, ld, st};
use crate::cmac::ni::{Blocks, ctr_cbc_mac};

/// CTR from `ctr0` over `data` (complete blocks) in place, and the CMAC
/// chain from `x` over the ciphertext (produced when encrypting, read when
/// decrypting), on the key's AES-NI schedule `keys`. Returns the chaining
/// value after the last block of `data`.
#[inline]
pub(crate) fn body(keys: &Keys, data: &mut [u8], ctr0: u128, x: Block, dir: Direction) -> Block {
    debug_assert_eq!(data.len() % 16, 0);
    let (k, t) = (keys.schedule(), keys.token());
    let x = ld(&x);
    // SAFETY: a `Keys` value holds the `AesNi` token, proof of AES-NI and SSE4.1.
    let (x, _, _) = unsafe {
        match (keys.rounds(), dir.is_encrypt()) {
            (10, true) => ctr_cbc_mac::<10, true>(t, k, k, ctr0, None, data, x, Blocks::NONE),
            (10, false) => ctr_cbc_mac::<10, false>(t, k, k, ctr0, None, data, x, Blocks::NONE),
            (12, true) => ctr_cbc_mac::<12, true>(t, k, k, ctr0, None, data, x, Blocks::NONE),
            (12, false) => ctr_cbc_mac::<12, false>(t, k, k, ctr0, None, data, x, Blocks::NONE),
            (_, true) => ctr_cbc_mac::<14, true>(t, k, k, ctr0, None, data, x, Blocks::NONE),
            (_, false) => ctr_cbc_mac::<14, false>(t, k, k, ctr0, None, data, x, Blocks::NONE),
        }
    };
    let mut out = [0u8; 16];
    st(&mut out, x);
    out
}
