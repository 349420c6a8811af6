//! Public key and subkey packets (RFC 9580 §5.5.2): version 4 and 6 framing,
//! fingerprints and key IDs (§5.5.4).

use sha1::Digest as _;

use super::super::crypto::{PublicKeyAlg, PublicMaterial};
use super::super::types::{Fingerprint, KeyId, KeyVersion};
use super::super::{Error, Result};

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
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, generate};
    /// use tessera::openpgp::key::{KeyVersion, PublicKey};
    /// let (material, _) = generate(KeyType::X25519)?;
    /// let key = PublicKey::new(KeyVersion::V6, 1_700_000_000, material.clone())?;
    /// assert_eq!((key.version(), key.created(), key.material()), (KeyVersion::V6, 1_700_000_000, &material));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
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
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, PublicKey, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let public = key.primary.public();
    /// // A secret key packet body: the public fields, then the secret ones.
    /// let mut body = public.body().to_vec();
    /// body.extend_from_slice(&[0, 1, 2]);
    /// let (parsed, used) = PublicKey::parse(&body)?;
    /// assert_eq!((parsed.fingerprint(), used), (public.fingerprint(), public.body().len()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
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
        if version == KeyVersion::V4 && !alg.allowed_in_v4() {
            // RFC 9980 §4.3.2, §5.3.2: a subkey like this is skipped, a
            // primary key refused.
            return Err(Error::Unsupported("a post-quantum algorithm other than ML-KEM-768+X25519 in a v4 key"));
        }
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
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, PublicKey, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// let body = key.primary.public().body();
    /// assert_eq!(PublicKey::parse_packet(body)?.fingerprint(), key.fingerprint());
    /// assert!(PublicKey::parse_packet(&[body, &[0]].concat()).is_err()); // trailing octets
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn parse_packet(body: &[u8]) -> Result<Self> {
        let (k, used) = Self::parse(body)?;
        if used != body.len() {
            return Err(Error::Malformed("trailing data after the public key fields"));
        }
        Ok(k)
    }

    /// Key version.
    ///
    /// ```
    /// use tessera::openpgp::key::{Cert, KeyVersion};
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// assert_eq!(alice.primary.public().version(), KeyVersion::V4);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn version(&self) -> KeyVersion {
        self.version
    }
    /// Creation time (seconds since the epoch).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// assert_eq!(key.primary.public().created(), 1_700_000_000);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn created(&self) -> u32 {
        self.created
    }
    /// Public-key algorithm.
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let algs: Vec<PublicKeyAlg> = cert.keys().map(|k| k.public().alg()).collect();
    /// assert_eq!(algs, [PublicKeyAlg::Ed25519, PublicKeyAlg::X25519]);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn alg(&self) -> PublicKeyAlg {
        self.alg
    }
    /// The algorithm-specific public fields.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{Curve, PublicMaterial};
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// let m = alice.subkeys[0].key.public().material();
    /// assert!(matches!(m, PublicMaterial::Ecdh { curve: Curve::Curve25519Legacy, .. }));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn material(&self) -> &PublicMaterial {
        &self.material
    }
    /// The encoded packet body (what a public key packet holds).
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let body = cert.primary.public().body();
    /// assert_eq!(body[0], 6); // version
    /// assert_eq!(body.len(), 1 + 4 + 1 + 4 + 32); // created, algorithm, length, Ed25519 key
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn body(&self) -> &[u8] {
        &self.body
    }
    /// The fingerprint.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let sub = cert.subkeys[0].key.public().fingerprint();
    /// assert_eq!(sub.to_hex(), "12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885");
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }
    /// The key ID.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// assert_eq!(cert.primary.public().key_id().to_string(), "CB186C4F0609A697");
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn key_id(&self) -> KeyId {
        self.fingerprint.key_id()
    }

    /// The header that precedes this key's body in signature hashes and
    /// fingerprints: 0x99 and a 2-octet length (v4), or 0x9B and a 4-octet
    /// length (v6) (RFC 9580 §5.2.4, §5.5.4).
    ///
    /// ```
    /// use tessera::openpgp::crypto::{HashAlg, Hasher};
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let key = cert.primary.public();
    /// assert_eq!(key.hash_header(), [0x9b, 0, 0, 0, 42]);
    /// // A v6 fingerprint is SHA-256 over the header and the body.
    /// let fp = Hasher::digest(HashAlg::Sha256, &[key.hash_header(), key.body().to_vec()].concat());
    /// assert_eq!(fp, key.fingerprint().as_bytes());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
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
