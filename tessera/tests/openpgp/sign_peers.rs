//! Signatures across implementations, both ways: tessera signs (detached,
//! inline, cleartext) and GnuPG 2.2 (v4 keys), Sequoia (`pysequoia`) and
//! OpenPGP.js 6 verify; they sign with the same key and tessera verifies.
//!
//! Peers are skipped when missing, unless `TESSERA_REQUIRE_PEERS` is set.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::key::{Cert, GenerateOptions, KeyProfile, generate};
use tessera::openpgp::sig::{
    ClearSigner, InlineSigner, InlineVerifier, SigResult, SigType, Signer, SigningKey, Verifier, read_cleartext,
    read_signatures, write_signatures,
};

const TEXT: &[u8] = b"Signed across implementations.\n- a dashed line\n\nlast line";

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

fn skip(what: &str) {
    assert!(std::env::var_os("TESSERA_REQUIRE_PEERS").is_none(), "TESSERA_REQUIRE_PEERS is set but {what} is missing");
    eprintln!("skipped: {what} not installed");
}

fn ok(out: std::io::Result<Output>, what: &str) -> Vec<u8> {
    let o = out.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

fn key(profile: KeyProfile) -> (Cert, Vec<u8>, Vec<u8>) {
    let opts =
        GenerateOptions { profile, user_ids: vec!["Peer Signer <peer@example.org>".into()], ..Default::default() };
    let k = generate(&opts).unwrap();
    let (mut sk, mut pk) = (Vec::new(), Vec::new());
    k.write_armored(&mut sk).unwrap();
    k.to_public().write_armored(&mut pk).unwrap();
    (k, sk, pk)
}

/// tessera's three signed forms of `data`: detached, inline, cleartext (all armored).
fn tessera_sign(k: &Cert, data: &[u8], ty: SigType) -> [Vec<u8>; 3] {
    tessera_sign_with(k, data, ty, None)
}

/// As [`tessera_sign`], with `hash` if given.
fn tessera_sign_with(k: &Cert, data: &[u8], ty: SigType, hash: Option<HashAlg>) -> [Vec<u8>; 3] {
    let keys = SigningKey::for_message(k, now(), &[], hash).unwrap();
    let at = now() as u32;
    let mut s = Signer::new(&keys, ty, at).unwrap();
    s.write_all(data).unwrap();
    let detached = write_signatures(Vec::new(), &s.finish().unwrap(), true).unwrap();
    let inline_signer = Signer::new(&keys, ty, at).unwrap();
    let armor = ArmorWriter::new(Vec::new(), MESSAGE, inline_signer.armor_crc()).unwrap();
    let mut w = InlineSigner::new(armor, inline_signer).unwrap();
    w.write_all(data).unwrap();
    let inline = w.finish().unwrap().finish().unwrap();
    let mut c = ClearSigner::new(Vec::new(), Signer::new(&keys, SigType::Text, at).unwrap()).unwrap();
    c.write_all(data).unwrap();
    [detached, inline, c.finish().unwrap()]
}

fn good(r: &[SigResult], what: &str) {
    assert!(!r.is_empty() && r.iter().all(SigResult::is_good), "{what}: {r:?}");
}

fn tessera_verify_detached(cert: &Cert, data: &[u8], sig: &[u8], what: &str) {
    let certs = [cert.to_public()];
    let mut v = Verifier::new(read_signatures(sig).unwrap(), &certs, now());
    v.write_all(data).unwrap();
    good(&v.finish(), what);
}

fn tessera_verify_inline(cert: &Cert, msg: &[u8], what: &str) -> Vec<u8> {
    let certs = [cert.to_public()];
    let mut out = Vec::new();
    let r = InlineVerifier::new(msg, &certs, now()).unwrap().verify_to(&mut out).unwrap();
    good(&r, what);
    out
}

fn tessera_verify_clear(cert: &Cert, msg: &[u8], what: &str) -> Vec<u8> {
    let certs = [cert.to_public()];
    let mut out = Vec::new();
    good(&read_cleartext(msg, &mut out, &certs, now()).unwrap(), what);
    out
}

/// tessera signs with `k` and encrypts to it, in one pass.
fn tessera_encrypt_signed(k: &Cert, data: &[u8], profile: tessera::openpgp::Profile) -> Vec<u8> {
    use tessera::openpgp::{EncryptOptions, SigningEncryptor};
    let keys = SigningKey::from_cert(k, now()).unwrap();
    let opts = EncryptOptions { profile, armor: true, recipients: vec![k.to_public()], ..Default::default() };
    let mut e =
        SigningEncryptor::new(Vec::new(), &[], &opts, Signer::new(&keys, SigType::Binary, now() as u32).unwrap())
            .unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// tessera decrypts with `k` and requires a good signature by it.
fn tessera_decrypt_verified(k: &Cert, msg: &[u8], what: &str) -> Vec<u8> {
    use std::io::Read;
    use tessera::openpgp::{DecryptOptions, VerifyingDecryptor};
    let certs = [k.to_public()];
    let opts = DecryptOptions { keys: vec![k.clone()], ..Default::default() };
    let mut d = VerifyingDecryptor::new(msg, &[], &opts, &certs, now()).unwrap();
    let mut out = Vec::new();
    d.read_to_end(&mut out).unwrap();
    good(&d.finish().unwrap_or_else(|e| panic!("{what}: {e}")).results, what);
    out
}

fn gpg(home: &Path) -> Command {
    let mut c = Command::new("gpg");
    c.arg("--homedir").arg(home).args([
        "--batch",
        "--yes",
        "--quiet",
        "--pinentry-mode",
        "loopback",
        "--trust-model",
        "always",
    ]);
    c
}

#[test]
fn gnupg_verifies_tessera_and_tessera_verifies_gnupg() {
    if !Command::new("gpg").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return skip("gpg");
    }
    let tmp = tempfile::tempdir().unwrap();
    let p = |name: &str| tmp.path().join(name);
    // The directory itself (mode 0700) is GnuPG's home.
    let home = tmp.path().to_path_buf();
    let (k, sk, _) = key(KeyProfile::Rfc4880);
    std::fs::write(p("k.asc"), &sk).unwrap();
    ok(gpg(&home).arg("--import").arg(p("k.asc")).output(), "gpg --import");
    std::fs::write(p("data"), TEXT).unwrap();
    for ty in [SigType::Binary, SigType::Text] {
        let [det, inl, clear] = tessera_sign(&k, TEXT, ty);
        std::fs::write(p("d.sig"), det).unwrap();
        ok(gpg(&home).arg("--verify").arg(p("d.sig")).arg(p("data")).output(), "gpg verifies detached");
        for (name, m) in [("inline", inl), ("clear", clear)] {
            std::fs::write(p(name), m).unwrap();
            let out = ok(gpg(&home).args(["-o", "-", "--decrypt"]).arg(p(name)).output(), name);
            let want: &[u8] =
                if name == "clear" { b"Signed across implementations.\n- a dashed line\n\nlast line\n" } else { TEXT };
            assert_eq!(out, want, "gpg output of {name} {ty:?}");
        }
    }
    // Every SHA2 hash `--hash` offers (GnuPG 2.2 has no SHA3).
    for hash in [HashAlg::Sha256, HashAlg::Sha384, HashAlg::Sha512] {
        let [det, ..] = tessera_sign_with(&k, TEXT, SigType::Binary, Some(hash));
        assert_eq!(read_signatures(det.as_slice()).unwrap()[0].hash_alg(), hash);
        std::fs::write(p("h.sig"), det).unwrap();
        ok(gpg(&home).arg("--verify").arg(p("h.sig")).arg(p("data")).output(), hash.name());
    }
    let fp = k.fingerprint().to_hex();
    let signed = |args: &[&str], out: &str| {
        ok(gpg(&home).args(["-u", &fp, "-o"]).arg(p(out)).args(args).arg(p("data")).output(), out);
        std::fs::read(p(out)).unwrap()
    };
    tessera_verify_detached(&k, TEXT, &signed(&["--detach-sign"], "g.sig"), "gpg detached");
    tessera_verify_detached(&k, TEXT, &signed(&["--armor", "--textmode", "--detach-sign"], "g.asc"), "gpg text");
    assert_eq!(tessera_verify_inline(&k, &signed(&["--sign"], "g.gpg"), "gpg inline (compressed)"), TEXT);
    assert_eq!(
        tessera_verify_inline(&k, &signed(&["--compress-algo", "none", "--sign"], "g2.gpg"), "gpg inline"),
        TEXT
    );
    assert_eq!(tessera_verify_clear(&k, &signed(&["--clearsign"], "g.txt"), "gpg cleartext"), TEXT);
    // Sign and encrypt, both ways.
    let gpg_msg = signed(&["-r", &fp, "--sign", "--encrypt"], "g.se");
    assert_eq!(tessera_decrypt_verified(&k, &gpg_msg, "gpg sign+encrypt"), TEXT);
    std::fs::write(p("t.se"), tessera_encrypt_signed(&k, TEXT, tessera::openpgp::Profile::Rfc4880)).unwrap();
    let o = gpg(&home).args(["-o", "-", "--decrypt"]).arg(p("t.se")).output().unwrap();
    assert!(o.status.success() && o.stdout == TEXT, "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Good signature"), "{}", String::from_utf8_lossy(&o.stderr));
}

