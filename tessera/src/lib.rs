//! tessera: AES-based data protection that gives the standard's bytes, fast.
//!
//! - [`fpe`]: format-preserving encryption, FF1 and FF3-1 (NIST SP 800-38G Rev 1)
//!   and legacy FF3, over any alphabet, one value or large batches.
//! - [`siv`]: AES-SIV (RFC 5297) deterministic authenticated encryption, one message
//!   or interleaved batches, into caller buffers without allocation.
//! - [`cmac`]: AES-CMAC (RFC 4493), subkeys cached, no allocation.
//! - [`aead`]: OCB (RFC 7253), EAX and GCM for chunked encryption, in place with a
//!   detached tag, through one trait ([`aead::AeadInPlace`]).
//! - [`aes`]: the AES block cipher (from the RustCrypto `aes` crate) chosen by key length.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod aead;
pub mod aes;
pub mod cmac;
mod ct;
mod error;
pub mod fpe;
pub mod openpgp;
pub mod siv;
mod wipe;

/// The length in bytes of every authentication tag in this crate: the AEAD
/// modes' tags ([`aead::Tag`]), AES-SIV's synthetic IV and a CMAC.
pub const TAG_LEN: usize = 16;

pub use cmac::Cmac;
pub use error::Error;
pub use siv::AesSiv;
