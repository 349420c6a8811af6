//! AES-CTR kernels with the schedule in registers
//! ([`crate::aes::ni::Keys::schedule`]): eight blocks in flight with AES-NI
//! ([`ctr`]), 16 with VAES-256 ([`ctr_vaes256`]), 32 with VAES-512
//! ([`ctr_vaes512`]), chosen by [`ctr_with`] for a [`Width`]. The wide
//! kernels share one step and one loop, generic over the vector
//! ([`super::ni_ctr_lanes::CtrLanes`]).
//! Used by AES-SIV encryption (after S2V's V); the chained CTR of EAX and
//! AES-SIV decryption is `crate::cmac::ni::ctr_cbc_mac`.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::aes::ni::Width;
use crate::aes::ni::ld;
use crate::cmac::ni::put_block;
use crate::cpu::{AesNi, Vaes256, Vaes512};

use super::ni_ctr_lanes::{CtrLanes, Ymm, YmmVl, Zmm, put_partial, reverse};

/// The big-endian counter block `q` as two 64-bit lanes: its low half
/// in lane 0, its high half in lane 1 (the layout the kernels add in).
#[inline(always)]
pub(crate) fn lanes(q: u128) -> __m128i {
    crate::simd::cast([q as u64, (q >> 64) as u64])
}

/// AES-SIV's counter block from V in a register (RFC 5297 section 2.5:
/// bits 63 and 31 cleared) as [`lanes`] lays it out.
#[inline]
#[target_feature(enable = "ssse3")]
pub(crate) fn siv_counter(v: __m128i) -> __m128i {
    let keep = _mm_set_epi8(-1, -1, -1, 0x7f, -1, -1, -1, 0x7f, -1, -1, -1, -1, -1, -1, -1, -1);
    _mm_shuffle_epi8(_mm_and_si128(v, keep), reverse())
}

/// Whether adding up to `blocks` to the counter `c` ([`lanes`]) never
/// wraps its low half (always so for SIV's counters, bit 63 cleared):
/// then one 64-bit addition makes each counter.
#[inline(always)]
fn no_carry(c: __m128i, blocks: usize) -> bool {
    crate::simd::cast::<_, [u64; 2]>(c)[0].checked_add(blocks as u64).is_some()
}

/// AES-CTR under `k` from the counter block `c` ([`lanes`]; incremented
/// modulo 2^128) over `dst` of any length (`dst = src ^ keystream`, or in
/// place when `src` is `None`), eight independent blocks in flight; only
/// a last partial block's keystream goes through memory.
#[inline]
#[target_feature(enable = "aes,ssse3,sse4.1")]
pub(crate) fn ctr<const NR: usize>(_: AesNi, k: &[__m128i; 15], c: __m128i, src: Option<&[u8]>, dst: &mut [u8]) {
    // SAFETY: compiled with AES-NI, SSSE3 and SSE4.1.
    unsafe { ctr_inline::<NR>(k, c, src, dst) }
}

/// [`ctr`], always inlined (into AES-SIV's seal, after S2V).
///
/// # Safety
/// The CPU must have AES-NI, SSSE3 and SSE4.1.
#[inline(always)]
pub(crate) unsafe fn ctr_inline<const NR: usize>(k: &[__m128i; 15], c: __m128i, src: Option<&[u8]>, dst: &mut [u8]) {
    if no_carry(c, dst.len().div_ceil(16)) {
        ctr_blocks::<NR, false>(k, c, src, dst);
    } else {
        ctr_blocks::<NR, true>(k, c, src, dst);
    }
}

/// [`ctr`]'s loop; `CARRY`: whether a counter's low half may wrap (then
/// the counters are made as 128-bit integers).
#[inline(always)]
fn ctr_blocks<const NR: usize, const CARRY: bool>(k: &[__m128i; 15], c: __m128i, src: Option<&[u8]>, dst: &mut [u8]) {
    debug_assert!(src.is_none_or(|s| s.len() == dst.len()));
    // SAFETY: called from `ctr_inline` only, whose callers vouch for AES-NI, SSSE3 and SSE4.1.
    unsafe {
        let q = (_mm_extract_epi64::<1>(c) as u64 as u128) << 64 | _mm_cvtsi128_si64(c) as u64 as u128;
        let counter = |j: usize| {
            if CARRY {
                ld(&q.wrapping_add(j as u128).to_be_bytes())
            } else {
                _mm_shuffle_epi8(_mm_add_epi64(c, _mm_set_epi64x(0, j as i64)), reverse())
            }
        };
        let mut j0 = 0;
        while 16 * j0 < dst.len() {
            let mut b: [__m128i; 8] = core::array::from_fn(|j| _mm_xor_si128(counter(j0 + j), k[0]));
            for kr in &k[1..NR] {
                for x in &mut b {
                    *x = _mm_aesenc_si128(*x, *kr);
                }
            }
            for x in &mut b {
                let ks = _mm_aesenclast_si128(*x, k[NR]);
                if 16 * j0 + 16 <= dst.len() {
                    put_block::<true>(src, dst, j0, ks);
                } else if 16 * j0 < dst.len() {
                    put_partial(src, dst, j0, ks);
                }
                j0 += 1;
            }
        }
    }
}

