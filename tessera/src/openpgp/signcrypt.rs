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

use super::decrypt::{DecryptOptions, SeipdVersion, open_message};
use super::encrypt::{Body, EncryptOptions, close_seipd, open_seipd};
use super::key::{Cert, KeyError};
use super::sig::{InlineSigner, InlineVerifier, SigResult, Signer};
use super::{Error, Result, SessionKey};

/// An [`super::Encryptor`] that also signs: one-pass signature packets
/// first, the data, then the signatures, all encrypted. Call
/// [`SigningEncryptor::finish`].
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
    /// the one-pass signature packets of `signer`.
    pub fn new(out: W, passwords: &[&[u8]], opts: &EncryptOptions, signer: Signer<'a>) -> Result<Self> {
        let body = open_seipd(out, passwords, opts)?;
        Ok(SigningEncryptor { inner: InlineSigner::new(body, signer)? })
    }

    /// Writes the signatures, seals the last chunk and the final tag (or
    /// MDC); returns the underlying writer.
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
#[derive(Debug, Clone)]
pub struct Verified {
    /// Every signature's result (good ones and the others).
    pub results: Vec<SigResult>,
}

impl Verified {
    /// The good signatures.
    pub fn good(&self) -> impl Iterator<Item = &SigResult> {
        self.results.iter().filter(|r| r.is_good())
    }
}

/// A [`super::Decryptor`] that also checks the signatures inside the
/// message against `certs`. Reading yields authenticated data; whether it
/// was signed is known only from [`VerifyingDecryptor::finish`].
pub struct VerifyingDecryptor<'a> {
    inner: InlineVerifier<'a>,
    session_key: SessionKey,
    version: SeipdVersion,
}

impl std::fmt::Debug for VerifyingDecryptor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerifyingDecryptor").field("version", &self.version).finish_non_exhaustive()
    }
}

impl<'a> VerifyingDecryptor<'a> {
    /// Opens `input` (as [`super::Decryptor::with_options`] does) and reads
    /// up to the literal data; `now` decides expiry and revocation.
    pub fn new<R: BufRead + 'a>(
        input: R,
        passwords: &[&[u8]],
        opts: &DecryptOptions,
        certs: &'a [Cert],
        now: u64,
    ) -> Result<Self> {
        let opened = open_message(input, passwords, opts)?;
        let inner = InlineVerifier::new(BufReader::new(opened.plain), certs, now)?;
        Ok(VerifyingDecryptor { inner, session_key: opened.session_key, version: opened.version })
    }

    /// The session key that opened the message.
    pub fn session_key(&self) -> &SessionKey {
        &self.session_key
    }

    /// Which SEIPD version the message used.
    pub fn seipd_version(&self) -> SeipdVersion {
        self.version
    }

    /// Reads what is left (discarding it), then succeeds only if at least
    /// one signature is good; otherwise the error says what the signatures
    /// amounted to.
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
    pub fn finish_results(mut self) -> Result<Vec<SigResult>> {
        io::copy(&mut self.inner, &mut io::sink()).map_err(Error::from_io)?;
        Ok(self.inner.results().unwrap_or_default().to_vec())
    }
}

impl Read for VerifyingDecryptor<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf)
    }
}
