//! OpenPGP decryption under hostile messages and readers:
//!
//! - v1 streamed: every failure before the MDC verifies is the same error;
//! - SKESK/SEIPD version pairing and every candidate key tried;
//! - S2K limits per packet and for the whole message, named in the error;
//! - the decompressed size limit;
//! - `ChunkOpener` and the other readers after an error (no panic, no lost
//!   octets; retried or the same error again).
//!
//! The adversarial `Read`/`Write` property tests are in `hardening_io.rs`.

use crate::common;

use std::io::{self, Read, Write};

use tessera::aead::Mode;
use tessera::openpgp::SessionKey;
use tessera::openpgp::packet::{PartialWriter, tag, write_packet};
use tessera::openpgp::s2k::{HashAlg, S2k, S2kLimits};
use tessera::openpgp::seipd::{ChunkOpener, ChunkSealer, MdcSealer, V2Header};
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error, Profile, S2kChoice, SymAlg};

const KEY: [u8; 16] = [7; 16];

fn read_all(msg: &[u8], pw: &[&[u8]], opts: &DecryptOptions) -> Result<Vec<u8>, Error> {
    let mut d = Decryptor::with_options(msg, pw, opts)?;
    let mut out = Vec::new();
    d.read_to_end(&mut out).map_err(Error::from_io)?;
    Ok(out)
}

fn with_key(stream: bool, quick_check: bool) -> DecryptOptions {
    DecryptOptions {
        session_key: Some(SessionKey { alg: Some(SymAlg::Aes128), key: KEY.to_vec().into() }),
        v1_stream_unauthenticated: stream,
        v1_quick_check: quick_check,
        ..DecryptOptions::default()
    }
}

/// A SEIPD v1 packet (fixed length) holding `inner` under `KEY`.
fn seipd_v1(inner: &[u8]) -> Vec<u8> {
    let mut body = vec![1u8];
    let mut s = MdcSealer::new(&mut body, &KEY).unwrap();
    s.write_all(inner).unwrap();
    s.finish().unwrap();
    let mut out = Vec::new();
    write_packet(&mut out, tag::SEIPD, &body).unwrap();
    out
}

fn literal(data: &[u8]) -> Vec<u8> {
    let mut body = vec![b'b', 0, 0, 0, 0, 0];
    body.extend_from_slice(data);
    let mut out = Vec::new();
    write_packet(&mut out, tag::LITERAL, &body).unwrap();
    out
}

/// Offset of the SEIPD body's first octet after the version octet (the
/// header of a body over 8383 octets is 1 + 5 octets).
const V1_DATA: usize = 6 + 1;

// ---------------------------------------------------------------- finding 1

#[test]
fn v1_streamed_failures_are_one_error_until_the_mdc_verifies() {
    let plain: Vec<u8> = (0..200_000u32).map(|i| (i * 7) as u8).collect();
    let msg = seipd_v1(&literal(&plain));
    for quick_check in [true, false] {
        let opts = with_key(true, quick_check);
        assert_eq!(read_all(&msg, &[], &opts).unwrap(), plain);
        // Flips in the encrypted packet headers (after the 18-octet prefix)
        // turn them into anything: "not a packet", a compressed packet with
        // an unknown algorithm, a short literal... The error is always the
        // MDC's, the same message.
        let mut errors = std::collections::BTreeSet::new();
        for at in (V1_DATA + 18..V1_DATA + 18 + 12).chain([V1_DATA + 30_000, msg.len() - 30]) {
            for bit in 0..8 {
                let mut bad = msg.clone();
                bad[at] ^= 1 << bit;
                let e = read_all(&bad, &[], &opts).unwrap_err();
                assert!(matches!(e, Error::Authentication("MDC")), "flip at {at} bit {bit}: {e:?}");
                errors.insert(e.to_string());
            }
        }
        assert_eq!(errors.len(), 1, "{errors:?}");
    }
}

