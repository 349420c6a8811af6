//! The algorithm-specific fields of PKESK packets (RFC 9580 §5.1.3-5.1.7).

use super::mpi::{put_len_prefixed, take, take_array, take_len_prefixed, take_u8};
use super::{Mpi, PublicKeyAlg, pq};
use crate::openpgp::{Error, Result, SymAlg};

/// PKESK packet versions (RFC 9580 §5.1): v3 goes with SEIPD v1, v6 with
/// SEIPD v2.
///
/// ```
/// use tessera::openpgp::crypto::{KeyType, PkeskVersion, encrypt_session_key, generate};
/// use tessera::openpgp::SymAlg;
/// let (public, _) = generate(KeyType::X25519)?;
/// // v3 (with SEIPD v1) names the cipher, v6 does not.
/// assert!(encrypt_session_key(&public, &[0; 32], PkeskVersion::V3, Some(SymAlg::Aes128), &[1; 16]).is_ok());
/// assert!(encrypt_session_key(&public, &[0; 32], PkeskVersion::V6, Some(SymAlg::Aes128), &[1; 16]).is_err());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PkeskVersion {
    /// Version 3: the session key is preceded by its cipher's id.
    V3,
    /// Version 6: the cipher is named by the SEIPD v2 packet instead.
    V6,
}

impl PkeskVersion {
    /// The version octet.
    ///
    /// ```
    /// use tessera::openpgp::crypto::PkeskVersion;
    /// assert_eq!((PkeskVersion::V3.id(), PkeskVersion::V6.id()), (3, 6));
    /// ```
    pub fn id(self) -> u8 {
        match self {
            PkeskVersion::V3 => 3,
            PkeskVersion::V6 => 6,
        }
    }
}

/// The encrypted session key as a PKESK packet carries it, after the
/// algorithm octet.
///
/// ```
/// use tessera::openpgp::crypto::{PkeskPayload, PkeskVersion, PublicKeyAlg};
/// let mut raw = vec![9u8; 32];
/// raw.push(24);
/// raw.extend_from_slice(&[1u8; 24]);
/// let p = PkeskPayload::parse(PublicKeyAlg::X25519, PkeskVersion::V6, &mut raw.as_slice()).unwrap();
/// let mut out = Vec::new();
/// p.serialize(&mut out);
/// assert_eq!(out, raw);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PkeskPayload {
    /// RSA: `m^e mod n` (§5.1.3).
    Rsa {
        /// The ciphertext.
        c: Mpi,
    },
    /// Elgamal (§5.1.3 of RFC 4880's successor keeps it for decryption):
    /// `(g^k mod p, m·y^k mod p)`.
    Elgamal {
        /// g^k mod p.
        c1: Mpi,
        /// m·y^k mod p.
        c2: Mpi,
    },
    /// ECDH (§5.1.4): the ephemeral point and the AES-wrapped, padded
    /// session key.
    Ecdh {
        /// Ephemeral public point, encoded like the key's point.
        ephemeral: Mpi,
        /// RFC 3394 wrapped key (at most 255 bytes).
        wrapped: Vec<u8>,
    },
    /// X25519 (§5.1.6).
    X25519 {
        /// Ephemeral public key.
        ephemeral: [u8; 32],
        /// v3 only: the session key's cipher, in the clear.
        sym: Option<SymAlg>,
        /// RFC 3394 wrapped session key.
        wrapped: Vec<u8>,
    },
    /// X448 (§5.1.7).
    X448 {
        /// Ephemeral public key.
        ephemeral: [u8; 56],
        /// v3 only: the session key's cipher, in the clear.
        sym: Option<SymAlg>,
        /// RFC 3394 wrapped session key.
        wrapped: Vec<u8>,
    },
    /// A composite KEM of RFC 9980 (§4.3.1): ML-KEM-768+X25519 or
    /// ML-KEM-1024+X448.
    Composite {
        /// The algorithm.
        alg: PublicKeyAlg,
        /// The ephemeral X25519 or X448 public key.
        ecc: Box<[u8]>,
        /// The ML-KEM ciphertext.
        kem: Box<[u8]>,
        /// v3 only: the session key's cipher (AES), in the clear.
        sym: Option<SymAlg>,
        /// The session key, AES-256 key-wrapped under the combined key.
        wrapped: Vec<u8>,
    },
}

/// Reads `size || [sym] || wrapped` of the X25519/X448 formats.
fn parse_native_tail(version: PkeskVersion, input: &mut &[u8]) -> Result<(Option<SymAlg>, Vec<u8>)> {
    let size = usize::from(take_u8(input, "PKESK size")?);
    let mut body = take(input, size, "PKESK wrapped key")?;
    let sym = match version {
        PkeskVersion::V3 => Some(SymAlg::from_id(take_u8(&mut body, "PKESK cipher")?)?),
        PkeskVersion::V6 => None,
    };
    if body.len() < 24 || body.len() % 8 != 0 {
        return Err(Error::Malformed("PKESK wrapped key length"));
    }
    Ok((sym, body.to_vec()))
}

fn serialize_native_tail(sym: Option<SymAlg>, wrapped: &[u8], out: &mut Vec<u8>) {
    out.push((wrapped.len() + usize::from(sym.is_some())) as u8);
    if let Some(sym) = sym {
        out.push(sym.id());
    }
    out.extend_from_slice(wrapped);
}

