//! The throughput floor of `fpe_cputime`: 64 independent AES-128 blocks
//! per call at the AES a CPU of `tessera::cpu::level()` has. The `aes`
//! crate picks VAES-512 by itself where the CPU has it (`TESSERA_CPU`
//! cannot reach it), so below `avx512` the floor is AES-NI on 128-bit
//! registers (eight blocks in flight) or VAES on 256-bit ones (eight
//! vectors, sixteen blocks, in flight), as that CPU would run it. AES's
//! speed does not depend on the key: the round keys are fixed vectors.

use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use tessera::cpu::{Level, level};

/// The floor's AES: the `aes` crate, or AES-NI or VAES-256 by hand.
pub enum Floor {
    /// The `aes` crate's `encrypt_blocks` (VAES-512 on this machine), not
    /// tessera's `Aes`, whose backend is the work measured.
    Crate(Box<aes::Aes128>),
    /// `aesenc` on 128-bit registers, eight blocks at a time.
    AesNi,
    /// `vaesenc` on 256-bit registers, sixteen blocks at a time.
    Vaes256,
}

impl Floor {
    /// The floor for the level kernels run at (the crate's at `avx512`
    /// and `portable`).
    pub fn at_level() -> Self {
        match level() {
            Level::AesNi | Level::Avx2 => Floor::AesNi,
            Level::Vaes256 => Floor::Vaes256,
            Level::Portable | Level::Avx512 => Floor::Crate(Box::new(aes::Aes128::new(&Array::from([0x5c; 16])))),
        }
    }

    /// Which AES the floor runs, for the tables.
    pub fn name(&self) -> &'static str {
        match self {
            Floor::Crate(_) => "aes crate encrypt_blocks",
            Floor::AesNi => "AES-NI, 8 blocks in flight",
            Floor::Vaes256 => "VAES-256, 16 blocks in flight",
        }
    }

    /// Enciphers the 64 blocks in place.
    pub fn encrypt(&self, blocks: &mut [[u8; 16]; 64]) {
        match self {
            Floor::Crate(aes) => aes.encrypt_blocks(Array::cast_slice_from_core_mut(blocks)),
            // SAFETY: `at_level` picks these only where `tessera::cpu`
            // found AES-NI (and AVX2, and VAES for `Vaes256`) on this CPU.
            #[cfg(target_arch = "x86_64")]
            Floor::AesNi => unsafe { x86::ni(blocks) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Floor::Vaes256 => unsafe { x86::vaes256(blocks) },
            #[cfg(not(target_arch = "x86_64"))]
            _ => unreachable!("x86-64 levels only"),
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// Fixed round keys (any eleven 128-bit values time the same).
    fn round_key(i: i32) -> [i32; 4] {
        [i.wrapping_mul(0x0101_0101), 0x6a09_e667 ^ i, 0x3c6e_f372 + i, !i]
    }

    #[target_feature(enable = "aes,sse4.1")]
    pub fn ni(blocks: &mut [[u8; 16]; 64]) {
        let rk: [__m128i; 11] = std::array::from_fn(|i| {
            let k = round_key(i as i32);
            _mm_set_epi32(k[3], k[2], k[1], k[0])
        });
        for group in blocks.chunks_exact_mut(8) {
            // SAFETY: each block is 16 bytes; unaligned loads.
            let mut x: [__m128i; 8] =
                std::array::from_fn(|j| _mm_xor_si128(unsafe { _mm_loadu_si128(group[j].as_ptr().cast()) }, rk[0]));
            for k in &rk[1..10] {
                x = x.map(|v| _mm_aesenc_si128(v, *k));
            }
            for (b, v) in group.iter_mut().zip(x) {
                // SAFETY: as above, unaligned stores of 16 bytes.
                unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), _mm_aesenclast_si128(v, rk[10])) };
            }
        }
    }

    #[target_feature(enable = "avx2,vaes")]
    pub fn vaes256(blocks: &mut [[u8; 16]; 64]) {
        let rk: [__m256i; 11] = std::array::from_fn(|i| {
            let k = round_key(i as i32);
            _mm256_set_epi32(k[3], k[2], k[1], k[0], k[3], k[2], k[1], k[0])
        });
        for group in blocks.as_flattened_mut().chunks_exact_mut(256) {
            let mut x: [__m256i; 8] = std::array::from_fn(|j| {
                // SAFETY: 32 bytes at 32·j within the group's 256; unaligned loads.
                let v = unsafe { _mm256_loadu_si256(group[32 * j..].as_ptr().cast()) };
                _mm256_xor_si256(v, rk[0])
            });
            for k in &rk[1..10] {
                x = x.map(|v| _mm256_aesenc_epi128(v, *k));
            }
            for (j, v) in x.into_iter().enumerate() {
                // SAFETY: as above, unaligned stores of 32 bytes.
                unsafe {
                    _mm256_storeu_si256(group[32 * j..].as_mut_ptr().cast(), _mm256_aesenclast_epi128(v, rk[10]))
                };
            }
        }
    }
}

/// The single-value floor's AES: the `aes` crate's one-block call.
pub struct Single(Box<aes::Aes128>);

impl Single {
    pub fn new() -> Self {
        Single(Box::new(aes::Aes128::new(&Array::from([0x5c; 16]))))
    }

    /// Enciphers one block in place.
    pub fn encrypt(&self, block: &mut [u8; 16]) {
        self.0.encrypt_block(&mut Array::cast_slice_from_core_mut(core::slice::from_mut(block))[0]);
    }
}
