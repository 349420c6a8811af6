//! Public-Key Encrypted Session Key packets (RFC 9580 §5.1), versions 3
//! and 6: the recipient, the algorithm, and the encrypted session key.
//!
//! ```
//! use tessera::openpgp::crypto::{PkeskPayload, PkeskVersion};
//! use tessera::openpgp::pkesk::{Pkesk, Recipient};
//!
//! let pkesk = Pkesk {
//!     version: PkeskVersion::V6,
//!     recipient: Some(Recipient::Fingerprint { key_version: 6, fingerprint: vec![0xAA; 32] }),
//!     payload: PkeskPayload::X25519 { ephemeral: [1; 32], sym: None, wrapped: vec![2; 24] },
//! };
//! let body = pkesk.to_vec();
//! assert_eq!(Pkesk::parse(&body).unwrap(), pkesk);
//! ```

use crate::openpgp::crypto::mpi::{take, take_array, take_u8};
use crate::openpgp::crypto::{PkeskPayload, PkeskVersion, PublicKeyAlg};
use crate::openpgp::{Error, Result};

/// Packet tag of PKESK packets.
pub const TAG: u8 = 1;

/// Whom a PKESK is for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Recipient {
    /// v3: the recipient key's 8-octet key ID (never all zero: that is the
    /// wildcard, represented as no recipient).
    KeyId([u8; 8]),
    /// v6: the recipient key's version and fingerprint (20 octets for a v4
    /// key, 32 for a v6 key).
    Fingerprint {
        /// Key version (4 or 6).
        key_version: u8,
        /// The fingerprint.
        fingerprint: Vec<u8>,
    },
}

/// A parsed PKESK packet body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pkesk {
    /// Packet version.
    pub version: PkeskVersion,
    /// The recipient; `None` for an anonymous recipient (v3 wildcard key
    /// ID, v6 empty fingerprint): try every secret key.
    pub recipient: Option<Recipient>,
    /// The algorithm-specific fields, which also name the algorithm.
    pub payload: PkeskPayload,
}

fn fingerprint_len(key_version: u8) -> Result<usize> {
    match key_version {
        4 => Ok(20),
        6 => Ok(32),
        _ => Err(Error::Unsupported("PKESK v6 recipient key version (4 and 6 are supported)")),
    }
}

impl Pkesk {
    /// Parses a packet body. Trailing bytes after the algorithm fields are
    /// an error.
    pub fn parse(body: &[u8]) -> Result<Pkesk> {
        let mut input = body;
        let version = match take_u8(&mut input, "PKESK version")? {
            3 => PkeskVersion::V3,
            6 => PkeskVersion::V6,
            _ => return Err(Error::Unsupported("PKESK version (3 and 6 are supported)")),
        };
        let recipient = match version {
            PkeskVersion::V3 => {
                let id: [u8; 8] = take_array(&mut input, "PKESK key ID")?;
                (id != [0; 8]).then_some(Recipient::KeyId(id))
            }
            PkeskVersion::V6 => Self::parse_v6_recipient(&mut input)?,
        };
        let alg = PublicKeyAlg::from_id(take_u8(&mut input, "PKESK algorithm")?)?;
        let payload = PkeskPayload::parse(alg, version, &mut input)?;
        if !input.is_empty() {
            return Err(Error::Malformed("trailing data in PKESK packet"));
        }
        Ok(Pkesk { version, recipient, payload })
    }

    fn parse_v6_recipient(input: &mut &[u8]) -> Result<Option<Recipient>> {
        let len = usize::from(take_u8(input, "PKESK fingerprint length")?);
        if len == 0 {
            return Ok(None);
        }
        let mut field = take(input, len, "PKESK fingerprint")?;
        let key_version = take_u8(&mut field, "PKESK key version")?;
        if field.len() != fingerprint_len(key_version)? {
            return Err(Error::Malformed("PKESK fingerprint length does not match the key version"));
        }
        Ok(Some(Recipient::Fingerprint { key_version, fingerprint: field.to_vec() }))
    }

    /// Appends the packet body (without the packet header). A recipient
    /// that does not fit the version (a fingerprint in v3, a key ID in v6)
    /// is written as anonymous: call [`Pkesk::check`] first to get an
    /// error instead.
    pub fn serialize(&self, out: &mut Vec<u8>) {
        out.push(self.version.id());
        match (self.version, &self.recipient) {
            (PkeskVersion::V3, Some(Recipient::KeyId(id))) => out.extend_from_slice(id),
            (PkeskVersion::V3, _) => out.extend_from_slice(&[0; 8]),
            (PkeskVersion::V6, Some(Recipient::Fingerprint { key_version, fingerprint })) => {
                out.push((1 + fingerprint.len()) as u8);
                out.push(*key_version);
                out.extend_from_slice(fingerprint);
            }
            (PkeskVersion::V6, _) => out.push(0),
        }
        out.push(self.payload.alg().id());
        self.payload.serialize(out);
    }

    /// The packet body as a new vector.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.serialize(&mut v);
        v
    }

    /// Checks that the recipient fits the version and the payload fits the
    /// version (the clear cipher octet of X25519/X448 exactly in v3).
    pub fn check(&self) -> Result<()> {
        let recipient_ok = match (&self.recipient, self.version) {
            (None, _) => true,
            (Some(Recipient::KeyId(id)), PkeskVersion::V3) => *id != [0; 8],
            (Some(Recipient::Fingerprint { key_version, fingerprint }), PkeskVersion::V6) => {
                fingerprint_len(*key_version)? == fingerprint.len()
            }
            _ => false,
        };
        let sym_ok = match &self.payload {
            PkeskPayload::X25519 { sym, .. }
            | PkeskPayload::X448 { sym, .. }
            | PkeskPayload::Composite { sym, .. } => sym.is_some() == (self.version == PkeskVersion::V3),
            _ => true,
        };
        if recipient_ok && sym_ok { Ok(()) } else { Err(Error::InvalidOption("PKESK fields do not fit its version")) }
    }
}
