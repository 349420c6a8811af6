//! The AEAD modes behind SEIPD v2 and SKESK v6, seen through one in-place
//! interface with detached 16-byte tags.
//!
//! TEMPORARY backend: the RustCrypto `ocb3`, `eax` and `aes-gcm` crates,
//! until `tessera::aead` lands; only this file changes when it does.

use aes_gcm::aead::array::Array;
use aes_gcm::aead::consts::{U12, U15};
use aes_gcm::aead::{AeadInOut, KeyInit};

use super::{AeadAlg, Error, Result, TAG_LEN};

type Ocb<C> = ocb3::Ocb3<C, U15>;
type Eax<C> = eax::Eax<C>;
type Gcm<C> = aes_gcm::AesGcm<C, U12>;

enum Inner {
    Ocb128(Box<Ocb<aes::Aes128>>),
    Ocb192(Box<Ocb<aes::Aes192>>),
    Ocb256(Box<Ocb<aes::Aes256>>),
    Eax128(Box<Eax<aes::Aes128>>),
    Eax192(Box<Eax<aes::Aes192>>),
    Eax256(Box<Eax<aes::Aes256>>),
    Gcm128(Box<Gcm<aes::Aes128>>),
    Gcm192(Box<Gcm<aes::Aes192>>),
    Gcm256(Box<Gcm<aes::Aes256>>),
}

/// One AEAD key, used for many chunks.
pub(crate) struct ChunkAead {
    inner: Inner,
    alg: AeadAlg,
}

impl std::fmt::Debug for ChunkAead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ChunkAead({:?}, ..)", self.alg)
    }
}

macro_rules! dispatch {
    ($self:expr, $c:ident => $e:expr) => {
        match &$self.inner {
            Inner::Ocb128($c) => $e,
            Inner::Ocb192($c) => $e,
            Inner::Ocb256($c) => $e,
            Inner::Eax128($c) => $e,
            Inner::Eax192($c) => $e,
            Inner::Eax256($c) => $e,
            Inner::Gcm128($c) => $e,
            Inner::Gcm192($c) => $e,
            Inner::Gcm256($c) => $e,
        }
    };
}

fn mk<A: KeyInit>(key: &[u8]) -> Box<A> {
    Box::new(A::new_from_slice(key).expect("key length checked"))
}

impl ChunkAead {
    /// Expands `key` (16, 24 or 32 bytes) for `alg`.
    pub(crate) fn new(alg: AeadAlg, key: &[u8]) -> Result<Self> {
        let inner = match (alg, key.len()) {
            (AeadAlg::Ocb, 16) => Inner::Ocb128(mk(key)),
            (AeadAlg::Ocb, 24) => Inner::Ocb192(mk(key)),
            (AeadAlg::Ocb, 32) => Inner::Ocb256(mk(key)),
            (AeadAlg::Eax, 16) => Inner::Eax128(mk(key)),
            (AeadAlg::Eax, 24) => Inner::Eax192(mk(key)),
            (AeadAlg::Eax, 32) => Inner::Eax256(mk(key)),
            (AeadAlg::Gcm, 16) => Inner::Gcm128(mk(key)),
            (AeadAlg::Gcm, 24) => Inner::Gcm192(mk(key)),
            (AeadAlg::Gcm, 32) => Inner::Gcm256(mk(key)),
            _ => return Err(Error::InvalidOption("AEAD key length")),
        };
        Ok(ChunkAead { inner, alg })
    }

    /// Encrypts `buf` in place; returns the tag. `nonce` has the mode's length.
    pub(crate) fn seal(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> [u8; TAG_LEN] {
        debug_assert_eq!(nonce.len(), self.alg.nonce_len());
        dispatch!(self, c => {
            let n = Array::try_from(nonce).expect("nonce length");
            c.encrypt_inout_detached(&n, ad, buf.into()).expect("chunk within AEAD limits").into()
        })
    }

    /// Verifies and decrypts `buf` in place; on failure `buf` is wiped.
    pub(crate) fn open(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &[u8; TAG_LEN]) -> Result<()> {
        debug_assert_eq!(nonce.len(), self.alg.nonce_len());
        let ok = dispatch!(self, c => {
            let n = Array::try_from(nonce).expect("nonce length");
            c.decrypt_inout_detached(&n, ad, buf.into(), &Array::from(*tag)).is_ok()
        });
        if ok {
            Ok(())
        } else {
            buf.fill(0);
            Err(Error::BadTag("AEAD"))
        }
    }
}
