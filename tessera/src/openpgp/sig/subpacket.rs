//! Signature subpackets (RFC 9580 §5.2.3.7 and §5.2.3.8): parsed into a typed
//! [`Subpacket`], written back byte for byte.
//!
//! A signature keeps its subpacket areas as the exact bytes it was hashed
//! over; the typed list is read from them. An area that does not parse makes
//! the whole signature malformed; a critical subpacket of a type this module
//! does not interpret is kept as [`SubpacketValue::Other`] and makes the
//! signature invalid when it is verified ([`Subpacket::is_unknown_critical`]).
//!
//! ```
//! use tessera::openpgp::sig::subpacket::{Subpacket, SubpacketValue, parse_area, write_area};
//! let area = write_area(&[
//!     Subpacket::new(SubpacketValue::KeyFlags(vec![0x03])),
//!     Subpacket::new(SubpacketValue::Other { kind: 26, body: b"https://example.org/policy".to_vec() }),
//! ]);
//! let parsed = parse_area(&area)?;
//! assert_eq!(parsed[0].value, SubpacketValue::KeyFlags(vec![0x03]));
//! assert_eq!(write_area(&parsed), area); // byte for byte
//! # Ok::<(), tessera::openpgp::Error>(())
//! ```

use super::super::key::{Fingerprint, KeyId};
use super::super::{Error, Result};

/// Subpacket type ids (RFC 9580 §5.2.3.8).
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::subpacket::kind;
/// let key = generate(&GenerateOptions::default())?;
/// let kinds: Vec<u8> = key.direct_sigs[0].hashed().iter().map(|s| s.kind()).collect();
/// assert_eq!(kinds.first(), Some(&kind::CREATION_TIME));
/// assert!(kinds.contains(&kind::KEY_FLAGS) && kinds.contains(&kind::PREFERRED_AEAD));
/// assert_eq!(kinds.last(), Some(&kind::ISSUER_FINGERPRINT));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub mod kind {
    /// Signature Creation Time.
    pub const CREATION_TIME: u8 = 2;
    /// Signature Expiration Time.
    pub const SIG_EXPIRATION: u8 = 3;
    /// Exportable Certification.
    pub const EXPORTABLE: u8 = 4;
    /// Revocable.
    pub const REVOCABLE: u8 = 7;
    /// Key Expiration Time.
    pub const KEY_EXPIRATION: u8 = 9;
    /// Preferred Symmetric Ciphers for v1 SEIPD.
    pub const PREFERRED_SYMMETRIC: u8 = 11;
    /// Issuer Key ID.
    pub const ISSUER: u8 = 16;
    /// Notation Data.
    pub const NOTATION: u8 = 20;
    /// Preferred Hash Algorithms.
    pub const PREFERRED_HASH: u8 = 21;
    /// Preferred Compression Algorithms.
    pub const PREFERRED_COMPRESSION: u8 = 22;
    /// Key Server Preferences.
    pub const KEYSERVER_PREFS: u8 = 23;
    /// Preferred Key Server.
    pub const PREFERRED_KEYSERVER: u8 = 24;
    /// Primary User ID.
    pub const PRIMARY_USER_ID: u8 = 25;
    /// Policy URI.
    pub const POLICY_URI: u8 = 26;
    /// Key Flags.
    pub const KEY_FLAGS: u8 = 27;
    /// Signer's User ID.
    pub const SIGNERS_USER_ID: u8 = 28;
    /// Reason for Revocation.
    pub const REVOCATION_REASON: u8 = 29;
    /// Features.
    pub const FEATURES: u8 = 30;
    /// Embedded Signature.
    pub const EMBEDDED_SIGNATURE: u8 = 32;
    /// Issuer Fingerprint.
    pub const ISSUER_FINGERPRINT: u8 = 33;
    /// Intended Recipient Fingerprint.
    pub const INTENDED_RECIPIENT: u8 = 35;
    /// Preferred AEAD Ciphersuites.
    pub const PREFERRED_AEAD: u8 = 39;
}

