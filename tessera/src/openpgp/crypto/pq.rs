//! RFC 9980's algorithms: ML-KEM-768+X25519 (35) and ML-KEM-1024+X448 (36)
//! session-key encryption, ML-DSA-65+Ed25519 (30) and ML-DSA-87+Ed448 (31)
//! composite signatures, and SLH-DSA-SHAKE-128s/128f/256s (32-34)
//! standalone signatures. The post-quantum parts are RustCrypto's `ml-kem`
//! (FIPS 203), `ml-dsa` (FIPS 204) and `slh-dsa` (FIPS 205); the
//! traditional halves are the curve helpers of [`super::edwards`]. Every
//! field has a fixed size, the traditional half first (SLH-DSA has none:
//! its ECC half is empty).

use ml_dsa::{
    EncodedSignature, EncodedVerifyingKey, MlDsa65, MlDsa87, MlDsaParams, Signature, SigningKey, VerifyingKey,
};
use ml_kem::{Decapsulate, Encapsulate, KeyExport};
use sha3::Digest as _;
use zeroize::Zeroizing;

use super::{PublicKeyAlg, edwards};
use crate::openpgp::{Error, Result, random};

/// The octet sizes of one algorithm's fields: the traditional (ECC) half
/// and the post-quantum half of its public key, secret key, and signature
/// or session-key ciphertext.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sizes {
    /// The ECC public key.
    pub(crate) ecc_public: usize,
    /// The ML-KEM encapsulation key or ML-DSA verifying key.
    pub(crate) pq_public: usize,
    /// The ECC secret key.
    pub(crate) ecc_secret: usize,
    /// The ML-KEM seed `d || z` or the ML-DSA seed ξ.
    pub(crate) pq_secret: usize,
    /// The ECC signature, or the ephemeral ECC key of a PKESK.
    pub(crate) ecc_out: usize,
    /// The ML-DSA signature, or the ML-KEM ciphertext of a PKESK.
    pub(crate) pq_out: usize,
}

/// The field sizes of `alg`, for the algorithms of this module.
pub(crate) fn sizes(alg: PublicKeyAlg) -> Option<Sizes> {
    let s = |ecc_public, pq_public, ecc_secret, pq_secret, ecc_out, pq_out| Sizes {
        ecc_public,
        pq_public,
        ecc_secret,
        pq_secret,
        ecc_out,
        pq_out,
    };
    Some(match alg {
        PublicKeyAlg::MlDsa65Ed25519 => s(32, 1952, 32, 32, 64, 3309),
        PublicKeyAlg::MlDsa87Ed448 => s(57, 2592, 57, 32, 114, 4627),
        PublicKeyAlg::SlhDsaShake128s => s(0, 32, 0, 64, 0, 7856),
        PublicKeyAlg::SlhDsaShake128f => s(0, 32, 0, 64, 0, 17088),
        PublicKeyAlg::SlhDsaShake256s => s(0, 64, 0, 128, 0, 29792),
        PublicKeyAlg::MlKem768X25519 => s(32, 1184, 32, 64, 32, 1088),
        PublicKeyAlg::MlKem1024X448 => s(56, 1568, 56, 64, 56, 1568),
        _ => return None,
    })
}

/// A composite value: its ECC half, then its post-quantum half.
pub(crate) type Halves = (Box<[u8]>, Box<[u8]>);

/// Reads `n` octets into a box, naming the field when the input is short.
pub(crate) fn take_boxed(input: &mut &[u8], n: usize, what: &'static str) -> Result<Box<[u8]>> {
    if input.len() < n {
        return Err(Error::Truncated(what));
    }
    let (head, rest) = input.split_at(n);
    *input = rest;
    Ok(head.into())
}

/// The domain separation of the KEM combiner (RFC 9980 §4.2.1).
const DOM_SEP: &[u8] = b"OpenPGPCompositeKDFv1";

/// The key-encryption key: SHA3-256(mlkemKeyShare || ecdhKeyShare ||
/// ecdhCipherText || ecdhPublicKey || algId || domSep || len(domSep)).
fn combine(
    alg: PublicKeyAlg,
    kem_share: &[u8],
    ecdh_share: &[u8],
    ecdh_ct: &[u8],
    ecdh_public: &[u8],
) -> Zeroizing<[u8; 32]> {
    let mut h = sha3::Sha3_256::new();
    for part in [kem_share, ecdh_share, ecdh_ct, ecdh_public, &[alg.id()], DOM_SEP, &[DOM_SEP.len() as u8]] {
        h.update(part);
    }
    Zeroizing::new(h.finalize().into())
}

