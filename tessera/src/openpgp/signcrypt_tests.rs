//! Intended recipients and streamed v1 settling in the signing encryptor
//! and verifying decryptor.

use std::io::{Read, Write};

use flate2::Compression;
use flate2::write::DeflateEncoder;

use super::*;
use crate::openpgp::Profile;
use crate::openpgp::S2kChoice;
use crate::openpgp::key::{GenerateOptions, generate};
use crate::openpgp::packet::{tag, write_packet};
use crate::openpgp::sig::{SigType, SigningKey};

const T0: u32 = 1_700_000_000;
const NOW: u64 = 1_700_000_100;

fn key() -> Cert {
    generate(&GenerateOptions { created: Some(T0), ..Default::default() }).unwrap()
}

/// Signs `data` by `signer_key`, naming `named` as intended recipients,
/// encrypted to `to`; returns what the verifying decryptor with `to`'s key
/// makes of it.
fn roundtrip(signer_key: &Cert, named: &[&Cert], to: &Cert, add_recipients: bool) -> Result<Verified> {
    let keys = SigningKey::from_cert(signer_key, NOW).unwrap();
    let mut signer = Signer::new(&keys, SigType::Binary, T0 + 1).unwrap();
    for c in named {
        signer.intended_recipient(c.fingerprint());
    }
    let opts = EncryptOptions { recipients: vec![to.to_public()], ..EncryptOptions::default() };
    let mut enc = if add_recipients {
        SigningEncryptor::new(Vec::new(), &[], &opts, signer).unwrap()
    } else {
        SigningEncryptor::with_signer(Vec::new(), &[], &opts, signer).unwrap()
    };
    enc.write_all(b"meant for one reader").unwrap();
    let msg = enc.finish().unwrap();
    let certs = [signer_key.to_public()];
    let dopts = DecryptOptions { keys: vec![to.clone()], ..DecryptOptions::default() };
    let mut dec = VerifyingDecryptor::new(msg.as_slice(), &[], &dopts, &certs, NOW)?;
    let mut out = Vec::new();
    dec.read_to_end(&mut out).map_err(Error::from_io)?;
    assert_eq!(out, b"meant for one reader");
    dec.finish()
}

#[test]
fn the_signing_encryptor_names_each_recipient() {
    let (alice, bob) = (key(), key());
    let v = roundtrip(&alice, &[], &bob, true).unwrap();
    let sig = v.results[0].signature.as_ref().unwrap();
    assert_eq!(sig.intended_recipients().collect::<Vec<_>>(), [&bob.fingerprint()]);
}

#[test]
fn a_signature_meant_for_someone_else_is_not_good() {
    let (alice, bob, carol) = (key(), key(), key());
    // Signed for Carol, but the encryption is to Bob (Carol forwarded it).
    let e = roundtrip(&alice, &[&carol], &bob, false).unwrap_err();
    assert!(matches!(e, Error::Key(KeyError::BadSignature(_))), "{e}");
    // Naming Bob among others, or no one, is good.
    assert_eq!(roundtrip(&alice, &[&carol, &bob], &bob, false).unwrap().good().count(), 1);
    assert_eq!(roundtrip(&alice, &[], &bob, false).unwrap().good().count(), 1);
}

/// Alice's message signed for `named`, encrypted to `to` (if any) and the
/// password "pw"; what the verifying decryptor makes of it when `opts`
/// (with the password) opens it.
fn by_password(alice: &Cert, named: &[&Cert], to: Option<&Cert>, opts: &DecryptOptions) -> Result<Verified> {
    let keys = SigningKey::from_cert(alice, NOW).unwrap();
    let mut signer = Signer::new(&keys, SigType::Binary, T0 + 1).unwrap();
    for c in named {
        signer.intended_recipient(c.fingerprint());
    }
    let recipients = to.map(|c| vec![c.to_public()]).unwrap_or_default();
    let eopts = EncryptOptions { recipients, s2k: S2kChoice::Iterated { count_octet: 0 }, ..EncryptOptions::default() };
    let mut enc = SigningEncryptor::with_signer(Vec::new(), &[b"pw".as_slice()], &eopts, signer).unwrap();
    enc.write_all(b"signed, sealed with a password").unwrap();
    let msg = enc.finish().unwrap();
    let certs = [alice.to_public()];
    let mut dec = VerifyingDecryptor::new(msg.as_slice(), &[b"pw".as_slice()], opts, &certs, NOW)?;
    // The session key, to open the same message again without the password.
    let session_key = dec.session_key().clone();
    let mut out = Vec::new();
    dec.read_to_end(&mut out).map_err(Error::from_io)?;
    let by_sk = DecryptOptions { session_key: Some(session_key), ..opts.clone() };
    let mut again = VerifyingDecryptor::new(msg.as_slice(), &[], &by_sk, &certs, NOW)?;
    again.read_to_end(&mut out).map_err(Error::from_io)?;
    let (first, second) = (dec.finish(), again.finish());
    assert_eq!(first.is_ok(), second.is_ok(), "a password and a session key decide alike");
    first
}

