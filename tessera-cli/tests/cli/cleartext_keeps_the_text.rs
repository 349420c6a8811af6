//! Cleartext signing gives the text back byte for byte: `tessera sign
//! --cleartext` then `tessera verify -o` or `tessera-sop inline-verify`
//! (and `tessera-sop inline-sign --as=clearsigned` likewise) return the
//! file as it was, with or without a final newline, with CR LF line
//! endings, and empty; Sequoia (pysequoia) reads tessera's messages as the
//! same text, and tessera reads Sequoia's as the text Sequoia signed.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::run_with_stdin;

const T: &str = env!("CARGO_BIN_EXE_tessera");
const SOP: &str = env!("CARGO_BIN_EXE_tessera-sop");

/// Texts whose line endings and ends differ.
const TEXTS: [&[u8]; 9] = [
    b"first\nsecond\n",
    b"first\nsecond",
    b"",
    b"\n",
    b"\n\n",
    b"first\r\nsecond\r\n",
    b"first\r\nsecond",
    b"- dashed\n-----BEGIN PGP SIGNATURE-----\nend\n",
    b"one line",
];

fn run(exe: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(exe).args(args).current_dir(dir).stdin(Stdio::null()).output().expect("run")
}

fn ok(o: Output, what: &str) -> Vec<u8> {
    assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

fn keys(d: &Path) {
    ok(run(T, &["key", "generate", "--no-password", "--userid", "A <a@example.org>", "-o", "a.key"], d), "generate v6");
    ok(run(T, &["key", "cert", "a.key", "-o", "a.cert"], d), "cert v6");
    let v4 =
        ["key", "generate", "--no-password", "--profile", "rfc4880", "--userid", "B <b@example.org>", "-o", "b.key"];
    ok(run(T, &v4, d), "generate v4");
    ok(run(T, &["key", "cert", "b.key", "-o", "b.cert"], d), "cert v4");
}

#[test]
fn tessera_sign_then_verify_returns_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    for key in ["a", "b"] {
        for text in TEXTS {
            let what = format!("{key}: {:?}", String::from_utf8_lossy(text));
            std::fs::write(d.join("text"), text).unwrap();
            let signed = ok(run(T, &["sign", "--cleartext", "-i", &format!("{key}.key"), "text"], d), &what);
            std::fs::write(d.join("signed"), &signed).unwrap();
            let _ = std::fs::remove_file(d.join("out"));
            ok(run(T, &["verify", "--signer", &format!("{key}.cert"), "-o", "out", "signed"], d), &what);
            assert_eq!(std::fs::read(d.join("out")).unwrap(), text, "tessera verify -o, {what}");
            let o = run_with_stdin(SOP, &["inline-verify", d.join(format!("{key}.cert")).to_str().unwrap()], &signed);
            assert_eq!(ok(o, &what), text, "tessera-sop inline-verify, {what}");
            // The same through tessera-sop inline-sign.
            let o = run_with_stdin(
                SOP,
                &["inline-sign", "--as=clearsigned", d.join(format!("{key}.key")).to_str().unwrap()],
                text,
            );
            let signed = ok(o, &what);
            let o = run_with_stdin(SOP, &["inline-verify", d.join(format!("{key}.cert")).to_str().unwrap()], &signed);
            assert_eq!(ok(o, &what), text, "tessera-sop inline-sign then inline-verify, {what}");
            // The final line ending is signed: taking it away breaks the signature.
            if text.ends_with(b"\n") {
                let s = String::from_utf8(signed).unwrap();
                let cut = s.replacen("\n\n-----BEGIN PGP SIGNATURE-----", "\n-----BEGIN PGP SIGNATURE-----", 1);
                let o = run_with_stdin(
                    SOP,
                    &["inline-verify", d.join(format!("{key}.cert")).to_str().unwrap()],
                    cut.as_bytes(),
                );
                assert_eq!(o.status.code(), Some(3), "final newline removed, {what}");
            }
        }
    }
}

/// Sequoia: `verify CERT MSG` prints the verified text as hex (or fails);
/// `sign KEY TEXT` prints a cleartext-signed message of TEXT.
const SEQUOIA: &str = r#"
import sys, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
cmd = sys.argv[1]
if cmd == "verify":
    cert = ps.Cert.from_file(sys.argv[2])
    r = ps.verify(bytes=open(sys.argv[3], "rb").read(), store=lambda ids: [cert])
    assert len(r.valid_sigs) == 1, r.valid_sigs
    print(r.bytes.hex())
elif cmd == "sign":
    signer = ps.Tsk.from_file(sys.argv[2]).signer()
    sys.stdout.buffer.write(ps.sign(signer, open(sys.argv[3], "rb").read(), mode=ps.SignatureMode.CLEAR))
"#;

#[test]
fn sequoia_reads_the_same_text_both_ways() {
    let Some(py) = common::pysequoia() else { return common::skip_peer("pysequoia") };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keys(d);
    std::fs::write(d.join("seq.py"), SEQUOIA).unwrap();
    for key in ["a", "b"] {
        for text in TEXTS {
            let what = format!("{key}: {:?}", String::from_utf8_lossy(text));
            std::fs::write(d.join("text"), text).unwrap();
            ok(run(T, &["sign", "--cleartext", "-i", &format!("{key}.key"), "-o", "t.asc", "text"], d), &what);
            let o = Command::new(&py)
                .args(["seq.py", "verify", &format!("{key}.cert"), "t.asc"])
                .current_dir(d)
                .output()
                .unwrap();
            let hex = String::from_utf8(ok(o, &format!("sequoia verifies tessera, {what}"))).unwrap();
            let hex = hex.trim();
            let got: Vec<u8> =
                (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
            assert_eq!(got, text, "sequoia's text of tessera's message, {what}");

            let o = Command::new(&py)
                .args(["seq.py", "sign", &format!("{key}.key"), "text"])
                .current_dir(d)
                .output()
                .unwrap();
            std::fs::write(d.join("s.asc"), ok(o, &format!("sequoia signs, {what}"))).unwrap();
            let _ = std::fs::remove_file(d.join("out"));
            ok(run(T, &["verify", "--signer", &format!("{key}.cert"), "-o", "out", "s.asc"], d), &what);
            assert_eq!(std::fs::read(d.join("out")).unwrap(), text, "tessera's text of sequoia's message, {what}");
        }
    }
}
