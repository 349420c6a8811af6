//! One rule for binary output to a terminal, checked on a pseudo-terminal
//! (util-linux `script`): every command that writes binary to stdout
//! refuses when stdout is a terminal it was not told to write to, with the
//! same line and exit 1; `-o -` names the terminal and writes anyway; text
//! (armor, a text plaintext) goes to the terminal as always.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

const T: &str = env!("CARGO_BIN_EXE_tessera");
const REFUSED: &str =
    "the output is binary and stdout is a terminal; give -o FILE, redirect stdout, or -o - to write it anyway";

/// Runs `tessera args` in `dir` with stdout (and stderr) on a pseudo-terminal.
fn on_terminal(dir: &Path, args: &[&str]) -> Option<Output> {
    let line = std::iter::once(T).chain(args.iter().copied()).collect::<Vec<_>>().join(" ");
    let o = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    Some(o)
}

fn refused(dir: &Path, args: &[&str]) {
    let o = on_terminal(dir, args).unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {said}");
    assert_eq!(said.trim_end(), format!("tessera: error: {REFUSED}"), "{args:?}");
}

fn refused_while_writing(dir: &Path, args: &[&str]) {
    let o = on_terminal(dir, args).unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {said}");
    // The last line (after what was verified, if anything), and nothing binary shown.
    let last = said.trim_end().lines().last().unwrap_or_default();
    assert!(last.starts_with("tessera: error: ") && last.ends_with(REFUSED), "{args:?}: {said}");
    assert!(!o.stdout.contains(&0) && !o.stdout.contains(&0x1b), "{args:?}: binary shown");
}

fn written(dir: &Path, args: &[&str]) -> Vec<u8> {
    let o = on_terminal(dir, args).unwrap();
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&o.stdout));
    o.stdout
}

fn ok(dir: &Path, args: &[&str]) {
    let o = Command::new(T).args(args).current_dir(dir).stdin(Stdio::null()).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

fn have_script() -> bool {
    let there = Command::new("script").arg("--version").output().is_ok_and(|o| o.status.success());
    if !there {
        eprintln!("skipped: util-linux script not installed");
    }
    there
}

#[test]
fn every_binary_output_follows_one_rule() {
    if !have_script() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::write_private(&d.join("pw"), "pw\n");
    std::fs::write(d.join("text"), "hello\n").unwrap();
    std::fs::write(d.join("bin"), [0u8, 1, 2, 0x1b, b'[', b'2', b'J', 0xff]).unwrap();
    ok(d, &["key", "generate", "--no-password", "--userid", "A <a@example.org>", "-o", "a.key"]);
    ok(d, &["key", "cert", "a.key", "-o", "a.cert"]);
    ok(d, &["keygen", "--bytes", "32", "-o", "siv.key"]);
    let pw = ["--password-file", "pw", "--s2k", "iterated"];

    // encrypt: binary unless armored.
    refused(d, &[&["encrypt"], &pw[..], &["text"]].concat());
    refused(d, &["encrypt", "-r", "a.cert", "text"]);
    assert!(written(d, &[&["encrypt"], &pw[..], &["--armor", "text"]].concat()).starts_with(b"-----BEGIN PGP MESSAGE"));
    assert!(!written(d, &[&["encrypt"], &pw[..], &["-o", "-", "text"]].concat()).is_empty());

    // decrypt: a text plaintext is shown, a binary one refused.
    ok(d, &[&["encrypt"], &pw[..], &["-o", "t.pgp", "text"]].concat());
    ok(d, &[&["encrypt"], &pw[..], &["-o", "b.pgp", "bin"]].concat());
    assert!(written(d, &["decrypt", "--password-file", "pw", "t.pgp"]).starts_with(b"hello"));
    refused_while_writing(d, &["decrypt", "--password-file", "pw", "b.pgp"]);
    assert!(!written(d, &["decrypt", "--password-file", "pw", "-o", "-", "b.pgp"]).is_empty());
    // Signed and verified on the way: the same rule.
    ok(d, &["encrypt", "-r", "a.cert", "--sign-with", "a.key", "-o", "sb.pgp", "bin"]);
    refused_while_writing(d, &["decrypt", "-i", "a.key", "--verify-with", "a.cert", "sb.pgp"]);

    // sign: binary unless armored or cleartext; verify -o of binary data.
    refused(d, &["sign", "-i", "a.key", "text"]);
    refused(d, &["sign", "-i", "a.key", "--detached", "text"]);
    assert!(written(d, &["sign", "-i", "a.key", "--armor", "text"]).starts_with(b"-----BEGIN PGP MESSAGE"));
    assert!(written(d, &["sign", "-i", "a.key", "--cleartext", "text"]).starts_with(b"-----BEGIN PGP SIGNED"));
    ok(d, &["sign", "-i", "a.key", "-o", "bin.signed", "bin"]);
    let o = on_terminal(d, &["verify", "--signer", "a.cert", "-o", "-", "bin.signed"]).unwrap();
    assert_eq!(o.status.code(), Some(0), "-o - writes anyway");

    // AES-SIV: V || C always binary; a binary plaintext refused.
    refused(d, &["siv", "encrypt", "--key-file", "siv.key", "--input", "text"]);
    ok(d, &["siv", "encrypt", "--key-file", "siv.key", "--input", "bin", "--output", "bin.siv"]);
    refused_while_writing(d, &["siv", "decrypt", "--key-file", "siv.key", "--input", "bin.siv"]);
    ok(d, &["siv", "encrypt", "--key-file", "siv.key", "--input", "text", "--output", "text.siv"]);
    assert!(written(d, &["siv", "decrypt", "--key-file", "siv.key", "--input", "text.siv"]).starts_with(b"hello"));
}
