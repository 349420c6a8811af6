//! Session keys through certificates: PKESK packets made for an encryption
//! plan open with the recipients' secret keys (named and anonymous, v6 and
//! v4, several recipients), and the RFC 9580 A.8 X25519-AEAD-OCB sample
//! decrypts with the A.4 secret key.

use crate::common;

use std::io::{Read, Write};
use std::path::PathBuf;

use tessera::aead::Mode;
use tessera::openpgp::armor::ArmorReader;
use tessera::openpgp::key::{Cert, EncryptionPlan, GenerateOptions, KeyError, KeyProfile, decrypt_pkesks, generate};
use tessera::openpgp::packet::{BodyReader, read_header};
use tessera::openpgp::pkesk::Pkesk;
use tessera::openpgp::seipd::{ChunkOpener, V2Header};
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, Error, SeipdVersion, SymAlg};

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
    // tessera's v4 keys announce SEIPD v2 as its v6 keys do; the RFC 4880
    // sample Bob does not.
    let plans = [
        (vec![&a, &b], true),
        (vec![&a, &c], true),
        (vec![&c], true),
        (vec![&a, &bob], false),
        (vec![&c, &bob], false),
    ];
    for (recipients, v2) in plans {
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
    assert_eq!((plan.cipher, plan.aead), (SymAlg::Aes256, Some(Mode::Ocb)));
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

fn encrypt(data: &[u8], passwords: &[&[u8]], opts: &EncryptOptions) -> Vec<u8> {
    let mut enc = Encryptor::new(Vec::new(), passwords, opts).unwrap();
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

fn decrypt(msg: &[u8], passwords: &[&[u8]], keys: &[Cert]) -> tessera::openpgp::Result<(Vec<u8>, SeipdVersion)> {
    let opts = DecryptOptions { keys: keys.to_vec(), ..DecryptOptions::default() };
    let mut dec = Decryptor::with_options(msg, passwords, &opts)?;
    let mut out = Vec::new();
    dec.read_to_end(&mut out).map_err(Error::from_io)?;
    Ok((out, dec.seipd_version()))
}

#[test]
fn the_a8_sample_through_the_decryptor() {
    let key = Cert::from_bytes(&vector("rfc9580_a4_v6_secret.asc")).unwrap();
    let (out, v) = decrypt(&vector("rfc9580_a8_x25519_ocb.asc"), &[], &[key]).unwrap();
    assert_eq!((out.as_slice(), v), (&b"Hello, world!"[..], SeipdVersion::V2));
}

#[test]
fn streaming_encryptor_and_decryptor_with_keys_and_passwords() {
    let a = key(KeyProfile::Rfc9580, "A <a@example.org>");
    let b = key(KeyProfile::Rfc9580, "B <b@example.org>");
    let c = key(KeyProfile::Rfc4880, "C <c@example.org>");
    let bob = Cert::from_bytes(&vector("bob_secret.asc")).unwrap();
    let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7) as u8).collect();
    let cheap = tessera::openpgp::S2kChoice::Iterated { count_octet: 0 };
    // SEIPD v1 only with a recipient that does not announce v2 (Bob, an RFC 4880 sample).
    let cases = [(vec![&a, &b, &c], SeipdVersion::V2), (vec![&a, &c, &bob], SeipdVersion::V1)];
    for (recipients, v) in cases {
        for anonymous in [false, true] {
            let opts = EncryptOptions {
                recipients: recipients.iter().map(|k| k.to_public()).collect(),
                anonymous_recipients: anonymous,
                s2k: cheap,
                armor: anonymous,
                ..EncryptOptions::default()
            };
            let msg = encrypt(&data, &[b"pw"], &opts);
            for k in &recipients {
                assert_eq!(decrypt(&msg, &[], std::slice::from_ref(*k)).unwrap(), (data.clone(), v));
            }
            assert_eq!(decrypt(&msg, &[b"pw"], &[]).unwrap().0, data);
            // A wrong key then the right password: the password still opens it.
            let other = key(KeyProfile::Rfc9580, "O <o@example.org>");
            assert_eq!(decrypt(&msg, &[b"pw"], std::slice::from_ref(&other)).unwrap().0, data);
            let e = decrypt(&msg, &[], &[other]).unwrap_err();
            assert!(matches!(e, Error::Key(KeyError::NoDecryptionKey { .. })), "{e}");
        }
    }
    // Refused recipients are named.
    let expired =
        generate(&GenerateOptions { created: Some(1_000_000_000), expires_in: Some(10), ..Default::default() })
            .unwrap();
    let opts = EncryptOptions { recipients: vec![expired.to_public()], ..EncryptOptions::default() };
    let e = Encryptor::new(Vec::new(), &[], &opts).unwrap_err();
    assert!(
        matches!(e, Error::Key(KeyError::Expired { .. })) && e.to_string().contains(&expired.fingerprint().to_hex()),
        "{e}"
    );
}

