//! AES-128/192/256 chosen by key length. Everything in tessera that needs
//! the block cipher goes through [`Aes`]; the many-block call
//! [`Aes::encrypt_blocks`] is what keeps the hardware pipeline full.
//!
//! On x86-64 with AES-NI (as the `TESSERA_CPU` cap allows), [`Aes::new`]
//! expands the key once, into the AES-NI schedule (`ni::Keys`) alone: the
//! `cipher` traits run on it through tessera's backends (`backend.rs`, as
//! wide as the `aes` crate's), and tessera's own kernels (FF1/FF3, AES-SIV,
//! EAX, OCB, OpenPGP CFB) borrow it through `Aes::ni`. Elsewhere the
//! RustCrypto `aes` crate's cipher serves (its own AES-NI detection, or a
//! constant-time bitsliced software implementation).

use aes::cipher::consts::U16;
use aes::cipher::{
    Array, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, KeyInit,
};

#[cfg(target_arch = "x86_64")]
pub(crate) mod backend;
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
    inner: Wiped<Schedule>,
}

/// The one schedule of a key.
#[derive(Clone)]
enum Schedule {
    /// The `aes` crate's cipher: CPUs without AES-NI, or with it capped off.
    Crate(Cipher),
    /// The AES-NI schedule.
    #[cfg(target_arch = "x86_64")]
    Ni(ni::Keys),
}

/// The `aes` crate's cipher for each key size.
#[derive(Clone)]
enum Cipher {
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
    ($c:expr, $k:ident => $e:expr) => {
        match $c {
            Cipher::Aes128($k) => $e,
            Cipher::Aes192($k) => $e,
            Cipher::Aes256($k) => $e,
        }
    };
}

