//! Card transformations under a Luhn rule and date transformations: tokens
//! stay inside the subset (cards passing or failing the Luhn check, dates
//! in the range), decrypt to the values, match a cycle walk re-derived here
//! from plain FF1, and the batch path gives the one-value results.

use tessera::fpe::{Alphabet, FF1, Fpe};
use tessera::keyset::{
    BatchTweaks, DateRange, Error, FpeParams, FpeTransform, Keyset, LuhnRule, Template, TransformParams, TweakPolicy,
};

fn luhn_ok(s: &str) -> bool {
    let sum: u32 = s
        .bytes()
        .rev()
        .filter(u8::is_ascii_digit)
        .map(|c| u32::from(c - b'0'))
        .enumerate()
        .map(|(i, d)| if i % 2 == 1 { (2 * d) / 10 + (2 * d) % 10 } else { d })
        .sum();
    sum.is_multiple_of(10)
}

/// `count` card numbers in the `dddd-dddd-dddd-dddd` shape that pass the check.
fn cards(count: usize) -> Vec<String> {
    (0..count as u64)
        .map(|i| {
            let body = format!("4{:014}", (i * 7_919_993 + 12_345) % 100_000_000_000_000);
            let check = (0..10).map(|c| format!("{body}{c}")).find(|c| luhn_ok(c)).unwrap();
            let b = check.as_bytes();
            let g = |r: std::ops::Range<usize>| std::str::from_utf8(&b[r]).unwrap().to_string();
            format!("{}-{}-{}-{}", g(0..4), g(4..8), g(8..12), g(12..16))
        })
        .collect()
}

fn card_keyset(rule: LuhnRule) -> Keyset {
    let mut ks = Keyset::new();
    let TransformParams::Fpe(mut p) = Template::Card.params() else { unreachable!() };
    p.luhn = Some(rule);
    ks.add_transform("cards", TransformParams::Fpe(p)).unwrap();
    ks
}

fn batch(fpe: &FpeTransform, values: &[String], decrypt: bool) -> Result<Vec<String>, Error> {
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    if decrypt {
        fpe.decrypt_batch(BatchTweaks::Fixed, &refs, None, &mut out, &mut ends)?;
    } else {
        fpe.encrypt_batch(BatchTweaks::Fixed, &refs, &mut out, &mut ends)?;
    }
    let text = String::from_utf8(out).unwrap();
    let starts = std::iter::once(0).chain(ends.iter().copied());
    Ok(starts.zip(&ends).map(|(a, &z)| text[a..z].to_string()).collect())
}

#[test]
fn luhn_pass_tokens_are_card_numbers_that_decrypt() {
    let ks = card_keyset(LuhnRule::Pass);
    let fpe = ks.fpe("cards").unwrap();
    let values = cards(2000);
    let tokens = batch(&fpe, &values, false).unwrap();
    let mut changed = 0;
    for (v, t) in values.iter().zip(&tokens) {
        assert!(luhn_ok(t), "{t}");
        assert_eq!(t.len(), v.len());
        assert_eq!((&t[..7], &t[14..]), (&v[..7], &v[14..]), "6 + 4 kept, dashes in place");
        assert_eq!(&fpe.encrypt(None, v).unwrap(), t, "batch and one value agree");
        assert_eq!(fpe.decrypt(None, t, None).unwrap().as_str(), v);
        changed += usize::from(t != v);
    }
    assert!(changed > 1990, "only {changed} tokens differ from their values");
    assert_eq!(batch(&fpe, &tokens, true).unwrap(), values);
}

#[test]
fn luhn_fail_tokens_never_pass_and_foreign_tokens_are_refused() {
    let ks = card_keyset(LuhnRule::Fail);
    let fpe = ks.fpe("cards").unwrap();
    let values = cards(2000);
    let tokens = batch(&fpe, &values, false).unwrap();
    for (v, t) in values.iter().zip(&tokens) {
        assert!(!luhn_ok(t), "{t} passes the Luhn check");
        assert_eq!(fpe.decrypt(None, t, None).unwrap().as_str(), v);
    }
    assert_eq!(batch(&fpe, &tokens, true).unwrap(), values);
    // The value itself (a passing number) is not a token; nor is a failing
    // number whose last encrypted digit is not one above a passing one.
    assert!(matches!(fpe.decrypt(None, &values[0], None), Err(Error::ValueRefused(_))));
    let mut refused = 0;
    for t in tokens.iter().take(200) {
        let mut b = t.clone().into_bytes();
        b[13] = b'0' + (b[13] - b'0' + 5) % 10; // another failing number, most of the time
        let other = String::from_utf8(b).unwrap();
        if !luhn_ok(&other) && fpe.decrypt(None, &other, None).is_err() {
            refused += 1;
        }
    }
    assert!(refused > 100, "only {refused} of 200 foreign failing numbers refused");
}

