//! The fuzz harnesses, one public function per target.
//!
//! Every function takes arbitrary bytes, must never panic on them, and
//! panics (an `assert!`) only when tessera breaks one of its own promises:
//! a round trip that does not round-trip, two ways of computing the same
//! thing that disagree, a failed decryption that leaves plaintext behind.
//!
//! This file is shared: the fuzz targets in `fuzz/fuzz_targets/` call it,
//! and `tessera/tests/fuzz_regressions.rs` includes it (`#[path]`) to replay
//! the committed seeds and every past crash under `cargo test`. It uses only
//! tessera's public API and std.

use std::io::{self, BufRead, Read, Write};

use tessera::aead::Mode;
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, TokenFormat, Tweaks};
use tessera::openpgp::armor::{self, ArmorReader, ArmorWriter};
use tessera::openpgp::packet::{self, BodyLen, BodyReader, PartialWriter, tag};
use tessera::openpgp::s2k::{S2k, S2kLimits, decode_count};
use tessera::openpgp::seipd::{self, ChunkSealer, MdcSealer, V2Header};
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{DecryptOptions, Decryptor, SessionKey, SymAlg};
use tessera::siv::{AesSiv, BatchAd};
use tessera::{Cmac, Error};

/// The password of `decrypt_password` (and of its seeds).
pub const PASSWORD: &[u8] = b"password";

/// The session key of `decrypt_session_key` (and of its seeds): the first
/// 16, 24 or 32 octets, by cipher.
pub const SESSION_KEY: [u8; 32] = [
    0x5e, 0x55, 0x10, 0x4e, 0x4b, 0x45, 0x59, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xf0, 0x0f, 0x1e, 0x2d,
    0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0,
];

/// The salt of the SEIPD v2 packets `decrypt_session_key` builds.
pub const V2_SALT: [u8; 32] = [0x33; 32];

/// Output read from one message is counted but no longer kept past this
/// (a compressed packet may expand ~1000 times).
const KEEP_OUTPUT: usize = 4 << 20;
/// ... and reading stops here.
const MAX_OUTPUT: usize = 16 << 20;

/// Total S2K work (octets hashed, or Argon2 KiB times passes) a message
/// may ask of `decrypt_password` before the harness skips it.
const S2K_BUDGET: u64 = 4 << 20;

/// Argon2 limits of the decrypting targets: 1 MiB, 4 passes.
pub const FUZZ_LIMITS: S2kLimits =
    S2kLimits { max_argon2_m: 10, max_argon2_t: 4, max_iterated_count: 96, ..S2kLimits::UNLIMITED };

// ---------------------------------------------------------------------------
// Helpers

/// A `BufRead` over a slice that hands out at most `piece` octets per
/// `fill_buf`/`read`, to exercise every streaming boundary.
struct Pieces<'a> {
    data: &'a [u8],
    piece: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.piece).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

impl BufRead for Pieces<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.data[..self.piece.min(self.data.len())])
    }
    fn consume(&mut self, amt: usize) {
        let avail = self.piece.min(self.data.len());
        assert!(amt <= avail, "consume({amt}) after fill_buf returned {avail} octets");
        self.data = &self.data[amt..];
    }
}

/// What reading a stream to its end gave.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// It ended cleanly (the output, cut at `KEEP_OUTPUT`, and its length).
    Ok(Vec<u8>, usize),
    /// It failed.
    Err,
}

impl Outcome {
    fn is_ok(&self) -> bool {
        matches!(self, Outcome::Ok(..))
    }
}

/// Reads `r` to its end with reads of `step` octets, keeping at most
/// `KEEP_OUTPUT` octets. After the end, another read must give 0 again.
fn drain<R: Read + ?Sized>(r: &mut R, step: usize) -> Outcome {
    let mut kept = Vec::new();
    let mut total = 0usize;
    let mut buf = vec![0u8; step.max(1)];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                assert!(n <= buf.len(), "read returned {n} for a buffer of {}", buf.len());
                let keep = n.min(KEEP_OUTPUT - kept.len());
                kept.extend_from_slice(&buf[..keep]);
                total += n;
                if total >= MAX_OUTPUT {
                    return Outcome::Ok(kept, total);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Outcome::Err,
        }
    }
    match r.read(&mut buf) {
        Ok(0) => Outcome::Ok(kept, total),
        other => panic!("a read after the end returned {other:?}"),
    }
}

