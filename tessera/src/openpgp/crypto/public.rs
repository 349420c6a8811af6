//! The algorithm-specific fields of public keys (RFC 9580 §5.5.5).

use super::mpi::{put_len_prefixed, take_array, take_len_prefixed};
use super::{Curve, HashAlg, Mpi, PublicKeyAlg, pq};
use crate::openpgp::{Error, Result, SymAlg};

/// The public part of a key: what follows the algorithm octet (and, for v6
/// keys, the key-material length) in a public key packet.
///
/// ```
/// use tessera::openpgp::crypto::{PublicKeyAlg, PublicMaterial};
/// let bytes = [7u8; 32];
/// let mut input: &[u8] = &bytes;
/// let m = PublicMaterial::parse(PublicKeyAlg::X25519, &mut input).unwrap();
/// assert_eq!(m, PublicMaterial::X25519([7; 32]));
/// let mut out = Vec::new();
/// m.serialize(&mut out);
/// assert_eq!(out, bytes);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PublicMaterial {
    /// RSA modulus and public exponent (algorithm ids 1, 2 and 3).
    Rsa {
        /// Modulus.
        n: Mpi,
        /// Public exponent.
        e: Mpi,
    },
    /// Elgamal encrypt-only key (16): decryption only.
    Elgamal {
        /// The prime modulus.
        p: Mpi,
        /// The group generator.
        g: Mpi,
        /// The public value g^x mod p.
        y: Mpi,
    },
    /// DSA key (17): verification only.
    Dsa {
        /// The prime modulus.
        p: Mpi,
        /// The prime order of the subgroup.
        q: Mpi,
        /// The subgroup generator.
        g: Mpi,
        /// The public value g^x mod p.
        y: Mpi,
    },
    /// ECDH key (18) with its KDF parameters.
    Ecdh {
        /// The curve.
        curve: Curve,
        /// The point: `0x40 || native` for Curve25519Legacy, SEC1
        /// uncompressed (`0x04 || x || y`) for the NIST curves.
        point: Mpi,
        /// Hash of the RFC 6637 KDF.
        kdf_hash: HashAlg,
        /// Key-wrap cipher.
        kdf_sym: SymAlg,
    },
    /// ECDSA key (19) over a NIST curve.
    Ecdsa {
        /// The curve.
        curve: Curve,
        /// SEC1 uncompressed point.
        point: Mpi,
    },
    /// EdDSALegacy key (22) over Ed25519Legacy: `0x40 || native point`.
    EdDsaLegacy {
        /// `0x40` followed by the 32-byte Ed25519 public key.
        point: Mpi,
    },
    /// X25519 public key (25).
    X25519([u8; 32]),
    /// X448 public key (26).
    X448([u8; 56]),
    /// Ed25519 public key (27).
    Ed25519([u8; 32]),
    /// Ed448 public key (28).
    Ed448([u8; 57]),
    /// A composite key of RFC 9980 (30, 31, 35, 36): the ECC public key,
    /// then the ML-DSA verifying key or ML-KEM encapsulation key, each of
    /// its algorithm's fixed size.
    Composite {
        /// The algorithm.
        alg: PublicKeyAlg,
        /// The Ed25519, Ed448, X25519 or X448 public key.
        ecc: Box<[u8]>,
        /// The ML-DSA or ML-KEM public key.
        pq: Box<[u8]>,
    },
}

/// Reads a curve OID (one-octet length, 0 and 0xFF reserved).
pub(crate) fn parse_curve(input: &mut &[u8]) -> Result<Curve> {
    let oid = take_len_prefixed(input, "curve OID")?;
    if oid.is_empty() || oid.len() == 0xFF {
        return Err(Error::Malformed("reserved curve OID length"));
    }
    Curve::from_oid(oid)
}

