//! The keyset file: JSON, sealed at rest in an OpenPGP message (to a
//! password or to certificates) unless cleartext is asked for by name;
//! written atomically.

use std::io::{Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::Keyset;
use super::error::{Error, Result};
use super::model::Transform;
use crate::fs::AtomicFile;
use crate::openpgp::key::Cert;
use crate::openpgp::sig::{SigType, Signer, SigningKey};
use crate::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, SigningEncryptor, VerifyingDecryptor};

/// The newest keyset file format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
const FORMAT_NAME: &str = "tessera-keyset";

/// How a keyset is protected at rest.
#[derive(Clone, Copy)]
pub enum Protection<'a> {
    /// Sealed in a password-encrypted OpenPGP message (the default to use).
    Password(&'a [u8]),
    /// Sealed to OpenPGP certificates, so a team shares one keyset encrypted
    /// to each member's key, and signed by the member who wrote it: written
    /// signed by `keys` and encrypted to every certificate in `recipients`;
    /// read with any of `keys` (secret keys, unlocked) and accepted only
    /// with a good signature by one of `recipients`. Without the signature
    /// anyone holding the team's public certificates could replace the file
    /// with keys of their choosing.
    Certificates {
        /// The team: the certificates the file is encrypted to, and the
        /// only ones whose signature makes a file acceptable.
        recipients: &'a [Cert],
        /// The reader's or writer's own secret keys (unlocked): they open
        /// the file, and they sign it when it is written.
        keys: &'a [Cert],
    },
    /// Plain JSON, key bytes in hex: only when the caller asks for it by name.
    InsecureCleartext,
}

impl core::fmt::Debug for Protection<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Protection::Password(_) => f.write_str("Password(..)"),
            Protection::Certificates { recipients, keys } => {
                write!(f, "Certificates {{ recipients: {}, keys: {} }}", recipients.len(), keys.len())
            }
            Protection::InsecureCleartext => f.write_str("InsecureCleartext"),
        }
    }
}

#[derive(Serialize)]
struct FileOut<'a> {
    format: &'static str,
    version: u32,
    transforms: &'a [Transform],
}

#[derive(Deserialize)]
struct Header {
    format: String,
    version: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileIn {
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u32,
    transforms: Vec<Transform>,
}

/// A JSON error's position and class, never the text around it.
pub(crate) fn json_error(e: &serde_json::Error) -> Error {
    let class = match e.classify() {
        serde_json::error::Category::Io => "read error",
        serde_json::error::Category::Syntax => "not JSON",
        serde_json::error::Category::Data => "unexpected structure",
        serde_json::error::Category::Eof => "truncated",
    };
    // Data errors name a field or variant, not a value (key bytes are
    // checked by a visitor whose message names nothing).
    let what = if e.is_data() { format!(" ({e})") } else { String::new() };
    Error::Malformed(format!("{class} at line {} column {}{what}", e.line(), e.column()))
}

impl Keyset {
    /// The keyset as cleartext JSON (key bytes in hex; zeroized on drop).
    pub fn to_json(&self) -> Result<Zeroizing<Vec<u8>>> {
        let mut out = Zeroizing::new(Vec::new());
        let file = FileOut { format: FORMAT_NAME, version: FORMAT_VERSION, transforms: &self.transforms };
        serde_json::to_writer_pretty(&mut *out, &file).map_err(|e| json_error(&e))?;
        out.push(b'\n');
        Ok(out)
    }

    /// Reads cleartext JSON, checking the format version and every rule.
    pub fn from_json(json: &[u8]) -> Result<Keyset> {
        let header: Header = serde_json::from_slice(json).map_err(|e| json_error(&e))?;
        if header.format != FORMAT_NAME {
            return Err(Error::Malformed(format!("\"format\" is {:?}, not {FORMAT_NAME:?}", header.format)));
        }
        if header.version > FORMAT_VERSION {
            return Err(Error::NewerFormat { found: header.version, supported: FORMAT_VERSION });
        }
        let file: FileIn = serde_json::from_slice(json).map_err(|e| json_error(&e))?;
        let ks = Keyset { transforms: file.transforms };
        ks.validate()?;
        Ok(ks)
    }

    /// The keyset file's bytes: sealed to the password (default
    /// [`EncryptOptions`]: SEIPD v2, OCB, Argon2id) or to the certificates
    /// (SEIPD v1 or v2 as their features allow), or cleartext JSON.
    /// Zeroized on drop (cleartext holds the keys).
    pub fn to_bytes(&self, protection: Protection<'_>) -> Result<Zeroizing<Vec<u8>>> {
        self.to_bytes_with(protection, &EncryptOptions::default())
    }

    /// [`to_bytes`](Self::to_bytes) with chosen OpenPGP options (e.g. a
    /// cheaper S2K in tests).
    pub fn to_bytes_with(&self, protection: Protection<'_>, opts: &EncryptOptions) -> Result<Zeroizing<Vec<u8>>> {
        let json = self.to_json()?;
        match protection {
            Protection::InsecureCleartext => Ok(json),
            Protection::Password(pw) => seal(&json, &[pw], opts),
            Protection::Certificates { recipients: [], .. } => {
                Err(Error::Protection("writing a keyset sealed to certificates needs at least one recipient"))
            }
            Protection::Certificates { keys: [], .. } => Err(Error::Protection(
                "writing a keyset sealed to certificates needs the writer's secret key to sign it",
            )),
            Protection::Certificates { recipients, keys } => {
                let opts =
                    EncryptOptions { recipients: recipients.iter().map(Cert::to_public).collect(), ..opts.clone() };
                seal_signed(&json, keys, &opts)
            }
        }
    }

