//! The streaming [`Encryptor`].

use std::io::{self, Write};

use zeroize::Zeroizing;

use super::armor::{ArmorWriter, MESSAGE};
use super::key::{Cert, EncryptionPlan};
use super::packet::{PartialWriter, tag, write_packet};
use super::s2k::{HashAlg, S2k};
use super::seipd::{ChunkSealer, MAX_CHUNK_OCTET, MdcSealer, ParSealer, V2Header, thread_count, worth_it};
use super::skesk::Skesk;
use super::{Error, Result, SymAlg, random};
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

/// Options of [`Encryptor::new`].
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
    /// every thread count (SEIPD v1 always uses one thread).
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

// One per message, built once: boxing the large variant would only add an allocation.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Sink<W: Write> {
    Plain(W),
    Armor(ArmorWriter<W>),
}

impl<W: Write> Write for Sink<W> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Plain(w) => w.write(b),
            Sink::Armor(w) => w.write(b),
        }
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        match self {
            Sink::Plain(w) => w.write_all(b),
            Sink::Armor(w) => w.write_all(b),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Plain(w) => w.flush(),
            Sink::Armor(w) => w.flush(),
        }
    }
}

impl<W: Write> Sink<W> {
    fn finish(self) -> io::Result<W> {
        match self {
            Sink::Plain(w) => Ok(w),
            Sink::Armor(w) => w.finish(),
        }
    }
}

#[allow(clippy::large_enum_variant)]
pub(crate) enum Body<W: Write> {
    V2(ChunkSealer<PartialWriter<Sink<W>>>),
    V2Threads(ParSealer<PartialWriter<Sink<W>>>),
    V1(MdcSealer<PartialWriter<Sink<W>>>),
}

impl<W: Write> Write for Body<W> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        match self {
            Body::V2(w) => w.write(b),
            Body::V2Threads(w) => w.write(b),
            Body::V1(w) => w.write(b),
        }
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        match self {
            Body::V2(w) => w.write_all(b),
            Body::V2Threads(w) => w.write_all(b),
            Body::V1(w) => w.write_all(b),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Body::V2(w) => w.flush(),
            Body::V2Threads(w) => w.flush(),
            Body::V1(w) => w.flush(),
        }
    }
}

/// Encrypts a stream with passwords and/or to certificates
/// ([`EncryptOptions::recipients`]) into an OpenPGP message.
///
/// Writing to it encrypts; **[`Encryptor::finish`] is mandatory**: it seals
/// the last chunk and writes the final tag (or the MDC). A message whose
/// encryptor was dropped without `finish` is truncated and every reader
/// rejects it.
///
/// The data goes into one literal data packet (partial body lengths, so its
/// size need not be known) inside SEIPD v2 (or v1 with
/// [`Profile::Rfc4880`]). One buffer of a chunk plus a tag is allocated.
///
/// ```
/// use std::io::{Read, Write};
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor};
/// // To a certificate: its secret key decrypts, no password needed.
/// let alice = generate(&GenerateOptions::default())?;
/// let opts = EncryptOptions { recipients: vec![alice.to_public()], ..EncryptOptions::default() };
/// let mut enc = Encryptor::new(Vec::new(), &[], &opts)?;
/// enc.write_all(b"for alice")?;
/// let message = enc.finish()?;
///
/// let opts = DecryptOptions { keys: vec![alice], ..DecryptOptions::default() };
/// let mut out = Vec::new();
/// Decryptor::with_options(message.as_slice(), &[], &opts)?.read_to_end(&mut out)?;
/// assert_eq!(out, b"for alice");
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub struct Encryptor<W: Write> {
    lit: PartialWriter<Body<W>>,
}

impl<W: Write> std::fmt::Debug for Encryptor<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Encryptor(..)")
    }
}

fn make_s2k(choice: S2kChoice) -> Result<S2k> {
    Ok(match choice {
        S2kChoice::Argon2 { t, p, m } => {
            let mut salt = [0u8; 16];
            random(&mut salt)?;
            if t == 0 || p == 0 || m >= 32 || (1u64 << m) < 8 * p as u64 {
                return Err(Error::InvalidOption("Argon2 parameters (need t, p >= 1 and 2^m >= 8p)"));
            }
            S2k::Argon2 { salt, t, p, m }
        }
        S2kChoice::Iterated { count_octet } => {
            let mut salt = [0u8; 8];
            random(&mut salt)?;
            S2k::Iterated { hash: HashAlg::Sha256, salt, count: count_octet }
        }
    })
}

