//! Compressed data packets inside compressed data packets (RFC 9580 §10.3
//! allows them; Sequoia reads them): read up to
//! [`MAX_COMPRESSION_DEPTH`] layers, any mix of algorithms, with one cap on
//! what all layers decompress together, so that a zip bomb inside another
//! layer is refused in constant memory.

use crate::common;

use std::io::Write;

use common::hostile::{CREATED, victim_key};
use flate2::Compression;
use flate2::write::{DeflateEncoder, ZlibEncoder};
use tessera::openpgp::Error;
use tessera::openpgp::hostile::{Signed, Tamper, encrypt, packet};
use tessera::openpgp::key::{Cert, KeyProfile};
use tessera::openpgp::packet::tag;
use tessera::openpgp::sig::InlineVerifier;

/// The depth tessera reads (its documented limit).
const MAX_COMPRESSION_DEPTH: usize = 16;
const NOW: u64 = CREATED as u64 + 100;
const DATA: &[u8] = b"data in a box in a box\n";

/// Compression algorithm ids (RFC 9580 §9.4).
const STORED: u8 = 0;
const ZIP: u8 = 1;
const ZLIB: u8 = 2;

/// A compressed data packet of algorithm `alg` holding `inner`, compressed
/// at `level`.
fn layer(alg: u8, inner: &[u8], level: Compression) -> Vec<u8> {
    let body = match alg {
        STORED => inner.to_vec(),
        ZIP => {
            let mut e = DeflateEncoder::new(Vec::new(), level);
            e.write_all(inner).expect("writing to a Vec");
            e.finish().expect("writing to a Vec")
        }
        _ => {
            let mut e = ZlibEncoder::new(Vec::new(), level);
            e.write_all(inner).expect("writing to a Vec");
            e.finish().expect("writing to a Vec")
        }
    };
    packet(tag::COMPRESSED, &[&[alg][..], &body].concat())
}

/// `inner` wrapped in one layer per algorithm of `algs`, innermost first.
fn wrapped(inner: &[u8], algs: &[u8]) -> Vec<u8> {
    algs.iter().fold(inner.to_vec(), |m, &alg| layer(alg, &m, Compression::default()))
}

fn key_and_signed() -> (Cert, Vec<u8>) {
    let key = victim_key(KeyProfile::Rfc9580);
    let s = Signed::new(&key, DATA, NOW).expect("signed");
    (key.to_public(), [s.one_pass, s.literal, s.signature].concat())
}

/// What tessera reads out of `message` (the data if a signature is good),
/// with at most `max` octets decompressed.
fn read(message: &[u8], cert: &Cert, max: Option<u64>) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    read_to(message, cert, max, &mut out)?;
    Ok(out)
}

/// The same, writing the data to `out`.
fn read_to(message: &[u8], cert: &Cert, max: Option<u64>, out: &mut dyn Write) -> Result<(), Error> {
    let certs = std::slice::from_ref(cert);
    let results = InlineVerifier::with_max_decompressed(message, certs, NOW + 1, max)?.verify_to(out)?;
    assert!(results.iter().any(|r| r.is_good()), "no good signature");
    Ok(())
}

#[test]
fn two_layers_of_mixed_algorithms_are_read_as_sequoia_reads_them() {
    let (cert, signed) = key_and_signed();
    let mixes: [&[u8]; 6] =
        [&[ZIP, ZLIB], &[ZLIB, ZIP], &[STORED, ZIP], &[ZIP, STORED], &[ZLIB, ZLIB], &[ZIP, ZLIB, STORED]];
    let messages: Vec<_> = mixes.iter().map(|algs| wrapped(&signed, algs)).collect();
    for (algs, m) in mixes.iter().zip(&messages) {
        assert_eq!(read(m, &cert, Some(1 << 20)).expect("read"), DATA, "{algs:?}");
    }
    // pysequoia's verify() takes one compression layer at most, its
    // decrypt() any number: Sequoia reads the layers of the same messages
    // encrypted with a password.
    let Some(python) = common::peer_python("pysequoia") else { return };
    let encrypted: Vec<_> = messages.iter().map(|m| encrypt(m, 2, Tamper::None)).collect();
    let plain = common::sequoia_decrypts(&python, &encrypted, "password");
    for (algs, plain) in mixes.iter().zip(plain) {
        assert_eq!(plain.as_deref(), Some(DATA), "Sequoia on {algs:?}");
    }
}

#[test]
fn the_depth_limit_is_the_last_layer_read() {
    let (cert, signed) = key_and_signed();
    let algs: Vec<u8> = (0..=MAX_COMPRESSION_DEPTH).map(|i| [ZIP, ZLIB, STORED][i % 3]).collect();
    let at_limit = wrapped(&signed, &algs[..MAX_COMPRESSION_DEPTH]);
    assert_eq!(read(&at_limit, &cert, None).expect("at the limit"), DATA);
    let deeper = wrapped(&signed, &algs);
    let e = read(&deeper, &cert, None).expect_err("one layer more");
    assert!(matches!(e, Error::Limit(_)), "{e:?}");
}

#[test]
fn the_size_cap_counts_every_layer() {
    let (cert, signed) = key_and_signed();
    // 600 KiB of data that does not compress, stored in a ZIP layer inside
    // a ZLIB layer: each layer makes about 600 KiB, together more than
    // 1 MiB.
    let bulk = common::pattern(600 << 10, 9);
    let lit = [&signed[..], &packet(tag::PADDING, &bulk)].concat();
    let m = layer(ZLIB, &layer(ZIP, &lit, Compression::none()), Compression::default());
    assert_eq!(read(&m, &cert, Some(2 << 20)).expect("within 2 MiB"), DATA);
    let e = read(&m, &cert, Some(1 << 20)).expect_err("over 1 MiB across layers");
    assert!(matches!(e, Error::LimitExceeded { allowed, .. } if allowed == 1 << 20), "{e:?}");
}

#[test]
fn a_zip_bomb_inside_another_layer_is_refused_in_constant_memory() {
    let (cert, _) = key_and_signed();
    const MIB: usize = 64;
    let mut lit_head = vec![0xc0 | tag::LITERAL, 0xff];
    lit_head.extend_from_slice(&(6 + (MIB as u32) * (1 << 20)).to_be_bytes());
    lit_head.extend_from_slice(&[b'b', 0, 0, 0, 0, 0]);
    let bomb = packet(tag::COMPRESSED, &[&[ZIP][..], &common::deflate_bomb(&lit_head, MIB)].concat());
    for outer in [ZLIB, ZIP] {
        let m = layer(outer, &bomb, Compression::best());
        assert!(m.len() < (MIB << 20) / 500, "a bomb: {} octets", m.len());
        let (r, peak) = common::peak_bytes(|| read_to(&m, &cert, Some(4 << 20), &mut std::io::sink()));
        let e = r.expect_err("refused");
        assert!(matches!(e, Error::LimitExceeded { .. }), "{e:?}");
        assert!(peak < 2 << 20, "peak {peak} octets");
    }
}
