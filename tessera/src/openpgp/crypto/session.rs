//! Encrypting and decrypting session keys for PKESK packets (RFC 9580 §5.1):
//! X25519 and X448 (§5.1.6, §5.1.7), ECDH (§5.1.4, §11.5), RSA (§5.1.3),
//! and Elgamal (decryption only).

use hkdf::Hkdf;
use subtle::ConstantTimeEq as _;
use zeroize::Zeroizing;

use super::legacy::curve25519_legacy_secret;
use super::{Curve, HashAlg, Hasher, Mpi, PkeskPayload, PkeskVersion, PublicKeyAlg, PublicMaterial, SecretMaterial};
use super::{edwards, elgamal, kw, nist, pkcs1, pq};
use crate::openpgp::{Error, Result, SessionKey, SymAlg, random};

/// The two-octet checksum of RSA and ECDH session keys: the sum of the key
/// bytes modulo 65536.
fn checksum(key: &[u8]) -> [u8; 2] {
    let sum = key.iter().fold(0u16, |acc, &b| acc.wrapping_add(u16::from(b)));
    sum.to_be_bytes()
}

fn check_key_len(len: usize) -> Result<()> {
    match len {
        16 | 24 | 32 => Ok(()),
        _ => Err(Error::InvalidOption("session key must be 16, 24 or 32 bytes")),
    }
}

/// `[cipher] || key || checksum`: what RSA and ECDH encrypt.
fn frame(version: PkeskVersion, sym: Option<SymAlg>, key: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut m = Zeroizing::new(Vec::with_capacity(key.len() + 3 + 8));
    if let (PkeskVersion::V3, Some(sym)) = (version, sym) {
        m.push(sym.id());
    }
    m.extend_from_slice(key);
    m.extend_from_slice(&checksum(key));
    m
}

/// Undoes [`frame`]; any inconsistency is [`Error::SessionKeyDecryption`].
fn unframe(version: PkeskVersion, m: &[u8]) -> Result<SessionKey> {
    let (sym, rest) = match version {
        PkeskVersion::V3 => {
            let (&id, rest) = m.split_first().ok_or(Error::SessionKeyDecryption)?;
            (Some(SymAlg::from_id(id).map_err(|_| Error::SessionKeyDecryption)?), rest)
        }
        PkeskVersion::V6 => (None, m),
    };
    let split = rest.len().checked_sub(2).ok_or(Error::SessionKeyDecryption)?;
    let (key, sum) = rest.split_at(split);
    let len_ok = match sym {
        Some(sym) => key.len() == sym.key_len(),
        None => check_key_len(key.len()).is_ok(),
    };
    if !len_ok || !bool::from(checksum(key).ct_eq(sum)) {
        return Err(Error::SessionKeyDecryption);
    }
    Ok(SessionKey { alg: sym, key: Zeroizing::new(key.to_vec()) })
}