const SEQUOIA: &str = r#"
import sys, json, base64, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
req = json.load(sys.stdin)
b = lambda s: base64.b64decode(s)
e = lambda s: base64.b64encode(s).decode()
if req["op"] == "generate":
    tsk = ps.Tsk.generate("Sequoia <sq@example.org>", profile=getattr(ps.Profile, req["profile"]),
        cipher_suite=getattr(ps.CipherSuite, req["suite"]),
        encryption_algorithm=getattr(ps.EncryptionAlgorithm, req["encryption"]))
    out = {"key": e(str(tsk).encode())}
elif req["op"] == "encsign":
    tsk = ps.Tsk.from_bytes(b(req["key"]))
    out = {"msg": e(ps.encrypt(b(req["data"]), recipients=[tsk.extract_certificate()], signer=tsk.signer()))}
elif req["op"] == "decverify":
    tsk = ps.Tsk.from_bytes(b(req["key"]))
    r = ps.decrypt(b(req["msg"]), decryptor=tsk.decryptor(), store=lambda ids: [tsk.extract_certificate()])
    out = {"valid": len(r.valid_sigs), "data": e(r.bytes)}
elif req["op"] == "sign":
    signer = ps.Tsk.from_bytes(b(req["key"])).signer()
    data = b(req["data"])
    out = {m: e(ps.sign(signer, data, mode=getattr(ps.SignatureMode, m.upper()))) for m in ["detached", "inline", "clear"]}
