//! OCB3, RFC 7253, with a 128-bit tag (the only tag length OpenPGP uses).
//!
//! What depends only on the key is computed once, in [`Ocb::new`]: L_* =
//! E(0), L_$ = double(L_*) and L_i = double^(i+1)(L_$) for i < 64, enough for
//! any buffer a 64-bit machine can hold (RFC 7253 section 4.1).
//!
//! On x86-64 with VAES and AVX2 (checked at run time) the complete blocks of
//! a message of 256 bytes or more go through the kernel in `ocb_vaes.rs`:
//! sixteen blocks per iteration in eight 256-bit registers, each block loaded
//! and stored once (`ocb/kernel.rs` chooses among the kernels the CPU has;
//! a 512-bit one is there too).
//!
//! Everywhere else, and for the last blocks, the work runs inside one call of
//! the AES backend, with the round keys in registers. It takes the
//! backend's native batch (32 blocks with VAES on AVX2, 64 with VAES-512, 8
//! with AES-NI): offsets for the whole batch first (Offset_i = Offset_{i-1}
//! xor L_{ntz(i)}, section 4.2), the checksum folded in as the plaintext is
//! read, one many-block AES call, then the offsets again on the way out.
//! Offsets that the decryptor needs ahead of time come from the Gray-code
//! form Offset_m = Offset_0 xor the L_i of the set bits of m xor (m >> 1),
//! with no loop over the blocks.

use super::{InPlace, Tag, tag_matches};
use crate::Error;
use crate::aes::Aes;
use crate::aes::block::{pad, xor};

mod kernel;
mod offsets;
mod steps;

use kernel::{Bulk, Kernel};
use offsets::Offsets;

use steps::{OpenBulk, OpenPrep, Seal, check_nonce, nonce_block, stretch};

/// AES-OCB3 (RFC 7253) with a 128-bit tag and nonces of 1 to 15 bytes
/// (OpenPGP uses 15, RFC 9580 section 5.13.2).
///
/// Built once per key (16, 24 or 32 bytes); `Send + Sync`; sealing and
/// opening take `&self` and allocate nothing. The key schedule and the L
/// table are zeroized on drop, and `Debug` shows only the key size.
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Nonce, Ocb};
/// // RFC 7253 Appendix A, the sample with 8 bytes of AD and 8 of plaintext.
/// let key: Vec<u8> = (0..16).collect();
/// let nonce = [0xbb, 0xaa, 0x99, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x01];
/// let ad = [0, 1, 2, 3, 4, 5, 6, 7];
/// let mut buf = [0, 1, 2, 3, 4, 5, 6, 7];
/// let ocb = Ocb::new(&key)?;
/// let tag = ocb.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut buf)?;
/// assert_eq!(buf, [0x68, 0x20, 0xb3, 0x65, 0x7b, 0x6f, 0x61, 0x5a]);
/// assert_eq!(tag[..4], [0x57, 0x25, 0xbd, 0xa0]);
/// ocb.open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut buf, &tag)?;
/// assert_eq!(buf, [0, 1, 2, 3, 4, 5, 6, 7]);
/// # Ok::<(), tessera::Error>(())
/// ```
///
/// # Sealing and opening
///
/// Sealing is OCB-ENCRYPT (RFC 7253 section 4.2); the nonce is 1 to 15
/// bytes, any other length is [`Error::NonceLength`].
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Nonce, Ocb};
/// let ocb = Ocb::new(&[1u8; 16])?;
/// let mut buf = vec![0u8; 1000];
/// let tag = ocb.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[2; 15]), Aad::empty(), &mut buf)?;
/// assert!(ocb.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[2; 16]), Aad::empty(), &mut buf).is_err());
/// # let _ = tag;
/// # Ok::<(), tessera::Error>(())
/// ```
///
/// Opening is OCB-DECRYPT (RFC 7253 section 4.3): the tag is compared in
/// constant time, and the buffer zeroed if it does not match.
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Nonce, Ocb};
/// let ocb = Ocb::new(&[1u8; 16])?;
/// let mut buf = *b"sixteen bytes!!!and more";
/// let tag = ocb.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[2; 15]), Aad::new(b"ad"), &mut buf)?;
/// assert!(ocb.open_in_place_separate_tag(Nonce::assume_unique_for_key(&[2; 15]), Aad::new(b"AD"), &mut buf, &tag).is_err());
/// assert_eq!(buf, [0; 24]);
/// # Ok::<(), tessera::Error>(())
/// ```
#[derive(Clone)]
pub struct Ocb {
    aes: Aes,
    /// L_*, L_$ and the L_i, with the block loops that read them.
    offsets: Offsets,
    /// The bulk kernel chosen for this CPU, with its tables.
    bulk: crate::wipe::Wiped<Bulk>,
}

