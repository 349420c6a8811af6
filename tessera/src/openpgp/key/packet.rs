//! Public key and subkey packets (RFC 9580 §5.5.2): version 4 and 6 framing,
//! fingerprints and key IDs (§5.5.4).

use sha1::Digest as _;

use super::super::crypto::{PublicKeyAlg, PublicMaterial};
use super::super::{Error, Result};

/// A key's fingerprint: SHA-1 (v4) or SHA-256 (v6) over its framed public
/// key packet.
///
/// ```
/// use tessera::openpgp::key::Fingerprint;
/// let fp = Fingerprint::from_versioned(&[[4u8].as_slice(), &[0xab; 20]].concat()).unwrap();
/// assert_eq!(fp.key_id().to_string(), "ABABABABABABABAB");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fingerprint {
    /// A version 4 fingerprint (20 octets).
    V4([u8; 20]),
    /// A version 6 fingerprint (32 octets).
    V6([u8; 32]),
}

impl Fingerprint {
    /// The fingerprint octets.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Fingerprint::V4(b) => b,
            Fingerprint::V6(b) => b,
        }
    }

    /// The key version this fingerprint belongs to (4 or 6).
    pub fn version(&self) -> u8 {
        match self {
            Fingerprint::V4(_) => 4,
            Fingerprint::V6(_) => 6,
        }
    }

    /// The key ID: the low 64 bits of a v4 fingerprint, the high 64 bits of a
    /// v6 one.
    pub fn key_id(&self) -> KeyId {
        match self {
            Fingerprint::V4(b) => KeyId(b[12..].try_into().expect("8")),
            Fingerprint::V6(b) => KeyId(b[..8].try_into().expect("8")),
        }
    }

    /// Parses `version || fingerprint` (issuer and intended-recipient
    /// subpackets, PKESK v6).
    pub fn from_versioned(b: &[u8]) -> Result<Self> {
        match b {
            [4, rest @ ..] if rest.len() == 20 => Ok(Fingerprint::V4(rest.try_into().expect("20"))),
            [6, rest @ ..] if rest.len() == 32 => Ok(Fingerprint::V6(rest.try_into().expect("32"))),
            _ => Err(Error::Malformed("fingerprint with an unknown version or the wrong length")),
        }
    }

    /// Appends `version || fingerprint`.
    pub fn write_versioned(&self, out: &mut Vec<u8>) {
        out.push(self.version());
        out.extend_from_slice(self.as_bytes());
    }

    /// Upper-case hex, as printed by `tessera key show`.
    pub fn to_hex(&self) -> String {
        hex_upper(self.as_bytes())
    }
}

impl std::fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fingerprint({})", self.to_hex())
    }
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// A key ID (RFC 9580 §5.5.4): 8 octets derived from the fingerprint.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyId(pub [u8; 8]);

impl KeyId {
    /// The wildcard key ID (all zeros) of anonymous recipients.
    pub const WILDCARD: KeyId = KeyId([0; 8]);
}

impl std::fmt::Debug for KeyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeyId({})", hex_upper(&self.0))
    }
}

impl std::fmt::Display for KeyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&hex_upper(&self.0))
    }
}

pub(crate) fn hex_upper(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02X}")).collect()
}

/// Key packet versions read and written here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyVersion {
    /// Version 4 (RFC 4880 keys, what GnuPG 2.2 writes).
    V4,
    /// Version 6 (RFC 9580).
    V6,
}

impl KeyVersion {
    /// The version octet.
    pub fn id(self) -> u8 {
        match self {
            KeyVersion::V4 => 4,
            KeyVersion::V6 => 6,
        }
    }
}

/// The public part of a key or subkey packet, parsed, with its encoded body
/// kept for hashing.
///
/// ```
/// use tessera::openpgp::crypto::{generate, KeyType};
/// use tessera::openpgp::key::{KeyVersion, PublicKey};
/// let (material, _secret) = generate(KeyType::Ed25519).unwrap();
/// let key = PublicKey::new(KeyVersion::V6, 1_700_000_000, material).unwrap();
/// assert_eq!(PublicKey::parse_packet(key.body()).unwrap().fingerprint(), key.fingerprint());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct PublicKey {
    version: KeyVersion,
    created: u32,
    alg: PublicKeyAlg,
    material: PublicMaterial,
    body: Vec<u8>,
    fingerprint: Fingerprint,
}

impl std::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PublicKey")
            .field("fingerprint", &self.fingerprint)
            .field("alg", &self.alg)
            .field("created", &self.created)
            .finish()
    }
}

