//! `--columns card=cards,email=emails,dob=dates`: one pass over a CSV, each
//! column through its own keyset transformation (FPE and AES-SIV mixed),
//! with the bytes one pass per column gives; and the card (Luhn) and date
//! options of `keyset new`.

use crate::common;

use common::{KeysetDir, tessera_fails as fails, tessera_ok as ok};

fn luhn_ok(s: &str) -> bool {
    let digits = s.bytes().rev().filter(u8::is_ascii_digit).map(|c| u32::from(c - b'0'));
    digits
        .enumerate()
        .map(|(i, d)| if i % 2 == 1 { (2 * d) / 10 + (2 * d) % 10 } else { d })
        .sum::<u32>()
        .is_multiple_of(10)
}

/// A keyset with `cards` (card template, tokens fail the Luhn check),
/// `emails` (AES-SIV), `dates` (date template) and `accts` (digits, tweak
/// from each record's `cust` field).
fn keyset() -> KeysetDir {
    let d = KeysetDir::new();
    let (ks, pw) = (d.s("ks.tks"), d.s("pw"));
    ok(&new_transform(&ks, &pw, "cards", &["--template", "card", "--luhn", "fail"]), b"");
    ok(&new_transform(&ks, &pw, "emails", &["--siv"]), b"");
    ok(&new_transform(&ks, &pw, "dates", &["--template", "date"]), b"");
    ok(&new_transform(&ks, &pw, "accts", &["--template", "digits", "--tweak-field", "cust"]), b"");
    d
}

/// A CSV of `rows` records: id, email, card, cust, dob, acct.
fn csv(rows: usize) -> Vec<u8> {
    let mut out = b"id,email,card,cust,dob,acct\n".to_vec();
    for i in 0..rows {
        let body = format!("4{:014}", (i as u64 * 7_919_993 + 17) % 100_000_000_000_000);
        let card = (0..10).map(|c| format!("{body}{c}")).find(|c| luhn_ok(c)).unwrap();
        let card = format!("{}-{}-{}-{}", &card[..4], &card[4..8], &card[8..12], &card[12..]);
        let dob = format!("{}-{:02}-{:02}", 1930 + i % 80, 1 + i % 12, 1 + i % 28);
        let email = if i % 7 == 0 { format!("\"u{i},x@example.org\"") } else { format!("u{i}@example.org") };
        out.extend_from_slice(format!("{i},{email},{card},c{},{dob},{:08}\n", i % 13, i * 31).as_bytes());
    }
    out
}

fn base(d: &KeysetDir) -> Vec<String> {
    ["--keyset", &d.s("ks.tks"), "--keyset-password-file", &d.s("pw"), "--csv"].map(String::from).to_vec()
}

fn pass(d: &KeysetDir, cmd: &str, op: &str, columns: &str, threads: &str, input: &[u8]) -> Vec<u8> {
    let mut args = vec![cmd.to_string(), op.to_string()];
    args.extend(base(d));
    args.extend(["--columns".into(), columns.into(), "--threads".into(), threads.into()]);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>(), input)
}

#[test]
fn one_pass_over_many_columns_equals_one_pass_per_column() {
    let d = keyset();
    let input = csv(20_000); // several batches
    let mapped = "card=cards,email=emails,dob=dates,acct=accts";
    let one = pass(&d, "fpe", "encrypt", mapped, "1", &input);
    assert_eq!(pass(&d, "fpe", "encrypt", mapped, "2", &input), one, "threads change nothing");
    assert_eq!(pass(&d, "siv", "encrypt", mapped, "2", &input), one, "fpe and siv take the same map");
    let mut each = pass(&d, "fpe", "encrypt", "card=cards", "2", &input);
    each = pass(&d, "siv", "encrypt", "email=emails", "2", &each);
    each = pass(&d, "fpe", "encrypt", "dob=dates", "2", &each);
    each = pass(&d, "fpe", "encrypt", "acct=accts", "2", &each);
    assert_eq!(one, each);
    let text = String::from_utf8(one.clone()).unwrap();
    for (line, orig) in text.lines().skip(1).zip(String::from_utf8(input.clone()).unwrap().lines().skip(1)) {
        let card = line.split(',').find(|f| f.len() == 19 && f.as_bytes()[4] == b'-').unwrap();
        assert!(!luhn_ok(card), "{card}");
        assert_ne!(line, orig);
    }
    // Back in one pass, named in another order.
    let back = pass(&d, "fpe", "decrypt", "acct=accts,dob=dates,email=emails,card=cards", "2", &one);
    assert_eq!(back, input);
}