impl core::fmt::Debug for Ocb {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Ocb(AES-{}, ..)", self.aes.key_bits())
    }
}

impl Ocb {
    /// Builds AES-OCB3 from a 16, 24 or 32-byte key and precomputes the L
    /// table (RFC 7253 section 4.1).
    ///
    /// ```
    /// assert!(tessera::aead::Ocb::new(&[0u8; 24]).is_ok());
    /// assert!(tessera::aead::Ocb::new(&[0u8; 20]).is_err());
    /// ```
    ///
    /// On x86-64 CPUs with VAES and AVX2 the bulk of each message runs in a
    /// VAES kernel (`ocb_vaes.rs`); elsewhere through the AES backend.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_kernel(key, Kernel::detect())
    }

    fn with_kernel(key: &[u8], kernel: Kernel) -> Result<Self, Error> {
        let mut ocb = Self::with_aes(Aes::new(key)?);
        *ocb.bulk = kernel.expand(&ocb.aes, &ocb.offsets.l);
        Ok(ocb)
    }

    /// The same cipher without the VAES kernels (test hook: the portable path).
    #[doc(hidden)]
    pub fn new_portable(key: &[u8]) -> Result<Self, Error> {
        Self::with_kernel(key, Kernel::Portable)
    }

    /// The same cipher with the bulk kernel `name` (test and benchmark
    /// hook): one of [`Ocb::kernels`]; `None` if the key is bad or this CPU
    /// does not run that kernel.
    #[doc(hidden)]
    pub fn new_with_kernel(key: &[u8], name: &str) -> Option<Self> {
        Self::with_kernel(key, Kernel::by_name(name)?).ok()
    }

    /// The names of the bulk kernels this CPU runs, "portable" first, and
    /// the name of the one [`Ocb::new`] chooses (test and benchmark hook).
    #[doc(hidden)]
    pub fn kernels() -> (Vec<&'static str>, &'static str) {
        (Kernel::available().into_iter().map(Kernel::name).collect(), Kernel::detect().name())
    }

    fn with_aes(aes: Aes) -> Self {
        let offsets = Offsets::new(&aes);
        Ocb { aes, offsets, bulk: crate::wipe::Wiped::new(Bulk::Portable) }
    }
}

impl InPlace for Ocb {
    // OCB-ENCRYPT (RFC 7253 section 4.2). `nonce` is 1 to 15 bytes.
    fn seal(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        check_nonce(nonce)?;
        let mut done = None;
        if !matches!(*self.bulk, Bulk::Portable) && buf.len() >= 256 {
            let (nb, bottom) = nonce_block(nonce);
            let mut ktop = nb;
            self.aes.encrypt_block(&mut ktop);
            if let Some((bytes, off, sum)) = self.bulk.run(true, &self.offsets.l, buf, stretch(ktop, bottom)) {
                done = Some(((bytes / 16) as u64, off, sum));
            }
        }
        let mut tag = [0u8; 16];
        self.aes.with_enc_backend(Seal { offsets: &self.offsets, nonce, ad, buf, done, tag: &mut tag });
        Ok(tag)
    }

