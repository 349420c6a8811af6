//! Streaming encryption and decryption: round trips around every chunk
//! boundary, tampering, truncation, reordering, wrong passwords, several
//! passwords, SEIPD v1, and allocations independent of the message size.

use crate::common;

use std::io::{Read, Write};

use tessera::aead::Mode;
use tessera::openpgp::packet::{BodyReader, read_header, tag};
use tessera::openpgp::seipd::{ChunkOpener, ChunkSealer, V2Header, chunk_size};
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error, Profile, S2kChoice, SymAlg};

const PW: &[u8] = b"correct horse battery staple";

fn cheap(profile: Profile, aead: Mode, cipher: SymAlg, chunk_octet: u8) -> EncryptOptions {
    EncryptOptions {
        profile,
        aead,
        cipher,
        chunk_octet,
        s2k: S2kChoice::Iterated { count_octet: 0 },
        ..EncryptOptions::default()
    }
}

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2654435761).rotate_left(7) as u8).collect()
}

fn encrypt(plain: &[u8], pws: &[&[u8]], opts: &EncryptOptions, piece: usize) -> Vec<u8> {
    let mut e = Encryptor::new(Vec::new(), pws, opts).unwrap();
    for p in plain.chunks(piece.max(1)) {
        e.write_all(p).unwrap();
    }
    e.finish().unwrap()
}

fn decrypt(msg: &[u8], pws: &[&[u8]]) -> Result<Vec<u8>, Error> {
    let mut d = Decryptor::new(msg, pws)?;
    let mut out = Vec::new();
    d.read_to_end(&mut out).map_err(Error::from_io)?;
    Ok(out)
}

#[test]
fn round_trips_around_chunk_boundaries() {
    for aead in [Mode::Ocb, Mode::Eax, Mode::Gcm] {
        for cipher in [SymAlg::Aes128, SymAlg::Aes192, SymAlg::Aes256] {
            let opts = cheap(Profile::Rfc9580, aead, cipher, 0);
            let c = chunk_size(0);
            for n in [0, 1, c - 16, c - 1, c, c + 1, 2 * c, 10 * c + 7, 511, 512, 513, 5000] {
                let plain = data(n);
                for piece in [1, 7, 64, 100_000] {
                    let msg = encrypt(&plain, &[PW], &opts, piece);
                    assert_eq!(decrypt(&msg, &[PW]).unwrap(), plain, "{aead:?} {cipher:?} n={n} piece={piece}");
                }
            }
        }
    }
}

/// The SEIPD v2 chunk layer alone, at exact chunk boundaries of its own
/// plaintext, for every chunk size octet up to 10 and both ways of writing
/// an empty message.
#[test]
fn chunk_layer_boundaries_and_empty_messages() {
    for octet in [0u8, 1, 4, 10] {
        let c = chunk_size(octet);
        let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: octet, salt: [5; 32] };
        let key = [9u8; 16];
        for n in [0, 1, c - 16, c - 1, c, c + 1, 3 * c, 3 * c + 1] {
            for empty_chunk in [true, false] {
                let plain = data(n);
                let mut s = ChunkSealer::new(Vec::new(), &header, &key).unwrap();
                s.empty_chunk_when_empty(empty_chunk);
                s.write_all(&plain).unwrap();
                let body = s.finish().unwrap();
                let chunks = n.div_ceil(c).max(usize::from(empty_chunk));
                assert_eq!(body.len(), n + 16 * chunks + 16, "n={n} octet={octet}");
                let mut o = ChunkOpener::new(body.as_slice(), &header, &key).unwrap();
                let mut back = Vec::new();
                o.read_to_end(&mut back).unwrap();
                assert_eq!(back, plain);
                // Cut anywhere: an error, never a short success.
                for cut in
                    [0, 1, 15, 16, 17, body.len().saturating_sub(17), body.len().saturating_sub(16), body.len() - 1]
                {
                    if cut >= body.len() {
                        continue;
                    }
                    let mut o = ChunkOpener::new(&body[..cut], &header, &key).unwrap();
                    let mut back = Vec::new();
                    assert!(o.read_to_end(&mut back).is_err(), "cut {cut} of {} (n={n})", body.len());
                }
            }
        }
    }
}

