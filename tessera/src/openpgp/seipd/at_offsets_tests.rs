//! [`crate::openpgp::Decryptor::from_file`]: a SEIPD v2 body read at
//! offsets by the chunk workers gives what the stream reader gives, for
//! every framing, size and thread count, and fails where it fails.

use std::io::{Cursor, Read, Seek, SeekFrom, Write};

use super::par_open::AT_OFFSETS;
use super::pieces::tests::{Piece, frame};
use crate::openpgp::packet::{BodyReader, read_header, tag};
use crate::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, S2kChoice};

const PW: &[u8] = b"offsets";

fn encrypt(data: &[u8], chunk_octet: u8) -> Vec<u8> {
    let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 0 }, chunk_octet, ..EncryptOptions::default() };
    let mut enc = Encryptor::new(Vec::new(), &[PW], &opts).unwrap();
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// How a test frames the SEIPD body: `None` keeps the encoder's.
type Framing = fn(usize) -> Option<Vec<Piece>>;

fn native(_: usize) -> Option<Vec<Piece>> {
    None
}

/// One piece of a fixed length.
fn fixed(_: usize) -> Option<Vec<Piece>> {
    Some(vec![Piece::Final { octets: 5 }])
}

/// Pieces of 2^first then of 2^then: with `then` small, a chunk spans more
/// runs than a job names.
fn pieces_of(len: usize, first: u32, then: u32) -> Vec<Piece> {
    let mut p = Vec::new();
    let mut rest = len;
    if rest >= 1 << first {
        p.push(Piece::Partial(first));
        rest -= 1 << first;
        while rest >= 1 << then {
            p.push(Piece::Partial(then));
            rest -= 1 << then;
        }
    }
    p.push(Piece::Final { octets: 5 });
    p
}

fn large_then_small(len: usize) -> Option<Vec<Piece>> {
    Some(pieces_of(len, 16, 9))
}

fn small_first(len: usize) -> Option<Vec<Piece>> {
    Some(pieces_of(len, 9, 16))
}

/// Two chunks' worth at offsets, then too fragmented: a stream.
fn large_then_one_octet(len: usize) -> Option<Vec<Piece>> {
    Some(pieces_of(len, 17, 0))
}

/// Too fragmented from the first chunk on: a stream throughout.
fn one_octet_early(len: usize) -> Option<Vec<Piece>> {
    Some(pieces_of(len, 16, 0))
}

/// `msg` with its SEIPD packet's body framed by `framing`; and where the
/// SEIPD packet starts.
fn reframe(msg: &[u8], framing: Framing) -> (Vec<u8>, usize) {
    let mut r = Cursor::new(msg);
    let mut out = Vec::new();
    loop {
        let start = r.position() as usize;
        let h = read_header(&mut r).unwrap().expect("a SEIPD packet");
        let mut body = Vec::new();
        BodyReader::new(&mut r, h.len).read_to_end(&mut body).unwrap();
        if h.tag != tag::SEIPD {
            out.extend_from_slice(&msg[start..r.position() as usize]);
            continue;
        }
        let Some(pieces) = framing(body.len()) else { return (msg.to_vec(), start) };
        out.push(0xC0 | tag::SEIPD);
        out.extend_from_slice(&frame(&body, &pieces));
        return (out, start);
    }
}

fn file_of(skip: usize, data: &[u8]) -> std::fs::File {
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(&vec![0x55; skip]).unwrap();
    f.write_all(data).unwrap();
    f.seek(SeekFrom::Start(skip as u64)).unwrap();
    f
}

/// What a decryptor released, in reads of 4096 octets, and the error that
/// ended it, if any.
fn released(dec: crate::openpgp::Result<Decryptor<'_>>) -> (Vec<u8>, Option<String>) {
    let mut dec = match dec {
        Ok(d) => d,
        Err(e) => return (Vec::new(), Some(e.to_string())),
    };
    let (mut out, mut buf) = (Vec::new(), vec![0u8; 4096]);
    loop {
        match dec.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some(e.to_string())),
        }
    }
}

fn file_released(f: &std::fs::File, threads: usize) -> (Vec<u8>, Option<String>) {
    released(Decryptor::from_file(f, &[PW], &DecryptOptions { threads, ..DecryptOptions::default() }))
}

