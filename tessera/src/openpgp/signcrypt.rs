//! Signing while encrypting and verifying while decrypting, in one pass
//! and constant memory (RFC 9580 §10.3: the one-pass signature packets,
//! the literal data and the signatures, all inside the encrypted data).
//!
//! [`VerifyingDecryptor::finish`] is the only way to learn the outcome, and
//! it succeeds only when at least one signature from the given certificates
//! is good: "decrypted" (every chunk authenticated, which `read` already
//! ensures) and "decrypted and verified" are different calls with different
//! types, never one flag to forget.
//!
//! ```
//! use std::io::{Read, Write};
//! use tessera::openpgp::key::{generate, GenerateOptions};
//! use tessera::openpgp::sig::{SigType, Signer, SigningKey};
//! use tessera::openpgp::{DecryptOptions, EncryptOptions, SigningEncryptor, VerifyingDecryptor};
//! let alice = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
//! let bob = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
//! let keys = SigningKey::from_cert(&alice, 1_700_000_001).unwrap();
//! let opts = EncryptOptions { recipients: vec![bob.to_public()], ..Default::default() };
//! let signer = Signer::new(&keys, SigType::Binary, 1_700_000_001).unwrap();
//! let mut enc = SigningEncryptor::new(Vec::new(), &[], &opts, signer).unwrap();
//! enc.write_all(b"signed and sealed").unwrap();
//! let message = enc.finish().unwrap();
//!
//! let certs = [alice.to_public()];
//! let dopts = DecryptOptions { keys: vec![bob], ..Default::default() };
//! let mut dec = VerifyingDecryptor::new(message.as_slice(), &[], &dopts, &certs, 1_700_000_002).unwrap();
//! let mut data = Vec::new();
//! dec.read_to_end(&mut data).unwrap();
//! let verified = dec.finish().unwrap();
//! assert_eq!(data, b"signed and sealed");
//! assert_eq!(verified.good().count(), 1);
//! ```

use std::io::{self, BufRead, BufReader, Read, Write};

use super::decrypt::{SeipdState, finish_v1, open_message};
use super::encrypt::{Body, close_seipd, open_seipd};
use super::key::{Cert, Fingerprint, KeyError};
use super::plain::is_typed;
use super::seipd::thread_count;
use super::sig::{InlineSigner, InlineVerifier, Outcome, SigResult, Signer};
use super::{DecryptOptions, EncryptOptions, SeipdVersion};
use super::{Error, Result, SessionKey};

/// An [`super::Encryptor`] that also signs: one-pass signature packets
/// first, the data, then the signatures, all encrypted. Call
/// [`SigningEncryptor::finish`].
///
/// ```
/// use std::io::{Read, Write};
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
/// use tessera::openpgp::{DecryptOptions, EncryptOptions, SigningEncryptor, VerifyingDecryptor};
/// let (t, opts) = (1_700_000_000, GenerateOptions { created: Some(1_700_000_000), ..Default::default() });
/// let (alice, bob) = (generate(&opts)?, generate(&opts)?);
/// // Alice signs and encrypts to Bob.
/// let keys = SigningKey::from_cert(&alice, t + 1)?;
/// let signer = Signer::new(&keys, SigType::Binary, t as u32 + 1)?;
/// let opts = EncryptOptions { recipients: vec![bob.to_public()], ..EncryptOptions::default() };
/// let mut enc = SigningEncryptor::new(Vec::new(), &[], &opts, signer)?;
/// enc.write_all(b"from alice")?;
/// let message = enc.finish()?;
/// // Bob decrypts and checks Alice's signature.
/// let (certs, opts) = ([alice.to_public()], DecryptOptions { keys: vec![bob], ..DecryptOptions::default() });
/// let mut dec = VerifyingDecryptor::new(message.as_slice(), &[], &opts, &certs, t + 2)?;
/// let mut out = Vec::new();
/// dec.read_to_end(&mut out)?;
/// assert_eq!(out, b"from alice");
/// assert_eq!(dec.finish()?.good().count(), 1);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub struct SigningEncryptor<'a, W: Write> {
    inner: InlineSigner<'a, Body<W>>,
}

impl<W: Write> std::fmt::Debug for SigningEncryptor<'_, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningEncryptor(..)")
    }
}

