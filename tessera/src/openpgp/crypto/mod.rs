//! The public-key algorithm layer of OpenPGP (RFC 9580 §5.1, §5.2.3,
//! §5.5.5, §9, §11.5): key material, signatures over a digest, session-key
//! encryption for PKESK packets, hashes and key generation.
//!
//! Nothing here frames packets, computes fingerprints or decides validity:
//! the key and signature packet layers build on these types.
//!
//! The arithmetic is not ours: `ed25519-dalek`, `x25519-dalek`,
//! `ed448-goldilocks`/`x448`, `p256`/`p384`/`p521`, `rsa` (public
//! operations and signing) and `aws-lc-rs` (RSA PKCS#1 v1.5 decryption,
//! constant time; see SECURITY.md), `dsa` (DSA verification),
//! `crypto-bigint` (Elgamal decryption), `sha1`/`sha2`/`sha3`, `aes-kw`.
//!
//! ```
//! use tessera::openpgp::crypto::{self, HashAlg, Hasher, KeyType};
//!
//! let (public, secret) = crypto::generate(KeyType::Ed25519).unwrap();
//! let digest = Hasher::digest(HashAlg::Sha256, b"hello");
//! let sig = crypto::sign(&secret, &public, HashAlg::Sha256, &digest).unwrap();
//! crypto::verify(&public, HashAlg::Sha256, &digest, &sig).unwrap();
//! ```

mod dsa;
mod edwards;
mod elgamal;
mod eme;
mod keys;
pub mod kw;
mod legacy;
pub(crate) mod modulus;
pub(crate) mod mpi;
mod nist;
mod payload;
mod pkcs1;
mod pq;
mod public;
mod rsa_prepared;
mod secret;
mod session;
mod sigmat;
mod sign;

pub use super::types::Hasher;
pub use super::types::{Curve, HashAlg, PublicKeyAlg};
pub use keys::{KeyType, generate};
pub use mpi::Mpi;
pub use payload::{PkeskPayload, PkeskVersion};
pub use public::PublicMaterial;
pub use rsa_prepared::PreparedRsa;
pub use secret::SecretMaterial;
pub use session::{decrypt_session_key, encrypt_session_key};
pub use sigmat::SigMaterial;
pub use sign::{sign, verifications_on_this_thread, verify};

#[cfg(test)]
mod tests;
