//! The key `tessera key generate` makes by default, used by GnuPG 2.2 as
//! it is: a v4 key (the `rfc4880` profile, as Sequoia's `sq key generate`)
//! valid for three years, which `gpg --import` takes without extra flags;
//! gpg encrypts to it and tessera decrypts, tessera encrypts to it and gpg
//! decrypts, and each verifies the other's signatures. The key still
//! announces SEIPD v2, so tessera's own messages to it keep AEAD. A v6 key
//! is one flag away (`--profile rfc9580`), and Sequoia reads it.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use tessera::openpgp::key::{Cert, KEY_UNLOCK_LIMITS, features};
use tessera::openpgp::{DecryptOptions, Decryptor, SeipdVersion};

const T: &str = env!("CARGO_BIN_EXE_tessera");
const PASSWORD: &str = "default key password";
const PLAIN: &[u8] = b"between tessera and GnuPG\n";
const THREE_YEARS: u64 = 1095 * 86_400;

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(T).args(args).current_dir(dir).stdin(Stdio::null()).output().unwrap()
}

fn ok(dir: &Path, args: &[&str]) -> Vec<u8> {
    let o = run(dir, args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

/// A default key `NAME.key` (locked with PASSWORD from `kpw`) and its
/// certificate `NAME.cert`, plus any `extra` flags to `key generate`.
fn generate(dir: &Path, name: &str, extra: &[&str]) -> Cert {
    common::write_private(&dir.join("kpw"), PASSWORD);
    let (uid, key, cert) = (format!("{name} <{name}@example.org>"), format!("{name}.key"), format!("{name}.cert"));
    let mut args = vec!["key", "generate", "--userid", &uid, "--password-file", "kpw", "-o", &key];
    args.extend(extra);
    ok(dir, &args);
    ok(dir, &["key", "cert", &key, "-o", &cert]);
    Cert::from_bytes(&std::fs::read(dir.join(&cert)).unwrap()).unwrap()
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

#[test]
fn default_key_is_v4_for_three_years_and_announces_seipd_v2() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let cert = generate(dir, "tess", &[]);
    assert_eq!(cert.primary.public().version().id(), 4);
    let valid = cert.validate(now()).unwrap();
    let created = u64::from(cert.primary.public().created());
    assert_eq!(valid.primary.expires, Some(created + THREE_YEARS));
    assert!(valid.subkeys.iter().all(|k| k.expires == Some(created + THREE_YEARS)));
    assert_eq!(valid.features() & features::SEIPD_V2, features::SEIPD_V2);
    assert!(valid.self_sig.preferred_aead().is_some_and(|p| !p.is_empty()));

    // `key show` names algorithm, curve and size, creation and expiry in ISO 8601 UTC.
    let shown = String::from_utf8(ok(dir, &["key", "show", "tess.cert"])).unwrap();
    assert!(shown.contains(" v4 EdDsaLegacy (Ed25519Legacy, 255 bits) created "), "{shown}");
    assert!(shown.contains(" v4 Ecdh (Curve25519Legacy, 255 bits) created "), "{shown}");
    assert_eq!(shown.matches(", expires ").count(), 2, "{shown}");

    // tessera's own messages to it are SEIPD v2 (AEAD); --profile rfc4880 gives v1.
    std::fs::write(dir.join("in"), PLAIN).unwrap();
    let mut key = Cert::from_bytes(&std::fs::read(dir.join("tess.key")).unwrap()).unwrap();
    key.unlock(PASSWORD.as_bytes(), &KEY_UNLOCK_LIMITS).unwrap();
    for (extra, version) in [(&[][..], SeipdVersion::V2), (&["--profile", "rfc4880"][..], SeipdVersion::V1)] {
        let mut args = vec!["encrypt", "-r", "tess.cert"];
        args.extend(extra);
        args.push("in");
        let msg = ok(dir, &args);
        let opts = DecryptOptions { keys: vec![key.clone()], ..DecryptOptions::default() };
        let mut dec = Decryptor::with_options(&msg[..], &[], &opts).unwrap();
        assert_eq!(dec.seipd_version(), version, "{extra:?}");
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut dec, &mut plain).unwrap();
        assert_eq!(plain, PLAIN);
    }

    // Never, and a number of days, when asked.
    let never = generate(dir, "never", &["--expires", "never"]);
    assert_eq!(never.validate(now()).unwrap().primary.expires, None);
    let short = generate(dir, "short", &["--expires", "30"]);
    let created = u64::from(short.primary.public().created());
    assert_eq!(short.validate(now()).unwrap().primary.expires, Some(created + 30 * 86_400));
    let o = run(dir, &["key", "generate", "--userid", "x <x@example.org>", "--no-password", "--expires", "0"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("never"));
}

/// gpg with its own home, in batch mode, with the key password for loopback
/// pinentry (what a script driving gpg gives; no flag about the key itself).
fn gpg(home: &Path) -> Command {
    let mut c = Command::new("gpg");
    c.arg("--homedir").arg(home);
    c.args(["--batch", "--no-tty", "--pinentry-mode", "loopback", "--trust-model", "always"]);
    c.args(["--passphrase", PASSWORD]);
    c
}

fn gpg_ok(dir: &Path, cmd: &mut Command, what: &str) -> Vec<u8> {
    let o = cmd.current_dir(dir).stdin(Stdio::null()).output().unwrap();
    assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn gnupg_imports_and_uses_the_default_key_both_ways() {
    if !Command::new("gpg").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return common::skip_peer("gpg");
    }
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let home = dir.join("gnupg");
    std::fs::create_dir(&home).unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(&home, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let cert = generate(dir, "tess", &[]);
    let fp = cert.fingerprint().to_hex();
    std::fs::write(dir.join("in"), PLAIN).unwrap();

    gpg_ok(dir, gpg(&home).args(["--import", "tess.cert"]), "gpg --import cert");
    gpg_ok(dir, gpg(&home).args(["--import", "tess.key"]), "gpg --import key");
    // GnuPG sees the three years too (creation and expiry, fields 6 and 7).
    let listed =
        String::from_utf8(gpg_ok(dir, gpg(&home).args(["--with-colons", "--list-keys", &fp]), "list")).unwrap();
    let pub_line: Vec<&str> = listed.lines().find(|l| l.starts_with("pub:")).unwrap().split(':').collect();
    let (created, expires): (u64, u64) = (pub_line[5].parse().unwrap(), pub_line[6].parse().unwrap());
    assert_eq!(expires - created, THREE_YEARS, "{listed}");
    assert!(listed.lines().any(|l| l.starts_with("sub:") && l.contains(":e:")), "{listed}");

    // gpg encrypts to the key; tessera decrypts.
    gpg_ok(dir, gpg(&home).args(["-r", &fp, "-e", "-o", "g.pgp", "in"]), "gpg -e");
    assert_eq!(ok(dir, &["decrypt", "-i", "tess.key", "--key-password-file", "kpw", "g.pgp"]), PLAIN);
    // tessera encrypts to the certificate for GnuPG 2.2; gpg decrypts.
    ok(dir, &["encrypt", "-r", "tess.cert", "--profile", "rfc4880", "-o", "t.pgp", "in"]);
    assert_eq!(gpg_ok(dir, gpg(&home).args(["-d", "t.pgp"]), "gpg -d"), PLAIN);

    // gpg verifies tessera's signature, and tessera gpg's made with the same key.
    ok(dir, &["sign", "-i", "tess.key", "--key-password-file", "kpw", "-b", "-o", "t.sig", "in"]);
    gpg_ok(dir, gpg(&home).args(["--verify", "t.sig", "in"]), "gpg --verify");
    gpg_ok(dir, gpg(&home).args(["-u", &fp, "-b", "-o", "g.sig", "in"]), "gpg -b");
    ok(dir, &["verify", "--signer", "tess.cert", "--signature", "g.sig", "in"]);
}

#[test]
fn the_rfc9580_profile_gives_a_v6_key_sequoia_reads() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let cert = generate(dir, "six", &["--profile", "rfc9580"]);
    assert_eq!(cert.primary.public().version().id(), 6);
    let shown = String::from_utf8(ok(dir, &["key", "show", "six.cert"])).unwrap();
    assert!(shown.contains(" v6 Ed25519 (255 bits) created ") && shown.contains(" v6 X25519 (255 bits)"), "{shown}");
    let Some(py) = common::pysequoia() else { return common::skip_peer("pysequoia") };
    let script = format!("{}{}", common::SEQUOIA_GENERATE, common::SEQUOIA_ENCRYPT_DECRYPT);
    std::fs::write(dir.join("in"), PLAIN).unwrap();
    // Sequoia encrypts to the v6 certificate; tessera decrypts.
    let cert_path = dir.join("six.cert");
    let o =
        common::run_with_stdin(py.to_str().unwrap(), &["-c", &script, "encrypt", cert_path.to_str().unwrap()], PLAIN);
    assert!(o.status.success(), "sq encrypt: {}", String::from_utf8_lossy(&o.stderr));
    std::fs::write(dir.join("s.pgp"), &o.stdout).unwrap();
    assert_eq!(ok(dir, &["decrypt", "-i", "six.key", "--key-password-file", "kpw", "s.pgp"]), PLAIN);
    // tessera encrypts to it; Sequoia decrypts with the locked v6 secret key.
    let msg = ok(dir, &["encrypt", "-r", "six.cert", "in"]);
    let key = dir.join("six.key");
    let o = common::run_with_stdin(
        py.to_str().unwrap(),
        &["-c", &script, "decrypt", key.to_str().unwrap(), PASSWORD],
        &msg,
    );
    assert!(o.status.success(), "sq decrypt: {}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.stdout, PLAIN);
}
