//! Passwords typed at a terminal, checked on a pseudo-terminal (the
//! `rexpect` crate) with echo on as a person's terminal has it: the prompt
//! appears, what is typed is not echoed, a new secret is asked twice and a
//! mismatch is refused with nothing written, and the key or message made
//! from typed passwords works. Without a terminal, one line names the flag
//! that gives the password; password and secret key files open to others
//! get a warning, as ssh gives.
#![cfg(unix)]

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use rexpect::process::WaitStatus;
use rexpect::session::{PtySession, spawn_command};

const T: &str = env!("CARGO_BIN_EXE_tessera");
const SECRET: &str = "typed-secret-7Q";

/// Runs `tessera args` in `dir` on a pseudo-terminal with echo on (rexpect
/// turns it off; a person's terminal has it on).
fn on_terminal(dir: &Path, args: &[&str]) -> PtySession {
    let mut c = Command::new("sh");
    c.args(["-c", "stty echo && exec \"$0\" \"$@\"", T]).args(args).current_dir(dir);
    spawn_command(c, Some(60_000)).expect("spawn on a pseudo-terminal")
}

/// Waits for `prompt`, then types `line` (after a pause, so that the echo is
/// off by the time the keys arrive, as for a person).
fn answer(p: &mut PtySession, prompt: &str, line: &str) {
    p.exp_string(prompt).unwrap_or_else(|e| panic!("no prompt {prompt:?}: {e}"));
    std::thread::sleep(std::time::Duration::from_millis(300));
    p.send_line(line).unwrap();
}

/// Everything shown after the last answer, and the exit code.
fn finish(mut p: PtySession) -> (String, i32) {
    let rest = p.exp_eof().unwrap();
    let code = match p.process().wait().unwrap() {
        WaitStatus::Exited(_, c) => c,
        other => panic!("{other:?}"),
    };
    assert!(!rest.contains(SECRET), "the typed password was echoed: {rest}");
    (rest, code)
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(T).args(args).current_dir(dir).stdin(Stdio::null()).output().unwrap()
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let o = run(dir, args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The one line a command without a terminal and without a password says.
fn refused(dir: &Path, args: &[&str]) -> String {
    let o = run(dir, args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

const NEW_KEY: &str = "Enter a password for the new key: ";
const REPEAT_KEY: &str = "Repeat a password for the new key: ";

#[test]
fn key_generate_asks_twice_and_the_key_works() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let gen_args = ["key", "generate", "--userid", "A <a@example.org>", "-o", "a.key"];

    let mut p = on_terminal(dir, &gen_args);
    answer(&mut p, NEW_KEY, SECRET);
    answer(&mut p, REPEAT_KEY, "something else");
    let (said, code) = finish(p);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("the two passwords typed differ"), "{said}");
    assert!(!dir.join("a.key").exists(), "a key written after a mismatch");

    let mut p = on_terminal(dir, &gen_args);
    answer(&mut p, NEW_KEY, SECRET);
    answer(&mut p, REPEAT_KEY, SECRET);
    let (said, code) = finish(p);
    assert_eq!(code, 0, "{said}");
    assert!(ok(dir, &["key", "show", "a.key"]).contains("[secret, locked]"));
    ok(dir, &["key", "cert", "a.key", "-o", "a.cert"]);

    // The typed password unlocks it: signing asks for it on the terminal...
    std::fs::write(dir.join("doc"), "signed on a terminal\n").unwrap();
    let mut p = on_terminal(dir, &["sign", "-i", "a.key", "-b", "-o", "doc.sig", "doc"]);
    answer(&mut p, "Enter the password of the key ", SECRET);
    let (said, code) = finish(p);
    assert_eq!(code, 0, "{said}");
    ok(dir, &["verify", "--signer", "a.cert", "--signature", "doc.sig", "doc"]);
    // ... and so does decryption, and a file holding it works as well.
    ok(dir, &["encrypt", "-r", "a.cert", "-o", "m.pgp", "doc"]);
    let mut p = on_terminal(dir, &["decrypt", "-i", "a.key", "-o", "doc.out", "m.pgp"]);
    answer(&mut p, "Enter the password of the secret keys: ", SECRET);
    let (said, code) = finish(p);
    assert_eq!(code, 0, "{said}");
    assert_eq!(std::fs::read(dir.join("doc.out")).unwrap(), b"signed on a terminal\n");
    common::write_private(&dir.join("kpw"), format!("{SECRET}\n"));
    ok(dir, &["decrypt", "-i", "a.key", "--key-password-file", "kpw", "-o", "doc.again", "m.pgp"]);
}

#[test]
fn password_messages_ask_twice_to_encrypt_and_once_to_decrypt() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::write(dir.join("plain"), "for a typed password\n").unwrap();
    let enc = ["encrypt", "--s2k", "iterated", "-o", "m.pgp", "plain"];

    let mut p = on_terminal(dir, &enc);
    answer(&mut p, "Enter a password for the message: ", SECRET);
    answer(&mut p, "Repeat a password for the message: ", "not the same");
    let (said, code) = finish(p);
    assert_eq!(code, 1, "{said}");
    assert!(!dir.join("m.pgp").exists());

    let mut p = on_terminal(dir, &enc);
    answer(&mut p, "Enter a password for the message: ", SECRET);
    answer(&mut p, "Repeat a password for the message: ", SECRET);
    let (said, code) = finish(p);
    assert_eq!(code, 0, "{said}");

    let mut p = on_terminal(dir, &["decrypt", "-o", "out", "m.pgp"]);
    answer(&mut p, "Enter the message's password: ", SECRET);
    let (said, code) = finish(p);
    assert_eq!(code, 0, "{said}");
    assert_eq!(std::fs::read(dir.join("out")).unwrap(), b"for a typed password\n");
    // What was typed is the password a file gives.
    common::write_private(&dir.join("pw"), SECRET);
    ok(dir, &["decrypt", "--password-file", "pw", "-o", "out2", "m.pgp"]);
}

#[test]
fn a_new_keyset_asks_twice_and_an_existing_one_once() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let new = ["keyset", "new", "-o", "ks.tks", "--transform", "cards", "--template", "card"];
    let mut p = on_terminal(dir, &new);
    answer(&mut p, "Enter a password for the new keyset: ", SECRET);
    answer(&mut p, "Repeat a password for the new keyset: ", "other");
    let (said, code) = finish(p);
    assert_eq!(code, 1, "{said}");
    assert!(!dir.join("ks.tks").exists());
    let mut p = on_terminal(dir, &new);
    answer(&mut p, "Enter a password for the new keyset: ", SECRET);
    answer(&mut p, "Repeat a password for the new keyset: ", SECRET);
    let (said, code) = finish(p);
    assert_eq!(code, 0, "{said}");
    // Opened and written back: asked once.
    let mut p = on_terminal(dir, &["keyset", "add", "--keyset", "ks.tks", "--transform", "cards"]);
    answer(&mut p, "Enter the keyset's password: ", SECRET);
    let (said, code) = finish(p);
    assert_eq!(code, 0, "{said}");
    assert!(!said.contains("Enter the keyset's password"), "asked twice: {said}");
    common::write_private(&dir.join("pw"), SECRET);
    let listed = ok(dir, &["keyset", "list", "--keyset", "ks.tks", "--keyset-password-file", "pw"]);
    assert!(listed.contains("cards"), "{listed}");
    let err = refused(dir, &["keyset", "list", "--keyset", "ks.tks"]);
    assert!(err.contains("--keyset-password-file"), "{err}");
}

