//! The streaming [`Encryptor`].

use std::io::{self, Write};

use zeroize::Zeroizing;

use super::armor::{ArmorWriter, MESSAGE};
use super::packet::{PartialWriter, tag, write_packet};
use super::s2k::{HashAlg, S2k};
use super::seipd::{ChunkSealer, MAX_CHUNK_OCTET, MdcSealer, V2Header};
use super::skesk::Skesk;
use super::{Error, Result, SymAlg, random};
use crate::aead::Mode;

/// Which generation of the format to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// RFC 9580: SKESK v6 + SEIPD v2 (AEAD chunks).
    #[default]
    Rfc9580,
    /// RFC 4880 compatibility (GnuPG 2.2): SKESK v4 + SEIPD v1 (CFB + MDC).
    Rfc4880,
}

/// How passwords become keys when writing.
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

impl Default for S2kChoice {
    /// The RFC's second recommended Argon2 option: t=3, p=4, 64 MiB.
    fn default() -> Self {
        S2kChoice::Argon2 { t: 3, p: 4, m: 16 }
    }
}

/// Options of [`Encryptor::new`].
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
        }
    }
}

// One per message, built once: boxing the large variant would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Sink<W: Write> {
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
enum Body<W: Write> {
    V2(ChunkSealer<PartialWriter<Sink<W>>>),
    V1(MdcSealer<PartialWriter<Sink<W>>>),
}

impl<W: Write> Write for Body<W> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        match self {
            Body::V2(w) => w.write(b),
            Body::V1(w) => w.write(b),
        }
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        match self {
            Body::V2(w) => w.write_all(b),
            Body::V1(w) => w.write_all(b),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Body::V2(w) => w.flush(),
            Body::V1(w) => w.flush(),
        }
    }
}

/// Encrypts a stream with one or more passwords into an OpenPGP message.
///
/// Writing to it encrypts; **[`Encryptor::finish`] is mandatory**: it seals
/// the last chunk and writes the final tag (or the MDC). A message whose
/// encryptor was dropped without `finish` is truncated and every reader
/// rejects it.
///
/// The data goes into one literal data packet (partial body lengths, so its
/// size need not be known) inside SEIPD v2 (or v1 with
/// [`Profile::Rfc4880`]). One buffer of a chunk plus a tag is allocated.
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

impl<W: Write> Encryptor<W> {
    /// Writes the session key packets and the packet headers to `out`.
    /// Each password gets its own SKESK, so any one of them decrypts.
    pub fn new(out: W, passwords: &[&[u8]], opts: &EncryptOptions) -> Result<Self> {
        if passwords.is_empty() {
            return Err(Error::InvalidOption("at least one password is needed"));
        }
        if opts.chunk_octet > MAX_CHUNK_OCTET {
            return Err(Error::InvalidOption("chunk size octet must be 0..=16"));
        }
        if opts.filename.len() > 255 {
            return Err(Error::InvalidOption("file name longer than 255 octets"));
        }
        let mut sink = if opts.armor {
            Sink::Armor(ArmorWriter::new(out, MESSAGE, opts.profile == Profile::Rfc4880)?)
        } else {
            Sink::Plain(out)
        };
        let cipher = opts.cipher;
        let mut session_key = Zeroizing::new(vec![0u8; cipher.key_len()]);
        let mut pkt = Vec::with_capacity(128);
        let body = match opts.profile {
            Profile::Rfc9580 => {
                random(&mut session_key)?;
                for pw in passwords {
                    let mut iv = [0u8; 16];
                    random(&mut iv)?;
                    let s2k = make_s2k(opts.s2k)?;
                    let sk = Skesk::seal_v6(&session_key, pw, cipher, opts.aead, s2k, &iv[..opts.aead.nonce_len()])?;
                    pkt.clear();
                    sk.write(&mut pkt);
                    write_packet(&mut sink, tag::SKESK, &pkt)?;
                }
                let mut salt = [0u8; 32];
                random(&mut salt)?;
                let header = V2Header { cipher, aead: opts.aead, chunk_octet: opts.chunk_octet, salt };
                let mut seipd = PartialWriter::new(sink, tag::SEIPD);
                seipd.write_all(&header.encode())?;
                Body::V2(ChunkSealer::new(seipd, &header, &session_key)?)
            }
            Profile::Rfc4880 => {
                if matches!(opts.s2k, S2kChoice::Argon2 { .. }) {
                    return Err(Error::InvalidOption(
                        "the rfc4880 profile needs the iterated S2K (GnuPG 2.2 has no Argon2)",
                    ));
                }
                if passwords.len() == 1 {
                    // As GnuPG does: the S2K output is the session key.
                    let s2k = make_s2k(opts.s2k)?;
                    let key = s2k.derive(passwords[0], cipher.key_len(), &Default::default())?;
                    session_key.copy_from_slice(&key);
                    pkt.clear();
                    Skesk::V4 { cipher, s2k, esk: None }.write(&mut pkt);
                    write_packet(&mut sink, tag::SKESK, &pkt)?;
                } else {
                    random(&mut session_key)?;
                    for pw in passwords {
                        let sk = Skesk::seal_v4(&session_key, cipher, pw, cipher, make_s2k(opts.s2k)?)?;
                        pkt.clear();
                        sk.write(&mut pkt);
                        write_packet(&mut sink, tag::SKESK, &pkt)?;
                    }
                }
                let mut seipd = PartialWriter::new(sink, tag::SEIPD);
                seipd.write_all(&[1])?;
                Body::V1(MdcSealer::new(seipd, &session_key)?)
            }
        };
        let mut lit = PartialWriter::new(body, tag::LITERAL);
        lit.write_all(&[b'b', opts.filename.len() as u8])?;
        lit.write_all(&opts.filename)?;
        lit.write_all(&opts.date.to_be_bytes())?;
        Ok(Encryptor { lit })
    }

    /// Ends the literal packet, seals the last chunk, writes the final tag
    /// (or MDC) and the armor footer; returns the underlying writer.
    pub fn finish(self) -> Result<W> {
        let body = self.lit.finish()?;
        let seipd = match body {
            Body::V2(s) => s.finish()?,
            Body::V1(s) => s.finish()?,
        };
        let sink = seipd.finish()?;
        Ok(sink.finish()?)
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
