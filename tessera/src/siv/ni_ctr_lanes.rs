//! The vectors of AES blocks the wide CTR kernels of [`super::ni_ctr`] run
//! on, written once over [`CtrLanes`]: four blocks in a zmm register with
//! VAES-512 ([`Zmm`]), two in a ymm register with VAES-256 and AVX2
//! ([`Ymm`]) or with AVX-512 VL ([`YmmVl`]). Each is a proof of its
//! features; its methods are always inlined into the kernel entries, which
//! are compiled with those features.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use zeroize::Zeroize;

use crate::aes::ni::st;
use crate::cmac::ni::put_block;
use crate::cpu::{Vaes256, Vaes512};
use crate::simd::{load, store};

/// Writes the first `dst.len() - 16 * j` (< 16) bytes of the keystream
/// block `ks` from block `j` on: a last partial block, through 16 bytes of
/// stack that are wiped.
#[inline(always)]
pub(crate) fn put_partial(src: Option<&[u8]>, dst: &mut [u8], j: usize, ks: __m128i) {
    let mut t = [0u8; 16];
    st(&mut t, ks);
    for (i, d) in dst[16 * j..].iter_mut().enumerate() {
        *d = t[i] ^ src.map_or(*d, |s| s[16 * j + i]);
    }
    t.zeroize();
}

