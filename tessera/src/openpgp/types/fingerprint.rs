//! Names of keys: fingerprints, key IDs and key packet versions (RFC 9580
//! §5.5.4).

/// A `version || fingerprint` field with an unknown version or the wrong
/// length; read as [`Error::Malformed`](super::Error::Malformed).
///
/// ```
/// use tessera::openpgp::Error;
/// use tessera::openpgp::key::Fingerprint;
/// let err: Error = Fingerprint::from_versioned(&[5, 0]).unwrap_err().into();
/// assert!(matches!(err, Error::Malformed(_)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("fingerprint with an unknown version or the wrong length")]
pub struct MalformedFingerprint;

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
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// assert_eq!(cert.fingerprint().as_bytes()[..4], [0xcb, 0x18, 0x6c, 0x4f]); // RFC 9580 A.3
    /// assert_eq!(cert.fingerprint().as_bytes().len(), 32);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Fingerprint::V4(b) => b,
            Fingerprint::V6(b) => b,
        }
    }

    /// The key version this fingerprint belongs to (4 or 6).
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// assert_eq!(alice.fingerprint().version(), 4);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn version(&self) -> u8 {
        match self {
            Fingerprint::V4(_) => 4,
            Fingerprint::V6(_) => 6,
        }
    }

    /// The key ID: the low 64 bits of a v4 fingerprint, the high 64 bits of a
    /// v6 one.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// assert_eq!(alice.fingerprint().to_hex(), "EB85BB5FA33A75E15E944E63F231550C4F47E38E");
    /// assert_eq!(alice.fingerprint().key_id().to_string(), "F231550C4F47E38E"); // v4: the low 64 bits
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn key_id(&self) -> KeyId {
        match self {
            Fingerprint::V4(b) => KeyId(b[12..].try_into().expect("8")),
            Fingerprint::V6(b) => KeyId(b[..8].try_into().expect("8")),
        }
    }

    /// Parses `version || fingerprint` (issuer and intended-recipient
    /// subpackets, PKESK v6).
    ///
    /// ```
    /// use tessera::openpgp::key::Fingerprint;
    /// assert_eq!(Fingerprint::from_versioned(&[[6u8].as_slice(), &[1; 32]].concat())?.version(), 6);
    /// assert!(Fingerprint::from_versioned(&[[6u8].as_slice(), &[1; 20]].concat()).is_err()); // v6 is 32 octets
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn from_versioned(b: &[u8]) -> Result<Self, MalformedFingerprint> {
        match b {
            [4, rest @ ..] if rest.len() == 20 => Ok(Fingerprint::V4(rest.try_into().expect("20"))),
            [6, rest @ ..] if rest.len() == 32 => Ok(Fingerprint::V6(rest.try_into().expect("32"))),
            _ => Err(MalformedFingerprint),
        }
    }

    /// Appends `version || fingerprint`.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate, Fingerprint};
    /// let fp = generate(&GenerateOptions::default())?.fingerprint();
    /// let mut out = Vec::new();
    /// fp.write_versioned(&mut out);
    /// assert_eq!(out[0], 6);
    /// assert_eq!(Fingerprint::from_versioned(&out)?, fp);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn write_versioned(&self, out: &mut Vec<u8>) {
        out.push(self.version());
        out.extend_from_slice(self.as_bytes());
    }

    /// Upper-case hex, as printed by `tessera key show`.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// assert_eq!(cert.fingerprint().to_hex(), "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9");
    /// assert_eq!(cert.fingerprint().to_string(), cert.fingerprint().to_hex());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
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
///
/// ```
/// use tessera::openpgp::key::{Cert, KeyId};
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
/// // v6: the high 64 bits of the fingerprint.
/// assert_eq!(cert.fingerprint().key_id(), KeyId([0xcb, 0x18, 0x6c, 0x4f, 0x06, 0x09, 0xa6, 0x97]));
/// assert_eq!(KeyId([0xcb, 0x18, 0x6c, 0x4f, 0x06, 0x09, 0xa6, 0x97]).to_string(), "CB186C4F0609A697");
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyId(pub [u8; 8]);

impl KeyId {
    /// The wildcard key ID (all zeros) of anonymous recipients.
    ///
    /// ```
    /// use tessera::openpgp::key::KeyId;
    /// assert_eq!(KeyId::WILDCARD.to_string(), "0000000000000000");
    /// ```
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
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, KeyProfile, KeyVersion, generate};
/// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
/// assert_eq!(generate(&opts)?.version(), KeyVersion::V4);
/// assert_eq!(generate(&GenerateOptions::default())?.version(), KeyVersion::V6);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyVersion {
    /// Version 4 (RFC 4880 keys, what GnuPG 2.2 writes).
    V4,
    /// Version 6 (RFC 9580).
    V6,
}

impl KeyVersion {
    /// The version octet.
    ///
    /// ```
    /// use tessera::openpgp::key::KeyVersion;
    /// assert_eq!((KeyVersion::V4.id(), KeyVersion::V6.id()), (4, 6));
    /// ```
    pub fn id(self) -> u8 {
        match self {
            KeyVersion::V4 => 4,
            KeyVersion::V6 => 6,
        }
    }
}
