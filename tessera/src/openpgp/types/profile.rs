//! The choices a caller names when writing a message: the format profile,
//! the password hashing, and the SEIPD version a reader reports.

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
/// [`EncryptOptions::for_profile`](crate::openpgp::EncryptOptions::for_profile) turns into an [`S2kChoice`].
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
