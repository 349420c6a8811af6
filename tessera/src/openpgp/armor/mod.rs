//! ASCII armor (RFC 9580 §6), streaming in both directions.
//!
//! The reader accepts text before the `BEGIN` line, any armor headers
//! (`Key: Value`), lines of any length (it never buffers a line), CR LF, LF
//! or both, trailing whitespace, extra blank lines, a block indented or
//! quoted as in a mail reply (`> `, `>> `: what stands before the `BEGIN`
//! line's dashes, whitespace and `>` only, is skipped on every line), no
//! blank line after a `BEGIN` line that has no headers (as Sequoia), and an
//! optional CRC24 line, which it ignores as §6.1 requires ("MUST NOT reject
//! ... when the CRC24 footer is present, missing, malformed, or
//! disagrees"). It is strict about the rest: the `BEGIN` and `END` lines'
//! case, and every character of the base64 data. The writer emits
//! 76-column lines and, only when asked (for RFC 4880 peers), the CRC24.
//!
//! ```
//! use std::io::{Read, Write};
//! use tessera::openpgp::armor::{ArmorReader, ArmorWriter, SIGNATURE};
//!
//! let mut w = ArmorWriter::new(Vec::new(), SIGNATURE, false)?;
//! w.write_all(&[0xc2, 0x01, 0x02])?;
//! let text = w.finish()?;
//! assert_eq!(text, b"-----BEGIN PGP SIGNATURE-----\n\nwgEC\n-----END PGP SIGNATURE-----\n");
//!
//! let mut r = ArmorReader::new(text.as_slice());
//! assert_eq!(r.kind()?, "SIGNATURE");
//! let mut bytes = Vec::new();
//! r.read_to_end(&mut bytes)?;
//! assert_eq!(bytes, [0xc2, 0x01, 0x02]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::BufRead;

use super::{Error, Result};

mod reader;
#[cfg(test)]
mod tests;
mod writer;

pub use reader::ArmorReader;
pub use writer::ArmorWriter;

/// The base64 alphabet (RFC 4648 §4).
const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The kind of block in `-----BEGIN PGP <kind>-----`.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
/// let mut w = ArmorWriter::new(Vec::new(), MESSAGE, false)?;
/// w.write_all(b"\xc3")?;
/// assert!(w.finish()?.starts_with(b"-----BEGIN PGP MESSAGE-----\n"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub const MESSAGE: &str = "MESSAGE";
/// The armor kind of detached signatures.
///
/// ```
/// use tessera::openpgp::armor::{ArmorReader, SIGNATURE};
/// let text = "-----BEGIN PGP SIGNATURE-----\n\nwgEC\n-----END PGP SIGNATURE-----\n";
/// assert_eq!(ArmorReader::new(text.as_bytes()).kind()?, SIGNATURE);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub const SIGNATURE: &str = "SIGNATURE";

/// CRC24 of RFC 9580 §6.1.1.
///
/// ```
/// use tessera::openpgp::armor::Crc24;
/// let mut crc = Crc24::default();
/// crc.update(b"123456789");
/// assert_eq!(crc.value(), 0x21cf02); // CRC-24/OPENPGP check value
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Crc24(u32);

impl Default for Crc24 {
    fn default() -> Self {
        Crc24(0xb704ce)
    }
}

impl Crc24 {
    /// Adds bytes.
    ///
    /// ```
    /// use tessera::openpgp::armor::Crc24;
    /// let (mut whole, mut parts) = (Crc24::default(), Crc24::default());
    /// whole.update(b"hello world");
    /// parts.update(b"hello ");
    /// parts.update(b"world");
    /// assert_eq!(whole.value(), parts.value());
    /// ```
    pub fn update(&mut self, data: &[u8]) {
        let mut crc = self.0;
        for &b in data {
            crc ^= (b as u32) << 16;
            for _ in 0..8 {
                crc <<= 1;
                if crc & 0x1000000 != 0 {
                    crc ^= 0x1864cfb;
                }
            }
        }
        self.0 = crc;
    }
    /// The checksum (24 bits).
    ///
    /// ```
    /// use tessera::openpgp::armor::Crc24;
    /// assert_eq!(Crc24::default().value(), 0xb704ce); // the initial value
    /// ```
    pub fn value(&self) -> u32 {
        self.0 & 0xffffff
    }
}

/// Whether `r` starts (after whitespace, which is consumed) with armor
/// rather than a binary packet: a binary packet header has bit 7 set,
/// armor is ASCII text.
///
/// ```
/// use tessera::openpgp::armor::is_armored;
/// let armored = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
/// assert!(is_armored(&mut armored.as_bytes())?);
/// assert!(!is_armored(&mut &[0xc3u8, 0x3d][..])?); // a binary SKESK packet header
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn is_armored<R: BufRead + ?Sized>(r: &mut R) -> Result<bool> {
    loop {
        let buf = r.fill_buf().map_err(Error::from_io)?;
        if buf.is_empty() {
            return Ok(false);
        }
        // Leading whitespace is consumed however the input arrives, so
        // the answer and what is left to read never depend on buffering.
        let ws = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let armored = buf.get(ws).map(|b| b & 0x80 == 0);
        r.consume(ws);
        if let Some(armored) = armored {
            return Ok(armored);
        }
    }
}
