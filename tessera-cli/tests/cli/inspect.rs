//! `tessera inspect` through the binary: messages (password, two
//! recipients, signed), detached and cleartext signatures, v6 and v4
//! certificates, locked and unlocked secret keys (no secret octet and no
//! plaintext in the output), stdin, garbage (one line, non-zero exit), and
//! what GnuPG 2.2 makes, checked against `gpg --list-packets`.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use tessera::openpgp::key::Cert;

const T: &str = env!("CARGO_BIN_EXE_tessera");
const PLAINTEXT: &str = "a plaintext line that must never be printed\n";

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(T).args(args).current_dir(dir).stdin(Stdio::null()).output().expect("run")
}

fn ok(args: &[&str], dir: &Path) -> String {
    let o = run(args, dir);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

fn inspect(file: &str, dir: &Path) -> String {
    let out = ok(&["inspect", file], dir);
    assert!(!out.contains(PLAINTEXT.trim_end()), "{file}: the plaintext is printed:\n{out}");
    assert!(out.chars().all(|c| c == '\n' || !c.is_control()), "{file}: control characters:\n{out}");
    times_are_iso8601(&out);
    out
}

/// Every time printed after "created", "date" or "expires" is `YYYY-MM-DDTHH:MM:SSZ`.
fn times_are_iso8601(out: &str) {
    for word in ["created ", "date ", "expires "] {
        for (at, _) in out.match_indices(word) {
            let t = &out[at + word.len()..];
            if t.starts_with("none") || t.starts_with(|c: char| c.is_ascii_alphabetic()) {
                continue;
            }
            let shape = "dddd-dd-ddTdd:dd:ddZ";
            let fits = t.len() >= shape.len()
                && t.bytes().zip(shape.bytes()).all(|(c, s)| if s == b'd' { c.is_ascii_digit() } else { c == s });
            assert!(fits, "not ISO 8601 after {word:?}: {}", &t[..t.len().min(30)]);
        }
    }
}

/// The octets after the public fields of every secret key packet in
/// `file`: the secret material (in the clear or encrypted).
fn secret_octets(file: &Path) -> Vec<Vec<u8>> {
    let cert = Cert::from_bytes(&std::fs::read(file).unwrap()).unwrap();
    cert.keys()
        .filter_map(|k| k.secret())
        .map(|sk| {
            let mut body = Vec::new();
            sk.write(&mut body);
            body[sk.public().body().len() + 1..].to_vec()
        })
        .collect()
}

fn no_secret_in(out: &str, key: &Path) {
    for s in secret_octets(key) {
        let tail = &s[s.len() - 16..];
        for hex in [hex::encode(tail), hex::encode_upper(tail)] {
            assert!(!out.contains(&hex), "secret octets of {} printed", key.display());
        }
    }
}

fn setup(d: &Path) {
    ok(
        &[
            "key",
            "generate",
            "--no-password",
            "--profile",
            "rfc9580",
            "--userid",
            "Alice <a@example.org>",
            "-o",
            "a.key",
        ],
        d,
    );
    ok(&["key", "cert", "a.key", "-o", "a.cert"], d);
    std::fs::write(d.join("kpw"), "key password\n").unwrap();
    let v4 = ["key", "generate", "--profile", "rfc4880", "--userid", "Bob <b@example.org>"];
    ok(&[&v4[..], &["--password-file", "kpw", "-o", "b.key"]].concat(), d);
    ok(&["key", "cert", "b.key", "-o", "b.cert"], d);
    std::fs::write(d.join("data"), PLAINTEXT).unwrap();
    std::fs::write(d.join("pw"), "password\n").unwrap();
}

#[test]
fn messages_and_signatures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    setup(d);
    ok(&["encrypt", "--password-file", "pw", "-o", "pw.pgp", "data"], d);
    let out = inspect("pw.pgp", d);
    assert!(out.contains("Symmetric-Key Encrypted Session Key (tag 3)"), "{out}");
    assert!(out.contains("S2K Argon2id, t=") && out.contains("chunk size 262144 octets"), "{out}");
    assert!(out.contains("Encrypted message: 1 password(s), 0 recipient(s)"), "{out}");

    ok(&["encrypt", "-r", "a.cert", "-r", "b.cert", "-a", "-o", "pk.asc", "data"], d);
    let out = inspect("pk.asc", d);
    assert!(out.starts_with("pk.asc: armored (MESSAGE)") && out.contains("2 recipient(s)"), "{out}");
    for cert in ["a.cert", "b.cert"] {
        let c = Cert::from_bytes(&std::fs::read(d.join(cert)).unwrap()).unwrap();
        let sub = c.subkeys[0].key.public().fingerprint();
        let named =
            out.contains(&format!("to key ID {}", sub.key_id())) || out.contains(&format!("to fingerprint {sub}"));
        assert!(named, "{cert}'s subkey is not named:\n{out}");
    }

    let v: serde_json::Value = serde_json::from_str(&ok(&["inspect", "--json", "pk.asc"], d)).unwrap();
    assert_eq!(v["summary"]["kind"], "encrypted message");
    assert_eq!(v["summary"]["recipients"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["packets"][0]["name"], "Public-Key Encrypted Session Key");

    ok(&["sign", "-i", "a.key", "-o", "signed", "data"], d);
    let out = inspect("signed", d);
    assert!(out.contains("One-Pass Signature (tag 4)") && out.contains("Literal Data (tag 11)"), "{out}");
    assert!(out.contains(&format!("{} octets of data (not shown)", PLAINTEXT.len())), "{out}");
    assert!(out.contains("Signed message, signed by fingerprint"), "{out}");
    ok(&["sign", "-i", "b.key", "--key-password-file", "kpw", "-b", "-o", "d.sig", "data"], d);
    assert!(inspect("d.sig", d).contains("Detached signature(s) by "));
    ok(&["sign", "-i", "a.key", "--cleartext", "-o", "clear.asc", "data"], d);
    // The cleartext text is the document itself: only the signature is inspected.
    let out = ok(&["inspect", "clear.asc"], d);
    assert!(
        out.contains("Cleartext signed text: 2 lines") && out.contains("Cleartext signed text, signed by"),
        "{out}"
    );
    assert!(!out.contains(PLAINTEXT.trim_end()), "{out}");
}

#[test]
fn certificates_and_secret_keys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    setup(d);
    let a = Cert::from_bytes(&std::fs::read(d.join("a.cert")).unwrap()).unwrap();
    let out = inspect("a.cert", d);
    assert!(out.contains(&format!("OpenPGP certificate {}", a.fingerprint())), "{out}");
    assert!(out.contains("version 6, Ed25519") && out.contains("user ID \"Alice <a@example.org>\""), "{out}");
    assert!(out.contains("encrypt communications, encrypt storage"), "{out}");
    let out = inspect("b.cert", d);
    assert!(out.contains("version 4, EdDSALegacy Ed25519Legacy") && out.contains("ECDH Curve25519Legacy"), "{out}");

    let out = inspect("a.key", d);
    assert!(out.contains("secret fields: not protected by a password (not shown)"), "{out}");
    assert!(out.contains(&format!("secret key {}", a.fingerprint())), "{out}");
    no_secret_in(&out, &d.join("a.key"));
    let out = inspect("b.key", d);
    assert!(out.contains("secret fields: locked (S2K usage 25"), "{out}");
    no_secret_in(&out, &d.join("b.key"));
    for key in ["a.key", "b.key"] {
        let json = ok(&["inspect", "--json", key], d);
        no_secret_in(&json, &d.join(key));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["summary"]["kind"], "secret keys");
        assert_eq!(v["packets"][0]["secret"]["locked"], key == "b.key");
        assert!(v["packets"][0]["created"].as_str().is_some_and(|t| t.ends_with('Z')), "{json}");
    }

    // `-` is stdin.
    let cert = std::fs::read(d.join("a.cert")).unwrap();
    let o = common::run_with_stdin(T, &["inspect", "-"], &cert);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).starts_with("stdin: armored (PUBLIC KEY BLOCK)"));
}

