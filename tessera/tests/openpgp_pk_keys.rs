//! Session keys through certificates: PKESK packets made for an encryption
//! plan open with the recipients' secret keys (named and anonymous, v6 and
//! v4, several recipients), and the RFC 9580 A.8 X25519-AEAD-OCB sample
//! decrypts with the A.4 secret key.

use std::io::Read;
use std::path::PathBuf;

use tessera::openpgp::armor::ArmorReader;
use tessera::openpgp::key::{Cert, EncryptionPlan, GenerateOptions, KeyError, KeyProfile, decrypt_pkesks, generate};
use tessera::openpgp::packet::{BodyReader, read_header};
use tessera::openpgp::pkesk::Pkesk;
use tessera::openpgp::seipd::{ChunkOpener, V2Header};
use tessera::openpgp::{AeadAlg, Error, SymAlg};

fn vector(name: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/openpgp/keys").join(name)).unwrap()
}

#[test]
fn rfc9580_a8_x25519_ocb_sample_decrypts_with_the_a4_key() {
    let key = Cert::from_bytes(&vector("rfc9580_a4_v6_secret.asc")).unwrap();
    let armored = vector("rfc9580_a8_x25519_ocb.asc");
    let mut msg = Vec::new();
    ArmorReader::new(armored.as_slice()).read_to_end(&mut msg).unwrap();
    let mut r = msg.as_slice();
    let h = read_header(&mut r).unwrap().unwrap();
    assert_eq!(h.tag, 1);
    let mut body = Vec::new();
    BodyReader::new(&mut r, h.len).read_to_end(&mut body).unwrap();
    let pkesk = Pkesk::parse(&body).unwrap();
    let sk = decrypt_pkesks(std::slice::from_ref(&pkesk), std::slice::from_ref(&key)).unwrap();
    assert_eq!(hex::encode(&*sk.key), "dd708f6fa1ed65114d68d2343e7c2f1d");
    // The SEIPD v2 packet with that session key.
    let h = read_header(&mut r).unwrap().unwrap();
    assert_eq!(h.tag, 18);
    let mut seipd = BodyReader::new(&mut r, h.len);
    let mut head = [0u8; 36];
    seipd.read_exact(&mut head).unwrap();
    let header = V2Header::parse(head[1..].try_into().unwrap()).unwrap();
    let mut plain = Vec::new();
    ChunkOpener::new(seipd, &header, &sk.key).unwrap().read_to_end(&mut plain).unwrap();
    // A literal data packet holding "Hello, world!", then padding.
    assert_eq!(&plain[..2], &[0xcb, 0x13]);
    assert_eq!(&plain[8..21], b"Hello, world!");
    // The certificate alone cannot decrypt.
    let e = decrypt_pkesks(&[pkesk], &[key.to_public()]).unwrap_err();
    assert!(e.to_string().contains("0x12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885"), "{e}");
}

fn key(profile: KeyProfile, uid: &str) -> Cert {
    generate(&GenerateOptions {
        profile,
        user_ids: vec![uid.into()],
        created: Some(1_700_000_000),
        ..Default::default()
    })
    .unwrap()
}

const AT: u64 = 1_700_000_100;

#[test]
fn plans_make_pkesks_that_each_recipient_opens() {
    let a = key(KeyProfile::Rfc9580, "A <a@example.org>");
    let b = key(KeyProfile::Rfc9580, "B <b@example.org>");
    let c = key(KeyProfile::Rfc4880, "C <c@example.org>");
    let bob = Cert::from_bytes(&vector("bob_secret.asc")).unwrap();
    let session = [0x42u8; 32];
    for (recipients, v2) in [(vec![&a, &b], true), (vec![&a, &c], false), (vec![&c], false), (vec![&a, &bob], false)] {
        let valid: Vec<_> = recipients.iter().map(|k| k.validate(AT.max(1_600_000_000)).unwrap()).collect();
        let plan = EncryptionPlan::new(&valid, true).unwrap();
        assert_eq!(plan.aead.is_some(), v2);
        let sk = if v2 { &session[..] } else { &session[..plan.cipher.key_len()] };
        for anonymous in [false, true] {
            let pkesks: Vec<Pkesk> =
                plan.pkesks(sk, anonymous).unwrap().iter().map(|p| Pkesk::parse(&p.to_vec()).unwrap()).collect();
            assert_eq!(pkesks.len(), recipients.len());
            for r in &recipients {
                let got = decrypt_pkesks(&pkesks, std::slice::from_ref(*r)).unwrap();
                assert_eq!(&*got.key, sk);
                assert_eq!(got.alg, if v2 { None } else { Some(plan.cipher) });
            }
            // Someone else's key opens nothing, and the error says whom it is for.
            let other = key(KeyProfile::Rfc9580, "O <o@example.org>");
            let e = decrypt_pkesks(&pkesks, &[other]).unwrap_err();
            assert!(matches!(e, Error::Key(KeyError::NoDecryptionKey { .. })), "{e}");
            if anonymous {
                assert!(e.to_string().contains("anonymous"), "{e}");
            } else {
                assert!(e.to_string().contains(&recipients[0].subkeys[0].key.public().key_id().to_string()), "{e}");
            }
        }
    }
    // v2 with AES-256 + OCB from the generated keys' preferences.
    let plan = EncryptionPlan::new(&[a.validate(AT).unwrap()], true).unwrap();
    assert_eq!((plan.cipher, plan.aead), (SymAlg::Aes256, Some(AeadAlg::Ocb)));
}

#[test]
fn a_locked_key_says_so() {
    let a = key(KeyProfile::Rfc9580, "A <a@example.org>");
    let plan = EncryptionPlan::new(&[a.validate(AT).unwrap()], true).unwrap();
    let pkesks = plan.pkesks(&[1u8; 32], false).unwrap();
    let mut locked = a.clone();
    locked.lock(b"pw").unwrap();
    let e = decrypt_pkesks(&pkesks, &[locked]).unwrap_err();
    assert!(matches!(e, Error::Key(KeyError::Locked(_))), "{e}");
}
