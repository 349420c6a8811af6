//! Block helpers shared by the AEAD modes: XOR, loads, and running a closure
//! with the AES backend of the `aes` crate so the round keys stay in
//! registers and many-block calls go straight to its parallel kernels.

use aes::cipher::Array;
use aes::cipher::consts::U16;

use crate::aes::Block;

/// The 128-bit XOR of two blocks. Written lane-wise so LLVM emits one vector
/// XOR and keeps the value in a vector register.
#[inline(always)]
pub(crate) fn xor(a: &Block, b: &Block) -> Block {
    core::array::from_fn(|i| a[i] ^ b[i])
}

/// Loads the 16 bytes at `s[..16]`.
#[inline(always)]
pub(crate) fn load(s: &[u8]) -> Block {
    s[..16].try_into().expect("16 bytes")
}

/// `x || 1 || 0*`: a partial block (`x.len() < 16`) padded to 16 bytes, as
/// RFC 7253 section 4.2 and RFC 4493 section 2.4 pad it.
#[inline(always)]
pub(crate) fn pad(x: &[u8]) -> Block {
    let mut b = [0u8; 16];
    b[..x.len()].copy_from_slice(x);
    b[x.len()] = 0x80;
    b
}

/// Doubling in GF(2^128) modulo x^128 + x^7 + x^2 + x + 1, big-endian
/// (RFC 7253 section 2 "double", RFC 4493 section 2.3); constant time.
#[inline(always)]
pub(crate) fn dbl(b: &Block) -> Block {
    let v = u128::from_be_bytes(*b);
    ((v << 1) ^ ((v >> 127).wrapping_neg() & 0x87)).to_be_bytes()
}

/// Encrypts one block with a backend.
#[inline(always)]
pub(crate) fn enc<B: aes::cipher::BlockCipherEncBackend<BlockSize = U16>>(backend: &B, x: Block) -> Block {
    let mut a = Array::<u8, U16>(x);
    backend.encrypt_block((&mut a).into());
    a.0
}
