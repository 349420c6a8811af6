//! The algorithm-specific fields of signatures (RFC 9580 §5.2.3).

use super::mpi::take_array;
use super::{Mpi, PublicKeyAlg, pq};
use crate::openpgp::{Error, Result};

/// The algorithm-specific part of a signature packet (what follows the
/// two-octet hash prefix, and for v6 the salt).
///
/// ```
/// use tessera::openpgp::crypto::{PublicKeyAlg, SigMaterial};
/// let raw = [5u8; 64];
/// let sig = SigMaterial::parse(PublicKeyAlg::Ed25519, &mut raw.as_slice()).unwrap();
/// let mut out = Vec::new();
/// sig.serialize(&mut out);
/// assert_eq!(out, raw);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum SigMaterial {
    /// RSA PKCS#1 v1.5: `m^d mod n`.
    Rsa {
        /// The signature value.
        s: Mpi,
    },
    /// DSA (r, s).
    Dsa {
        /// r.
        r: Mpi,
        /// s.
        s: Mpi,
    },
    /// ECDSA (r, s).
    Ecdsa {
        /// r.
        r: Mpi,
        /// s.
        s: Mpi,
    },
    /// EdDSALegacy: the two halves of the Ed25519 signature as MPIs.
    EdDsaLegacy {
        /// R, the first 32 bytes of the native signature.
        r: Mpi,
        /// S, the last 32 bytes.
        s: Mpi,
    },
    /// Ed25519 native signature.
    Ed25519([u8; 64]),
    /// Ed448 native signature.
    Ed448([u8; 114]),
    /// A composite signature (RFC 9980 §5.2): the EdDSA signature, then
    /// the ML-DSA signature, each of its algorithm's fixed size.
    Composite {
        /// The Ed25519 or Ed448 signature.
        ecc: Box<[u8]>,
        /// The ML-DSA signature.
        pq: Box<[u8]>,
    },
}

impl std::fmt::Debug for SigMaterial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self {
            SigMaterial::Rsa { .. } => "Rsa",
            SigMaterial::Dsa { .. } => "Dsa",
            SigMaterial::Ecdsa { .. } => "Ecdsa",
            SigMaterial::EdDsaLegacy { .. } => "EdDsaLegacy",
            SigMaterial::Ed25519(_) => "Ed25519",
            SigMaterial::Ed448(_) => "Ed448",
            SigMaterial::Composite { .. } => "Composite",
        };
        write!(f, "SigMaterial::{name}(..)")
    }
}

impl SigMaterial {
    /// Reads the fields of a signature made with `alg` from the front of
    /// `input`.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{PublicKeyAlg, SigMaterial};
    /// let mut input: &[u8] = &[5u8; 64];
    /// assert_eq!(SigMaterial::parse(PublicKeyAlg::Ed25519, &mut input)?, SigMaterial::Ed25519([5; 64]));
    /// assert!(SigMaterial::parse(PublicKeyAlg::X25519, &mut &[5u8; 64][..]).is_err()); // cannot sign
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn parse(alg: PublicKeyAlg, input: &mut &[u8]) -> Result<SigMaterial> {
        Ok(match alg {
            PublicKeyAlg::Rsa | PublicKeyAlg::RsaSignOnly => SigMaterial::Rsa { s: Mpi::parse(input)? },
            PublicKeyAlg::Ecdsa => {
                let r = Mpi::parse(input)?;
                let s = Mpi::parse(input)?;
                SigMaterial::Ecdsa { r, s }
            }
            PublicKeyAlg::Dsa => {
                let r = Mpi::parse(input)?;
                let s = Mpi::parse(input)?;
                SigMaterial::Dsa { r, s }
            }
            PublicKeyAlg::EdDsaLegacy => {
                let r = Mpi::parse(input)?;
                let s = Mpi::parse(input)?;
                if r.as_bytes().len() > 32 || s.as_bytes().len() > 32 {
                    return Err(Error::Malformed("EdDSALegacy signature value longer than 32 bytes"));
                }
                SigMaterial::EdDsaLegacy { r, s }
            }
            PublicKeyAlg::Ed25519 => SigMaterial::Ed25519(take_array(input, "Ed25519 signature")?),
            PublicKeyAlg::Ed448 => SigMaterial::Ed448(take_array(input, "Ed448 signature")?),
            alg if alg.is_post_quantum() && alg.can_sign() => {
                let s = pq::sizes(alg).ok_or(Error::UnsupportedPublicKeyAlg(alg.id()))?;
                let ecc = pq::take_boxed(input, s.ecc_out, "EdDSA half of a composite signature")?;
                let pq = pq::take_boxed(input, s.pq_out, "ML-DSA half of a composite signature")?;
                SigMaterial::Composite { ecc, pq }
            }
            _ => return Err(Error::Malformed("signature by an encryption-only algorithm")),
        })
    }

    /// Appends the fields as a signature packet holds them.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{HashAlg, Hasher, KeyType, generate, sign};
    /// let (public, secret) = generate(KeyType::Ed25519)?;
    /// let sig = sign(&secret, &public, HashAlg::Sha256, &Hasher::digest(HashAlg::Sha256, b"x"))?;
    /// let mut out = Vec::new();
    /// sig.serialize(&mut out);
    /// assert_eq!(out.len(), 64);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn serialize(&self, out: &mut Vec<u8>) {
        match self {
            SigMaterial::Rsa { s } => s.serialize(out),
            SigMaterial::Dsa { r, s } | SigMaterial::Ecdsa { r, s } | SigMaterial::EdDsaLegacy { r, s } => {
                r.serialize(out);
                s.serialize(out);
            }
            SigMaterial::Ed25519(b) => out.extend_from_slice(b),
            SigMaterial::Ed448(b) => out.extend_from_slice(b),
            SigMaterial::Composite { ecc, pq } => {
                out.extend_from_slice(ecc);
                out.extend_from_slice(pq);
            }
        }
    }

    /// The serialized fields as a new vector.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{Mpi, SigMaterial};
    /// let sig = SigMaterial::Ecdsa { r: Mpi::new(&[1]), s: Mpi::new(&[2]) };
    /// assert_eq!(sig.to_vec(), [0, 1, 1, 0, 2, 2]);
    /// ```
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.serialize(&mut v);
        v
    }
}