/// AES-CTR under a `rounds`-round schedule on the kernel of `width`.
#[inline]
pub(crate) fn ctr_with(k: &[__m128i; 15], rounds: usize, width: Width, q: u128, src: Option<&[u8]>, dst: &mut [u8]) {
    // SAFETY: each `Width` holds the token of the features its kernel is compiled for.
    unsafe {
        match (rounds, width) {
            (10, Width::Vaes512(t)) => ctr_vaes512::<10>(t, k, q, src, dst),
            (12, Width::Vaes512(t)) => ctr_vaes512::<12>(t, k, q, src, dst),
            (_, Width::Vaes512(t)) => ctr_vaes512::<14>(t, k, q, src, dst),
            (10, Width::Vaes256(t)) => ctr_vaes256::<10>(t, k, q, src, dst),
            (12, Width::Vaes256(t)) => ctr_vaes256::<12>(t, k, q, src, dst),
            (_, Width::Vaes256(t)) => ctr_vaes256::<14>(t, k, q, src, dst),
            (10, Width::Ni(t)) => ctr::<10>(t, k, lanes(q), src, dst),
            (12, Width::Ni(t)) => ctr::<12>(t, k, lanes(q), src, dst),
            (_, Width::Ni(t)) => ctr::<14>(t, k, lanes(q), src, dst),
        }
    }
}

/// AES-CTR like [`ctr`] on 512-bit vectors with VAES, for CPUs with
/// AVX-512F, AVX-512BW and VAES: up to 32 blocks in flight, four per
/// register (the AES-NI units take one block per instruction, VAES four).
/// The counters are made in registers and a last partial vector is read
/// and written through byte masks: no keystream goes through memory.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,vaes,aes")]
pub(crate) fn ctr_vaes512<const NR: usize>(t: Vaes512, k: &[__m128i; 15], q: u128, src: Option<&[u8]>, dst: &mut [u8]) {
    // The masked moves read `src` as far as `dst` goes.
    assert!(src.is_none_or(|s| s.len() == dst.len()));
    let rk = schedule(Zmm(t), k);
    let half = |j: u64, hi: bool| {
        let c = q.wrapping_add(j as u128);
        (if hi { c >> 64 } else { c }) as u64 as i64
    };
    let c = _mm512_set_epi64(
        half(3, true),
        half(3, false),
        half(2, true),
        half(2, false),
        half(1, true),
        half(1, false),
        half(0, true),
        half(0, false),
    );
    // SIV's counters (bit 63 cleared) never wrap their low half in a message
    // shorter than 2^63 blocks: then each vector's counters take one addition.
    if (q as u64).checked_add(dst.len().div_ceil(16) as u64).is_some() {
        ctr_steps::<_, NR, false>(Zmm(t), &rk, c, src, dst);
    } else {
        ctr_steps::<_, NR, true>(Zmm(t), &rk, c, src, dst);
    }
}

/// AES-CTR like [`ctr`] on 256-bit vectors with VAES, for CPUs with AVX2
/// and VAES but no AVX-512 (Alder Lake, Zen 3): up to 16 blocks in flight,
/// two per register (VAES issues two blocks per instruction where AES-NI
/// issues one). A last partial vector goes out 16 bytes at a time
/// ([`put_block`], then a partial block through wiped stack bytes). From
/// a counter whose low half may wrap on the way (never AES-SIV's), [`ctr`].
#[inline]
#[target_feature(enable = "avx2,vaes,aes")]
pub(crate) fn ctr_vaes256<const NR: usize>(t: Vaes256, k: &[__m128i; 15], q: u128, src: Option<&[u8]>, dst: &mut [u8]) {
    ctr_ymm::<_, NR>(Ymm(t), t.into(), k, lanes(q), src, dst);
}

/// AES-CTR on 256-bit vectors (two blocks each, as [`ctr_vaes256`]) for
/// CPUs with AVX-512 (F, VL, BW) and VAES, from the counter block `c` in a
/// register ([`lanes`]): with 32 vector registers the broadcast schedule and
/// the vectors in flight stay in registers (nothing reaches the stack), and a
/// last partial vector is read and written through byte masks (masked-off
/// bytes are neither read nor written). From a counter whose low half may
/// wrap on the way (never AES-SIV's), [`ctr`].
///
/// AES-SIV's seal runs its CTR here rather than on 512-bit vectors: both
/// issue four blocks a cycle, but right after S2V's chain (and before the
/// next call's chain) this measured faster.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2,vaes,aes")]
pub(crate) fn ctr_vaes256_vl<const NR: usize>(
    t: Vaes512,
    k: &[__m128i; 15],
    c: __m128i,
    src: Option<&[u8]>,
    dst: &mut [u8],
) {
    ctr_ymm::<_, NR>(YmmVl(t), t.into(), k, c, src, dst);
}