/// Splits `n` off the front of `data` (or all of it).
fn take<'a>(data: &mut &'a [u8], n: usize) -> &'a [u8] {
    let (head, tail) = data.split_at(n.min(data.len()));
    *data = tail;
    head
}

fn take_u8(data: &mut &[u8]) -> u8 {
    take(data, 1).first().copied().unwrap_or(0)
}

fn take_u24(data: &mut &[u8]) -> u32 {
    let b = take(data, 3);
    (0..3).map(|i| (b.get(i).copied().unwrap_or(0) as u32) << (8 * i)).sum()
}

// ---------------------------------------------------------------------------
// packet_parse

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

// ---------------------------------------------------------------------------
// armor_decode

/// The armor decoder on arbitrary text, whole and in pieces of 1 to 4096
/// octets with reads of 1 to 4096 octets: every split must give the same
/// result. Then the input as a payload: armor writer, then reader, gives
/// it back.
pub fn armor_decode(data: &[u8]) {
    let whole = decode_armor(data, usize::MAX, 4096);
    for (piece, step) in [(1, 1), (2, 3), (3, 4), (5, 2), (64, 7), (4096, 1), (1, 4096), (79, 76)] {
        let split = decode_armor(data, piece, step);
        assert_eq!(whole, split, "armor decodes differently in pieces of {piece} with reads of {step}");
    }
    let mut a = data;
    let mut b = Pieces { data, piece: 1 };
    assert_eq!(armor::is_armored(&mut a).ok(), armor::is_armored(&mut b).ok());

    for crc in [false, true] {
        let mut w = ArmorWriter::new(Vec::new(), armor::MESSAGE, crc).expect("Vec");
        for p in data.chunks(57) {
            w.write_all(p).expect("Vec");
        }
        let text = w.finish().expect("Vec");
        assert!(text.is_ascii());
        let mut r = ArmorReader::new(Pieces { data: &text, piece: 13 });
        assert_eq!(r.kind().expect("written armor"), armor::MESSAGE);
        assert_eq!(drain(&mut r, 100), Outcome::Ok(data.to_vec(), data.len()), "armor round trip (crc {crc})");
        assert!(armor::is_armored(&mut text.as_slice()).expect("slice"));
    }
}

fn decode_armor(data: &[u8], piece: usize, step: usize) -> (Outcome, Option<String>) {
    let mut r = ArmorReader::new(Pieces { data, piece });
    // (After an error the reader is not read again: what it does then is
    // unspecified.)
    match r.kind() {
        Ok(kind) => {
            let kind = kind.to_owned();
            (drain(&mut r, step), Some(kind))
        }
        Err(_) => (Outcome::Err, None),
    }
}

// ---------------------------------------------------------------------------
// decrypt_password

/// The whole decryptor on arbitrary bytes (armored or binary) with the
/// password `password`, reading all the output. Argon2 is limited to
/// 1 MiB and 4 passes, iterated S2K to count octet 96 (65536 octets);
/// messages whose S2K packets would still cost more than 4 MiB of work
/// in total (many SKESK packets) are skipped.
///
/// Returns whether the message decrypted (for the seed tests).
pub fn decrypt_password(data: &[u8]) -> bool {
    if s2k_cost(data) > S2K_BUDGET {
        return false;
    }
    let opts = DecryptOptions { limits: FUZZ_LIMITS, v1_buffer_limit: 1 << 20, ..DecryptOptions::default() };
    decrypt(Pieces { data, piece: usize::MAX }, &[PASSWORD], &opts, 4096).is_ok()
}

