//! The armor writer: 76-column base64 lines, the optional CRC24 and the
//! `END` line.

use std::io::{self, Write};

use super::{B64, Crc24};
use crate::openpgp::poison::Poison;

/// Encodes a byte stream as an armored block.
///
/// Call [`ArmorWriter::finish`]: it writes the last group, the optional
/// CRC24 and the `END` line.
///
/// ```
/// use std::io::Write;
/// use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
/// let mut w = ArmorWriter::new(Vec::new(), MESSAGE, false)?;
/// w.write_all(&[0u8; 100])?;
/// let text = String::from_utf8(w.finish()?).unwrap();
/// assert!(text.lines().all(|line| line.len() <= 76));
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct ArmorWriter<W: Write> {
    inner: W,
    kind: &'static str,
    crc: Option<Crc24>,
    group: [u8; 3],
    group_len: usize,
    col: usize,
    out: [u8; OUT_BUF],
    out_len: usize,
    /// After an error of `inner`, part of a line may have been written.
    poison: Poison,
}

impl<W: Write> std::fmt::Debug for ArmorWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArmorWriter").field("kind", &self.kind).finish_non_exhaustive()
    }
}

const COLUMNS: usize = 76;

/// Encoded octets held before writing: whole lines (76 characters and a
/// line feed), with room for a last quad and line feed.
const OUT_BUF: usize = 1040;

impl<W: Write> ArmorWriter<W> {
    /// Writes the `BEGIN` line of a `kind` block (e.g. [`MESSAGE`](super::MESSAGE)); with
    /// `crc`, a CRC24 line is written at the end (RFC 4880 style).
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
    /// // For RFC 4880 peers: with the CRC24 line (`=` and four characters).
    /// let mut w = ArmorWriter::new(Vec::new(), MESSAGE, true)?;
    /// w.write_all(b"\x01\x02\x03")?;
    /// let text = String::from_utf8(w.finish()?).unwrap();
    /// assert_eq!(text.lines().nth(3).map(|l| (l.len(), l.starts_with('='))), Some((5, true)));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(mut inner: W, kind: &'static str, crc: bool) -> io::Result<Self> {
        write!(inner, "-----BEGIN PGP {kind}-----\n\n")?;
        Ok(ArmorWriter {
            inner,
            kind,
            crc: crc.then(Crc24::default),
            group: [0; 3],
            group_len: 0,
            col: 0,
            out: [0; OUT_BUF],
            out_len: 0,
            poison: Poison::default(),
        })
    }

    fn put_quad(&mut self, g: [u8; 3], n: usize) {
        let v = (g[0] as u32) << 16 | (g[1] as u32) << 8 | g[2] as u32;
        let chars = [
            B64[(v >> 18) as usize & 63],
            B64[(v >> 12) as usize & 63],
            if n > 1 { B64[(v >> 6) as usize & 63] } else { b'=' },
            if n > 2 { B64[v as usize & 63] } else { b'=' },
        ];
        self.out[self.out_len..self.out_len + 4].copy_from_slice(&chars);
        self.out_len += 4;
        self.col += 4;
        if self.col == COLUMNS {
            self.out[self.out_len] = b'\n';
            self.out_len += 1;
            self.col = 0;
        }
    }

    fn drain(&mut self) -> io::Result<()> {
        self.poison.check()?;
        let r = self.inner.write_all(&self.out[..self.out_len]);
        self.poison.record(r)?;
        self.out_len = 0;
        Ok(())
    }

    /// Writes the rest and the `END` line; returns the underlying writer.
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
    /// let mut w = ArmorWriter::new(Vec::new(), MESSAGE, false)?;
    /// w.write_all(b"\x01\x02\x03\x04")?;
    /// let text = w.finish()?;
    /// assert!(text.ends_with(b"AQIDBA==\n-----END PGP MESSAGE-----\n"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        self.poison.check()?;
        if self.out_len + 10 > self.out.len() {
            self.drain()?;
        }
        if self.group_len > 0 {
            let (mut g, n) = (self.group, self.group_len);
            // The unused octets of the last group must encode as zero bits
            // (strict decoders such as Sequoia's refuse anything else).
            g[n..].fill(0);
            self.put_quad(g, n);
        }
        if self.col != 0 {
            self.out[self.out_len] = b'\n';
            self.out_len += 1;
        }
        self.drain()?;
        if let Some(crc) = self.crc {
            let c = crc.value().to_be_bytes();
            self.col = 0;
            self.put_quad([c[1], c[2], c[3]], 3);
            self.inner.write_all(b"=")?;
            self.drain()?;
            self.inner.write_all(b"\n")?;
        }
        writeln!(self.inner, "-----END PGP {}-----", self.kind)?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for ArmorWriter<W> {
    fn write(&mut self, mut data: &[u8]) -> io::Result<usize> {
        self.poison.check()?;
        let len = data.len();
        if let Some(crc) = &mut self.crc {
            crc.update(data);
        }
        while self.group_len > 0 && self.group_len < 3 && !data.is_empty() {
            self.group[self.group_len] = data[0];
            self.group_len += 1;
            data = &data[1..];
        }
        if self.group_len > 0 && self.group_len < 3 {
            return Ok(len);
        }
        if self.group_len == 3 {
            if self.out_len + 5 > self.out.len() {
                self.drain()?;
            }
            let g = self.group;
            self.put_quad(g, 3);
            self.group_len = 0;
        }
        let mut groups = data.chunks_exact(3);
        for g in &mut groups {
            if self.out_len + 5 > self.out.len() {
                self.drain()?;
            }
            self.put_quad([g[0], g[1], g[2]], 3);
        }
        let rest = groups.remainder();
        self.group[..rest.len()].copy_from_slice(rest);
        self.group_len = rest.len();
        Ok(len)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        let r = self.inner.flush();
        self.poison.record(r)
    }
}
