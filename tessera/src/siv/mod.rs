//! AES-SIV (RFC 5297): deterministic authenticated encryption.
//!
//! The synthetic IV `V = S2V(K1, AD_1, ..., AD_n, [nonce], P)` (section 2.4,
//! over AES-CMAC of RFC 4493) authenticates everything and is also the
//! counter block of AES-CTR under K2 (section 2.5). Output is `V || C`,
//! V first, as in the RFC and the other implementations. Equal inputs give
//! equal outputs, so AES-SIV suits searchable or joinable columns, file
//! names and key wrapping; add a nonce (the last associated-data
//! component) when equal plaintexts must not be linkable.
//!
//! [`AesSiv`] is built once per key and shared; every form that writes
//! into a caller's buffer allocates nothing. Decryption checks V in
//! constant time and wipes its output when the check fails. The batch API
//! ([`AesSiv::seal_batch`]) interleaves many short messages so that
//! AES gets many independent blocks per call.
//!
//! ```
//! use tessera::siv::AesSiv;
//! let siv = AesSiv::new(&[0x42; 32]).unwrap();
//! let ct = siv.seal(None, &[b"users.email"], b"alice@example.com").unwrap();
//! assert_eq!(ct.len(), 16 + 17);
//! assert_eq!(siv.seal(None, &[b"users.email"], b"alice@example.com").unwrap(), ct);
//! assert_eq!(siv.open(None, &[b"users.email"], &ct).unwrap(), b"alice@example.com");
//! assert!(siv.open(None, &[b"users.name"], &ct).is_err());
//! ```

pub mod base64url;
mod batch;
mod ctr;
#[cfg(target_arch = "x86_64")]
mod ni;
#[cfg(target_arch = "x86_64")]
mod ni_ctr;
#[cfg(target_arch = "x86_64")]
mod ni_ctr_lanes;
#[cfg(target_arch = "x86_64")]
mod ni_s2v;
mod outputs;
mod s2v;

pub use batch::BatchAd;
pub use outputs::{BatchOutputs, MessageBatch};

use zeroize::Zeroize;

use crate::Error;
use crate::aes::block::{dbl, tags_equal};
use crate::aes::{Aes, Block};
use crate::cmac::Cmac;

/// Length of the synthetic IV V, which is also the tag: the crate's one tag
/// length, re-exported here beside the SIV API that uses it.
pub use crate::TAG_LEN;

/// Most associated-data components per message, a nonce counting as one
/// (RFC 5297 section 2.6 and 7: S2V takes at most 127 components with the
/// plaintext).
///
/// ```
/// use tessera::siv::{AesSiv, MAX_AD};
/// let siv = AesSiv::new(&[0u8; 32]).unwrap();
/// let ad = vec![b"c".as_slice(); MAX_AD];
/// assert!(siv.seal(None, &ad, b"m").is_ok());
/// assert!(siv.seal(Some(b"n"), &ad, b"m").is_err()); // the nonce is one more
/// ```
pub const MAX_AD: usize = 126;

