//! Hardening: parsers never allocate ahead of the data they have read.
//!
//! Hostile inputs (declared lengths of 4 GiB, maximal partial body lengths,
//! huge literal/compressed/SEIPD/SKESK/padding packets with only a few
//! octets behind them, armor with one enormous line, a zip bomb, Argon2
//! asking for 2^31 KiB, the largest iterated S2K count) are decrypted while
//! the per-thread allocator of `common` records the peak of live heap
//! bytes. The bound is what the format itself needs: the decryptor's one
//! chunk buffer (`chunk_size(octet) + 2 * TAG_LEN`; 256 KiB for the default
//! octet 12, 4 MiB for the largest, 16) plus 1 MiB for everything else
//! (the inflater's window and state, the SKESK list, the armor reader).
//! Each hostile input must end in the expected error; the zip bomb, which
//! is a valid message, must stream all of its 64 MiB through that bound.
//!
//! FPE at its largest lengths and AES-SIV with the most associated-data
//! components must allocate nothing (AEAD's zero allocation at 1 MiB is in
//! `aead_props`, SIV's at 5000 octets in `siv_vectors`).

use crate::common;

use std::io::{self, BufRead, BufReader, Read, Write};
use tessera::TAG_LEN;
use tessera::aead::Mode;

use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe};
use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
use tessera::openpgp::packet::{BodyReader, PartialWriter, read_header, tag, write_packet};
use tessera::openpgp::s2k::{HashAlg, S2k, S2kLimits};
use tessera::openpgp::seipd::{ChunkSealer, V2Header, chunk_size};
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error, Profile, S2kChoice, SymAlg};
use tessera::siv::{AesSiv, MAX_AD};

const PW: &[u8] = b"pw";
const SK: [u8; 16] = [7; 16];
const SLACK: u64 = 1 << 20;
const GIB4: [u8; 4] = [0xff; 4];

/// The bound for a message with chunk size octet `octet`.
fn bound(octet: u8) -> u64 {
    (chunk_size(octet) + 2 * TAG_LEN) as u64 + SLACK
}

fn skesk_v6(s2k: S2k) -> Vec<u8> {
    let sk = Skesk::seal_v6(&SK, PW, SymAlg::Aes128, Mode::Ocb, s2k, &[2; 15]).unwrap();
    let mut body = Vec::new();
    sk.write(&mut body);
    let mut out = Vec::new();
    write_packet(&mut out, tag::SKESK, &body).unwrap();
    out
}

fn cheap_skesk() -> Vec<u8> {
    skesk_v6(S2k::Iterated { hash: HashAlg::Sha256, salt: [1; 8], count: 0 })
}

fn header(octet: u8) -> V2Header {
    V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: octet, salt: [3; 32] }
}

/// A valid message: SKESK v6, then SEIPD v2 (chunk octet `octet`) around
/// the plaintext packet stream `inner`.
fn message(octet: u8, inner: &[u8]) -> Vec<u8> {
    let mut out = cheap_skesk();
    let h = header(octet);
    let mut seipd = PartialWriter::new(&mut out, tag::SEIPD);
    seipd.write_all(&h.encode()).unwrap();
    let mut s = ChunkSealer::new(seipd, &h, &SK).unwrap();
    s.write_all(inner).unwrap();
    s.finish().unwrap().finish().unwrap();
    out
}

/// Decrypts `input` to the end (into a stack buffer) and returns the
/// number of plaintext octets or the error, with the peak of live heap
/// bytes on this thread while doing so.
fn measure<R: BufRead>(input: impl FnOnce() -> R, opts: &DecryptOptions) -> (Result<u64, Error>, u64) {
    common::peak_bytes(|| {
        let mut d = Decryptor::with_options(input(), &[PW], opts)?;
        let mut buf = [0u8; 16 * 1024];
        let mut total = 0u64;
        loop {
            match d.read(&mut buf) {
                Ok(0) => return Ok(total),
                Ok(n) => total += n as u64,
                Err(e) => return Err(Error::from_io(e)),
            }
        }
    })
}

