//! `tessera-sop` certificate management (draft-dkg-openpgp-stateless-cli-16):
//! `revoke-key`, `merge-certs`, `update-key`, `certify-userid`,
//! `validate-userid`, their exit codes, and certificates revoked, updated
//! and certified by tessera read the same way by GnuPG 2.2, Sequoia
//! (pysequoia) and OpenPGP.js 6, and theirs by tessera.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::gnupg::{colons, gpg, gpg_ok};
use common::sop::{Dir, key, sop_code, sop_ok};
use tessera::openpgp::key::Cert;

const PLAIN: &[u8] = b"certificate management\n";

/// The secret key `k` with the revocation certificate `rev` merged in.
fn revoked_key(d: &Dir, k: &str, rev: &str) -> String {
    let key = Cert::from_bytes(&std::fs::read(k).unwrap()).unwrap();
    let merged = key.merge(&Cert::from_bytes(&std::fs::read(rev).unwrap()).unwrap()).unwrap();
    d.write("revoked.key", &merged.write_armored(Vec::new()).unwrap())
}

#[test]
fn revoke_key_writes_a_hard_revocation() {
    let d = Dir::new();
    for profile in ["rfc9580", "rfc4880"] {
        let (k, c) = key(&d, "alice", &[&format!("--profile={profile}")]);
        let signed = sop_ok(&["inline-sign", &k], PLAIN);
        let rev = sop_ok(&["revoke-key"], &d.read("alice.key"));
        assert!(rev.starts_with(b"-----BEGIN PGP PUBLIC KEY BLOCK-----"), "{profile}");
        assert!(!sop_ok(&["revoke-key", "--no-armor"], &d.read("alice.key")).starts_with(b"-----"));
        let rc = d.write("alice.rev", &rev);
        // A hard revocation: the signature made before it no longer counts.
        assert_eq!(sop_ok(&["inline-verify", &c], &signed), PLAIN);
        sop_code(&["inline-verify", &rc], &signed, 3);
        sop_code(&["encrypt", &rc], PLAIN, 17);
        sop_code(&["revoke-key"], &d.read("alice.cert"), 41);
        std::fs::remove_file(&k).unwrap();
        std::fs::remove_file(&c).unwrap();
    }
    let pw = d.write("pw", b"key password");
    let wrong = d.write("wrong", b"not it");
    key(&d, "locked", &[&format!("--with-key-password={pw}")]);
    let locked = d.read("locked.key");
    sop_code(&["revoke-key"], &locked, 67);
    sop_code(&["revoke-key", &format!("--with-key-password={wrong}")], &locked, 67);
    let rev =
        sop_ok(&["revoke-key", &format!("--with-key-password={wrong}"), &format!("--with-key-password={pw}")], &locked);
    let rc = d.write("locked.rev", &rev);
    sop_code(&["validate-userid", "locked <locked@example.org>", &rc], &rev, 107);
}

#[test]
fn merge_certs_keeps_the_base_and_adds_what_updates_hold() {
    let d = Dir::new();
    let (k, c) = key(&d, "alice", &[]);
    let (_, bob) = key(&d, "bob", &[]);
    let cert = d.read("alice.cert");
    // With itself: the same certificate, octet for octet.
    assert_eq!(sop_ok(&["merge-certs", &c], &cert), cert);
    // An update (a revocation) applies, whichever side holds it.
    let rev = d.write("alice.rev", &sop_ok(&["revoke-key"], &d.read("alice.key")));
    let merged = sop_ok(&["merge-certs", &rev], &cert);
    assert_eq!(merged, d.read("alice.rev"));
    assert_eq!(sop_ok(&["merge-certs", &c], &merged), merged);
    // Updates for certificates not on stdin are left out.
    assert_eq!(sop_ok(&["merge-certs", &bob, &rev], &cert), merged);
    assert_eq!(sop_ok(&["merge-certs", &bob], &cert), cert);
    sop_code(&["merge-certs", &c], b"garbage", 41);
    sop_code(&["merge-certs", &d.p("missing")], &cert, 61);
    assert!(!sop_ok(&["merge-certs", "--no-armor", &c], &cert).starts_with(b"-----"));
    drop(k);
}

