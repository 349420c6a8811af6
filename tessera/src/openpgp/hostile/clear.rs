//! Cleartext-signed messages (RFC 9580 §7) with each leniency the reader
//! refuses, and the layouts it accepts.

use std::io::Write;

use super::super::key::Cert;
use super::super::sig::{ClearSigner, SigType, Signer, SigningKey, write_signatures};
use super::super::{Error, Result};

/// The ways [`Clear::build`] lays out a cleartext-signed message.
///
/// ```
/// use tessera::openpgp::hostile::{Clear, cleartext};
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::read_cleartext;
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let signed = cleartext(&key, 1_700_000_001)?;
/// let m = Clear::NotDashEscaped.build(&signed);
/// assert!(read_cleartext(m.as_slice(), &mut Vec::new(), &[key.to_public()], 1_700_000_002).is_err());
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clear {
    /// As signed.
    AsSigned,
    /// Without its `Hash` header (RFC 9580 §7.1 makes it optional).
    NoHashHeader,
    /// With a `NotDashEscaped` header.
    NotDashEscaped,
    /// With a carriage return inside the first line of text.
    BareCr,
    /// With text after the signature block.
    TextAfterEnd,
    /// Followed by a second cleartext-signed message.
    SecondMessage,
    /// With a binary (type 0x00) signature over the same text instead.
    BinarySignature,
}

impl Clear {
    /// Every layout.
    ///
    /// ```
    /// use tessera::openpgp::hostile::Clear;
    /// assert_eq!(Clear::ALL.iter().filter(|c| c.is_valid()).count(), 2);
    /// ```
    pub const ALL: [Clear; 7] = [
        Clear::AsSigned,
        Clear::NoHashHeader,
        Clear::NotDashEscaped,
        Clear::BareCr,
        Clear::TextAfterEnd,
        Clear::SecondMessage,
        Clear::BinarySignature,
    ];

    /// Whether RFC 9580 §7 allows the layout.
    ///
    /// ```
    /// assert!(!tessera::openpgp::hostile::Clear::BareCr.is_valid());
    /// ```
    pub fn is_valid(self) -> bool {
        matches!(self, Clear::AsSigned | Clear::NoHashHeader)
    }

    /// A file-name-friendly name.
    ///
    /// ```
    /// assert_eq!(tessera::openpgp::hostile::Clear::TextAfterEnd.name(), "text_after_end");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Clear::AsSigned => "as_signed",
            Clear::NoHashHeader => "no_hash_header",
            Clear::NotDashEscaped => "not_dash_escaped",
            Clear::BareCr => "bare_cr",
            Clear::TextAfterEnd => "text_after_end",
            Clear::SecondMessage => "second_message",
            Clear::BinarySignature => "binary_signature",
        }
    }

    /// `signed` (made by [`cleartext`]) laid out this way.
    ///
    /// ```
    /// use tessera::openpgp::hostile::{Clear, cleartext};
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let signed = cleartext(&key, 1_700_000_001)?;
    /// assert!(Clear::TextAfterEnd.build(&signed).ends_with(b"unsigned\n"));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn build(self, signed: &ClearSigned) -> Vec<u8> {
        let text = String::from_utf8(signed.message.clone()).expect("cleartext is text");
        let (head, rest) = text.split_once("\n\n").expect("a header and the text");
        let mut head_lines: Vec<&str> = head.lines().collect();
        let out = match self {
            Clear::AsSigned => text.clone(),
            Clear::NoHashHeader => {
                head_lines.retain(|l| !l.starts_with("Hash: "));
                format!("{}\n\n{rest}", head_lines.join("\n"))
            }
            Clear::NotDashEscaped => format!("{head}\nNotDashEscaped: yes\n\n{rest}"),
            Clear::BareCr => text.replacen(CLEAR_TEXT_FIRST, &CLEAR_TEXT_FIRST.replace(' ', "\r"), 1),
            Clear::TextAfterEnd => format!("{text}unsigned\n"),
            Clear::SecondMessage => format!("{text}{}", text.replace("first line", "other line")),
            Clear::BinarySignature => {
                let at = text.find("-----BEGIN PGP SIGNATURE-----").expect("a signature block");
                format!("{}{}", &text[..at], String::from_utf8_lossy(&signed.binary_block))
            }
        };
        out.into_bytes()
    }
}

const CLEAR_TEXT_FIRST: &str = "first line";

/// A cleartext-signed message and, to swap in, an armored binary signature
/// over the same text.
///
/// ```
/// use tessera::openpgp::hostile::cleartext;
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let signed = cleartext(&key, 1_700_000_001)?;
/// assert!(signed.binary_block.starts_with(b"-----BEGIN PGP SIGNATURE-----"));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ClearSigned {
    /// The message as the [`ClearSigner`] wrote it.
    pub message: Vec<u8>,
    /// A `SIGNATURE` armor block holding a binary signature of the signed
    /// text (its lines joined by CR LF).
    pub binary_block: Vec<u8>,
}

/// Two lines of text signed by `key` at `now`, in the Cleartext Signature
/// Framework (see [`Clear::build`]).
///
/// ```
/// use tessera::openpgp::hostile::cleartext;
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// assert!(cleartext(&key, 1_700_000_001)?.message.starts_with(b"-----BEGIN PGP SIGNED MESSAGE-----\n"));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn cleartext(key: &Cert, now: u64) -> Result<ClearSigned> {
    let keys = SigningKey::from_cert(key, now)?;
    let text = format!("{CLEAR_TEXT_FIRST}\nsecond line\n");
    let mut w = ClearSigner::new(Vec::new(), Signer::new(&keys, SigType::Text, now as u32)?)?;
    w.write_all(text.as_bytes()).map_err(Error::from_io)?;
    let message = w.finish()?;
    let mut s = Signer::new(&keys, SigType::Binary, now as u32)?;
    s.update(format!("{CLEAR_TEXT_FIRST}\r\nsecond line\r\n").as_bytes());
    let binary_block = write_signatures(Vec::new(), &s.finish()?, true)?;
    Ok(ClearSigned { message, binary_block })
}
