//! Public-key algorithm identifiers (RFC 9580 §9.1, RFC 9980 §2.1) and
//! elliptic curves (§9.2).

use super::{Error, Result};

/// Public-key algorithms (RFC 9580 §9.1).
///
/// Elgamal (16) and DSA (17) are read only: DSA signatures are verified
/// and Elgamal session keys decrypted, but neither kind of key is made,
/// signed with or encrypted to.
///
/// ```
/// use tessera::openpgp::crypto::PublicKeyAlg;
/// assert_eq!(PublicKeyAlg::from_id(27).unwrap(), PublicKeyAlg::Ed25519);
/// assert_eq!(PublicKeyAlg::from_id(17).unwrap(), PublicKeyAlg::Dsa);
/// assert!(PublicKeyAlg::from_id(20).is_err()); // Elgamal sign-or-encrypt, withdrawn
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PublicKeyAlg {
    /// RSA, encrypt or sign (1).
    Rsa,
    /// RSA encrypt-only (2, deprecated: read only).
    RsaEncryptOnly,
    /// RSA sign-only (3, deprecated: read only).
    RsaSignOnly,
    /// Elgamal encrypt-only (16, deprecated: decryption only).
    Elgamal,
    /// DSA (17, deprecated: verification only).
    Dsa,
    /// ECDH (18, RFC 6637 as updated by RFC 9580 §11.5).
    Ecdh,
    /// ECDSA (19).
    Ecdsa,
    /// EdDSA over Ed25519 with the legacy encodings (22).
    EdDsaLegacy,
    /// X25519 (25).
    X25519,
    /// X448 (26).
    X448,
    /// Ed25519 (27).
    Ed25519,
    /// Ed448 (28).
    Ed448,
    /// ML-DSA-65+Ed25519 (30, RFC 9980 §5): a composite signature, v6 keys only.
    MlDsa65Ed25519,
    /// ML-DSA-87+Ed448 (31, RFC 9980 §5): a composite signature, v6 keys only.
    MlDsa87Ed448,
    /// SLH-DSA-SHAKE-128s (32, RFC 9980 §6): hash-based signatures, small
    /// and slow to make; v6 keys only.
    SlhDsaShake128s,
    /// SLH-DSA-SHAKE-128f (33, RFC 9980 §6): hash-based signatures, larger
    /// and faster to make; v6 keys only.
    SlhDsaShake128f,
    /// SLH-DSA-SHAKE-256s (34, RFC 9980 §6): hash-based signatures at the
    /// higher level; v6 keys only.
    SlhDsaShake256s,
    /// ML-KEM-768+X25519 (35, RFC 9980 §4): a composite KEM, on v6 keys and
    /// v4 encryption subkeys.
    MlKem768X25519,
    /// ML-KEM-1024+X448 (36, RFC 9980 §4): a composite KEM, v6 keys only.
    MlKem1024X448,
}

impl PublicKeyAlg {
    /// Parses an algorithm id; unknown and withdrawn ids are errors.
    ///
    /// ```
    /// use tessera::openpgp::Error;
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// assert_eq!(PublicKeyAlg::from_id(25)?, PublicKeyAlg::X25519);
    /// assert!(matches!(PublicKeyAlg::from_id(20), Err(Error::UnsupportedPublicKeyAlg(20)))); // withdrawn
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_id(id: u8) -> Result<Self> {
        Ok(match id {
            1 => PublicKeyAlg::Rsa,
            2 => PublicKeyAlg::RsaEncryptOnly,
            3 => PublicKeyAlg::RsaSignOnly,
            16 => PublicKeyAlg::Elgamal,
            17 => PublicKeyAlg::Dsa,
            18 => PublicKeyAlg::Ecdh,
            19 => PublicKeyAlg::Ecdsa,
            22 => PublicKeyAlg::EdDsaLegacy,
            25 => PublicKeyAlg::X25519,
            26 => PublicKeyAlg::X448,
            27 => PublicKeyAlg::Ed25519,
            28 => PublicKeyAlg::Ed448,
            30 => PublicKeyAlg::MlDsa65Ed25519,
            31 => PublicKeyAlg::MlDsa87Ed448,
            32 => PublicKeyAlg::SlhDsaShake128s,
            33 => PublicKeyAlg::SlhDsaShake128f,
            34 => PublicKeyAlg::SlhDsaShake256s,
            35 => PublicKeyAlg::MlKem768X25519,
            36 => PublicKeyAlg::MlKem1024X448,
            _ => return Err(Error::UnsupportedPublicKeyAlg(id)),
        })
    }