#[test]
fn allocations_do_not_grow_with_the_message_to_three_recipients() {
    let keys = [
        key(KeyProfile::Rfc9580, "A <a@example.org>"),
        key(KeyProfile::Rfc9580, "B <b@example.org>"),
        key(KeyProfile::Rfc9580, "C <c@example.org>"),
    ];
    let opts = EncryptOptions {
        recipients: keys.iter().map(Cert::to_public).collect(),
        chunk_octet: 6,
        // One thread: exact counts (worker threads make them timing-dependent;
        // openpgp_stream checks that path with slack).
        threads: 1,
        ..EncryptOptions::default()
    };
    let count = |n: usize| {
        let block = vec![7u8; 4096];
        let ((), allocs) = common::count_allocs(|| {
            let mut enc = Encryptor::new(std::io::sink(), &[], &opts).unwrap();
            for _ in 0..n {
                enc.write_all(&block).unwrap();
            }
            enc.finish().unwrap();
        });
        allocs
    };
    // The first encryption fills the certificates' signature check caches.
    count(1);
    assert_eq!(count(16), count(256));
    let small = encrypt(&vec![1u8; 16 * 4096], &[], &opts);
    let large = encrypt(&vec![1u8; 256 * 4096], &[], &opts);
    let dopts = DecryptOptions { keys: vec![keys[1].clone()], threads: 1, ..DecryptOptions::default() };
    let read = |m: &[u8]| {
        let (total, allocs) = common::count_allocs(|| {
            let mut dec = Decryptor::with_options(m, &[], &dopts).unwrap();
            let mut buf = [0u8; 4096];
            let mut total = 0;
            loop {
                match dec.read(&mut buf).unwrap() {
                    0 => break total,
                    n => total += n,
                }
            }
        });
        (total, allocs)
    };
    // The first decryption fills the key's signature check cache.
    read(&small);
    let ((small_len, small_allocs), (large_len, large_allocs)) = (read(&small), read(&large));
    assert_eq!((small_len, large_len), (16 * 4096, 256 * 4096));
    assert_eq!(small_allocs, large_allocs);
}

#[test]
fn a_key_without_an_encryption_flag_does_not_decrypt() {
    use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};
    let k = key(KeyProfile::Rfc9580, "A <a@example.org>");
    let opts = EncryptOptions { recipients: vec![k.to_public()], ..EncryptOptions::default() };
    let msg = encrypt(b"for encryption keys only", &[], &opts);
    assert_eq!(decrypt(&msg, &[], std::slice::from_ref(&k)).unwrap().0, b"for encryption keys only");
    // The same secret subkey, now bound (more recently) for authentication only.
    let mut auth_only = k.clone();
    let (primary, secret) = (k.primary.public(), k.primary.secret().unwrap().secret().unwrap());
    let created = auth_only.subkeys[0].sigs[0].created().unwrap() + 10;
    let binding = SignatureBuilder::new(SigType::SubkeyBinding, created)
        .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![0x20])))
        .sign_subkey_binding(primary, secret, k.subkeys[0].key.public())
        .unwrap();
    auth_only.subkeys[0].sigs.push(binding);
    assert!(!auth_only.may_decrypt_with(&auth_only.subkeys[0].key));
    let e = decrypt(&msg, &[], &[auth_only.clone()]).unwrap_err();
    assert!(matches!(e, Error::Key(KeyError::NoDecryptionKey { .. })), "{e}");
    // Nor through the PKESK layer directly, named or anonymous.
    let public = k.to_public();
    let plan = EncryptionPlan::new(&[public.validate(AT).unwrap()], true).unwrap();
    for anonymous in [false, true] {
        let pkesks = plan.pkesks(&[7u8; 32], anonymous).unwrap();
        assert!(decrypt_pkesks(&pkesks, std::slice::from_ref(&k)).is_ok());
        assert!(decrypt_pkesks(&pkesks, std::slice::from_ref(&auth_only)).is_err());
    }
}
