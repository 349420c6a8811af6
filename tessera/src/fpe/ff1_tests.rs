//! Tests of FF1's helpers (`ff1.rs`).

use super::*;

#[test]
fn byte_lengths_are_exact() {
    for radix in [2u32, 3, 10, 36, 62, 255, 256, 1000, 65535, 65536] {
        let rx = Radix::new(radix);
        for v in (1..=(big::MAX_V_BITS as f64 / (radix as f64).log2()) as usize).filter(|v| v % 13 == 0 || *v < 64) {
            assert_eq!(num_bytes(&rx, v), exact_bits(radix, v).div_ceil(8), "radix {radix} v {v}");
        }
    }
}

/// Block P holds the tweak's length in four bytes: 2^32 - 1 bytes is the
/// longest tweak, and longer ones are refused rather than truncated.
#[test]
fn tweaks_longer_than_p_can_say_are_refused() {
    assert_eq!(check_tweak_len(0), Ok(()));
    assert_eq!(check_tweak_len(u32::MAX as usize), Ok(()));
    for len in [u32::MAX as usize + 1, 1 << 40, usize::MAX] {
        assert!(matches!(check_tweak_len(len), Err(Error::TweakLength { got, .. }) if got == len));
    }
}
