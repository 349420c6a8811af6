//! The words every other OpenPGP module speaks: errors, algorithm ids,
//! hashes, key names, session keys, S2K specifiers, profiles and the names
//! users give them. Nothing here imports
//! from the modules above it (`scripts/imports.py` checks it), so packets,
//! keys, signatures and messages can all build on it.

mod algs;
mod cipher;
mod error;
mod fingerprint;
mod hash;
mod hash_alg;
mod key_error;
mod names;
mod profile;
mod session_key;
internal_mods!(s2k);

pub use algs::{Curve, PublicKeyAlg};
pub use cipher::SymAlg;
pub use error::{Error, Result};
pub(crate) use fingerprint::hex_upper;
pub use fingerprint::{Fingerprint, KeyId, KeyVersion, MalformedFingerprint};
pub use hash::Hasher;
pub use hash_alg::HashAlg;
pub use key_error::KeyError;
pub use profile::{Profile, S2kChoice, S2kKind, SeipdVersion};
pub use s2k::S2kLimits;
pub use session_key::SessionKey;
