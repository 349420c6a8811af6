//! `tessera-sop`'s edges: every `--with-session-key` is tried, exit 13 for an unsupported public-key algorithm, no output
//! from a failed `encrypt --as=text`, output files checked before any
//! input is read, text given back with LF line endings, special
//! designators other than `@ENV:` and (Linux) `@FD:` refused with 71 (73
//! when ambiguous), `@FD:N` reading and writing inherited descriptors.

use crate::common;

use common::sop::{Dir, SOP, key, sop_code, sop_ok};

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
    let elgamal = d.write("elg.cert", include_bytes!("../data/elgamal-subkey.cert"));
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

/// Every argument that takes indirect data (a file, `@ENV:NAME` or, on
/// Linux, `@FD:N`) refuses other special designators with 71
/// (UNSUPPORTED_SPECIAL_PREFIX) instead of reading a file of that name;
/// output arguments take only `@FD:N` (71 for the rest).
#[test]
fn unknown_special_designators_are_71() {
    let d = Dir::new();
    let (k, c) = key(&d, "k", &[]);
    let ct = sop_ok(&["encrypt", "--sign-with", &k, &c], PLAIN);
    let sig = d.write("sig", &sop_ok(&["sign", &k], PLAIN));
    let fd0 = if cfg!(target_os = "linux") { "@FD:x" } else { "@FD:0" };
    for spec in ["@FOO:bar", fd0, "@FD:", "@FD:-1", "@", "@env:LOWER"] {
        let opt = |name: &str| format!("--{name}={spec}");
        sop_code(&["encrypt", spec], PLAIN, 71);
        sop_code(&["encrypt", &opt("with-password")], PLAIN, 71);
        sop_code(&["encrypt", &opt("sign-with"), &c], PLAIN, 71);
        sop_code(&["encrypt", &opt("with-key-password"), "--sign-with", &k, &c], PLAIN, 71);
        sop_code(&["decrypt", spec], &ct, 71);
        sop_code(&["decrypt", &opt("with-password")], &ct, 71);
        sop_code(&["decrypt", &opt("with-session-key")], &ct, 71);
        sop_code(&["decrypt", &opt("verify-with"), "--verifications-out", &d.p("v1"), &k], &ct, 71);
        sop_code(&["sign", spec], PLAIN, 71);
        sop_code(&["inline-sign", spec], PLAIN, 71);
        sop_code(&["verify", spec, &c], PLAIN, 71);
        sop_code(&["verify", &sig, spec], PLAIN, 71);
        sop_code(&["inline-verify", spec], PLAIN, 71);
        sop_code(&["generate-key", &opt("with-key-password"), "A"], b"", 71);
        sop_code(&["change-key-password", &opt("new-key-password")], &d.read("k.key"), 71);
        sop_code(&["decrypt", &opt("session-key-out"), &k], &ct, 71);
        sop_code(&["decrypt", "--verify-with", &c, &opt("verifications-out"), &k], &ct, 71);
        sop_code(&["sign", &opt("micalg-out"), &k], PLAIN, 71);
        sop_code(&["inline-detach", &opt("signatures-out")], PLAIN, 71);
    }
    // @ENV: is read, and refused as an output.
    let o = std::process::Command::new(SOP)
        .args(["encrypt", "--with-password=@ENV:TESSERA_PW"])
        .env("TESSERA_PW", "pw")
        .output();
    assert!(o.unwrap().status.success());
    sop_code(&["sign", "--micalg-out=@ENV:X", &k], PLAIN, 71);
}

/// A special designator that also names an existing file is 73
/// (AMBIGUOUS_INPUT): neither is picked.
#[test]
fn a_designator_naming_a_file_is_73() {
    let d = Dir::new();
    let (_, c) = key(&d, "k", &[]);
    for name in ["@ENV:HOME", "@FOO:bar", "@FD:0"] {
        std::fs::copy(&c, d.p(name)).unwrap();
        let o = std::process::Command::new(SOP).args(["encrypt", name]).current_dir(d.0.path()).output().unwrap();
        assert_eq!(o.status.code(), Some(73), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stdout.is_empty());
    }
}

/// Runs `tessera-sop ARGS` through `sh` with the redirections `redirs`
/// (`3<FILE`, `4>FILE`, `3<&0`...) so that it inherits those descriptors.
#[cfg(target_os = "linux")]
fn sop_with_fds(args: &[&str], redirs: &str, stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirs}"))
        .arg(SOP)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A child that fails before it reads (a descriptor that is not open)
    // may have closed the pipe already: what it says is checked instead.
    match child.stdin.take().unwrap().write_all(stdin) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        r => r.unwrap(),
    }
    child.wait_with_output().unwrap()
}

/// `@FD:N` reads an inherited descriptor (a file or a pipe) and writes one
/// (a file or a pipe); a descriptor that is not open is 61 for input.
#[test]
#[cfg(target_os = "linux")]
fn fd_designators_read_and_write_inherited_descriptors() {
    let d = Dir::new();
    let pw = d.write("pw", b"fd password");
    let (k, c) = key(&d, "k", &[]);
    let ok = |o: std::process::Output| {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o
    };
    // A password from a file on fd 3, and from a pipe (stdin as fd 3).
    for (name, redirs, stdin) in [("file", format!("3<'{pw}'"), &b""[..]), ("pipe", "3<&0".into(), b"fd password")] {
        let locked = ok(sop_with_fds(&["generate-key", "--with-key-password=@FD:3", "A"], &redirs, stdin)).stdout;
        let lk = d.write(&format!("{name}.key"), &locked);
        sop_code(&["sign", &lk], PLAIN, 67);
        sop_ok(&["sign", &format!("--with-key-password={pw}"), &lk], PLAIN);
    }
    // A session key written to a file on fd 4, then read back from fd 5.
    let ct = sop_ok(&["encrypt", &c], PLAIN);
    let skf = d.p("sk");
    let o = ok(sop_with_fds(&["decrypt", "--session-key-out=@FD:4", &k], &format!("4>'{skf}'"), &ct));
    assert_eq!(o.stdout, PLAIN);
    let sk = d.read("sk");
    assert!(sk.starts_with(b"9:") && sk.ends_with(b"\n"), "{}", String::from_utf8_lossy(&sk));
    let o = ok(sop_with_fds(&["decrypt", "--with-session-key=@FD:5"], &format!("5<'{skf}'"), &ct));
    assert_eq!(o.stdout, PLAIN);
    // An output to a pipe: the micalg on stderr (fd 2).
    let o = ok(sop_with_fds(&["sign", "--micalg-out=@FD:2", &k], "", PLAIN));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("pgp-sha"), "{:?}", o.stderr);
    // A descriptor that is not open.
    sop_code(&["encrypt", "--with-password=@FD:987"], PLAIN, 61);
    let o = sop_with_fds(&["decrypt", "--session-key-out=@FD:987", &k], "", &ct);
    assert!(!o.status.success() && o.stdout.is_empty(), "nothing decrypted when the output cannot be opened");
}
