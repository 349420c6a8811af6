//! OCB's per-call steps: the nonce to Offset_0 (RFC 7253 section 4.2) and
//! the closures that run OCB-ENCRYPT and OCB-DECRYPT inside one `aes`
//! crate backend call.

use aes::cipher::consts::U16;
use aes::cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure, BlockSizeUser,
};

use super::offsets::{Dec, Enc, Offsets};
use crate::Error;
use crate::aead::Tag;
use crate::aes::Block;
use crate::aes::block::{enc, pad, xor};

/// The 16-byte Nonce block of RFC 7253 section 4.2 with its last six bits
/// cleared, and those six bits ("bottom").
#[inline]
pub(super) fn nonce_block(nonce: &[u8]) -> (Block, u32) {
    // Nonce = num2str(TAGLEN mod 128, 7) || zeros(120 - bitlen(N)) || 1 || N,
    // and TAGLEN mod 128 = 0.
    let mut b = [0u8; 16];
    b[16 - nonce.len()..].copy_from_slice(nonce);
    b[15 - nonce.len()] |= 1;
    let bottom = u32::from(b[15] & 0x3f);
    b[15] &= 0xc0;
    (b, bottom)
}

/// Offset_0 from Ktop and bottom: Stretch = Ktop || (Ktop[1..64] xor
/// Ktop[9..72]), Offset_0 = Stretch[1+bottom..128+bottom] (section 4.2).
#[inline]
pub(super) fn stretch(ktop: Block, bottom: u32) -> Block {
    let k = u128::from_be_bytes(ktop);
    let ext = ((k >> 64) as u64) ^ ((k >> 56) as u64);
    if bottom == 0 { ktop } else { ((k << bottom) | u128::from(ext >> (64 - bottom))).to_be_bytes() }
}

pub(super) fn check_nonce(nonce: &[u8]) -> Result<(), Error> {
    if (1..=15).contains(&nonce.len()) {
        Ok(())
    } else {
        Err(Error::NonceLength { got: nonce.len(), expected: "1 to 15 (OpenPGP uses 15)" })
    }
}

/// OCB-ENCRYPT (RFC 7253 section 4.2) in one backend call, or its end
/// after the VAES kernel did the first blocks.
pub(super) struct Seal<'a> {
    pub(super) offsets: &'a Offsets,
    pub(super) nonce: &'a [u8],
    pub(super) ad: &'a [u8],
    pub(super) buf: &'a mut [u8],
    /// Blocks already done, their last offset and their checksum; `None`
    /// to start from the nonce.
    pub(super) done: Option<(u64, Block, Block)>,
    pub(super) tag: &'a mut Tag,
}

impl BlockSizeUser for Seal<'_> {
    type BlockSize = U16;
}

impl BlockCipherEncClosure for Seal<'_> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        let ocb = self.offsets;
        let (index, off0, sum0) = match self.done {
            Some(done) => done,
            None => {
                let (nb, bottom) = nonce_block(self.nonce);
                (0, stretch(enc(backend, nb), bottom), [0; 16])
            }
        };
        // Independent of the nonce: runs while Ktop is in flight.
        let hash = ocb.hash(backend, self.ad);
        let rest = &mut self.buf[index as usize * 16..];
        let full = rest.len() / 16 * 16;
        let (blocks, partial) = rest.split_at_mut(full);
        let (mut off, sum1) = ocb.blocks(&Enc(backend), blocks, index, off0);
        let mut sum = xor(&sum0, &sum1);
        if !partial.is_empty() {
            off = xor(&off, &ocb.l_star);
            sum = xor(&sum, &pad(partial));
            let pad_block = enc(backend, off);
            for (b, k) in partial.iter_mut().zip(pad_block) {
                *b ^= k;
            }
        }
        let t = enc(backend, xor(&xor(&sum, &off), &ocb.l_dollar));
        *self.tag = xor(&t, &hash);
    }
}

/// The encryption-side work of OCB-DECRYPT: Offset_0, HASH(A) and the pad
/// for a final partial block (whose offset comes from the Gray code).
pub(super) struct OpenPrep<'a> {
    pub(super) offsets: &'a Offsets,
    pub(super) nonce: &'a [u8],
    pub(super) ad: &'a [u8],
    /// Number of complete blocks and whether a partial one follows.
    pub(super) blocks: u64,
    pub(super) partial: bool,
    /// Out: Offset_0, HASH(A), Pad (zero if no partial block).
    pub(super) out: &'a mut [Block; 3],
}

impl BlockSizeUser for OpenPrep<'_> {
    type BlockSize = U16;
}

impl BlockCipherEncClosure for OpenPrep<'_> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        let ocb = self.offsets;
        let (nb, bottom) = nonce_block(self.nonce);
        let off0 = stretch(enc(backend, nb), bottom);
        let hash = ocb.hash(backend, self.ad);
        let pad_block = if self.partial {
            enc(backend, xor(&xor(&off0, &ocb.gray_offset(self.blocks)), &ocb.l_star))
        } else {
            [0; 16]
        };
        *self.out = [off0, hash, pad_block];
    }
}

/// The decryption of the complete blocks for OCB-DECRYPT.
pub(super) struct OpenBulk<'a> {
    pub(super) offsets: &'a Offsets,
    pub(super) data: &'a mut [u8],
    /// Blocks before `data` and their last offset.
    pub(super) index: u64,
    pub(super) off: Block,
    /// Out: (Offset_m, Checksum_m).
    pub(super) out: &'a mut (Block, Block),
}

impl BlockSizeUser for OpenBulk<'_> {
    type BlockSize = U16;
}

impl BlockCipherDecClosure for OpenBulk<'_> {
    #[inline(always)]
    fn call<B: BlockCipherDecBackend<BlockSize = U16>>(self, backend: &B) {
        *self.out = self.offsets.blocks(&Dec(backend), self.data, self.index, self.off);
    }
}
