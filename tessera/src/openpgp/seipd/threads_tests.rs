//! The threaded chunk paths against the one-thread ones: same bytes, same
//! rejections, nothing released that did not verify.

use std::io::{Read, Write};

use super::ParSealer;
use crate::openpgp::seipd::{ChunkSource, ParOpener};
use crate::TAG_LEN;
use crate::aead::Mode;
use crate::openpgp::SymAlg;
use crate::openpgp::seipd::{ChunkOpener, ChunkSealer, V2Header, chunk_size};

const KEY: [u8; 16] = [7; 16];

fn header(aead: Mode, chunk_octet: u8) -> V2Header {
    V2Header { cipher: SymAlg::Aes128, aead, chunk_octet, salt: [9; 32] }
}

fn plain(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + i / 7) as u8).collect()
}

/// Writes `data` in pieces of `piece` octets.
fn feed(w: &mut impl Write, data: &[u8], piece: usize) {
    for p in data.chunks(piece.max(1)) {
        w.write_all(p).unwrap();
    }
}

fn seal(h: &V2Header, data: &[u8], threads: usize, piece: usize) -> Vec<u8> {
    if threads == 1 {
        let mut s = ChunkSealer::new(Vec::new(), h, &KEY).unwrap();
        feed(&mut s, data, piece);
        return s.finish().unwrap();
    }
    let mut s = ParSealer::new(Vec::new(), h, &KEY, threads).unwrap();
    feed(&mut s, data, piece);
    s.finish().unwrap()
}

/// Reads with `threads` in reads of `piece` octets: what was released,
/// and the error that ended it (if any).
fn open<'a>(h: &V2Header, ct: impl ChunkSource + 'a, threads: usize, piece: usize) -> (Vec<u8>, Option<std::io::Error>) {
    let mut r: Box<dyn Read + 'a> = if threads == 1 {
        Box::new(ChunkOpener::new(ct, h, &KEY).unwrap())
    } else {
        Box::new(ParOpener::new(ct, h, &KEY, threads).unwrap())
    };
    let mut out = Vec::new();
    let mut buf = vec![0u8; piece];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some(e)),
        }
    }
}

#[test]
fn same_bytes_for_one_two_and_four_threads() {
    for aead in [Mode::Ocb, Mode::Gcm, Mode::Eax] {
        for octet in [0u8, 4] {
            let h = header(aead, octet);
            let c = chunk_size(octet);
            for n in [0, 1, c - 1, c, c + 1, 5 * c, 5 * c + 7, 40 * c + 3] {
                let data = plain(n);
                let one = seal(&h, &data, 1, 1000);
                for threads in [2, 4] {
                    for piece in [1, 13, c, 4096] {
                        assert_eq!(seal(&h, &data, threads, piece), one, "{aead:?} c={c} n={n} t={threads}");
                    }
                    for piece in [1, 100, 8192] {
                        let (out, err) = open(&h, &one[..], threads, piece);
                        assert!(err.is_none(), "{aead:?} n={n} t={threads}: {err:?}");
                        assert_eq!(out, data);
                    }
                }
            }
        }
    }
}

/// Plaintext released before an error must be whole chunks that come
/// before the damaged one.
fn released_only_verified(h: &V2Header, data: &[u8], out: &[u8], first_bad: usize) {
    let c = chunk_size(h.chunk_octet);
    assert_eq!(out, &data[..out.len()], "released plaintext differs");
    assert_eq!(out.len() % c, 0, "a partial chunk was released");
    let chunk_of_bad = first_bad / (c + TAG_LEN);
    assert!(out.len() <= chunk_of_bad * c, "plaintext from or after the damaged chunk was released");
}

#[test]
fn every_bit_flip_is_rejected() {
    let h = header(Mode::Ocb, 0);
    let data = plain(3 * 64 + 20);
    let ct = seal(&h, &data, 1, 64);
    for threads in [2, 3] {
        for pos in 0..ct.len() {
            for bit in 0..8 {
                let mut bad = ct.clone();
                bad[pos] ^= 1 << bit;
                let (out, err) = open(&h, &bad[..], threads, 50);
                assert!(err.is_some(), "flip at {pos}.{bit} accepted with {threads} threads");
                released_only_verified(&h, &data, &out, pos);
            }
        }
    }
}

