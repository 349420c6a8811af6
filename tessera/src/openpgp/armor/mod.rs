//! ASCII armor (RFC 9580 §6), streaming in both directions.
//!
//! The reader accepts text before the `BEGIN` line, any armor headers, lines
//! of any length (it never buffers a line), CR LF or LF, and an optional
//! CRC24 line, which it ignores as §6.1 requires ("MUST NOT reject ... when
//! the CRC24 footer is present, missing, malformed, or disagrees"). The
//! writer emits 76-column lines and, only when asked (for RFC 4880 peers),
//! the CRC24.

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
pub const MESSAGE: &str = "MESSAGE";
/// The armor kind of detached signatures.
pub const SIGNATURE: &str = "SIGNATURE";

/// CRC24 of RFC 9580 §6.1.1.
#[derive(Debug, Clone, Copy)]
pub struct Crc24(u32);

impl Default for Crc24 {
    fn default() -> Self {
        Crc24(0xb704ce)
    }
}

impl Crc24 {
    /// Adds bytes.
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
    pub fn value(&self) -> u32 {
        self.0 & 0xffffff
    }
}

/// Whether `r` starts (after whitespace) with armor rather than a binary
/// packet: a binary packet header has bit 7 set, armor is ASCII text.
pub fn is_armored<R: BufRead + ?Sized>(r: &mut R) -> Result<bool> {
    loop {
        let buf = r.fill_buf().map_err(Error::from_io)?;
        if buf.is_empty() {
            return Ok(false);
        }
        let ws = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if ws < buf.len() {
            return Ok(buf[ws] & 0x80 == 0);
        }
        // Only whitespace so far: it may be armor; binary never starts so.
        let n = buf.len();
        r.consume(n);
    }
}
