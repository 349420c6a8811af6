//! `tessera key revoke|merge|update|certify|validate` and the emergency
//! revocation certificate `key generate -o F` writes as `F.rev`: what they
//! write, read the same way by GnuPG 2.2, Sequoia (pysequoia) and
//! OpenPGP.js 6; expiry changed by GnuPG merged back; failures in one line.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::cli::{fails, ok, tessera};
use common::gnupg::{colons, gpg, gpg_ok};
use tessera::openpgp::key::Cert;

struct Keys {
    dir: tempfile::TempDir,
}

impl Keys {
    fn new() -> Self {
        Keys { dir: tempfile::tempdir().unwrap() }
    }
    fn p(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn s(&self, name: &str) -> String {
        self.p(name).to_str().unwrap().to_string()
    }
    /// A key `name.key` (with `name.key.rev`) and its certificate `name.cert`.
    fn generate(&self, name: &str, profile: &str) {
        let uid = format!("{name} <{name}@example.org>");
        ok(tessera().args([
            "key",
            "generate",
            "--no-password",
            "--expires",
            "never",
            "--userid",
            &uid,
            "--profile",
            profile,
            "-o",
            &self.s(&format!("{name}.key")),
        ]));
        ok(tessera().args(["key", "cert", &self.s(&format!("{name}.key")), "-o", &self.s(&format!("{name}.cert"))]));
    }
    fn show(&self, name: &str) -> String {
        ok(tessera().args(["key", "show", &self.s(name)]))
    }
}

/// Seconds since the epoch now.
fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

#[test]
fn generate_writes_an_emergency_revocation_beside_the_key() {
    let k = Keys::new();
    k.generate("alice", "rfc9580");
    let shown = k.show("alice.key.rev");
    assert!(shown.contains("is revoked") && shown.contains("emergency revocation"), "{shown}");
    assert!(!std::fs::read_to_string(k.p("alice.key.rev")).unwrap().contains("PRIVATE KEY"));
    // Merged into the certificate, it revokes it.
    ok(tessera().args(["key", "merge", &k.s("alice.cert"), &k.s("alice.key.rev"), "-o", &k.s("merged")]));
    assert!(k.show("merged").contains("is revoked"));
    // An existing F.rev is never replaced, and then no key is written either.
    std::fs::write(k.p("bob.key.rev"), "keep me").unwrap();
    let uid = ["--no-password", "--userid", "bob <bob@example.org>"];
    fails(tessera().args(["key", "generate"]).args(uid).args(["-o", &k.s("bob.key")]), "bob.key.rev exists");
    assert!(!k.p("bob.key").exists());
    assert_eq!(std::fs::read(k.p("bob.key.rev")).unwrap(), b"keep me");
    // To stdout: the key alone.
    let key = ok(tessera().args(["key", "generate"]).args(uid));
    assert!(key.starts_with("-----BEGIN PGP PRIVATE KEY BLOCK-----"));
}

#[test]
fn revoke_update_certify_validate_and_merge() {
    let k = Keys::new();
    k.generate("alice", "rfc9580");
    k.generate("bob", "rfc4880");
    std::fs::write(k.p("pw"), "key password\n").unwrap();
    let reason = ["--reason", "retired", "--message", "moved on"];
    ok(tessera().args(["key", "revoke", "-i", &k.s("alice.key")]).args(reason).args(["-o", &k.s("alice.rev")]));
    let shown = k.show("alice.rev");
    assert!(shown.contains("reason 3: moved on"), "{shown}");
    fails(tessera().args(["key", "revoke", "-i", &k.s("alice.cert")]), "holds no secret key");

    // Update: a new expiry, kept when locked.
    let days = ["--expires", "10"];
    ok(tessera().args(["key", "update", "-i", &k.s("bob.key")]).args(days).args(["-o", &k.s("bob.upd")]));
    assert!(about(expiry(&k.p("bob.upd")), now() + 10 * 86_400), "{}", k.show("bob.upd"));
    ok(tessera().args(["key", "update", "-i", &k.s("bob.upd"), "--no-expiry", "-o", &k.s("bob.never")]));
    assert_eq!(expiry(&k.p("bob.never")), None);
    ok(tessera()
        .args(["key", "generate", "--userid", "c <c@example.org>", "--password-file", &k.s("pw")])
        .args(["-o", &k.s("c.key")]));
    let locked = ["key", "update", "-i", &k.s("c.key")];
    fails(tessera().args(locked).args(days), "--key-password-file");
    let pwf = ["--key-password-file", &k.s("pw")];
    ok(tessera().args(locked).args(days).args(pwf).args(["-o", &k.s("c.upd")]));
    assert!(k.show("c.upd").contains("[secret, locked]"));

    // Certify and validate.
    let bob_uid = "bob <bob@example.org>";
    let certify = ["key", "certify", "-i", &k.s("alice.key"), "--userid", bob_uid, &k.s("bob.cert")];
    ok(tessera().args(certify).args(["-o", &k.s("bob.certified")]));
    let validate = ["key", "validate", "--userid", bob_uid, "--authority", &k.s("alice.cert")];
    assert!(ok(tessera().args(validate).arg(k.s("bob.certified"))).contains("is bound"));
    fails(tessera().args(validate).arg(k.s("bob.cert")), "no given authority certifies it");
    let by_email = ["key", "validate", "--email", "bob@example.org", "--authority", &k.s("bob.cert")];
    ok(tessera().args(by_email).arg(k.s("bob.cert")));
    fails(
        tessera().args(["key", "certify", "-i", &k.s("alice.key"), "--userid", "Bobby", &k.s("bob.cert")]),
        "does not carry it",
    );
    ok(tessera().args([
        "key",
        "certify",
        "-i",
        &k.s("alice.key"),
        "--userid",
        "Bobby",
        "--no-require-self-sig",
        &k.s("bob.cert"),
    ]));

    // Merge refuses another certificate.
    fails(
        tessera().args(["key", "merge", &k.s("alice.cert"), &k.s("bob.cert")]),
        "only copies of the same certificate",
    );
}

/// When the certificate in `path` expires, per tessera.
fn expiry(path: &Path) -> Option<u64> {
    let cert = Cert::from_bytes(&std::fs::read(path).unwrap()).unwrap();
    cert.validate(now()).unwrap().primary.expires
}

/// Whether `got` is within a minute of `want` (the time the command ran).
fn about(got: Option<u64>, want: u64) -> bool {
    got.is_some_and(|g| g.abs_diff(want) < 60)
}

// ---- GnuPG 2.2 ----

#[test]
fn gnupg_reads_revocations_and_expiry_and_its_expiry_merges_back() {
    let k = Keys::new();
    let Some(home) = common::gnupg::home(k.dir.path()) else { return };
    k.generate("tee", "rfc4880");
    let fpr = Cert::from_bytes(&std::fs::read(k.p("tee.cert")).unwrap()).unwrap().fingerprint().to_hex();
    gpg_ok(gpg(&home).arg("--import").arg(k.p("tee.cert")), "import");
    let pub_line = |home: &Path| colons(home, &fpr).lines().find(|l| l.starts_with("pub:")).unwrap().to_string();
    assert!(pub_line(&home).starts_with("pub:-:") || pub_line(&home).starts_with("pub:u:"));

    // tessera's new expiry, as GnuPG reads it.
    ok(tessera().args(["key", "update", "-i", &k.s("tee.key"), "--expires", "20", "-o", &k.s("tee.upd")]));
    ok(tessera().args(["key", "cert", &k.s("tee.upd"), "-o", &k.s("tee.upd.cert")]));
    gpg_ok(gpg(&home).arg("--import").arg(k.p("tee.upd.cert")), "import update");
    let gpg_expiry: u64 = pub_line(&home).split(':').nth(6).unwrap().parse().unwrap();
    assert_eq!(Some(gpg_expiry), expiry(&k.p("tee.upd.cert")));
    assert!(about(Some(gpg_expiry), now() + 20 * 86_400));

    // GnuPG's expiry change, merged here.
    gpg_ok(gpg(&home).arg("--import").arg(k.p("tee.key")), "import secret");
    gpg_ok(gpg(&home).args(["--quick-set-expire", &fpr, "5d"]), "set expiry");
    let exported = gpg_ok(gpg(&home).args(["--armor", "--export", &fpr]), "export").stdout;
    std::fs::write(k.p("tee.gpg"), exported).unwrap();
    ok(tessera().args(["key", "merge", &k.s("tee.cert"), &k.s("tee.gpg"), "-o", &k.s("tee.merged")]));
    assert!(about(expiry(&k.p("tee.merged")), now() + 5 * 86_400), "{}", k.show("tee.merged"));

    // The emergency revocation: GnuPG shows the key revoked.
    gpg_ok(gpg(&home).arg("--import").arg(k.p("tee.key.rev")), "import revocation");
    assert!(pub_line(&home).starts_with("pub:r:"), "{}", pub_line(&home));
}

// ---- Sequoia (pysequoia) ----

const SEQUOIA: &str = r#"
elif cmd == "status":
    c = ps.Cert.from_bytes(open(sys.argv[2], "rb").read())
    e = c.expiration
    print(c.is_revoked, int(e.timestamp()) if e else None)
elif cmd == "expire":
    import datetime
    k = ps.Cert.from_bytes(open(sys.argv[2], "rb").read())
    when = datetime.datetime.fromtimestamp(int(sys.argv[3]), datetime.timezone.utc)
    sys.stdout.write(str(k.set_expiration(when, k.secrets.certifier())))
"#;

#[test]
fn sequoia_reads_revocations_and_expiry() {
    let Some(py) = common::pysequoia() else { return common::skip_peer("pysequoia") };
    let k = Keys::new();
    for profile in ["rfc9580", "rfc4880"] {
        k.generate("tee", profile);
        let status = |f: &str| String::from_utf8(common::run_sequoia(&py, SEQUOIA, &["status", &k.s(f)], b"")).unwrap();
        assert_eq!(status("tee.cert"), "False None\n", "{profile}");
        assert!(status("tee.key.rev").starts_with("True"), "{profile}");
        ok(tessera().args(["key", "update", "-i", &k.s("tee.key"), "--expires", "7", "-o", &k.s("tee.upd")]));
        let seen = status("tee.upd");
        let (revoked, at) = seen.trim().split_once(' ').unwrap();
        assert_eq!((revoked, at.parse::<u64>().ok()), ("False", expiry(&k.p("tee.upd"))), "{profile}");
        // Sequoia's new expiry, merged here.
        let when = (now() + 3 * 86_400).to_string();
        let sq_cert = common::run_sequoia(&py, SEQUOIA, &["expire", &k.s("tee.key"), &when], b"");
        std::fs::write(k.p("tee.sq"), sq_cert).unwrap();
        ok(tessera().args(["key", "merge", &k.s("tee.cert"), &k.s("tee.sq"), "-o", &k.s("tee.merged")]));
        assert!(about(expiry(&k.p("tee.merged")), now() + 3 * 86_400), "{profile}: {}", k.show("tee.merged"));
        std::fs::remove_file(k.p("tee.merged")).unwrap();
        for f in ["tee.key", "tee.key.rev", "tee.cert", "tee.upd", "tee.sq"] {
            std::fs::remove_file(k.p(f)).unwrap();
        }
    }
}

// ---- OpenPGP.js 6 ----

#[test]
fn openpgp_js_reads_revocations_and_expiry() {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tessera/tests/js/certs.mjs");
    if !js.with_file_name("node_modules").join("openpgp").is_dir() {
        return common::skip_peer("OpenPGP.js");
    }
    let k = Keys::new();
    for profile in ["rfc9580", "rfc4880"] {
        k.generate("tee", profile);
        let inspect = |f: &str| {
            let o = Command::new("node").arg(&js).arg("inspect").stdin(std::fs::File::open(k.p(f)).unwrap()).output();
            let o = o.unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            String::from_utf8(o.stdout).unwrap()
        };
        assert!(inspect("tee.key.rev").contains("\"revoked\":true"), "{profile}");
        ok(tessera().args(["key", "update", "-i", &k.s("tee.key"), "--expires", "7", "-o", &k.s("tee.upd")]));
        ok(tessera().args(["key", "cert", &k.s("tee.upd"), "-o", &k.s("tee.upd.cert")]));
        let want = format!("\"expiration\":{}", expiry(&k.p("tee.upd.cert")).unwrap());
        let seen = inspect("tee.upd.cert");
        assert!(seen.contains("\"revoked\":false") && seen.contains(&want), "{profile}: {seen} {want}");
        // OpenPGP.js's re-signed key with an expiry, merged here.
        let o = Command::new("node").arg(&js).args(["expire", &k.s("tee.key"), "86400"]).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::write(k.p("tee.js"), o.stdout).unwrap();
        ok(tessera().args(["key", "merge", &k.s("tee.cert"), &k.s("tee.js"), "-o", &k.s("tee.merged")]));
        let created = Cert::from_bytes(&std::fs::read(k.p("tee.cert")).unwrap()).unwrap().primary.public().created();
        assert_eq!(expiry(&k.p("tee.merged")), Some(u64::from(created) + 86_400), "{profile}");
        for f in ["tee.key", "tee.key.rev", "tee.cert", "tee.upd", "tee.upd.cert", "tee.js", "tee.merged"] {
            std::fs::remove_file(k.p(f)).unwrap();
        }
    }
}