    /// The algorithm id.
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// assert_eq!(PublicKeyAlg::Ed448.id(), 28);
    /// ```
    pub fn id(self) -> u8 {
        match self {
            PublicKeyAlg::Rsa => 1,
            PublicKeyAlg::RsaEncryptOnly => 2,
            PublicKeyAlg::RsaSignOnly => 3,
            PublicKeyAlg::Elgamal => 16,
            PublicKeyAlg::Dsa => 17,
            PublicKeyAlg::Ecdh => 18,
            PublicKeyAlg::Ecdsa => 19,
            PublicKeyAlg::EdDsaLegacy => 22,
            PublicKeyAlg::X25519 => 25,
            PublicKeyAlg::X448 => 26,
            PublicKeyAlg::Ed25519 => 27,
            PublicKeyAlg::Ed448 => 28,
            PublicKeyAlg::MlDsa65Ed25519 => 30,
            PublicKeyAlg::MlDsa87Ed448 => 31,
            PublicKeyAlg::SlhDsaShake128s => 32,
            PublicKeyAlg::SlhDsaShake128f => 33,
            PublicKeyAlg::SlhDsaShake256s => 34,
            PublicKeyAlg::MlKem768X25519 => 35,
            PublicKeyAlg::MlKem1024X448 => 36,
        }
    }

    /// Whether keys of this algorithm can make signatures.
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// assert!(PublicKeyAlg::Ed25519.can_sign());
    /// assert!(!PublicKeyAlg::X25519.can_sign());
    /// ```
    pub fn can_sign(self) -> bool {
        matches!(
            self,
            PublicKeyAlg::Rsa
                | PublicKeyAlg::RsaSignOnly
                | PublicKeyAlg::Dsa
                | PublicKeyAlg::Ecdsa
                | PublicKeyAlg::EdDsaLegacy
                | PublicKeyAlg::Ed25519
                | PublicKeyAlg::Ed448
                | PublicKeyAlg::MlDsa65Ed25519
                | PublicKeyAlg::MlDsa87Ed448
                | PublicKeyAlg::SlhDsaShake128s
                | PublicKeyAlg::SlhDsaShake128f
                | PublicKeyAlg::SlhDsaShake256s
        )
    }

    /// Whether session keys can be encrypted to keys of this algorithm
    /// (Elgamal keys only decrypt: see [`PublicKeyAlg::can_decrypt`]).
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// assert!(PublicKeyAlg::Ecdh.can_encrypt());
    /// assert!(!PublicKeyAlg::Ecdsa.can_encrypt());
    /// assert!(!PublicKeyAlg::Elgamal.can_encrypt());
    /// ```
    pub fn can_encrypt(self) -> bool {
        matches!(
            self,
            PublicKeyAlg::Rsa
                | PublicKeyAlg::RsaEncryptOnly
                | PublicKeyAlg::Ecdh
                | PublicKeyAlg::X25519
                | PublicKeyAlg::X448
                | PublicKeyAlg::MlKem768X25519
                | PublicKeyAlg::MlKem1024X448
        )
    }

    /// Whether keys of this algorithm can decrypt session keys: those that
    /// [`can_encrypt`](PublicKeyAlg::can_encrypt), and Elgamal.
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// assert!(PublicKeyAlg::Elgamal.can_decrypt());
    /// assert!(!PublicKeyAlg::Dsa.can_decrypt());
    /// ```
    pub fn can_decrypt(self) -> bool {
        self.can_encrypt() || self == PublicKeyAlg::Elgamal
    }

    /// Whether this is one of the RSA ids (1, 2, 3).
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// assert!(PublicKeyAlg::from_id(3).unwrap().is_rsa()); // RSA sign-only
    /// assert!(!PublicKeyAlg::Ed25519.is_rsa());
    /// ```
    pub fn is_rsa(self) -> bool {
        matches!(self, PublicKeyAlg::Rsa | PublicKeyAlg::RsaEncryptOnly | PublicKeyAlg::RsaSignOnly)
    }

    /// Whether this is one of RFC 9980's post-quantum algorithms.
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// assert!(PublicKeyAlg::from_id(35).unwrap().is_post_quantum()); // ML-KEM-768+X25519
    /// assert!(!PublicKeyAlg::X25519.is_post_quantum());
    /// ```
    pub fn is_post_quantum(self) -> bool {
        matches!(
            self,
            PublicKeyAlg::MlDsa65Ed25519
                | PublicKeyAlg::MlDsa87Ed448
                | PublicKeyAlg::SlhDsaShake128s
                | PublicKeyAlg::SlhDsaShake128f
                | PublicKeyAlg::SlhDsaShake256s
                | PublicKeyAlg::MlKem768X25519
                | PublicKeyAlg::MlKem1024X448
        )
    }

