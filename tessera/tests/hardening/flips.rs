//! Hardening: the OpenPGP decryptor rejects every single-bit flip and
//! every truncation (every prefix length) of a valid message, and releases
//! no unauthenticated plaintext on the way (AES-SIV and the AEAD modes:
//! `hardening_flips_modes.rs`).
//!
//! - OpenPGP (`Decryptor`): SEIPD v2 with OCB, EAX and GCM (AES-128/192/256),
//!   64-octet chunks so a message spans several chunks, binary and armored,
//!   with and without a compressed data packet (ZIP and ZLIB); SEIPD v1
//!   binary and armored (with its CRC24), buffered (the default) and
//!   streamed. "Rejected" means `Decryptor::with_options` or a later `read`
//!   returns an error; what was read before the error must be a prefix of
//!   the plaintext that only holds chunks whose tags verified (see
//!   [`Analysis`]); SEIPD v1 (default options) must release nothing.
//!
//! Armor: a flip (or cut) must be rejected when the armor no longer decodes
//! to the same binary message under [`reference_dearmor`], a strict decoder
//! that leaves open only what RFC 9580 §6 leaves open or this library
//! documents as ignored: the label of the BEGIN line, the CRC24 line
//! (§6.1: "MUST NOT reject ... when the CRC24 footer is present, missing,
//! malformed, or disagrees"), the END line after `-----END PGP `, whatever
//! follows the END line, and the unused low bits of the last base64 group.
//! Such flips decode to the same message; for them the decryptor must
//! either fail or return exactly the plaintext (they are counted and
//! printed). Every other flip in the BEGIN line, the blank line and the
//! base64 body (line ends and padding included) must be rejected.

#[path = "../armor_reference/mod.rs"]
mod armor_reference;
use crate::common;

use std::io::{Read, Write};

use armor_reference::{chars_before, reference_dearmor};
use common::{bits, flip, pattern};
use tessera::aead::Mode;
use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
use tessera::openpgp::packet::{BodyLen, BodyReader, PartialWriter, read_header, tag, write_packet};
use tessera::openpgp::s2k::{HashAlg, S2k};
use tessera::openpgp::seipd::{ChunkOpener, ChunkSealer, V2Header, chunk_size};
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{
    DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error as PgpError, Profile, S2kChoice, SymAlg,
};

// ---------------------------------------------------------------- OpenPGP

const PW: &[u8] = b"hardening";

/// Decrypts `msg`, returning what was released and how it ended.
fn decrypt(msg: &[u8], opts: &DecryptOptions) -> (Vec<u8>, Result<(), PgpError>) {
    let mut d = match Decryptor::with_options(msg, &[PW], opts) {
        Ok(d) => d,
        Err(e) => return (Vec::new(), Err(e)),
    };
    let mut out = Vec::new();
    let mut buf = [0u8; 100];
    loop {
        match d.read(&mut buf) {
            Ok(0) => return (out, Ok(())),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Err(PgpError::from_io(e))),
        }
    }
}

/// Reads until the end or the first error.
fn read_some(mut r: impl Read) -> Vec<u8> {
    let mut out = Vec::new();
    let mut b = [0u8; 64];
    while let Ok(n @ 1..) = r.read(&mut b) {
        out.extend_from_slice(&b[..n]);
    }
    out
}

/// Literal data octets that can be decoded from `s`, a prefix of a
/// plaintext packet stream (through a compressed data packet, whose prefix
/// is inflated as far as it goes).
fn literal_prefix(s: &[u8]) -> usize {
    let mut r = s;
    let Ok(Some(h)) = read_header(&mut r) else { return 0 };
    let body = read_some(BodyReader::new(r, h.len));
    match h.tag {
        tag::LITERAL if body.len() >= 2 => body.len().saturating_sub(6 + body[1] as usize),
        tag::COMPRESSED if !body.is_empty() => {
            let inner = match body[0] {
                0 => body[1..].to_vec(),
                1 => read_some(flate2::read::DeflateDecoder::new(&body[1..])),
                _ => read_some(flate2::read::ZlibDecoder::new(&body[1..])),
            };
            literal_prefix(&inner)
        }
        _ => 0,
    }
}

