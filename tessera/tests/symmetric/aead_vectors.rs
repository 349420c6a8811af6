//! Standard vectors for the AEAD modes:
//! - OCB: RFC 7253 Appendix A (the sixteen 96-bit-nonce samples and the
//!   iterated all-sizes check for AES-128/192/256 with TAGLEN 128), the same
//!   samples and check with 104/112/120-bit nonces (dkg/ocb-test-vectors;
//!   OpenPGP uses 120), OpenSSL's longer OCB cases;
//! - EAX: the ten AES-128 vectors of the EAX paper;
//! - GCM: NIST CAVS gcmEncryptExtIV / gcmDecrypt (96-bit IV, 128-bit tag),
//!   including the cases whose tag must fail.
//!
//! Each vector is sealed and opened, through the mode's type and through
//! [`Aead`].

use crate::common;

use common::{unhex, vectors};
use serde_json::Value;
use tessera::Error;
use tessera::aead::{Aad, Aead, AeadInPlace, Eax, Gcm, Mode, Nonce, Ocb, Tag};

fn h(v: &Value, k: &str) -> Vec<u8> {
    unhex(v[k].as_str().unwrap_or_else(|| panic!("field {k}")))
}

/// Seals `pt` and checks `ct || tag`, then opens it back; a flipped tag bit must fail.
fn check_seal_open(aead: &dyn AeadInPlace, nonce: &[u8], ad: &[u8], pt: &[u8], ct: &[u8], tag: &[u8], what: &str) {
    let mut buf = pt.to_vec();
    let got = aead.seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(ad), &mut buf).unwrap();
    assert_eq!(hex::encode(&buf), hex::encode(ct), "{what}: ciphertext");
    assert_eq!(hex::encode(got), hex::encode(tag), "{what}: tag");
    let tag: Tag = tag.try_into().unwrap();
    aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(ad), &mut buf, &tag)
        .unwrap_or_else(|e| panic!("{what}: open: {e}"));
    assert_eq!(buf, pt, "{what}: plaintext");
    let mut bad = tag;
    bad[15] ^= 1;
    let mut buf = ct.to_vec();
    assert_eq!(
        aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(ad), &mut buf, &bad),
        Err(Error::Authentication),
        "{what}"
    );
    assert!(buf.iter().all(|&b| b == 0), "{what}: buffer wiped");
}

fn ocb_set(name: &str) -> usize {
    let v = vectors("ocb_rfc7253.json");
    let set = v[name].as_array().unwrap();
    for (i, t) in set.iter().enumerate() {
        let key = h(t, "key");
        let ctt = h(t, "ct");
        let (ct, tag) = ctt.split_at(ctt.len() - 16);
        let what = format!("ocb {name} #{i}");
        let ocb = Ocb::new(&key).unwrap();
        check_seal_open(&ocb, &h(t, "nonce"), &h(t, "ad"), &h(t, "pt"), ct, tag, &what);
        let any = Aead::new(Mode::Ocb, &key).unwrap();
        check_seal_open(&any, &h(t, "nonce"), &h(t, "ad"), &h(t, "pt"), ct, tag, &what);
    }
    set.len()
}

#[test]
fn ocb_rfc7253_appendix_a_samples() {
    assert_eq!(ocb_set("rfc7253"), 16);
}

#[test]
fn ocb_longer_nonces_104_112_120() {
    assert_eq!(ocb_set("nonce104"), 16);
    assert_eq!(ocb_set("nonce112"), 16);
    assert_eq!(ocb_set("nonce120"), 16);
}

#[test]
fn ocb_openssl_cases() {
    assert!(ocb_set("openssl") >= 4);
}