/// The ephemeral ECDH key and the shared secret for `recipient` (X25519 or
/// X448 by its length).
fn ecdh_encapsulate(recipient: &[u8]) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>)> {
    if let Ok(r) = <&[u8; 32]>::try_from(recipient) {
        let (ephemeral, shared) = edwards::x25519_ephemeral(r)?;
        Ok((ephemeral.to_vec(), Zeroizing::new(shared.to_vec())))
    } else {
        let r = <&[u8; 56]>::try_from(recipient).map_err(|_| Error::Malformed("composite KEM ECC key length"))?;
        let (ephemeral, shared) = edwards::x448_ephemeral(r)?;
        Ok((ephemeral.to_vec(), Zeroizing::new(shared.to_vec())))
    }
}

/// The ECDH shared secret of the ephemeral key `ephemeral` for `secret`.
fn ecdh_decapsulate(secret: &[u8], ephemeral: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let shared = match (secret.len(), ephemeral.len()) {
        (32, 32) => edwards::x25519(secret.try_into().expect("32"), ephemeral.try_into().expect("32"))?.to_vec(),
        (56, 56) => edwards::x448(secret.try_into().expect("56"), ephemeral.try_into().expect("56"))?.to_vec(),
        _ => return Err(Error::SessionKeyDecryption),
    };
    Ok(Zeroizing::new(shared))
}

fn bad_key(_: impl Sized) -> Error {
    Error::Malformed("ML-KEM encapsulation key")
}

/// An ML-KEM ciphertext and shared secret for the encapsulation key `ek`.
fn mlkem_encapsulate(alg: PublicKeyAlg, ek: &[u8]) -> Result<(Vec<u8>, Zeroizing<[u8; 32]>)> {
    let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    let (ct, ss) = match alg {
        PublicKeyAlg::MlKem768X25519 => {
            let ek = ml_kem::EncapsulationKey768::new(&ek.try_into().map_err(bad_key)?).map_err(bad_key)?;
            let (ct, ss) = ek.encapsulate_with_rng(&mut rng);
            (ct.to_vec(), ss)
        }
        _ => {
            let ek = ml_kem::EncapsulationKey1024::new(&ek.try_into().map_err(bad_key)?).map_err(bad_key)?;
            let (ct, ss) = ek.encapsulate_with_rng(&mut rng);
            (ct.to_vec(), ss)
        }
    };
    Ok((ct, Zeroizing::new(ss.into())))
}

/// The ML-KEM shared secret of `ct` under the seed `d || z`. A ciphertext
/// of another key gives a pseudorandom secret (implicit rejection), which
/// the key wrap's integrity check then refuses.
fn mlkem_decapsulate(alg: PublicKeyAlg, seed: &[u8], ct: &[u8]) -> Result<Zeroizing<[u8; 32]>> {
    let seed = Zeroizing::new(ml_kem::Seed::try_from(seed).map_err(|_| Error::SessionKeyDecryption)?);
    let ss = match alg {
        PublicKeyAlg::MlKem768X25519 => {
            let dk = ml_kem::DecapsulationKey768::from_seed(*seed);
            dk.decapsulate(&ct.try_into().map_err(|_| Error::SessionKeyDecryption)?)
        }
        _ => {
            let dk = ml_kem::DecapsulationKey1024::from_seed(*seed);
            dk.decapsulate(&ct.try_into().map_err(|_| Error::SessionKeyDecryption)?)
        }
    };
    Ok(Zeroizing::new(ss.into()))
}

/// The key-encryption key of a new message to the composite key (`ecc`,
/// `ek`) of `alg`, with the ephemeral ECC key and the ML-KEM ciphertext
/// that carry it (RFC 9980 §4.2.3).
pub(crate) fn kem_encapsulate(alg: PublicKeyAlg, ecc: &[u8], ek: &[u8]) -> Result<(Halves, Zeroizing<[u8; 32]>)> {
    let (ecc_ct, ecc_share) = ecdh_encapsulate(ecc)?;
    let (kem_ct, kem_share) = mlkem_encapsulate(alg, ek)?;
    let kek = combine(alg, &*kem_share, &ecc_share, &ecc_ct, ecc);
    Ok(((ecc_ct.into(), kem_ct.into()), kek))
}

/// The key-encryption key carried by (`ecc_ct`, `kem_ct`) to the key with
/// the secret halves (`ecc_secret`, `seed`) and the ECC public key
/// `ecc_public` (RFC 9980 §4.2.4). Every failure is
/// [`Error::SessionKeyDecryption`]; a wrong key gives a wrong KEK, which the
/// key wrap's integrity check refuses the same way.
pub(crate) fn kem_decapsulate(
    alg: PublicKeyAlg,
    (ecc_secret, seed): (&[u8], &[u8]),
    ecc_public: &[u8],
    (ecc_ct, kem_ct): (&[u8], &[u8]),
) -> Result<Zeroizing<[u8; 32]>> {
    let ecc_share = ecdh_decapsulate(ecc_secret, ecc_ct).map_err(|_| Error::SessionKeyDecryption)?;
    let kem_share = mlkem_decapsulate(alg, seed, kem_ct)?;
    Ok(combine(alg, &*kem_share, &ecc_share, ecc_ct, ecc_public))
}