fn check(name: &str, input: &[u8], octet: u8, want: impl Fn(&Error) -> bool) -> u64 {
    let (r, peak) = measure(|| input, &DecryptOptions::default());
    let e = r.expect_err(name);
    assert!(want(&e), "{name}: {e}");
    assert!(peak <= bound(octet), "{name}: peak {peak} > {}", bound(octet));
    eprintln!("{name}: {e}; peak {peak} octets (bound {})", bound(octet));
    peak
}

fn truncated(e: &Error) -> bool {
    matches!(e, Error::Truncated(_))
}

#[test]
fn huge_declared_lengths_allocate_nothing_ahead() {
    // SKESK and padding packets declaring 4 GiB (five-octet length).
    let mut m = vec![0xc0 | tag::SKESK, 0xff];
    m.extend_from_slice(&GIB4);
    m.extend_from_slice(&[6; 10]);
    check("SKESK of 4 GiB", &m, 0, |e| matches!(e, Error::Truncated(_) | Error::Limit(_)));
    let mut m = vec![0xc0 | tag::PADDING, 0xff];
    m.extend_from_slice(&GIB4);
    m.extend_from_slice(&[0; 100]);
    check("padding of 4 GiB", &m, 0, truncated);
    // Old-format four-octet length too.
    let mut m = vec![0x80 | (tag::SKESK << 2) | 2];
    m.extend_from_slice(&GIB4);
    m.extend_from_slice(&[6; 10]);
    check("old-format SKESK of 4 GiB", &m, 0, |e| matches!(e, Error::Truncated(_) | Error::Limit(_)));

    // SEIPD v2 declaring 4 GiB (five-octet length) or a maximal partial
    // body (2^30), with the header and 100 octets behind it.
    for octet in [0u8, 12, 16] {
        for len in [&[0xff, 0xff, 0xff, 0xff, 0xff][..], &[0xfe][..]] {
            let mut m = cheap_skesk();
            m.push(0xc0 | tag::SEIPD);
            m.extend_from_slice(len);
            m.extend_from_slice(&header(octet).encode());
            m.extend_from_slice(&[0x55; 100]);
            // 100 octets fill a whole 64-octet chunk (octet 0), whose tag fails.
            let peak = check(&format!("SEIPD v2 (octet {octet}) length {len:02x?}"), &m, octet, |e| {
                matches!(e, Error::Truncated(_) | Error::Authentication(_))
            });
            // The chunk buffer is the one allocation that depends on the
            // message, bounded by the largest chunk of RFC 9580.
            if octet == 16 {
                assert!(peak >= chunk_size(16) as u64, "{peak}");
            }
        }
    }

    // SEIPD v1 (a real one: its prefix checks) re-declared as 4 GiB.
    let opts = EncryptOptions {
        profile: Profile::Rfc4880,
        s2k: S2kChoice::Iterated { count_octet: 0 },
        ..EncryptOptions::default()
    };
    let mut e = Encryptor::new(Vec::new(), &[PW], &opts).unwrap();
    e.write_all(&[0x42; 100]).unwrap();
    let v1 = e.finish().unwrap();
    let mut r = v1.as_slice();
    let h = read_header(&mut r).unwrap().unwrap();
    BodyReader::new(&mut r, h.len).skip_rest().unwrap();
    let at = v1.len() - r.len();
    let h = read_header(&mut r).unwrap().unwrap();
    assert_eq!(h.tag, tag::SEIPD);
    let mut m = v1[..at].to_vec();
    m.extend_from_slice(&[0xc0 | tag::SEIPD, 0xff]);
    m.extend_from_slice(&GIB4);
    m.extend_from_slice(r);
    check("SEIPD v1 of 4 GiB", &m, 0, truncated);
}

