//! The names RFC 9580 gives packet types, algorithms, signature types,
//! subpackets and key flags, and [`escape`], which makes text from a
//! packet safe to print on a terminal.

use std::fmt::Write as _;

use super::super::crypto::PublicKeyAlg;
use super::super::sig::SigType;

/// The name of packet type `tag` (RFC 9580 §5).
///
/// ```
/// use tessera::openpgp::inspect::tag_name;
/// assert_eq!(tag_name(3), "Symmetric-Key Encrypted Session Key");
/// assert_eq!(tag_name(50), "Unknown");
/// ```
pub fn tag_name(tag: u8) -> &'static str {
    match tag {
        1 => "Public-Key Encrypted Session Key",
        2 => "Signature",
        3 => "Symmetric-Key Encrypted Session Key",
        4 => "One-Pass Signature",
        5 => "Secret Key",
        6 => "Public Key",
        7 => "Secret Subkey",
        8 => "Compressed Data",
        9 => "Symmetrically Encrypted Data",
        10 => "Marker",
        11 => "Literal Data",
        12 => "Trust",
        13 => "User ID",
        14 => "Public Subkey",
        17 => "User Attribute",
        18 => "Symmetrically Encrypted and Integrity Protected Data",
        19 => "Modification Detection Code",
        21 => "Padding",
        60..=63 => "Private or Experimental",
        _ => "Unknown",
    }
}

/// The name of a public-key algorithm (RFC 9580 §9.1).
///
/// ```
/// use tessera::openpgp::crypto::PublicKeyAlg;
/// use tessera::openpgp::inspect::pk_alg_name;
/// assert_eq!(pk_alg_name(PublicKeyAlg::EdDsaLegacy), "EdDSALegacy");
/// ```
pub fn pk_alg_name(alg: PublicKeyAlg) -> &'static str {
    match alg {
        PublicKeyAlg::Rsa => "RSA",
        PublicKeyAlg::RsaEncryptOnly => "RSA (encrypt only)",
        PublicKeyAlg::RsaSignOnly => "RSA (sign only)",
        PublicKeyAlg::Ecdh => "ECDH",
        PublicKeyAlg::Ecdsa => "ECDSA",
        PublicKeyAlg::EdDsaLegacy => "EdDSALegacy",
        PublicKeyAlg::X25519 => "X25519",
        PublicKeyAlg::X448 => "X448",
        PublicKeyAlg::Ed25519 => "Ed25519",
        PublicKeyAlg::Ed448 => "Ed448",
        PublicKeyAlg::Elgamal => "Elgamal (encrypt only)",
        PublicKeyAlg::Dsa => "DSA",
        PublicKeyAlg::MlDsa65Ed25519 => "ML-DSA-65+Ed25519",
        PublicKeyAlg::MlDsa87Ed448 => "ML-DSA-87+Ed448",
        PublicKeyAlg::SlhDsaShake128s => "SLH-DSA-SHAKE-128s",
        PublicKeyAlg::SlhDsaShake128f => "SLH-DSA-SHAKE-128f",
        PublicKeyAlg::SlhDsaShake256s => "SLH-DSA-SHAKE-256s",
        PublicKeyAlg::MlKem768X25519 => "ML-KEM-768+X25519",
        PublicKeyAlg::MlKem1024X448 => "ML-KEM-1024+X448",
    }
}

/// The name of a signature type (RFC 9580 §5.2.1).
///
/// ```
/// use tessera::openpgp::inspect::sig_type_name;
/// use tessera::openpgp::sig::SigType;
/// assert_eq!(sig_type_name(SigType::Certification(0x13)), "positive certification");
/// assert_eq!(sig_type_name(SigType::Other(0x40)), "timestamp");
/// ```
pub fn sig_type_name(t: SigType) -> &'static str {
    match t {
        SigType::Binary => "binary document",
        SigType::Text => "text document",
        SigType::Certification(0x10) => "generic certification",
        SigType::Certification(0x11) => "persona certification",
        SigType::Certification(0x12) => "casual certification",
        SigType::Certification(_) => "positive certification",
        SigType::SubkeyBinding => "subkey binding",
        SigType::PrimaryKeyBinding => "primary key binding",
        SigType::DirectKey => "direct key",
        SigType::KeyRevocation => "key revocation",
        SigType::SubkeyRevocation => "subkey revocation",
        SigType::CertificationRevocation => "certification revocation",
        SigType::Other(0x02) => "standalone",
        SigType::Other(0x40) => "timestamp",
        SigType::Other(0x50) => "third-party confirmation",
        SigType::Other(_) => "unknown",
    }
}