fn mldsa_sign<P: MlDsaParams>(seed: &[u8], digest: &[u8]) -> Result<Vec<u8>> {
    let seed = Zeroizing::new(ml_dsa::Seed::try_from(seed).map_err(|_| Error::Malformed("ML-DSA seed length"))?);
    let key = SigningKey::<P>::from_seed(&seed);
    // Hedged (RFC 9980 §5.1.2): fresh randomness in every signature.
    let sig = key.expanded_key().sign_randomized(digest, b"", &mut getrandom::SysRng).map_err(|_| Error::Random)?;
    Ok(sig.encode().to_vec())
}

fn mldsa_verify<P: MlDsaParams>(vk: &[u8], digest: &[u8], sig: &[u8]) -> Result<()> {
    let vk = EncodedVerifyingKey::<P>::try_from(vk).map_err(|_| Error::Malformed("ML-DSA verifying key length"))?;
    let sig = EncodedSignature::<P>::try_from(sig).map_err(|_| Error::BadSignature)?;
    let sig = Signature::<P>::decode(&sig).ok_or(Error::BadSignature)?;
    if VerifyingKey::<P>::decode(&vk).verify_with_context(digest, b"", &sig) {
        Ok(())
    } else {
        Err(Error::BadSignature)
    }
}

fn mldsa_public<P: MlDsaParams>(seed: &[u8]) -> Result<Vec<u8>> {
    let seed = Zeroizing::new(ml_dsa::Seed::try_from(seed).map_err(|_| Error::Malformed("ML-DSA seed length"))?);
    Ok(SigningKey::<P>::from_seed(&seed).expanded_key().verifying_key().encode().to_vec())
}

fn slh_sign<P: slh_dsa::ParameterSet>(sk: &[u8], digest: &[u8]) -> Result<Vec<u8>> {
    let key = slh_dsa::SigningKey::<P>::try_from(sk).map_err(|_| Error::Malformed("SLH-DSA secret key length"))?;
    // Hedged (RFC 9980 §6.1.2): opt_rand is fresh randomness of n octets
    // (a quarter of the secret key).
    let mut rand = Zeroizing::new(vec![0u8; sk.len() / 4]);
    random(&mut rand)?;
    let sig = key.try_sign_with_context(digest, b"", Some(&rand)).map_err(|_| Error::Random)?;
    Ok(sig.to_bytes().to_vec())
}

fn slh_verify<P: slh_dsa::ParameterSet>(vk: &[u8], digest: &[u8], sig: &[u8]) -> Result<()> {
    let vk = slh_dsa::VerifyingKey::<P>::try_from(vk).map_err(|_| Error::Malformed("SLH-DSA public key length"))?;
    let sig = slh_dsa::Signature::<P>::try_from(sig).map_err(|_| Error::BadSignature)?;
    vk.try_verify_with_context(digest, b"", &sig).map_err(|_| Error::BadSignature)
}

/// A new SLH-DSA secret key `SK.seed || SK.prf || PK.seed || PK.root`.
pub(crate) fn slh_generate(alg: PublicKeyAlg) -> Result<Zeroizing<Vec<u8>>> {
    let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    Ok(Zeroizing::new(match alg {
        PublicKeyAlg::SlhDsaShake128s => slh_dsa::SigningKey::<slh_dsa::Shake128s>::new(&mut rng).to_bytes().to_vec(),
        PublicKeyAlg::SlhDsaShake128f => slh_dsa::SigningKey::<slh_dsa::Shake128f>::new(&mut rng).to_bytes().to_vec(),
        PublicKeyAlg::SlhDsaShake256s => slh_dsa::SigningKey::<slh_dsa::Shake256s>::new(&mut rng).to_bytes().to_vec(),
        _ => return Err(Error::InvalidOption("not an SLH-DSA algorithm")),
    }))
}