/// RFC 7253 Appendix A, page 18: every length of AD and plaintext from 0 to
/// 127 bytes, the outputs concatenated and authenticated as AD.
fn ocb_iterated(key_bits: usize, nonce_bits: usize) -> Tag {
    let mut key = vec![0u8; key_bits / 8];
    *key.last_mut().unwrap() = 128; // TAGLEN
    let ocb = Ocb::new(&key).unwrap();
    let num2str = |x: usize| -> Vec<u8> { (x as u128).to_be_bytes()[16 - nonce_bits / 8..].to_vec() };
    let mut c = Vec::new();
    for i in 0..128 {
        let s = vec![0u8; i];
        let mut buf = s.clone();
        let tag = ocb
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(&num2str(3 * i + 1)), Aad::new(&s), &mut buf)
            .unwrap();
        c.extend_from_slice(&buf);
        c.extend_from_slice(&tag);
        let mut buf = s.clone();
        let tag = ocb
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(&num2str(3 * i + 2)), Aad::empty(), &mut buf)
            .unwrap();
        c.extend_from_slice(&buf);
        c.extend_from_slice(&tag);
        let tag = ocb
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(&num2str(3 * i + 3)), Aad::new(&s), &mut [])
            .unwrap();
        c.extend_from_slice(&tag);
    }
    ocb.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&num2str(385)), Aad::new(&c), &mut []).unwrap()
}

#[test]
fn ocb_rfc7253_iterated_all_sizes() {
    let v = vectors("ocb_rfc7253.json");
    let set = v["iterated"].as_array().unwrap();
    assert_eq!(set.len(), 12);
    for t in set {
        let kb = t["key_bits"].as_u64().unwrap() as usize;
        let nb = t["nonce_bits"].as_u64().unwrap() as usize;
        assert_eq!(hex::encode(ocb_iterated(kb, nb)), t["tag"].as_str().unwrap(), "AES-{kb}, {nb}-bit nonce");
    }
}

#[test]
fn eax_paper_vectors() {
    let v = vectors("eax_paper.json");
    let set = v["vectors"].as_array().unwrap();
    assert_eq!(set.len(), 10);
    for (i, t) in set.iter().enumerate() {
        let key = h(t, "key");
        let what = format!("eax #{i}");
        let args = (h(t, "nonce"), h(t, "header"), h(t, "msg"), h(t, "ct"), h(t, "tag"));
        check_seal_open(&Eax::new(&key).unwrap(), &args.0, &args.1, &args.2, &args.3, &args.4, &what);
        check_seal_open(&Aead::new(Mode::Eax, &key).unwrap(), &args.0, &args.1, &args.2, &args.3, &args.4, &what);
    }
}

#[test]
fn gcm_nist_encrypt() {
    let v = vectors("gcm_nist.json");
    let set = v["encrypt"].as_array().unwrap();
    assert!(set.len() > 300);
    for (i, t) in set.iter().enumerate() {
        let key = h(t, "key");
        let what = format!("gcm encrypt #{i}");
        let args = (h(t, "iv"), h(t, "ad"), h(t, "pt"), h(t, "ct"), h(t, "tag"));
        check_seal_open(&Gcm::new(&key).unwrap(), &args.0, &args.1, &args.2, &args.3, &args.4, &what);
        check_seal_open(&Aead::new(Mode::Gcm, &key).unwrap(), &args.0, &args.1, &args.2, &args.3, &args.4, &what);
    }
}

#[test]
fn gcm_nist_decrypt_with_failures() {
    let v = vectors("gcm_nist.json");
    let set = v["decrypt"].as_array().unwrap();
    let mut failures = 0;
    for (i, t) in set.iter().enumerate() {
        let gcm = Gcm::new(&h(t, "key")).unwrap();
        let tag: Tag = h(t, "tag").try_into().unwrap();
        let mut buf = h(t, "ct");
        let r = gcm.open_in_place_separate_tag(
            Nonce::assume_unique_for_key(&h(t, "iv")),
            Aad::new(&h(t, "ad")),
            &mut buf,
            &tag,
        );
        if t.get("fail").is_some() {
            failures += 1;
            assert_eq!(r, Err(Error::Authentication), "gcm decrypt #{i} must fail");
            assert!(buf.iter().all(|&b| b == 0));
        } else {
            assert_eq!(r, Ok(()), "gcm decrypt #{i}");
            assert_eq!(buf, h(t, "pt"), "gcm decrypt #{i}");
        }
    }
    assert!(failures > 100);
}
