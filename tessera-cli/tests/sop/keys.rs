//! `tessera-sop` with keys: `generate-key`, `extract-cert`,
//! `change-key-password`, `encrypt` to CERTS (with `--sign-with`) and
//! `decrypt` with KEYS (with `--verify-with`), SOP's exit codes, and
//! messages both ways with Sequoia (`pysequoia`) and GnuPG 2.2.
//!
//! Peers are skipped when missing, unless `TESSERA_REQUIRE_PEERS` is set.

use crate::common;

use std::path::Path;
use std::process::Command;

use tessera::openpgp::key::{GenerateOptions, generate};

use common::gnupg::{GPG_PASSWORD, gpg, gpg_ok};
use common::sop::{Dir, key, sop, sop_code, sop_ok};

const PLAIN: &[u8] = b"a signed and encrypted message\n";

/// VERIFICATIONS lines: `TIME SIGNER-FPR PRIMARY-FPR mode:MODE`.
fn verifications(text: &[u8]) -> Vec<Vec<String>> {
    let text = String::from_utf8(text.to_vec()).unwrap();
    text.lines().map(|l| l.split(' ').map(String::from).collect()).collect()
}

fn check_line(line: &[String], mode: &str) {
    assert_eq!(line.len(), 4, "{line:?}");
    assert!(line[0].len() == 20 && line[0].ends_with('Z') && line[0].as_bytes()[10] == b'T', "{line:?}");
    for fpr in &line[1..3] {
        assert!(fpr.len() >= 40 && fpr.bytes().all(|c| c.is_ascii_hexdigit()), "{line:?}");
    }
    assert_eq!(line[3], format!("mode:{mode}"));
}

/// A secret key that expired: it can neither sign nor be encrypted to.
fn expired_key(d: &Dir) -> (String, String) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as u32;
    let opts = GenerateOptions {
        user_ids: vec!["Old <old@example.org>".into()],
        created: Some(now - 1000),
        expires_in: Some(10),
        ..GenerateOptions::default()
    };
    let k = generate(&opts).unwrap();
    let key = d.write("expired.key", &k.write_armored(Vec::new()).unwrap());
    let cert = d.write("expired.cert", &k.to_public().write_armored(Vec::new()).unwrap());
    (key, cert)
}

#[test]
fn generate_extract_encrypt_decrypt_round_trips() {
    let d = Dir::new();
    let listed = String::from_utf8(sop_ok(&["list-profiles", "generate-key"], b"")).unwrap();
    assert!(listed.starts_with("rfc9580: ") && listed.contains("\nrfc4880: "), "{listed}");
    for profile in ["rfc9580", "rfc4880"] {
        let p = format!("--profile={profile}");
        let (k, c) = key(&d, &format!("a{profile}"), &[&p]);
        assert!(d.read(&format!("a{profile}.key")).starts_with(b"-----BEGIN PGP PRIVATE KEY BLOCK-----"));
        assert!(d.read(&format!("a{profile}.cert")).starts_with(b"-----BEGIN PGP PUBLIC KEY BLOCK-----"));
        // Binary keys and certificates work the same.
        let kb = d.write("kb", &sop_ok(&["generate-key", "--no-armor", &p, "B <b@example.org>"], b""));
        let cb = d.write("cb", &sop_ok(&["extract-cert", "--no-armor"], &d.read("kb")));
        assert!(d.read("kb")[0] & 0x80 != 0 && d.read("cb")[0] & 0x80 != 0);
        assert_eq!(sop_ok(&["dearmor"], &sop_ok(&["armor"], &d.read("cb"))), d.read("cb"));
        for armor in [true, false] {
            let mut args = vec!["encrypt", &p, &c, &cb];
            if !armor {
                args.push("--no-armor");
            }
            let ct = sop_ok(&args, PLAIN);
            assert_eq!(ct.starts_with(b"-----BEGIN PGP MESSAGE-----"), armor);
            assert_eq!(sop_ok(&["decrypt", &k], &ct), PLAIN, "{profile}");
            assert_eq!(sop_ok(&["decrypt", &kb], &ct), PLAIN, "{profile}");
        }
    }
}

