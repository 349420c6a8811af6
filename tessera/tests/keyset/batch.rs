//! FPE keyset batch calls: per-value tweaks (tweak policy `field`), their
//! errors naming the value, and rewrap of whole batches, each against the
//! one-value calls.

use tessera::keyset::{
    BatchTweaks, Error, FpeAlgorithm, FpeParams, KeyVersionMode, Keyset, Template, TransformParams, TweakPolicy,
};

fn field_params(algorithm: FpeAlgorithm, mode: KeyVersionMode) -> TransformParams {
    let mut p = FpeParams::new("0123456789");
    p.algorithm = algorithm;
    p.passthrough = "-".into();
    p.tweak = TweakPolicy::Field { name: "customer".into() };
    p.key_version = mode;
    TransformParams::Fpe(p)
}

fn split(out: &[u8], ends: &[usize]) -> Vec<String> {
    let starts = std::iter::once(0).chain(ends.iter().copied());
    starts.zip(ends).map(|(s, &e)| String::from_utf8(out[s..e].to_vec()).unwrap()).collect()
}

#[test]
fn per_value_tweaks_match_one_value_at_a_time() {
    for (alg, tweaks) in [
        (FpeAlgorithm::Ff1, [&b"c-17"[..], b"c-42", b"c-17", b"a much longer customer identifier"]),
        (FpeAlgorithm::Ff3_1, [&b"cust-17"[..], b"cust-42", b"cust-17", b"cust-99"]),
    ] {
        for mode in [KeyVersionMode::External, KeyVersionMode::Embedded] {
            let mut ks = Keyset::new();
            ks.add_transform("acct", field_params(alg, mode)).unwrap();
            let fpe = ks.fpe("acct").unwrap();
            assert_eq!(fpe.tweak_field(), Some("customer"));
            let values = ["1234-5678", "1234-5678", "99999999", "0000-000000"];
            let (mut out, mut ends) = (Vec::new(), Vec::new());
            fpe.encrypt_batch(BatchTweaks::PerValue(&tweaks), &values, &mut out, &mut ends).unwrap();
            let tokens = split(&out, &ends);
            for ((t, v), tw) in tokens.iter().zip(values).zip(tweaks) {
                assert_eq!(t, &fpe.encrypt(Some(tw), v).unwrap());
            }
            // The same value under two records' tweaks: two tokens.
            assert_ne!(tokens[0], tokens[1]);
            let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
            let (mut back, mut back_ends) = (Vec::new(), Vec::new());
            fpe.decrypt_batch(BatchTweaks::PerValue(&tweaks), &refs, None, &mut back, &mut back_ends).unwrap();
            assert_eq!(split(&back, &back_ends), values);
            // One tweak for every value is still the caller's choice.
            let (mut same, mut same_ends) = (Vec::new(), Vec::new());
            fpe.encrypt_batch(BatchTweaks::Same(tweaks[0]), &values, &mut same, &mut same_ends).unwrap();
            assert_eq!(split(&same, &same_ends)[1], tokens[0]);
        }
    }
}

#[test]
fn bad_field_tweaks_name_the_value() {
    let mut ks = Keyset::new();
    ks.add_transform("f1", field_params(FpeAlgorithm::Ff1, KeyVersionMode::External)).unwrap();
    ks.add_transform("f3", field_params(FpeAlgorithm::Ff3_1, KeyVersionMode::External)).unwrap();
    let values = ["123456", "234567", "345678"];
    let (mut out, mut ends) = (vec![7u8], vec![1]);
    let empty: [&[u8]; 3] = [b"a", b"b", b""];
    let err = ks.fpe("f1").unwrap().encrypt_batch(BatchTweaks::PerValue(&empty), &values, &mut out, &mut ends);
    let err = err.unwrap_err();
    assert!(
        matches!(&err, Error::Batch { index: 2, source } if matches!(**source, Error::TweakField { .. })),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("value 2") && msg.contains("\"customer\"") && msg.contains("empty"), "{msg}");
    assert_eq!((out, ends), (vec![7u8], vec![1]), "nothing appended");
    let short: [&[u8]; 3] = [b"7 bytes", b"6 byte", b"7 bytes"];
    let err =
        ks.fpe("f3").unwrap().decrypt_batch(BatchTweaks::PerValue(&short), &values, None, &mut vec![], &mut vec![]);
    let msg = err.unwrap_err().to_string();
    assert!(msg.contains("value 1") && msg.contains("FF3-1 tweaks are 7 bytes; the field has 6"), "{msg}");
    // The same checks on one value.
    assert!(matches!(ks.fpe("f1").unwrap().encrypt(Some(b""), "123456"), Err(Error::TweakField { .. })));
    // One tweak per value, exactly.
    let two: [&[u8]; 2] = [b"a", b"b"];
    assert!(
        ks.fpe("f1").unwrap().encrypt_batch(BatchTweaks::PerValue(&two), &values, &mut vec![], &mut vec![]).is_err()
    );
    // A fixed tweak takes none from the caller, and a field tweak needs one.
    ks.add_transform("fixed", Template::Digits.params()).unwrap();
    let three: [&[u8]; 3] = [b"a", b"b", b"c"];
    let err = ks.fpe("fixed").unwrap().encrypt_batch(BatchTweaks::PerValue(&three), &values, &mut vec![], &mut vec![]);
    assert!(
        matches!(err.unwrap_err(), Error::Batch { index: 0, ref source } if matches!(**source, Error::Tweak { .. }))
    );
    let err = ks.fpe("f1").unwrap().encrypt_batch(BatchTweaks::Fixed, &values, &mut vec![], &mut vec![]);
    assert!(matches!(err.unwrap_err(), Error::Tweak { .. }));
}

