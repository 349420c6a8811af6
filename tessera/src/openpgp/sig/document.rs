//! Detached document signatures (RFC 9580 §5.2.1.1-2), made and checked in
//! one streaming pass: [`Signer`] and [`Verifier`] are [`std::io::Write`]
//! sinks that hash what they are given (one hash per signature, salted for
//! v6) and sign or judge at the end. Memory does not depend on the size of
//! the data.

use std::io::{self, Write};

use super::super::crypto::{HashAlg, SecretMaterial};
use super::super::key::{Cert, Fingerprint, KeyError, KeyVersion, PublicKey};
use super::super::{Error, Result, random};
use super::builder::SignatureBuilder;
use super::check::{DocumentChecker, Outcome, SigResult, hash_acceptable, negotiate_hash};
use super::hash_thread::Hashing;
use super::hashing::{DocumentHasher, HashedFields};
use super::packet::{SigType, Signature};
use super::subpacket::{Subpacket, SubpacketValue};

/// A key ready to sign data: a signing-capable key of a certificate (the
/// primary key or a subkey), its unlocked secret, and the hash it uses.
///
/// ```
/// use tessera::openpgp::crypto::HashAlg;
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::SigningKey;
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let keys = SigningKey::from_cert(&key, 1_700_000_001)?;
/// assert_eq!(keys[0].public.fingerprint(), key.fingerprint());
/// assert_eq!(keys[0].hash, HashAlg::Sha256); // of the key's preferences, the one matching Ed25519
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SigningKey<'a> {
    /// The public key that signs.
    pub public: &'a PublicKey,
    /// Its secret.
    pub secret: &'a SecretMaterial,
    /// The hash algorithm (from the preferences: [`SigningKey::for_message`]).
    pub hash: HashAlg,
}

impl<'a> SigningKey<'a> {
    /// The keys of `cert` (a secret key, unlocked) that may sign data at
    /// `at`: valid, flagged for signing, with their secret present. An error
    /// names the certificate when none qualifies.
    ///
    /// ```
    /// use tessera::openpgp::Error;
    /// use tessera::openpgp::key::{GenerateOptions, KeyError, generate};
    /// use tessera::openpgp::sig::SigningKey;
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// // A certificate alone cannot sign.
    /// let public = key.to_public();
    /// assert!(matches!(SigningKey::from_cert(&public, 1_700_000_001), Err(Error::Key(KeyError::NoSecret(_)))));
    /// // Nor can a key before it exists.
    /// assert!(SigningKey::from_cert(&key, 1_600_000_000).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_cert(cert: &'a Cert, at: u64) -> Result<Vec<SigningKey<'a>>> {
        Self::for_message(cert, at, &[], None)
    }

    /// As [`SigningKey::from_cert`], for a message encrypted to `recipients`
    /// (empty when only signing): each key's hash is the one
    /// [`negotiate_hash`] picks from the signer's and the recipients'
    /// preferences, or `hash` when given (a command line's `--hash`),
    /// refused with [`Error::InvalidOption`] for a key that policy does not
    /// let use it ([`hash_acceptable`]).
    ///
    /// ```
    /// use tessera::openpgp::crypto::HashAlg;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::SigningKey;
    /// let opts = GenerateOptions { created: Some(1_700_000_000), ..Default::default() };
    /// let (alice, bob) = (generate(&opts)?, generate(&opts)?);
    /// let keys = SigningKey::for_message(&alice, 1_700_000_001, &[bob.to_public()], None)?;
    /// assert_eq!(keys[0].hash, HashAlg::Sha256); // both list it; it matches Ed25519's strength
    /// let keys = SigningKey::for_message(&alice, 1_700_000_001, &[], Some(HashAlg::Sha3_256))?;
    /// assert_eq!(keys[0].hash, HashAlg::Sha3_256);
    /// assert!(SigningKey::for_message(&alice, 1_700_000_001, &[], Some(HashAlg::Sha1)).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn for_message(
        cert: &'a Cert,
        at: u64,
        recipients: &[Cert],
        hash: Option<HashAlg>,
    ) -> Result<Vec<SigningKey<'a>>> {
        let valid = cert.validate(at)?;
        let prefs = valid.self_sig.preferred_hash();
        // A recipient that is not valid states nothing (encrypting to it fails anyway).
        let theirs: Vec<_> = recipients.iter().map(|c| c.validate(at).ok()).collect();
        let theirs: Vec<Option<&[u8]>> =
            theirs.iter().map(|v| v.as_ref().and_then(|v| v.self_sig.preferred_hash())).collect();
        let mut out = Vec::new();
        for k in valid.signing_keys() {
            let Some(secret) = k.key.secret() else { continue };
            let public: &'a PublicKey = k.key.public();
            let hash = match hash {
                Some(h) if hash_acceptable(public, h) => h,
                Some(_) => return Err(Error::InvalidOption("the hash asked for is too weak for the signing key")),
                None => negotiate_hash(public, prefs, &theirs),
            };
            out.push(SigningKey { public, secret: secret.secret()?, hash });
        }
        if out.is_empty() {
            return Err(KeyError::NoSecret(cert.fingerprint()).into());
        }
        Ok(out)
    }

    fn fields<'s>(&self, sig_type: SigType, salt: &'s [u8]) -> HashedFields<'s> {
        HashedFields {
            version: self.public.version().id(),
            sig_type,
            pk_alg: self.public.alg(),
            hash_alg: self.hash,
            hashed_area: &[],
            salt,
        }
    }
}

