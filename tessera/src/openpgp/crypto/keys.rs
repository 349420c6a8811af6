//! Key generation.

use zeroize::Zeroizing;

use super::legacy::legacy_point;
use super::{Curve, HashAlg, Mpi, PreparedRsa, PublicMaterial, SecretMaterial};
use super::{edwards, nist, pkcs1};
use crate::openpgp::{Result, SymAlg, random};

/// What [`generate`] makes.
///
/// ```
/// use tessera::openpgp::crypto::{KeyType, PublicKeyAlg, generate};
/// let (public, secret) = generate(KeyType::X25519)?;
/// assert_eq!(public.alg(), PublicKeyAlg::X25519);
/// secret.check(&public)?;
/// assert!(generate(KeyType::Rsa(1024)).is_err()); // below 2048 bits
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyType {
    /// Ed25519 (v6 signing key).
    Ed25519,
    /// Ed448 (v6 signing key).
    Ed448,
    /// X25519 (v6 encryption key).
    X25519,
    /// X448 (v6 encryption key).
    X448,
    /// EdDSALegacy over Ed25519Legacy (v4 signing key).
    EdDsaLegacy,
    /// ECDH over Curve25519Legacy (v4 encryption key), KDF SHA-256 and AES-128.
    EcdhCurve25519Legacy,
    /// ECDSA over a NIST curve.
    Ecdsa(Curve),
    /// ECDH over a NIST curve, with the KDF RFC 9580 §11.5 names for it.
    Ecdh(Curve),
    /// RSA with this modulus size in bits (2048..=8192, e = 65537).
    Rsa(usize),
}

fn random_array<const N: usize>() -> Result<Zeroizing<[u8; N]>> {
    let mut a = Zeroizing::new([0u8; N]);
    random(a.as_mut_slice())?;
    Ok(a)
}

/// The KDF hash and wrap cipher for ECDH keys on `curve` (RFC 9580 §11.5).
fn ecdh_kdf(curve: Curve) -> (HashAlg, SymAlg) {
    match curve {
        Curve::NistP384 => (HashAlg::Sha384, SymAlg::Aes192),
        Curve::NistP521 => (HashAlg::Sha512, SymAlg::Aes256),
        _ => (HashAlg::Sha256, SymAlg::Aes128),
    }
}

/// Generates a key pair with the operating system's random generator.
///
/// ```
/// use tessera::openpgp::crypto::{generate, Curve, KeyType, PublicMaterial};
/// let (public, secret) = generate(KeyType::Ecdh(Curve::NistP256)).unwrap();
/// assert!(matches!(public, PublicMaterial::Ecdh { curve: Curve::NistP256, .. }));
/// secret.check(&public).unwrap();
/// ```
pub fn generate(kind: KeyType) -> Result<(PublicMaterial, SecretMaterial)> {
    Ok(match kind {
        KeyType::Ed25519 => {
            let seed = random_array::<32>()?;
            (PublicMaterial::Ed25519(edwards::ed25519_public(&seed)), SecretMaterial::Ed25519(*seed))
        }
        KeyType::Ed448 => {
            let seed = random_array::<57>()?;
            (PublicMaterial::Ed448(edwards::ed448_public(&seed)), SecretMaterial::Ed448(*seed))
        }
        KeyType::X25519 => {
            let s = clamp25519(random_array::<32>()?);
            (PublicMaterial::X25519(edwards::x25519_public(&s)), SecretMaterial::X25519(*s))
        }
        KeyType::X448 => {
            let mut s = random_array::<56>()?;
            s[0] &= 252;
            s[55] |= 128;
            (PublicMaterial::X448(edwards::x448_public(&s)), SecretMaterial::X448(*s))
        }
        KeyType::EdDsaLegacy => {
            let seed = random_array::<32>()?;
            let point = legacy_point(&edwards::ed25519_public(&seed));
            (PublicMaterial::EdDsaLegacy { point }, SecretMaterial::EdDsaLegacy { seed: Mpi::new(&*seed) })
        }
        KeyType::EcdhCurve25519Legacy => {
            let s = clamp25519(random_array::<32>()?);
            let point = legacy_point(&edwards::x25519_public(&s));
            let mut reversed = Zeroizing::new(*s);
            reversed.reverse();
            let (kdf_hash, kdf_sym) = ecdh_kdf(Curve::Curve25519Legacy);
            let public = PublicMaterial::Ecdh { curve: Curve::Curve25519Legacy, point, kdf_hash, kdf_sym };
            (public, SecretMaterial::Ecdh { scalar: Mpi::new(&*reversed) })
        }
        KeyType::Ecdsa(curve) | KeyType::Ecdh(curve) => {
            let ops = nist::ops(curve)?;
            let scalar = (ops.random_scalar)()?;
            let point = Mpi::new(&(ops.public)(&scalar)?);
            let scalar = Mpi::new(&scalar);
            if let KeyType::Ecdsa(_) = kind {
                (PublicMaterial::Ecdsa { curve, point }, SecretMaterial::Ecdsa { scalar })
            } else {
                let (kdf_hash, kdf_sym) = ecdh_kdf(curve);
                (PublicMaterial::Ecdh { curve, point, kdf_hash, kdf_sym }, SecretMaterial::Ecdh { scalar })
            }
        }
        KeyType::Rsa(bits) => {
            let [n, e, d, p, q, u] = pkcs1::generate(bits)?;
            (PublicMaterial::Rsa { n, e }, SecretMaterial::Rsa { d, p, q, u, prepared: PreparedRsa::default() })
        }
    })
}

fn clamp25519(mut s: Zeroizing<[u8; 32]>) -> Zeroizing<[u8; 32]> {
    s[0] &= 248;
    s[31] &= 127;
    s[31] |= 64;
    s
}
