//! Known-answer tests of the primitives under the algorithm layer:
//! RFC 8032 (Ed25519, Ed448), RFC 7748 (X25519, X448), RFC 3394 (key wrap).

use super::{edwards, kw};

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

fn arr<const N: usize>(s: &str) -> [u8; N] {
    h(s).try_into().unwrap()
}

#[test]
fn rfc8032_ed25519() {
    // TEST 1 (empty message) and TEST SHA(abc) (a SHA-512 digest, as OpenPGP signs).
    let cases = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
        ),
        (
            "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
            "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704",
        ),
    ];
    for (sk, pk, msg, sig) in cases {
        let seed: [u8; 32] = arr(sk);
        assert_eq!(edwards::ed25519_public(&seed), arr::<32>(pk));
        assert_eq!(edwards::ed25519_sign(&seed, &h(msg)), arr::<64>(sig));
        edwards::ed25519_verify(&arr(pk), &h(msg), &arr(sig)).unwrap();
        assert!(edwards::ed25519_verify(&arr(pk), b"x", &arr(sig)).is_err());
    }
}

#[test]
fn rfc8032_ed448_blank() {
    let seed: [u8; 57] = arr(
        "6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b",
    );
    let pk: [u8; 57] = arr(
        "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180",
    );
    let sig: [u8; 114] = arr(concat!(
        "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f2b233f034f628281f2fd7a22ddd47d7828c59bd0a21bfd3980",
        "ff0d2028d4b18a9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4dbb61149f05a7363268c71d95808ff2e652600"
    ));
    assert_eq!(edwards::ed448_public(&seed), pk);
    assert_eq!(edwards::ed448_sign(&seed, b""), sig);
    edwards::ed448_verify(&pk, b"", &sig).unwrap();
    assert!(edwards::ed448_verify(&pk, b"\0", &sig).is_err());
}

#[test]
fn rfc7748_x25519_and_x448() {
    let out = edwards::x25519(
        &arr("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
        &arr("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"),
    )
    .unwrap();
    assert_eq!(*out, arr::<32>("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"));
    let out = edwards::x448(
        &arr("3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3"),
        &arr("06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086"),
    )
    .unwrap();
    assert_eq!(
        *out,
        arr::<56>(
            "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f"
        )
    );
    // Low-order points give an all-zero secret: refused.
    assert!(edwards::x25519(&[7; 32], &[0; 32]).is_err());
    assert!(edwards::x448(&[7; 56], &[0; 56]).is_err());
}

#[test]
fn rfc3394_key_wrap() {
    let cases = [
        (
            "000102030405060708090a0b0c0d0e0f",
            "00112233445566778899aabbccddeeff",
            "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5",
        ),
        (
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f",
            "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21",
        ),
    ];
    for (kek, key, wrapped) in cases {
        assert_eq!(kw::wrap(&h(kek), &h(key)).unwrap(), h(wrapped));
        assert_eq!(kw::unwrap(&h(kek), &h(wrapped)).unwrap().as_slice(), h(key));
        let mut bad = h(wrapped);
        bad[5] ^= 1;
        assert!(kw::unwrap(&h(kek), &bad).is_err());
    }
    assert!(kw::unwrap(&[0; 16], &[0; 17]).is_err());
    assert!(kw::wrap(&[0; 15], &[0; 16]).is_err());
}

/// RSA decryption prepares its key once; a clone or a zeroized secret
/// starts over, and another public key never gets the prepared one.
#[cfg(feature = "rsa-decrypt")]
#[test]
fn rsa_prepared_key_is_kept_and_checked() {
    use super::{KeyType, PkeskVersion, SecretMaterial, decrypt_session_key, encrypt_session_key, generate};
    use zeroize::Zeroize;

    let fpr = [1u8; 32];
    let sk = [0x33u8; 32];
    let (public, mut secret) = generate(KeyType::Rsa(2048)).unwrap();
    let (other_public, _) = generate(KeyType::Rsa(2048)).unwrap();
    let payload = encrypt_session_key(&public, &fpr, PkeskVersion::V6, None, &sk).unwrap();
    let prepared = |s: &SecretMaterial| match s {
        SecretMaterial::Rsa { prepared, .. } => prepared.0.get().is_some(),
        _ => unreachable!(),
    };
    assert!(!prepared(&secret));
    for _ in 0..2 {
        assert_eq!(decrypt_session_key(&secret, &public, &fpr, &payload, PkeskVersion::V6).unwrap().key[..], sk);
        assert!(prepared(&secret));
    }
    let copy = secret.clone();
    assert!(!prepared(&copy));
    assert_eq!(decrypt_session_key(&copy, &public, &fpr, &payload, PkeskVersion::V6).unwrap().key[..], sk);
    // Another public key takes the checked path: the secret does not fit it.
    assert!(decrypt_session_key(&secret, &other_public, &fpr, &payload, PkeskVersion::V6).is_err());
    secret.zeroize();
    assert!(!prepared(&secret));
}

/// RSA signing prepares its key once too: later signatures reuse it, a
/// clone starts over, and another public key never gets the prepared one.
#[test]
fn rsa_signing_key_is_prepared_once_and_checked() {
    use super::{HashAlg, Hasher, KeyType, SecretMaterial, generate, sign, verify};
    use zeroize::Zeroize;

    let (public, mut secret) = generate(KeyType::Rsa(2048)).unwrap();
    let (other_public, _) = generate(KeyType::Rsa(2048)).unwrap();
    let prepared = |s: &SecretMaterial| match s {
        SecretMaterial::Rsa { prepared, .. } => prepared.1.get().is_some(),
        _ => unreachable!(),
    };
    assert!(!prepared(&secret));
    for data in [b"one".as_slice(), b"two"] {
        let digest = Hasher::digest(HashAlg::Sha256, data);
        let sig = sign(&secret, &public, HashAlg::Sha256, &digest).unwrap();
        verify(&public, HashAlg::Sha256, &digest, &sig).unwrap();
        assert!(prepared(&secret));
    }
    assert!(!prepared(&secret.clone()));
    let digest = Hasher::digest(HashAlg::Sha512, b"three");
    assert!(sign(&secret, &other_public, HashAlg::Sha512, &digest).is_err());
    let sig = sign(&secret, &public, HashAlg::Sha512, &digest).unwrap();
    verify(&public, HashAlg::Sha512, &digest, &sig).unwrap();
    secret.zeroize();
    assert!(!prepared(&secret));
}
