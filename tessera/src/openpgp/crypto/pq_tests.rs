//! The composite KEM's intermediate values against RFC 9980 Appendix A:
//! the ML-KEM and ECDH key shares and the combined key of each sample
//! message, decapsulated with its sample subkey.

use std::io::Read;

use super::*;
use crate::openpgp::armor::ArmorReader;
use crate::openpgp::crypto::{PkeskPayload, PublicMaterial, SecretMaterial};
use crate::openpgp::key::Cert;
use crate::openpgp::packet::{BodyReader, read_header};
use crate::openpgp::pkesk::Pkesk;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9980");

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// The first PKESK of an armored message.
fn first_pkesk(name: &str) -> Pkesk {
    let armored = std::fs::read(format!("{DIR}/{name}")).unwrap();
    let mut binary = Vec::new();
    ArmorReader::new(armored.as_slice()).read_to_end(&mut binary).unwrap();
    let mut input = binary.as_slice();
    let header = read_header(&mut input).unwrap().unwrap();
    let mut body = Vec::new();
    BodyReader::new(&mut input, header.len).read_to_end(&mut body).unwrap();
    Pkesk::parse(&body).unwrap()
}

/// (secret key, message, [mlkemKeyShare, ecdhKeyShare, KEK, session key])
/// of each sample message, as the draft gives them.
const SHARES: [(&str, &str, [&str; 4]); 5] = [
    (
        "v6-eddsa-sample-sk.asc",
        "v6-eddsa-sample-message.asc",
        [
            "b0e45408d8c713f3941cd27276f879e557df013e05bcf43e37d4c60266a4b797",
            "9d994741e0db5eacee44cb028c2ec48b1346feae2576aaac383bbcd64138c932",
            "5bf078bf7977109db6dead92d3578b62d0ab0487ef84e8e0af08f4b4b229e590",
            "94a3b8c9784463bb96b682cddf549adb23579b75bcb646f989d7cfe3e6e14435",
        ],
    ),
    (
        "v4-eddsa-sample-sk.asc",
        "v4-eddsa-sample-message-v1.asc",
        [
            "16f2aea8ec1ca277c04cc7b87681d7d38511a38f554775a8fc4de41aa76eb586",
            "2fc0c8fcace9636c86d1ee1715a302819ad48c549579a462a33eed36627c532e",
            "c1591d7511f9f0213bfd57cf316e5ec0d40c4ea826fa989ab606aa3b8a1a2c1f",
            "b4dc7197e1519822ca689da484643edf272934d98ae1974b5d88317a7a6a3c4f",
        ],
    ),
    (
        "v4-eddsa-sample-sk.asc",
        "v4-eddsa-sample-message-v2.asc",
        [
            "16a22adbeced91ada60b5561611748edd2fedc51e0770f86d7394870062e7322",
            "5ac67eab192f25ac99d87543e6fcd3a4769cb02c9d1afdc79354c2baa2289e29",
            "5c5652a690b55d1e9545fbd722f838cd8ff4d3657af5a9026d02f3185ca74993",
            "160867d96032b640208c1c92174d0270bb89189d72320711acd221bbea2a26b6",
        ],
    ),
    (
        "v6-mldsa-65-sample-sk.asc",
        "v6-mldsa-65-sample-message.asc",
        [
            "0987fe72ad5ea58e73344f9a2a543f4131d9fdb7cf07474f501430a20f705b4d",
            "88f3e9a8de1917127b4b758f6e83bd4ce00faaae01bd8b6e412a43a710b26012",
            "a4904982f7caa9c9de690afd772d8bfe027a1ad6a5bbda00db68963fe303ae8e",
            "adee68618b302d4bfd7ae3d432bc63a1c1ad7f5fd6e7fd7bdedbb0d0b14a5c9a",
        ],
    ),
    (
        "v6-mldsa-87-sample-sk.asc",
        "v6-mldsa-87-sample-message.asc",
        [
            "f18f161e617b8ce5968f109aadea1e7e1511d10165768d36127ba913c00637d2",
            "732860c8114ae84a964664b1f607785d11bc7d24d5324510adad89bd52db7ee0df9982ad0d1669bdd05556330c86f2dae9e2edea42e05bc5",
            "ef1e32906f67d39bc800d90cabb0033c77ca6dce8ffca3e96d9c7348e2e8c16e",
            "0588ce40b038aac353d1cf8c67a674b412985105794821013ef154f786c4d89d",
        ],
    ),
];

#[test]
fn the_key_shares_the_combined_key_and_the_session_key_are_the_drafts() {
    for (sk, message, [kem, ecdh, kek, session_key]) in SHARES {
        let cert = Cert::from_bytes(&std::fs::read(format!("{DIR}/{sk}")).unwrap()).unwrap();
        let sub = &cert.subkeys[0].key;
        let public = sub.public().material();
        let PublicMaterial::Composite { alg, ecc: ecc_public, .. } = public else { panic!("{sk}: composite") };
        let secret = sub.secret().unwrap().secret().unwrap();
        let SecretMaterial::Composite { ecc: ecc_secret, pq: seed } = secret else { panic!("{sk}: composite") };
        let pkesk = first_pkesk(message);
        let PkeskPayload::Composite { ecc: ecc_ct, kem: kem_ct, .. } = &pkesk.payload else { panic!("{message}") };
        assert_eq!(*mlkem_decapsulate(*alg, seed, kem_ct).unwrap(), *unhex(kem), "{message}");
        assert_eq!(*ecdh_decapsulate(ecc_secret, ecc_ct).unwrap(), unhex(ecdh), "{message}");
        let got = kem_decapsulate(*alg, (ecc_secret, seed), ecc_public, (ecc_ct, kem_ct)).unwrap();
        assert_eq!(*got, *unhex(kek), "{message}");
        let fpr = sub.public().fingerprint().as_bytes().to_vec();
        let key = crate::openpgp::crypto::decrypt_session_key(secret, public, &fpr, &pkesk.payload, pkesk.version);
        assert_eq!(*key.unwrap().key, unhex(session_key), "{message}");
    }
}

#[test]
fn the_combiner_binds_every_input() {
    let base = combine(PublicKeyAlg::MlKem768X25519, &[1; 32], &[2; 32], &[3; 32], &[4; 32]);
    assert_ne!(*base, *combine(PublicKeyAlg::MlKem1024X448, &[1; 32], &[2; 32], &[3; 32], &[4; 32]));
    assert_ne!(*base, *combine(PublicKeyAlg::MlKem768X25519, &[2; 32], &[1; 32], &[3; 32], &[4; 32]));
    assert_ne!(*base, *combine(PublicKeyAlg::MlKem768X25519, &[1; 32], &[2; 32], &[4; 32], &[3; 32]));
}