/// Signs `digest` with both halves of a composite signing key: PureEdDSA,
/// then hedged ML-DSA with an empty context (RFC 9980 §5.2.2); or with an
/// SLH-DSA key alone (§6.1.2), whose ECC half is empty.
pub(crate) fn sign(alg: PublicKeyAlg, (ecc_secret, seed): (&[u8], &[u8]), digest: &[u8]) -> Result<Halves> {
    Ok(match alg {
        PublicKeyAlg::MlDsa65Ed25519 => {
            let ecc =
                edwards::ed25519_sign(ecc_secret.try_into().map_err(|_| Error::Malformed("Ed25519 seed"))?, digest);
            (ecc.into(), mldsa_sign::<MlDsa65>(seed, digest)?.into())
        }
        PublicKeyAlg::MlDsa87Ed448 => {
            let ecc = edwards::ed448_sign(ecc_secret.try_into().map_err(|_| Error::Malformed("Ed448 seed"))?, digest);
            (ecc.into(), mldsa_sign::<MlDsa87>(seed, digest)?.into())
        }
        PublicKeyAlg::SlhDsaShake128s => (Box::default(), slh_sign::<slh_dsa::Shake128s>(seed, digest)?.into()),
        PublicKeyAlg::SlhDsaShake128f => (Box::default(), slh_sign::<slh_dsa::Shake128f>(seed, digest)?.into()),
        PublicKeyAlg::SlhDsaShake256s => (Box::default(), slh_sign::<slh_dsa::Shake256s>(seed, digest)?.into()),
        _ => return Err(Error::InvalidOption("this key cannot sign")),
    })
}

/// Verifies both halves of a composite signature over `digest`; either
/// failing is [`Error::BadSignature`] (RFC 9980 §5.2.3).
pub(crate) fn verify(
    alg: PublicKeyAlg,
    (ecc_public, vk): (&[u8], &[u8]),
    digest: &[u8],
    (ecc_sig, pq_sig): (&[u8], &[u8]),
) -> Result<()> {
    let bad = |_| Error::BadSignature;
    match alg {
        PublicKeyAlg::MlDsa65Ed25519 => {
            let key = ecc_public.try_into().map_err(|_| Error::Malformed("Ed25519 public key"))?;
            edwards::ed25519_verify(key, digest, ecc_sig.try_into().map_err(bad)?)?;
            mldsa_verify::<MlDsa65>(vk, digest, pq_sig)
        }
        PublicKeyAlg::MlDsa87Ed448 => {
            let key = ecc_public.try_into().map_err(|_| Error::Malformed("Ed448 public key"))?;
            edwards::ed448_verify(key, digest, ecc_sig.try_into().map_err(bad)?)?;
            mldsa_verify::<MlDsa87>(vk, digest, pq_sig)
        }
        PublicKeyAlg::SlhDsaShake128s => slh_verify::<slh_dsa::Shake128s>(vk, digest, pq_sig),
        PublicKeyAlg::SlhDsaShake128f => slh_verify::<slh_dsa::Shake128f>(vk, digest, pq_sig),
        PublicKeyAlg::SlhDsaShake256s => slh_verify::<slh_dsa::Shake256s>(vk, digest, pq_sig),
        _ => Err(Error::BadSignature),
    }
}

/// The public halves of the secret halves (`ecc_secret`, `pq_secret`). An
/// SLH-DSA secret key holds its public key (`PK.seed || PK.root`, its
/// second half), taken as it is: recomputing PK.root would cost a whole
/// XMSS tree.
pub(crate) fn public_of(alg: PublicKeyAlg, ecc_secret: &[u8], pq_secret: &[u8]) -> Result<Halves> {
    let malformed = |_| Error::Malformed("composite secret key length");
    Ok(match alg {
        PublicKeyAlg::MlDsa65Ed25519 => (
            edwards::ed25519_public(ecc_secret.try_into().map_err(malformed)?).into(),
            mldsa_public::<MlDsa65>(pq_secret)?.into(),
        ),
        PublicKeyAlg::MlDsa87Ed448 => (
            edwards::ed448_public(ecc_secret.try_into().map_err(malformed)?).into(),
            mldsa_public::<MlDsa87>(pq_secret)?.into(),
        ),
        PublicKeyAlg::MlKem768X25519 | PublicKeyAlg::MlKem1024X448 => {
            let seed = Zeroizing::new(ml_kem::Seed::try_from(pq_secret).map_err(malformed)?);
            if alg == PublicKeyAlg::MlKem768X25519 {
                let ek = ml_kem::DecapsulationKey768::from_seed(*seed).encapsulation_key().to_bytes();
                (edwards::x25519_public(ecc_secret.try_into().map_err(malformed)?).into(), ek.to_vec().into())
            } else {
                let ek = ml_kem::DecapsulationKey1024::from_seed(*seed).encapsulation_key().to_bytes();
                (edwards::x448_public(ecc_secret.try_into().map_err(malformed)?).into(), ek.to_vec().into())
            }
        }
        PublicKeyAlg::SlhDsaShake128s | PublicKeyAlg::SlhDsaShake128f | PublicKeyAlg::SlhDsaShake256s => {
            let s = sizes(alg).expect("an SLH-DSA algorithm");
            if pq_secret.len() != s.pq_secret {
                return Err(Error::Malformed("SLH-DSA secret key length"));
            }
            (Box::default(), pq_secret[s.pq_secret / 2..].into())
        }
        _ => return Err(Error::InvalidOption("not a composite algorithm")),
    })
}

#[cfg(test)]
#[path = "pq_tests.rs"]
mod tests;