#[test]
fn rewrap_moves_every_column_to_its_primary() {
    let d = keyset();
    let input = csv(300);
    let mapped = "card=cards,email=emails";
    let tokens = pass(&d, "fpe", "encrypt", mapped, "2", &input);
    for t in ["cards", "emails"] {
        let v = String::from_utf8(ok(
            &["keyset", "add", "--keyset", &d.s("ks.tks"), "--keyset-password-file", &d.s("pw"), "--transform", t],
            b"",
        ))
        .unwrap();
        ok(
            &[
                "keyset",
                "promote",
                "--keyset",
                &d.s("ks.tks"),
                "--keyset-password-file",
                &d.s("pw"),
                "--transform",
                t,
                "--version",
                v.trim(),
            ],
            b"",
        );
    }
    let mut args: Vec<String> = vec!["fpe".into(), "rewrap".into()];
    args.extend(base(&d));
    args.extend(["--columns", mapped, "--version", "1"].map(String::from));
    let err = fails(&args.iter().map(String::as_str).collect::<Vec<_>>(), &tokens);
    assert!(err.contains("column \"email\"") && err.contains("--version is for FPE"), "{err}");
    let rewrapped = pass(&d, "fpe", "rewrap", "email=emails", "2", &tokens);
    let mut args: Vec<String> = vec!["fpe".into(), "rewrap".into()];
    args.extend(base(&d));
    args.extend(["--columns", "card=cards", "--version", "1"].map(String::from));
    let rewrapped = ok(&args.iter().map(String::as_str).collect::<Vec<_>>(), &rewrapped);
    assert_ne!(rewrapped, tokens);
    assert_eq!(pass(&d, "fpe", "encrypt", mapped, "1", &input), rewrapped);
}

#[test]
fn a_bad_column_or_value_is_one_error_and_no_output() {
    let d = keyset();
    let input = csv(50);
    let run_err = |columns: &str, extra: &[&str], input: &[u8]| {
        let mut args: Vec<String> = vec!["fpe".into(), "encrypt".into()];
        args.extend(base(&d));
        args.extend(["--columns".to_string(), columns.to_string()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        let out = d.s("out.csv");
        args.extend(["-o".to_string(), out.clone()]);
        let err = fails(&args.iter().map(String::as_str).collect::<Vec<_>>(), input);
        assert!(!std::path::Path::new(&out).exists(), "no output file after: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    assert!(run_err("card=nope", &[], &input).contains("no transformation named \"nope\""));
    assert!(run_err("card=cards,card=dates", &[], &input).contains("two transformations"));
    assert!(run_err("card=cards,dob", &[], &input).contains("give dob=NAME or --transform"));
    assert!(run_err("card=cards,missing=dates", &[], &input).contains("column \"missing\" is not in the CSV header"));
    assert!(run_err("card=cards", &["--version", "1"], &input).contains("give no --version"));
    let mut bad = input.clone();
    bad.extend_from_slice(b"50,z@example.org,4111-1111-1111-1111,c1,1999-02-30,00000001\n");
    let err = run_err("card=cards,dob=dates", &[], &bad);
    assert!(err.contains("line 52, column \"dob\"") && err.contains("YYYY-MM-DD"), "{err}");
    let mut bad = input.clone();
    bad.extend_from_slice(b"50,z@example.org,4111-1111-1111-1112,c1,1999-01-30,00000001\n");
    let err = run_err("dob=dates,card=cards", &[], &bad);
    assert!(err.contains("line 52, column \"card\"") && err.contains("Luhn"), "{err}");
    // Without --csv, or without a keyset.
    let err = fails(
        &["fpe", "encrypt", "--keyset", &d.s("ks.tks"), "--keyset-password-file", &d.s("pw"), "--columns", "a=b"],
        b"",
    );
    assert!(err.contains("--csv"), "{err}");
}

/// `keyset new` of transformation `name` in `ks` (created if missing).
fn new_transform<'a>(ks: &'a str, pw: &'a str, name: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let flag = if std::path::Path::new(ks).exists() { "--keyset" } else { "-o" };
    [&["keyset", "new", flag, ks, "--keyset-password-file", pw, "--transform", name], extra].concat()
}

#[test]
fn keyset_new_takes_luhn_and_date_options() {
    let d = KeysetDir::new();
    let (ks, pw) = (d.s("ks.tks"), d.s("pw"));
    let date = |range| ["--template", "date", "--date-range", range];
    let err = fails(&new_transform(&ks, &pw, "d", &date("1900-01-01..2099-12-31")), b"");
    assert!(err.contains("73049 days") && err.contains("1000000"), "{err}");
    ok(&new_transform(&ks, &pw, "d", &date("1000-01-01..4000-12-31")), b"");
    ok(&new_transform(&ks, &pw, "c", &["--template", "card", "--luhn", "pass"]), b"");
    let list = String::from_utf8(ok(&["keyset", "list", "--keyset", &ks, "--keyset-password-file", &pw], b"")).unwrap();
    assert!(list.contains("dates 1000-01-01..4000-12-31") && list.contains("tokens pass the Luhn check"), "{list}");
    let base = ["--keyset", &ks, "--keyset-password-file", &pw, "--transform"];
    let tokens = ok(&[&["fpe", "encrypt"][..], &base, &["c"]].concat(), b"4111 1111 1111 1111\n5500-0000-0000-0004\n");
    for t in String::from_utf8(tokens.clone()).unwrap().lines() {
        assert!(luhn_ok(t), "{t}");
    }
    let back = ok(&[&["fpe", "decrypt"][..], &base, &["c"]].concat(), &tokens);
    assert_eq!(back, b"4111 1111 1111 1111\n5500-0000-0000-0004\n");
    let dates = ok(&[&["fpe", "encrypt"][..], &base, &["d"]].concat(), b"1000-01-01\n4000-12-31\n");
    for t in String::from_utf8(dates).unwrap().lines() {
        assert!(t.len() == 10 && ("1000-01-01"..="4000-12-31").contains(&t), "{t}");
    }
}