#[test]
fn a_value_failing_the_check_is_refused_by_index() {
    for rule in [LuhnRule::Pass, LuhnRule::Fail] {
        let fpe = card_keyset(rule).fpe("cards").unwrap();
        let mut values = cards(10);
        values[7] = "4111-1111-1111-1112".into();
        let e = batch(&fpe, &values, false).unwrap_err();
        assert!(matches!(&e, Error::Batch { index: 7, source } if matches!(**source, Error::ValueRefused(_))), "{e}");
        assert!(e.to_string().contains("Luhn"), "{e}");
        let e = fpe.encrypt(None, "4111-1111-1111-11x1").unwrap_err();
        assert!(e.to_string().contains("'x'"), "a character outside the alphabet is named first: {e}");
    }
}

/// The cycle walk, re-derived from plain FF1 on the digits between the kept 6 and 4.
#[test]
fn the_walk_is_repeated_ff1_until_inside() {
    let ks = card_keyset(LuhnRule::Pass);
    let fpe = ks.fpe("cards").unwrap();
    let key = key_bytes(&ks, "cards");
    let ff1 = FF1::new(&key, Alphabet::digits()).unwrap();
    for v in cards(300) {
        let digits: String = v.chars().filter(char::is_ascii_digit).collect();
        let mut mid = digits[6..12].to_string();
        loop {
            mid = ff1.encrypt(b"", &mid).unwrap();
            if luhn_ok(&format!("{}{mid}{}", &digits[..6], &digits[12..])) {
                break;
            }
        }
        let token: String = fpe.encrypt(None, &v).unwrap().chars().filter(char::is_ascii_digit).collect();
        assert_eq!(token, format!("{}{mid}{}", &digits[..6], &digits[12..]));
    }
    let ks = date_keyset(DateRange::default());
    let key = key_bytes(&ks, "dob");
    let ff1 = FF1::new(&key, Alphabet::digits()).unwrap();
    let fpe = ks.fpe("dob").unwrap();
    // 0001-01-01 is day 0; the range holds 3,652,059 days, as 7 digits.
    let mut x = "0000000".to_string();
    loop {
        x = ff1.encrypt(b"", &x).unwrap();
        if x.parse::<u32>().unwrap() < 3_652_059 {
            break;
        }
    }
    let day: u32 = x.parse().unwrap();
    let token = fpe.encrypt(None, "0001-01-01").unwrap();
    let (y, m, d) = civil(day);
    assert_eq!(token, format!("{y:04}-{m:02}-{d:02}"));
}

