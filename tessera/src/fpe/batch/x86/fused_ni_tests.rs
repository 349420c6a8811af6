use super::*;

/// `finish::<FF3, ENC>` on one output block.
fn finish_dyn(ff3: bool, enc: bool, o: __m128i, k: &Red, d: &mut u64) {
    // SAFETY: the test machine has AES-NI and SSE4.1 (the tests below check).
    unsafe {
        match (ff3, enc) {
            (false, false) => finish::<false, false>(o, k, d),
            (false, true) => finish::<false, true>(o, k, d),
            (true, false) => finish::<true, false>(o, k, d),
            (true, true) => finish::<true, true>(o, k, d),
        }
    }
}

/// The update read from a block, against u128 arithmetic: y of 0, 1,
/// all ones and the residues m - 1, 0 and 1 near 2^64 (and, for FF3's
/// 128-bit y, near 2^128), halves 0, 1 and m - 1, the smallest and
/// largest moduli each layout takes here (FF1: 2^16 and 2^52 - 1; FF3:
/// 2^16 and 2^30 - 1) and 10^8, both directions.
#[test]
fn finish_on_the_edges() {
    if crate::cpu::AesNi::get().is_none() {
        return;
    }
    let moduli = [(false, 1u64 << 16), (false, 100_000_000), (false, (1 << 52) - 1)].into_iter().chain([
        (true, 1u64 << 16),
        (true, 100_000_000),
        (true, (1 << 30) - 1),
    ]);
    for (ff3, m) in moduli {
        let r = crate::fpe::num::limb_residues(m);
        // SAFETY: the test machine has SSE4.1 (checked above with AES-NI).
        let k = unsafe { if ff3 { Red::new::<true>(m, r) } else { Red::new::<false>(m, r) } }.expect("in range");
        let top = if ff3 { u128::MAX } else { u64::MAX as u128 };
        let mut ys = vec![0, 1, top, (m - 1) as u128, m as u128, (m + 1) as u128];
        // The largest y of each residue m - 1, 0, 1 below `top`.
        let last = top - top % m as u128;
        ys.extend([last - 1, last, last + 1].into_iter().filter(|&y| y <= top));
        for y in ys {
            // FF1: y in bytes 0..8 big-endian (bytes 8..16 ignored); FF3: all 16 little-endian.
            let (hi, lo) = if ff3 { ((y >> 64) as i64, y as i64) } else { (-1, (y as u64).swap_bytes() as i64) };
            let o = crate::simd::cast([lo as u64, hi as u64]);
            let r = y % m as u128;
            for x in [0, 1, m - 1] {
                for enc in [true, false] {
                    let mut d = x;
                    finish_dyn(ff3, enc, o, &k, &mut d);
                    let want = if enc { (x as u128 + r) % m as u128 } else { (x as u128 + m as u128 - r) % m as u128 };
                    assert_eq!(d as u128, want, "ff3 {ff3} m {m} y {y} x {x} enc {enc}");
                }
            }
        }
    }
}