#[test]
fn locked_keys_and_change_key_password() {
    let d = Dir::new();
    let pw = d.write("pw", b"correct horse\n");
    let (pw2, wrong) = (d.write("pw2", b"battery staple"), d.write("wrong", b"nope"));
    let (k, c) = key(&d, "locked", &[&format!("--with-key-password={pw}")]);
    let ct = sop_ok(&["encrypt", &c], PLAIN);
    sop_code(&["decrypt", &k], &ct, 67);
    sop_code(&["decrypt", &format!("--with-key-password={wrong}"), &k], &ct, 67);
    // The password file's trailing newline does not matter.
    assert_eq!(sop_ok(&["decrypt", &format!("--with-key-password={pw}"), &k], &ct), PLAIN);
    // A locked key is no obstacle when a password opens the message.
    let mpw = d.write("mpw", b"message password");
    let ct2 = sop_ok(&["encrypt", &format!("--with-password={mpw}"), &c], PLAIN);
    assert_eq!(sop_ok(&["decrypt", &format!("--with-password={mpw}"), &k], &ct2), PLAIN);
    sop_code(&["decrypt", &format!("--with-password={wrong}"), &k], &ct2, 67);
    let both = [format!("--with-key-password={wrong}"), format!("--with-key-password={pw}")];
    assert_eq!(sop_ok(&["decrypt", &both[0], &both[1], &k], &ct), PLAIN);

    // Change the password, then remove it.
    let key = d.read("locked.key");
    sop_code(&["change-key-password", &format!("--new-key-password={pw2}")], &key, 67);
    let old = format!("--old-key-password={pw}");
    let changed =
        d.write("changed.key", &sop_ok(&["change-key-password", &old, &format!("--new-key-password={pw2}")], &key));
    sop_code(&["decrypt", &format!("--with-key-password={pw}"), &changed], &ct, 67);
    assert_eq!(sop_ok(&["decrypt", &format!("--with-key-password={pw2}"), &changed], &ct), PLAIN);
    let open =
        sop_ok(&["change-key-password", "--no-armor", &format!("--old-key-password={pw2}")], &d.read("changed.key"));
    assert!(open[0] & 0x80 != 0);
    let open = d.write("open.key", &open);
    assert_eq!(sop_ok(&["decrypt", &open], &ct), PLAIN);
    // The certificate is unchanged.
    assert_eq!(sop_ok(&["extract-cert"], &d.read("open.key")), d.read("locked.cert"));
    // Signing with a locked key needs its password too.
    sop_code(&["encrypt", "--sign-with", &k, &c], PLAIN, 67);
    sop_code(&["sign", &k], PLAIN, 67);
    assert!(sop(&["sign", &format!("--with-key-password={pw}"), &k], PLAIN).status.success());
}

#[test]
fn sign_encrypt_decrypt_verify_and_verifications() {
    let d = Dir::new();
    let (alice, alice_c) = key(&d, "alice", &[]);
    let (bob, bob_c) = key(&d, "bob", &["--profile=rfc4880"]);
    let (_, carol_c) = key(&d, "carol", &[]);
    for (as_, mode) in [("--as=binary", "binary"), ("--as=text", "text")] {
        let ct = sop_ok(&["encrypt", as_, "--sign-with", &alice, &bob_c, &alice_c], PLAIN);
        // Text is carried with CRLF line endings and given back with LF.
        let plain = PLAIN.to_vec();
        for (n, (k, certs)) in [(&bob, &alice_c), (&alice, &alice_c)].into_iter().enumerate() {
            let out = d.p(&format!("v{mode}{n}"));
            let args = ["decrypt", "--verify-with", certs, &format!("--verifications-out={out}"), k];
            assert_eq!(sop_ok(&args, &ct), plain);
            let lines = verifications(&std::fs::read(&out).unwrap());
            assert_eq!(lines.len(), 1, "{lines:?}");
            check_line(&lines[0], mode);
        }
        // A certificate that did not sign: success, empty VERIFICATIONS.
        let out = d.p(&format!("none{mode}"));
        assert_eq!(
            sop_ok(&["decrypt", "--verify-with", &carol_c, &format!("--verifications-out={out}"), &bob], &ct),
            plain
        );
        assert!(std::fs::read(&out).unwrap().is_empty());
        // Outside the time window: no verification either.
        let out = d.p(&format!("late{mode}"));
        let nb = "--verify-not-before=2999-01-01T00:00:00Z";
        assert_eq!(
            sop_ok(&["decrypt", nb, "--verify-with", &alice_c, &format!("--verifications-out={out}"), &bob], &ct),
            plain
        );
        assert!(std::fs::read(&out).unwrap().is_empty());
    }
    // Several signers; the VERIFICATIONS file must not exist yet.
    let ct = sop_ok(&["encrypt", "--sign-with", &alice, "--sign-with", &bob, &bob_c], PLAIN);
    let out = d.p("two");
    let args = ["decrypt", "--verify-with", &alice_c, "--verify-with", &bob_c, "--verifications-out", &out, &bob];
    assert_eq!(sop_ok(&args, &ct), PLAIN);
    assert_eq!(verifications(&d.read("two")).len(), 2);
    sop_code(&args, &ct, 59);
    // Incomplete verification instructions.
    sop_code(&["decrypt", "--verify-with", &alice_c, &bob], &ct, 23);
    sop_code(&["decrypt", &format!("--verifications-out={}", d.p("x")), &bob], &ct, 23);
}