impl<'a, W: Write> SigningEncryptor<'a, W> {
    /// Writes the session key packets (passwords and `opts.recipients`) and
    /// the one-pass signature packets of `signer`. Each signature names every
    /// recipient certificate in an Intended Recipient Fingerprint subpacket
    /// (RFC 9580 §5.2.3.36).
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// use tessera::openpgp::{DecryptOptions, EncryptOptions, S2kChoice, SigningEncryptor, VerifyingDecryptor};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let keys = SigningKey::from_cert(&key, 1_700_000_001)?;
    /// let signer = Signer::new(&keys, SigType::Binary, 1_700_000_001)?;
    /// // Signed, and encrypted with a password.
    /// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    /// let mut enc = SigningEncryptor::new(Vec::new(), &[b"pw".as_slice()], &opts, signer)?;
    /// enc.write_all(b"signed")?;
    /// let message = enc.finish()?;
    /// let certs = [key.to_public()];
    /// let dec = VerifyingDecryptor::new(message.as_slice(), &[b"pw".as_slice()], &DecryptOptions::default(), &certs, 1_700_000_002)?;
    /// assert!(dec.finish().is_ok());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new(out: W, passwords: &[&[u8]], opts: &EncryptOptions, mut signer: Signer<'a>) -> Result<Self> {
        for cert in &opts.recipients {
            signer.intended_recipient(cert.fingerprint());
        }
        Self::with_signer(out, passwords, opts, signer)
    }

    /// As [`SigningEncryptor::new`], with `signer` as given.
    fn with_signer(out: W, passwords: &[&[u8]], opts: &EncryptOptions, mut signer: Signer<'a>) -> Result<Self> {
        // With threads, the data is hashed on one while the caller's thread
        // seals the chunks: the hash is the floor, several times slower than
        // sealing, so chunk workers would add memory (a chunk buffer each)
        // and no speed.
        let body = open_seipd(out, passwords, opts, 1)?;
        if thread_count(opts.threads) > 1 {
            signer.hash_on_thread()?;
        }
        Ok(SigningEncryptor { inner: InlineSigner::new(body, signer)? })
    }

    /// Writes the signatures, seals the last chunk and the final tag (or
    /// MDC); returns the underlying writer.
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// use tessera::openpgp::{EncryptOptions, S2kChoice, SigningEncryptor};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let keys = SigningKey::from_cert(&key, 1_700_000_001)?;
    /// let signer = Signer::new(&keys, SigType::Binary, 1_700_000_001)?;
    /// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, armor: true, ..EncryptOptions::default() };
    /// let mut enc = SigningEncryptor::new(Vec::new(), &[b"pw".as_slice()], &opts, signer)?;
    /// enc.write_all(b"signed")?;
    /// let message: Vec<u8> = enc.finish()?; // the signature, the final tag, the armor footer
    /// assert!(message.ends_with(b"-----END PGP MESSAGE-----\n"));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn finish(self) -> Result<W> {
        close_seipd(self.inner.finish()?)
    }
}

impl<W: Write> Write for SigningEncryptor<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The outcome of [`VerifyingDecryptor::finish`]: the message decrypted,
/// every chunk authenticated, and at least one good signature.
///
/// ```
/// # use std::io::Write;
/// # use tessera::openpgp::key::{GenerateOptions, generate};
/// # use tessera::openpgp::sig::{SigType, Signer, SigningKey};
/// # use tessera::openpgp::{EncryptOptions, S2kChoice, SigningEncryptor};
/// use tessera::openpgp::{DecryptOptions, Verified, VerifyingDecryptor};
/// # let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// # let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
/// # let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
/// # let mut enc = SigningEncryptor::new(Vec::new(), &[b"pw".as_slice()], &opts, signer)?;
/// # enc.write_all(b"signed")?;
/// # let message = enc.finish()?;
/// let certs = [key.to_public()];
/// let dec = VerifyingDecryptor::new(message.as_slice(), &[b"pw".as_slice()], &DecryptOptions::default(), &certs, 1_700_000_002)?;
/// let verified: Verified = dec.finish()?;
/// assert_eq!(verified.results.len(), 1);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Verified {
    /// Every signature's result (good ones and the others).
    pub results: Vec<SigResult>,
}

