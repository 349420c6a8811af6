//! Tests of the batch round kernels (`kernel.rs`, `round.rs`).

use super::*;
use crate::fpe::batch::round::round_portable;
use crate::fpe::num::Mod64;

/// A small deterministic generator (xorshift*), enough for test inputs.
fn rng(seed: &mut u64) -> u64 {
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// An edge-case or random 64-bit word for modulus m.
fn word(m: u64, case: usize, seed: &mut u64) -> u64 {
    match case % 7 {
        0 => u64::MAX - (rng(seed) % 3),
        1 => m.wrapping_mul(rng(seed) % (u64::MAX / m)).wrapping_sub(case as u64 % 2),
        2 => rng(seed) % (m.saturating_mul(2)),
        3 => rng(seed) % 3,
        _ => rng(seed),
    }
}

/// Every kernel the CPU has gives the portable kernel's results, on
/// random and edge-case inputs, in every layout, for lengths that
/// exercise the tails.
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
                            b[..8].copy_from_slice(&word(m, trial + i, &mut seed).to_be_bytes());
                            b[8..].copy_from_slice(&word(m, trial + 3 * i, &mut seed).to_le_bytes());
                            b
                        })
                        .collect();
                    let x: Vec<u64> = (0..len).map(|i| if i % 5 == 0 { m - 1 } else { rng(&mut seed) % m }).collect();
                    for layout in [Layout::Ff1, Layout::Ff1Y96, Layout::Ff3] {
                        for dir in [Direction::Encrypt, Direction::Decrypt] {
                            let (mut want, mut got) = (x.clone(), x.clone());
                            round_portable(&bm.m, layout, &blocks, &mut want, dir);
                            kernel.round(&bm, layout, &blocks, &mut got, dir);
                            assert_eq!(got, want, "{kernel:?} m {m} len {len} {layout:?} {dir:?}");
                        }
                    }
                }
            }
        }
    }
}

/// The scalar and portable rounds (the others' reference) against plain
/// division: every layout and direction, moduli at each bound of their
/// paths (FF3's 32-bit limbs up to 2^30, Möller–Granlund above), halves at m - 1 and 0,
/// blocks of all ones, all zeros and random bytes.
#[test]
fn portable_round_matches_division() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let moduli = [2u64, 3, 1_000, 1 << 16, 999_999_937, LIMB_MODULI - 1, LIMB_MODULI, LIMB_MODULI + 1, (1 << 32) - 1];
    let moduli = moduli.into_iter().chain([1 << 32, 1 << 52, u64::MAX - 58, u64::MAX]);
    for m in moduli {
        let bm = BatchMod::new(Mod64::new(m));
        assert_eq!(bm.limbs.is_some(), m <= LIMB_MODULI, "m {m}");
        let mut blocks = vec![[0xffu8; 16], [0; 16]];
        blocks.extend((0..62).map(|_| core::array::from_fn(|_| rng(&mut seed) as u8)));
        let x: Vec<u64> = (0..64).map(|i| [m - 1, 0, rng(&mut seed) % m][i % 3]).collect();
        for layout in [Layout::Ff1, Layout::Ff1Y96, Layout::Ff3] {
            let y = |b: &[u8; 16]| -> u128 {
                let y = match layout {
                    Layout::Ff1 => u64::from_be_bytes(b[..8].try_into().unwrap()) as u128,
                    Layout::Ff1Y96 => u128::from_be_bytes(*b) >> 32,
                    Layout::Ff3 => u128::from_le_bytes(*b),
                };
                y % m as u128
            };
            for dir in [Direction::Encrypt, Direction::Decrypt] {
                let want: Vec<u64> = x
                    .iter()
                    .zip(&blocks)
                    .map(|(&t, b)| match dir {
                        Direction::Encrypt => ((t as u128 + y(b)) % m as u128) as u64,
                        Direction::Decrypt => ((t as u128 + m as u128 - y(b)) % m as u128) as u64,
                    })
                    .collect();
                let (mut got, mut portable) = (x.clone(), x.clone());
                round_scalar(&bm, layout, &blocks, &mut got, dir);
                round_portable(&bm.m, layout, &blocks, &mut portable, dir);
                assert_eq!((&got, &portable), (&want, &want), "m {m} {layout:?} {dir:?}");
            }
        }
    }
}