/// What a subpacket says.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::SubpacketValue;
/// let key = generate(&GenerateOptions { expires_in: Some(3600), ..Default::default() })?;
/// let expiry = key.direct_sigs[0].hashed().iter().find_map(|s| match s.value {
///     SubpacketValue::KeyExpiration(e) => Some(e),
///     _ => None,
/// });
/// assert_eq!(expiry, Some(3600));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SubpacketValue {
    /// When the signature was made (seconds since the epoch).
    CreationTime(u32),
    /// Seconds after its creation when the signature expires (0: never).
    SigExpiration(u32),
    /// Seconds after the key's creation when the key expires (0: never).
    KeyExpiration(u32),
    /// The issuer's key ID.
    Issuer(KeyId),
    /// The issuer's fingerprint.
    IssuerFingerprint(Fingerprint),
    /// Key flags (first octet: 0x01 certify, 0x02 sign, 0x04 encrypt
    /// communications, 0x08 encrypt storage, ...).
    KeyFlags(Vec<u8>),
    /// Features (first octet: 0x01 SEIPD v1, 0x08 SEIPD v2).
    Features(Vec<u8>),
    /// Symmetric cipher ids, most preferred first (for SEIPD v1).
    PreferredSymmetric(Vec<u8>),
    /// (cipher id, AEAD id) pairs, most preferred first (for SEIPD v2).
    PreferredAead(Vec<(u8, u8)>),
    /// Hash algorithm ids, most preferred first.
    PreferredHash(Vec<u8>),
    /// Compression algorithm ids, most preferred first.
    PreferredCompression(Vec<u8>),
    /// Whether this User ID is the primary one.
    PrimaryUserId(bool),
    /// Why a key, subkey or certification was revoked.
    RevocationReason {
        /// Reason code (0 none, 1 superseded, 2 compromised, 3 retired, 32 User ID no longer valid).
        code: u8,
        /// Human-readable explanation (UTF-8).
        text: Vec<u8>,
    },
    /// A whole signature packet body (the primary key binding back-signature).
    EmbeddedSignature(Vec<u8>),
    /// The User ID the signer signs as.
    SignersUserId(Vec<u8>),
    /// A fingerprint the message was intended for.
    IntendedRecipient(Fingerprint),
    /// A type this module understands but whose content has no effect here
    /// (exportable, revocable, key server preferences, preferred key server,
    /// policy URI), or one it does not understand.
    Other {
        /// The subpacket type id.
        kind: u8,
        /// Its body.
        body: Vec<u8>,
    },
}

/// One subpacket: its value and whether it is marked critical.
///
/// ```
/// use tessera::openpgp::sig::subpacket::{parse_area, write_area, Subpacket, SubpacketValue};
/// let area = write_area(&[Subpacket::critical(SubpacketValue::CreationTime(0x6387_7fe3))]);
/// assert_eq!(area, [5, 0x82, 0x63, 0x87, 0x7f, 0xe3]);
/// assert_eq!(parse_area(&area).unwrap()[0].value, SubpacketValue::CreationTime(0x6387_7fe3));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subpacket {
    /// Bit 7 of the type octet: the signature is invalid to a reader who
    /// does not understand this subpacket.
    pub critical: bool,
    /// What it says.
    pub value: SubpacketValue,
}

/// Types whose content this module reads or safely ignores; a critical
/// subpacket of any other type invalidates its signature.
/// Intended Recipient Fingerprint (35) is not among them: verification does
/// not yet compare it with the decrypting key, so a critical one fails closed.
const UNDERSTOOD: [u8; 21] = [2, 3, 4, 7, 9, 11, 16, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 32, 33, 35, 39];

