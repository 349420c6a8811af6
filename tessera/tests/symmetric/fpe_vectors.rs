//! Every FF1, FF3 and FF3-1 vector in tests/vectors/fpe.json, both directions,
//! through text, numerals and the batch path.

use crate::common;
use common::{unhex, vectors};
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, Tweaks};

fn cipher(alg: &str, key: &[u8], alphabet: &str) -> Box<dyn Fpe> {
    let a = Alphabet::new(alphabet).unwrap();
    match alg {
        "FF1" => Box::new(FF1::new(key, a).unwrap()),
        "FF3" => Box::new(FF3::new(key, a).unwrap()),
        "FF3-1" => Box::new(FF3_1::new(key, a).unwrap()),
        other => panic!("unknown algorithm {other}"),
    }
}

#[test]
fn all_vectors_both_directions() {
    let v = vectors("fpe.json");
    let mut count = std::collections::BTreeMap::new();
    for case in v.as_array().unwrap() {
        let s = |k: &str| case[k].as_str().unwrap().to_string();
        let (alg, key, tweak, alphabet, pt, ct) =
            (s("alg"), unhex(&s("key")), unhex(&s("tweak")), s("alphabet"), s("pt"), s("ct"));
        let c = cipher(&alg, &key, &alphabet);
        let what = format!("{alg} {} {}", s("source"), case["note"]);
        assert_eq!(c.encrypt(&tweak, &pt).unwrap(), ct, "encrypt {what}");
        assert_eq!(c.decrypt(&tweak, &ct).unwrap(), pt, "decrypt {what}");

        // The batch path, with the value repeated so groups fill up.
        let a = c.alphabet().unwrap();
        let mut x = vec![0u16; pt.chars().count()];
        a.to_numerals(&pt, &mut x).unwrap();
        let reps = 70;
        let mut data: Vec<u16> = x.iter().copied().cycle().take(x.len() * reps).collect();
        let ends: Vec<usize> = (1..=reps).map(|i| i * x.len()).collect();
        c.encrypt_batch(Tweaks::Same(&tweak), &mut data, &ends).unwrap();
        let mut want = vec![0u16; x.len()];
        a.to_numerals(&ct, &mut want).unwrap();
        for chunk in data.chunks(x.len()) {
            assert_eq!(chunk, &want[..], "batch encrypt {what}");
        }
        c.decrypt_batch(Tweaks::Same(&tweak), &mut data, &ends).unwrap();
        for chunk in data.chunks(x.len()) {
            assert_eq!(chunk, &x[..], "batch decrypt {what}");
        }
        *count.entry(alg).or_insert(0) += 1;
    }
    assert_eq!(count["FF1"], 10);
    assert_eq!(count["FF3"], 15);
    assert!(count["FF3-1"] >= 20);
}
