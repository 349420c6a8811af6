//! Tests of the fused kernels' arithmetic helpers against u128 arithmetic.

use super::super::fused_avx2::{Mod256, fold_top4, rem4};
use super::*;

/// A deterministic stream of test values: an LCG from `seed`, its state
/// xored with itself shifted right by `fold` (its low bits are weak).
fn lcg(mut seed: u64, fold: u32) -> impl FnMut() -> u64 {
    move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        seed ^ (seed >> fold)
    }
}

/// Eight u64 lanes as a vector.
fn v512(x: [u64; 8]) -> __m512i {
    // SAFETY: [u64; 8] and __m512i have the same size, and every bit
    // pattern is valid for both.
    unsafe { core::mem::transmute::<[u64; 8], __m512i>(x) }
}

/// A vector's eight u64 lanes.
fn a512(v: __m512i) -> [u64; 8] {
    // SAFETY: as in `v512`.
    unsafe { core::mem::transmute::<__m512i, [u64; 8]>(v) }
}

/// Four u64 lanes as a vector.
fn v256(x: [u64; 4]) -> __m256i {
    // SAFETY: as in `v512`, for 256 bits.
    unsafe { core::mem::transmute::<[u64; 4], __m256i>(x) }
}

/// A vector's four u64 lanes.
fn a256(v: __m256i) -> [u64; 4] {
    // SAFETY: as in `v512`, for 256 bits.
    unsafe { core::mem::transmute::<__m256i, [u64; 4]>(v) }
}