#[test]
fn one_pass_with_keys_passwords_and_session_keys() {
    let d = Dir::new();
    let (k, c) = key(&d, "k", &[]);
    let (other, _) = key(&d, "other", &[]);
    let pw = d.write("pw", b"message password");
    let wrong = d.write("wrong", b"wrong password");
    let ct = sop_ok(&["encrypt", &format!("--with-password={pw}"), &c], PLAIN);
    let skf = d.p("sk");
    assert_eq!(sop_ok(&["decrypt", &format!("--session-key-out={skf}"), &k], &ct), PLAIN);
    let sk = String::from_utf8(d.read("sk")).unwrap();
    assert!(sk.starts_with("9:") && sk.ends_with('\n'), "{sk}");
    let bad_sk = d.write("bad_sk", b"9:00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF\n");
    let (wp, rp) = (format!("--with-password={wrong}"), format!("--with-password={pw}"));
    let (wsk, rsk) = (format!("--with-session-key={bad_sk}"), format!("--with-session-key={skf}"));
    // Every combination where one input fits, in one pass over stdin.
    for args in [
        vec!["decrypt", &wp, &rsk, &other],
        vec!["decrypt", &rp, &wsk, &other],
        vec!["decrypt", &wp, &wsk, &k],
        vec!["decrypt", &wp, &rp],
        vec!["decrypt", &rsk],
    ] {
        assert_eq!(sop_ok(&args, &ct), PLAIN, "{args:?}");
    }
    sop_code(&["decrypt", &wp, &other], &ct, 29);
    sop_code(&["decrypt", &other], &ct, 29);
}

#[test]
fn exit_codes() {
    let d = Dir::new();
    let (k, c) = key(&d, "k", &[]);
    let (expired_k, expired_c) = expired_key(&d);
    let signing_only = d.write("so.key", &sop_ok(&["generate-key", "--signing-only", "S <s@example.org>"], b""));
    let so_c = d.write("so.cert", &sop_ok(&["extract-cert"], &d.read("so.key")));
    let ct = sop_ok(&["encrypt", &c], PLAIN);
    sop_code(&["encrypt", &so_c], PLAIN, 17);
    sop_code(&["encrypt", &c, &expired_c], PLAIN, 17);
    sop_code(&["encrypt", "--sign-with", &expired_k, &c], PLAIN, 79);
    // A signing-only key signs.
    assert!(sop(&["encrypt", "--sign-with", &signing_only, &c], PLAIN).status.success());
    sop_code(&["encrypt", "--as=text", "--sign-with", &k, &c], b"\xff\xfe not text", 53);
    sop_code(&["encrypt"], PLAIN, 19);
    sop_code(&["decrypt"], &ct, 19);
    sop_code(&["encrypt", "--frobnicate", &c], PLAIN, 37);
    sop_code(&["generate-key", "--profile=rfc2440", "x"], b"", 89);
    sop_code(&["list-profiles", "armor"], b"", 89);
    sop_code(&["generate-key", "--profile=rfc4880"], b"", 19);
    sop_code(&["extract-cert"], &d.read("k.cert"), 41);
    sop_code(&["extract-cert"], b"not a key", 41);
    sop_code(&["encrypt", &k], PLAIN, 0);
    sop_code(&["decrypt", &c], &ct, 41);
    sop_code(&["encrypt", "--sign-with", &c, &c], PLAIN, 41);
    sop_code(&["encrypt", &d.p("missing.cert")], PLAIN, 61);
    sop_code(&["decrypt", &k], b"garbage", 41);
    let empty = d.write("empty", b"\n");
    sop_code(&["generate-key", &format!("--with-key-password={empty}"), "x"], b"", 31);
    sop_code(&["revoke-key"], b"", 41);
}

