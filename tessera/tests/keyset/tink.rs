//! Keysets against Google Tink (`tink` from PyPI): a Tink AES-SIV keyset
//! (TINK and RAW prefixes, several keys) is read by tessera and gives the
//! same ciphertexts byte for byte; a keyset written by tessera is read by
//! Tink, which decrypts tessera's ciphertexts and produces identical ones.
//!
//! The interpreter is `$TESSERA_PYTHON` (or `<workspace>/.venv/bin/python`);
//! without `tink` the test is skipped, unless `TESSERA_REQUIRE_PEERS` is
//! set, in which case it fails.

use crate::common;

use serde_json::{Value, json};
use tessera::keyset::{Keyset, OutputPrefix, SivParams, TransformParams};

/// Mode "make": Tink builds one keyset of three keys (TINK, RAW, TINK),
/// encrypting every case under each key as primary in turn. Mode "check":
/// Tink reads tessera's keyset, decrypts tessera's ciphertexts and
/// encrypts the same cases.
const SCRIPT: &str = r#"
import io, json, sys
import tink
from tink import daead, secret_key_access
from tink.proto import tink_pb2
daead.register()
req = json.load(sys.stdin)

def handle(text):
    return tink.json_proto_keyset_format.parse(text, secret_key_access.TOKEN)

def dump(h):
    return tink.json_proto_keyset_format.serialize(h, secret_key_access.TOKEN)

def prim(h):
    return h.primitive(daead.DeterministicAead)

cases = [(bytes.fromhex(c["ad"]), bytes.fromhex(c["pt"])) for c in req["cases"]]
if req["mode"] == "make":
    keys, per_key = [], []
    for prefix in [tink_pb2.TINK, tink_pb2.RAW, tink_pb2.TINK]:
        t = daead.deterministic_aead_key_templates.create_aes_siv_key_template(64)
        t.output_prefix_type = prefix
        one = json.loads(dump(tink.new_keyset_handle(t)))
        keys += one["key"]
        p = prim(handle(json.dumps(one)))
        per_key.append({"keyId": one["primaryKeyId"],
                        "ct": [p.encrypt_deterministically(pt, ad).hex() for ad, pt in cases]})
    ks = {"primaryKeyId": keys[0]["keyId"], "key": keys}
    whole = prim(handle(json.dumps(ks)))
    dec = [[whole.decrypt_deterministically(bytes.fromhex(c), ad).hex() for c, (ad, _) in zip(k["ct"], cases)]
           for k in per_key]
    json.dump({"keyset": ks, "per_key": per_key, "decrypted": dec}, sys.stdout)
else:
    p = prim(handle(req["keyset"]))
    dec = [p.decrypt_deterministically(bytes.fromhex(c), ad).hex() for c, (ad, _) in zip(req["ours"], cases)]
    enc = [p.encrypt_deterministically(pt, ad).hex() for ad, pt in cases]
    json.dump({"decrypted": dec, "encrypted": enc}, sys.stdout)
"#;

fn cases() -> Vec<(Vec<u8>, Vec<u8>)> {
    vec![
        (b"".to_vec(), b"".to_vec()),
        (b"users.email".to_vec(), b"alice@example.com".to_vec()),
        (vec![0xff; 40], (0..=255u8).collect()),
        (b"ad".to_vec(), vec![7; 1000]),
    ]
}

fn cases_json() -> Value {
    cases().iter().map(|(ad, pt)| json!({"ad": hex::encode(ad), "pt": hex::encode(pt)})).collect()
}

fn unhex(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().expect("hex string")).expect("hex")
}

#[test]
fn tink_keysets_are_read_and_ciphertexts_match() {
    let Some(py) = common::peer_python("tink") else { return };
    let made = common::run_python(&py, SCRIPT, &json!({"mode": "make", "cases": cases_json()}));
    let mut ks = Keyset::new();
    ks.import_tink("tink", made["keyset"].to_string().as_bytes()).unwrap();
    let t = ks.transform("tink").unwrap();
    assert_eq!(t.keys.len(), 3);
    assert_eq!(t.keys[1].output_prefix, Some(OutputPrefix::Raw));
    let cases = cases();
    for (k, per_key) in made["per_key"].as_array().unwrap().iter().enumerate() {
        let id = per_key["keyId"].as_u64().unwrap() as u32;
        // Tink's primary decrypted every key's ciphertexts back to the plaintext.
        for (i, (_, pt)) in cases.iter().enumerate() {
            assert_eq!(unhex(&made["decrypted"][k][i]), *pt);
        }
        ks.promote("tink", id).unwrap();
        let siv = ks.siv("tink").unwrap();
        for (i, (ad, pt)) in cases.iter().enumerate() {
            let theirs = unhex(&per_key["ct"][i]);
            assert_eq!(siv.encrypt(ad, pt).unwrap(), theirs, "key {k} case {i}: identical bytes");
            let (back, by) = siv.decrypt_with_id(ad, &theirs).unwrap();
            assert_eq!((&back[..], by), (&pt[..], id));
        }
    }
}

#[test]
fn tessera_keysets_are_read_by_tink() {
    let Some(py) = common::peer_python("tink") else { return };
    for prefix in [OutputPrefix::Tink, OutputPrefix::Raw] {
        let mut ks = Keyset::new();
        let v1 =
            ks.add_transform("s", TransformParams::Siv(SivParams { output_prefix: prefix, key_bytes: 64 })).unwrap();
        let v2 = ks.add_key("s").unwrap();
        ks.promote("s", v2).unwrap();
        ks.disable("s", v1).unwrap();
        let siv = ks.siv("s").unwrap();
        let ours: Vec<String> = cases().iter().map(|(ad, pt)| hex::encode(siv.encrypt(ad, pt).unwrap())).collect();
        let exported = ks.export_tink("s").unwrap();
        let keyset = std::str::from_utf8(&exported).unwrap();
        let got = common::run_python(
            &py,
            SCRIPT,
            &json!({"mode": "check", "cases": cases_json(), "keyset": keyset, "ours": ours}),
        );
        for (i, (_, pt)) in cases().iter().enumerate() {
            assert_eq!(unhex(&got["decrypted"][i]), *pt, "{prefix:?} case {i}: Tink decrypts ours");
            assert_eq!(got["encrypted"][i].as_str().unwrap(), ours[i], "{prefix:?} case {i}: identical bytes");
        }
        // And back: the exported keyset imports to the same keys.
        let mut again = Keyset::new();
        again.import_tink("s", &exported).unwrap();
        assert_eq!(again.siv("s").unwrap().encrypt(b"x", b"y").unwrap(), siv.encrypt(b"x", b"y").unwrap());
        assert_eq!(again.transform("s").unwrap().key(v1).unwrap().status, tessera::keyset::KeyStatus::Disabled);
    }
}
