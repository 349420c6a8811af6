//! Writes the seed corpora `fuzz/seeds/<target>/` from the test vectors in
//! `tessera/tests/vectors/` and from messages built with tessera itself.
//!
//! `cd fuzz && cargo run --example gen_seeds` (the output differs from run
//! to run: salts, IVs and CFB prefixes are random).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::{DeflateEncoder, ZlibEncoder};
use serde_json::Value;
use tessera::aead::Mode;
use tessera::openpgp::armor::{self, ArmorWriter};
use tessera::openpgp::packet::{self, PartialWriter, tag};
use tessera::openpgp::s2k::{HashAlg, S2k, S2kLimits};
use tessera::openpgp::seipd::{MdcSealer, V2Header};
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{EncryptOptions, Encryptor, Profile, S2kChoice, SymAlg};
use tessera_fuzz::harness::{PASSWORD, SESSION_KEY, V2_SALT, seal_v1, seal_v2};

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

fn main() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let vectors = here.join("../tessera/tests/vectors");
    let root = here.join("seeds");
    // `gen_seeds TARGET...` writes only those targets' seeds.
    let only: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |t: &str| only.is_empty() || only.iter().any(|a| a == t);
    if wanted("decrypt_key") {
        decrypt_key_seeds(&root, &vectors);
    }
    if wanted("sig_parse") {
        sig_parse_seeds(&root, &vectors);
    }
    if !only.is_empty() {
        return;
    }

    // The RFC 9580 messages, armored and binary.
    let mut rfc: Vec<(String, Vec<u8>, Vec<u8>)> = Vec::new();
    let mut names: Vec<_> = fs::read_dir(vectors.join("openpgp"))
        .expect("vectors")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "asc"))
        .collect();
    names.sort();
    for p in names {
        let text = fs::read(&p).expect("read");
        let mut binary = Vec::new();
        let mut r = tessera::openpgp::armor::ArmorReader::new(text.as_slice());
        std::io::Read::read_to_end(&mut r, &mut binary).expect("vector armor");
        rfc.push((p.file_stem().expect("name").to_string_lossy().into_owned(), text, binary));
    }

    // Messages for "password", with cheap S2K.
    let plain = b"A fuzz seed: some plaintext that spans more than one small chunk. ".repeat(5);
    let mut made: Vec<(String, Vec<u8>)> = Vec::new();
    let cheap_argon2 = S2kChoice::Argon2 { t: 1, p: 1, m: 3 };
    let cheap_iter = S2kChoice::Iterated { count_octet: 0 };
    for (name, profile, cipher, aead, s2k, chunk, armor) in [
        ("v2_ocb_aes128_iter", Profile::Rfc9580, SymAlg::Aes128, Mode::Ocb, cheap_iter, 0, false),
        ("v2_eax_aes192_iter", Profile::Rfc9580, SymAlg::Aes192, Mode::Eax, cheap_iter, 1, false),
        ("v2_gcm_aes256_iter", Profile::Rfc9580, SymAlg::Aes256, Mode::Gcm, cheap_iter, 0, false),
        ("v2_ocb_aes256_argon2", Profile::Rfc9580, SymAlg::Aes256, Mode::Ocb, cheap_argon2, 12, false),
        ("v2_gcm_aes128_armor", Profile::Rfc9580, SymAlg::Aes128, Mode::Gcm, cheap_iter, 0, true),
        ("v1_aes128_iter", Profile::Rfc4880, SymAlg::Aes128, Mode::Ocb, cheap_iter, 0, false),
        ("v1_aes256_armor", Profile::Rfc4880, SymAlg::Aes256, Mode::Ocb, cheap_iter, 0, true),
    ] {
        let opts = EncryptOptions {
            profile,
            cipher,
            aead,
            chunk_octet: chunk,
            s2k,
            armor,
            filename: b"seed.txt".to_vec(),
            date: 1_700_000_000,
            ..EncryptOptions::default()
        };
        let mut enc = Encryptor::new(Vec::new(), &[PASSWORD], &opts).expect("encryptor");
        enc.write_all(&plain).expect("Vec");
        made.push((name.to_owned(), enc.finish().expect("finish")));
    }
    // Hand-built: SKESK v4/v6 around SESSION_KEY, then the plaintext
    // streams (compression, padding, ...) sealed in v1 / v2.
    let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [7; 8], count: 0 };
    let v4 = skesk_packet(
        &Skesk::seal_v4(&SESSION_KEY[..16], SymAlg::Aes128, PASSWORD, SymAlg::Aes128, s2k.clone()).expect("v4"),
    );
    let v4_direct = skesk_packet(&Skesk::V4 { cipher: SymAlg::Aes256, s2k: s2k.clone(), esk: None });
    let iv = [9u8; 15];
    let v6 = skesk_packet(
        &Skesk::seal_v6(&SESSION_KEY[..16], PASSWORD, SymAlg::Aes128, Mode::Ocb, s2k.clone(), &iv).expect("v6"),
    );
    let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: 0, salt: V2_SALT };
    let pts = plaintexts();
    for (name, pt) in &pts[3..6] {
        made.push((format!("v4_v1_{name}"), [v4.clone(), seal_v1(pt, SymAlg::Aes128, false)].concat()));
        made.push((format!("v6_v2_{name}"), [v6.clone(), seal_v2(pt, &header, true, true)].concat()));
    }
    // SKESK v4 without an encrypted key: the S2K output is the session key.
    let direct_key = s2k.derive(PASSWORD, 32, &S2kLimits::default()).expect("derive");
    let mut body = vec![1u8];
    let mut sealer = MdcSealer::new(&mut body, &direct_key).expect("key");
    sealer.write_all(&pts[0].1).expect("Vec");
    sealer.finish().expect("Vec");
    let mut seipd = Vec::new();
    let mut w = PartialWriter::new(&mut seipd, tag::SEIPD);
    w.write_all(&body).expect("Vec");
    w.finish().expect("Vec");
    made.push(("v4_direct_key_v1".into(), [packet(tag::MARKER, b"PGP"), v4_direct, seipd].concat()));

    // packet_parse: [selector][bytes]
    let mut out = Out::new(&root, "packet_parse");
    for (i, (name, _, binary)) in rfc.iter().enumerate() {
        out.put(&format!("{name}.bin"), &[&[(i * 37) as u8][..], binary].concat());
    }
    for (i, (name, msg)) in made.iter().enumerate().filter(|(_, (_, m))| m.first().is_some_and(|b| b & 0x80 != 0)) {
        out.put(&format!("{name}.bin"), &[&[(i * 53) as u8][..], msg].concat());
    }
    let mut body = Vec::new();
    Skesk::seal_v6(
        &SESSION_KEY,
        PASSWORD,
        SymAlg::Aes256,
        Mode::Gcm,
        S2k::Argon2 { salt: [3; 16], t: 1, p: 1, m: 3 },
        &[1; 12],
    )
    .expect("v6")
    .write(&mut body);
    out.put("skesk_v6_body.bin", &[&[0x10][..], &body].concat());
    let mut body = vec![0x18];
    S2k::Salted { hash: HashAlg::Sha1, salt: [5; 8] }.write(&mut body);
    out.put("s2k_salted.bin", &body);
    out.put("v2_header.bin", &[&[0x08][..], &header.encode()[1..], &[0; 8]].concat());
    out.put("partial_1500.bin", &[&[0x2a][..], &literal_partial(&[0x61; 1500])].concat());
    out.put("old_format.bin", &[0x01, 0xac, 5, b'b', 0, 0, 0, 0, 0xaf, b't', 1, b'x', 0, 0, 0, 0, b'h', b'i']);
    out.report();

    // armor_decode: the text itself.
    let mut out = Out::new(&root, "armor_decode");
    for (name, text, binary) in &rfc {
        out.put(&format!("{name}.asc"), text);
        if name.ends_with("ocb") {
            out.put(&format!("{name}_crc.asc"), &armored(binary, true));
            let crlf = String::from_utf8_lossy(text).replace('\n', "\r\n");
            out.put(&format!("{name}_crlf.asc"), crlf.as_bytes());
            let mut with_headers = b"Some text before the armor.\n\n".to_vec();
            with_headers.extend(
                String::from_utf8_lossy(text).replacen("-----\n", "-----\nComment: fuzz seed\nVersion: x\n", 1).bytes(),
            );
            out.put(&format!("{name}_headers.asc"), &with_headers);
        }
    }
    out.put("short_lines.asc", b"-----BEGIN PGP MESSAGE-----\n\nwy\nAE\nBg==\n=abcd\n-----END PGP MESSAGE-----\n");
    out.put("empty_body.asc", b"-----BEGIN PGP MESSAGE-----\n\n-----END PGP MESSAGE-----\n");
    out.report();

    // decrypt_password: whole messages.
    let mut out = Out::new(&root, "decrypt_password");
    for (name, text, binary) in &rfc {
        out.put(&format!("{name}.asc"), text);
        if name.ends_with("eax") {
            out.put(&format!("{name}.gpg"), binary);
        }
    }
    for (name, msg) in &made {
        out.put(&format!("{name}.gpg"), msg);
    }
    out.report();

    // decrypt_session_key: [mode][...]
    let mut out = Out::new(&root, "decrypt_session_key");
    // mode 0: whole messages under SESSION_KEY (selector picks the cipher).
    for (name, msg) in made.iter().filter(|(n, _)| n.starts_with("v4_v1") || n.starts_with("v6_v2")) {
        // v1 needs the cipher (Aes128); v2 takes it from the packet. Pieces
        // of 512 and 1 octets.
        let sel = if name.starts_with("v4") { mode0(1, 3, false) } else { mode0(0, 1, true) };
        out.put(&format!("m0_{name}.bin"), &[&[sel][..], msg].concat());
    }
    // modes 1 and 2: plaintext packet streams.
    for (i, (name, pt)) in pts.iter().enumerate() {
        let sel1 = 1 + 3 * (i as u8 % 8);
        out.put(&format!("m1_{name}.bin"), &[&[sel1][..], pt].concat());
        let sel2 = 2 + 3 * (i as u8 % 8);
        out.put(&format!("m2_{name}.bin"), &[&[sel2, i as u8, i as u8 / 3, i as u8 % 3][..], pt].concat());
    }
    out.report();

    // fpe_text: [mode][n][tweak length][tweak][alphabet][text]
    let mut out = Out::new(&root, "fpe_text");
    let fpe: Vec<Value> =
        serde_json::from_str(&fs::read_to_string(vectors.join("fpe.json")).expect("fpe.json")).expect("json");
    for (i, v) in fpe.iter().enumerate() {
        let alg = match v["alg"].as_str().expect("alg") {
            "FF1" => 0u8,
            "FF3-1" => 1,
            _ => 2,
        };
        let key_idx = match v["key"].as_str().expect("key").len() {
            32 => 0u8,
            48 => 1,
            _ => 2,
        };
        let alphabet = v["alphabet"].as_str().expect("alphabet");
        let tweak = hex(v["tweak"].as_str().expect("tweak"));
        let extra = (i as u8 % 4) << 5; // bare numerals / token format on some
        let mut seed = vec![alg | key_idx << 2 | extra, alphabet.chars().count() as u8];
        if alg == 0 {
            seed.push(tweak.len() as u8);
        } else {
            seed.push(0);
        }
        seed.extend_from_slice(&tweak);
        seed.extend_from_slice(alphabet.as_bytes());
        seed.extend_from_slice(v["pt"].as_str().expect("pt").as_bytes());
        out.put(&format!("vector_{i:02}.bin"), &seed);
    }
    // Range alphabets: radix 65536 with '\0' as numeral 65535, radix 2, and
    // non-ASCII text.
    let range = |mode: u8, tl: u8, tweak: &[u8], start: u32, len: u32, idx: &[u16]| {
        let mut s = vec![mode | 0x10, 0, tl];
        s.extend_from_slice(tweak);
        s.extend_from_slice(&start.to_le_bytes()[..3]);
        let len = if len > 255 { 0xf0_0000 | len } else { len };
        s.extend_from_slice(&len.to_le_bytes()[..3]);
        for &i in idx {
            s.extend_from_slice(&i.to_le_bytes());
        }
        s
    };
    out.put("range_65536.bin", &range(0x20, 3, b"abc", 0x11_0000 - 65535, 65536, &[65535, 0, 1, 2, 40000, 65534]));
    out.put(
        "range_2.bin",
        &range(0x01, 0, &[], 0x30, 2, &[1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0]),
    );
    out.put("range_greek.bin", &range(0x42, 0, &[], 0x3b1, 24, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    out.put("token_format.bin", &[&[0x40, 10, 2, 1, 2][..], b"01234567894111-1111-1111-1111"].concat());
    out.report();

    // siv_decrypt: [mode][AD count][len, AD]...[len, nonce][ciphertext]
    let mut out = Out::new(&root, "siv_decrypt");
    let siv: Value =
        serde_json::from_str(&fs::read_to_string(vectors.join("siv.json")).expect("siv.json")).expect("json");
    for (i, v) in siv["siv"].as_array().expect("siv").iter().enumerate() {
        let key_idx = match v["key"].as_str().expect("key").len() / 2 {
            32 => 0u8,
            48 => 1,
            _ => 2,
        };
        let nonce = v["nonce"].as_str().map(hex);
        let ads = v["ad"].as_array().expect("ad");
        let mut s = vec![key_idx | (nonce.is_some() as u8) << 2 | (i as u8) << 3, ads.len() as u8];
        for a in ads {
            let a = hex(a.as_str().expect("ad"));
            s.push(a.len() as u8);
            s.extend_from_slice(&a);
        }
        if let Some(n) = nonce {
            s.push(n.len() as u8);
            s.extend_from_slice(&n);
        }
        s.extend(hex(v["out"].as_str().expect("out")));
        out.put(&format!("siv_{i}.bin"), &s);
    }
    out.put("empty.bin", &[0x01, 0x00]);
    out.put("many_ad.bin", &[&[0x06, 130][..], &[0u8; 140]].concat());
    out.report();
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

/// decrypt_key: `[keys][piece]` then a message (see `harness::decrypt_key`).
fn decrypt_key_seeds(root: &Path, vectors: &Path) {
    use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    use tessera::openpgp::{SigningEncryptor, key::Cert};
    let mut out = Out::new(root, "decrypt_key");
    let keys = vectors.join("openpgp/keys");
    for (name, file, sel) in [
        ("v6_seipdv1", "v6-25519-annex-a-4/enc-seipdv1.msg", 1u8),
        ("v6_seipdv2", "v6-25519-annex-a-4/enc-seipdv2.msg", 0),
        ("v4_seipdv2", "v4-legacy/enc-seipdv2.msg", 2),
        ("a8_x25519_ocb", "rfc9580_a8_x25519_ocb.asc", 1),
        ("bad_v6_message_v4_key", "v6-25519-annex-a-4/enc-seipdv2.msg", 2),
    ] {
        let msg = fs::read(keys.join(file)).expect("message vector");
        out.put(&format!("{name}.bin"), &[&[sel, 0][..], &msg].concat());
    }
    let [v6, v4] = tessera_fuzz::harness::decrypt_key::keys();
    let plain = b"A fuzz seed encrypted to a key. ".repeat(4);
    let signing = SigningKey::from_cert(v6, 1_727_740_000).expect("A.4 key signs");
    for (name, recipients, profile, anonymous, armor, sel, piece) in [
        ("made_v6_v2", vec![v6], Profile::Rfc9580, false, false, 1u8, 0u8),
        ("made_v4_v1", vec![v4], Profile::Rfc4880, false, false, 2, 7),
        ("made_both_anonymous", vec![v6, v4], Profile::Rfc9580, true, false, 0, 1),
        ("made_both_armor", vec![v6, v4], Profile::Rfc9580, false, true, 3, 64),
        ("made_signed_v6", vec![v6], Profile::Rfc9580, false, false, 5, 0),
        ("made_signed_v4_v1", vec![v4], Profile::Rfc4880, false, false, 6, 3),
    ] {
        let opts = EncryptOptions {
            profile,
            recipients: recipients.iter().map(|c: &&Cert| c.to_public()).collect(),
            anonymous_recipients: anonymous,
            armor,
            chunk_octet: 0,
            ..EncryptOptions::default()
        };
        let msg = if sel & 4 == 0 {
            let mut e = Encryptor::new(Vec::new(), &[], &opts).expect("encryptor");
            e.write_all(&plain).expect("write");
            e.finish().expect("finish")
        } else {
            let signer = Signer::new(&signing, SigType::Binary, 1_727_740_001).expect("signer");
            let mut e = SigningEncryptor::new(Vec::new(), &[], &opts, signer).expect("signing encryptor");
            e.write_all(&plain).expect("write");
            e.finish().expect("finish")
        };
        out.put(&format!("{name}.bin"), &[&[sel, piece][..], &msg].concat());
        if name == "made_v6_v2" {
            let mut bad = msg.clone();
            *bad.last_mut().expect("message") ^= 1;
            out.put("bad_made_v6_v2_modified.bin", &[&[sel, piece][..], &bad].concat());
        }
    }
    out.report();
}

/// sig_parse: one selector octet, then the bytes (see `harness::sig_parse`).
fn sig_parse_seeds(root: &Path, vectors: &Path) {
    use tessera::openpgp::sig::{ClearSigner, InlineSigner, SigType, Signer, SigningKey, write_signatures};
    let mut out = Out::new(root, "sig_parse");
    let pgp = vectors.join("openpgp");
    let inline = fs::read(pgp.join("rfc9580_a7_inline.asc")).expect("A.7");
    let clear = fs::read(pgp.join("rfc9580_a6_cleartext.asc")).expect("A.6");
    for (i, (t, _, body)) in split_packets(&inline).into_iter().enumerate() {
        match t {
            tag::SIGNATURE => out.put(&format!("a7_sig_{i}.bin"), &[&[0][..], &body].concat()),
            tag::ONE_PASS_SIGNATURE => out.put(&format!("a7_ops_{i}.bin"), &[&[1][..], &body].concat()),
            _ => {}
        }
    }
    for cert in ["keys/rfc9580_a3_v6_cert.asc", "keys/alice_cert.asc"] {
        let packets = split_packets(&fs::read(pgp.join(cert)).expect("cert"));
        for (i, (_, _, body)) in packets.iter().filter(|p| p.0 == tag::SIGNATURE).enumerate() {
            out.put(&format!("cert_sig_{}_{i}.bin", &cert[5..9]), &[&[0][..], body].concat());
        }
    }
    out.put("a7_inline_whole.asc", &[&[2][..], &inline].concat());
    out.put("a7_inline_pieces3.asc", &[&[12][..], &inline].concat());
    out.put("a6_cleartext.asc", &[&[3][..], &clear].concat());
    // Made with the A.4 key (the A.3 certificate's secret): inline,
    // compressed inline, cleartext and detached.
    let v6 = &tessera_fuzz::harness::decrypt_key::keys()[0];
    let keys = SigningKey::from_cert(v6, 1_727_740_000).expect("A.4 key signs");
    let mut w = InlineSigner::new(Vec::new(), Signer::new(&keys, SigType::Binary, 1_727_740_001).expect("signer"))
        .expect("inline");
    w.write_all(b"data").expect("write");
    let made = w.finish().expect("finish");
    out.put("made_inline.bin", &[&[7][..], &made].concat());
    let mut z = ZlibEncoder::new(vec![2u8], Compression::default());
    z.write_all(&made).expect("zlib");
    out.put("made_inline_zlib.bin", &[&[2][..], &packet(tag::COMPRESSED, &z.finish().expect("zlib"))].concat());
    let mut c = ClearSigner::new(Vec::new(), Signer::new(&keys, SigType::Text, 1_727_740_001).expect("signer"))
        .expect("clear");
    c.write_all(b"line one\n- dashed\nlast").expect("write");
    out.put("made_cleartext.asc", &[&[3][..], &c.finish().expect("finish")].concat());
    let mut s = Signer::new(&keys, SigType::Binary, 1_727_740_001).expect("signer");
    s.update(b"data");
    let sigs = s.finish().expect("sign");
    out.put("made_detached.bin", &[&[4][..], &write_signatures(Vec::new(), &sigs, false).expect("sigs")].concat());
    out.put("made_detached.asc", &[&[9][..], &write_signatures(Vec::new(), &sigs, true).expect("sigs")].concat());
    out.report();
}