/// Encrypts `session_key` to `public` for a PKESK of `version`.
///
/// `sym` is the session key's cipher: required for v3 (it travels inside
/// the encrypted key, or in the clear for X25519/X448), absent for v6 (the
/// SEIPD v2 packet names it). `recipient_fingerprint` is the full
/// fingerprint of the recipient key; only ECDH uses it (in its KDF).
///
/// ```
/// use tessera::openpgp::crypto::{decrypt_session_key, encrypt_session_key, generate, KeyType, PkeskVersion};
/// let (public, secret) = generate(KeyType::X25519).unwrap();
/// let fpr = [0u8; 32];
/// let payload = encrypt_session_key(&public, &fpr, PkeskVersion::V6, None, &[7u8; 32]).unwrap();
/// let sk = decrypt_session_key(&secret, &public, &fpr, &payload, PkeskVersion::V6).unwrap();
/// assert_eq!(sk.key.as_slice(), &[7u8; 32]);
/// ```
pub fn encrypt_session_key(
    public: &PublicMaterial,
    recipient_fingerprint: &[u8],
    version: PkeskVersion,
    sym: Option<SymAlg>,
    session_key: &[u8],
) -> Result<PkeskPayload> {
    check_key_len(session_key.len())?;
    match (version, sym) {
        (PkeskVersion::V3, Some(s)) if s.key_len() == session_key.len() => {}
        (PkeskVersion::V6, None) => {}
        _ => return Err(Error::InvalidOption("a v3 PKESK names the session key's cipher, a v6 PKESK does not")),
    }
    match public {
        PublicMaterial::X25519(r) => {
            let (ephemeral, shared) = edwards::x25519_ephemeral(r)?;
            let kek = native_kek(&ephemeral, r, &*shared, false);
            Ok(PkeskPayload::X25519 { ephemeral, sym, wrapped: kw::wrap(&kek, session_key)? })
        }
        PublicMaterial::X448(r) => {
            let (ephemeral, shared) = edwards::x448_ephemeral(r)?;
            let kek = native_kek(&ephemeral, r, &*shared, true);
            Ok(PkeskPayload::X448 { ephemeral, sym, wrapped: kw::wrap(&kek, session_key)? })
        }
        PublicMaterial::Ecdh { .. } => {
            let m = frame(version, sym, session_key);
            ecdh_encrypt(public, recipient_fingerprint, &m)
        }
        PublicMaterial::Rsa { n, e } => {
            let m = frame(version, sym, session_key);
            Ok(PkeskPayload::Rsa { c: pkcs1::encrypt(n, e, &m)? })
        }
        // A v3 PKESK names an AES cipher (RFC 9980 §4.2.3): SymAlg holds nothing else.
        PublicMaterial::Composite { alg, ecc, pq } if alg.can_encrypt() => {
            let ((ecc, kem), kek) = pq::kem_encapsulate(*alg, ecc, pq)?;
            Ok(PkeskPayload::Composite { alg: *alg, ecc, kem, sym, wrapped: kw::wrap(&*kek, session_key)? })
        }
        PublicMaterial::Elgamal { p, .. } => {
            super::modulus::require_min(p.bits())?;
            Err(Error::Unsupported("encrypting to Elgamal keys (decryption only)"))
        }
        _ => Err(Error::InvalidOption("this key cannot encrypt")),
    }
}

/// Decrypts the session key of a PKESK of `version` with `secret` (whose
/// public half is `public`, with the full fingerprint
/// `recipient_fingerprint`). For v3 the result names its cipher.
///
/// Every failure that depends on the secret (wrong key, modified packet,
/// bad padding or checksum) is the same [`Error::SessionKeyDecryption`].
///
/// ```
/// use tessera::openpgp::{Error, SymAlg};
/// use tessera::openpgp::crypto::{KeyType, PkeskVersion, decrypt_session_key, encrypt_session_key, generate};
/// let (public, secret) = generate(KeyType::X448)?;
/// let fpr = [0u8; 32];
/// let payload = encrypt_session_key(&public, &fpr, PkeskVersion::V3, Some(SymAlg::Aes256), &[7; 32])?;
/// let sk = decrypt_session_key(&secret, &public, &fpr, &payload, PkeskVersion::V3)?;
/// assert_eq!(sk.alg, Some(SymAlg::Aes256)); // v3 names the cipher
/// // Another key: the same error whatever went wrong.
/// let (other_public, other_secret) = generate(KeyType::X448)?;
/// let wrong = decrypt_session_key(&other_secret, &other_public, &fpr, &payload, PkeskVersion::V3);
/// assert!(matches!(wrong, Err(Error::SessionKeyDecryption)));
/// # Ok::<(), Error>(())
/// ```
pub fn decrypt_session_key(
    secret: &SecretMaterial,
    public: &PublicMaterial,
    recipient_fingerprint: &[u8],
    payload: &PkeskPayload,
    version: PkeskVersion,
) -> Result<SessionKey> {
    match (secret, public, payload) {
        (SecretMaterial::X25519(s), PublicMaterial::X25519(r), PkeskPayload::X25519 { ephemeral, sym, wrapped }) => {
            let shared = edwards::x25519(s, ephemeral).map_err(|_| Error::SessionKeyDecryption)?;
            let kek = native_kek(ephemeral, r, &*shared, false);
            native_session_key(&kek, *sym, wrapped, version)
        }
        (SecretMaterial::X448(s), PublicMaterial::X448(r), PkeskPayload::X448 { ephemeral, sym, wrapped }) => {
            let shared = edwards::x448(s, ephemeral).map_err(|_| Error::SessionKeyDecryption)?;
            let kek = native_kek(ephemeral, r, &*shared, true);
            native_session_key(&kek, *sym, wrapped, version)
        }
        (
            SecretMaterial::Composite { ecc: ecc_secret, pq: seed },
            PublicMaterial::Composite { alg, ecc: ecc_public, .. },
            PkeskPayload::Composite { alg: sent_alg, ecc, kem, sym, wrapped },
        ) if alg == sent_alg => {
            let kek = pq::kem_decapsulate(*alg, (ecc_secret, seed), ecc_public, (ecc, kem))?;
            native_session_key(&*kek, *sym, wrapped, version)
        }
        (SecretMaterial::Ecdh { scalar }, PublicMaterial::Ecdh { .. }, PkeskPayload::Ecdh { ephemeral, wrapped }) => {
            let m = ecdh_decrypt(scalar, public, recipient_fingerprint, ephemeral, wrapped)?;
            unframe(version, &m)
        }
        (SecretMaterial::Elgamal { x }, PublicMaterial::Elgamal { p, .. }, PkeskPayload::Elgamal { c1, c2 }) => {
            let m = elgamal::decrypt(p, x, c1, c2)?;
            unframe(version, &m)
        }
        (SecretMaterial::Rsa { d, p, q, prepared, .. }, PublicMaterial::Rsa { n, e }, PkeskPayload::Rsa { c }) => {
            let m = pkcs1::decrypt(prepared, [n, e, d, p, q], c)?;
            unframe(version, &m)
        }
        _ => Err(Error::InvalidOption("the PKESK's algorithm does not match the key")),
    }
}