/// The name of a signature subpacket type (RFC 9580 §5.2.3.7).
///
/// ```
/// use tessera::openpgp::inspect::subpacket_name;
/// assert_eq!(subpacket_name(33), "issuer fingerprint");
/// assert_eq!(subpacket_name(99), "unknown");
/// ```
pub fn subpacket_name(kind: u8) -> &'static str {
    match kind {
        2 => "signature creation time",
        3 => "signature expiration time",
        4 => "exportable certification",
        5 => "trust signature",
        6 => "regular expression",
        7 => "revocable",
        9 => "key expiration time",
        11 => "preferred symmetric ciphers",
        12 => "revocation key",
        16 => "issuer key ID",
        20 => "notation data",
        21 => "preferred hash algorithms",
        22 => "preferred compression algorithms",
        23 => "key server preferences",
        24 => "preferred key server",
        25 => "primary user ID",
        26 => "policy URI",
        27 => "key flags",
        28 => "signer's user ID",
        29 => "reason for revocation",
        30 => "features",
        31 => "signature target",
        32 => "embedded signature",
        33 => "issuer fingerprint",
        35 => "intended recipient fingerprint",
        37 => "attested certifications",
        38 => "key block",
        39 => "preferred AEAD ciphersuites",
        100..=110 => "private or experimental",
        _ => "unknown",
    }
}

/// The name of a compression algorithm (RFC 9580 §9.4).
///
/// ```
/// use tessera::openpgp::inspect::compression_name;
/// assert_eq!(compression_name(2), "ZLIB");
/// ```
pub fn compression_name(alg: u8) -> &'static str {
    match alg {
        0 => "uncompressed",
        1 => "ZIP",
        2 => "ZLIB",
        3 => "BZip2",
        _ => "unknown",
    }
}

/// The capabilities the first key flags octet grants (RFC 9580 §5.2.3.29).
///
/// ```
/// use tessera::openpgp::inspect::key_flag_names;
/// assert_eq!(key_flag_names(0x03), ["certify", "sign"]);
/// assert_eq!(key_flag_names(0x0c), ["encrypt communications", "encrypt storage"]);
/// ```
pub fn key_flag_names(flags: u8) -> Vec<&'static str> {
    const NAMES: [(u8, &str); 7] = [
        (0x01, "certify"),
        (0x02, "sign"),
        (0x04, "encrypt communications"),
        (0x08, "encrypt storage"),
        (0x10, "split key"),
        (0x20, "authenticate"),
        (0x80, "group key"),
    ];
    NAMES.iter().filter(|(bit, _)| flags & bit != 0).map(|&(_, name)| name).collect()
}

/// Text from a packet (a User ID, a file name), safe to print: valid UTF-8
/// is kept but for control characters and bidirectional overrides, which
/// are written as `\u{..}`, and backslashes, which are doubled; octets that
/// are not UTF-8 are written as `\xNN`. A hostile User ID cannot move the
/// cursor, change colours or reorder what a terminal shows.
///
/// ```
/// use tessera::openpgp::inspect::escape;
/// assert_eq!(escape(b"Alice <alice@example.org>"), "Alice <alice@example.org>");
/// assert_eq!(escape(b"evil\x1b[2J\n"), "evil\\u{1b}[2J\\u{a}");
/// assert_eq!(escape(b"caf\xc3\xa9 \xff\\"), "caf\u{e9} \\xff\\\\");
/// assert_eq!(escape("a\u{202e}b".as_bytes()), "a\\u{202e}b");
/// ```
pub fn escape(text: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    for chunk in text.utf8_chunks() {
        for c in chunk.valid().chars() {
            let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            match c {
                '\\' => out.push_str("\\\\"),
                c if c.is_control() || bidi => {
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}
