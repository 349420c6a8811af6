//! Keys and certificates: the RFC 9580 Appendix A samples and the
//! draft-bre-openpgp-samples keys (Alice, Bob) parse, their self-signatures
//! verify and their fingerprints match the published ones; generated keys
//! round-trip; bad certificates are refused with the reason.

use std::path::PathBuf;

use tessera::openpgp::Error;
use tessera::openpgp::key::{
    Cert, CertKey, GenerateOptions, KEY_UNLOCK_LIMITS, KeyError, KeyProfile, PublicKey, generate,
};
use tessera::openpgp::sig::{DocumentHasher, SigType, Signature, SignatureBuilder, Subpacket, SubpacketValue};

fn vector(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/openpgp/keys").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// 2024-06-01: every sample key is valid then.
const AT: u64 = 1_717_200_000;

/// Checks every signature of `cert` explicitly, by type.
fn all_self_sigs_verify(cert: &Cert) -> usize {
    let pk = cert.primary.public();
    let mut n = 0;
    for s in &cert.direct_sigs {
        s.verify_direct_key(pk).unwrap();
        n += 1;
    }
    for u in &cert.user_ids {
        for s in &u.sigs {
            s.verify_certification(pk, &u.value).unwrap();
            n += 1;
        }
    }
    for sk in &cert.subkeys {
        for s in &sk.sigs {
            s.verify_subkey_binding(pk, sk.key.public()).unwrap();
            n += 1;
        }
    }
    n
}

fn fps(cert: &Cert) -> Vec<String> {
    cert.keys().map(|k| k.public().fingerprint().to_hex()).collect()
}

#[test]
fn rfc9580_v6_certificate_and_secret_keys() {
    let want = [
        "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9",
        "12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885",
    ];
    for (file, secret) in [
        ("rfc9580_a3_v6_cert.asc", false),
        ("rfc9580_a4_v6_secret.asc", true),
        ("rfc9580_a5_v6_secret_locked.asc", true),
    ] {
        let cert = Cert::from_bytes(&vector(file)).unwrap();
        assert_eq!(fps(&cert), want, "{file}");
        assert_eq!(cert.is_secret(), secret);
        assert_eq!(all_self_sigs_verify(&cert), 2);
        let v = cert.validate(AT).unwrap();
        assert_eq!(v.encryption_keys().len(), 1);
        assert_eq!(v.encryption_keys()[0].public().fingerprint().to_hex(), want[1]);
        assert_eq!(v.primary.flags, 0x03);
        assert_eq!(v.features(), 0x09);
        // Serializing gives back the same packets.
        let again = Cert::from_bytes(&cert.to_bytes().unwrap()).unwrap();
        assert_eq!(again.to_bytes().unwrap(), cert.to_bytes().unwrap());
    }
}

#[test]
fn rfc9580_locked_key_unlocks_to_the_plain_one() {
    let plain = Cert::from_bytes(&vector("rfc9580_a4_v6_secret.asc")).unwrap();
    let locked = Cert::from_bytes(&vector("rfc9580_a5_v6_secret_locked.asc")).unwrap();
    let limits = KEY_UNLOCK_LIMITS;
    for l in locked.keys() {
        let l = l.secret().unwrap();
        assert!(l.is_locked());
        assert!(matches!(l.secret(), Err(Error::Key(KeyError::Locked(_)))));
    }
    // Argon2 with 2 GiB: one derivation per key, and the wrong password is
    // tried on generated keys (which use 64 MiB).
    let mut unlocked = locked.clone();
    unlocked.unlock(b"correct horse battery staple", &limits).unwrap();
    assert_eq!(unlocked.to_bytes().unwrap(), plain.to_bytes().unwrap());
}

#[test]
fn rfc9580_v4_ed25519_legacy_key_and_signature() {
    let body = vector("rfc9580_a1_v4_ed25519legacy.asc");
    let cert_err = Cert::from_bytes(&body);
    // A bare key without self-signatures parses but is not valid.
    let cert = cert_err.unwrap();
    assert_eq!(cert.fingerprint().to_hex(), "C959BDBAFA32A2F89A153B678CFDE12197965A9A");
    assert!(matches!(cert.validate(AT), Err(Error::Key(KeyError::NoValidSelfSignature { .. }))));
    // A.2: a binary signature over "OpenPGP" by that key.
    let armored = vector("rfc9580_a2_v4_signature.asc");
    let mut r = tessera::openpgp::armor::ArmorReader::new(armored.as_slice());
    let mut bin = Vec::new();
    std::io::Read::read_to_end(&mut r, &mut bin).unwrap();
    let h = tessera::openpgp::packet::read_header(&mut bin.as_slice()).unwrap().unwrap();
    assert_eq!(h.tag, 2);
    let sig = Signature::parse(&bin[2..]).unwrap();
    assert_eq!(sig.sig_type(), SigType::Binary);
    let f = sig.hashed_fields();
    let mut d = DocumentHasher::new(&f);
    d.update(b"OpenPGP");
    let digest = d.finish(&f);
    assert_eq!(hex::encode(&digest), "f6220a3f757814f4c2176ffbb68b00249cd4ccdc059c4b34ad871f30b1740280");
    sig.verify_digest(cert.primary.public(), &digest).unwrap();
    let mut d = DocumentHasher::new(&f);
    d.update(b"OpenPGp");
    assert!(sig.verify_digest(cert.primary.public(), &d.finish(&f)).is_err());
}

#[test]
fn draft_bre_alice_and_bob() {
    for (file, primary, sub, secret) in [
        (
            "alice_cert.asc",
            "EB85BB5FA33A75E15E944E63F231550C4F47E38E",
            "EA02B24FFD4C1B96616D3DF24766F6B9D5F21EB6",
            false,
        ),
        (
            "alice_secret.asc",
            "EB85BB5FA33A75E15E944E63F231550C4F47E38E",
            "EA02B24FFD4C1B96616D3DF24766F6B9D5F21EB6",
            true,
        ),
        ("bob_cert.asc", "D1A66E1A23B182C9980F788CFBFCC82A015E7330", "1DDCE15F09217CEE2F3B37607C2FAA4DF93C37B2", false),
        (
            "bob_secret.asc",
            "D1A66E1A23B182C9980F788CFBFCC82A015E7330",
            "1DDCE15F09217CEE2F3B37607C2FAA4DF93C37B2",
            true,
        ),
    ] {
        let cert = Cert::from_bytes(&vector(file)).unwrap();
        assert_eq!(fps(&cert), [primary, sub], "{file}");
        assert_eq!(cert.is_secret(), secret);
        assert_eq!(all_self_sigs_verify(&cert), 2, "{file}");
        let v = cert.validate(AT).unwrap();
        assert_eq!(v.encryption_keys().len(), 1);
        assert_eq!(v.encryption_keys()[0].public().fingerprint().to_hex(), sub);
        if secret {
            for k in cert.keys() {
                let s = k.secret().unwrap();
                assert!(!s.is_locked());
                s.secret().unwrap();
            }
        }
    }
    // Several certificates in one input, armored blocks one after another.
    let mut both = vector("alice_cert.asc");
    both.extend_from_slice(b"\n");
    both.extend_from_slice(&vector("bob_cert.asc"));
    let certs = Cert::read_all(both.as_slice()).unwrap();
    assert_eq!(certs.len(), 2);
    // And binary, concatenated.
    let mut bin = certs[0].to_bytes().unwrap();
    bin.extend_from_slice(&certs[1].to_bytes().unwrap());
    assert_eq!(Cert::read_all(bin.as_slice()).unwrap().len(), 2);
}

fn uid_opts(profile: KeyProfile) -> GenerateOptions {
    GenerateOptions { profile, user_ids: vec!["Tess <tess@example.org>".into()], ..Default::default() }
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

#[test]
fn generated_keys_round_trip_armored_and_locked() {
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let key = generate(&uid_opts(profile)).unwrap();
        let v = key.validate(now()).unwrap();
        assert_eq!(v.user_id, Some(&b"Tess <tess@example.org>"[..]));
        assert_eq!(v.encryption_keys().len(), 1);
        assert_eq!(v.signing_keys().len(), 1);
        let mut armored = Vec::new();
        key.write_armored(&mut armored).unwrap();
        assert!(armored.starts_with(b"-----BEGIN PGP PRIVATE KEY BLOCK-----"));
        let back = Cert::from_bytes(&armored).unwrap();
        assert_eq!(back.to_bytes().unwrap(), key.to_bytes().unwrap());
        let cert = key.to_public();
        let mut armored = Vec::new();
        cert.write_armored(&mut armored).unwrap();
        assert!(armored.starts_with(b"-----BEGIN PGP PUBLIC KEY BLOCK-----"));
        assert!(!Cert::from_bytes(&armored).unwrap().is_secret());

        let mut locked = key.clone();
        locked.lock(b"pw").unwrap();
        let reread = Cert::from_bytes(&locked.to_bytes().unwrap()).unwrap();
        assert!(reread.keys().all(|k| k.secret().unwrap().is_locked()));
        let mut open = reread.clone();
        assert!(open.unlock(b"nope", &KEY_UNLOCK_LIMITS).is_err());
        open.unlock(b"pw", &KEY_UNLOCK_LIMITS).unwrap();
        assert_eq!(open.to_bytes().unwrap(), key.to_bytes().unwrap());
    }
}

fn resign_binding(key: &Cert, subkey_flags: u8, created: u32) -> Signature {
    let pk = key.primary.public();
    let secret = key.primary.secret().unwrap().secret().unwrap();
    SignatureBuilder::new(SigType::SubkeyBinding, created)
        .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![subkey_flags])))
        .sign_subkey_binding(pk, secret, key.subkeys[0].key.public())
        .unwrap()
}

