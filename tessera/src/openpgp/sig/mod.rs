//! OpenPGP signature packets (RFC 9580 §5.2): v4 and v6, subpackets, the
//! hashing rules of each signature type, verification with its policy, and
//! making signatures.
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
pub mod hashing;
mod packet;
pub mod subpacket;
mod verify;

pub use builder::SignatureBuilder;
pub use hashing::{DocumentHasher, HashedFields};
pub use packet::{SigType, Signature};
pub use subpacket::{Subpacket, SubpacketValue};
pub use verify::SHA1_BINDING_CUTOFF;