impl PkeskPayload {
    /// Reads the fields for algorithm `alg` in a PKESK of `version`.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{PkeskPayload, PkeskVersion, PublicKeyAlg};
    /// // X25519 v6: the ephemeral key, then the length of the wrapped key, cut short here.
    /// let mut raw = vec![9u8; 32];
    /// raw.extend_from_slice(&[24, 1, 2, 3]);
    /// assert!(PkeskPayload::parse(PublicKeyAlg::X25519, PkeskVersion::V6, &mut raw.as_slice()).is_err());
    /// ```
    pub fn parse(alg: PublicKeyAlg, version: PkeskVersion, input: &mut &[u8]) -> Result<PkeskPayload> {
        Ok(match alg {
            PublicKeyAlg::Rsa | PublicKeyAlg::RsaEncryptOnly => PkeskPayload::Rsa { c: Mpi::parse(input)? },
            PublicKeyAlg::Elgamal => PkeskPayload::Elgamal { c1: Mpi::parse(input)?, c2: Mpi::parse(input)? },
            PublicKeyAlg::Ecdh => {
                let ephemeral = Mpi::parse(input)?;
                let wrapped = take_len_prefixed(input, "ECDH wrapped key")?;
                if wrapped.len() < 24 || wrapped.len() % 8 != 0 {
                    return Err(Error::Malformed("ECDH wrapped key length"));
                }
                PkeskPayload::Ecdh { ephemeral, wrapped: wrapped.to_vec() }
            }
            PublicKeyAlg::X25519 => {
                let ephemeral = take_array(input, "X25519 ephemeral key")?;
                let (sym, wrapped) = parse_native_tail(version, input)?;
                PkeskPayload::X25519 { ephemeral, sym, wrapped }
            }
            PublicKeyAlg::X448 => {
                let ephemeral = take_array(input, "X448 ephemeral key")?;
                let (sym, wrapped) = parse_native_tail(version, input)?;
                PkeskPayload::X448 { ephemeral, sym, wrapped }
            }
            PublicKeyAlg::MlKem768X25519 | PublicKeyAlg::MlKem1024X448 => {
                let s = pq::sizes(alg).expect("a composite algorithm");
                let ecc = pq::take_boxed(input, s.ecc_out, "composite KEM ephemeral key")?;
                let kem = pq::take_boxed(input, s.pq_out, "ML-KEM ciphertext")?;
                let (sym, wrapped) = parse_native_tail(version, input)?;
                PkeskPayload::Composite { alg, ecc, kem, sym, wrapped }
            }
            other => return Err(Error::UnsupportedPublicKeyAlg(other.id())),
        })
    }

    /// Appends the fields as a PKESK packet holds them.
    ///
    /// ```
    /// use tessera::openpgp::crypto::{KeyType, PkeskPayload, PkeskVersion, encrypt_session_key, generate};
    /// let (public, _) = generate(KeyType::X25519)?;
    /// let payload = encrypt_session_key(&public, &[0; 32], PkeskVersion::V6, None, &[7; 32])?;
    /// let mut bytes = Vec::new();
    /// payload.serialize(&mut bytes);
    /// assert_eq!(bytes.len(), 32 + 1 + 40); // ephemeral key, length, wrapped key
    /// assert_eq!(PkeskPayload::parse(payload.alg(), PkeskVersion::V6, &mut bytes.as_slice())?, payload);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn serialize(&self, out: &mut Vec<u8>) {
        match self {
            PkeskPayload::Rsa { c } => c.serialize(out),
            PkeskPayload::Elgamal { c1, c2 } => {
                c1.serialize(out);
                c2.serialize(out);
            }
            PkeskPayload::Ecdh { ephemeral, wrapped } => {
                ephemeral.serialize(out);
                put_len_prefixed(out, wrapped);
            }
            PkeskPayload::X25519 { ephemeral, sym, wrapped } => {
                out.extend_from_slice(ephemeral);
                serialize_native_tail(*sym, wrapped, out);
            }
            PkeskPayload::X448 { ephemeral, sym, wrapped } => {
                out.extend_from_slice(ephemeral);
                serialize_native_tail(*sym, wrapped, out);
            }
            PkeskPayload::Composite { ecc, kem, sym, wrapped, .. } => {
                out.extend_from_slice(ecc);
                out.extend_from_slice(kem);
                serialize_native_tail(*sym, wrapped, out);
            }
        }
    }

    /// The public-key algorithm this payload is for (RSA reports id 1).
    ///
    /// ```
    /// use tessera::openpgp::crypto::{Curve, KeyType, PkeskVersion, PublicKeyAlg, encrypt_session_key, generate};
    /// let (public, _) = generate(KeyType::Ecdh(Curve::NistP256))?;
    /// let payload = encrypt_session_key(&public, &[0; 20], PkeskVersion::V6, None, &[7; 16])?;
    /// assert_eq!(payload.alg(), PublicKeyAlg::Ecdh);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn alg(&self) -> PublicKeyAlg {
        match self {
            PkeskPayload::Rsa { .. } => PublicKeyAlg::Rsa,
            PkeskPayload::Elgamal { .. } => PublicKeyAlg::Elgamal,
            PkeskPayload::Ecdh { .. } => PublicKeyAlg::Ecdh,
            PkeskPayload::X25519 { .. } => PublicKeyAlg::X25519,
            PkeskPayload::X448 { .. } => PublicKeyAlg::X448,
            PkeskPayload::Composite { alg, .. } => *alg,
        }
    }
}
