//! `tessera siv`: the RFC 5297 vectors through the binary, line and CSV
//! modes against the library, and the failure contract (one line naming the
//! problem, and the line in line mode; non-zero exit; no output file).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use tessera::siv::AesSiv;

fn tessera(args: &[&str], stdin: &[u8]) -> Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera"), args, stdin)
}

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = tessera(args, stdin);
    assert!(out.status.success(), "tessera {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Runs a command that must fail; returns its stderr, which must be one line.
fn fails(args: &[&str], stdin: &[u8]) -> String {
    let out = tessera(args, stdin);
    assert!(!out.status.success(), "tessera {args:?} succeeded");
    assert!(out.stdout.is_empty(), "wrote to stdout: {:?}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    err
}

fn key_file(dir: &Path, hex: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let p = dir.join(format!("siv{}.hex", N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::write(&p, format!("{hex}\n")).unwrap();
    p
}

fn vectors() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tessera/tests/vectors/siv.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Unpadded base64url, written independently of the CLI's.
fn b64(data: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut bits = 0u32;
    let mut n = 0;
    let mut s = String::new();
    for &b in data {
        bits = bits << 8 | b as u32;
        n += 8;
        while n >= 6 {
            n -= 6;
            s.push(A[(bits >> n & 63) as usize] as char);
        }
    }
    if n > 0 {
        s.push(A[(bits << (6 - n) & 63) as usize] as char);
    }
    s
}

const KEY32: &str = "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

#[test]
fn rfc5297_and_aes_siv_512_vectors_binary_mode() {
    let dir = tempfile::tempdir().unwrap();
    for v in vectors()["siv"].as_array().unwrap() {
        let s = |k: &str| v[k].as_str().unwrap().to_string();
        let key = key_file(dir.path(), &s("key"));
        let mut args = vec!["siv".to_string(), "encrypt".into(), "--key-file".into(), key.display().to_string()];
        for a in v["ad"].as_array().unwrap() {
            args.extend(["--ad".to_string(), a.as_str().unwrap().to_string()]);
        }
        if let Some(n) = v["nonce"].as_str() {
            args.extend(["--nonce".to_string(), n.to_string()]);
        }
        let pt = hex::decode(s("pt")).unwrap();
        let ct = hex::decode(s("out")).unwrap();
        let enc: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(ok(&enc, &pt), ct, "{}", s("name"));
        let mut dec = enc.clone();
        dec[1] = "decrypt";
        assert_eq!(ok(&dec, &ct), pt, "{}", s("name"));

        // Through files.
        let (inp, outp) = (dir.path().join("in.bin"), dir.path().join("out.bin"));
        std::fs::write(&inp, &pt).unwrap();
        let mut files = enc.clone();
        files.extend(["--input", inp.to_str().unwrap(), "--output", outp.to_str().unwrap()]);
        assert!(ok(&files, b"").is_empty());
        assert_eq!(std::fs::read(&outp).unwrap(), ct);
    }
}

#[test]
fn binary_round_trip_all_key_sizes_and_lengths() {
    let dir = tempfile::tempdir().unwrap();
    for key_hex in [KEY32.to_string(), "ab".repeat(48), "cd".repeat(64)] {
        let key = key_file(dir.path(), &key_hex);
        let siv = AesSiv::new(&hex::decode(&key_hex).unwrap()).unwrap();
        for n in [0usize, 1, 15, 16, 17, 1000, 70_000] {
            let pt: Vec<u8> = (0..n).map(|i| (i * 7 + 3) as u8).collect();
            let args =
                ["siv", "encrypt", "--key-file", key.to_str().unwrap(), "--ad", "c0ffee", "--ad", "", "--nonce", "01"];
            let ct = ok(&args, &pt);
            assert_eq!(ct, siv.seal(Some(&[1]), &[&[0xc0, 0xff, 0xee], b""], &pt).unwrap());
            let mut dec = args;
            dec[1] = "decrypt";
            assert_eq!(ok(&dec, &ct), pt);
        }
    }
}

#[test]
fn lines_mode_matches_library_and_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY32);
    let siv = AesSiv::new(&hex::decode(KEY32).unwrap()).unwrap();
    let mut input = String::new();
    for i in 0..20_000 {
        input.push_str(&format!("user{i}@example.com"));
        input.push_str(if i % 3 == 0 { "\r\n" } else { "\n" });
    }
    input.push_str("\nlast line without newline");
    let args = ["siv", "encrypt", "--key-file", key.to_str().unwrap(), "--ad", "656d61696c", "--lines"];
    let out = String::from_utf8(ok(&args, input.as_bytes())).unwrap();
    let mut want = String::new();
    for (line, term) in input.split_inclusive('\n').map(|l| {
        let body = l.trim_end_matches('\n').trim_end_matches('\r');
        (body, &l[body.len()..])
    }) {
        want.push_str(&b64(&siv.seal(None, &[b"email"], line.as_bytes()).unwrap()));
        want.push_str(term);
    }
    assert_eq!(out, want);
    // Deterministic: equal plaintexts, equal tokens.
    assert_eq!(ok(&args, b"a\na\n"), {
        let t = b64(&siv.seal(None, &[b"email"], b"a").unwrap());
        format!("{t}\n{t}\n").into_bytes()
    });
    let mut dec = args;
    dec[1] = "decrypt";
    assert_eq!(String::from_utf8(ok(&dec, out.as_bytes())).unwrap(), input);
}

#[test]
fn csv_mode_changes_only_the_named_columns() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY32);
    let siv = AesSiv::new(&hex::decode(KEY32).unwrap()).unwrap();
    let input = "id,email,name\r\n1,a@x.org,\"Smith, Ann\"\r\n2,b@y.org,Bob\r\n";
    let args = ["siv", "encrypt", "--key-file", key.to_str().unwrap(), "--csv", "--columns", "email,name"];
    let out = String::from_utf8(ok(&args, input.as_bytes())).unwrap();
    let t = |v: &str| b64(&siv.seal(None, &[], v.as_bytes()).unwrap());
    assert_eq!(
        out,
        format!("id,email,name\r\n1,{},\"{}\"\r\n2,{},{}\r\n", t("a@x.org"), t("Smith, Ann"), t("b@y.org"), t("Bob"))
    );
    let mut dec = args;
    dec[1] = "decrypt";
    assert_eq!(String::from_utf8(ok(&dec, out.as_bytes())).unwrap(), input);
}

