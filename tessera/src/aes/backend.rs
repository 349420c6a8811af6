//! The `cipher` crate's block backends over the AES-NI schedule
//! ([`Keys`]), so an [`Aes`](super::Aes) on x86-64 holds one schedule and
//! every mode written against the `cipher` traits runs on it: 8 blocks per
//! batch on AES-NI, 32 on 256-bit VAES, 64 on VAES-512 (the `aes` crate's
//! own widths are 8, 30 and 64), the width chosen when the key is built
//! (`ni::Width::detect`, under the `crate::cpu` cap).
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use aes::cipher::array::ArraySize;
use aes::cipher::consts::{U8, U16, U32, U64};
use aes::cipher::inout::InOut;
use aes::cipher::{
    Array, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure, BlockSizeUser,
    ParBlocks, ParBlocksSizeUser,
};

use super::ni::{Keys, Width};
use crate::cpu::{AesNi, Vaes256, Vaes512};
use crate::simd::{load, store};

/// `$entry::<NR>(token, keys, f)` for the width and round count of `keys`,
/// one entry per width (`$e512`, `$e256`, `$e128`).
macro_rules! enter {
    ($keys:expr, $f:expr, $e512:ident, $e256:ident, $e128:ident) => {
        match ($keys.width(), $keys.rounds()) {
            (Width::Vaes512(t), 10) => $e512::<10>(t, $keys, $f),
            (Width::Vaes512(t), 12) => $e512::<12>(t, $keys, $f),
            (Width::Vaes512(t), _) => $e512::<14>(t, $keys, $f),
            (Width::Vaes256(t), 10) => $e256::<10>(t, $keys, $f),
            (Width::Vaes256(t), 12) => $e256::<12>(t, $keys, $f),
            (Width::Vaes256(t), _) => $e256::<14>(t, $keys, $f),
            (Width::Ni(t), 10) => $e128::<10>(t, $keys, $f),
            (Width::Ni(t), 12) => $e128::<12>(t, $keys, $f),
            (Width::Ni(t), _) => $e128::<14>(t, $keys, $f),
        }
    };
}

/// Runs `f` with the encryption backend of `keys`' width.
#[inline]
pub(crate) fn encrypt_with(keys: &Keys, f: impl BlockCipherEncClosure<BlockSize = U16>) {
    // SAFETY: each `Width` holds the token of the features its entry is compiled for.
    unsafe { enter!(keys, f, enc512, enc256, enc128) }
}

/// Runs `f` with the decryption backend of `keys`' width.
#[inline]
pub(crate) fn decrypt_with(keys: &Keys, f: impl BlockCipherDecClosure<BlockSize = U16>) {
    // SAFETY: each `Width` holds the token of the features its entry is compiled for.
    unsafe { enter!(keys, f, dec512, dec256, dec128) }
}

/// Blocks a kernel reads whole before it writes them: one block, or a
/// batch, of the `cipher` crate's in-out buffers.
trait Io {
    /// The input blocks' bytes.
    fn input(&self) -> &[u8];
    /// The output blocks' bytes (as many; the input's own in place).
    fn output(&mut self) -> &mut [u8];
}

impl Io for InOut<'_, '_, Array<u8, U16>> {
    #[inline(always)]
    fn input(&self) -> &[u8] {
        self.get_in().as_slice()
    }
    #[inline(always)]
    fn output(&mut self) -> &mut [u8] {
        self.get_out().as_mut_slice()
    }
}

impl<N: ArraySize> Io for InOut<'_, '_, Array<Array<u8, U16>, N>> {
    #[inline(always)]
    fn input(&self) -> &[u8] {
        Array::cast_slice_to_core(self.get_in().as_slice()).as_flattened()
    }
    #[inline(always)]
    fn output(&mut self) -> &mut [u8] {
        Array::cast_slice_to_core_mut(self.get_out().as_mut_slice()).as_flattened_mut()
    }
}

