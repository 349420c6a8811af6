//! The public-key algorithm layer: PKCS#1 v1.5 and ECDSA vectors made by
//! the Python `cryptography` package (tests/vectors/pk_cryptography.json),
//! round trips for every key type, and malformed input.

use tessera::openpgp::SymAlg;
use tessera::openpgp::crypto::{
    self, Curve, HashAlg, Hasher, KeyType, Mpi, PkeskPayload, PkeskVersion, PublicKeyAlg, PublicMaterial,
    SecretMaterial, SigMaterial,
};

fn json() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/pk_cryptography.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn mpi(v: &serde_json::Value) -> Mpi {
    Mpi::new(&hex::decode(v.as_str().unwrap()).unwrap())
}

fn hash_named(name: &str) -> HashAlg {
    [
        HashAlg::Sha1,
        HashAlg::Sha224,
        HashAlg::Sha256,
        HashAlg::Sha384,
        HashAlg::Sha512,
        HashAlg::Sha3_256,
        HashAlg::Sha3_512,
    ]
    .into_iter()
    .find(|h| h.name() == name)
    .unwrap()
}

#[test]
fn rsa_pkcs1v15_matches_cryptography() {
    let v = json();
    let rsa = &v["rsa"];
    let public = PublicMaterial::Rsa { n: mpi(&rsa["n"]), e: mpi(&rsa["e"]) };
    // cryptography's p and q are in either order; OpenPGP wants p < q and u = p^-1 mod q,
    // but signing only uses d, p and q.
    let secret = SecretMaterial::Rsa {
        d: mpi(&rsa["d"]),
        p: mpi(&rsa["p"]),
        q: mpi(&rsa["q"]),
        u: Mpi::new(&[1]),
        prepared: Default::default(),
    };
    secret.check(&public).unwrap();
    for case in rsa["sigs"].as_array().unwrap() {
        let hash = hash_named(case["hash"].as_str().unwrap());
        let digest = hex::decode(case["digest"].as_str().unwrap()).unwrap();
        let expected = SigMaterial::Rsa { s: mpi(&case["sig"]) };
        crypto::verify(&public, hash, &digest, &expected).unwrap();
        // PKCS#1 v1.5 signatures are deterministic: ours must be the same bytes.
        assert_eq!(crypto::sign(&secret, &public, hash, &digest).unwrap(), expected, "{hash:?}");
        let mut other = digest.clone();
        other[0] ^= 1;
        assert!(matches!(crypto::verify(&public, hash, &other, &expected), Err(tessera::openpgp::Error::BadSignature)));
    }
}

#[test]
fn ecdsa_matches_cryptography() {
    let v = json();
    for case in v["ecdsa"].as_array().unwrap() {
        let curve = match case["curve"].as_str().unwrap() {
            "P-256" => Curve::NistP256,
            "P-384" => Curve::NistP384,
            _ => Curve::NistP521,
        };
        let hash = hash_named(case["hash"].as_str().unwrap());
        let public = PublicMaterial::Ecdsa { curve, point: mpi(&case["point"]) };
        let secret = SecretMaterial::Ecdsa { scalar: mpi(&case["scalar"]) };
        secret.check(&public).unwrap();
        let digest = hex::decode(case["digest"].as_str().unwrap()).unwrap();
        let theirs = SigMaterial::Ecdsa { r: mpi(&case["r"]), s: mpi(&case["s"]) };
        crypto::verify(&public, hash, &digest, &theirs).unwrap();
        let ours = crypto::sign(&secret, &public, hash, &digest).unwrap();
        crypto::verify(&public, hash, &digest, &ours).unwrap();
        let mut other = digest.clone();
        other[3] ^= 0x80;
        assert!(crypto::verify(&public, hash, &other, &theirs).is_err());
    }
}

const SIGNERS: [KeyType; 7] = [
    KeyType::Ed25519,
    KeyType::Ed448,
    KeyType::EdDsaLegacy,
    KeyType::Ecdsa(Curve::NistP256),
    KeyType::Ecdsa(Curve::NistP384),
    KeyType::Ecdsa(Curve::NistP521),
    KeyType::Rsa(2048),
];

