//! Inline-signed messages (RFC 9580 §10.3): one-pass signature packets, the
//! literal data, then the signatures in reverse order, written and read in
//! one streaming pass.
//!
//! ```
//! use std::io::{Read, Write};
//! use tessera::openpgp::key::{generate, GenerateOptions};
//! use tessera::openpgp::sig::{InlineSigner, InlineVerifier, SigType, Signer, SigningKey};
//! let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
//! let keys = SigningKey::from_cert(&key, 1_700_000_001).unwrap();
//! let signer = Signer::new(&keys, SigType::Binary, 1_700_000_001).unwrap();
//! let mut w = InlineSigner::new(Vec::new(), signer).unwrap();
//! w.write_all(b"hello").unwrap();
//! let message = w.finish().unwrap();
//!
//! let certs = [key.to_public()];
//! let mut r = InlineVerifier::new(message.as_slice(), &certs, 1_700_000_002).unwrap();
//! let mut data = Vec::new();
//! r.read_to_end(&mut data).unwrap();
//! assert_eq!(data, b"hello");
//! assert!(r.results().unwrap()[0].is_good());
//! ```

use std::io::{self, BufRead, Read, Write};

use super::super::armor::{ArmorReader, is_armored};
use super::super::key::Cert;
use super::super::message::{Leading, Message, Signatures};
use super::super::packet::{PartialWriter, tag, write_packet};
use super::super::plain::Src;
use super::super::poison::Poison;
use super::super::{DecryptOptions, Error, LiteralInfo, Result};
use super::check::{DocumentChecker, Outcome, SigResult};
use super::document::Signer;
use super::hash_thread::Hashing;
use super::hashing::{DocumentHasher, HashedFields, crlf_pieces};
use super::ops::OnePassSig;
use super::packet::{SigType, Signature};

/// Writes an inline-signed message: the one-pass signature packets now, the
/// data as a literal data packet (partial lengths, any size), and the
/// signatures at [`InlineSigner::finish`], which must be called.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::{InlineSigner, InlineVerifier, SigType, Signer, SigningKey};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Text, 1_700_000_001)?;
/// let mut w = InlineSigner::new(Vec::new(), signer)?;
/// w.write_all(b"line\n")?;
/// let message = w.finish()?;
/// let certs = [key.to_public()];
/// let mut text = Vec::new();
/// let results = InlineVerifier::new(message.as_slice(), &certs, 1_700_000_002)?.verify_to(&mut text)?;
/// assert!(results[0].is_good());
/// assert_eq!(text, b"line\r\n"); // text data is stored with CR LF
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct InlineSigner<'a, W: Write> {
    signer: Signer<'a>,
    lit: PartialWriter<W>,
    /// Text: the data is stored with CR LF line endings (RFC 9580 §5.9).
    text: Option<(bool, Vec<u8>)>,
}

impl<'a, W: Write> InlineSigner<'a, W> {
    /// Writes the one-pass signature packets and the literal data header
    /// (format `b` for binary signatures; `t` for text ones, whose data is
    /// then stored with CR LF line endings, as GnuPG expects).
    ///
    /// ```
    /// use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{InlineSigner, SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// // Armored: sign into an ArmorWriter.
    /// let w = InlineSigner::new(ArmorWriter::new(Vec::new(), MESSAGE, false)?, signer)?;
    /// let armored = w.finish()?.finish()?;
    /// assert!(armored.starts_with(b"-----BEGIN PGP MESSAGE-----"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(mut out: W, signer: Signer<'a>) -> Result<Self> {
        let n = signer.announced().count();
        for (i, (key, hash, salt)) in signer.announced().enumerate() {
            let ops = OnePassSig::for_key(key, signer.sig_type(), hash, salt, i + 1 == n);
            write_packet(&mut out, tag::ONE_PASS_SIGNATURE, &ops.to_bytes()).map_err(Error::from_io)?;
        }
        let mut lit = PartialWriter::new(out, tag::LITERAL);
        let format = if signer.sig_type() == SigType::Text { b't' } else { b'b' };
        lit.write_all(&[format, 0, 0, 0, 0, 0]).map_err(Error::from_io)?;
        let text = (format == b't').then(|| (false, Vec::new()));
        Ok(InlineSigner { signer, lit, text })
    }

    /// Ends the literal data and writes the signatures; returns the output.
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// use tessera::openpgp::sig::{InlineSigner, InlineVerifier, SigType, Signer, SigningKey};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let signer = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?;
    /// let mut w = InlineSigner::new(Vec::new(), signer)?;
    /// w.write_all(b"data")?;
    /// let message = w.finish()?;
    /// // Cut before the signature `finish` wrote: the verifier fails at the end.
    /// let cut = &message[..message.len() - 20];
    /// let certs = [key.to_public()];
    /// assert!(InlineVerifier::new(cut, &certs, 1_700_000_002)?.verify_to(&mut Vec::new()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(self) -> Result<W> {
        let mut out = self.lit.finish().map_err(Error::from_io)?;
        let sigs = self.signer.finish()?;
        for s in sigs.iter().rev() {
            write_packet(&mut out, tag::SIGNATURE, &s.to_bytes()).map_err(Error::from_io)?;
        }
        Ok(out)
    }
}

