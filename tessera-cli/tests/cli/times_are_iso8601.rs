//! Every time a person reads is ISO 8601 in UTC (`YYYY-MM-DDTHH:MM:SSZ`),
//! never a raw Unix number: `verify`'s and `decrypt --verify-with`'s
//! "made at", `key show`'s creation and expiry, `keyset list`'s creation.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

const T: &str = env!("CARGO_BIN_EXE_tessera");

fn ok(d: &Path, args: &[&str]) -> String {
    let o = Command::new(T).args(args).current_dir(d).stdin(Stdio::null()).output().expect("run tessera");
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap() + &String::from_utf8(o.stderr).unwrap()
}

/// The ISO 8601 UTC times in `s` (after `word `), checked for shape.
fn times_after(s: &str, word: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in s.match_indices(&format!("{word} ")) {
        let t: String = s[i + word.len() + 1..].chars().take(20).collect();
        let b = t.as_bytes();
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
        let shaped = b.len() == 20
            && digits.iter().all(|&k| b[k].is_ascii_digit())
            && (b[4], b[7], b[10], b[13], b[16], b[19]) == (b'-', b'-', b'T', b':', b':', b'Z');
        assert!(shaped, "{word} {t:?} is not YYYY-MM-DDTHH:MM:SSZ in {s}");
        found.push(t);
    }
    assert!(!found.is_empty(), "no {word:?} in {s}");
    found
}

/// Today in UTC, from the system's `date` (skipped if there is none).
fn today() -> Option<String> {
    let o = Command::new("date").args(["-u", "+%Y-%m-%d"]).output().ok()?;
    o.status.success().then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

#[test]
fn people_read_iso_8601_times() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["key", "generate", "--no-password", "--userid", "A <a@example.org>", "--expires", "365", "-o", "a.key"]);
    ok(d, &["key", "cert", "a.key", "-o", "a.cert"]);
    std::fs::write(d.join("text"), "hello\n").unwrap();

    let shown = ok(d, &["key", "show", "a.cert"]);
    let created = times_after(&shown, "created");
    times_after(&shown, "expires");
    if let Some(today) = today() {
        assert!(created[0].starts_with(&today), "{created:?} made today ({today})");
    }

    ok(d, &["sign", "-i", "a.key", "-o", "signed", "text"]);
    times_after(&ok(d, &["verify", "--signer", "a.cert", "signed"]), "made at");
    ok(d, &["encrypt", "-r", "a.cert", "--sign-with", "a.key", "-o", "m.pgp", "text"]);
    times_after(&ok(d, &["decrypt", "-i", "a.key", "--verify-with", "a.cert", "-o", "out", "m.pgp"]), "made at");

    common::write_private(&d.join("pw"), "pw\n");
    ok(d, &["keyset", "new", "--transform", "t", "--siv", "-o", "ks.tks", "--keyset-password-file", "pw"]);
    let listed = ok(d, &["keyset", "list", "--keyset", "ks.tks", "--keyset-password-file", "pw"]);
    times_after(&listed, "created");
    assert!(!listed.contains("unix time"), "{listed}");
}