/// Checks the encoding (not curve membership) of an ECC point.
fn check_point(curve: Curve, point: &Mpi) -> Result<()> {
    let b = point.as_bytes();
    let ok = match curve {
        Curve::Ed25519Legacy | Curve::Curve25519Legacy => b.len() == 33 && b[0] == 0x40,
        _ => b.len() == 1 + 2 * curve.field_len() && b[0] == 0x04,
    };
    if ok { Ok(()) } else { Err(Error::Malformed("bad elliptic curve point encoding")) }
}

impl PublicMaterial {
    /// Reads the fields of algorithm `alg` from the front of `input`,
    /// leaving the rest.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{PublicKeyAlg, PublicMaterial};
    /// let mut input: &[u8] = &[7u8; 40];
    /// let m = PublicMaterial::parse(PublicKeyAlg::Ed25519, &mut input)?;
    /// assert_eq!(m, PublicMaterial::Ed25519([7; 32]));
    /// assert_eq!(input.len(), 8); // the rest is left
    /// assert!(PublicMaterial::parse(PublicKeyAlg::Ed448, &mut &[7u8; 40][..]).is_err()); // 57 bytes needed
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn parse(alg: PublicKeyAlg, input: &mut &[u8]) -> Result<PublicMaterial> {
        Ok(match alg {
            PublicKeyAlg::Rsa | PublicKeyAlg::RsaEncryptOnly | PublicKeyAlg::RsaSignOnly => {
                let n = Mpi::parse(input)?;
                let e = Mpi::parse(input)?;
                PublicMaterial::Rsa { n, e }
            }
            PublicKeyAlg::Elgamal => {
                let [p, g, y] = [Mpi::parse(input)?, Mpi::parse(input)?, Mpi::parse(input)?];
                PublicMaterial::Elgamal { p, g, y }
            }
            PublicKeyAlg::Dsa => {
                let [p, q, g, y] = [Mpi::parse(input)?, Mpi::parse(input)?, Mpi::parse(input)?, Mpi::parse(input)?];
                PublicMaterial::Dsa { p, q, g, y }
            }
            PublicKeyAlg::Ecdsa => {
                let curve = parse_curve(input)?;
                if !curve.is_nist() {
                    return Err(Error::Malformed("ECDSA over a non-NIST curve"));
                }
                let point = Mpi::parse(input)?;
                check_point(curve, &point)?;
                PublicMaterial::Ecdsa { curve, point }
            }
            PublicKeyAlg::EdDsaLegacy => {
                if parse_curve(input)? != Curve::Ed25519Legacy {
                    return Err(Error::Malformed("EdDSALegacy over a curve other than Ed25519Legacy"));
                }
                let point = Mpi::parse(input)?;
                check_point(Curve::Ed25519Legacy, &point)?;
                PublicMaterial::EdDsaLegacy { point }
            }
            PublicKeyAlg::Ecdh => Self::parse_ecdh(input)?,
            PublicKeyAlg::X25519 => PublicMaterial::X25519(take_array(input, "X25519 key")?),
            PublicKeyAlg::X448 => PublicMaterial::X448(take_array(input, "X448 key")?),
            PublicKeyAlg::Ed25519 => PublicMaterial::Ed25519(take_array(input, "Ed25519 key")?),
            PublicKeyAlg::Ed448 => PublicMaterial::Ed448(take_array(input, "Ed448 key")?),
            // RFC 9980's algorithms: fixed-size fields.
            alg => {
                let s = pq::sizes(alg).ok_or(Error::UnsupportedPublicKeyAlg(alg.id()))?;
                let ecc = pq::take_boxed(input, s.ecc_public, "ECC half of a composite key")?;
                if !ecc.is_empty() && ecc.iter().all(|&b| b == 0) {
                    // RFC 9980 §3.4: the zero point never appears in a key.
                    return Err(Error::Malformed("composite key with an all-zero ECC public key"));
                }
                let pq = pq::take_boxed(input, s.pq_public, "post-quantum half of a composite key")?;
                PublicMaterial::Composite { alg, ecc, pq }
            }
        })
    }

