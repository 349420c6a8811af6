//! The algorithm-specific fields of secret keys (RFC 9580 §5.5.5), in the
//! clear (after S2K decryption, which is the key packet layer's business).

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::legacy::{curve25519_legacy_secret, eddsa_legacy_seed, legacy_point};
use super::mpi::take_array;
use super::{Curve, Mpi, PreparedRsa, PublicMaterial, edwards, modulus, nist, pkcs1, pq};
use crate::openpgp::{Error, Result};

/// The secret part of a key. Zeroized on drop; its `Debug` shows only the
/// algorithm.
///
/// For ECDH over Curve25519Legacy the scalar is stored as the packet holds
/// it: the native X25519 secret in reversed byte order, as an MPI. For
/// EdDSALegacy it is the 32-byte Ed25519 seed as an MPI.
///
/// ```
/// use tessera::openpgp::crypto::{generate, KeyType, SecretMaterial};
/// let (public, secret) = generate(KeyType::Ed25519).unwrap();
/// let mut bytes = Vec::new();
/// secret.serialize(&mut bytes);
/// let parsed = SecretMaterial::parse(&public, &mut bytes.as_slice()).unwrap();
/// parsed.check(&public).unwrap();
/// ```
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub enum SecretMaterial {
    /// RSA: private exponent, primes p < q, and u = p⁻¹ mod q.
    Rsa {
        /// Private exponent.
        d: Mpi,
        /// First prime.
        p: Mpi,
        /// Second prime.
        q: Mpi,
        /// p⁻¹ mod q.
        u: Mpi,
        /// The decryption key built from these fields on first use (start
        /// with `PreparedRsa::default()`).
        prepared: PreparedRsa,
    },
    /// Elgamal secret exponent (decryption only).
    Elgamal {
        /// x, with y = g^x mod p.
        x: Mpi,
    },
    /// DSA secret exponent (never used to sign here).
    Dsa {
        /// x, with y = g^x mod p.
        x: Mpi,
    },
    /// ECDH secret scalar.
    Ecdh {
        /// The scalar as the packet holds it.
        scalar: Mpi,
    },
    /// ECDSA secret scalar.
    Ecdsa {
        /// The scalar.
        scalar: Mpi,
    },
    /// EdDSALegacy seed.
    EdDsaLegacy {
        /// The 32-byte seed as an MPI.
        seed: Mpi,
    },
    /// X25519 secret (native form).
    X25519([u8; 32]),
    /// X448 secret (native form).
    X448([u8; 56]),
    /// Ed25519 seed.
    Ed25519([u8; 32]),
    /// Ed448 seed.
    Ed448([u8; 57]),
    /// The secret halves of a composite key of RFC 9980: the ECC secret
    /// key, then the ML-KEM seed `d || z` (64 octets) or the ML-DSA seed ξ
    /// (32 octets).
    Composite {
        /// The X25519, X448, Ed25519 or Ed448 secret key.
        ecc: Box<[u8]>,
        /// The ML-KEM or ML-DSA seed.
        pq: Box<[u8]>,
    },
}

impl std::fmt::Debug for SecretMaterial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self {
            SecretMaterial::Rsa { .. } => "Rsa",
            SecretMaterial::Elgamal { .. } => "Elgamal",
            SecretMaterial::Dsa { .. } => "Dsa",
            SecretMaterial::Ecdh { .. } => "Ecdh",
            SecretMaterial::Ecdsa { .. } => "Ecdsa",
            SecretMaterial::EdDsaLegacy { .. } => "EdDsaLegacy",
            SecretMaterial::X25519(_) => "X25519",
            SecretMaterial::X448(_) => "X448",
            SecretMaterial::Ed25519(_) => "Ed25519",
            SecretMaterial::Ed448(_) => "Ed448",
            SecretMaterial::Composite { .. } => "Composite",
        };
        write!(f, "SecretMaterial::{name}(..)")
    }
}