impl PublicKey {
    /// Builds a key from its parts.
    pub fn new(version: KeyVersion, created: u32, material: PublicMaterial) -> Result<Self> {
        let mut m = Vec::new();
        material.serialize(&mut m);
        let mut body = vec![version.id()];
        body.extend_from_slice(&created.to_be_bytes());
        body.push(material.alg().id());
        if version == KeyVersion::V6 {
            body.extend_from_slice(&(m.len() as u32).to_be_bytes());
        }
        body.extend_from_slice(&m);
        Self::parse(&body).map(|(k, _)| k)
    }

    /// Parses the public fields at the start of a key packet body; returns
    /// the key and the number of octets it took (a secret key packet goes on
    /// with its secret fields).
    pub fn parse(data: &[u8]) -> Result<(Self, usize)> {
        let short = || Error::Malformed("key packet is cut short");
        let (&v, rest) = data.split_first().ok_or_else(short)?;
        let version = match v {
            4 => KeyVersion::V4,
            6 => KeyVersion::V6,
            2 | 3 => return Err(Error::Unsupported("version 3 keys")),
            _ => return Err(Error::Unsupported("key packet version (4 and 6 are supported)")),
        };
        let created = u32::from_be_bytes(rest.get(..4).ok_or_else(short)?.try_into().expect("4"));
        let alg = PublicKeyAlg::from_id(*rest.get(4).ok_or_else(short)?)?;
        let (start, declared) = match version {
            KeyVersion::V4 => (6, None),
            KeyVersion::V6 => {
                let l = u32::from_be_bytes(rest.get(5..9).ok_or_else(short)?.try_into().expect("4"));
                (10, Some(l as usize))
            }
        };
        let fields = &data[start..];
        let fields = match declared {
            Some(l) => fields.get(..l).ok_or_else(short)?,
            None => fields,
        };
        let mut rest = fields;
        let material = PublicMaterial::parse(alg, &mut rest)?;
        let used = fields.len() - rest.len();
        if declared.is_some_and(|l| l != used) {
            return Err(Error::Malformed("v6 key material length does not match its fields"));
        }
        let end = start + used;
        if version == KeyVersion::V4 && end > usize::from(u16::MAX) {
            return Err(Error::Limit("v4 key packet over 65535 octets"));
        }
        let body = data[..end].to_vec();
        let fingerprint = fingerprint_of(version, &body);
        Ok((PublicKey { version, created, alg, material, body, fingerprint }, end))
    }

    /// Parses a whole public key or subkey packet body.
    pub fn parse_packet(body: &[u8]) -> Result<Self> {
        let (k, used) = Self::parse(body)?;
        if used != body.len() {
            return Err(Error::Malformed("trailing data after the public key fields"));
        }
        Ok(k)
    }

    /// Key version.
    pub fn version(&self) -> KeyVersion {
        self.version
    }
    /// Creation time (seconds since the epoch).
    pub fn created(&self) -> u32 {
        self.created
    }
    /// Public-key algorithm.
    pub fn alg(&self) -> PublicKeyAlg {
        self.alg
    }
    /// The algorithm-specific public fields.
    pub fn material(&self) -> &PublicMaterial {
        &self.material
    }
    /// The encoded packet body (what a public key packet holds).
    pub fn body(&self) -> &[u8] {
        &self.body
    }
    /// The fingerprint.
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }
    /// The key ID.
    pub fn key_id(&self) -> KeyId {
        self.fingerprint.key_id()
    }

    /// The header that precedes this key's body in signature hashes and
    /// fingerprints: 0x99 and a 2-octet length (v4), or 0x9B and a 4-octet
    /// length (v6) (RFC 9580 §5.2.4, §5.5.4).
    pub fn hash_header(&self) -> Vec<u8> {
        frame(self.version, &self.body)
    }
}

fn frame(version: KeyVersion, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 5);
    match version {
        KeyVersion::V4 => {
            out.push(0x99);
            out.extend_from_slice(&(body.len() as u16).to_be_bytes());
        }
        KeyVersion::V6 => {
            out.push(0x9b);
            out.extend_from_slice(&(body.len() as u32).to_be_bytes());
        }
    }
    out
}

fn fingerprint_of(version: KeyVersion, body: &[u8]) -> Fingerprint {
    let prefix = frame(version, body);
    match version {
        KeyVersion::V4 => {
            let mut h = sha1::Sha1::new();
            h.update(&prefix);
            h.update(body);
            Fingerprint::V4(h.finalize().into())
        }
        KeyVersion::V6 => {
            let mut h = sha2::Sha256::new();
            h.update(&prefix);
            h.update(body);
            Fingerprint::V6(h.finalize().into())
        }
    }
}
