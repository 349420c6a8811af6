//! The integer work of one FF1 Feistel round across a batch group, on the
//! widest integer vectors the CPU has (chosen at run time).
//!
//! After AES has enciphered one block per value, each value's half is
//! updated as `x = x + y mod m` (encrypting) or `x = x - y mod m`
//! (decrypting), where `y` is the first 8 bytes of its block read
//! big-endian (FF1 with d = 8: radix 10 up to 18 digits). The vector kernels
//! estimate `y / m` with an f64 reciprocal and correct the remainder once
//! in each direction with masks; the portable kernel uses [`Mod64`]. No
//! branch or memory index depends on a value (`scripts/check-ct` checks the
//! compiled kernels).

#![allow(unsafe_code)]

use super::num::Mod64;
use crate::Direction;

/// A round modulus with what every kernel needs precomputed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BatchMod {
    m: Mod64,
    /// 1 / m, rounded to nearest.
    inv: f64,
}

/// The f64 estimate of y / m (y < 2^64) is within one of the quotient when
/// m >= 2^14 (its error is below 2^13 / m); m < 2^52 keeps the corrected
/// remainder in (-m, 2m) inside an i64 with room to spare.
const VECTOR_MODULI: core::ops::Range<u64> = 1 << 16..1 << 52;

impl BatchMod {
    pub(crate) fn new(m: Mod64) -> Self {
        BatchMod { m, inv: 1.0 / m.modulus() as f64 }
    }
}

/// One implementation of the round arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Scalar [`Mod64`] arithmetic; every CPU.
    Portable,
    /// Four values per 256-bit vector (moduli below 2^32).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// Eight values per 512-bit vector (AVX-512 F, DQ and BW).
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub(crate) fn detect() -> Self {
        *Self::available().last().expect("the portable kernel is always available")
    }

    /// Every kernel this CPU runs, slowest first.
    pub(crate) fn available() -> Vec<Self> {
        #[allow(unused_mut)]
        let mut all = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                all.push(Kernel::Avx2);
            }
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512bw")
            {
                all.push(Kernel::Avx512);
            }
        }
        all
    }

    /// For each `j < x.len()`: `y` = the first 8 bytes of `blocks[j]` read
    /// big-endian; `x[j] = (x[j] + y) mod m` when encrypting, else `(x[j] - y) mod m`.
    /// Every `x[j]` must be below m; `blocks` at least as long as `x`.
    pub(crate) fn round64(self, m: &BatchMod, blocks: &[[u8; 16]], x: &mut [u64], dir: Direction) {
        assert!(blocks.len() >= x.len(), "one block per value");
        #[cfg(target_arch = "x86_64")]
        if VECTOR_MODULI.contains(&m.m.modulus()) {
            match self {
                // SAFETY: these kernels are only returned by `available`
                // after their CPU features were detected; the lengths were checked above.
                Kernel::Avx512 => return unsafe { x86::round64_avx512(m.m.modulus(), m.inv, blocks, x, dir) },
                Kernel::Avx2 if m.m.modulus() >> 32 == 0 => {
                    // SAFETY: as above.
                    return unsafe { x86::round64_avx2(m.m.modulus() as u32, m.inv, blocks, x, dir) };
                }
                _ => {}
            }
        }
        round64_portable(&m.m, blocks, x, dir)
    }
}

