//! RFC 9980 (post-quantum OpenPGP) against its Appendix A vectors
//! (tests/vectors/openpgp/rfc9980/): every key parses and re-serializes byte
//! for byte, its secret halves derive its public halves, its
//! self-signatures verify (composite ML-DSA+EdDSA over SHA3), every sample
//! message decrypts (ML-KEM+X25519 and ML-KEM-1024+X448, PKESK v3 and v6,
//! SEIPD v1 and v2) and its signatures verify, and the detached samples
//! verify; then keys of every composite algorithm are made, used and
//! damaged here.

use std::io::{Read, Write};

use tessera::openpgp::crypto::{self, HashAlg, Hasher, KeyType, PkeskVersion, PublicKeyAlg};
use tessera::openpgp::key::Cert;
use tessera::openpgp::sig::{Outcome, Verifier, read_signatures};
use tessera::openpgp::{DecryptOptions, Error, SymAlg, VerifyingDecryptor};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9980");
/// After every vector key was made, before any expires.
const NOW: u64 = 1_760_000_000;

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}/{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn cert(name: &str) -> Cert {
    Cert::from_bytes(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

const SAMPLES: [&str; 7] = [
    "v6-eddsa-sample",
    "v4-eddsa-sample",
    "v6-mldsa-65-sample",
    "v6-mldsa-87-sample",
    "v6-slhdsa-128s-sample",
    "v6-slhdsa-128f-sample",
    "v6-slhdsa-256s-sample",
];

#[test]
fn every_key_parses_validates_and_reserializes_byte_for_byte() {
    for sample in SAMPLES {
        for part in ["pk", "sk"] {
            let name = format!("{sample}-{part}.asc");
            let c = cert(&name);
            c.validate(NOW).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut armored = Vec::new();
            tessera::openpgp::armor::ArmorReader::new(read(&name).as_slice()).read_to_end(&mut armored).unwrap();
            assert_eq!(*c.to_bytes().unwrap(), armored, "{name} re-serialized");
            assert_eq!(c.subkeys.len(), 1, "{name}");
        }
        let public = cert(&format!("{sample}-sk.asc")).to_public().to_bytes().unwrap();
        assert_eq!(public, cert(&format!("{sample}-pk.asc")).to_bytes().unwrap(), "{sample}");
    }
}

#[test]
fn the_fingerprints_and_algorithms_are_the_drafts() {
    for (sample, primary, subkey, algs) in [
        (
            "v6-eddsa-sample",
            "c789e17d9dbdca7b3c833a3c063feb0353f80ad911fe27868fb0645df803e947",
            "dafe0eebb2675ecfcdc20a23fe89ca5d12e83f527dfa354b6dcf662131a48b9d",
            (PublicKeyAlg::Ed25519, PublicKeyAlg::MlKem768X25519),
        ),
        (
            "v4-eddsa-sample",
            "342e5db2de345215cb2c944f7102ffed3b9cf12d",
            "e51dbfea51936988b5428fffa4f95f985ed61a51",
            (PublicKeyAlg::Ed25519, PublicKeyAlg::MlKem768X25519),
        ),
        (
            "v6-mldsa-65-sample",
            "a3e2e14b6a493ff930fb27321f125e9a6880338be9fb7da3ae065ea65793242f",
            "7dae8fbce23022607167af72a002e774e0ca379a2d7ae072384e1e8fde3265e4",
            (PublicKeyAlg::MlDsa65Ed25519, PublicKeyAlg::MlKem768X25519),
        ),
        (
            "v6-mldsa-87-sample",
            "0d7a8be1410cd68eed4845ab487b4b4cfaecd8ebad1a1166a84230499200ee20",
            "65090e147a8116ab7f62ab4ec7aae59d9e6532feb2af230c73cdc869fbc60c8f",
            (PublicKeyAlg::MlDsa87Ed448, PublicKeyAlg::MlKem1024X448),
        ),
        (
            "v6-slhdsa-128s-sample",
            "eed4d13fc36c78e48276a93233339c4dd230fd5f6f5c5b82c63d5c0b5e361d92",
            "3e8745a4bb488779e0f32480fa23f8d0bfd8c2f49d7f74e957e1c2ffc2ef4bfc",
            (PublicKeyAlg::SlhDsaShake128s, PublicKeyAlg::MlKem768X25519),
        ),
        (
            "v6-slhdsa-128f-sample",
            "d54e0307021169f7b88beb2b76e3aad0e114be1a8f982d74dba9ca51d03537f4",
            "d8875664256c382dd7f3a5ce05021088922811f5d0b1a1f8c7769944a51b7002",
            (PublicKeyAlg::SlhDsaShake128f, PublicKeyAlg::MlKem768X25519),
        ),
        (
            "v6-slhdsa-256s-sample",
            "72fff84863aeba67f0d1d7691173247dd427533b9d7ee76011c6f77f2ce9fa7a",
            "570a5bbab93169876a8240da35a1ada7ba8a640aabe3ab467c797214844df15f",
            (PublicKeyAlg::SlhDsaShake256s, PublicKeyAlg::MlKem1024X448),
        ),
    ] {
        let c = cert(&format!("{sample}-pk.asc"));
        let sub = c.subkeys[0].key.public();
        assert_eq!(c.fingerprint().to_hex(), primary.to_uppercase(), "{sample}");
        assert_eq!(sub.fingerprint().to_hex(), subkey.to_uppercase(), "{sample}");
        assert_eq!((c.primary.public().alg(), sub.alg()), algs, "{sample}");
    }
    // Key sizes as `key show` prints them and the signing hash follows them:
    // the ECC half's, or SLH-DSA's 2n.
    let bits: Vec<usize> =
        SAMPLES.iter().map(|s| cert(&format!("{s}-pk.asc")).primary.public().material().bits()).collect();
    assert_eq!(bits, [255, 255, 255, 448, 256, 256, 512]);
}

fn decrypt(sk: &str, message: &str, signers: &[Cert]) -> (Vec<u8>, Vec<Outcome>) {
    let opts = DecryptOptions { keys: vec![cert(sk)], ..DecryptOptions::default() };
    let msg = read(message);
    let mut dec =
        VerifyingDecryptor::new(msg.as_slice(), &[], &opts, signers, NOW).unwrap_or_else(|e| panic!("{message}: {e}"));
    let mut out = Vec::new();
    dec.read_to_end(&mut out).unwrap_or_else(|e| panic!("{message}: {e}"));
    let results = dec.finish_results().unwrap();
    (out, results.into_iter().map(|r| r.outcome).collect())
}

#[test]
fn every_sample_message_decrypts_and_its_signature_verifies() {
    for (sample, message) in [
        ("v6-eddsa-sample", "v6-eddsa-sample-message.asc"),
        ("v4-eddsa-sample", "v4-eddsa-sample-message-v1.asc"),
        ("v4-eddsa-sample", "v4-eddsa-sample-message-v2.asc"),
        ("v6-mldsa-65-sample", "v6-mldsa-65-sample-message.asc"),
        ("v6-mldsa-87-sample", "v6-mldsa-87-sample-message.asc"),
        ("v6-slhdsa-128s-sample", "v6-slhdsa-128s-sample-message.asc"),
    ] {
        let signer = cert(&format!("{sample}-pk.asc"));
        let (plain, outcomes) = decrypt(&format!("{sample}-sk.asc"), message, &[signer]);
        assert_eq!(plain, b"Testing\n", "{message}");
        assert!(outcomes.iter().all(Outcome::is_good), "{message}: {outcomes:?}");
    }
}

#[test]
fn the_detached_samples_verify_and_fail_on_other_data() {
    for sample in SAMPLES[2..].iter() {
        let certs = [cert(&format!("{sample}-pk.asc"))];
        let sigs = read_signatures(read(&format!("{sample}-signature.asc")).as_slice()).unwrap();
        for (data, good) in [(b"Testing\n".as_slice(), true), (b"Testing!\n".as_slice(), false)] {
            let mut v = Verifier::new(sigs.clone(), &certs, NOW);
            v.write_all(data).unwrap();
            let outcomes: Vec<_> = v.finish().into_iter().map(|r| r.outcome).collect();
            assert_eq!(outcomes.iter().all(Outcome::is_good), good, "{sample}: {outcomes:?}");
        }
    }
}

/// The algorithms made and used here. SLH-DSA-SHAKE-128s and 256s take
/// seconds to sign even optimised (BENCHMARKS.md); the same code with
/// other parameters signs 128f here, and their vectors verify above.
const COMPOSITE: [(KeyType, PublicKeyAlg); 5] = [
    (KeyType::MlDsa65Ed25519, PublicKeyAlg::MlDsa65Ed25519),
    (KeyType::MlDsa87Ed448, PublicKeyAlg::MlDsa87Ed448),
    (KeyType::SlhDsaShake128f, PublicKeyAlg::SlhDsaShake128f),
    (KeyType::MlKem768X25519, PublicKeyAlg::MlKem768X25519),
    (KeyType::MlKem1024X448, PublicKeyAlg::MlKem1024X448),
];

#[test]
fn generated_keys_sign_verify_encrypt_and_decrypt() {
    for (kind, alg) in COMPOSITE {
        let (public, secret) = crypto::generate(kind).unwrap();
        assert_eq!(public.alg(), alg);
        secret.check(&public).unwrap();
        let bytes = public.to_vec();
        assert_eq!(crypto::PublicMaterial::parse(alg, &mut bytes.as_slice()).unwrap(), public);
        let (_, other) = crypto::generate(kind).unwrap();
        assert!(matches!(other.check(&public), Err(Error::KeyMismatch)), "{alg:?}");
        let (e, p) = (crypto::PublicMaterial::parse(alg, &mut &bytes[..bytes.len() - 1]), &bytes);
        assert!(e.is_err(), "{alg:?}: {} octets cut short", p.len());
        if alg.can_sign() {
            let digest = Hasher::digest(HashAlg::Sha3_256, b"data");
            let sig = crypto::sign(&secret, &public, HashAlg::Sha3_256, &digest).unwrap();
            crypto::verify(&public, HashAlg::Sha3_256, &digest, &sig).unwrap();
            // Hedged: the same digest signed again gives another signature.
            assert_ne!(crypto::sign(&secret, &public, HashAlg::Sha3_256, &digest).unwrap(), sig, "{alg:?}");
            let other_digest = Hasher::digest(HashAlg::Sha3_256, b"date");
            assert!(matches!(
                crypto::verify(&public, HashAlg::Sha3_256, &other_digest, &sig),
                Err(Error::BadSignature)
            ));
        } else {
            for (version, sym) in [(PkeskVersion::V6, None), (PkeskVersion::V3, Some(SymAlg::Aes256))] {
                let fpr = [0u8; 32];
                let payload = crypto::encrypt_session_key(&public, &fpr, version, sym, &[0x5a; 32]).unwrap();
                let key = crypto::decrypt_session_key(&secret, &public, &fpr, &payload, version).unwrap();
                assert_eq!((key.alg, key.key.as_slice()), (sym, [0x5a; 32].as_slice()), "{alg:?}");
                // ML-KEM's implicit rejection: another key ends in the same error as any wrong key.
                let wrong = crypto::decrypt_session_key(&other, &public, &fpr, &payload, version);
                assert!(matches!(wrong, Err(Error::SessionKeyDecryption)), "{alg:?}");
            }
        }
    }
}

/// Every flipped bit of a composite signature fails, in either half.
#[test]
fn a_signature_with_either_half_broken_fails() {
    let (public, secret) = crypto::generate(KeyType::MlDsa65Ed25519).unwrap();
    let digest = Hasher::digest(HashAlg::Sha256, b"data");
    let sig = crypto::sign(&secret, &public, HashAlg::Sha256, &digest).unwrap().to_vec();
    for at in [0, 31, 63, 64, 65, 1000, sig.len() - 1] {
        let mut bad = sig.clone();
        bad[at] ^= 0x10;
        let parsed = crypto::SigMaterial::parse(PublicKeyAlg::MlDsa65Ed25519, &mut bad.as_slice()).unwrap();
        assert!(crypto::verify(&public, HashAlg::Sha256, &digest, &parsed).is_err(), "bit flipped at {at}");
    }
}

/// Every flip of the PKESK payload fails as a wrong key does, never panics.
#[test]
fn a_damaged_composite_pkesk_fails_as_a_wrong_key() {
    let (public, secret) = crypto::generate(KeyType::MlKem768X25519).unwrap();
    let fpr = [0u8; 32];
    let payload = crypto::encrypt_session_key(&public, &fpr, PkeskVersion::V6, None, &[7; 32]).unwrap();
    let mut bytes = Vec::new();
    payload.serialize(&mut bytes);
    assert_eq!(bytes.len(), 32 + 1088 + 1 + 40);
    for at in [0, 31, 32, 500, 1119, 1121, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 1;
        let Ok(parsed) =
            crypto::PkeskPayload::parse(PublicKeyAlg::MlKem768X25519, PkeskVersion::V6, &mut bad.as_slice())
        else {
            continue;
        };
        let r = crypto::decrypt_session_key(&secret, &public, &fpr, &parsed, PkeskVersion::V6);
        assert!(matches!(r, Err(Error::SessionKeyDecryption)), "flip at {at}: {r:?}");
    }
    for cut in [0, 31, 32, 1119, 1120, bytes.len() - 1] {
        let r = crypto::PkeskPayload::parse(PublicKeyAlg::MlKem768X25519, PkeskVersion::V6, &mut &bytes[..cut]);
        assert!(r.is_err(), "cut at {cut}");
    }
}

/// The packets of an armored vector, as (tag, body).
fn packets(name: &str) -> Vec<(u8, Vec<u8>)> {
    let mut binary = Vec::new();
    tessera::openpgp::armor::ArmorReader::new(read(name).as_slice()).read_to_end(&mut binary).unwrap();
    tessera::openpgp::packet::split_packets(&binary).unwrap()
}

/// A v4 key packet body holding `material` of `alg`.
fn v4_key_body(alg: PublicKeyAlg, material: &crypto::PublicMaterial) -> Vec<u8> {
    let mut body = vec![4, 0x60, 0, 0, 0, alg.id()];
    material.serialize(&mut body);
    body
}

#[test]
fn a_post_quantum_algorithm_where_rfc9980_forbids_it_is_refused() {
    // v4 key packets: of RFC 9980's algorithms only ML-KEM-768+X25519 may
    // be there (every algorithm of the vectors' keys, moved into a v4 packet).
    for sample in SAMPLES {
        let c = cert(&format!("{sample}-pk.asc"));
        for key in [c.primary.public(), c.subkeys[0].key.public()] {
            let alg = key.alg();
            let parsed = tessera::openpgp::key::PublicKey::parse(&v4_key_body(alg, key.material()));
            assert_eq!(parsed.is_ok(), alg.allowed_in_v4(), "{alg:?}");
            assert_eq!(alg.allowed_in_v4(), !alg.is_post_quantum() || alg == PublicKeyAlg::MlKem768X25519);
        }
    }
    // A certificate whose v4 primary key is ML-DSA-65+Ed25519 is refused;
    // one whose v4 subkey is ML-KEM-1024+X448 keeps its primary key and
    // loses that subkey.
    let (dsa, _) = crypto::generate(KeyType::MlDsa65Ed25519).unwrap();
    let v4 = packets("v4-eddsa-sample-pk.asc");
    let mut bad_primary = v4.clone();
    bad_primary[0].1 = v4_key_body(PublicKeyAlg::MlDsa65Ed25519, &dsa);
    assert!(matches!(
        Cert::from_bytes(&tessera::openpgp::packet::join_packets(&bad_primary)),
        Err(Error::Unsupported(_))
    ));
    let (kem, _) = crypto::generate(KeyType::MlKem1024X448).unwrap();
    let mut bad_subkey = v4.clone();
    let sub = bad_subkey.iter().position(|(tag, _)| *tag == 14).unwrap();
    bad_subkey[sub].1 = v4_key_body(PublicKeyAlg::MlKem1024X448, &kem);
    let c = Cert::from_bytes(&tessera::openpgp::packet::join_packets(&bad_subkey)).unwrap();
    assert!(c.subkeys.is_empty());
    assert!(c.validate(NOW).unwrap().require_encryption_keys().is_err());
    // A v4 signature packet with ML-DSA-65+Ed25519 is malformed.
    let sigs = packets("v6-mldsa-65-sample-signature.asc");
    let mut v4_sig = sigs[0].1.clone();
    v4_sig[0] = 4;
    assert!(tessera::openpgp::sig::Signature::parse(&v4_sig).is_err());
}

#[test]
fn a_composite_key_with_a_zero_ecc_point_or_the_wrong_length_is_refused() {
    let (public, _) = crypto::generate(KeyType::MlKem768X25519).unwrap();
    let mut bytes = public.to_vec();
    for b in &mut bytes[..32] {
        *b = 0;
    }
    assert!(matches!(
        crypto::PublicMaterial::parse(PublicKeyAlg::MlKem768X25519, &mut bytes.as_slice()),
        Err(Error::Malformed(_))
    ));
    let bytes = public.to_vec();
    for cut in [0, 31, 32, bytes.len() - 1] {
        assert!(
            crypto::PublicMaterial::parse(PublicKeyAlg::MlKem768X25519, &mut &bytes[..cut]).is_err(),
            "cut at {cut}"
        );
    }
}

#[test]
fn post_quantum_recipients_get_aes_256() {
    use tessera::openpgp::key::{EncryptionPlan, GenerateOptions, KeyProfile, generate};
    let t = 1_700_000_000u32;
    let make = |profile| {
        let opts = GenerateOptions {
            profile,
            user_ids: vec!["A <a@example.org>".into()],
            created: Some(t),
            ..Default::default()
        };
        generate(&opts).unwrap()
    };
    let (pq, classical, pq_v4) = (make(KeyProfile::Rfc9980), make(KeyProfile::Rfc9580), make(KeyProfile::Rfc9980V4));
    let now = u64::from(t);
    let plan = EncryptionPlan::new(&[classical.validate(now).unwrap(), pq.validate(now).unwrap()], true).unwrap();
    assert_eq!(plan.cipher, SymAlg::Aes256);
    let plan = EncryptionPlan::new(&[pq_v4.validate(now).unwrap()], false).unwrap();
    assert_eq!((plan.cipher, plan.aead), (SymAlg::Aes256, None));
}
