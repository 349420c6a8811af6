//! S2V's last CMAC (RFC 5297 section 2.4) for AES-SIV's single-message
//! path, in registers from the first block to V: the plaintext's chain
//! beside the associated data's CMAC ([`cbc_mac2`], or with CTR for
//! decryption, [`ctr_cbc_mac`]), then D, the final blocks `T = S_n xorend
//! D` (with the pad and the CMAC subkey) and the chain over them.
//!
//! The chain's value, D and the last plaintext bytes never go through
//! memory between these steps: the final blocks are built with byte
//! shuffles by `r = n mod 16` (tables below), so they are ready before the
//! chain reaches them. Built on the stack with byte copies, as before, a
//! 16-byte load spanning smaller stores cannot be forwarded: it waited for
//! those stores to retire, that is for the chain's last block, and put the
//! tail's assembly on the critical path of every call.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::ni_ctr::{ctr_inline, siv_counter};
use crate::aes::ni::{ld, st};
use crate::cmac::ni::{Blocks, cbc_mac2, ctr_cbc_mac};
use crate::cpu::AesNi;

/// `LOW[j] = j` for `j < 16`, then `0x80` (a shuffle index that gives 0).
const LOW: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut j = 0;
    while j < 16 {
        t[j] = j as u8;
        j += 1;
    }
    t
};

/// `0x80` for `j < 16`, then `HIGH[j] = j - 16`.
const HIGH: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut j = 0;
    while j < 16 {
        t[16 + j] = j as u8;
        j += 1;
    }
    t
};

/// `0xff` for `j < 16`, then 0.
const ONES: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut j = 0;
    while j < 16 {
        t[j] = 0xff;
        j += 1;
    }
    t
};

/// `0x80` at 16, else 0 (CMAC's pad bit).
const PAD: [u8; 32] = {
    let mut t = [0u8; 32];
    t[16] = 0x80;
    t
};

/// The last block of AES-CMAC over `c` (at least 16 bytes; RFC 4493: a
/// complete block XOR the subkey K1, a partial one padded XOR K2; `sub` is
/// K1, K2) in a register: a partial block is shifted out of `c`'s last 16
/// bytes by a byte shuffle. Assembled on the stack (a zeroed block, a
/// `memcpy` of the bytes, the pad byte), the loads that read it span those
/// smaller stores and wait for them to retire (the top sample outside the
/// kernels in `perf`; a small gain).
#[inline]
#[target_feature(enable = "ssse3")]
pub(crate) fn cmac_last(_: AesNi, c: &[u8], sub: [__m128i; 2]) -> __m128i {
    let (n, r) = (c.len(), c.len() % 16);
    let x = ld(&c[n - 16..]);
    if r == 0 {
        return _mm_xor_si128(x, sub[0]);
    }
    // Bytes 16 - r .. 16 of `x` to 0 .. r, then the pad bit at r.
    let b = _mm_or_si128(_mm_shuffle_epi8(x, ld(&LOW[16 - r..])), ld(&PAD[16 - r..]));
    _mm_xor_si128(b, sub[1])
}

/// The final blocks of S2V's last CMAC for a last component of `n >= 16`
/// bytes, `r = n % 16`: `a` holds its bytes from `n - 16 - r` (the first
/// block D touches), `b` its last 16 bytes, `d` is D and `sub` the CMAC
/// subkeys K1 and K2. With `r = 0`, one block: `b ^ D ^ K1`; else two: `a`
/// with `b ^ D` from byte `r` on, then the last `r` bytes of `b ^ D`,
/// padded, `^ K2`.
#[inline]
#[target_feature(enable = "sse4.1")]
fn last_blocks(a: __m128i, b: __m128i, d: __m128i, r: usize, sub: [__m128i; 2]) -> [__m128i; 2] {
    let bd = _mm_xor_si128(b, d);
    if r == 0 {
        return [_mm_xor_si128(bd, sub[0]), _mm_setzero_si128()];
    }
    let at = |t: &[u8; 32]| ld(&t[16 - r..]);
    let t0 = _mm_or_si128(_mm_and_si128(a, at(&ONES)), _mm_shuffle_epi8(bd, at(&HIGH)));
    let t1 = _mm_or_si128(_mm_shuffle_epi8(bd, at(&LOW)), at(&PAD));
    [t0, _mm_xor_si128(t1, sub[1])]
}

/// Continues the chain `x` over the final blocks `t` (two when `two`),
/// returning V.
#[inline]
#[target_feature(enable = "aes")]
fn chain_last<const NR: usize>(k: &[__m128i; 15], x: __m128i, t: [__m128i; 2], two: bool) -> __m128i {
    let mut s = _mm_xor_si128(x, _mm_xor_si128(t[0], k[0]));
    for kr in &k[1..NR] {
        s = _mm_aesenc_si128(s, *kr);
    }
    if !two {
        return _mm_aesenclast_si128(s, k[NR]);
    }
    // The second block folded into the first's last round (as in `cmac::ni`).
    s = _mm_aesenclast_si128(s, _mm_xor_si128(_mm_xor_si128(k[NR], k[0]), t[1]));
    for kr in &k[1..NR] {
        s = _mm_aesenc_si128(s, *kr);
    }
    _mm_aesenclast_si128(s, k[NR])
}

