//! Checking signatures against keys, with the policy that decides which
//! signatures count at all.
//!
//! Policy (documented in SECURITY.md): a signature is refused when it has an
//! unknown critical subpacket in its hashed area, no creation time, a
//! version other than its signer's key version, or a SHA-1 hash — except a
//! SHA-1 key binding or certification made before 2023-02-01, which old v4
//! keys still carry (the date Sequoia and GnuPG also use).

use super::super::Result;
use super::super::crypto::{self, HashAlg};
use super::super::key::{KeyError, PublicKey};
use super::hashing::{binding_digest, certification_digest, direct_key_digest};
use super::packet::{SigType, Signature};

/// SHA-1 self-signatures made before this time (2023-02-01) are accepted.
pub const SHA1_BINDING_CUTOFF: u32 = 1_675_209_600;

fn bad(why: &'static str) -> super::super::Error {
    KeyError::BadSignature(why).into()
}

impl Signature {
    /// Checks the policy and then `digest` (computed by one of the
    /// [`super::hashing`] rules) against `signer`.
    pub fn verify_digest(&self, signer: &PublicKey, digest: &[u8]) -> Result<()> {
        if self.unknown_critical().is_some() {
            return Err(bad("it has a critical subpacket that is not understood"));
        }
        let created = self.created().ok_or_else(|| bad("it has no creation time"))?;
        if signer.version().id() != self.version {
            return Err(bad("its version differs from its signer's key version"));
        }
        if self.pk_alg != signer.alg() {
            return Err(bad("its algorithm differs from its signer's"));
        }
        if self.hash_alg == HashAlg::Sha1 {
            let binding = !matches!(self.sig_type, SigType::Binary | SigType::Text | SigType::Other(_));
            if !binding || created >= SHA1_BINDING_CUTOFF {
                return Err(bad("SHA-1 is refused (except for key bindings made before 2023-02-01)"));
            }
        }
        if digest.get(..2) != Some(&self.digest_prefix[..]) {
            return Err(bad("the digest does not match"));
        }
        crypto::verify(signer.material(), self.hash_alg, digest, &self.material)
            .map_err(|_| bad("the signature does not verify"))
    }

    fn expect_type(&self, ok: bool) -> Result<()> {
        if ok { Ok(()) } else { Err(bad("unexpected signature type")) }
    }

    /// A direct key (0x1F) or key revocation (0x20) signature by `primary`.
    pub fn verify_direct_key(&self, primary: &PublicKey) -> Result<()> {
        self.expect_type(matches!(self.sig_type, SigType::DirectKey | SigType::KeyRevocation))?;
        self.verify_digest(primary, &direct_key_digest(&self.hashed_fields(), primary))
    }

    /// A certification (0x10-0x13) or certification revocation (0x30) of
    /// `user_id` on `primary`, made by `primary`.
    pub fn verify_certification(&self, primary: &PublicKey, user_id: &[u8]) -> Result<()> {
        self.expect_type(matches!(self.sig_type, SigType::Certification(_) | SigType::CertificationRevocation))?;
        self.verify_digest(primary, &certification_digest(&self.hashed_fields(), primary, user_id))
    }

    /// A subkey binding (0x18) or subkey revocation (0x28) by `primary`.
    pub fn verify_subkey_binding(&self, primary: &PublicKey, subkey: &PublicKey) -> Result<()> {
        self.expect_type(matches!(self.sig_type, SigType::SubkeyBinding | SigType::SubkeyRevocation))?;
        self.verify_digest(primary, &binding_digest(&self.hashed_fields(), primary, subkey))
    }

    /// A primary key binding (0x19, the back-signature embedded in a signing
    /// subkey's binding), made by `subkey`.
    pub fn verify_primary_key_binding(&self, primary: &PublicKey, subkey: &PublicKey) -> Result<()> {
        self.expect_type(self.sig_type == SigType::PrimaryKeyBinding)?;
        self.verify_digest(subkey, &binding_digest(&self.hashed_fields(), primary, subkey))
    }

    /// Whether the signature has expired at `now` (or was made after it).
    pub fn is_live_at(&self, now: u64) -> bool {
        let Some(created) = self.created() else { return false };
        if u64::from(created) > now {
            return false;
        }
        match self.sig_expiration() {
            Some(e) if e != 0 => now < u64::from(created) + u64::from(e),
            _ => true,
        }
    }
}
