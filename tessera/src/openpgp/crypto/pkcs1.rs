//! RSA with PKCS#1 v1.5 padding: signatures (RFC 8017 §8.2, EMSA with the
//! DigestInfo of each hash) and session-key encryption (§7.2).
//!
//! Public operations and signing use the `rsa` crate. Decryption uses
//! `aws-lc-rs` (constant-time padding check, blinded private operation):
//! the `rsa` crate's PKCS#1 v1.5 decryption is a timing oracle
//! (RUSTSEC-2023-0071, the Marvin attack).

use rsa::BoxedUint;
use rsa::traits::{PrivateKeyParts as _, PublicKeyParts as _};
use zeroize::Zeroizing;

use super::modulus::{MIN_BITS, require_min};
use super::rsa_prepared::cached;
use super::{HashAlg, Mpi, PreparedRsa};
use crate::openpgp::{Error, Result};

/// Largest modulus accepted, in bits.
const MAX_BITS: usize = 16384;
/// Smallest modulus whose secret key is read (and then refused for every
/// use: [`MIN_BITS`]), in bits.
const MIN_BITS_READ: usize = 1024;

/// Largest modulus generated, or used to decrypt, in bits.
const MAX_BITS_PRIVATE: usize = 8192;

/// The DER DigestInfo prefix of `alg` (RFC 8017 §9.2, note 1).
fn digest_info(alg: HashAlg) -> &'static [u8] {
    match alg {
        HashAlg::Sha1 => &[0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14],
        HashAlg::Sha224 => const { &nist_digest_info(0x04, 28) },
        HashAlg::Sha256 => const { &nist_digest_info(0x01, 32) },
        HashAlg::Sha384 => const { &nist_digest_info(0x02, 48) },
        HashAlg::Sha512 => const { &nist_digest_info(0x03, 64) },
        HashAlg::Sha3_256 => const { &nist_digest_info(0x08, 32) },
        HashAlg::Sha3_512 => const { &nist_digest_info(0x0a, 64) },
    }
}

/// The DigestInfo prefix of a hash under the NIST arc 2.16.840.1.101.3.4.2
/// (`id`: its last arc) with a `len`-octet digest: SEQUENCE { SEQUENCE {
/// OID, NULL }, OCTET STRING header }, the outer length counting the digest.
const fn nist_digest_info(id: u8, len: u8) -> [u8; 19] {
    [
        0x30,
        0x11 + len,
        0x30,
        0x0d,
        0x06,
        0x09,
        0x60,
        0x86,
        0x48,
        0x01,
        0x65,
        0x03,
        0x04,
        0x02,
        id,
        0x05,
        0x00,
        0x04,
        len,
    ]
}

fn uint(m: &Mpi) -> BoxedUint {
    BoxedUint::from_be_slice_vartime(m.as_bytes())
}

/// The `rsa` crate's public key for (n, e), with size checks.
pub(crate) fn public_key(n: &Mpi, e: &Mpi, min_bits: usize) -> Result<rsa::PublicKey> {
    if n.bits() < min_bits {
        require_min(n.bits())?;
        return Err(Error::Unsupported("RSA key too small"));
    }
    if n.bits() > MAX_BITS || e.bits() > 64 {
        return Err(Error::Limit("RSA key too large"));
    }
    rsa::PublicKey::new_with_size_limits(uint(n), uint(e), min_bits..=MAX_BITS)
        .map_err(|_| Error::Malformed("RSA public key"))
}

/// The `rsa` crate's private key, checked against the public key.
pub(crate) fn private_key(n: &Mpi, e: &Mpi, d: &Mpi, p: &Mpi, q: &Mpi) -> Result<rsa::PrivateKey> {
    public_key(n, e, MIN_BITS_READ)?;
    let primes = vec![uint(p), uint(q)];
    let key = rsa::PrivateKey::from_components(uint(n), uint(e), uint(d), primes).map_err(|_| Error::KeyMismatch)?;
    key.validate().map_err(|_| Error::KeyMismatch)?;
    Ok(key)
}

/// `DigestInfo || digest`, what PKCS#1 v1.5 signs.
fn signed_block(alg: HashAlg, digest: &[u8]) -> Result<Vec<u8>> {
    if digest.len() != alg.digest_len() {
        return Err(Error::InvalidOption("digest length does not match its hash algorithm"));
    }
    Ok([digest_info(alg), digest].concat())
}

/// Verifies an RSA PKCS#1 v1.5 signature over `digest`.
pub(crate) fn verify(n: &Mpi, e: &Mpi, alg: HashAlg, digest: &[u8], s: &Mpi) -> Result<()> {
    let key = public_key(n, e, MIN_BITS)?;
    let sig = s.to_padded(key.size(), "RSA signature larger than the modulus").map_err(|_| Error::BadSignature)?;
    let block = signed_block(alg, digest)?;
    key.verify(rsa::Pkcs1v15Sign::new_unprefixed(), &block, &sig).map_err(|_| Error::BadSignature)
}

