//! Messages built packet by packet: marker and padding packets, compressed
//! data (ZIP, ZLIB, uncompressed), old-format headers, several SKESKs, and
//! the packet sequences that must be refused.

use std::io::{Read, Write};

use flate2::Compression;
use flate2::write::{DeflateEncoder, ZlibEncoder};
use tessera::aead::Mode;
use tessera::openpgp::packet::{PartialWriter, tag, write_packet};
use tessera::openpgp::s2k::{HashAlg, S2k};
use tessera::openpgp::seipd::{ChunkSealer, V2Header};
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{Decryptor, Error, SymAlg};

const PW: &[u8] = b"password";
const SK: [u8; 16] = [7; 16];

fn skesk(pw: &[u8]) -> Vec<u8> {
    let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [1; 8], count: 0 };
    let sk = Skesk::seal_v6(&SK, pw, SymAlg::Aes128, Mode::Ocb, s2k, &[2; 15]).unwrap();
    let mut body = Vec::new();
    sk.write(&mut body);
    let mut out = Vec::new();
    write_packet(&mut out, tag::SKESK, &body).unwrap();
    out
}

/// `before` packets, one SKESK per password, then SEIPD v2 around `plain`.
fn message(before: &[u8], pws: &[&[u8]], plain: &[u8]) -> Vec<u8> {
    let mut out = before.to_vec();
    for pw in pws {
        out.extend_from_slice(&skesk(pw));
    }
    let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: 0, salt: [3; 32] };
    let mut seipd = PartialWriter::new(&mut out, tag::SEIPD);
    seipd.write_all(&header.encode()).unwrap();
    let mut s = ChunkSealer::new(seipd, &header, &SK).unwrap();
    s.write_all(plain).unwrap();
    s.finish().unwrap().finish().unwrap();
    out
}

fn literal(data: &[u8]) -> Vec<u8> {
    let mut body = vec![b'b', 4];
    body.extend_from_slice(b"name");
    body.extend_from_slice(&[0, 0, 0, 1]);
    body.extend_from_slice(data);
    let mut out = Vec::new();
    write_packet(&mut out, tag::LITERAL, &body).unwrap();
    out
}

fn open(msg: &[u8]) -> Result<Vec<u8>, Error> {
    let mut d = Decryptor::new(msg, &[PW])?;
    let mut out = Vec::new();
    d.read_to_end(&mut out).map_err(Error::from_io)?;
    assert_eq!(d.literal().filename, b"name");
    Ok(out)
}

fn payload() -> Vec<u8> {
    (0..5000u32).map(|i| (i % 251) as u8).collect()
}

#[test]
fn marker_padding_and_several_skesks() {
    let marker = [0xca, 3, b'P', b'G', b'P'];
    let mut plain = literal(&payload());
    write_packet(&mut plain, tag::PADDING, &[0u8; 33]).unwrap();
    let msg = message(&marker, &[b"other", PW, b"third"], &plain);
    assert_eq!(open(&msg).unwrap(), payload());
    // A padding packet outside the encrypted data too.
    let mut padded_before = Vec::new();
    write_packet(&mut padded_before, tag::PADDING, &[9u8; 10]).unwrap();
    assert_eq!(open(&message(&padded_before, &[PW], &plain)).unwrap(), payload());
}

#[test]
fn compressed_data_zip_zlib_and_stored() {
    let lit = literal(&payload());
    for alg in [0u8, 1, 2] {
        let mut body = vec![alg];
        match alg {
            0 => body.extend_from_slice(&lit),
            1 => {
                let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
                e.write_all(&lit).unwrap();
                body.extend_from_slice(&e.finish().unwrap());
            }
            _ => {
                let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
                e.write_all(&lit).unwrap();
                body.extend_from_slice(&e.finish().unwrap());
            }
        }
        let mut plain = Vec::new();
        write_packet(&mut plain, tag::COMPRESSED, &body).unwrap();
        write_packet(&mut plain, tag::PADDING, &[0u8; 5]).unwrap();
        assert_eq!(open(&message(&[], &[PW], &plain)).unwrap(), payload(), "algorithm {alg}");
        // Old-format compressed packet with indeterminate length (as GnuPG writes).
        let mut old = vec![0x80 | (tag::COMPRESSED << 2) | 3];
        old.extend_from_slice(&body);
        assert_eq!(open(&message(&[], &[PW], &old)).unwrap(), payload(), "old format, algorithm {alg}");
    }
    let mut bz = Vec::new();
    write_packet(&mut bz, tag::COMPRESSED, &[3, 1, 2, 3]).unwrap();
    assert!(matches!(open(&message(&[], &[PW], &bz)), Err(Error::Unsupported(_))));
}

