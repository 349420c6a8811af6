//! `tessera-sop` fixes after the outside review: every `--with-session-key`
//! is tried, exit 13 for an unsupported public-key algorithm, no output
//! from a failed `encrypt --as=text`, output files checked before any
//! input is read, text given back with LF line endings.

mod common;

use common::sop::{Dir, key, sop_code, sop_ok};

const PLAIN: &[u8] = b"a message\n";

/// A session key file that fits no message (AES-256).
const WRONG_SK: &[u8] = b"9:00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF\n";

#[test]
fn every_session_key_is_tried_for_seipd_v2() {
    let d = Dir::new();
    let (k, c) = key(&d, "k", &[]);
    // One short message (one chunk) and one of several 256 KiB chunks.
    let long: Vec<u8> = (0..700_000u32).map(|i| (i % 251) as u8).collect();
    for (name, data) in [("short", PLAIN), ("long", long.as_slice())] {
        let ct = sop_ok(&["encrypt", "--no-armor", &c], data);
        let skf = d.p(&format!("{name}.sk"));
        assert_eq!(sop_ok(&["decrypt", &format!("--session-key-out={skf}"), &k], &ct), data);
        let wrong = d.write(&format!("{name}.wrong"), WRONG_SK);
        let (good, bad) = (format!("--with-session-key={skf}"), format!("--with-session-key={wrong}"));
        assert_eq!(sop_ok(&["decrypt", &bad, &good], &ct), data, "{name}: a wrong key first");
        assert_eq!(sop_ok(&["decrypt", &good, &bad], &ct), data, "{name}: a wrong key last");
        assert_eq!(sop_ok(&["decrypt", &bad, &bad, &good, &bad], &ct), data, "{name}");
        sop_code(&["decrypt", &bad, &bad], &ct, 29);
    }
}

#[test]
fn an_unsupported_public_key_algorithm_is_13() {
    let d = Dir::new();
    let elgamal = d.write("elg.cert", include_bytes!("data/elgamal-subkey.cert"));
    sop_code(&["encrypt", &elgamal], PLAIN, 13);
}

#[test]
fn a_text_input_failing_late_leaves_no_output() {
    let d = Dir::new();
    let (k, c) = key(&d, "k", &[]);
    let mut input = vec![b'a'; 200 << 10];
    input.extend_from_slice(b"\xff\xfe");
    for extra in [vec![], vec!["--sign-with", &k], vec!["--no-armor"]] {
        let mut args = vec!["encrypt", "--as=text"];
        args.extend(&extra);
        args.push(&c);
        sop_code(&args, &input, 53);
    }
    // Valid text still goes through (after the whole input was read).
    let ct = sop_ok(&["encrypt", "--as=text", &c], &input[..200 << 10]);
    assert_eq!(sop_ok(&["decrypt", &k], &ct), &input[..200 << 10]);
}

#[test]
fn output_files_are_checked_before_the_input_is_read() {
    let d = Dir::new();
    let (k, c) = key(&d, "k", &[]);
    let ct = sop_ok(&["encrypt", "--sign-with", &k, &c], PLAIN);
    let nowhere = d.p("no/such/dir/out");
    let exists = d.write("exists", b"keep me");
    for (opt, code) in [(nowhere.as_str(), 1), (exists.as_str(), 59)] {
        sop_code(&["decrypt", &format!("--session-key-out={opt}"), &k], &ct, code);
        sop_code(&["decrypt", "--verify-with", &c, &format!("--verifications-out={opt}"), &k], &ct, code);
        sop_code(&["sign", &format!("--micalg-out={opt}"), &k], PLAIN, code);
    }
    assert_eq!(d.read("exists"), b"keep me");
    // Nothing is left behind in the directory of a failed output.
    let names: Vec<_> = std::fs::read_dir(d.0.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(names.iter().all(|n| !n.to_string_lossy().starts_with(".tessera-sop-")), "{names:?}");
    // A good output is written, 0600 on unix.
    let vout = d.p("v");
    sop_ok(&["decrypt", "--verify-with", &c, &format!("--verifications-out={vout}"), &k], &ct);
    assert_eq!(d.read("v").split(|&b| b == b'\n').filter(|l| !l.is_empty()).count(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&vout).unwrap().permissions().mode() & 0o777, 0o600);
    }
}

#[test]
fn text_comes_back_with_lf_line_endings() {
    let d = Dir::new();
    let (k, c) = key(&d, "k", &[]);
    let text: &[u8] = b"one\ntwo\r\n\nlone \r cr\nend";
    let want: &[u8] = b"one\ntwo\n\nlone \r cr\nend";
    let vout = d.p("v");
    let ct = sop_ok(&["encrypt", "--as=text", "--sign-with", &k, &c], text);
    assert_eq!(sop_ok(&["decrypt", &k], &ct), want);
    let verified = sop_ok(&["decrypt", "--verify-with", &c, &format!("--verifications-out={vout}"), &k], &ct);
    assert_eq!(verified, want);
    assert!(String::from_utf8(d.read("v")).unwrap().contains("mode:text"));
    // Binary data is given back as it is.
    let binary = sop_ok(&["encrypt", "--sign-with", &k, &c], text);
    assert_eq!(sop_ok(&["decrypt", &k], &binary), text);
}
