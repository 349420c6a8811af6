//! `Decryptor::from_file` (a SEIPD v2 body read at offsets by
//! the chunk workers) against the one-thread stream reader, over random
//! framings and random damage: the same octets released, the same error,
//! and (for the file) the same position left as the stream reader's.

use std::io::{Cursor, Read, Seek, SeekFrom, Write};

use super::par_open::AT_OFFSETS;
use crate::openpgp::packet::{BodyReader, read_header, tag};
use crate::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, S2kChoice};

pub(super) const PW: &[u8] = b"from-file";

pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

pub(super) fn encrypt(data: &[u8], chunk_octet: u8) -> Vec<u8> {
    let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 0 }, chunk_octet, ..EncryptOptions::default() };
    let mut enc = Encryptor::new(Vec::new(), &[PW], &opts).unwrap();
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// The packets before the SEIPD packet, and the SEIPD body.
pub(super) fn split(msg: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut r = Cursor::new(msg);
    loop {
        let start = r.position() as usize;
        let h = read_header(&mut r).unwrap().expect("a SEIPD packet");
        let mut body = Vec::new();
        BodyReader::new(&mut r, h.len).read_to_end(&mut body).unwrap();
        if h.tag == tag::SEIPD {
            return (msg[..start].to_vec(), body);
        }
    }
}