#[test]
fn bad_certificates_are_refused_with_the_reason() {
    let t = now();
    let created = (t - 1000) as u32;
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let base = GenerateOptions { created: Some(created), ..uid_opts(profile) };
        // Expired.
        let key = generate(&GenerateOptions { expires_in: Some(10), ..base.clone() }).unwrap();
        let e = key.validate(t).unwrap_err();
        assert!(matches!(e, Error::Key(KeyError::Expired { .. })), "{e}");
        assert!(e.to_string().contains(&key.fingerprint().to_hex()));
        key.validate(u64::from(created) + 5).unwrap();

        // Revoked.
        let key = generate(&base).unwrap();
        let mut revoked = key.clone();
        let rev = SignatureBuilder::new(SigType::KeyRevocation, created + 1)
            .subpacket(Subpacket::new(SubpacketValue::RevocationReason { code: 2, text: b"stolen".to_vec() }))
            .sign_direct_key(key.primary.public(), key.primary.secret().unwrap().secret().unwrap())
            .unwrap();
        // Appended after the certificate, as a revocation certificate is
        // (it then follows the last subkey), it still revokes the key.
        let mut appended = key.to_public().to_bytes().unwrap();
        tessera::openpgp::packet::write_packet(&mut *appended, 2, &rev.to_bytes()).unwrap();
        let e = Cert::from_bytes(&appended).unwrap().validate(t).unwrap_err();
        assert!(matches!(e, Error::Key(KeyError::Revoked { .. })), "appended revocation: {e}");
        revoked.direct_sigs.push(rev);
        let e = revoked.validate(t).unwrap_err();
        assert!(matches!(e, Error::Key(KeyError::Revoked { .. })) && e.to_string().contains("stolen"), "{e}");

        // A bad binding signature: the subkey is refused, so no encryption key.
        let mut bad = key.clone();
        let sig = bad.subkeys[0].sigs[0].to_bytes();
        let mut flipped = sig.clone();
        let n = flipped.len();
        flipped[n - 3] ^= 1;
        bad.subkeys[0].sigs[0] = Signature::parse(&flipped).unwrap();
        let v = bad.validate(t).unwrap();
        let e = v.require_encryption_keys().unwrap_err();
        assert!(matches!(e, Error::Key(KeyError::NoEncryptionKey { .. })), "{e}");
        assert!(e.to_string().contains("binding"), "{e}");

        // No encryption subkey at all.
        let mut none = key.clone();
        none.subkeys.clear();
        let e = none.validate(t).unwrap().require_encryption_keys().unwrap_err();
        assert!(e.to_string().contains("no subkey is flagged for encryption"), "{e}");

        // A newer binding that drops the encryption flags wins over the old one.
        let mut reflagged = key.clone();
        let newer = resign_binding(&key, 0x00, created + 2);
        reflagged.subkeys[0].sigs.push(newer);
        assert!(reflagged.validate(t).unwrap().encryption_keys().is_empty());

        // A signing subkey without a back-signature is refused.
        let mut signing = key.clone();
        signing.subkeys[0].sigs = vec![resign_binding(&key, 0x02, created + 2)];
        let v = signing.validate(t).unwrap();
        assert!(v.subkeys.is_empty() && v.refused[0].1.contains("back-signature"));
    }
}

