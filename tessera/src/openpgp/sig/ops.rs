//! One-pass signature packets (RFC 9580 §5.4): version 3 (for v4
//! signatures, naming the key ID) and version 6 (salt and fingerprint).

use super::super::crypto::{HashAlg, PublicKeyAlg};
use super::super::key::{Fingerprint, KeyId, PublicKey};
use super::super::{Error, Result};
use super::packet::{SigType, Signature};

/// A one-pass signature packet: what the signature after the data will be.
///
/// ```
/// use tessera::openpgp::crypto::HashAlg;
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::{OnePassSig, OpsIssuer, SigType};
/// let key = generate(&GenerateOptions::default())?;
/// let ops = OnePassSig::for_key(key.primary.public(), SigType::Binary, HashAlg::Sha512, &[0; 32], true);
/// assert_eq!(ops.version, 6);
/// assert_eq!(ops.issuer, OpsIssuer::Fingerprint(key.fingerprint()));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnePassSig {
    /// 3 or 6.
    pub version: u8,
    /// The signature type.
    pub sig_type: SigType,
    /// The hash algorithm.
    pub hash_alg: HashAlg,
    /// The signer's public-key algorithm.
    pub pk_alg: PublicKeyAlg,
    /// The salt (v6) or empty.
    pub salt: Vec<u8>,
    /// The issuer's key ID (v3), or its fingerprint (v6).
    pub issuer: OpsIssuer,
    /// 0: another one-pass signature over the same data follows.
    pub last: bool,
}

/// Who a one-pass signature says will sign.
///
/// ```
/// use tessera::openpgp::crypto::HashAlg;
/// use tessera::openpgp::key::{GenerateOptions, KeyProfile, generate};
/// use tessera::openpgp::sig::{OnePassSig, OpsIssuer, SigType};
/// let opts = GenerateOptions { profile: KeyProfile::Rfc4880, user_ids: vec!["A <a@example.org>".into()], ..Default::default() };
/// let key = generate(&opts)?;
/// // A v4 key is announced by key ID, in a version 3 packet.
/// let ops = OnePassSig::for_key(key.primary.public(), SigType::Binary, HashAlg::Sha256, &[], true);
/// assert_eq!((ops.version, ops.issuer), (3, OpsIssuer::KeyId(key.fingerprint().key_id())));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpsIssuer {
    /// Version 3: a key ID.
    KeyId(KeyId),
    /// Version 6: a v6 fingerprint.
    Fingerprint(Fingerprint),
}

