//! What a signature hashes (RFC 9580 §5.2.4): one function per rule, all
//! built on [`Hasher`]. A v6 signature hashes its salt first; every
//! signature ends with its trailer (the fields up to the hashed subpackets,
//! then `version || 0xFF || length`).
//!
//! ```
//! use tessera::openpgp::key::Cert;
//! use tessera::openpgp::sig::hashing;
//! # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
//! let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
//! let (primary, sub) = (cert.primary.public(), cert.subkeys[0].key.public());
//! let binding = &cert.subkeys[0].sigs[0];
//! // The digest of RFC 9580 A.3's subkey binding, recomputed by its rule.
//! let digest = hashing::binding_digest(&binding.hashed_fields(), primary, sub);
//! assert_eq!(binding.digest_prefix(), [digest[0], digest[1]]);
//! binding.verify_digest(primary, &digest)?;
//! # Ok::<(), tessera::openpgp::Error>(())
//! ```

use super::super::crypto::{HashAlg, Hasher, PublicKeyAlg};
use super::super::key::PublicKey;
use super::packet::{SigType, Signature};

/// The signature fields that are hashed: everything before the unhashed area,
/// and the salt. A [`Signature`] and a signature being built both give one.
///
/// ```
/// use tessera::openpgp::crypto::{HashAlg, PublicKeyAlg};
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::SigType;
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
/// let f = cert.direct_sigs[0].hashed_fields();
/// assert_eq!((f.version, f.sig_type, f.pk_alg), (6, SigType::DirectKey, PublicKeyAlg::Ed25519));
/// assert_eq!(f.salt.len(), f.hash_alg.v6_salt_len());
/// # let _ = HashAlg::Sha512;
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct HashedFields<'a> {
    /// Signature version (4 or 6).
    pub version: u8,
    /// Signature type.
    pub sig_type: SigType,
    /// Signer's public-key algorithm.
    pub pk_alg: PublicKeyAlg,
    /// Hash algorithm.
    pub hash_alg: HashAlg,
    /// The encoded hashed subpacket area.
    pub hashed_area: &'a [u8],
    /// The salt (v6) or nothing (v4).
    pub salt: &'a [u8],
}

impl Signature {
    /// The fields this signature hashed.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::subpacket::parse_area;
    /// let key = generate(&GenerateOptions::default())?;
    /// let sig = &key.direct_sigs[0];
    /// let f = sig.hashed_fields();
    /// assert_eq!(parse_area(f.hashed_area)?, sig.hashed());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn hashed_fields(&self) -> HashedFields<'_> {
        HashedFields {
            version: self.version,
            sig_type: self.sig_type,
            pk_alg: self.pk_alg,
            hash_alg: self.hash_alg,
            hashed_area: &self.hashed_area,
            salt: &self.salt,
        }
    }
}

/// A hash context with the salt already hashed (v6).
///
/// ```
/// use tessera::openpgp::crypto::{HashAlg, Hasher};
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::hashing;
/// let key = generate(&GenerateOptions::default())?;
/// let f = key.direct_sigs[0].hashed_fields();
/// // v6: the salt comes first.
/// let mut by_hand = Hasher::new(f.hash_alg);
/// by_hand.update(f.salt);
/// assert_eq!(hashing::begin(&f).finalize(), by_hand.finalize());
/// # let _ = HashAlg::Sha512;
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn begin(f: &HashedFields<'_>) -> Hasher {
    let mut h = Hasher::new(f.hash_alg);
    if f.version == 6 {
        h.update(f.salt);
    }
    h
}