/// Where a binary message's chunks are, and what may be released when a
/// given octet is modified.
struct Analysis {
    /// `released[j]`: literal data octets in chunks `0..j` (`j = 0..=n`).
    released: Vec<usize>,
    /// `bound[p]`: modifying octet `p` (or cutting the message at `p`) may
    /// release at most chunks `0..bound[p]`: `j` for an octet of chunk `j`
    /// (data or tag), `n` for the final tag, 0 before the chunks (session
    /// key packets, SEIPD header), `n - 1` for the SEIPD packet's length
    /// octets (a shorter length can leave whole authentic chunks before it).
    bound: Vec<usize>,
    /// Whether released data must end exactly at a chunk's end (no
    /// compression), or only not go beyond `released[bound]`.
    exact: bool,
}

fn analyse_v2(bin: &[u8], plain: &[u8]) -> Analysis {
    let (_, r) = decrypt(bin, &DecryptOptions::default());
    r.unwrap();
    let sk = Decryptor::new(bin, &[PW]).unwrap().session_key().clone();
    let mut r = bin;
    let (framing, body_start, body_len) = loop {
        let ctb_at = bin.len() - r.len();
        let h = read_header(&mut r).unwrap().unwrap();
        let at = bin.len() - r.len();
        if h.tag == tag::SEIPD {
            let BodyLen::Fixed(l) = h.len else { panic!("test messages are short: one fixed length") };
            break (ctb_at + 1..at, at, l as usize);
        }
        BodyReader::new(&mut r, h.len).skip_rest().unwrap();
    };
    let header = V2Header::parse(bin[body_start + 1..body_start + 36].try_into().unwrap()).unwrap();
    let cs = chunk_size(header.chunk_octet);
    let content = body_start + 36..body_start + body_len - 16;
    let n = (content.end - content.start).div_ceil(cs + 16);
    let bound = (0..bin.len())
        .map(|p| {
            if framing.contains(&p) {
                n - 1
            } else if p < content.start {
                0
            } else if p < content.end {
                (p - content.start) / (cs + 16)
            } else {
                n
            }
        })
        .collect();
    let inner = read_some(ChunkOpener::new(&bin[content.start..], &header, &sk.key).unwrap());
    let released: Vec<usize> = (0..=n).map(|j| literal_prefix(&inner[..(j * cs).min(inner.len())])).collect();
    assert_eq!(released[n], plain.len());
    assert!(n >= 3 && released[1] > 0, "the message spans several chunks: {released:?}");
    let exact = inner[0] & 0x3f == tag::LITERAL;
    Analysis { released, bound, exact }
}

struct Case {
    name: String,
    /// The message as decrypted (armored or binary).
    msg: Vec<u8>,
    /// The binary message.
    bin: Vec<u8>,
    armored: bool,
    plain: Vec<u8>,
    opts: DecryptOptions,
    /// SEIPD v2: what may be released; None for SEIPD v1.
    v2: Option<Analysis>,
    /// SEIPD v1 streamed: unauthenticated plaintext is released by design,
    /// only the error at the end is checked.
    v1_streamed: bool,
}

#[derive(Default, Debug)]
struct Counts {
    rejected: usize,
    same_decoding: usize,
    same_decoding_accepted: usize,
}

impl Case {
    fn check_rejected(&self, bad: &[u8], k: usize, what: &str) {
        let (out, r) = decrypt(bad, &self.opts);
        assert!(r.is_err(), "{}: {what} was accepted", self.name);
        if self.v1_streamed {
            return;
        }
        assert_eq!(out, self.plain[..out.len().min(self.plain.len())], "{}: {what} released other data", self.name);
        match &self.v2 {
            None => assert!(out.is_empty(), "{}: {what}: SEIPD v1 released {} octets", self.name, out.len()),
            Some(a) if a.exact => assert!(
                a.released[..=k].contains(&out.len()),
                "{}: {what}: released {} octets; allowed {:?}",
                self.name,
                out.len(),
                &a.released[..=k]
            ),
            Some(a) => assert!(
                out.len() <= a.released[k],
                "{}: {what}: released {} octets, beyond the {} of the authenticated chunks",
                self.name,
                out.len(),
                a.released[k]
            ),
        }
    }