else:
    cert = ps.Cert.from_bytes(b(req["cert"]))
    store = lambda ids: [cert]
    data = b(req["data"])
    out = {}
    r = ps.verify(bytes=data, store=store, signature=ps.Sig.from_bytes(b(req["detached"])))
    out["detached"] = len(r.valid_sigs)
    r = ps.verify(bytes=b(req["inline"]), store=store)
    out["inline"] = len(r.valid_sigs); out["inlineData"] = e(r.bytes)
    r = ps.verify(bytes=b(req["clear"]), store=store)
    out["clear"] = len(r.valid_sigs); out["clearText"] = e(r.bytes)
print(json.dumps(out))
"#;

fn sequoia(py: &Path, req: serde_json::Value) -> serde_json::Value {
    common::run_python(py, SEQUOIA, &req)
}

fn field(v: &serde_json::Value, name: &str) -> Vec<u8> {
    B64.decode(v[name].as_str().unwrap_or_else(|| panic!("{name} in {v}"))).unwrap()
}

/// One key on both sides (`k` for tessera; `sk`, `pk` armored for Sequoia):
/// each signs in three forms and signs-and-encrypts, the other verifies and
/// decrypts.
fn exchange_with_sequoia(py: &Path, k: &Cert, sk: &[u8], pk: &[u8], what: &str) {
    let [det, inl, clear] = tessera_sign(k, TEXT, SigType::Binary);
    let v = sequoia(
        py,
        serde_json::json!({"op": "verify", "cert": B64.encode(pk), "data": B64.encode(TEXT),
            "detached": B64.encode(&det), "inline": B64.encode(&inl), "clear": B64.encode(&clear)}),
    );
    assert_eq!(
        (v["detached"].as_u64(), v["inline"].as_u64(), v["clear"].as_u64()),
        (Some(1), Some(1), Some(1)),
        "{what}: {v}"
    );
    assert_eq!(field(&v, "inlineData"), TEXT);
    let s = sequoia(py, serde_json::json!({"op": "sign", "key": B64.encode(sk), "data": B64.encode(TEXT)}));
    tessera_verify_detached(k, TEXT, &field(&s, "detached"), what);
    assert_eq!(tessera_verify_inline(k, &field(&s, "inline"), what), TEXT);
    let text = tessera_verify_clear(k, &field(&s, "clear"), what);
    assert!(text.starts_with(b"Signed across implementations.\n- a dashed line\n\nlast line"), "{text:?}");
    // Every hash `--hash` offers, in the three forms.
    for hash in HashAlg::SIGNING {
        let [det, inl, clear] = tessera_sign_with(k, TEXT, SigType::Binary, Some(hash));
        assert_eq!(read_signatures(det.as_slice()).unwrap()[0].hash_alg(), hash);
        let v = sequoia(
            py,
            serde_json::json!({"op": "verify", "cert": B64.encode(pk), "data": B64.encode(TEXT),
                "detached": B64.encode(&det), "inline": B64.encode(&inl), "clear": B64.encode(&clear)}),
        );
        let counts = (v["detached"].as_u64(), v["inline"].as_u64(), v["clear"].as_u64());
        assert_eq!(counts, (Some(1), Some(1), Some(1)), "{what} {hash:?}: {v}");
    }
    // Sign and encrypt, both ways.
    let v4 = k.version() == tessera::openpgp::key::KeyVersion::V4;
    let p = if v4 { tessera::openpgp::Profile::Rfc4880 } else { tessera::openpgp::Profile::Rfc9580 };
    let msg = tessera_encrypt_signed(k, TEXT, p);
    let r =
        sequoia(py, serde_json::json!({"op": "decverify", "key": B64.encode(sk), "msg": B64.encode(&msg), "data": ""}));
    assert_eq!((r["valid"].as_u64(), field(&r, "data")), (Some(1), TEXT.to_vec()), "{what}: {r}");
    let r = sequoia(py, serde_json::json!({"op": "encsign", "key": B64.encode(sk), "data": B64.encode(TEXT)}));
    assert_eq!(tessera_decrypt_verified(k, &field(&r, "msg"), what), TEXT);
}