#[test]
fn rewrap_batch_equals_rewrap_across_rotation() {
    for mode in [KeyVersionMode::External, KeyVersionMode::Embedded] {
        let TransformParams::Fpe(mut p) = Template::Card.params() else { unreachable!() };
        p.key_version = mode;
        let mut ks = Keyset::new();
        ks.add_transform("cards", TransformParams::Fpe(p)).unwrap();
        let cards = ["4111-1111-1111-1111", "5500 0000 0000 0004", "4000-0566-5566-5556"];
        let old: Vec<String> = cards.iter().map(|c| ks.fpe("cards").unwrap().encrypt(None, c).unwrap()).collect();
        let v2 = ks.add_key("cards").unwrap();
        ks.promote("cards", v2).unwrap();
        let fpe = ks.fpe("cards").unwrap();
        let refs: Vec<&str> = old.iter().map(String::as_str).collect();
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        fpe.rewrap_batch(
            BatchTweaks::Fixed,
            &refs,
            Some(1).filter(|_| mode == KeyVersionMode::External),
            &mut out,
            &mut ends,
        )
        .unwrap();
        let new = split(&out, &ends);
        for ((n, o), c) in new.iter().zip(&old).zip(cards) {
            let from = if mode == KeyVersionMode::External { Some(1) } else { None };
            assert_eq!(n, &fpe.rewrap(None, o, from).unwrap());
            assert_eq!(n, &fpe.encrypt(None, c).unwrap());
        }
        // A new key maps one card's six middle digits as the old one did once
        // in 10^6 (external versions): the three cards together, once in 10^18.
        assert_ne!(new, old);
        // Rewrapped tokens decrypt under the primary.
        let refs: Vec<&str> = new.iter().map(String::as_str).collect();
        let (mut back, mut back_ends) = (Vec::new(), Vec::new());
        fpe.decrypt_batch(BatchTweaks::Fixed, &refs, Some(v2), &mut back, &mut back_ends).unwrap();
        assert_eq!(split(&back, &back_ends), cards);
        // Embedded versions: a batch mixing versions (one at a time) and one
        // of a single version (through the batch) decrypt alike.
        if mode == KeyVersionMode::Embedded {
            let mixed = [old[0].as_str(), new[1].as_str(), old[2].as_str()];
            let (mut back, mut back_ends) = (Vec::new(), Vec::new());
            fpe.decrypt_batch(BatchTweaks::Fixed, &mixed, None, &mut back, &mut back_ends).unwrap();
            assert_eq!(split(&back, &back_ends), cards);
            let err = fpe.decrypt_batch(BatchTweaks::Fixed, &mixed, Some(2), &mut back, &mut back_ends).unwrap_err();
            assert!(err.to_string().contains("carries key version 1"), "{err}");
        }
        // A disabled source version: an error naming it, nothing written.
        ks.disable("cards", 1).unwrap();
        let fpe = ks.fpe("cards").unwrap();
        let refs: Vec<&str> = old.iter().map(String::as_str).collect();
        let from = if mode == KeyVersionMode::External { Some(1) } else { None };
        let err = fpe.rewrap_batch(BatchTweaks::Fixed, &refs, from, &mut Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("version 1") && err.to_string().contains("disabled"), "{err}");
    }
}