#[test]
fn without_a_terminal_one_line_names_the_flag() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    common::write_private(&dir.join("kpw"), "key password");
    let err = refused(dir, &["key", "generate", "--userid", "A <a@example.org>", "-o", "a.key"]);
    assert!(err.contains("--password-file") && err.contains("--no-password"), "{err}");
    assert!(!dir.join("a.key").exists());
    ok(dir, &["key", "generate", "--userid", "A <a@example.org>", "--password-file", "kpw", "-o", "a.key"]);
    ok(dir, &["key", "cert", "a.key", "-o", "a.cert"]);
    std::fs::write(dir.join("doc"), "data").unwrap();
    ok(dir, &["encrypt", "-r", "a.cert", "-o", "m.pgp", "doc"]);

    let err = refused(dir, &["decrypt", "-i", "a.key", "m.pgp"]);
    assert!(err.contains("is locked") && err.contains("--key-password-file"), "{err}");
    let err = refused(dir, &["sign", "-i", "a.key", "doc"]);
    assert!(err.contains("--key-password-file"), "{err}");
    let err = refused(dir, &["encrypt", "-r", "a.cert", "--sign-with", "a.key", "doc"]);
    assert!(err.contains("--sign-key-password-file"), "{err}");
    let err = refused(dir, &["encrypt", "doc"]);
    assert!(err.contains("--password-file") && err.contains("--recipient"), "{err}");
    let err = refused(dir, &["decrypt", "m.pgp"]);
    assert!(err.contains("--password-file") && err.contains("--key"), "{err}");
}

#[test]
fn secret_files_open_to_others_are_warned_about() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::write(dir.join("pw"), "open password").unwrap();
    std::fs::set_permissions(dir.join("pw"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let gen_args = ["key", "generate", "--userid", "A <a@example.org>", "--password-file", "pw", "-o", "a.key"];
    let o = run(dir, &gen_args);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("warning: password file pw is open to group or others (mode 0644)"), "{err}");
    std::fs::set_permissions(dir.join("pw"), std::fs::Permissions::from_mode(0o600)).unwrap();
    // Written keys are private; made readable to all, they are warned about.
    assert_eq!(std::fs::metadata(dir.join("a.key")).unwrap().permissions().mode() & 0o777, 0o600);
    std::fs::write(dir.join("doc"), "data").unwrap();
    ok(dir, &["sign", "-i", "a.key", "--key-password-file", "pw", "-o", "doc.sig", "doc"]);
    std::fs::set_permissions(dir.join("a.key"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = run(dir, &["sign", "-i", "a.key", "--key-password-file", "pw", "-o", "doc.sig2", "doc"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("warning: secret key file a.key is open to group or others (mode 0640)"), "{err}");
}
