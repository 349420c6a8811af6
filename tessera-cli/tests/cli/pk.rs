//! `tessera encrypt -r CERT` and `tessera decrypt -i KEY` through the
//! binary, and messages both ways with GnuPG 2.2 (v4 keys), Sequoia
//! (`pysequoia`, v6 and v4) and OpenPGP.js 6 (v6 and v4): each side encrypts
//! to the other's certificate and decrypts with its own key.
//!
//! Peers are skipped when missing, unless `TESSERA_REQUIRE_PEERS` is set.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn tessera() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn ok(out: std::io::Result<Output>, what: &str) -> Vec<u8> {
    let o = out.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

fn piped(cmd: &mut Command, stdin: &[u8], what: &str) -> Vec<u8> {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&data));
    let out = ok(child.wait_with_output(), what);
    let _ = writer.join();
    out
}

const PLAIN: &[u8] = b"a message to public keys\n";
const PASSWORD: &str = "key password";

/// A tessera key and its certificate, locked with PASSWORD.
fn tessera_key(dir: &Path, name: &str, profile: &str) -> (PathBuf, PathBuf) {
    let (key, cert) = (dir.join(format!("{name}.key")), dir.join(format!("{name}.cert")));
    common::write_private(&dir.join("kpw"), PASSWORD);
    let uid = format!("{name} <{name}@example.org>");
    ok(
        tessera()
            .args(["key", "generate", "--userid", &uid, "--profile", profile, "--password-file"])
            .arg(dir.join("kpw"))
            .arg("-o")
            .arg(&key)
            .output(),
        "key generate",
    );
    ok(tessera().args(["key", "cert"]).arg(&key).arg("-o").arg(&cert).output(), "key cert");
    (key, cert)
}

fn tessera_decrypt(key: &Path, msg: &Path, dir: &Path) -> Vec<u8> {
    ok(
        tessera().arg("decrypt").arg("-i").arg(key).arg("--key-password-file").arg(dir.join("kpw")).arg(msg).output(),
        "decrypt",
    )
}

#[test]
fn several_recipients_passwords_and_clear_errors() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n);
    let (k6, c6) = tessera_key(d.path(), "six", "rfc9580");
    let (k4, c4) = tessera_key(d.path(), "four", "rfc4880");
    let (k6b, _) = tessera_key(d.path(), "other", "rfc9580");
    std::fs::write(p("in"), PLAIN).unwrap();
    common::write_private(&p("pw"), "message password\n");
    // SEIPD v2 for v6 and tessera's v4 keys (they announce it), v1 with
    // --profile rfc4880; with a password too; armored.
    for (recipients, extra, v2) in [
        (vec![&c6], vec![], true),
        (vec![&c6, &c4], vec![], true),
        (vec![&c6, &c4], vec!["--profile", "rfc4880"], false),
        (vec![&c6], vec!["--password-file", p("pw").to_str().unwrap()], true),
        (vec![&c4], vec!["--armor"], true),
    ] {
        let out = p("m.pgp");
        let _ = std::fs::remove_file(&out);
        let mut c = tessera();
        c.arg("encrypt");
        for r in &recipients {
            c.arg("-r").arg(r);
        }
        ok(c.args(&extra).arg("-o").arg(&out).arg(p("in")).output(), "encrypt");
        let bytes = std::fs::read(&out).unwrap();
        if !extra.contains(&"--armor") {
            // The first packet: PKESK v6 (with SEIPD v2) or v3.
            assert_eq!((bytes[0], bytes[2]), (0xc1, if v2 { 6 } else { 3 }));
        }
        for r in &recipients {
            let key = if *r == &c6 { &k6 } else { &k4 };
            assert_eq!(tessera_decrypt(key, &out, d.path()), PLAIN);
        }
        if extra.contains(&"--password-file") {
            assert_eq!(ok(tessera().args(["decrypt", "--password-file"]).arg(p("pw")).arg(&out).output(), "pw"), PLAIN);
        }
        // A key the message is not for: one line naming whom it is for.
        let o = tessera()
            .arg("decrypt")
            .arg("-i")
            .arg(&k6b)
            .arg("--key-password-file")
            .arg(p("kpw"))
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains("no key given can decrypt this message; it is encrypted to 0x"),
            "{err}"
        );
    }
    // A locked key without its password says so; a file that is not a certificate is refused.
    let o = tessera().arg("decrypt").arg("-i").arg(&k4).arg(p("m.pgp")).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("is locked"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = tessera().arg("encrypt").arg("-r").arg(p("in")).arg(p("in")).output().unwrap();
    assert!(!o.status.success());
}