/// One width's backend, written once: `$v` vectors of `$par` blocks per
/// batch, entered through `$enc_entry`/`$dec_entry` (compiled with `$feat`,
/// taking `$tok`), with the width's broadcast and AES intrinsics.
macro_rules! backend {
    ($name:ident, $tok:ty, $feat:literal, $v:ty, $par:ty, $enc_entry:ident, $dec_entry:ident, $kernel:ident,
     $bcast:ident, $xor:ident, $enc:ident, $enclast:ident, $dec:ident, $declast:ident) => {
        /// Encryption (or, with `DEC`, decryption) round keys of an
        /// `NR`-round schedule broadcast to every lane, the single-block
        /// schedule and the width's token.
        struct $name<'a, const NR: usize, const DEC: bool> {
            one: &'a [__m128i; 15],
            rk: [$v; 15],
            t: $tok,
        }

        impl<const NR: usize, const DEC: bool> BlockSizeUser for $name<'_, NR, DEC> {
            type BlockSize = U16;
        }

        impl<const NR: usize, const DEC: bool> ParBlocksSizeUser for $name<'_, NR, DEC> {
            type ParBlocksSize = $par;
        }

        impl<const NR: usize, const DEC: bool> $name<'_, NR, DEC> {
            /// Every block of `io`, from its input to its output.
            #[inline(always)]
            fn run(&self, io: impl Io) {
                // SAFETY: `self.t` proves `$feat`, which the kernel is compiled for.
                unsafe { $kernel::<NR, DEC>(self.t, self.one, &self.rk, io) }
            }
        }

        impl<const NR: usize> BlockCipherEncBackend for $name<'_, NR, false> {
            #[inline(always)]
            fn encrypt_block(&self, block: InOut<'_, '_, aes::cipher::Block<Self>>) {
                self.run(block)
            }

            #[inline(always)]
            fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                self.run(blocks)
            }
        }

        impl<const NR: usize> BlockCipherDecBackend for $name<'_, NR, true> {
            #[inline(always)]
            fn decrypt_block(&self, block: InOut<'_, '_, aes::cipher::Block<Self>>) {
                self.run(block)
            }

            #[inline(always)]
            fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                self.run(blocks)
            }
        }

        #[inline]
        #[target_feature(enable = $feat)]
        fn $enc_entry<const NR: usize>(t: $tok, keys: &Keys, f: impl BlockCipherEncClosure<BlockSize = U16>) {
            // Built in place and wiped here: no copy of the broadcast keys is left.
            let mut b = $name::<NR, false> { one: keys.schedule(), rk: [$bcast(_mm_setzero_si128()); 15], t };
            for (v, k) in b.rk.iter_mut().zip(keys.schedule()) {
                *v = $bcast(*k);
            }
            f.call(&b);
            crate::wipe::wipe_vectors(&mut b.rk);
        }

        #[inline]
        #[target_feature(enable = $feat)]
        fn $dec_entry<const NR: usize>(t: $tok, keys: &Keys, f: impl BlockCipherDecClosure<BlockSize = U16>) {
            // Built in place and wiped here: no copy of the broadcast keys is left.
            let mut b = $name::<NR, true> { one: keys.dec_schedule(), rk: [$bcast(_mm_setzero_si128()); 15], t };
            for (v, k) in b.rk.iter_mut().zip(keys.dec_schedule()) {
                *v = $bcast(*k);
            }
            f.call(&b);
            crate::wipe::wipe_vectors(&mut b.rk);
        }

        /// The blocks of `io` (at most `$par`) through `NR` rounds (`DEC`:
        /// AESDEC with the decryption keys), whole vectors of `$v` at a
        /// time and the blocks after them one by one under `one`.
        #[inline]
        #[target_feature(enable = $feat)]
        fn $kernel<const NR: usize, const DEC: bool>(_: $tok, one: &[__m128i; 15], rk: &[$v; 15], mut io: impl Io) {
            const W: usize = size_of::<$v>() / 16;
            const MAX: usize = <$par as aes::cipher::typenum::Unsigned>::USIZE / W;
            let n = io.input().len() / 16;
            let whole = n / W;
            let rest = n - W * whole;
            assert!(whole <= MAX && rest < 4);
            let mut x = [$bcast(_mm_setzero_si128()); MAX];
            let mut tail = [_mm_setzero_si128(); 4];
            let src = io.input();
            for (i, v) in x.iter_mut().enumerate().take(whole) {
                *v = $xor(load::<$v, u8>(&src[16 * W * i..]), rk[0]);
            }
            for (i, v) in tail.iter_mut().enumerate().take(rest) {
                *v = _mm_xor_si128(load::<__m128i, u8>(&src[16 * (W * whole + i)..]), one[0]);
            }
            for r in 1..NR {
                for v in x.iter_mut().take(whole) {
                    *v = if DEC { $dec(*v, rk[r]) } else { $enc(*v, rk[r]) };
                }
                for v in tail.iter_mut().take(rest) {
                    *v = if DEC { _mm_aesdec_si128(*v, one[r]) } else { _mm_aesenc_si128(*v, one[r]) };
                }
            }
            let dst = io.output();
            for (i, v) in x.iter().enumerate().take(whole) {
                store(&mut dst[16 * W * i..], if DEC { $declast(*v, rk[NR]) } else { $enclast(*v, rk[NR]) });
            }
            for (i, v) in tail.iter().enumerate().take(rest) {
                let y = if DEC { _mm_aesdeclast_si128(*v, one[NR]) } else { _mm_aesenclast_si128(*v, one[NR]) };
                store(&mut dst[16 * (W * whole + i)..], y);
            }
        }
    };
}