impl Verified {
    /// The good signatures.
    ///
    /// ```
    /// # use std::io::Write;
    /// # use tessera::openpgp::key::{GenerateOptions, generate};
    /// # use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// # use tessera::openpgp::{EncryptOptions, S2kChoice, SigningEncryptor};
    /// use tessera::openpgp::sig::Outcome;
    /// use tessera::openpgp::{DecryptOptions, VerifyingDecryptor};
    /// # let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// # let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// # let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    /// # let mut enc = SigningEncryptor::new(Vec::new(), &[b"pw".as_slice()], &opts, signer)?;
    /// # enc.write_all(b"signed")?;
    /// # let message = enc.finish()?;
    /// let certs = [key.to_public()];
    /// let dec = VerifyingDecryptor::new(message.as_slice(), &[b"pw".as_slice()], &DecryptOptions::default(), &certs, 1_700_000_002)?;
    /// let verified = dec.finish()?;
    /// let good = verified.good().next().map(|r| &r.outcome);
    /// assert!(matches!(good, Some(Outcome::Good { cert, .. }) if *cert == key.fingerprint()));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn good(&self) -> impl Iterator<Item = &SigResult> {
        self.results.iter().filter(|r| r.is_good())
    }
}

/// A [`super::Decryptor`] that also checks the signatures inside the
/// message against `certs`. Reading yields authenticated data; whether it
/// was signed is known only from [`VerifyingDecryptor::finish`].
///
/// A streamed SEIPD v1 message ([`DecryptOptions::v1_stream_unauthenticated`])
/// is read to its end, verifying the MDC, before any signature is judged.
/// A signature naming intended recipients (RFC 9580 §5.2.3.36) is good
/// only if the reader is among them: the certificate of the key that opened
/// the message or, when a password or session key opened it, one of those
/// of [`DecryptOptions::keys`] (none given: not good). Otherwise the message
/// was forwarded by someone it was meant for.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::key::{GenerateOptions, KeyError, generate};
/// use tessera::openpgp::{DecryptOptions, EncryptOptions, Encryptor, Error, S2kChoice, VerifyingDecryptor};
/// // An unsigned message decrypts, but `finish` refuses it.
/// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
/// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
/// enc.write_all(b"unsigned")?;
/// let message = enc.finish()?;
/// let certs = [generate(&GenerateOptions::default())?.to_public()];
/// let dec = VerifyingDecryptor::new(message.as_slice(), &[b"pw".as_slice()], &DecryptOptions::default(), &certs, 0)?;
/// assert!(matches!(dec.finish(), Err(Error::Key(KeyError::BadSignature(_)))));
/// # Ok::<(), Error>(())
/// ```
pub struct VerifyingDecryptor<'a> {
    inner: InlineVerifier<'a>,
    state: SeipdState<'a>,
    reader: Reader,
}

impl std::fmt::Debug for VerifyingDecryptor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerifyingDecryptor").field("version", &self.state.version).finish_non_exhaustive()
    }
}