/// Hashes the trailer and returns the digest.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::hashing;
/// let key = generate(&GenerateOptions::default())?;
/// let (sig, primary) = (&key.direct_sigs[0], key.primary.public());
/// let f = sig.hashed_fields();
/// // A direct key signature hashes the primary key, then the trailer.
/// let mut h = hashing::begin(&f);
/// h.update(&primary.hash_header());
/// h.update(primary.body());
/// assert_eq!(hashing::finish(h, &f), hashing::direct_key_digest(&f, primary));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn finish(mut h: Hasher, f: &HashedFields<'_>) -> Vec<u8> {
    let mut t = vec![f.version, f.sig_type.id(), f.pk_alg.id(), f.hash_alg.id()];
    if f.version == 6 {
        t.extend_from_slice(&(f.hashed_area.len() as u32).to_be_bytes());
    } else {
        t.extend_from_slice(&(f.hashed_area.len() as u16).to_be_bytes());
    }
    h.update(&t);
    h.update(f.hashed_area);
    let total = (t.len() + f.hashed_area.len()) as u32;
    h.update(&[f.version, 0xff]);
    h.update(&total.to_be_bytes());
    h.finalize()
}

fn hash_key(h: &mut Hasher, key: &PublicKey) {
    h.update(&key.hash_header());
    h.update(key.body());
}

/// Direct key (0x1F) and key revocation (0x20) signatures: the primary key.
///
/// ```
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::hashing;
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
/// let sig = &cert.direct_sigs[0];
/// let digest = hashing::direct_key_digest(&sig.hashed_fields(), cert.primary.public());
/// sig.verify_digest(cert.primary.public(), &digest)?;
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn direct_key_digest(f: &HashedFields<'_>, primary: &PublicKey) -> Vec<u8> {
    let mut h = begin(f);
    hash_key(&mut h, primary);
    finish(h, f)
}

/// Certifications (0x10-0x13) and certification revocations (0x30): the
/// primary key, then 0xB4, a 4-octet length and the User ID.
///
/// ```
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::hashing;
/// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
/// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
/// let uid = &alice.user_ids[0];
/// let digest = hashing::certification_digest(&uid.sigs[0].hashed_fields(), alice.primary.public(), &uid.value);
/// uid.sigs[0].verify_digest(alice.primary.public(), &digest)?;
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn certification_digest(f: &HashedFields<'_>, primary: &PublicKey, user_id: &[u8]) -> Vec<u8> {
    let mut h = begin(f);
    hash_key(&mut h, primary);
    h.update(&[0xb4]);
    h.update(&(user_id.len() as u32).to_be_bytes());
    h.update(user_id);
    finish(h, f)
}

/// Subkey binding (0x18), primary key binding (0x19) and subkey revocation
/// (0x28): the primary key, then the subkey.
///
/// ```
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::hashing;
/// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
/// let alice = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
/// let (primary, binding) = (alice.primary.public(), &alice.subkeys[0].sigs[0]);
/// let digest = hashing::binding_digest(&binding.hashed_fields(), primary, alice.subkeys[0].key.public());
/// binding.verify_digest(primary, &digest)?;
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn binding_digest(f: &HashedFields<'_>, primary: &PublicKey, subkey: &PublicKey) -> Vec<u8> {
    let mut h = begin(f);
    hash_key(&mut h, primary);
    hash_key(&mut h, subkey);
    finish(h, f)
}

/// Binary document signatures (0x00): the data as given, streamed through
/// [`DocumentHasher::update`].
///
/// Text signatures (0x01) hash the data with every line ending made CR LF;
/// [`DocumentHasher`] does that conversion itself, across any split of the
/// input.
///
/// ```
/// use tessera::openpgp::key::{generate, GenerateOptions};
/// use tessera::openpgp::sig::{hashing, SigType, SignatureBuilder};
/// let key = generate(&GenerateOptions::default()).unwrap();
/// let (public, secret) = (key.primary.public(), key.primary.secret().unwrap().secret().unwrap());
/// let sign = |f: &hashing::HashedFields<'_>| {
///     let mut h = hashing::DocumentHasher::new(f);
///     h.update(b"line one\nline two\n");
///     h.finish(f)
/// };
/// let sig = SignatureBuilder::new(SigType::Text, 1_700_000_000).sign_with(public, secret, sign).unwrap();
/// let f = sig.hashed_fields();
/// let mut h = hashing::DocumentHasher::new(&f);
/// h.update(b"line one\r\nline two\r\n");
/// sig.verify_digest(public, &h.finish(&f)).unwrap();
/// ```
#[derive(Debug)]
pub struct DocumentHasher {
    h: Hasher,
    text: bool,
    after_cr: bool,
}