#[test]
fn garbage_and_damage_fail_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("text"), "just some text\n").unwrap();
    std::fs::write(d.join("bin"), [0x00, 0x01, 0x02]).unwrap();
    std::fs::write(d.join("empty"), b"").unwrap();
    std::fs::write(d.join("cut"), [0xc6, 0x2a, 0x06]).unwrap();
    for f in ["text", "bin", "empty", "cut", "missing"] {
        let o = run(&["inspect", f], d);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.lines().count() == 1 && err.starts_with("tessera: error: "), "{f}: {err}");
        assert!(o.stdout.is_empty(), "{f}");
    }
}

#[test]
fn hostile_text_cannot_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let uid = "Mallory \u{1b}[2J\u{1b}]0;title\u{7}\u{202e} <m@example.org>";
    ok(&["key", "generate", "--no-password", "--userid", uid, "-o", "m.key"], d);
    let out = inspect("m.key", d);
    assert!(out.contains("user ID \"Mallory \\u{1b}[2J\\u{1b}]0;title\\u{7}\\u{202e} <m@example.org>\""), "{out}");
    // An armor header line with an escape sequence in its kind: a marker packet.
    let armored = "-----BEGIN PGP \u{1b}[31mX-----\n\nygNQR1A=\n-----END PGP \u{1b}[31mX-----\n";
    std::fs::write(d.join("kind.asc"), armored).unwrap();
    assert!(inspect("kind.asc", d).starts_with("kind.asc: armored (\\u{1b}[31mX)"));
}

