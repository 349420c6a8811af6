//! `tessera key generate|cert|show` through the binary: both profiles, a
//! password-locked key, the certificate extracted, what `show` prints, and
//! failures that leave no output file.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn tessera() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().expect("run")
}

fn ok(cmd: &mut Command) -> String {
    let o = run(cmd);
    assert!(o.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn fails(cmd: &mut Command, needle: &str) {
    let o = run(cmd);
    assert!(!o.status.success(), "{cmd:?} succeeded");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(needle), "{cmd:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

fn vector(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tessera/tests/vectors/openpgp/keys").join(name)
}

#[test]
fn generate_cert_and_show_both_profiles() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n);
    common::write_private(&p("pw"), "key password\n");
    for (profile, version, algs) in
        [("rfc9580", "v6", ["Ed25519", "X25519"]), ("rfc4880", "v4", ["EdDsaLegacy", "Ecdh"])]
    {
        let key = p(&format!("{profile}.key"));
        let cert = p(&format!("{profile}.cert"));
        ok(tessera()
            .args(["key", "generate", "--userid", "Tess <tess@example.org>", "--profile", profile, "--expires", "30"])
            .arg("--password-file")
            .arg(p("pw"))
            .arg("-o")
            .arg(&key));
        let armored = std::fs::read_to_string(&key).unwrap();
        assert!(armored.starts_with("-----BEGIN PGP PRIVATE KEY BLOCK-----"), "{armored}");
        #[cfg(unix)]
        assert_eq!(std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&key).unwrap().permissions()) & 0o077, 0);
        ok(tessera().args(["key", "cert"]).arg(&key).arg("-o").arg(&cert));
        assert!(std::fs::read_to_string(&cert).unwrap().starts_with("-----BEGIN PGP PUBLIC KEY BLOCK-----"));
        let shown = ok(tessera().args(["key", "show"]).arg(&key));
        assert!(
            shown.contains(&format!("{version} {}", algs[0])) && shown.contains(&format!("{version} {}", algs[1])),
            "{shown}"
        );
        assert!(shown.contains("[secret, locked]") && shown.contains("uid      Tess <tess@example.org>"), "{shown}");
        assert!(
            shown.contains("flags certify,sign") && shown.contains("flags encrypt-comms,encrypt-storage"),
            "{shown}"
        );
        assert_eq!(shown.matches(", expires ").count(), 2, "{shown}");
        let shown_cert = ok(tessera().args(["key", "show"]).arg(&cert));
        assert!(!shown_cert.contains("[secret"), "{shown_cert}");
    }
}

#[test]
fn show_reads_published_samples() {
    let shown = ok(tessera().args(["key", "show"]).arg(vector("rfc9580_a3_v6_cert.asc")));
    assert!(
        shown.contains("primary CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9 v6 Ed25519"),
        "{shown}"
    );
    assert!(
        shown.contains("subkey  12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885 v6 X25519"),
        "{shown}"
    );
    let shown = ok(tessera().args(["key", "show"]).arg(vector("bob_secret.asc")));
    assert!(
        shown.contains("D1A66E1A23B182C9980F788CFBFCC82A015E7330 v4 Rsa") && shown.contains("Bob Babbage"),
        "{shown}"
    );
    // A bare key without self-signatures: shown, with the reason it is not valid.
    let shown = ok(tessera().args(["key", "show"]).arg(vector("rfc9580_a1_v4_ed25519legacy.asc")));
    assert!(
        shown.contains("not valid: certificate C959BDBAFA32A2F89A153B678CFDE12197965A9A has no valid self-signature"),
        "{shown}"
    );
}

#[test]
fn failures_name_the_problem_and_write_nothing() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n);
    std::fs::write(p("junk"), b"not a key").unwrap();
    common::write_private(&p("empty"), b"");
    fails(tessera().args(["key", "cert"]).arg(p("junk")).arg("-o").arg(p("out")), "cannot read keys from");
    fails(tessera().args(["key", "show"]).arg(p("missing")), "no such key or certificate file");
    fails(
        tessera()
            .args(["key", "generate", "--userid", "X <x@example.org>", "--password-file"])
            .arg(p("empty"))
            .arg("-o")
            .arg(p("out")),
        "is empty",
    );
    assert!(!p("out").exists());
}

/// `key generate -o` never replaces a file: a second run to the same path
/// (a typo, a script run twice) must not destroy the secret key already
/// there, as `keygen -o` and `keyset new -o` never do.
#[test]
fn generate_never_replaces_an_existing_key() {
    let d = tempfile::tempdir().unwrap();
    let key = d.path().join("alice.key");
    ok(tessera().args(["key", "generate", "--no-password", "--userid", "Alice <alice@example.org>", "-o"]).arg(&key));
    let first = std::fs::read(&key).unwrap();
    fails(
        tessera().args(["key", "generate", "--no-password", "--userid", "Alice <alice@example.org>", "-o"]).arg(&key),
        "exists",
    );
    assert_eq!(std::fs::read(&key).unwrap(), first, "the first key was replaced");
    // The key and its emergency revocation certificate, alice.key.rev.
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 2, "a temporary file was left behind");
}