/// Where the blocks D touches start in a last component of `n >= 16`
/// bytes, and `n % 16`.
#[inline(always)]
fn split(n: usize) -> (usize, usize) {
    assert!(n >= 16);
    (n - 16 - n % 16, n % 16)
}

/// What the final-blocks kernels take besides the last component `s`.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    /// The CMAC blocks of the one component before `s`, run beside `s`'s
    /// chain; or [`Blocks::NONE`].
    pub(crate) blocks: Blocks<'a>,
    /// D before that component (D = `d ^ CMAC(blocks)`), or the final D
    /// when `blocks` is none.
    pub(crate) d: __m128i,
    /// The CMAC subkeys K1, K2.
    pub(crate) sub: [__m128i; 2],
}

/// S2V's V under the schedule `k` for a last component `s` of at least 16
/// bytes, with D and the subkeys from `side`.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn s2v_last<const NR: usize>(_: AesNi, k: &[__m128i; 15], s: &[u8], side: Side<'_>) -> __m128i {
    // SAFETY: compiled with AES-NI and SSE4.1.
    unsafe { s2v_last_inline::<NR>(k, s, side) }
}

/// [`s2v_last`], always inlined (into [`seal_last`], so that V stays in a
/// register for CTR).
///
/// # Safety
/// The CPU must have AES-NI and SSE4.1.
#[inline(always)]
unsafe fn s2v_last_inline<const NR: usize>(k: &[__m128i; 15], s: &[u8], side: Side<'_>) -> __m128i {
    // SAFETY: the caller vouches for the features.
    unsafe {
        let (p, r) = split(s.len());
        let (x, mac) = cbc_mac2::<NR>(k, Blocks::of(&s[..p]), side.blocks);
        let t = last_blocks(ld(&s[p..]), ld(&s[s.len() - 16..]), _mm_xor_si128(side.d, mac), r, side.sub);
        chain_last::<NR>(k, x, t, r != 0)
    }
}

/// AES-SIV decryption of `dst` (at least 16 bytes; from `src`, as long, or
/// in place) with CTR under `kc` from the counter block `q`, and S2V's V
/// under `km` over the result as [`s2v_last`] takes it (`side`): CTR and
/// the chains side by side ([`ctr_cbc_mac`]), the last bytes of plaintext
/// from the keystream it returns, in registers.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn open_last<const NR: usize>(
    t: AesNi,
    km: &[__m128i; 15],
    kc: &[__m128i; 15],
    q: u128,
    src: Option<&[u8]>,
    dst: &mut [u8],
    side: Side<'_>,
) -> __m128i {
    let n = dst.len();
    assert!(src.is_none_or(|s| s.len() == n));
    let (p, r) = split(n);
    let zero = _mm_setzero_si128();
    let (x, ks, mac) = ctr_cbc_mac::<NR, true>(t, km, kc, q, src.map(|s| &s[..p]), &mut dst[..p], zero, side.blocks);
    // Ciphertext bytes p.. and the last 16, and the keystream under them
    // (bytes 0.. and r.. of the two blocks after the chained ones).
    let c = src.unwrap_or(dst);
    let (ca, cb) = (ld(&c[p..]), ld(&c[n - 16..]));
    let shifted = _mm_or_si128(_mm_shuffle_epi8(ks[0], ld(&LOW[r..])), _mm_shuffle_epi8(ks[1], ld(&HIGH[r..])));
    let (a, b) = (_mm_xor_si128(ca, ks[0]), _mm_xor_si128(cb, shifted));
    st(&mut dst[p..], a);
    st(&mut dst[n - 16..], b);
    let t = last_blocks(a, b, _mm_xor_si128(side.d, mac), r, side.sub);
    chain_last::<NR>(km, x, t, r != 0)
}

/// AES-SIV encryption of `dst` (at least 16 bytes; from `src`, as long, or
/// in place): V over the plaintext as [`s2v_last`] makes it (`side`),
/// then CTR under `kc` on AES-NI (`ni_ctr::ctr`) from V's counter
/// block, built from V in a register. One body from the chain's first
/// block to the last keystream block (both always inlined): V is neither
/// stored nor reloaded before the keystream can start. Returns V.
#[inline]
#[target_feature(enable = "aes,sse4.1")]
pub(crate) fn seal_last<const NR: usize>(
    _: AesNi,
    km: &[__m128i; 15],
    kc: &[__m128i; 15],
    src: Option<&[u8]>,
    dst: &mut [u8],
    side: Side<'_>,
) -> __m128i {
    // SAFETY: compiled with AES-NI and SSE4.1 (SSSE3 with it).
    unsafe {
        let v = s2v_last_inline::<NR>(km, src.unwrap_or(dst), side);
        ctr_inline::<NR>(kc, siv_counter(v), src, dst);
        v
    }
}
