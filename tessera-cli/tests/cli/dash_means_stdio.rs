//! `-` names stdin (as an input) and stdout (as `-o`/`--output`) for every
//! `tessera` command, and never a file called `-`.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::run_with_stdin;

const T: &str = env!("CARGO_BIN_EXE_tessera");

fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(T)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tessera");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut input, &data));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    out
}

/// Runs in `dir`, asserts success, and asserts no file named `-` appeared.
fn ok(dir: &Path, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let o = run_in(dir, args, stdin);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    assert!(!dir.join("-").exists(), "{args:?} wrote a file named -");
    o.stdout
}

#[test]
fn password_encryption_reads_and_writes_a_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::write_private(&d.join("pw"), "pw\n");
    let plain = b"stdin data\n".repeat(1000);
    let sealed = ok(d, &["encrypt", "--password-file", "pw", "--s2k", "iterated", "-o", "-", "-"], &plain);
    assert!(!sealed.is_empty());
    assert_eq!(ok(d, &["decrypt", "--password-file", "pw", "-o", "-", "-"], &sealed), plain);
    // Armored as well; `--output -` spelled long.
    let armored =
        ok(d, &["encrypt", "--password-file", "pw", "--s2k", "iterated", "--armor", "--output", "-", "-"], &plain);
    assert!(armored.starts_with(b"-----BEGIN PGP MESSAGE-----"));
    assert_eq!(ok(d, &["decrypt", "--password-file", "pw", "--output", "-", "-"], &armored), plain);
}

#[test]
fn keys_signatures_and_certificates_read_and_write_a_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = ok(d, &["key", "generate", "--no-password", "--userid", "A <a@example.org>", "-o", "-"], b"");
    assert!(key.starts_with(b"-----BEGIN PGP PRIVATE KEY BLOCK-----"));
    std::fs::write(d.join("a.key"), &key).unwrap();
    // The key from stdin, the certificate to stdout.
    let cert = ok(d, &["key", "cert", "-", "-o", "-"], &key);
    assert!(cert.starts_with(b"-----BEGIN PGP PUBLIC KEY BLOCK-----"));
    std::fs::write(d.join("a.cert"), &cert).unwrap();
    let shown = String::from_utf8(ok(d, &["key", "show", "-"], &cert)).unwrap();
    assert!(shown.contains("uid      A <a@example.org>"), "{shown}");

    let data = b"line one\nline two\n";
    let signed = ok(d, &["sign", "-i", "a.key", "--armor", "-o", "-", "-"], data);
    // The data to stdout, what was verified to stderr.
    let o = run_in(d, &["verify", "--signer", "a.cert", "-o", "-", "-"], &signed);
    assert!(o.status.success() && !d.join("-").exists());
    assert_eq!(o.stdout, data);
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("good signature by "));
    let detached = ok(d, &["sign", "-i", "a.key", "--detached", "--armor", "-o", "-", "-"], data);
    std::fs::write(d.join("sig"), &detached).unwrap();
    let said = String::from_utf8(ok(d, &["verify", "--signer", "a.cert", "--signature", "sig", "-"], data)).unwrap();
    assert!(said.starts_with("good signature by "), "{said}");
    // The signer's certificate from stdin.
    std::fs::write(d.join("data"), data).unwrap();
    let said = String::from_utf8(ok(d, &["verify", "--signer", "-", "--signature", "sig", "data"], &cert)).unwrap();
    assert!(said.starts_with("good signature by "), "{said}");

    let sealed = ok(d, &["encrypt", "-r", "a.cert", "-o", "-", "-"], data);
    assert_eq!(ok(d, &["decrypt", "-i", "a.key", "-o", "-", "-"], &sealed), data);
    // The recipient's certificate from stdin, the plaintext from a file.
    let sealed = ok(d, &["encrypt", "-r", "-", "-o", "-", "data"], &cert);
    assert_eq!(ok(d, &["decrypt", "-i", "a.key", "-"], &sealed), data);
}

#[test]
fn fpe_siv_and_keygen_take_a_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fpe_key = ok(d, &["keygen", "--bytes", "32", "-o", "-"], b"");
    assert_eq!(fpe_key.len(), 65, "64 hex digits and a newline");
    std::fs::write(d.join("fpe.key"), &fpe_key).unwrap();
    let tokens =
        ok(d, &["fpe", "encrypt", "--key-file", "fpe.key", "--input", "-", "--output", "-"], b"4111111111111111\n");
    assert_eq!(tokens.len(), 17);
    let back = ok(d, &["fpe", "decrypt", "--key-file", "fpe.key", "--input", "-", "--output", "-"], &tokens);
    assert_eq!(back, b"4111111111111111\n");

    std::fs::write(d.join("siv.key"), String::from_utf8(ok(d, &["keygen", "--bytes", "64"], b"")).unwrap()).unwrap();
    let sealed = ok(d, &["siv", "encrypt", "--key-file", "siv.key", "--input", "-", "--output", "-"], b"secret");
    assert_eq!(sealed.len(), 16 + 6);
    assert_eq!(
        ok(d, &["siv", "decrypt", "--key-file", "siv.key", "--input", "-", "--output", "-"], &sealed),
        b"secret"
    );
}

#[test]
fn a_file_named_dash_is_reached_as_dot_slash_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::write_private(&d.join("pw"), "pw\n");
    let o = run_in(d, &["encrypt", "--password-file", "pw", "--s2k", "iterated", "-o", "./-", "-"], b"x");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty());
    let sealed = std::fs::read(d.join("-")).unwrap();
    let o = run_with_stdin(T, &["decrypt", "--password-file", d.join("pw").to_str().unwrap(), "-"], &sealed);
    assert_eq!(o.stdout, b"x", "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn stdin_holds_one_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = ok(d, &["key", "generate", "--no-password", "--userid", "A <a@example.org>", "-o", "-"], b"");
    std::fs::write(d.join("a.key"), &key).unwrap();
    let cert = ok(d, &["key", "cert", "a.key"], b"");
    // Stdin holds the key or certificate, read whole: the data has no stdin left.
    let want =
        "tessera: error: stdin can hold only one input: give the others as files (only one may be - or left out)\n";
    for (args, stdin) in [
        (&["encrypt", "-r", "-"][..], &cert),
        (&["encrypt", "-r", "-", "-"], &cert),
        (&["verify", "--signer", "-", "-"], &cert),
        (&["sign", "-i", "-", "-"], &key),
        (&["sign", "-i", "-"], &key),
    ] {
        let o = run_in(d, args, stdin);
        assert_eq!((o.status.code(), String::from_utf8_lossy(&o.stderr).as_ref()), (Some(1), want), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
