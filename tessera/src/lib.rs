//! tessera: AES-based data protection that gives the standard's bytes, fast.
//!
//! - [`fpe`]: format-preserving encryption, FF1 and FF3-1 (NIST SP 800-38G Rev 1)
//!   and legacy FF3, over any alphabet, one value or large batches.
//! - [`aes`]: the AES block cipher (from the RustCrypto `aes` crate) chosen by key length.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod aes;
mod error;
pub mod fpe;

pub use error::Error;