/// The portable builder puts the half where each cipher's spec does,
/// and every kernel builds the same blocks.
#[test]
fn blocks_follow_the_layouts() {
    let mut seed = 7u64;
    let (base, term, x) = ([rng(&mut seed), rng(&mut seed)], [rng(&mut seed), 0], rng(&mut seed));
    let mut blk = [[0u8; 16]];
    build_portable(Layout::Ff1, &[base], term, &[x], &mut blk);
    let whole = ((base[0] ^ term[0]).swap_bytes() as u128) << 64 | (base[1] ^ term[1]).swap_bytes() as u128;
    assert_eq!(u128::from_be_bytes(blk[0]), whole ^ x as u128);
    build_portable(Layout::Ff3, &[base], term, &[x], &mut blk);
    let whole = ((base[1] ^ term[1]) as u128) << 64 | (base[0] ^ term[0]) as u128;
    assert_eq!(u128::from_le_bytes(blk[0]), whole ^ x as u128);
    for kernel in Kernel::available() {
        for len in [0usize, 1, 5, 8, 13, 64] {
            let bases: Vec<[u64; 2]> = (0..len).map(|_| [rng(&mut seed), rng(&mut seed)]).collect();
            let x: Vec<u64> = (0..len).map(|_| rng(&mut seed)).collect();
            for layout in [Layout::Ff1, Layout::Ff3] {
                let (mut want, mut got) = (vec![[0u8; 16]; len], vec![[1u8; 16]; len]);
                build_portable(layout, &bases, term, &x, &mut want);
                kernel.build(layout, &bases, term, &x, &mut got);
                assert_eq!(got, want, "{kernel:?} {layout:?} len {len}");
            }
        }
    }
}

/// The kernel each level chooses: the fused VAES-256 one at `vaes256`
/// on a CPU with VAES and FMA, the AES-NI one at `avx2`.
#[cfg(target_arch = "x86_64")]
#[test]
fn each_level_chooses_its_kernel() {
    use crate::cpu::{self, Level, with_cap};
    for cap in Level::ALL {
        let (chosen, want) = with_cap(cap, || {
            let want = [
                cpu::Vaes512Ifma::get().map(Kernel::Vaes512),
                cpu::Avx512::get().map(Kernel::Avx512),
                cpu::Vaes256::get().map(Kernel::Vaes256),
                cpu::Avx2Aes::get().map(Kernel::Avx2Ni),
                cpu::Avx2::get().map(Kernel::Avx2),
                cpu::AesNi::get().map(Kernel::AesNi),
            ];
            let want = want.into_iter().flatten().next().unwrap_or(Kernel::Portable);
            (Kernel::detect(), want)
        });
        assert_eq!(chosen, want, "{cap}");
        assert!(
            !matches!(chosen, Kernel::Vaes256(_)) || cap >= Level::Vaes256,
            "{cap}: VAES-256 needs the vaes256 level"
        );
    }
}

