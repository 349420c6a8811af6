//! FF1 is the method; FF3-1 and FF3 are for reading and migrating old
//! tokens. Encrypting with a withdrawn method needs `--allow-withdrawn` and
//! warns once; decrypting never warns. `tessera fpe rewrap --from-…` moves
//! tokens made by a key file (FF3-1 tokens from the `ff3` Python package,
//! what Spark notebooks use) or by another transformation to a keyset's FF1
//! transformation in one pass; a token the source cannot read, or a value
//! the target cannot hold, names its line and writes nothing.

use crate::common;

use common::{KeysetDir, python_with, skip_peer, tessera_fails as fails, tessera_ok as ok, tessera_run as run};

const OLD_KEY: &str = "2b7e151628aed2a6abf7158809cf4f3c";
const TWEAK7: &str = "d8e7920afa330a";

/// A keyset directory with `old.key` and a keyset `ks.tks` holding the FF1
/// transformation `cards` (template `digits`).
fn keyset() -> KeysetDir {
    let d = KeysetDir::new();
    std::fs::write(d.path("old.key"), OLD_KEY).unwrap();
    ok(
        &[
            "keyset",
            "new",
            "-o",
            &d.s("ks.tks"),
            "--keyset-password-file",
            &d.s("pw"),
            "--transform",
            "cards",
            "--template",
            "digits",
        ],
        b"",
    );
    d
}