impl<W: Write> Write for InlineSigner<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Some((after_cr, scratch)) = &mut self.text else {
            let n = self.lit.write(buf)?;
            self.signer.update(&buf[..n]);
            return Ok(n);
        };
        scratch.clear();
        crlf_pieces(buf, after_cr, |p| scratch.extend_from_slice(p));
        self.lit.write_all(scratch)?;
        self.signer.update(scratch);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.lit.flush()
    }
}

/// A signature expected after the data (announced by a one-pass signature)
/// or met before it (old-style signed messages); its running hash is in
/// [`InlineVerifier::hashing`], in the same order.
#[derive(Debug)]
enum Expected {
    OnePass(OnePassSig),
    Before(Signature),
}

/// Reads an inline-signed message (binary or armored; a compressed data
/// packet around it is opened), giving the literal data and checking the
/// signatures as it reads. The results are available from
/// [`InlineVerifier::results`] only after the last byte has been read.
///
/// All one-pass signatures before the literal data are taken to sign it
/// (as other implementations do, whatever their nesting flag says).
///
/// ```
/// use std::io::Read;
/// use tessera::openpgp::key::Cert;
/// use tessera::openpgp::sig::InlineVerifier;
/// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let certs = [Cert::from_bytes(a3_cert)?]; // RFC 9580 A.3
/// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
/// let mut r = InlineVerifier::new(message.as_bytes(), &certs, 1_717_200_000)?;
/// let mut text = String::new();
/// r.read_to_string(&mut text)?;
/// assert!(text.starts_with("What we need from the grocery store:"));
/// assert!(r.results().expect("read to the end")[0].is_good());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct InlineVerifier<'a> {
    message: Message<'a>,
    expected: Vec<Expected>,
    hashing: Hashing,
    certs: &'a [Cert],
    now: u64,
    results: Option<Vec<SigResult>>,
    poison: Poison,
}

impl std::fmt::Debug for InlineVerifier<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InlineVerifier").field("literal", self.message.literal()).finish_non_exhaustive()
    }
}