const ENCRYPTERS: [KeyType; 7] = [
    KeyType::X25519,
    KeyType::X448,
    KeyType::EcdhCurve25519Legacy,
    KeyType::Ecdh(Curve::NistP256),
    KeyType::Ecdh(Curve::NistP384),
    KeyType::Ecdh(Curve::NistP521),
    KeyType::Rsa(2048),
];

/// Serializes and parses material back, as a key packet round trip would.
fn reparse(public: &PublicMaterial, secret: &SecretMaterial) -> (PublicMaterial, SecretMaterial) {
    let bytes = public.to_vec();
    let mut input = bytes.as_slice();
    let p = PublicMaterial::parse(public.alg(), &mut input).unwrap();
    assert!(input.is_empty());
    assert_eq!(&p, public);
    let sbytes = secret.to_vec();
    let mut input = sbytes.as_slice();
    let s = SecretMaterial::parse(&p, &mut input).unwrap();
    assert!(input.is_empty());
    s.check(&p).unwrap();
    (p, s)
}

#[test]
fn sign_verify_round_trip_every_algorithm() {
    for kind in SIGNERS {
        let (public, secret) = crypto::generate(kind).unwrap();
        let (public, secret) = reparse(&public, &secret);
        for hash in [HashAlg::Sha256, HashAlg::Sha384, HashAlg::Sha512, HashAlg::Sha3_256, HashAlg::Sha3_512] {
            let digest = Hasher::digest(hash, b"round trip");
            let sig = crypto::sign(&secret, &public, hash, &digest).unwrap();
            let bytes = sig.to_vec();
            let parsed = SigMaterial::parse(public.alg(), &mut bytes.as_slice()).unwrap();
            crypto::verify(&public, hash, &digest, &parsed).unwrap();
            let other = Hasher::digest(hash, b"round trip!");
            assert!(crypto::verify(&public, hash, &other, &parsed).is_err(), "{kind:?} {hash:?}");
        }
    }
}

#[test]
fn session_key_round_trip_every_algorithm_and_version() {
    for kind in ENCRYPTERS {
        let (public, secret) = crypto::generate(kind).unwrap();
        let (other_public, other_secret) = crypto::generate(kind).unwrap();
        let fpr = [0x11u8; 20];
        for (version, sym, len) in
            [(PkeskVersion::V6, None, 16), (PkeskVersion::V6, None, 32), (PkeskVersion::V3, Some(SymAlg::Aes192), 24)]
        {
            let key: Vec<u8> = (0..len as u8).collect();
            let payload = crypto::encrypt_session_key(&public, &fpr, version, sym, &key).unwrap();
            let mut bytes = Vec::new();
            payload.serialize(&mut bytes);
            let parsed = PkeskPayload::parse(public.alg(), version, &mut bytes.as_slice()).unwrap();
            let sk = crypto::decrypt_session_key(&secret, &public, &fpr, &parsed, version).unwrap();
            assert_eq!((sk.alg, sk.key.as_slice()), (sym, key.as_slice()), "{kind:?}");
            // Another key of the same type cannot open it.
            assert!(crypto::decrypt_session_key(&other_secret, &other_public, &fpr, &parsed, version).is_err());
            // ECDH binds the fingerprint.
            if matches!(public, PublicMaterial::Ecdh { .. }) {
                assert!(crypto::decrypt_session_key(&secret, &public, &[0x12; 20], &parsed, version).is_err());
            }
        }
    }
}