#[test]
fn huge_inner_packets_allocate_nothing_ahead() {
    // Inside a valid encryption: literal and compressed packets declaring
    // 4 GiB or maximal partial bodies, with only 100 octets behind them.
    for (name, ctb) in [("literal", 0xc0 | tag::LITERAL), ("compressed", 0xc0 | tag::COMPRESSED)] {
        for len in [&[0xff, 0xff, 0xff, 0xff, 0xff][..], &[0xfe][..]] {
            let mut inner = vec![ctb];
            inner.extend_from_slice(len);
            inner.extend_from_slice(if ctb & 0x3f == tag::LITERAL { b"b\xff" } else { b"\x00" });
            inner.extend_from_slice(&[0xcb; 100]);
            let m = message(12, &inner);
            check(&format!("{name} packet length {len:02x?}"), &m, 12, |e| {
                matches!(e, Error::Truncated(_) | Error::Malformed(_))
            });
        }
    }
}

#[test]
fn armor_with_enormous_lines_is_read_in_constant_memory() {
    const LINE: u64 = 16 << 20;
    let run = |name: &str, head: Vec<u8>, fill: u8, want: &dyn Fn(&Error) -> bool| {
        let input =
            || BufReader::with_capacity(64 << 10, io::Cursor::new(head.clone()).chain(io::repeat(fill).take(LINE)));
        let (r, peak) = measure(input, &DecryptOptions::default());
        let e = r.expect_err(name);
        assert!(want(&e), "{name}: {e}");
        // head.clone() lives inside the measurement too.
        assert!(peak <= bound(12) + head.len() as u64, "{name}: peak {peak}");
        eprintln!("{name}: {e}; peak {peak} octets (bound {})", bound(12));
    };
    // 16 MiB without a newline, before any BEGIN line.
    run("16 MiB preamble line", b"\n".to_vec(), b'A', &|e| matches!(e, Error::Malformed(_)));
    // A 16 MiB armor header line.
    run("16 MiB header line", b"-----BEGIN PGP MESSAGE-----\nComment: ".to_vec(), b'A', &|e| truncated(e));
    // A valid start (SKESK, SEIPD v2 declaring 4 GiB), then the body goes on
    // as one 16 MiB base64 line of zero octets: the first chunk fails.
    let mut bin = cheap_skesk();
    bin.extend_from_slice(&[0xc0 | tag::SEIPD, 0xff]);
    bin.extend_from_slice(&GIB4);
    bin.extend_from_slice(&header(12).encode());
    while !bin.len().is_multiple_of(3) {
        bin.push(0);
    }
    let mut w = ArmorWriter::new(Vec::new(), MESSAGE, false).unwrap();
    w.write_all(&bin).unwrap();
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    let body: String = text.lines().skip(2).take_while(|l| !l.starts_with('-')).collect();
    let mut joined = b"-----BEGIN PGP MESSAGE-----\n\n".to_vec();
    joined.extend_from_slice(body.as_bytes());
    run("one 16 MiB base64 line", joined, b'A', &|e| matches!(e, Error::Authentication(_)));
}

#[test]
fn zip_bomb_streams_in_constant_memory() {
    const MIB: usize = 64;
    let total = (MIB as u64) << 20;
    let mut lit_head = vec![0xc0 | tag::LITERAL, 0xff];
    lit_head.extend_from_slice(&(6 + total as u32).to_be_bytes());
    lit_head.extend_from_slice(&[b'b', 0, 0, 0, 0, 0]);
    let bomb = common::deflate_bomb(&lit_head, MIB);
    let mut inner = Vec::new();
    write_packet(&mut inner, tag::COMPRESSED, &[&[1u8][..], &bomb].concat()).unwrap();
    let m = message(12, &inner);
    eprintln!("zip bomb: {} octets of message for {total} octets of plaintext", m.len());
    assert!(m.len() < (total / 500) as usize);
    let t = std::time::Instant::now();
    let (r, peak) = measure(|| m.as_slice(), &DecryptOptions::default());
    assert_eq!(r.unwrap(), total, "all of it, streamed");
    assert!(peak <= bound(12), "zip bomb: peak {peak} > {}", bound(12));
    eprintln!("zip bomb: peak {peak} octets (bound {}), {:?}", bound(12), t.elapsed());

    // The same bomb declaring a 4 GiB literal: the stream ends first.
    let mut lit_head = vec![0xc0 | tag::LITERAL, 0xff];
    lit_head.extend_from_slice(&GIB4);
    lit_head.extend_from_slice(&[b'b', 0, 0, 0, 0, 0]);
    let mut inner = Vec::new();
    write_packet(&mut inner, tag::COMPRESSED, &[&[2u8][..], &zlib_wrap(&common::deflate_bomb(&lit_head, 8))].concat())
        .unwrap();
    // The ZLIB stream (with a dummy checksum) ends first: an error either way.
    check("zlib bomb with a 4 GiB literal", &message(12, &inner), 12, |e| {
        matches!(e, Error::Truncated(_) | Error::Malformed(_))
    });
}