/// The portable kernel: Barrett reduction and masked corrections.
pub(crate) fn round64_portable(m: &Mod64, blocks: &[[u8; 16]], x: &mut [u64], dir: Direction) {
    for (t, blk) in x.iter_mut().zip(blocks) {
        let y = m.rem64(u64::from_be_bytes(blk[..8].try_into().expect("8 bytes")));
        *t = if dir.is_encrypt() { m.add(*t, y) } else { m.sub(*t, y) };
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use core::arch::x86_64::*;

    use crate::Direction;

    /// Byte order reversal within each 64-bit lane (for `vpshufb`).
    const BSWAP_LO: i64 = 0x0001_0203_0405_0607;
    const BSWAP_HI: i64 = 0x0809_0a0b_0c0d_0e0f;
    /// 2^84 + 2^52 (exact in f64).
    const TWO84_PLUS_TWO52: f64 = (1u128 << 84) as f64 + (1u64 << 52) as f64;

    /// `y mod m` for eight u64 `y`: the f64 quotient estimate is within
    /// one, so the remainder is in [-m, 2m) and two masked corrections finish.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub fn reduce8(y: __m512i, m: __m512i, inv: __m512d) -> __m512i {
        let q = _mm512_cvttpd_epu64(_mm512_mul_pd(_mm512_cvtepu64_pd(y), inv));
        let r = _mm512_sub_epi64(y, _mm512_mullo_epi64(q, m));
        let r = _mm512_mask_add_epi64(r, _mm512_cmplt_epi64_mask(r, _mm512_setzero_si512()), r, m);
        _mm512_mask_sub_epi64(r, _mm512_cmpge_epi64_mask(r, m), r, m)
    }

    /// `(a + r) mod m` for `a, r < m < 2^63`, eight lanes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn add8(a: __m512i, r: __m512i, m: __m512i) -> __m512i {
        let s = _mm512_add_epi64(a, r);
        _mm512_mask_sub_epi64(s, _mm512_cmpge_epu64_mask(s, m), s, m)
    }

    /// `(a - r) mod m` for `a, r < m`, eight lanes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn sub8(a: __m512i, r: __m512i, m: __m512i) -> __m512i {
        let s = _mm512_sub_epi64(a, r);
        _mm512_mask_add_epi64(s, _mm512_cmplt_epu64_mask(a, r), s, m)
    }

    /// The first 8 bytes, read big-endian, of eight consecutive blocks
    /// (`lo` holds blocks 0..4, `hi` blocks 4..8, as loaded from memory).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn heads8(lo: __m512i, hi: __m512i) -> __m512i {
        let even = _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), hi);
        let bswap = _mm512_set_epi64(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO);
        _mm512_shuffle_epi8(even, bswap)
    }

    /// The AVX-512 round kernel (see `Kernel::round64`); needs m in `VECTOR_MODULI`.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, DQ and BW, and `blocks.len() >= x.len()`.
    #[target_feature(enable = "avx512f,avx512dq,avx512bw")]
    pub unsafe fn round64_avx512(m: u64, inv: f64, blocks: &[[u8; 16]], x: &mut [u64], dir: Direction) {
        let (vm, vinv) = (_mm512_set1_epi64(m as i64), _mm512_set1_pd(inv));
        let n = x.len();
        let mut j = 0;
        while j < n {
            // Lane masks from the length alone (the tail of the group).
            let k = (n - j).min(8);
            let (mlo, mhi) = (lanes(2 * k.min(4)), lanes(2 * k.saturating_sub(4)));
            let p = blocks[j..].as_ptr() as *const i64;
            // SAFETY: the masks cover only blocks j..j+k, inside `blocks`
            // (masked-off lanes are not accessed), and x[j..j+k].
            let (lo, hi, t) = unsafe {
                (
                    _mm512_maskz_loadu_epi64(mlo, p),
                    _mm512_maskz_loadu_epi64(mhi, p.add(8)),
                    _mm512_maskz_loadu_epi64(lanes(k), x[j..].as_ptr() as *const i64),
                )
            };
            let r = reduce8(heads8(lo, hi), vm, vinv);
            let s = if dir.is_encrypt() { add8(t, r, vm) } else { sub8(t, r, vm) };
            // SAFETY: as above.
            unsafe { _mm512_mask_storeu_epi64(x[j..].as_mut_ptr() as *mut i64, lanes(k), s) };
            j += 8;
        }
    }

    /// A mask of the low `k` (at most 8) lanes.
    #[inline(always)]
    fn lanes(k: usize) -> __mmask8 {
        ((1u32 << k) - 1) as __mmask8
    }

    /// `y mod m` for four u64 `y` and m < 2^32: the f64 estimate of the
    /// quotient (built exactly from y's 32-bit halves) is within one.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn reduce4(y: __m256i, m: __m256i, inv: __m256d) -> __m256i {
        // Exact doubles of y's halves: 2^52 + lo and 2^84 + hi * 2^32.
        let (k52, k84) = (0x4330_0000_0000_0000i64, 0x4530_0000_0000_0000i64);
        let lo = _mm256_blend_epi32::<0b1010_1010>(y, _mm256_set1_epi64x(k52));
        let hi = _mm256_xor_si256(_mm256_srli_epi64::<32>(y), _mm256_set1_epi64x(k84));
        // (2^84 + hi * 2^32) - (2^84 + 2^52) + (2^52 + lo), rounded once.
        let hi = _mm256_sub_pd(_mm256_castsi256_pd(hi), _mm256_set1_pd(TWO84_PLUS_TWO52));
        let yf = _mm256_add_pd(hi, _mm256_castsi256_pd(lo));
        // q < 2^48: truncate, then read its bits after adding 2^52.
        let qf = _mm256_round_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(_mm256_mul_pd(yf, inv));
        let q = _mm256_xor_si256(
            _mm256_castpd_si256(_mm256_add_pd(qf, _mm256_set1_pd(f64::from_bits(k52 as u64)))),
            _mm256_set1_epi64x(k52),
        );
        // q * m mod 2^64 from 32-bit products (m < 2^32).
        let qm = _mm256_add_epi64(
            _mm256_mul_epu32(q, m),
            _mm256_slli_epi64::<32>(_mm256_mul_epu32(_mm256_srli_epi64::<32>(q), m)),
        );
        let r = _mm256_sub_epi64(y, qm);
        let r = _mm256_add_epi64(r, _mm256_and_si256(m, _mm256_cmpgt_epi64(_mm256_setzero_si256(), r)));
        let big = _mm256_cmpgt_epi64(r, _mm256_sub_epi64(m, _mm256_set1_epi64x(1)));
        _mm256_sub_epi64(r, _mm256_and_si256(m, big))
    }

    /// `(a + r) mod m` for `a, r < m < 2^62`, four lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn add4(a: __m256i, r: __m256i, m: __m256i) -> __m256i {
        let s = _mm256_add_epi64(a, r);
        let big = _mm256_cmpgt_epi64(s, _mm256_sub_epi64(m, _mm256_set1_epi64x(1)));
        _mm256_sub_epi64(s, _mm256_and_si256(m, big))
    }

    /// `(a - r) mod m` for `a, r < m < 2^62`, four lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn sub4(a: __m256i, r: __m256i, m: __m256i) -> __m256i {
        let s = _mm256_sub_epi64(a, r);
        _mm256_add_epi64(s, _mm256_and_si256(m, _mm256_cmpgt_epi64(_mm256_setzero_si256(), s)))
    }

    /// The first 8 bytes, read big-endian, of four consecutive blocks.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn heads4(lo: __m256i, hi: __m256i) -> __m256i {
        // Even qwords of lo (blocks 0, 1) and hi (blocks 2, 3), in order.
        let even = _mm256_permute4x64_epi64::<0b1101_1000>(_mm256_unpacklo_epi64(lo, hi));
        let bswap = _mm256_set_epi64x(BSWAP_HI, BSWAP_LO, BSWAP_HI, BSWAP_LO);
        _mm256_shuffle_epi8(even, bswap)
    }

    /// The AVX2 round kernel (see `Kernel::round64`); needs m < 2^32 in `VECTOR_MODULI`.
    ///
    /// # Safety
    /// The CPU must have AVX2, and `blocks.len() >= x.len()`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn round64_avx2(m: u32, inv: f64, blocks: &[[u8; 16]], x: &mut [u64], dir: Direction) {
        let (vm, vinv) = (_mm256_set1_epi64x(m as i64), _mm256_set1_pd(inv));
        let (whole, tail) = (x.len() / 4 * 4, x.len() % 4);
        for j in (0..whole).step_by(4) {
            let p = blocks[j..j + 4].as_ptr() as *const __m256i;
            // SAFETY: blocks j..j+4 and x[j..j+4] are in bounds (j + 4 <= whole <= x.len()).
            let (lo, hi, t) = unsafe {
                (
                    _mm256_loadu_si256(p),
                    _mm256_loadu_si256(p.add(1)),
                    _mm256_loadu_si256(x[j..].as_ptr() as *const __m256i),
                )
            };
            let r = reduce4(heads4(lo, hi), vm, vinv);
            let s = if dir.is_encrypt() { add4(t, r, vm) } else { sub4(t, r, vm) };
            // SAFETY: as above.
            unsafe { _mm256_storeu_si256(x[j..].as_mut_ptr() as *mut __m256i, s) };
        }
        if tail > 0 {
            super::round64_portable(&super::Mod64::new(m as u64), &blocks[whole..], &mut x[whole..], dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift*), enough for test inputs.
    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed >> 12;
        *seed ^= *seed << 25;
        *seed ^= *seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Every kernel the CPU has gives the portable kernel's results, on
    /// random and edge-case inputs, for lengths that exercise the tails.
    #[test]
    fn every_kernel_matches_portable() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let moduli = [
            1_000u64,
            65_535,
            65_536,
            1_000_000,
            100_000_000,
            999_999_937,
            (1 << 32) - 1,
            1 << 32,
            10_000_000_000_000,
            (1 << 52) - 1,
            1 << 52,
            u64::MAX,
        ];
        for kernel in Kernel::available() {
            for &m in &moduli {
                let bm = BatchMod::new(Mod64::new(m));
                for len in [0usize, 1, 3, 4, 5, 7, 8, 9, 15, 16, 63, 64] {
                    for trial in 0..40 {
                        let blocks: Vec<[u8; 16]> = (0..len)
                            .map(|i| {
                                let mut b = [0u8; 16];
                                let y = match (trial + i) % 7 {
                                    0 => u64::MAX - (rng(&mut seed) % 3),
                                    1 => m.wrapping_mul(rng(&mut seed) % (u64::MAX / m)).wrapping_sub(trial as u64 % 2),
                                    2 => rng(&mut seed) % (m.saturating_mul(2)),
                                    _ => rng(&mut seed),
                                };
                                b[..8].copy_from_slice(&y.to_be_bytes());
                                b[8..].copy_from_slice(&rng(&mut seed).to_le_bytes());
                                b
                            })
                            .collect();
                        let x: Vec<u64> =
                            (0..len).map(|i| if i % 5 == 0 { m - 1 } else { rng(&mut seed) % m }).collect();
                        for dir in [Direction::Encrypt, Direction::Decrypt] {
                            let (mut want, mut got) = (x.clone(), x.clone());
                            round64_portable(&bm.m, &blocks, &mut want, dir);
                            kernel.round64(&bm, &blocks, &mut got, dir);
                            assert_eq!(got, want, "{kernel:?} m {m} len {len} {dir:?}");
                        }
                    }
                }
            }
        }
    }
}