impl<'a> InlineVerifier<'a> {
    /// Reads up to the start of the literal data; `certs` are the possible
    /// signers, `now` decides expiry of signatures and revocations. A
    /// compressed data packet may decompress to at most
    /// [`DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE`] octets.
    ///
    /// ```
    /// use tessera::openpgp::sig::InlineVerifier;
    /// // Not an inline-signed message: no literal data.
    /// let signature_only = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a2_v4_signature.asc"));
    /// assert!(InlineVerifier::new(signature_only.as_bytes(), &[], 0).is_err());
    /// ```
    pub fn new<R: BufRead + 'a>(input: R, certs: &'a [Cert], now: u64) -> Result<Self> {
        Self::with_max_decompressed(input, certs, now, Some(DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE))
    }

    /// As [`InlineVerifier::new`], with at most `max` octets read out of a
    /// compressed data packet (`None`: no limit); more is
    /// [`Error::LimitExceeded`]. A small message can decompress to about a
    /// thousand times its size.
    ///
    /// ```
    /// use tessera::openpgp::key::{generate, GenerateOptions};
    /// use tessera::openpgp::sig::{InlineSigner, InlineVerifier, SigType, Signer, SigningKey};
    /// # use std::io::Write;
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap();
    /// let keys = SigningKey::from_cert(&key, 1_700_000_001).unwrap();
    /// let mut w = InlineSigner::new(Vec::new(), Signer::new(&keys, SigType::Binary, 1_700_000_001).unwrap()).unwrap();
    /// w.write_all(b"hello").unwrap();
    /// let message = w.finish().unwrap();
    /// let certs = [key.to_public()];
    /// let v = InlineVerifier::with_max_decompressed(message.as_slice(), &certs, 1_700_000_002, Some(1 << 20)).unwrap();
    /// assert!(v.verify_to(&mut Vec::new()).unwrap()[0].is_good());
    /// ```
    pub fn with_max_decompressed<R: BufRead + 'a>(
        mut input: R,
        certs: &'a [Cert],
        now: u64,
        max: Option<u64>,
    ) -> Result<Self> {
        let src: Src<'a> = if is_armored(&mut input)? { Box::new(ArmorReader::new(input)) } else { Box::new(input) };
        let mut message = Message::open(src, max, Signatures::Keep)?;
        let mut expected = Vec::new();
        let mut hashers = Vec::new();
        for l in message.take_leading() {
            match l {
                Leading::OnePass(ops) => {
                    let fields = HashedFields {
                        version: if ops.version == 6 { 6 } else { 4 },
                        sig_type: ops.sig_type,
                        pk_alg: ops.pk_alg,
                        hash_alg: ops.hash_alg,
                        hashed_area: &[],
                        salt: &ops.salt,
                    };
                    hashers.push(DocumentHasher::new(&fields));
                    expected.push(Expected::OnePass(ops));
                }
                Leading::Signature(sig) => {
                    hashers.push(DocumentHasher::new(&sig.hashed_fields()));
                    expected.push(Expected::Before(sig));
                }
            }
        }
        let (poison, hashing) = (Poison::default(), Hashing::Here(hashers));
        Ok(InlineVerifier { message, expected, hashing, certs, now, results: None, poison })
    }

    /// Hashes the data on a thread of its own from now on (see
    /// [`super::hash_thread`]).
    pub(crate) fn hash_on_thread(&mut self) -> Result<()> {
        self.hashing.move_to_thread()
    }

    /// The literal data packet's metadata.
    ///
    /// ```
    /// use tessera::openpgp::sig::InlineVerifier;
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
    /// let r = InlineVerifier::new(message.as_bytes(), &[], 1_717_200_000)?;
    /// assert_eq!(r.literal().format, b'u'); // UTF-8 text
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn literal(&self) -> &LiteralInfo {
        self.message.literal()
    }

    /// One result per signature, once the whole message has been read
    /// (`None` before).
    ///
    /// ```
    /// use std::io::Read;
    /// use tessera::openpgp::sig::InlineVerifier;
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
    /// let mut r = InlineVerifier::new(message.as_bytes(), &[], 1_717_200_000)?;
    /// assert!(r.results().is_none()); // not before the end
    /// r.read_to_end(&mut Vec::new())?;
    /// assert_eq!(r.results().map(<[_]>::len), Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn results(&self) -> Option<&[SigResult]> {
        self.results.as_deref()
    }

    /// Copies the data to `out` and returns the results.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// use tessera::openpgp::sig::InlineVerifier;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let certs = [Cert::from_bytes(a3_cert)?]; // RFC 9580 A.3
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a7_inline.asc"));
    /// let mut text = Vec::new();
    /// let results = InlineVerifier::new(message.as_bytes(), &certs, 1_717_200_000)?.verify_to(&mut text)?;
    /// assert!(text.ends_with(b"- noodles\n"));
    /// assert!(results[0].is_good());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn verify_to(mut self, out: &mut dyn Write) -> Result<Vec<SigResult>> {
        io::copy(&mut self, out).map_err(Error::from_io)?;
        Ok(self.results.unwrap_or_default())
    }

    /// Judges each signature, once the message has been read to its end.
    fn finish(&mut self) -> Result<Vec<SigResult>> {
        let trailing = self.message.take_trailing();
        let mut checker = DocumentChecker::new(self.certs, self.now);
        let mut results = Vec::new();
        let mut ops: Vec<Option<(OnePassSig, DocumentHasher)>> = Vec::new();
        let hashers = std::mem::replace(&mut self.hashing, Hashing::Here(Vec::new())).finish()?;
        for (e, h) in std::mem::take(&mut self.expected).into_iter().zip(hashers) {
            match e {
                Expected::OnePass(o) => ops.push(Some((o, h))),
                Expected::Before(s) => {
                    let outcome = checker.check(&s, &h.finish(&s.hashed_fields()));
                    results.push(SigResult { signature: Some(s), outcome });
                }
            }
        }
        // Signatures come in the reverse order of their one-pass packets.
        for sig in trailing {
            let slot = ops.iter_mut().rev().find(|o| o.as_ref().is_some_and(|(o, _)| o.matches(&sig)));
            let outcome = match slot.and_then(Option::take) {
                Some((_, h)) => checker.check(&sig, &h.finish(&sig.hashed_fields())),
                None => Outcome::Bad("a signature without a matching one-pass signature".into()),
            };
            results.push(SigResult { signature: Some(sig), outcome });
        }
        for _ in ops.into_iter().flatten() {
            let outcome = Outcome::Bad("a one-pass signature without its signature".into());
            results.push(SigResult { signature: None, outcome });
        }
        Ok(results)
    }
}

impl Read for InlineVerifier<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.poison.check()?;
        let n = self.poison.record(self.message.read(buf))?;
        self.hashing.update(&buf[..n]);
        if n == 0 && !buf.is_empty() && self.results.is_none() {
            let r = self.finish().map_err(|e| self.poison.set(e))?;
            self.results = Some(r);
        }
        Ok(n)
    }
}
