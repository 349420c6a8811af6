//! `tessera fpe|siv ... --keyset` after a rotation, through the binary: a
//! decryption or rewrap that cannot know which key version made the tokens
//! is refused before any output, with one line that names `--version N`;
//! `keyset destroy` takes a disabled version only.

use crate::common;

use std::process::Output;

fn tessera(args: &[&str], stdin: &[u8]) -> Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera"), args, stdin)
}

use common::KeysetDir as Dir;

impl Dir {
    /// `tessera CMD OP --keyset ks.tks --keyset-password-file pw REST...`.
    fn run(&self, cmd: &[&str], rest: &[&str], stdin: &[u8]) -> Output {
        let (ks, pw) = (self.s("ks.tks"), self.s("pw"));
        let args = [cmd, &["--keyset", &ks, "--keyset-password-file", &pw], rest].concat();
        tessera(&args, stdin)
    }
    fn ok(&self, cmd: &[&str], rest: &[&str], stdin: &[u8]) -> String {
        let out = self.run(cmd, rest, stdin);
        assert!(out.status.success(), "{cmd:?} {rest:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }
    /// Runs a command that must fail: nothing on stdout, no `--output` file, one line on stderr.
    fn fails(&self, cmd: &[&str], rest: &[&str], stdin: &[u8]) -> String {
        let out_file = self.s("out.txt");
        let out = self.run(cmd, &[rest, &["--output", &out_file]].concat(), stdin);
        assert!(!out.status.success(), "{cmd:?} {rest:?} succeeded");
        assert!(out.stdout.is_empty());
        assert!(!self.path("out.txt").exists(), "no output file");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    }
}

const CARDS: &str = "4111-1111-1111-1111\n5500 0000 0000 0004\n";

/// A card keyset (external or embedded versions), CARDS encrypted under
/// version 1, then version 2 added and, when `promote`, promoted.
fn rotated(mode: &str, promote: bool) -> (Dir, String) {
    let d = Dir::new();
    let (ks, pw) = (d.s("ks.tks"), d.s("pw"));
    let new = ["keyset", "new", "-o", &ks, "--keyset-password-file", &pw, "--transform", "cards"];
    let out = tessera(&[&new[..], &["--template", "card", "--key-version", mode]].concat(), b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let t1 = d.ok(&["fpe", "encrypt"], &[], CARDS.as_bytes());
    assert_eq!(d.ok(&["keyset", "add"], &["--transform", "cards"], b""), "2\n");
    if promote {
        d.ok(&["keyset", "promote"], &["--transform", "cards", "--version", "2"], b"");
    }
    (d, t1)
}

#[test]
fn external_decrypt_without_version_is_refused_while_two_versions_are_enabled() {
    for promote in [false, true] {
        let (d, t1) = rotated("external", promote);
        let e = d.fails(&["fpe", "decrypt"], &[], t1.as_bytes());
        assert!(e.contains("several enabled key versions (1, 2)") && e.contains("--version N"), "{e}");
        assert!(!e.contains("line 1"), "refused before reading the input: {e}");
        assert_eq!(d.ok(&["fpe", "decrypt"], &["--version", "1"], t1.as_bytes()), CARDS);
    }
    // Encryption always uses the primary: --version is refused rather than ignored.
    let (d, _) = rotated("external", true);
    let e = d.fails(&["fpe", "encrypt"], &["--version", "1"], CARDS.as_bytes());
    assert!(e.contains("primary key version (2)") && e.contains("give no --version"), "{e}");
    // One enabled version: decrypt needs no --version.
    let (d, t1) = rotated("external", false);
    d.ok(&["keyset", "disable"], &["--transform", "cards", "--version", "2"], b"");
    assert_eq!(d.ok(&["fpe", "decrypt"], &[], t1.as_bytes()), CARDS);
    // Embedded versions: each token says which version made it.
    let (d, t1) = rotated("embedded", true);
    assert_eq!(d.ok(&["fpe", "decrypt"], &[], t1.as_bytes()), CARDS);
}

#[test]
fn external_rewrap_without_version_or_from_the_primary_is_refused() {
    let (d, t1) = rotated("external", true);
    let e = d.fails(&["fpe", "rewrap"], &[], t1.as_bytes());
    assert!(e.contains("a rewrap needs the version that made the tokens") && e.contains("--version N"), "{e}");
    let e = d.fails(&["fpe", "rewrap"], &["--version", "2"], t1.as_bytes());
    assert!(e.contains("version 2") && e.contains("is the primary") && e.contains("--version N"), "{e}");
    let t2 = d.ok(&["fpe", "rewrap"], &["--version", "1"], t1.as_bytes());
    assert_ne!(t2, t1);
    assert_eq!(t2, d.ok(&["fpe", "encrypt"], &[], CARDS.as_bytes()));
    assert_eq!(d.ok(&["fpe", "decrypt"], &["--version", "2"], t2.as_bytes()), CARDS);

    // Version 2 added but not promoted: a rewrap from 1 would change nothing.
    for mode in ["external", "embedded"] {
        let (d, t1) = rotated(mode, false);
        let e = d.fails(&["fpe", "rewrap"], &["--version", "1"], t1.as_bytes());
        assert!(e.contains("is the primary") && e.contains("promote the new version first"), "{e}");
    }
    // Embedded: no --version needed, and the primary's own tokens pass through unchanged.
    let (d, t1) = rotated("embedded", true);
    let t2 = d.ok(&["fpe", "rewrap"], &[], t1.as_bytes());
    assert_ne!(t2, t1);
    assert_eq!(d.ok(&["fpe", "rewrap"], &[], t2.as_bytes()), t2);
}

#[test]
fn destroy_needs_the_version_disabled_first() {
    let (d, t1) = rotated("external", true);
    let before = std::fs::read(d.path("ks.tks")).unwrap();
    let out = d.run(&["keyset", "destroy"], &["--transform", "cards", "--version", "1"], b"");
    assert!(!out.status.success());
    let e = String::from_utf8(out.stderr).unwrap();
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("is enabled: disable it first") && e.contains("keyset disable"), "{e}");
    assert_eq!(std::fs::read(d.path("ks.tks")).unwrap(), before, "the file is unchanged");
    assert_eq!(d.ok(&["fpe", "decrypt"], &["--version", "1"], t1.as_bytes()), CARDS);
    d.ok(&["keyset", "disable"], &["--transform", "cards", "--version", "1"], b"");
    d.ok(&["keyset", "destroy"], &["--transform", "cards", "--version", "1"], b"");
    let list = d.ok(&["keyset", "list"], &[], b"");
    assert!(list.contains("version 1 destroyed"), "{list}");
}

#[test]
fn raw_siv_keys_each_tried_and_a_failure_names_them() {
    let d = Dir::new();
    let (ks, pw) = (d.s("ks.tks"), d.s("pw"));
    let new = ["keyset", "new", "-o", &ks, "--keyset-password-file", &pw, "--transform", "e", "--siv", "--raw"];
    assert!(tessera(&new, b"").status.success());
    let lines = ["siv", "encrypt"];
    let c1 = d.ok(&lines, &["--lines"], b"alice\n");
    let k2 = d.ok(&["keyset", "add"], &["--transform", "e"], b"");
    d.ok(&["keyset", "promote"], &["--transform", "e", "--version", k2.trim()], b"");
    let c2 = d.ok(&lines, &["--lines"], b"bob\n");
    let both = format!("{c1}{c2}");
    assert_eq!(d.ok(&["siv", "decrypt"], &["--lines"], both.as_bytes()), "alice\nbob\n");
    let moved = d.ok(&["siv", "rewrap"], &["--lines"], both.as_bytes());
    assert_eq!(moved, d.ok(&lines, &["--lines"], b"alice\nbob\n"));
    // --version means nothing to AES-SIV: refused rather than ignored.
    let e = d.fails(&["siv", "decrypt"], &["--lines", "--version", "1"], both.as_bytes());
    assert!(e.contains("give no --version"), "{e}");
    let e = d.fails(&["siv", "decrypt"], &["--lines", "--ad", "01"], both.as_bytes());
    assert!(
        e.contains("line 1") && e.contains("no enabled key") && e.contains(&format!("RAW key {}", k2.trim())),
        "{e}"
    );
}