impl Subpacket {
    /// A non-critical subpacket.
    ///
    /// ```
    /// use tessera::openpgp::sig::{Subpacket, SubpacketValue};
    /// let sp = Subpacket::new(SubpacketValue::Features(vec![0x09]));
    /// assert!(!sp.critical);
    /// ```
    pub fn new(value: SubpacketValue) -> Self {
        Subpacket { critical: false, value }
    }

    /// A critical subpacket.
    ///
    /// ```
    /// use tessera::openpgp::sig::{Subpacket, SubpacketValue};
    /// let sp = Subpacket::critical(SubpacketValue::KeyFlags(vec![0x01]));
    /// let mut out = Vec::new();
    /// sp.write(&mut out);
    /// assert_eq!(out, [2, 0x80 | 27, 0x01]); // bit 7 of the type octet
    /// ```
    pub fn critical(value: SubpacketValue) -> Self {
        Subpacket { critical: true, value }
    }

    /// The type id.
    ///
    /// ```
    /// use tessera::openpgp::sig::subpacket::{Subpacket, SubpacketValue, kind};
    /// assert_eq!(Subpacket::new(SubpacketValue::PrimaryUserId(true)).kind(), kind::PRIMARY_USER_ID);
    /// assert_eq!(Subpacket::new(SubpacketValue::Other { kind: 100, body: vec![] }).kind(), 100);
    /// ```
    pub fn kind(&self) -> u8 {
        use SubpacketValue as V;
        match &self.value {
            V::CreationTime(_) => kind::CREATION_TIME,
            V::SigExpiration(_) => kind::SIG_EXPIRATION,
            V::KeyExpiration(_) => kind::KEY_EXPIRATION,
            V::Issuer(_) => kind::ISSUER,
            V::IssuerFingerprint(_) => kind::ISSUER_FINGERPRINT,
            V::KeyFlags(_) => kind::KEY_FLAGS,
            V::Features(_) => kind::FEATURES,
            V::PreferredSymmetric(_) => kind::PREFERRED_SYMMETRIC,
            V::PreferredAead(_) => kind::PREFERRED_AEAD,
            V::PreferredHash(_) => kind::PREFERRED_HASH,
            V::PreferredCompression(_) => kind::PREFERRED_COMPRESSION,
            V::PrimaryUserId(_) => kind::PRIMARY_USER_ID,
            V::RevocationReason { .. } => kind::REVOCATION_REASON,
            V::EmbeddedSignature(_) => kind::EMBEDDED_SIGNATURE,
            V::SignersUserId(_) => kind::SIGNERS_USER_ID,
            V::IntendedRecipient(_) => kind::INTENDED_RECIPIENT,
            V::Other { kind, .. } => *kind,
        }
    }

    /// Whether this subpacket is critical and of a type not understood here
    /// (RFC 9580 §5.2.3.7: the signature must then be treated as invalid).
    ///
    /// ```
    /// use tessera::openpgp::sig::{Subpacket, SubpacketValue};
    /// assert!(Subpacket::critical(SubpacketValue::Other { kind: 100, body: vec![] }).is_unknown_critical());
    /// assert!(!Subpacket::new(SubpacketValue::Other { kind: 100, body: vec![] }).is_unknown_critical());
    /// assert!(!Subpacket::critical(SubpacketValue::CreationTime(0)).is_unknown_critical());
    /// ```
    pub fn is_unknown_critical(&self) -> bool {
        self.critical && !UNDERSTOOD.contains(&self.kind())
    }

