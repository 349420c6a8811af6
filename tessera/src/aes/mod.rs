//! AES-128/192/256 chosen by key length, over the RustCrypto `aes` crate.
//!
//! The `aes` crate detects AES-NI and VAES at run time and falls back to a
//! constant-time bitsliced software implementation. Everything in tessera that
//! needs the block cipher goes through [`Aes`]; the many-block call
//! [`Aes::encrypt_blocks`] is what keeps the hardware pipeline full.
//!
//! On x86-64 with AES-NI (as the `TESSERA_CPU` cap allows), [`Aes::new`]
//! also expands the key once into the AES-NI schedule (`ni::Keys`) that
//! tessera's own kernels (FF1/FF3, AES-SIV, EAX, OCB, OpenPGP CFB) borrow
//! through `Aes::ni`.

use aes::cipher::consts::U16;
use aes::cipher::{
    Array, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncClosure, BlockCipherEncrypt, KeyInit,
};

pub(crate) mod block;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ni;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ni_cfb;

use crate::Error;
use crate::wipe::Wiped;

/// One 16-byte AES block.
pub type Block = [u8; 16];

/// An expanded AES key of 128, 192 or 256 bits.
///
/// Built once; cheap to share (`Send + Sync`, all operations on `&self`).
/// The key schedule is zeroized on drop, and so is every other byte of the
/// value: a smaller key size leaves part of the storage unused, and moves
/// copy that part along with whatever stale key material the stack held.
///
/// ```
/// use tessera::aes::Aes;
/// let aes = Aes::new(&[0u8; 16]).unwrap();
/// let mut block = [0u8; 16];
/// aes.encrypt_block(&mut block);
/// assert_eq!(block[..4], [0x66, 0xe9, 0x4b, 0xd4]);
/// aes.decrypt_block(&mut block);
/// assert_eq!(block, [0u8; 16]);
/// ```
#[derive(Clone)]
pub struct Aes {
    cipher: Wiped<Cipher>,
    /// The AES-NI schedule of the same key, where the CPU has AES-NI.
    #[cfg(target_arch = "x86_64")]
    ni: Wiped<Option<ni::Keys>>,
}

/// The `aes` crate's cipher for each key size.
#[derive(Clone)]
pub(crate) enum Cipher {
    Aes128(aes::Aes128),
    Aes192(aes::Aes192),
    Aes256(aes::Aes256),
}

impl core::fmt::Debug for Aes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Aes{}(..)", self.key_bits())
    }
}

macro_rules! dispatch {
    ($self:expr, $c:ident => $e:expr) => {
        match &*$self.cipher {
            Cipher::Aes128($c) => $e,
            Cipher::Aes192($c) => $e,
            Cipher::Aes256($c) => $e,
        }
    };
}