/// One signature in the making (its hash is in [`Signer::hashing`], in
/// the same order).
#[derive(Debug)]
struct Pending<'a> {
    key: SigningKey<'a>,
    salt: Vec<u8>,
}

/// Signs data as it is written: binary (0x00) or text (0x01, line endings
/// made CR LF while hashing) signatures by several keys at once, v4 or v6
/// after each key. [`Signer::finish`] makes the signatures.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::key::{generate, GenerateOptions};
/// use tessera::openpgp::sig::{SigType, Signer, SigningKey, Verifier};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
/// let keys = SigningKey::from_cert(&key, 1_700_000_001).unwrap();
/// let mut signer = Signer::new(&keys, SigType::Binary, 1_700_000_001).unwrap();
/// signer.write_all(b"hello").unwrap();
/// let sigs = signer.finish().unwrap();
/// let certs = [key.to_public()];
/// let mut verifier = Verifier::new(sigs, &certs, 1_700_000_002);
/// verifier.write_all(b"hello").unwrap();
/// assert!(verifier.finish().iter().all(|r| r.is_good()));
/// ```
#[derive(Debug)]
pub struct Signer<'a> {
    pending: Vec<Pending<'a>>,
    hashing: Hashing,
    sig_type: SigType,
    created: u32,
    /// Intended Recipient Fingerprint subpackets to add (RFC 9580 §5.2.3.36).
    recipients: Vec<Fingerprint>,
}