#[test]
fn v1_streamed_errors_inside_an_authentic_message_are_reported() {
    // The MDC verifies: the error inside is the message's own, reported as is.
    let not_packets = seipd_v1(&[0x01; 100_000]);
    let e = read_all(&not_packets, &[], &with_key(true, false)).unwrap_err();
    assert!(matches!(e, Error::Malformed(m) if m.contains("not an OpenPGP packet")), "{e:?}");
    let mut bzip2 = Vec::new();
    write_packet(&mut bzip2, tag::COMPRESSED, &[3; 70_000]).unwrap();
    let e = read_all(&seipd_v1(&bzip2), &[], &with_key(true, true)).unwrap_err();
    assert!(matches!(e, Error::Unsupported(m) if m.contains("BZip2")), "{e:?}");
    // Trailing garbage after the literal data, in an authentic message.
    let mut two = literal(&[5; 70_000]);
    two.extend_from_slice(&[0xff; 10]);
    let e = read_all(&seipd_v1(&two), &[], &with_key(true, true)).unwrap_err();
    assert!(matches!(e, Error::Malformed(_)), "{e:?}");
}

// ---------------------------------------------------------------- finding 7

fn iterated() -> S2k {
    S2k::Iterated { hash: HashAlg::Sha256, salt: [3; 8], count: 0 }
}

#[test]
fn a_v4_skesk_before_seipd_v2_is_refused() {
    // SKESK v4 without an encrypted key: the S2K output is the session key.
    let skesk = Skesk::V4 { cipher: SymAlg::Aes128, s2k: iterated(), esk: None };
    let session_key = iterated().derive(b"pw", 16, &S2kLimits::default()).unwrap();
    let mut msg = Vec::new();
    let mut body = Vec::new();
    skesk.write(&mut body);
    write_packet(&mut msg, tag::SKESK, &body).unwrap();
    let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: 0, salt: [1; 32] };
    let mut seipd = PartialWriter::new(&mut msg, tag::SEIPD);
    seipd.write_all(&header.encode()).unwrap();
    let mut sealer = ChunkSealer::new(seipd, &header, &session_key).unwrap();
    sealer.write_all(&literal(b"hello")).unwrap();
    sealer.finish().unwrap().finish().unwrap();
    let e = read_all(&msg, &[b"pw"], &DecryptOptions::default()).unwrap_err();
    assert!(matches!(e, Error::Malformed(m) if m.contains("RFC 9580 §5.3")), "{e:?}");
}

#[test]
fn a_v6_skesk_before_seipd_v1_is_refused() {
    let v2 = encrypt(b"x", &[b"pw"], Profile::Rfc9580);
    let v1 = encrypt(b"x", &[b"pw"], Profile::Rfc4880);
    // The v6 SKESK of one message in front of the other's SEIPD v1.
    let skesk_end = 2 + v2[1] as usize;
    let v1_skesk_end = 2 + v1[1] as usize;
    let mut mixed = v2[..skesk_end].to_vec();
    mixed.extend_from_slice(&v1[v1_skesk_end..]);
    let e = read_all(&mixed, &[b"pw"], &DecryptOptions::default()).unwrap_err();
    assert!(matches!(e, Error::Malformed(m) if m.contains("RFC 9580 §5.3")), "{e:?}");
}

fn encrypt(plain: &[u8], pw: &[&[u8]], profile: Profile) -> Vec<u8> {
    let opts = EncryptOptions { profile, s2k: S2kChoice::Iterated { count_octet: 0 }, ..EncryptOptions::default() };
    let mut e = Encryptor::new(Vec::new(), pw, &opts).unwrap();
    e.write_all(plain).unwrap();
    e.finish().unwrap()
}

