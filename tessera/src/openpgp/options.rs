//! Options of the [`super::Encryptor`] (format profile, password hashing,
//! cipher, recipients, threads) and of the [`super::Decryptor`] (limits,
//! session keys, secret keys, SEIPD v1 handling, threads).

use super::key::Cert;
use super::s2k::S2kLimits;
use super::skesk::SessionKey;
use super::{Error, Result, SymAlg};
use crate::aead::Mode;

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

/// Which generation of the format to write.
///
/// ```
/// use std::io::{Read, Write};
/// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, Profile, SeipdVersion};
/// // What GnuPG 2.2 reads: SKESK v4 and SEIPD v1, the iterated S2K.
/// let opts = EncryptOptions::for_profile(Profile::Rfc4880, None, 96)?;
/// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
/// enc.write_all(b"for gpg 2.2")?;
/// let message = enc.finish()?;
/// let mut dec = Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?;
/// assert_eq!(dec.seipd_version(), SeipdVersion::V1);
/// let mut out = Vec::new();
/// dec.read_to_end(&mut out)?;
/// assert_eq!(out, b"for gpg 2.2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// RFC 9580: SKESK v6 + SEIPD v2 (AEAD chunks).
    #[default]
    Rfc9580,
    /// RFC 4880 compatibility (GnuPG 2.2): SKESK v4 + SEIPD v1 (CFB + MDC).
    Rfc4880,
}

/// How passwords become keys when writing.
///
/// ```
/// use std::io::{Read, Write};
/// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
/// // Argon2id with 1 pass, 1 lane and 2^10 KiB (small, for the example; the
/// // default is 3 passes, 4 lanes, 64 MiB).
/// let opts = EncryptOptions { s2k: S2kChoice::Argon2 { t: 1, p: 1, m: 10 }, ..EncryptOptions::default() };
/// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
/// enc.write_all(b"argon2")?;
/// let message = enc.finish()?;
/// let mut out = Vec::new();
/// Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?.read_to_end(&mut out)?;
/// assert_eq!(out, b"argon2");
/// assert_eq!(S2kChoice::default(), S2kChoice::Argon2 { t: 3, p: 4, m: 16 });
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum S2kChoice {
    /// Argon2id (RFC 9580 §3.7.1.4): `t` passes, `p` lanes, 2^`m` KiB.
    Argon2 {
        /// Passes.
        t: u8,
        /// Parallelism.
        p: u8,
        /// Memory exponent (KiB).
        m: u8,
    },
    /// Iterated and salted SHA-256 with the coded count octet (255 = 65011712 octets).
    Iterated {
        /// Coded count.
        count_octet: u8,
    },
}

/// The kind of password hashing, without its parameters: what a user
/// names (`argon2`, `iterated`; [`FromStr`](core::str::FromStr)) and
/// [`EncryptOptions::for_profile`] turns into an [`S2kChoice`].
///
/// ```
/// use tessera::openpgp::{EncryptOptions, Profile, S2kChoice, S2kKind};
/// let kind: S2kKind = "iterated".parse()?;
/// let opts = EncryptOptions::for_profile(Profile::Rfc9580, Some(kind), 96)?;
/// assert_eq!(opts.s2k, S2kChoice::Iterated { count_octet: 96 });
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum S2kKind {
    /// Argon2id with the RFC's second recommended parameters ([`S2kChoice::default`]).
    Argon2,
    /// Iterated and salted SHA-256.
    Iterated,
}

impl S2kChoice {
    /// The coded count octet the front ends write by default: 255, the
    /// most hashing the iterated S2K allows (65,011,712 octets), as GnuPG
    /// often writes.
    ///
    /// ```
    /// use tessera::openpgp::{EncryptOptions, Profile, S2kChoice};
    /// let gnupg = EncryptOptions::for_profile(Profile::Rfc4880, None, S2kChoice::DEFAULT_COUNT_OCTET)?;
    /// assert_eq!(gnupg.s2k, S2kChoice::Iterated { count_octet: 255 });
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub const DEFAULT_COUNT_OCTET: u8 = 255;
}

impl Default for S2kChoice {
    /// The RFC's second recommended Argon2 option: t=3, p=4, 64 MiB.
    fn default() -> Self {
        S2kChoice::Argon2 { t: 3, p: 4, m: 16 }
    }
}

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

/// Default of [`DecryptOptions::v1_buffer_limit`]: 64 MiB.
const V1_BUFFER_LIMIT: usize = 64 << 20;

