//! `packet_parse`: packet framing and the small packet parsers.

use std::io::{Read, Write};

use tessera::aead::Mode;
use tessera::openpgp::SymAlg;
use tessera::openpgp::packet::{self, BodyLen, BodyReader, PartialWriter, tag};
use tessera::openpgp::s2k::{S2k, S2kLimits, decode_count};
use tessera::openpgp::seipd::{self, V2Header};
use tessera::openpgp::skesk::Skesk;

use super::common::*;

/// Packet framing and the small packet parsers: headers and bodies (with
/// partial lengths) read in pieces, SKESK, S2K and SEIPD v2 headers parsed
/// and re-encoded (which must give the same octets), and the writers'
/// output read back.
///
/// Input: one selector octet, then the bytes.
pub fn packet_parse(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else { return };
    let step = [1, 2, 3, 7, 16, 64, 512, 65536][sel as usize & 7];

    walk_packets(rest, step);

    // The sub-parsers straight on the bytes, too.
    check_skesk(rest);
    check_s2k(rest, sel);
    if let Some(h) = rest.get(..35) {
        check_v2_header(h.try_into().expect("35"));
    }
    if let Ok(a) = SymAlg::from_id(sel) {
        assert_eq!(a.id(), sel);
    }
    if let Ok(a) = Mode::from_id(sel) {
        assert_eq!(a.id(), sel);
    }

    // Writers: what they write reads back.
    partial_round_trip(rest, sel);
    if rest.len() >= 4 {
        let n = u32::from_le_bytes(rest[..4].try_into().expect("4"));
        let mut len = [0u8; 5];
        let k = packet::encode_len(n, &mut len);
        let mut v = vec![0xc0 | tag::LITERAL];
        v.extend_from_slice(&len[..k]);
        let h = packet::read_header(&mut v.as_slice()).expect("encoded header").expect("a header");
        assert_eq!(h.len, BodyLen::Fixed(n));
    }
}

fn walk_packets(input: &[u8], step: usize) {
    let mut r = Pieces { data: input, piece: step };
    for _ in 0..1000 {
        let h = match packet::read_header(&mut r) {
            Ok(Some(h)) => h,
            Ok(None) | Err(_) => return,
        };
        let mut body = BodyReader::new(&mut r, h.len);
        let mut kept = Vec::new();
        let mut buf = vec![0u8; step];
        let ok = loop {
            match body.read(&mut buf) {
                Ok(0) => break true,
                Ok(n) => {
                    if kept.len() < 4096 {
                        kept.extend_from_slice(&buf[..n]);
                    }
                }
                Err(e) => {
                    // Errors are typed tessera errors.
                    let _ = tessera::openpgp::Error::from_io(e);
                    break false;
                }
            }
        };
        if !ok {
            return;
        }
        if h.len != BodyLen::Indeterminate {
            assert!(body.is_done(), "body read to its end but not done: {h:?}");
        }
        match h.tag {
            tag::SKESK => check_skesk(&kept),
            tag::SEIPD if kept.first() == Some(&2) && kept.len() >= 36 => {
                check_v2_header(kept[1..36].try_into().expect("35"))
            }
            _ => {}
        }
    }
}

fn check_skesk(body: &[u8]) {
    if let Ok(s) = Skesk::parse(body) {
        let mut v = Vec::new();
        s.write(&mut v);
        assert_eq!(v, body, "SKESK re-encodes differently: {s:?}");
    }
}

fn check_s2k(bytes: &[u8], sel: u8) {
    let Ok((s2k, used)) = S2k::parse(bytes) else { return };
    assert_eq!(used, s2k.encoded_len());
    let mut v = Vec::new();
    s2k.write(&mut v);
    assert_eq!(v, bytes[..used], "S2K re-encodes differently: {s2k:?}");
    // Derive only when cheap.
    let cheap = match &s2k {
        S2k::Simple { .. } | S2k::Salted { .. } => true,
        S2k::Iterated { count, .. } => decode_count(*count) <= 1 << 16,
        S2k::Argon2 { .. } => true, // bounded by the limits below
    };
    if cheap {
        let key_len = [16, 24, 32, 0, 1, 20, 64, 65][(sel >> 3) as usize & 7];
        let limits = S2kLimits { max_argon2_m: 6, max_argon2_t: 2, max_iterated_count: 96, ..S2kLimits::UNLIMITED };
        if let Ok(k) = s2k.derive(b"pw", key_len, &limits) {
            assert_eq!(k.len(), key_len);
        }
    }
}

fn check_v2_header(b: &[u8; 35]) {
    if let Ok(h) = V2Header::parse(b) {
        let e = h.encode();
        assert_eq!(e[0], 2);
        assert_eq!(&e[1..], b);
        assert!(seipd::chunk_size(h.chunk_octet) >= 64);
        let k = &SESSION_KEY[..h.cipher.key_len()];
        let (mk, iv) = h.message_key(k).expect("right key length");
        assert_eq!((mk.len(), iv.len()), (h.cipher.key_len(), h.aead.nonce_len() - 8));
        assert!(h.message_key(&SESSION_KEY[..5]).is_err());
    }
}

fn partial_round_trip(body: &[u8], sel: u8) {
    let piece = [1, 100, 511, 512, 513, 1000, 4096, usize::MAX][(sel >> 3) as usize & 7];
    let mut w = PartialWriter::new(Vec::new(), tag::LITERAL);
    for p in body.chunks(piece.min(body.len()).max(1)) {
        w.write_all(p).expect("Vec");
    }
    let out = w.finish().expect("Vec");
    let mut r = out.as_slice();
    let h = packet::read_header(&mut r).expect("written header").expect("a header");
    assert_eq!(h.tag, tag::LITERAL);
    match h.len {
        BodyLen::Fixed(n) => assert!(n < 512 && n as usize == body.len()),
        BodyLen::Partial(n) => assert!(n >= 512 && n.is_power_of_two()),
        BodyLen::Indeterminate => panic!("PartialWriter wrote an indeterminate length"),
    }
    let mut back = Vec::new();
    BodyReader::new(&mut r, h.len).read_to_end(&mut back).expect("written body");
    assert_eq!(back, body);
    assert!(r.is_empty(), "octets left after the written packet");
}
