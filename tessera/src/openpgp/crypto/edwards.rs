//! Ed25519, Ed448, X25519 and X448 over the dalek and `ed448-goldilocks`
//! crates, on native byte strings.

use ed25519_dalek::{Signer as _, Verifier as _};
use zeroize::Zeroizing;

use crate::openpgp::{Error, Result, random};

/// The Ed25519 public key of a 32-byte seed.
pub(crate) fn ed25519_public(seed: &[u8; 32]) -> [u8; 32] {
    ed25519_dalek::SigningKey::from_bytes(seed).verifying_key().to_bytes()
}

/// Signs `msg` with Ed25519 (RFC 8032 pure mode).
pub(crate) fn ed25519_sign(seed: &[u8; 32], msg: &[u8]) -> [u8; 64] {
    ed25519_dalek::SigningKey::from_bytes(seed).sign(msg).to_bytes()
}

/// Verifies an Ed25519 signature.
pub(crate) fn ed25519_verify(public: &[u8; 32], msg: &[u8], sig: &[u8; 64]) -> Result<()> {
    let key = ed25519_dalek::VerifyingKey::from_bytes(public).map_err(|_| Error::Malformed("Ed25519 public key"))?;
    let sig = ed25519_dalek::Signature::from_bytes(sig);
    key.verify(msg, &sig).map_err(|_| Error::BadSignature)
}

fn ed448_key(seed: &[u8; 57]) -> ed448_goldilocks::SigningKey {
    let bytes = ed448_goldilocks::SecretKey::from(*seed);
    ed448_goldilocks::SigningKey::from(&bytes)
}

/// The Ed448 public key of a 57-byte seed.
pub(crate) fn ed448_public(seed: &[u8; 57]) -> [u8; 57] {
    let mut out = [0u8; 57];
    out.copy_from_slice(ed448_key(seed).verifying_key().as_bytes());
    out
}

/// Signs `msg` with Ed448 (RFC 8032 pure mode, empty context).
pub(crate) fn ed448_sign(seed: &[u8; 57], msg: &[u8]) -> [u8; 114] {
    ed448_key(seed).sign(msg).to_bytes()
}

/// Verifies an Ed448 signature (pure mode, empty context).
pub(crate) fn ed448_verify(public: &[u8; 57], msg: &[u8], sig: &[u8; 114]) -> Result<()> {
    let key = ed448_goldilocks::VerifyingKey::from_bytes(public).map_err(|_| Error::Malformed("Ed448 public key"))?;
    let sig = ed448_goldilocks::Signature::from_bytes(sig);
    key.verify(msg, &sig).map_err(|_| Error::BadSignature)
}

/// The X25519 public key of a secret.
pub(crate) fn x25519_public(secret: &[u8; 32]) -> [u8; 32] {
    let s = x25519_dalek::StaticSecret::from(*secret);
    x25519_dalek::PublicKey::from(&s).to_bytes()
}

/// X25519(secret, point); an all-zero result (a low-order point) is an
/// error, as RFC 7748 §6.1 allows and RFC 9580 requires.
pub(crate) fn x25519(secret: &[u8; 32], point: &[u8; 32]) -> Result<Zeroizing<[u8; 32]>> {
    let s = x25519_dalek::StaticSecret::from(*secret);
    let shared = s.diffie_hellman(&x25519_dalek::PublicKey::from(*point));
    if !shared.was_contributory() {
        return Err(Error::Malformed("X25519 point of small order"));
    }
    Ok(Zeroizing::new(shared.to_bytes()))
}

/// The X448 public key of a secret.
pub(crate) fn x448_public(secret: &[u8; 56]) -> [u8; 56] {
    let s = x448::StaticSecret::from(*secret);
    *x448::PublicKey::from(&s).as_bytes()
}

/// X448(secret, point); an all-zero result is an error.
pub(crate) fn x448(secret: &[u8; 56], point: &[u8; 56]) -> Result<Zeroizing<[u8; 56]>> {
    x448::x448(*secret, *point).map(Zeroizing::new).ok_or(Error::Malformed("X448 point of small order"))
}

/// A fresh ephemeral X25519 key and the secret it shares with `recipient`.
pub(crate) fn x25519_ephemeral(recipient: &[u8; 32]) -> Result<([u8; 32], Zeroizing<[u8; 32]>)> {
    let mut e = Zeroizing::new([0u8; 32]);
    random(e.as_mut_slice())?;
    Ok((x25519_public(&e), x25519(&e, recipient)?))
}

/// A fresh ephemeral X448 key and the secret it shares with `recipient`.
pub(crate) fn x448_ephemeral(recipient: &[u8; 56]) -> Result<([u8; 56], Zeroizing<[u8; 56]>)> {
    let mut e = Zeroizing::new([0u8; 56]);
    random(e.as_mut_slice())?;
    Ok((x448_public(&e), x448(&e, recipient)?))
}