/// The byte shuffle between a big-endian block and two little-endian lanes.
#[inline(always)]
pub(crate) fn reverse() -> __m128i {
    crate::simd::cast([15u8, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
}

/// A vector of AES blocks with what the CTR kernels do to it. Counters
/// are held per 128-bit lane as the counter's low and high 64-bit halves,
/// as numbers ([`super::ni_ctr::lanes`]).
pub(super) trait CtrLanes: Copy {
    /// The vector type.
    type V: Copy;
    /// The blocks in one vector.
    const BLOCKS: usize;
    /// The vectors in flight at the most (beside the 15 broadcast round
    /// keys, within the registers the features give).
    const MOST: usize;
    /// Whether the broadcast schedule may be spilled to the stack (16
    /// vector registers), to be wiped after.
    const SPILLS: bool;
    /// `k` in every 128-bit lane.
    fn splat(self, k: __m128i) -> Self::V;
    /// The counters `c` plus `k`, modulo 2^128 when `CARRY` (a low half may
    /// wrap), else by one 64-bit addition per lane.
    fn add<const CARRY: bool>(self, c: Self::V, k: u64) -> Self::V;
    /// The counters `c` as big-endian blocks, XORed with round key 0.
    fn blocks(self, c: Self::V, k0: Self::V) -> Self::V;
    /// One AES round of each block.
    fn aesenc(self, x: Self::V, k: Self::V) -> Self::V;
    /// The last AES round of each block.
    fn aesenclast(self, x: Self::V, k: Self::V) -> Self::V;
    /// `dst[p..p + len] = src[p..p + len] ^ ks` (or in place when `src` is
    /// `None`), `len` at most one vector's bytes.
    ///
    /// # Safety
    /// `p + len` is at most `dst.len()`, and `src`, if any, is as long as `dst`.
    unsafe fn put(self, src: Option<&[u8]>, dst: &mut [u8], p: usize, len: usize, ks: Self::V);
}

/// The proof of AVX-512F, AVX-512BW and VAES: four blocks a zmm register.
#[derive(Clone, Copy)]
pub(super) struct Zmm(pub(super) Vaes512);

/// The proof of AVX2 and VAES: two blocks a ymm register, 16 registers.
#[derive(Clone, Copy)]
pub(super) struct Ymm(pub(super) Vaes256);

/// The proof of AVX-512 (F, VL, BW) and VAES: two blocks a ymm register,
/// 32 registers, byte-masked moves.
#[derive(Clone, Copy)]
pub(super) struct YmmVl(pub(super) Vaes512);

/// Methods of a lane type whose intrinsics need the features its token
/// (`self`) proves, each body run as one `unsafe` block.
macro_rules! proven {
    ($(fn $name:ident $(<const $c:ident: $ct:ty>)? ($($a:ident: $t:ty),*) -> $r:ty { $($body:tt)* })*) => {$(
        #[inline(always)]
        fn $name $(<const $c: $ct>)? (self, $($a: $t),*) -> $r {
            // SAFETY: `self` proves the features of the instructions.
            unsafe { $($body)* }
        }
    )*};
}

/// `dst[p..p + len] = src ^ ks` for `len` up to a `$v`'s bytes with
/// AVX-512BW masked moves: a whole vector with plain loads and stores (a
/// later 16-byte load of the output, as decryption's chain right after
/// encryption makes, can be forwarded from a plain store), a partial one
/// through a byte mask (masked-off bytes are neither read nor written).
macro_rules! masked_put {
    ($v:ty, $mask:ty, $loadu:ident, $storeu:ident, $maskz_loadu:ident, $mask_storeu:ident, $xor:ident) => {
        #[inline(always)]
        unsafe fn put(self, src: Option<&[u8]>, dst: &mut [u8], p: usize, len: usize, ks: $v) {
            let d = dst.as_mut_ptr();
            let s = src.map_or(d.cast_const(), <[u8]>::as_ptr);
            // SAFETY: bytes p .. p + len are within `dst` and `src` (the
            // caller's contract); the token proves the features.
            unsafe {
                if len == size_of::<$v>() {
                    let input = $loadu(s.add(p).cast());
                    $storeu(d.add(p).cast(), $xor(input, ks));
                } else {
                    let mask = ((1 as $mask) << len) - 1;
                    let input = $maskz_loadu(mask, s.add(p).cast());
                    $mask_storeu(d.add(p).cast(), mask, $xor(input, ks));
                }
            }
        }
    };
}

impl CtrLanes for Zmm {
    type V = __m512i;
    const BLOCKS: usize = 4;
    const MOST: usize = 8;
    const SPILLS: bool = false;
    proven! {
        fn splat(k: __m128i) -> __m512i { _mm512_broadcast_i32x4(k) }
        fn add<const CARRY: bool>(c: __m512i, k: u64) -> __m512i {
            let k = _mm512_maskz_set1_epi64(0x55, k as i64);
            let n = _mm512_add_epi64(c, k);
            if !CARRY {
                return n;
            }
            // The low halves that wrapped carry into the high halves above them.
            let carry = _mm512_mask_cmplt_epu64_mask(0x55, n, k);
            _mm512_mask_add_epi64(n, carry << 1, n, _mm512_set1_epi64(1))
        }
        fn blocks(c: __m512i, k0: __m512i) -> __m512i {
            _mm512_xor_si512(_mm512_shuffle_epi8(c, _mm512_broadcast_i32x4(reverse())), k0)
        }
        fn aesenc(x: __m512i, k: __m512i) -> __m512i { _mm512_aesenc_epi128(x, k) }
        fn aesenclast(x: __m512i, k: __m512i) -> __m512i { _mm512_aesenclast_epi128(x, k) }
    }
    masked_put!(
        __m512i,
        u64,
        _mm512_loadu_si512,
        _mm512_storeu_si512,
        _mm512_maskz_loadu_epi8,
        _mm512_mask_storeu_epi8,
        _mm512_xor_si512
    );
}

/// The ymm operations of [`Ymm`] and [`YmmVl`] but the output: counters
/// whose low halves do not wrap (the ymm kernels run from such counters
/// only), VAES rounds.
macro_rules! ymm_ops {
    () => {
        type V = __m256i;
        const BLOCKS: usize = 2;
        proven! {
            fn splat(k: __m128i) -> __m256i { _mm256_broadcastsi128_si256(k) }
            fn add<const CARRY: bool>(c: __m256i, k: u64) -> __m256i {
                debug_assert!(!CARRY, "the ymm kernels run from counters whose low halves do not wrap");
                _mm256_add_epi64(c, _mm256_set_epi64x(0, k as i64, 0, k as i64))
            }
            fn blocks(c: __m256i, k0: __m256i) -> __m256i {
                _mm256_xor_si256(_mm256_shuffle_epi8(c, _mm256_broadcastsi128_si256(reverse())), k0)
            }
            fn aesenc(x: __m256i, k: __m256i) -> __m256i { _mm256_aesenc_epi128(x, k) }
            fn aesenclast(x: __m256i, k: __m256i) -> __m256i { _mm256_aesenclast_epi128(x, k) }
        }
    };
}

impl CtrLanes for Ymm {
    ymm_ops!();
    const MOST: usize = 8;
    const SPILLS: bool = true;
    /// A whole vector with one load and store, a partial one 16 bytes at a
    /// time ([`put_block`], then a partial block through wiped stack bytes).
    #[inline(always)]
    unsafe fn put(self, src: Option<&[u8]>, dst: &mut [u8], p: usize, len: usize, ks: __m256i) {
        if len == 32 {
            let input: __m256i = load(match src {
                Some(s) => &s[p..p + 32],
                None => &dst[p..p + 32],
            });
            // SAFETY: the token proves AVX2.
            store(&mut dst[p..p + 32], unsafe { _mm256_xor_si256(input, ks) });
            return;
        }
        // SAFETY: the token proves AVX2.
        let halves = unsafe { [_mm256_castsi256_si128(ks), _mm256_extracti128_si256::<1>(ks)] };
        let j = p / 16;
        for (h, ks) in halves.into_iter().enumerate() {
            if len >= 16 * h + 16 {
                put_block::<true>(src, dst, j + h, ks);
            } else if len > 16 * h {
                put_partial(src, dst, j + h, ks);
            }
        }
    }
}

impl CtrLanes for YmmVl {
    ymm_ops!();
    const MOST: usize = 4;
    const SPILLS: bool = false;
    masked_put!(
        __m256i,
        u32,
        _mm256_loadu_si256,
        _mm256_storeu_si256,
        _mm256_maskz_loadu_epi8,
        _mm256_mask_storeu_epi8,
        _mm256_xor_si256
    );
}
