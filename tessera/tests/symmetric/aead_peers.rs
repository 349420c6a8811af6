//! Cross-checks of the AEAD modes against independent implementations:
//! - the RustCrypto `ocb3`, `eax` and `aes-gcm` crates (property tests, random
//!   keys, nonces, AD and lengths 0..4096, plus large buffers);
//! - pycryptodome (`AES.MODE_OCB`, `MODE_EAX`, `MODE_GCM`) and pyca/cryptography
//!   (`AESOCB3`, `AESGCM`), one Python process per test for all its cases.
//!
//! The interpreter is `$TESSERA_PYTHON`, else `<workspace>/.venv/bin/python`
//! (made by `scripts/install-peers`). Without one the Python tests print a
//! skip line, unless `TESSERA_REQUIRE_PEERS` is set, in which case they fail.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use aes_gcm::aead::array::typenum::{U12, U15, U16};
use aes_gcm::aead::{AeadInOut, KeyInit};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};
use serde_json::{Value, json};
use tessera::aead::{Aad, AeadInPlace, Eax, Gcm, Nonce, Ocb, Tag};

/// Seals with a RustCrypto AEAD, detached: (ciphertext, tag).
fn rc_seal<A: AeadInOut>(a: &A, nonce: &[u8], ad: &[u8], pt: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut buf = pt.to_vec();
    let tag = a.encrypt_inout_detached(nonce.try_into().unwrap(), ad, buf.as_mut_slice().into()).unwrap();
    (buf, tag.to_vec())
}

/// Checks our seal against the peer's, and that each opens the other's output.
fn agree<A: AeadInOut>(ours: &dyn AeadInPlace, peer: &A, nonce: &[u8], ad: &[u8], pt: &[u8]) {
    let (want_c, want_t) = rc_seal(peer, nonce, ad, pt);
    let mut buf = pt.to_vec();
    let tag = ours.seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(ad), &mut buf).unwrap();
    assert_eq!(buf, want_c, "ciphertext, len {}", pt.len());
    assert_eq!(tag.to_vec(), want_t, "tag, len {}", pt.len());
    let mut back = want_c.clone();
    ours.open_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::new(ad), &mut back, &tag).unwrap();
    assert_eq!(back, pt);
    let mut back = buf;
    peer.decrypt_inout_detached(
        nonce.try_into().unwrap(),
        ad,
        back.as_mut_slice().into(),
        want_t.as_slice().try_into().unwrap(),
    )
    .unwrap();
    assert_eq!(back, pt);
}

fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 16),
        proptest::collection::vec(any::<u8>(), 24),
        proptest::collection::vec(any::<u8>(), 32)
    ]
}

macro_rules! peer_for_key {
    ($key:expr, $ty:ident < $n:ty >, |$p:ident| $body:expr) => {
        match $key.len() {
            16 => {
                let $p = $ty::<aes::Aes128, $n>::new_from_slice(&$key).unwrap();
                $body
            }
            24 => {
                let $p = $ty::<aes::Aes192, $n>::new_from_slice(&$key).unwrap();
                $body
            }
            _ => {
                let $p = $ty::<aes::Aes256, $n>::new_from_slice(&$key).unwrap();
                $body
            }
        }
    };
}

use aes_gcm::AesGcm;
use eax::Eax as EaxPeer;
use ocb3::Ocb3;

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn ocb_matches_the_ocb3_crate(
        key in key_strategy(),
        n15 in proptest::collection::vec(any::<u8>(), 15),
        ad in proptest::collection::vec(any::<u8>(), 0..100),
        pt in proptest::collection::vec(any::<u8>(), 0..4096),
    ) {
        let ours = Ocb::new(&key).unwrap();
        peer_for_key!(key, Ocb3<U15>, |p| agree(&ours, &p, &n15, &ad, &pt));
        peer_for_key!(key, Ocb3<U12>, |p| agree(&ours, &p, &n15[..12], &ad, &pt));
    }

    #[test]
    fn eax_matches_the_eax_crate(
        key in key_strategy(),
        nonce in proptest::collection::vec(any::<u8>(), 16),
        ad in proptest::collection::vec(any::<u8>(), 0..100),
        pt in proptest::collection::vec(any::<u8>(), 0..4096),
    ) {
        let ours = Eax::new(&key).unwrap();
        peer_for_key!(key, EaxPeer<U16>, |p| agree(&ours, &p, &nonce, &ad, &pt));
    }

    #[test]
    fn gcm_matches_the_aes_gcm_crate(
        key in key_strategy(),
        nonce in proptest::collection::vec(any::<u8>(), 12),
        ad in proptest::collection::vec(any::<u8>(), 0..100),
        pt in proptest::collection::vec(any::<u8>(), 0..4096),
    ) {
        let ours = Gcm::new(&key).unwrap();
        peer_for_key!(key, AesGcm<U12>, |p| agree(&ours, &p, &nonce, &ad, &pt));
    }
}

