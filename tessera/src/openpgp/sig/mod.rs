//! OpenPGP signature packets (RFC 9580 §5.2): v4 and v6, subpackets, the
//! hashing rules of each signature type, verification with its policy, and
//! making signatures; document signatures streamed three ways: detached
//! ([`Signer`], [`Verifier`]), inline with one-pass signature packets
//! ([`InlineSigner`], [`InlineVerifier`]) and cleartext ([`ClearSigner`],
//! [`read_cleartext`]). Which signatures count is decided in [`check`].
//!
//! ```
//! use tessera::openpgp::key::{generate, GenerateOptions};
//! use tessera::openpgp::sig::Signature;
//!
//! let key = generate(&GenerateOptions::default()).unwrap();
//! let primary = key.primary.public();
//! let sig: &Signature = &key.direct_sigs[0];
//! sig.verify_direct_key(primary).unwrap();
//! let reparsed = Signature::parse(&sig.to_bytes()).unwrap();
//! assert_eq!(&reparsed, sig);
//! ```

mod builder;
pub mod check;
mod cleartext;
pub mod cost;
mod document;
mod fields;
mod hash_choice;
mod hash_thread;
pub mod hashing;
mod inline;
mod ops;
mod packet;
mod stream;
pub mod subpacket;
mod verify;

pub use builder::SignatureBuilder;
pub use check::{Outcome, SigResult};
pub(crate) use cleartext::{BEGIN_SIG, skip_cleartext};
pub use cleartext::{ClearSigner, MAX_CLEARTEXT, is_cleartext, read_cleartext};
pub use document::{Signer, SigningKey, Verifier};
pub use hashing::{DocumentHasher, HashedFields};
pub use inline::{InlineSigner, InlineVerifier};
pub use ops::{OnePassSig, OpsIssuer};
pub use packet::{SigType, Signature};
pub(crate) use stream::{SigPacket, read_sig_body};
pub use stream::{read_signatures, write_signatures};
pub use subpacket::{Subpacket, SubpacketValue};
pub use verify::SHA1_BINDING_CUTOFF;

/// Most signatures, and most one-pass signatures, read from one message or
/// detached signature: each costs a hash context and a public-key check,
/// so more are refused with [`super::Error::Limit`].
///
/// ```
/// use tessera::openpgp::sig::{MAX_SIGNATURES, read_signatures};
/// assert_eq!(MAX_SIGNATURES, 64);
/// // Nothing to read: refused as malformed, not as too many.
/// assert!(read_signatures(&b""[..]).is_err());
/// ```
pub const MAX_SIGNATURES: usize = 64;

/// The error for a message with more than [`MAX_SIGNATURES`].
pub(crate) fn too_many_signatures() -> super::Error {
    super::Error::Limit("more than 64 signatures or one-pass signatures in one message")
}
