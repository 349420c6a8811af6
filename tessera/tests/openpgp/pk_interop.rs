//! Public-key session-key decryption against messages made by another
//! implementation (rPGP's RFC 9580 test keys, tests/vectors/openpgp/keys/,
//! including the RFC 9580 Appendix A.4 sample key): the key packets are
//! parsed by hand here (the key packet layer lives elsewhere), each PKESK
//! is decrypted with `openpgp::crypto`, and the session key must open the
//! SEIPD packet to "hello world\n".

use std::io::{BufReader, Read};

use tessera::openpgp::armor::ArmorReader;
use tessera::openpgp::crypto::{self, HashAlg, Hasher, PublicKeyAlg, PublicMaterial, SecretMaterial};
use tessera::openpgp::packet::split_packets;
use tessera::openpgp::pkesk::{Pkesk, Recipient};
use tessera::openpgp::{DecryptOptions, Decryptor};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys");

fn dearmor(path: &str) -> Vec<u8> {
    let file = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    ArmorReader::new(BufReader::new(file.as_slice())).read_to_end(&mut out).unwrap();
    out
}

fn packets(bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    split_packets(bytes).unwrap()
}

/// A key parsed from a secret key packet body.
struct Key {
    version: u8,
    fingerprint: Vec<u8>,
    public: PublicMaterial,
    secret: SecretMaterial,
}

fn parse_secret_key(body: &[u8]) -> Key {
    let version = body[0];
    let alg = PublicKeyAlg::from_id(body[5]).unwrap();
    let mut rest = &body[if version == 6 { 10 } else { 6 }..];
    let public = PublicMaterial::parse(alg, &mut rest).unwrap();
    let public_len = body.len() - rest.len();
    if version == 6 {
        let declared = u32::from_be_bytes(body[6..10].try_into().unwrap()) as usize;
        assert_eq!(declared, public_len - 10);
    }
    let fingerprint = if version == 6 {
        let mut h = Hasher::new(HashAlg::Sha256);
        h.update(&[0x9b]);
        h.update(&(public_len as u32).to_be_bytes());
        h.update(&body[..public_len]);
        h.finalize()
    } else {
        let mut h = Hasher::new(HashAlg::Sha1);
        h.update(&[0x99]);
        h.update(&(public_len as u16).to_be_bytes());
        h.update(&body[..public_len]);
        h.finalize()
    };
    assert_eq!(rest[0], 0, "the vector keys are not locked");
    let mut secret_bytes = &rest[1..];
    let secret = SecretMaterial::parse(&public, &mut secret_bytes).unwrap();
    let expected_tail = if version == 6 { 0 } else { 2 };
    assert_eq!(secret_bytes.len(), expected_tail);
    secret.check(&public).unwrap();
    // The codecs reproduce the packet bytes exactly.
    let mut again = Vec::new();
    public.serialize(&mut again);
    assert_eq!(again, body[public_len - again.len()..public_len]);
    assert_eq!(secret.to_vec().as_slice(), &rest[1..rest.len() - expected_tail]);
    Key { version, fingerprint, public, secret }
}

fn keys(dir: &str) -> Vec<Key> {
    let tsk = dearmor(&format!("{DIR}/{dir}/tsk.asc"));
    packets(&tsk).iter().filter(|(tag, _)| *tag == 5 || *tag == 7).map(|(_, b)| parse_secret_key(b)).collect()
}

fn recipient_matches(key: &Key, pkesk: &Pkesk) -> bool {
    match &pkesk.recipient {
        None => true,
        Some(Recipient::Fingerprint { key_version, fingerprint }) => {
            *key_version == key.version && *fingerprint == key.fingerprint
        }
        Some(Recipient::KeyId(id)) => {
            let fp = &key.fingerprint;
            if key.version == 6 { id[..] == fp[..8] } else { id[..] == fp[fp.len() - 8..] }
        }
    }
}