impl<'a> VerifyingDecryptor<'a> {
    /// Opens `input` (as [`super::Decryptor::with_options`] does) and reads
    /// up to the literal data; `now` decides expiry and revocation.
    ///
    /// ```
    /// use std::io::Read;
    /// use tessera::openpgp::{DecryptOptions, VerifyingDecryptor};
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
    /// let mut dec = VerifyingDecryptor::new(message.as_bytes(), &[b"password".as_slice()], &DecryptOptions::default(), &[], 0)?;
    /// let mut out = String::new();
    /// dec.read_to_string(&mut out)?;
    /// assert_eq!(out, "Hello, world!");
    /// assert!(dec.finish_results()?.is_empty()); // decrypted, not signed
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new<R: BufRead + 'a>(
        input: R,
        passwords: &[&[u8]],
        opts: &DecryptOptions,
        certs: &'a [Cert],
        now: u64,
    ) -> Result<Self> {
        // As for signing: with threads, the hash gets one and the caller's
        // thread opens the chunks.
        let opened = open_message(input, None, passwords, opts, 1)?;
        let plain = BufReader::new(opened.plain);
        let mut inner = match InlineVerifier::with_max_decompressed(plain, certs, now, opts.max_decompressed_size) {
            Ok(inner) => inner,
            Err(e) => return Err(opened.state.settle(e)),
        };
        if thread_count(opts.threads) > 1 {
            inner.hash_on_thread()?;
        }
        Ok(VerifyingDecryptor {
            inner,
            state: opened.state,
            reader: match opened.recipient {
                Some(fp) => Reader::Key(fp),
                None => Reader::Unproven(opts.keys.iter().map(Cert::fingerprint).collect()),
            },
        })
    }

    /// The session key that opened the message.
    ///
    /// ```
    /// use tessera::openpgp::{DecryptOptions, VerifyingDecryptor};
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
    /// let dec = VerifyingDecryptor::new(message.as_bytes(), &[b"password".as_slice()], &DecryptOptions::default(), &[], 0)?;
    /// assert_eq!(dec.session_key().key[..4], [0x28, 0xe7, 0x9a, 0xb8]); // RFC 9580 A.9
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn session_key(&self) -> &SessionKey {
        &self.state.session_key
    }

    /// Which SEIPD version the message used.
    ///
    /// ```
    /// use tessera::openpgp::{DecryptOptions, SeipdVersion, VerifyingDecryptor};
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
    /// let dec = VerifyingDecryptor::new(message.as_bytes(), &[b"password".as_slice()], &DecryptOptions::default(), &[], 0)?;
    /// assert_eq!(dec.seipd_version(), SeipdVersion::V2);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn seipd_version(&self) -> SeipdVersion {
        self.state.version
    }

    /// The literal data packet's metadata: a text signature's data is
    /// stored as text (format `t`) with CR LF line endings.
    ///
    /// ```
    /// # use std::io::Write;
    /// use tessera::openpgp::key::{generate, GenerateOptions};
    /// use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// use tessera::openpgp::{DecryptOptions, EncryptOptions, SigningEncryptor, VerifyingDecryptor};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
    /// let keys = SigningKey::from_cert(&key, 1_700_000_001).unwrap();
    /// let opts = EncryptOptions { recipients: vec![key.to_public()], ..Default::default() };
    /// let signer = Signer::new(&keys, SigType::Text, 1_700_000_001).unwrap();
    /// let mut enc = SigningEncryptor::new(Vec::new(), &[], &opts, signer).unwrap();
    /// enc.write_all(b"a line\n").unwrap();
    /// let message = enc.finish().unwrap();
    /// let (certs, dopts) = ([key.to_public()], DecryptOptions { keys: vec![key], ..Default::default() });
    /// let dec = VerifyingDecryptor::new(message.as_slice(), &[], &dopts, &certs, 1_700_000_002).unwrap();
    /// assert_eq!(dec.literal().format, b't');
    /// ```
    pub fn literal(&self) -> &super::LiteralInfo {
        self.inner.literal()
    }

    /// Reads what is left (discarding it), then succeeds only if at least
    /// one signature is good; otherwise the error says what the signatures
    /// amounted to.
    ///
    /// ```
    /// # use std::io::Write;
    /// # use tessera::openpgp::key::{GenerateOptions, generate};
    /// # use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// # use tessera::openpgp::{EncryptOptions, S2kChoice, SigningEncryptor};
    /// use tessera::openpgp::{DecryptOptions, VerifyingDecryptor};
    /// # let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// # let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// # let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    /// # let mut enc = SigningEncryptor::new(Vec::new(), &[b"pw".as_slice()], &opts, signer)?;
    /// # enc.write_all(b"signed")?;
    /// # let message = enc.finish()?;
    /// // Signed by a key, but checked against another certificate: refused.
    /// let stranger = [generate(&GenerateOptions::default())?.to_public()];
    /// let dec = VerifyingDecryptor::new(message.as_slice(), &[b"pw".as_slice()], &DecryptOptions::default(), &stranger, 1_700_000_002)?;
    /// assert!(dec.finish().is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn finish(self) -> Result<Verified> {
        let results = self.finish_results()?;
        if !results.iter().any(SigResult::is_good) {
            let why = if results.is_empty() {
                "the message is not signed"
            } else {
                "no signature in the message is good from the given certificates"
            };
            return Err(KeyError::BadSignature(why).into());
        }
        Ok(Verified { results })
    }
}

