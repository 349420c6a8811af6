//! Signature packets as they are read from a stream and written to one: the
//! packets of a detached signature, and one signature packet body at a time
//! for the message reader. A signature of a version other than 4 and 6 is
//! skipped (RFC 9580 §5.2: an unknown version is ignored, so that the good
//! signatures beside it still count).

use std::io::{BufRead, Read, Write};

use super::super::armor::{ArmorReader, is_armored};
use super::super::packet::{BodyLen, BodyReader, read_header, tag};
use super::super::{Error, Result};
use super::packet::Signature;

/// Largest signature packet accepted (an RSA-16384 signature with many
/// subpackets fits many times over).
pub(crate) const MAX_SIG_PACKET: usize = 1 << 16;

/// A signature packet as read: a signature, or one skipped for its
/// version, with the reason (reported when nothing else is readable).
#[derive(Debug)]
pub(crate) enum SigPacket {
    /// A version 4 or 6 signature.
    Read(Signature),
    /// A signature of another version.
    Skipped(Error),
}

/// Reads one signature packet body of at most [`MAX_SIG_PACKET`] octets.
pub(crate) fn read_sig_body<R: Read>(r: R, len: BodyLen) -> Result<SigPacket> {
    let mut body = Vec::new();
    BodyReader::new(r, len).take(MAX_SIG_PACKET as u64 + 1).read_to_end(&mut body).map_err(Error::from_io)?;
    if body.len() > MAX_SIG_PACKET {
        return Err(Error::Limit("signature packet too large"));
    }
    match Signature::parse(&body) {
        Err(e) if !matches!(body.first(), Some(4 | 6)) => Ok(SigPacket::Skipped(e)),
        r => r.map(SigPacket::Read),
    }
}

/// Reads the signature packets of a detached signature (binary or armored);
/// marker and padding packets are skipped, and so are signatures of a
/// version other than 4 and 6 (when nothing else is there, the reason the
/// first was skipped is the error); anything else is an error.
///
/// ```
/// use tessera::openpgp::sig::{SigType, read_signatures};
/// let detached = "-----BEGIN PGP SIGNATURE-----\n\n\
/// wpgGARsKAAAAKQWCY5ijYyIhBssYbE8GCaaX5NUt+mxyKwwfHifBilZwj2Ul7Ce6\n\
/// 2azJAAAAAGk2IHZJX1AhiJD39eLuPBgiUU9wUA9VHYblySHkBONKU/usJ9BvuAqo\n\
/// /FvLFuGWMbKAdA+epq7V4HOtAPlBWmU8QOd6aud+aSunHQaaEJ+iTFjP2OMW0KBr\n\
/// NK2ay45cX1IVAQ==\n-----END PGP SIGNATURE-----\n";
/// let sigs = read_signatures(detached.as_bytes())?; // RFC 9580 A.6's signature
/// assert_eq!((sigs.len(), sigs[0].sig_type()), (1, SigType::Text));
/// // A version 23 signature packet before it is skipped.
/// let mut binary = vec![0xc2, 3, 23, 0, 0];
/// binary.extend_from_slice(&tessera::openpgp::sig::write_signatures(Vec::new(), &sigs, false)?);
/// assert_eq!(read_signatures(binary.as_slice())?, sigs);
/// assert!(read_signatures(&binary[..5]).is_err()); // nothing readable
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn read_signatures<R: BufRead>(mut input: R) -> Result<Vec<Signature>> {
    let mut src: Box<dyn Read + '_> =
        if is_armored(&mut input)? { Box::new(ArmorReader::new(input)) } else { Box::new(input) };
    let (mut out, mut skipped, mut seen) = (Vec::new(), None, 0usize);
    while let Some(h) = read_header(&mut src)? {
        match h.tag {
            tag::SIGNATURE if seen == super::MAX_SIGNATURES => return Err(super::too_many_signatures()),
            tag::SIGNATURE => {
                seen += 1;
                match read_sig_body(&mut src, h.len)? {
                    SigPacket::Read(sig) => out.push(sig),
                    SigPacket::Skipped(e) => skipped = skipped.or(Some(e)),
                }
            }
            tag::MARKER | tag::PADDING => BodyReader::new(&mut src, h.len).skip_rest()?,
            _ => return Err(Error::Malformed("a detached signature holds only signature packets")),
        }
    }
    if out.is_empty() {
        return Err(skipped.unwrap_or(Error::Malformed("no signature packet")));
    }
    Ok(out)
}

/// Writes signature packets, armored (`SIGNATURE` block) or binary.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::{SigType, Signer, SigningKey, read_signatures, write_signatures};
/// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
/// let sigs = Signer::new(&SigningKey::from_cert(&key, 1_700_000_001)?, SigType::Binary, 1_700_000_001)?.finish()?;
/// let armored = write_signatures(Vec::new(), &sigs, true)?;
/// assert!(armored.starts_with(b"-----BEGIN PGP SIGNATURE-----"));
/// assert_eq!(read_signatures(armored.as_slice())?, sigs);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn write_signatures<W: Write>(out: W, sigs: &[Signature], armor: bool) -> Result<W> {
    let mut body = Vec::new();
    for s in sigs {
        super::super::packet::write_packet(&mut body, tag::SIGNATURE, &s.to_bytes()).map_err(Error::from_io)?;
    }
    let mut out = out;
    if armor {
        let v6 = sigs.iter().all(|s| s.version() == 6);
        let mut w =
            super::super::armor::ArmorWriter::new(out, super::super::armor::SIGNATURE, !v6).map_err(Error::from_io)?;
        w.write_all(&body).map_err(Error::from_io)?;
        out = w.finish().map_err(Error::from_io)?;
    } else {
        out.write_all(&body).map_err(Error::from_io)?;
    }
    Ok(out)
}