/// Decrypts `msg` of `dir` with its key; returns the number of PKESKs opened.
fn decrypt_message(dir: &str, msg: &str) -> usize {
    let keys = keys(dir);
    let bytes = dearmor(&format!("{DIR}/{dir}/{msg}"));
    let mut opened = 0;
    for (tag, body) in packets(&bytes) {
        if tag != 1 {
            continue;
        }
        let pkesk = Pkesk::parse(&body).unwrap();
        assert_eq!(pkesk.to_vec(), body, "PKESK re-serializes to the same bytes");
        let key = keys.iter().find(|k| recipient_matches(k, &pkesk)).expect("a key for the PKESK");
        let sk = crypto::decrypt_session_key(&key.secret, &key.public, &key.fingerprint, &pkesk.payload, pkesk.version)
            .unwrap_or_else(|e| panic!("{dir}/{msg}: {e}"));
        let opts = DecryptOptions { session_key: Some(sk), ..DecryptOptions::default() };
        let mut dec = Decryptor::with_options(bytes.as_slice(), &[], &opts).unwrap();
        let mut out = Vec::new();
        dec.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"hello world\n", "{dir}/{msg}");
        opened += 1;
    }
    opened
}

#[test]
fn rfc9580_a4_sample_key_x25519_seipd_v2_and_v1() {
    assert_eq!(decrypt_message("v6-25519-annex-a-4", "enc-seipdv2.msg"), 1);
    assert_eq!(decrypt_message("v6-25519-annex-a-4", "enc-seipdv1.msg"), 1);
}

#[test]
fn v6_x448_seipd_v2_and_v1() {
    for dir in ["v6-ed25519-x448", "v6-ed448-x448"] {
        assert_eq!(decrypt_message(dir, "enc-seipdv2.msg"), 1);
        assert_eq!(decrypt_message(dir, "enc-seipdv1.msg"), 1);
    }
}

#[test]
fn v4_x25519_seipd_v2_and_v1() {
    assert_eq!(decrypt_message("v4-ed25519-x25519", "enc-seipdv2.msg"), 1);
    assert_eq!(decrypt_message("v4-ed25519-x25519", "enc-seipdv1.msg"), 1);
}

#[test]
fn v4_ecdh_curve25519_legacy() {
    assert_eq!(decrypt_message("v4-legacy", "enc-seipdv2.msg"), 1);
}

#[test]
fn ecdh_nist_curves_v4_and_v6_keys() {
    assert_eq!(decrypt_message("v4-nistp", "enc-seipdv2.msg"), 1);
    assert_eq!(decrypt_message("v6-nistp", "enc-seipdv2.msg"), 1);
    assert_eq!(decrypt_message("v6-nistp", "enc-seipdv1.msg"), 1);
}

#[test]
fn rsa_v4_and_v6_keys() {
    assert_eq!(decrypt_message("v4-rsa", "enc-seipdv2.msg"), 1);
    assert_eq!(decrypt_message("v6-rsa", "enc-seipdv2.msg"), 1);
    assert_eq!(decrypt_message("v6-rsa", "enc-seipdv1.msg"), 1);
}

/// Encrypting to each vector key with our code and decrypting with the
/// same key: the round trip goes through the other side's key material.
#[test]
fn encrypt_to_vector_keys_round_trip() {
    for dir in ["v6-25519-annex-a-4", "v6-ed448-x448", "v4-legacy", "v4-nistp", "v6-nistp", "v4-rsa", "v6-rsa"] {
        for key in keys(dir).iter().filter(|k| k.public.alg().can_encrypt()) {
            for version in [crypto::PkeskVersion::V3, crypto::PkeskVersion::V6] {
                let sym = (version == crypto::PkeskVersion::V3).then_some(tessera::openpgp::SymAlg::Aes256);
                let payload =
                    crypto::encrypt_session_key(&key.public, &key.fingerprint, version, sym, &[0x5a; 32]).unwrap();
                let sk =
                    crypto::decrypt_session_key(&key.secret, &key.public, &key.fingerprint, &payload, version).unwrap();
                assert_eq!(sk.key.as_slice(), &[0x5a; 32]);
                assert_eq!(sk.alg, sym);
            }
        }
    }
}