/// AES-SIV with a 32, 48 or 64-byte key (AES-SIV-256, -384, -512; RFC 5297
/// section 2.2 and RFC 5297 section 6).
///
/// The first half of the key (K1) keys S2V's AES-CMAC, the second half (K2)
/// keys AES-CTR. Construction expands both schedules, derives the CMAC
/// subkeys and caches `CMAC(K1, 0^128)` and its double, so no operation
/// repeats per-key work. `Send + Sync`, every operation on `&self`: build
/// one and share it between threads. Key material is zeroized on drop and
/// `Debug` shows only the key size.
///
/// ```
/// use tessera::siv::AesSiv;
/// // RFC 5297 Appendix A.1 (deterministic).
/// let key = (0xf0u8..=0xff).rev().chain(0xf0..=0xff).collect::<Vec<u8>>();
/// let ad = (0x10u8..=0x27).collect::<Vec<u8>>();
/// let pt = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee];
/// let siv = AesSiv::new(&key).unwrap();
/// let mut out = [0u8; 30];
/// siv.seal_into(None, &[&ad], &pt, &mut out).unwrap();
/// assert_eq!(out[..4], [0x85, 0x63, 0x2d, 0x07]); // V = 85632d07c6e8f37f950acd320a2ecc93
/// assert_eq!(out[16..20], [0x40, 0xc0, 0x2b, 0x96]);
/// ```
#[derive(Clone)]
pub struct AesSiv {
    /// AES-CMAC under K1, for S2V.
    mac: Cmac,
    /// AES under K2, for CTR.
    ctr: Aes,
    /// D before any component: CMAC(K1, 0^128).
    d0: Block,
    /// dbl(d0): D after the doubling of the first component.
    d0_dbl: Block,
    /// The CTR kernel's width for the AES-NI path of single messages (on
    /// the AES-NI schedules of `mac` and `ctr`), when this CPU has AES-NI.
    #[cfg(target_arch = "x86_64")]
    ni: Option<crate::aes::ni::Width>,
}

impl core::fmt::Debug for AesSiv {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "AesSiv(AES-SIV-{}, ..)", 2 * self.ctr.key_bits())
    }
}

impl Drop for AesSiv {
    fn drop(&mut self) {
        self.d0.zeroize();
        self.d0_dbl.zeroize();
    }
}

/// The number of S2V components before the plaintext, checked.
#[inline]
fn count_ad(nonce: Option<&[u8]>, ad: &[&[u8]]) -> Result<usize, Error> {
    let got = ad.len() + nonce.is_some() as usize;
    if got > MAX_AD { Err(Error::TooManyAd { got, max: MAX_AD }) } else { Ok(got) }
}

/// The tag at the front of a `V || C` ciphertext.
#[inline]
fn split_tag(ciphertext: &[u8]) -> Result<(Block, &[u8]), Error> {
    if ciphertext.len() < TAG_LEN {
        return Err(Error::Format("AES-SIV ciphertext is shorter than its 16-byte synthetic IV"));
    }
    let (v, c) = ciphertext.split_at(TAG_LEN);
    Ok((v.try_into().expect("16 bytes"), c))
}

#[inline]
fn check_out(out: &[u8], needed: usize) -> Result<(), Error> {
    if out.len() < needed { Err(Error::BufferTooSmall { got: out.len(), needed }) } else { Ok(()) }
}