/// After a password or a session key, no key proves who reads: a signature
/// naming intended recipients counts only for a reader whose key the caller
/// gives; one naming none counts as before.
#[test]
fn intended_recipients_after_a_password_or_session_key() {
    let (alice, bob, carol) = (key(), key(), key());
    let none = DecryptOptions::default();
    let as_bob = DecryptOptions { keys: vec![bob.clone()], ..DecryptOptions::default() };
    let as_carol = DecryptOptions { keys: vec![carol.clone()], ..DecryptOptions::default() };
    // Naming no one: good, whoever reads.
    assert_eq!(by_password(&alice, &[], None, &none).unwrap().good().count(), 1);
    assert_eq!(by_password(&alice, &[], Some(&bob), &as_carol).unwrap().good().count(), 1);
    // Meant for Bob (and encrypted to him too): no reader shown, not good;
    // Bob's key given, good; Carol's, not good.
    let e = by_password(&alice, &[&bob], Some(&bob), &none).unwrap_err();
    assert!(e.to_string().contains("no signature in the message is good"), "{e}");
    assert_eq!(by_password(&alice, &[&bob], Some(&bob), &as_bob).unwrap().good().count(), 1);
    assert!(by_password(&alice, &[&bob], Some(&bob), &as_carol).is_err());
    // Meant for Bob, forwarded to Carol with a password only: Carol's key
    // shows she is not the reader; Bob's shows he is.
    assert!(by_password(&alice, &[&bob], None, &as_carol).is_err());
    assert_eq!(by_password(&alice, &[&bob], None, &as_bob).unwrap().good().count(), 1);
}

/// A SEIPD v1 message whose plaintext is `packets`, for `password`.
fn v1_message(packets: &[u8], password: &[u8]) -> Vec<u8> {
    let opts = EncryptOptions {
        profile: Profile::Rfc4880,
        s2k: S2kChoice::Iterated { count_octet: 0 },
        ..EncryptOptions::default()
    };
    let mut body = open_seipd(Vec::new(), &[password], &opts, 1).unwrap();
    body.write_all(packets).unwrap();
    close_seipd(body).unwrap()
}

#[test]
fn a_streamed_v1_message_proves_its_mdc_before_signatures_count() {
    let alice = key();
    let keys = SigningKey::from_cert(&alice, NOW).unwrap();
    let signer = Signer::new(&keys, SigType::Binary, T0 + 1).unwrap();
    let mut inline = InlineSigner::new(Vec::new(), signer).unwrap();
    inline.write_all(b"compressed and signed").unwrap();
    let signed = inline.finish().unwrap();
    // The signed packets inside a compressed packet, then a padding packet
    // larger than what the v1 reader holds: the deflate stream ends, and the
    // signatures are judged, long before the MDC is read.
    let mut deflate = DeflateEncoder::new(vec![1u8], Compression::default());
    deflate.write_all(&signed).unwrap();
    let mut packets = Vec::new();
    write_packet(&mut packets, tag::COMPRESSED, &deflate.finish().unwrap()).unwrap();
    write_packet(&mut packets, tag::PADDING, &vec![0u8; 200_000]).unwrap();
    let mut msg = v1_message(&packets, b"pw");
    let certs = [alice.to_public()];
    let opts = DecryptOptions { v1_stream_unauthenticated: true, ..DecryptOptions::default() };
    let verify = |msg: &[u8]| -> Result<Verified> {
        let mut dec = VerifyingDecryptor::new(msg, &[b"pw".as_slice()], &opts, &certs, NOW)?;
        let mut out = Vec::new();
        dec.read_to_end(&mut out).map_err(Error::from_io)?;
        dec.finish()
    };
    assert_eq!(verify(&msg).unwrap().good().count(), 1);
    // The last octet is in the MDC's hash: the data and signature are intact.
    *msg.last_mut().unwrap() ^= 1;
    let e = verify(&msg).unwrap_err();
    assert!(matches!(e, Error::Authentication("MDC")), "{e}");
}

/// Hashing on its own thread (more than one thread) and on the caller's
/// (one thread) hash the same data, across chunks and odd write sizes: each verifies
/// what the other signed.
#[test]
fn the_hash_thread_and_the_caller_agree() {
    let (alice, bob) = (key(), key());
    let keys = SigningKey::from_cert(&alice, NOW).unwrap();
    let data: Vec<u8> = (0..700_001u32).map(|i| (i * 7 % 253) as u8).collect();
    let certs = [alice.to_public()];
    for (enc_threads, dec_threads) in [(1, 1), (2, 1), (1, 2), (2, 2), (4, 3)] {
        let signer = Signer::new(&keys, SigType::Binary, T0 + 1).unwrap();
        let opts = EncryptOptions { recipients: vec![bob.to_public()], threads: enc_threads, ..Default::default() };
        let mut enc = SigningEncryptor::new(Vec::new(), &[], &opts, signer).unwrap();
        for piece in data.chunks(70_001) {
            enc.write_all(piece).unwrap();
        }
        let msg = enc.finish().unwrap();
        let dopts = DecryptOptions { keys: vec![bob.clone()], threads: dec_threads, ..Default::default() };
        let mut dec = VerifyingDecryptor::new(msg.as_slice(), &[], &dopts, &certs, NOW).unwrap();
        let mut out = Vec::new();
        dec.read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
        assert_eq!(dec.finish().unwrap().good().count(), 1, "{enc_threads} / {dec_threads}");
    }
}