#[test]
fn algorithm_ids_round_trip_and_refusals() {
    for id in 0..=255u8 {
        if let Ok(alg) = PublicKeyAlg::from_id(id) {
            assert_eq!(alg.id(), id);
        }
        if let Ok(h) = HashAlg::from_id(id) {
            assert_eq!(h.id(), id);
            assert_eq!(Hasher::new(h).finalize().len(), h.digest_len());
        }
    }
    for refused in [20, 0, 100] {
        assert!(PublicKeyAlg::from_id(refused).is_err());
    }
    // Elgamal and DSA are read (decryption and verification only).
    assert!(PublicKeyAlg::from_id(16).unwrap().can_decrypt() && !PublicKeyAlg::from_id(16).unwrap().can_encrypt());
    assert!(PublicKeyAlg::from_id(17).unwrap().can_sign());
    assert!(HashAlg::from_id(1).is_err(), "MD5");
    assert!(HashAlg::from_id(3).is_err(), "RIPEMD-160");
}

#[test]
fn malformed_material_is_an_error() {
    // Huge MPI length with little data; MPI over the size limit.
    assert!(PublicMaterial::parse(PublicKeyAlg::Rsa, &mut [0xff, 0xff, 1, 2].as_slice()).is_err());
    assert!(Mpi::parse(&mut [0x80, 0x00].as_slice()).is_err());
    // Truncated native keys and signatures.
    assert!(PublicMaterial::parse(PublicKeyAlg::Ed448, &mut [0u8; 56].as_slice()).is_err());
    assert!(SigMaterial::parse(PublicKeyAlg::Ed25519, &mut [0u8; 63].as_slice()).is_err());
    assert!(SigMaterial::parse(PublicKeyAlg::X25519, &mut [0u8; 64].as_slice()).is_err());
    // Unknown OID, reserved OID length, wrong point encoding.
    assert!(PublicMaterial::parse(PublicKeyAlg::Ecdsa, &mut [3, 1, 2, 3, 0, 8, 4].as_slice()).is_err());
    assert!(PublicMaterial::parse(PublicKeyAlg::Ecdsa, &mut [0].as_slice()).is_err());
    let mut p256 = vec![8];
    p256.extend_from_slice(Curve::NistP256.oid());
    p256.extend_from_slice(&[0x02, 0x08, 0x04, 0x01]);
    assert!(PublicMaterial::parse(PublicKeyAlg::Ecdsa, &mut p256.as_slice()).is_err());
    // A well-encoded point that is not on the curve.
    let mut bad_point = vec![0x04];
    bad_point.extend_from_slice(&[0x01; 64]);
    let public = PublicMaterial::Ecdsa { curve: Curve::NistP256, point: Mpi::new(&bad_point) };
    let digest = Hasher::digest(HashAlg::Sha256, b"x");
    let sig = SigMaterial::Ecdsa { r: Mpi::new(&[1]), s: Mpi::new(&[1]) };
    assert!(crypto::verify(&public, HashAlg::Sha256, &digest, &sig).is_err());
    let ecdh = PublicMaterial::Ecdh {
        curve: Curve::NistP256,
        point: Mpi::new(&bad_point),
        kdf_hash: HashAlg::Sha256,
        kdf_sym: SymAlg::Aes128,
    };
    assert!(crypto::encrypt_session_key(&ecdh, &[0; 20], PkeskVersion::V6, None, &[0; 16]).is_err());
    // Mismatched algorithm, wrong digest length, wrong session key length, version/cipher mix-ups.
    let (ed, ed_secret) = crypto::generate(KeyType::Ed25519).unwrap();
    assert!(crypto::verify(&ed, HashAlg::Sha256, &digest, &sig).is_err());
    assert!(crypto::sign(&ed_secret, &ed, HashAlg::Sha512, &digest).is_err());
    let (x, _) = crypto::generate(KeyType::X25519).unwrap();
    assert!(crypto::encrypt_session_key(&x, &[], PkeskVersion::V6, None, &[0; 15]).is_err());
    assert!(crypto::encrypt_session_key(&x, &[], PkeskVersion::V3, None, &[0; 16]).is_err());
    assert!(crypto::encrypt_session_key(&x, &[], PkeskVersion::V6, Some(SymAlg::Aes128), &[0; 16]).is_err());
    assert!(crypto::encrypt_session_key(&ed, &[], PkeskVersion::V6, None, &[0; 16]).is_err());
    // Secret material of another key fails the check.
    let (ed2, _) = crypto::generate(KeyType::Ed25519).unwrap();
    assert!(ed_secret.check(&ed2).is_err());
    assert!(ed_secret.check(&x).is_err());
}