// ---- GnuPG 2.2 ----

fn gpg(home: &Path) -> Command {
    let mut c = Command::new("gpg");
    c.arg("--homedir").arg(home).args([
        "--batch",
        "--no-tty",
        "--pinentry-mode",
        "loopback",
        "--trust-model",
        "always",
    ]);
    c.args(["--passphrase", PASSWORD]);
    c
}

#[test]
fn gnupg_messages_both_ways() {
    if !Command::new("gpg").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return common::skip_peer("gpg");
    }
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n);
    let home = p("home");
    std::fs::create_dir(&home).unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(&home, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let (k4, c4) = tessera_key(d.path(), "four", "rfc4880");
    std::fs::write(p("in"), PLAIN).unwrap();
    // gpg encrypts to tessera's certificate; tessera decrypts.
    ok(gpg(&home).arg("--import").arg(&c4).output(), "import");
    ok(gpg(&home).args(["-r", "four@example.org", "-e", "-o"]).arg(p("g.pgp")).arg(p("in")).output(), "gpg -e");
    assert_eq!(tessera_decrypt(&k4, &p("g.pgp"), d.path()), PLAIN);
    // tessera encrypts to gpg's Curve25519 and RSA keys at once; gpg decrypts.
    ok(
        gpg(&home).args(["--quick-gen-key", "Gee <gee@example.org>", "future-default", "default", "never"]).output(),
        "gen",
    );
    ok(
        gpg(&home).args(["--quick-gen-key", "Arr <arr@example.org>", "rsa3072", "default", "never"]).output(),
        "gen rsa",
    );
    let fp = String::from_utf8_lossy(&ok(
        gpg(&home).args(["--with-colons", "--list-keys", "arr@example.org"]).output(),
        "l",
    ))
    .lines()
    .find(|l| l.starts_with("fpr:"))
    .map(|l| l.split(':').nth(9).unwrap().to_string())
    .unwrap();
    ok(gpg(&home).args(["--quick-add-key", &fp, "rsa3072", "encr", "never"]).output(), "add");
    for (uid, file) in [("gee@example.org", "gee.cert"), ("arr@example.org", "arr.cert")] {
        std::fs::write(p(file), ok(gpg(&home).args(["--armor", "--export", uid]).output(), "export")).unwrap();
    }
    ok(
        tessera()
            .arg("encrypt")
            .arg("-r")
            .arg(p("gee.cert"))
            .arg("-r")
            .arg(p("arr.cert"))
            .arg("-o")
            .arg(p("t.pgp"))
            .arg(p("in"))
            .output(),
        "enc",
    );
    assert_eq!(ok(gpg(&home).arg("-d").arg(p("t.pgp")).output(), "gpg -d"), PLAIN);
    // And tessera decrypts gpg's message with gpg's RSA secret key.
    std::fs::write(p("arr.key"), ok(gpg(&home).args(["--armor", "--export-secret-keys", &fp]).output(), "x")).unwrap();
    ok(gpg(&home).args(["-r", "arr@example.org", "-e", "-o"]).arg(p("r.pgp")).arg(p("in")).output(), "gpg -e rsa");
    assert_eq!(tessera_decrypt(&p("arr.key"), &p("r.pgp"), d.path()), PLAIN);
    // A SEIPD v1 body of several of the MDC hash thread's buffers, both ways
    // (uncompressed, as `gpg -z0`), the hash inline and on its own thread.
    let big: Vec<u8> = (0..1_200_007u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(p("big"), &big).unwrap();
    for threads in ["1", "2"] {
        let _ = std::fs::remove_file(p("tb.pgp"));
        let mut c = tessera();
        c.args(["encrypt", "--threads", threads, "-r"]).arg(p("arr.cert")).arg("-o").arg(p("tb.pgp")).arg(p("big"));
        ok(c.output(), "enc big");
        assert!(ok(gpg(&home).arg("-d").arg(p("tb.pgp")).output(), "gpg -d big") == big, "{threads} threads");
    }
    let mut c = gpg(&home);
    ok(c.args(["-z0", "-r", "arr@example.org", "-e", "-o"]).arg(p("gb.pgp")).arg(p("big")).output(), "gpg -e big");
    for threads in ["1", "2"] {
        let mut c = tessera();
        c.args(["decrypt", "--threads", threads, "-i"]).arg(p("arr.key")).arg("--key-password-file");
        assert!(ok(c.arg(d.path().join("kpw")).arg(p("gb.pgp")).output(), "dec big") == big, "{threads} threads");
    }
}

// ---- Sequoia ----

#[test]
fn sequoia_messages_both_ways() {
    let Some(py) = common::pysequoia() else { return common::skip_peer("pysequoia") };
    let script = format!("{}{}", common::SEQUOIA_GENERATE, common::SEQUOIA_ENCRYPT_DECRYPT);
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n);
    std::fs::write(p("in"), PLAIN).unwrap();
    for (v, profile) in [("v6", "rfc9580"), ("v4", "rfc4880")] {
        let (k, c) = tessera_key(d.path(), &format!("t{v}"), profile);
        let ct = piped(Command::new(&py).args(["-c", &script, "encrypt"]).arg(&c), PLAIN, "sq encrypt");
        std::fs::write(p("s.pgp"), &ct).unwrap();
        assert_eq!(tessera_decrypt(&k, &p("s.pgp"), d.path()), PLAIN, "{v}");
        let (sk, sc) = (p(&format!("sq{v}.key")), p(&format!("sq{v}.cert")));
        ok(Command::new(&py).args(["-c", &script, "generate", v]).arg(&sk).arg(&sc).output(), "sq generate");
        ok(
            tessera()
                .arg("encrypt")
                .arg("-r")
                .arg(&sc)
                .arg("-r")
                .arg(&c)
                .arg("-o")
                .arg(p("t.pgp"))
                .arg(p("in"))
                .output(),
            "enc",
        );
        let msg = std::fs::read(p("t.pgp")).unwrap();
        assert_eq!(
            piped(Command::new(&py).args(["-c", &script, "decrypt"]).arg(&sk), &msg, "sq decrypt"),
            PLAIN,
            "{v}"
        );
        assert_eq!(tessera_decrypt(&k, &p("t.pgp"), d.path()), PLAIN);
    }
}

