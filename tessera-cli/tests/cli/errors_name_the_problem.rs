//! Errors that name the problem: a recipient given as an address (not a
//! file), a certificate where a secret key is needed, a wrong keyset
//! password (said once), and `decrypt --verify-with` the wrong signer
//! (said as `verify` says it, with no output file).

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

const T: &str = env!("CARGO_BIN_EXE_tessera");

fn run(d: &Path, args: &[&str]) -> Output {
    Command::new(T).args(args).current_dir(d).stdin(Stdio::null()).output().expect("run tessera")
}

fn ok(d: &Path, args: &[&str]) {
    let o = run(d, args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

/// The one error line of a failed run.
fn error(d: &Path, args: &[&str]) -> String {
    let o = run(d, args);
    assert_eq!(o.status.code(), Some(1), "{args:?}");
    let err = String::from_utf8(o.stderr).unwrap();
    let last = err.lines().last().unwrap_or_default().to_string();
    assert!(last.starts_with("tessera: error: "), "{args:?}: {err}");
    last
}

fn keys(d: &Path) {
    ok(d, &["key", "generate", "--no-password", "--userid", "A <a@example.org>", "-o", "a.key"]);
    ok(d, &["key", "cert", "a.key", "-o", "a.cert"]);
    ok(d, &["key", "generate", "--no-password", "--userid", "B <b@example.org>", "-o", "b.key"]);
    ok(d, &["key", "cert", "b.key", "-o", "b.cert"]);
    std::fs::write(d.join("text"), "hello\n").unwrap();
}

#[test]
fn an_address_is_not_a_certificate_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    for args in [
        &["encrypt", "-r", "alice@example.org", "text"][..],
        &["verify", "--signer", "alice@example.org", "text"],
        &["decrypt", "-i", "alice@example.org", "text"],
        &["sign", "-i", "alice@example.org", "text"],
    ] {
        let e = error(d, args);
        assert_eq!(
            e,
            "tessera: error: no such key or certificate file: alice@example.org; keys and certificates \
             are given as files (a user ID or an address is not looked up)",
            "{args:?}"
        );
    }
}

#[test]
fn a_certificate_is_not_a_secret_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    ok(d, &["encrypt", "-r", "a.cert", "-o", "m.pgp", "text"]);
    let want = "tessera: error: a.cert holds no secret key, only certificates (public keys); give the secret \
                key file (as `tessera key generate` writes it)";
    assert_eq!(error(d, &["decrypt", "-i", "a.cert", "m.pgp"]), want);
    assert_eq!(error(d, &["sign", "-i", "a.cert", "text"]), want);
    assert_eq!(error(d, &["encrypt", "-r", "b.cert", "--sign-with", "a.cert", "text"]), want);
    // A secret key beside certificates (a keyring) still decrypts.
    let ring = [std::fs::read(d.join("b.cert")).unwrap(), std::fs::read(d.join("a.key")).unwrap()].concat();
    std::fs::write(d.join("ring"), ring).unwrap();
    ok(d, &["decrypt", "-i", "ring", "-o", "out", "m.pgp"]);
}

#[test]
fn a_wrong_keyset_password_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::write_private(&d.join("pw"), "right\n");
    common::write_private(&d.join("wrong"), "wrong\n");
    ok(d, &["keyset", "new", "--transform", "t", "--siv", "-o", "ks.tks", "--keyset-password-file", "pw"]);
    let e = error(d, &["keyset", "list", "--keyset", "ks.tks", "--keyset-password-file", "wrong"]);
    assert_eq!(e.matches("wrong password").count(), 1, "{e}");
    let e = error(d, &["keyset", "list", "--keyset", "missing.tks", "--keyset-password-file", "pw"]);
    assert_eq!(e.matches("No such file").count(), 1, "{e}");
}

#[test]
fn decrypt_verify_with_the_wrong_signer_says_what_verify_says() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    ok(d, &["sign", "-i", "a.key", "-o", "signed", "text"]);
    let by_verify = error(d, &["verify", "--signer", "b.cert", "signed"]);
    assert_eq!(by_verify, "tessera: error: no good signature from the given signers");
    ok(d, &["encrypt", "-r", "a.cert", "--sign-with", "a.key", "-o", "m.pgp", "text"]);
    let o = run(d, &["decrypt", "-i", "a.key", "--verify-with", "b.cert", "-o", "out", "m.pgp"]);
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.trim_end(), by_verify, "one line, as verify's");
    assert!(!d.join("out").exists());
    // Unsigned: said so.
    ok(d, &["encrypt", "-r", "a.cert", "-o", "u.pgp", "text"]);
    let e = error(d, &["decrypt", "-i", "a.key", "--verify-with", "a.cert", "-o", "out", "u.pgp"]);
    assert_eq!(e, "tessera: error: no signature found: the data is not signed");
    assert!(!d.join("out").exists());
}
