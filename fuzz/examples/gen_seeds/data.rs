//! Seeds of `fpe_text` and `siv_decrypt`, from the FPE and SIV vectors.

use std::fs;
use std::path::Path;

use serde_json::Value;

use super::{Out, hex};

/// fpe_text: `[mode][n][tweak length][tweak][alphabet][text]`.
pub fn fpe_text(root: &Path, vectors: &Path) {
    let mut out = Out::new(root, "fpe_text");
    let fpe: Vec<Value> =
        serde_json::from_str(&fs::read_to_string(vectors.join("fpe.json")).expect("fpe.json")).expect("json");
    for (i, v) in fpe.iter().enumerate() {
        let alg = match v["alg"].as_str().expect("alg") {
            "FF1" => 0u8,
            "FF3-1" => 1,
            _ => 2,
        };
        let key_idx = match v["key"].as_str().expect("key").len() {
            32 => 0u8,
            48 => 1,
            _ => 2,
        };
        let alphabet = v["alphabet"].as_str().expect("alphabet");
        let tweak = hex(v["tweak"].as_str().expect("tweak"));
        let extra = (i as u8 % 4) << 5; // bare numerals / token format on some
        let mut seed = vec![alg | key_idx << 2 | extra, alphabet.chars().count() as u8];
        if alg == 0 {
            seed.push(tweak.len() as u8);
        } else {
            seed.push(0);
        }
        seed.extend_from_slice(&tweak);
        seed.extend_from_slice(alphabet.as_bytes());
        seed.extend_from_slice(v["pt"].as_str().expect("pt").as_bytes());
        out.put(&format!("vector_{i:02}.bin"), &seed);
    }
    // Range alphabets: radix 65536 with '\0' as numeral 65535, radix 2, and
    // non-ASCII text.
    let range = |mode: u8, tl: u8, tweak: &[u8], start: u32, len: u32, idx: &[u16]| {
        let mut s = vec![mode | 0x10, 0, tl];
        s.extend_from_slice(tweak);
        s.extend_from_slice(&start.to_le_bytes()[..3]);
        let len = if len > 255 { 0xf0_0000 | len } else { len };
        s.extend_from_slice(&len.to_le_bytes()[..3]);
        for &i in idx {
            s.extend_from_slice(&i.to_le_bytes());
        }
        s
    };
    out.put("range_65536.bin", &range(0x20, 3, b"abc", 0x11_0000 - 65535, 65536, &[65535, 0, 1, 2, 40000, 65534]));
    out.put(
        "range_2.bin",
        &range(0x01, 0, &[], 0x30, 2, &[1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0]),
    );
    out.put("range_greek.bin", &range(0x42, 0, &[], 0x3b1, 24, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    out.put("token_format.bin", &[&[0x40, 10, 2, 1, 2][..], b"01234567894111-1111-1111-1111"].concat());
    out.report();
}

/// siv_decrypt: `[mode][AD count][len, AD]...[len, nonce][ciphertext]`.
pub fn siv_decrypt(root: &Path, vectors: &Path) {
    let mut out = Out::new(root, "siv_decrypt");
    let siv: Value =
        serde_json::from_str(&fs::read_to_string(vectors.join("siv.json")).expect("siv.json")).expect("json");
    for (i, v) in siv["siv"].as_array().expect("siv").iter().enumerate() {
        let key_idx = match v["key"].as_str().expect("key").len() / 2 {
            32 => 0u8,
            48 => 1,
            _ => 2,
        };
        let nonce = v["nonce"].as_str().map(hex);
        let ads = v["ad"].as_array().expect("ad");
        let mut s = vec![key_idx | (nonce.is_some() as u8) << 2 | (i as u8) << 3, ads.len() as u8];
        for a in ads {
            let a = hex(a.as_str().expect("ad"));
            s.push(a.len() as u8);
            s.extend_from_slice(&a);
        }
        if let Some(n) = nonce {
            s.push(n.len() as u8);
            s.extend_from_slice(&n);
        }
        s.extend(hex(v["out"].as_str().expect("out")));
        out.put(&format!("siv_{i}.bin"), &s);
    }
    out.put("empty.bin", &[0x01, 0x00]);
    out.put("many_ad.bin", &[&[0x06, 130][..], &[0u8; 140]].concat());
    out.report();
}