// ---- OpenPGP.js 6 ----

#[test]
fn openpgp_js_messages_both_ways() {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tessera/tests/js/keys.mjs");
    if !js.with_file_name("node_modules").join("openpgp").is_dir() {
        return common::skip_peer("OpenPGP.js");
    }
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n);
    std::fs::write(p("in"), PLAIN).unwrap();
    for (v, profile) in [("v6", "rfc9580"), ("v4", "rfc4880")] {
        let (k, c) = tessera_key(d.path(), &format!("t{v}"), profile);
        let ct = piped(Command::new("node").arg(&js).arg("encrypt").arg(&c), PLAIN, "js encrypt");
        std::fs::write(p("j.pgp"), &ct).unwrap();
        assert_eq!(tessera_decrypt(&k, &p("j.pgp"), d.path()), PLAIN, "{v}");
        let key =
            piped(Command::new("node").arg(&js).args(["generate", v, "Js <js@example.org>", PASSWORD]), b"", "js gen");
        std::fs::write(p("js.key"), &key).unwrap();
        ok(tessera().args(["key", "cert"]).arg(p("js.key")).arg("-o").arg(p("js.cert")).output(), "cert");
        ok(
            tessera()
                .arg("encrypt")
                .arg("-r")
                .arg(p("js.cert"))
                .arg("-r")
                .arg(&c)
                .arg("-o")
                .arg(p("t.pgp"))
                .arg(p("in"))
                .output(),
            "enc",
        );
        let msg = std::fs::read(p("t.pgp")).unwrap();
        let back =
            piped(Command::new("node").arg(&js).args(["decrypt"]).arg(p("js.key")).arg(PASSWORD), &msg, "js decrypt");
        assert_eq!(back, PLAIN, "{v}");
    }
}
