//! Document signatures: RFC 9580 Appendix A.6 (cleartext) and A.7 (inline)
//! samples, round trips of detached, inline and cleartext signatures with
//! v4 and v6 keys and several signers, and the bad cases (modified data,
//! unknown signer, expired key, missing signature, SHA-1) as results.

use std::io::{Read, Write};

use tessera::openpgp::Error;
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::key::{Cert, GenerateOptions, KeyProfile, generate};
use tessera::openpgp::sig::{
    ClearSigner, InlineSigner, InlineVerifier, Outcome, SigType, Signer, SigningKey, Verifier, read_cleartext,
    read_signatures, write_signatures,
};

const VEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp");
const T0: u32 = 1_700_000_000;
const NOW: u64 = 1_700_000_100;

fn a3_cert() -> Cert {
    Cert::from_bytes(&std::fs::read(format!("{VEC}/keys/rfc9580_a3_v6_cert.asc")).unwrap()).unwrap()
}

fn key(profile: KeyProfile) -> Cert {
    let user_ids = vec!["Signer <s@example.org>".into()];
    generate(&GenerateOptions { profile, user_ids, created: Some(T0), ..Default::default() }).unwrap()
}

#[test]
fn rfc9580_a6_cleartext_sample_verifies() {
    let msg = std::fs::read(format!("{VEC}/rfc9580_a6_cleartext.asc")).unwrap();
    let certs = [a3_cert()];
    let mut text = Vec::new();
    let r = read_cleartext(msg.as_slice(), &mut text, &certs, NOW).unwrap();
    assert_eq!(text, b"What we need from the grocery store:\n\n- tofu\n- vegetables\n- noodles\n");
    assert_eq!(r.len(), 1);
    assert!(r[0].is_good(), "{:?}", r[0].outcome);
    // One changed letter is a bad signature.
    let bad = String::from_utf8(msg).unwrap().replace("tofu", "tofo");
    let r = read_cleartext(bad.as_bytes(), &mut Vec::new(), &certs, NOW).unwrap();
    assert!(matches!(r[0].outcome, Outcome::Bad(_)));
}

#[test]
fn rfc9580_a7_inline_sample_verifies() {
    let msg = std::fs::read(format!("{VEC}/rfc9580_a7_inline.asc")).unwrap();
    let certs = [a3_cert()];
    let mut r = InlineVerifier::new(msg.as_slice(), &certs, NOW).unwrap();
    let mut data = Vec::new();
    assert!(r.results().is_none());
    r.read_to_end(&mut data).unwrap();
    assert_eq!(data, b"What we need from the grocery store:\n\n- tofu\n- vegetables\n- noodles\n");
    let res = r.results().unwrap();
    assert_eq!(res.len(), 1);
    assert!(res[0].is_good(), "{:?}", res[0].outcome);
    // Without the signer's certificate: unknown signer.
    let other = [key(KeyProfile::Rfc9580).to_public()];
    let r = InlineVerifier::new(msg.as_slice(), &other, NOW).unwrap().verify_to(&mut Vec::new()).unwrap();
    assert_eq!(r[0].outcome, Outcome::UnknownSigner);
}