fn gpg(home: &Path) -> Command {
    let mut c = Command::new("gpg");
    c.arg("--homedir").arg(home).args(["--batch", "--yes", "--quiet", "--pinentry-mode", "loopback"]);
    c.args(["--passphrase", "", "--trust-model", "always"]);
    c
}

fn gpg_ok(c: &mut Command) -> String {
    let o = c.output().expect("gpg");
    assert!(o.status.success(), "{c:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The key IDs and public-key algorithm ids `gpg --list-packets` names,
/// up to the encrypted data (GnuPG, holding the key, lists what it
/// decrypts; inspection never decrypts).
fn gpg_listing(home: &Path, file: &Path) -> (Vec<String>, Vec<u8>) {
    // Its exit status says whether it could decrypt, which is not asked here.
    let all = gpg(home).arg("--list-packets").arg(file).output().expect("gpg").stdout;
    let all = String::from_utf8_lossy(&all);
    let text = all.split("encrypted data packet:").next().unwrap();
    let after = |word: &str| -> Vec<String> {
        text.match_indices(word)
            .map(|(at, _)| text[at + word.len()..].split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap().into())
            .collect()
    };
    let ids = after("keyid ").into_iter().chain(after("keyid: ")).collect();
    let algs =
        [after("algo "), after("algo: "), after("pubkey ")].concat().iter().filter_map(|a| a.parse().ok()).collect();
    (ids, algs)
}

fn alg_name(id: u8) -> &'static str {
    match id {
        1 => "RSA",
        18 => "ECDH",
        19 => "ECDSA",
        22 => "EdDSALegacy",
        _ => "(an algorithm this test does not map)",
    }
}

#[test]
fn gnupg_packets_agree_with_gpg_list_packets() {
    if !Command::new("gpg").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return common::skip_peer("gpg");
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let home = d.join("gnupg");
    std::fs::create_dir(&home).unwrap();
    std::fs::set_permissions(&home, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    gpg_ok(gpg(&home).args(["--quick-gen-key", "G <g@example.org>", "default", "default", "never"]));
    std::fs::write(d.join("data"), PLAINTEXT).unwrap();
    let data = d.join("data");
    let made: [(&str, Vec<&str>); 7] = [
        ("g.cert", vec!["--armor", "--export"]),
        ("g.key", vec!["--export-secret-keys"]),
        ("g.enc", vec!["--recipient", "g@example.org", "--sign", "--encrypt"]),
        ("g.sig", vec!["--sign"]),
        ("g.det", vec!["--detach-sign"]),
        ("g.clear", vec!["--clearsign"]),
        ("g.pw", vec!["--symmetric", "--passphrase", "pw"]),
    ];
    for (name, args) in &made {
        let mut c = gpg(&home);
        c.args(args).arg("-o").arg(d.join(name));
        if !args.contains(&"--export") && !args.contains(&"--export-secret-keys") {
            c.arg(&data);
        } else {
            c.arg("g@example.org");
        }
        gpg_ok(&mut c);
    }
    for (name, _) in &made {
        let out = inspect(name, d);
        // GnuPG lists no packet of a cleartext-signed text: its signature
        // block is listed alone.
        let listed = if *name == "g.clear" {
            let text = std::fs::read_to_string(d.join(name)).unwrap();
            let at = text.find("-----BEGIN PGP SIGNATURE-----").expect("a signature block");
            std::fs::write(d.join("g.clear.sig"), &text[at..]).unwrap();
            "g.clear.sig"
        } else {
            name
        };
        let (ids, algs) = gpg_listing(&home, &d.join(listed));
        assert!(!ids.is_empty() || *name == "g.pw", "{name}: no key ID in the gpg listing");
        for id in ids.iter().filter(|id| id.len() == 16) {
            assert!(out.contains(&id.to_uppercase()), "{name}: key ID {id} of gpg --list-packets is missing:\n{out}");
        }
        for alg in algs.iter().filter(|&&a| alg_name(a).len() < 12) {
            assert!(out.contains(alg_name(*alg)), "{name}: algorithm {alg} is missing:\n{out}");
        }
    }
    assert!(inspect("g.key", d).contains("secret key "));
    no_secret_in(&inspect("g.key", d), &d.join("g.key"));
    assert!(inspect("g.sig", d).contains("Compressed Data (tag 8)"));
    assert!(inspect("g.clear", d).contains("Cleartext signed text, signed by"));
    let pw = inspect("g.pw", d);
    assert!(pw.contains("version 4, aes") && pw.contains("S2K iterated and salted"), "{pw}");
}
