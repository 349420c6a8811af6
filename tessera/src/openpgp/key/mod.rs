//! OpenPGP keys and certificates (RFC 9580 §5.5, §10.1, §10.2): key packets
//! v4 and v6, fingerprints, secret keys and their password protection, one
//! certificate model for every use, validity at a given time, recipient
//! algorithm choice, and key generation.
//!
//! ```
//! use tessera::openpgp::key::{generate, Cert, GenerateOptions};
//!
//! let opts = GenerateOptions { user_ids: vec!["Alice <alice@example.org>".into()], ..Default::default() };
//! let key = generate(&opts).unwrap();
//! let mut armored = Vec::new();
//! key.to_public().write_armored(&mut armored).unwrap();
//! let cert = Cert::from_bytes(&armored).unwrap();
//! assert_eq!(cert.fingerprint(), key.fingerprint());
//! assert!(!cert.is_secret());
//! ```

mod cert;
mod cert_read;
mod certify;
mod check_cache;
mod checks;
mod generate;
mod lifetime;
mod merge;
mod packet;
mod recipients;
mod revoke;
mod secret;
mod session;
mod update;
mod user_id_binding;
mod valid;
mod validity;

pub use super::types::{Fingerprint, KeyError, KeyId, KeyVersion, MalformedFingerprint};
pub use cert::{Cert, CertKey, Subkey, UserId, key_tag};
pub(crate) use cert_read::read_body;
pub use certify::CertifyOptions;
pub use check_cache::MAX_CHECKS_PER_VALIDATION;
pub(crate) use checks::{Charge, cert_octets};
pub use generate::{GenerateOptions, KeyProfile, generate};
pub use lifetime::{DEFAULT_KEY_DAYS, KeyLifetime};
pub use merge::merge_certs;
pub use packet::PublicKey;
pub use recipients::EncryptionPlan;
pub use revoke::RevocationReason;
pub use secret::{KEY_UNLOCK_LIMITS, SecretKey};
pub use session::decrypt_pkesks;
pub(crate) use session::decrypt_pkesks_for;
pub use update::{ExpiryChange, REFRESH_MARGIN, UpdateOptions};
pub use user_id_binding::UserIdQuery;
pub use valid::{ValidCert, ValidKey, features, flags};