impl OnePassSig {
    /// The packet announcing a signature by `key`.
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{OnePassSig, SigType};
    /// let key = generate(&GenerateOptions::default())?;
    /// let ops = OnePassSig::for_key(key.primary.public(), SigType::Text, HashAlg::Sha512, &[7; 32], false);
    /// assert_eq!((ops.salt.len(), ops.last), (32, false));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn for_key(key: &PublicKey, sig_type: SigType, hash_alg: HashAlg, salt: &[u8], last: bool) -> Self {
        let fp = key.fingerprint();
        let (version, issuer) =
            if fp.version() == 6 { (6, OpsIssuer::Fingerprint(fp)) } else { (3, OpsIssuer::KeyId(fp.key_id())) };
        OnePassSig { version, sig_type, hash_alg, pk_alg: key.alg(), salt: salt.to_vec(), issuer, last }
    }

    /// Parses a packet body.
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{OnePassSig, SigType};
    /// let key = generate(&GenerateOptions::default())?;
    /// let ops = OnePassSig::for_key(key.primary.public(), SigType::Binary, HashAlg::Sha512, &[7; 32], true);
    /// assert_eq!(OnePassSig::parse(&ops.to_bytes())?, ops);
    /// assert!(OnePassSig::parse(&[6, 0]).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn parse(b: &[u8]) -> Result<Self> {
        let short = || Error::Malformed("one-pass signature packet is cut short");
        let head = b.get(..4).ok_or_else(short)?;
        let (version, sig_type) = (head[0], SigType::from_id(head[1]));
        let hash_alg = HashAlg::from_id(head[2])?;
        let pk_alg = PublicKeyAlg::from_id(head[3])?;
        let (salt, issuer, rest) = match version {
            3 => {
                let id: [u8; 8] = b.get(4..12).ok_or_else(short)?.try_into().expect("8 octets");
                (Vec::new(), OpsIssuer::KeyId(KeyId(id)), &b[12..])
            }
            6 => {
                let sl = *b.get(4).ok_or_else(short)? as usize;
                if sl != hash_alg.v6_salt_len() {
                    return Err(Error::Malformed("v6 one-pass signature salt length does not match its hash"));
                }
                let salt = b.get(5..5 + sl).ok_or_else(short)?.to_vec();
                let fp: [u8; 32] = b.get(5 + sl..37 + sl).ok_or_else(short)?.try_into().expect("32 octets");
                (salt, OpsIssuer::Fingerprint(Fingerprint::V6(fp)), &b[37 + sl..])
            }
            _ => return Err(Error::Unsupported("one-pass signature version (3 and 6 are supported)")),
        };
        match rest {
            [flag] => Ok(OnePassSig { version, sig_type, hash_alg, pk_alg, salt, issuer, last: *flag != 0 }),
            _ => Err(Error::Malformed("one-pass signature packet length")),
        }
    }

    /// The encoded packet body.
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{OnePassSig, SigType};
    /// let key = generate(&GenerateOptions::default())?;
    /// let ops = OnePassSig::for_key(key.primary.public(), SigType::Binary, HashAlg::Sha512, &[7; 32], true);
    /// let bytes = ops.to_bytes();
    /// // Version, type, hash, algorithm, salt length and salt, fingerprint, last flag.
    /// assert_eq!(bytes.len(), 4 + 1 + 32 + 32 + 1);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = vec![self.version, self.sig_type.id(), self.hash_alg.id(), self.pk_alg.id()];
        match &self.issuer {
            OpsIssuer::KeyId(id) => v.extend_from_slice(&id.0),
            OpsIssuer::Fingerprint(fp) => {
                v.push(self.salt.len() as u8);
                v.extend_from_slice(&self.salt);
                v.extend_from_slice(fp.as_bytes());
            }
        }
        v.push(u8::from(self.last));
        v
    }

    /// Whether `sig` is the signature this packet announced.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{OnePassSig, SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let keys = SigningKey::from_cert(&key, 1_700_000_001)?;
    /// let sig = Signer::new(&keys, SigType::Binary, 1_700_000_001)?.finish()?.remove(0);
    /// let ops = OnePassSig::for_key(key.primary.public(), SigType::Binary, sig.hash_alg(), sig.salt(), true);
    /// assert!(ops.matches(&sig));
    /// let text = OnePassSig::for_key(key.primary.public(), SigType::Text, sig.hash_alg(), sig.salt(), true);
    /// assert!(!text.matches(&sig));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn matches(&self, sig: &Signature) -> bool {
        let version_ok = matches!((self.version, sig.version()), (3, 4) | (6, 6));
        let issuer_ok = match &self.issuer {
            OpsIssuer::KeyId(id) => sig.issuer_key_ids().any(|i| i == *id),
            OpsIssuer::Fingerprint(fp) => sig.issuer_fingerprints().any(|f| f == fp),
        };
        version_ok
            && issuer_ok
            && self.sig_type == sig.sig_type()
            && self.hash_alg == sig.hash_alg()
            && self.pk_alg == sig.pk_alg()
            && self.salt == sig.salt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc9580_a7_one_pass_signature_round_trips() {
        // The v6 one-pass signature packet body of RFC 9580 Appendix A.7.
        let body = [
            6, 1, 10, 27, 32, 0x76, 0x49, 0x5f, 0x50, 0x21, 0x88, 0x90, 0xf7, 0xf5, 0xe2, 0xee, 0x3c, 0x18, 0x22, 0x51,
            0x4f, 0x70, 0x50, 0x0f, 0x55, 0x1d, 0x86, 0xe5, 0xc9, 0x21, 0xe4, 0x04, 0xe3, 0x4a, 0x53, 0xfb, 0xac, 0xcb,
            0x18, 0x6c, 0x4f, 0x06, 0x09, 0xa6, 0x97, 0xe4, 0xd5, 0x2d, 0xfa, 0x6c, 0x72, 0x2b, 0x0c, 0x1f, 0x1e, 0x27,
            0xc1, 0x8a, 0x56, 0x70, 0x8f, 0x65, 0x25, 0xec, 0x27, 0xba, 0xd9, 0xac, 0xc9, 1,
        ];
        let ops = OnePassSig::parse(&body).unwrap();
        assert_eq!((ops.version, ops.sig_type, ops.hash_alg, ops.last), (6, SigType::Text, HashAlg::Sha512, true));
        assert_eq!(ops.to_bytes(), body);
        assert!(OnePassSig::parse(&body[..body.len() - 1]).is_err());
    }
}