impl VerifyingDecryptor<'_> {
    /// Reads what is left (discarding it) and returns every signature's
    /// result, good or not (empty for an unsigned message): for callers
    /// such as SOP `decrypt`, whose success does not depend on them. An
    /// error means the message itself failed (authentication, truncation).
    ///
    /// ```
    /// # use std::io::Write;
    /// # use tessera::openpgp::key::{GenerateOptions, generate};
    /// # use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    /// # use tessera::openpgp::{EncryptOptions, S2kChoice, SigningEncryptor};
    /// use tessera::openpgp::{DecryptOptions, VerifyingDecryptor};
    /// # let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// # let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// # let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    /// # let mut enc = SigningEncryptor::new(Vec::new(), &[b"pw".as_slice()], &opts, signer)?;
    /// # enc.write_all(b"signed")?;
    /// # let message = enc.finish()?;
    /// // Decryption succeeds whatever the signatures amount to; each is reported.
    /// let stranger = [generate(&GenerateOptions::default())?.to_public()];
    /// let dec = VerifyingDecryptor::new(message.as_slice(), &[b"pw".as_slice()], &DecryptOptions::default(), &stranger, 1_700_000_002)?;
    /// let results = dec.finish_results()?;
    /// assert_eq!(results.len(), 1);
    /// assert!(!results[0].is_good());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn finish_results(mut self) -> Result<Vec<SigResult>> {
        io::copy(&mut self, &mut io::sink()).map_err(Error::from_io)?;
        let mut results = self.inner.results().unwrap_or_default().to_vec();
        self.reader.check_intended(&mut results);
        Ok(results)
    }
}

/// Who reads the message, for the Intended Recipient Fingerprint check.
/// RFC 9580 §5.2.3.36: a signature naming intended recipients "SHOULD be
/// considered valid only in an encrypted context, where the key it was
/// encrypted to is one of the indicated primary keys or one of their
/// subkeys"; it stops a recipient from forwarding a signed message to
/// someone else (§13.12).
enum Reader {
    /// A secret key opened the message (its PKESK proved it): the primary
    /// fingerprint of that key's certificate.
    Key(Fingerprint),
    /// A password or a session key opened it, which proves no key: the PKESK
    /// packets in front name recipients but prove nothing (whoever forwards
    /// the message can copy them). The certificates of the caller's own keys
    /// ([`DecryptOptions::keys`]) stand for the reader. With none given, no
    /// reader is known, and a signature naming intended recipients is not
    /// good (a signature naming none is unaffected): the caller who is one
    /// of them passes their key to say so.
    Unproven(Vec<Fingerprint>),
}

impl Reader {
    /// Turns each good result whose signature names intended recipients,
    /// none of them the reader, into [`Outcome::Bad`].
    fn check_intended(&self, results: &mut [SigResult]) {
        let readers = match self {
            Reader::Key(fp) => std::slice::from_ref(fp),
            Reader::Unproven(fps) => fps.as_slice(),
        };
        for r in results.iter_mut().filter(|r| r.is_good()) {
            let named: Vec<&Fingerprint> = r.signature.iter().flat_map(|s| s.intended_recipients()).collect();
            if named.is_empty() || readers.iter().any(|fp| named.contains(&fp)) {
                continue;
            }
            let why = match self {
                Reader::Key(me) => format!("the signer meant it for others, not for {me} (intended recipients)"),
                Reader::Unproven(given) if given.is_empty() => "it names its intended recipients, and a password or \
                    session key opened the message, which shows no reader: give the reader's key"
                    .to_string(),
                Reader::Unproven(_) => {
                    "the signer meant it for others, not for the keys given (intended recipients)".into()
                }
            };
            r.outcome = Outcome::Bad(why);
        }
    }
}

impl Read for VerifyingDecryptor<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.state.poison.check()?;
        match self.inner.read(buf) {
            // The signatures were judged: a streamed v1 message must now
            // prove its MDC, or nothing of them counts.
            Ok(0) if !buf.is_empty() => {
                finish_v1(self.state.v1.as_ref()).map_err(|e| self.state.poison.set(e))?;
                Ok(0)
            }
            Ok(n) => Ok(n),
            Err(e) if !is_typed(&e) => Err(e),
            Err(e) => Err(self.state.fail(Error::from_io(e))),
        }
    }
}

#[cfg(test)]
#[path = "signcrypt_tests.rs"]
mod tests;
