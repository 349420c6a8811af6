//! The SEIPD v1 "quick check" of a message, computed apart from the
//! decryptor (AES on two blocks of the prefix), so that tests can give a
//! wrong password or session key that fails it.
//!
//! A wrong key passes the check with probability 2^-16. The decryptor then
//! tries it, the MDC fails, and a wrong password alone is reported as a
//! modified message; streamed (`v1_stream_unauthenticated`), a right key
//! given after it is not tried (documented at
//! `DecryptOptions::v1_quick_check`). Tests that assert "a wrong password
//! is refused as such" or "a wrong key before the right one still
//! decrypts" on a fresh (random) v1 message failed 1 run in 65,536 each;
//! with the inputs below they are exact. Shared by the library's and the
//! CLI's tests.
#![allow(dead_code)]

use std::io::Read;

use tessera::aes::Aes;
use tessera::openpgp::armor::ArmorReader;
use tessera::openpgp::packet::{BodyReader, read_header, tag};
use tessera::openpgp::s2k::S2kLimits;
use tessera::openpgp::skesk::Skesk;

/// The password packets of `msg` (binary or armored) and the 18-octet
/// prefix of its SEIPD v1 packet; None for a SEIPD v2 message (no quick
/// check).
fn parts(msg: &[u8]) -> Option<(Vec<Skesk>, [u8; 18])> {
    let mut bin = msg.to_vec();
    if msg.starts_with(b"-----BEGIN PGP MESSAGE-----") {
        bin.clear();
        ArmorReader::new(msg).read_to_end(&mut bin).expect("armor");
    }
    let mut r = bin.as_slice();
    let mut skesks = Vec::new();
    loop {
        let h = read_header(&mut r).expect("packet header").expect("a SEIPD packet");
        let mut body = BodyReader::new(&mut r, h.len);
        if h.tag == tag::SEIPD {
            let mut head = [0u8; 19];
            body.read_exact(&mut head).expect("SEIPD prefix");
            return (head[0] == 1).then(|| (skesks, head[1..].try_into().unwrap()));
        }
        let mut b = Vec::new();
        body.read_to_end(&mut b).expect("packet body");
        if h.tag == tag::SKESK {
            skesks.push(Skesk::parse(&b).expect("SKESK"));
        }
    }
}

/// Whether `key` passes the quick check of `prefix`: OpenPGP CFB with a
/// zero IV, octets 14-15 of the first block repeated as 16-17.
fn passes(key: &[u8], prefix: &[u8; 18]) -> bool {
    let aes = Aes::new(key).expect("AES key");
    let mut e0 = [0u8; 16];
    aes.encrypt_block(&mut e0);
    let mut e1: [u8; 16] = prefix[..16].try_into().unwrap();
    aes.encrypt_block(&mut e1);
    [prefix[14] ^ e0[14], prefix[15] ^ e0[15]] == [prefix[16] ^ e1[0], prefix[17] ^ e1[1]]
}

/// Whether the session key `key` passes the quick check of `msg` (never
/// for a SEIPD v2 message, which has none).
pub fn key_passes(msg: &[u8], key: &[u8]) -> bool {
    parts(msg).is_some_and(|(_, prefix)| passes(key, &prefix))
}

/// Whether any key that `password` recovers from the password packets of
/// `msg` passes its quick check (never for a SEIPD v2 message).
pub fn password_passes(msg: &[u8], password: &[u8]) -> bool {
    parts(msg).is_some_and(|(skesks, prefix)| {
        skesks.iter().filter_map(|s| s.decrypt(password, &S2kLimits::default()).ok()).any(|k| passes(&k.key, &prefix))
    })
}

/// `base`, or (1 SEIPD v1 message in 65,536) `base` followed by the first
/// of 2, 3, ... that recovers no key passing the quick check of `msg`.
pub fn failing_password(msg: &[u8], base: &str) -> Vec<u8> {
    std::iter::once(base.to_string())
        .chain((2..).map(|i| format!("{base}{i}")))
        .map(String::into_bytes)
        .find(|p| !password_passes(msg, p))
        .unwrap()
}

/// `len` octets of `fill`, or (SEIPD v1) of the first value after it whose
/// key fails the quick check of `msg`.
pub fn failing_key(msg: &[u8], len: usize, fill: u8) -> Vec<u8> {
    (0..=255u8).map(|i| vec![fill.wrapping_add(i); len]).find(|k| !key_passes(msg, k)).unwrap()
}