    fn parse_value(kind: u8, body: &[u8]) -> Result<SubpacketValue> {
        use SubpacketValue as V;
        let bad = Error::Malformed("signature subpacket has the wrong length for its type");
        let u32_of = |b: &[u8]| -> Result<u32> {
            let a: [u8; 4] =
                b.try_into().map_err(|_| Error::Malformed("signature subpacket has the wrong length for its type"))?;
            Ok(u32::from_be_bytes(a))
        };
        Ok(match kind {
            kind::CREATION_TIME => V::CreationTime(u32_of(body)?),
            kind::SIG_EXPIRATION => V::SigExpiration(u32_of(body)?),
            kind::KEY_EXPIRATION => V::KeyExpiration(u32_of(body)?),
            kind::ISSUER => V::Issuer(KeyId(body.try_into().map_err(|_| bad)?)),
            // One of a key version not known here names no key this
            // implementation could hold: kept as it is, uninterpreted.
            kind::ISSUER_FINGERPRINT if !matches!(body.first(), Some(4 | 6)) => V::Other { kind, body: body.to_vec() },
            kind::ISSUER_FINGERPRINT => V::IssuerFingerprint(Fingerprint::from_versioned(body)?),
            kind::INTENDED_RECIPIENT => V::IntendedRecipient(Fingerprint::from_versioned(body)?),
            kind::KEY_FLAGS => V::KeyFlags(body.to_vec()),
            kind::FEATURES => V::Features(body.to_vec()),
            kind::PREFERRED_SYMMETRIC => V::PreferredSymmetric(body.to_vec()),
            kind::PREFERRED_HASH => V::PreferredHash(body.to_vec()),
            kind::PREFERRED_COMPRESSION => V::PreferredCompression(body.to_vec()),
            kind::PREFERRED_AEAD => {
                if !body.len().is_multiple_of(2) {
                    return Err(bad);
                }
                V::PreferredAead(body.chunks_exact(2).map(|p| (p[0], p[1])).collect())
            }
            kind::PRIMARY_USER_ID => match body {
                [b] => V::PrimaryUserId(*b != 0),
                _ => return Err(bad),
            },
            kind::REVOCATION_REASON => match body {
                [code, text @ ..] => V::RevocationReason { code: *code, text: text.to_vec() },
                [] => return Err(bad),
            },
            kind::EMBEDDED_SIGNATURE => V::EmbeddedSignature(body.to_vec()),
            kind::SIGNERS_USER_ID => V::SignersUserId(body.to_vec()),
            _ => V::Other { kind, body: body.to_vec() },
        })
    }

    fn write_body(&self, out: &mut Vec<u8>) {
        use SubpacketValue as V;
        match &self.value {
            V::CreationTime(t) | V::SigExpiration(t) | V::KeyExpiration(t) => out.extend_from_slice(&t.to_be_bytes()),
            V::Issuer(id) => out.extend_from_slice(&id.0),
            V::IssuerFingerprint(fp) | V::IntendedRecipient(fp) => fp.write_versioned(out),
            V::KeyFlags(b)
            | V::Features(b)
            | V::PreferredSymmetric(b)
            | V::PreferredHash(b)
            | V::PreferredCompression(b)
            | V::EmbeddedSignature(b)
            | V::SignersUserId(b) => out.extend_from_slice(b),
            V::PreferredAead(pairs) => pairs.iter().for_each(|(c, a)| out.extend_from_slice(&[*c, *a])),
            V::PrimaryUserId(p) => out.push(*p as u8),
            V::RevocationReason { code, text } => {
                out.push(*code);
                out.extend_from_slice(text);
            }
            V::Other { body, .. } => out.extend_from_slice(body),
        }
    }

    /// Appends the encoded subpacket (length, type, body) to `out`.
    ///
    /// ```
    /// use tessera::openpgp::sig::{Subpacket, SubpacketValue};
    /// let mut out = Vec::new();
    /// Subpacket::new(SubpacketValue::SigExpiration(60)).write(&mut out);
    /// assert_eq!(out, [5, 3, 0, 0, 0, 60]);
    /// ```
    pub fn write(&self, out: &mut Vec<u8>) {
        let mut body = Vec::new();
        self.write_body(&mut body);
        let len = body.len() as u32 + 1;
        let mut l = [0u8; 5];
        let n = super::super::packet::encode_len(len, &mut l);
        out.extend_from_slice(&l[..n]);
        out.push(self.kind() | if self.critical { 0x80 } else { 0 });
        out.extend_from_slice(&body);
    }
}

