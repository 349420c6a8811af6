//! The choice of whole-group decimal conversion for a batch.

use super::digit_quads::{Dec128, Dec256};
use super::digits512::Dec512;

/// The widest whole-group decimal conversion the CPU has: AVX-512 BW with the AVX-512 kernel, else
/// AVX2, else SSE4.1.
pub(crate) enum Decimal {
    Avx512(Dec512),
    Avx2(Dec256),
    Sse41(Dec128),
}

impl Decimal {
    /// For values of `n` numerals with a first half of `u`, in FF1's digit order when `be`, on AVX-512
    /// when `avx512`; `None` unless both halves have 1 to 8 numerals and the CPU has SSSE3 and SSE4.1.
    pub(crate) fn new(avx512: bool, n: usize, u: usize, be: bool) -> Option<Self> {
        let wide = if avx512 { Dec512::new(n, u, be) } else { None };
        let narrow = || Dec128::new(n, u, be).map(Decimal::Sse41);
        wide.map(Decimal::Avx512).or_else(|| Dec256::new(n, u, be).map(Decimal::Avx2)).or_else(narrow)
    }

    /// As [`Dec256::parse_checked`].
    pub(crate) fn parse_checked(&self, data: &[u16], a: &mut [u64], b: &mut [u64]) -> bool {
        match self {
            Decimal::Avx512(d) => d.parse_checked(data, a, b),
            Decimal::Avx2(d) => d.parse_checked(data, a, b),
            Decimal::Sse41(d) => d.parse_checked(data, a, b),
        }
    }

    /// As [`Dec256::format`].
    pub(crate) fn format(&self, a: &[u64], b: &[u64], data: &mut [u16]) {
        match self {
            Decimal::Avx512(d) => d.format(a, b, data),
            Decimal::Avx2(d) => d.format(a, b, data),
            Decimal::Sse41(d) => d.format(a, b, data),
        }
    }
}

#[cfg(test)]
#[path = "decimal_tests.rs"]
mod tests;
