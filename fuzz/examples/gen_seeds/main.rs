//! Writes the seed corpora `fuzz/seeds/<target>/` from the test vectors in
//! `tessera/tests/vectors/` and from messages built with tessera itself.
//!
//! `cd fuzz && cargo run --example gen_seeds` (the output differs from run
//! to run: salts, IVs and CFB prefixes are random).

mod data;
mod hostile;
mod keys;
mod messages;
mod openpgp;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::{DeflateEncoder, ZlibEncoder};
use tessera::aead::Mode;
use tessera::openpgp::SymAlg;
use tessera::openpgp::armor::{self, ArmorWriter};
use tessera::openpgp::packet::{self, PartialWriter, tag};
use tessera::openpgp::seipd::V2Header;
use tessera::openpgp::skesk::Skesk;
use tessera_fuzz::harness::V2_SALT;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

struct Out {
    dir: PathBuf,
    count: usize,
    bytes: usize,
}

impl Out {
    fn new(root: &Path, target: &str) -> Out {
        let dir = root.join(target);
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("mkdir");
        Out { dir, count: 0, bytes: 0 }
    }
    /// Adds to `target`'s seeds, keeping those already there.
    fn keep(root: &Path, target: &str) -> Out {
        let dir = root.join(target);
        fs::create_dir_all(&dir).expect("mkdir");
        Out { dir, count: 0, bytes: 0 }
    }
    fn put(&mut self, name: &str, data: &[u8]) {
        fs::write(self.dir.join(name), data).expect("write seed");
        self.count += 1;
        self.bytes += data.len();
    }
    fn report(&self) {
        println!("{}: {} seeds, {} bytes", self.dir.display(), self.count, self.bytes);
    }
}

fn packet(t: u8, body: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    packet::write_packet(&mut v, t, body).expect("Vec");
    v
}

fn literal(format: u8, name: &[u8], data: &[u8]) -> Vec<u8> {
    let mut body = vec![format, name.len() as u8];
    body.extend_from_slice(name);
    body.extend_from_slice(&0x6543_2100u32.to_be_bytes());
    body.extend_from_slice(data);
    packet(tag::LITERAL, &body)
}

fn literal_partial(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = PartialWriter::new(&mut out, tag::LITERAL);
    w.write_all(&[b'b', 0, 0, 0, 0, 0]).expect("Vec");
    w.write_all(data).expect("Vec");
    w.finish().expect("Vec");
    out
}

fn compressed(alg: u8, inner: &[u8]) -> Vec<u8> {
    let mut body = vec![alg];
    match alg {
        1 => {
            let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
            e.write_all(inner).expect("Vec");
            body.extend(e.finish().expect("Vec"));
        }
        2 => {
            let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
            e.write_all(inner).expect("Vec");
            body.extend(e.finish().expect("Vec"));
        }
        _ => body.extend_from_slice(inner),
    }
    packet(tag::COMPRESSED, &body)
}

fn armored(binary: &[u8], crc: bool) -> Vec<u8> {
    let mut w = ArmorWriter::new(Vec::new(), armor::MESSAGE, crc).expect("Vec");
    w.write_all(binary).expect("Vec");
    w.finish().expect("Vec")
}

/// Plaintext packet streams: what the inner parsers see.
fn plaintexts() -> Vec<(&'static str, Vec<u8>)> {
    let text = b"Hello, world!\nThe quick brown fox jumps over the lazy dog.\n".repeat(4);
    let lit = literal(b'b', b"hello.txt", &text);
    vec![
        ("literal", lit.clone()),
        ("literal_empty", literal(b'u', b"", b"")),
        ("literal_partial", literal_partial(&[0x42; 1300])),
        ("zip", compressed(1, &lit)),
        ("zlib", compressed(2, &lit)),
        ("stored", compressed(0, &lit)),
        ("bzip2", compressed(3, &lit)),
        ("nested", compressed(2, &compressed(1, &lit))),
        ("padding_marker", [packet(tag::PADDING, &[0; 20]), packet(tag::MARKER, b"PGP"), lit.clone()].concat()),
        ("trailing_sig", [lit.clone(), packet(tag::SIGNATURE, &[4; 30])].concat()),
        ("two_literals", [lit.clone(), lit.clone()].concat()),
        ("zlib_then_padding", [compressed(2, &lit), packet(tag::PADDING, &[1; 8])].concat()),
    ]
}

/// A `decrypt_session_key` selector for mode 0: session key cipher (0
/// none, 1-3 AES-128/192/256), read pieces (0 whole, 1, 7, 512 octets),
/// v1 streaming.
fn mode0(alg: u8, piece: u8, stream: bool) -> u8 {
    (0..=255u8)
        .find(|&s| s % 3 == 0 && (s >> 2) & 3 == alg && (s >> 4) & 3 == piece && (s & 0x40 != 0) == stream)
        .expect("a selector")
}

fn skesk_packet(s: &Skesk) -> Vec<u8> {
    let mut body = Vec::new();
    s.write(&mut body);
    packet(tag::SKESK, &body)
}

/// The SEIPD v2 header of the hand-built v2 seeds.
fn v2_header() -> V2Header {
    V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: 0, salt: V2_SALT }
}

fn main() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let vectors = here.join("../tessera/tests/vectors");
    let root = here.join("seeds");
    // `gen_seeds TARGET...` writes only those targets' seeds.
    let only: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |t: &str| only.is_empty() || only.iter().any(|a| a == t);
    if wanted("decrypt_key") {
        keys::decrypt_key(&root, &vectors);
    }
    if wanted("sig_parse") {
        keys::sig_parse(&root, &vectors);
    }
    if !only.is_empty() {
        // `gen_seeds hostile` adds only the hostile seeds.
        if wanted("hostile") {
            hostile::seeds(&root);
        }
        return;
    }
    let rfc = messages::rfc_messages(&vectors);
    let made = messages::password_messages();
    openpgp::packet_parse(&root, &rfc, &made);
    openpgp::armor_decode(&root, &rfc);
    openpgp::decrypt_password(&root, &rfc, &made);
    openpgp::decrypt_session_key(&root, &made);
    data::fpe_text(&root, &vectors);
    data::siv_decrypt(&root, &vectors);
    hostile::seeds(&root);
}

/// The binary packets of `data` (armored or not), each with its header.
fn split_packets(data: &[u8]) -> Vec<(u8, Vec<u8>, Vec<u8>)> {
    let mut binary = Vec::new();
    if data.starts_with(b"-----") {
        std::io::Read::read_to_end(&mut armor::ArmorReader::new(data), &mut binary).expect("armor");
    } else {
        binary = data.to_vec();
    }
    let mut rest = binary.as_slice();
    let mut out = Vec::new();
    while !rest.is_empty() {
        let start = rest;
        let h = packet::read_header(&mut rest).expect("header").expect("packet");
        let packet::BodyLen::Fixed(n) = h.len else { break };
        let header = start.len() - rest.len();
        out.push((h.tag, start[..header + n as usize].to_vec(), rest[..n as usize].to_vec()));
        rest = &rest[n as usize..];
    }
    out
}