/// The schedule `k` broadcast to every 128-bit lane.
#[inline(always)]
fn schedule<L: CtrLanes>(l: L, k: &[__m128i; 15]) -> [L::V; 15] {
    let mut rk = [l.splat(k[0]); 15];
    for (r, k) in rk.iter_mut().zip(k) {
        *r = l.splat(*k);
    }
    rk
}

/// The ymm kernels' body: CTR from the counter block `c` ([`lanes`]) on
/// `l`'s vectors, or on AES-NI ([`ctr`], under `ni`) from a counter whose
/// low half may wrap on the way.
#[inline(always)]
fn ctr_ymm<L: CtrLanes<V = __m256i>, const NR: usize>(
    l: L,
    ni: AesNi,
    k: &[__m128i; 15],
    c: __m128i,
    src: Option<&[u8]>,
    dst: &mut [u8],
) {
    // The masked moves read `src` as far as `dst` goes.
    assert!(src.is_none_or(|s| s.len() == dst.len()));
    if !no_carry(c, dst.len().div_ceil(16)) {
        // SAFETY: `ni` proves AES-NI, SSSE3 and SSE4.1.
        return unsafe { ctr::<NR>(ni, k, c, src, dst) };
    }
    let mut rk = schedule(l, k);
    // Blocks q (low lane) and q + 1 (high lane).
    // SAFETY: `l` proves AVX2, which its entries are compiled with.
    let c = unsafe { _mm256_add_epi64(l.splat(c), _mm256_set_epi64x(0, 1, 0, 0)) };
    ctr_steps::<L, NR, false>(l, &rk, c, src, dst);
    if L::SPILLS {
        crate::wipe::wipe_vectors(&mut rk);
    }
}

/// The steps of a wide kernel from the counters `c` (`CARRY`: whether a
/// counter's low 64-bit half may wrap on the way) over `dst`: eight
/// vectors at a time, four, then one (as far as [`CtrLanes::MOST`] allows).
#[inline(always)]
fn ctr_steps<L: CtrLanes, const NR: usize, const CARRY: bool>(
    l: L,
    rk: &[L::V; 15],
    mut c: L::V,
    src: Option<&[u8]>,
    dst: &mut [u8],
) {
    let bytes = 16 * L::BLOCKS;
    let mut off = 0;
    while off < dst.len() {
        off += match dst.len() - off {
            left if L::MOST >= 8 && left > 4 * bytes => ctr_step::<L, NR, 8, CARRY>(l, rk, &mut c, src, dst, off),
            left if left > bytes => ctr_step::<L, NR, 4, CARRY>(l, rk, &mut c, src, dst, off),
            _ => ctr_step::<L, NR, 1, CARRY>(l, rk, &mut c, src, dst, off),
        };
    }
}

/// One step of a wide kernel: `W` vectors of keystream from the counters
/// `c`, XORed into `dst` from byte `off` on, as far as `dst` goes. Returns
/// the bytes done.
#[inline(always)]
fn ctr_step<L: CtrLanes, const NR: usize, const W: usize, const CARRY: bool>(
    l: L,
    rk: &[L::V; 15],
    c: &mut L::V,
    src: Option<&[u8]>,
    dst: &mut [u8],
    off: usize,
) -> usize {
    // Each vector's counters straight from `c` (no chain between them).
    let mut b = [rk[0]; W];
    for (v, x) in b.iter_mut().enumerate() {
        *x = l.blocks(l.add::<CARRY>(*c, (L::BLOCKS * v) as u64), rk[0]);
    }
    *c = l.add::<CARRY>(*c, (L::BLOCKS * W) as u64);
    for kr in &rk[1..NR] {
        for x in &mut b {
            *x = l.aesenc(*x, *kr);
        }
    }
    let bytes = 16 * L::BLOCKS;
    // The first vector always has bytes to go (`off < dst.len()`).
    let n = (dst.len() - off).min(bytes * W);
    for (v, x) in b.iter().enumerate() {
        if v > 0 && n <= bytes * v {
            break;
        }
        let len = (n - bytes * v).min(bytes);
        // SAFETY: bytes off + bytes * v .. + len are within `dst`, and `src`
        // is as long (checked by the kernel entries).
        unsafe { l.put(src, dst, off + bytes * v, len, l.aesenclast(*x, rk[NR])) };
    }
    n
}

/// [`ctr_vaes256_vl`] from AES-SIV's V in a register (its counter block by
/// [`siv_counter`], inlined here).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2,vaes,aes")]
pub(crate) fn siv_ctr_vaes256_vl<const NR: usize>(
    t: Vaes512,
    k: &[__m128i; 15],
    v: __m128i,
    src: Option<&[u8]>,
    dst: &mut [u8],
) {
    ctr_vaes256_vl::<NR>(t, k, siv_counter(v), src, dst)
}

#[cfg(test)]
#[path = "ni_ctr_tests.rs"]
mod tests;
