use super::*;
use crate::fpe::batch::round::{BatchMod, Layout};
use crate::fpe::num::Mod64;

/// Checks a 32-bit update on `L` lanes against u128 arithmetic:
/// `update(m, d, y)` gives the lanes of `d + y mod m` and `d - y mod m`,
/// for moduli 2^16 to [`MAX_NARROW`], y on the edges, halves with garbage
/// in their high 32 bits.
pub(crate) fn check_narrow_update<const L: usize>(
    mut update: impl FnMut(u64, [u64; L], [u64; L]) -> ([u64; L], [u64; L]),
) {
    let mut seed = 0x0123_4567_89ab_cdefu64;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        seed
    };
    for m in [1 << 16, (1 << 16) + 1, 99_991, 100_000_000, 999_999_937, 1 << 30, MAX_NARROW - 1, MAX_NARROW] {
        for i in 0..4000u64 {
            let y: [u64; L] = core::array::from_fn(|j| match (i as usize + j) % 6 {
                0 => u64::MAX - next() % 5,
                1 => ((u64::MAX / m - next() % 4) * m).wrapping_add(next() % 3),
                2 => (next() >> (next() % 64)) / m * m,
                3 => next() % (2 * m),
                4 => [1 << 30, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 1 << 52, 1 << 63][next() as usize % 6],
                _ => next(),
            });
            let d: [u64; L] = core::array::from_fn(|j| [0, m - 1, next() % m, next() % m][(i as usize + j) % 4]);
            let (enc, dec) = update(m, d.map(|d| d | (next() << 32)), y);
            for j in 0..L {
                let r = y[j] % m;
                assert_eq!(enc[j] as u32 as u64, (d[j] + r) % m, "enc m {m} y {:#x} d {}", y[j], d[j]);
                assert_eq!(dec[j] as u32 as u64, (d[j] + m - r) % m, "dec m {m} y {:#x} d {}", y[j], d[j]);
            }
        }
    }
}

fn vec(x: [u64; 4]) -> __m256i {
    crate::simd::cast(x)
}
fn arr(v: __m256i) -> [u64; 4] {
    crate::simd::cast(v)
}

/// [`update32`] against u128 arithmetic, both directions, on the edge
/// values of [`check_narrow_update`](check_narrow_update).
#[test]
fn update32_matches_u128() {
    if crate::cpu::Vaes256::get().is_none() {
        return;
    }
    check_narrow_update::<4>(|m, d, y| {
        let bm = BatchMod::new(Mod64::new(m));
        let c = Consts::new(&[], (&bm, &bm), Layout::Ff1);
        // SAFETY: AVX2 and FMA were found above (the `cpu` token).
        unsafe {
            let k = Mod256::new(&c, 0);
            (arr(update32::<true>(vec(d), vec(y), &k)), arr(update32::<false>(vec(d), vec(y), &k)))
        }
    });
}

/// [`blocks32`] gives [`blocks4`]'s blocks for halves below 2^32, with
/// garbage in the halves' high 32 bits, in both layouts.
#[test]
fn blocks32_match_blocks4() {
    if crate::cpu::Avx2::get().is_none() {
        return;
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        seed
    };
    for _ in 0..1000 {
        let x: [u64; 4] = core::array::from_fn(|_| next() >> 32);
        let (cb, dirty) = (vec([next(), next(), next(), next()]), vec(x.map(|x| x | (next() << 32))));
        // SAFETY: AVX2 was found above (the `cpu` token).
        let (want, got) = unsafe {
            (
                [blocks4::<true>(vec(x), cb), blocks4::<false>(vec(x), cb)],
                [blocks32::<true>(dirty, cb), blocks32::<false>(dirty, cb)],
            )
        };
        assert_eq!(want.map(|p| p.map(arr)), got.map(|p| p.map(arr)), "{x:x?}");
    }
}