// ---- Sequoia ----

/// After [`common::SEQUOIA_GENERATE`]: `encsign KEY CERT ARMOR` (stdin to
/// stdout); `decverify KEY SIGNER-CERT` (stdout the data; exit 3 without a
/// good signature).
const SEQUOIA: &str = r#"
elif cmd == "encsign":
    t, c = ps.Tsk.from_file(sys.argv[2]), ps.Cert.from_file(sys.argv[3])
    data = sys.stdin.buffer.read()
    out = ps.encrypt(data, recipients=[c], signer=t.signer(), armor=sys.argv[4] == "armor")
    sys.stdout.buffer.write(out if isinstance(out, bytes) else out.encode())
else:
    t, c = ps.Tsk.from_file(sys.argv[2]), ps.Cert.from_file(sys.argv[3])
    r = ps.decrypt(sys.stdin.buffer.read(), decryptor=t.decryptor(), store=lambda ids: [c])
    sys.stdout.buffer.write(r.bytes)
    sys.exit(0 if len(r.valid_sigs) == 1 else 3)
"#;

fn sequoia(py: &Path, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    common::run_sequoia(py, SEQUOIA, args, stdin)
}

#[test]
fn sequoia_sign_encrypt_both_ways() {
    let Some(py) = common::pysequoia() else { return common::skip_peer("pysequoia") };
    let d = Dir::new();
    for (v, profile) in [("v6", "--profile=rfc9580"), ("v4", "--profile=rfc4880")] {
        let (k, c) = key(&d, &format!("t{v}"), &[profile]);
        let (sk, sc) = (d.p(&format!("sq{v}.key")), d.p(&format!("sq{v}.cert")));
        sequoia(&py, &["generate", v, &sk, &sc], b"");
        for armor in ["armor", "binary"] {
            // Sequoia signs and encrypts to tessera-sop's certificate.
            let msg = sequoia(&py, &["encsign", &sk, &c, armor], PLAIN);
            let out = d.p(&format!("sq-{v}-{armor}"));
            let args = ["decrypt", "--verify-with", &sc, &format!("--verifications-out={out}"), &k];
            assert_eq!(sop_ok(&args, &msg), PLAIN, "{v} {armor}");
            let lines = verifications(&std::fs::read(&out).unwrap());
            assert_eq!(lines.len(), 1, "{v} {armor}: {lines:?}");
            check_line(&lines[0], "binary");
            // tessera-sop signs and encrypts to Sequoia's certificate.
            let mut args = vec!["encrypt", profile, "--sign-with", &k, &sc];
            if armor == "binary" {
                args.push("--no-armor");
            }
            let msg = sop_ok(&args, PLAIN);
            assert_eq!(sequoia(&py, &["decverify", &sk, &c], &msg), PLAIN, "{v} {armor}");
        }
    }
}

// ---- GnuPG 2.2 ----

