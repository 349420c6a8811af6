//! The messages the OpenPGP seeds are made of: the RFC 9580 sample
//! messages, and messages for [`PASSWORD`] made with tessera itself.

use std::fs;
use std::io::Write;
use std::path::Path;

use tessera::aead::Mode;
use tessera::openpgp::packet::{PartialWriter, tag};
use tessera::openpgp::s2k::{HashAlg, S2k};
use tessera::openpgp::seipd::MdcSealer;
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{EncryptOptions, Encryptor, Profile, S2kChoice, S2kLimits, SymAlg};
use tessera_fuzz::harness::{PASSWORD, SESSION_KEY, seal_v1, seal_v2};

use super::{packet, plaintexts, skesk_packet, v2_header};

/// The RFC 9580 messages: (name, armored, binary).
pub fn rfc_messages(vectors: &Path) -> Vec<(String, Vec<u8>, Vec<u8>)> {
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
    rfc
}

/// Messages for [`PASSWORD`]: made by the [`Encryptor`] with cheap S2K,
/// and hand-built around [`SESSION_KEY`].
pub fn password_messages() -> Vec<(String, Vec<u8>)> {
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
    let header = v2_header();
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
    made
}
