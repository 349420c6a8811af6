//! RFC 9580 sample messages (A.9-A.12), every intermediate value of the
//! intermediate-values file, and decryption of each message.

use std::collections::HashMap;
use std::io::Read;

use tessera::aead::Mode;
use tessera::openpgp::SessionKey;
use tessera::openpgp::packet::{BodyReader, read_header, tag};
use tessera::openpgp::s2k::S2kLimits;
use tessera::openpgp::seipd::{ChunkOpener, V2Header, chunk_size};
use tessera::openpgp::skesk::{Skesk, v6_kek};
use tessera::openpgp::{DecryptOptions, Decryptor, Error, SymAlg, armor::ArmorReader};

fn dir() -> String {
    format!("{}/tests/vectors/openpgp", env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/{name}", dir())).unwrap()
}

fn dearmor(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    ArmorReader::new(text).read_to_end(&mut out).unwrap();
    out
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.split_whitespace().collect::<String>()).unwrap()
}

/// Sections of the intermediate values file: name -> (field -> value text).
fn intermediate() -> HashMap<String, HashMap<String, String>> {
    let text = String::from_utf8(read("rfc9580-intermediate-values.txt")).unwrap();
    let mut all = HashMap::new();
    let mut cur: Option<(String, HashMap<String, String>)> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("== RFC 9580 sample ") {
            if let Some((n, m)) = cur.take() {
                all.insert(n, m);
            }
            cur = Some((name.trim_end_matches(" ==").to_string(), HashMap::new()));
        } else if let Some((_, m)) = cur.as_mut() {
            let line = line.trim();
            if let Some((k, v)) = line.split_once(" : ").or_else(|| line.split_once(": ")) {
                m.insert(k.trim().to_string(), v.trim().to_string());
            } else if !line.is_empty() {
                m.insert(line.to_string(), String::new());
            }
        }
    }
    if let Some((n, m)) = cur.take() {
        all.insert(n, m);
    }
    all
}

#[test]
fn aead_samples_every_intermediate_value() {
    let iv = intermediate();
    for (name, file, aead) in [
        ("AEAD-EAX", "rfc9580_eax.asc", Mode::Eax),
        ("AEAD-OCB", "rfc9580_ocb.asc", Mode::Ocb),
        ("AEAD-GCM", "rfc9580_gcm.asc", Mode::Gcm),
    ] {
        let v = &iv[name];
        let bin = dearmor(&read(file));
        let mut r = bin.as_slice();

        // SKESK v6.
        let h = read_header(&mut r).unwrap().unwrap();
        assert_eq!(h.tag, tag::SKESK);
        let mut body = Vec::new();
        BodyReader::new(&mut r, h.len).read_to_end(&mut body).unwrap();
        let skesk = Skesk::parse(&body).unwrap();
        let mut again = Vec::new();
        skesk.write(&mut again);
        assert_eq!(again, body, "{name}: SKESK re-encodes byte for byte");
        let Skesk::V6 { cipher, aead: a, s2k, iv: nonce, .. } = &skesk else { panic!("v6 expected") };
        assert_eq!((*cipher, *a), (SymAlg::Aes128, aead));
        let key = s2k.derive(b"password", 16, &S2kLimits::default()).unwrap();
        assert_eq!(&key[..], unhex(&v["derived key"]), "{name}: S2K key");
        let (info, kek) = v["HKDF info / KEK"].split_once(" / ").unwrap();
        assert_eq!([0xc3, 6, 7, aead.id()].to_vec(), unhex(info));
        assert_eq!(&v6_kek(&key, *cipher, aead)[..], unhex(kek), "{name}: KEK");
        assert_eq!(*nonce, unhex(&v["nonce"]), "{name}: nonce");
        let sk = skesk.decrypt(b"password", &S2kLimits::default()).unwrap();
        assert_eq!(&sk.key[..], unhex(&v["session key"]), "{name}: session key");
        assert!(matches!(skesk.decrypt(b"passwort", &S2kLimits::default()), Err(Error::WrongPassword)));

        // SEIPD v2 header, message key, IV, nonces.
        let h = read_header(&mut r).unwrap().unwrap();
        assert_eq!(h.tag, tag::SEIPD);
        let mut seipd = BodyReader::new(&mut r, h.len);
        let mut head = [0u8; 36];
        seipd.read_exact(&mut head).unwrap();
        assert_eq!(head[0], 2);
        let header = V2Header::parse(head[1..].try_into().unwrap()).unwrap();
        assert_eq!(header.encode(), head);
        let seipd_line = v.keys().find(|k| k.starts_with("SEIPDv2 chunk octet")).unwrap();
        assert!(seipd_line.starts_with("SEIPDv2 chunk octet 6 -> 4096 octets"));
        assert_eq!(header.chunk_octet, 6);
        assert_eq!(chunk_size(6), 4096);
        let salt = seipd_line.split_once("salt ").unwrap().1;
        assert_eq!(header.salt.to_vec(), unhex(salt), "{name}: salt");
        let (mk, ivv) = header.message_key(&sk.key).unwrap();
        assert_eq!(&mk[..], unhex(&v["message key"]), "{name}: message key");
        assert_eq!(ivv, unhex(&v["IV (N-8 octets)"]), "{name}: IV");
        let mut n0 = ivv.clone();
        n0.extend_from_slice(&0u64.to_be_bytes());
        assert_eq!(n0, unhex(&v["chunk #0 nonce"]));
        let (fnonce, fad) = v["final nonce / AD"].split_once(" / ").unwrap();
        let mut n1 = ivv.clone();
        n1.extend_from_slice(&1u64.to_be_bytes());
        assert_eq!(n1, unhex(fnonce));
        let plain_packets = unhex(&v["plaintext packets"]);
        let mut ad = header.ad().to_vec();
        ad.extend_from_slice(&(plain_packets.len() as u64).to_be_bytes());
        assert_eq!(ad, unhex(fad), "{name}: final AD");

        // The chunk plaintext (literal + padding packets), final tag checked.
        let mut opener = ChunkOpener::new(&mut seipd, &header, &sk.key).unwrap();
        let mut plain = Vec::new();
        opener.read_to_end(&mut plain).unwrap();
        assert_eq!(plain, plain_packets, "{name}: plaintext packets");
        drop(opener);
        assert!(r.is_empty());

        // The whole message through the streaming decryptor.
        let text = read(file);
        let mut d = Decryptor::new(text.as_slice(), &[b"password".as_slice()]).unwrap();
        let mut out = Vec::new();
        d.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"Hello, world!");
        assert_eq!((d.literal().format, d.literal().filename.as_slice(), d.literal().date), (b'b', &b""[..], 0));
        // And binary, with the session key.
        let opts = DecryptOptions { session_key: Some(sk.clone()), ..DecryptOptions::default() };
        let mut d = Decryptor::with_options(bin.as_slice(), &[], &opts).unwrap();
        let mut out = Vec::new();
        d.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"Hello, world!");
    }
}