/// [`barrett8`] then [`update8`] (FF1's reduction) against u128
/// arithmetic from 2^16 to [`MAX_FF1_512`]: y near 0, at and one below
/// multiples of m, near 2^64 and at random; halves d of 0, m - 1 and at
/// random.
#[test]
fn barrett_update_match_u128() {
    use crate::fpe::batch::round::{BatchMod, Layout};
    use crate::fpe::num::Mod64;
    if crate::cpu::Vaes512Ifma::get().is_none() {
        return;
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (vec, arr) = (v512, a512);
    for m in [1 << 16, (1 << 16) + 1, 99_991, 100_000_000, 999_999_937, 1 << 40, MAX_FF1_512 - 1, MAX_FF1_512] {
        let bm = BatchMod::new(Mod64::new(m));
        let c = Consts::new(&[], (&bm, &bm), Layout::Ff1);
        // SAFETY: AVX-512 F and IFMA were found above (the `cpu` token).
        let k = unsafe { Mod512::new::<false>(&c, 0) };
        for i in 0..2000u64 {
            let y: [u64; 8] = core::array::from_fn(|j| {
                let q = next() % (u64::MAX / m);
                match (i as usize + j) % 5 {
                    0 => u64::MAX - next() % 5,
                    1 => q * m,
                    2 => (q * m).saturating_sub(1),
                    3 => next() % (2 * m),
                    _ => next(),
                }
            });
            let d: [u64; 8] = core::array::from_fn(|j| match j % 3 {
                0 => m - 1,
                1 => 0,
                _ => next() % m,
            });
            // SAFETY: AVX-512 F and IFMA were found above (the `cpu` token).
            let r = unsafe { barrett8(vec(y), &k) };
            // SAFETY: as above.
            let (enc, dec) = unsafe { (update8::<true>(vec(d), r, &k), update8::<false>(vec(d), r, &k)) };
            let (enc, dec) = (arr(enc), arr(dec));
            for j in 0..8 {
                let want = y[j] % m;
                assert_eq!(enc[j], (d[j] + want) % m, "enc m {m} y {:#x}", y[j]);
                assert_eq!(dec[j], (d[j] + m - want) % m, "dec m {m} y {:#x}", y[j]);
            }
        }
    }
}

/// [`barrett8`] over FF1's AVX-512 moduli too (up to [`MAX_FF1_512`]):
/// y at 0, at multiples of m and one below, near 2^64 and at random; the
/// remainder is below 3m and congruent to y.
#[test]
fn barrett_is_y_mod_m_below_3m() {
    use crate::fpe::batch::round::{BatchMod, Layout};
    use crate::fpe::num::Mod64;
    if crate::cpu::Vaes512Ifma::get().is_none() {
        return;
    }
    let mut next = lcg(0x9e37_79b9_7f4a_7c15, 29);
    let (vec, arr) = (v512, a512);
    let moduli =
        [1 << 16, (1 << 16) + 1, (1 << 17) - 1, 100_000_000, 1 << 40, (1 << 40) + 3, MAX_FF1_512 - 1, MAX_FF1_512];
    for m in moduli {
        let bm = BatchMod::new(Mod64::new(m));
        let c = Consts::new(&[], (&bm, &bm), Layout::Ff1);
        // SAFETY: AVX-512 F, BW and IFMA were found above (the `cpu` token).
        let k = unsafe { Mod512::new::<false>(&c, 0) };
        for i in 0..4000u64 {
            let y: [u64; 8] = core::array::from_fn(|j| {
                let q = next() % (u64::MAX / m);
                match (i as usize + j) % 6 {
                    0 => q * m,
                    1 => (q * m).saturating_sub(1),
                    2 => u64::MAX - next() % (4 * m),
                    3 => next() % (4 * m),
                    _ => next(),
                }
            });
            // SAFETY: as above.
            let r = arr(unsafe { barrett8(vec(y), &k) });
            for j in 0..8 {
                assert!(r[j] < 3 * m && r[j] % m == y[j] % m, "m {m} y {:#x}: {}", y[j], r[j]);
            }
        }
    }
}

/// [`rem4`] against u128 arithmetic at the ends of its range: moduli
/// 2^16 to 2^32 - 1, y at and around multiples of m and near 2^64.
#[test]
fn rem4_is_y_mod_m_plus_at_most_m() {
    if crate::cpu::Avx2::get().is_none() {
        return;
    }
    let mut next = lcg(0x0123_4567_89ab_cdef, 29);
    for m in [1 << 16, (1 << 16) + 1, 99_991, 100_000_000, 1 << 30, (1 << 31) + 11, (1 << 32) - 1] {
        // SAFETY: AVX2 was found above (the `cpu` token).
        let k = unsafe { Mod256::with(m, [0; 3]) };
        let top = u64::MAX - u64::MAX % m;
        for i in 0..4000u64 {
            let q = next() % (u64::MAX / m);
            let y = match i % 8 {
                0 => q * m,
                1 => q * m + m - 1,
                2 => top.wrapping_sub(1 + i % 3),
                3 => top + i % (u64::MAX - top + 1),
                4 => i,
                _ => next(),
            };
            let ys = [y >> 1, !y, y ^ 1, y];
            for dec in [false, true] {
                // SAFETY: AVX2 was found above (the `cpu` token).
                let got = a256(unsafe { rem4(v256(ys), &k, dec) });
                for (g, y) in got.into_iter().zip(ys) {
                    let want = if dec { (m - y % m) % m } else { y % m };
                    assert!(g <= 2 * m && g % m == want, "m {m} y {y} dec {dec}: {g}");
                }
            }
        }
    }
}

/// [`fold_top4`] against u128
/// arithmetic: the fold is congruent to y modulo m (so its sum did not
/// wrap past 2^64) for moduli from 2^16 to [`MAX_FF3`], among them the
/// one just below [`MAX_FF3`] whose 2^64 and 2^96 residues are largest
/// (the fold's largest sum), with y's low word at and around 2^63 (its
/// top bit folded), near 2^64 and y near 2^128.
#[test]
fn fold_top4_matches_u128() {
    use crate::fpe::batch::round::{BatchMod, Layout};
    use crate::fpe::num::Mod64;
    if crate::cpu::Avx2::get().is_none() {
        return;
    }
    let mut next = lcg(0x5851_f42d_4c95_7f2d, 31);
    let (vec, arr) = (v256, a256);
    // The modulus near the bound with the largest sum for y = 2^128 - 1.
    let res = |m: u64, e: u32| (1u128 << e) % u128::from(m);
    let sum = |m: u64| res(m, 63) + (res(m, 64) + res(m, 96)) * u128::from(u32::MAX);
    let worst = (MAX_FF3 - 5000..=MAX_FF3).max_by_key(|&m| sum(m)).expect("a modulus");
    for m in [1 << 16, (1 << 16) + 1, 99_991, 100_000_000, 999_999_937, worst, MAX_FF3 - 1, MAX_FF3] {
        let bm = BatchMod::new(Mod64::new(m));
        let c = Consts::new(&[], (&bm, &bm), Layout::Ff3);
        // SAFETY: AVX2 was found above (the `cpu` token).
        let k = unsafe { Mod256::with_top(&c, 0) };
        for i in 0..4000u64 {
            let y: [u128; 4] = core::array::from_fn(|j| match (i as usize + j) % 7 {
                0 => u128::MAX - u128::from(next() % 5),
                1 => (u128::from(u64::MAX) << 64) | u128::from((1u64 << 63) + next() % 3 - 1),
                2 => (u128::from(next()) << 64) | u128::from(u64::MAX - next() % 7),
                3 => (u128::from(u64::MAX - next() % 3) << 64) | u128::from(next() | (1 << 63)),
                4 => u128::from(next() % (2 * m)),
                5 => u128::from(next() >> 1) << 64,
                _ => (u128::from(next()) << 64) | u128::from(next()),
            });
            let (lo, hi) = (vec(y.map(|y| y as u64)), vec(y.map(|y| (y >> 64) as u64)));
            // SAFETY: AVX2 was found above (the `cpu` token).
            let f = arr(unsafe { fold_top4(lo, hi, &k) });
            for j in 0..4 {
                assert_eq!(u128::from(f[j] % m), y[j] % u128::from(m), "m {m} y {:#x}", y[j]);
            }
        }
    }
}

/// [`pre8`] and [`fix8`] against u128 arithmetic at the ends of FF3's
/// bounds: moduli 2^16 (and 2^16 + 1), 10^8, 2^30 - 1, 2^30, and some
/// with large 2^64, 2^96 residues (where the folded Y is largest);
/// y at 0, near 2^128 - 1, at and one below multiples of m (the quotient
/// estimate's two edges) and at random; d at 0, m - 1 and at random.
/// [`pre8`]'s result must be in [0, 2m) exactly, not only congruent: the
/// bound its doc comment proves.
#[test]
fn pre8_below_2m() {
    use crate::fpe::batch::round::{BatchMod, Layout};
    use crate::fpe::num::Mod64;
    if crate::cpu::Vaes512Ifma::get().is_none() {
        return;
    }
    let mut next = lcg(0x6a09_e667_f3bc_c908, 29);
    let (vec, arr) = (v512, a512);
    let moduli = [1 << 16, (1 << 16) + 1, 100_000_000, 387_420_489, 999_999_937, 1_073_741_823, 1 << 30, 1_073_741_789];
    for m in moduli {
        let bm = BatchMod::new(Mod64::new(m));
        let c = Consts::new(&[], (&bm, &bm), Layout::Ff3);
        // SAFETY: AVX-512 F and IFMA were found above (the `cpu` token).
        let k = unsafe { Mod512::new::<true>(&c, 0) };
        let m128 = u128::from(m);
        let top = u128::MAX / m128;
        for i in 0..6000u64 {
            let y: [u128; 8] = core::array::from_fn(|j| {
                let q = ((u128::from(next()) << 64) | u128::from(next())) % top;
                match (i as usize + j) % 8 {
                    0 => u128::MAX - u128::from(next() % 3),
                    1 => u128::from(i % 3),
                    2 => q * m128,
                    3 => (q * m128).saturating_sub(1),
                    4 => (top - u128::from(next() % 4)) * m128 - u128::from(j as u64 % 2),
                    5 => (u128::from(u64::MAX) << 64) | u128::from(next()),
                    6 => (u128::from(next() | 0xffff_ffff_0000_0000) << 64) | u128::from(u64::MAX - next() % 9),
                    _ => (u128::from(next()) << 64) | u128::from(next()),
                }
            });
            let d: [u64; 8] = core::array::from_fn(|j| match j % 3 {
                0 => m - 1,
                1 => 0,
                _ => next() % m,
            });
            let (lo, hi) = (vec(y.map(|y| y as u64)), vec(y.map(|y| (y >> 64) as u64)));
            // SAFETY: AVX-512 F and IFMA were found above (the `cpu` token).
            let (enc, dec) = unsafe { (pre8::<true>(lo, hi, vec(d), &k), pre8::<false>(lo, hi, vec(d), &k)) };
            // SAFETY: as above.
            let (enc_f, dec_f) = unsafe { (fix8(enc, &k), fix8(dec, &k)) };
            let (enc, dec, enc_f, dec_f) = (arr(enc), arr(dec), arr(enc_f), arr(dec_f));
            for j in 0..8 {
                let want = (y[j] % m128) as u64;
                // enc is the remainder ρ of y + d, dec 2m - 1 - ρ for
                // that of y + m - 1 - d: a wrong quotient puts either
                // outside [0, 2m).
                let (want_enc, want_dec) = ((d[j] + want) % m, (d[j] + m - want) % m);
                assert!(enc[j] < 2 * m && enc[j] % m == want_enc, "enc m {m} y {:#x} d {}: {}", y[j], d[j], enc[j]);
                assert!(dec[j] < 2 * m && dec[j] % m == want_dec, "dec m {m} y {:#x} d {}: {}", y[j], d[j], dec[j]);
                assert_eq!(enc_f[j], (d[j] + want) % m, "enc m {m} y {:#x}", y[j]);
                assert_eq!(dec_f[j], (d[j] + m - want) % m, "dec m {m} y {:#x}", y[j]);
            }
        }
    }
}

/// [`finish`](super::super::piped256::finish) (FF3's VAES-256 pipeline) against u128 arithmetic at the ends of its bounds: moduli
/// 2^16 (+ 1), 10^8, [`MAX_FF3`] (- 1) and the one within 5000 below it
/// whose `fold_top4` sum for y = 2^128 - 1 is largest (where z = cz + d -
/// y' is nearest 2^64 and y' nearest cz); y near 2^128 - 1, with the low
/// word's top bit set or not, small and random; d of 0, m - 1 and
/// random, with garbage in its high 32 bits; both directions.
#[test]
fn finish_matches_u128() {
    if crate::cpu::Vaes256::get().is_none() {
        return;
    }
    use super::super::piped256::{dec_offset, finish};
    use crate::fpe::batch::round::{BatchMod, Consts, Layout};
    use crate::fpe::num::Mod64;
    let mut next = lcg(0x2545_f491_4f6c_dd1d, 33);
    let res = |m: u64, e: u32| (1u128 << e) % u128::from(m);
    let sum = |m: u64| res(m, 63) + (res(m, 64) + res(m, 96)) * u128::from(u32::MAX);
    let worst = (MAX_FF3 - 5000..=MAX_FF3).max_by_key(|&m| sum(m)).expect("a modulus");
    for m in [1 << 16, (1 << 16) + 1, 100_000_000, worst, MAX_FF3 - 1, MAX_FF3] {
        let bm = BatchMod::new(Mod64::new(m));
        let c = Consts::new(&[], (&bm, &bm), Layout::Ff3);
        // SAFETY: AVX2 was found above (the `cpu` token).
        let (k, cz) = unsafe { (Mod256::with_top(&c, 0), _mm256_set1_epi64x(dec_offset(m) as i64)) };
        for i in 0..3000u64 {
            let y: [u128; 4] = core::array::from_fn(|j| match (i as usize + j) % 6 {
                0 => u128::MAX - u128::from(next() % 5),
                1 => (u128::from(u64::MAX - next() % 3) << 64) | u128::from(next() | (1 << 63)),
                2 => (u128::from(u64::MAX) << 64) | u128::from(next() >> 1),
                3 => u128::from(next() % (2 * m)),
                _ => (u128::from(next()) << 64) | u128::from(next()),
            });
            let d: [u64; 4] = core::array::from_fn(|j| [0, m - 1, next() % m][(i as usize + j) % 3]);
            let w = |v: u128| [v as u64, (v >> 64) as u64];
            let o = [
                v256([w(y[0]), w(y[2])].concat().try_into().unwrap()),
                v256([w(y[1]), w(y[3])].concat().try_into().unwrap()),
            ];
            let dv = v256(d.map(|d| d | (next() << 32)));
            // SAFETY: AVX2 and FMA were found above (the `cpu` token).
            let (enc, dec) = unsafe { (finish::<true>(o, dv, &k, cz), finish::<false>(o, dv, &k, cz)) };
            let (enc, dec) = (a256(enc), a256(dec));
            for j in 0..4 {
                let r = (y[j] % u128::from(m)) as u64;
                assert_eq!(enc[j] as u32 as u64, (d[j] + r) % m, "enc m {m} y {:#x} d {}", y[j], d[j]);
                assert_eq!(dec[j] as u32 as u64, (d[j] + m - r) % m, "dec m {m} y {:#x} d {}", y[j], d[j]);
            }
        }
    }
}
