//! The types of an inspection's report.

use super::super::crypto::{HashAlg, PublicKeyAlg};
use super::super::key::PublicKey;
use super::super::sig::{OnePassSig, Signature};
use super::super::{Error, SymAlg};
use super::{KeyHandle, Summary};
use crate::aead::Mode;

/// What an inspection found.
///
/// ```
/// use tessera::openpgp::inspect::{Limits, inspect};
/// # let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let report = inspect(cert.as_slice(), &Limits::default())?; // RFC 9580 A.3
/// let tags: Vec<u8> = report.packets.iter().map(|p| p.tag).collect();
/// assert_eq!(tags, [6, 2, 14, 2]); // key, direct key signature, subkey, binding
/// assert!(report.cleartext.is_none());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
///
/// ```
/// use tessera::openpgp::inspect::{Limits, inspect};
/// # let text = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a6_cleartext.asc"));
/// let report = inspect(text.as_slice(), &Limits::default())?; // RFC 9580 A.6
/// let clear = report.cleartext.expect("cleartext");
/// assert!(clear.hashes.is_empty()); // a v6 signature: no Hash header
/// assert_eq!(clear.lines, 6);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleartext {
    /// The algorithms of the `Hash` header (empty without one).
    pub hashes: Vec<HashAlg>,
    /// Lines between the header and the signature block (text ending in
    /// a line ending has an empty last line).
    pub lines: u64,
}

/// How a packet's body length is given (RFC 9580 §4.2).
///
/// ```
/// use tessera::openpgp::inspect::{Framing, Limits, inspect};
/// # let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let report = inspect(cert.as_slice(), &Limits::default())?;
/// assert_eq!(report.packets[0].framing, Framing::Fixed);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
///
/// ```
/// use tessera::openpgp::inspect::{Limits, inspect, tag_name};
/// # let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let p = &inspect(cert.as_slice(), &Limits::default())?.packets[0];
/// assert_eq!((tag_name(p.tag), p.new_format, p.body_len, p.depth), ("Public Key", true, Some(42), 0));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
///
/// ```
/// use tessera::openpgp::inspect::{Detail, Limits, inspect};
/// use tessera::openpgp::sig::SigType;
/// # let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let report = inspect(cert.as_slice(), &Limits::default())?;
/// let Detail::Signature(sig) = &report.packets[1].detail else { panic!("a signature") };
/// assert_eq!(sig.sig_type(), SigType::DirectKey);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
        /// Stored file name (escape it before printing: see [`escape`](super::escape)).
        file_name: Vec<u8>,
        /// Stored date (seconds since 1970; 0: none).
        date: u32,
        /// Octets of data.
        data_len: u64,
    },
    /// Public key, public subkey, secret key or secret subkey.
    Key(Box<KeyInfo>),
    /// User ID (escape it before printing: see [`escape`](super::escape)).
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

/// A PKESK packet's public fields.
///
/// ```
/// use tessera::openpgp::crypto::PublicKeyAlg;
/// use tessera::openpgp::inspect::{Detail, Limits, inspect};
/// # let msg = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a8_x25519_ocb.asc"));
/// let report = inspect(msg.as_slice(), &Limits::default())?; // RFC 9580 A.8
/// let Detail::Pkesk(p) = &report.packets[0].detail else { panic!("a PKESK") };
/// assert_eq!((p.version, p.alg), (6, PublicKeyAlg::X25519));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
///
/// ```
/// use tessera::openpgp::crypto::HashAlg;
/// use tessera::openpgp::inspect::{Detail, Limits, S2kInfo, inspect};
/// # let msg = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
/// let report = inspect(msg.as_slice(), &Limits::default())?; // RFC 9580 A.9
/// let Detail::Skesk(s) = &report.packets[0].detail else { panic!("a SKESK") };
/// assert_eq!(s.s2k, S2kInfo::Iterated { hash: HashAlg::Sha256, octets: 65_011_712 });
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
///
/// ```
/// use tessera::aead::Mode;
/// use tessera::openpgp::SymAlg;
/// use tessera::openpgp::inspect::{Detail, Limits, inspect};
/// # let msg = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
/// let report = inspect(msg.as_slice(), &Limits::default())?;
/// let Detail::Skesk(s) = &report.packets[0].detail else { panic!("a SKESK") };
/// assert_eq!((s.version, s.cipher, s.aead), (6, SymAlg::Aes128, Some(Mode::Ocb)));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
///
/// ```
/// use tessera::aead::Mode;
/// use tessera::openpgp::SymAlg;
/// use tessera::openpgp::inspect::{Detail, Limits, inspect};
/// # let msg = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
/// let report = inspect(msg.as_slice(), &Limits::default())?;
/// let Detail::Seipd(s) = &report.packets[1].detail else { panic!("a SEIPD packet") };
/// assert_eq!((s.version, s.v2), (2, Some((SymAlg::Aes128, Mode::Ocb, 4096))));
/// assert_eq!(s.encrypted_len, 69); // one chunk of 37 octets, its tag and the final tag
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
///
/// ```
/// use tessera::openpgp::inspect::{Detail, Limits, Protection, S2kInfo, inspect};
/// # let key = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a5_v6_secret_locked.asc"));
/// let report = inspect(key.as_slice(), &Limits::default())?; // RFC 9580 A.5
/// let Detail::Key(k) = &report.packets[0].detail else { panic!("a key") };
/// let Some(Protection::Password { usage: 253, s2k, .. }) = k.secret else { panic!("locked with AEAD") };
/// assert_eq!(s2k, S2kInfo::Argon2 { t: 1, p: 4, m: 21 });
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
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
///
/// ```
/// use tessera::openpgp::inspect::{Detail, Limits, Protection, inspect};
/// # let key = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a4_v6_secret.asc"));
/// let report = inspect(key.as_slice(), &Limits::default())?; // RFC 9580 A.4
/// let Detail::Key(k) = &report.packets[2].detail else { panic!("a key") };
/// assert!(k.subkey && k.secret == Some(Protection::Unprotected));
/// assert_eq!(k.public.key_id().to_string(), "12C83F1E706F6308");
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct KeyInfo {
    /// Whether it is a subkey.
    pub subkey: bool,
    /// The public fields (version, algorithm, creation time, fingerprint).
    pub public: PublicKey,
    /// For a secret key packet: how its secret fields are stored.
    pub secret: Option<Protection>,
}