/// The session key printed in an A.12 armor comment.
fn a12_session_key(text: &str) -> Vec<u8> {
    let mut hexs = String::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("Comment: Session key: ") {
            hexs.push_str(v.trim_matches('.'));
        }
    }
    unhex(&hexs)
}

/// A.12: SKESK v4 with Argon2 (t=1, p=4, 2 GiB) and SEIPD v1, opened with
/// the session key given in the sample (the Argon2 derivation itself is in
/// `argon2_samples_with_password`).
#[test]
fn argon2_samples_with_session_key() {
    for (file, alg) in [
        ("rfc9580_a12_1_argon2_aes128.asc", SymAlg::Aes128),
        ("rfc9580_a12_2_argon2_aes192.asc", SymAlg::Aes192),
        ("rfc9580_a12_3_argon2_aes256.asc", SymAlg::Aes256),
    ] {
        let text = read(file);
        let key = a12_session_key(std::str::from_utf8(&text).unwrap());
        assert_eq!(key.len(), alg.key_len());
        let bin = dearmor(&text);
        let mut r = bin.as_slice();
        let h = read_header(&mut r).unwrap().unwrap();
        let mut body = Vec::new();
        BodyReader::new(&mut r, h.len).read_to_end(&mut body).unwrap();
        let Skesk::V4 { cipher, s2k, esk } = Skesk::parse(&body).unwrap() else { panic!("v4") };
        assert_eq!(cipher, alg);
        assert!(matches!(s2k, tessera::openpgp::s2k::S2k::Argon2 { t: 1, p: 4, m: 21, .. }));
        assert_eq!(esk.unwrap().len(), 1 + alg.key_len());

        let opts = DecryptOptions {
            session_key: Some(SessionKey { alg: Some(alg), key: key.clone().into() }),
            ..DecryptOptions::default()
        };
        let mut d = Decryptor::with_options(text.as_slice(), &[], &opts).unwrap();
        let mut out = Vec::new();
        d.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"Hello, world!", "{file}");
    }
}

/// A.12 with the password: Argon2id with 2 GiB of memory per sample (about
/// 10 s each: the workspace's dev profile optimises argon2 and blake2).
/// The default limits refuse 2 GiB before allocating it; raised, they read it.
#[test]
fn argon2_samples_with_password() {
    let rfc_first_option = DecryptOptions {
        limits: S2kLimits { max_argon2_m: 21, max_work_kib: 1 << 21, ..S2kLimits::default() },
        ..DecryptOptions::default()
    };
    for file in
        ["rfc9580_a12_1_argon2_aes128.asc", "rfc9580_a12_2_argon2_aes192.asc", "rfc9580_a12_3_argon2_aes256.asc"]
    {
        let text = read(file);
        let key = a12_session_key(std::str::from_utf8(&text).unwrap());
        let refused = Decryptor::new(text.as_slice(), &[b"password".as_slice()]).unwrap_err();
        assert!(
            matches!(refused, Error::LimitExceeded { limit, asked: 0x20_0000, allowed: 0x4_0000 } if limit.starts_with("max_argon2_m")),
            "{refused:?}"
        );
        let mut d = Decryptor::with_options(text.as_slice(), &[b"password".as_slice()], &rfc_first_option).unwrap();
        assert_eq!(&d.session_key().key[..], key.as_slice(), "{file}: session key");
        let mut out = Vec::new();
        d.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"Hello, world!", "{file}");
    }
}
