//! Errors of the OpenPGP module. No message contains a password or key.

use std::io;

use super::fingerprint::MalformedFingerprint;

/// Everything that can go wrong reading or writing an OpenPGP message.
///
/// ```
/// use tessera::openpgp::{Decryptor, Error};
/// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_gcm.asc"));
/// // Damage one base64 character in the middle of the encrypted data.
/// let damaged = message.replacen("QeQlm5", "QeQlm6", 1);
/// assert_ne!(damaged, message);
/// let read = Decryptor::new(damaged.as_bytes(), &[b"password".as_slice()])
///     .and_then(|mut d| std::io::copy(&mut d, &mut std::io::sink()).map_err(Error::from_io));
/// assert!(matches!(read, Err(Error::Authentication(_))));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input ended before the message did (a packet, a chunk or the
    /// final tag is missing).
    #[error("the message is truncated: {0}")]
    Truncated(&'static str),
    /// A chunk, the final tag, or the MDC did not verify: the message was
    /// modified (or cut at a chunk boundary).
    #[error("authentication failed ({0}): the message was modified or damaged")]
    Authentication(&'static str),
    /// No password opened any of the message's SKESK packets.
    #[error("wrong password: none of the passwords opens this message")]
    WrongPassword,
    /// The message has no password-encrypted session key (it is encrypted to
    /// a public key, or is not encrypted at all).
    #[error("the message holds no password-encrypted session key")]
    NoPasswordPacket,
    /// A symmetric cipher other than AES-128/192/256.
    #[error("unsupported symmetric cipher id {0} (AES-128/192/256 are supported)")]
    UnsupportedCipher(u8),
    /// An AEAD mode other than EAX, OCB and GCM.
    #[error("unsupported AEAD mode id {0} (EAX, OCB and GCM are supported)")]
    UnsupportedAead(u8),
    /// An unsupported S2K specifier or hash.
    #[error("unsupported S2K: {0}")]
    UnsupportedS2k(&'static str),
    /// Another unsupported feature (packet version, compression algorithm...).
    #[error("unsupported: {0}")]
    Unsupported(&'static str),
    /// A limit that protects against hostile input was exceeded.
    #[error("limit exceeded: {0}")]
    Limit(&'static str),
    /// A caller-set limit on work or output ([`DecryptOptions`](crate::openpgp::DecryptOptions), [`S2kLimits`](super::S2kLimits)) would
    /// be exceeded: `limit` names the field, `allowed` is its value and
    /// `asked` what the message needs. Refused before the work is done or
    /// the memory allocated.
    #[error("limit exceeded: the message needs {asked} for {limit}, the limit is {allowed}")]
    LimitExceeded {
        /// The limit's name (the option's field).
        limit: &'static str,
        /// What the message asks for (in the limit's unit).
        asked: u64,
        /// The limit.
        allowed: u64,
    },
    /// Malformed packets or armor.
    #[error("malformed message: {0}")]
    Malformed(&'static str),
    /// Invalid options given by the caller.
    #[error("invalid option: {0}")]
    InvalidOption(&'static str),
    /// A public-key algorithm that is unknown or refused.
    #[error("unsupported public-key algorithm id {0}")]
    UnsupportedPublicKeyAlg(u8),
    /// An RSA, DSA or Elgamal key whose modulus is smaller than `min`
    /// bits: refused for every use (signing, verifying, encrypting and
    /// decrypting), as Sequoia's standard policy refuses it.
    #[error("key too small: {bits} bits, at least {min} are needed")]
    KeyTooSmall {
        /// The modulus size of the key.
        bits: usize,
        /// The smallest size accepted.
        min: usize,
    },
    /// A hash algorithm that is unknown or refused (MD5, RIPEMD-160).
    #[error("unsupported hash algorithm id {0}")]
    UnsupportedHash(u8),
    /// An elliptic curve OID that is unknown or refused (Brainpool...).
    #[error("unsupported elliptic curve")]
    UnsupportedCurve,
    /// A signature did not verify against the key.
    #[error("bad signature")]
    BadSignature,
    /// The key could not decrypt the session key (wrong key, or the
    /// encrypted session key was modified).
    #[error("the key cannot decrypt this session key")]
    SessionKeyDecryption,
    /// Secret key material does not belong to its public key.
    #[error("the secret key material does not match the public key")]
    KeyMismatch,
    /// A key, certificate or signature cannot be used (names it and why).
    #[error(transparent)]
    Key(#[from] super::KeyError),
    /// The operating system's random generator failed.
    #[error("the system random number generator failed")]
    Random,
    /// An error of the symmetric primitives ([`crate::Error`]) with no
    /// OpenPGP counterpart, kept whole.
    #[error(transparent)]
    Primitive(crate::Error),
    /// An I/O error of the underlying reader or writer.
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
}

impl Error {
    /// Wraps this error into an `io::Error` (for the `Read`/`Write` impls);
    /// [`Error::from_io`] gets it back.
    pub(crate) fn into_io(self) -> io::Error {
        match self {
            Error::Io(e) => e,
            e => {
                let kind = match e {
                    Error::Truncated(_) => io::ErrorKind::UnexpectedEof,
                    _ => io::ErrorKind::InvalidData,
                };
                io::Error::new(kind, e)
            }
        }
    }

    /// A copy of this error, for readers and writers that report the same
    /// error again on every call after the first (an I/O error keeps its
    /// kind and message).
    pub(crate) fn replay(&self) -> Error {
        match self {
            Error::Truncated(w) => Error::Truncated(w),
            Error::Authentication(w) => Error::Authentication(w),
            Error::WrongPassword => Error::WrongPassword,
            Error::NoPasswordPacket => Error::NoPasswordPacket,
            Error::UnsupportedCipher(id) => Error::UnsupportedCipher(*id),
            Error::UnsupportedAead(id) => Error::UnsupportedAead(*id),
            Error::UnsupportedS2k(w) => Error::UnsupportedS2k(w),
            Error::Unsupported(w) => Error::Unsupported(w),
            Error::Limit(w) => Error::Limit(w),
            Error::LimitExceeded { limit, asked, allowed } => {
                Error::LimitExceeded { limit, asked: *asked, allowed: *allowed }
            }
            Error::Malformed(w) => Error::Malformed(w),
            Error::InvalidOption(w) => Error::InvalidOption(w),
            Error::UnsupportedPublicKeyAlg(id) => Error::UnsupportedPublicKeyAlg(*id),
            Error::KeyTooSmall { bits, min } => Error::KeyTooSmall { bits: *bits, min: *min },
            Error::UnsupportedHash(id) => Error::UnsupportedHash(*id),
            Error::UnsupportedCurve => Error::UnsupportedCurve,
            Error::BadSignature => Error::BadSignature,
            Error::SessionKeyDecryption => Error::SessionKeyDecryption,
            Error::KeyMismatch => Error::KeyMismatch,
            Error::Key(k) => Error::Key(k.clone()),
            Error::Random => Error::Random,
            Error::Primitive(e) => Error::Primitive(e.clone()),
            Error::Io(e) => Error::Io(io::Error::new(e.kind(), e.to_string())),
        }
    }

    /// Recovers the typed error from an `io::Error` made by tessera (a reader's error),
    /// or wraps a genuine I/O error.
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, Error, S2kChoice};
    /// # let s2k = S2kChoice::Iterated { count_octet: 96 };
    /// # let opts = EncryptOptions { s2k, chunk_octet: 0, ..EncryptOptions::default() }; // 64-octet chunks
    /// # let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
    /// # enc.write_all(&[7; 1000])?;
    /// # let message = enc.finish()?;
    /// // `Read` speaks io::Error; the OpenPGP error is inside it.
    /// let cut = &message[..message.len() - 10];
    /// let mut dec = Decryptor::new(cut, &[b"pw".as_slice()])?;
    /// let io_err = dec.read_to_end(&mut Vec::new()).unwrap_err();
    /// assert!(matches!(Error::from_io(io_err), Error::Truncated(_)));
    /// // A genuine I/O error stays one.
    /// assert!(matches!(Error::from_io(std::io::Error::other("disk full")), Error::Io(_)));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_io(e: io::Error) -> Error {
        if e.get_ref().is_some_and(|inner| inner.is::<Error>()) {
            let inner = e.into_inner().expect("checked");
            return *inner.downcast::<Error>().expect("checked");
        }
        Error::Io(e)
    }
}

/// Keeps the primitive's detail: a failed tag is [`Error::Authentication`],
/// an unknown AEAD id [`Error::UnsupportedAead`], anything else
/// [`Error::Primitive`] with the original error inside.
///
/// ```
/// use tessera::openpgp::Error;
/// assert!(matches!(Error::from(tessera::Error::Authentication), Error::Authentication(_)));
/// assert!(matches!(Error::from(tessera::Error::UnsupportedAead(9)), Error::UnsupportedAead(9)));
/// let e = Error::from(tessera::Error::KeyLength { got: 5, expected: "16, 24 or 32" });
/// assert!(matches!(e, Error::Primitive(tessera::Error::KeyLength { got: 5, .. })));
/// assert_eq!(e.to_string(), "key is 5 bytes; expected 16, 24 or 32");
/// ```
impl From<MalformedFingerprint> for Error {
    fn from(_: MalformedFingerprint) -> Error {
        Error::Malformed("fingerprint with an unknown version or the wrong length")
    }
}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Error {
        match e {
            crate::Error::Authentication => Error::Authentication("AEAD"),
            crate::Error::UnsupportedAead(id) => Error::UnsupportedAead(id),
            e => Error::Primitive(e),
        }
    }
}

impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        e.into_io()
    }
}

/// Result type of this module.
///
/// ```
/// use tessera::openpgp::{Error, Result, SymAlg};
/// fn cipher(id: u8) -> Result<SymAlg> {
///     SymAlg::from_id(id)
/// }
/// assert!(matches!(cipher(2), Err(Error::UnsupportedCipher(2))));
/// ```
pub type Result<T> = std::result::Result<T, Error>;