/// HKDF(ikm = ephemeral || recipient || shared, no salt, info) of the
/// X25519 (SHA-256, 16 bytes) and X448 (SHA-512, 32 bytes) formats.
fn native_kek(ephemeral: &[u8], recipient: &[u8], shared: &[u8], x448: bool) -> Zeroizing<Vec<u8>> {
    let ikm = Zeroizing::new([ephemeral, recipient, shared].concat());
    let mut kek = Zeroizing::new(vec![0u8; if x448 { 32 } else { 16 }]);
    let expanded = if x448 {
        Hkdf::<sha2::Sha512>::new(None, &ikm).expand(b"OpenPGP X448", &mut kek)
    } else {
        Hkdf::<sha2::Sha256>::new(None, &ikm).expand(b"OpenPGP X25519", &mut kek)
    };
    expanded.expect("16 or 32 bytes is a valid HKDF output length");
    kek
}

fn native_session_key(kek: &[u8], sym: Option<SymAlg>, wrapped: &[u8], version: PkeskVersion) -> Result<SessionKey> {
    if sym.is_some() != (version == PkeskVersion::V3) {
        return Err(Error::Malformed("PKESK cipher octet does not fit its version"));
    }
    let key = kw::unwrap(kek, wrapped)?;
    let len_ok = match sym {
        Some(sym) => key.len() == sym.key_len(),
        None => check_key_len(key.len()).is_ok(),
    };
    if !len_ok {
        return Err(Error::SessionKeyDecryption);
    }
    Ok(SessionKey { alg: sym, key })
}

/// The RFC 6637 KDF parameter block (RFC 9580 §11.5).
fn ecdh_param(public: &PublicMaterial, fingerprint: &[u8]) -> Result<Vec<u8>> {
    let PublicMaterial::Ecdh { curve, kdf_hash, kdf_sym, .. } = public else {
        return Err(Error::InvalidOption("not an ECDH key"));
    };
    let mut p = Vec::with_capacity(80);
    super::mpi::put_len_prefixed(&mut p, curve.oid());
    p.extend_from_slice(&[PublicKeyAlg::Ecdh.id(), 3, 1, kdf_hash.id(), kdf_sym.id()]);
    p.extend_from_slice(b"Anonymous Sender    ");
    p.extend_from_slice(fingerprint);
    Ok(p)
}

