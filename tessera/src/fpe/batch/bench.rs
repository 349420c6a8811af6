//! Hooks for `examples/fpe_cputime.rs` that time parts of the batch path alone (its `memory` and
//! `kernel` modes). Not API: hidden from the docs and free to change.

use super::Kernel;
use super::round::GROUP;
use super::round::{BatchMod, Consts, Layout};
use crate::Direction;
use crate::fpe::num::Mod64;

/// Parses and formats `data`, decimal values of `n` digits back to back, a group at a time as FF1's
/// batch path does (x86 only); valid `data` ends as it was. Whether it ran and found `data` valid.
pub fn parse_format(data: &mut [u16], n: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let avx512 = super::Kernel::detect().avx512();
        let Some(dec) = super::x86::decimal::Decimal::new(avx512, n, n / 2, true) else {
            return false;
        };
        let (mut a, mut b) = ([0u64; GROUP], [0u64; GROUP]);
        let mut ok = true;
        for chunk in data.chunks_mut(GROUP * n) {
            ok &= dec.parse_checked(chunk, &mut a, &mut b);
            dec.format(&a, &b, chunk);
        }
        ok
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (data, n);
        false
    }
}

/// The batch path's work outside the rounds on `data` (decimal values of `n` digits ending at `ends`,
/// FF1's digit order when `be`, FF3's otherwise), a slab at a time: ends checked, values parsed and
/// formatted back. Whether it ran and found the data valid (false, doing nothing, when `ends` do not
/// cover `data` in values of `n`); valid `data` ends as it was.
pub fn check_parse_format(data: &mut [u16], ends: &[usize], n: usize, be: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let avx512 = super::Kernel::detect().avx512();
        let Some(dec) = super::x86::decimal::Decimal::new(avx512, n, n.div_ceil(2), be) else {
            return false;
        };
        let (mut a, mut b) = ([0u64; GROUP], [0u64; GROUP]);
        if ends.len() * n != data.len() {
            return false;
        }
        let (step, mut ok) = (super::slab::SLAB_NUMERALS / n.max(1), true);
        for i0 in (0..ends.len()).step_by(step.max(1)) {
            let (i1, s0) = ((i0 + step).min(ends.len()), i0 * n);
            ok &= super::ends::check_ends(data, &ends[i0..i1], s0, (n, n)) != super::ends::Tiling::Bad;
            for chunk in data[s0..i1 * n].chunks_mut(GROUP * n) {
                ok &= dec.parse_checked(chunk, &mut a, &mut b);
                dec.format(&a, &b, chunk);
            }
        }
        ok
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (data, ends, n, be);
        false
    }
}

/// The fused rounds kernel of this CPU alone on parsed halves (each below 10^8; FF1's ten rounds or
/// FF3-1's eight, fixed round blocks), in calls of 64 values. False, having done nothing, where no
/// fused kernel runs or `a` and `b` are not as long, a multiple of 64.
pub fn fused_rounds(key: &[u8], ff3: bool, a: &mut [u64], b: &mut [u64]) -> bool {
    if a.len() != b.len() || !a.len().is_multiple_of(64) {
        return false;
    }
    let Ok(aes) = crate::aes::Aes::new(key) else { return false };
    #[cfg(target_arch = "x86_64")]
    let keys = aes.ni();
    #[cfg(not(target_arch = "x86_64"))]
    let keys: Option<&super::round::AesKeys> = {
        let _ = aes;
        None
    };
    let (rounds, layout) = if ff3 { (8, Layout::Ff3) } else { (10, Layout::Ff1) };
    let blocks: Vec<[u64; 2]> = (0..rounds as u64).map(|i| [i * 0x9e37_79b9, !i]).collect();
    let m = BatchMod::new(Mod64::new(100_000_000));
    let c = Consts::new(&blocks, (&m, &m), layout);
    let kernel = Kernel::detect();
    a.chunks_exact_mut(64)
        .zip(b.chunks_exact_mut(64))
        .all(|(a, b)| kernel.fused(keys, &c, a, b, Direction::Encrypt, &mut ()))
}

#[cfg(test)]
#[path = "bench_tests.rs"]
mod tests;
