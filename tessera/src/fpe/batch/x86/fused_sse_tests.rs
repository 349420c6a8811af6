use super::*;

fn vec(x: [u64; 2]) -> __m128i {
    crate::simd::cast(x)
}
fn arr(v: __m128i) -> [u64; 2] {
    crate::simd::cast(v)
}

/// [`update2`] against u128 arithmetic, both directions, on the edge
/// values of [`check_narrow_update`](super::super::fused256::tests::check_narrow_update).
#[test]
fn update2_matches_u128() {
    if crate::cpu::AesNi::get().is_none() {
        return;
    }
    super::super::fused256::tests::check_narrow_update::<2>(|m, d, y| {
        // SAFETY: the test machine has SSE4.1 (checked above with AES-NI).
        unsafe {
            let k = ModSse::new(m);
            (arr(update2::<true>(vec(d), vec(y), &k)), arr(update2::<false>(vec(d), vec(y), &k)))
        }
    });
}