#[test]
fn refused_sequences() {
    // Two literal packets.
    let mut two = literal(b"a");
    two.extend_from_slice(&literal(b"b"));
    let m = message(&[], &[PW], &two);
    let mut d = Decryptor::new(&m[..], &[PW]).unwrap();
    let e = Error::from_io(d.read_to_end(&mut Vec::new()).unwrap_err());
    assert!(matches!(e, Error::Malformed(_)), "{e}");
    // No literal data at all.
    let mut pad = Vec::new();
    write_packet(&mut pad, tag::PADDING, &[0u8; 5]).unwrap();
    assert!(matches!(Decryptor::new(&message(&[], &[PW], &pad)[..], &[PW]), Err(Error::Malformed(_))));
    // Garbage after the literal data (authenticated, but not a packet).
    let mut junk = literal(b"a");
    junk.push(0x01);
    let m = message(&[], &[PW], &junk);
    let mut d = Decryptor::new(&m[..], &[PW]).unwrap();
    assert!(d.read_to_end(&mut Vec::new()).is_err());
    // SED (no integrity protection) is refused; an unencrypted literal too.
    let mut sed = skesk(PW);
    write_packet(&mut sed, tag::SED, &[0u8; 40]).unwrap();
    assert!(matches!(Decryptor::new(&sed[..], &[PW]), Err(Error::Unsupported(_))));
    assert!(matches!(Decryptor::new(&literal(b"x")[..], &[PW]), Err(Error::Unsupported(_))));
    // SKESKs without encrypted data; no SKESK at all.
    assert!(matches!(Decryptor::new(&skesk(PW)[..], &[PW]), Err(Error::Truncated(_))));
    let mut pkesk_only = Vec::new();
    write_packet(&mut pkesk_only, tag::PKESK, &[3u8; 20]).unwrap();
    let m = message(&pkesk_only, &[], &literal(b"x"));
    assert!(matches!(Decryptor::new(&m[..], &[PW]), Err(Error::NoPasswordPacket)));
    // An oversized SKESK is a limit error, not an allocation.
    let mut big = Vec::new();
    write_packet(&mut big, tag::SKESK, &vec![6u8; 4000]).unwrap();
    assert!(matches!(Decryptor::new(&big[..], &[PW]), Err(Error::Limit(_))));
    // A huge declared length with little data: truncated, nothing allocated for it.
    let mut huge = skesk(PW);
    huge.extend_from_slice(&[0xc0 | tag::SEIPD, 0xff, 0x7f, 0xff, 0xff, 0xff, 2]);
    assert!(matches!(Decryptor::new(&huge[..], &[PW]), Err(Error::Truncated(_))));
}

/// Hostile input never panics: random bytes, random armor-like text, and
/// random splices of a valid message (xorshift, fixed seed).
#[test]
fn garbage_never_panics() {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let valid = message(&[], &[PW], &literal(&payload()));
    let drain = |input: &[u8]| {
        if let Ok(mut d) = Decryptor::new(input, &[PW]) {
            let _ = d.read_to_end(&mut Vec::new());
        }
    };
    for i in 0..3000 {
        let n = (next() % 300) as usize;
        let mut buf: Vec<u8> = (0..n).map(|_| next() as u8).collect();
        match i % 4 {
            0 => {}
            1 => {
                // Start with plausible packet headers.
                let t = [0xc3u8, 0xd2, 0xca, 0xcb, 0xc8, 0x8c, 0xa3][(next() % 7) as usize];
                buf.insert(0, t);
            }
            2 => {
                let mut text = b"-----BEGIN PGP MESSAGE-----\n\n".to_vec();
                text.extend(buf.iter().map(|b| b"ABCDwxyz0189+/=\n-"[(*b % 17) as usize]));
                buf = text;
            }
            _ => {
                // A valid message with a random window replaced.
                let mut m = valid.clone();
                let at = (next() as usize) % m.len();
                for (k, b) in buf.iter().take(m.len() - at).enumerate() {
                    m[at + k] = *b;
                }
                buf = m;
            }
        }
        drain(&buf);
    }
}
