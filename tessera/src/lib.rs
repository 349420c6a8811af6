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
//! - [`hex`] and [`fs`]: what front ends share at the edge: keys written as hex, and
//!   output files that appear only when everything succeeded.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod aead;
pub mod aes;
pub mod cmac;
mod ct;
mod error;
pub mod fpe;
pub mod fs;
pub mod hex;
pub mod keyset;
pub mod openpgp;
pub mod siv;
mod wipe;

/// The length in bytes of every authentication tag in this crate: the AEAD
/// modes' tags ([`aead::Tag`]), AES-SIV's synthetic IV and a CMAC.
pub const TAG_LEN: usize = 16;

/// How many values front ends hand to one batch call
/// ([`fpe::Fpe::encrypt_batch`], [`siv::AesSiv::encrypt_batch`]): enough
/// for the interleaved paths to run at full speed, few enough that the
/// buffers stay small (a few hundred KiB for card-number-sized values)
/// whatever the input size.
///
/// ```
/// assert!(tessera::BATCH_SIZE >= 1024);
/// ```
pub const BATCH_SIZE: usize = 8192;

pub use cmac::Cmac;
pub use error::Error;
pub use siv::AesSiv;