    fn parse_ecdh(input: &mut &[u8]) -> Result<PublicMaterial> {
        let curve = parse_curve(input)?;
        if curve == Curve::Ed25519Legacy {
            return Err(Error::Malformed("ECDH over Ed25519Legacy"));
        }
        let point = Mpi::parse(input)?;
        check_point(curve, &point)?;
        let kdf = take_len_prefixed(input, "ECDH KDF parameters")?;
        let &[1, hash, sym] = kdf else {
            return Err(Error::Malformed("ECDH KDF parameters"));
        };
        Ok(PublicMaterial::Ecdh { curve, point, kdf_hash: HashAlg::from_id(hash)?, kdf_sym: SymAlg::from_id(sym)? })
    }

    /// Appends the fields as they appear in a key packet.
    ///
    /// ```
    /// use tessera::openpgp::crypto::PublicMaterial;
    /// let mut out = vec![0xff];
    /// PublicMaterial::X25519([1; 32]).serialize(&mut out);
    /// assert_eq!(out.len(), 33);
    /// ```
    pub fn serialize(&self, out: &mut Vec<u8>) {
        match self {
            PublicMaterial::Rsa { n, e } => {
                n.serialize(out);
                e.serialize(out);
            }
            PublicMaterial::Elgamal { p, g, y } => [p, g, y].iter().for_each(|m| m.serialize(out)),
            PublicMaterial::Dsa { p, q, g, y } => [p, q, g, y].iter().for_each(|m| m.serialize(out)),
            PublicMaterial::Ecdh { curve, point, kdf_hash, kdf_sym } => {
                put_len_prefixed(out, curve.oid());
                point.serialize(out);
                out.extend_from_slice(&[3, 1, kdf_hash.id(), kdf_sym.id()]);
            }
            PublicMaterial::Ecdsa { curve, point } => {
                put_len_prefixed(out, curve.oid());
                point.serialize(out);
            }
            PublicMaterial::EdDsaLegacy { point } => {
                put_len_prefixed(out, Curve::Ed25519Legacy.oid());
                point.serialize(out);
            }
            PublicMaterial::X25519(k) | PublicMaterial::Ed25519(k) => out.extend_from_slice(k),
            PublicMaterial::X448(k) => out.extend_from_slice(k),
            PublicMaterial::Ed448(k) => out.extend_from_slice(k),
            PublicMaterial::Composite { ecc, pq, .. } => {
                out.extend_from_slice(ecc);
                out.extend_from_slice(pq);
            }
        }
    }

