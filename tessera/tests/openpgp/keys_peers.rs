//! Keys across implementations, both ways: tessera's generated keys
//! (v6 and v4, plain and locked) are read by GnuPG 2.2 (v4), Sequoia
//! (`pysequoia`) and OpenPGP.js 6, which encrypt to them and decrypt with
//! them; their generated keys are read, validated and unlocked by tessera.
//!
//! Peers are skipped when missing, unless `TESSERA_REQUIRE_PEERS` is set.
//! Python is `$TESSERA_PYTHON`, else `<workspace>/.venv/bin/python`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tessera::openpgp::key::{Cert, GenerateOptions, KEY_UNLOCK_LIMITS, KeyProfile, generate};

const PASSWORD: &str = "peer password";

fn require_peers() -> bool {
    std::env::var_os("TESSERA_REQUIRE_PEERS").is_some()
}

fn skip(what: &str) {
    assert!(!require_peers(), "TESSERA_REQUIRE_PEERS is set but {what} is missing");
    eprintln!("skipped: {what} not installed (scripts/install-peers, scripts/install-npm-peers)");
}

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Self {
        let p = std::env::temp_dir().join(format!("tessera-keys-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        Dir(p)
    }
    fn p(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn ok(out: std::io::Result<Output>, what: &str) -> Vec<u8> {
    let o = out.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

/// Generates a tessera key, optionally locked; returns (secret key, certificate) armored.
fn tessera_key(profile: KeyProfile, uid: &str, locked: bool) -> (Cert, Vec<u8>, Vec<u8>) {
    let mut key = generate(&GenerateOptions { profile, user_ids: vec![uid.into()], ..Default::default() }).unwrap();
    let cert = key.to_public();
    if locked {
        key.lock(PASSWORD.as_bytes()).unwrap();
    }
    let (mut k, mut c) = (Vec::new(), Vec::new());
    key.write_armored(&mut k).unwrap();
    cert.write_armored(&mut c).unwrap();
    (key, k, c)
}

/// Checks a peer's key: parses, valid now, one encryption key, and (when
/// locked) unlocks with the password.
fn check_peer_key(armored: &[u8], locked: bool, what: &str) -> Cert {
    let mut key = Cert::from_bytes(armored).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(key.is_secret(), "{what}");
    let v = key.validate(now()).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(!v.require_encryption_keys().unwrap().is_empty(), "{what}");
    assert!(!v.signing_keys().is_empty(), "{what}");
    let any_locked = key.keys().any(|k| k.secret().is_some_and(|s| s.is_locked()));
    assert_eq!(any_locked, locked, "{what}");
    key.unlock(PASSWORD.as_bytes(), &KEY_UNLOCK_LIMITS).unwrap_or_else(|e| panic!("{what}: {e}"));
    for k in key.keys() {
        k.secret().unwrap().secret().unwrap();
    }
    key
}

// ---- GnuPG 2.2 (v4 keys) ----

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
fn gnupg_reads_tessera_v4_keys_and_tessera_reads_gnupg_keys() {
    if !Command::new("gpg").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return skip("gpg");
    }
    let d = Dir::new("gpg");
    let home = d.p("home");
    std::fs::create_dir(&home).unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(&home, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    for (i, locked) in [false, true].into_iter().enumerate() {
        let uid = format!("Tess{i} <tess{i}@example.org>");
        let (key, k, c) = tessera_key(KeyProfile::Rfc4880, &uid, locked);
        std::fs::write(d.p("k.asc"), &k).unwrap();
        std::fs::write(d.p("c.asc"), &c).unwrap();
        ok(gpg(&home).arg("--import").arg(d.p("c.asc")).output(), "gpg --import cert");
        let sigs = ok(gpg(&home).args(["--check-sigs", &key.fingerprint().to_hex()]).output(), "gpg --check-sigs");
        let sigs = String::from_utf8_lossy(&sigs);
        assert_eq!(sigs.matches("sig!").count(), 2, "{sigs}");
        let list = ok(gpg(&home).args(["--with-colons", "--list-keys", &key.fingerprint().to_hex()]).output(), "list");
        let list = String::from_utf8_lossy(&list);
        assert!(list.lines().any(|l| l.starts_with("pub:-:") || l.starts_with("pub:u:")), "{list}");
        assert!(list.lines().any(|l| l.starts_with("sub:") && l.contains(":e:")), "{list}");
        ok(gpg(&home).arg("--import").arg(d.p("k.asc")).output(), "gpg --import key");
        std::fs::write(d.p("m.txt"), b"to tessera's key").unwrap();
        let _ = std::fs::remove_file(d.p("m.gpg"));
        ok(
            gpg(&home)
                .args(["-r", &key.fingerprint().to_hex(), "-e", "-o"])
                .arg(d.p("m.gpg"))
                .arg(d.p("m.txt"))
                .output(),
            "enc",
        );
        let plain = ok(gpg(&home).arg("-d").arg(d.p("m.gpg")).output(), "gpg decrypts with tessera's secret key");
        assert_eq!(plain, b"to tessera's key");
    }
    // gpg's own keys: Curve25519 and RSA-3072, locked with the password.
    for (algo, sub, uid) in
        [("ed25519", "cv25519", "Gee <gee@example.org>"), ("rsa3072", "rsa3072", "Arr <arr@example.org>")]
    {
        ok(gpg(&home).args(["--quick-gen-key", uid, algo, "default", "never"]).output(), "gen");
        let fp = String::from_utf8_lossy(&ok(gpg(&home).args(["--with-colons", "--list-keys", uid]).output(), "list"))
            .lines()
            .find(|l| l.starts_with("fpr:"))
            .map(|l| l.split(':').nth(9).unwrap().to_string())
            .unwrap();
        ok(gpg(&home).args(["--quick-add-key", &fp, sub, "encr", "never"]).output(), "add subkey");
        let exported = ok(gpg(&home).args(["--armor", "--export-secret-keys", &fp]).output(), "export");
        let key = check_peer_key(&exported, true, algo);
        assert_eq!(key.fingerprint().to_hex(), fp);
    }
}

// ---- Sequoia (pysequoia) ----

fn python() -> Option<PathBuf> {
    let p: PathBuf = match std::env::var_os("TESSERA_PYTHON") {
        Some(p) => p.into(),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python"),
    };
    Command::new(&p).args(["-c", "import pysequoia"]).output().is_ok_and(|o| o.status.success()).then_some(p)
}

const SEQUOIA: &str = r#"
import sys, json, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
cmd = sys.argv[1]
if cmd == "read":
    t = ps.Tsk.from_file(sys.argv[2])
    c = ps.Cert.from_file(sys.argv[3])
    pw = sys.argv[4] if len(sys.argv) > 4 else None
    ct = ps.encrypt(recipients=[c], bytes=b"to tessera's key")
    out = ps.decrypt(decryptor=t.decryptor(pw), bytes=ct).bytes
    print(json.dumps({"fp": c.fingerprint.upper(), "uids": [str(u) for u in c.user_ids], "plain": out.decode()}))
else:
    profile = ps.Profile.RFC9580 if sys.argv[2] == "v6" else ps.Profile.RFC4880
    t = ps.Tsk.generate(sys.argv[3], profile=profile)
    sys.stdout.write(str(t))
"#;

#[test]
fn sequoia_reads_tessera_keys_and_tessera_reads_sequoia_keys() {
    let Some(py) = python() else { return skip("pysequoia") };
    let d = Dir::new("sq");
    for (profile, locked) in [
        (KeyProfile::Rfc9580, false),
        (KeyProfile::Rfc9580, true),
        (KeyProfile::Rfc4880, false),
        (KeyProfile::Rfc4880, true),
    ] {
        let (key, k, c) = tessera_key(profile, "Tess <tess@example.org>", locked);
        std::fs::write(d.p("k.asc"), &k).unwrap();
        std::fs::write(d.p("c.asc"), &c).unwrap();
        let mut cmd = Command::new(&py);
        cmd.args(["-c", SEQUOIA, "read"]).arg(d.p("k.asc")).arg(d.p("c.asc"));
        if locked {
            cmd.arg(PASSWORD);
        }
        let out: serde_json::Value = serde_json::from_slice(&ok(cmd.output(), "pysequoia read")).unwrap();
        assert_eq!(out["fp"], key.fingerprint().to_hex(), "{profile:?}");
        assert_eq!(out["uids"][0], "Tess <tess@example.org>");
        assert_eq!(out["plain"], "to tessera's key");
    }
    for v in ["v6", "v4"] {
        let armored =
            ok(Command::new(&py).args(["-c", SEQUOIA, "generate", v, "Seq <seq@example.org>"]).output(), "gen");
        let key = check_peer_key(&armored, false, v);
        assert_eq!(key.version().id(), if v == "v6" { 6 } else { 4 });
        // Sequoia makes a signing subkey: its back-signature was verified.
        assert_eq!(key.validate(now()).unwrap().subkeys.len(), 2);
    }
}

// ---- OpenPGP.js 6 ----

fn openpgp_js() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js");
    let ok = dir.join("node_modules/openpgp").is_dir()
        && Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    ok.then(|| dir.join("keys.mjs"))
}

fn node(script: &Path, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = Command::new("node")
        .arg(script)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    ok(child.wait_with_output(), &format!("node {args:?}"))
}

#[test]
fn openpgp_js_reads_tessera_keys_and_tessera_reads_openpgp_js_keys() {
    let Some(js) = openpgp_js() else { return skip("OpenPGP.js") };
    for (profile, locked) in [(KeyProfile::Rfc9580, false), (KeyProfile::Rfc9580, true), (KeyProfile::Rfc4880, true)] {
        let (key, k, c) = tessera_key(profile, "Tess <tess@example.org>", locked);
        for (armored, secret) in [(&k, true), (&c, false)] {
            let out: serde_json::Value = serde_json::from_slice(&node(&js, &["inspect", PASSWORD], armored)).unwrap();
            assert_eq!(out["fingerprint"], key.fingerprint().to_hex(), "{profile:?}");
            assert_eq!(out["encryptionKey"], key.subkeys[0].key.public().fingerprint().to_hex());
            assert_eq!(out["userIDs"][0], "Tess <tess@example.org>");
            if secret {
                assert_eq!(out["roundTrip"], "hello from openpgp.js", "{profile:?} locked={locked}");
            }
        }
    }
    for (v, locked) in [("v6", false), ("v6", true), ("v4", true)] {
        let mut args = vec!["generate", v, "Js <js@example.org>"];
        if locked {
            args.push(PASSWORD);
        }
        let armored = node(&js, &args, b"");
        let key = check_peer_key(&armored, locked, v);
        assert_eq!(key.version().id(), if v == "v6" { 6 } else { 4 });
    }
}