impl<'a> Signer<'a> {
    /// Starts signatures of `sig_type` (binary or text) made at `created`.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// let opts = GenerateOptions { created: Some(1_700_000_000), ..Default::default() };
    /// let (alice, bob) = (generate(&opts)?, generate(&opts)?);
    /// // Two signers at once, one signature each.
    /// let keys = [SigningKey::from_cert(&alice, 1_700_000_001)?, SigningKey::from_cert(&bob, 1_700_000_001)?].concat();
    /// let mut signer = Signer::new(&keys, SigType::Binary, 1_700_000_001)?;
    /// signer.update(b"contract");
    /// assert_eq!(signer.finish()?.len(), 2);
    /// // Only document signatures.
    /// assert!(Signer::new(&keys, SigType::DirectKey, 1_700_000_001).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new(keys: &[SigningKey<'a>], sig_type: SigType, created: u32) -> Result<Self> {
        if !matches!(sig_type, SigType::Binary | SigType::Text) {
            return Err(Error::InvalidOption("document signatures are binary or text"));
        }
        if keys.is_empty() {
            return Err(Error::InvalidOption("no signing key"));
        }
        let mut pending = Vec::with_capacity(keys.len());
        let mut hashers = Vec::with_capacity(keys.len());
        for &key in keys {
            let mut salt = Vec::new();
            if key.public.version() == KeyVersion::V6 {
                salt = vec![0u8; key.hash.v6_salt_len()];
                random(&mut salt)?;
            }
            hashers.push(DocumentHasher::new(&key.fields(sig_type, &salt)));
            pending.push(Pending { key, salt });
        }
        Ok(Signer { pending, hashing: Hashing::Here(hashers), sig_type, created, recipients: Vec::new() })
    }

    /// Whether an armored message signed by these keys carries the CRC24
    /// line: yes when any key is v4, for RFC 4880 readers (GnuPG 2.2 reads
    /// past the end of an armored body with no padding and no CRC24 line),
    /// as [`write_signatures`](super::write_signatures) does.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, KeyProfile, generate};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// let user_ids = vec!["A <a@example.org>".into()];
    /// let opts = GenerateOptions { created: Some(1_700_000_000), profile: KeyProfile::Rfc4880, user_ids, ..Default::default() };
    /// let key = generate(&opts)?;
    /// let keys = SigningKey::from_cert(&key, 1_700_000_001)?;
    /// assert!(Signer::new(&keys, SigType::Binary, 1_700_000_001)?.armor_crc());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn armor_crc(&self) -> bool {
        self.pending.iter().any(|p| p.key.public.version() != KeyVersion::V6)
    }

    /// Names `fingerprint` (a recipient certificate's primary key) in an
    /// Intended Recipient Fingerprint subpacket of every signature (RFC 9580
    /// §5.2.3.36), so that a recipient can tell a message forwarded to it
    /// by another recipient. [`crate::openpgp::SigningEncryptor`] adds each
    /// recipient itself.
    ///
    /// ```
    /// use tessera::openpgp::key::{generate, GenerateOptions};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
    /// let keys = SigningKey::from_cert(&key, 1_700_000_001).unwrap();
    /// let mut signer = Signer::new(&keys, SigType::Binary, 1_700_000_001).unwrap();
    /// signer.intended_recipient(key.fingerprint());
    /// let sig = signer.finish().unwrap().remove(0);
    /// assert_eq!(sig.intended_recipients().collect::<Vec<_>>(), [&key.fingerprint()]);
    /// ```
    pub fn intended_recipient(&mut self, fingerprint: Fingerprint) {
        if !self.recipients.contains(&fingerprint) {
            self.recipients.push(fingerprint);
        }
    }

    /// The signature type being made.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Text, 1_700_000_001)?;
    /// assert_eq!(signer.sig_type(), SigType::Text);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn sig_type(&self) -> SigType {
        self.sig_type
    }

    /// For each signature in the making: its key, hash and salt (what a
    /// one-pass signature packet announces).
    pub(crate) fn announced(&self) -> impl Iterator<Item = (&PublicKey, HashAlg, &[u8])> {
        self.pending.iter().map(|p| (p.key.public, p.key.hash, p.salt.as_slice()))
    }

    /// Hashes the data on a thread of its own from now on (see
    /// [`super::hash_thread`]).
    pub(crate) fn hash_on_thread(&mut self) -> Result<()> {
        self.hashing.move_to_thread()
    }

    /// Hashes more data.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey, Verifier};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let mut signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// signer.update(b"hel");
    /// signer.update(b"lo");
    /// let certs = [key.to_public()];
    /// let mut verifier = Verifier::new(signer.finish()?, &certs, 1_700_000_002);
    /// verifier.update(b"hello");
    /// assert!(verifier.finish()[0].is_good());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn update(&mut self, data: &[u8]) {
        self.hashing.update(data);
    }

    /// Makes the signatures, in the order of the keys.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// let sigs = signer.finish()?; // a signature over no data at all
    /// assert_eq!((sigs.len(), sigs[0].created()), (1, Some(1_700_000_001)));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn finish(self) -> Result<Vec<Signature>> {
        let mut out = Vec::with_capacity(self.pending.len());
        for (p, hasher) in self.pending.into_iter().zip(self.hashing.finish()?) {
            let mut b = SignatureBuilder::new(self.sig_type, self.created).hash(p.key.hash).salt(p.salt);
            for fp in &self.recipients {
                b = b.subpacket(Subpacket::new(SubpacketValue::IntendedRecipient(*fp)));
            }
            let sig = b.sign_with(p.key.public, p.key.secret, |f| hasher.finish(f))?;
            out.push(sig);
        }
        Ok(out)
    }
}

