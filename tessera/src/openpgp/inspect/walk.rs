//! Walking a packet sequence: small packets are read whole (bounded, into
//! a buffer wiped afterwards: it may hold a secret key) and parsed; literal
//! and encrypted bodies are read through and counted; compressed data is
//! walked inside.

use std::io::Read;

use super::super::key::{key_tag, read_body};
use super::super::message::{Compressed, Layer, compression, read_literal_header};
use super::super::packet::{BodyLen, BodyReader, Header, read_exact, read_full, read_header, tag};
use super::super::plain::Src;
use super::super::seipd::{V2_HEADER_LEN, V2Header, chunk_size};
use super::super::{Error, Result};
use super::{Detail, Framing, Limits, Packet, SeipdInfo, bodies};

/// Scratch for reading through a body, on the stack.
const SCRATCH: usize = 8192;

/// Collects the packets of one input.
pub(super) struct Walker<'l> {
    limits: &'l Limits,
    packets: Vec<Packet>,
    /// Octets decompressed so far, by every compressed packet together.
    produced: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<'l> Walker<'l> {
    pub(super) fn new(limits: &'l Limits) -> Self {
        Walker { limits, packets: Vec::new(), produced: Default::default() }
    }

    pub(super) fn into_packets(self) -> Vec<Packet> {
        self.packets
    }

    /// Walks the packets of `r` to its end, at the top level.
    pub(super) fn walk_top(&mut self, r: &mut dyn Read) -> Result<()> {
        self.walk(r, 0)
    }

    fn walk(&mut self, r: &mut dyn Read, depth: usize) -> Result<()> {
        while let Some(h) = read_header(r)? {
            if self.packets.len() >= self.limits.max_packets {
                return Err(Error::Limit("more packets than the inspection allows (Limits::max_packets)"));
            }
            let framing = match h.len {
                BodyLen::Fixed(_) => Framing::Fixed,
                BodyLen::Partial(_) => Framing::Partial,
                BodyLen::Indeterminate => Framing::Indeterminate,
            };
            let at = self.packets.len();
            let (tag, new_format) = (h.tag, h.new_format);
            self.packets.push(Packet { tag, new_format, framing, body_len: None, depth, detail: Detail::Unknown });
            let (detail, body_len) = self.packet(r, h, depth)?;
            let p = &mut self.packets[at];
            (p.detail, p.body_len) = (detail, body_len);
        }
        Ok(())
    }

    /// Reads one packet's body: its fields and its length.
    fn packet(&mut self, r: &mut dyn Read, h: Header, depth: usize) -> Result<(Detail, Option<u64>)> {
        match h.tag {
            tag::LITERAL => literal(r, h.len),
            tag::SEIPD => seipd(r, h.len),
            tag::COMPRESSED => self.compressed(r, h.len, depth),
            tag::SED => Ok((Detail::Sed, Some(skip(&mut BodyReader::new(r, h.len))?))),
            tag::SIGNATURE
            | tag::ONE_PASS_SIGNATURE
            | tag::PKESK
            | tag::SKESK
            | key_tag::PUBLIC_KEY
            | key_tag::PUBLIC_SUBKEY
            | key_tag::SECRET_KEY
            | key_tag::SECRET_SUBKEY
            | key_tag::USER_ID => {
                let body = read_body(&mut &mut *r, h.len)?;
                Ok((bodies::parse(h.tag, &body), Some(body.len() as u64)))
            }
            tag::MARKER | tag::PADDING | tag::MDC | key_tag::TRUST | key_tag::USER_ATTRIBUTE => {
                Ok((Detail::Opaque, Some(skip(&mut BodyReader::new(r, h.len))?)))
            }
            _ => Ok((Detail::Unknown, Some(skip(&mut BodyReader::new(r, h.len))?))),
        }
    }

    /// A compressed data packet: its algorithm, then the packets inside,
    /// decompressed within the limits.
    fn compressed(&mut self, r: &mut dyn Read, len: BodyLen, depth: usize) -> Result<(Detail, Option<u64>)> {
        let fixed = match len {
            BodyLen::Fixed(n) => Some(u64::from(n)),
            _ => None,
        };
        let src: Src<'_> = Box::new(r);
        let mut body = BodyReader::new(Layer::Outer(src), len);
        let mut alg = [0u8; 1];
        read_exact(&mut body, &mut alg, "compressed data header")?;
        if let Err(e) = compression::check(alg[0]) {
            let n = skip(&mut body)?;
            return Ok((Detail::Unreadable(e), Some(n + 1)));
        }
        if depth >= self.limits.max_depth {
            return Err(Error::Limit("compressed data nested deeper than the inspection allows (Limits::max_depth)"));
        }
        let produced = self.produced.clone();
        let mut inner = Compressed::with_alg(body, alg[0], produced, self.limits.max_decompressed_size);
        self.walk(&mut inner, depth + 1)?;
        inner.close()?;
        Ok((Detail::Compressed(alg[0]), fixed))
    }
}

/// Reads the rest of a body; returns the octets read.
fn skip<R: Read>(body: &mut BodyReader<R>) -> Result<u64> {
    let mut scratch = [0u8; SCRATCH];
    let mut total = 0u64;
    loop {
        match read_full(body, &mut scratch)? {
            0 => return Ok(total),
            n => total += n as u64,
        }
    }
}

/// A literal data packet: its metadata, then its data counted.
fn literal(r: &mut dyn Read, len: BodyLen) -> Result<(Detail, Option<u64>)> {
    let mut body = BodyReader::new(r, len);
    let info = read_literal_header(&mut body)?;
    let data_len = skip(&mut body)?;
    let head = 6 + info.filename.len() as u64;
    let detail = Detail::Literal { format: info.format, file_name: info.filename, date: info.date, data_len };
    Ok((detail, Some(head + data_len)))
}

/// A SEIPD packet: its version and (v2) header, then the encrypted data
/// counted.
fn seipd(r: &mut dyn Read, len: BodyLen) -> Result<(Detail, Option<u64>)> {
    let mut body = BodyReader::new(r, len);
    let mut version = [0u8; 1];
    read_exact(&mut body, &mut version, "SEIPD version")?;
    let (v2, head) = match version[0] {
        1 => (None, 1),
        2 => {
            let mut h = [0u8; V2_HEADER_LEN];
            read_exact(&mut body, &mut h, "SEIPD v2 header")?;
            match V2Header::parse(&h) {
                Ok(h) => (Some((h.cipher, h.aead, chunk_size(h.chunk_octet) as u64)), 1 + V2_HEADER_LEN as u64),
                Err(e) => {
                    let n = skip(&mut body)?;
                    return Ok((Detail::Unreadable(e), Some(1 + V2_HEADER_LEN as u64 + n)));
                }
            }
        }
        _ => {
            let n = skip(&mut body)?;
            return Ok((Detail::Unreadable(Error::Unsupported("SEIPD version (1 and 2 are read)")), Some(1 + n)));
        }
    };
    let encrypted_len = skip(&mut body)?;
    Ok((Detail::Seipd(SeipdInfo { version: version[0], v2, encrypted_len }), Some(head + encrypted_len)))
}