impl AesSiv {
    /// Builds AES-SIV from a 32, 48 or 64-byte key: K1 (S2V) is the first
    /// half, K2 (CTR) the second (RFC 5297 section 2.6).
    ///
    /// ```
    /// use tessera::siv::AesSiv;
    /// assert!(AesSiv::new(&[0u8; 64]).is_ok());
    /// assert!(AesSiv::new(&[0u8; 16]).is_err());
    /// ```
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_schedules(key, Aes::new)
    }

    /// The same cipher without its AES-NI path (test hook: the portable
    /// path, all through the `aes` crate).
    #[doc(hidden)]
    pub fn new_portable(key: &[u8]) -> Result<Self, Error> {
        Self::with_schedules(key, Aes::with_crate)
    }

    /// AES-SIV over K1 and K2 as `expand` builds their schedules.
    fn with_schedules(key: &[u8], expand: fn(&[u8]) -> Result<Aes, Error>) -> Result<Self, Error> {
        if !matches!(key.len(), 32 | 48 | 64) {
            return Err(Error::KeyLength { got: key.len(), expected: "32, 48 or 64" });
        }
        let (k1, k2) = key.split_at(key.len() / 2);
        let mac = Cmac::from_aes(expand(k1)?);
        let ctr = expand(k2)?;
        let d0 = mac.mac(&[0u8; 16]);
        let d0_dbl = dbl(&d0);
        Ok(AesSiv {
            mac,
            d0,
            d0_dbl,
            #[cfg(target_arch = "x86_64")]
            ni: ctr.ni().map(|k| k.width()),
            ctr,
        })
    }

    /// The AES-NI path: the AES-NI schedules of K1 and K2, borrowed from
    /// `mac` and `ctr`, unless this is the portable cipher.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn ni(&self) -> Option<ni::SivNi<'_>> {
        let width = self.ni?;
        Some(ni::SivNi { k1: self.mac.aes().ni()?, k2: self.ctr.ni()?, width })
    }

    /// Key size in bits: 256, 384 or 512 (twice the AES key size).
    ///
    /// ```
    /// assert_eq!(tessera::siv::AesSiv::new(&[0u8; 48]).unwrap().key_bits(), 384);
    /// ```
    pub fn key_bits(&self) -> u32 {
        2 * self.ctr.key_bits()
    }

    /// S2V (RFC 5297 section 2.4) over `ad`, then `nonce` if given, then
    /// `plaintext` as the last component. Test hook: the synthetic IV V.
    #[doc(hidden)]
    pub fn s2v(&self, nonce: Option<&[u8]>, ad: &[&[u8]], plaintext: &[u8]) -> Result<Block, Error> {
        count_ad(nonce, ad)?;
        Ok(self.s2v_unchecked(nonce, ad, plaintext))
    }

    /// AES-CTR from the synthetic IV `v` over `dst` (`dst = src ^
    /// keystream`, or in place when `src` is `None`).
    ///
    /// With AES-NI, `ni.rs` runs what the backend would take one block at a
    /// time (a partial batch), and all of it with VAES.
    fn apply_ctr(&self, v: &Block, src: Option<&[u8]>, dst: &mut [u8]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(ni) = self.ni() {
            return ni.apply_ctr(&self.ctr, v, src, dst);
        }
        ctr::apply(&self.ctr, v, src, dst);
    }

    /// S2V over the plaintext (`src`, or `dst` in place) then CTR from V
    /// into `dst`; returns V. With AES-NI but not VAES-512, one kernel for
    /// 16 to 1023 bytes.
    fn seal_unchecked(&self, nonce: Option<&[u8]>, ad: &[&[u8]], src: Option<&[u8]>, dst: &mut [u8]) -> Block {
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = self.ni().and_then(|ni| ni.seal(self, nonce, ad, src, dst)) {
            return v;
        }
        let v = self.s2v_unchecked(nonce, ad, src.unwrap_or(dst));
        self.apply_ctr(&v, src, dst);
        v
    }

    /// Encrypts `plaintext` into `out` as `V || C` and returns the length
    /// written (`plaintext.len() + 16`). Allocates nothing.
    ///
    /// `ad` are the associated-data components in order; `nonce`, if any,
    /// is the last component (RFC 5297 section 3). Errors:
    /// [`Error::BufferTooSmall`], [`Error::TooManyAd`].
    ///
    /// ```
    /// use tessera::siv::AesSiv;
    /// let siv = AesSiv::new(&[7u8; 32]).unwrap();
    /// let mut out = [0u8; 64];
    /// let n = siv.seal_into(Some(b"nonce-0001"), &[b"header"], b"secret", &mut out).unwrap();
    /// assert_eq!(n, 22);
    /// let mut back = [0u8; 6];
    /// siv.open_into(Some(b"nonce-0001"), &[b"header"], &out[..n], &mut back).unwrap();
    /// assert_eq!(&back, b"secret");
    /// ```
    pub fn seal_into(
        &self,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        count_ad(nonce, ad)?;
        let n = plaintext.len() + TAG_LEN;
        check_out(out, n)?;
        let v = self.seal_unchecked(nonce, ad, Some(plaintext), &mut out[TAG_LEN..n]);
        out[..TAG_LEN].copy_from_slice(&v);
        Ok(n)
    }

    /// Encrypts `buf` in place and returns V (the detached tag; RFC 5297
    /// section 2.6 with V kept apart from C). Allocates nothing.
    ///
    /// ```
    /// use tessera::siv::AesSiv;
    /// let siv = AesSiv::new(&[7u8; 48]).unwrap();
    /// let mut buf = *b"in place";
    /// let v = siv.seal_in_place_separate_tag(None, &[], &mut buf).unwrap();
    /// siv.open_in_place_separate_tag(None, &[], &mut buf, &v).unwrap();
    /// assert_eq!(&buf, b"in place");
    /// ```
    pub fn seal_in_place_separate_tag(
        &self,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        buf: &mut [u8],
    ) -> Result<Block, Error> {
        count_ad(nonce, ad)?;
        Ok(self.seal_unchecked(nonce, ad, None, buf))
    }

    /// Encrypts in place into the `V || C` layout: `buf` holds 16 bytes of
    /// room followed by the plaintext, and receives V then C.
    ///
    /// ```
    /// use tessera::siv::AesSiv;
    /// let siv = AesSiv::new(&[7u8; 32]).unwrap();
    /// let mut buf = [0u8; 16 + 5];
    /// buf[16..].copy_from_slice(b"hello");
    /// siv.seal_in_place(None, &[], &mut buf).unwrap();
    /// assert_eq!(buf.to_vec(), siv.seal(None, &[], b"hello").unwrap());
    /// let pt = siv.open_in_place(None, &[], &mut buf).unwrap();
    /// assert_eq!(pt, b"hello");
    /// ```
    pub fn seal_in_place(&self, nonce: Option<&[u8]>, ad: &[&[u8]], buf: &mut [u8]) -> Result<(), Error> {
        if buf.len() < TAG_LEN {
            return Err(Error::BufferTooSmall { got: buf.len(), needed: TAG_LEN });
        }
        let (v, p) = buf.split_at_mut(TAG_LEN);
        v.copy_from_slice(&self.seal_in_place_separate_tag(nonce, ad, p)?);
        Ok(())
    }

    /// Encrypts `plaintext` and returns `V || C` in a new vector.
    ///
    /// ```
    /// use tessera::siv::AesSiv;
    /// let siv = AesSiv::new(&[1u8; 64]).unwrap();
    /// let ct = siv.seal(None, &[b"a", b"b"], b"message").unwrap();
    /// assert_eq!(siv.open(None, &[b"a", b"b"], &ct).unwrap(), b"message");
    /// ```
    pub fn seal(&self, nonce: Option<&[u8]>, ad: &[&[u8]], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = vec![0u8; plaintext.len() + TAG_LEN];
        self.seal_into(nonce, ad, plaintext, &mut out)?;
        Ok(out)
    }

    /// Decrypts `ciphertext` (`V || C`) into `out` and returns the plaintext
    /// length. Allocates nothing.
    ///
    /// V is recomputed over the decrypted plaintext and compared in constant
    /// time. On failure `out[..len]` is zeroed and the result is
    /// [`Error::Authentication`]: no unverified plaintext is left behind.
    ///
    /// ```
    /// use tessera::{Error, siv::AesSiv};
    /// let siv = AesSiv::new(&[3u8; 32]).unwrap();
    /// let mut ct = siv.seal(None, &[], b"attack at dawn").unwrap();
    /// ct[20] ^= 1;
    /// let mut out = [0xffu8; 14];
    /// assert_eq!(siv.open_into(None, &[], &ct, &mut out), Err(Error::Authentication));
    /// assert_eq!(out, [0u8; 14]);
    /// ```
    pub fn open_into(
        &self,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        ciphertext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        count_ad(nonce, ad)?;
        let (v, c) = split_tag(ciphertext)?;
        check_out(out, c.len())?;
        self.open_checked(nonce, ad, &v, Some(c), &mut out[..c.len()])?;
        Ok(c.len())
    }

    /// Decrypts `buf` in place given the detached tag V. On failure `buf`
    /// is zeroed and the result is [`Error::Authentication`].
    ///
    /// ```
    /// use tessera::siv::AesSiv;
    /// let siv = AesSiv::new(&[3u8; 32]).unwrap();
    /// let mut buf = *b"twelve bytes";
    /// let v = siv.seal_in_place_separate_tag(None, &[b"ad"], &mut buf).unwrap();
    /// assert!(siv.open_in_place_separate_tag(None, &[b"AD"], &mut buf.clone(), &v).is_err());
    /// siv.open_in_place_separate_tag(None, &[b"ad"], &mut buf, &v).unwrap();
    /// assert_eq!(&buf, b"twelve bytes");
    /// ```
    pub fn open_in_place_separate_tag(
        &self,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        buf: &mut [u8],
        tag: &Block,
    ) -> Result<(), Error> {
        count_ad(nonce, ad)?;
        self.open_checked(nonce, ad, tag, None, buf)
    }

    /// Decrypts `V || C` in place and returns the plaintext, which is
    /// `buf[16..]`. On failure all of `buf` is zeroed and the result is
    /// [`Error::Authentication`].
    ///
    /// ```
    /// use tessera::siv::AesSiv;
    /// let siv = AesSiv::new(&[3u8; 32]).unwrap();
    /// let mut buf = siv.seal(Some(b"n"), &[], b"row 17").unwrap();
    /// assert_eq!(siv.open_in_place(Some(b"n"), &[], &mut buf).unwrap(), b"row 17");
    /// ```
    pub fn open_in_place<'b>(
        &self,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        buf: &'b mut [u8],
    ) -> Result<&'b mut [u8], Error> {
        let (v, _) = split_tag(buf)?;
        match self.open_in_place_separate_tag(nonce, ad, &mut buf[TAG_LEN..], &v) {
            Ok(()) => Ok(&mut buf[TAG_LEN..]),
            Err(e) => {
                buf.zeroize();
                Err(e)
            }
        }
    }

    /// Decrypts `V || C` and returns the plaintext in a new vector.
    ///
    /// ```
    /// use tessera::siv::AesSiv;
    /// let siv = AesSiv::new(&[5u8; 32]).unwrap();
    /// let ct = siv.seal(None, &[], b"").unwrap();
    /// assert_eq!(ct.len(), 16);
    /// assert_eq!(siv.open(None, &[], &ct).unwrap(), b"");
    /// assert!(siv.open(None, &[], &ct[..15]).is_err());
    /// ```
    pub fn open(&self, nonce: Option<&[u8]>, ad: &[&[u8]], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = vec![0u8; ciphertext.len().saturating_sub(TAG_LEN)];
        self.open_into(nonce, ad, ciphertext, &mut out)?;
        Ok(out)
    }

    /// Decrypts into `p` (from `src`, or in place) with the counter from `v`,
    /// recomputes V over the plaintext and compares it with `v` in constant
    /// time; wipes `p` on a mismatch.
    ///
    /// With AES-NI, CTR, the chain over the plaintext and the associated
    /// data's CMAC (when there is one component) run side by side (`ni.rs`),
    /// and D, independent of the first two, only finishes the chain.
    /// Through the `aes` crate CTR runs first over the whole message, then
    /// S2V (interleaving them there, block by block or in chunks, was
    /// measured slower or no faster: the chain's latency stretched by as
    /// much as the keystream saved).
    fn open_checked(
        &self,
        nonce: Option<&[u8]>,
        ad: &[&[u8]],
        v: &Block,
        src: Option<&[u8]>,
        p: &mut [u8],
    ) -> Result<(), Error> {
        if self.open_matches(nonce, ad, v, src, p) {
            Ok(())
        } else {
            p.zeroize();
            Err(Error::Authentication)
        }
    }

    /// Decrypts into `p` with the counter from `v` and says whether S2V of
    /// the result is `v` (compared in constant time).
    fn open_matches(&self, nonce: Option<&[u8]>, ad: &[&[u8]], v: &Block, src: Option<&[u8]>, p: &mut [u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some(ni) = self.ni() {
            return ni.open_matches(self, nonce, ad, v, src, p);
        }
        ctr::apply(&self.ctr, v, src, p);
        let mut want = self.s2v_unchecked(nonce, ad, p);
        let ok = tags_equal(&want, v);
        want.zeroize();
        ok
    }
}

#[cfg(test)]
mod tests;