    // OCB-DECRYPT (RFC 7253 section 4.3): the tag is compared in constant time (`buf` is zeroed by
    // `AeadInPlace` if it does not match).
    fn open(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &Tag) -> Result<bool, Error> {
        check_nonce(nonce)?;
        let full = buf.len() / 16 * 16;
        let mut prep = [[0u8; 16]; 3];
        self.aes.with_enc_backend(OpenPrep {
            offsets: &self.offsets,
            nonce,
            ad,
            blocks: (full / 16) as u64,
            partial: full < buf.len(),
            out: &mut prep,
        });
        let [off0, hash, pad_block] = prep;
        let (blocks, partial) = buf.split_at_mut(full);
        let (skip, mut off, mut sum) =
            self.bulk.run(false, &self.offsets.l, blocks, off0).unwrap_or((0, off0, [0u8; 16]));
        if skip < blocks.len() {
            let mut out = ([0u8; 16], [0u8; 16]);
            let index = (skip / 16) as u64;
            self.aes.with_dec_backend(OpenBulk {
                offsets: &self.offsets,
                data: &mut blocks[skip..],
                index,
                off,
                out: &mut out,
            });
            off = out.0;
            sum = xor(&sum, &out.1);
        }
        if !partial.is_empty() {
            off = xor(&off, &self.offsets.l_star);
            for (b, k) in partial.iter_mut().zip(pad_block) {
                *b ^= k;
            }
            sum = xor(&sum, &pad(partial));
        }
        let mut t = xor(&xor(&sum, &off), &self.offsets.l_dollar);
        self.aes.encrypt_block(&mut t);
        let expected = xor(&t, &hash);
        Ok(tag_matches(&expected, tag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aead::{Aad, AeadInPlace, Nonce};

    #[test]
    fn gray_offsets_match_the_running_chain() {
        let ocb = Ocb::new(&[9u8; 16]).unwrap();
        let mut off = [0u8; 16];
        for i in 1..5000u64 {
            off = xor(&off, &ocb.offsets.l[i.trailing_zeros() as usize]);
            assert_eq!(ocb.offsets.gray_offset(i), off, "i={i}");
        }
    }

    /// Every bulk kernel this CPU runs against the portable path.
    #[test]
    fn every_kernel_matches_portable() {
        let (names, chosen) = Ocb::kernels();
        assert_eq!(names[0], "portable");
        assert!(names.contains(&chosen));
        for name in &names[1..] {
            for kl in [16usize, 24, 32] {
                kernel_matches_portable(name, kl);
            }
        }
    }

    fn kernel_matches_portable(name: &str, kl: usize) {
        let key: Vec<u8> = (0..kl as u8).map(|i| i.wrapping_mul(29) ^ 0x5c).collect();
        let fast = Ocb::new_with_kernel(&key, name).unwrap();
        let portable = Ocb::new_portable(&key).unwrap();
        let lens = (0..1100).chain([4096, 4096 + 17, 8192 + 511, 65536 + 255, 65536 + 512 + 3]);
        for len in lens {
            let pt: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            let nonce = [len as u8; 15];
            let (mut a, mut b) = (pt.clone(), pt.clone());
            let ta =
                fast.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"ad"), &mut a).unwrap();
            let tb = portable
                .seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"ad"), &mut b)
                .unwrap();
            assert!(a == b && ta == tb, "{name} AES-{} len {len}", kl * 8);
            fast.open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"ad"), &mut b, &tb)
                .unwrap();
            portable
                .open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(b"ad"), &mut a, &ta)
                .unwrap();
            assert!(a == pt && b == pt, "{name} AES-{} len {len}", kl * 8);
        }
    }

    #[test]
    fn nonce_formatting() {
        // RFC 7253 section 4.2 with a 15-byte nonce: the 1 bit is the last of byte 0.
        let (b, bottom) = nonce_block(&[0xff; 15]);
        assert_eq!(b[0], 0x01);
        assert_eq!(b[15], 0xc0);
        assert_eq!(bottom, 0x3f);
        let (b, _) = nonce_block(&[0x00; 12]);
        assert_eq!(b, [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
}