    /// Whether a version 4 key packet may hold this algorithm: every
    /// post-quantum algorithm is for v6 keys only, except ML-KEM-768+X25519
    /// on v4 encryption subkeys (RFC 9980 §4.3.2).
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicKeyAlg;
    /// assert!(PublicKeyAlg::MlKem768X25519.allowed_in_v4());
    /// assert!(!PublicKeyAlg::MlDsa65Ed25519.allowed_in_v4());
    /// assert!(PublicKeyAlg::Ed25519.allowed_in_v4());
    /// ```
    pub fn allowed_in_v4(self) -> bool {
        !self.is_post_quantum() || self == PublicKeyAlg::MlKem768X25519
    }
}

/// Elliptic curves named by OID in ECDH, ECDSA and EdDSALegacy keys
/// (RFC 9580 §9.2). Brainpool curves and Ed448 in legacy form are refused.
///
/// ```
/// use tessera::openpgp::crypto::Curve;
/// let oid = Curve::NistP256.oid();
/// assert_eq!(Curve::from_oid(oid).unwrap(), Curve::NistP256);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Curve {
    /// Ed25519 in the legacy EdDSA encoding (OID 1.3.6.1.4.1.11591.15.1).
    Ed25519Legacy,
    /// Curve25519 in the legacy ECDH encoding (OID 1.3.6.1.4.1.3029.1.5.1).
    Curve25519Legacy,
    /// NIST P-256.
    NistP256,
    /// NIST P-384.
    NistP384,
    /// NIST P-521.
    NistP521,
}

const OID_ED25519_LEGACY: &[u8] = &[0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01];
const OID_CURVE25519_LEGACY: &[u8] = &[0x2B, 0x06, 0x01, 0x04, 0x01, 0x97, 0x55, 0x01, 0x05, 0x01];
const OID_P256: &[u8] = &[0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07];
const OID_P384: &[u8] = &[0x2B, 0x81, 0x04, 0x00, 0x22];
const OID_P521: &[u8] = &[0x2B, 0x81, 0x04, 0x00, 0x23];

impl Curve {
    /// Parses the OID bytes (without the length octet).
    ///
    /// ```
    /// use tessera::openpgp::{Error, crypto::Curve};
    /// let p384 = [0x2b, 0x81, 0x04, 0x00, 0x22];
    /// assert_eq!(Curve::from_oid(&p384)?, Curve::NistP384);
    /// let brainpool_p256 = [0x2b, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07];
    /// assert!(matches!(Curve::from_oid(&brainpool_p256), Err(Error::UnsupportedCurve)));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_oid(oid: &[u8]) -> Result<Self> {
        Ok(match oid {
            OID_ED25519_LEGACY => Curve::Ed25519Legacy,
            OID_CURVE25519_LEGACY => Curve::Curve25519Legacy,
            OID_P256 => Curve::NistP256,
            OID_P384 => Curve::NistP384,
            OID_P521 => Curve::NistP521,
            _ => return Err(Error::UnsupportedCurve),
        })
    }

    /// The OID bytes (without the length octet).
    ///
    /// ```
    /// use tessera::openpgp::crypto::Curve;
    /// assert_eq!(Curve::NistP521.oid(), [0x2b, 0x81, 0x04, 0x00, 0x23]);
    /// ```
    pub fn oid(self) -> &'static [u8] {
        match self {
            Curve::Ed25519Legacy => OID_ED25519_LEGACY,
            Curve::Curve25519Legacy => OID_CURVE25519_LEGACY,
            Curve::NistP256 => OID_P256,
            Curve::NistP384 => OID_P384,
            Curve::NistP521 => OID_P521,
        }
    }

    /// Size of a field element (and of a secret scalar) in bytes.
    ///
    /// ```
    /// use tessera::openpgp::crypto::Curve;
    /// assert_eq!(Curve::NistP521.field_len(), 66); // 521 bits
    /// ```
    pub fn field_len(self) -> usize {
        match self {
            Curve::Ed25519Legacy | Curve::Curve25519Legacy => 32,
            Curve::NistP256 => 32,
            Curve::NistP384 => 48,
            Curve::NistP521 => 66,
        }
    }

    /// The curve's common name.
    ///
    /// ```
    /// use tessera::openpgp::crypto::Curve;
    /// assert_eq!(Curve::NistP256.name(), "NIST P-256");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Curve::Ed25519Legacy => "Ed25519Legacy",
            Curve::Curve25519Legacy => "Curve25519Legacy",
            Curve::NistP256 => "NIST P-256",
            Curve::NistP384 => "NIST P-384",
            Curve::NistP521 => "NIST P-521",
        }
    }

    /// Whether this is one of the NIST curves (ECDSA, and ECDH with SEC1 points).
    ///
    /// ```
    /// use tessera::openpgp::crypto::Curve;
    /// assert!(Curve::NistP384.is_nist());
    /// assert!(!Curve::Curve25519Legacy.is_nist());
    /// ```
    pub fn is_nist(self) -> bool {
        matches!(self, Curve::NistP256 | Curve::NistP384 | Curve::NistP521)
    }
}