#[test]
fn update_key_adds_capabilities_unless_told_not_to() {
    let d = Dir::new();
    for profile in ["rfc9580", "rfc4880"] {
        // A fresh key needs no update: the same octets.
        key(&d, "fresh", &[&format!("--profile={profile}")]);
        assert_eq!(sop_ok(&["update-key"], &d.read("fresh.key")), d.read("fresh.key"), "{profile}");
        // A signing-only key gains an encryption subkey, unless asked not to.
        let (_, c) = key(&d, "signer", &[&format!("--profile={profile}"), "--signing-only"]);
        let k = d.read("signer.key");
        sop_code(&["encrypt", &c], PLAIN, 17);
        for flag in ["--signing-only", "--no-added-capabilities"] {
            assert_eq!(sop_ok(&["update-key", flag], &k), k, "{profile} {flag}");
        }
        let updated = d.write("updated.key", &sop_ok(&["update-key"], &k));
        let uc = d.write("updated.cert", &sop_ok(&["extract-cert"], &d.read("updated.key")));
        let ct = sop_ok(&["encrypt", &uc], PLAIN);
        assert_eq!(sop_ok(&["decrypt", &updated], &ct), PLAIN, "{profile}");
        // The new subkey is bound with the old certificate's User ID intact.
        sop_ok(&["validate-userid", "signer <signer@example.org>", &uc], &d.read("updated.cert"));
        for f in ["fresh.key", "fresh.cert", "signer.key", "signer.cert"] {
            std::fs::remove_file(d.p(f)).unwrap();
        }
    }
    // A locked key needs its password and stays locked with it.
    let pw = d.write("pw", b"key password");
    key(&d, "locked", &["--signing-only", &format!("--with-key-password={pw}")]);
    let locked = d.read("locked.key");
    sop_code(&["update-key"], &locked, 67);
    let updated = sop_ok(&["update-key", &format!("--with-key-password={pw}")], &locked);
    assert_ne!(updated, locked);
    sop_code(&["change-key-password"], &updated, 67);
    sop_ok(&["change-key-password", &format!("--old-key-password={pw}")], &updated);
    // A revoked key cannot be updated (103), also when the revocation
    // comes in through --merge-certs.
    let (k, _) = key(&d, "gone", &[]);
    let rev = d.write("gone.rev", &sop_ok(&["revoke-key"], &d.read("gone.key")));
    sop_code(&["update-key", &format!("--merge-certs={rev}")], &d.read("gone.key"), 103);
    sop_code(&["update-key"], &std::fs::read(revoked_key(&d, &k, &rev)).unwrap(), 103);
    sop_code(&["update-key"], &d.read("gone.rev"), 41);
}

#[test]
fn certify_and_validate_user_ids() {
    let d = Dir::new();
    let (ak, ac) = key(&d, "alice", &[]);
    let (_, bc) = key(&d, "bob", &["--profile=rfc4880"]);
    let bob = d.read("bob.cert");
    let uid = "bob <bob@example.org>";
    // Alice accepts her own self-signed User ID, not Bob's until she certifies it.
    sop_ok(&["validate-userid", "alice <alice@example.org>", &ac], &d.read("alice.cert"));
    sop_code(&["validate-userid", uid, &ac], &bob, 107);
    let certified = sop_ok(&["certify-userid", &format!("--userid={uid}"), &ak], &bob);
    sop_ok(&["validate-userid", uid, &ac], &certified);
    sop_ok(&["validate-userid", uid, &bc, &ac], &certified);
    sop_ok(&["validate-userid", "--addr-spec-only", "bob@example.org", &ac], &certified);
    sop_code(&["validate-userid", "--addr-spec-only", "bob@example.com", &ac], &certified, 107);
    sop_code(&["validate-userid", "--validate-at=2001-01-01", uid, &ac], &certified, 107);
    // A pet name needs --no-require-self-sig; only its certifier vouches for it.
    sop_code(&["certify-userid", "--userid=Bobby", &ak], &bob, 107);
    let pet = sop_ok(&["certify-userid", "--userid=Bobby", "--no-require-self-sig", &ak], &bob);
    sop_ok(&["validate-userid", "Bobby", &ac], &pet);
    sop_code(&["validate-userid", "Bobby", &bc], &pet, 107);
    // A revoked key cannot certify; arguments missing are 19.
    let rev = d.write("alice.rev", &sop_ok(&["revoke-key"], &d.read("alice.key")));
    let revoked = revoked_key(&d, &ak, &rev);
    sop_code(&["certify-userid", &format!("--userid={uid}"), &revoked], &bob, 109);
    sop_code(&["validate-userid", uid, &rev], &certified, 107);
    sop_code(&["certify-userid", &ak], &bob, 19);
    sop_code(&["certify-userid", &format!("--userid={uid}")], &bob, 19);
    sop_code(&["validate-userid", uid], &bob, 19);
    sop_code(&["certify-userid", &format!("--userid={uid}"), &ac], &bob, 41);
}

// ---- GnuPG 2.2 ----