/// KEK = Hash(00 00 00 01 || Z || Param), truncated to the wrap key size.
fn ecdh_kek(public: &PublicMaterial, fingerprint: &[u8], shared: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let PublicMaterial::Ecdh { kdf_hash, kdf_sym, .. } = public else {
        return Err(Error::InvalidOption("not an ECDH key"));
    };
    if *kdf_hash == HashAlg::Sha1 || kdf_hash.digest_len() < kdf_sym.key_len() {
        return Err(Error::Unsupported("ECDH KDF hash too weak for its key-wrap cipher"));
    }
    let mut h = Hasher::new(*kdf_hash);
    h.update(&[0, 0, 0, 1]);
    h.update(shared);
    h.update(&ecdh_param(public, fingerprint)?);
    let mut kek = Zeroizing::new(h.finalize());
    kek.truncate(kdf_sym.key_len());
    Ok(kek)
}

fn ecdh_encrypt(public: &PublicMaterial, fingerprint: &[u8], m: &[u8]) -> Result<PkeskPayload> {
    let PublicMaterial::Ecdh { curve, point, .. } = public else {
        return Err(Error::InvalidOption("not an ECDH key"));
    };
    let (ephemeral, shared) = if *curve == Curve::Curve25519Legacy {
        let mut e = Zeroizing::new([0u8; 32]);
        random(e.as_mut_slice())?;
        let r: [u8; 32] = match point.as_bytes() {
            [0x40, rest @ ..] => rest.try_into().map_err(|_| Error::Malformed("ECDH point"))?,
            _ => return Err(Error::Malformed("ECDH point")),
        };
        let shared = edwards::x25519(&e, &r)?;
        let mut v = vec![0x40];
        v.extend_from_slice(&edwards::x25519_public(&e));
        (Mpi::new(&v), Zeroizing::new(shared.to_vec()))
    } else {
        let ops = nist::ops(*curve)?;
        let e = (ops.random_scalar)()?;
        (Mpi::new(&(ops.public)(&e)?), (ops.ecdh)(&e, point.as_bytes())?)
    };
    let kek = ecdh_kek(public, fingerprint, &shared)?;
    // PKCS#5-style padding (n bytes of value n) to 40 octets, as OpenPGP.js
    // and rPGP write it (hiding the session key size), or to the next
    // multiple of 8 for longer inputs.
    let pad = if m.len() < 40 { 40 - m.len() } else { 8 - m.len() % 8 };
    let mut padded = Zeroizing::new(m.to_vec());
    padded.resize(m.len() + pad, pad as u8);
    Ok(PkeskPayload::Ecdh { ephemeral, wrapped: kw::wrap(&kek, &padded)? })
}

fn ecdh_decrypt(
    scalar: &Mpi,
    public: &PublicMaterial,
    fingerprint: &[u8],
    ephemeral: &Mpi,
    wrapped: &[u8],
) -> Result<Zeroizing<Vec<u8>>> {
    let PublicMaterial::Ecdh { curve, .. } = public else {
        return Err(Error::InvalidOption("not an ECDH key"));
    };
    let shared = if *curve == Curve::Curve25519Legacy {
        let v = match ephemeral.as_bytes() {
            [0x40, rest @ ..] => <[u8; 32]>::try_from(rest).map_err(|_| Error::Malformed("ECDH ephemeral point"))?,
            _ => return Err(Error::Malformed("ECDH ephemeral point")),
        };
        let s = curve25519_legacy_secret(scalar)?;
        let shared = edwards::x25519(&s, &v).map_err(|_| Error::SessionKeyDecryption)?;
        Zeroizing::new(shared.to_vec())
    } else {
        let padded = scalar.to_padded(curve.field_len(), "ECC secret scalar too long")?;
        (nist::ops(*curve)?.ecdh)(&padded, ephemeral.as_bytes())?
    };
    let kek = ecdh_kek(public, fingerprint, &shared)?;
    let mut m = kw::unwrap(&kek, wrapped)?;
    let pad = usize::from(*m.last().ok_or(Error::SessionKeyDecryption)?);
    // Senders pad to a multiple of 8 (GnuPG) or to 40 octets (OpenPGP.js,
    // rPGP): accept any PKCS#5-style padding.
    let body_len = m.len().checked_sub(pad).filter(|_| pad >= 1).ok_or(Error::SessionKeyDecryption)?;
    if m[body_len..].iter().any(|&b| usize::from(b) != pad) {
        return Err(Error::SessionKeyDecryption);
    }
    m.truncate(body_len);
    Ok(m)
}