/// The S2K work that the SKESK packets before the encrypted data ask for.
pub fn s2k_cost(data: &[u8]) -> u64 {
    let mut input = data;
    let armored = armor::is_armored(&mut input).unwrap_or(false);
    let mut src: Box<dyn Read + '_> = if armored { Box::new(ArmorReader::new(input)) } else { Box::new(input) };
    let mut total = 0u64;
    for _ in 0..100 {
        let Ok(Some(h)) = packet::read_header(&mut src) else { break };
        if h.tag == tag::SEIPD {
            break;
        }
        let mut reader = BodyReader::new(&mut src, h.len);
        let mut body = Vec::new();
        if (&mut reader).take(1024).read_to_end(&mut body).is_err() || reader.skip_rest().is_err() {
            break;
        }
        if h.tag != tag::SKESK {
            continue;
        }
        let (Ok(Skesk::V6 { s2k, .. }) | Ok(Skesk::V4 { s2k, .. })) = Skesk::parse(&body) else { continue };
        total += match s2k {
            // Two hash contexts at most (SHA-1 for a 256-bit key).
            S2k::Simple { .. } | S2k::Salted { .. } => 2 * 64,
            // Counts above the limit are refused before any hashing.
            S2k::Iterated { count, .. } if count > FUZZ_LIMITS.max_iterated_count => 0,
            S2k::Iterated { count, .. } => 2 * decode_count(count) as u64,
            S2k::Argon2 { t, m, .. } => {
                if m > FUZZ_LIMITS.max_argon2_m || t > FUZZ_LIMITS.max_argon2_t {
                    0 // refused before any work
                } else {
                    (1024u64 << m.min(40)) * t as u64
                }
            }
        };
    }
    total
}

/// Opens and reads a whole message; checks the accessors.
fn decrypt<R: BufRead>(input: R, passwords: &[&[u8]], opts: &DecryptOptions, step: usize) -> Outcome {
    let mut dec = match Decryptor::with_options(input, passwords, opts) {
        Ok(d) => d,
        Err(e) => {
            let _ = e.to_string();
            return Outcome::Err;
        }
    };
    let _ = format!("{dec:?}");
    assert!(dec.literal().filename.len() <= 255);
    let sk = dec.session_key();
    assert!(matches!(sk.key.len(), 16 | 24 | 32), "session key of {} octets", sk.key.len());
    assert!(sk.alg.is_some());
    let _ = dec.seipd_version();
    drain(&mut dec, step)
}

// ---------------------------------------------------------------------------
// decrypt_session_key

/// The decryptor with a fixed session key, which gets past key derivation
/// and, by building valid encrypted packets around fuzzer-chosen
/// plaintext, past authentication to the inner packet parsing (literal,
/// compressed, padding... packets).
///
/// The first octet selects the mode:
/// - `% 3 == 0`: the rest is a whole message, read in pieces;
/// - `% 3 == 1`: the rest is a plaintext packet stream, sealed in SEIPD v1
///   (CFB + MDC): buffered and streamed decryption must agree;
/// - `% 3 == 2`: three parameter octets (cipher, AEAD, chunk size) then a
///   plaintext packet stream, sealed in SEIPD v2: it must decrypt as the
///   same stream sealed in v1 does.
///
/// Returns whether the message decrypted (for the seed tests).
pub fn decrypt_session_key(data: &[u8]) -> bool {
    let Some((&sel, rest)) = data.split_first() else { return false };
    match sel % 3 {
        0 => {
            let alg = [None, Some(SymAlg::Aes128), Some(SymAlg::Aes192), Some(SymAlg::Aes256)][(sel >> 2) as usize & 3];
            let key_len = alg.map_or(16, SymAlg::key_len);
            let piece = [usize::MAX, 1, 7, 512][(sel >> 4) as usize & 3];
            let opts = session_key_opts(alg, key_len, sel & 0x40 != 0);
            decrypt(Pieces { data: rest, piece }, &[], &opts, 1 + (sel as usize >> 7) * 4095).is_ok()
        }
        1 => {
            let alg = [SymAlg::Aes128, SymAlg::Aes192, SymAlg::Aes256, SymAlg::Aes128][(sel >> 2) as usize & 3];
            let msg = seal_v1(rest, alg, sel & 0x10 != 0);
            let buffered = decrypt(msg.as_slice(), &[], &session_key_opts(Some(alg), alg.key_len(), false), 4096);
            let streamed = decrypt(msg.as_slice(), &[], &session_key_opts(Some(alg), alg.key_len(), true), 333);
            assert_eq!(buffered.is_ok(), streamed.is_ok(), "SEIPD v1 buffered {buffered:?}, streamed {streamed:?}");
            if buffered.is_ok() {
                assert_eq!(buffered, streamed);
            }
            buffered.is_ok()
        }
        _ => {
            let mut rest = rest;
            let p = take(&mut rest, 3);
            let cipher = [SymAlg::Aes128, SymAlg::Aes192, SymAlg::Aes256][*p.first().unwrap_or(&0) as usize % 3];
            let aead = [Mode::Ocb, Mode::Eax, Mode::Gcm][*p.get(1).unwrap_or(&0) as usize % 3];
            let c = *p.get(2).unwrap_or(&0);
            // Mostly small chunks, so that messages have several.
            let chunk_octet = if c & 0x80 == 0 { c % 3 } else { c % 11 };
            let header = V2Header { cipher, aead, chunk_octet, salt: V2_SALT };
            let msg = seal_v2(rest, &header, sel & 0x10 != 0, sel & 0x20 != 0);
            let alg = if sel & 0x40 != 0 { Some(cipher) } else { None };
            let v2 = decrypt(msg.as_slice(), &[], &session_key_opts(alg, cipher.key_len(), false), 1000);
            let v1_msg = seal_v1(rest, cipher, false);
            let v1 = decrypt(v1_msg.as_slice(), &[], &session_key_opts(Some(cipher), cipher.key_len(), true), 4096);
            assert_eq!(v2.is_ok(), v1.is_ok(), "the same plaintext: SEIPD v2 {v2:?}, v1 {v1:?}");
            if v2.is_ok() {
                assert_eq!(v2, v1);
            }
            v2.is_ok()
        }
    }
}