/// Options of [`Decryptor::with_options`](super::Decryptor::with_options).
///
/// ```
/// use std::io::{Read, Write};
/// use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, S2kChoice};
/// # let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
/// # let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
/// # enc.write_all(b"data")?;
/// # let message = enc.finish()?;
/// // Open once with the password; later, with the session key alone (SOP's
/// // `--with-session-key`): no password hashing at all.
/// let session_key = Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?.session_key().clone();
/// let opts = DecryptOptions { session_key: Some(session_key), ..DecryptOptions::default() };
/// let mut out = Vec::new();
/// Decryptor::with_options(message.as_slice(), &[], &opts)?.read_to_end(&mut out)?;
/// assert_eq!(out, b"data");
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DecryptOptions {
    /// Limits on the S2K work a message may ask for.
    pub limits: S2kLimits,
    /// Use this session key instead of passwords (SOP `--with-session-key`).
    pub session_key: Option<SessionKey>,
    /// Session keys to try besides the keys and passwords (SOP `decrypt`
    /// given several of `--with-session-key`, `--with-password` and keys at
    /// once), after the candidates from `keys` and passwords, which their
    /// packets prove. A session key is not proven by anything before the
    /// data: SEIPD v1 picks the first that passes the quick check; SEIPD v2,
    /// when several candidates fit the message's cipher, the first under
    /// which the first chunk authenticates (that chunk is read ahead: one
    /// chunk of memory more while the candidates are tried and until the
    /// opener has read it). Ignored when `session_key` is set.
    pub session_keys: Vec<SessionKey>,
    /// Secret keys to open the message's PKESK packets with (unlocked:
    /// see [`Cert::unlock`]); packets that name one of them are tried
    /// first, then anonymous ones against every key, then the passwords.
    pub keys: Vec<Cert>,
    /// Most octets the compressed data packets of a message may decompress
    /// to, every nested layer counted (`None`: no limit). Exceeding it is
    /// [`Error::LimitExceeded`]. The command-line
    /// tools set a finite default; a library caller writing to disk should
    /// too, since a small message can decompress to about a thousand times
    /// its size.
    pub max_decompressed_size: Option<u64>,
    /// SEIPD v1 (CFB + MDC) can only be authenticated at its end. By
    /// default the decryptor reads a v1 message whole into memory, up to
    /// this many octets, before releasing anything.
    pub v1_buffer_limit: usize,
    /// Instead, stream a v1 message, releasing plaintext **before** the MDC
    /// is checked (the end of input still fails if it does not verify).
    /// Only for callers that hold the output back until the end, such as a
    /// temporary file renamed on success. The packets inside are parsed
    /// from unverified plaintext, so any failure there is held back until
    /// the rest of the message has been read: if the MDC does not verify,
    /// the error is [`Error::Authentication`] whatever the plaintext held (no
    /// format oracle); only a message whose MDC verifies reports what is
    /// wrong inside it.
    pub v1_stream_unauthenticated: bool,
    /// SEIPD v1 repeats two random octets at the start so that a wrong key
    /// shows at once (the "quick check"): a wrong password is then reported
    /// as [`Error::WrongPassword`] before any data is decrypted. Reporting it
    /// apart from an MDC failure is an oracle (Mister and Zuccherato, 2005:
    /// about 2^15 forged messages reveal two plaintext octets of a block) for
    /// a service that decrypts attacker-modified v1 messages and shows which
    /// error occurred. Set this to `false` in such services: the first
    /// candidate key is then used without the check and the MDC alone
    /// decides, so both failures end in the same [`Error::Authentication`]. With
    /// several candidate keys (several passwords or v4 password packets),
    /// the keys whose quick check passes are used, else the first. A wrong
    /// key passes the check with probability 2^-16; when more than one
    /// passes, the ciphertext is held (within `v1_buffer_limit`) and each is
    /// tried until one's MDC verifies, so a right key after a lucky wrong
    /// one still opens the message (with `v1_stream_unauthenticated`, only
    /// the first is tried). Default `true` (what GnuPG does; SEIPD v2 has
    /// no quick check).
    pub v1_quick_check: bool,
    /// Threads opening SEIPD v2 chunks (default 1: on the caller's thread,
    /// no thread is spawned; 0: one per core). With more than one, worker
    /// threads open chunks with at most 4 MiB of chunks in flight; that
    /// pays off for messages of many chunks (256 KiB each by default), so
    /// a caller decrypting large files or streams asks for it, as the
    /// `tessera` command line does. Either way a chunk is released only
    /// after its tag verifies, in order. SEIPD v1 is decrypted on the
    /// caller's thread; with more than one, its MDC's SHA-1 runs on a
    /// second one beside it.
    ///
    /// ```
    /// use tessera::openpgp::DecryptOptions;
    /// assert_eq!(DecryptOptions::default().threads, 1);
    /// let all_cores = DecryptOptions { threads: 0, ..DecryptOptions::default() };
    /// # let _ = all_cores;
    /// ```
    pub threads: usize,
}

impl DecryptOptions {
    /// The decompressed size limit of the command-line tools and the Python
    /// file functions (16 GiB): generous for real data, finite against a
    /// compressed message that would fill a disk.
    ///
    /// ```
    /// use tessera::openpgp::DecryptOptions;
    /// let opts = DecryptOptions { max_decompressed_size: Some(DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE), ..Default::default() };
    /// assert_eq!(opts.max_decompressed_size, Some(1 << 34));
    /// ```
    pub const TOOL_MAX_DECOMPRESSED_SIZE: u64 = 16 << 30;
}

impl Default for DecryptOptions {
    fn default() -> Self {
        DecryptOptions {
            limits: S2kLimits::default(),
            session_key: None,
            session_keys: Vec::new(),
            keys: Vec::new(),
            max_decompressed_size: None,
            v1_buffer_limit: V1_BUFFER_LIMIT,
            v1_stream_unauthenticated: false,
            v1_quick_check: true,
            threads: 1,
        }
    }
}

/// The version of the SEIPD packet that was decrypted.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice, SeipdVersion};
/// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
/// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
/// enc.write_all(b"data")?;
/// let message = enc.finish()?;
/// assert_eq!(Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?.seipd_version(), SeipdVersion::V2);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeipdVersion {
    /// CFB + MDC.
    V1,
    /// AEAD chunks.
    V2,
}
