//! Signing and verifying a digest (RFC 9580 §5.2.3, §5.2.4): the packet
//! layer hashes the data and the signature trailer; this signs the result.

use super::legacy::eddsa_legacy_seed;
use super::{HashAlg, Mpi, PublicMaterial, SecretMaterial, SigMaterial};
use super::{dsa, edwards, nist, pkcs1, pq};
use crate::openpgp::{Error, Result};

fn check_digest(hash: HashAlg, digest: &[u8]) -> Result<()> {
    if digest.len() == hash.digest_len() {
        Ok(())
    } else {
        Err(Error::InvalidOption("digest length does not match its hash algorithm"))
    }
}

fn split_legacy_sig(r: &Mpi, s: &Mpi) -> Result<[u8; 64]> {
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(&r.to_padded(32, "EdDSALegacy r").map_err(|_| Error::BadSignature)?);
    sig[32..].copy_from_slice(&s.to_padded(32, "EdDSALegacy s").map_err(|_| Error::BadSignature)?);
    Ok(sig)
}

fn legacy_native(point: &Mpi) -> Result<[u8; 32]> {
    match point.as_bytes() {
        [0x40, rest @ ..] if rest.len() == 32 => Ok(rest.try_into().expect("checked length")),
        _ => Err(Error::Malformed("bad elliptic curve point encoding")),
    }
}

/// Verifies `sig` over `digest` (made with `hash`) with `public`.
///
/// A signature that does not verify, or that is for another algorithm, is
/// [`Error::BadSignature`]; a malformed key is [`Error::Malformed`]; an
/// RSA or DSA key under 2048 bits is [`Error::KeyTooSmall`].
/// Whether `hash` is acceptable (SHA-1...) is the caller's policy; the
/// digest length must match `hash`.
///
/// ```
/// use tessera::openpgp::crypto::{generate, sign, verify, HashAlg, Hasher, KeyType};
/// let (public, secret) = generate(KeyType::Ed448).unwrap();
/// let digest = Hasher::digest(HashAlg::Sha512, b"data");
/// let sig = sign(&secret, &public, HashAlg::Sha512, &digest).unwrap();
/// verify(&public, HashAlg::Sha512, &digest, &sig).unwrap();
/// let other = Hasher::digest(HashAlg::Sha512, b"date");
/// assert!(verify(&public, HashAlg::Sha512, &other, &sig).is_err());
/// ```
pub fn verify(public: &PublicMaterial, hash: HashAlg, digest: &[u8], sig: &SigMaterial) -> Result<()> {
    check_digest(hash, digest)?;
    VERIFICATIONS.with(|v| v.set(v.get() + 1));
    match (public, sig) {
        (PublicMaterial::Rsa { n, e }, SigMaterial::Rsa { s }) => pkcs1::verify(n, e, hash, digest, s),
        (PublicMaterial::Dsa { p, q, g, y }, SigMaterial::Dsa { r, s }) => {
            dsa::verify([p, q, g, y], hash, digest, r, s)
        }
        (PublicMaterial::Ecdsa { curve, point }, SigMaterial::Ecdsa { r, s }) => {
            (nist::ops(*curve)?.verify)(point.as_bytes(), digest, r.as_bytes(), s.as_bytes())
        }
        (PublicMaterial::EdDsaLegacy { point }, SigMaterial::EdDsaLegacy { r, s }) => {
            edwards::ed25519_verify(&legacy_native(point)?, digest, &split_legacy_sig(r, s)?)
        }
        (PublicMaterial::Ed25519(k), SigMaterial::Ed25519(s)) => edwards::ed25519_verify(k, digest, s),
        (PublicMaterial::Ed448(k), SigMaterial::Ed448(s)) => edwards::ed448_verify(k, digest, s),
        (PublicMaterial::Composite { alg, ecc, pq }, SigMaterial::Composite { ecc: ecc_sig, pq: pq_sig }) => {
            pq::verify(*alg, (ecc, pq), digest, (ecc_sig, pq_sig))
        }
        _ => Err(Error::BadSignature),
    }
}