#[test]
fn sequoia_verifies_tessera_and_tessera_verifies_sequoia() {
    let Some(py) = common::peer_python("pysequoia") else { return };
    // RFC 9980's profiles too: composite ML-DSA signatures (v6), and a v4
    // key whose ML-KEM-768+X25519 subkey gets a v3 PKESK with SEIPD v1.
    let profiles =
        [KeyProfile::Rfc9580, KeyProfile::Rfc4880, KeyProfile::Rfc9980, KeyProfile::Rfc9980High, KeyProfile::Rfc9980V4];
    for profile in profiles {
        let (k, sk, pk) = key(profile);
        exchange_with_sequoia(&py, &k, &sk, &pk, &format!("tessera's {} key", profile.name()));
    }
}

/// Sequoia's RFC 9980 keys (a certifying primary key, a signing and an
/// encryption subkey), in tessera's hands.
#[test]
fn tessera_verifies_and_decrypts_with_sequoia_rfc9980_keys() {
    let Some(py) = common::peer_python("pysequoia") else { return };
    for (profile, suite, encryption) in [
        ("RFC9580", "MLDSA65_Ed25519", "MLKEM768_X25519"),
        ("RFC9580", "MLDSA87_Ed448", "MLKEM1024_X448"),
        ("RFC4880", "Cv25519", "MLKEM768_X25519"),
    ] {
        let g = sequoia(
            &py,
            serde_json::json!({"op": "generate", "profile": profile, "suite": suite, "encryption": encryption}),
        );
        let sk = field(&g, "key");
        let k = Cert::from_bytes(&sk).unwrap_or_else(|e| panic!("{suite}: {e}"));
        let valid = k.validate(now()).unwrap();
        assert_eq!(valid.subkeys.len(), 2, "{suite}: a signing and an encryption subkey");
        let mut pk = Vec::new();
        k.to_public().write_armored(&mut pk).unwrap();
        exchange_with_sequoia(&py, &k, &sk, &pk, &format!("Sequoia's {profile} {suite} {encryption} key"));
    }
}