#[inline(always)]
fn same(x: __m128i) -> __m128i {
    x
}

backend!(
    Ni128,
    AesNi,
    "aes,sse4.1",
    __m128i,
    U8,
    enc128,
    dec128,
    blocks128,
    same,
    _mm_xor_si128,
    _mm_aesenc_si128,
    _mm_aesenclast_si128,
    _mm_aesdec_si128,
    _mm_aesdeclast_si128
);
backend!(
    Vaes256Backend,
    Vaes256,
    "avx2,vaes,aes",
    __m256i,
    U32,
    enc256,
    dec256,
    blocks256,
    _mm256_broadcastsi128_si256,
    _mm256_xor_si256,
    _mm256_aesenc_epi128,
    _mm256_aesenclast_epi128,
    _mm256_aesdec_epi128,
    _mm256_aesdeclast_epi128
);
backend!(
    Vaes512Backend,
    Vaes512,
    "avx512f,vaes,aes",
    __m512i,
    U64,
    enc512,
    dec512,
    blocks512,
    _mm512_broadcast_i32x4,
    _mm512_xor_si512,
    _mm512_aesenc_epi128,
    _mm512_aesenclast_epi128,
    _mm512_aesdec_epi128,
    _mm512_aesdeclast_epi128
);

#[cfg(test)]
mod tests {
    use super::Width;
    use crate::aes::{Aes, Block};
    use crate::cpu::{AesNi, Vaes256, Vaes512};
    use crate::cpu::{Level, detected, with_cap};

    /// At every level this CPU has, every key size and every batch length
    /// up to two 64-block batches and a tail: one block, many blocks and
    /// their decryption equal the `aes` crate's, and the level's `Aes`
    /// runs on the widest VAES its tokens allow.
    #[test]
    fn every_width_matches_the_aes_crate() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        };
        for level in Level::ALL.into_iter().filter(|&l| l <= detected()) {
            with_cap(level, || {
                for len in [16, 24, 32] {
                    let key: Vec<u8> = (0..len).map(|_| next()).collect();
                    let (aes, soft) = (Aes::new(&key).unwrap(), Aes::with_crate(&key).unwrap());
                    // The widest VAES the capped CPU has, else AES-NI.
                    let want = AesNi::get().map(|t| match (Vaes512::get(), Vaes256::get()) {
                        (Some(t), _) => Width::Vaes512(t),
                        (None, Some(t)) => Width::Vaes256(t),
                        (None, None) => Width::Ni(t),
                    });
                    assert_eq!(aes.ni().map(|k| k.width()), want, "{level}");
                    assert_eq!(want.is_some(), level >= Level::AesNi, "{level}");
                    for n in (0..=20).chain([31, 32, 33, 63, 64, 65, 127, 128, 131]) {
                        let data: Vec<Block> = (0..n).map(|_| core::array::from_fn(|_| next())).collect();
                        let mut want = data.clone();
                        want.iter_mut().for_each(|b| soft.encrypt_block(b));
                        let mut got = data.clone();
                        aes.encrypt_blocks(&mut got);
                        assert_eq!(got, want, "{level} AES-{} encrypt {n} blocks", 8 * len);
                        aes.decrypt_blocks(&mut got);
                        assert_eq!(got, data, "{level} AES-{} decrypt {n} blocks", 8 * len);
                        if let Some(b) = data.first() {
                            let mut one = *b;
                            aes.encrypt_block(&mut one);
                            assert_eq!(one, want[0], "{level} one block");
                            aes.decrypt_block(&mut one);
                            assert_eq!(one, *b, "{level} one block back");
                        }
                    }
                }
            })
        }
    }
}