impl SecretMaterial {
    /// Reads the secret fields matching `public` from the front of `input`.
    /// The fields are not checked against the public key: call
    /// [`SecretMaterial::check`].
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, SecretMaterial, generate};
    /// let (public, secret) = generate(KeyType::Ed25519)?;
    /// let bytes = secret.to_vec();
    /// let parsed = SecretMaterial::parse(&public, &mut bytes.as_slice())?;
    /// parsed.check(&public)?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn parse(public: &PublicMaterial, input: &mut &[u8]) -> Result<SecretMaterial> {
        Ok(match public {
            PublicMaterial::Rsa { .. } => {
                let d = Mpi::parse(input)?;
                let p = Mpi::parse(input)?;
                let q = Mpi::parse(input)?;
                let u = Mpi::parse(input)?;
                SecretMaterial::Rsa { d, p, q, u, prepared: PreparedRsa::default() }
            }
            PublicMaterial::Elgamal { .. } => SecretMaterial::Elgamal { x: Mpi::parse(input)? },
            PublicMaterial::Dsa { .. } => SecretMaterial::Dsa { x: Mpi::parse(input)? },
            PublicMaterial::Ecdh { .. } => SecretMaterial::Ecdh { scalar: Mpi::parse(input)? },
            PublicMaterial::Ecdsa { .. } => SecretMaterial::Ecdsa { scalar: Mpi::parse(input)? },
            PublicMaterial::EdDsaLegacy { .. } => SecretMaterial::EdDsaLegacy { seed: Mpi::parse(input)? },
            PublicMaterial::X25519(_) => SecretMaterial::X25519(take_array(input, "X25519 secret")?),
            PublicMaterial::X448(_) => SecretMaterial::X448(take_array(input, "X448 secret")?),
            PublicMaterial::Ed25519(_) => SecretMaterial::Ed25519(take_array(input, "Ed25519 secret")?),
            PublicMaterial::Ed448(_) => SecretMaterial::Ed448(take_array(input, "Ed448 secret")?),
            PublicMaterial::Composite { alg, .. } => {
                let s = pq::sizes(*alg).expect("a composite algorithm");
                let ecc = pq::take_boxed(input, s.ecc_secret, "ECC half of a composite secret key")?;
                let pq = pq::take_boxed(input, s.pq_secret, "post-quantum half of a composite secret key")?;
                SecretMaterial::Composite { ecc, pq }
            }
        })
    }

    /// Appends the secret fields as a key packet holds them in the clear.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, generate};
    /// let (_, secret) = generate(KeyType::X448)?;
    /// let mut out = Vec::new();
    /// secret.serialize(&mut out);
    /// assert_eq!(out.len(), 56);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn serialize(&self, out: &mut Vec<u8>) {
        match self {
            SecretMaterial::Rsa { d, p, q, u, .. } => {
                for m in [d, p, q, u] {
                    m.serialize(out);
                }
            }
            SecretMaterial::Ecdh { scalar } | SecretMaterial::Ecdsa { scalar } => scalar.serialize(out),
            SecretMaterial::Elgamal { x } | SecretMaterial::Dsa { x } => x.serialize(out),
            SecretMaterial::EdDsaLegacy { seed } => seed.serialize(out),
            SecretMaterial::X25519(k) | SecretMaterial::Ed25519(k) => out.extend_from_slice(k),
            SecretMaterial::X448(k) => out.extend_from_slice(k),
            SecretMaterial::Ed448(k) => out.extend_from_slice(k),
            SecretMaterial::Composite { ecc, pq } => {
                out.extend_from_slice(ecc);
                out.extend_from_slice(pq);
            }
        }
    }

    /// The serialized fields in a zeroizing vector.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, generate};
    /// let (_, secret) = generate(KeyType::Ed25519)?;
    /// assert_eq!(secret.to_vec().len(), 32); // wiped when dropped
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn to_vec(&self) -> zeroize::Zeroizing<Vec<u8>> {
        // Room for RSA-16384's d, p, q and u: the buffer never moves.
        let mut v = zeroize::Zeroizing::new(Vec::with_capacity(4 * (2 + 2048)));
        self.serialize(&mut v);
        v
    }

    /// Checks that this secret belongs to `public`: the public key derived
    /// from the secret must equal it (for RSA: p·q = n and the exponents
    /// agree). A mismatch is [`Error::KeyMismatch`].
    ///
    /// ```
    /// use tessera::openpgp::{Error, crypto::{KeyType, generate}};
    /// let (public, _) = generate(KeyType::Ed25519)?;
    /// let (_, other_secret) = generate(KeyType::Ed25519)?;
    /// assert!(matches!(other_secret.check(&public), Err(Error::KeyMismatch)));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn check(&self, public: &PublicMaterial) -> Result<()> {
        if derives(self, public)? { Ok(()) } else { Err(Error::KeyMismatch) }
    }
}

/// Whether `secret` is the secret half of `public`; errors for malformed
/// material.
fn derives(secret: &SecretMaterial, public: &PublicMaterial) -> Result<bool> {
    Ok(match (secret, public) {
        (SecretMaterial::Rsa { d, p, q, .. }, PublicMaterial::Rsa { n, e }) => {
            pkcs1::private_key(n, e, d, p, q)?;
            true
        }
        (SecretMaterial::Elgamal { x }, PublicMaterial::Elgamal { p, g, y })
        | (SecretMaterial::Dsa { x }, PublicMaterial::Dsa { p, g, y, .. }) => modulus::secret_matches(p, g, y, x)?,
        (SecretMaterial::Ecdh { scalar }, PublicMaterial::Ecdh { curve: Curve::Curve25519Legacy, point, .. }) => {
            let native = curve25519_legacy_secret(scalar)?;
            legacy_point(&edwards::x25519_public(&native)) == *point
        }
        (SecretMaterial::Ecdh { scalar }, PublicMaterial::Ecdh { curve, point, .. })
        | (SecretMaterial::Ecdsa { scalar }, PublicMaterial::Ecdsa { curve, point }) => {
            let padded = scalar.to_padded(curve.field_len(), "ECC secret scalar too long")?;
            (nist::ops(*curve)?.public)(&padded)? == point.as_bytes()
        }
        (SecretMaterial::EdDsaLegacy { seed }, PublicMaterial::EdDsaLegacy { point }) => {
            legacy_point(&edwards::ed25519_public(&*eddsa_legacy_seed(seed)?)) == *point
        }
        (SecretMaterial::X25519(s), PublicMaterial::X25519(p)) => edwards::x25519_public(s) == *p,
        (SecretMaterial::X448(s), PublicMaterial::X448(p)) => edwards::x448_public(s) == *p,
        (SecretMaterial::Ed25519(s), PublicMaterial::Ed25519(p)) => edwards::ed25519_public(s) == *p,
        (SecretMaterial::Ed448(s), PublicMaterial::Ed448(p)) => edwards::ed448_public(s) == *p,
        (SecretMaterial::Composite { ecc, pq }, PublicMaterial::Composite { alg, ecc: ecc_public, pq: pq_public }) => {
            let (e, p) = pq::public_of(*alg, ecc, pq)?;
            e == *ecc_public && p == *pq_public
        }
        _ => false,
    })
}