/// Validates the recipients now and chooses the format and algorithms
/// for them (`None` without recipients).
fn plan_recipients(opts: &EncryptOptions) -> Result<Option<EncryptionPlan>> {
    if opts.recipients.is_empty() {
        return Ok(None);
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let valid = opts.recipients.iter().map(|c| c.validate(now)).collect::<Result<Vec<_>>>()?;
    EncryptionPlan::new(&valid, opts.profile == Profile::Rfc9580).map(Some)
}

/// Writes the session key packets and the SEIPD header to `out` and returns
/// the writer of the encrypted packet stream (what goes inside the SEIPD
/// packet). [`close_seipd`] ends it.
pub(crate) fn open_seipd<W: Write>(out: W, passwords: &[&[u8]], opts: &EncryptOptions) -> Result<Body<W>> {
    if passwords.is_empty() && opts.recipients.is_empty() {
        return Err(Error::InvalidOption("at least one password or recipient is needed"));
    }
    if passwords.iter().any(|p| p.is_empty()) {
        return Err(Error::InvalidOption(EMPTY_PASSWORD));
    }
    if opts.chunk_octet > MAX_CHUNK_OCTET {
        return Err(Error::InvalidOption("chunk size octet must be 0..=16"));
    }
    let plan = plan_recipients(opts)?;
    let (v2, cipher, aead) = match &plan {
        Some(p) => (p.aead.is_some(), p.cipher, p.aead.unwrap_or(opts.aead)),
        None => (opts.profile == Profile::Rfc9580, opts.cipher, opts.aead),
    };
    if !v2 && matches!(opts.s2k, S2kChoice::Argon2 { .. }) && !passwords.is_empty() {
        return Err(Error::InvalidOption(if plan.is_some() {
            "a recipient cannot read SEIPD v2: passwords then need the iterated S2K"
        } else {
            "the rfc4880 profile needs the iterated S2K (GnuPG 2.2 has no Argon2)"
        }));
    }
    let mut sink = if opts.armor { Sink::Armor(ArmorWriter::new(out, MESSAGE, !v2)?) } else { Sink::Plain(out) };
    let mut session_key = Zeroizing::new(vec![0u8; cipher.key_len()]);
    let mut pkt = Vec::with_capacity(128);
    if !v2 && passwords.len() == 1 && plan.is_none() {
        // As GnuPG does: the S2K output is the session key.
        let s2k = make_s2k(opts.s2k)?;
        let key = s2k.derive(passwords[0], cipher.key_len(), &super::s2k::S2kLimits::UNLIMITED)?;
        session_key.copy_from_slice(&key);
        Skesk::V4 { cipher, s2k, esk: None }.write(&mut pkt);
        write_packet(&mut sink, tag::SKESK, &pkt)?;
    } else {
        random(&mut session_key)?;
        if let Some(plan) = &plan {
            for p in plan.pkesks(&session_key, opts.anonymous_recipients)? {
                write_packet(&mut sink, super::pkesk::TAG, &p.to_vec())?;
            }
        }
        for pw in passwords {
            let sk = if v2 {
                let mut iv = [0u8; 16];
                random(&mut iv)?;
                Skesk::seal_v6(&session_key, pw, cipher, aead, make_s2k(opts.s2k)?, &iv[..aead.nonce_len()])?
            } else {
                Skesk::seal_v4(&session_key, cipher, pw, cipher, make_s2k(opts.s2k)?)?
            };
            pkt.clear();
            sk.write(&mut pkt);
            write_packet(&mut sink, tag::SKESK, &pkt)?;
        }
    }
    Ok(if v2 {
        let mut salt = [0u8; 32];
        random(&mut salt)?;
        let header = V2Header { cipher, aead, chunk_octet: opts.chunk_octet, salt };
        let mut seipd = PartialWriter::new(sink, tag::SEIPD);
        seipd.write_all(&header.encode())?;
        let threads = thread_count(opts.threads);
        if worth_it(threads, &header, false) {
            Body::V2Threads(ParSealer::new(seipd, &header, &session_key, threads)?)
        } else {
            Body::V2(ChunkSealer::new(seipd, &header, &session_key)?)
        }
    } else {
        let mut seipd = PartialWriter::new(sink, tag::SEIPD);
        seipd.write_all(&[1])?;
        Body::V1(MdcSealer::new(seipd, &session_key)?)
    })
}

/// Seals the last chunk, writes the final tag (or MDC) and the armor
/// footer; returns the underlying writer.
pub(crate) fn close_seipd<W: Write>(body: Body<W>) -> Result<W> {
    let seipd = match body {
        Body::V2(s) => s.finish()?,
        Body::V2Threads(s) => s.finish()?,
        Body::V1(s) => s.finish()?,
    };
    let sink = seipd.finish()?;
    Ok(sink.finish()?)
}

impl<W: Write> Encryptor<W> {
    /// Writes the session key packets and the packet headers to `out`.
    /// Each password gets its own SKESK and each recipient key its own
    /// PKESK ([`EncryptOptions::recipients`]), so any one of them decrypts.
    /// An empty password is refused ([`Error::InvalidOption`] with
    /// [`EMPTY_PASSWORD`]); decryption still accepts one, for messages
    /// written elsewhere.
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
    /// // Two passwords: either one opens the message.
    /// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    /// let mut enc = Encryptor::new(Vec::new(), &[b"alice's".as_slice(), b"bob's"], &opts)?;
    /// enc.write_all(b"shared")?;
    /// let message = enc.finish()?;
    /// assert!(Decryptor::new(message.as_slice(), &[b"bob's".as_slice()]).is_ok());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new(out: W, passwords: &[&[u8]], opts: &EncryptOptions) -> Result<Self> {
        if opts.filename.len() > MAX_FILENAME_LEN {
            return Err(Error::InvalidOption("file name longer than 255 octets"));
        }
        let body = open_seipd(out, passwords, opts)?;
        let mut lit = PartialWriter::new(body, tag::LITERAL);
        lit.write_all(&[b'b', opts.filename.len() as u8])?;
        lit.write_all(&opts.filename)?;
        lit.write_all(&opts.date.to_be_bytes())?;
        Ok(Encryptor { lit })
    }

    /// Ends the literal packet, seals the last chunk, writes the final tag
    /// (or MDC) and the armor footer; returns the underlying writer.
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
    /// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    /// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
    /// enc.write_all(b"whole")?;
    /// let message: Vec<u8> = enc.finish()?;
    /// // Without the final tag `finish` writes, the message is truncated: refused.
    /// let cut = &message[..message.len() - 16];
    /// let mut out = Vec::new();
    /// let read = Decryptor::new(cut, &[b"pw".as_slice()]).and_then(|mut d| d.read_to_end(&mut out).map_err(Into::into));
    /// assert!(read.is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn finish(self) -> Result<W> {
        close_seipd(self.lit.finish()?)
    }
}

impl<W: Write> Write for Encryptor<W> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.lit.write(b)
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        self.lit.write_all(b)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.lit.flush()
    }
}
