//! Looking inside OpenPGP data without keys or passwords, as `sq inspect`
//! and `gpg --list-packets` do: every packet's framing and fields, then
//! what the whole is (a certificate, a secret key, an encrypted or signed
//! message, detached signatures, a cleartext-signed text).
//!
//! Nothing is decrypted and no secret is kept: of a secret key packet only
//! the public fields and how the secret ones are protected are reported;
//! literal data and encrypted data are read through and counted, never
//! held, so a message of any size is inspected in constant memory.
//! Compressed data is decompressed (within [`Limits`]) to show the packets
//! inside it.
//!
//! ```
//! use tessera::openpgp::inspect::{Limits, Summary, inspect};
//! let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
//! let report = inspect(cert.as_slice(), &Limits::default())?;
//! let Summary::Certificates(keys) = &report.summary else { panic!("a certificate") };
//! assert_eq!(keys[0].primary.fingerprint.to_hex(), "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9");
//! assert_eq!(report.armor.as_deref(), Some("PUBLIC KEY BLOCK"));
//! # Ok::<(), tessera::openpgp::Error>(())
//! ```

mod bodies;
mod input;
mod names;
mod report;
mod summarize;
mod summary;
mod walk;

use std::io::BufRead;

pub use names::{compression_name, escape, key_flag_names, pk_alg_name, sig_type_name, subpacket_name, tag_name};
pub use report::{
    Cleartext, Detail, Framing, KeyInfo, Packet, PkeskInfo, Protection, Report, S2kInfo, SeipdInfo, SkeskInfo,
};
pub use summary::{KeyFacts, KeyHandle, KeySummary, Summary};

use super::{Error, Result};

/// Bounds on what one inspection reads.
///
/// ```
/// use tessera::openpgp::inspect::Limits;
/// let l = Limits::default();
/// assert_eq!((l.max_packets, l.max_depth), (100_000, 4));
/// assert_eq!(l.max_decompressed_size, Some(64 << 20));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most packets reported (counting those inside compressed data).
    pub max_packets: usize,
    /// Most compressed data packets nested in one another.
    pub max_depth: usize,
    /// Most octets all compressed data packets of the input together may
    /// decompress to (`None`: no limit); exceeding it is
    /// [`Error::LimitExceeded`]. Packets inside are reported, not kept whole,
    /// but their headers and metadata are: 64 MiB by default.
    pub max_decompressed_size: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_packets: 100_000, max_depth: 4, max_decompressed_size: Some(64 << 20) }
    }
}

/// Reads OpenPGP data (binary, armored, or a cleartext-signed text) and
/// reports its packets and what it is. Garbage, truncated data and
/// anything over `limits` are errors; a packet whose body cannot be parsed
/// is reported as [`Detail::Unreadable`].
///
/// ```
/// use tessera::openpgp::inspect::{Limits, inspect};
/// assert!(inspect(&b"hello, world"[..], &Limits::default()).is_err());
/// assert!(inspect(&b""[..], &Limits::default()).is_err());
/// ```
pub fn inspect<R: BufRead>(input: R, limits: &Limits) -> Result<Report> {
    let (armor, cleartext, packets) = input::read(input, limits)?;
    if packets.is_empty() {
        return Err(Error::Malformed("no OpenPGP packets"));
    }
    let summary = summarize::summarize(&packets, cleartext.is_some());
    Ok(Report { armor, cleartext, packets, summary })
}
