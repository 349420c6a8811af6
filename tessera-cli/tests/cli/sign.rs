//! `tessera sign|verify` and `tessera-sop sign|verify|inline-*` through the
//! binaries: every form round-trips, a wrong signer or modified data fails
//! with one line and no output file, SOP's exit codes, `--hash`, and a
//! killed `decrypt --verify-with -o` leaves no file.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn run(exe: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(exe).args(args).current_dir(dir).stdin(Stdio::null()).output().expect("run")
}

fn ok(exe: &str, args: &[&str], dir: &Path) -> Vec<u8> {
    let o = run(exe, args, dir);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

const T: &str = env!("CARGO_BIN_EXE_tessera");
const SOP: &str = env!("CARGO_BIN_EXE_tessera-sop");

fn keys(d: &Path) {
    ok(T, &["key", "generate", "--no-password", "--userid", "Alice <a@example.org>", "-o", "a.key"], d);
    ok(T, &["key", "cert", "a.key", "-o", "a.cert"], d);
    ok(
        T,
        &["key", "generate", "--no-password", "--profile", "rfc4880", "--userid", "Bob <b@example.org>", "-o", "b.key"],
        d,
    );
    ok(T, &["key", "cert", "b.key", "-o", "b.cert"], d);
    std::fs::write(d.join("data"), "some data\n- with a dash\n").unwrap();
}

#[test]
fn sign_and_verify_every_form() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    for form in [&["--detached"][..], &["--detached", "--armor"], &[], &["--armor", "--text"], &["--cleartext"]] {
        let mut args = vec!["sign", "-i", "b.key", "-o", "signed", "data"];
        args.extend_from_slice(form);
        ok(T, &args, d);
        let detached = form.contains(&"--detached");
        let mut v = vec!["verify", "--signer", "a.cert", "--signer", "b.cert"];
        if detached {
            v.extend(["--signature", "signed", "data"]);
        } else {
            v.extend(["-o", "out", "signed"]);
        }
        let said = String::from_utf8(ok(T, &v, d)).unwrap();
        assert!(said.starts_with("good signature by ") && said.contains("Bob <b@example.org>"), "{said}");
        if !detached {
            let out = std::fs::read_to_string(d.join("out")).unwrap();
            assert!(out.replace("\r\n", "\n").starts_with("some data\n- with a dash"), "{form:?}: {out:?}");
            std::fs::remove_file(d.join("out")).unwrap();
        }
        // Only Alice's certificate: exit 1, one line, no output file.
        let o = run(T, &["verify", "--signer", "a.cert", "-o", "out", "signed"], d);
        if !detached {
            assert!(!o.status.success() && !d.join("out").exists());
            assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
        }
    }
    ok(T, &["sign", "-i", "a.key", "--detached", "-o", "a.sig", "data"], d);
    std::fs::write(d.join("data2"), "some data\n- with a dash!\n").unwrap();
    let o = run(T, &["verify", "--signer", "a.cert", "--signature", "a.sig", "data2"], d);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("bad signature"));
}

fn sop(args: &[&str], stdin: &[u8], d: &Path) -> Output {
    let mut full = vec![];
    for a in args {
        let file = [".key", ".cert", ".sig"].iter().any(|e| a.ends_with(e)) && !a.starts_with("--");
        full.push(if file { d.join(a).to_string_lossy().into_owned() } else { a.to_string() });
    }
    let refs: Vec<&str> = full.iter().map(String::as_str).collect();
    common::run_with_stdin(SOP, &refs, stdin)
}