#[test]
fn failures_name_the_problem_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY32);
    let k = key.to_str().unwrap();
    let outp = dir.path().join("never.out");
    let o = outp.to_str().unwrap();

    // A modified ciphertext in binary mode.
    let mut ct = ok(&["siv", "encrypt", "--key-file", k], b"secret data");
    ct[3] ^= 1;
    let e = fails(&["siv", "decrypt", "--key-file", k, "--output", o], &ct);
    assert!(e.contains("authentication failed"), "{e}");
    assert!(!outp.exists());
    // Wrong associated data.
    let ct = ok(&["siv", "encrypt", "--key-file", k, "--ad", "01"], b"secret data");
    assert!(fails(&["siv", "decrypt", "--key-file", k, "--ad", "02"], &ct).contains("authentication failed"));
    assert!(fails(&["siv", "decrypt", "--key-file", k, "--ad", "01", "--nonce", "01"], &ct).contains("authentication"));
    // Too short to hold V.
    assert!(fails(&["siv", "decrypt", "--key-file", k], &[0u8; 15]).contains("at least 16"));

    // Line mode: the line is named, nothing is written.
    let lines = ok(&["siv", "encrypt", "--key-file", k, "--lines"], b"one\ntwo\nthree\nfour\n");
    let mut text = String::from_utf8(lines).unwrap();
    let third = text.lines().nth(2).unwrap().to_string();
    let flipped = format!("{}{}", if third.starts_with('A') { 'B' } else { 'A' }, &third[1..]);
    text = text.replacen(&third, &flipped, 1);
    let e = fails(&["siv", "decrypt", "--key-file", k, "--lines", "--output", o], text.as_bytes());
    assert!(e.contains("line 3") && e.contains("authentication failed"), "{e}");
    assert!(!outp.exists());
    let e = fails(&["siv", "decrypt", "--key-file", k, "--lines"], b"AAAAAAAAAAAAAAAAAAAAAA\nnot base64!\n");
    assert!(e.contains("line 2") && e.contains("base64url"), "{e}");
    let e = fails(&["siv", "decrypt", "--key-file", k, "--lines"], b"AAAA\n");
    assert!(e.contains("line 1") && e.contains("at least 16"), "{e}");

    // Setup errors, before any input is read.
    let short = key_file(dir.path(), "00112233445566778899aabbccddeeff");
    let e = fails(&["siv", "encrypt", "--key-file", short.to_str().unwrap()], b"x");
    assert!(e.contains("32, 48 or 64") && e.contains("keygen"), "{e}");
    assert!(!e.contains("00112233"), "key material in an error: {e}");
    assert!(fails(&["siv", "encrypt", "--key-file", k, "--ad", "xyz"], b"x").contains("--ad must be hex"));
    assert!(fails(&["siv", "encrypt", "--key-file", k, "--nonce", "0"], b"x").contains("--nonce must be hex"));
    let missing = dir.path().join("missing.hex");
    assert!(fails(&["siv", "encrypt", "--key-file", missing.to_str().unwrap()], b"x").contains("cannot read key file"));
    let many: Vec<&str> = std::iter::repeat_n(["--ad", "00"], 127).flatten().collect();
    let mut args = vec!["siv", "encrypt", "--key-file", k];
    args.extend(many);
    assert!(fails(&args, b"x").contains("at most 126"));
    let e = fails(&["siv", "encrypt", "--key-file", k, "--csv", "--columns", "nope"], b"id,email\n1,a\n");
    assert!(e.contains("nope"), "{e}");
}