#[test]
fn gnupg_reads_and_makes_revocations_and_certifications() {
    let d = Dir::new();
    let Some(home) = common::gnupg::home(d.0.path()) else { return };
    let (tk, tc) = key(&d, "tee", &["--profile=rfc4880"]);
    gpg_ok(gpg(&home).args(["--quick-gen-key", "Gee <gee@example.org>", "future-default", "default", "never"]), "gen");
    let gc = d.write("gee.cert", &gpg_ok(gpg(&home).args(["--armor", "--export", "gee@example.org"]), "export").stdout);
    gpg_ok(gpg(&home).arg("--import").arg(&tc), "import");

    // gpg certifies tessera's User ID; tessera validates it with gpg's certificate.
    let fpr = Cert::from_bytes(&d.read("tee.cert")).unwrap().fingerprint().to_hex();
    gpg_ok(gpg(&home).args(["-u", "gee@example.org", "--quick-sign-key", &fpr]), "sign-key");
    let certified = gpg_ok(gpg(&home).args(["--armor", "--export", &fpr]), "export").stdout;
    sop_ok(&["validate-userid", "tee <tee@example.org>", &gc], &certified);
    sop_code(&["validate-userid", "tee <tee@example.org>", &gc], &d.read("tee.cert"), 107);

    // tessera certifies gpg's User ID; gpg checks the certification.
    let tcert = sop_ok(&["certify-userid", "--userid=Gee <gee@example.org>", &tk], &d.read("gee.cert"));
    gpg_ok(gpg(&home).arg("--import").arg(d.write("gee.certified", &tcert)), "import certified");
    let tee_id = &fpr[24..];
    assert!(colons(&home, "gee@example.org").lines().any(|l| l.starts_with("sig:!:") && l.contains(tee_id)));

    // tessera's revocation certificate: gpg shows the key revoked.
    let rev = d.write("tee.rev", &sop_ok(&["revoke-key"], &d.read("tee.key")));
    gpg_ok(gpg(&home).arg("--import").arg(&rev), "import revocation");
    assert!(colons(&home, &fpr).lines().any(|l| l.starts_with("pub:r:")));

    // gpg's own revocation certificate, imported there and merged here.
    let revocs = home.join("openpgp-revocs.d");
    let file = std::fs::read_dir(&revocs).unwrap().next().unwrap().unwrap().path();
    let text = String::from_utf8(std::fs::read(file).unwrap()).unwrap().replace(":-----BEGIN", "-----BEGIN");
    gpg_ok(gpg(&home).arg("--import").arg(d.write("gee.rev", text.as_bytes())), "import gpg revocation");
    let revoked =
        d.write("gee.revoked", &gpg_ok(gpg(&home).args(["--armor", "--export", "gee@example.org"]), "e").stdout);
    let merged = sop_ok(&["merge-certs", &revoked], &d.read("gee.cert"));
    sop_ok(&["validate-userid", "Gee <gee@example.org>", &gc], &d.read("gee.cert"));
    sop_code(&["validate-userid", "Gee <gee@example.org>", &gc], &merged, 107);
    sop_code(&["encrypt", &d.write("gee.merged", &merged)], PLAIN, 17);
}

#[test]
fn gnupg_sees_the_subkey_update_key_adds() {
    let d = Dir::new();
    let Some(home) = common::gnupg::home(d.0.path()) else { return };
    key(&d, "tee", &["--profile=rfc4880", "--signing-only"]);
    let updated = d.write("tee.updated", &sop_ok(&["update-key"], &d.read("tee.key")));
    let cert = d.write("tee.cert2", &sop_ok(&["extract-cert"], &std::fs::read(updated).unwrap()));
    gpg_ok(gpg(&home).arg("--import").arg(&cert), "import");
    let listing = colons(&home, "tee@example.org");
    assert!(listing.lines().any(|l| l.starts_with("sub:") && l.split(':').nth(11) == Some("e")), "{listing}");
    let out = d.p("to-tee.pgp");
    gpg_ok(gpg(&home).args(["-r", "tee@example.org", "--encrypt", "-o", &out, &d.write("in", PLAIN)]), "encrypt");
    assert_eq!(sop_ok(&["decrypt", &d.p("tee.updated")], &std::fs::read(out).unwrap()), PLAIN);
}

// ---- Sequoia (pysequoia) ----

const SEQUOIA: &str = r#"
elif cmd == "revoked":
    print(ps.Cert.from_bytes(open(sys.argv[2], "rb").read()).is_revoked)
elif cmd == "revoke":
    t = ps.Cert.from_bytes(open(sys.argv[2], "rb").read())
    sig = t.revoke(t.secrets.certifier())
    cert = bytes(ps.Cert.from_bytes(open(sys.argv[3], "rb").read()))
    sys.stdout.write(str(ps.Cert.from_bytes(cert + bytes(sig))))
elif cmd == "encrypt":
    c = ps.Cert.from_bytes(open(sys.argv[2], "rb").read())
    sys.stdout.buffer.write(ps.encrypt(sys.stdin.buffer.read(), recipients=[c]))
"#;

