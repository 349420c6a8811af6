//! ECDSA and ECDH over NIST P-256, P-384 and P-521 (RustCrypto `p256`,
//! `p384`, `p521`), on SEC1 points and big-endian scalars.

use zeroize::Zeroizing;

use super::Curve;
use crate::openpgp::{Error, Result};

/// `(scalar, digest) -> (r, s)`.
type SignFn = fn(&[u8], &[u8]) -> Result<(Vec<u8>, Vec<u8>)>;
/// `(point, digest, r, s)`.
type VerifyFn = fn(&[u8], &[u8], &[u8], &[u8]) -> Result<()>;
/// `(scalar, point) -> x`.
type EcdhFn = fn(&[u8], &[u8]) -> Result<Zeroizing<Vec<u8>>>;

/// Operations of one NIST curve, instantiated for each crate by
/// the `nist_curve!` macro below.
pub(crate) struct Ops {
    /// Uncompressed SEC1 public point of a big-endian scalar.
    pub public: fn(&[u8]) -> Result<Vec<u8>>,
    /// ECDSA signature (r, s) of a digest (RFC 6979 deterministic nonce).
    pub sign: SignFn,
    /// Verifies (r, s) over a digest with a SEC1 point.
    pub verify: VerifyFn,
    /// The x coordinate of scalar·point.
    pub ecdh: EcdhFn,
    /// A random scalar.
    pub random_scalar: fn() -> Result<Zeroizing<Vec<u8>>>,
}

macro_rules! nist_curve {
    ($name:ident, $krate:ident) => {
        mod $name {
            use super::*;
            use $krate::ecdsa::signature::hazmat::{PrehashSigner, PrehashVerifier};

            fn secret(scalar: &[u8]) -> Result<$krate::SecretKey> {
                $krate::SecretKey::from_slice(scalar).map_err(|_| Error::Malformed("ECC secret scalar"))
            }

            fn point(sec1: &[u8]) -> Result<$krate::PublicKey> {
                $krate::PublicKey::from_sec1_bytes(sec1).map_err(|_| Error::Malformed("ECC point not on the curve"))
            }

            fn public(scalar: &[u8]) -> Result<Vec<u8>> {
                let p = secret(scalar)?.public_key();
                Ok($krate::ecdsa::VerifyingKey::from(p).to_sec1_point(false).as_bytes().to_vec())
            }

            fn sign(scalar: &[u8], digest: &[u8]) -> Result<(Vec<u8>, Vec<u8>)> {
                let key = $krate::ecdsa::SigningKey::from(secret(scalar)?);
                let sig: $krate::ecdsa::Signature =
                    key.sign_prehash(digest).map_err(|_| Error::InvalidOption("digest too short for ECDSA"))?;
                let (r, s) = sig.split_bytes();
                Ok((r.to_vec(), s.to_vec()))
            }

            fn verify(sec1: &[u8], digest: &[u8], r: &[u8], s: &[u8]) -> Result<()> {
                let key = $krate::ecdsa::VerifyingKey::from(point(sec1)?);
                let mut rb = $krate::FieldBytes::default();
                let mut sb = $krate::FieldBytes::default();
                let n = rb.len();
                if r.len() > n || s.len() > n {
                    return Err(Error::BadSignature);
                }
                rb[n - r.len()..].copy_from_slice(r);
                sb[n - s.len()..].copy_from_slice(s);
                let sig = $krate::ecdsa::Signature::from_scalars(rb, sb).map_err(|_| Error::BadSignature)?;
                key.verify_prehash(digest, &sig).map_err(|_| Error::BadSignature)
            }

            fn ecdh(scalar: &[u8], sec1: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
                let shared = secret(scalar)?.diffie_hellman(&point(sec1)?);
                Ok(Zeroizing::new(shared.raw_secret_bytes().to_vec()))
            }

            fn random_scalar() -> Result<Zeroizing<Vec<u8>>> {
                use $krate::elliptic_curve::Generate as _;
                let key =
                    $krate::SecretKey::try_generate_from_rng(&mut getrandom::SysRng).map_err(|_| Error::Random)?;
                Ok(Zeroizing::new(key.to_bytes().to_vec()))
            }

            pub(crate) const OPS: Ops = Ops { public, sign, verify, ecdh, random_scalar };
        }
    };
}

nist_curve!(nist_p256, p256);
nist_curve!(nist_p384, p384);
nist_curve!(nist_p521, p521);

/// The operations of a NIST curve; other curves are an error.
pub(crate) fn ops(curve: Curve) -> Result<&'static Ops> {
    match curve {
        Curve::NistP256 => Ok(&nist_p256::OPS),
        Curve::NistP384 => Ok(&nist_p384::OPS),
        Curve::NistP521 => Ok(&nist_p521::OPS),
        _ => Err(Error::UnsupportedCurve),
    }
}