#[test]
fn every_candidate_key_is_tried_in_any_order() {
    for profile in [Profile::Rfc9580, Profile::Rfc4880] {
        // One password (v4: the S2K output is the key, so any password gives
        // a candidate) and two (each wraps the session key).
        for written in [&[b"right".as_slice()][..], &[b"other", b"right"]] {
            let msg = encrypt(b"secret", written, profile);
            // v1 streamed: a wrong password whose key passes the quick check
            // (1 in 65,536) is used and the right one after it is not tried,
            // as documented (buffered, each key that passes is tried).
            let wrong = common::quick_check::failing_password(&msg, "wrong");
            for quick_check in [true, false] {
                for stream in [false, true] {
                    let opts = DecryptOptions {
                        v1_quick_check: quick_check,
                        v1_stream_unauthenticated: stream,
                        ..DecryptOptions::default()
                    };
                    for order in [[b"right".as_slice(), &wrong], [&wrong, b"right"]] {
                        let got = read_all(&msg, &order, &opts);
                        assert_eq!(got.unwrap(), b"secret", "{profile:?} {written:?} qc={quick_check} {order:?}");
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------- finding 2

fn v6_message(skesks: usize, s2k: S2k) -> Vec<u8> {
    let mut msg = Vec::new();
    for i in 0..skesks {
        let sk = Skesk::seal_v6(&[i as u8; 16], b"other", SymAlg::Aes128, Mode::Ocb, s2k.clone(), &[0; 15]).unwrap();
        let mut body = Vec::new();
        sk.write(&mut body);
        write_packet(&mut msg, tag::SKESK, &body).unwrap();
    }
    write_packet(&mut msg, tag::SEIPD, &[2; 40]).unwrap();
    msg
}

#[test]
fn s2k_work_is_limited_for_the_whole_message() {
    let argon = S2k::Argon2 { salt: [1; 16], t: 1, p: 1, m: 10 };
    assert_eq!(argon.work_kib(16), 1024);
    let msg = v6_message(10, argon);
    let limits = S2kLimits { max_work_kib: 3000, ..S2kLimits::default() };
    let opts = DecryptOptions { limits, ..DecryptOptions::default() };
    // Two packets fit, the third would pass the budget: refused, named.
    let e = read_all(&msg, &[b"pw"], &opts).unwrap_err();
    assert!(
        matches!(e, Error::LimitExceeded { limit, asked: 3072, allowed: 3000 } if limit.starts_with("max_work_kib")),
        "{e:?}"
    );
    assert!(e.to_string().contains("max_work_kib"), "{e}");
    // Every password counts against the same budget: 2 x 2 packets > 3.
    let small = v6_message(2, S2k::Argon2 { salt: [1; 16], t: 1, p: 1, m: 10 });
    let e = read_all(&small, &[b"a", b"b"], &opts).unwrap_err();
    assert!(matches!(e, Error::LimitExceeded { .. }), "{e:?}");
    let e = read_all(&small, &[b"a"], &opts).unwrap_err();
    assert!(matches!(e, Error::WrongPassword), "{e:?}");
}

#[test]
fn argon2_lanes_and_passes_are_limited_per_packet() {
    let opts = DecryptOptions {
        limits: S2kLimits { max_argon2_p: 2, max_argon2_t: 2, ..S2kLimits::default() },
        ..DecryptOptions::default()
    };
    for (s2k, name) in [
        (S2k::Argon2 { salt: [1; 16], t: 1, p: 3, m: 10 }, "max_argon2_p"),
        (S2k::Argon2 { salt: [1; 16], t: 3, p: 1, m: 10 }, "max_argon2_t"),
        (S2k::Argon2 { salt: [1; 16], t: 1, p: 1, m: 19 }, "max_argon2_m"),
    ] {
        let e = read_all(&v6_message(1, s2k), &[b"pw"], &opts).unwrap_err();
        assert!(matches!(e, Error::LimitExceeded { limit, .. } if limit.starts_with(name)), "{name}: {e:?}");
    }
}

// ---------------------------------------------------------------- finding 9

fn zlib_message(zeros: usize) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(vec![2u8], flate2::Compression::best());
    z.write_all(&literal(&vec![0; zeros])).unwrap();
    let body = z.finish().unwrap();
    let mut inner = Vec::new();
    write_packet(&mut inner, tag::COMPRESSED, &body).unwrap();
    seipd_v1(&inner)
}

#[test]
fn decompressed_size_is_limited() {
    let msg = zlib_message(1 << 20);
    assert!(msg.len() < 4096);
    for stream in [false, true] {
        let mut opts = with_key(stream, true);
        assert_eq!(read_all(&msg, &[], &opts).unwrap().len(), 1 << 20);
        opts.max_decompressed_size = Some(100_000);
        let e = read_all(&msg, &[], &opts).unwrap_err();
        assert!(
            matches!(e, Error::LimitExceeded { limit, allowed: 100_000, .. } if limit.starts_with("max_decompressed_size")),
            "{e:?}"
        );
    }
}

// ---------------------------------------------------------------- finding 4

/// Hands out `data` in pieces of `piece` octets, failing with `kind` on
/// every `every`-th read once `quiet` octets have been handed out, until
/// fewer than `TAIL` remain (the packets after the encrypted data are read
/// at its end, where an input error is final).
struct Flaky<'a> {
    data: &'a [u8],
    piece: usize,
    every: usize,
    kind: io::ErrorKind,
    calls: usize,
    quiet: usize,
}

const TAIL: usize = 100;

impl Read for Flaky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(self.every) && self.quiet == 0 && self.data.len() > TAIL {
            return Err(io::Error::new(self.kind, "flaky"));
        }
        let n = self.piece.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.quiet = self.quiet.saturating_sub(n);
        Ok(n)
    }
}

fn v2_body(plain: &[u8], header: &V2Header) -> Vec<u8> {
    let mut s = ChunkSealer::new(Vec::new(), header, &KEY).unwrap();
    s.write_all(plain).unwrap();
    s.finish().unwrap()
}

#[test]
fn chunk_opener_resumes_after_would_block_and_interrupted() {
    let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Gcm, chunk_octet: 0, salt: [4; 32] };
    let plain: Vec<u8> = (0..1000u32).map(|i| i as u8).collect();
    let body = v2_body(&plain, &header);
    for kind in [io::ErrorKind::WouldBlock, io::ErrorKind::Interrupted, io::ErrorKind::Other] {
        for (piece, every) in [(1, 2), (7, 3), (100, 2), (5000, 2)] {
            let r = Flaky { data: &body, piece, every, kind, calls: 0, quiet: 0 };
            let mut o = ChunkOpener::new(r, &header, &KEY).unwrap();
            let mut out = Vec::new();
            let mut buf = [0u8; 33];
            loop {
                match o.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                    Err(e) => assert_eq!(e.kind(), kind),
                }
            }
            assert_eq!(out, plain, "{kind:?} piece {piece} every {every}");
        }
    }
}