fn openpgp_js() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js");
    let ok = dir.join("node_modules/openpgp").is_dir()
        && Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    ok.then(|| dir.join("sign.mjs"))
}

fn node(script: &Path, cmd: &str, req: serde_json::Value) -> serde_json::Value {
    let mut child = Command::new("node")
        .arg(script)
        .arg(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node");
    child.stdin.take().unwrap().write_all(req.to_string().as_bytes()).unwrap();
    serde_json::from_slice(&ok(child.wait_with_output(), &format!("node sign.mjs {cmd}"))).unwrap()
}

#[test]
fn openpgp_js_verifies_tessera_and_tessera_verifies_openpgp_js() {
    let Some(js) = openpgp_js() else { return skip("OpenPGP.js (scripts/install-npm-peers)") };
    // OpenPGP.js 6 has no RFC 9980 algorithms.
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let (k, sk, pk) = key(profile);
        let [det, inl, clear] = tessera_sign(&k, TEXT, SigType::Binary);
        let s = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
        let v = node(
            &js,
            "verify",
            serde_json::json!({"cert": s(&pk), "data": B64.encode(TEXT), "detached": s(&det), "inline": s(&inl), "clear": s(&clear)}),
        );
        assert_eq!(
            (v["detached"].as_bool(), v["inline"].as_bool(), v["clear"].as_bool()),
            (Some(true), Some(true), Some(true)),
            "{v}"
        );
        assert_eq!(field(&v, "inlineData"), TEXT);
        let r = node(&js, "sign", serde_json::json!({"key": s(&sk), "data": B64.encode(TEXT)}));
        let g = |n: &str| r[n].as_str().unwrap().as_bytes().to_vec();
        tessera_verify_detached(&k, TEXT, &g("detached"), "openpgp.js detached");
        assert_eq!(tessera_verify_inline(&k, &g("inline"), "openpgp.js inline"), TEXT);
        // OpenPGP.js writes the cleartext frame with CR LF line endings; the
        // text comes back with the line endings the message holds.
        let crlf = String::from_utf8(TEXT.to_vec()).unwrap().replace('\n', "\r\n");
        assert_eq!(tessera_verify_clear(&k, &g("clear"), "openpgp.js cleartext"), crlf.as_bytes());
    }
}
