//! What must be refused however tolerant the reader is, each beside
//! Sequoia (pysequoia): messages outside the packet grammar of RFC 9580
//! §10.3 (a second literal data packet, a signature without its one-pass
//! signature, packets after the encrypted data), a signing subkey whose
//! primary-key binding signature (back-signature) has expired or is
//! missing, and a subkey whose binding grants no signing used to sign.

use crate::common;

use std::io::Read;

use common::hostile::{BackSig, CREATED, NOW, subkey_bound_with, victim_key};
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::hostile::{PASSWORD, Shape, Signed, Tamper, encrypt, literal, packet};
use tessera::openpgp::key::{Cert, KeyProfile};
use tessera::openpgp::packet::tag;
use tessera::openpgp::sig::{InlineVerifier, SigType, Signature, Signer, SigningKey, Verifier};
use tessera::openpgp::{DecryptOptions, Decryptor, Error};

const DATA: &[u8] = b"only what the grammar allows\n";

#[test]
fn signed_messages_outside_the_grammar_are_refused_as_by_sequoia() {
    let key = victim_key(KeyProfile::Rfc9580);
    let cert = key.to_public();
    let signed = Signed::new(&key, DATA, NOW - 1000).expect("signed");
    let mut cases = Vec::new();
    for shape in Shape::ALL {
        let m = shape.build(&signed);
        let r = InlineVerifier::new(m.as_slice(), std::slice::from_ref(&cert), NOW)
            .and_then(|v| v.verify_to(&mut std::io::sink()));
        match shape.is_valid() {
            true => assert!(r.is_ok_and(|r| r.iter().any(|r| r.is_good())), "{}", shape.name()),
            false => assert!(matches!(r, Err(Error::Malformed(_))), "{}: {r:?}", shape.name()),
        }
        // pysequoia's verify() takes at most one compression layer, and
        // Sequoia finds no good signature in a signature before the literal
        // data without a one-pass signature (which §10.3 allows).
        if !matches!(shape, Shape::NestedCompressed | Shape::SignatureFirst) {
            cases.push((shape, m));
        }
    }
    let Some(python) = common::peer_python("pysequoia") else { return };
    let cert_bytes = cert.to_bytes().expect("serialize").to_vec();
    let input: Vec<_> = cases.iter().map(|(_, m)| (cert_bytes.clone(), Vec::new(), m.clone())).collect();
    for ((shape, _), good) in cases.iter().zip(common::sequoia_verifies_bytes(&python, &input)) {
        // Sequoia ignores octets after the end of the deflate stream inside
        // the compressed data packet; tessera refuses them (SECURITY.md).
        let sequoia_reads = shape.is_valid() || *shape == Shape::DataAfterDeflate;
        assert_eq!(good, sequoia_reads, "Sequoia on {}", shape.name());
    }
}

/// What tessera decrypts out of `m` with [`PASSWORD`].
fn decrypt(m: &[u8]) -> Result<Vec<u8>, Error> {
    let mut d = Decryptor::with_options(m, &[PASSWORD], &DecryptOptions::default())?;
    let mut out = Vec::new();
    d.read_to_end(&mut out).map_err(Error::from_io)?;
    Ok(out)
}