    /// The serialized fields as a new vector.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, PublicMaterial, generate};
    /// let (public, _) = generate(KeyType::Ed25519)?;
    /// let bytes = public.to_vec();
    /// assert_eq!(PublicMaterial::parse(public.alg(), &mut bytes.as_slice())?, public);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.serialize(&mut v);
        v
    }

    /// Whether this material belongs to algorithm `alg` (any of the RSA ids
    /// for RSA material).
    ///
    /// ```
    /// use tessera::openpgp::crypto::{PublicKeyAlg, PublicMaterial};
    /// let m = PublicMaterial::Ed25519([1; 32]);
    /// assert!(m.matches(PublicKeyAlg::Ed25519));
    /// assert!(!m.matches(PublicKeyAlg::EdDsaLegacy));
    /// ```
    pub fn matches(&self, alg: PublicKeyAlg) -> bool {
        match self {
            PublicMaterial::Rsa { .. } => alg.is_rsa(),
            _ => self.alg() == alg,
        }
    }

    /// The algorithm of this material (RSA material reports id 1).
    ///
    /// ```
    /// use tessera::openpgp::crypto::{PublicKeyAlg, PublicMaterial};
    /// assert_eq!(PublicMaterial::X448([1; 56]).alg(), PublicKeyAlg::X448);
    /// ```
    pub fn alg(&self) -> PublicKeyAlg {
        match self {
            PublicMaterial::Rsa { .. } => PublicKeyAlg::Rsa,
            PublicMaterial::Elgamal { .. } => PublicKeyAlg::Elgamal,
            PublicMaterial::Dsa { .. } => PublicKeyAlg::Dsa,
            PublicMaterial::Ecdh { .. } => PublicKeyAlg::Ecdh,
            PublicMaterial::Ecdsa { .. } => PublicKeyAlg::Ecdsa,
            PublicMaterial::EdDsaLegacy { .. } => PublicKeyAlg::EdDsaLegacy,
            PublicMaterial::X25519(_) => PublicKeyAlg::X25519,
            PublicMaterial::X448(_) => PublicKeyAlg::X448,
            PublicMaterial::Ed25519(_) => PublicKeyAlg::Ed25519,
            PublicMaterial::Ed448(_) => PublicKeyAlg::Ed448,
            PublicMaterial::Composite { alg, .. } => *alg,
        }
    }

    /// The curve of ECC material (`None` for RSA and the v6 algorithms).
    ///
    /// ```
    /// use tessera::openpgp::crypto::{Curve, KeyType, generate};
    /// let (p256, _) = generate(KeyType::Ecdsa(Curve::NistP256))?;
    /// assert_eq!(p256.curve(), Some(Curve::NistP256));
    /// let (ed25519, _) = generate(KeyType::Ed25519)?;
    /// assert_eq!(ed25519.curve(), None);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn curve(&self) -> Option<Curve> {
        match self {
            PublicMaterial::Ecdh { curve, .. } | PublicMaterial::Ecdsa { curve, .. } => Some(*curve),
            PublicMaterial::EdDsaLegacy { .. } => Some(Curve::Ed25519Legacy),
            _ => None,
        }
    }

    /// Refuses RSA, DSA and Elgamal material under 2048 bits with
    /// [`Error::KeyTooSmall`] (every use of such a key is refused).
    ///
    /// ```
    /// use tessera::openpgp::Error;
    /// use tessera::openpgp::crypto::{Mpi, PublicMaterial};
    /// let small = PublicMaterial::Rsa { n: Mpi::new(&[0xff; 128]), e: Mpi::new(&[1, 0, 1]) };
    /// assert!(matches!(small.require_size(), Err(Error::KeyTooSmall { bits: 1024, min: 2048 })));
    /// assert!(PublicMaterial::Ed25519([1; 32]).require_size().is_ok());
    /// ```
    pub fn require_size(&self) -> Result<()> {
        match self {
            PublicMaterial::Rsa { .. } | PublicMaterial::Dsa { .. } | PublicMaterial::Elgamal { .. } => {
                super::modulus::require_min(self.bits())
            }
            _ => Ok(()),
        }
    }

    /// Key size in bits: the modulus size of RSA, DSA and Elgamal keys, or
    /// the curve's size.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{Curve, KeyType, generate};
    /// let (p384, _) = generate(KeyType::Ecdsa(Curve::NistP384))?;
    /// assert_eq!(p384.bits(), 384);
    /// let (cv25519, _) = generate(KeyType::EcdhCurve25519Legacy)?;
    /// assert_eq!(cv25519.bits(), 255);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn bits(&self) -> usize {
        match self {
            PublicMaterial::Rsa { n, .. } => n.bits(),
            PublicMaterial::Elgamal { p, .. } | PublicMaterial::Dsa { p, .. } => p.bits(),
            PublicMaterial::Ecdh { curve, .. } | PublicMaterial::Ecdsa { curve, .. } => match curve {
                Curve::NistP521 => 521,
                Curve::Curve25519Legacy | Curve::Ed25519Legacy => 255,
                c => c.field_len() * 8,
            },
            PublicMaterial::EdDsaLegacy { .. } => 255,
            PublicMaterial::X25519(_) | PublicMaterial::Ed25519(_) => 255,
            PublicMaterial::X448(_) | PublicMaterial::Ed448(_) => 448,
            // The ECC half's size (the lattice half is at least as strong);
            // SLH-DSA, without one: its public key's (2n octets).
            PublicMaterial::Composite { ecc, pq, .. } => match ecc.len() {
                0 => pq.len() * 8,
                32 => 255,
                _ => 448,
            },
        }
    }
}