#[test]
fn unknown_critical_subpackets_invalidate_signatures() {
    let key = generate(&uid_opts(KeyProfile::Rfc9580)).unwrap();
    let pk = key.primary.public();
    let secret = key.primary.secret().unwrap().secret().unwrap();
    let make = |critical: bool| {
        let sp = SubpacketValue::Other { kind: 101, body: vec![1, 2] };
        SignatureBuilder::new(SigType::DirectKey, pk.created())
            .subpacket(if critical { Subpacket::critical(sp) } else { Subpacket::new(sp) })
            .sign_direct_key(pk, secret)
            .unwrap()
    };
    make(false).verify_direct_key(pk).unwrap();
    assert!(make(true).verify_direct_key(pk).is_err());
    // Intended recipients are understood (the verifying decryptor compares
    // them with the decrypting key), so a critical one is accepted here.
    let ir = |critical: bool| {
        let sp = SubpacketValue::IntendedRecipient(pk.fingerprint());
        SignatureBuilder::new(SigType::DirectKey, pk.created())
            .subpacket(if critical { Subpacket::critical(sp) } else { Subpacket::new(sp) })
            .sign_direct_key(pk, secret)
            .unwrap()
    };
    ir(false).verify_direct_key(pk).unwrap();
    ir(true).verify_direct_key(pk).unwrap();
}