#[test]
fn reordered_or_dropped_chunks_fail() {
    let header = V2Header { cipher: SymAlg::Aes256, aead: Mode::Gcm, chunk_octet: 0, salt: [1; 32] };
    let key = [3u8; 32];
    let plain = data(64 * 4 + 10);
    let mut s = ChunkSealer::new(Vec::new(), &header, &key).unwrap();
    s.write_all(&plain).unwrap();
    let body = s.finish().unwrap();
    let sealed = 64 + 16;
    let mut swapped = body.clone();
    swapped[..sealed].copy_from_slice(&body[sealed..2 * sealed]);
    swapped[sealed..2 * sealed].copy_from_slice(&body[..sealed]);
    let mut dropped = body[..sealed].to_vec();
    dropped.extend_from_slice(&body[2 * sealed..]);
    // Swapped: the first chunk already fails; dropped: only chunk 0 (verified) comes out.
    for (bad, released) in [(swapped, 0), (dropped, 64)] {
        let mut o = ChunkOpener::new(bad.as_slice(), &header, &key).unwrap();
        let mut out = Vec::new();
        let e = Error::from_io(o.read_to_end(&mut out).unwrap_err());
        assert!(matches!(e, Error::Authentication(_)), "{e}");
        assert_eq!(out, plain[..released], "only verified chunks are released");
    }
}

#[test]
fn every_modified_byte_and_every_truncation_fails() {
    for profile in [Profile::Rfc9580, Profile::Rfc4880] {
        let opts = cheap(profile, Mode::Ocb, SymAlg::Aes128, 0);
        let plain = data(150);
        let msg = encrypt(&plain, &[PW], &opts, 1000);
        for i in 0..msg.len() {
            for bit in [0x01u8, 0x80] {
                let mut bad = msg.clone();
                bad[i] ^= bit;
                // The S2K count octet only changes the work factor, and so the key.
                let r = decrypt(&bad, &[PW]);
                assert!(r.is_err(), "{profile:?}: flipping bit {bit:#x} of byte {i} went unnoticed");
            }
        }
        for cut in 0..msg.len() {
            assert!(decrypt(&msg[..cut], &[PW]).is_err(), "{profile:?}: truncated to {cut}");
        }
    }
}

#[test]
fn wrong_passwords_and_several_passwords() {
    for profile in [Profile::Rfc9580, Profile::Rfc4880] {
        let opts = cheap(profile, Mode::Eax, SymAlg::Aes256, 2);
        let msg = encrypt(b"secret", &[b"one", b"two", b"three"], &opts, 10);
        for pw in [b"one".as_slice(), b"two", b"three"] {
            assert_eq!(decrypt(&msg, &[pw]).unwrap(), b"secret");
        }
        // SEIPD v1: a wrong password whose key passes the quick check (1 in
        // 65,536) is reported as a modified message: "nope" unless it does.
        let nope = |m: &[u8]| common::quick_check::failing_password(m, "nope");
        assert_eq!(decrypt(&msg, &[&nope(&msg), b"two"]).unwrap(), b"secret");
        assert!(matches!(decrypt(&msg, &[&nope(&msg)]), Err(Error::WrongPassword)), "{profile:?}");
        let single = encrypt(b"secret", &[b"one"], &opts, 10);
        let r = decrypt(&single, &[&nope(&single)]);
        assert!(matches!(r, Err(Error::WrongPassword)), "{profile:?}: {r:?}");
    }
}

/// Without the v1 quick check, a wrong password and a modified message end
/// in the same error (no oracle on the quick-check octets), and the right
/// password still decrypts.
#[test]
fn v1_without_quick_check_reports_one_error() {
    let opts = cheap(Profile::Rfc4880, Mode::Eax, SymAlg::Aes128, 2);
    let msg = encrypt(b"secret message", &[b"one"], &opts, 10);
    let no_qc = DecryptOptions { v1_quick_check: false, ..DecryptOptions::default() };
    let run = |m: &[u8], pw: &[u8]| -> Result<Vec<u8>, Error> {
        let mut d = Decryptor::with_options(m, &[pw], &no_qc)?;
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut d, &mut out).map_err(Error::from_io)?;
        Ok(out)
    };
    assert_eq!(run(&msg, b"one").unwrap(), b"secret message");
    let wrong = run(&msg, b"nope");
    let mut bad = msg.clone();
    let n = bad.len();
    bad[n - 5] ^= 0x40;
    let modified = run(&bad, b"one");
    assert!(matches!(wrong, Err(Error::Authentication(_))), "{wrong:?}");
    assert_eq!(format!("{:?}", wrong.unwrap_err()), format!("{:?}", modified.unwrap_err()));
}

