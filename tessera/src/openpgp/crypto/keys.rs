//! Key generation.

use zeroize::Zeroizing;

use super::legacy::legacy_point;
use super::{Curve, HashAlg, Mpi, PreparedRsa, PublicKeyAlg, PublicMaterial, SecretMaterial};
use super::{edwards, nist, pkcs1, pq};
use crate::openpgp::{Error, Result, SymAlg, random};

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
    /// ML-DSA-65+Ed25519 (RFC 9980; v6 signing key).
    MlDsa65Ed25519,
    /// ML-DSA-87+Ed448 (RFC 9980; v6 signing key).
    MlDsa87Ed448,
    /// SLH-DSA-SHAKE-128s (RFC 9980; v6 signing key).
    SlhDsaShake128s,
    /// SLH-DSA-SHAKE-128f (RFC 9980; v6 signing key).
    SlhDsaShake128f,
    /// SLH-DSA-SHAKE-256s (RFC 9980; v6 signing key).
    SlhDsaShake256s,
    /// ML-KEM-768+X25519 (RFC 9980; v6 or v4 encryption key).
    MlKem768X25519,
    /// ML-KEM-1024+X448 (RFC 9980; v6 encryption key).
    MlKem1024X448,
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
            let s = clamped(random_array::<32>()?);
            (PublicMaterial::X25519(edwards::x25519_public(&s)), SecretMaterial::X25519(*s))
        }
        KeyType::X448 => {
            let s = clamped(random_array::<56>()?);
            (PublicMaterial::X448(edwards::x448_public(&s)), SecretMaterial::X448(*s))
        }
        KeyType::EdDsaLegacy => {
            let seed = random_array::<32>()?;
            let point = legacy_point(&edwards::ed25519_public(&seed));
            (PublicMaterial::EdDsaLegacy { point }, SecretMaterial::EdDsaLegacy { seed: Mpi::new(&*seed) })
        }
        KeyType::EcdhCurve25519Legacy => {
            let s = clamped(random_array::<32>()?);
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
        KeyType::MlDsa65Ed25519 => composite(PublicKeyAlg::MlDsa65Ed25519)?,
        KeyType::MlDsa87Ed448 => composite(PublicKeyAlg::MlDsa87Ed448)?,
        KeyType::SlhDsaShake128s => composite(PublicKeyAlg::SlhDsaShake128s)?,
        KeyType::SlhDsaShake128f => composite(PublicKeyAlg::SlhDsaShake128f)?,
        KeyType::SlhDsaShake256s => composite(PublicKeyAlg::SlhDsaShake256s)?,
        KeyType::MlKem768X25519 => composite(PublicKeyAlg::MlKem768X25519)?,
        KeyType::MlKem1024X448 => composite(PublicKeyAlg::MlKem1024X448)?,
    })
}

/// A key of RFC 9980: a random ECC secret (clamped for X25519 and X448, as
/// their secrets are written) and a random ML-KEM or ML-DSA seed, the form
/// RFC 9980 stores; or an SLH-DSA secret key (no ECC half).
fn composite(alg: PublicKeyAlg) -> Result<(PublicMaterial, SecretMaterial)> {
    let sizes = pq::sizes(alg).ok_or(Error::InvalidOption("not a composite algorithm"))?;
    let mut ecc = Zeroizing::new(vec![0u8; sizes.ecc_secret]);
    random(&mut ecc)?;
    let seed = if sizes.ecc_secret == 0 {
        pq::slh_generate(alg)?
    } else {
        let mut seed = Zeroizing::new(vec![0u8; sizes.pq_secret]);
        random(&mut seed)?;
        seed
    };
    if alg.can_encrypt() {
        clamp(&mut ecc);
    }
    let (ecc_public, pq_public) = pq::public_of(alg, &ecc, &seed)?;
    let secret = SecretMaterial::Composite { ecc: ecc.as_slice().into(), pq: seed.as_slice().into() };
    Ok((PublicMaterial::Composite { alg, ecc: ecc_public, pq: pq_public }, secret))
}

/// Clamps an X25519 (32-octet) or X448 (56-octet) secret as RFC 7748 §5
/// decodes it.
fn clamp(s: &mut [u8]) {
    let last = s.len() - 1;
    if s.len() == 32 {
        s[0] &= 248;
        s[last] &= 127;
        s[last] |= 64;
    } else {
        s[0] &= 252;
        s[last] |= 128;
    }
}

fn clamped<const N: usize>(mut s: Zeroizing<[u8; N]>) -> Zeroizing<[u8; N]> {
    clamp(s.as_mut_slice());
    s
}
