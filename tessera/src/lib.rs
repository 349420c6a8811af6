//! tessera: AES-based data protection that gives the standard's bytes, fast.
//!
//! - [`fpe`]: format-preserving encryption, FF1 and FF3-1 (NIST SP 800-38G Rev 1)
//!   and legacy FF3, over any alphabet, one value or large batches.
//! - [`siv`]: AES-SIV (RFC 5297) deterministic authenticated encryption, one message
//!   or interleaved batches, into caller buffers without allocation.
//! - [`cmac`]: AES-CMAC (RFC 4493), subkeys cached, no allocation.
//! - [`aead`]: OCB (RFC 7253), EAX and GCM for chunked encryption, in place with a
//!   detached tag, through one trait ([`aead::AeadInPlace`]).
//! - [`aes`]: the AES block cipher chosen by key length (on AES-NI and VAES, else the RustCrypto `aes` crate).
//! - [`openpgp`]: OpenPGP (RFC 9580) messages, streaming in constant memory:
//!   password (SKESK v6/v4) and public-key encryption, SEIPD v2 (AEAD chunks)
//!   and v1, ASCII armor, keys and signatures. Its engine modules (packets,
//!   S2K, SKESK, PKESK, SEIPD) are public only with the `internals` feature,
//!   for the fuzzer and the tests: unstable, outside semver.
//! - [`cpu`]: which x86-64 kernels run (AES-NI, AVX2, VAES, AVX-512), detected
//!   once at run time and capped by `TESSERA_CPU`.
//! - [`keyset`]: named FPE and SIV transformations with versioned keys, rotation and rewrap.
//! - [`hex`] and [`fs`]: what front ends share at the edge: keys written as hex,
//!   output files that appear only when everything succeeded, and output held
//!   back until it is authenticated.
//!
//! ```
//! use std::io::{Read, Write};
//! use tessera::aead::{Aad, Aead, AeadInPlace, Mode, Nonce};
//! use tessera::fpe::{Alphabet, FF1, Fpe};
//! use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
//! use tessera::siv::AesSiv;
//!
//! // Format-preserving: a card number stays 16 digits.
//! let ff1 = FF1::new(&[0x2b; 16], Alphabet::digits())?;
//! let token = ff1.encrypt(b"tweak", "4111111111111111")?;
//! assert_eq!(ff1.decrypt(b"tweak", &token)?, "4111111111111111");
//!
//! // Deterministic authenticated encryption: equal inputs, equal outputs.
//! let siv = AesSiv::new(&[0x42; 32])?;
//! let ct = siv.seal(None, &[b"users.email"], b"alice@example.com")?;
//! assert_eq!(ct.len(), tessera::TAG_LEN + 17);
//!
//! // One AEAD chunk, as OpenPGP seals it.
//! let aead = Aead::new(Mode::Ocb, &[7; 16])?;
//! let mut chunk = *b"chunk";
//! let tag = aead.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[1; 15]), Aad::new(b"ad"), &mut chunk)?;
//! aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(&[1; 15]), Aad::new(b"ad"), &mut chunk, &tag)?;
//! assert_eq!(&chunk, b"chunk");
//!
//! // A password-encrypted OpenPGP message, written and read as streams.
//! let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
//! let mut enc = Encryptor::new(Vec::new(), &[b"password".as_slice()], &opts).unwrap();
//! enc.write_all(b"Hello").unwrap();
//! let message = enc.finish().unwrap();
//! let mut out = Vec::new();
//! Decryptor::new(message.as_slice(), &[b"password".as_slice()]).unwrap().read_to_end(&mut out).unwrap();
//! assert_eq!(out, b"Hello");
//! # Ok::<(), tessera::Error>(())
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod aead;
pub mod aes;
pub mod cmac;
pub mod cpu;
mod ct;
mod direction;
mod error;
pub mod fpe;
pub mod fs;
pub mod hex;
pub mod keyset;
pub mod openpgp;
#[cfg(target_arch = "x86_64")]
mod simd;
pub mod siv;
mod wipe;

/// The length in bytes of every authentication tag in this crate: the AEAD
/// modes' tags ([`aead::Tag`]), AES-SIV's synthetic IV and a CMAC.
pub const TAG_LEN: usize = 16;

/// How many values front ends hand to one batch call
/// ([`fpe::Fpe::encrypt_batch`], [`siv::AesSiv::seal_batch`]): enough
/// for the interleaved paths to run at full speed, few enough that the
/// buffers stay small (a few hundred KiB for card-number-sized values)
/// whatever the input size.
///
/// ```
/// assert!(tessera::BATCH_SIZE >= 1024);
/// ```
pub const BATCH_SIZE: usize = 8192;

pub use cmac::Cmac;
pub use direction::Direction;
pub use error::Error;
pub use siv::AesSiv;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