fn ks<'a>(d: &'a KeysetDir, pw: &'a str, op: &'a str, extra: &[&'a str]) -> Vec<String> {
    let mut v: Vec<String> =
        ["fpe", op, "--keyset", &d.s("ks.tks"), "--keyset-password-file", pw].map(String::from).into();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn withdrawn_methods_encrypt_only_when_asked_and_say_so_once() {
    let d = keyset();
    let key = d.s("old.key");
    let cards = b"4111111111111111\n5500000000000004\n340000000000009\n";
    for alg in ["ff3-1", "ff3"] {
        let tweak = if alg == "ff3" { "d8e7920afa330a73" } else { TWEAK7 };
        let args = ["fpe", "encrypt", "--key-file", &key, "--algorithm", alg, "--tweak", tweak];
        let err = fails(&args, cards);
        assert!(err.contains("withdrawn") && err.contains("SP 800-38G") && err.contains("--allow-withdrawn"), "{err}");
        let mut allowed = args.to_vec();
        allowed.push("--allow-withdrawn");
        let out = run(&allowed, cards);
        assert!(out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.matches("warning").count(), 1, "{stderr}");
        assert!(stderr.contains("withdrawn"), "{stderr}");
        let back = run(&["fpe", "decrypt", "--key-file", &key, "--algorithm", alg, "--tweak", tweak], &out.stdout);
        assert_eq!(back.stdout, cards);
        assert!(back.stderr.is_empty(), "decrypting warns: {}", String::from_utf8_lossy(&back.stderr));
    }
    // FF1 never warns.
    let out = run(&["fpe", "encrypt", "--key-file", &key], cards);
    assert!(out.status.success() && out.stderr.is_empty());
    // A keyset transformation: created and used for encryption only when asked.
    let (pw, file) = (d.s("pw"), d.s("ks.tks"));
    let new = ["keyset", "new", "--keyset", &file, "--keyset-password-file", &pw, "--transform", "legacy"];
    let err = fails(&[&new[..], &["--algorithm", "ff3-1"]].concat(), b"");
    assert!(err.contains("--allow-withdrawn"), "{err}");
    let out = run(&[&new[..], &["--algorithm", "ff3-1", "--allow-withdrawn"]].concat(), b"");
    assert!(out.status.success() && String::from_utf8_lossy(&out.stderr).contains("withdrawn"));
    let enc = ks(&d, &pw, "encrypt", &["--transform", "legacy"]);
    assert!(fails(&strs(&enc), cards).contains("--allow-withdrawn"));
    let tokens = ok(&[&strs(&enc)[..], &["--allow-withdrawn"]].concat(), cards);
    let back = run(&strs(&ks(&d, &pw, "decrypt", &["--transform", "legacy"])), &tokens);
    assert!(back.status.success() && back.stderr.is_empty());
    assert_eq!(back.stdout, cards);
}

#[test]
fn ff3_1_tokens_of_the_ff3_package_move_to_ff1() {
    let Some(python) = python_with("ff3") else { return skip_peer("the ff3 Python package") };
    let d = keyset();
    // 3,000 card numbers and their FF3-1 tokens, as a Spark job with the ff3 package writes them.
    let script = format!(
        "import random, sys\nfrom ff3 import FF3Cipher\nc = FF3Cipher('{OLD_KEY}', '{TWEAK7}')\nr = random.Random(7)\n\
         cards = [''.join(r.choice('0123456789') for _ in range(r.randint(13, 19))) for _ in range(3000)]\n\
         open(sys.argv[1], 'w').write(''.join(x + '\\n' for x in cards))\n\
         open(sys.argv[2], 'w').write(''.join(c.encrypt(x) + '\\n' for x in cards))\n"
    );
    let out =
        std::process::Command::new(python).args(["-c", &script, &d.s("cards.txt"), &d.s("ff3.txt")]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (cards, ff3) = (std::fs::read(d.path("cards.txt")).unwrap(), std::fs::read(d.path("ff3.txt")).unwrap());
    let pw = d.s("pw");
    let from = ["--from-key-file", &d.s("old.key"), "--from-algorithm", "ff3-1", "--from-tweak", TWEAK7];
    let rewrap = ks(&d, &pw, "rewrap", &from);
    let migrated = run(&strs(&rewrap), &ff3);
    assert!(migrated.status.success(), "{}", String::from_utf8_lossy(&migrated.stderr));
    assert!(migrated.stderr.is_empty(), "migrating warns: {}", String::from_utf8_lossy(&migrated.stderr));
    // The FF1 tokens are the keyset's tokens of the cards, whatever the thread count.
    assert_eq!(migrated.stdout, ok(&strs(&ks(&d, &pw, "encrypt", &[])), &cards));
    assert_eq!(ok(&strs(&ks(&d, &pw, "decrypt", &[])), &migrated.stdout), cards);
    assert_eq!(ok(&[&strs(&rewrap)[..], &["--threads", "3"]].concat(), &ff3), migrated.stdout);
    let lines = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap().lines().map(String::from).collect::<Vec<_>>();
    assert!(lines(&migrated.stdout).iter().zip(lines(&ff3)).all(|(a, b)| *a != b), "a token was left as it was");

    // The same in a CSV column.
    let csv: String = std::iter::once("id,card\n".to_string())
        .chain(lines(&ff3).iter().enumerate().map(|(i, t)| format!("{i},{t}\n")))
        .collect();
    let out = ok(&[&strs(&rewrap)[..], &["--csv", "--columns", "card"]].concat(), csv.as_bytes());
    let want: String = std::iter::once("id,card\n".to_string())
        .chain(lines(&migrated.stdout).iter().enumerate().map(|(i, t)| format!("{i},{t}\n")))
        .collect();
    assert_eq!(String::from_utf8(out).unwrap(), want);
}

#[test]
fn tokens_move_between_transformations_of_a_keyset() {
    let d = keyset();
    let (pw, file) = (d.s("pw"), d.s("ks.tks"));
    let new = ["keyset", "new", "--keyset", &file, "--keyset-password-file", &pw, "--transform", "legacy"];
    ok(&[&new[..], &["--algorithm", "ff3-1", "--allow-withdrawn", "--tweak", TWEAK7]].concat(), b"");
    let cards = b"4111111111111111\n5500000000000004\n";
    let old = ok(&strs(&ks(&d, &pw, "encrypt", &["--transform", "legacy", "--allow-withdrawn"])), cards);
    let moved = ok(&strs(&ks(&d, &pw, "rewrap", &["--transform", "cards", "--from-transform", "legacy"])), &old);
    assert_eq!(moved, ok(&strs(&ks(&d, &pw, "encrypt", &["--transform", "cards"])), cards));
    // The source's version is --from-version (--version names the target's own).
    let err = fails(
        &strs(&ks(&d, &pw, "rewrap", &["--transform", "cards", "--from-transform", "legacy", "--from-version", "9"])),
        &old,
    );
    assert!(err.contains("no key version 9"), "{err}");
    let err = fails(&strs(&ks(&d, &pw, "rewrap", &["--transform", "cards", "--from-transform", "nope"])), &old);
    assert!(err.contains("nope"), "{err}");
}

/// An existing key brought into a keyset (`keyset new --key-file`): the
/// transformation reads the tokens the key file made, and moves them.
#[test]
fn an_existing_key_becomes_a_keyset_transformation() {
    let d = keyset();
    let (pw, file, key) = (d.s("pw"), d.s("ks.tks"), d.s("old.key"));
    let cards = b"4111111111111111\n5500000000000004\n";
    let by_file =
        ["fpe", "encrypt", "--key-file", &key, "--algorithm", "ff3-1", "--allow-withdrawn", "--tweak", TWEAK7];
    let old = ok(&by_file, cards);
    let new = ["keyset", "new", "--keyset", &file, "--keyset-password-file", &pw, "--transform", "legacy"];
    let legacy = ["--algorithm", "ff3-1", "--allow-withdrawn", "--tweak", TWEAK7, "--key-file", &key];
    ok(&[&new[..], &legacy].concat(), b"");
    assert_eq!(ok(&strs(&ks(&d, &pw, "decrypt", &["--transform", "legacy"])), &old), cards);
    let moved = ok(&strs(&ks(&d, &pw, "rewrap", &["--transform", "cards", "--from-transform", "legacy"])), &old);
    assert_eq!(moved, ok(&strs(&ks(&d, &pw, "encrypt", &["--transform", "cards"])), cards));
    // The key is checked like any FPE key; its bytes never appear in an error.
    std::fs::write(d.path("short.key"), "00112233445566778899").unwrap();
    let short = ["keyset", "new", "--keyset", &file, "--keyset-password-file", &pw, "--transform", "short"];
    let err = fails(&[&short[..], &["--key-file", &d.s("short.key")]].concat(), b"");
    assert!(err.contains("wrong size") && !err.contains("0011223344"), "{err}");
}

#[test]
fn a_bad_value_names_its_line_and_nothing_is_written() {
    let d = keyset();
    let pw = d.s("pw");
    let key = d.s("old.key");
    let output = d.s("out.txt");
    let ff1_from = ["--from-key-file", key.as_str(), "--output", output.as_str()];
    // Line 3 is not a token of the source's alphabet.
    let err = fails(&strs(&ks(&d, &pw, "rewrap", &ff1_from)), b"1234567890\n0987654321\n12345x7890\n");
    assert!(err.contains("line 3"), "{err}");
    assert!(!d.path("out.txt").exists(), "a partial output file");
    // Hex tokens whose plaintexts hold letters: the digits transformation cannot hold line 2.
    let hex =
        tessera::fpe::FF1::new(&tessera::hex::decode_key(OLD_KEY.as_bytes()).unwrap(), tessera::fpe::Alphabet::hex())
            .unwrap();
    use tessera::fpe::Fpe;
    let tokens = format!("{}\n{}\n", hex.encrypt(b"", "12345678").unwrap(), hex.encrypt(b"", "1234abcd").unwrap());
    let hex_from =
        ["--from-key-file", key.as_str(), "--from-alphabet", "0123456789abcdef", "--output", output.as_str()];
    let err = fails(&strs(&ks(&d, &pw, "rewrap", &hex_from)), tokens.as_bytes());
    assert!(err.contains("line 2"), "{err}");
    assert!(!d.path("out.txt").exists(), "a partial output file");
    // Source options belong to rewrap; a source needs a key.
    let err = fails(&strs(&ks(&d, &pw, "encrypt", &["--from-key-file", &key])), b"123456\n");
    assert!(err.contains("rewrap"), "{err}");
    let err = fails(&["fpe", "encrypt", "--key-file", &key, "--from-key-file", &key], b"123456\n");
    assert!(err.contains("rewrap"), "{err}");
    let err = fails(&strs(&ks(&d, &pw, "rewrap", &["--from-algorithm", "ff3-1"])), b"123456\n");
    assert!(err.contains("--from-key-file"), "{err}");
    let err = fails(
        &strs(&ks(&d, &pw, "rewrap", &["--from-key-file", &key, "--from-algorithm", "ff3-1", "--from-tweak", "00"])),
        b"123456\n",
    );
    assert!(err.contains("--from-tweak"), "{err}");
}