#[test]
fn chunk_opener_fails_again_with_the_same_error_after_truncation() {
    let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: 0, salt: [4; 32] };
    let body = v2_body(&[9; 300], &header);
    for cut in [0, 5, 17, 20, 64 + 16, 64 + 20, body.len() - 1] {
        let mut o = ChunkOpener::new(&body[..cut], &header, &KEY).unwrap();
        let mut buf = [0u8; 1000];
        let mut first = None;
        for _ in 0..12 {
            match o.read(&mut buf) {
                Ok(n) => assert!(n > 0 && first.is_none(), "cut {cut}: Ok({n}) after {first:?}"),
                Err(e) => {
                    let e = Error::from_io(e).to_string();
                    assert_eq!(first.get_or_insert_with(|| e.clone()), &e, "cut {cut}");
                }
            }
        }
        assert!(first.is_some(), "cut {cut}");
    }
}

#[test]
fn decryptor_after_an_input_error_continues_or_repeats_it() {
    for profile in [Profile::Rfc9580, Profile::Rfc4880] {
        let plain: Vec<u8> = (0..300_000u32).map(|i| (i / 3) as u8).collect();
        let eopts = EncryptOptions {
            profile,
            chunk_octet: 4,
            s2k: S2kChoice::Iterated { count_octet: 0 },
            ..EncryptOptions::default()
        };
        let mut e = Encryptor::new(Vec::new(), &[b"pw"], &eopts).unwrap();
        e.write_all(&plain).unwrap();
        let msg = e.finish().unwrap();
        for stream in [false, true] {
            let opts = DecryptOptions { v1_stream_unauthenticated: stream, ..DecryptOptions::default() };
            // WouldBlock on every third read of the input once the
            // constructor has what it needs: the output is whole.
            let kind = io::ErrorKind::WouldBlock;
            // (A buffered v1 message is read whole by the constructor.)
            let quiet = if profile == Profile::Rfc4880 && !stream { msg.len() + 1 } else { 100_000 };
            let r = Flaky { data: &msg, piece: 4000, every: 3, kind, calls: 0, quiet };
            let mut d = Decryptor::with_options(io::BufReader::with_capacity(1000, r), &[b"pw"], &opts)
                .unwrap_or_else(|e| panic!("{profile:?} stream={stream}: {e:?}"));
            let mut out = Vec::new();
            let mut buf = vec![0u8; 9000];
            loop {
                match d.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                    Err(e) => assert_eq!(e.kind(), io::ErrorKind::WouldBlock, "{e}"),
                }
            }
            assert_eq!(out, plain, "{profile:?} stream={stream}");
        }
    }
}