/// Day `n` after 0001-01-01 as (year, month, day), counted the slow way.
fn civil(mut n: u32) -> (u32, u32, u32) {
    let leap = |y: u32| (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let mut y = 1;
    while n >= 365 + u32::from(leap(y)) {
        n -= 365 + u32::from(leap(y));
        y += 1;
    }
    let months = [31, 28 + u32::from(leap(y)), 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut m = 0;
    while n >= months[m] {
        n -= months[m];
        m += 1;
    }
    (y, m as u32 + 1, n + 1)
}

/// The key bytes of the primary of `name`, read from the keyset's JSON.
fn key_bytes(ks: &Keyset, name: &str) -> Vec<u8> {
    let doc: serde_json::Value = serde_json::from_slice(&ks.to_json().unwrap()).unwrap();
    let transforms = doc["transforms"].as_array().expect("a list of transformations");
    let t = transforms.iter().find(|t| t["name"] == name).unwrap();
    let hex = t["keys"][0]["material"].as_str().unwrap();
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
}

fn date_keyset(range: DateRange) -> Keyset {
    let mut ks = Keyset::new();
    let TransformParams::Fpe(mut p) = Template::Date.params() else { unreachable!() };
    p.date = Some(range);
    ks.add_transform("dob", TransformParams::Fpe(p)).unwrap();
    ks
}

fn dates(count: usize) -> Vec<String> {
    (0..count as u32)
        .map(|i| 1900 + i % 120)
        .zip(0..)
        .map(|(y, i)| format!("{y}-{:02}-{:02}", 1 + i % 12, 1 + i % 28))
        .collect()
}

#[test]
fn date_tokens_are_dates_in_the_range() {
    let range = DateRange { first: "1000-01-01".into(), last: "4000-12-31".into() };
    let ks = date_keyset(range);
    let fpe = ks.fpe("dob").unwrap();
    let values = dates(3000);
    let tokens = batch(&fpe, &values, false).unwrap();
    for (v, t) in values.iter().zip(&tokens) {
        assert!(t.as_str() >= "1000-01-01" && t.as_str() <= "4000-12-31", "{t}");
        assert_eq!(&fpe.encrypt(None, v).unwrap(), t);
        assert_eq!(fpe.decrypt(None, t, None).unwrap().as_str(), v);
    }
    let mut distinct = tokens.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), {
        let mut d = values.clone();
        d.sort();
        d.dedup();
        d.len()
    });
    assert_eq!(batch(&fpe, &tokens, true).unwrap(), values);
    // Outside the range, not a date, or not in the YYYY-MM-DD shape.
    for bad in ["0999-12-31", "4001-01-01", "2023-02-29", "2024-1-05", "20240105", ""] {
        let e = fpe.encrypt(None, bad).unwrap_err();
        assert!(matches!(e, Error::ValueRefused(_)), "{bad}: {e}");
    }
    let e = batch(&fpe, &["2000-01-01".into(), "2000-02-30".into()], false).unwrap_err();
    assert!(matches!(e, Error::Batch { index: 1, .. }), "{e}");
}

#[test]
fn unusable_walk_parameters_are_refused() {
    let mut ks = Keyset::new();
    let short = DateRange { first: "1900-01-01".into(), last: "2099-12-31".into() };
    let mut p = FpeParams::new("0123456789");
    p.date = Some(short);
    let e = ks.add_transform("dob", TransformParams::Fpe(p)).unwrap_err();
    assert!(e.to_string().contains("73049 days"), "{e}");
    let mut p = FpeParams::new("0123456789");
    p.date = Some(DateRange { first: "0001-01-01".into(), last: "9999-13-01".into() });
    assert!(ks.add_transform("dob", TransformParams::Fpe(p)).is_err());
    let mut p = FpeParams::new("0123456789abcdef");
    p.luhn = Some(LuhnRule::Pass);
    assert!(ks.add_transform("hex", TransformParams::Fpe(p)).is_err());
    let TransformParams::Fpe(mut p) = Template::Card.params() else { unreachable!() };
    p.luhn = Some(LuhnRule::Fail);
    p.key_version = tessera::keyset::KeyVersionMode::Embedded;
    assert!(ks.add_transform("cards", TransformParams::Fpe(p)).is_err());
}

#[test]
fn per_record_tweaks_walk_with_their_own_tweak() {
    let mut ks = Keyset::new();
    let TransformParams::Fpe(mut p) = Template::Card.params() else { unreachable!() };
    p.luhn = Some(LuhnRule::Fail);
    p.tweak = TweakPolicy::Field { name: "customer".into() };
    ks.add_transform("cards", TransformParams::Fpe(p)).unwrap();
    let fpe = ks.fpe("cards").unwrap();
    let values = cards(500);
    let tweaks: Vec<Vec<u8>> = (0..500).map(|i| format!("c-{i}").into_bytes()).collect();
    let ts: Vec<&[u8]> = tweaks.iter().map(Vec::as_slice).collect();
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    fpe.encrypt_batch(BatchTweaks::PerValue(&ts), &refs, &mut out, &mut ends).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        assert_eq!(text[start..end], fpe.encrypt(Some(ts[i]), refs[i]).unwrap());
        start = end;
    }
}

#[test]
fn walk_parameters_survive_the_keyset_file() {
    let ks = card_keyset(LuhnRule::Fail);
    let json = ks.to_json().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(doc["transforms"][0]["params"]["luhn"], "fail");
    let back = Keyset::from_json(&json).unwrap();
    assert_eq!(back.fpe("cards").unwrap().params().luhn, Some(LuhnRule::Fail));
    let ks = date_keyset(DateRange::default());
    let back = Keyset::from_json(&ks.to_json().unwrap()).unwrap();
    assert_eq!(back.fpe("dob").unwrap().params().date, Some(DateRange::default()));
}