fn sequoia(py: &Path, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    common::run_sequoia(py, SEQUOIA, args, stdin)
}

#[test]
fn sequoia_reads_and_makes_revocations_and_updates() {
    let Some(py) = common::pysequoia() else { return common::skip_peer("pysequoia") };
    let d = Dir::new();
    for (v, profile) in [("v6", "rfc9580"), ("v4", "rfc4880")] {
        key(&d, "tee", &[&format!("--profile={profile}"), "--signing-only"]);
        assert_eq!(sequoia(&py, &["revoked", &d.p("tee.cert")], b""), b"False\n");
        let rev = d.write("tee.rev", &sop_ok(&["revoke-key"], &d.read("tee.key")));
        assert_eq!(sequoia(&py, &["revoked", &rev], b""), b"True\n", "{v}");
        // Sequoia encrypts to the encryption subkey update-key added.
        let updated = d.write("tee.updated", &sop_ok(&["update-key"], &d.read("tee.key")));
        let uc = d.write("tee.ucert", &sop_ok(&["extract-cert"], &d.read("tee.updated")));
        let ct = sequoia(&py, &["encrypt", &uc], PLAIN);
        assert_eq!(sop_ok(&["decrypt", &updated], &ct), PLAIN, "{v}");
        // Sequoia's revocation, merged by tessera.
        sequoia(&py, &["generate", v, &d.p("seq.key"), &d.p("seq.cert")], b"");
        let seq_rev = d.write("seq.rev", &sequoia(&py, &["revoke", &d.p("seq.key"), &d.p("seq.cert")], b""));
        let merged = sop_ok(&["merge-certs", &seq_rev], &d.read("seq.cert"));
        let sc = d.p("seq.cert");
        sop_ok(&["validate-userid", "Seq <seq@example.org>", &sc], &d.read("seq.cert"));
        sop_code(&["validate-userid", "Seq <seq@example.org>", &sc], &merged, 107);
        for f in ["tee.key", "tee.cert"] {
            std::fs::remove_file(d.p(f)).unwrap();
        }
    }
}

// ---- OpenPGP.js 6 ----

fn openpgp_js() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tessera/tests/js");
    let ok = dir.join("node_modules/openpgp").is_dir()
        && Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    ok.then_some(dir)
}

fn node(dir: &Path, script: &str, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let path = dir.join(script);
    let o = common::run_with_stdin("node", &[&[path.to_str().unwrap()][..], args].concat(), stdin);
    assert!(o.status.success(), "node {script} {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn openpgp_js_reads_and_makes_revocations_and_certifications() {
    let Some(js) = openpgp_js() else { return common::skip_peer("OpenPGP.js") };
    let d = Dir::new();
    for (v, profile) in [("v6", "rfc9580"), ("v4", "rfc4880")] {
        let (tk, tc) = key(&d, "tee", &[&format!("--profile={profile}")]);
        let seen = String::from_utf8(node(&js, "certs.mjs", &["inspect"], &d.read("tee.cert"))).unwrap();
        assert!(seen.contains("\"revoked\":false"), "{v}: {seen}");
        let rev = sop_ok(&["revoke-key"], &d.read("tee.key"));
        let seen = String::from_utf8(node(&js, "certs.mjs", &["inspect"], &rev)).unwrap();
        assert!(seen.contains("\"revoked\":true"), "{v}: {seen}");

        let jk = d.write("js.key", &node(&js, "keys.mjs", &["generate", v, "Js <js@example.org>"], b""));
        let jc = d.write("js.cert", &sop_ok(&["extract-cert"], &d.read("js.key")));
        // OpenPGP.js certifies tessera's User ID, tessera OpenPGP.js's.
        let certified = node(&js, "certs.mjs", &["certify", &jk], &d.read("tee.cert"));
        sop_ok(&["validate-userid", "tee <tee@example.org>", &jc], &certified);
        let tcert = sop_ok(&["certify-userid", "--userid=Js <js@example.org>", &tk], &d.read("js.cert"));
        let seen = String::from_utf8(node(&js, "certs.mjs", &["certified-by", &tc], &tcert)).unwrap();
        assert_eq!(seen, "{\"Js <js@example.org>\":true}", "{v}");
        // OpenPGP.js's revocation, merged by tessera.
        let js_rev = d.write("js.rev", &node(&js, "certs.mjs", &["revoke", &jk], b""));
        sop_ok(&["validate-userid", "Js <js@example.org>", &jc], &d.read("js.cert"));
        let merged = sop_ok(&["merge-certs", &js_rev], &d.read("js.cert"));
        sop_code(&["validate-userid", "Js <js@example.org>", &jc], &merged, 107);
        for f in ["tee.key", "tee.cert"] {
            std::fs::remove_file(d.p(f)).unwrap();
        }
    }
}
