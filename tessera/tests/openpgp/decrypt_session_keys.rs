//! `DecryptOptions::session_keys` (several session keys tried together
//! with keys and passwords, in one pass) and
//! `VerifyingDecryptor::finish_results`.

use crate::common;

use std::io::{Read, Write};

use common::quick_check;

use tessera::openpgp::key::{GenerateOptions, generate};
use tessera::openpgp::sig::{SigType, Signer, SigningKey};
use tessera::openpgp::{
    DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error, Profile, S2kChoice, SessionKey, SigningEncryptor,
    SymAlg, VerifyingDecryptor,
};

fn encrypt(profile: Profile, password: &[u8], data: &[u8]) -> Vec<u8> {
    let opts = EncryptOptions { profile, s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    let mut enc = Encryptor::new(Vec::new(), &[password], &opts).unwrap();
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

fn session_key_of(msg: &[u8], password: &[u8]) -> SessionKey {
    Decryptor::new(msg, &[password]).unwrap().session_key().clone()
}

fn decrypt(msg: &[u8], passwords: &[&[u8]], session_keys: Vec<SessionKey>) -> Result<Vec<u8>, Error> {
    let opts = DecryptOptions { session_keys, ..DecryptOptions::default() };
    let mut dec = Decryptor::with_options(msg, passwords, &opts)?;
    let mut out = Vec::new();
    dec.read_to_end(&mut out).map_err(Error::from_io)?;
    Ok(out)
}

/// A wrong session key: `fill` octets, or for a SEIPD v1 message the first
/// fill after it that fails the quick check (a wrong key passing it, 1 in
/// 65,536, fails on its MDC instead of as a wrong key: `common::quick_check`).
fn other_key(msg: &[u8], alg: SymAlg, fill: u8) -> SessionKey {
    SessionKey { alg: Some(alg), key: quick_check::failing_key(msg, alg.key_len(), fill).into() }
}

#[test]
fn session_keys_and_passwords_in_one_pass() {
    for profile in [Profile::Rfc9580, Profile::Rfc4880] {
        let msg = encrypt(profile, b"right", b"hello");
        let sk = session_key_of(&msg, b"right");
        // A wrong password, then the right session key among others.
        let wrong_pw = quick_check::failing_password(&msg, "wrong");
        let keys = vec![other_key(&msg, SymAlg::Aes128, 0x42), sk.clone()];
        assert_eq!(decrypt(&msg, &[&wrong_pw], keys).unwrap(), b"hello", "{profile:?}");
        // The right password, and a wrong session key of the same cipher:
        // the password's key (proven by its packet) comes first.
        let wrong = SessionKey { alg: sk.alg, key: vec![0x17; sk.key.len()].into() };
        assert_eq!(decrypt(&msg, &[b"right"], vec![wrong.clone()]).unwrap(), b"hello", "{profile:?}");
        // Session keys alone.
        assert_eq!(decrypt(&msg, &[], vec![sk]).unwrap(), b"hello", "{profile:?}");
        // Nothing fits.
        assert!(decrypt(&msg, &[b"wrong"], vec![other_key(&msg, SymAlg::Aes128, 0x42)]).is_err());
    }
}

#[test]
fn v1_quick_check_picks_the_right_session_key() {
    let msg = encrypt(Profile::Rfc4880, b"pw", b"data");
    let sk = session_key_of(&msg, b"pw");
    let wrong = other_key(&msg, sk.alg.unwrap(), 0x17);
    assert_eq!(decrypt(&msg, &[], vec![wrong, sk]).unwrap(), b"data");
}

/// The rare case, pinned: a SEIPD v1 packet (made once by `MdcSealer`
/// under sixteen 0x07 octets) and a wrong key, sixteen 0x5c octets, that
/// passes its quick check (found by search; 1 wrong key in 65,536 does).
/// Given first, it once hid the right key after it (the MDC failed and
/// the next key was not tried); now every key that passes the check is
/// tried until one's MDC verifies. Alone it fails the MDC, and a stream
/// that releases unverified plaintext still takes the first key.
#[test]
fn a_wrong_key_that_passes_the_quick_check_does_not_hide_the_right_one() {
    let msg = hex::decode(
        "d235016220b85cf550a0a9b8bdc7388ac1c1d1190670e7149ee671363309ac61\
         22bc43802e28519978314d2a11eb1837b6e7a209c61c74",
    )
    .unwrap();
    let key = |fill: u8| SessionKey { alg: Some(SymAlg::Aes128), key: vec![fill; 16].into() };
    assert!(quick_check::key_passes(&msg, &[7; 16]) && quick_check::key_passes(&msg, &[0x5c; 16]));
    assert_eq!(decrypt(&msg, &[], vec![key(7), key(0x5c)]).unwrap(), b"data");
    assert_eq!(decrypt(&msg, &[], vec![key(0x5c), key(7)]).unwrap(), b"data");
    assert_eq!(decrypt(&msg, &[], vec![key(0x5c), key(0x5c), key(7), key(0x5c)]).unwrap(), b"data");
    let alone = decrypt(&msg, &[], vec![key(0x5c)]);
    assert!(matches!(alone, Err(Error::Authentication(_))), "{alone:?}");
    let streamed = DecryptOptions {
        session_keys: vec![key(0x5c), key(7)],
        v1_stream_unauthenticated: true,
        ..DecryptOptions::default()
    };
    let read = |mut d: Decryptor<'_>| d.read_to_end(&mut Vec::new()).map_err(Error::from_io);
    let first_only = Decryptor::with_options(&msg[..], &[], &streamed).and_then(read);
    assert!(matches!(first_only, Err(Error::Authentication(_))), "{first_only:?}");
}

#[test]
fn finish_results_reports_unsigned_and_signed_messages() {
    let alice =
        generate(&GenerateOptions { user_ids: vec!["a <a@example.org>".into()], ..Default::default() }).unwrap();
    let certs = [alice.to_public()];
    let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    let plain = encrypt(Profile::Rfc9580, b"pw", b"x");
    let dec =
        VerifyingDecryptor::new(plain.as_slice(), &[b"pw"], &DecryptOptions::default(), &certs, u64::MAX / 2).unwrap();
    assert!(dec.finish_results().unwrap().is_empty());

    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let keys = SigningKey::from_cert(&alice, now).unwrap();
    let signer = Signer::new(&keys, SigType::Binary, now as u32).unwrap();
    let mut enc = SigningEncryptor::new(Vec::new(), &[b"pw"], &opts, signer).unwrap();
    enc.write_all(b"signed").unwrap();
    let msg = enc.finish().unwrap();
    let mut dec = VerifyingDecryptor::new(msg.as_slice(), &[b"pw"], &DecryptOptions::default(), &certs, now).unwrap();
    let mut out = Vec::new();
    dec.read_to_end(&mut out).unwrap();
    assert_eq!(out, b"signed");
    let results = dec.finish_results().unwrap();
    assert_eq!(results.len(), 1);
    assert!(results[0].is_good());
}

/// The length of the first packet of a binary message (new-format header,
/// definite length: what a PKESK packet has).
fn first_packet_len(msg: &[u8]) -> usize {
    assert_eq!(msg[0] & 0xC0, 0xC0, "new-format packet");
    match msg[1] {
        n @ 0..192 => 2 + n as usize,
        n @ 192..224 => 3 + ((n as usize - 192) << 8) + msg[2] as usize + 192,
        255 => 6 + u32::from_be_bytes(msg[2..6].try_into().unwrap()) as usize,
        _ => panic!("partial length"),
    }
}

/// A message whose key packet gives a wrong session key, opened by a listed
/// session key: the key did not open it, so it does not stand for the
/// reader (RFC 9580 §5.2.3.36); the caller's keys do, as for any message a
/// session key opens.
#[test]
fn a_listed_session_key_that_opens_is_not_credited_to_a_key() {
    let user = |id: &str| generate(&GenerateOptions { user_ids: vec![id.into()], ..Default::default() }).unwrap();
    let (alice, carol, dave) = (user("a <a@example.org>"), user("c <c@example.org>"), user("d <d@example.org>"));
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    // Alice signs for Dave (an intended recipient) and encrypts to him.
    let keys = SigningKey::from_cert(&alice, now).unwrap();
    let signer = Signer::new(&keys, SigType::Binary, now as u32).unwrap();
    let to = |c: &tessera::openpgp::key::Cert| EncryptOptions { recipients: vec![c.to_public()], ..Default::default() };
    let mut enc = SigningEncryptor::new(Vec::new(), &[], &to(&dave), signer).unwrap();
    enc.write_all(b"for dave").unwrap();
    let msg = enc.finish().unwrap();
    let for_dave = DecryptOptions { keys: vec![dave.clone()], ..Default::default() };
    let sk = Decryptor::with_options(msg.as_slice(), &[], &for_dave).unwrap().session_key().clone();
    // Dave's key packet swapped for one to Carol with another session key.
    let mut enc = Encryptor::new(Vec::new(), &[], &to(&carol)).unwrap();
    enc.write_all(b"other").unwrap();
    let other = enc.finish().unwrap();
    let spliced = [&other[..first_packet_len(&other)], &msg[first_packet_len(&msg)..]].concat();

    let certs = [alice.to_public()];
    let run = |keys: Vec<tessera::openpgp::key::Cert>, session_keys: Vec<SessionKey>| {
        let opts = DecryptOptions { keys, session_keys, ..Default::default() };
        let mut dec = VerifyingDecryptor::new(spliced.as_slice(), &[], &opts, &certs, now)?;
        let mut out = Vec::new();
        dec.read_to_end(&mut out).map_err(Error::from_io)?;
        assert_eq!(out, b"for dave");
        dec.finish_results()
    };
    assert!(run(vec![carol.clone()], vec![]).is_err(), "Carol's key alone gives a wrong session key");
    // Carol's key gives a candidate first, the session key opens: Dave, among
    // the keys given, is a reader; Carol alone is not.
    let results = run(vec![carol.clone(), dave.clone()], vec![sk.clone()]).unwrap();
    assert!(results.len() == 1 && results[0].is_good(), "{:?}", results[0].outcome);
    let results = run(vec![carol.clone()], vec![sk]).unwrap();
    assert!(!results[0].is_good());
}