/// `body` as a SEIPD packet in random partial pieces (first one of
/// 2^first), with the offsets of every length header.
fn frame(rng: &mut Rng, body: &[u8], first: u32, small: &[u32]) -> (Vec<u8>, Vec<usize>) {
    let mut out = vec![0xC0 | tag::SEIPD];
    let mut heads = Vec::new();
    let mut rest = body;
    let mut k = first;
    while rest.len() >= (1 << k) && rng.below(8) != 0 {
        heads.push(out.len());
        out.push(224 + k as u8);
        out.extend_from_slice(&rest[..1 << k]);
        rest = &rest[1 << k..];
        k = small[rng.below(small.len())];
    }
    if rng.below(3) == 0 {
        // The rest in pieces of falling powers of two, then an empty final piece.
        while !rest.is_empty() {
            let k = usize::BITS - 1 - rest.len().leading_zeros();
            heads.push(out.len());
            out.push(224 + k as u8);
            out.extend_from_slice(&rest[..1 << k]);
            rest = &rest[1 << k..];
        }
    }
    heads.push(out.len());
    let n = rest.len();
    if n < 192 && rng.below(2) == 0 {
        out.push(n as u8);
    } else if (192..8384).contains(&n) && rng.below(2) == 0 {
        out.extend_from_slice(&[(((n - 192) >> 8) + 192) as u8, (n - 192) as u8]);
    } else {
        out.push(255);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(rest);
    (out, heads)
}

pub(super) fn released(dec: crate::openpgp::Result<Decryptor<'_>>) -> (Vec<u8>, Option<String>) {
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

/// The one-thread stream reader: what it released, its error, and how
/// many octets of the input it consumed.
pub(super) fn stream(msg: &[u8]) -> ((Vec<u8>, Option<String>), usize) {
    let mut rest = msg;
    let got = released(Decryptor::with_options(&mut rest, &[PW], &DecryptOptions { threads: 1, ..Default::default() }));
    (got, msg.len() - rest.len())
}

/// `msg` with its SEIPD body reframed as one piece of a fixed (5-octet)
/// length: the message, and the offset of the body's first octet.
pub(super) fn one_piece(msg: &[u8]) -> (Vec<u8>, usize) {
    let (head, body) = split(msg);
    let mut out = [head, vec![0xC0 | tag::SEIPD, 255]].concat();
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    let body_at = out.len();
    out.extend_from_slice(&body);
    (out, body_at)
}

pub(super) fn file(skip: usize, msg: &[u8]) -> std::fs::File {
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(&vec![0x55; skip]).unwrap();
    f.write_all(msg).unwrap();
    f.seek(SeekFrom::Start(skip as u64)).unwrap();
    f
}

pub(super) fn data(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next() as u8).collect()
}

/// One random case: (description, message).
fn case(rng: &mut Rng) -> (String, Vec<u8>) {
    let chunk_octet = [0u8, 2, 4, 9, 10][rng.below(5)];
    let chunk = 64usize << chunk_octet;
    let n = match rng.below(4) {
        0 => rng.below(3 * chunk),
        1 => chunk * (1 + rng.below(4)) + [0, 1, 15, 16, 17, 31, 32, 33][rng.below(8)],
        2 => chunk * (1 + rng.below(4)) - [1, 15, 16, 17, 32][rng.below(5)].min(chunk),
        _ => rng.below(300_000),
    };
    let plain = data(rng, n);
    let msg = encrypt(&plain, chunk_octet);
    let (head, mut body) = split(&msg);
    // Reordered chunks: swap two whole chunks (with their tags).
    let v2_header = 36; // version, cipher, AEAD, chunk octet, salt
    let whole = (body.len().saturating_sub(v2_header + 16)) / (chunk + 16);
    let mut what = format!("chunk {chunk}, {n} octets");
    let damage = rng.below(9);
    if damage == 1 && whole >= 2 {
        let (a, b) = (rng.below(whole), rng.below(whole));
        if a != b {
            let (a, b) = (a.min(b), a.max(b));
            let s = chunk + 16;
            let (x, y) = (v2_header + a * s, v2_header + b * s);
            let ca = body[x..x + s].to_vec();
            let cb = body[y..y + s].to_vec();
            body[x..x + s].copy_from_slice(&cb);
            body[y..y + s].copy_from_slice(&ca);
            what += &format!(", chunks {a} and {b} swapped");
        }
    }
    if damage == 2 && whole >= 1 {
        // A whole chunk dropped.
        let a = rng.below(whole);
        let s = chunk + 16;
        body.drain(v2_header + a * s..v2_header + (a + 1) * s);
        what += &format!(", chunk {a} dropped");
    }
    let (first, small): (u32, &[u32]) = match rng.below(5) {
        4 => ([0, 3, 5][rng.below(3)], &[16, 17]),
        0 => (15 + rng.below(3) as u32, &[15, 16, 17]),
        1 => (15 + rng.below(2) as u32, &[0, 1, 4, 9, 12, 16]),
        2 => (9, &[9, 10, 16]),
        _ => (16, &[0]),
    };
    let (framed, heads) = frame(rng, &body, first, small);
    what += &format!(", {} pieces (first 2^{first})", heads.len());
    let mut m = [head, framed.clone()].concat();
    let seipd = m.len() - framed.len();
    match damage {
        3 => {
            let cut = seipd + rng.below(framed.len());
            m.truncate(cut);
            what += &format!(", cut at {}", cut - seipd);
        }
        4 => {
            let i = seipd + rng.below(framed.len());
            let bit = rng.below(8);
            m[i] ^= 1 << bit;
            what += &format!(", bit {bit} of {} flipped", i - seipd);
        }
        5 => {
            // A length header changed.
            let h = seipd + heads[rng.below(heads.len())];
            let v = rng.next() as u8;
            what += &format!(", header at {} {:#x} -> {v:#x}", h - seipd, m[h]);
            m[h] = v;
        }
        6 => {
            let k = 1 + rng.below(40);
            let extra = data(rng, k);
            m.extend_from_slice(&extra);
            what += &format!(", {} octets appended", extra.len());
        }
        7 => {
            // A padding packet appended (allowed after the encrypted data).
            m.extend_from_slice(&[0xC0 | 21, 3, 0, 0, 0]);
            what += ", padding appended";
        }
        8 => {
            let i = seipd + rng.below(framed.len());
            m.insert(i, rng.next() as u8);
            what += &format!(", an octet inserted at {}", i - seipd);
        }
        _ => {}
    }
    (what, m)
}

#[test]
fn from_file_matches_the_one_thread_stream() {
    let seed = std::env::var("REV15_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_1234_u64);
    let cases = std::env::var("REV15_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(150usize);
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut at_offsets = 0;
    let mut errors: std::collections::BTreeMap<String, usize> = Default::default();
    for i in 0..cases {
        let (what, msg) = case(&mut rng);
        let (reference, consumed) = stream(&msg);
        *errors.entry(reference.1.clone().unwrap_or_else(|| "ok".into())).or_default() += 1;
        let skip = rng.below(3) * 7;
        for threads in [1, 2, 4] {
            let f = file(skip, &msg);
            AT_OFFSETS.set(0);
            let got = released(Decryptor::from_file(&f, &[PW], &DecryptOptions { threads, ..Default::default() }));
            at_offsets += usize::from(AT_OFFSETS.get() > 0);
            let pos = (&f).stream_position().unwrap() - skip as u64;
            if got != reference {
                failures.push(format!(
                    "case {i} ({what}), {threads} threads: {:?} against the stream's {:?}",
                    (got.0.len(), &got.1),
                    (reference.0.len(), &reference.1)
                ));
            } else if pos != consumed as u64 {
                failures.push(format!(
                    "case {i} ({what}), {threads} threads: left at {pos}, the stream consumed {consumed}"
                ));
            }
        }
    }
    eprintln!("{cases} cases, {at_offsets} runs at offsets: {errors:#?}");
    assert!(at_offsets > 0, "no case read at offsets");
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.join("\n"));
}

/// A file cut after it was opened, a few octets after a chunk's tag: the
/// stream reader cannot read that chunk's look-ahead and stops before it
/// with a truncated body; read at offsets, the chunk workers judge the
/// look-ahead by the file's length as first seen, so that chunk is
/// released too before the same error.
#[test]
fn a_file_cut_after_opening_releases_what_the_stream_releases() {
    let chunk = 1 << 16;
    let mut rng = Rng(7);
    let plain = data(&mut rng, 12 * chunk + 100);
    let (msg, body_at) = one_piece(&encrypt(&plain, 10));
    // Eight octets after chunk 9's tag.
    let cut = body_at + 36 + 10 * (chunk + 16) + 8;
    let (reference, consumed) = stream(&msg[..cut]);
    assert_eq!(consumed, cut);
    assert_eq!(reference.1.as_deref(), Some("the message is truncated: packet body"));
    let mut failures = Vec::new();
    for threads in [1, 2, 4] {
        let f = file(0, &msg);
        let dec = Decryptor::from_file(&f, &[PW], &DecryptOptions { threads, ..Default::default() });
        f.set_len(cut as u64).unwrap();
        let got = released(dec);
        let pos = (&f).stream_position().unwrap();
        if pos != consumed as u64 {
            failures.push(format!("{threads} threads: left at {pos}, the stream consumed {consumed}"));
        }
        if got != reference {
            failures.push(format!(
                "{threads} threads: released {} octets, {:?}; the stream released {} octets, {:?}",
                got.0.len(),
                got.1,
                reference.0.len(),
                reference.1
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A file cut after it was opened, right at a partial-length header: the
/// stream reader reports a truncated packet length; read at offsets, the
/// header is read as the body's octets (the length as first seen says it
/// is there) and the error is a truncated packet body.
#[test]
fn a_file_cut_at_a_length_header_after_opening_fails_as_the_stream_does() {
    let chunk = 1 << 16;
    let mut rng = Rng(9);
    let plain = data(&mut rng, 12 * chunk + 100);
    let (head, body) = split(&encrypt(&plain, 10));
    // Pieces of 2^17 octets, then the rest in a final piece.
    let mut msg = [head, vec![0xC0 | tag::SEIPD]].concat();
    let mut heads = Vec::new();
    let mut rest = &body[..];
    while rest.len() >= 1 << 17 {
        heads.push(msg.len());
        msg.push(224 + 17);
        msg.extend_from_slice(&rest[..1 << 17]);
        rest = &rest[1 << 17..];
    }
    heads.push(msg.len());
    msg.push(255);
    msg.extend_from_slice(&(rest.len() as u32).to_be_bytes());
    msg.extend_from_slice(rest);
    // The fifth piece's header, well past what opening reads.
    let cut = heads[5];
    let (reference, consumed) = stream(&msg[..cut]);
    assert_eq!(consumed, cut);
    let mut failures = Vec::new();
    for threads in [1, 2, 4] {
        let f = file(0, &msg);
        let dec = Decryptor::from_file(&f, &[PW], &DecryptOptions { threads, ..Default::default() });
        f.set_len(cut as u64).unwrap();
        let got = released(dec);
        let pos = (&f).stream_position().unwrap();
        if pos != consumed as u64 {
            failures.push(format!("{threads} threads: left at {pos}, the stream consumed {consumed}"));
        }
        if got != reference {
            failures.push(format!(
                "{threads} threads: released {} octets, {:?}; the stream released {} octets, {:?}",
                got.0.len(),
                got.1,
                reference.0.len(),
                reference.1
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where a failed decryption leaves the file's position: the same for
/// every thread count (what a script reading on from stdin finds).
#[test]
fn a_failed_file_is_left_at_the_same_position_for_every_thread_count() {
    let chunk = 1 << 16;
    let mut rng = Rng(11);
    let plain = data(&mut rng, 6 * chunk + 100);
    let (mut msg, body_at) = one_piece(&encrypt(&plain, 10));
    // Chunk 3 changed.
    msg[body_at + 36 + 3 * (chunk + 16) + 5] ^= 1;
    let (reference, consumed) = stream(&msg);
    let mut seen = Vec::new();
    for threads in [1, 2, 4] {
        let f = file(0, &msg);
        let got = released(Decryptor::from_file(&f, &[PW], &DecryptOptions { threads, ..Default::default() }));
        assert_eq!(got, reference, "{threads} threads");
        seen.push((threads, (&f).stream_position().unwrap()));
    }
    assert!(
        seen.iter().all(|&(_, p)| p == consumed as u64),
        "the stream consumed {consumed} octets (the body starts at {body_at}); left at {seen:?}"
    );
}

/// As above, with the session key picked among several candidates by the
/// first chunk (read ahead, then put back in front of the body).
#[test]
fn a_failed_file_opened_by_its_first_chunk_is_left_where_the_stream_stops() {
    use crate::openpgp::SessionKey;
    let chunk = 1 << 16;
    let plain = data(&mut Rng(12), 6 * chunk + 100);
    let (mut msg, body_at) = one_piece(&encrypt(&plain, 10));
    let right = Decryptor::new(msg.as_slice(), &[PW]).unwrap().session_key().clone();
    let wrong = SessionKey { alg: None, key: zeroize::Zeroizing::new(vec![0x11; right.key.len()]) };
    let opts = |threads| DecryptOptions { threads, session_keys: vec![wrong.clone(), right.clone()], ..Default::default() };
    msg[body_at + 36 + 3 * (chunk + 16) + 5] ^= 1;
    let mut rest = msg.as_slice();
    let reference = released(Decryptor::with_options(&mut rest, &[], &opts(1)));
    let consumed = msg.len() - rest.len();
    assert_eq!(reference.1.as_deref(), Some("authentication failed (chunk): the message was modified or damaged"));
    let mut seen = Vec::new();
    for threads in [1, 2, 4] {
        let f = file(0, &msg);
        assert_eq!(released(Decryptor::from_file(&f, &[], &opts(threads))), reference, "{threads} threads");
        seen.push((threads, (&f).stream_position().unwrap()));
    }
    assert!(seen.iter().all(|&(_, p)| p == consumed as u64), "the stream consumed {consumed} octets; left at {seen:?}");
}

/// A decryptor dropped part way (the caller stopped reading, or a packet
/// inside the plaintext failed) leaves the file where the one-thread
/// reader stopped: after the window of the last chunk it released.
#[test]
fn a_decryptor_dropped_part_way_leaves_the_file_where_the_stream_stopped() {
    let chunk = 1 << 16;
    let mut rng = Rng(11);
    let plain = data(&mut rng, 8 * chunk + 100);
    let msg = encrypt(&plain, 10);
    let mut failures = Vec::new();
    for take in [1, chunk + 1, 3 * chunk + 5] {
        let mut at = Vec::new();
        for threads in [1, 2, 4] {
            let f = file(3, &msg);
            let opts = DecryptOptions { threads, ..Default::default() };
            let mut dec = Decryptor::from_file(&f, &[PW], &opts).unwrap();
            let mut got = vec![0u8; take];
            dec.read_exact(&mut got).unwrap();
            assert!(got == plain[..take], "plaintext");
            drop(dec);
            at.push((&f).stream_position().unwrap());
        }
        if at.iter().any(|&p| p != at[0]) {
            failures.push(format!("{take} octets read: left at {at:?} with 1, 2, 4 threads"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
