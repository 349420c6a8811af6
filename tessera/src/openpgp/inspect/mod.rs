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
mod summary;
mod walk;

use std::io::BufRead;

pub use names::{compression_name, escape, key_flag_names, pk_alg_name, sig_type_name, subpacket_name, tag_name};
pub use summary::{KeyFacts, KeySummary, Summary};

use super::crypto::{HashAlg, PublicKeyAlg};
use super::key::{Fingerprint, KeyId, PublicKey};
use super::sig::{OnePassSig, Signature};
use super::{Error, Result, SymAlg};
use crate::aead::Mode;

/// Bounds on what one inspection reads.
///
/// ```
/// use tessera::openpgp::inspect::Limits;
/// let l = Limits::default();
/// assert_eq!((l.max_packets, l.max_depth), (100_000, 4));
/// assert_eq!(l.max_decompressed_size, Some(1 << 34));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most packets reported (counting those inside compressed data).
    pub max_packets: usize,
    /// Most compressed data packets nested in one another.
    pub max_depth: usize,
    /// Most octets one compressed data packet may decompress to (`None`:
    /// no limit); exceeding it is [`Error::LimitExceeded`].
    pub max_decompressed_size: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_packets: 100_000,
            max_depth: 4,
            max_decompressed_size: Some(super::DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE),
        }
    }
}

/// What an inspection found.
#[derive(Debug)]
pub struct Report {
    /// The armor kind (`MESSAGE`, `PUBLIC KEY BLOCK`, ...) of the first
    /// armored block, if the input was armored.
    pub armor: Option<String>,
    /// The cleartext framework around the signatures, if the input was a
    /// cleartext-signed text.
    pub cleartext: Option<Cleartext>,
    /// Every packet, in order; those inside compressed data follow it with
    /// a greater depth.
    pub packets: Vec<Packet>,
    /// What the data is, as a whole.
    pub summary: Summary,
}

/// The text part of a cleartext-signed message (RFC 9580 §7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleartext {
    /// The algorithms of the `Hash` header (empty without one).
    pub hashes: Vec<HashAlg>,
    /// Lines between the header and the signature block (text ending in
    /// a line ending has an empty last line).
    pub lines: u64,
}

/// How a packet's body length is given (RFC 9580 §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One definite length.
    Fixed,
    /// Partial body lengths (pieces, then a definite last one).
    Partial,
    /// Old format, indeterminate: the body runs to the end of the input.
    Indeterminate,
}

/// One packet.
#[derive(Debug)]
pub struct Packet {
    /// The packet type id.
    pub tag: u8,
    /// Whether the header is in the new (OpenPGP) format, else the legacy one.
    pub new_format: bool,
    /// How the body length is given.
    pub framing: Framing,
    /// Octets of the body, when known (for compressed data with partial
    /// lengths it is not counted).
    pub body_len: Option<u64>,
    /// 0 at the top; one more inside each compressed data packet.
    pub depth: usize,
    /// The fields.
    pub detail: Detail,
}

/// What a packet says.
#[derive(Debug)]
#[non_exhaustive]
pub enum Detail {
    /// Public-key encrypted session key.
    Pkesk(PkeskInfo),
    /// Symmetric-key (password) encrypted session key.
    Skesk(SkeskInfo),
    /// Encrypted and integrity protected data: its header only.
    Seipd(SeipdInfo),
    /// Symmetrically encrypted data without integrity protection.
    Sed,
    /// Compressed data: the algorithm id; its packets follow.
    Compressed(u8),
    /// One-pass signature.
    OnePassSig(OnePassSig),
    /// Signature.
    Signature(Box<Signature>),
    /// Literal data: the metadata and the length of the data (never the data).
    Literal {
        /// Format octet (`b`, `t`, `u`).
        format: u8,
        /// Stored file name (escape it before printing: see [`escape`]).
        file_name: Vec<u8>,
        /// Stored date (seconds since 1970; 0: none).
        date: u32,
        /// Octets of data.
        data_len: u64,
    },
    /// Public key, public subkey, secret key or secret subkey.
    Key(Box<KeyInfo>),
    /// User ID (escape it before printing: see [`escape`]).
    UserId(Vec<u8>),
    /// A packet that carries nothing to report: user attribute, marker,
    /// padding, trust, MDC.
    Opaque,
    /// A packet type this crate does not know: skipped.
    Unknown,
    /// A body this crate cannot parse (an unsupported version or
    /// algorithm, or malformed fields); the walk goes on after it.
    Unreadable(Error),
}

/// A key named by key ID or by fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyHandle {
    /// A key ID.
    KeyId(KeyId),
    /// A fingerprint.
    Fingerprint(Fingerprint),
}

/// A PKESK packet's public fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PkeskInfo {
    /// Packet version (3 or 6).
    pub version: u8,
    /// The recipient (`None`: anonymous).
    pub recipient: Option<KeyHandle>,
    /// The recipient key's algorithm.
    pub alg: PublicKeyAlg,
}

/// A string-to-key specifier, without its salt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum S2kInfo {
    /// Type 0: the hash of the password.
    Simple(HashAlg),
    /// Type 1: hash of salt and password.
    Salted(HashAlg),
    /// Type 3: iterated and salted, over this many octets.
    Iterated {
        /// The hash.
        hash: HashAlg,
        /// Octets hashed.
        octets: u64,
    },
    /// Type 4: Argon2id.
    Argon2 {
        /// Passes.
        t: u8,
        /// Lanes.
        p: u8,
        /// Memory: 2^m KiB.
        m: u8,
    },
}

/// A SKESK packet's public fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkeskInfo {
    /// Packet version (4 or 6).
    pub version: u8,
    /// Cipher.
    pub cipher: SymAlg,
    /// AEAD mode (version 6).
    pub aead: Option<Mode>,
    /// How the password becomes a key.
    pub s2k: S2kInfo,
}

/// A SEIPD packet's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeipdInfo {
    /// Packet version (1: CFB and MDC; 2: AEAD chunks).
    pub version: u8,
    /// Version 2: cipher, AEAD mode and chunk size in octets.
    pub v2: Option<(SymAlg, Mode, u64)>,
    /// Octets of encrypted data after the header.
    pub encrypted_len: u64,
}

/// How a secret key's secret fields are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protection {
    /// In the clear (S2K usage 0).
    Unprotected,
    /// Encrypted under a password.
    Password {
        /// S2K usage octet (253: AEAD, 254: CFB with SHA-1 check).
        usage: u8,
        /// Cipher.
        cipher: SymAlg,
        /// AEAD mode (usage 253).
        aead: Option<Mode>,
        /// How the password becomes a key.
        s2k: S2kInfo,
    },
}

/// A key packet's public fields and, for a secret key, its protection.
#[derive(Debug, Clone)]
pub struct KeyInfo {
    /// Whether it is a subkey.
    pub subkey: bool,
    /// The public fields (version, algorithm, creation time, fingerprint).
    pub public: PublicKey,
    /// For a secret key packet: how its secret fields are stored.
    pub secret: Option<Protection>,
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
    let summary = summary::summarize(&packets, cleartext.is_some());
    Ok(Report { armor, cleartext, packets, summary })
}
