//! Cross-checks against independent implementations: FF3-1 and FF3 against
//! the `ff3` package from PyPI (mysto), FF1 against the `fpe` crate.

use crate::common;

use fpe::ff1::{FF1 as PeerFF1, FlexibleNumeralString};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use serde_json::json;
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe};

const BASE62: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const FF3_SCRIPT: &str = r#"
import json, sys
from ff3 import FF3Cipher
out = []
for c in json.load(sys.stdin):
    f = FF3Cipher.withCustomAlphabet(c["key"], c["tweak"], c["alphabet"])
    out.append(f.encrypt(c["pt"]))
print(json.dumps(out))
"#;

#[test]
fn ff3_1_and_ff3_match_the_ff3_package() {
    let Some(py) = common::peer_python("ff3") else { return };
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x3ff3);
    let mut cases = Vec::new();
    for i in 0..600 {
        let radix = rng.random_range(2..=62usize);
        // A random alphabet: a shuffled selection of the base-62 characters.
        let mut chars: Vec<char> = BASE62.chars().collect();
        for k in (1..chars.len()).rev() {
            chars.swap(k, rng.random_range(0..=k));
        }
        let alphabet: String = chars[..radix].iter().collect();
        let key_len = [16, 24, 32][i % 3];
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        let legacy = i % 4 == 3; // one in four cases: FF3 with a 64-bit tweak
        let tweak: Vec<u8> = (0..if legacy { 8 } else { 7 }).map(|_| rng.random()).collect();
        let c = FF3_1::new(&key, Alphabet::new(&alphabet).unwrap()).unwrap();
        let (min, max) = c.len_range();
        // The package computes its bounds with floating point; stay inside both.
        let py_min = ((1e6f64).ln() / (radix as f64).ln()).ceil() as usize;
        let py_max = 2 * (96.0 / (radix as f64).log2()).floor() as usize;
        let len = rng.random_range(min.max(py_min)..=max.min(py_max));
        let pt: String = (0..len).map(|_| chars[rng.random_range(0..radix)]).collect();
        cases.push(json!({"key": hex::encode(&key), "tweak": hex::encode(&tweak), "alphabet": alphabet, "pt": pt, "legacy": legacy}));
    }
    let got = common::run_python(&py, FF3_SCRIPT, &json!(cases));
    for (case, want) in cases.iter().zip(got.as_array().unwrap()) {
        let key = hex::decode(case["key"].as_str().unwrap()).unwrap();
        let tweak = hex::decode(case["tweak"].as_str().unwrap()).unwrap();
        let alphabet = Alphabet::new(case["alphabet"].as_str().unwrap()).unwrap();
        let pt = case["pt"].as_str().unwrap();
        let c: Box<dyn Fpe> = if case["legacy"].as_bool().unwrap() {
            Box::new(FF3::new(&key, alphabet).unwrap())
        } else {
            Box::new(FF3_1::new(&key, alphabet).unwrap())
        };
        let ct = c.encrypt(&tweak, pt).unwrap();
        assert_eq!(ct, want.as_str().unwrap(), "case {case}");
        assert_eq!(c.decrypt(&tweak, &ct).unwrap(), pt);
    }
}

fn peer_encrypt(key: &[u8], radix: u32, tweak: &[u8], x: &[u16]) -> Vec<u16> {
    let ns = FlexibleNumeralString::from(x.to_vec());
    let out = match key.len() {
        16 => PeerFF1::<aes::Aes128>::new(key, radix).unwrap().encrypt(tweak, &ns),
        24 => PeerFF1::<aes::Aes192>::new(key, radix).unwrap().encrypt(tweak, &ns),
        _ => PeerFF1::<aes::Aes256>::new(key, radix).unwrap().encrypt(tweak, &ns),
    };
    out.unwrap().into()
}

fn ff1_case() -> impl Strategy<Value = (Vec<u8>, u32, Vec<u8>, Vec<u16>)> {
    (
        prop_oneof![Just(16usize), Just(24), Just(32)],
        prop_oneof![2u32..=64, Just(10u32), Just(36), Just(62), 65..=65536u32],
        proptest::collection::vec(any::<u8>(), 0..40),
    )
        .prop_flat_map(|(klen, radix, tweak)| {
            let ff1 = FF1::with_radix(&[0; 16], radix).unwrap();
            let (min, max) = ff1.len_range();
            // Short values mostly (native paths), some long (big-number path).
            let len = prop_oneof![3 => min..=(min + 40).min(max), 1 => min..=max.min(300)];
            (proptest::collection::vec(any::<u8>(), klen), Just(radix), Just(tweak), len)
        })
        .prop_flat_map(|(key, radix, tweak, len)| {
            let x = proptest::collection::vec(0..radix, len).prop_map(|v| v.into_iter().map(|d| d as u16).collect());
            (Just(key), Just(radix), Just(tweak), x)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn ff1_matches_the_fpe_crate((key, radix, tweak, x) in ff1_case()) {
        let ours = FF1::with_radix(&key, radix).unwrap();
        let mut y = x.clone();
        ours.encrypt_numerals(&tweak, &mut y).unwrap();
        prop_assert_eq!(&y, &peer_encrypt(&key, radix, &tweak, &x));
        ours.decrypt_numerals(&tweak, &mut y).unwrap();
        prop_assert_eq!(y, x);
    }
}