#[test]
fn large_buffers_match_the_crates() {
    let mut rng = StdRng::seed_from_u64(5);
    for len in [(1 << 20) + 13] {
        let mut pt = vec![0u8; len];
        rng.fill_bytes(&mut pt);
        for kl in [16, 24, 32] {
            let mut key = vec![0u8; kl];
            rng.fill_bytes(&mut key);
            let (n, ad) = ([7u8; 16], [1u8; 13]);
            let ocb = Ocb::new(&key).unwrap();
            let eax = Eax::new(&key).unwrap();
            let gcm = Gcm::new(&key).unwrap();
            peer_for_key!(key, Ocb3<U15>, |p| agree(&ocb, &p, &n[..15], &ad, &pt));
            peer_for_key!(key, EaxPeer<U16>, |p| agree(&eax, &p, &n, &ad, &pt));
            peer_for_key!(key, AesGcm<U12>, |p| agree(&gcm, &p, &n[..12], &ad, &pt));
        }
    }
}

// ---------------------------------------------------------------- Python peers

const SCRIPT: &str = r#"
import sys, json
from Crypto.Cipher import AES
from cryptography.hazmat.primitives.ciphers.aead import AESOCB3, AESGCM

req = json.load(sys.stdin)
mode = req["mode"]
out = []
for c in req["cases"]:
    key, nonce, ad, pt = (bytes.fromhex(c[k]) for k in ("key", "nonce", "ad", "pt"))
    m = {"ocb": AES.MODE_OCB, "eax": AES.MODE_EAX, "gcm": AES.MODE_GCM}[mode]
    e = AES.new(key, m, nonce=nonce, mac_len=16)
    e.update(ad)
    ct, tag = e.encrypt_and_digest(pt)
    r = {"pycryptodome": (ct + tag).hex()}
    # Open our output with pycryptodome.
    ours = bytes.fromhex(c["ours"])
    d = AES.new(key, m, nonce=nonce, mac_len=16)
    d.update(ad)
    try:
        r["pycryptodome_open"] = d.decrypt_and_verify(ours[:-16], ours[-16:]).hex()
    except ValueError:
        r["pycryptodome_open"] = None
    if mode == "ocb" and 12 <= len(nonce) <= 15:
        r["cryptography"] = AESOCB3(key).encrypt(nonce, pt, ad).hex()
    if mode == "gcm":
        r["cryptography"] = AESGCM(key).encrypt(nonce, pt, ad).hex()
    out.append(r)
json.dump(out, sys.stdout)
"#;