    /// The bound for a change at binary octet `d` (and the two after it,
    /// which share its base64 group).
    fn bound_at(&self, d: usize) -> usize {
        let Some(a) = &self.v2 else { return 0 };
        let n = a.released.len() - 1;
        if d >= self.bin.len() { n } else { (d..(d + 3).min(self.bin.len())).map(|q| a.bound[q]).max().unwrap() }
    }

    fn check(&self) -> Counts {
        let (out, r) = decrypt(&self.msg, &self.opts);
        r.unwrap();
        assert_eq!(out, self.plain, "{}", self.name);
        let before = if self.armored { chars_before(&self.msg) } else { Vec::new() };
        let mut counts = Counts::default();
        let mut one = |bad: &[u8], p: usize, what: String| {
            let k = if self.armored {
                if reference_dearmor(bad).as_deref() == Some(&self.bin[..]) {
                    // Decodes to the same message: fail, or give exactly the plaintext.
                    counts.same_decoding += 1;
                    let (out, r) = decrypt(bad, &self.opts);
                    if r.is_ok() {
                        counts.same_decoding_accepted += 1;
                        assert_eq!(out, self.plain, "{}: {what}", self.name);
                    }
                    return;
                }
                self.bound_at(before[p] / 4 * 3)
            } else {
                self.v2.as_ref().map_or(0, |a| a.bound[p])
            };
            counts.rejected += 1;
            self.check_rejected(bad, k, &what);
        };
        let around = |i: usize| {
            let t = if self.armored { &self.msg[i.saturating_sub(12)..(i + 12).min(self.msg.len())] } else { &[][..] };
            String::from_utf8_lossy(t).into_owned()
        };
        for (i, m) in bits(self.msg.len()) {
            one(&flip(&self.msg, i, m), i, format!("bit {m:#x} of octet {i} {:?}", around(i)));
        }
        for cut in 0..self.msg.len() {
            one(&self.msg[..cut], cut, format!("cut to {cut} octets"));
        }
        if !self.armored {
            // Data after the encrypted data is an error too, and keeps back
            // the last chunk, which is released only at the end of the input.
            let k = self.v2.as_ref().map_or(0, |a| a.released.len() - 2);
            for junk in [&[0x01u8][..], &[0xcb, 0]] {
                self.check_rejected(&[&self.msg[..], junk].concat(), k, &format!("{junk:02x?} appended"));
            }
        }
        eprintln!("{}: {} octets, {counts:?}", self.name, self.msg.len());
        counts
    }
}

fn armor(bin: &[u8], crc: bool) -> Vec<u8> {
    let mut w = ArmorWriter::new(Vec::new(), MESSAGE, crc).unwrap();
    w.write_all(bin).unwrap();
    w.finish().unwrap()
}

fn encryptor_case(profile: Profile, aead: Mode, cipher: SymAlg, armored: bool, opts: DecryptOptions) -> Case {
    let eopts = EncryptOptions {
        profile,
        aead,
        cipher,
        chunk_octet: 0,
        s2k: S2kChoice::Iterated { count_octet: 0 },
        armor: armored,
        ..EncryptOptions::default()
    };
    // 180 octets of literal data: a 188-octet packet stream, chunks of 64, 64 and 60.
    let plain = pattern(180, 42);
    let mut e = Encryptor::new(Vec::new(), &[PW], &eopts).unwrap();
    e.write_all(&plain).unwrap();
    let msg = e.finish().unwrap();
    let bin = if armored {
        reference_dearmor(&msg).unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&msg)))
    } else {
        msg.clone()
    };
    if armored {
        let lib = read_some(tessera::openpgp::armor::ArmorReader::new(msg.as_slice()));
        assert_eq!(lib, bin, "the reference decoder agrees with the library on valid armor");
    }
    let v1_streamed = opts.v1_stream_unauthenticated;
    let v2 = (profile == Profile::Rfc9580).then(|| analyse_v2(&bin, &plain));
    let name = format!("{profile:?} {aead:?} {cipher:?} {}", if armored { "armored" } else { "binary" });
    Case { name, msg, bin, armored, plain, opts, v2, v1_streamed }
}

