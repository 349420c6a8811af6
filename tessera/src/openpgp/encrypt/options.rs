//! Options of the [`Encryptor`](super::Encryptor): format profile, password
//! hashing, cipher, recipients, threads.

use crate::aead::Mode;
use crate::openpgp::key::Cert;
use crate::openpgp::{Error, Profile, Result, S2kChoice, S2kKind, SymAlg};

/// Why an empty password is refused (the same words in every front end).
///
/// ```
/// use tessera::openpgp::{EMPTY_PASSWORD, EncryptOptions, Encryptor, Error};
/// let err = Encryptor::new(Vec::new(), &[b"".as_slice()], &EncryptOptions::default()).unwrap_err();
/// assert!(matches!(err, Error::InvalidOption(why) if why == EMPTY_PASSWORD));
/// ```
pub const EMPTY_PASSWORD: &str = "the password is empty: anyone could open the message";

/// The longest file name a literal data packet holds (RFC 9580 §5.9: one
/// length octet).
///
/// ```
/// use tessera::openpgp::{EncryptOptions, Encryptor, MAX_FILENAME_LEN};
/// let opts = EncryptOptions { filename: vec![b'x'; MAX_FILENAME_LEN + 1], ..EncryptOptions::default() };
/// assert!(Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts).is_err());
/// ```
pub const MAX_FILENAME_LEN: usize = 255;

/// Options of [`Encryptor::new`](super::Encryptor::new).
///
/// ```
/// use std::io::{Read, Write};
/// use tessera::aead::Mode;
/// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
/// let opts = EncryptOptions {
///     aead: Mode::Gcm,
///     armor: true,
///     filename: b"notes.txt".to_vec(),
///     s2k: S2kChoice::Iterated { count_octet: 96 },
///     ..EncryptOptions::default()
/// };
/// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
/// enc.write_all(b"armored")?;
/// let message = enc.finish()?;
/// assert!(message.starts_with(b"-----BEGIN PGP MESSAGE-----"));
/// let mut dec = Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?;
/// assert_eq!(dec.literal().filename, b"notes.txt");
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct EncryptOptions {
    /// Format generation (default RFC 9580).
    pub profile: Profile,
    /// Message cipher (default AES-256).
    pub cipher: SymAlg,
    /// AEAD mode for v2 (default OCB).
    pub aead: Mode,
    /// Chunk size octet, chunks of 2^(c+6) octets (default 12: 256 KiB).
    pub chunk_octet: u8,
    /// Password hashing (default Argon2 t=3 p=4 64 MiB).
    pub s2k: S2kChoice,
    /// ASCII armor (default off).
    pub armor: bool,
    /// File name stored in the literal data packet (at most 255 octets).
    pub filename: Vec<u8>,
    /// Date stored in the literal data packet (seconds since 1970; 0 = none).
    pub date: u32,
    /// Certificates to encrypt to (with or without passwords). Each is
    /// validated now; one that is expired, revoked or cannot encrypt is an
    /// error naming it. SEIPD v2 is used only if every recipient announces
    /// it (and the profile is RFC 9580), with the first AEAD ciphersuite all
    /// prefer; otherwise SEIPD v1 with the first cipher all prefer. The
    /// recipients' choice overrides `cipher` and `aead`.
    pub recipients: Vec<Cert>,
    /// Leave the recipients' key IDs out of the PKESK packets (anonymous
    /// recipients: decryptors try each of their keys).
    pub anonymous_recipients: bool,
    /// Threads sealing SEIPD v2 chunks (default 1: on the caller's thread,
    /// no thread is spawned; 0: one per core). With more than one, worker
    /// threads seal chunks with at most 4 MiB of chunks in flight; that
    /// pays off for messages of many chunks (256 KiB each by default), so
    /// a caller encrypting large files or streams asks for it, as the
    /// `tessera` command line does. The bytes written are the same for
    /// every thread count. SEIPD v1's CFB chain is serial: with more than
    /// one thread, the MDC's SHA-1 runs on a second one beside it (with
    /// 1 MiB of plaintext in flight).
    ///
    /// ```
    /// use tessera::openpgp::EncryptOptions;
    /// assert_eq!(EncryptOptions::default().threads, 1);
    /// let all_cores = EncryptOptions { threads: 0, ..EncryptOptions::default() };
    /// # let _ = all_cores;
    /// ```
    pub threads: usize,
}

impl Default for EncryptOptions {
    fn default() -> Self {
        EncryptOptions {
            profile: Profile::Rfc9580,
            cipher: SymAlg::Aes256,
            aead: Mode::Ocb,
            chunk_octet: 12,
            s2k: S2kChoice::default(),
            armor: false,
            filename: Vec::new(),
            date: 0,
            recipients: Vec::new(),
            anonymous_recipients: false,
            threads: 1,
        }
    }
}

impl EncryptOptions {
    /// The default options of a profile, with the password hashing asked
    /// for (`None`: the profile's own): RFC 9580 hashes with Argon2, RFC 4880
    /// with the iterated S2K, since GnuPG 2.2 and other RFC 4880 readers
    /// cannot read Argon2; asking for Argon2 under RFC 4880 is therefore
    /// refused ([`Error::InvalidOption`]). `count_octet` is the coded count
    /// of the iterated S2K when that is the result (255 = 65011712 octets).
    ///
    /// ```
    /// use tessera::openpgp::{EncryptOptions, Profile, S2kChoice, S2kKind};
    /// let gnupg = EncryptOptions::for_profile(Profile::Rfc4880, None, 255).unwrap();
    /// assert_eq!(gnupg.s2k, S2kChoice::Iterated { count_octet: 255 });
    /// let v6 = EncryptOptions::for_profile(Profile::Rfc9580, None, 255).unwrap();
    /// assert_eq!(v6.s2k, S2kChoice::default());
    /// assert!(EncryptOptions::for_profile(Profile::Rfc4880, Some(S2kKind::Argon2), 255).is_err());
    /// ```
    pub fn for_profile(profile: Profile, s2k: Option<S2kKind>, count_octet: u8) -> Result<Self> {
        let s2k = match (s2k, profile) {
            (Some(S2kKind::Argon2), Profile::Rfc4880) => {
                return Err(Error::InvalidOption(
                    "Argon2 needs the RFC 9580 profile (GnuPG 2.2 and other RFC 4880 readers cannot read it)",
                ));
            }
            (Some(S2kKind::Argon2), _) | (None, Profile::Rfc9580) => S2kChoice::default(),
            (Some(S2kKind::Iterated), _) | (None, Profile::Rfc4880) => S2kChoice::Iterated { count_octet },
        };
        Ok(EncryptOptions { profile, s2k, ..EncryptOptions::default() })
    }

    /// The name of the file at `path` (its last component) as
    /// [`EncryptOptions::filename`] stores it: its bytes, cut to
    /// [`MAX_FILENAME_LEN`] octets; empty without one.
    ///
    /// ```
    /// use std::path::Path;
    /// use tessera::openpgp::EncryptOptions;
    /// assert_eq!(EncryptOptions::file_name_of(Path::new("dir/report.pdf")), b"report.pdf");
    /// assert_eq!(EncryptOptions::file_name_of(Path::new(&"x".repeat(300))).len(), 255);
    /// assert!(EncryptOptions::file_name_of(Path::new("/")).is_empty());
    /// ```
    pub fn file_name_of(path: &std::path::Path) -> Vec<u8> {
        let name = path.file_name().map(std::ffi::OsStr::as_encoded_bytes).unwrap_or_default();
        name[..name.len().min(MAX_FILENAME_LEN)].to_vec()
    }
}