#[test]
fn literal_metadata_armor_and_packet_layout() {
    let opts = EncryptOptions {
        armor: true,
        filename: b"report.txt".to_vec(),
        date: 1_700_000_000,
        ..cheap(Profile::Rfc9580, Mode::Ocb, SymAlg::Aes256, 12)
    };
    let plain = data(3000);
    let msg = encrypt(&plain, &[PW], &opts, 333);
    let text = std::str::from_utf8(&msg).unwrap();
    assert!(text.starts_with("-----BEGIN PGP MESSAGE-----\n"));
    assert!(text.ends_with("-----END PGP MESSAGE-----\n"));
    assert!(!text.lines().any(|l| l.starts_with('=')), "no CRC24 for v2");
    let mut d = Decryptor::new(msg.as_slice(), &[PW]).unwrap();
    let mut out = Vec::new();
    d.read_to_end(&mut out).unwrap();
    assert_eq!(out, plain);
    assert_eq!(d.literal().filename, b"report.txt");
    assert_eq!(d.literal().date, 1_700_000_000);

    // Binary layout: SKESK v6 then SEIPD v2 with the chosen parameters.
    let bin = encrypt(&plain, &[PW], &EncryptOptions { armor: false, ..opts }, 333);
    let mut r = bin.as_slice();
    let h = read_header(&mut r).unwrap().unwrap();
    assert_eq!(h.tag, tag::SKESK);
    BodyReader::new(&mut r, h.len).skip_rest().unwrap();
    let h = read_header(&mut r).unwrap().unwrap();
    assert_eq!(h.tag, tag::SEIPD);
    let mut head = [0u8; 4];
    BodyReader::new(&mut r, h.len).read_exact(&mut head).unwrap();
    assert_eq!(head, [2, 9, 2, 12]);
}

#[test]
fn v1_is_buffered_up_to_a_limit_unless_streaming_is_asked_for() {
    let opts = cheap(Profile::Rfc4880, Mode::Ocb, SymAlg::Aes128, 0);
    let plain = data(100_000);
    let msg = encrypt(&plain, &[PW], &opts, 4096);
    assert_eq!(decrypt(&msg, &[PW]).unwrap(), plain);
    let small = DecryptOptions { v1_buffer_limit: 50_000, ..DecryptOptions::default() };
    assert!(matches!(Decryptor::with_options(msg.as_slice(), &[PW], &small), Err(Error::LimitExceeded { .. })));
    let stream = DecryptOptions { v1_buffer_limit: 0, v1_stream_unauthenticated: true, ..DecryptOptions::default() };
    let mut d = Decryptor::with_options(msg.as_slice(), &[PW], &stream).unwrap();
    let mut out = Vec::new();
    d.read_to_end(&mut out).unwrap();
    assert_eq!(out, plain);
    // A modified byte near the end: streaming still ends in an error.
    let mut bad = msg.clone();
    let k = bad.len() - 30;
    bad[k] ^= 4;
    let mut d = Decryptor::with_options(bad.as_slice(), &[PW], &stream).unwrap();
    let e = Error::from_io(d.read_to_end(&mut Vec::new()).unwrap_err());
    assert!(matches!(e, Error::Authentication(_)), "{e}");
    assert!(decrypt(&bad, &[PW]).is_err());
}