#[test]
fn pkesk_packets_parse_strictly() {
    use tessera::openpgp::pkesk::Pkesk;
    // v6 anonymous X25519 and v3 wildcard.
    let mut v6 = vec![6, 0, 25];
    v6.extend_from_slice(&[9; 32]);
    v6.push(24);
    v6.extend_from_slice(&[1; 24]);
    let p = Pkesk::parse(&v6).unwrap();
    assert!(p.recipient.is_none());
    assert_eq!(p.to_vec(), v6);
    let mut trailing = v6.clone();
    trailing.push(0);
    assert!(Pkesk::parse(&trailing).is_err());
    for cut in 0..v6.len() {
        assert!(Pkesk::parse(&v6[..cut]).is_err());
    }
    // Fingerprint length that does not match the key version; unknown algorithm; v5.
    assert!(Pkesk::parse(&[6, 21, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25]).is_err());
    assert!(Pkesk::parse(&[3, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 1, 1]).is_err());
    assert!(Pkesk::parse(&[5, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1]).is_err());
    // v3 X25519 carries the cipher in the clear.
    let mut v3 = vec![3, 0, 0, 0, 0, 0, 0, 0, 0, 25];
    v3.extend_from_slice(&[9; 32]);
    v3.push(25);
    v3.push(9);
    v3.extend_from_slice(&[1; 24]);
    let p = Pkesk::parse(&v3).unwrap();
    assert!(matches!(p.payload, PkeskPayload::X25519 { sym: Some(SymAlg::Aes256), .. }));
    p.check().unwrap();
    assert_eq!(p.to_vec(), v3);
}

mod arbitrary_input {
    use super::*;
    use proptest::prelude::*;
    use tessera::openpgp::pkesk::Pkesk;

    const ALGS: [u8; 10] = [1, 2, 3, 18, 19, 22, 25, 26, 27, 28];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Parsing arbitrary bytes never panics, and what parses
        /// re-serializes to something that parses to the same value.
        #[test]
        fn material_parsers_never_panic(alg in proptest::sample::select(ALGS.to_vec()), bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let alg = PublicKeyAlg::from_id(alg).unwrap();
            if let Ok(p) = PublicMaterial::parse(alg, &mut bytes.as_slice()) {
                let again = p.to_vec();
                prop_assert_eq!(PublicMaterial::parse(alg, &mut again.as_slice()).unwrap(), p.clone());
                let _ = SecretMaterial::parse(&p, &mut bytes.as_slice());
            }
            if let Ok(s) = SigMaterial::parse(alg, &mut bytes.as_slice()) {
                let again = s.to_vec();
                prop_assert_eq!(SigMaterial::parse(alg, &mut again.as_slice()).unwrap(), s);
            }
            for version in [PkeskVersion::V3, PkeskVersion::V6] {
                let _ = PkeskPayload::parse(alg, version, &mut bytes.as_slice());
            }
            if let Ok(p) = Pkesk::parse(&bytes) {
                prop_assert_eq!(Pkesk::parse(&p.to_vec()).unwrap(), p);
            }
        }

        /// Decrypting arbitrary payloads with real keys is an error, never a panic.
        #[test]
        fn decrypting_garbage_is_an_error(which in 0usize..4, bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
            let kind = [KeyType::X25519, KeyType::X448, KeyType::EcdhCurve25519Legacy, KeyType::Ecdh(Curve::NistP256)][which];
            let (public, secret) = crypto::generate(kind).unwrap();
            for version in [PkeskVersion::V3, PkeskVersion::V6] {
                if let Ok(payload) = PkeskPayload::parse(public.alg(), version, &mut bytes.as_slice()) {
                    prop_assert!(crypto::decrypt_session_key(&secret, &public, &[0; 20], &payload, version).is_err());
                }
            }
        }
    }
}