/// Parses a whole subpacket area.
///
/// ```
/// use tessera::openpgp::sig::subpacket::{SubpacketValue, parse_area};
/// assert_eq!(parse_area(&[5, 3, 0, 0, 0, 60])?[0].value, SubpacketValue::SigExpiration(60));
/// assert!(parse_area(&[5, 3, 0, 0]).is_err()); // cut short
/// assert!(parse_area(&[3, 3, 0, 0]).is_err()); // the wrong length for its type
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn parse_area(mut area: &[u8]) -> Result<Vec<Subpacket>> {
    let short = || Error::Malformed("signature subpacket area is cut short");
    let mut out = Vec::new();
    while let Some(&o1) = area.first() {
        let (len, hdr) = match o1 {
            0..=191 => (o1 as usize, 1),
            192..=254 => {
                let o2 = *area.get(1).ok_or_else(short)?;
                ((((o1 as usize) - 192) << 8) + o2 as usize + 192, 2)
            }
            255 => {
                let b: [u8; 4] = area.get(1..5).ok_or_else(short)?.try_into().expect("4");
                (u32::from_be_bytes(b) as usize, 5)
            }
        };
        let sp = area.get(hdr..).and_then(|r| r.get(..len)).ok_or_else(short)?;
        let (&ty, body) = sp.split_first().ok_or(Error::Malformed("empty signature subpacket"))?;
        out.push(Subpacket { critical: ty & 0x80 != 0, value: Subpacket::parse_value(ty & 0x7f, body)? });
        area = &area[hdr + len..];
    }
    Ok(out)
}

/// Encodes a list of subpackets as an area.
///
/// ```
/// use tessera::openpgp::sig::subpacket::{Subpacket, SubpacketValue, write_area};
/// let area = write_area(&[Subpacket::new(SubpacketValue::PrimaryUserId(true)), Subpacket::new(SubpacketValue::Features(vec![1]))]);
/// assert_eq!(area, [2, 25, 1, 2, 30, 1]);
/// ```
pub fn write_area(subpackets: &[Subpacket]) -> Vec<u8> {
    let mut out = Vec::new();
    subpackets.iter().for_each(|s| s.write(&mut out));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_criticality() {
        let list = vec![
            Subpacket::critical(SubpacketValue::CreationTime(0x6387_7fe3)),
            Subpacket::new(SubpacketValue::PreferredAead(vec![(9, 2), (7, 2)])),
            Subpacket::critical(SubpacketValue::KeyFlags(vec![3])),
            Subpacket::new(SubpacketValue::Issuer(KeyId([1; 8]))),
            Subpacket::new(SubpacketValue::RevocationReason { code: 2, text: b"lost".to_vec() }),
            Subpacket::new(SubpacketValue::Other { kind: 100, body: vec![0; 300] }),
        ];
        let area = write_area(&list);
        assert_eq!(&area[..6], &[5, 0x82, 0x63, 0x87, 0x7f, 0xe3]);
        assert_eq!(parse_area(&area).unwrap(), list);
        assert!(!list[0].is_unknown_critical());
        assert!(Subpacket::critical(SubpacketValue::Other { kind: 100, body: vec![] }).is_unknown_critical());
        assert!(!Subpacket::new(SubpacketValue::Other { kind: 100, body: vec![] }).is_unknown_critical());
    }

    #[test]
    fn malformed_areas_are_errors() {
        for bad in [&[5u8, 2, 0, 0][..], &[0], &[2, 25, 1, 1], &[3, 2, 0, 0], &[255, 255, 255, 255, 255, 2], &[192]] {
            assert!(parse_area(bad).is_err(), "{bad:?}");
        }
    }
}