/// Wraps a raw deflate stream as ZLIB (RFC 1950) with a dummy Adler-32:
/// the stream is cut off by the literal length long before it is checked.
fn zlib_wrap(deflate: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0xda];
    out.extend_from_slice(deflate);
    out.extend_from_slice(&[0, 0, 0, 0]);
    out
}

fn raw_skesk(s2k: S2k) -> Vec<u8> {
    let sk =
        Skesk::V6 { cipher: SymAlg::Aes128, aead: Mode::Ocb, s2k, iv: vec![1; 15], esk: vec![2; 16], tag: [3; 16] };
    let mut body = Vec::new();
    sk.write(&mut body);
    let mut out = Vec::new();
    write_packet(&mut out, tag::SKESK, &body).unwrap();
    // Something for the session key to open.
    out.extend_from_slice(&[0xc0 | tag::SEIPD, 36]);
    out.extend_from_slice(&header(12).encode());
    out
}

#[test]
fn argon2_memory_is_refused_before_it_is_allocated() {
    let argon = |m: u8| S2k::Argon2 { salt: [9; 16], t: 1, p: 1, m };
    for m in [22u8, 31, 32, 255] {
        check(&format!("Argon2 2^{m} KiB"), &raw_skesk(argon(m)), 12, |e| matches!(e, Error::LimitExceeded { .. }));
    }
    // A caller's lower limit applies the same way.
    let opts = DecryptOptions {
        limits: S2kLimits { max_argon2_m: 10, max_argon2_t: 2, ..S2kLimits::default() },
        ..DecryptOptions::default()
    };
    for s2k in [argon(11), S2k::Argon2 { salt: [9; 16], t: 3, p: 1, m: 3 }] {
        let m = raw_skesk(s2k.clone());
        let (r, peak) = measure(|| m.as_slice(), &opts);
        assert!(matches!(r, Err(Error::LimitExceeded { .. })), "{s2k:?}: {r:?}");
        assert!(peak < 64 << 10, "{s2k:?}: peak {peak}");
    }
    // Within the limit, Argon2 takes its 2^m KiB and nothing more.
    let m = raw_skesk(argon(10));
    let (r, peak) = measure(|| m.as_slice(), &opts);
    assert!(matches!(r, Err(Error::WrongPassword)), "{r:?}");
    assert!((1 << 20..=(1 << 20) + SLACK).contains(&peak), "Argon2 1 MiB: peak {peak}");
}

#[test]
fn largest_iterated_count_costs_time_not_memory() {
    // 65011712 octets hashed per SKESK under the default limits.
    let m = raw_skesk(S2k::Iterated { hash: HashAlg::Sha512, salt: [1; 8], count: 255 });
    let t = std::time::Instant::now();
    let (r, peak) = measure(|| m.as_slice(), &DecryptOptions::default());
    assert!(matches!(r, Err(Error::WrongPassword)), "{r:?}");
    assert!(peak < 64 << 10, "peak {peak}");
    eprintln!("iterated S2K, count octet 255 (SHA-512): {:?}, peak {peak} octets", t.elapsed());
    // A caller's lower limit refuses it before any hashing.
    let strict = DecryptOptions {
        limits: S2kLimits { max_iterated_count: 96, ..S2kLimits::default() },
        ..DecryptOptions::default()
    };
    let (r, _) = measure(|| m.as_slice(), &strict);
    assert!(matches!(r, Err(Error::LimitExceeded { .. })), "{r:?}");
}