fn session_key_opts(alg: Option<SymAlg>, key_len: usize, stream: bool) -> DecryptOptions {
    DecryptOptions {
        limits: FUZZ_LIMITS,
        session_key: Some(SessionKey { alg, key: SESSION_KEY[..key_len].to_vec().into() }),
        session_keys: Vec::new(),
        keys: Vec::new(),
        v1_buffer_limit: 1 << 20,
        v1_stream_unauthenticated: stream,
        v1_quick_check: true,
        max_decompressed_size: Some(MAX_OUTPUT as u64),
    }
}

/// A SEIPD v1 packet holding `plain` under the fixed session key.
pub fn seal_v1(plain: &[u8], alg: SymAlg, partial: bool) -> Vec<u8> {
    let mut body = vec![1u8];
    let mut s = MdcSealer::new(&mut body, &SESSION_KEY[..alg.key_len()]).expect("valid key");
    s.write_all(plain).expect("Vec");
    s.finish().expect("Vec");
    packet_of(tag::SEIPD, &body, partial)
}

/// A SEIPD v2 packet holding `plain` under the fixed session key.
pub fn seal_v2(plain: &[u8], header: &V2Header, partial: bool, empty_chunk: bool) -> Vec<u8> {
    let mut body = header.encode().to_vec();
    let mut s = ChunkSealer::new(&mut body, header, &SESSION_KEY[..header.cipher.key_len()]).expect("valid key");
    s.empty_chunk_when_empty(empty_chunk);
    s.write_all(plain).expect("Vec");
    s.finish().expect("Vec");
    packet_of(tag::SEIPD, &body, partial)
}

fn packet_of(t: u8, body: &[u8], partial: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if partial {
        let mut w = PartialWriter::new(&mut out, t);
        w.write_all(body).expect("Vec");
        w.finish().expect("Vec");
    } else {
        packet::write_packet(&mut out, t, body).expect("Vec");
    }
    out
}

// ---------------------------------------------------------------------------
// fpe_text