impl DocumentHasher {
    /// Starts hashing a document for a signature with these fields.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{DocumentHasher, SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let mut signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// signer.update(b"data");
    /// let sig = signer.finish()?.remove(0);
    /// let f = sig.hashed_fields();
    /// let mut h = DocumentHasher::new(&f);
    /// h.update(b"data");
    /// sig.verify_digest(key.primary.public(), &h.finish(&f))?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new(f: &HashedFields<'_>) -> Self {
        DocumentHasher { h: begin(f), text: f.sig_type == SigType::Text, after_cr: false }
    }

    /// Adds document bytes.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{DocumentHasher, SigType, SignatureBuilder};
    /// let key = generate(&GenerateOptions::default())?;
    /// let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret()?);
    /// let sig = SignatureBuilder::new(SigType::Text, 1_700_000_000).sign_with(public, secret, |f| {
    ///     let mut h = DocumentHasher::new(f);
    ///     h.update(b"a\nb\n");
    ///     h.finish(f)
    /// })?;
    /// // Text: line endings are made CR LF, however the input is split.
    /// let f = sig.hashed_fields();
    /// let mut h = DocumentHasher::new(&f);
    /// h.update(b"a\r");
    /// h.update(b"\nb\r\n");
    /// sig.verify_digest(public, &h.finish(&f))?;
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn update(&mut self, data: &[u8]) {
        if !self.text {
            self.h.update(data);
            return;
        }
        let h = &mut self.h;
        crlf_pieces(data, &mut self.after_cr, |piece| h.update(piece));
    }

    /// Hashes the trailer and returns the digest.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::DocumentHasher;
    /// let key = generate(&GenerateOptions::default())?;
    /// let f = key.direct_sigs[0].hashed_fields();
    /// let digest = DocumentHasher::new(&f).finish(&f);
    /// assert_eq!(digest.len(), f.hash_alg.digest_len());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn finish(self, f: &HashedFields<'_>) -> Vec<u8> {
        finish(self.h, f)
    }
}

/// Passes `data` to `f` in pieces with every line feed not preceded by a
/// carriage return made CR LF; `after_cr` carries whether the previous
/// piece of the stream ended with CR.
pub(crate) fn crlf_pieces(data: &[u8], after_cr: &mut bool, mut f: impl FnMut(&[u8])) {
    let mut start = 0;
    for (i, &b) in data.iter().enumerate() {
        let prev_cr = if i == 0 { *after_cr } else { data[i - 1] == b'\r' };
        if b == b'\n' && !prev_cr {
            f(&data[start..i]);
            f(b"\r\n");
            start = i + 1;
        }
    }
    f(&data[start..]);
    if let Some(&last) = data.last() {
        *after_cr = last == b'\r';
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_digest(pieces: &[&[u8]]) -> Vec<u8> {
        let f = HashedFields {
            version: 4,
            sig_type: SigType::Text,
            pk_alg: PublicKeyAlg::Ed25519,
            hash_alg: HashAlg::Sha256,
            hashed_area: &[],
            salt: &[],
        };
        let mut d = DocumentHasher::new(&f);
        pieces.iter().for_each(|p| d.update(p));
        d.finish(&f)
    }

    #[test]
    fn text_line_endings_are_canonical_across_splits() {
        let want = text_digest(&[b"a\r\nb\r\n\r\nc"]);
        assert_eq!(text_digest(&[b"a\nb\n\nc"]), want);
        assert_eq!(text_digest(&[b"a\r", b"\nb\n", b"\n", b"c"]), want);
        assert_eq!(text_digest(&[b"a", b"\n", b"b\r\n\r", b"\nc"]), want);
        assert_ne!(text_digest(&[b"a\nb\nc"]), want);
    }
}