    /// Reads a keyset file's bytes. A sealed file needs the password; a
    /// cleartext one is read only with [`Protection::InsecureCleartext`].
    ///
    /// ```
    /// use tessera::keyset::{Keyset, Protection, Template};
    /// use tessera::openpgp::{EncryptOptions, S2kChoice};
    /// let mut ks = Keyset::new();
    /// ks.add_transform("cards", Template::Card.params()).unwrap();
    /// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..Default::default() };
    /// let sealed = ks.to_bytes_with(Protection::Password(b"pw"), &opts).unwrap();
    /// assert!(Keyset::from_bytes(&sealed, Protection::Password(b"pw")).is_ok());
    /// assert!(Keyset::from_bytes(&sealed, Protection::Password(b"wrong")).is_err());
    /// assert!(Keyset::from_bytes(&sealed, Protection::InsecureCleartext).is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8], protection: Protection<'_>) -> Result<Keyset> {
        let cleartext = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
        match (protection, cleartext) {
            (Protection::InsecureCleartext, true) => Keyset::from_json(bytes),
            (Protection::InsecureCleartext, false) => {
                Err(Error::Protection("the keyset file is encrypted: give its password"))
            }
            (_, true) => Err(Error::Protection(
                "the keyset file is cleartext JSON, not encrypted: open it as insecure cleartext",
            )),
            (Protection::Password(pw), false) => unseal(Decryptor::new(bytes, &[pw])?),
            (Protection::Certificates { keys: [], .. }, false) => {
                Err(Error::Protection("reading a keyset sealed to certificates needs a secret key"))
            }
            (Protection::Certificates { recipients: [], .. }, false) => Err(Error::Protection(
                "reading a keyset sealed to certificates needs the team's certificates, to check who signed it",
            )),
            (Protection::Certificates { recipients, keys }, false) => {
                let opts = DecryptOptions { keys: keys.to_vec(), threads: 1, ..DecryptOptions::default() };
                let certs: Vec<Cert> = recipients.iter().map(Cert::to_public).collect();
                let mut dec = VerifyingDecryptor::new(bytes, &[], &opts, &certs, super::now())?;
                let mut json = Zeroizing::new(Vec::new());
                dec.read_to_end(&mut json).map_err(crate::openpgp::Error::from_io)?;
                dec.finish()?; // at least one good signature from the team, or an error
                Keyset::from_json(&json)
            }
        }
    }

    /// Reads the keyset file at `path`; see [`from_bytes`](Self::from_bytes).
    pub fn open(path: &Path, protection: Protection<'_>) -> Result<Keyset> {
        Keyset::from_bytes(&Zeroizing::new(std::fs::read(path)?), protection)
    }

    /// Writes the keyset to `path` atomically: a 0600 temporary file in the
    /// same directory, synced, then renamed over `path`. On any error the
    /// old file is left as it was.
    pub fn save(&self, path: &Path, protection: Protection<'_>) -> Result<()> {
        self.save_with(path, protection, &EncryptOptions::default())
    }

    /// [`save`](Self::save) with chosen OpenPGP options.
    pub fn save_with(&self, path: &Path, protection: Protection<'_>, opts: &EncryptOptions) -> Result<()> {
        let bytes = self.to_bytes_with(protection, opts)?;
        let mut file = AtomicFile::create(path)?;
        file.write_all(&bytes)?;
        Ok(file.commit()?)
    }
}

/// The keyset JSON encrypted to passwords and the recipients in `opts`.
fn seal(json: &[u8], passwords: &[&[u8]], opts: &EncryptOptions) -> Result<Zeroizing<Vec<u8>>> {
    let mut enc = Encryptor::new(Vec::new(), passwords, opts)?;
    enc.write_all(json).map_err(crate::openpgp::Error::from_io)?;
    Ok(Zeroizing::new(enc.finish()?))
}

/// The keyset JSON signed by `keys` and encrypted to the recipients in `opts`.
fn seal_signed(json: &[u8], keys: &[Cert], opts: &EncryptOptions) -> Result<Zeroizing<Vec<u8>>> {
    let now = super::now();
    let mut signing = Vec::new();
    for k in keys {
        signing.extend(SigningKey::from_cert(k, now)?);
    }
    let signer = Signer::new(&signing, SigType::Binary, now.min(u64::from(u32::MAX)) as u32)?;
    let mut enc = SigningEncryptor::new(Vec::new(), &[], opts, signer)?;
    enc.write_all(json).map_err(crate::openpgp::Error::from_io)?;
    Ok(Zeroizing::new(enc.finish()?))
}

/// Reads the whole sealed JSON (authenticated by the decryptor) and parses it.
fn unseal(mut dec: Decryptor<'_>) -> Result<Keyset> {
    let mut json = Zeroizing::new(Vec::new());
    dec.read_to_end(&mut json).map_err(crate::openpgp::Error::from_io)?;
    Keyset::from_json(&json)
}