impl Aes {
    /// Expands `key`; its length (16, 24 or 32 bytes) selects the variant.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        #[allow(unused_mut)]
        let mut aes = Self::without_ni(key)?;
        #[cfg(target_arch = "x86_64")]
        {
            *aes.ni = ni::Keys::new(key);
        }
        Ok(aes)
    }

    /// The `aes` crate's cipher alone, with no AES-NI schedule: for the
    /// modes that run no AES-NI kernel of their own on this key (GCM,
    /// a lone CMAC, OCB without VAES), which would only pay for expanding it.
    pub(crate) fn without_ni(key: &[u8]) -> Result<Self, Error> {
        let cipher = Wiped::new(match key.len() {
            16 => Cipher::Aes128(aes::Aes128::new(&Array::try_from(key).expect("length 16"))),
            24 => Cipher::Aes192(aes::Aes192::new(&Array::try_from(key).expect("length 24"))),
            32 => Cipher::Aes256(aes::Aes256::new(&Array::try_from(key).expect("length 32"))),
            n => return Err(Error::KeyLength { got: n, expected: "16, 24 or 32" }),
        });
        Ok(Aes {
            cipher,
            #[cfg(target_arch = "x86_64")]
            ni: Wiped::new(None),
        })
    }

    /// The AES-NI schedule of this key, when the CPU has AES-NI and the
    /// `TESSERA_CPU` cap lets it through: what tessera's AES-NI and VAES
    /// kernels run on.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(crate) fn ni(&self) -> Option<&ni::Keys> {
        self.ni.as_ref()
    }

    /// Drops the AES-NI schedule (wiped), leaving the `aes` crate's cipher
    /// alone: every block then goes through it, as on CPUs without AES-NI.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn drop_ni(&mut self) {
        *self.ni = None;
    }

    /// Key size in bits (128, 192 or 256).
    pub fn key_bits(&self) -> u32 {
        match &*self.cipher {
            Cipher::Aes128(_) => 128,
            Cipher::Aes192(_) => 192,
            Cipher::Aes256(_) => 256,
        }
    }

    /// The `aes` crate's cipher (for wrapping in other RustCrypto modes).
    pub(crate) fn cipher(&self) -> &Cipher {
        &self.cipher
    }

    /// Runs `f` with the encryption backend (round keys in registers,
    /// hardware instructions inlined into `f`).
    #[inline(always)]
    pub(crate) fn with_enc_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        dispatch!(self, c => c.encrypt_with_backend(f))
    }

    /// Runs `f` with the decryption backend.
    #[inline(always)]
    pub(crate) fn with_dec_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        dispatch!(self, c => c.decrypt_with_backend(f))
    }

    /// Encrypts one block in place.
    #[inline]
    pub fn encrypt_block(&self, block: &mut Block) {
        let b = Array::cast_slice_from_core_mut(core::slice::from_mut(block));
        dispatch!(self, c => c.encrypt_block(&mut b[0]))
    }

    /// Decrypts one block in place.
    #[inline]
    pub fn decrypt_block(&self, block: &mut Block) {
        let b = Array::cast_slice_from_core_mut(core::slice::from_mut(block));
        dispatch!(self, c => c.decrypt_block(&mut b[0]))
    }

    /// Encrypts many independent blocks in place (ECB over the slice).
    ///
    /// This is the call that fills the AES pipeline: the `aes` crate's
    /// backend processes up to 64 blocks at once with VAES-512 (AVX-512F),
    /// 30 with 256-bit VAES, 8 with AES-NI, chosen by its own run-time
    /// detection (the `TESSERA_CPU` cap does not reach it).
    #[inline]
    pub fn encrypt_blocks(&self, blocks: &mut [Block]) {
        let b = Array::cast_slice_from_core_mut(blocks);
        dispatch!(self, c => c.encrypt_blocks(b))
    }

    /// Decrypts many independent blocks in place.
    #[inline]
    pub fn decrypt_blocks(&self, blocks: &mut [Block]) {
        let b = Array::cast_slice_from_core_mut(blocks);
        dispatch!(self, c => c.decrypt_blocks(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// FIPS 197 Appendix C example vectors.
    #[test]
    fn fips197_appendix_c() {
        let pt: Block = unhex("00112233445566778899aabbccddeeff").try_into().unwrap();
        for (key, ct) in [
            ("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
            ("000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
            ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"),
        ] {
            let aes = Aes::new(&unhex(key)).unwrap();
            let mut b = pt;
            aes.encrypt_block(&mut b);
            assert_eq!(b.to_vec(), unhex(ct));
            let mut many = [pt; 70];
            aes.encrypt_blocks(&mut many);
            assert!(many.iter().all(|x| *x == b));
            aes.decrypt_blocks(&mut many);
            assert!(many.iter().all(|x| *x == pt));
        }
    }

    #[test]
    fn rejects_bad_key_length() {
        for n in [0, 15, 17, 31, 33, 64] {
            assert!(matches!(Aes::new(&vec![0; n]), Err(Error::KeyLength { got, .. }) if got == n));
        }
    }
}