/// SKESK v6 + SEIPD v2 around a compressed data packet (`alg` 1 ZIP, 2 ZLIB).
fn compressed_case(alg: u8, aead: Mode, cipher: SymAlg, armored: bool) -> Case {
    // Mostly incompressible: about 150 octets of deflate, three chunks.
    let mut plain = pattern(135, 7);
    plain.extend(std::iter::repeat_n(b'z', 200));
    let mut lit = Vec::new();
    write_packet(&mut lit, tag::LITERAL, &[&[b'b', 0, 0, 0, 0, 0][..], &plain].concat()).unwrap();
    let mut body = vec![alg];
    let level = flate2::Compression::default();
    body.extend(if alg == 1 {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), level);
        e.write_all(&lit).unwrap();
        e.finish().unwrap()
    } else {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
        e.write_all(&lit).unwrap();
        e.finish().unwrap()
    });
    let mut inner = Vec::new();
    write_packet(&mut inner, tag::COMPRESSED, &body).unwrap();

    let sk = pattern(cipher.key_len(), 8);
    let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [1; 8], count: 0 };
    let skesk = Skesk::seal_v6(&sk, PW, cipher, aead, s2k, &pattern(aead.nonce_len(), 9)).unwrap();
    let mut pkt = Vec::new();
    skesk.write(&mut pkt);
    let mut bin = Vec::new();
    write_packet(&mut bin, tag::SKESK, &pkt).unwrap();
    let header = V2Header { cipher, aead, chunk_octet: 0, salt: [5; 32] };
    let mut seipd = PartialWriter::new(&mut bin, tag::SEIPD);
    seipd.write_all(&header.encode()).unwrap();
    let mut s = ChunkSealer::new(seipd, &header, &sk).unwrap();
    s.write_all(&inner).unwrap();
    s.finish().unwrap().finish().unwrap();
    assert!(bin.len() < 512, "one fixed-length SEIPD packet");
    let v2 = Some(analyse_v2(&bin, &plain));
    let msg = if armored { armor(&bin, false) } else { bin.clone() };
    let name = format!(
        "compressed ({}) {aead:?} {cipher:?} {}",
        ["", "ZIP", "ZLIB"][alg as usize],
        if armored { "armored" } else { "binary" }
    );
    Case { name, msg, bin, armored, plain, opts: DecryptOptions::default(), v2, v1_streamed: false }
}

fn v2(aead: Mode, cipher: SymAlg, armored: bool) -> Counts {
    encryptor_case(Profile::Rfc9580, aead, cipher, armored, DecryptOptions::default()).check()
}

#[test]
fn openpgp_v2_ocb_binary() {
    v2(Mode::Ocb, SymAlg::Aes128, false);
}

#[test]
fn openpgp_v2_eax_binary() {
    v2(Mode::Eax, SymAlg::Aes192, false);
}

#[test]
fn openpgp_v2_gcm_binary() {
    v2(Mode::Gcm, SymAlg::Aes256, false);
}

/// Armor is the same layer for every mode: OCB here, EAX and OCB in the
/// compressed armored messages below.
#[test]
fn openpgp_v2_ocb_armored() {
    let c = v2(Mode::Ocb, SymAlg::Aes256, true);
    assert!(c.same_decoding > 0, "the END label at least decodes the same");
}

#[test]
fn openpgp_v2_compressed() {
    compressed_case(1, Mode::Gcm, SymAlg::Aes128, false).check();
    compressed_case(2, Mode::Ocb, SymAlg::Aes256, false).check();
}

#[test]
fn openpgp_v2_compressed_armored() {
    compressed_case(1, Mode::Eax, SymAlg::Aes256, true).check();
    compressed_case(2, Mode::Ocb, SymAlg::Aes192, true).check();
}

#[test]
fn openpgp_v1_buffered_releases_nothing() {
    encryptor_case(Profile::Rfc4880, Mode::Ocb, SymAlg::Aes128, false, DecryptOptions::default()).check();
    // Armored v1 carries a CRC24, which readers must ignore.
    let c = encryptor_case(Profile::Rfc4880, Mode::Ocb, SymAlg::Aes256, true, DecryptOptions::default()).check();
    assert!(c.same_decoding >= 24, "every CRC24 bit decodes the same: {c:?}");
}

#[test]
fn openpgp_v1_streamed_still_fails_at_the_end() {
    let opts = DecryptOptions { v1_stream_unauthenticated: true, ..DecryptOptions::default() };
    encryptor_case(Profile::Rfc4880, Mode::Ocb, SymAlg::Aes192, false, opts).check();
}