impl Aes {
    /// Expands `key`; its length (16, 24 or 32 bytes) selects the variant.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        #[cfg(target_arch = "x86_64")]
        if matches!(key.len(), 16 | 24 | 32)
            && let Some(keys) = ni::Keys::new(key)
        {
            return Ok(Aes { inner: Wiped::new(Schedule::Ni(keys)) });
        }
        Self::with_crate(key)
    }

    /// The `aes` crate's cipher, whatever the CPU: the path of CPUs without
    /// AES-NI, for tests that compare the two.
    pub(crate) fn with_crate(key: &[u8]) -> Result<Self, Error> {
        let cipher = match key.len() {
            16 => Cipher::Aes128(aes::Aes128::new(&Array::try_from(key).expect("length 16"))),
            24 => Cipher::Aes192(aes::Aes192::new(&Array::try_from(key).expect("length 24"))),
            32 => Cipher::Aes256(aes::Aes256::new(&Array::try_from(key).expect("length 32"))),
            n => return Err(Error::KeyLength { got: n, expected: "16, 24 or 32" }),
        };
        Ok(Aes { inner: Wiped::new(Schedule::Crate(cipher)) })
    }

    /// The AES-NI schedule of this key, when the CPU has AES-NI and the
    /// `TESSERA_CPU` cap lets it through: what tessera's AES-NI and VAES
    /// kernels run on.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(crate) fn ni(&self) -> Option<&ni::Keys> {
        match &*self.inner {
            Schedule::Ni(keys) => Some(keys),
            Schedule::Crate(_) => None,
        }
    }

    /// Replaces the AES-NI schedule by the `aes` crate's cipher of the same
    /// key, as on CPUs without AES-NI (test hook: the portable paths).
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn drop_ni(&mut self) {
        if let Schedule::Ni(keys) = &*self.inner {
            // The key is round key 0, then (AES-192 and AES-256) the start of round key 1.
            let mut rk = keys.round_key_bytes();
            let bytes = (keys.rounds() - 6) * 4;
            let key = &rk.as_flattened()[..bytes];
            *self = Self::with_crate(key).expect("a key length the schedule had");
            zeroize::Zeroize::zeroize(&mut rk);
        }
    }

    /// Key size in bits (128, 192 or 256).
    pub fn key_bits(&self) -> u32 {
        match &*self.inner {
            Schedule::Crate(Cipher::Aes128(_)) => 128,
            Schedule::Crate(Cipher::Aes192(_)) => 192,
            Schedule::Crate(Cipher::Aes256(_)) => 256,
            #[cfg(target_arch = "x86_64")]
            Schedule::Ni(keys) => 32 * (keys.rounds() as u32 - 6),
        }
    }

    /// Runs `f` with the encryption backend (round keys in registers,
    /// hardware instructions inlined into `f`).
    #[inline(always)]
    pub(crate) fn with_enc_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        match &*self.inner {
            Schedule::Crate(c) => dispatch!(c, c => c.encrypt_with_backend(f)),
            #[cfg(target_arch = "x86_64")]
            Schedule::Ni(keys) => backend::encrypt_with(keys, f),
        }
    }

    /// Runs `f` with the decryption backend.
    #[inline(always)]
    pub(crate) fn with_dec_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        match &*self.inner {
            Schedule::Crate(c) => dispatch!(c, c => c.decrypt_with_backend(f)),
            #[cfg(target_arch = "x86_64")]
            Schedule::Ni(keys) => backend::decrypt_with(keys, f),
        }
    }

    /// Encrypts one block in place.
    #[inline]
    pub fn encrypt_block(&self, block: &mut Block) {
        match &*self.inner {
            Schedule::Crate(c) => {
                dispatch!(c, c => c.encrypt_block(&mut Array::cast_slice_from_core_mut(core::slice::from_mut(block))[0]))
            }
            #[cfg(target_arch = "x86_64")]
            Schedule::Ni(keys) => keys.run(|ni| ni.block::<false>(block)),
        }
    }

    /// Decrypts one block in place.
    #[inline]
    pub fn decrypt_block(&self, block: &mut Block) {
        match &*self.inner {
            Schedule::Crate(c) => {
                dispatch!(c, c => c.decrypt_block(&mut Array::cast_slice_from_core_mut(core::slice::from_mut(block))[0]))
            }
            #[cfg(target_arch = "x86_64")]
            Schedule::Ni(keys) => keys.run(|ni| ni.block::<true>(block)),
        }
    }

    /// Encrypts many independent blocks in place (ECB over the slice).
    ///
    /// This is the call that fills the AES pipeline: up to 64 blocks at
    /// once with VAES-512, 32 with 256-bit VAES, 8 with AES-NI (the `aes`
    /// crate's 64, 30 and 8 where it serves).
    #[inline]
    pub fn encrypt_blocks(&self, blocks: &mut [Block]) {
        CipherTraits(self).encrypt_blocks(Array::cast_slice_from_core_mut(blocks))
    }

    /// Decrypts many independent blocks in place.
    #[inline]
    pub fn decrypt_blocks(&self, blocks: &mut [Block]) {
        CipherTraits(self).decrypt_blocks(Array::cast_slice_from_core_mut(blocks))
    }
}

/// An [`Aes`] (owned or borrowed) as the `cipher` crate's block cipher,
/// for RustCrypto modes (GCM) and the many-block calls; a crate-private
/// type, so the `cipher` traits are not part of tessera's API.
#[derive(Clone)]
pub(crate) struct CipherTraits<T>(pub(crate) T);

impl<T: core::borrow::Borrow<Aes>> BlockSizeUser for CipherTraits<T> {
    type BlockSize = U16;
}

impl<T: core::borrow::Borrow<Aes>> BlockCipherEncrypt for CipherTraits<T> {
    #[inline(always)]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        self.0.borrow().with_enc_backend(f)
    }
}

impl<T: core::borrow::Borrow<Aes>> BlockCipherDecrypt for CipherTraits<T> {
    #[inline(always)]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        self.0.borrow().with_dec_backend(f)
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