/// Every fused kernel the CPU has runs all the rounds as the portable
/// build, AES and round steps do: FF1 and FF3 layouts, both directions,
/// every AES key size, moduli on both sides of 2^32, ragged group sizes.
#[cfg(target_arch = "x86_64")]
#[test]
fn fused_kernels_match_portable() {
    use crate::aes::Aes;
    let mut seed = 0x5eed_1234u64;
    let mut ran = std::collections::BTreeSet::new();
    let cases = [
        (Layout::Ff1, 10, 100_000_000u64, 100_000_000u64),
        (Layout::Ff1, 10, 10_000_000, 100_000_000),
        (Layout::Ff1, 10, 65_536, (1 << 32) - 1),
        (Layout::Ff1, 10, 1_431_655_765, 65_536),
        (Layout::Ff1, 10, 1_431_655_765, 1_431_655_766),
        (Layout::Ff1, 10, 1_000_000_000_000, 10_000_000_000_000),
        (Layout::Ff1, 10, (1 << 52) - 1, 1 << 40),
        (Layout::Ff1, 10, 1 << 50, (1 << 50) - 3),
        (Layout::Ff1, 10, (1 << 50) + 1, 1 << 20),
        (Layout::Ff1, 10, 65_536, 1 << 50),
        (Layout::Ff3, 8, 100_000_000, 1_000_000_000),
        (Layout::Ff3, 8, 60_466_176, (1 << 32) - 5),
        (Layout::Ff3, 8, 1 << 30, (1 << 30) - 1),
        (Layout::Ff3, 8, 65_536, 999_999_937),
        (Layout::Ff3, 8, (1 << 30) + 1, 1 << 30),
        (Layout::Ff1Y96, 10, 100_000_000, 100_000_000),
        (Layout::Ff1, 10, 1 << 52, 1 << 52),
    ];
    for key_len in [16, 24, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng(&mut seed) as u8).collect();
        let aes = Aes::new(&key).unwrap();
        let Some(keys) = aes.ni() else { return };
        for (layout, rounds, mu, mv) in cases {
            let m = (BatchMod::new(Mod64::new(mu)), BatchMod::new(Mod64::new(mv)));
            let consts: Vec<[u64; 2]> = (0..rounds).map(|_| [rng(&mut seed), rng(&mut seed)]).collect();
            let c = Consts::new(&consts, (&m.0, &m.1), layout);
            for len in [8usize, 16, 24, 32, 40, 56, 64, 96, 136] {
                let a: Vec<u64> = (0..len).map(|i| if i % 5 == 0 { mu - 1 } else { rng(&mut seed) % mu }).collect();
                let b: Vec<u64> = (0..len).map(|i| if i % 7 == 1 { mv - 1 } else { rng(&mut seed) % mv }).collect();
                for dir in [Direction::Encrypt, Direction::Decrypt] {
                    let (mut wa, mut wb) = (a.clone(), b.clone());
                    let mut blocks = vec![[0u8; 16]; len];
                    for r in 0..rounds {
                        let i = dir.round(r, rounds);
                        let (src, dst, mm) = if i % 2 == 0 { (&wb, &mut wa, &m.0) } else { (&wa, &mut wb, &m.1) };
                        build_portable(layout, &vec![[0; 2]; len], consts[i], src, &mut blocks);
                        aes.encrypt_blocks(&mut blocks);
                        round_portable(&mm.m, layout, &blocks, dst, dir);
                    }
                    for kernel in Kernel::available() {
                        let (mut ga, mut gb) = (a.clone(), b.clone());
                        if kernel.fused(Some(keys), &c, &mut ga, &mut gb, dir, &mut ()) {
                            assert_eq!((&ga, &gb), (&wa, &wb), "{kernel:?} {layout:?} {mu} {mv} len {len} {dir:?}");
                            ran.insert(format!("{kernel:?}"));
                        } else {
                            assert_eq!((&ga, &gb), (&a, &b), "untouched when not fused");
                        }
                    }
                }
            }
        }
    }
    let fused: std::collections::BTreeSet<String> = Kernel::available()
        .into_iter()
        .filter(|k| matches!(k, Kernel::AesNi(_) | Kernel::Avx2Ni(_) | Kernel::Vaes256(_) | Kernel::Vaes512(_)))
        .map(|k| format!("{k:?}"))
        .collect();
    assert_eq!(ran, fused, "every fused kernel the CPU has ran");
}
