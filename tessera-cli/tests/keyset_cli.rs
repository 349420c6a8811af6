//! `tessera keyset ...` and `--keyset` on `tessera fpe` / `tessera siv`:
//! rotation through the binary, the file at rest, failures that leave the
//! old file intact, and Tink interop through the command line.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn tessera(args: &[&str], stdin: &[u8]) -> Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera"), args, stdin)
}

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = tessera(args, stdin);
    assert!(out.status.success(), "tessera {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

fn fails(args: &[&str], stdin: &[u8]) -> String {
    let out = tessera(args, stdin);
    assert!(!out.status.success(), "tessera {args:?} succeeded");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    err
}

struct Dir {
    dir: tempfile::TempDir,
}

impl Dir {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("pw"), "correct horse\n").unwrap();
        std::fs::write(dir.path().join("bad"), "wrong\n").unwrap();
        Dir { dir }
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn s(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }
    /// `keyset OP --keyset ks.tks --keyset-password-file pw` followed by `rest`.
    fn ks(&self, op: &str, rest: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = ["keyset", op, "--keyset"].iter().map(|s| s.to_string()).collect();
        v.extend([self.s("ks.tks"), "--keyset-password-file".into(), self.s("pw")]);
        v.extend(rest.iter().map(|s| s.to_string()));
        v
    }
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn list(d: &Dir) -> String {
    String::from_utf8(ok(&refs(&d.ks("list", &[])), b"")).unwrap()
}

fn new_cards(d: &Dir, mode: &str) {
    let (ks, pw) = (d.s("ks.tks"), d.s("pw"));
    let args = [
        "keyset",
        "new",
        "-o",
        &ks,
        "--keyset-password-file",
        &pw,
        "--transform",
        "cards",
        "--template",
        "card",
        "--key-version",
        mode,
    ];
    ok(&args, b"");
}

#[test]
fn rotation_commands_and_list() {
    let d = Dir::new();
    new_cards(&d, "embedded");
    let file = std::fs::read(d.path("ks.tks")).unwrap();
    assert_ne!(file[0], b'{', "sealed by default");
    assert!(!String::from_utf8_lossy(&file).contains("material"));
    assert_eq!(ok(&refs(&d.ks("add", &["--transform", "cards"])), b""), b"2\n");
    ok(&refs(&d.ks("promote", &["--transform", "cards", "--version", "2"])), b"");
    let l = list(&d);
    assert!(l.contains("cards: FPE FF1") && l.contains("embedded key versions"), "{l}");
    assert!(l.contains("version 1 enabled created") && l.contains("version 2 enabled primary"), "{l}");
    ok(&refs(&d.ks("disable", &["--transform", "cards", "--version", "1"])), b"");
    assert!(list(&d).contains("version 1 disabled"));
    ok(&refs(&d.ks("destroy", &["--transform", "cards", "--version", "1"])), b"");
    assert!(list(&d).contains("version 1 destroyed"));
}

#[test]
fn failed_commands_leave_the_file_intact() {
    let d = Dir::new();
    new_cards(&d, "external");
    let before = std::fs::read(d.path("ks.tks")).unwrap();
    let e = fails(&refs(&d.ks("destroy", &["--transform", "cards", "--version", "1"])), b"");
    assert!(e.contains("primary"), "{e}");
    let e = fails(&refs(&d.ks("promote", &["--transform", "cards", "--version", "9"])), b"");
    assert!(e.contains("no key version 9"), "{e}");
    let e = fails(&refs(&d.ks("add", &["--transform", "nope"])), b"");
    assert!(e.contains("no transformation named \"nope\""), "{e}");
    let mut wrong = d.ks("add", &["--transform", "cards"]);
    wrong[5] = d.s("bad");
    let e = fails(&refs(&wrong), b"");
    assert!(e.contains("wrong password"), "{e}");
    assert_eq!(std::fs::read(d.path("ks.tks")).unwrap(), before);
    // `new -o` refuses to replace a keyset.
    let e =
        fails(&["keyset", "new", "-o", &d.s("ks.tks"), "--keyset-password-file", &d.s("pw"), "--transform", "x"], b"");
    assert!(e.contains("exists"), "{e}");
    assert_eq!(std::fs::read(d.path("ks.tks")).unwrap(), before);
    // Embedded key versions over the alphanumeric alphabet are refused, with the reason.
    let e = fails(
        &refs(&d.ks("new", &["--transform", "a", "--template", "alphanumeric", "--key-version", "embedded"])),
        b"",
    );
    assert!(e.contains("embedded key versions are impossible"), "{e}");
    assert_eq!(std::fs::read(d.path("ks.tks")).unwrap(), before);
}

#[test]
fn cleartext_only_by_name() {
    let d = Dir::new();
    let ks = d.s("clear.json");
    ok(&["keyset", "new", "-o", &ks, "--insecure-cleartext", "--transform", "s", "--siv"], b"");
    let text = std::fs::read_to_string(&ks).unwrap();
    assert!(text.starts_with('{') && text.contains("\"material\""));
    let e = fails(&["keyset", "list", "--keyset", &ks, "--keyset-password-file", &d.s("pw")], b"");
    assert!(e.contains("cleartext"), "{e}");
    let out = tessera(&["keyset", "export-tink", "--keyset", &ks, "--insecure-cleartext"], b"");
    assert!(!out.status.success() && out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--cleartext"));
    let json = ok(&["keyset", "export-tink", "--cleartext", "--keyset", &ks, "--insecure-cleartext"], b"");
    assert!(String::from_utf8(json).unwrap().contains("type.googleapis.com/google.crypto.tink.AesSivKey"));
}

fn exists(p: &Path) -> bool {
    p.exists()
}

#[test]
fn tink_round_trip_through_the_cli() {
    let d = Dir::new();
    let (ks, pw) = (d.s("ks.tks"), d.s("pw"));
    ok(&["keyset", "new", "-o", &ks, "--keyset-password-file", &pw, "--transform", "e", "--siv"], b"");
    let tink = d.s("t.json");
    ok(&["keyset", "export-tink", "--cleartext", "--keyset", &ks, "--keyset-password-file", &pw, "-o", &tink], b"");
    let ks2 = d.s("ks2.tks");
    ok(&["keyset", "import-tink", "--cleartext", &tink, "-o", &ks2, "--keyset-password-file", &pw], b"");
    let l = String::from_utf8(ok(&["keyset", "list", "--keyset", &ks2, "--keyset-password-file", &pw], b"")).unwrap();
    assert!(l.starts_with("tink: AES-SIV"), "{l}");
    // A bad Tink file: one line, no keyset written.
    std::fs::write(d.path("bad.json"), r#"{"primaryKeyId": 1, "key": []}"#).unwrap();
    let e = fails(
        &[
            "keyset",
            "import-tink",
            "--cleartext",
            &d.s("bad.json"),
            "-o",
            &d.s("ks3.tks"),
            "--keyset-password-file",
            &pw,
        ],
        b"",
    );
    assert!(e.contains("no primary"), "{e}");
    assert!(!exists(&d.path("ks3.tks")));
}