fn stream_released(msg: &[u8], threads: usize) -> (Vec<u8>, Option<String>) {
    released(Decryptor::with_options(msg, &[PW], &DecryptOptions { threads, ..DecryptOptions::default() }))
}

fn from_file(f: &std::fs::File, threads: usize) -> Result<Vec<u8>, String> {
    match file_released(f, threads) {
        (out, None) => Ok(out),
        (_, Some(e)) => Err(e),
    }
}

fn from_stream(msg: &[u8]) -> Result<Vec<u8>, String> {
    match stream_released(msg, 1) {
        (out, None) => Ok(out),
        (_, Some(e)) => Err(e),
    }
}

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 253) as u8 ^ (i >> 8) as u8).collect()
}

#[test]
fn every_framing_size_and_thread_count_reads_the_plaintext() {
    let framings: [(&str, Framing); 6] = [
        ("native", native),
        ("fixed", fixed),
        ("large then small", large_then_small),
        ("small first", small_first),
        ("large then one octet", large_then_one_octet),
        ("one octet early", one_octet_early),
    ];
    let chunk = 1 << 16;
    for n in [0, 1, 100_000, 3 * chunk, 3 * chunk + 5, 3 * chunk - 1, 1 << 20] {
        let plain = data(n);
        let msg = encrypt(&plain, 10);
        for (name, framing) in framings {
            if name.contains("one octet") && n > 200_000 {
                continue;
            }
            let (framed, _) = reframe(&msg, framing);
            assert_eq!(from_stream(&framed).unwrap(), plain, "{name}, {n} octets, stream");
            for threads in [1, 2, 3] {
                let f = file_of(9, &framed);
                AT_OFFSETS.set(0);
                assert_eq!(from_file(&f, threads).unwrap(), plain, "{name}, {n} octets, {threads} threads");
                // At offsets with chunk workers, unless the body's pieces are small.
                let small = ["small first", "one octet early"].contains(&name);
                let expected = threads > 1 && (n < 1000 || !small);
                assert_eq!(AT_OFFSETS.get() > 0, expected, "{name}, {n} octets, {threads} threads: at offsets");
                // Left where the message ends.
                assert_eq!((&f).stream_position().unwrap(), (9 + framed.len()) as u64);
            }
        }
    }
}

#[test]
fn a_cut_changed_or_extended_file_fails_as_the_stream_does() {
    let chunk = 1 << 16;
    let plain = data(3 * chunk + 5);
    for framing in [native as Framing, large_then_small] {
        let (msg, seipd) = reframe(&encrypt(&plain, 10), framing);
        let mut cases: Vec<Vec<u8>> = Vec::new();
        let mut cuts: Vec<usize> = (seipd..msg.len()).step_by(4999).collect();
        cuts.extend([seipd + 1, seipd + 2, seipd + 40, msg.len() - 17, msg.len() - 16, msg.len() - 1]);
        cases.extend(cuts.iter().map(|&cut| msg[..cut].to_vec()));
        cases.push([&msg[..], b"trailing"].concat());
        // A chunk changed, then the file cut after it: the chunk's error.
        let mut bad = msg[..msg.len() - chunk].to_vec();
        bad[seipd + chunk + 100] ^= 1;
        cases.push(bad);
        for (i, case) in cases.iter().enumerate() {
            for threads in [2, 3] {
                let stream = stream_released(case, threads);
                assert!(stream.1.is_some(), "case {i}: the stream read it whole");
                // The same octets released before the same error.
                let file = file_released(&file_of(0, case), threads);
                assert!(file == stream, "case {i}, {threads} threads: {:?} against {:?}", (file.0.len(), &file.1), (stream.0.len(), &stream.1));
            }
        }
    }
}

#[test]
fn every_bit_flip_of_the_encrypted_packet_is_rejected() {
    let plain = data(150);
    // 64-octet chunks: three chunks and the final tag, read at offsets.
    let (msg, seipd) = reframe(&encrypt(&plain, 0), fixed);
    assert_eq!(from_file(&file_of(0, &msg), 2).unwrap(), plain);
    for i in seipd..msg.len() {
        for bit in 0..8 {
            let mut bad = msg.clone();
            bad[i] ^= 1 << bit;
            let got = from_file(&file_of(0, &bad), 2);
            assert!(got.is_err(), "octet {i} bit {bit} flipped: accepted");
        }
    }
}