thread_local! {
    static VERIFICATIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many public-key signature checks [`verify`] has run on this thread:
/// what tests and diagnostics count to see that the work a certificate or
/// message causes is bounded.
///
/// ```
/// use tessera::openpgp::crypto::{generate, sign, verify, verifications_on_this_thread, HashAlg, Hasher, KeyType};
/// let (public, secret) = generate(KeyType::Ed25519).unwrap();
/// let digest = Hasher::digest(HashAlg::Sha256, b"data");
/// let sig = sign(&secret, &public, HashAlg::Sha256, &digest).unwrap();
/// let before = verifications_on_this_thread();
/// verify(&public, HashAlg::Sha256, &digest, &sig).unwrap();
/// assert_eq!(verifications_on_this_thread(), before + 1);
/// ```
pub fn verifications_on_this_thread() -> u64 {
    VERIFICATIONS.with(|v| v.get())
}

/// Signs `digest` (made with `hash`) with `secret`, whose public half is
/// `public`. Ed25519 and Ed448 sign the digest in RFC 8032's pure mode;
/// ECDSA uses RFC 6979 nonces; RSA uses PKCS#1 v1.5 with the DigestInfo of
/// `hash`. The secret is not checked against `public` here (do it once
/// with [`SecretMaterial::check`] when the key is loaded).
///
/// ```
/// use tessera::openpgp::crypto::{generate, sign, verify, HashAlg, Hasher, KeyType};
/// let (public, secret) = generate(KeyType::EdDsaLegacy).unwrap();
/// let digest = Hasher::digest(HashAlg::Sha256, b"data");
/// let sig = sign(&secret, &public, HashAlg::Sha256, &digest).unwrap();
/// verify(&public, HashAlg::Sha256, &digest, &sig).unwrap();
/// ```
pub fn sign(secret: &SecretMaterial, public: &PublicMaterial, hash: HashAlg, digest: &[u8]) -> Result<SigMaterial> {
    check_digest(hash, digest)?;
    Ok(match (secret, public) {
        (SecretMaterial::Rsa { d, p, q, prepared, .. }, PublicMaterial::Rsa { n, e }) => {
            SigMaterial::Rsa { s: pkcs1::sign(prepared, [n, e, d, p, q], hash, digest)? }
        }
        (SecretMaterial::Ecdsa { scalar }, PublicMaterial::Ecdsa { curve, .. }) => {
            let padded = scalar.to_padded(curve.field_len(), "ECC secret scalar too long")?;
            let (r, s) = (nist::ops(*curve)?.sign)(&padded, digest)?;
            SigMaterial::Ecdsa { r: Mpi::new(&r), s: Mpi::new(&s) }
        }
        (SecretMaterial::EdDsaLegacy { seed }, PublicMaterial::EdDsaLegacy { .. }) => {
            let sig = edwards::ed25519_sign(&*eddsa_legacy_seed(seed)?, digest);
            SigMaterial::EdDsaLegacy { r: Mpi::new(&sig[..32]), s: Mpi::new(&sig[32..]) }
        }
        (SecretMaterial::Ed25519(seed), PublicMaterial::Ed25519(_)) => {
            SigMaterial::Ed25519(edwards::ed25519_sign(seed, digest))
        }
        (SecretMaterial::Ed448(seed), PublicMaterial::Ed448(_)) => {
            SigMaterial::Ed448(edwards::ed448_sign(seed, digest))
        }
        (SecretMaterial::Composite { ecc, pq }, PublicMaterial::Composite { alg, .. }) => {
            let (ecc, pq) = pq::sign(*alg, (ecc, pq), digest)?;
            SigMaterial::Composite { ecc, pq }
        }
        (SecretMaterial::Dsa { .. }, _) => return Err(Error::Unsupported("signing with DSA (verification only)")),
        _ => return Err(Error::InvalidOption("this key cannot sign")),
    })
}