#[test]
fn refuses_bad_options() {
    let o = EncryptOptions { chunk_octet: 17, ..EncryptOptions::default() };
    assert!(matches!(Encryptor::new(Vec::new(), &[PW], &o), Err(Error::InvalidOption(_))));
    assert!(matches!(Encryptor::new(Vec::new(), &[], &EncryptOptions::default()), Err(Error::InvalidOption(_))));
    let o = EncryptOptions { profile: Profile::Rfc4880, ..EncryptOptions::default() };
    assert!(matches!(Encryptor::new(Vec::new(), &[PW], &o), Err(Error::InvalidOption(_))));
    assert!(decrypt(b"", &[PW]).is_err());
    assert!(matches!(decrypt(b"\xcb\x05b\x00\x00\x00\x00", &[PW]), Err(Error::Unsupported(_))));
}

/// Writes `n` bytes through an encryptor into a sink, in 64 KiB pieces.
fn encrypt_to_sink(n: usize, opts: &EncryptOptions, piece: &[u8]) {
    let mut e = Encryptor::new(std::io::sink(), &[PW], opts).unwrap();
    let mut left = n;
    while left > 0 {
        let k = left.min(piece.len());
        e.write_all(&piece[..k]).unwrap();
        left -= k;
    }
    e.finish().unwrap();
}

fn decrypt_to_sink(msg: &[u8], threads: usize, buf: &mut [u8]) -> u64 {
    let opts = DecryptOptions { threads, ..DecryptOptions::default() };
    let mut d = Decryptor::with_options(msg, &[PW], &opts).unwrap();
    let mut total = 0u64;
    loop {
        let n = d.read(buf).unwrap();
        if n == 0 {
            return total;
        }
        total += n as u64;
    }
}

/// On one thread the count is exact and the same for 1 KiB and 64 MiB
/// (256 chunks). With worker threads it is not exact (a blocked channel
/// receive may register a waiter, depending on timing), but it must not
/// grow with the number of chunks either: 2 MiB (8 chunks, every buffer
/// and worker in use) and 64 MiB differ by a few allocations of slack.
/// A message of one chunk starts no worker: it allocates less.
#[test]
fn allocations_do_not_grow_with_the_message() {
    let piece = vec![0x5au8; 1 << 16];
    let mut buf = vec![0u8; 1 << 16];
    for threads in [1, 2] {
        let base = if threads == 1 { 1 << 10 } else { 2 << 20 };
        let same = |small: u64, large: u64, what: &str| {
            if threads == 1 {
                assert_eq!(small, large, "{what} allocations, one thread: 1 KiB {small}, 64 MiB {large}");
                assert!(small < 40, "{what}: {small} allocations");
            } else {
                assert!(large <= small + 8, "{what} allocations, {threads} threads: 2 MiB {small}, 64 MiB {large}");
                assert!(small < 80, "{what}: {small} allocations");
            }
        };
        for aead in [Mode::Ocb, Mode::Gcm] {
            let opts = EncryptOptions { threads, ..cheap(Profile::Rfc9580, aead, SymAlg::Aes256, 12) };
            let ((), enc_one_chunk) = common::count_allocs(|| encrypt_to_sink(1 << 10, &opts, &piece));
            let ((), enc_small) = common::count_allocs(|| encrypt_to_sink(base, &opts, &piece));
            let ((), enc_large) = common::count_allocs(|| encrypt_to_sink(64 << 20, &opts, &piece));
            same(enc_small, enc_large, &format!("{aead:?} encrypt"));
            assert!(enc_one_chunk <= enc_small, "{aead:?}: one chunk {enc_one_chunk}, many {enc_small}");

            let one_chunk = encrypt(&vec![1u8; 1 << 10], &[PW], &opts, 1 << 16);
            let (_, dec_one_chunk) = common::count_allocs(|| decrypt_to_sink(&one_chunk, threads, &mut buf));
            let small = encrypt(&vec![1u8; base], &[PW], &opts, 1 << 16);
            let large = encrypt(&vec![1u8; 64 << 20], &[PW], &opts, 1 << 16);
            let (n1, dec_small) = common::count_allocs(|| decrypt_to_sink(&small, threads, &mut buf));
            let (n2, dec_large) = common::count_allocs(|| decrypt_to_sink(&large, threads, &mut buf));
            assert_eq!((n1, n2), (base as u64, 64 << 20));
            same(dec_small, dec_large, &format!("{aead:?} decrypt"));
            assert!(dec_one_chunk <= dec_small, "{aead:?}: one chunk {dec_one_chunk}, many {dec_small}");
        }
    }
}