#[test]
fn sop_signing_subcommands_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    let data = b"sop data\n";
    let sig = sop(&["sign", "a.key", "b.key"], data, d);
    assert!(sig.status.success());
    std::fs::write(d.join("s.sig"), &sig.stdout).unwrap();
    let v = sop(&["verify", "s.sig", "a.cert", "b.cert"], data, d);
    assert!(v.status.success());
    assert_eq!(String::from_utf8_lossy(&v.stdout).lines().count(), 2);
    assert!(String::from_utf8_lossy(&v.stdout).lines().all(|l| l.ends_with(" mode:binary")));
    assert_eq!(sop(&["verify", "s.sig", "a.cert"], b"other data\n", d).status.code(), Some(3));
    assert_eq!(sop(&["verify", "--not-after=2001-01-01T00:00:00Z", "s.sig", "a.cert"], data, d).status.code(), Some(3));
    for as_ in ["binary", "text", "clearsigned"] {
        let m = sop(&["inline-sign", &format!("--as={as_}"), "a.key"], data, d);
        assert!(m.status.success(), "{as_}");
        let v = sop(&["inline-verify", "a.cert"], &m.stdout, d);
        assert!(v.status.success(), "{as_}");
        assert!(String::from_utf8_lossy(&v.stdout).replace("\r\n", "\n").starts_with("sop data"), "{as_}");
        let vout = d.join(format!("{as_}.verifications"));
        let v = sop(&["inline-verify", &format!("--verifications-out={}", vout.display()), "b.cert"], &m.stdout, d);
        assert_eq!((v.status.code(), v.stdout.len()), (Some(3), 0), "{as_}: nothing released");
        assert!(!vout.exists(), "{as_}: no verifications file after a failure");
        let sigs = d.join(format!("{as_}.sig"));
        let det = sop(&["inline-detach", &format!("--signatures-out={}", sigs.display())], &m.stdout, d);
        assert!(det.status.success(), "{as_}");
        let v = sop(&["verify", &format!("{as_}.sig"), "a.cert"], &det.stdout, d);
        assert!(v.status.success(), "{as_}: detached again");
    }
    assert_eq!(sop(&["inline-verify", "a.cert"], b"garbage", d).status.code(), Some(41));
    let sigs = d.join("garbage.sig");
    let det = sop(&["inline-detach", &format!("--signatures-out={}", sigs.display())], b"garbage", d);
    assert_eq!(det.status.code(), Some(41));
    assert!(!sigs.exists(), "no signatures file after a failure");
    common::write_private(&d.join("pw"), "pw\n");
    ok(T, &["key", "generate", "--userid", "L <l@x>", "--password-file", "pw", "-o", "l.key"], d);
    assert_eq!(sop(&["sign", "l.key"], data, d).status.code(), Some(67));
    let pw = d.join("pw");
    assert!(sop(&["sign", &format!("--with-key-password={}", pw.display()), "l.key"], data, d).status.success());
}

#[test]
fn encrypt_signed_and_decrypt_verified() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    for (to, key) in [("b.cert", "b.key"), ("a.cert", "a.key")] {
        ok(T, &["encrypt", "-r", to, "--sign-with", "a.key", "--sign-with", "b.key", "-o", "m.pgp", "data"], d);
        let o = run(T, &["decrypt", "-i", key, "--verify-with", "a.cert", "-o", "out", "m.pgp"], d);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("good signature by "));
        assert_eq!(std::fs::read(d.join("out")).unwrap(), std::fs::read(d.join("data")).unwrap());
        std::fs::remove_file(d.join("out")).unwrap();
        // Not signed by the certificate asked for: no output file, one line.
        ok(T, &["encrypt", "-r", to, "--sign-with", "b.key", "-o", "m2.pgp", "data"], d);
        let o = run(T, &["decrypt", "-i", key, "--verify-with", "a.cert", "-o", "out", "m2.pgp"], d);
        assert!(!o.status.success() && !d.join("out").exists());
        assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1, "{}", String::from_utf8_lossy(&o.stderr));
        // The data went into a temporary file beside `out`: it is gone too.
        let names: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
        // Without --verify-with it decrypts as before.
        ok(T, &["decrypt", "-i", key, "-o", "out", "m2.pgp"], d);
        std::fs::remove_file(d.join("out")).unwrap();
    }
}