/// The interpreter with the peers installed, or `None` (after printing why)
/// when the test should be skipped.
fn python() -> Option<PathBuf> {
    let required = std::env::var_os("TESSERA_REQUIRE_PEERS").is_some();
    let p: PathBuf = match std::env::var_os("TESSERA_PYTHON") {
        Some(p) => p.into(),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python"),
    };
    let ok = Command::new(&p)
        .args(["-c", "import Crypto.Cipher.AES, cryptography.hazmat.primitives.ciphers.aead"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(p);
    }
    assert!(!required, "TESSERA_REQUIRE_PEERS is set but {} lacks pycryptodome/cryptography", p.display());
    println!("skipped: run scripts/install-peers");
    None
}

/// Random cases for `mode`: keys of every size, the given nonce lengths, AD
/// and plaintext lengths 0..4096, and two large buffers.
fn cases(seed: u64, nonce_lens: &[usize], ours: &dyn Fn(&[u8]) -> Box<dyn AeadInPlace>) -> Vec<Value> {
    let mut rng = StdRng::seed_from_u64(seed);
    let bytes = |n: usize, rng: &mut StdRng| {
        let mut v = vec![0u8; n];
        rng.fill_bytes(&mut v);
        v
    };
    let mut lens: Vec<usize> = (0..300).map(|_| rng.random_range(0..4096)).collect();
    lens.extend([0, 1, 15, 16, 17, 480, 481, (1 << 20) + 9]);
    lens.iter()
        .enumerate()
        .map(|(i, &len)| {
            let key = bytes([16, 24, 32][i % 3], &mut rng);
            let nonce = bytes(nonce_lens[i % nonce_lens.len()], &mut rng);
            let ad_len = rng.random_range(0..64);
            let ad = bytes(ad_len, &mut rng);
            let pt = bytes(len, &mut rng);
            let mut ct = pt.clone();
            let tag = ours(&key)
                .seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut ct)
                .unwrap();
            ct.extend_from_slice(&tag);
            json!({"key": hex::encode(&key), "nonce": hex::encode(&nonce), "ad": hex::encode(&ad),
                   "pt": hex::encode(&pt), "ours": hex::encode(&ct)})
        })
        .collect()
}

fn run_python(mode: &str, nonce_lens: &[usize], ours: &dyn Fn(&[u8]) -> Box<dyn AeadInPlace>) {
    let Some(py) = python() else { return };
    let cases = cases(mode.len() as u64 * 77, nonce_lens, ours);
    let mut child = Command::new(py)
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start python");
    let req = json!({"mode": mode, "cases": cases}).to_string();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(req.as_bytes()).unwrap());
    let out = child.wait_with_output().expect("python output");
    writer.join().unwrap();
    assert!(out.status.success(), "python failed");
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).expect("python json");
    assert_eq!(results.len(), cases.len());
    let mut cryptography = 0;
    for (c, r) in cases.iter().zip(&results) {
        let what =
            format!("{mode} key {} nonce {} pt len {}", c["key"], c["nonce"], c["pt"].as_str().unwrap().len() / 2);
        assert_eq!(r["pycryptodome"], c["ours"], "{what}: pycryptodome seal");
        assert_eq!(r["pycryptodome_open"], c["pt"], "{what}: pycryptodome opens ours");
        if let Some(v) = r.get("cryptography") {
            assert_eq!(v, &c["ours"], "{what}: cryptography seal");
            cryptography += 1;
        }
        // And we open what pycryptodome sealed.
        let key = hex::decode(c["key"].as_str().unwrap()).unwrap();
        let nonce = hex::decode(c["nonce"].as_str().unwrap()).unwrap();
        let ad = hex::decode(c["ad"].as_str().unwrap()).unwrap();
        let mut ct = hex::decode(r["pycryptodome"].as_str().unwrap()).unwrap();
        let tag: Tag = ct.split_off(ct.len() - 16).try_into().unwrap();
        ours(&key)
            .open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut ct, &tag)
            .unwrap();
        assert_eq!(hex::encode(&ct), c["pt"].as_str().unwrap(), "{what}: we open pycryptodome's");
    }
    if mode != "eax" {
        assert!(cryptography > 50, "{mode}: cryptography checked {cryptography} cases");
    }
}

#[test]
fn ocb_matches_pycryptodome_and_cryptography() {
    // pycryptodome takes 1..=15-byte nonces; cryptography's AESOCB3 12..=15.
    let lens: Vec<usize> = [15, 12, 13, 14].into_iter().chain(1..=15).collect();
    run_python("ocb", &lens, &|k| Box::new(Ocb::new(k).unwrap()));
}

#[test]
fn eax_matches_pycryptodome() {
    // pycryptodome refuses an empty EAX nonce; ours accepts it (checked
    // against EAX over the public CMAC in aead_props.rs).
    run_python("eax", &[16, 12, 1, 17, 40], &|k| Box::new(Eax::new(k).unwrap()));
}

#[test]
fn gcm_matches_pycryptodome_and_cryptography() {
    run_python("gcm", &[12], &|k| Box::new(Gcm::new(k).unwrap()));
}
