//! The three shapes of input: binary packets, armored blocks (one or
//! more, as in a keyring file), and a cleartext-signed text whose
//! signatures are an armored block after the text.

use std::io::{BufRead, Cursor, Read};

use super::super::armor::{ArmorReader, is_armored};
use super::super::sig::{BEGIN_SIG, is_cleartext, skip_cleartext};
use super::super::{Error, Result};
use super::walk::Walker;
use super::{Cleartext, Limits, Packet};

/// The armor kind, the cleartext framework and the packets of `input`.
pub(super) fn read<R: BufRead>(
    mut input: R,
    limits: &Limits,
) -> Result<(Option<String>, Option<Cleartext>, Vec<Packet>)> {
    let mut walker = Walker::new(limits);
    if is_cleartext(&mut input)? {
        let (hashes, lines) = skip_cleartext(&mut input)?;
        let begin = Cursor::new(format!("{BEGIN_SIG}\n").into_bytes());
        let mut armored = ArmorReader::new(begin.chain(&mut input));
        walker.walk_top(&mut armored)?;
        return Ok((Some("SIGNATURE".into()), Some(Cleartext { hashes, lines }), walker.into_packets()));
    }
    if !is_armored(&mut input)? {
        walker.walk_top(&mut input)?;
        return Ok((None, None, walker.into_packets()));
    }
    let mut kind = None;
    loop {
        let mut armored = ArmorReader::new(&mut input);
        let this = armored.kind()?.to_owned();
        kind.get_or_insert(this);
        walker.walk_top(&mut armored)?;
        if !is_armored(&mut input)? || input.fill_buf().map_err(Error::from_io)?.is_empty() {
            break;
        }
    }
    Ok((kind, None, walker.into_packets()))
}