#[test]
fn fpe_and_siv_at_their_largest_allocate_nothing() {
    let key = [5u8; 32];
    // Radix 65536 is left to `ff1_radix_65536_at_its_longest` below.
    for radix in [2u32, 10, 36, 256, 65_535] {
        let ciphers: [(&str, Box<dyn Fpe>); 3] = [
            ("FF1", Box::new(FF1::with_radix(&key, radix).unwrap())),
            ("FF3-1", Box::new(FF3_1::with_radix(&key, radix).unwrap())),
            ("FF3", Box::new(FF3::with_radix(&key, radix).unwrap())),
        ];
        for (name, c) in ciphers {
            let (min, max) = c.len_range();
            let tweak: &[u8] = if name == "FF3" { &[1; 8] } else { &[1; 7] };
            let mut x: Vec<u16> = (0..max).map(|i| (i as u32 * 7919 % radix) as u16).collect();
            let orig = x.clone();
            let ((), n) = common::count_allocs(|| {
                c.encrypt_numerals(tweak, &mut x).unwrap();
                c.decrypt_numerals(tweak, &mut x).unwrap();
                c.decrypt_numerals(tweak, &mut x[..min]).unwrap();
            });
            assert_eq!(n, 0, "{name} radix {radix} length {max}");
            assert_eq!(x[min..], orig[min..]);
        }
    }
    // Text at the longest FF1 length over digits, into a String with room.
    let ff1 = FF1::new(&key, Alphabet::digits()).unwrap();
    let max = ff1.len_range().1;
    let text: String = (0..max).map(|i| char::from(b'0' + (i % 10) as u8)).collect();
    let mut out = String::with_capacity(max);
    let ((), n) = common::count_allocs(|| {
        ff1.encrypt_into(b"t", &text, &mut out).unwrap();
        let ct = out.clone();
        ff1.decrypt_into(b"t", &ct, &mut out).unwrap();
        drop(ct);
    });
    assert_eq!(n, 1, "only the test's own clone");
    assert_eq!(out, text);

    // AES-SIV: the most components (126 with the nonce) and a 1 MiB message.
    let siv = AesSiv::new(&[6u8; 64]).unwrap();
    let comps: Vec<Vec<u8>> = (0..MAX_AD - 1).map(|i| vec![i as u8; i % 40]).collect();
    let ad: Vec<&[u8]> = comps.iter().map(|c| c.as_slice()).collect();
    let pt = vec![0x77u8; 1 << 20];
    let mut ct = vec![0u8; pt.len() + 16];
    let mut back = vec![0u8; pt.len()];
    let ((), n) = common::count_allocs(|| {
        siv.seal_into(Some(b"nonce"), &ad, &pt, &mut ct).unwrap();
        siv.open_into(Some(b"nonce"), &ad, &ct, &mut back).unwrap();
        ct[100] ^= 1;
        assert!(siv.open_into(Some(b"nonce"), &ad, &ct, &mut back).is_err());
    });
    assert_eq!(n, 0);
}

/// FF1 over radix 65536 accepts values up to 500 numerals; its big-number
/// path once held `MAX_V_BITS / 21 + 4` limbs, assuming every limb K =
/// radix^k holds at least 21 bits, and panicked past 388 numerals (K = 2^16
/// for this radix). Regression test, found by hardening_panics.
#[test]
fn ff1_radix_65536_at_its_longest() {
    let c = FF1::with_radix(&[5u8; 32], 65_536).unwrap();
    let (_, max) = c.len_range();
    assert_eq!(max, 500);
    for n in [388, 389, 400, max] {
        let mut x: Vec<u16> = (0..n).map(|i| (i * 7919) as u16).collect();
        let orig = x.clone();
        let ((), allocs) = common::count_allocs(|| {
            c.encrypt_numerals(b"t", &mut x).unwrap();
            c.decrypt_numerals(b"t", &mut x).unwrap();
        });
        assert_eq!(allocs, 0, "{n}");
        assert_eq!(x, orig, "{n}");
    }
}