#[test]
fn truncation_and_extension_are_detected() {
    let h = header(Mode::Gcm, 0);
    let data = plain(4 * 64);
    let ct = seal(&h, &data, 1, 64);
    for threads in [2, 4] {
        for len in 0..ct.len() {
            let (out, err) = open(&h, &ct[..len], threads, 64);
            assert!(err.is_some(), "cut at {len} accepted with {threads} threads");
            released_only_verified(&h, &data, &out, len);
        }
        let mut longer = ct.clone();
        longer.extend_from_slice(&[0; 17]);
        assert!(open(&h, &longer[..], threads, 64).1.is_some());
    }
}

#[test]
fn an_error_is_final() {
    let h = header(Mode::Eax, 0);
    let mut ct = seal(&h, &plain(10 * 64), 1, 64);
    ct[3 * (64 + TAG_LEN) + 5] ^= 1;
    let mut r = ParOpener::new(ct.as_slice(), &h, &KEY, 2).unwrap();
    let mut sink = Vec::new();
    let first = r.read_to_end(&mut sink).unwrap_err().to_string();
    assert_eq!(sink.len(), 3 * 64);
    let mut buf = [0u8; 64];
    assert_eq!(r.read(&mut buf).unwrap_err().to_string(), first);
}

/// The octets of `data`, then a read error (a packet's framing broken there).
struct BreaksAfter<'a>(&'a [u8]);

impl ChunkSource for BreaksAfter<'_> {}

impl Read for BreaksAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "framing broken"));
        }
        let n = self.0.read(buf)?;
        Ok(n)
    }
}

#[test]
fn a_read_error_comes_after_the_same_verified_chunks_at_any_thread_count() {
    let h = header(Mode::Ocb, 0);
    let data = plain(9 * 64 + 5);
    let ct = seal(&h, &data, 1, 64);
    for len in 0..=ct.len() {
        let (one, err) = open(&h, BreaksAfter(&ct[..len]), 1, 64);
        assert_eq!(err.unwrap().to_string(), "framing broken", "cut at {len}");
        for threads in [2, 4] {
            let (many, err) = open(&h, BreaksAfter(&ct[..len]), threads, 64);
            assert_eq!(err.unwrap().to_string(), "framing broken", "cut at {len}, {threads} threads");
            assert!(one == many, "cut at {len}: {} octets at one thread, {} at {threads}", one.len(), many.len());
            released_only_verified(&h, &data, &many, len);
        }
    }
}

#[test]
fn the_largest_thread_count_is_bounded() {
    use super::super::pool::{BUFFER_BUDGET, MAX_WORKERS, buffer_count, thread_count};
    assert_eq!(thread_count(usize::MAX), MAX_WORKERS);
    assert_eq!(buffer_count(usize::MAX, 64), BUFFER_BUDGET / 64);
    assert_eq!(buffer_count(usize::MAX / 2 + 1, 0), BUFFER_BUDGET);
}

/// From a file, whole chunks are read by the workers: the same bytes as
/// writing the data, and a file shorter than announced is a read error
/// even when only the workers' reads meet its end.
#[test]
fn workers_read_files_at_offsets() {
    use super::super::{Room, Source};
    use crate::fs::CopyError;
    let h = header(Mode::Ocb, 6);
    let c = chunk_size(6);
    let data = plain(7 * c + 100);
    let mut file = tempfile::tempfile().unwrap();
    file.write_all(&data).unwrap();
    for (head, threads) in [(0, 2), (5, 2), (c + 3, 3)] {
        let mut s = ParSealer::new(Vec::new(), &h, &KEY, threads).unwrap();
        s.write_all(&data[..head]).unwrap();
        s.fill_from(&mut Source::File(&file, head as u64), (data.len() - head) as u64).unwrap();
        assert_eq!(s.finish().unwrap(), seal(&h, &data, 1, data.len()), "head={head} threads={threads}");
    }
    // Chunks 0..7 are whole: the workers read them all; 3 and later are past the end.
    file.set_len(3 * c as u64 + 10).unwrap();
    let mut s = ParSealer::new(Vec::new(), &h, &KEY, 2).unwrap();
    match s.fill_from(&mut Source::File(&file, 0), 7 * c as u64) {
        Err(CopyError::Read(e)) => assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof),
        r => panic!("{r:?}"),
    }
    assert!(s.write_all(b"x").is_err() && s.finish().is_err(), "poisoned");
}
