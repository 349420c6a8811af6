//! `sop armor` and `sop dearmor`.

use std::io::{self, BufRead, BufReader};

use tessera::fs::IO_BUFFER;
use tessera::openpgp::Error as PgpError;
use tessera::openpgp::armor::{ArmorReader, ArmorWriter, MESSAGE, SIGNATURE, is_armored};

use super::{R, UNSUPPORTED_OPTION, fail, flush, io_fail, parse, pgp_fail, stdout};

/// The armor label for data starting with `first` (the first packet's
/// header octet): keys, certificates and signatures get theirs, anything
/// else is a message.
fn label(first: Option<u8>) -> &'static str {
    let tag = match first {
        Some(b) if b & 0xC0 == 0xC0 => b & 0x3F,
        Some(b) if b & 0x80 != 0 => (b >> 2) & 0x0F,
        _ => return MESSAGE,
    };
    match tag {
        2 => SIGNATURE,
        5 => "PRIVATE KEY BLOCK",
        6 => "PUBLIC KEY BLOCK",
        _ => MESSAGE,
    }
}

pub fn armor(rest: &[String]) -> R<()> {
    let o = parse(rest, &["label"], &[])?;
    if o.has("label") {
        return fail(UNSUPPORTED_OPTION, "--label");
    }
    let mut input = BufReader::with_capacity(IO_BUFFER, io::stdin().lock());
    let mut out = stdout();
    if is_armored(&mut input).map_err(pgp_fail)? {
        // Already armored: pass through unchanged (idempotent).
        io::copy(&mut input, &mut out).map_err(io_fail)?;
    } else {
        let kind = label(input.fill_buf().map_err(io_fail)?.first().copied());
        // Keys get a CRC line, which RFC 4880 readers of v4 keys expect.
        let mut w = ArmorWriter::new(&mut out, kind, kind.ends_with("KEY BLOCK")).map_err(io_fail)?;
        io::copy(&mut input, &mut w).map_err(io_fail)?;
        w.finish().map_err(io_fail)?;
    }
    flush(out)
}

pub fn dearmor(rest: &[String]) -> R<()> {
    parse(rest, &[], &[])?;
    let mut input = BufReader::with_capacity(IO_BUFFER, io::stdin().lock());
    let mut out = stdout();
    if is_armored(&mut input).map_err(pgp_fail)? {
        let mut r = ArmorReader::new(input);
        io::copy(&mut r, &mut out).map_err(|e| pgp_fail(PgpError::from_io(e)))?;
    } else {
        io::copy(&mut input, &mut out).map_err(io_fail)?;
    }
    flush(out)
}