fn detached(keys: &[SigningKey<'_>], ty: SigType, data: &[u8]) -> Vec<u8> {
    let mut s = Signer::new(keys, ty, T0 + 10).unwrap();
    s.write_all(data).unwrap();
    write_signatures(Vec::new(), &s.finish().unwrap(), true).unwrap()
}

fn verify_detached(sig: &[u8], certs: &[Cert], data: &[u8]) -> Vec<Outcome> {
    let mut v = Verifier::new(read_signatures(sig).unwrap(), certs, NOW);
    v.write_all(data).unwrap();
    v.finish().into_iter().map(|r| r.outcome).collect()
}

#[test]
fn detached_v4_and_v6_by_two_signers() {
    let (a, b) = (key(KeyProfile::Rfc9580), key(KeyProfile::Rfc4880));
    let mut keys = SigningKey::from_cert(&a, NOW).unwrap();
    keys.extend(SigningKey::from_cert(&b, NOW).unwrap());
    let certs = [a.to_public(), b.to_public()];
    for ty in [SigType::Binary, SigType::Text] {
        let sig = detached(&keys, ty, b"line\nline\n");
        let out = verify_detached(&sig, &certs, b"line\nline\n");
        assert!(out.iter().all(Outcome::is_good) && out.len() == 2, "{out:?}");
        let out = verify_detached(&sig, &certs, b"line\nlime\n");
        assert!(out.iter().all(|o| matches!(o, Outcome::Bad(_))), "{out:?}");
        let out = verify_detached(&sig, &certs[1..], b"line\nline\n");
        assert_eq!(out[0], Outcome::UnknownSigner);
    }
    // Text signatures do not depend on the line endings.
    let sig = detached(&keys, SigType::Text, b"a\nb\n");
    assert!(verify_detached(&sig, &certs, b"a\r\nb\r\n").iter().all(Outcome::is_good));
}

#[test]
fn signature_by_expired_key_is_not_good() {
    let opts = GenerateOptions { created: Some(T0), expires_in: Some(50), ..Default::default() };
    let k = generate(&opts).unwrap();
    let keys = SigningKey::from_cert(&k, u64::from(T0) + 10).unwrap();
    let certs = [k.to_public()];
    // Made after expiry (the signer's clock is wrong): not good.
    let mut s = Signer::new(&keys, SigType::Binary, T0 + 100).unwrap();
    s.write_all(b"x").unwrap();
    let mut v = Verifier::new(s.finish().unwrap(), &certs, NOW + 100);
    v.write_all(b"x").unwrap();
    assert!(matches!(v.finish()[0].outcome, Outcome::KeyNotValid { .. }));
    // Made while valid: still good after the key expired.
    let sig = detached(&keys, SigType::Binary, b"x");
    let mut v = Verifier::new(read_signatures(sig.as_slice()).unwrap(), &certs, NOW + 1000);
    v.write_all(b"x").unwrap();
    assert!(v.finish()[0].is_good());
}

#[test]
fn signature_from_the_future_is_not_good() {
    let k = key(KeyProfile::Rfc9580);
    let keys = SigningKey::from_cert(&k, NOW).unwrap();
    let certs = [k.to_public()];
    let mut s = Signer::new(&keys, SigType::Binary, (NOW + 10 * 365 * 86_400) as u32).unwrap();
    s.write_all(b"x").unwrap();
    let mut v = Verifier::new(s.finish().unwrap(), &certs, NOW);
    v.write_all(b"x").unwrap();
    assert!(matches!(v.finish()[0].outcome, Outcome::KeyNotValid { .. }));
}

#[test]
fn sha1_data_signatures_are_refused() {
    let k = key(KeyProfile::Rfc4880);
    let mut keys = SigningKey::from_cert(&k, NOW).unwrap();
    keys[0].hash = HashAlg::Sha1;
    let sig = detached(&keys, SigType::Binary, b"x");
    assert_eq!(verify_detached(&sig, &[k.to_public()], b"x"), [Outcome::WeakHash(HashAlg::Sha1)]);
}

fn inline(keys: &[SigningKey<'_>], ty: SigType, data: &[u8]) -> Vec<u8> {
    let mut w = InlineSigner::new(Vec::new(), Signer::new(keys, ty, T0 + 10).unwrap()).unwrap();
    w.write_all(data).unwrap();
    w.finish().unwrap()
}

#[test]
fn inline_round_trip_several_signers_any_size() {
    let (a, b) = (key(KeyProfile::Rfc9580), key(KeyProfile::Rfc4880));
    let mut keys = SigningKey::from_cert(&a, NOW).unwrap();
    keys.extend(SigningKey::from_cert(&b, NOW).unwrap());
    let certs = [a.to_public(), b.to_public()];
    let data: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let msg = inline(&keys, SigType::Binary, &data);
    let mut out = Vec::new();
    let r = InlineVerifier::new(msg.as_slice(), &certs, NOW).unwrap().verify_to(&mut out).unwrap();
    assert_eq!(out, data);
    assert!(r.len() == 2 && r.iter().all(|r| r.is_good()), "{r:?}");
}

#[test]
fn inline_one_pass_without_signature_and_the_reverse() {
    let a = key(KeyProfile::Rfc9580);
    let keys = SigningKey::from_cert(&a, NOW).unwrap();
    let certs = [a.to_public()];
    let msg = inline(&keys, SigType::Binary, b"data");
    // The signature packet is the last packet: cut it off.
    let sig_len = Signer::new(&keys, SigType::Binary, T0).map(|mut s| {
        s.write_all(b"data").unwrap();
        s.finish().unwrap()[0].to_bytes().len()
    });
    // The message grammar (RFC 9580 §10.3) pairs them: either way the
    // message is malformed, not merely badly signed.
    let cut = &msg[..msg.len() - sig_len.unwrap() - 2];
    let r = InlineVerifier::new(cut, &certs, NOW).unwrap().verify_to(&mut Vec::new());
    assert!(matches!(r, Err(Error::Malformed(_))), "{r:?}");
    // Drop the one-pass signature packet at the front instead.
    let ops_len = 2 + usize::from(msg[1]);
    let r = InlineVerifier::new(&msg[ops_len..], &certs, NOW).unwrap().verify_to(&mut Vec::new());
    assert!(matches!(r, Err(Error::Malformed(_))), "{r:?}");
}

#[test]
fn cleartext_round_trip_with_dashes_and_whitespace() {
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let a = key(profile);
        let keys = SigningKey::from_cert(&a, NOW).unwrap();
        let certs = [a.to_public()];
        let mut w = ClearSigner::new(Vec::new(), Signer::new(&keys, SigType::Text, T0 + 1).unwrap()).unwrap();
        for piece in [&b"-----BEGIN PGP SIGNATURE-----\nFrom me \t\r\n"[..], b"\n- item\nlast"] {
            w.write_all(piece).unwrap();
        }
        let msg = w.finish().unwrap();
        let mut text = Vec::new();
        let r = read_cleartext(msg.as_slice(), &mut text, &certs, NOW).unwrap();
        // Trailing whitespace is not signed; each line keeps its ending (CR LF or LF).
        assert_eq!(text, b"-----BEGIN PGP SIGNATURE-----\nFrom me\r\n\n- item\nlast");
        assert!(r[0].is_good(), "{:?}", r[0].outcome);
    }
}

#[test]
fn sign_while_encrypting_and_verify_while_decrypting() {
    use tessera::openpgp::{
        DecryptOptions, Decryptor, EncryptOptions, Encryptor, Profile, SigningEncryptor, VerifyingDecryptor,
    };
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let (alice, bob) = (key(profile), key(profile));
        let keys = SigningKey::from_cert(&alice, NOW).unwrap();
        let p = if profile == KeyProfile::Rfc9580 { Profile::Rfc9580 } else { Profile::Rfc4880 };
        let opts = EncryptOptions { profile: p, recipients: vec![bob.to_public()], ..Default::default() };
        let data: Vec<u8> = (0..300_000u32).map(|i| (i % 253) as u8).collect();
        let mut enc =
            SigningEncryptor::new(Vec::new(), &[], &opts, Signer::new(&keys, SigType::Binary, T0 + 5).unwrap())
                .unwrap();
        enc.write_all(&data).unwrap();
        let msg = enc.finish().unwrap();
        let dopts = DecryptOptions { keys: vec![bob.clone()], ..Default::default() };
        let certs = [alice.to_public()];
        let mut dec = VerifyingDecryptor::new(msg.as_slice(), &[], &dopts, &certs, NOW).unwrap();
        let mut out = Vec::new();
        dec.read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
        assert_eq!(dec.finish().unwrap().good().count(), 1);
        // The plain Decryptor still reads it (skipping the signatures).
        let mut out = Vec::new();
        Decryptor::with_options(msg.as_slice(), &[], &dopts).unwrap().read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
        // The wrong signer, or an unsigned message: decrypted, never "verified".
        let other = [bob.to_public()];
        let dec = VerifyingDecryptor::new(msg.as_slice(), &[], &dopts, &other, NOW).unwrap();
        assert!(dec.finish().is_err());
        let mut plain = Encryptor::new(Vec::new(), &[], &opts).unwrap();
        plain.write_all(b"unsigned").unwrap();
        let unsigned = plain.finish().unwrap();
        let dec = VerifyingDecryptor::new(unsigned.as_slice(), &[], &dopts, &certs, NOW).unwrap();
        assert!(dec.finish().is_err());
    }
}