impl Write for Signer<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Checks detached signatures as the data is written; [`Verifier::finish`]
/// gives one [`SigResult`] per signature. See [`Signer`] for an example.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::{Outcome, SigType, Signer, SigningKey, Verifier};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let mut signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
/// signer.write_all(b"hello")?;
/// let sigs = signer.finish()?;
/// let certs = [key.to_public()];
/// let mut verifier = Verifier::new(sigs, &certs, 1_700_000_002);
/// verifier.write_all(b"hellO")?; // other data
/// assert!(matches!(verifier.finish()[0].outcome, Outcome::Bad(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Verifier<'c> {
    sigs: Vec<(Signature, Option<DocumentHasher>)>,
    certs: &'c [Cert],
    now: u64,
}

impl<'c> Verifier<'c> {
    /// Checks `sigs` against `certs`; `now` decides signature expiry and
    /// revocations (seconds since the epoch).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{Outcome, SigType, Signer, SigningKey, Verifier};
    /// let opts = GenerateOptions { created: Some(1_700_000_000), ..Default::default() };
    /// let (key, stranger) = (generate(&opts)?, generate(&opts)?);
    /// let sigs = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?.finish()?;
    /// // Checked against certificates that do not include the signer's.
    /// let certs = [stranger.to_public()];
    /// assert_eq!(Verifier::new(sigs, &certs, 1_700_000_002).finish()[0].outcome, Outcome::UnknownSigner);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new(sigs: Vec<Signature>, certs: &'c [Cert], now: u64) -> Self {
        let sigs = sigs
            .into_iter()
            .map(|s| {
                let ok = matches!(s.sig_type(), SigType::Binary | SigType::Text);
                let h = ok.then(|| DocumentHasher::new(&s.hashed_fields()));
                (s, h)
            })
            .collect();
        Verifier { sigs, certs, now }
    }

    /// Hashes more data.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// use tessera::openpgp::sig::{Verifier, read_signatures};
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// // RFC 9580 A.6's text signature, detached from its cleartext message.
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a6_cleartext.asc"));
    /// let block = &message[message.find("-----BEGIN PGP SIGNATURE-----").unwrap()..];
    /// let certs = [cert];
    /// let mut v = Verifier::new(read_signatures(block.as_bytes())?, &certs, 1_717_200_000);
    /// // Text signatures hash CR LF line endings, whatever the input has.
    /// v.update(b"What we need from the grocery store:\n\n- tofu\n- vegetables\n- noodles\n");
    /// assert!(v.finish()[0].is_good());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn update(&mut self, data: &[u8]) {
        for h in self.sigs.iter_mut().filter_map(|(_, h)| h.as_mut()) {
            h.update(data);
        }
    }

    /// The verdict on each signature, in their order.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{Outcome, SigType, Signer, SigningKey, Verifier};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let mut signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// signer.update(b"data");
    /// let certs = [key.to_public()];
    /// let mut verifier = Verifier::new(signer.finish()?, &certs, 1_700_000_002);
    /// verifier.update(b"data");
    /// let results = verifier.finish();
    /// assert!(matches!(&results[0].outcome, Outcome::Good { cert, .. } if *cert == key.fingerprint()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn finish(self) -> Vec<SigResult> {
        let mut checker = DocumentChecker::new(self.certs, self.now);
        self.sigs
            .into_iter()
            .map(|(sig, h)| {
                let outcome = match h {
                    Some(h) => checker.check(&sig, &h.finish(&sig.hashed_fields())),
                    None => Outcome::Bad("not a document signature".into()),
                };
                SigResult { signature: Some(sig), outcome }
            })
            .collect()
    }
}

impl Write for Verifier<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
