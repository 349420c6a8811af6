use super::*;

#[test]
fn names_round_trip_and_match_all() {
    for (alg, name) in Algorithm::ALL.into_iter().zip(Algorithm::NAMES) {
        assert_eq!(alg.name(), name);
        assert_eq!(name.parse::<Algorithm>().unwrap(), alg);
        assert_eq!(alg.to_string(), name);
    }
    for bad in ["", "FF1", "ff3_1", "ff31", " ff1", "ff1 "] {
        let e = bad.parse::<Algorithm>().unwrap_err();
        assert_eq!(e.to_string(), "unknown FPE algorithm; expected one of ff1, ff3-1, ff3");
    }
}

#[test]
fn cipher_matches_the_concrete_type() {
    let key = [9u8; 16];
    let a = Alphabet::digits();
    let pairs: [(Algorithm, Box<dyn Fpe>, &[u8]); 3] = [
        (Algorithm::Ff1, Box::new(FF1::new(&key, a.clone()).unwrap()), b"t"),
        (Algorithm::Ff3_1, Box::new(FF3_1::new(&key, a.clone()).unwrap()), b"1234567"),
        (Algorithm::Ff3, Box::new(FF3::new(&key, a.clone()).unwrap()), b"12345678"),
    ];
    for (alg, want, tweak) in pairs {
        let got = alg.cipher(&key, a.clone()).unwrap();
        assert_eq!(got.encrypt(tweak, "0123456789").unwrap(), want.encrypt(tweak, "0123456789").unwrap());
    }
    assert!(matches!(Algorithm::Ff3.cipher(&[0u8; 20], a).err(), Some(Error::KeyLength { got: 20, .. })));
}