#[test]
fn packets_after_the_encrypted_data_are_refused_as_by_sequoia() {
    let after: [(&str, Vec<u8>, bool); 5] = [
        ("nothing", Vec::new(), true),
        ("a padding packet", packet(tag::PADDING, &[0; 16]), true),
        ("a literal data packet", literal(b"unsigned"), false),
        ("a signature packet", packet(tag::SIGNATURE, &[4; 40]), false),
        ("octets that are no packet", vec![0x01, 0x02, 0x03], false),
    ];
    let mut messages = Vec::new();
    for version in [1, 2] {
        let m = encrypt(&literal(DATA), version, Tamper::None);
        for (what, extra, ok) in &after {
            let m = [&m[..], extra].concat();
            match ok {
                true => assert_eq!(decrypt(&m).expect(what), DATA, "SEIPD v{version}, {what}"),
                false => assert!(decrypt(&m).is_err(), "SEIPD v{version}, {what}: accepted"),
            }
            messages.push((format!("SEIPD v{version}, {what}"), m, *ok));
        }
    }
    let Some(python) = common::peer_python("pysequoia") else { return };
    let plain =
        common::sequoia_decrypts(&python, &messages.iter().map(|m| m.1.clone()).collect::<Vec<_>>(), "password");
    for ((what, _, ok), plain) in messages.iter().zip(plain) {
        assert_eq!(plain.is_some(), *ok, "Sequoia on {what}");
    }
}

/// A signature over [`DATA`] made at `at` by the last subkey of `key`.
fn by_subkey(key: &Cert, secret: &tessera::openpgp::crypto::SecretMaterial, at: u32) -> Signature {
    let sub = key.subkeys.last().expect("a subkey").key.public();
    let keys = [SigningKey { public: sub, secret, hash: HashAlg::Sha512 }];
    let mut s = Signer::new(&keys, SigType::Binary, at).expect("signer");
    s.update(DATA);
    s.finish().expect("sign").remove(0)
}

fn tessera_good(cert: &Cert, sig: &Signature) -> bool {
    let mut v = Verifier::new(vec![sig.clone()], std::slice::from_ref(cert), NOW);
    v.update(DATA);
    v.finish().iter().any(|r| r.is_good())
}

/// Each `(name, key, signature, expected)`: tessera's verdict is the
/// expected one, and so is Sequoia's.
fn judge(cases: &[(&str, Cert, Signature, bool)]) {
    for (name, cert, sig, good) in cases {
        assert_eq!(tessera_good(cert, sig), *good, "tessera on {name}");
    }
    let Some(python) = common::peer_python("pysequoia") else { return };
    let pairs: Vec<_> = cases.iter().map(|(_, c, s, _)| (std::slice::from_ref(c), s)).collect();
    for ((name, _, _, good), seq) in cases.iter().zip(common::sequoia_verifies(&python, &pairs, DATA)) {
        assert_eq!(seq, *good, "Sequoia on {name}");
    }
}

#[test]
fn a_signing_subkey_counts_only_while_its_back_signature_lives() {
    let (key, secret) = subkey_bound_with(Some(0x02), BackSig::Expiring(1000));
    let cert = key.to_public();
    let (lasting, lasting_secret) = subkey_bound_with(Some(0x02), BackSig::Lasting);
    let (missing, missing_secret) = subkey_bound_with(Some(0x02), BackSig::Missing);
    judge(&[
        ("made while the back-signature lived", cert.clone(), by_subkey(&key, &secret, CREATED + 500), true),
        ("made after the back-signature expired", cert, by_subkey(&key, &secret, CREATED + 2000), false),
        (
            "a back-signature that never expires",
            lasting.to_public(),
            by_subkey(&lasting, &lasting_secret, CREATED + 2000),
            true,
        ),
        ("no back-signature", missing.to_public(), by_subkey(&missing, &missing_secret, CREATED + 500), false),
    ]);
}

#[test]
fn a_subkey_that_may_not_sign_makes_no_good_signature() {
    let at = CREATED + 500;
    let mut cases = Vec::new();
    for (name, flags, good) in [
        ("flags: sign", Some(0x02), true),
        ("flags: encrypt communications and storage", Some(0x0c), false),
        ("flags: authenticate", Some(0x20), false),
        ("flags: none", Some(0x00), false),
        ("no Key Flags subpacket: implied by the algorithm, as Sequoia does", None, true),
    ] {
        let (key, secret) = subkey_bound_with(flags, BackSig::Lasting);
        cases.push((name, key.to_public(), by_subkey(&key, &secret, at), good));
    }
    judge(&cases);
}