/// `--hash` of `tessera sign` and `tessera encrypt --sign-with`: the hash
/// named is the one in the signature packet, and it verifies.
#[test]
fn the_hash_asked_for_is_in_the_packet() {
    use tessera::openpgp::crypto::HashAlg;
    use tessera::openpgp::key::Cert;
    use tessera::openpgp::sig::read_signatures;
    use tessera::openpgp::{DecryptOptions, VerifyingDecryptor};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    for hash in HashAlg::SIGNING {
        for key in ["a", "b"] {
            let (k, c) = (format!("{key}.key"), format!("{key}.cert"));
            ok(T, &["sign", "-i", &k, "--detached", "--hash", hash.name(), "-o", "h.sig", "data"], d);
            let sig = std::fs::read(d.join("h.sig")).unwrap();
            assert_eq!(read_signatures(sig.as_slice()).unwrap()[0].hash_alg(), hash);
            ok(T, &["verify", "--signer", &c, "--signature", "h.sig", "data"], d);
            std::fs::remove_file(d.join("h.sig")).unwrap();
        }
    }
    ok(T, &["encrypt", "-r", "b.cert", "--sign-with", "a.key", "--hash", "SHA3-512", "-o", "m.pgp", "data"], d);
    let bob = Cert::from_bytes(&std::fs::read(d.join("b.key")).unwrap()).unwrap();
    let alice = [Cert::from_bytes(&std::fs::read(d.join("a.cert")).unwrap()).unwrap()];
    let msg = std::fs::read(d.join("m.pgp")).unwrap();
    let opts = DecryptOptions { keys: vec![bob], ..DecryptOptions::default() };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let dec = VerifyingDecryptor::new(msg.as_slice(), &[], &opts, &alice, now).unwrap();
    let verified = dec.finish().unwrap();
    assert_eq!(verified.results[0].signature.as_ref().unwrap().hash_alg(), HashAlg::Sha3_512);
    // Names other than those offered, and --hash without --sign-with, are refused.
    for bad in
        [&["sign", "-i", "a.key", "--hash", "SHA1", "data"][..], &["sign", "-i", "a.key", "--hash", "sha256", "data"]]
    {
        assert_eq!(run(T, bad, d).status.code(), Some(2), "{bad:?}");
    }
    assert_eq!(run(T, &["encrypt", "-r", "b.cert", "--hash", "SHA256", "data"], d).status.code(), Some(2));
}

/// Whether an [`tessera::fs::AtomicFile`] in the empty directory `dir` has
/// no name while open: the file system takes `O_TMPFILE` (ext4, XFS,
/// Btrfs and tmpfs do; overlayfs before Linux 6.6 does not). Elsewhere it
/// is a named temporary file, which a killed process leaves behind.
#[cfg(target_os = "linux")]
fn unnamed_files_supported(dir: &Path) -> bool {
    let probe = tessera::fs::AtomicFile::create(&dir.join("probe")).unwrap();
    let named = std::fs::read_dir(dir).unwrap().next().is_some();
    drop(probe);
    !named
}

/// `tessera decrypt --verify-with -o OUT` killed (SIGKILL) after it wrote
/// plaintext whose signatures are not checked yet: on Linux nothing is
/// left in OUT's directory but what was there (the output file had no name).
#[test]
#[cfg(target_os = "linux")]
fn a_killed_decrypt_leaves_no_file() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    let data: Vec<u8> = (0..4u32 << 20).map(|i| (i % 251) as u8).collect();
    std::fs::write(d.join("big"), &data).unwrap();
    ok(T, &["encrypt", "-r", "a.cert", "--sign-with", "a.key", "-o", "big.pgp", "big"], d);
    let msg = std::fs::read(d.join("big.pgp")).unwrap();
    let out_dir = d.join("out");
    std::fs::create_dir(&out_dir).unwrap();
    if !unnamed_files_supported(&out_dir) {
        eprintln!(
            "note: {} does not support O_TMPFILE (the output falls back to a named file): test skipped",
            out_dir.display()
        );
        return;
    }
    std::fs::write(out_dir.join("existing"), b"old").unwrap();
    let mut child = Command::new(T)
        .args(["decrypt", "-i", "a.key", "--verify-with", "a.cert", "-o", "out/existing"])
        .current_dir(d)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Half the message, the pipe left open: decrypt waits for the rest.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&msg[..msg.len() / 2]).unwrap();
    stdin.flush().unwrap();
    // Wait until it holds a file in `out` with plaintext in it.
    let fds = format!("/proc/{}/fd", child.id());
    let written = || {
        std::fs::read_dir(&fds).ok()?.filter_map(Result::ok).find_map(|e| {
            let in_out = std::fs::read_link(e.path()).ok()?.starts_with(&out_dir);
            (in_out && std::fs::metadata(e.path()).ok()?.len() > 0).then_some(())
        })
    };
    let seen = (0..200).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        written().is_some()
    });
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    drop(stdin);
    assert!(seen, "decrypt wrote plaintext into a file in the output directory");
    let names: Vec<String> =
        std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    assert_eq!(names, ["existing"], "nothing left behind");
    assert_eq!(std::fs::read(out_dir.join("existing")).unwrap(), b"old", "the old output untouched");
}
