//! The AEAD modes behind SEIPD v2 and SKESK v6, through
//! [`crate::aead::AeadInPlace`]: sealed and opened in place with detached
//! 16-byte tags, no allocation per call.

use crate::aead::{Aead, AeadInPlace, Mode};

use super::{AeadAlg, Error, Result, TAG_LEN};

/// One AEAD key, used for many chunks.
pub(crate) struct ChunkAead {
    inner: Aead,
}

impl std::fmt::Debug for ChunkAead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ChunkAead({:?}, ..)", self.inner.mode())
    }
}

impl ChunkAead {
    /// Expands `key` (16, 24 or 32 bytes) for `alg`.
    pub(crate) fn new(alg: AeadAlg, key: &[u8]) -> Result<Self> {
        let mode = match alg {
            AeadAlg::Eax => Mode::Eax,
            AeadAlg::Ocb => Mode::Ocb,
            AeadAlg::Gcm => Mode::Gcm,
        };
        let inner = Aead::new(mode, key).map_err(|_| Error::InvalidOption("AEAD key length"))?;
        Ok(ChunkAead { inner })
    }

    /// Encrypts `buf` in place; returns the tag. `nonce` has the mode's length.
    pub(crate) fn seal(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> [u8; TAG_LEN] {
        self.inner
            .seal_in_place_separate_tag(nonce, ad, buf)
            .expect("OpenPGP nonce lengths and chunk sizes are within the modes' limits")
    }

    /// Verifies and decrypts `buf` in place; on failure `buf` is wiped.
    pub(crate) fn open(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &[u8; TAG_LEN]) -> Result<()> {
        self.inner.open_in_place_separate_tag(nonce, ad, buf, tag).map_err(|_| Error::BadTag("AEAD"))
    }
}