#[test]
fn malformed_key_packets_are_errors() {
    let good = Cert::from_bytes(&vector("alice_cert.asc")).unwrap().to_bytes().unwrap();
    // Every truncation of a binary certificate is an error or a shorter
    // certificate, never a panic.
    for n in 0..good.len() {
        let _ = Cert::read_all(&good[..n]);
    }
    // A v4 RSA key whose MPI claims 65535 bits with 3 octets present.
    let mut body = vec![4, 0x5d, 0xa5, 0x9c, 0xf2, 1, 0xff, 0xff, 1, 2, 3];
    assert!(PublicKey::parse_packet(&body).is_err());
    body.truncate(6);
    assert!(PublicKey::parse_packet(&body).is_err());
    // v6 key material length larger than the packet.
    let v6 = [6, 0, 0, 0, 1, 27, 0xff, 0xff, 0xff, 0xff, 1];
    assert!(PublicKey::parse_packet(&v6).is_err());
    // Unknown versions and algorithms.
    assert!(PublicKey::parse_packet(&[5, 0, 0, 0, 0, 27]).is_err());
    assert!(PublicKey::parse_packet(&[4, 0, 0, 0, 0, 99, 0]).is_err());
    // A packet length over the limit is refused before reading it.
    let huge = [0xc6, 0xff, 0x7f, 0xff, 0xff, 0xff, 4];
    assert!(Cert::read_all(&huge[..]).is_err());
    // Not a key at all.
    assert!(matches!(Cert::read_all(&b""[..]), Err(Error::Key(KeyError::NoKey))));
    let _ = CertKey::Public;
}

mod props {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// Random byte flips in a certificate or secret key never panic.
        #[test]
        fn flipped_keys_never_panic(pos in any::<prop::sample::Index>(), bit in 0u8..8, which in 0usize..3) {
            let file = ["alice_secret.asc", "rfc9580_a5_v6_secret_locked.asc", "bob_cert.asc"][which];
            let mut bin = Cert::from_bytes(&vector(file)).unwrap().to_bytes().unwrap();
            let i = pos.index(bin.len());
            bin[i] ^= 1 << bit;
            if let Ok(certs) = Cert::read_all(bin.as_slice()) {
                for c in certs {
                    let _ = c.validate(AT).map(|v| v.encryption_keys().len());
                }
            }
        }

        /// Random bytes never panic the parsers.
        #[test]
        fn random_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..400)) {
            let _ = Cert::read_all(data.as_slice());
            let _ = Signature::parse(&data);
            let _ = PublicKey::parse(&data);
            let _ = tessera::openpgp::sig::subpacket::parse_area(&data);
        }
    }
}

#[path = "../../../fuzz/src/keys.rs"]
mod fuzz_keys;

/// Replays the `cert_parse` fuzz seeds (and any crash saved beside them).
#[test]
fn cert_parse_fuzz_seeds() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/cert_parse");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let data = std::fs::read(e.unwrap().path()).unwrap();
        fuzz_keys::cert_parse(&data);
        for cut in [1, data.len() / 2] {
            fuzz_keys::cert_parse(&data[..data.len() - cut]);
        }
        n += 1;
    }
    assert!(n >= 4);
}
