//! The streaming [`Encryptor`].

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

use zeroize::Zeroizing;

use super::armor::{ArmorWriter, MESSAGE};
use super::key::EncryptionPlan;
use super::packet::{PartialWriter, tag, write_packet};
use super::s2k::{HashAlg, S2k};
use super::seipd::{
    ChunkSealer, MAX_CHUNK_OCTET, MdcSealer, POSITIONED_READS, ParSealer, Room, Source, V2Header, thread_count,
    worth_it,
};
use super::skesk::Skesk;
use super::{Error, Profile, Result, S2kChoice, random};
use crate::fs::{CHUNK_BUFFER, CopyError, copy};

mod options;
pub use options::{EMPTY_PASSWORD, EncryptOptions, MAX_FILENAME_LEN};

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

impl<W: Write> Room for Body<W> {
    fn room(&mut self) -> io::Result<&mut [u8]> {
        match self {
            Body::V2(w) => w.room(),
            Body::V2Threads(w) => w.room(),
            Body::V1(w) => w.room(),
        }
    }
    fn advance(&mut self, n: usize) -> io::Result<()> {
        match self {
            Body::V2(w) => w.advance(n),
            Body::V2Threads(w) => w.advance(n),
            Body::V1(w) => w.advance(n),
        }
    }
    fn fill_from(&mut self, from: &mut Source<'_>, n: u64) -> std::result::Result<(), CopyError> {
        match self {
            Body::V2(w) => w.fill_from(from, n),
            Body::V2Threads(w) => w.fill_from(from, n),
            Body::V1(w) => w.fill_from(from, n),
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
/// `chunk_threads` (0: all cores) seals SEIPD v2 chunks on that many
/// threads, as `opts.threads` does for a plain [`Encryptor`].
pub(crate) fn open_seipd<W: Write>(
    out: W,
    passwords: &[&[u8]],
    opts: &EncryptOptions,
    chunk_threads: usize,
) -> Result<Body<W>> {
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
        let threads = thread_count(chunk_threads);
        if worth_it(threads, &header, false) {
            Body::V2Threads(ParSealer::new(seipd, &header, &session_key, threads)?)
        } else {
            Body::V2(ChunkSealer::new(seipd, &header, &session_key)?)
        }
    } else {
        let mut seipd = PartialWriter::new(sink, tag::SEIPD);
        seipd.write_all(&[1])?;
        Body::V1(MdcSealer::with_threads(seipd, &session_key, thread_count(chunk_threads))?)
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
        let body = open_seipd(out, passwords, opts, opts.threads)?;
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

    /// Encrypts everything `from` yields until it ends, as
    /// [`copy`]`(from, self)` would, but reads its first `len` octets
    /// straight into the chunk buffers: one copy of the data fewer. `len`
    /// is what `from` is known to hold (a regular file's length; 0 when
    /// unknown); more is then copied as usual. The plaintext is the same;
    /// the literal packet's pieces are those of one `write_all` of the
    /// `len` octets. Returns the octets read.
    ///
    /// All or nothing: an input that ends before `len` octets is a
    /// [`CopyError::Read`] of kind `UnexpectedEof` (the file shrank while
    /// being read), and after that or any other error the message is cut
    /// short: every later call fails.
    ///
    /// ```
    /// use std::io::Read;
    /// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
    /// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    /// let data = vec![7u8; 300_000];
    /// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
    /// assert_eq!(enc.copy_from(&mut data.as_slice(), data.len() as u64).unwrap(), 300_000);
    /// let message = enc.finish()?;
    /// let mut out = Vec::new();
    /// Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?.read_to_end(&mut out)?;
    /// assert_eq!(out, data);
    ///
    /// // Said to hold more than it does: refused, nothing more is written.
    /// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
    /// assert!(enc.copy_from(&mut &data[..1000], 2000).is_err());
    /// assert!(enc.finish().is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn copy_from(&mut self, from: &mut dyn Read, len: u64) -> std::result::Result<u64, CopyError> {
        let r = self.lit.fill_from(&mut Source::Stream(from), len).and_then(|()| copy(from, self));
        self.all_or_nothing(r).map(|more| len + more)
    }

    /// Poisons the encryptor when `r` failed: the octets read are lost
    /// with the error, so no caller could resume where it stopped.
    fn all_or_nothing(&mut self, r: std::result::Result<u64, CopyError>) -> std::result::Result<u64, CopyError> {
        if let Err(e) = &r {
            self.lit.poison_with(e.io());
        }
        r
    }

    /// Encrypts the rest of `file`, from its position to its end, as
    /// [`Encryptor::copy_from`] does with the file's length, and leaves the
    /// position at the end. With chunk workers ([`EncryptOptions::threads`]),
    /// each worker reads the chunks it seals itself (positioned reads), so
    /// reading runs on every core as well. Less than
    /// [`CHUNK_BUFFER`] octets from the position,
    /// or not a regular file, is copied as a stream (pseudo-files, as in
    /// `/sys`, give a size that is only a guess); so is everything on a
    /// platform without positioned reads. Returns the octets read; all or
    /// nothing, as [`Encryptor::copy_from`].
    ///
    /// ```
    /// use std::io::{Read, Seek, Write};
    /// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
    /// let mut file = tempfile::tempfile()?;
    /// file.write_all(&vec![9u8; 1 << 20])?;
    /// file.rewind()?;
    /// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, threads: 2, ..EncryptOptions::default() };
    /// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
    /// assert_eq!(enc.copy_from_file(&file).unwrap(), 1 << 20);
    /// let message = enc.finish()?;
    /// let mut out = Vec::new();
    /// Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?.read_to_end(&mut out)?;
    /// assert_eq!(out, vec![9u8; 1 << 20]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copy_from_file(&mut self, file: &File) -> std::result::Result<u64, CopyError> {
        let mut reader = file;
        let start = reader.stream_position().ok();
        let size = file.metadata().ok().filter(std::fs::Metadata::is_file).map(|m| m.len());
        let (Some(start), Some(size)) = (start, size) else { return self.copy_from(&mut reader, 0) };
        let len = size.saturating_sub(start);
        if len < CHUNK_BUFFER as u64 {
            return self.copy_from(&mut reader, 0);
        }
        if !POSITIONED_READS {
            return self.copy_from(&mut reader, len);
        }
        let r = self.lit.fill_from(&mut Source::File(file, start), len).and_then(|()| {
            reader.seek(SeekFrom::Start(start + len)).map_err(CopyError::Read)?;
            copy(&mut reader, self)
        });
        self.all_or_nothing(r).map(|more| len + more)
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