#[test]
fn gnupg_sign_encrypt_both_ways() {
    let d = Dir::new();
    let Some(home) = common::gnupg::home(d.0.path()) else { return };
    let (k, c) = key(&d, "tee", &["--profile=rfc4880"]);
    gpg_ok(gpg(&home).args(["--quick-gen-key", "Gee <gee@example.org>", "future-default", "default", "never"]), "gen");
    gpg_ok(gpg(&home).arg("--import").arg(&c), "import");
    let gc = d.write("gee.cert", &gpg_ok(gpg(&home).args(["--armor", "--export", "gee@example.org"]), "export").stdout);
    let gk = gpg_ok(gpg(&home).args(["--armor", "--export-secret-keys", "gee@example.org"]), "export secret").stdout;
    let gk = d.write("gee.key", &gk);
    let input = d.write("in", PLAIN);

    // gpg signs and encrypts to tessera-sop's certificate (binary and armored).
    for armor in [false, true] {
        let out = d.p(&format!("g{armor}.pgp"));
        let mut cmd = gpg(&home);
        if armor {
            cmd.arg("--armor");
        }
        cmd.args(["-u", "gee@example.org", "-r", "tee@example.org", "--sign", "--encrypt", "-o", &out, &input]);
        gpg_ok(&mut cmd, "gpg -se");
        let vout = d.p(&format!("gv{armor}"));
        let args = ["decrypt", "--verify-with", &gc, &format!("--verifications-out={vout}"), &k];
        assert_eq!(sop_ok(&args, &std::fs::read(&out).unwrap()), PLAIN);
        assert_eq!(verifications(&std::fs::read(&vout).unwrap()).len(), 1);
    }
    // tessera-sop decrypts with gpg's own (locked) secret key.
    let self_msg = gpg_ok(gpg(&home).args(["-r", "gee@example.org", "--encrypt", "-o", "-", &input]), "gpg -e").stdout;
    let gpw = d.write("gpw", GPG_PASSWORD.as_bytes());
    sop_code(&["decrypt", &gk], &self_msg, 67);
    assert_eq!(sop_ok(&["decrypt", &format!("--with-key-password={gpw}"), &gk], &self_msg), PLAIN);

    // tessera-sop signs and encrypts to gpg's certificate; gpg verifies.
    for armor in [&[][..], &["--no-armor"][..]] {
        let mut args = vec!["encrypt", "--profile=rfc4880", "--sign-with", &k, &gc];
        args.extend(armor);
        let msg = d.write("t.pgp", &sop_ok(&args, PLAIN));
        let o = gpg_ok(gpg(&home).args(["-o", "-", "--decrypt", &msg]), "gpg -d");
        assert_eq!(o.stdout, PLAIN);
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("Good signature"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_bad_data_not_a_panic() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    for args in [
        vec![OsStr::new("generate-key"), OsStr::from_bytes(b"\xff\xfe")],
        vec![OsStr::new("decrypt"), OsStr::from_bytes(b"bad\xffname")],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tessera-sop")).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(41), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("not valid UTF-8"));
    }
}

/// RFC 9980's profiles, named as Sequoia's and rPGP's SOP name them: keys
/// made, their certificates extracted, messages to them (SEIPD v2, and v1
/// with a v3 PKESK to the v4 key's ML-KEM subkey) decrypted, signatures made
/// and verified; a v4 profile without a User ID is refused (19).
#[test]
fn post_quantum_profiles() {
    let d = Dir::new();
    let listed = String::from_utf8(sop_ok(&["list-profiles", "generate-key"], b"")).unwrap();
    for name in ["rfc9980: ", "rfc9980-high: ", "rfc9980-v4: "] {
        assert!(listed.contains(&format!("\n{name}")), "{listed}");
    }
    sop_code(&["generate-key", "--profile=rfc9980-v4"], b"", 19);
    for (profile, encrypt) in [("rfc9980", "rfc9580"), ("rfc9980-high", "rfc9580"), ("rfc9980-v4", "rfc4880")] {
        let (k, c) = key(&d, profile, &[&format!("--profile={profile}")]);
        let ct = sop_ok(&["encrypt", &format!("--profile={encrypt}"), &c], PLAIN);
        assert_eq!(sop_ok(&["decrypt", &k], &ct), PLAIN, "{profile}");
        let sig = d.write(&format!("{profile}.sig"), &sop_ok(&["sign", &k], PLAIN));
        let verified = String::from_utf8(sop_ok(&["verify", &sig, &c], PLAIN)).unwrap();
        assert_eq!(verified.lines().count(), 1, "{profile}: {verified}");
        sop_code(&["verify", &sig, &c], b"another text", 3);
    }
}