/// Signs `digest` with RSA PKCS#1 v1.5 (blinded private operation), with
/// the key of (n, e, d, p, q) prepared in `cache` (built and checked
/// against (n, e) on first use).
pub(crate) fn sign(cache: &PreparedRsa, fields: [&Mpi; 5], alg: HashAlg, digest: &[u8]) -> Result<Mpi> {
    let [n, e, d, p, q] = fields;
    let mut fresh = None;
    let key = cached(&cache.1, &mut fresh, n, e, || private_key(n, e, d, p, q))?;
    require_min(key.n().bit_width() as usize)?;
    let block = signed_block(alg, digest)?;
    let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    let sig = key
        .sign_with_rng(&mut rng, rsa::Pkcs1v15Sign::new_unprefixed(), &block)
        .map_err(|_| Error::InvalidOption("RSA signing failed"))?;
    Ok(Mpi::new(&sig))
}

/// Encrypts `m` (a padded session key) to (n, e) with PKCS#1 v1.5.
pub(crate) fn encrypt(n: &Mpi, e: &Mpi, m: &[u8]) -> Result<Mpi> {
    let key = public_key(n, e, MIN_BITS)?;
    let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    let c =
        key.encrypt(&mut rng, rsa::Pkcs1v15Encrypt, m).map_err(|_| Error::InvalidOption("RSA encryption failed"))?;
    Ok(Mpi::new(&c))
}

/// Decrypts `c` with PKCS#1 v1.5 through aws-lc-rs (keys of 2048 to 8192
/// bits), with the key prepared in `cache` (built and checked against
/// (n, e) on first use). Every failure of the decryption itself is the same
/// [`Error::SessionKeyDecryption`].
#[cfg(feature = "rsa-decrypt")]
pub(crate) fn decrypt(cache: &PreparedRsa, fields: [&Mpi; 5], c: &Mpi) -> Result<Zeroizing<Vec<u8>>> {
    let [n, e, ..] = fields;
    let mut fresh = None;
    let key = cached(&cache.0, &mut fresh, n, e, || prepare(fields))?;
    let size = n.as_bytes().len();
    let ct = c.to_padded(size, "RSA ciphertext").map_err(|_| Error::SessionKeyDecryption)?;
    let mut out = Zeroizing::new(vec![0u8; size]);
    let len = key.decrypt(&ct, &mut out).map_err(|_| Error::SessionKeyDecryption)?.len();
    out.truncate(len);
    Ok(out)
}

/// Builds the aws-lc-rs key from (n, e, d, p, q), checked by both crates.
#[cfg(feature = "rsa-decrypt")]
fn prepare([n, e, d, p, q]: [&Mpi; 5]) -> Result<aws_lc_rs::rsa::Pkcs1PrivateDecryptingKey> {
    use aws_lc_rs::rsa::{Pkcs1PrivateDecryptingKey, PrivateDecryptingKey};
    use rsa::pkcs8::EncodePrivateKey as _;

    let key = private_key(n, e, d, p, q)?;
    require_min(key.n().bit_width() as usize)?;
    if !(MIN_BITS as u32..=MAX_BITS_PRIVATE as u32).contains(&key.n().bit_width()) {
        return Err(Error::Unsupported("RSA decryption with a key outside 2048..=8192 bits"));
    }
    let der = key.to_pkcs8_der().map_err(|_| Error::KeyMismatch)?;
    let lc = PrivateDecryptingKey::from_pkcs8(der.as_bytes()).map_err(|_| Error::KeyMismatch)?;
    Pkcs1PrivateDecryptingKey::new(lc).map_err(|_| Error::KeyMismatch)
}

/// Without the `rsa-decrypt` feature RSA decryption is refused.
#[cfg(not(feature = "rsa-decrypt"))]
pub(crate) fn decrypt(_cache: &PreparedRsa, _fields: [&Mpi; 5], _c: &Mpi) -> Result<Zeroizing<Vec<u8>>> {
    Err(Error::Unsupported("RSA decryption (build tessera with the rsa-decrypt feature; see SECURITY.md)"))
}

/// Generates an RSA key of `bits` (e = 65537) as OpenPGP fields
/// (n, e, d, p, q, u) with p < q and u = p⁻¹ mod q.
pub(crate) fn generate(bits: usize) -> Result<[Mpi; 6]> {
    if !(MIN_BITS..=MAX_BITS_PRIVATE).contains(&bits) {
        return Err(Error::InvalidOption("RSA key size must be 2048..=8192 bits"));
    }
    let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
    let key = rsa::PrivateKey::new(&mut rng, bits).map_err(|_| Error::Random)?;
    let (a, b) = (&key.primes()[0], &key.primes()[1]);
    let (p, q) = if a < b { (a, b) } else { (b, a) };
    let u = Option::<BoxedUint>::from(p.invert_odd_mod(q)).ok_or(Error::Random)?;
    let be = |x: &BoxedUint| Mpi::new(&Zeroizing::new(x.to_be_bytes()));
    Ok([be(key.n()), be(key.e()), be(key.d()), be(p), be(q), be(&u)])
}