/// FF1, FF3-1 and FF3 over an alphabet and a text taken from the input
/// (any characters: duplicates, non-ASCII, empty; or a range of up to
/// 70000 code points), with any tweak. Nothing may panic; whatever
/// encrypts must decrypt back, the same through numerals, batches and
/// token formats.
///
/// Input: `[mode][n][tweak length][tweak][...]`; see the code.
pub fn fpe_text(data: &[u8]) {
    let mut d = data;
    let mode = take_u8(&mut d);
    let n = take_u8(&mut d);
    let tl = take_u8(&mut d);
    let alg = mode & 3; // 0 FF1, 1 FF3-1, 2 FF3, 3 FF1
    let key_len = [16, 24, 32, 15][(mode >> 2) as usize & 3];
    let key: Vec<u8> = (0..key_len as u8).map(|i| i.wrapping_mul(0x1d) ^ 0xa5).collect();
    let tweak_len = match (tl & 0x80, alg) {
        (0, 1) => 7,
        (0, 2) => 8,
        _ => tl as usize & 0x7f,
    };
    let tweak = take(&mut d, tweak_len);

    let (alphabet_chars, text): (Vec<char>, String) = if mode & 0x10 == 0 {
        // Explicit: the first n characters of the (lossy UTF-8) rest are
        // the alphabet, the others the text.
        let s = String::from_utf8_lossy(d);
        let mut chars = s.chars();
        let a: Vec<char> = chars.by_ref().take(n as usize).collect();
        (a, chars.collect())
    } else {
        // A range of code points (wrapping, surrogates skipped), then the
        // text as indices into it (index radix: a character outside).
        // Mostly short ranges (a long one costs milliseconds to build):
        // lengths above 255 need the top nibble of the length field set.
        let start = take_u24(&mut d) % 0x11_0000;
        let l = take_u24(&mut d);
        let len = if l >> 20 == 0xf { (l & 0xf_ffff) % 70_000 } else { l % 256 };
        let a: Vec<char> = (0..len).filter_map(|i| char::from_u32((start + i) % 0x11_0000)).collect();
        let text = d
            .chunks(2)
            .map(|c| {
                let i = u16::from_le_bytes([c[0], c.get(1).copied().unwrap_or(0)]) as usize % (a.len() + 1);
                a.get(i).copied().unwrap_or('\u{fffd}')
            })
            .collect();
        (a, text)
    };

    let Ok(alphabet) = Alphabet::from_chars(alphabet_chars.iter().copied()) else {
        let mut seen = alphabet_chars.clone();
        seen.sort_unstable();
        seen.dedup();
        assert!(
            alphabet_chars.len() < 2 || alphabet_chars.len() > 65536 || seen.len() < alphabet_chars.len(),
            "a valid alphabet of {} distinct characters was refused",
            alphabet_chars.len()
        );
        return;
    };
    assert_eq!(alphabet.chars(), &alphabet_chars[..]);
    for (i, &c) in alphabet_chars.iter().enumerate().step_by(alphabet_chars.len() / 64 + 1) {
        assert_eq!(alphabet.numeral(c), Some(i as u16));
        assert_eq!(alphabet.char_of(i as u16), c);
    }
    let mut nums = vec![0u16; text.chars().count()];
    let numerals_ok = alphabet.to_numerals(&text, &mut nums).is_ok();
    if numerals_ok {
        let mut back = String::new();
        alphabet.push_str(&nums, &mut back);
        assert_eq!(back, text);
    }

    let cipher: Box<dyn Fpe> = match alg {
        1 => match FF3_1::new(&key, alphabet.clone()) {
            Ok(c) => Box::new(c),
            Err(_) => return,
        },
        2 => match FF3::new(&key, alphabet.clone()) {
            Ok(c) => Box::new(c),
            Err(_) => return,
        },
        _ => match FF1::new(&key, alphabet.clone()) {
            Ok(c) => Box::new(c),
            Err(_) => return,
        },
    };
    assert_eq!(cipher.radix(), alphabet.radix());
    let (min, max) = cipher.len_range();
    assert!(2 <= min && min <= max);

    let enc = cipher.encrypt(tweak, &text);
    let dec = cipher.decrypt(tweak, &text);
    assert_eq!(enc.is_ok(), dec.is_ok(), "encrypt {enc:?} but decrypt {dec:?}");
    if let (Ok(ct), Ok(pt)) = (&enc, &dec) {
        assert!(numerals_ok, "text encrypts but does not map to numerals");
        for out in [ct, pt] {
            assert_eq!(out.chars().count(), text.chars().count());
            assert!(out.chars().all(|c| alphabet.numeral(c).is_some()));
        }
        assert_eq!(cipher.decrypt(tweak, ct).as_ref(), Ok(&text), "decrypt(encrypt(x)) != x");
        assert_eq!(cipher.encrypt(tweak, pt).as_ref(), Ok(&text), "encrypt(decrypt(x)) != x");
        let len = nums.len();
        assert!(min <= len && len <= max);

        // The numeral and batch forms agree with the text form.
        let mut x = nums.clone();
        cipher.encrypt_numerals(tweak, &mut x).expect("encrypted as text");
        let mut s = String::new();
        alphabet.push_str(&x, &mut s);
        assert_eq!(&s, ct);
        let mut batch = [nums.as_slice(), x.as_slice()].concat();
        let ends = [len, 2 * len];
        cipher.encrypt_batch(Tweaks::Same(tweak), &mut batch, &ends).expect("batch of valid values");
        assert_eq!(batch[..len], x[..]);
        cipher.decrypt_batch(Tweaks::PerValue(&[tweak, tweak]), &mut batch, &ends).expect("batch of valid values");
        assert_eq!(batch[..len], nums[..]);
        assert_eq!(batch[len..], x[..]);
    } else if numerals_ok {
        let mut x = nums.clone();
        assert!(cipher.encrypt_numerals(tweak, &mut x).is_err(), "numerals encrypt, the same text does not");
        assert_eq!(x, nums, "a failed encryption changed its input");
    }

    // Bare numerals (possibly out of range) on a radix-only cipher.
    if mode & 0x20 != 0 {
        let radix = alphabet.radix();
        let bare: Box<dyn Fpe> = match alg {
            1 => FF3_1::with_radix(&key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
            2 => FF3::with_radix(&key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
            _ => FF1::with_radix(&key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
        }
        .expect("the same radix worked with an alphabet");
        assert!(bare.encrypt(tweak, &text).is_err(), "text methods without an alphabet");
        let raw: Vec<u16> = d.chunks(2).map(|c| u16::from_le_bytes([c[0], c.get(1).copied().unwrap_or(0)])).collect();
        let mut x = raw.clone();
        if bare.encrypt_numerals(tweak, &mut x).is_ok() {
            assert!(x.iter().all(|&v| (v as u32) < radix));
            bare.decrypt_numerals(tweak, &mut x).expect("encrypted");
            assert_eq!(x, raw);
        } else {
            assert_eq!(x, raw, "a failed encryption changed its input");
        }
    }

    // Token formats: passthrough characters, kept prefix and suffix.
    if mode & 0x40 != 0 {
        let pass = "- /.";
        let fmt = TokenFormat::new().passthrough(pass).keep_prefix(n as usize & 3).keep_suffix((n as usize >> 2) & 3);
        let mut out = String::new();
        if fmt.encrypt_into(&*cipher, tweak, &text, &mut out).is_ok() {
            assert_eq!(out.chars().count(), text.chars().count());
            // Documented precondition: passthrough characters are not in the
            // alphabet (otherwise tokens need not decrypt).
            if pass.chars().all(|c| alphabet.numeral(c).is_none()) {
                let mut back = String::new();
                fmt.decrypt_into(&*cipher, tweak, &out, &mut back).expect("a token decrypts");
                assert_eq!(back, text, "token format round trip");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// siv_decrypt

/// AES-SIV open on arbitrary ciphertext and associated data (it must fail
/// and leave no plaintext behind), then the input sealed and opened in
/// every form (one-shot, into a buffer, in place, detached, batch), a
/// flipped bit refused, and CMAC one-shot against streaming.
///
/// Input: `[key/nonce][AD count]`, then per AD component a length octet
/// and the octets, then (with a nonce) a length octet and the nonce, then
/// the ciphertext.
pub fn siv_decrypt(data: &[u8]) {
    let mut d = data;
    let mode = take_u8(&mut d);
    let n_ad = take_u8(&mut d) as usize;
    let key_len = [32, 48, 64, 16][mode as usize & 3];
    let key: Vec<u8> = (0..key_len as u8).map(|i| i.wrapping_mul(0x3b) ^ 0x5c).collect();
    let ad: Vec<&[u8]> = (0..n_ad)
        .map(|_| {
            let l = take_u8(&mut d) as usize;
            take(&mut d, l)
        })
        .collect();
    let nonce = if mode & 4 != 0 {
        let l = take_u8(&mut d) as usize;
        Some(take(&mut d, l))
    } else {
        None
    };
    let ct = d;

    let siv = match AesSiv::new(&key) {
        Ok(s) => s,
        Err(_) => {
            assert!(!matches!(key_len, 32 | 48 | 64));
            return;
        }
    };
    let too_many = ad.len() + nonce.is_some() as usize > tessera::siv::MAX_AD;

    // Opening forged input fails, and wipes.
    let opened = siv.decrypt(&ad, nonce, ct);
    assert!(opened.is_err() || (ct.len() >= 16 && !too_many));
    if ct.len() >= 16 {
        let mut out = vec![0xaau8; ct.len() - 16];
        match siv.decrypt_into(&ad, nonce, ct, &mut out) {
            Ok(n) => assert_eq!(Ok(&out[..n]), opened.as_deref()),
            Err(Error::Authentication) => assert!(out.iter().all(|&b| b == 0), "plaintext left after a failure"),
            Err(_) => {}
        }
        let mut buf = ct.to_vec();
        if siv.decrypt_in_place(&ad, nonce, &mut buf).is_err() {
            assert!(buf.iter().all(|&b| b == 0), "plaintext left after a failure");
        }
        if ct.len() > 16 {
            let mut short = vec![0u8; ct.len() - 17];
            assert!(siv.decrypt_into(&ad, nonce, ct, &mut short).is_err());
        }
    } else {
        assert!(siv.decrypt_in_place(&ad, nonce, &mut ct.to_vec()).is_err());
    }

    // Seal -> open with the same inputs.
    let pt = ct;
    let sealed = siv.encrypt(&ad, nonce, pt);
    if too_many {
        assert!(matches!(sealed, Err(Error::TooManyAd { .. })), "{sealed:?}");
        return;
    }
    let sealed = sealed.expect("valid inputs");
    assert_eq!(sealed.len(), pt.len() + 16);
    assert_eq!(siv.decrypt(&ad, nonce, &sealed).as_deref(), Ok(pt));
    let mut buf = vec![0u8; 16 + pt.len()];
    buf[16..].copy_from_slice(pt);
    siv.encrypt_in_place(&ad, nonce, &mut buf).expect("valid inputs");
    assert_eq!(buf, sealed);
    assert_eq!(siv.decrypt_in_place(&ad, nonce, &mut buf).map(|p| p.to_vec()), Ok(pt.to_vec()));
    let mut det = pt.to_vec();
    let v = siv.encrypt_in_place_detached(&ad, nonce, &mut det).expect("valid inputs");
    assert_eq!(v[..], sealed[..16]);
    assert_eq!(det[..], sealed[16..]);
    assert_eq!(siv.s2v(&ad, nonce, pt).expect("valid inputs"), v);

    // Any flipped bit is refused, and the output wiped.
    let bit = (mode as usize >> 3) * 7919 % (8 * sealed.len());
    let mut bad = sealed.clone();
    bad[bit / 8] ^= 1 << (bit % 8);
    let mut out = vec![0x55u8; pt.len()];
    assert_eq!(siv.decrypt_into(&ad, nonce, &bad, &mut out), Err(Error::Authentication));
    assert!(out.iter().all(|&b| b == 0));
    let mut det_bad = det.clone();
    if !det_bad.is_empty() {
        det_bad[0] ^= 0x80;
        assert!(siv.decrypt_in_place_detached(&ad, nonce, &mut det_bad, &v).is_err());
        assert!(det_bad.iter().all(|&b| b == 0));
    }

    // Batch: the input cut into messages, with the same components (the
    // nonce last), equals one-at-a-time.
    let mut comps = ad.clone();
    comps.extend(nonce);
    let cut = 1 + (mode as usize >> 4);
    let ends: Vec<usize> = (1..=pt.len().div_ceil(cut)).map(|i| (i * cut).min(pt.len())).collect();
    let mut out = vec![0u8; pt.len() + 16 * ends.len()];
    let n = siv.encrypt_batch(BatchAd::Same(&comps), pt, &ends, &mut out).expect("valid batch");
    assert_eq!(n, out.len());
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        let one = siv.encrypt(&comps, None, &pt[start..end]).expect("valid inputs");
        assert_eq!(out[start + 16 * i..end + 16 * (i + 1)], one[..], "batch message {i}");
        start = end;
    }
    let cends: Vec<usize> = ends.iter().enumerate().map(|(i, &e)| e + 16 * (i + 1)).collect();
    let mut back = vec![0u8; pt.len()];
    assert_eq!(siv.decrypt_batch(BatchAd::Same(&comps), &out, &cends, &mut back), Ok(pt.len()));
    assert_eq!(back, pt);

    // CMAC: one call equals streaming in pieces.
    let cmac = Cmac::new(&key[..key_len / 2]).expect("AES key");
    let mut st = cmac.start();
    for p in pt.chunks(cut) {
        st.update(p);
    }
    assert_eq!(st.finalize(), cmac.mac(pt));
}
